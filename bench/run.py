#!/usr/bin/env python3
"""Liftdesk's benchmarks, driven by `bash bench/run.sh` (see bench/README.md).

Every figure of a goal is a ratio to a denominator measured in the same run,
or an absolute rate measured side by side with them: the machines are shared
and noisy, so only what runs together is compared.

- Data: the `large` demo, generated fresh (50,000 equipment, 1,000,000
  invoices), and a copy of the database for every write case.
- Load: wrk pinned to one core, the server under test to the other; a
  warm-up, then ROUNDS rounds, the order of the cases reversed every other
  round; each ratio is the median of its per-round ratios, shown with its
  spread (min-max). Concurrency 2 is the gate; 32 shows saturation.
- PostgreSQL (`--engines sqlite,postgres`, the default): a durable cluster
  of the benchmark's own, loaded from the same large demo, its server
  measured in the same rounds as SQLite's (see `Postgres`).
"""

import argparse
import base64
import datetime
import glob
import json
import os
import platform
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
LIFTDESK = TARGET / "release" / "liftdesk"
BENCH = TARGET / "release" / "liftdesk-bench"
LUA = ROOT / "bench" / "lua"
SERVER_CORE = "0"
LOAD_CORE = "1"
HIGH_LIMIT = "100000000/10000000"
TICKS = os.sysconf("SC_CLK_TCK")
# Agencies the intake's calls are spread over (the large demo has two: the
# benchmark adds the others, each with one equipment and a call-center key).
INTAKE_AGENCIES = 20
# The benchmark's PostgreSQL cluster, durable as a production one: every
# commit flushed (fsync, synchronous_commit, full_page_writes are
# PostgreSQL's defaults, named to be sure; scripts/postgres.sh turns them
# off for the tests). shared_buffers at 1 GB (a quarter of a small server's
# memory); max_wal_size large so that no checkpoint is forced by the volume
# of a case's writes. pg_stat_statements and track_wal_io_timing give each
# call's statements and WAL flushes.
PG_SETTINGS = {
    "fsync": "on",
    "synchronous_commit": "on",
    "full_page_writes": "on",
    "shared_buffers": "1GB",
    "max_wal_size": "8GB",
    "checkpoint_timeout": "30min",
    "max_connections": "200",
    "shared_preload_libraries": "pg_stat_statements",
    "track_wal_io_timing": "on",
    "listen_addresses": "127.0.0.1",
}


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, token=None, body=None, header="Authorization", timeout=600, extra=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    for name, value in (extra or {}).items():
        req.add_header(name, value)
    if token:
        req.add_header(header, f"Bearer {token}" if header == "Authorization" else token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return resp.status, json.loads(resp.read() or b"null")


def rss_kib(pid, field="VmRSS"):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class Server:
    """A process pinned to the server core, announcing its URL on stdout."""

    def __init__(self, args, env=None, announce=True, log_path=None):
        self.log_path = log_path or Path("/dev/null")
        self.proc = subprocess.Popen(
            ["taskset", "-c", SERVER_CORE, *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=open(self.log_path, "ab") if log_path else subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            text=True,
        )
        self.url = None
        if announce:
            line = self.proc.stdout.readline().strip()
            if not line.startswith("http"):
                self.stop()
                raise RuntimeError(f"{args[0]} n'a pas démarré ({self.log_path})")
            self.url = line

    @property
    def pid(self):
        return self.proc.pid

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def liftdesk_serve(data_dir, work, bind="127.0.0.1:0", extra=(), database=None, log_name="serve.log"):
    """`liftdesk serve` on the data directory's SQLite file, or on the
    PostgreSQL `database` (an address) with `data_dir` beside it."""
    engine = ["--database", database] if database else []
    return Server(
        [LIFTDESK, "--data-dir", data_dir, *engine, "serve", "--bind", bind, *extra],
        # Logging left at its default (info, a line per request), as users run it.
        env={"LIFTDESK_RATE_LIMIT": HIGH_LIMIT},
        log_path=work / log_name,
    )


def wrk(url, connections, seconds, script=None, headers=(), env=None):
    """Requests per second of one wrk run on the load core; fails on any
    error or non-2xx answer."""
    return wrk_run(url, connections, seconds, script, headers, env)["rate"]


def wrk_run(url, connections, seconds, script=None, headers=(), env=None):
    """`wrk`, with the number of requests answered as well as the rate."""
    cmd = ["taskset", "-c", LOAD_CORE, "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "60s"]
    for h in headers:
        cmd += ["-H", h]
    if script:
        cmd += ["-s", str(script)]
    cmd.append(url)
    out = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **(env or {})})
    text = out.stdout + out.stderr
    if out.returncode != 0:
        raise RuntimeError(f"wrk a échoué : {text}")
    if "Non-2xx" in text or "Socket errors" in text:
        raise RuntimeError(f"réponses en erreur pendant la charge de {url} :\n{text}")
    match = re.search(r"Requests/sec:\s+([\d.]+)", text)
    served = re.search(r"(\d+) requests in", text)
    if not match or not served:
        raise RuntimeError(f"sortie de wrk illisible :\n{text}")
    return {"rate": float(match.group(1)), "requests": int(served.group(1))}


def median_spread(values):
    return {
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
        "rounds": values,
    }


def copy_data(src, dst):
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    for name in ("liftdesk.db", "cle-des-secrets", "demo-credentials.json"):
        if (src / name).exists():
            shutil.copy2(src / name, dst / name)
    # Anything else the server keeps next to its database (keys, settings).
    for entry in src.iterdir():
        if entry.is_file() and not (dst / entry.name).exists() and not entry.name.startswith("liftdesk.db-"):
            shutil.copy2(entry, dst / entry.name)
    # The copy (1.6 GB) is written back to disk before any measurement: left
    # dirty, its writeback ran during the write cases and queued the
    # server's own flushes behind it (tail latencies of 800 ms).
    os.sync()


def keys_dir(base, dst):
    """A PostgreSQL server's data directory: every file of the SQLite base's
    (the key files `sheet-secret.key` and `webhook-secret.key` above all,
    the same on every server of one database) but the database itself."""
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    for entry in base.iterdir():
        # Not the lock, nor the server's own identity (`server-id`: its
        # claims on webhook deliveries are its own).
        if entry.is_file() and not entry.name.startswith(("liftdesk.db", "liftdesk.lock", "server-id")):
            shutil.copy2(entry, dst / entry.name)
    return dst


def generate(work, reuse):
    base = work / "large"
    creds_path = base / "demo-credentials.json"
    if reuse and creds_path.exists():
        log(f"données réutilisées : {base}")
        return base, json.loads(creds_path.read_text()), None
    if base.exists():
        shutil.rmtree(base)
    base.mkdir(parents=True)
    log("génération de la démonstration « large »…")
    started = time.monotonic()
    out = subprocess.run(
        [LIFTDESK, "--data-dir", base, "demo", "--size", "large", "--seed", "1"],
        capture_output=True, text=True, check=True,
    )
    seconds = time.monotonic() - started
    creds_path.write_text(out.stdout)
    log(f"démonstration générée en {seconds:.0f} s")
    return base, json.loads(out.stdout), seconds


class Postgres:
    """The benchmark's PostgreSQL cluster (Debian's binaries, as
    scripts/postgres.sh uses them, but durable: `PG_SETTINGS`), started
    pinned to the server core, beside the Liftdesk server it serves: the
    database's work and the server's share one core, as SQLite's work shares
    the server's process. PostgreSQL refuses to run as root, so as root the
    cluster belongs to the user `postgres` and lives where that user can
    reach (`--pg-dir`, by default under /var/tmp: the same file system as
    the SQLite copies). It is kept between runs (`--reuse`), stopped after
    each."""

    def __init__(self, root):
        self.root = root
        self.data = root / "data"
        self.log_path = root / "server.log"
        self.port = None
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]))
        if not found:
            sys.exit("PostgreSQL introuvable (paquet Debian postgresql) : lancez scripts/setup.sh.")
        self.bin = Path(found[-1])

    def _owner(self, cmd):
        return ["runuser", "-u", "postgres", "--", *map(str, cmd)] if os.getuid() == 0 else list(map(str, cmd))

    def exists(self):
        return (self.data / "PG_VERSION").exists()

    def start(self, fresh):
        if fresh:
            self.stop()  # left running by an interrupted run
            if self.root.exists():
                shutil.rmtree(self.root)
            self.root.mkdir(parents=True)
            if os.getuid() == 0:
                shutil.chown(self.root, "postgres")
            subprocess.run(self._owner([self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust",
                                        "-E", "UTF8", "--locale=C.UTF-8"]),
                           check=True, capture_output=True)
        else:
            self.stop()  # left running by an interrupted run
        self.port = free_port()
        options = f"-p {self.port} -k {self.root} " + " ".join(f"-c {k}={v}" for k, v in PG_SETTINGS.items())
        subprocess.run(["taskset", "-c", SERVER_CORE,
                        *self._owner([self.bin / "pg_ctl", "-D", self.data, "-l", self.log_path, "-w",
                                      "-o", options, "start"])],
                       check=True, capture_output=True)
        self.psql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")

    def stop(self):
        if self.exists() and (self.data / "postmaster.pid").exists():
            subprocess.run(self._owner([self.bin / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"]),
                           capture_output=True)

    def url(self, db="liftdesk"):
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def psql(self, sql, db="postgres"):
        out = subprocess.run(["psql", self.url(db), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"psql : {out.stderr}")
        return out.stdout.strip()

    def copy(self, name, template="liftdesk"):
        """A fresh database `name`, a copy of `template` (as SQLite's cases
        each get a copy of the file), flushed by the copy itself."""
        self.drop(name)
        started = time.monotonic()
        self.psql(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        self.psql("CHECKPOINT")
        log(f"  copie PostgreSQL {name} : {time.monotonic() - started:.1f} s")
        return self.url(name)

    def drop(self, name):
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def pids(self):
        """The postmaster and its children (backends, WAL writer,
        checkpointer…)."""
        try:
            main = int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        pids = [main]
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == main:
                pids.append(int(stat.split("/")[2]))
        return pids

    def stats(self, db):
        """Counters of the cluster (WAL written and flushed, since the last
        reset) and of `db`'s statements (pg_stat_statements)."""
        wal = self.psql("SELECT wal_records, wal_bytes, wal_write, wal_sync, wal_write_time, wal_sync_time "
                        "FROM pg_stat_wal").split("|")
        st = self.psql("SELECT COALESCE(sum(calls), 0), COALESCE(sum(total_exec_time), 0) FROM pg_stat_statements "
                       f"WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '{db}')").split("|")
        commits = self.psql("SELECT COALESCE(sum(calls), 0), COALESCE(sum(total_exec_time), 0) FROM pg_stat_statements "
                            f"WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '{db}') "
                            "AND query ILIKE 'COMMIT%'").split("|")
        return {
            "walRecords": float(wal[0]), "walBytes": float(wal[1]), "walWrites": float(wal[2]),
            "walSyncs": float(wal[3]), "walWriteMs": float(wal[4]), "walSyncMs": float(wal[5]),
            "statements": float(st[0]), "statementsMs": float(st[1]),
            "commits": float(commits[0]), "commitsMs": float(commits[1]),
        }


def loadavg():
    """The machine's load over the last minute: above 2 (its cores), other
    work was running beside the benchmark's."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def cpu_ticks(pids):
    ticks = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks[pid] = int(fields[11]) + int(fields[12])  # utime + stime
    return ticks


class CpuMeter:
    """CPU time (user + system) of groups of processes over a measurement:
    each group a function giving its pids (PostgreSQL's backends may come
    and go; a process gone before the end loses its share)."""

    def __init__(self, groups):
        self.groups = groups

    def __enter__(self):
        self.before = {name: cpu_ticks(pids()) for name, pids in self.groups.items()}
        return self

    def __exit__(self, *exc):
        self.seconds = {}
        for name, pids in self.groups.items():
            after = cpu_ticks(pids())
            before = self.before[name]
            self.seconds[name] = sum(t - before.get(pid, 0) for pid, t in after.items()) / TICKS
        return False


def measure(url, connections, seconds, groups, script=None, headers=(), env=None, pg=None, db=None):
    """A wrk run with each group's CPU time per request (µs) and, on
    PostgreSQL, the WAL and statements per request."""
    if pg is not None:
        pg.psql("SELECT pg_stat_reset_shared('wal'), pg_stat_statements_reset()")
    with CpuMeter(groups) as meter:
        run = wrk_run(url, connections, seconds, script, headers, env)
    if pg is not None:
        # The backends report their WAL counters when idle, within a second.
        time.sleep(1.5)
    out = {"rate": run["rate"], "requests": run["requests"], "loadavg1": loadavg(),
           "cpuMicros": {name: sec * 1e6 / max(1, run["requests"]) for name, sec in meter.seconds.items()}}
    out["cpuMicros"]["total"] = sum(out["cpuMicros"].values())
    if pg is not None:
        stats = pg.stats(db)
        n = max(1, run["requests"])
        out["pg"] = {
            "statementsPerRequest": stats["statements"] / n,
            "statementsMsPerRequest": stats["statementsMs"] / n,
            "commitsPerRequest": stats["commits"] / n,
            "commitMicros": stats["commitsMs"] * 1e3 / max(1, stats["commits"]),
            "walBytesPerRequest": stats["walBytes"] / n,
            "walSyncsPerRequest": stats["walSyncs"] / n,
            "walSyncMicros": stats["walSyncMs"] * 1e3 / max(1, stats["walSyncs"]),
        }
    return out


def cli(data_dir, *args, database=None):
    engine = ["--database", database] if database else []
    out = subprocess.run([LIFTDESK, "--data-dir", data_dir, *engine, *map(str, args)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"liftdesk {' '.join(map(str, args))} : {out.stderr}")
    return json.loads(out.stdout)


def bench_agencies(work, base, creds, facts):
    """The intake's `INTAKE_AGENCIES` agencies, each with a call-center key
    and one equipment: the demo's two, and the others added to the SQLite
    base once (the command line for the agencies and keys, the REST API's
    import for one equipment each), so that PostgreSQL, loaded from the
    base, has the same."""
    path = base / "bench-agencies.json"
    if path.exists():
        return json.loads(path.read_text())
    log(f"{INTAKE_AGENCIES} agences pour les appels répartis…")
    second = creds["agencies"][1]["id"]
    with sqlite3.connect(f"file:{base / 'liftdesk.db'}?mode=ro", uri=True) as db:
        second_equipment = db.execute(
            "SELECT number FROM equipment WHERE agency_id = ? AND number IS NOT NULL ORDER BY number LIMIT 1",
            (second,)).fetchone()[0]
    agencies = [
        {"id": creds["agencies"][0]["id"], "key": creds["callCenterKeys"][0], "equipment": facts["equipment"]},
        {"id": second, "key": cli(base, "call-center-key", "create", "--agency", second, "--name", "Banc 02")["key"],
         "equipment": second_equipment},
    ]
    added = []
    for n in range(len(agencies) + 1, INTAKE_AGENCIES + 1):
        agency = cli(base, "agency", "create", "--organization", creds["organizationId"],
                     "--name", f"Agence banc {n:02}")["id"]
        key = cli(base, "call-center-key", "create", "--agency", agency, "--name", f"Banc {n:02}")["key"]
        added.append({"id": agency, "key": key, "equipment": "IMP-000001"})
    xlsx = work / "parc-1.xlsx"
    subprocess.run([BENCH, "xlsx", "--rows", "1", "--out", xlsx], check=True)
    content = base64.b64encode(xlsx.read_bytes()).decode()
    token = creds["admin"]["apiToken"]
    server = liftdesk_serve(base, work)
    try:
        for agency in added:
            scope = {"X-Service-Agency": agency["id"]}
            _, uploaded = http("POST", server.url + "/api/v2/imports/files", token,
                               {"name": "parc.xlsx", "content": content}, extra=scope)
            file_id = uploaded["fileId"]
            http("POST", f"{server.url}/api/v2/imports/{file_id}/check", token, {"target": "equipment"}, extra=scope)
            _, done = http("POST", f"{server.url}/api/v2/imports/{file_id}/import", token,
                           {"target": "equipment"}, extra=scope)
            if done["created"] != 1:
                raise RuntimeError(f"appareil non créé dans {agency['id']} : {done}")
    finally:
        server.stop()
    agencies += added
    path.write_text(json.dumps(agencies, indent=2) + "\n")
    return agencies


def copy_text(value):
    """A value in COPY's text format."""
    if value is None:
        return "\\N"
    if isinstance(value, bytes):
        return "\\\\x" + value.hex()
    if isinstance(value, str):
        return (value.replace("\\", "\\\\").replace("\t", "\\t")
                .replace("\n", "\\n").replace("\r", "\\r"))
    return str(value)


def load_postgres_copy(pg, base, work):
    """The benchmark's own load, used because both ways the issue names are
    quadratic on the large demo (see bench/README.md): the schema made by
    Liftdesk itself (a command on the empty database migrates it), then
    every table of the SQLite base copied as it is by COPY, in one
    transaction with triggers off (`session_replication_role = replica`:
    the foreign keys' and the counters' triggers), the counters included:
    SQLite's triggers keep the same tables, so they are copied rather than
    rebuilt; the audit log's identity moved past its last `seq`. Then
    every table's row count is compared with SQLite's."""
    url = pg.url("liftdesk")
    subprocess.run([LIFTDESK, "--data-dir", keys_dir(base, work / "pg-schema"), "--database", url,
                    "agency", "identity", "--agency", "00000000-0000-0000-0000-000000000000"],
                   capture_output=True)
    pg_tables = set(pg.psql("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", db="liftdesk").split())
    if "invoices" not in pg_tables:
        raise RuntimeError("le schéma PostgreSQL n'a pas été créé")
    src = sqlite3.connect(f"file:{base / 'liftdesk.db'}?mode=ro", uri=True)
    tables = [t for (t,) in src.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
              if t in pg_tables and t != "refinery_schema_history"]
    proc = subprocess.Popen(["psql", url, "-X", "-q", "-v", "ON_ERROR_STOP=1"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PGOPTIONS": "-c session_replication_role=replica"})
    w = proc.stdin
    w.write("BEGIN;\n")
    w.write(f"TRUNCATE {', '.join(tables)} CASCADE;\n")
    counts = {}
    for table in tables:
        columns = [c for c in pg.psql(
            "SELECT attname FROM pg_attribute WHERE attrelid = "
            f"'public.{table}'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' "
            "ORDER BY attnum", db="liftdesk").split()]
        quoted = ", ".join(f'"{c}"' for c in columns)
        w.write(f"COPY {table} ({quoted}) FROM STDIN;\n")
        n = 0
        for row in src.execute(f"SELECT {quoted} FROM \"{table}\""):
            w.write("\t".join(map(copy_text, row)) + "\n")
            n += 1
        w.write("\\.\n")
        counts[table] = n
    w.write("SELECT setval(pg_get_serial_sequence('audit_log', 'seq'), "
            "GREATEST((SELECT max(seq) FROM audit_log), 1));\n")
    w.write("COMMIT;\n")
    w.close()
    if proc.wait() != 0:
        raise RuntimeError(f"COPY : {proc.stderr.read()}")
    src.close()
    differing = {}
    for table, n in counts.items():
        on_pg = int(pg.psql(f"SELECT COUNT(*) FROM {table}", db="liftdesk"))
        if on_pg != n:
            differing[table] = (n, on_pg)
    if differing:
        raise RuntimeError(f"tables différentes après la copie : {differing}")
    return {"tables": len(counts), "rows": sum(counts.values())}


def load_postgres(args, work, base, pg, reuse):
    """The cluster, with the database `liftdesk` holding the SQLite base's
    data (`load_postgres_copy`), VACUUM ANALYZE'd and checkpointed as a
    database in service would be. With `--pg-load-timing`, the two ways the
    issue names are timed too, each on a database of its own, stopped
    past `--pg-load-timeout`: `liftdesk migrate --to` and `liftdesk demo
    --size large` on PostgreSQL."""
    marker = pg.root / "bench-loaded.json"
    if reuse and pg.exists() and marker.exists():
        pg.start(fresh=False)
        loaded = json.loads(marker.read_text())
        if loaded.get("baseMtime") == (base / "liftdesk.db").stat().st_mtime:
            log(f"PostgreSQL réutilisé : {pg.root}")
            loaded["reused"] = True
            return loaded
        pg.stop()
    pg.start(fresh=True)
    loaded = {}
    pg.psql("CREATE DATABASE liftdesk")
    log("PostgreSQL : copie de la base SQLite (COPY)…")
    started = time.monotonic()
    loaded["copy"] = load_postgres_copy(pg, base, work)
    loaded["copySeconds"] = time.monotonic() - started
    log(f"  copie : {loaded['copySeconds']:.0f} s, {loaded['copy']}")
    loaded["baseMtime"] = (base / "liftdesk.db").stat().st_mtime
    started = time.monotonic()
    pg.psql("VACUUM ANALYZE", db="liftdesk")
    pg.psql("CHECKPOINT")
    loaded["vacuumAnalyzeSeconds"] = time.monotonic() - started
    loaded["databaseBytes"] = int(pg.psql("SELECT pg_database_size('liftdesk')"))
    loaded["sqliteBytes"] = (base / "liftdesk.db").stat().st_size
    marker.write_text(json.dumps(loaded, indent=2) + "\n")
    if args.pg_load_timing:
        loaded["timings"] = {}
        for way, db, command in (
                ("migrate", "bench_migrate", [LIFTDESK, "--data-dir", base, "migrate", "--to", pg.url("bench_migrate")]),
                ("demo", "bench_demo", [LIFTDESK, "--data-dir", work / "pg-demo", "--database", pg.url("bench_demo"),
                                        "demo", "--size", "large", "--seed", "1"])):
            log(f"PostgreSQL : {way}…")
            pg.drop(db)
            pg.psql(f"CREATE DATABASE {db}")
            shutil.rmtree(work / "pg-demo", ignore_errors=True)
            started = time.monotonic()
            proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            timing = {}
            try:
                proc.wait(timeout=args.pg_load_timeout)
                timing["seconds"] = time.monotonic() - started
                timing["returncode"] = proc.returncode
            except subprocess.TimeoutExpired:
                # Where it was: the heap of the invoices and of their
                # per-status counters (a handful of rows, each updated
                # once per invoice in the one transaction).
                timing["stoppedAfterSeconds"] = time.monotonic() - started
                timing["bytesWhenStopped"] = dict(
                    line.split("|") for line in pg.psql(
                        "SELECT relname, pg_relation_size(oid) FROM pg_class WHERE relname IN "
                        "('invoices', 'invoice_status_counts', 'equipment')", db=db).split())
                proc.kill()
                proc.wait()
            loaded["timings"][way] = timing
            log(f"  {way} : {timing}")
            pg.drop(db)
        shutil.rmtree(work / "pg-demo", ignore_errors=True)
        marker.write_text(json.dumps(loaded, indent=2) + "\n")
    return loaded


def busiest_week(db, agency):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    row = con.execute(
        """SELECT date(planned_for, 'weekday 1', '-7 days') AS monday, COUNT(*) AS n
           FROM visits WHERE agency_id = ? AND planned_for IS NOT NULL
           GROUP BY monday ORDER BY n DESC LIMIT 1""",
        (agency,),
    ).fetchone()
    equipment = con.execute(
        "SELECT number FROM equipment WHERE agency_id = ? AND number IS NOT NULL ORDER BY number LIMIT 1",
        (agency,),
    ).fetchone()[0]
    counts = dict(con.execute(
        "SELECT status, COUNT(*) FROM invoices WHERE agency_id = ? GROUP BY status", (agency,)
    ).fetchall())
    total = con.execute("SELECT COUNT(*) FROM invoices").fetchone()[0]
    eq_total = con.execute("SELECT COUNT(*) FROM equipment").fetchone()[0]
    con.close()
    return row[0], row[1], equipment, counts, total, eq_total


def read_cases(args, work, base, creds, facts, pg=None):
    agency = creds["agencies"][0]["id"]
    token = creds["admin"]["apiToken"]
    day = facts["planningDay"]
    data = work / "read"
    copy_data(base, data)
    auth = [f"Authorization: Bearer {token}"]
    results = {}
    servers = []
    try:
        liftdesk = liftdesk_serve(data, work)
        servers.append(liftdesk)
        time.sleep(0.5)
        http("GET", f"{liftdesk.url}/api/v2/me", token)
        time.sleep(1.0)
        results["rssIdleKiB"] = rss_kib(liftdesk.pid)
        planning_path = f"/api/v2/planning?day={day}"
        planning_auth = auth + [f"X-Service-Agency: {facts['planningAgency']}"]
        memory = Server([BENCH, "memory-server", "--from", liftdesk.url, "--token", token,
                         "--planning", planning_path, "--planning-agency", facts["planningAgency"]],
                        log_path=work / "memory.log")
        servers.append(memory)
        port = free_port()
        datasette = Server(
            [args.datasette, "serve", *(["-i"] if args.datasette_immutable else []),
             str(data / "liftdesk.db"), "--host", "127.0.0.1", "--port", port],
            announce=False, log_path=work / "datasette.log")
        servers.append(datasette)
        datasette_url = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                urllib.request.urlopen(datasette_url + "/-/versions.json", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        req = urllib.request.Request(liftdesk.url + planning_path, headers={
            "Authorization": f"Bearer {token}", "X-Service-Agency": facts["planningAgency"]})
        with urllib.request.urlopen(req) as resp:
            planning_size = len(json.loads(resp.read()))
        results["planningEntries"] = planning_size
        invoices = "/api/v2/invoices?status=payee&limit=50"
        # Identical rows, the same query: datasette's table view with the
        # same filter, sort and page size (its JSON carries the count too).
        ds_query = (f"/liftdesk/invoices.json?agency_id={agency}&status=payee"
                    "&_sort_desc=created_on&_size=50")
        cases = {
            "memoire_factures": (memory.url + "/memoire/invoices", []),
            "factures_p1": (liftdesk.url + invoices, auth),
            "factures_p3000": (liftdesk.url + invoices + "&page=3000", auth),
            "datasette": (datasette_url + ds_query, []),
            "memoire_planning": (memory.url + "/memoire/planning", []),
            "planning": (liftdesk.url + planning_path, planning_auth),
            "memoire_techniciens": (memory.url + "/memoire/technicians", []),
            "techniciens": (liftdesk.url + "/api/v2/technicians", auth),
        }
        # What each case's CPU time is read from: the server under test,
        # and on PostgreSQL the cluster's processes too.
        groups = {name: {} for name in cases}
        for name in ("factures_p1", "factures_p3000", "planning", "techniciens"):
            groups[name] = {"server": lambda: [liftdesk.pid]}
        paired = []
        if pg is not None:
            pg_url = pg.copy("bench_read")
            pg_server = liftdesk_serve(keys_dir(base, work / "read-pg"), work, database=pg_url,
                                       log_name="serve-pg.log")
            servers.append(pg_server)
            http("GET", f"{pg_server.url}/api/v2/me", token)
            results["rssIdlePgKiB"] = rss_kib(pg_server.pid)
            for name in ("factures_p1", "factures_p3000", "planning", "techniciens"):
                url, headers = cases[name]
                cases["pg_" + name] = (url.replace(liftdesk.url, pg_server.url), headers)
                groups["pg_" + name] = {"server": lambda: [pg_server.pid], "postgres": pg.pids}
                paired.append(name)
            results["exactness"] = exactness(pg, "bench_read", liftdesk.url, pg_server.url, token, agency)
        log("préchauffage des lectures…")
        for name, (url, headers) in cases.items():
            wrk(url, 2, args.warmup, headers=headers)
        rounds = {name: [] for name in cases}
        cpu = {name: [] for name in cases}
        pg_reads = {}
        names = list(cases)
        for r in range(args.rounds):
            order = names if r % 2 == 0 else names[::-1]
            for name in order:
                url, headers = cases[name]
                stats = {"pg": pg, "db": "bench_read"} if name.startswith("pg_") else {}
                m = measure(url, 2, args.duration, groups[name], headers=headers, **stats)
                rounds[name].append(m["rate"])
                cpu[name].append(m["cpuMicros"])
                if "pg" in m:
                    pg_reads.setdefault(name, []).append(m["pg"])
                log(f"  tour {r + 1} {name:22} {rounds[name][-1]:10.0f} req/s")
        results["c2"] = {name: median_spread(v) for name, v in rounds.items()}
        if pg_reads:
            # Statements per request and their execution time (PostgreSQL's
            # pg_stat_statements), medians of the rounds.
            results["pgReadStatements"] = {name: {k: statistics.median(x[k] for x in v) for k in v[0]}
                                           for name, v in pg_reads.items()}
        results["cpuMicrosC2"] = {name: {g: statistics.median(c[g] for c in v) for g in v[0]}
                                  for name, v in cpu.items() if v and v[0]}
        # The peak under the gate's load (concurrency 2), before saturation.
        results["rssPeakKiB"] = rss_kib(liftdesk.pid, "VmHWM")
        ratios = {
            "factures_vs_memoire": ("factures_p1", "memoire_factures"),
            "page3000_vs_page1": ("factures_p3000", "factures_p1"),
            "factures_vs_datasette": ("factures_p1", "datasette"),
            "planning_vs_memoire": ("planning", "memoire_planning"),
            "techniciens_vs_memoire": ("techniciens", "memoire_techniciens"),
        }
        results["ratios"] = {
            key: median_spread([a / b if b else 0.0 for a, b in zip(rounds[num], rounds[den])])
            for key, (num, den) in ratios.items()
        }
        if paired:
            results["pgVsSqliteC2"] = {
                name: median_spread([a / b for a, b in zip(rounds["pg_" + name], rounds[name])])
                for name in paired
            }
        log("saturation (32 connexions)…")
        c32 = {}
        # SQLite's and PostgreSQL's servers side by side in rounds too; the
        # denominators once, as before.
        for name in names:
            if name in paired or name.startswith("pg_"):
                continue
            url, headers = cases[name]
            c32[name] = wrk(url, 32, args.duration, headers=headers)
            log(f"  c32 {name:22} {c32[name]:10.0f} req/s")
        pair_names = [n for n in names if n in paired or n.startswith("pg_")]
        rounds32 = {name: [] for name in pair_names}
        cpu32 = {name: [] for name in pair_names}
        for r in range(args.rounds if paired else 1):
            order = pair_names if r % 2 == 0 else pair_names[::-1]
            for name in order:
                url, headers = cases[name]
                m = measure(url, 32, args.duration, groups[name], headers=headers)
                rounds32[name].append(m["rate"])
                cpu32[name].append(m["cpuMicros"])
                log(f"  tour {r + 1} c32 {name:18} {m['rate']:10.0f} req/s")
        for name in pair_names:
            c32[name] = statistics.median(rounds32[name])
        results["c32"] = c32
        if paired:
            results["c32Rounds"] = {name: median_spread(v) for name, v in rounds32.items()}
            results["cpuMicrosC32"] = {name: {g: statistics.median(c[g] for c in v) for g in v[0]}
                                       for name, v in cpu32.items()}
            results["pgVsSqliteC32"] = {
                name: median_spread([a / b for a, b in zip(rounds32["pg_" + name], rounds32[name])])
                for name in paired
            }
        results["rssPeakC32KiB"] = rss_kib(liftdesk.pid, "VmHWM")
        if pg is not None:
            results["rssPeakPgKiB"] = rss_kib(pg_server.pid, "VmHWM")
    finally:
        for server in reversed(servers):
            server.stop()
    if pg is not None:
        results["plans"] = invoice_plans(args, work, base, pg, "bench_read", token)
        pg.drop("bench_read")
    return results


def exactness(pg, db, sqlite_url, pg_url, token, agency):
    """The invoice list's total and its far page, on PostgreSQL, against
    what COUNT(*) and LIMIT … OFFSET … give in the same database, and
    against SQLite's answer on the same data."""
    out = {}
    count = int(pg.psql(f"SELECT COUNT(*) FROM invoices WHERE agency_id = '{agency}' AND status = 'payee'", db=db))
    for page in (1, 3000):
        path = f"/api/v2/invoices?status=payee&limit=50&page={page}"
        _, on_pg = http("GET", pg_url + path, token)
        _, on_sqlite = http("GET", sqlite_url + path, token)
        ids = pg.psql(f"SELECT id FROM invoices WHERE agency_id = '{agency}' AND status = 'payee' "
                      f"ORDER BY created_on DESC, id DESC LIMIT 50 OFFSET {(page - 1) * 50}", db=db).split()
        pg_ids = [row["id"] for row in on_pg["results"]]
        out[f"page{page}"] = {
            "total": on_pg["total"], "countStar": count, "sqliteTotal": on_sqlite["total"],
            "rowsEqualOffset": pg_ids == ids,
            "rowsEqualSqlite": pg_ids == [row["id"] for row in on_sqlite["results"]],
        }
    out["exact"] = all(v["total"] == v["countStar"] == v["sqliteTotal"] and v["rowsEqualOffset"]
                       and v["rowsEqualSqlite"] for v in out.values())
    log(f"  exactitude : {out}")
    return out


def invoice_plans(args, work, base, pg, db, token):
    """The plans PostgreSQL ran for the invoice list's statements (page 1
    and page 3000), logged by auto_explain with their actual row counts: a
    server started on `db` with auto_explain loaded in its sessions, one
    request of each page, the plans of the statements on invoices read back
    from the cluster's log. No node may read the agency's paid invoices in
    full (`COUNT(*)`) or skip them (`OFFSET` scan): the largest row count of
    a node is kept as the check."""
    pg.psql(f"ALTER DATABASE {db} SET session_preload_libraries = 'auto_explain'")
    pg.psql(f"ALTER DATABASE {db} SET auto_explain.log_min_duration = 0")
    pg.psql(f"ALTER DATABASE {db} SET auto_explain.log_analyze = on")
    start = pg.log_path.stat().st_size
    server = liftdesk_serve(keys_dir(base, work / "plans-pg"), work, database=pg.url(db), log_name="serve-pg.log")
    try:
        for page in (1, 3000):
            http("GET", f"{server.url}/api/v2/invoices?status=payee&limit=50&page={page}", token)
    finally:
        server.stop()
        pg.psql(f"ALTER DATABASE {db} RESET ALL")
    with open(pg.log_path, "rb") as f:
        f.seek(start)
        text = f.read().decode(errors="replace")
    plans = [p for p in re.split(r"\n(?=\S.*LOG:)", text) if "Query Text" in p and "invoice" in p]
    rows = [int(n) for plan in plans for n in re.findall(r"actual time=[\d.]+\.\.[\d.]+ rows=(\d+)", plan)]
    # The nodes that read the invoices themselves (an index scan: the
    # page, plus the few rows of its day skipped by the small OFFSET).
    invoice_rows = [int(n) for plan in plans
                    for n in re.findall(r" on invoices\b.*actual time=[\d.]+\.\.[\d.]+ rows=(\d+)", plan)]
    found = {"plans": plans, "maxNodeRows": max(rows) if rows else None,
             "maxInvoiceNodeRows": max(invoice_rows) if invoice_rows else None,
             "seqScanOnInvoices": any(re.search(r"Seq Scan on invoices\b", p) for p in plans)}
    log(f"  plans : {len(plans)}, nœud le plus lu : {found['maxNodeRows']} lignes, "
        f"des factures : {found['maxInvoiceNodeRows']}, "
        f"parcours séquentiel des factures : {found['seqScanOnInvoices']}")
    return found


def wal_frames_per_call(server, data, key, equipment, page_size, run):
    """WAL frames that one new call's commit writes, from the growth of the
    `-wal` file over 20 calls in a row (the WAL of a fresh copy is far from
    its checkpoint threshold, so it only grows)."""
    wal = data / "liftdesk.db-wal"

    def post(n):
        status, _ = http("POST", server.url + "/api/partners/calls", key, {
            "reference": f"BANC-TRAMES-{run}-{n}", "equipement": equipment, "type": "panne",
            "description": "Banc d'essai : trames du journal par appel."})
        assert status == 201, status

    post(0)
    before = wal.stat().st_size
    for n in range(1, 21):
        post(n)
    return (wal.stat().st_size - before) / (24 + page_size) / 20


def flush_floor(work, frames, page_size, samples=2000):
    """Median time (µs) to write `frames` WAL-sized frames to a file of the
    same file system and flush them (fdatasync), as the group commit does
    for a lone call: no durable commit of a call can answer sooner. The file
    is written over in place, like a WAL reused after a checkpoint."""
    path = work / "flush-floor.bin"
    frame = os.urandom(24 + page_size)
    slots = 1000
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, frame * slots)
        os.fsync(fd)
        times = []
        slot = 0
        for _ in range(samples):
            started = time.perf_counter()
            for _ in range(frames):
                os.pwrite(fd, frame, slot * len(frame))
                slot = (slot + 1) % slots
            os.fdatasync(fd)
            times.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(times) * 1e6


def call_cases(args, work, base, creds, facts, pg=None):
    key = creds["callCenterKeys"][0]
    equipment = facts["equipment"]
    with sqlite3.connect(f"file:{base / 'liftdesk.db'}?mode=ro", uri=True) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    results = {"new": [], "repeat": [], "frames": [], "floor": [], "ceiling": [], "newVsCeiling": [],
               "pg_new": [], "pg_repeat": [], "pgCalls": []}
    cases = ["new", "repeat"] + (["pg_new", "pg_repeat"] if pg is not None else [])
    for r in range(args.rounds):
        for case in (cases if r % 2 == 0 else cases[::-1]):
            if case.startswith("pg_"):
                pg_call_case(args, work, base, pg, case, r, key, equipment, results)
                continue
            data = work / f"calls-{case}"
            copy_data(base, data)
            server = liftdesk_serve(data, work)
            try:
                env = {"LIFTDESK_EQUIPMENT": equipment, "LIFTDESK_KEY": key,
                       "LIFTDESK_RUN": f"{case}{r}{int(time.time())}"}
                script = LUA / ("call_new.lua" if case == "new" else "call_repeat.lua")
                if case == "new":
                    results["frames"].append(
                        wal_frames_per_call(server, data, key, equipment, page_size, env["LIFTDESK_RUN"]))
                if case == "repeat":
                    status, _ = http("POST", server.url + "/api/partners/calls", key, {
                        "reference": f"BANC-REPETE-{env['LIFTDESK_RUN']}",
                        "equipement": equipment, "type": "panne",
                        "description": "Banc d'essai : référence répétée."})
                    assert status == 201
                wrk(server.url + "/api/partners/calls", 2, args.warmup, script=script, env=env)
                env["LIFTDESK_RUN"] += "m"
                if case == "repeat":
                    http("POST", server.url + "/api/partners/calls", key, {
                        "reference": f"BANC-REPETE-{env['LIFTDESK_RUN']}",
                        "equipement": equipment, "type": "panne",
                        "description": "Banc d'essai : référence répétée."})
                rate = wrk(server.url + "/api/partners/calls", 2, args.duration, script=script, env=env)
                results[case].append(rate)
                if case == "new":
                    results.setdefault("rssPeakKiB", 0)
                    results["rssPeakKiB"] = max(results["rssPeakKiB"], rss_kib(server.pid, "VmHWM"))
                log(f"  tour {r + 1} appels {case:8} {rate:10.0f} appels/s")
            finally:
                server.stop()
            shutil.rmtree(data)
            if case == "new":
                # The physical limit, measured right after the case it bounds:
                # at concurrency 2, each client waits for a flush that began
                # after its commit, so 2 ÷ (flush time) calls/s at most.
                frames = max(1, round(results["frames"][-1]))
                floor = flush_floor(work, frames, page_size)
                ceiling = 2e6 / floor
                results["floor"].append(floor)
                results["ceiling"].append(ceiling)
                results["newVsCeiling"].append(rate / ceiling)
                log(f"  tour {r + 1} vidage de {frames} trames {floor:8.0f} µs, plafond {ceiling:8.0f} appels/s")
    pg_figures = {}
    if pg is not None:
        pg_figures = {
            "pgNew": median_spread(results["pg_new"]),
            "pgRepeat": median_spread(results["pg_repeat"]),
            "pgNewVsSqlite": median_spread([a / b for a, b in zip(results["pg_new"], results["new"])]),
            "pgRepeatVsSqlite": median_spread([a / b for a, b in zip(results["pg_repeat"], results["repeat"])]),
            "pgDetail": results["pgCalls"],
        }
    return {
        **pg_figures,
        "new": median_spread(results["new"]),
        "repeat": median_spread(results["repeat"]),
        "walFramesPerCall": median_spread(results["frames"]),
        "flushFloorMicros": median_spread(results["floor"]),
        "ceilingConcurrency2": median_spread(results["ceiling"]),
        "newVsCeiling": median_spread(results["newVsCeiling"]),
        "rssPeakKiB": results.get("rssPeakKiB", 0),
    }


def pg_call_case(args, work, base, pg, case, r, key, equipment, results):
    """The call cases on PostgreSQL: a fresh copy of the database, a server,
    the same warm-up and measure as SQLite's, with the CPU time and the
    statements and WAL flushes per call."""
    url = pg.copy("bench_calls")
    server = liftdesk_serve(keys_dir(base, work / "calls-pg"), work, database=url, log_name="serve-pg.log")
    try:
        env = {"LIFTDESK_EQUIPMENT": equipment, "LIFTDESK_KEY": key,
               "LIFTDESK_RUN": f"{case}{r}{int(time.time())}"}
        script = LUA / ("call_new.lua" if case == "pg_new" else "call_repeat.lua")
        body = {"equipement": equipment, "type": "panne", "description": "Banc d'essai : référence répétée."}
        if case == "pg_repeat":
            status, _ = http("POST", server.url + "/api/partners/calls", key,
                             {**body, "reference": f"BANC-REPETE-{env['LIFTDESK_RUN']}"})
            assert status == 201
        wrk(server.url + "/api/partners/calls", 2, args.warmup, script=script, env=env)
        env["LIFTDESK_RUN"] += "m"
        if case == "pg_repeat":
            http("POST", server.url + "/api/partners/calls", key,
                 {**body, "reference": f"BANC-REPETE-{env['LIFTDESK_RUN']}"})
        m = measure(server.url + "/api/partners/calls", 2, args.duration,
                    {"server": lambda: [server.pid], "postgres": pg.pids}, script=script, env=env,
                    pg=pg, db="bench_calls")
        results[case].append(m["rate"])
        results["pgCalls"].append({"case": case, "round": r + 1, **m})
        log(f"  tour {r + 1} appels {case:8} {m['rate']:10.0f} appels/s  {m['pg']}")
    finally:
        server.stop()
        pg.drop("bench_calls")


def intake_variants(agencies, run):
    """The intake's loads: one agency (its first key, as `call_new.lua`)
    or the calls spread in turn over every agency."""
    one = {"LIFTDESK_KEYS": agencies[0]["key"], "LIFTDESK_EQUIPMENTS": agencies[0]["equipment"]}
    spread = {"LIFTDESK_KEYS": ",".join(a["key"] for a in agencies),
              "LIFTDESK_EQUIPMENTS": ",".join(a["equipment"] for a in agencies)}
    return {f"a1_c2": (one, 2), f"a1_c32": (one, 32),
            f"a{len(agencies)}_c2": (spread, 2), f"a{len(agencies)}_c32": (spread, 32)}


def intake_cases(args, work, base, agencies, pg):
    """Durable new-reference calls on both engines side by side: one agency
    or `INTAKE_AGENCIES`, at concurrency 2 and 32. Each round gives each
    engine a fresh copy of the database and one server, the engines' order
    and the loads' order alternated every other round."""
    script = LUA / "call_agencies.lua"
    variants = list(intake_variants(agencies, "x"))
    engines = ["sqlite", "postgres"] if pg is not None else ["sqlite"]
    rates = {f"{e}_{v}": [] for e in engines for v in variants}
    detail = []
    for r in range(args.rounds):
        for engine in (engines if r % 2 == 0 else engines[::-1]):
            if engine == "sqlite":
                data = work / "intake"
                copy_data(base, data)
                server = liftdesk_serve(data, work)
                groups = {"server": lambda: [server.pid]}
                stats = {}
            else:
                url = pg.copy("bench_intake")
                server = liftdesk_serve(keys_dir(base, work / "intake-pg"), work, database=url,
                                        log_name="serve-pg.log")
                groups = {"server": lambda: [server.pid], "postgres": pg.pids}
                stats = {"pg": pg, "db": "bench_intake"}
            try:
                tag = f"{engine}{r}{int(time.time())}"
                loads = intake_variants(agencies, tag)
                warm_env, _ = loads[variants[-1]]
                wrk(server.url + "/api/partners/calls", 2, args.warmup, script=script,
                    env={**warm_env, "LIFTDESK_RUN": tag + "w"})
                for variant in (variants if r % 2 == 0 else variants[::-1]):
                    env, connections = loads[variant]
                    m = measure(server.url + "/api/partners/calls", connections, args.duration, groups,
                                script=script, env={**env, "LIFTDESK_RUN": f"{tag}{variant}"}, **stats)
                    rates[f"{engine}_{variant}"].append(m["rate"])
                    detail.append({"engine": engine, "variant": variant, "round": r + 1, **m})
                    log(f"  tour {r + 1} {engine:8} {variant:8} {m['rate']:8.0f} appels/s "
                        f"cpu {m['cpuMicros']}" + (f" {m['pg']}" if "pg" in m else ""))
            finally:
                server.stop()
                if engine == "sqlite":
                    shutil.rmtree(data)
                else:
                    pg.drop("bench_intake")
    out = {"rates": {k: median_spread(v) for k, v in rates.items()}, "detail": detail,
           "agencies": len(agencies)}
    if pg is not None:
        out["pgVsSqlite"] = {v: median_spread([a / b for a, b in zip(rates[f"postgres_{v}"], rates[f"sqlite_{v}"])])
                             for v in variants}
    return out


NGINX_CONF = """# The nginx example of docs/deployment.md, on the loopback without TLS
# (the benchmark measures the proxying, not TLS).
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;

    upstream liftdesk {{
{upstreams}{keepalive}    }}

    server {{
        listen 127.0.0.1:{port};
        server_name liftdesk.agence.fr;

        client_max_body_size 50m;       # imports: a 32 MB file in base64

        location / {{
            proxy_pass http://liftdesk;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto https;
            proxy_read_timeout 300s;    # a large import
{keepalive_location}        }}
    }}
}}
"""


def nginx(work, name, upstreams, keepalive=False):
    """A reverse proxy (Debian's nginx) on the load core, in front of
    `upstreams` (base URLs); returns the process and its URL."""
    prefix = work / f"nginx-{name}"
    if prefix.exists():
        shutil.rmtree(prefix)
    prefix.mkdir(parents=True)
    port = free_port()
    conf = NGINX_CONF.format(
        prefix=prefix, port=port,
        upstreams="".join(f"        server {u.removeprefix('http://')};\n" for u in upstreams),
        keepalive="        keepalive 32;\n" if keepalive else "",
        keepalive_location=('            proxy_http_version 1.1;\n'
                            '            proxy_set_header Connection "";\n') if keepalive else "")
    (prefix / "nginx.conf").write_text(conf)
    proc = subprocess.Popen(["taskset", "-c", LOAD_CORE, "nginx", "-p", prefix, "-c", prefix / "nginx.conf"],
                            stdout=subprocess.DEVNULL, stderr=open(prefix / "stderr.log", "ab"))
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, url, prefix


def nginx_pids(proc):
    pids = [proc.pid]
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == proc.pid:
            pids.append(int(stat.split("/")[2]))
    return pids


def two_server_cases(args, work, base, creds, agencies, pg):
    """Two `liftdesk serve` on one PostgreSQL database behind one address
    (nginx, the example of docs/deployment.md), against one server reached
    directly and one server behind the same proxy: the invoice list and the
    intake spread over the agencies, at concurrency 32. The servers and
    PostgreSQL share the server core; nginx shares the load core with wrk."""
    token = creds["admin"]["apiToken"]
    url = pg.copy("bench_two")
    servers, proxies = [], []
    try:
        for n in ("a", "b"):
            # The first server alone first: it records the key files'
            # fingerprints (the second one checks them).
            servers.append(liftdesk_serve(keys_dir(base, work / f"two-{n}"), work, database=url,
                                          extra=["--behind-proxy", "127.0.0.1"], log_name=f"serve-two-{n}.log"))
            http("GET", f"{servers[-1].url}/api/v2/me", token)
        a, b = servers
        configs = {"direct": (a.url, None)}
        for name, ups, keepalive in (("nginx1", [a.url], False), ("nginx2", [a.url, b.url], False),
                                     ("nginx2ka", [a.url, b.url], True)):
            proc, purl, _ = nginx(work, name, ups, keepalive)
            proxies.append(proc)
            configs[name] = (purl, proc)
        http("GET", configs["nginx2"][0] + "/api/v2/me", token)
        script = LUA / "call_agencies.lua"
        rates = {f"{c}_{k}": [] for c in configs for k in ("invoices", "calls")}
        detail = []
        order = [(c, k) for c in configs for k in ("invoices", "calls")]
        for r in range(args.rounds):
            for config, kind in (order if r % 2 == 0 else order[::-1]):
                purl, proc = configs[config]
                groups = {"serverA": lambda: [a.pid], "serverB": lambda: [b.pid], "postgres": pg.pids}
                if proc is not None:
                    groups["nginx"] = (lambda p=proc: nginx_pids(p))
                if kind == "invoices":
                    if r == 0:
                        wrk(purl + "/api/v2/invoices?status=payee&limit=50", 2, args.warmup,
                            headers=[f"Authorization: Bearer {token}"])
                    m = measure(purl + "/api/v2/invoices?status=payee&limit=50", 32, args.duration, groups,
                                headers=[f"Authorization: Bearer {token}"])
                else:
                    env, _ = intake_variants(agencies, "x")[f"a{len(agencies)}_c32"]
                    m = measure(purl + "/api/partners/calls", 32, args.duration, groups, script=script,
                                env={**env, "LIFTDESK_RUN": f"two{config}{r}{int(time.time())}"},
                                pg=pg, db="bench_two")
                rates[f"{config}_{kind}"].append(m["rate"])
                detail.append({"config": config, "kind": kind, "round": r + 1, **m})
                log(f"  tour {r + 1} {config:9} {kind:8} {m['rate']:8.0f} req/s cpu {m['cpuMicros']}")
    finally:
        for proc in proxies:
            proc.send_signal(signal.SIGQUIT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for server in servers:
            server.stop()
        pg.drop("bench_two")
    out = {"rates": {k: median_spread(v) for k, v in rates.items()}, "detail": detail}
    out["vsDirect"] = {k: median_spread([x / y for x, y in zip(v, rates[f"direct_{k.split('_', 1)[1]}"])])
                       for k, v in rates.items() if not k.startswith("direct_")}
    return out


def webhook_cases(args, work, base, creds, facts, pg=None):
    """The backlog's drain and the commit-to-arrival latency, on SQLite
    (a copy of the file) or on PostgreSQL (a copy of the database)."""
    agency = creds["agencies"][0]["id"]
    token = creds["admin"]["apiToken"]
    if pg is None:
        data = work / "webhooks"
        copy_data(base, data)
        database, engine = None, []
    else:
        data = keys_dir(base, work / "webhooks-pg")
        database = pg.copy("bench_webhooks")
        engine = ["--database", database]
    webhook_opts = ["--insecure-webhooks", "--connectivity-probe", "off"]
    port = free_port()
    # The subscription, made while the receiver is down (nothing queued yet).
    server = liftdesk_serve(data, work, extra=webhook_opts, database=database)
    try:
        http("POST", server.url + "/api/v2/webhooks", token,
             {"url": f"http://127.0.0.1:{port}/crochet", "events": ["appel.clos"]})
    finally:
        server.stop()
    calls = []
    if pg is not None:
        calls_file = work / "webhook-calls.txt"
        calls_file.write_text(pg.psql(
            f"SELECT id || ' ' || equipment_id FROM calls WHERE agency_id = '{agency}' AND status = 'resolue' "
            f"ORDER BY id LIMIT {args.backlog}", db="bench_webhooks") + "\n")
        calls = ["--calls", calls_file]
    queued = json.loads(subprocess.run(
        [BENCH, "queue-webhooks", "--data-dir", data, *engine, *calls, "--agency", agency,
         "--count", str(args.backlog)],
        capture_output=True, text=True, check=True).stdout)
    if pg is not None:
        queued["pendingDeliveries"] = int(pg.psql(
            "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'en_attente'", db="bench_webhooks"))
    log(f"  file d'attente : {queued}")
    receiver = subprocess.Popen(
        ["taskset", "-c", LOAD_CORE, BENCH, "hook-receiver", "--bind", f"127.0.0.1:{port}",
         "--expect", str(args.backlog)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    server = liftdesk_serve(data, work, extra=webhook_opts, database=database)
    try:
        out, err = receiver.communicate(timeout=600)
        drain = json.loads(out.strip().splitlines()[-1])
        log(f"  vidage : {drain}")
        latency = json.loads(subprocess.run(
            ["taskset", "-c", LOAD_CORE, BENCH, "webhook-latency", "--url", server.url,
             "--token", token, "--key", creds["callCenterKeys"][0],
             "--equipment", facts["equipment"], "--samples", str(args.latency_samples)],
            capture_output=True, text=True, check=True).stdout)
        log(f"  délai : {latency}")
    finally:
        server.stop()
        shutil.rmtree(data)
        if pg is not None:
            pg.drop("bench_webhooks")
    return {"drain": drain, "latency": latency, "queued": queued}


def cold_start(args, work, base, creds, pg=None):
    token = creds["admin"]["apiToken"]
    if pg is None:
        data = work / "cold"
        copy_data(base, data)
        engine = []
    else:
        # The server's own start on the database `liftdesk` (nothing is
        # written there but the server's first start's records).
        data = keys_dir(base, work / "cold-pg")
        engine = ["--database", pg.copy("bench_cold")]
    # A first start (as after an install), then the measured ones.
    times = []
    for n in range(args.cold_starts + 1):
        port = free_port()
        started = time.monotonic()
        proc = subprocess.Popen(
            ["taskset", "-c", SERVER_CORE, LIFTDESK, "--data-dir", data, *engine, "serve", "--bind",
             f"127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "LIFTDESK_RATE_LIMIT": HIGH_LIMIT})
        request = (f"GET /api/v2/me HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                   f"Authorization: Bearer {token}\r\nConnection: close\r\n\r\n").encode()
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    s.sendall(request)
                    head = s.recv(64)
                if head.startswith(b"HTTP/1.1 200"):
                    break
            except OSError:
                pass
            if time.monotonic() - started > 60:
                raise RuntimeError("le serveur n'a pas répondu en 60 s")
            time.sleep(0.0005)
        elapsed = (time.monotonic() - started) * 1000
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        if n > 0:
            times.append(elapsed)
        log(f"  démarrage {n}: {elapsed:.1f} ms")
    shutil.rmtree(data)
    if pg is not None:
        pg.drop("bench_cold")
    return median_spread(times)


def import_case(args, work, base, creds, pg=None, rows=None):
    token = creds["admin"]["apiToken"]
    rows = rows or args.import_rows
    if pg is None:
        data = work / "import"
        copy_data(base, data)
        database = None
    else:
        data = keys_dir(base, work / "import-pg")
        database = pg.copy("bench_import")
    xlsx = work / "parc.xlsx"
    subprocess.run([BENCH, "xlsx", "--rows", str(rows), "--out", xlsx], check=True)
    content = base64.b64encode(xlsx.read_bytes()).decode()
    server = liftdesk_serve(data, work, database=database)
    try:
        started = time.monotonic()
        _, uploaded = http("POST", server.url + "/api/v2/imports/files", token,
                           {"name": "parc.xlsx", "content": content})
        file_id = uploaded["fileId"]
        uploaded_at = time.monotonic()
        _, check = http("POST", f"{server.url}/api/v2/imports/{file_id}/check", token,
                        {"target": "equipment"})
        checked_at = time.monotonic()
        _, done = http("POST", f"{server.url}/api/v2/imports/{file_id}/import", token,
                       {"target": "equipment"})
        finished = time.monotonic()
    finally:
        server.stop()
        shutil.rmtree(data)
        if pg is not None:
            pg.drop("bench_import")
    if done["created"] + done["updated"] != rows:
        refused = [row for row in done["rows"] if row["action"] == "refus"][:3]
        raise RuntimeError(f"lignes refusées à l'import : {refused}")
    return {
        "rows": rows, "bytes": xlsx.stat().st_size,
        "uploadSeconds": uploaded_at - started, "checkSeconds": checked_at - uploaded_at,
        "importSeconds": finished - checked_at, "totalSeconds": finished - started,
        "created": done["created"], "updated": done["updated"], "refused": done["refused"],
        "checkCreated": check["created"],
    }


def previous_quarter(today):
    """The calendar quarter before `today`'s: its first and last days."""
    first_month = ((today.month - 1) // 3) * 3 + 1
    end = datetime.date(today.year, first_month, 1) - datetime.timedelta(days=1)
    return datetime.date(end.year, ((end.month - 1) // 3) * 3 + 1, 1), end


def pg_rows(pg, db, sql):
    """The rows of `sql` on the PostgreSQL database `db`, as CSV text."""
    import csv
    import io
    out = subprocess.run(["psql", pg.url(db), "-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         capture_output=True, text=True, check=True)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    return rows[1:]


def billing_case(args, work, base, creds, pg=None):
    """« Facturer les contrats » for the quarter before today over the first
    agency's 10,000 oldest contracts in force (the others ended, on a copy
    of the large demo), preview then drafts, against the same invoices (the
    drafts' clients, lines and lifts) created one by one through
    `POST /api/v2/invoices` on another copy, in the same run."""
    import http.client as httpclient
    token = creds["admin"]["apiToken"]
    agency = creds["agencies"][0]["id"]
    start, end = previous_quarter(datetime.date.today())
    keep = (f"UPDATE contracts SET status = 'resilie', ends_on = '2000-01-01', notice_on = '2000-01-01' "
            f"WHERE agency_id = '{agency}' AND id NOT IN (SELECT id FROM contracts WHERE agency_id = '{agency}' "
            f"AND status = 'actif' AND start_on < '{start.isoformat()}' ORDER BY number LIMIT {args.billing_contracts})")
    drafts_sql = ("SELECT i.id, c.client_ref, l.label, l.quantity_milli, l.unit_price_cents, l.vat_rate_bp, "
                  "(SELECT string_agg(e.equipment_id, ',') FROM invoice_equipment e WHERE e.invoice_id = i.id) "
                  "FROM invoices i JOIN clients c ON c.id = i.client_id JOIN invoice_lines l ON l.invoice_id = i.id "
                  "WHERE i.contract_id IS NOT NULL ORDER BY i.id, l.position")

    def copy(name):
        if pg is None:
            data = work / name
            copy_data(base, data)
            db = sqlite3.connect(data / "liftdesk.db")
            db.execute(keep)
            db.commit()
            db.close()
            return data, None
        data = keys_dir(base, work / name)
        database = pg.copy(f"bench_{name.replace('-', '_')}")
        pg.psql(keep, db=f"bench_{name.replace('-', '_')}")
        return data, database

    def drop(name, data):
        shutil.rmtree(data)
        if pg is not None:
            pg.drop(f"bench_{name.replace('-', '_')}")

    window = {"from": start.isoformat(), "to": end.isoformat()}
    headers = {"X-Service-Agency": agency}
    # The batch: the preview (its summary), then the drafts in one transaction.
    name = "billing-batch" + ("-pg" if pg else "")
    data, database = copy(name)
    server = liftdesk_serve(data, work, database=database)
    try:
        # As staff already at work: the token's first use of the minute (a
        # write, which makes every kept answer stale) is behind. The same
        # request opens the one-by-one run below.
        http("GET", f"{server.url}/api/v2/contracts?limit=1", token, extra=headers)
        time.sleep(0.5)
        started = time.monotonic()
        _, preview = http("GET", f"{server.url}/api/v2/contract-billing/preview?from={window['from']}"
                          f"&to={window['to']}&limit=1", token, extra=headers)
        previewed = time.monotonic()
        _, drafted = http("POST", server.url + "/api/v2/contract-billing/drafts", token, window, extra=headers)
        finished = time.monotonic()
        if pg is None:
            db = sqlite3.connect(data / "liftdesk.db")
            rows = db.execute(drafts_sql.replace("string_agg(e.equipment_id, ',')",
                                                 "group_concat(e.equipment_id, ',')")).fetchall()
            db.close()
        else:
            rows = pg_rows(pg, f"bench_{name.replace('-', '_')}", drafts_sql)
    finally:
        server.stop()
        drop(name, data)
    invoices = {}
    for invoice_id, client, label, quantity, unit, vat, lifts in rows:
        body = invoices.setdefault(invoice_id, {"clientId": client, "lines": [],
                                                "equipmentIds": (lifts or "").split(",") if lifts else []})
        body["lines"].append({"label": label, "quantity": int(quantity) / 1000,
                              "unitPrice": int(unit) / 100, "vatRate": int(vat) / 100})
    created = drafted["created"]
    if created != len(invoices) or created == 0:
        raise RuntimeError(f"brouillons : {created} créés, {len(invoices)} lus")
    # The same invoices one by one, a keep-alive connection, on a fresh copy.
    name = "billing-one" + ("-pg" if pg else "")
    data, database = copy(name)
    server = liftdesk_serve(data, work, database=database)
    try:
        host, port = server.url.removeprefix("http://").split(":")
        conn = httpclient.HTTPConnection(host, int(port), timeout=600)
        http("GET", f"{server.url}/api/v2/contracts?limit=1", token, extra=headers)
        time.sleep(0.5)
        one_started = time.monotonic()
        for body in invoices.values():
            conn.request("POST", "/api/v2/invoices", json.dumps(body),
                         {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **headers})
            answer = conn.getresponse()
            answer.read()
            if answer.status != 201:
                raise RuntimeError(f"POST /invoices : {answer.status}")
        one_finished = time.monotonic()
        conn.close()
    finally:
        server.stop()
        drop(name, data)
    batch = finished - started
    one_by_one = one_finished - one_started
    return {
        "window": window, "contracts": preview["summary"]["contracts"], "invoices": created,
        "lines": len(rows), "previewSeconds": previewed - started, "draftsSeconds": finished - previewed,
        "batchSeconds": batch, "oneByOneSeconds": one_by_one,
        "oneByOnePerSecond": created / one_by_one, "batchPerSecond": created / batch,
        "ratio": one_by_one / batch,
    }


GOALS = [
    # (label, how to read the figure, goal, comparison)
    ("GET /invoices?status=payee&limit=50 (avec total) / route en mémoire", "ratios.factures_vs_memoire", 0.5, ">="),
    ("page=3000 / page 1", "ratios.page3000_vs_page1", 0.5, ">="),
    ("GET /invoices / datasette (même requête)", "ratios.factures_vs_datasette", 20, ">="),
    ("GET /planning (semaine chargée) / route en mémoire", "ratios.planning_vs_memoire", 0.5, ">="),
    ("GET /technicians / route en mémoire", "ratios.techniciens_vs_memoire", 0.5, ">="),
    ("POST /api/partners/calls, nouvelle référence (appels/s)", "calls.new", 5000, ">="),
    ("POST /api/partners/calls, référence répétée (appels/s)", "calls.repeat", 8000, ">="),
    ("Webhooks : vidage d'une file de 10 000 (livraisons/s)", "webhooks.drain.perSecond", 1000, ">="),
    ("Webhooks : validation → arrivée, médiane (ms)", "webhooks.latency.medianMs", 50, "<="),
    ("Démarrage à froid jusqu'au premier 200 (ms)", "coldStartMs", 100, "<="),
    ("RSS au repos (Mo)", "rssIdleMB", 30, "<="),
    ("RSS sous charge, pic (Mo)", "rssPeakMB", 100, "<="),
    ("Import de 50 000 lignes xlsx, vérification puis import (s)", "import.totalSeconds", 10, "<="),
]

# Shown under the goals, without a goal of their own: the physical limit the
# durable call creation is measured against (see `flush_floor`).
LIMITS = [
    ("Vidage sur disque des trames d'un appel (µs)", "calls.flushFloorMicros"),
    ("Plafond physique à concurrence 2 : 2 ÷ vidage (appels/s)", "calls.ceilingConcurrency2"),
    ("POST /api/partners/calls, nouvelle référence / plafond physique", "calls.newVsCeiling"),
]


def figure(results, path):
    value = results
    for part in path.split("."):
        value = value[part]
    if isinstance(value, dict):
        return value["median"], value
    return value, None


def report(results):
    lines = ["| Objectif | Mesure (médiane) | Écart (min – max) | But | Tenu |", "| :- | -: | :- | -: | :-: |"]
    for label, path, goal, cmp in GOALS:
        value, spread = figure(results, path)
        ok = value >= goal if cmp == ">=" else value <= goal
        spread_text = f"{spread['min']:.3g} – {spread['max']:.3g}" if spread else ""
        lines.append(f"| {label} | {value:.3g} | {spread_text} | {cmp.replace('>=', '≥').replace('<=', '≤')} {goal} | {'oui' if ok else 'NON'} |")
    lines += ["", "| Limite physique (sans objectif) | Mesure (médiane) | Écart (min – max) |", "| :- | -: | :- |"]
    for label, path in LIMITS:
        value, spread = figure(results, path)
        lines.append(f"| {label} | {value:.3g} | {spread['min']:.3g} – {spread['max']:.3g} |")
    return "\n".join(lines)


CORES = (2, 4, 8, 16)
# Round trip of one statement between the server and PostgreSQL when
# neither waits for a core (loopback, both awake): an assumption of the
# projection, not a measure of this machine.
ROUND_TRIP_MICROS = 20


def projection(results):
    """Requests per second on more cores, from the measured CPU time per
    request (the server's, plus PostgreSQL's processes'), assuming the load
    generator and the proxy elsewhere and the work spread evenly over the
    cores (each request's work is independent: no lock but the writes').
    Writes also follow one another under the store's write lock (one per
    schema): no more than 1 ÷ (the time a call holds it) per second, that
    time at least its statements' execution, its WAL flush and a round trip
    per statement."""
    out = {}
    for conc in ("C32",):
        for name, cpu in results.get(f"cpuMicros{conc}", {}).items():
            if cpu.get("total"):
                out[name] = {str(n): n * 1e6 / cpu["total"] for n in CORES}
                out[name]["cpuMicros"] = cpu["total"]
    for row in results.get("intake", {}).get("detail", []):
        if row["variant"].endswith("_c32"):
            key = f"{row['engine']}_{row['variant']}"
            entry = out.setdefault(key, {"cpu": [], "lock": []})
            entry["cpu"].append(row["cpuMicros"]["total"])
            if "pg" in row:
                # COMMIT's flush is not in its statement's time: the WAL
                # flushes' own time is added.
                entry["lock"].append(row["pg"]["statementsMsPerRequest"] * 1e3
                                     + row["pg"]["walSyncsPerRequest"] * row["pg"]["walSyncMicros"]
                                     + row["pg"]["statementsPerRequest"] * ROUND_TRIP_MICROS)
    for key, entry in out.items():
        if "cpu" in entry:
            cpu = statistics.median(entry.pop("cpu"))
            locks = entry.pop("lock")
            entry["cpuMicros"] = cpu
            lock = statistics.median(locks) if locks else None
            if lock:
                entry["lockMicros"] = lock
            for n in CORES:
                entry[str(n)] = min(n * 1e6 / cpu, 1e6 / lock) if lock else n * 1e6 / cpu
    return out


ALL = {"read", "calls", "intake", "servers", "webhooks", "cold", "import", "billing"}
BASE = {"read", "calls", "webhooks", "cold", "import"}


def fmt(x):
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def report_engines(results):
    """The side-by-side table (bench/README.md, « SQLite and PostgreSQL
    side by side »): PostgreSQL / SQLite per round, median and spread."""
    pg = results.get("postgres")
    if not pg:
        return ""
    lines = ["| PostgreSQL / SQLite | Mesure (médiane) | Écart (min – max) | But | Tenu |",
             "| :- | -: | :- | -: | :-: |"]

    def row(label, spread, goal):
        ok = "oui" if spread["median"] >= goal else "NON"
        goal_text = f"≥ {goal}" if goal else ""
        lines.append(f"| {label} | {spread['median']:.3g} | {spread['min']:.3g} – {spread['max']:.3g} | "
                     f"{goal_text} | {ok if goal else ''} |")

    labels = {"factures_p1": "GET /invoices (avec total)", "factures_p3000": "GET /invoices page=3000",
              "planning": "GET /planning (semaine chargée)", "techniciens": "GET /technicians"}
    for conc in ("C2", "C32"):
        for name, spread in results.get(f"pgVsSqlite{conc}", {}).items():
            row(f"{labels[name]}, concurrence {conc[1:]}", spread, 0.5)
    calls = results.get("calls", {})
    if "pgNewVsSqlite" in calls:
        row("POST /api/partners/calls, nouvelle référence, 1 agence, concurrence 2", calls["pgNewVsSqlite"], 0)
        row("POST /api/partners/calls, référence répétée, concurrence 2", calls["pgRepeatVsSqlite"], 0)
    intake = results.get("intake", {}).get("pgVsSqlite", {})
    for variant, spread in intake.items():
        agencies, conc = variant[1:].split("_c")
        goal = 0.5 if agencies != "1" and conc == "32" else 0
        row(f"Appels durables, {agencies} agence(s), concurrence {conc}", spread, goal)
    exact = results.get("exactness", {})
    plans = results.get("plans", {})
    if exact:
        lines.append(f"| Total et page 3000 exacts (= COUNT(*), = OFFSET, = SQLite) | "
                     f"{'oui' if exact['exact'] else 'non'} | | exacts | {'oui' if exact['exact'] else 'NON'} |")
    if plans:
        ok = not plans["seqScanOnInvoices"] and (plans.get("maxInvoiceNodeRows") or 0) < 10_000
        lines.append(f"| Lignes de factures lues par le nœud le plus lu (pages 1 et 3000) | "
                     f"{plans.get('maxInvoiceNodeRows')} | | < 10 000 | {'oui' if ok else 'NON'} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, default=Path.home() / ".cache" / "liftdesk" / "bench")
    parser.add_argument("--reuse", action="store_true", help="réutiliser la base « large » déjà générée")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=8, help="secondes par mesure")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--backlog", type=int, default=10_000)
    parser.add_argument("--latency-samples", type=int, default=200)
    parser.add_argument("--cold-starts", type=int, default=10)
    parser.add_argument("--import-rows", type=int, default=50_000)
    parser.add_argument("--datasette", default=str(Path.home() / ".cache/liftdesk/bench-venv/bin/datasette"))
    parser.add_argument("--datasette-immutable", action="store_true",
                        help="datasette en mode immuable (compte les lignes une fois) ; par défaut comme un utilisateur le lance")
    parser.add_argument("--only", default=",".join(sorted(ALL)),
                        help="read, calls, intake (1 et 20 agences), servers (deux serveurs derrière nginx), "
                             "webhooks, cold, import, billing (facturation des contrats)")
    parser.add_argument("--engines", default="sqlite,postgres",
                        help="« sqlite » : SQLite seul (le banc d'avant) ; avec « postgres », PostgreSQL mesuré à côté")
    parser.add_argument("--pg-dir", type=Path,
                        default=Path("/var/tmp/liftdesk-bench-pg") if os.getuid() == 0 else None,
                        help="grappe PostgreSQL du banc (root : hors de ~, que l'utilisateur postgres ne peut lire)")
    parser.add_argument("--pg-load-timing", action="store_true",
                        help="chronométrer aussi « migrate --to » et « demo --size large » sur PostgreSQL")
    parser.add_argument("--pg-load-timeout", type=int, default=300,
                        help="secondes au-delà desquelles chacune des deux est arrêtée")
    parser.add_argument("--pg-import-rows", type=int, default=10_000,
                        help="lignes de l'import mesuré côte à côte (2,5 ms la ligne sur PostgreSQL)")
    parser.add_argument("--billing-contracts", type=int, default=10_000,
                        help="contrats en vigueur facturés par le trimestre mesuré")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "latest.json")
    args = parser.parse_args()
    only = set(args.only.split(","))
    engines = set(args.engines.split(","))
    if os.cpu_count() < 2:
        sys.exit("Il faut deux cœurs : un pour le serveur, un pour la charge.")
    args.work.mkdir(parents=True, exist_ok=True)
    base, creds, generated = generate(args.work, args.reuse)
    agency = creds["agencies"][0]["id"]
    # The planning case: the second agency (10,000 equipment) plans about
    # 2,000 visits a week, the figure; the first one about 7,000.
    planning_agency = creds["agencies"][1]["id"]
    day, visits, _, _, _, _ = busiest_week(base / "liftdesk.db", planning_agency)
    _, _, equipment, counts, invoices_total, equipment_total = busiest_week(base / "liftdesk.db", agency)
    facts = {"planningAgency": planning_agency, "planningDay": day, "visitsThatWeek": visits, "equipment": equipment,
             "invoicesByStatus": counts, "invoices": invoices_total, "equipmentTotal": equipment_total}
    log(f"faits : {facts}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": commit,
        "machine": f"{platform.node()} — {os.cpu_count()} cœurs, {platform.platform()}",
        "demoGenerationSeconds": generated,
        "facts": facts,
        "settings": {k: v for k, v in vars(args).items() if k in ("rounds", "duration", "warmup")},
    }
    started_run = time.monotonic()
    pg = None
    agencies = None
    if only & {"intake", "servers"}:
        agencies = bench_agencies(args.work, base, creds, facts)
    try:
        if "postgres" in engines:
            if args.pg_dir is None:
                args.pg_dir = args.work / "pg"
            pg = Postgres(args.pg_dir)
            results["postgres"] = load_postgres(args, args.work, base, pg, args.reuse)
            results["postgres"]["settings"] = PG_SETTINGS
            results["postgres"]["version"] = pg.psql("SHOW server_version")
            log(f"PostgreSQL : {results['postgres']}")
        if "read" in only:
            log("lectures…")
            results.update(read_cases(args, args.work, base, creds, facts, pg))
        if "calls" in only:
            log("appels du centre d'appels…")
            results["calls"] = call_cases(args, args.work, base, creds, facts, pg)
        if "intake" in only:
            log(f"appels répartis sur 1 et {INTAKE_AGENCIES} agences…")
            results["intake"] = intake_cases(args, args.work, base, agencies, pg)
        if "servers" in only and pg is not None:
            log("deux serveurs derrière nginx…")
            results["twoServers"] = two_server_cases(args, args.work, base, creds, agencies, pg)
        if "webhooks" in only:
            log("webhooks…")
            results["webhooks"] = webhook_cases(args, args.work, base, creds, facts)
            if pg is not None:
                log("webhooks sur PostgreSQL…")
                results["webhooksPg"] = webhook_cases(args, args.work, base, creds, facts, pg)
        if "cold" in only:
            log("démarrage à froid…")
            results["coldStartMs"] = cold_start(args, args.work, base, creds)
            if pg is not None:
                log("démarrage à froid sur PostgreSQL…")
                results["coldStartPgMs"] = cold_start(args, args.work, base, creds, pg)
        if "billing" in only:
            log(f"facturation des contrats ({args.billing_contracts} contrats), puis une à une…")
            results["billing"] = billing_case(args, args.work, base, creds)
            log(f"facturation : {results['billing']}")
            if pg is not None:
                log("facturation des contrats sur PostgreSQL…")
                results["billingPg"] = billing_case(args, args.work, base, creds, pg)
                log(f"facturation PostgreSQL : {results['billingPg']}")
        if "import" in only:
            log("import…")
            results["import"] = import_case(args, args.work, base, creds)
            if pg is not None:
                # Side by side at a size PostgreSQL's import takes in a
                # reasonable time (each row's statements a round trip).
                log(f"import de {args.pg_import_rows} lignes, SQLite puis PostgreSQL…")
                results["importSmall"] = import_case(args, args.work, base, creds, rows=args.pg_import_rows)
                results["importPg"] = import_case(args, args.work, base, creds, pg, rows=args.pg_import_rows)
    finally:
        if pg is not None:
            pg.stop()
    results["runSeconds"] = time.monotonic() - started_run
    results["loadavgAtEnd"] = Path("/proc/loadavg").read_text().split()[:3]
    results["projection"] = projection(results)
    peaks = [results.get("rssPeakKiB", 0), results.get("calls", {}).get("rssPeakKiB", 0)]
    if "rssIdleKiB" in results:
        results["rssIdleMB"] = results["rssIdleKiB"] / 1024
        results["rssPeakMB"] = max(peaks) / 1024
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    if BASE <= only:
        table = report(results)
        engines_table = report_engines(results)
        if engines_table:
            table += "\n\n" + engines_table
        args.out.with_suffix(".md").write_text(
            f"{results['date']}, commit {commit}, {results['machine']}\n\n{table}\n")
        print(table)
    else:
        print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
