"""What a phone's player waits for at the table: a tap acknowledged, and a save reaching the
phones (not a timed test: figures printed, side by side at full speed and at a mid-range phone's).

A real `serve` process on 127.0.0.1 (port 0) over a 2-round night, six phones of the table link
in headless chromium (Debian's, driven by playwright; 360 px), each its own context. Two
figures, each measured in the pages themselves (``performance.now()``):

- **tap → acknowledged**: on Aki's phone, a card of Aki's pile tapped (on, then off again), from
  the tap's ``click`` to the moment the card is drawn as tapped with no unsent mark and nothing
  is left in the outbox; the five other phones are open and redrawn by every push meanwhile;
- **save → six phones updated**: a round made complete over HTTP, then "save the round" tapped
  on Aki's phone, from its ``click`` to the moment each of the six pages shows the round saved
  (``body[data-round]``); several rounds of the bundled night, every page counted.

Each pass runs on a new server, once at full speed and once with every page at Chromium's 4×
CPU throttle (CDP ``Emulation.setCPUThrottlingRate``: a mid-range phone). The goals: a tap
acknowledged within 50 ms, and 150 ms at 4×. Bounded in count and time (every wait has a timeout).
Run it from a non-editable install, as a user has it; the same script measures an older release.

    python benchmarks/tap_latency.py [--taps 48] [--saves 8] [--phones 6]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import answers_of, bundled_rounds, bench_env  # noqa: E402

PLAYERS = ["Aki", "Ben", "Chie"]
PHONE = {"width": 360, "height": 740}
TIMEOUT = 30.0
#: cards the deck holds once: a tap of one is one button, on or off
ONCE = ["1h", "1r", "2t", "2r", "3h", "3r", "4t", "4r", "5t", "5r", "6t", "6r", "7t", "7r", "8h", "8t",
        "9t", "9r", "10t", "10r", "11h", "11t", "11r", "12h"]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: in the tapping page: the time from the next click to the card drawn as tapped and sent
TAP_PROBE = """([selector, pressed]) => { window.__acked = new Promise((resolve, reject) => {
  let t0 = null;
  const done = () => {
    const b = document.querySelector(selector);
    return t0 !== null && b && b.getAttribute("aria-pressed") === pressed && !b.classList.contains("unsent")
      && document.body.dataset.unsent === "0" && document.body.dataset.pending === "0";
  };
  const watch = new MutationObserver(() => { if (done()) { watch.disconnect(); resolve(performance.now() - t0); } });
  window.addEventListener("click", () => { t0 = performance.now(); }, { capture: true, once: true });
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  setTimeout(() => { watch.disconnect(); reject(new Error("no acknowledgement in 30 s")); }, 30000);
}); }"""
#: in every page: the moment (on the machine's clock) the page shows round ``n`` saved
SAVE_PROBE = """(n) => { window.__saved = new Promise((resolve) => {
  const seen = () => document.body.dataset.round === String(n);
  const watch = new MutationObserver(() => { if (seen()) { watch.disconnect(); resolve(performance.timeOrigin + performance.now()); } });
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-round"] });
}); }"""
CLICK_PROBE = """() => { window.__clicked = new Promise((resolve) => window.addEventListener("click",
  () => resolve(performance.timeOrigin + performance.now()), { capture: true, once: true })); }"""


def chromium() -> str:
    found = os.environ.get("HACHI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).exists():
        raise SystemExit("no chromium (apt-get install chromium; or HACHI_CHROMIUM=PATH)")
    return found


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))] if values else float("nan")


def figure(values: list[float]) -> str:
    if not values:
        return "-"
    return f"median {statistics.median(values):6.1f} ms, p99 {pct(values, .99):6.1f} ms"


class Server:
    """A `serve` process over a new book holding the bundled night's first two rounds."""

    def __init__(self) -> None:
        from scorekeeper.flows import Night
        from scorekeeper.store import Book

        self.tmp = Path(tempfile.mkdtemp(prefix="hachi-tap-latency-"))
        db = self.tmp / "book.json"
        book = Book.open(db)
        sid = book.new_session(PLAYERS, name="tap night", rate=10)
        for data in bundled_rounds()[:2]:
            Night(book, sid, load=False).add_round(data)
        self.proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0",
                                      "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     env=bench_env())
        lines: list[str] = []
        deadline = time.monotonic() + TIMEOUT
        while not any(ln.startswith("Ctrl-C stops") for ln in lines):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit("the server did not start")
            lines.append(self.proc.stdout.readline())  # type: ignore[union-attr]
        self.table = next(ln.split()[-1] for ln in lines if "table (players)" in ln)
        self.base = self.table.split("/t/")[0]
        self.http = httpx.Client(base_url=self.base, timeout=TIMEOUT)
        self.http.get(self.table)
        csrf = self.http.get("/").text.split('name="hachi-csrf" content="')[1].split('"')[0]
        self.http.headers.update({"X-Hachi-CSRF": csrf, "Origin": self.base, "Content-Type": "application/json"})

    def post(self, path: str, body: dict) -> httpx.Response:
        return self.http.post(path, content=json.dumps(body))

    def state(self) -> dict:
        return self.http.get("/api/state").json()

    def close(self) -> None:
        self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)


def one_pass(browser, args: argparse.Namespace, rate: float) -> dict[str, list[float]]:
    """Both figures on a new server, every page at ``rate`` × CPU throttle (1: none)."""
    server = Server()
    contexts, pages = [], []
    try:
        for _ in range(args.phones):
            context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
            context.set_default_timeout(TIMEOUT * 1000)
            page = context.new_page()
            page.goto(server.table)
            page.wait_for_selector("body[data-ready='1']")
            if rate != 1:
                context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
            contexts.append(context)
            pages.append(page)
        aki = pages[0]
        a = answers_of(bundled_rounds()[2], server.state()["session"]["dealer"])
        for key in ["field", *[f"hand:{p}" for p in PLAYERS]]:
            server.post("/api/answer", {"key": key, "text": a[key]})
        aki.click("#who button[data-player='Aki']")
        aki.wait_for_selector("#pile-grid")

        taps: list[float] = []
        cards = (ONCE * 2)[: args.taps]
        for i, code in enumerate(cards):
            selector = f"#pile-grid button[data-code='{code}']"
            pressed = "true" if i < len(ONCE) else "false"
            aki.evaluate(TAP_PROBE, [selector, pressed])
            aki.locator(selector).click()
            taps.append(aki.evaluate("window.__acked"))

        saves: list[float] = []
        for data in bundled_rounds()[2: 2 + args.saves]:
            state = server.state()
            a = answers_of(data, state["session"]["dealer"])
            for key, text in a.items():
                r = server.post("/api/answer", {"key": key, "text": text})
                if r.status_code != 200:
                    raise SystemExit(f"{key}: {r.status_code} {r.text[:200]}")
            for p in PLAYERS:
                server.post("/api/done", {"player": p, "done": True, "empty": True})
            n = state["session"]["rounds"] + 1
            aki.wait_for_selector("#bar #save")
            for page in pages:
                page.evaluate(SAVE_PROBE, n)
            aki.evaluate(CLICK_PROBE)
            aki.click("#bar #save")
            clicked = aki.evaluate("window.__clicked")
            saves.extend(page.evaluate("window.__saved") - clicked for page in pages)
        return {"tap": taps, "save": saves}
    finally:
        for context in contexts:
            context.close()
        server.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--taps", type=int, default=48, help="taps of Aki's pile in each pass (at most 48)")
    ap.add_argument("--saves", type=int, default=8, help="rounds saved in each pass (at most 10)")
    ap.add_argument("--phones", type=int, default=6)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    import scorekeeper

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"-- hachi-score {getattr(scorekeeper, '__version__', '?')} from {Path(scorekeeper.__file__).parent}; "
          f"{args.phones} phones in headless chromium, {args.taps} taps and {args.saves} saves a pass "
          f"(load average {load} on {os.cpu_count()} cores)")
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=ARGS, headless=True)
        try:
            for rate in (1, 4):
                out[rate] = one_pass(browser, args, rate)
        finally:
            browser.close()
    print(f"{'':28}{'full speed':38}4× CPU throttle")
    print(f"{'tap → acknowledged':28}{figure(out[1]['tap']):38}{figure(out[4]['tap'])}")
    print(f"{f'save → {args.phones} phones updated':28}{figure(out[1]['save']):38}{figure(out[4]['save'])}")
    worst = (pct(out[1]["tap"], .99), pct(out[4]["tap"], .99))
    print(f"goal: a tap within 50 ms (p99 {worst[0]:.1f} ms: {'met' if worst[0] <= 50 else 'NOT met'}), "
          f"150 ms at 4× (p99 {worst[1]:.1f} ms: {'met' if worst[1] <= 150 else 'NOT met'})")


if __name__ == "__main__":
    main()
