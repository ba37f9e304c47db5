#!/usr/bin/env bash
# The webhook signatures checked by a verifier nobody on the team wrote: Stripe's
# Python library (`stripe.WebhookSignature.verify_header`, same scheme).
#
# Starts the real server on the demo data (scripts/with-demo-server.sh, with
# http:// loopback receivers allowed and no connectivity probe), a Python
# receiver that verifies EVERY request with stripe (stripe_receiver.py),
# subscribes it to every event, then sends a `ping`, resolves a demo call
# (`appel.clos`) and accepts a demo quote (`devis.accepte`) through REST v2.
# Passes when every delivery is `livree`, stripe accepted every request (at
# least two real deliveries, no refusal), and stripe does refuse a tampered
# body, a wrong secret and a stale timestamp. Exits non-zero otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${LIFTDESK_PY_VENV:-$HOME/.cache/liftdesk/venv}"
py="$venv/bin/python"
STRIPE_VERSION="16.1.0"

if [ -z "${LIFTDESK_STRIPE_VERIFY_SERVER:-}" ]; then
  # Outer run: the venv (shared with the Schemathesis step), then this
  # script again inside a fresh demo server.
  if ! "$py" -c 'import stripe' 2>/dev/null; then
    echo "==> installation de stripe $STRIPE_VERSION dans $venv"
    if [ ! -x "$py" ]; then python3 -m venv "$venv"; fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "stripe==$STRIPE_VERSION"
  fi
  export LIFTDESK_STRIPE_VERIFY_SERVER=1
  export LIFTDESK_INSECURE_WEBHOOKS=1
  export LIFTDESK_CONNECTIVITY_PROBE=off
  exec bash scripts/with-demo-server.sh bash tests/webhooks/stripe_verify.sh
fi

# Inner run: LIFTDESK_URL and LIFTDESK_CREDENTIALS come from with-demo-server.sh.
work="$(mktemp -d)"
fail() {
  echo "ÉCHEC (webhooks / stripe) : $*" >&2
  if [ -s "$work/received.jsonl" ]; then
    echo "Reçu par le destinataire :" >&2
    "$py" -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print("  %s %s : %s" % (r["event"], r["delivery"], "acceptée par stripe" if r["verified"] else "refusée par stripe : " + str(r["error"])))' "$work/received.jsonl" >&2
  fi
  exit 1
}
command -v curl >/dev/null || fail "curl est introuvable (scripts/setup.sh l'installe)"

receiver_pid=""
cleanup() {
  if [ -n "$receiver_pid" ]; then
    kill "$receiver_pid" 2>/dev/null || true
    wait "$receiver_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# json FILE EXPR: a value of a JSON file, EXPR in Python over `d`.
json() {
  "$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); v = eval(sys.argv[2]); print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

token="$(json "$LIFTDESK_CREDENTIALS" 'd["admin"]["apiToken"]')"
agency="$(json "$LIFTDESK_CREDENTIALS" 'd["agencies"][0]["id"]')"

# api METHOD PATH [BODY]: the answer in $work/answer.json, the HTTP status on stdout.
api() {
  local args=(-sS -o "$work/answer.json" -w '%{http_code}' -X "$1"
    -H "Authorization: Bearer $token" -H "X-Service-Agency: $agency")
  if [ $# -ge 3 ]; then args+=(-H 'Content-Type: application/json' --data "$3"); fi
  curl "${args[@]}" "$LIFTDESK_URL/api/v2$2"
}
expect() { # expect STATUS WHAT: the last answer had that status
  if [ "$code" != "$1" ]; then
    fail "$2 : HTTP $code au lieu de $1 : $(cat "$work/answer.json")"
  fi
}
# One demo record of the agency, empty if none (scripts/demo_db.py: the
# SQLite file read-only, or PostgreSQL through psql).
demo_record() {
  "$py" scripts/demo_db.py "$LIFTDESK_CREDENTIALS" "$1" "$agency"
}

# The receiver, on a free loopback port.
"$py" tests/webhooks/stripe_receiver.py serve \
  --port-file "$work/port" --secret-file "$work/secret" --log "$work/received.jsonl" &
receiver_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/port" ] && break
  kill -0 "$receiver_pid" 2>/dev/null || fail "le destinataire Python s'est arrêté au démarrage"
  sleep 0.1
done
[ -s "$work/port" ] || fail "le destinataire Python n'a pas annoncé son port"
receiver="http://127.0.0.1:$(cat "$work/port")/liftdesk"

# The subscription; its secret is shown once, and given to the receiver.
code="$(api POST /webhooks "{\"url\":\"$receiver\",\"events\":[\"appel.clos\",\"releve.termine\",\"devis.accepte\"]}")"
expect 201 "abonnement"
subscription="$(json "$work/answer.json" 'd["id"]')"
(umask 077 && json "$work/answer.json" 'd["secret"]' >"$work/secret")

# A ping: sent at once by the server.
code="$(api POST "/webhooks/$subscription/test")"
expect 201 "envoi de test"
ping_delivery="$(json "$work/answer.json" 'd["delivery"]["id"]')"

# A demo call of the agency closed: appel.clos.
call="$(demo_record "SELECT id FROM calls WHERE agency_id = ? AND status <> 'resolue' ORDER BY received_at LIMIT 1")"
[ -n "$call" ] || fail "aucun appel ouvert dans l'agence de démonstration"
code="$(api POST "/calls/$call/status" '{"statut":"resolue"}')"
expect 201 "résolution de l'appel $call"

# A demo quote accepted: devis.accepte. The oldest one waiting is past its
# validity: it is renewed first, as the agency does before the client signs.
quote="$(demo_record "SELECT id FROM quotes WHERE agency_id = ? AND status IN ('brouillon', 'envoye') ORDER BY created_at, id LIMIT 1")"
[ -n "$quote" ] || fail "aucun devis à accepter dans l'agence de démonstration"
code="$(api POST "/quotes/$quote/renew")"
expect 201 "renouvellement du devis $quote"
code="$(api POST "/quotes/$quote/accept")"
expect 201 "acceptation du devis $quote"

# Until the three deliveries are `livree` (the sync task polls every 2 s); a
# failed attempt stops at once (stripe refused, or the receiver was unreachable).
objects="{\"ping\":\"$subscription\",\"appel.clos\":\"$call\",\"devis.accepte\":\"$quote\"}"
state=""
for _ in $(seq 1 120); do
  code="$(api GET "/webhooks/$subscription/deliveries?limit=200")"
  expect 200 "liste des livraisons"
  state="$("$py" - "$work/answer.json" "$objects" <<'PY'
import json, sys
page = json.load(open(sys.argv[1]))
wanted = json.loads(sys.argv[2])
found = {}
for d in page["results"]:
    if wanted.get(d["event"]) == d["objectId"]:
        found[d["event"]] = d
bad = [d for d in page["results"] if d["status"] in ("echec", "abandonnee")]
if bad:
    print("echec " + json.dumps(bad, ensure_ascii=False))
elif len(found) == len(wanted) and all(d["status"] == "livree" for d in found.values()):
    print("livree " + " ".join(d["id"] for d in found.values()))
else:
    print("attente")
PY
)"
  case "$state" in
    livree*|echec*) break ;;
  esac
  sleep 0.5
done
case "$state" in
  livree*) ;;
  echec*) fail "une livraison a échoué : ${state#echec }" ;;
  *) fail "livraisons toujours en attente après 60 s : $(cat "$work/answer.json")" ;;
esac
read -r -a deliveries <<<"${state#livree }"
[[ " ${deliveries[*]} " == *" $ping_delivery "* ]] || fail "le ping $ping_delivery n'est pas dans la liste"

# What the receiver saw: every request verified by stripe, each delivery once.
"$py" - "$work/received.jsonl" "${deliveries[@]}" <<'PY' || fail "le destinataire n'a pas tout vérifié (voir ci-dessus)"
import json, sys, time
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
expected = set(sys.argv[2:])
refused = [r for r in records if not r["verified"]]
for r in refused:
    print(f"  refusée par stripe : {r['delivery']} ({r['event']}) : {r['error']}")
verified = {r["delivery"]: r for r in records if r["verified"]}
missing = expected - set(verified)
for d in sorted(missing):
    print(f"  jamais reçue vérifiée : {d}")
strangers = set(r["delivery"] for r in records) - expected
for d in sorted(strangers):
    print(f"  livraison inattendue : {d}")
bad_type = [r for r in records if r["contentType"] != "application/json"]
for r in bad_type:
    print(f"  Content-Type {r['contentType']!r} pour {r['delivery']}")
real = [r for r in verified.values() if r["event"] != "ping"]
print("Reçu par le destinataire Python (chaque requête vérifiée avec stripe) :")
for r in sorted(records, key=lambda r: r["receivedAt"]):
    t = (r["signature"] or "sans signature").split(",")[0]
    state = "acceptée" if r["verified"] else "REFUSÉE"
    print(f"  {r['event']:<14} {r['delivery']}  {t}  signature {state} par stripe")
if refused or missing or strangers or bad_type or len(real) < 2:
    if len(real) < 2:
        print(f"  {len(real)} événement(s) métier vérifié(s), au moins 2 attendus")
    sys.exit(1)
PY
requests="$(grep -c . "$work/received.jsonl")"

# Counter-checks: stripe can refuse. First live, a tampered replay of the
# appel.clos delivery to the receiver, then offline on the same delivery.
call_delivery="$("$py" - "$work/received.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["event"] == "appel.clos" and r["verified"]:
        print(r["delivery"])
        break
PY
)"
"$py" - "$work/received.jsonl" "$call_delivery" "$work/replay" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["delivery"] == sys.argv[2]:
        open(sys.argv[3] + ".body", "w").write(r["body"].replace('"resolue"', '"ouverte"', 1))
        open(sys.argv[3] + ".sig", "w").write(r["signature"])
        break
PY
replay_code="$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$receiver" \
  -H 'Content-Type: application/json' \
  -H "X-Service-Livraison: $call_delivery" \
  -H "X-Service-Signature: $(cat "$work/replay.sig")" \
  --data-binary @"$work/replay.body")"
[ "$replay_code" = "400" ] || fail "le destinataire a accepté un corps altéré (HTTP $replay_code)"
echo "Contre-épreuves (stripe doit pouvoir refuser) :"
echo "  ok : corps altéré rejoué au destinataire : refusé (HTTP 400)"
"$py" tests/webhooks/stripe_receiver.py counter-checks \
  --log "$work/received.jsonl" --secret-file "$work/secret" --delivery "$call_delivery" \
  || fail "une contre-épreuve n'a pas donné le résultat attendu"

stripe_version="$("$py" -c 'import stripe; print(stripe.VERSION)')"
echo "Webhooks vérifiés par la bibliothèque stripe $stripe_version (Python) :"
echo "  ${#deliveries[@]} livraisons « livree » (ping, appel.clos, devis.accepte), $requests requêtes reçues, toutes acceptées par stripe, 0 refus ;"
echo "  corps altéré, mauvais secret et horodatage de plus de 5 minutes : refusés."
