#!/usr/bin/env bash
# Every check of the project, as CI runs it: formatting, lints, every Rust
# test of the workspace, the UI's type check, build and unit tests, the
# browser tests and Schemathesis against the real server, the webhook
# signatures checked by Stripe's Python library, the official MCP Python SDK
# against the MCP server, the desktop test under Xvfb, and the instruction-count
# gate of the hot paths (bench/icount.sh: fails on a regression over 5%).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
export CARGO_TERM_COLOR=never
export LIFTDESK_ARTIFACTS="${LIFTDESK_ARTIFACTS:-$ROOT/test-artifacts}"
mkdir -p "$LIFTDESK_ARTIFACTS"

bash scripts/setup.sh

echo "==> UI : installation, vérification des types, construction, tests unitaires"
(cd ui && npm ci --no-audit --no-fund && npm run check && npm run build && npm test)

echo "==> Rust : format et lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings

echo "==> Rust : tests de tout l'espace de travail"
cargo test --workspace

echo "==> Banc : comptes d'instructions (callgrind) contre la référence (bench/baseline)"
bash bench/icount.sh

echo "==> Navigateur : tests de l'interface contre le vrai serveur (démo)"
bash scripts/with-demo-server.sh bash -c 'cd ui && npm run e2e'

echo "==> API REST v2 : schemathesis contre le vrai serveur (démo)"
# The fuzzer's server gets a high rate limit: the limit has its own test, and
# pacing the fuzzer would only slow the run.
LIFTDESK_RATE_LIMIT=100000/10000 bash scripts/with-demo-server.sh bash tests/schemathesis/run.sh

echo "==> Webhooks : signatures vérifiées par la bibliothèque stripe (Python)"
bash tests/webhooks/stripe_verify.sh

echo "==> MCP : le SDK Python officiel contre le vrai serveur (démo)"
bash tests/mcp_sdk/run.sh

echo "==> Bureau : l'application Tauri sous Xvfb"
bash tests/desktop/run.sh

echo "==> Tout est passé."
