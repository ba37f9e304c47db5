#!/usr/bin/env bash
# The layering of the workspace's crates, checked on their dependency trees
# (part of scripts/test.sh). The compiler already refuses an import upwards
# (a crate cannot name a crate that depends on it); this refuses the
# dependencies a layer must not have at all:
#   liftdesk-domain  pure rules: no runtime, database, HTTP or file I/O crate.
#   liftdesk-store   storage: no HTTP crate.
#   liftdesk-core    the application layer: no HTTP server crate at all, and
#                    no database engine of its own (it reaches storage only
#                    through liftdesk-store).
#   liftdesk (the front doors) and the desktop shell: no database engine of
#                    their own either.
# and three rules of the product's code: SQL and the database engines are
# the store's (outside crates/liftdesk-store, nothing names rusqlite or
# tokio-postgres or runs a statement, not even through the tests' direct
# look, `Store::inspect_*`: the store's handles do not give access to the
# engine);
# the machine's time is read by the clock (crates/liftdesk-store/src/clock.rs)
# only; everything else reads the injected clock
# (`Tx::now` in a write, `Store::now` / `AppState::now` elsewhere). Test
# modules (from `#[cfg(test)]` to the end of a file, or a file `tests.rs`)
# and tests/ may read it.
# Transactions are the operations' (crates/liftdesk-core): no front door
# (src/, src-tauri/src) opens one on the store.
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
# forbid [--direct] CRATE NAME…: fails if one of the names is among CRATE's
# normal (non-dev, non-build) dependencies, direct or not; with --direct,
# only among its direct ones (it may come in below, through another layer).
forbid() {
  local depth=() how="dépend de"
  if [ "$1" = --direct ]; then
    depth=(--depth 1)
    how="dépend directement de"
    shift
  fi
  local crate="$1"
  shift
  local tree
  tree="$(cargo tree -p "$crate" -e normal "${depth[@]}" --prefix none --format '{p}' |
    awk -v crate="$crate" '$1 != crate {print $1}' | sort -u)"
  for name in "$@"; do
    if grep -qx "$name" <<<"$tree"; then
      echo "Couches : $crate $how $name, ce que sa couche interdit :" >&2
      cargo tree -p "$crate" -e normal -i "$name" >&2 || true
      status=1
    fi
  done
}

RUNTIME=(tokio async-std smol mio futures-executor)
DATABASE=(rusqlite libsqlite3-sys refinery refinery-core tokio-postgres postgres sqlx deadpool-postgres)
HTTP=(axum hyper reqwest tower tower-http utoipa rmcp tauri)

forbid liftdesk-domain "${RUNTIME[@]}" "${DATABASE[@]}" "${HTTP[@]}"
forbid liftdesk-store "${HTTP[@]}"
HTTP_SERVER=(axum axum-core utoipa utoipa-axum rmcp tauri)
forbid liftdesk-core "${HTTP_SERVER[@]}"
forbid --direct liftdesk-core "${DATABASE[@]}"
forbid --direct liftdesk "${DATABASE[@]}"
forbid --direct liftdesk-desktop "${DATABASE[@]}"

CLOCK=crates/liftdesk-store/src/clock.rs
clock_reads="$(
  find src crates src-tauri/src -name '*.rs' ! -path "$CLOCK" -print0 | sort -z |
    xargs -0 awk '
      FNR == 1 { in_tests = (FILENAME ~ /\/tests\.rs$/) }
      /^#\[cfg\(test\)\]/ { in_tests = 1 }
      !in_tests && /(Utc|Local)::now|SystemTime::now|clock::(now|now_text|paris_today)\(/ {
        print FILENAME ":" FNR ": " $0
      }'
)"
if [ -n "$clock_reads" ]; then
  echo "Horloge : l'heure de la machine est lue hors de $CLOCK ; lisez l'horloge injectée (Tx::now, Store::now, AppState::now) :" >&2
  echo "$clock_reads" >&2
  status=1
fi

engine_uses="$(
  grep -rnE 'rusqlite|tokio_postgres|(execute|prepare|query_row)_cached|\.prepare\(|execute_batch|query_map|inspect_(rows|execute)|store::sql::' \
    src src-tauri/src crates/liftdesk-core/src crates/liftdesk-domain/src --include='*.rs' || true
)"
if [ -n "$engine_uses" ]; then
  echo "Stockage : le moteur de base de données ou du SQL hors de crates/liftdesk-store ; passez par une fonction du store :" >&2
  echo "$engine_uses" >&2
  status=1
fi

# Inside the store, the engine is named by its own files only (connections,
# transactions, statements, errors, migrations, backups, the cache's change
# counter, group commit, the SQL functions it registers); an aggregate's
# module writes its SQL through `sql.rs` (tests may open an engine
# connection of their own).
ENGINE_FILES='(lib|tx|sql|error|migrate|backup|pg_backup|cache|durability|text|pg|dialect)\.rs'
engine_in_modules="$(
  find crates/liftdesk-store/src -name '*.rs' -print0 | sort -z |
    xargs -0 awk '
      FNR == 1 { in_tests = (FILENAME ~ /\/tests\.rs$/) }
      /^#\[cfg\(test\)\]/ { in_tests = 1 }
      !in_tests && /rusqlite|tokio_postgres/ { print FILENAME ":" FNR ": " $0 }' |
    grep -vE "^crates/liftdesk-store/src/$ENGINE_FILES:" || true
)"
if [ -n "$engine_in_modules" ]; then
  echo "Stockage : un module d'agrégat nomme le moteur ; écrivez ses requêtes avec crates/liftdesk-store/src/sql.rs :" >&2
  echo "$engine_in_modules" >&2
  status=1
fi

door_transactions="$(
  grep -rnE '\.(read|write|read_blocking|write_blocking|read_cached|read_cached_inline|rehearse_blocking)\(' \
    src src-tauri/src --include='*.rs' | grep -vE '^[^:]+:[0-9]+:\s*//' || true
)"
if [ -n "$door_transactions" ]; then
  echo "Transactions : une porte d'entrée ouvre une transaction ; appelez l'opération de crates/liftdesk-core qui l'ouvre :" >&2
  echo "$door_transactions" >&2
  status=1
fi

if [ "$status" -eq 0 ]; then
  echo "Couches : liftdesk-domain ne dépend d'aucun runtime, base de données ni crate HTTP ; liftdesk-store d'aucune crate HTTP ; liftdesk-core d'aucun serveur HTTP ni moteur de base de données ; le SQL est au store ; les transactions sont aux opérations ; l'heure de la machine n'est lue que par $CLOCK."
  cargo tree -p liftdesk-domain -e normal --depth 1
  cargo tree -p liftdesk-store -e normal --depth 1
  cargo tree -p liftdesk-core -e normal --depth 1
fi
exit "$status"
