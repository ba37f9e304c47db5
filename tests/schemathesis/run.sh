#!/usr/bin/env bash
# Fuzzes the REST API v2 with Schemathesis (from PyPI) against the real server
# on the demo data, with the admin's API token and every check: no server
# error, no undocumented status, no response that breaks the schema.
# Run it through scripts/with-demo-server.sh (LIFTDESK_URL, LIFTDESK_CREDENTIALS).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${LIFTDESK_PY_VENV:-$HOME/.cache/liftdesk/venv}"
if [ ! -x "$venv/bin/st" ]; then
  echo "==> installation de schemathesis dans $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis>=4.32,<5'
fi

# Records of the demo's first agency (the admin's default) for the reads by
# id and the equipment reads (see schemathesis.toml), from its database
# (scripts/demo_db.py: SQLite or PostgreSQL).
samples="$(python3 - "$LIFTDESK_CREDENTIALS" <<'PY'
import json, shlex, sys
sys.path.insert(0, "scripts")
from demo_db import first_row
creds = json.load(open(sys.argv[1]))
agency = creds["agencies"][0]["id"]
def one(sql):
    row = first_row(sys.argv[1], sql, agency)
    if row is None:
        sys.exit(f"aucune donnée de démonstration pour : {sql}")
    return row
samples = {
    "LIFTDESK_SAMPLE_AGENCY_ID": agency,
    "LIFTDESK_SAMPLE_CALL_ID": one("SELECT id FROM calls WHERE agency_id = ? ORDER BY received_at DESC LIMIT 1")[0],
    "LIFTDESK_SAMPLE_VISIT_ID": one("SELECT id FROM visits WHERE agency_id = ? ORDER BY planned_for DESC, id LIMIT 1")[0],
    "LIFTDESK_SAMPLE_QUOTE_ID": one("SELECT id FROM quotes WHERE agency_id = ? ORDER BY created_at DESC, id LIMIT 1")[0],
    "LIFTDESK_SAMPLE_INVOICE_ID": one("SELECT id FROM invoices WHERE agency_id = ? ORDER BY created_at DESC, id LIMIT 1")[0],
    "LIFTDESK_SAMPLE_SURVEY_ID": one("SELECT id FROM surveys WHERE agency_id = ? ORDER BY created_at DESC, id LIMIT 1")[0],
}
samples["LIFTDESK_SAMPLE_DONE_VISIT_ID"] = one("SELECT id FROM visits WHERE agency_id = ? AND status = 'faite' ORDER BY done_on DESC, id LIMIT 1")[0]
samples["LIFTDESK_SAMPLE_CONTRACT_ID"] = one("SELECT id FROM contracts WHERE agency_id = ? AND status = 'actif' ORDER BY number LIMIT 1")[0]
samples["LIFTDESK_SAMPLE_DRAFT_CONTRACT_ID"] = one("SELECT id FROM contracts WHERE agency_id = ? AND status = 'brouillon' ORDER BY number LIMIT 1")[0]
samples["LIFTDESK_SAMPLE_DELETED_CONTRACT_ID"] = one("SELECT id FROM contracts WHERE agency_id = ? AND status = 'brouillon' ORDER BY number DESC LIMIT 1")[0]
samples["LIFTDESK_SAMPLE_BUILDING_ID"] = one("SELECT id FROM buildings WHERE agency_id = ? ORDER BY id LIMIT 1")[0]
samples["LIFTDESK_SAMPLE_TECHNICIAN_ID"] = one("SELECT id FROM technicians WHERE agency_id = ? AND active = 1 ORDER BY id LIMIT 1")[0]
# The member (never the admin whose token fuzzes: deactivating it would end the run).
member = first_row(sys.argv[1], "SELECT id FROM accounts WHERE email = ?", creds["member"]["email"])
if member is None:
    sys.exit("aucun membre dans la démonstration")
samples["LIFTDESK_SAMPLE_PERSON_ID"] = member[0]
equipment = one("SELECT id, replace(number, ' ', '') FROM equipment WHERE agency_id = ? AND number IS NOT NULL AND maintenance_contract = 'parc' ORDER BY number LIMIT 1")
samples["LIFTDESK_SAMPLE_EQUIPMENT_ID"], samples["LIFTDESK_SAMPLE_EQUIPMENT_NUMBER"] = equipment
for name, value in samples.items():
    print(f"export {name}={shlex.quote(value)}")
PY
)"
eval "$samples"

token="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["admin"]["apiToken"])' "$LIFTDESK_CREDENTIALS")"

# Two webhook subscriptions of the agency, one to test and read, one to
# revoke (once revoked, it answers 404). Their receiver is a closed loopback
# port: a test send fails at once, without any DNS lookup.
subscribe() {
  python3 - "$LIFTDESK_URL" "$token" "$LIFTDESK_SAMPLE_AGENCY_ID" <<'PY'
import json, sys, urllib.request
url, token, agency = sys.argv[1:4]
request = urllib.request.Request(
    f"{url}/api/v2/webhooks",
    data=json.dumps({"url": "https://127.0.0.1:9/schemathesis", "events": ["appel.clos"]}).encode(),
    headers={"Authorization": f"Bearer {token}", "X-Service-Agency": agency, "Content-Type": "application/json"},
    method="POST",
)
print(json.load(urllib.request.urlopen(request))["id"])
PY
}
# An uploaded file of the agency, for the import steps by fileId (a random
# fileId is only ever 404).
upload() {
  python3 - "$LIFTDESK_URL" "$token" "$LIFTDESK_SAMPLE_AGENCY_ID" <<'PY'
import base64, json, sys, urllib.request
url, token, agency = sys.argv[1:4]
csv = "N° appareil;Adresse;Charge utile (kg);Raison sociale\nSCH-001;1 rue du Test;630;Syndic Test\n"
request = urllib.request.Request(
    f"{url}/api/v2/imports/files",
    data=json.dumps({"name": "schemathesis.csv", "content": base64.b64encode(csv.encode()).decode()}).encode(),
    headers={"Authorization": f"Bearer {token}", "X-Service-Agency": agency, "Content-Type": "application/json"},
    method="POST",
)
print(json.load(urllib.request.urlopen(request))["fileId"])
PY
}
LIFTDESK_SAMPLE_IMPORT_FILE_ID="$(upload)"
export LIFTDESK_SAMPLE_IMPORT_FILE_ID
LIFTDESK_SAMPLE_WEBHOOK_ID="$(subscribe)"
LIFTDESK_SAMPLE_REVOKED_WEBHOOK_ID="$(subscribe)"
export LIFTDESK_SAMPLE_WEBHOOK_ID LIFTDESK_SAMPLE_REVOKED_WEBHOOK_ID
# The hooks check the PDF documents' bytes (tests/schemathesis/hooks.py).
PYTHONPATH="$(pwd)/tests/schemathesis${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=hooks \
  "$venv/bin/st" --config-file schemathesis.toml run "$LIFTDESK_URL/api/v2/openapi.json" \
  -H "Authorization: Bearer $token" \
  --checks all \
  --max-examples 20 \
  --seed 1 \
  --workers 1
