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
"""

import argparse
import base64
import datetime
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


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, token=None, body=None, header="Authorization", timeout=600):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
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


def liftdesk_serve(data_dir, work, bind="127.0.0.1:0", extra=()):
    return Server(
        [LIFTDESK, "--data-dir", data_dir, "serve", "--bind", bind, *extra],
        # Logging left at its default (info, a line per request), as users run it.
        env={"LIFTDESK_RATE_LIMIT": HIGH_LIMIT},
        log_path=work / "serve.log",
    )


def wrk(url, connections, seconds, script=None, headers=(), env=None):
    """Requests per second of one wrk run on the load core; fails on any
    error or non-2xx answer."""
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
    if not match:
        raise RuntimeError(f"sortie de wrk illisible :\n{text}")
    return float(match.group(1))


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


def read_cases(args, work, base, creds, facts):
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
        log("préchauffage des lectures…")
        for name, (url, headers) in cases.items():
            wrk(url, 2, args.warmup, headers=headers)
        rounds = {name: [] for name in cases}
        names = list(cases)
        for r in range(args.rounds):
            order = names if r % 2 == 0 else names[::-1]
            for name in order:
                url, headers = cases[name]
                rounds[name].append(wrk(url, 2, args.duration, headers=headers))
                log(f"  tour {r + 1} {name:22} {rounds[name][-1]:10.0f} req/s")
        results["c2"] = {name: median_spread(v) for name, v in rounds.items()}
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
            key: median_spread([a / b for a, b in zip(rounds[num], rounds[den])])
            for key, (num, den) in ratios.items()
        }
        log("saturation (32 connexions)…")
        c32 = {}
        for name in names:
            url, headers = cases[name]
            c32[name] = wrk(url, 32, args.duration, headers=headers)
            log(f"  c32 {name:22} {c32[name]:10.0f} req/s")
        results["c32"] = c32
        results["rssPeakC32KiB"] = rss_kib(liftdesk.pid, "VmHWM")
    finally:
        for server in reversed(servers):
            server.stop()
    return results


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


def call_cases(args, work, base, creds, facts):
    key = creds["callCenterKeys"][0]
    equipment = facts["equipment"]
    with sqlite3.connect(f"file:{base / 'liftdesk.db'}?mode=ro", uri=True) as db:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
    results = {"new": [], "repeat": [], "frames": [], "floor": [], "ceiling": [], "newVsCeiling": []}
    for r in range(args.rounds):
        for case in (["new", "repeat"] if r % 2 == 0 else ["repeat", "new"]):
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
    return {
        "new": median_spread(results["new"]),
        "repeat": median_spread(results["repeat"]),
        "walFramesPerCall": median_spread(results["frames"]),
        "flushFloorMicros": median_spread(results["floor"]),
        "ceilingConcurrency2": median_spread(results["ceiling"]),
        "newVsCeiling": median_spread(results["newVsCeiling"]),
        "rssPeakKiB": results.get("rssPeakKiB", 0),
    }


def webhook_cases(args, work, base, creds, facts):
    agency = creds["agencies"][0]["id"]
    token = creds["admin"]["apiToken"]
    data = work / "webhooks"
    copy_data(base, data)
    webhook_opts = ["--insecure-webhooks", "--connectivity-probe", "off"]
    port = free_port()
    # The subscription, made while the receiver is down (nothing queued yet).
    server = liftdesk_serve(data, work, extra=webhook_opts)
    try:
        http("POST", server.url + "/api/v2/webhooks", token,
             {"url": f"http://127.0.0.1:{port}/crochet", "events": ["appel.clos"]})
    finally:
        server.stop()
    queued = json.loads(subprocess.run(
        [BENCH, "queue-webhooks", "--data-dir", data, "--agency", agency, "--count", str(args.backlog)],
        capture_output=True, text=True, check=True).stdout)
    log(f"  file d'attente : {queued}")
    receiver = subprocess.Popen(
        ["taskset", "-c", LOAD_CORE, BENCH, "hook-receiver", "--bind", f"127.0.0.1:{port}",
         "--expect", str(args.backlog)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    server = liftdesk_serve(data, work, extra=webhook_opts)
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
    return {"drain": drain, "latency": latency}


def cold_start(args, work, base, creds):
    token = creds["admin"]["apiToken"]
    data = work / "cold"
    copy_data(base, data)
    # A first start (as after an install), then the measured ones.
    times = []
    for n in range(args.cold_starts + 1):
        port = free_port()
        started = time.monotonic()
        proc = subprocess.Popen(
            ["taskset", "-c", SERVER_CORE, LIFTDESK, "--data-dir", data, "serve", "--bind",
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
    return median_spread(times)


def import_case(args, work, base, creds):
    token = creds["admin"]["apiToken"]
    data = work / "import"
    copy_data(base, data)
    xlsx = work / "parc.xlsx"
    subprocess.run([BENCH, "xlsx", "--rows", str(args.import_rows), "--out", xlsx], check=True)
    content = base64.b64encode(xlsx.read_bytes()).decode()
    server = liftdesk_serve(data, work)
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
    if done["created"] + done["updated"] != args.import_rows:
        refused = [row for row in done["rows"] if row["action"] == "refus"][:3]
        raise RuntimeError(f"lignes refusées à l'import : {refused}")
    return {
        "rows": args.import_rows, "bytes": xlsx.stat().st_size,
        "uploadSeconds": uploaded_at - started, "checkSeconds": checked_at - uploaded_at,
        "importSeconds": finished - checked_at, "totalSeconds": finished - started,
        "created": done["created"], "updated": done["updated"], "refused": done["refused"],
        "checkCreated": check["created"],
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
    parser.add_argument("--only", default="read,calls,webhooks,cold,import")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "latest.json")
    args = parser.parse_args()
    only = set(args.only.split(","))
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
    if "read" in only:
        log("lectures…")
        results.update(read_cases(args, args.work, base, creds, facts))
    if "calls" in only:
        log("appels du centre d'appels…")
        results["calls"] = call_cases(args, args.work, base, creds, facts)
    if "webhooks" in only:
        log("webhooks…")
        results["webhooks"] = webhook_cases(args, args.work, base, creds, facts)
    if "cold" in only:
        log("démarrage à froid…")
        results["coldStartMs"] = cold_start(args, args.work, base, creds)
    if "import" in only:
        log("import…")
        results["import"] = import_case(args, args.work, base, creds)
    peaks = [results.get("rssPeakKiB", 0), results.get("calls", {}).get("rssPeakKiB", 0)]
    if "rssIdleKiB" in results:
        results["rssIdleMB"] = results["rssIdleKiB"] / 1024
        results["rssPeakMB"] = max(peaks) / 1024
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    if only == {"read", "calls", "webhooks", "cold", "import"}:
        table = report(results)
        args.out.with_suffix(".md").write_text(
            f"{results['date']}, commit {commit}, {results['machine']}\n\n{table}\n")
        print(table)
    else:
        print(json.dumps(results, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
