"""A real local SMTP receiver for the e-mail tests (aiosmtpd).

Starts on 127.0.0.1 at a free port, prints `PORT <n>` on its standard
output, then writes every message it accepts to the folder `--out`: the raw
message (`<n>.eml`) and what Python's own e-mail parser reads in it
(`<n>.json`: envelope, headers, text, attachments with their size, SHA-256
and first bytes, the login used). It stops when its standard input closes
(the test that started it ended) or on SIGTERM.

Options:
  --out DIR          where the messages go (required)
  --user U --password P
                     require this login (AUTH PLAIN/LOGIN, without TLS: a
                     test on the loopback); a wrong one gets 535
  --fail-first N     answer 451 (try again later) to the first N messages
  --reject           answer 550 to every message
  --delay S          wait S seconds before accepting a message (a slow
                     server: a send in flight for a while)
"""

import argparse
import asyncio
import email
import email.policy
import hashlib
import json
import os
import socket
import sys
import threading
import warnings

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Authenticator:
    def __init__(self, user, password):
        self.user = user
        self.password = password

    def __call__(self, server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == self.user
            and auth_data.password.decode() == self.password
        )
        if ok:
            session.sink_login = self.user
        return AuthResult(success=ok, handled=False)


class Handler:
    def __init__(self, out, fail_first, reject, delay=0.0):
        self.out = out
        self.fail_first = fail_first
        self.reject = reject
        self.delay = delay
        self.seen = 0
        self.saved = 0

    async def handle_DATA(self, server, session, envelope):
        self.seen += 1
        if self.reject:
            return "550 5.7.1 Message refusé par le destinataire de test"
        if self.seen <= self.fail_first:
            return "451 4.3.0 Essayez plus tard"
        if self.delay:
            await asyncio.sleep(self.delay)
        self.saved += 1
        n = self.saved
        raw = envelope.original_content or envelope.content
        with open(os.path.join(self.out, f"{n}.eml"), "wb") as f:
            f.write(raw)
        message = email.message_from_bytes(raw, policy=email.policy.default)
        text = None
        attachments = []
        for part in message.walk():
            if part.is_multipart():
                continue
            if part.get_content_disposition() == "attachment":
                payload = part.get_payload(decode=True) or b""
                attachments.append(
                    {
                        "filename": part.get_filename(),
                        "contentType": part.get_content_type(),
                        "size": len(payload),
                        "sha256": hashlib.sha256(payload).hexdigest(),
                        "head": payload[:8].decode("latin-1"),
                    }
                )
            elif part.get_content_type() == "text/plain" and text is None:
                text = part.get_content()
        login = getattr(session, "sink_login", None)
        summary = {
            "mailFrom": envelope.mail_from,
            "rcptTos": envelope.rcpt_tos,
            "login": login,
            "from": str(message["From"]),
            "to": str(message["To"]),
            "replyTo": str(message["Reply-To"]) if message["Reply-To"] else None,
            "subject": str(message["Subject"]),
            "date": str(message["Date"]) if message["Date"] else None,
            "messageId": str(message["Message-ID"]) if message["Message-ID"] else None,
            "contentType": message.get_content_type(),
            "text": text,
            "attachments": attachments,
        }
        tmp = os.path.join(self.out, f".{n}.json")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(summary, f, ensure_ascii=False)
        os.replace(tmp, os.path.join(self.out, f"{n}.json"))
        return "250 Message accepted for delivery"


def main():
    # Login without TLS is what this receiver is for (the loopback).
    warnings.filterwarnings("ignore")
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--user")
    parser.add_argument("--password")
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--reject", action="store_true")
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    port = free_port()
    kwargs = {}
    if args.user:
        kwargs.update(
            authenticator=Authenticator(args.user, args.password or ""),
            auth_required=True,
            auth_require_tls=False,
        )
    controller = Controller(
        Handler(args.out, args.fail_first, args.reject, args.delay),
        hostname="127.0.0.1",
        port=port,
        **kwargs,
    )
    controller.start()
    print(f"PORT {port}", flush=True)
    stop = threading.Event()

    def watch_stdin():
        try:
            sys.stdin.read()
        finally:
            stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        import signal

        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        stop.wait()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
