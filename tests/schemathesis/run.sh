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

# A breakdown call of the demo for GET /calls/{id} (see schemathesis.toml):
# no operation of the REST API lists calls.
LIFTDESK_SAMPLE_CALL_ID="$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute("SELECT id FROM calls ORDER BY received_at DESC LIMIT 1").fetchone()[0])' "$(dirname "$LIFTDESK_CREDENTIALS")/liftdesk.db")"
export LIFTDESK_SAMPLE_CALL_ID
# An equipment of the admin's default agency (the demo's first), under contract.
read -r LIFTDESK_SAMPLE_EQUIPMENT_ID LIFTDESK_SAMPLE_EQUIPMENT_NUMBER < <(python3 -c '
import json, sqlite3, sys
creds = json.load(open(sys.argv[1]))
db = sqlite3.connect(f"file:{sys.argv[2]}?mode=ro", uri=True)
row = db.execute("SELECT id, replace(number, \" \", \"\") FROM equipment WHERE agency_id = ? AND number IS NOT NULL AND maintenance_contract = \"parc\" ORDER BY number LIMIT 1", (creds["agencies"][0]["id"],)).fetchone()
print(row[0], row[1])' "$LIFTDESK_CREDENTIALS" "$(dirname "$LIFTDESK_CREDENTIALS")/liftdesk.db")
export LIFTDESK_SAMPLE_EQUIPMENT_ID LIFTDESK_SAMPLE_EQUIPMENT_NUMBER

token="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["admin"]["apiToken"])' "$LIFTDESK_CREDENTIALS")"
"$venv/bin/st" --config-file schemathesis.toml run "$LIFTDESK_URL/api/v2/openapi.json" \
  -H "Authorization: Bearer $token" \
  --checks all \
  --max-examples 20 \
  --seed 1 \
  --workers 1
