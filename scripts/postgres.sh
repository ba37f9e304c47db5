#!/usr/bin/env bash
# A throwaway PostgreSQL server for the test command: Debian's PostgreSQL
# (installed by scripts/setup.sh when missing), a cluster of its own in DIR
# on a free port of the loopback, run as an unprivileged user (PostgreSQL
# refuses root), with one database `liftdesk_tests` whose address is
# printed. Nothing assumes a server already running, and none is left
# behind: `stop` ends it and removes DIR.
#
#   bash scripts/postgres.sh start DIR   # prints postgresql://…/liftdesk_tests
#   bash scripts/postgres.sh stop DIR
#
# The cluster trades durability for speed (fsync off): a test kills a
# Liftdesk server, never PostgreSQL, so nothing it checks depends on a flush.
set -euo pipefail

action="${1:?start ou stop}"
dir="${2:?dossier de la grappe}"

bin_dir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$found" ]; then
    echo "PostgreSQL introuvable (paquet Debian postgresql) : lancez scripts/setup.sh." >&2
    exit 1
  fi
  echo "$found"
}

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$action" in
  start)
    bin="$(bin_dir)"
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then
      chown postgres "$dir"
    fi
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
      start >/dev/null
    echo "$port" >"$dir/port"
    url="postgresql://postgres@127.0.0.1:$port"
    psql "$url/postgres" -X -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE liftdesk_tests"
    echo "$url/liftdesk_tests"
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      as_owner "$(bin_dir)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "start ou stop" >&2
    exit 2
    ;;
esac
