"""A webhook receiver that checks every request with Stripe's own library.

Liftdesk signs its deliveries with Stripe's scheme (`X-Service-Signature:
t=<seconds>,v1=<hex HMAC-SHA256 of "<seconds>.<body>">`), so
`stripe.WebhookSignature.verify_header` is a verifier nobody on the team wrote.
Driven by tests/webhooks/stripe_verify.sh.

    stripe_receiver.py serve --port-file F --secret-file S --log L
        Listens on a free loopback port (written to F), verifies EVERY request
        with the secret read from S (written once the subscription exists),
        answers 200 if stripe accepts it and 400 otherwise, and appends one
        JSON line per request to L.

    stripe_receiver.py counter-checks --log L --secret-file S --delivery ID
        Counter-checks on a delivery recorded in L: stripe accepts it as
        received, and rejects it with a tampered body, with a wrong secret,
        and signed (by stripe's own helper) six minutes ago.
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import stripe

TOLERANCE = 300


def verify(payload_text, header, secret):
    """(True, None) if stripe accepts the signature, else (False, reason)."""
    try:
        stripe.WebhookSignature.verify_header(payload_text, header, secret, tolerance=TOLERANCE)
        return True, None
    except stripe.SignatureVerificationError as err:
        return False, str(err)


def serve(args):
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            payload = self.rfile.read(length)
            header = self.headers.get("X-Service-Signature")
            try:
                with open(args.secret_file, encoding="utf-8") as f:
                    secret = f.read().strip()
            except OSError:
                secret = None
            try:
                text = payload.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if text is None:
                ok, error = False, "corps non UTF-8"
            elif not secret:
                ok, error = False, "secret pas encore connu"
            else:
                ok, error = verify(text, header, secret)
            try:
                event = json.loads(text or "").get("event")
            except (ValueError, AttributeError):
                event = None
            record = {
                "delivery": self.headers.get("X-Service-Livraison"),
                "event": event,
                "verified": ok,
                "error": error,
                "signature": header,
                "contentType": self.headers.get("Content-Type"),
                "body": text,
                "receivedAt": time.time(),
            }
            with lock, open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
            answer = json.dumps({"ok": ok, "error": error}).encode("utf-8")
            self.send_response(200 if ok else 400)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format, *args):  # noqa: A002 (the base class's name)
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    server.serve_forever()


def counter_checks(args):
    with open(args.secret_file, encoding="utf-8") as f:
        secret = f.read().strip()
    with open(args.log, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    matching = [r for r in records if r["delivery"] == args.delivery and r["verified"]]
    if not matching:
        print(f"ÉCHEC : aucune livraison {args.delivery} vérifiée dans le journal")
        return 1
    record = matching[0]
    body, header = record["body"], record["signature"]
    tampered = body.replace('"status":"', '"status":"x', 1)
    if tampered == body:
        tampered = body + " "
    wrong_secret = "whsec_" + "0" * 32
    stale_header = stripe.WebhookSignature.generate_signature_header(
        body, secret, timestamp=int(time.time()) - 360
    )
    cases = [
        ("livraison telle que reçue, bon secret", body, header, secret, True),
        ("corps altéré (un caractère)", tampered, header, secret, False),
        ("mauvais secret", body, header, wrong_secret, False),
        ("signée par stripe il y a 6 minutes", body, stale_header, secret, False),
    ]
    failures = 0
    for label, payload, sig, key, expected in cases:
        ok, error = verify(payload, sig, key)
        verdict = "acceptée" if ok else f"refusée ({error})"
        if ok == expected:
            print(f"  ok : {label} : {verdict}")
        else:
            failures += 1
            wanted = "acceptée" if expected else "refusée"
            print(f"  ÉCHEC : {label} : {verdict}, attendu : {wanted}")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("serve")
    p.add_argument("--port-file", required=True)
    p.add_argument("--secret-file", required=True)
    p.add_argument("--log", required=True)
    c = sub.add_parser("counter-checks")
    c.add_argument("--log", required=True)
    c.add_argument("--secret-file", required=True)
    c.add_argument("--delivery", required=True)
    args = parser.parse_args()
    if args.command == "serve":
        serve(args)
        return 0
    return counter_checks(args)


if __name__ == "__main__":
    sys.exit(main())
