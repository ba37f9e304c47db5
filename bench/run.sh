#!/usr/bin/env bash
# The benchmarks (never part of the test command's pass/fail): installs wrk,
# nginx and PostgreSQL (Debian) and datasette (PyPI, in a virtualenv),
# builds the release binaries, then runs bench/run.py, which writes
# bench/results/latest.{json,md}.
#   bash bench/run.sh [--reuse] [--rounds N] [--engines sqlite,postgres]
#                     [--only read,calls,intake,servers,webhooks,cold,import]
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
missing=""
command -v wrk >/dev/null || missing="$missing wrk python3-venv"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$missing nginx-light"
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing="$missing postgresql"
if [ -n "$missing" ]; then
  $SUDO apt-get update -qq
  # nginx and PostgreSQL are installed, not started: the benchmark starts
  # its own instances (and stops them).
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq $missing >/dev/null
fi
export PATH="$PATH:/usr/sbin"
venv="$HOME/.cache/liftdesk/bench-venv"
if [ ! -x "$venv/bin/datasette" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q datasette
fi
cargo build --release -p liftdesk -p liftdesk-bench
exec python3 bench/run.py "$@"
