#!/usr/bin/env bash
# The benchmarks (never part of the test command's pass/fail): installs wrk
# (Debian) and datasette (PyPI, in a virtualenv), builds the release binaries,
# then runs bench/run.py, which writes bench/results/latest.{json,md}.
#   bash bench/run.sh [--reuse] [--rounds N] [--only read,calls,webhooks,cold,import]
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! command -v wrk >/dev/null; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk python3-venv >/dev/null
fi
venv="$HOME/.cache/liftdesk/bench-venv"
if [ ! -x "$venv/bin/datasette" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q datasette
fi
cargo build --release -p liftdesk -p liftdesk-bench
exec python3 bench/run.py "$@"
