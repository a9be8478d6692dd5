"""`hachi-score serve` under a table's load, on loopback only (not a timed test: figures printed).

On a 12-round night (the bundled one), a real server process on 127.0.0.1 (port 0), run with at
most ``--nofile`` open files (256 by default, a Mac's own ``ulimit -n``), measured twice: once
alone, once while ``--slow`` connections from 127.0.0.2 are being opened and held (each sends half
a request line and waits; whichever the server closes is opened again; from a process of its
own):

- the page's first byte: median (and 99th percentile) over repeated GETs of the page;
- a tapped card, validated and answered: POST /api/answer round trip;
- a save reaching 6 connected streams (6 phones, each with a cookie of its own: a device holds 4
  streams at most): from the save's request to the new night on each stream;
- 50 viewers (each from its own address, 127.0.1.x) holding streams while 3 phones tap a whole
  round in at once: taps' errors and latency (median, 99th percentile), and whether every viewer
  saw the round saved. The viewers are other people's phones: they hold their streams from a
  process of their own (reading each push in the figures' own interpreter, 50 threads, made the
  phones' taps wait on its lock: ``--viewers-here`` measures that way again). Each asks for the
  stream as the page does (``?patch=1``: a push that changes part of the night sends that part);
- 2,000 stream attempts (GET /api/events) from one view cookie, then 300 with no cookie, each
  on a connection of its own kept open (from 127.0.0.2, a process of its own), while a player
  taps: the taps' errors and 99th percentile, and how the streams were answered;
- the server's peak memory (VmHWM of the process), and the lines its log printed;
- Ctrl-C with six streams open: the time from SIGINT to the process's exit.

Bounded in count and time (every wait has a timeout; a pass gives up on a figure after three
requests in a row fail).

    python benchmarks/serve_load.py [--requests 60] [--viewers 50] [--slow 300] [--nofile 256] [--streams 2000]
                                    [--viewers-here]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import answers_of, bundled_rounds, bench_env  # noqa: E402

PLAYERS = ["Aki", "Ben", "Chie"]
#: httpx writes a POST's headers and body apart; without TCP_NODELAY, Nagle and the delayed ACK add
#: ~40 ms to every POST on loopback (a browser coalesces them): the figures are the server's
NODELAY = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
ATTACKER = "127.0.0.2"
TIMEOUT = 10.0


def transport(source: str | None = None) -> httpx.HTTPTransport:
    return httpx.HTTPTransport(socket_options=NODELAY, local_address=source)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


class Stream(threading.Thread):
    """One phone holding the live stream: the time each night (by rounds) first arrives
    (``path``: the stream asked for as the page asks for it, its pushes whole or in part)."""

    def __init__(self, base: str, cookie: str, source: str | None = None, path: str = "/api/events") -> None:
        super().__init__(daemon=True)
        self.base, self.cookie, self.source, self.path = base, cookie, source, path
        self.seen: dict[int, float] = {}
        self.error: str | None = None
        self.ready = threading.Event()
        self.stop = False

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, cookies={"hachi": self.cookie}, timeout=30,
                              transport=transport(self.source)) as c:
                with c.stream("GET", self.path) as r:
                    for line in r.iter_lines():
                        if line.startswith("data:") and '"session"' in line:
                            data = json.loads(line[5:])
                            night = data.get("set", data)  # the parts a push changed: under "set"
                            if "session" in night:
                                self.seen.setdefault(night["session"]["rounds"], time.perf_counter())
                                self.ready.set()
                        if self.stop:
                            return
        except Exception as e:  # noqa: BLE001 - counted, not raised
            if not self.stop:
                self.error = repr(e)
        finally:
            self.ready.set()


class SlowFlood(threading.Thread):
    """``count`` connections from ``source`` that each send half a request line and wait; those
    the server closes are opened again, so that ``count`` are being opened all along."""

    def __init__(self, port: int, count: int, source: str = ATTACKER) -> None:
        super().__init__(daemon=True)
        self.port, self.count, self.source = port, count, source
        self.opened = self.closed = self.failed = 0
        self.full = threading.Event()
        self.stop = False

    def open_one(self, sel: selectors.DefaultSelector) -> None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((self.source, 0))
            s.settimeout(TIMEOUT)
            s.connect(("127.0.0.1", self.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1")
            s.setblocking(False)
        except OSError:
            s.close()
            self.failed += 1
            return
        self.opened += 1
        sel.register(s, selectors.EVENT_READ)

    def run(self) -> None:
        sel = selectors.DefaultSelector()
        try:
            while not self.stop:
                while len(sel.get_map()) < self.count and not self.stop:
                    self.open_one(sel)
                    if self.opened >= self.count:
                        self.full.set()
                for key, _ in sel.select(0.05):
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
                    self.closed += 1
        finally:
            for key in list(sel.get_map().values()):
                key.fileobj.close()
            sel.close()


def stream_attempt(port: int, cookie: str, source: str = ATTACKER) -> tuple[str, socket.socket | None]:
    """A stream asked for on a connection of its own and kept open: its answer's status ("closed":
    none came)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((source, 0))
        s.settimeout(TIMEOUT)
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  + (b"Cookie: hachi=" + cookie.encode() + b"\r\n" if cookie else b"") + b"\r\n")
        head = b""
        while b"\r\n" not in head and (chunk := s.recv(1)):
            head += chunk
    except OSError:
        s.close()
        return "closed", None
    return (head.split()[1].decode() if head.startswith(b"HTTP/1.1 ") else "closed"), s


def watch(base: str, view: str, count: int) -> list[Stream]:
    """``count`` viewers, each logged in by the ``view`` link and holding its stream from its own
    address, as the page asks for it; returned once each has the night."""
    viewers = [Stream(base, cookie_of(view), f"127.0.1.{10 + i}", "/api/events?patch=1") for i in range(count)]
    for v in viewers:
        v.start()
    for v in viewers:
        v.ready.wait(TIMEOUT)
    return viewers


def saw(viewers: list[Stream], n: int) -> tuple[int, int]:
    """How many ``viewers`` saw round ``n`` saved (waiting for it, up to the timeout), and how many
    streams failed; the streams let go."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and not all(n in v.seen for v in viewers):
        time.sleep(0.02)
    for v in viewers:
        v.stop = True
    return sum(1 for v in viewers if n in v.seen), sum(1 for v in viewers if v.error)


class Viewers:
    """The fourth figure's viewers: in a process of their own (``here``: in this one's threads)."""

    def __init__(self, base: str, view: str, count: int, here: bool) -> None:
        self.here = watch(base, view, count) if here else None
        self.proc = None if here else subprocess.Popen(
            [sys.executable, __file__, "--watch", base, "--cookie", view, "--viewers", str(count)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.proc is not None:
            self.proc.stdout.readline()  # each has the night

    def saw(self, n: int) -> tuple[int, int]:
        if self.here is not None:
            return saw(self.here, n)
        self.proc.stdin.write(f"{n}\n")
        self.proc.stdin.flush()
        said = self.proc.stdout.readline().split()
        self.proc.wait(TIMEOUT)
        return (int(said[0]), int(said[1])) if len(said) == 2 else (0, 0)


def viewers_apart(base: str, view: str, count: int) -> None:
    """The viewers' process: says when each has the night, then, told a round's number, how many
    saw it saved and how many streams failed."""
    viewers = watch(base, view, count)
    print("ready", flush=True)
    n = int(sys.stdin.readline())
    print(*saw(viewers, n), flush=True)


def stream_flood(port: int, count: int, cookie: str) -> None:
    """The third figure's stranger, in a process of its own: ``count`` streams asked for with the
    view ``cookie``, then 300 with none, every connection kept open; says how they were answered,
    then holds them until its standard input closes."""
    held: list[socket.socket] = []
    said: dict[str, dict[str, int]] = {}
    for name, value, n in (("view cookie", cookie, count), ("no cookie", "", 300)):
        answers: dict[str, int] = {}
        for _ in range(n):
            status, s = stream_attempt(port, value)
            answers[status] = answers.get(status, 0) + 1
            if s is not None:
                held.append(s)
        said[name] = answers
    print(json.dumps(said), flush=True)
    sys.stdin.read()
    for s in held:
        s.close()


def timed(calls: int, one) -> tuple[list[float], int]:
    """Up to ``calls`` round trips of ``one()`` (True: answered as it should): their times, and how
    many failed; three failures in a row end it."""
    times, failed, in_a_row = [], 0, 0
    for i in range(calls):
        t = time.perf_counter()
        try:
            ok = one(i)
        except httpx.HTTPError:
            ok = False
        times.append(time.perf_counter() - t)
        failed += not ok
        in_a_row = 0 if ok else in_a_row + 1
        if in_a_row >= 3:
            break
    return times, failed


class Log(threading.Thread):
    """One of the server's outputs, drained: its lines counted, the first few kept."""

    def __init__(self, stream) -> None:
        super().__init__(daemon=True)
        self.stream, self.lines, self.first = stream, 0, []

    def run(self) -> None:
        for line in self.stream:
            self.lines += 1
            if len(self.first) < 3:
                self.first.append(line.rstrip())


def start(db: Path, nofile: int) -> tuple[subprocess.Popen, str, str, list[Log]]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=bench_env(), preexec_fn=limit)
    log = Log(proc.stderr)
    log.start()
    lines: list[str] = []
    deadline = time.monotonic() + 20
    while not any(ln.startswith("Ctrl-C stops") for ln in lines):  # the last line of its links
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit("the server did not start: " + "\n".join(log.first))
        lines.append(proc.stdout.readline())
    notices = Log(proc.stdout)  # what it says on its terminal once serving
    notices.start()
    table = next(ln.split()[-1] for ln in lines if "table (players)" in ln)
    view = next(ln.split()[-1] for ln in lines if "view only" in ln)
    return proc, table, view, [log, notices]


def cookie_of(link: str) -> str:
    with httpx.Client(timeout=TIMEOUT) as c:
        c.get(link)
        return c.cookies.get("hachi")


def one_pass(args: argparse.Namespace, night: list[dict], slow: int) -> dict[str, str]:
    """Every figure on a new server over a new 12-round night, with ``slow`` slow connections
    being opened meanwhile (0: none)."""
    from scorekeeper.flows import Night
    from scorekeeper.store import Book

    tmp = Path(tempfile.mkdtemp(prefix="hachi-serve-load-"))
    db = tmp / "book.json"
    book = Book.open(db)
    sid = book.new_session(PLAYERS, name="load night", rate=10)
    for data in night:
        Night(book, sid, load=False).add_round(data)
    proc, table, view, logs = start(db, args.nofile)
    out: dict[str, str] = {}
    flood = None
    try:
        base = table.split("/t/")[0]
        tcookie, vcookie = cookie_of(table), cookie_of(view)
        with httpx.Client(base_url=base, timeout=TIMEOUT, cookies={"hachi": tcookie}) as c:
            csrf = c.get("/").text.split('name="hachi-csrf" content="')[1].split('"')[0]
        headers = {"X-Hachi-CSRF": csrf, "Origin": base, "Content-Type": "application/json"}

        def client() -> httpx.Client:
            return httpx.Client(base_url=base, timeout=TIMEOUT, cookies={"hachi": tcookie}, headers=headers,
                                transport=transport())

        def post(c: httpx.Client, path: str, body: dict) -> httpx.Response:
            return c.post(path, content=json.dumps(body))

        def enter_and_save(c: httpx.Client, a: dict[str, str], keys: list[str]) -> tuple[float, httpx.Response]:
            """Enter ``keys`` of ``a``, each player says their pile is complete (a tap never does),
            and the round is saved: the save's start and its answer."""
            for key in keys:
                post(c, "/api/answer", {"key": key, "text": a[key]})
            for p in PLAYERS:
                post(c, "/api/done", {"player": p, "done": True})
            rev = c.get("/api/state").json()["round"]["revision"]
            t = time.perf_counter()
            return t, post(c, "/api/save", {"revision": rev})

        title = f"with {slow} slow connections from {ATTACKER} being opened" if slow else "alone"
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"\n-- serve on {base}, a {len(night)}-round night, at most {args.nofile} open files, {title} "
              f"(load average {load} on {os.cpu_count()} cores)")
        if slow:  # from a process of its own: the figures' client does not share its interpreter
            flood = subprocess.Popen([sys.executable, __file__, "--flood", base.rsplit(":", 1)[1], "--slow", str(slow)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            print(f"slow connections:            {flood.stdout.readline().strip()} before the figures")

        # 1. the page's first byte
        try:
            with client() as c:
                def first_byte(i: int) -> bool:
                    with c.stream("GET", "/") as r:
                        next(r.iter_raw())
                        return r.status_code == 200

                firsts, bad = timed(args.requests, first_byte)
            out["first byte p99"] = ms(pct(firsts, .99))
            print(f"page, first byte:            median {ms(statistics.median(firsts))}, p99 {ms(pct(firsts, .99))} "
                  f"({len(firsts)} GETs, {bad} errors)")
        except Exception as e:  # noqa: BLE001 - a figure the server could not give
            print(f"page, first byte: failed ({e!r})")

        # 2. a tapped card, validated and answered (the field set first: the piles come after it)
        try:
            with client() as c:
                state = c.get("/api/state").json()
                first = state["round"]["order"][0]
                post(c, "/api/answer", {"key": "field", "text": " ".join(night[0]["field"])})
                taps, bad = timed(args.requests, lambda i: post(c, "/api/answer", {
                    "key": f"pile:{first}", "text": "1h" if i % 2 == 0 else "1h 1k"}).status_code == 200)
                typo = post(c, "/api/answer", {"key": f"pile:{first}", "text": "1h 2h"})
                post(c, "/api/discard", {})
            out["tap p99"] = ms(pct(taps, .99))
            print(f"tap, validated and answered: median {ms(statistics.median(taps))}, p99 {ms(pct(taps, .99))} "
                  f"({len(taps)} taps, {bad} errors; a typo answered {typo.status_code})")
        except Exception as e:  # noqa: BLE001 - a figure the server could not give
            print(f"tap, validated and answered: failed ({e!r})")

        # 3. a save reaching 6 connected streams
        try:
            streams = [Stream(base, cookie_of(table)) for _ in range(6)]  # 6 phones, a cookie each
            for s in streams:
                s.start()
            for s in streams:
                s.ready.wait(TIMEOUT)
            with client() as c:
                a = answers_of(night[0], c.get("/api/state").json()["session"]["dealer"])
                t, saved = enter_and_save(c, a, list(a))
                n = saved.json().get("saved")
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline and not all(n in s.seen for s in streams):
                time.sleep(0.01)
            reach = [s.seen[n] - t for s in streams if n in s.seen]
            for s in streams:
                s.stop = True
            out["save to 6 streams"] = ms(max(reach)) if reach else "never"
            print(f"save reaching 6 streams:     slowest {out['save to 6 streams']}, median {ms(statistics.median(reach)) if reach else '-'} "
                  f"({len(reach)}/6 streams, save {saved.status_code})")
        except Exception as e:  # noqa: BLE001 - a figure the server could not give
            print(f"save reaching 6 streams: failed ({e!r})")

        # 4. 50 viewers holding streams while 3 phones enter a round at once
        try:
            watching = Viewers(base, view, args.viewers, args.viewers_here)
            with client() as c:
                state = c.get("/api/state").json()
                dealer = state["session"]["dealer"]
                a = answers_of(next(r for r in night[1:] if not r.get("ended_by")), dealer)  # played out: 48 taps
                for key in ["dealer", "field", *[f"hand:{p}" for p in PLAYERS], "ended", "sage"]:
                    post(c, "/api/answer", {"key": key, "text": a[key]})
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
                            r = post(c, "/api/answer", {"key": f"pile:{player}", "text": " ".join(pile)})
                            ok = r.status_code == 200
                        except httpx.HTTPError as e:
                            ok, r = False, e
                        with lock:
                            latencies.append(time.perf_counter() - t)
                            if not ok:
                                errors.append(str(getattr(r, "status_code", r)))

            phones = [threading.Thread(target=phone, args=(p,)) for p in PLAYERS]
            begun = time.perf_counter()
            for ph in phones:
                ph.start()
            for ph in phones:
                ph.join(60)
            took = time.perf_counter() - begun
            with client() as c:
                _, saved = enter_and_save(c, a, [])
                n = saved.json().get("saved")
            got, stream_errors = watching.saw(n)
            out[f"{args.viewers} viewers p99"] = ms(pct(latencies, .99))
            print(f"{args.viewers} viewers + 3 phones:     {len(latencies)} taps in {took:.2f} s, {len(errors)} errors, "
                  f"median {ms(statistics.median(latencies))}, p99 {ms(pct(latencies, .99))}; "
                  f"{got}/{args.viewers} viewers saw the save ({saved.status_code}), {stream_errors} stream errors")
        except Exception as e:  # noqa: BLE001 - a figure the server could not give
            print(f"viewers + 3 phones: failed ({e!r})")

        # 5. streams asked for by a stranger with the view link, and with no cookie, while a player taps
        if args.streams:
            stranger = None
            try:
                with client() as c:
                    first = c.get("/api/state").json()["round"]["order"][0]
                    post(c, "/api/answer", {"key": "field", "text": " ".join(night[0]["field"])})
                    stranger = subprocess.Popen([sys.executable, __file__, "--stream-flood", base.rsplit(":", 1)[1],
                                                 "--streams", str(args.streams), "--cookie", vcookie],
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                    answered: list[str] = []
                    reader = threading.Thread(target=lambda: answered.append(stranger.stdout.readline()), daemon=True)
                    reader.start()
                    taps, bad, deadline = [], 0, time.monotonic() + 20 * TIMEOUT
                    while (reader.is_alive() or len(taps) < args.requests) and time.monotonic() < deadline:
                        more, failed = timed(1, lambda i: post(c, "/api/answer", {
                            "key": f"pile:{first}", "text": "1h" if len(taps) % 2 == 0 else "1h 1k"}).status_code == 200)
                        taps, bad = taps + more, bad + failed
                    try:  # a page loaded with the streams still held
                        after = str(c.get("/").status_code)
                    except httpx.HTTPError as e:
                        after = type(e).__name__
                    reader.join(TIMEOUT)
                out["tap p99, stream flood"] = ms(pct(taps, .99))
                print(f"tap, {args.streams} + 300 streams:  median {ms(statistics.median(taps))}, p99 {ms(pct(taps, .99))} "
                      f"({len(taps)} taps, {bad} errors; a page after it: {after}); streams answered "
                      f"{answered[0].strip() if answered else '?'}")
            except Exception as e:  # noqa: BLE001 - a figure the server could not give
                print(f"tap, stream flood: failed ({e!r})")
            finally:
                if stranger is not None:  # its standard input closed: it lets its connections go
                    stranger.stdin.close()
                    try:
                        stranger.wait(TIMEOUT)
                    except subprocess.TimeoutExpired:
                        stranger.kill()
                        stranger.wait(TIMEOUT)
                with contextlib.suppress(httpx.HTTPError), client() as c:
                    post(c, "/api/discard", {})

        status = Path(f"/proc/{proc.pid}/status")
        if status.exists():
            peak = next((ln.split(":")[1].strip() for ln in status.read_text().splitlines() if ln.startswith("VmHWM")), "?")
            print(f"server peak memory (VmHWM):  {peak}")
        if flood is not None:
            said, _ = flood.communicate(timeout=TIMEOUT)  # its stdin closed: it stops and counts
            print(f"slow connections:            {said.strip()}")
            flood = None

        # Ctrl-C with phones connected: six streams held open, then SIGINT, timed to the exit
        held = [Stream(base, cookie_of(view)) for _ in range(6)]
        for s in held:
            s.start()
        for s in held:
            s.ready.wait(TIMEOUT)
        begun = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(TIMEOUT)
            print(f"Ctrl-C with 6 streams open:  stopped in {ms(time.perf_counter() - begun)} (status {proc.returncode})")
        except subprocess.TimeoutExpired:
            print(f"Ctrl-C with 6 streams open:  still running after {TIMEOUT:g} s")
    finally:
        if flood is not None:
            flood.kill()
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
        for log in logs:
            log.join(TIMEOUT)
        shutil.rmtree(tmp, ignore_errors=True)
    lines, first = sum(log.lines for log in logs), [ln for log in logs for ln in log.first]
    out["server log lines"] = str(lines)
    print(f"server log:                  {lines} lines after the links" + "".join(f"\n    {ln[:150]}" for ln in first))
    return out


def flood(port: int, count: int) -> None:
    """The second pass's stranger, in a process of its own: says when ``count`` are open, then
    keeps them being opened until its standard input closes, and says how many it opened."""
    slow = SlowFlood(port, count)
    slow.start()
    slow.full.wait(30)
    print(f"{slow.opened} opened", flush=True)
    sys.stdin.read()
    slow.stop = True
    slow.join(TIMEOUT)
    print(f"{slow.opened} opened in all, {slow.closed} closed by the server, {slow.failed} failed to connect", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=60)
    ap.add_argument("--viewers", type=int, default=50)
    ap.add_argument("--slow", type=int, default=300, help="slow connections in the second pass (0: no second pass)")
    ap.add_argument("--nofile", type=int, default=256, help="the server's limit of open files (ulimit -n)")
    ap.add_argument("--streams", type=int, default=2000, help="streams asked for with one view cookie (0: none)")
    ap.add_argument("--flood", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the stranger's process
    ap.add_argument("--stream-flood", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the other stranger's
    ap.add_argument("--viewers-here", action="store_true",
                    help="the viewers' streams read in this process's threads (as measured before)")
    ap.add_argument("--cookie", help=argparse.SUPPRESS)
    ap.add_argument("--watch", metavar="BASE", help=argparse.SUPPRESS)  # the viewers' process
    args = ap.parse_args()
    if args.watch:
        viewers_apart(args.watch, args.cookie, args.viewers)
        return
    if args.flood:
        flood(args.flood, args.slow)
        return
    if args.stream_flood:
        stream_flood(args.stream_flood, args.streams, args.cookie)
        return
    night = bundled_rounds()
    alone = one_pass(args, night, 0)
    flooded = one_pass(args, night, args.slow) if args.slow else {}
    targets = {"first byte p99": "≤ 50 ms", "tap p99": "≤ 30 ms", "tap p99, stream flood": "≤ 100 ms",
               "save to 6 streams": "≤ 100 ms",
               f"{args.viewers} viewers p99": "≤ 200 ms", "server log lines": ""}
    print(f"\n{'figure':<22}{'alone':>12}{f'{args.slow} slow':>14}  target")
    for name, target in targets.items():
        print(f"{name:<22}{alone.get(name, '-'):>12}{flooded.get(name, '-'):>14}  {target}")


if __name__ == "__main__":
    main()
