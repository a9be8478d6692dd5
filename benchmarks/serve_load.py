"""`hachi-score serve` under a table's load, on loopback only (not a timed test: figures printed).

On a 12-round night (the bundled one), a real server process on 127.0.0.1 (port 0):

- the page's first byte: median (and 99th percentile) over repeated GETs of the page;
- a tapped card, validated and answered: POST /api/answer round trip;
- a save reaching 6 connected streams: from the save's request to the new night on each stream;
- 50 viewers holding streams while 3 phones tap a whole round in at once: taps' errors and
  latency (median, 99th percentile), and whether every viewer saw the round saved;
- the server's peak memory (VmHWM of the process);
- Ctrl-C with six streams open: the time from SIGINT to the process's exit.

Bounded in count and time (every wait has a timeout; the whole run takes well under a minute).

    python benchmarks/serve_load.py [--requests 60] [--viewers 50]
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from importlib.resources import files
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import bench_env  # noqa: E402

PLAYERS = ["Aki", "Ben", "Chie"]
#: httpx writes a POST's headers and body apart; without TCP_NODELAY, Nagle and the delayed ACK add
#: ~40 ms to every POST on loopback (a browser coalesces them): the figures are the server's
NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def transport() -> httpx.HTTPTransport:
    return httpx.HTTPTransport(socket_options=NODELAY)


def rounds() -> list[dict]:
    night = files("scorekeeper").joinpath("data", "night")
    return [json.loads(f.read_text("utf-8")) for f in sorted(night.iterdir(), key=lambda f: f.name) if f.name.endswith(".json")]


def answers_of(data: dict, dealer: str) -> dict[str, str]:
    out = {"dealer": dealer, "field": " ".join(data["field"])}
    for p in PLAYERS:
        hand = " ".join(data.get("hands", {}).get(p, []))
        out[f"hand:{p}"] = " ".join(x for x in (hand, (data.get("teyaku") or {}).get(p) or "") if x)
    out["ended"] = data.get("ended_by") or ""
    out["sage"] = data.get("sage") or ""
    for p in PLAYERS:
        out[f"pile:{p}"] = " ".join(data["captured"].get(p, []))
    return out


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


class Stream(threading.Thread):
    """One phone holding the live stream: the time each night (by rounds) first arrives."""

    def __init__(self, base: str, cookie: str) -> None:
        super().__init__(daemon=True)
        self.base, self.cookie = base, cookie
        self.seen: dict[int, float] = {}
        self.error: str | None = None
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, cookies={"hachi": self.cookie}, timeout=30) as c:
                with c.stream("GET", "/api/events") as r:
                    for line in r.iter_lines():
                        if line.startswith("data:") and '"session"' in line:
                            n = json.loads(line[5:])["session"]["rounds"]
                            self.seen.setdefault(n, time.perf_counter())
                            self.ready.set()
                        if self.stop:
                            return
        except Exception as e:  # noqa: BLE001 - counted, not raised
            if not self.stop:
                self.error = repr(e)
        finally:
            self.ready.set()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=60)
    ap.add_argument("--viewers", type=int, default=50)
    args = ap.parse_args()

    from scorekeeper.flows import Night
    from scorekeeper.store import Book

    tmp = Path(tempfile.mkdtemp(prefix="hachi-serve-load-"))
    db = tmp / "book.json"
    book = Book.open(db)
    sid = book.new_session(PLAYERS, name="load night", rate=10)
    night = rounds()
    for data in night:
        Night(book, sid, load=False).add_round(data)

    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=bench_env())
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 20
        while not any("view only" in ln for ln in lines):
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start: " + proc.stderr.read()[:300])
            lines.append(proc.stdout.readline())
        table = next(ln.split()[-1] for ln in lines if "table (players)" in ln)
        view = next(ln.split()[-1] for ln in lines if "view only" in ln)
        base = table.split("/t/")[0]
        with httpx.Client(timeout=10) as c:
            tcookie = c.get(table).cookies.get("hachi") or c.cookies.get("hachi")
            vcookie = httpx.get(view, timeout=10).cookies.get("hachi") or None
        if vcookie is None:
            with httpx.Client(timeout=10) as c:
                c.get(view)
                vcookie = c.cookies.get("hachi")
        with httpx.Client(base_url=base, timeout=10, cookies={"hachi": tcookie}) as c:
            csrf = c.get("/").text.split('name="hachi-csrf" content="')[1].split('"')[0]
        headers = {"X-Hachi-CSRF": csrf, "Origin": base, "Content-Type": "application/json"}

        def client() -> httpx.Client:
            return httpx.Client(base_url=base, timeout=10, cookies={"hachi": tcookie}, headers=headers,
                                transport=transport())

        print(f"serve on {base}, a {len(night)}-round night, pid {proc.pid}")

        # 1. the page's first byte
        firsts = []
        with client() as c:
            for _ in range(args.requests):
                t = time.perf_counter()
                with c.stream("GET", "/") as r:
                    next(r.iter_raw())
                firsts.append(time.perf_counter() - t)
        print(f"page, first byte:            median {ms(statistics.median(firsts))}, p99 {ms(pct(firsts, .99))} ({len(firsts)} GETs)")

        # 2. a tapped card, validated and answered
        taps, bad = [], 0
        with client() as c:
            state = c.get("/api/state").json()
            dealer = state["session"]["dealer"]
            first = state["round"]["order"][0]
            for i in range(args.requests):
                t = time.perf_counter()
                r = c.post("/api/answer", content=json.dumps({"key": f"pile:{first}", "text": "1h" if i % 2 == 0 else "1h 1k"}))
                taps.append(time.perf_counter() - t)
                bad += r.status_code != 200
            typo = c.post("/api/answer", content=json.dumps({"key": f"pile:{first}", "text": "1h 2h"}))
            c.post("/api/discard", content="{}")
        print(f"tap, validated and answered: median {ms(statistics.median(taps))}, p99 {ms(pct(taps, .99))} "
              f"({len(taps)} taps, {bad} errors; a typo answered {typo.status_code})")

        # 3. a save reaching 6 connected streams
        streams = [Stream(base, tcookie) for _ in range(6)]
        for s in streams:
            s.start()
        for s in streams:
            s.ready.wait(10)
        with client() as c:
            a = answers_of(night[0], dealer)
            for key, text in a.items():
                c.post("/api/answer", content=json.dumps({"key": key, "text": text}))
            rev = c.get("/api/state").json()["round"]["revision"]
            t = time.perf_counter()
            saved = c.post("/api/save", content=json.dumps({"revision": rev}))
            n = saved.json().get("saved")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(n in s.seen for s in streams):
            time.sleep(0.01)
        reach = [s.seen[n] - t for s in streams if n in s.seen]
        for s in streams:
            s.stop = True
        print(f"save reaching 6 streams:     slowest {ms(max(reach)) if reach else 'never'}, median {ms(statistics.median(reach)) if reach else '-'} "
              f"({len(reach)}/6 streams, save {saved.status_code})")

        # 4. 50 viewers holding streams while 3 phones enter a round at once
        viewers = [Stream(base, vcookie) for _ in range(args.viewers)]
        for v in viewers:
            v.start()
        for v in viewers:
            v.ready.wait(10)
        with client() as c:
            state = c.get("/api/state").json()
            dealer = state["session"]["dealer"]
            a = answers_of(next(r for r in night[1:] if not r.get("ended_by")), dealer)  # played out: 48 taps
            for key in ["dealer", "field", *[f"hand:{p}" for p in PLAYERS], "ended", "sage"]:
                c.post("/api/answer", content=json.dumps({"key": key, "text": a[key]}))
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()

        def phone(player: str) -> None:
            with client() as c:
                pile: list[str] = []
                for card in a[f"pile:{player}"].split():
                    pile.append(card)
                    t = time.perf_counter()
                    try:
                        r = c.post("/api/answer", content=json.dumps({"key": f"pile:{player}", "text": " ".join(pile)}))
                        ok = r.status_code == 200
                    except httpx.HTTPError as e:
                        ok, r = False, e
                    with lock:
                        latencies.append(time.perf_counter() - t)
                        if not ok:
                            errors.append(str(getattr(r, "status_code", r)))

        phones = [threading.Thread(target=phone, args=(p,)) for p in PLAYERS]
        start = time.perf_counter()
        for ph in phones:
            ph.start()
        for ph in phones:
            ph.join(60)
        took = time.perf_counter() - start
        with client() as c:
            rev = c.get("/api/state").json()["round"]["revision"]
            n = c.post("/api/save", content=json.dumps({"revision": rev})).json().get("saved")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not all(n in v.seen for v in viewers):
            time.sleep(0.02)
        got = sum(1 for v in viewers if n in v.seen)
        stream_errors = sum(1 for v in viewers if v.error)
        for v in viewers:
            v.stop = True
        print(f"{args.viewers} viewers + 3 phones:     {len(latencies)} taps in {took:.2f} s, {len(errors)} errors, "
              f"median {ms(statistics.median(latencies))}, p99 {ms(pct(latencies, .99))}; "
              f"{got}/{args.viewers} viewers saw the save, {stream_errors} stream errors")

        status = Path(f"/proc/{proc.pid}/status")
        if status.exists():
            peak = next((ln.split(":")[1].strip() for ln in status.read_text().splitlines() if ln.startswith("VmHWM")), "?")
            print(f"server peak memory (VmHWM):  {peak}")

        # Ctrl-C with phones connected: six streams held open, then SIGINT, timed to the exit
        held = [Stream(base, vcookie) for _ in range(6)]
        for s in held:
            s.start()
        for s in held:
            s.ready.wait(10)
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
            print(f"Ctrl-C with 6 streams open:  stopped in {ms(time.perf_counter() - start)} "
                  f"(status {proc.returncode})")
        except subprocess.TimeoutExpired:
            print("Ctrl-C with 6 streams open:  still running after 10 s")
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
