#!/usr/bin/env bash
# Runs Liftdesk on the demo: builds the UI and the server, seeds the demo on
# an empty data directory, and serves API + UI on http://127.0.0.1:8080.
# Data directory: $LIFTDESK_DATA_DIR, else the OS data directory.
set -euo pipefail
cd "$(dirname "$0")/.."

(cd ui && npm ci --no-audit --no-fund && npm run build)
cargo build --release --bin liftdesk
echo "==> Identifiants de démonstration : <dossier de données>/demo-credentials.json"
echo "    (administratrice : claire.durand@ascenseurs-durand.fr / demo-admin-2026)"
exec target/release/liftdesk serve --demo --bind "${LIFTDESK_BIND:-127.0.0.1:8080}" "$@"
