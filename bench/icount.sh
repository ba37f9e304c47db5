#!/usr/bin/env bash
# The deterministic performance gate (part of scripts/test.sh): callgrind
# counts the instructions of one request of each workload of
# `liftdesk-bench icount` (invoice list page 1 and a far page, planning,
# technicians, call creation; the database read each time, and the invoice
# list once more answered from the read cache) on the real router
# in-process, and compares
# them with bench/baseline/icount.json. More than 5% above the baseline
# fails; well below, the baseline should be lowered (`--update`).
#
#   bash bench/icount.sh            # check against the baseline
#   bash bench/icount.sh --update   # measure and write the baseline
set -euo pipefail
cd "$(dirname "$0")/.."

update=0
[ "${1:-}" = "--update" ] && update=1
baseline=bench/baseline/icount.json
tolerance=5
iterations=200
write_iterations=1000
lead=20

command -v valgrind >/dev/null || { echo "valgrind manque (scripts/setup.sh l'installe)." >&2; exit 1; }
cargo build --release -p liftdesk-bench --bin liftdesk-bench
bin="${CARGO_TARGET_DIR:-target}/release/liftdesk-bench"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin" icount prepare --dir "$work/fixture" >/dev/null

# Instructions of the whole process, all threads, of one run: `count
# WORKLOAD ITERATIONS TAG` writes them to $work/TAG.count. Each run works on
# its own copy of the fixture (`icount run`), so runs are independent.
count() {
  local out="$work/$3.err"
  valgrind --tool=callgrind --callgrind-out-file="$work/$3.cg" \
    "$bin" icount run --dir "$work/fixture" --workload "$1" --iterations "$2" 2>"$out" >/dev/null \
    || { cat "$out" >&2; return 1; }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out" | tail -n 1 >"$work/$3.count"
}
export -f count
export bin work

workloads="invoices invoices-far planning technicians call-create invoices-cached"
# Both runs of a workload start alike (the same warm-up, then a few requests
# more, so one-time work such as opening a read connection lands in both);
# the difference is `iterations` requests. Writes vary more from run to run
# (B-tree splits under random ids, the WAL's checkpoints): more requests
# average them out. So does the answer from the cache: at about half the
# instructions of a database read, the one-time work that differs between
# runs weighs twice as much on 200 requests.
requests() {
  case "$1" in call-create | invoices-cached) echo "$write_iterations" ;; *) echo "$iterations" ;; esac
}
# Every run (each workload, short and long, three times), two at a time: the
# counts do not depend on what else the machine runs, the wall time halves.
for workload in $workloads; do
  n="$(requests "$workload")"
  for rep in 1 2 3; do
    echo "$workload $lead $workload.few.$rep"
    echo "$workload $((lead + n)) $workload.many.$rep"
  done
done | xargs -P 2 -L 1 bash -c 'count "$0" "$1" "$2"'

# The least of three runs each: what varies is one-time work added to a
# run, never work taken away.
least() {
  sort -n "$work/$1".*.count | head -n 1
}

results="$work/results.txt"
: >"$results"
for workload in $workloads; do
  n="$(requests "$workload")"
  few="$(least "$workload.few")"
  many="$(least "$workload.many")"
  per=$(( (many - few) / n ))
  echo "$workload $per" >>"$results"
done

python3 - "$results" "$baseline" "$update" "$tolerance" "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" <<'EOF'
import json, sys
results_path, baseline_path, update, tolerance, commit = sys.argv[1:]
measured = {}
for line in open(results_path):
    name, value = line.split()
    measured[name] = int(value)
if update == "1":
    with open(baseline_path, "w") as f:
        json.dump({"commit": commit, "instructionsPerRequest": measured}, f, indent=2)
        f.write("\n")
    for name, value in measured.items():
        print(f"{name:14} {value:>12,} instructions par requête (référence écrite)")
    sys.exit(0)
baseline = json.load(open(baseline_path))["instructionsPerRequest"]
failed = False
for name, value in measured.items():
    ref = baseline.get(name)
    if ref is None:
        print(f"{name:14} {value:>12,} : absent de la référence ({baseline_path})")
        failed = True
        continue
    change = (value - ref) / ref * 100
    verdict = "ok"
    if change > float(tolerance):
        verdict = f"RÉGRESSION de plus de {tolerance} %"
        failed = True
    elif change < -float(tolerance):
        verdict = "plus rapide : abaissez la référence (bash bench/icount.sh --update)"
    print(f"{name:14} {value:>12,} instructions par requête, référence {ref:>12,} ({change:+.1f} %) {verdict}")
missing = set(baseline) - set(measured)
if missing:
    print("charges de la référence non mesurées :", ", ".join(sorted(missing)))
    failed = True
sys.exit(1 if failed else 0)
EOF
