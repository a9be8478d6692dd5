"""A night of five played from phones alone, in a real browser: three rounds typed on the phones of
the players who play, the network cut twice while piles are tapped, and the server restarted once
in the middle of a round (the phones come back by themselves: no code scanned, no reload). Nothing
typed is lost: every round stored is the round the phones tapped.
"""

from __future__ import annotations

import threading
import time

import pytest

from helpers import HANG
from test_entry_seats import FIELD, P1, P2
from test_serve_browser import ARGS, need_browser, phone, set_field, settle, shot, tap  # noqa: F401

PLAYERS = ["A", "B", "C", "D", "E"]
API = "**/api/**"


class Server:
    """A live server on 127.0.0.1 that can be stopped and started again on the same port (the
    phones' storage belongs to the address and the port)."""

    def __init__(self) -> None:
        self.port = 0
        self.start()

    def start(self) -> None:
        from scorekeeper.web.serve import bind, make_server

        sock = bind("127.0.0.1", self.port)
        self.port = sock.getsockname()[1]
        self.server, self.app = make_server(None, "127.0.0.1", sock)
        self.server.config.install_signal_handlers = False
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + HANG  # fails a hung start only
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(HANG)
        assert not self.thread.is_alive()

    @property
    def link(self) -> str:
        return f"http://127.0.0.1:{self.port}/t/{self.app.state.tokens.table}"

    def round(self) -> dict:
        return self.app.state.table.state["round"]


@pytest.fixture
def night(book_file):
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app

    result = CliRunner().invoke(cli_app, ["new-session", *PLAYERS, "--rules", "fudawiki"])
    assert result.exit_code == 0, result.output
    server = Server()
    yield server
    server.stop()


@pytest.fixture
def chromium():
    path = need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS, headless=True)
        yield b
        b.close()


def seats(page, plan: dict[str, str]) -> None:
    """Each seat from the 親 in turn says what ``plan`` says (play when it says nothing)."""
    for who in page.locator("#seats .seat").evaluate_all("rows => rows.map(r => r.dataset.seat)"):
        button = page.locator(f"#seats [data-seat='{who}'] button[data-choice='{plan.get(who, 'play')}']")
        if button.count():
            button.click()
            settle(page)


def as_player(page, who: str) -> None:
    page.wait_for_selector("#who")
    if page.locator(f"#who button[data-player='{who}']").count() == 0:
        page.click("#who button")  # "not me"
    page.click(f"#who button[data-player='{who}']")


def play_round(pages, server, tmp_path, name, *, cut=None, restart=False):
    """The round after the seats: each who plays says 手役 none on their phone, the first says how
    it ended, the first two tap P1 and P2 (``cut``: that one's network is down for half its taps;
    ``restart``: the server restarts after the first pile) and the third says rest."""
    order = server.round()["order"]
    assert len(order) == 3, order
    for who in order:
        as_player(pages[who], who)
        pages[who].click("#hand-none")
        settle(pages[who])
    first = pages[order[0]]
    first.click("#ended-out")
    settle(first)
    first.click("#sage-none")
    settle(first)
    for n, (who, pile) in enumerate(zip(order[:2], (P1, P2))):
        page = pages[who]
        start = 0
        if restart and n == 1:  # the server restarts as the second pile begins: its first tap waits
            restarted(pages, server, who, pile[0], tmp_path, name)
            start = 1
        for i, code in enumerate(pile[start:], start):
            if cut == who and i == 3:
                page.route(API, lambda route: route.abort())
            if cut == who and i == 8:
                page.wait_for_function("() => Number(document.body.dataset.taps) >= 5")  # each tap made offline waits
                shot(page, tmp_path, f"{name}-offline")
                page.unroute(API)
            tap(page, "pile-grid", code)
        settle(page)
        page.click("#pile-done")
        settle(page)
    last = pages[order[2]]
    last.click("#rest")
    settle(last)
    first.wait_for_selector("#bar #save", timeout=HANG * 1000)
    shot(first, tmp_path, f"{name}-result")
    first.click("#save")


def restarted(pages, server, typing, code, tmp_path, name):
    """The server restarts while ``typing``'s phone taps ``code``: that tap waits on the phone, and
    is sent once the server is back; every phone is back by itself, live again."""
    server.stop()
    page = pages[typing]
    tap(page, "pile-grid", code)  # made while the server is down
    page.wait_for_selector("body[data-unsent='1']")
    shot(page, tmp_path, f"{name}-restarting")
    server.start()
    page.wait_for_selector("body[data-unsent='0']", timeout=HANG * 1000)
    assert server.round()["answers"].get(f"pile:{typing}") == code
    for p in pages.values():  # no code scanned, no reload
        p.wait_for_selector("#live.on")
        assert p.locator("#gone").count() == 0


def test_a_night_of_five_from_phones_alone_with_the_network_cut_and_the_server_restarted(chromium, night, tmp_path):
    from scorekeeper.flows import Night

    server = night
    pages = {p: phone(chromium, server.link, "dark" if p in "BD" else "light") for p in PLAYERS}
    first = pages["A"]

    # round 1, 親 A: A plays, B drops, C and D play; E is forced out (no compensation claimed)
    set_field(first, FIELD)
    first.wait_for_selector("#seats")
    seats(first, {"A": "play", "B": "drop", "C": "play", "D": "play"})
    first.wait_for_selector("[data-hand='E']")
    first.click("[data-hand='E'] button[data-none='E']")
    settle(first)
    play_round(pages, server, tmp_path, "r1", cut=server.round()["order"][1])
    first.wait_for_selector("body[data-round='1']", timeout=HANG * 1000)

    # round 2: only one plays: the pot, nothing played
    set_field(first, "2t 3k 4t 5k 6k 7k")
    first.wait_for_selector("#seats")
    dealer = server.round()["seats"][0]["player"]
    seats(first, {p: "play" if p == dealer else "drop" for p in PLAYERS})
    first.wait_for_selector("#bar #save", timeout=HANG * 1000)
    first.click("#save")
    first.wait_for_selector("body[data-round='2']", timeout=HANG * 1000)

    # round 3: three play; a network cut, then the server restarts in the middle of the piles
    set_field(first, FIELD)
    first.wait_for_selector("#seats")
    seats(first, {})
    forced = [s["key"] for s in server.round()["steps"] if s["role"] == "forced_out" and s["kind"] == "hand"]
    for key in forced:
        first.click(f"[data-hand='{key[5:]}'] button[data-none='{key[5:]}']")
        settle(first)
    play_round(pages, server, tmp_path, "r3", cut=server.round()["order"][0], restart=True)
    first.wait_for_selector("body[data-round='3']", timeout=HANG * 1000)

    stored = Night.open().session["rounds"]
    assert len(stored) == 3
    for n in (0, 2):
        rnd = stored[n]["round"]
        order = [p for p in rnd["captured"] if rnd["captured"][p]]
        piles = sorted(sorted(rnd["captured"][p]) for p in order)
        assert sorted(P1) in piles and sorted(P2) in piles  # every tap, through the cuts and the restart
        assert sum(len(v) for v in rnd["captured"].values()) == 48
    assert stored[1]["round"]["dropped"] and len(stored[1]["round"]["dropped"]) == 4
    for p in pages.values():
        assert p.locator("body[data-unsent='0']").count() == 1
        p.context.close()
