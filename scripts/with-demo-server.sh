#!/usr/bin/env bash
# Starts `liftdesk serve --demo` on a free port over a fresh data directory,
# exports LIFTDESK_URL and LIFTDESK_CREDENTIALS, runs the given command, and
# always stops the server afterwards. `serve` also reads its webhook options
# from the environment, so callers set them here: LIFTDESK_INSECURE_WEBHOOKS=1
# (http:// loopback receivers), LIFTDESK_CONNECTIVITY_PROBE=off,
# LIFTDESK_WEBHOOK_RETRY_SCHEDULE=1s,2s. If the command fails, the end of the
# server's log is shown.
#
# With LIFTDESK_DEMO_POSTGRES (the address of a PostgreSQL database, the test
# command's own), the server runs on PostgreSQL: on a new schema of that
# database, made here and dropped afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

# The test command hands over the binary its test build made (LIFTDESK_BIN):
# a plain `cargo build` would compile the crate again, since a build without
# the tests' dev-dependencies resolves other features of shared crates.
bin="${LIFTDESK_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --bin liftdesk
  bin="${CARGO_TARGET_DIR:-target}/debug/liftdesk"
fi
data_dir="$(mktemp -d)"
# A fuzzing run makes about a thousand calls in seconds with one token: far
# above the default 600 a minute. Rate limiting has its own test
# (tests/v2_openapi.rs); here it would only turn answers into 429.
export LIFTDESK_RATE_LIMIT="${LIFTDESK_RATE_LIMIT:-1000000/100000}"
out="$data_dir/serve.out"
schema=""
unset LIFTDESK_DATABASE_URL
if [ -n "${LIFTDESK_DEMO_POSTGRES:-}" ]; then
  schema="demo_$(basename "$data_dir" | tr -dc 'a-zA-Z0-9' | tr 'A-Z' 'a-z')"
  psql "$LIFTDESK_DEMO_POSTGRES" -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $schema"
  separator='?'
  case "$LIFTDESK_DEMO_POSTGRES" in *'?'*) separator='&' ;; esac
  export LIFTDESK_DATABASE_URL="$LIFTDESK_DEMO_POSTGRES${separator}options=-c%20search_path%3D$schema"
fi
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [ -n "$schema" ]; then
    psql "$LIFTDESK_DEMO_POSTGRES" -X -q -c "DROP SCHEMA $schema CASCADE" >/dev/null 2>&1 || true
  fi
  rm -rf "$data_dir"
}
trap cleanup EXIT
"$bin" --data-dir "$data_dir" serve --demo --bind 127.0.0.1:0 >"$out" 2>"$data_dir/serve.log" &
server_pid=$!

for _ in $(seq 1 600); do
  [ -s "$out" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "Le serveur s'est arrêté au démarrage :" >&2
    cat "$data_dir/serve.log" >&2
    exit 1
  fi
  sleep 0.1
done
LIFTDESK_URL="$(head -n 1 "$out")"
if [ -z "$LIFTDESK_URL" ]; then
  echo "Le serveur n'a pas annoncé son adresse." >&2
  exit 1
fi
export LIFTDESK_URL
export LIFTDESK_CREDENTIALS="$data_dir/demo-credentials.json"
status=0
"$@" || status=$?
if [ "$status" -ne 0 ]; then
  echo "==> fin du journal du serveur :" >&2
  tail -n 40 "$data_dir/serve.log" >&2
fi
exit "$status"
