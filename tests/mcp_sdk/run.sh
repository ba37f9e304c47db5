#!/usr/bin/env bash
# The official MCP Python SDK (`mcp` from PyPI) connects to the running server
# (demo data), lists the tools and calls two of them (client.py).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv="${LIFTDESK_PY_VENV:-$HOME/.cache/liftdesk/venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import mcp, httpx2' 2>/dev/null; then
  echo "==> installation du SDK MCP Python dans $venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp==2.3.0'
fi
bash scripts/with-demo-server.sh "$venv/bin/python" tests/mcp_sdk/client.py
