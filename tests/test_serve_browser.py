"""`hachi-score serve` in a real browser: Debian's chromium driven by Playwright, phone-sized.

Three pages enter one round at once and all see the result; a card tapped into a second pile is
marked with the terminal's line; a screenshot of each screen is written under the test's temp
folder (light and dark). Never `playwright install`: the system's chromium, found on PATH or at
/usr/bin/chromium. Without it the tests skip with one line, but under CI=true they fail.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from helpers import HANG
from serve_helpers import PLAYERS, answers_of, bundled_night, live_server, new_night

PHONE = {"width": 360, "height": 740}
FOUR = ["A", "B", "C", "D"]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    found = os.environ.get("HACHI_CHROMIUM") or shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def need_browser() -> str:
    path = chromium_path()
    why = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        why = "the playwright package is not installed"
    if why is None and path is None:
        why = "no chromium on PATH or at /usr/bin/chromium (apt-get install chromium)"
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests under CI=true: {why}")
        pytest.skip(why)
    return path


@pytest.fixture
def live(book_file):
    """A live server on 127.0.0.1 (port 0) over a 2-round night; stopped after the test."""
    new_night(book_file, rounds=2)
    yield from serving()


@pytest.fixture
def live_four(book_file):
    """A live server over a new night of four under fudawiki (TRADITIONAL §7)."""
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app

    result = CliRunner().invoke(cli_app, ["new-session", *FOUR, "--rules", "fudawiki"])
    assert result.exit_code == 0, result.output
    yield from serving()


def serving():
    with live_server() as (base, app, _):
        yield base, app


@pytest.fixture
def browser():
    path = need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=ARGS, headless=True, timeout=HANG * 1000)
        yield b
        b.close()


def phone(browser, url, scheme="light"):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, color_scheme=scheme, is_mobile=True, has_touch=True)
    context.set_default_timeout(HANG * 1000)  # a wait fails only a hung page, however busy the machine
    page = context.new_page()
    page.on("pageerror", lambda error: PAGE_ERRORS.setdefault(page, []).append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


#: the script errors each page threw: a page drawn half, a tap left in its outbox and sent again
PAGE_ERRORS: dict = {}


def settle(page):
    page.wait_for_selector("body[data-pending='0']")  # (no wait_for_function: the CSP forbids eval)
    assert PAGE_ERRORS.get(page, []) == []


def drawn(page):
    """Until the page has drawn what it holds (it draws once a frame: a button found before its
    frame is the same button after it, drawn anew)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def tap(page, grid, code):
    drawn(page)
    page.locator(f"#{grid} button[data-code='{code}']:not(.on)").first.click()


def set_field(page, codes) -> None:
    """The six field cards tapped (``codes``: a list, or one string of them) and the field set;
    ``=`` and the field's 光 (``=3h``; ``=``: none): those tapped and set as the field's 光 alone."""
    lights = isinstance(codes, str) and codes.startswith("=")
    for code in (codes.lstrip("=").split() if isinstance(codes, str) else codes):
        tap(page, "field-grid", code)
    page.click("#set-field-lights" if lights else "#set-field")


def shot(page, folder: Path, name: str, whole: bool = True) -> Path:
    """A screenshot of the whole page, or (``whole=False``) of the screen as the phone shows it."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=whole)
    return path


def no_hands_played_out(pages):
    """With the field tapped, the three phones set it and say the round: each its own player with
    no 手役, played out (the second phone), no 下げ (the third)."""
    pages[0].click("#set-field")
    for page, player in zip(pages, PLAYERS):
        page.wait_for_selector("#who")
        page.click(f"#who button[data-player='{player}']")
        page.click("#hand-none")
        settle(page)
    played_out_no_sage(pages)


def played_out_no_sage(pages):
    """The round said played out (on the second phone) with no 下げ (on the third, once it sees it)."""
    pages[1].click("#ended-out")
    settle(pages[1])
    pages[2].wait_for_selector("#ended-out.on")
    pages[2].click("#sage-none")
    settle(pages[2])


def test_three_phones_enter_a_round_at_once_and_all_see_the_result(browser, live, tmp_path):
    base, app = live
    rnd = bundled_night()[2]
    a = answers_of(rnd)
    pages = [phone(browser, f"{base}/t/{app.state.tokens.table}", "dark" if i == 2 else "light") for i in range(3)]
    viewer = phone(browser, f"{base}/v/{app.state.tokens.view}")
    shot(pages[0], tmp_path, "1-standings-light")
    for code in a["field"].split():
        tap(pages[0], "field-grid", code)
    shot(pages[0], tmp_path, "2-field-light")
    no_hands_played_out(pages)
    for page in pages:
        page.wait_for_selector("#ending p.chosen")
    piles = [a[f"pile:{p}"].split() for p in PLAYERS]
    for i in range(max(map(len, piles))):  # round-robin: the three phones tap at once
        for page, pile in zip(pages, piles):
            if i < len(pile):
                tap(page, "pile-grid", pile[i])
        if i == 7:  # halfway: what a phone shows while its player taps (docs/serve-phone.png)
            settle(pages[1])
            pages[1].evaluate("document.getElementById('pile-box').scrollIntoView()")
            pages[1].screenshot(path=str(tmp_path / "3-pile-phone-light.png"))
    for page in pages:
        settle(page)
    shot(pages[1], tmp_path, "3-pile-light")
    shot(pages[2], tmp_path, "3-pile-dark")
    viewer.wait_for_selector("#status li.typing, #status li.done")
    shot(viewer, tmp_path, "4-viewer-light")
    assert viewer.locator("#result").count() == 0  # every pile typed, none said complete: no result yet
    for page in pages:  # each player says the pile is complete
        page.click("#pile-done")
        settle(page)
    for page in (*pages, viewer):  # the 48 cards check out: the result, on every page
        page.wait_for_selector("#result")
    shot(pages[0], tmp_path, "5-result-light")
    shot(pages[2], tmp_path, "5-result-dark")
    assert viewer.locator("#save").count() == 0
    pages[0].click("#save")
    for page in (*pages, viewer):
        page.wait_for_selector("body[data-round='3']")
    shot(pages[1], tmp_path, "6-saved-light")
    shot(pages[2], tmp_path, "6-saved-dark")
    from scorekeeper.flows import Night

    night = Night.open()
    assert night.rounds == 3
    assert {p: sorted(v) for p, v in night.session["rounds"][2]["round"]["captured"].items()} == \
           {p: sorted(v) for p, v in rnd["captured"].items()}
    for page in (*pages, viewer):
        page.context.close()


def test_a_phone_follows_a_new_session_made_at_the_terminal(browser, live, book_file, tmp_path):
    base, app = live
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    page.wait_for_selector("body[data-round='2']")
    from scorekeeper.store import Book

    Book.open(book_file).new_session(["Dai", "Emi", "Fumi"], name="Saturday")
    page.wait_for_selector("body[data-round='0']")
    page.wait_for_selector("text=Fumi")
    assert page.locator("text=Chie").count() == 0  # nothing of the first night is left on the screen
    shot(page, tmp_path, "7-followed-light")
    page.context.close()


def test_a_typo_is_marked_the_moment_it_is_tapped(browser, live, tmp_path):
    base, app = live
    a = answers_of(bundled_night()[2])
    aki = phone(browser, f"{base}/t/{app.state.tokens.table}")
    ben = phone(browser, f"{base}/t/{app.state.tokens.table}", "dark")
    set_field(aki, a["field"])
    for page, player in ((aki, "Aki"), (ben, "Ben")):
        page.wait_for_selector("#who")
        page.click(f"#who button[data-player='{player}']")
    tap(aki, "pile-grid", "1h")
    settle(aki)
    ben.wait_for_selector("#pile-grid button.taken[data-code='1h']")
    ben.locator("#pile-grid button[data-code='1h']").first.click()
    ben.wait_for_selector("#pile-grid button.bad[data-code='1h']")
    message = ben.locator("#pile-problem").inner_text()
    assert "1h 松に鶴" in message and "deck has 1" in message
    shot(ben, tmp_path, "7-typo-dark")
    ben.locator("#pile-box").screenshot(path=str(tmp_path / "7-typo-pile-dark.png"))
    aki.locator("#round").screenshot(path=str(tmp_path / "7-round-light.png"))
    ben.locator("#pile-grid button.bad[data-code='1h']").click()  # untapped: the mark goes
    settle(ben)
    ben.wait_for_selector("#pile-grid button.bad", state="detached")
    from scorekeeper.drafts import Drafts
    from scorekeeper.flows import Night

    night = Night.open()
    draft, _ = Drafts(night.book.path).load(night.sid)
    assert draft.answers.get("pile:Ben", "") == "" and draft.answers["pile:Aki"] == "1h"
    aki.context.close()
    ben.context.close()


def test_a_four_player_round_on_a_phone(browser, live_four, tmp_path):
    """Play or drop per seat, the forced-out hand, then the piles and ending of who plays only."""
    from test_entry_seats import FIELD, HAND, P1, P2

    base, app = live_four
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    dark = phone(browser, f"{base}/t/{app.state.tokens.table}", "dark")
    set_field(page, FIELD)
    page.wait_for_selector("#seats")
    assert page.locator("#who").count() == 0  # nothing but the seats until they are settled
    assert page.locator("#seats [data-seat='A'] button.primary[data-choice='play']").count() == 1  # the default
    page.click("#seats [data-seat='A'] button[data-choice='play']")
    settle(page)
    page.click("#seats [data-seat='B'] button[data-choice='drop']")
    settle(page)
    shot(page, tmp_path, "8-seats-light")
    page.click("#seats [data-seat='C'] button[data-choice='play']")
    settle(page)
    page.click("#seats [data-seat='D'] button[data-choice='play']")
    settle(page)
    page.wait_for_selector("#seating")
    assert page.locator("#seating").inner_text() == "A, C, D play; A is the round's 親"
    page.click("#seats [data-seat='B'] button[data-choice='play']")  # B plays after all: D is forced out
    settle(page)
    page.wait_for_selector("#seats [data-seat='D'] .tag.forced")
    assert page.locator("#seating").inner_text() == "A, B, C play; A is the round's 親"
    dark.wait_for_selector("#seats [data-seat='D'] .tag.forced")
    dark.wait_for_selector("[data-hand='D']")
    shot(dark, tmp_path, "8-seats-dark")
    page.click("[data-hand='D'] button[data-cards='D']")
    for code in HAND:
        tap(page, "hand-grid-3", code)
    page.click("button[data-set-hand='D']")
    settle(page)
    page.wait_for_selector("[data-hand='D'] p.chosen")
    page.click("#who button[data-player='D']")  # D does not play: no pile, no ending
    page.wait_for_selector("#not-playing")
    assert page.locator("#pile-box").count() == 0
    for who, pile in (("A", P1), ("B", P2), ("C", None)):
        page.click(f"#who button[data-player='{who}']") if page.locator("#who button[data-player]").count() \
            else (page.click("#who button"), page.click(f"#who button[data-player='{who}']"))
        page.click("#hand-none")
        settle(page)
        if who == "A":
            assert [b.inner_text() for b in page.locator("#ending button[data-ended]").all()] == \
                   ["A stopped", "B stopped", "C stopped"]
            page.click("#ended-out")
            settle(page)
            page.click("#sage-none")
            settle(page)
        if pile is not None:
            for code in pile:
                tap(page, "pile-grid", code)
            settle(page)
            page.click("#pile-done")
            settle(page)
        else:
            shot(page, tmp_path, "9-last-pile-light")
            page.click("#rest")
            settle(page)
    page.wait_for_selector("#result")
    dark.wait_for_selector("#result")
    forced = page.locator("#result tbody tr").nth(3).locator("td")  # D sat the round out: no points
    assert forced.nth(0).inner_text() == "D" and forced.nth(2).inner_text() == ""
    shot(page, tmp_path, "10-result-light")
    shot(dark, tmp_path, "10-result-dark")
    page.click("#save")
    page.wait_for_selector("body[data-round='1']")
    from scorekeeper.flows import Night

    stored = Night.open().session["rounds"][0]["round"]
    assert stored.get("dropped", []) == []  # B dropped, then played after all
    assert stored["hands"] == {"D": HAND} and stored["captured"]["D"] == []
    assert sorted(stored["captured"]["A"]) == sorted(P1) and sorted(stored["captured"]["B"]) == sorted(P2)

    # round 2, 親 C: a single volunteer: the result at once, the seats still there to change
    from test_entry_seats import CALM

    page.wait_for_selector("#field-grid")
    set_field(page, CALM)
    for who, choice in (("C", "drop"), ("D", "play"), ("A", "drop"), ("B", "drop")):
        page.click(f"#seats [data-seat='{who}'] button[data-choice='{choice}']")
        settle(page)
    page.wait_for_selector("#result")
    assert page.locator("#seating").inner_text() == "D alone plays: D takes the pot and wins; nothing is played"
    assert page.locator("#who").count() == 0 and page.locator("#pile-box").count() == 0
    shot(page, tmp_path, "11-one-volunteer-light")
    for p in (page, dark):  # nothing wider than the phone (the rounds table scrolls in its own box)
        assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("#save")
    page.wait_for_selector("body[data-round='2']")
    assert Night.open().session["rounds"][1]["round"]["dropped"] == ["C", "A", "B"]
    page.context.close()
    dark.context.close()
