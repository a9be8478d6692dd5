"""The night's end on the phones, in a real browser: a short night (6 planned) played to its end on
three phones, one in Japanese, with the view link as a board on a TV (1920×1080), a tablet
(1024×768) and a phone turned sideways (844×390). Every page shows the final standings in 文, 貫 and
money, the settlement, the best rounds; one more round and end the night are real and undone;
the end is shared as a PNG drawn on the page and as text, over APIs that plain HTTP has (the ones
it lacks throw here, as an insecure origin would not have them). Screenshots: under the test's
temp folder, or $HACHI_SHOTS.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from test_serve_browser import PAGE_ERRORS, browser, drawn, no_hands_played_out, settle, shot, tap  # noqa: F401 (fixtures)
from serve_helpers import PLAYERS, answers_of, bundled_night, live_server
from helpers import HANG, add_round

BOARDS = {"tv": {"width": 1920, "height": 1080}, "tablet": {"width": 1024, "height": 768},
          "sideways": {"width": 844, "height": 390}}
#: what an insecure origin (a LAN address over plain HTTP) lacks: touched, it throws here
NO_PLAIN_HTTP = """
for (const [owner, names] of [[Navigator.prototype, ["share", "canShare", "clipboard"]], [window, ["showSaveFilePicker", "ClipboardItem"]]])
  for (const n of names) Object.defineProperty(owner, n, { configurable: true, get() { throw new Error(`${n}: not on plain HTTP`); } });
"""


@pytest.fixture
def short_night(book_file):
    """A night planned for 6 at 10 a 文, its first 5 rounds played: the phones play the last."""
    from scorekeeper.store import Book

    book = Book.open(book_file)
    sid = book.new_session(PLAYERS, name="金曜", rate=10, rounds=6)
    for data in bundled_night()[:5]:
        add_round(book, sid, data)
    with live_server() as (base, app, _):
        yield base, app


def device(browser, url, viewport, locale="en-US", scheme="light"):
    context = browser.new_context(viewport=viewport, device_scale_factor=1, color_scheme=scheme, locale=locale,
                                  is_mobile=viewport["width"] < 900, has_touch=True, accept_downloads=True)
    context.set_default_timeout(HANG * 1000)
    context.add_init_script(NO_PLAIN_HTTP)
    page = context.new_page()
    page.on("pageerror", lambda error: PAGE_ERRORS.setdefault(page, []).append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def summary_json():
    from typer.testing import CliRunner
    from scorekeeper.cli import app

    r = CliRunner().invoke(app, ["summary", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def shots_folder(tmp_path) -> Path:
    folder = Path(os.environ.get("HACHI_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def play_the_last_round(pages, a):
    """The three phones play the bundled night's third round (no 手役, played out, no 下げ)."""
    for code in a["field"].split():
        tap(pages[0], "field-grid", code)
    no_hands_played_out(pages)
    for page, player in zip(pages, PLAYERS):
        for code in a[f"pile:{player}"].split():
            tap(page, "pile-grid", code)
        settle(page)
        page.click("#pile-done")
        settle(page)
    pages[0].wait_for_selector("#result")
    pages[0].click("#save")


def click(page, selector):
    """A tap on ``selector``, brought clear of the bar at the bottom first (as a thumb scrolls)."""
    page.locator(selector).first.evaluate("b => b.scrollIntoView({block: 'center'})")
    page.click(selector)


def touch_targets(page, selector):
    """Every button and link in ``selector`` at least 44 px tall."""
    sizes = page.locator(f"{selector} button, {selector} a").evaluate_all(
        "els => els.map(e => [e.id || e.textContent, e.getBoundingClientRect().height])")
    small = [s for s in sizes if s[1] < 44]
    assert sizes and not small, small


def test_a_short_night_played_to_its_end_on_three_phones_and_a_board(browser, short_night, tmp_path):
    base, app = short_night
    folder = shots_folder(tmp_path)
    table, view = f"{base}/t/{app.state.tokens.table}", f"{base}/v/{app.state.tokens.view}"
    phones = [device(browser, table, {"width": 360, "height": 740}, "ja-JP" if i == 1 else "en-US") for i in range(3)]
    boards = {k: device(browser, f"{view}?board", v, "ja-JP" if k == "tablet" else "en-US") for k, v in BOARDS.items()}
    for k, b in boards.items():
        assert b.locator("body.board").count() == 1
        b.wait_for_selector("#round h2")
        assert b.locator("#round button, #bar button").count() == 0  # nothing that changes the round
        shot(b, folder, f"board-{k}-1-playing", whole=False)
    assert all(p.locator("#end").is_hidden() for p in phones)
    play_the_last_round(phones, answers_of(bundled_night()[2]))

    # the planned rounds played: the end, on every page, from the figures summary --json says
    for page in (*phones, *boards.values()):
        page.wait_for_selector("body[data-round='6'] #end #final")
        settle(page)
    data = summary_json()
    assert data["rounds"] == 6 and data["months"] == 6
    for page in (*phones, *boards.values()):
        rows = page.locator("#final tbody tr").evaluate_all("rs => rs.map(r => Array.from(r.cells, c => c.textContent))")
        by_player = {r[1]: r for r in rows}
        assert set(by_player) == set(PLAYERS)
        for p in PLAYERS:
            mon = data["totals"][p]
            assert by_player[p][2] == f"{mon:+d}文".replace("+0", "0")
            assert by_player[p][3] == data["kan"][p]
            assert by_player[p][4].replace(",", "") == f"{mon * data['rate']:+d}".replace("+0", "0")
        pays = page.locator("#final-settle li").all_text_contents()
        assert len(pays) == len(data["settlement"]) <= len(PLAYERS) - 1
        for line, pay in zip(pays, data["settlement"]):
            assert pay["from"] in line and pay["to"] in line and f"{pay['mon']}文" in line and f"{pay['money']:,}" in line
        assert page.locator("#best li").count() == len(PLAYERS)
        assert page.locator("#round #result, #round #field-grid").count() == 0  # no round offered at the end
    for page in boards.values():  # the board never offers a tap that changes the round
        assert page.locator("#end-choices, #save, #share, #round button").count() == 0
    for i, page in enumerate(phones):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing wider than the phone
        touch_targets(page, "#end")
        shot(page, folder, f"phone-{i}-{'ja' if i == 1 else 'en'}-end")
    assert phones[1].locator("#end h2").text_content().startswith("夜の")  # worded in Japanese
    for k, b in boards.items():
        shot(b, folder, f"board-{k}-2-end", whole=False)
    for k in ("tv", "tablet"):  # a board nobody scrolls shows the whole end, the chart's key of names included
        bottom = boards[k].locator("#chart svg").evaluate("s => s.getBoundingClientRect().bottom")
        assert bottom <= BOARDS[k]["height"], (k, bottom)
    # the rounds table names each round's 役 as the terminal's does
    yaku = phones[0].locator("#history-table tbody tr td.yaku").all_text_contents()
    assert "役Aki 青短, (下げ Aki)" in yaku, yaku

    # shared as text: standings and settlement in a few lines, selected for copying by hand
    for page, words in ((phones[0], "settle:"), (phones[1], "精算")):
        click(page, "#share-text")
        click(page, "#select-text")
        text = page.locator("#share-words").input_value()
        assert words in text and len(text.splitlines()) <= 2 + len(PLAYERS)
        for s in data["settlement"]:
            assert f"{s['from']} → {s['to']} {s['mon']}文 = {s['money']:,}" in text
        selected = page.locator("#share-words").evaluate("a => a.value.slice(a.selectionStart, a.selectionEnd)")
        assert selected == text
        touch_targets(page, "#share-text-box")

    # shared as a picture: drawn from exactly the figures summary --json gives, downloaded as a PNG
    click(phones[1], "#share-image")
    phones[1].wait_for_selector("#share-canvas")
    figures = json.loads(phones[1].locator("#share-canvas").get_attribute("data-figures"))
    from scorekeeper.night_end import end_figures

    assert figures == end_figures(data)
    assert {s["player"]: s["mon"] for s in figures["standings"]} == data["totals"]
    assert [(s["from"], s["to"], s["mon"], s["money"]) for s in figures["settlement"]] == \
           [(s["from"], s["to"], s["mon"], s["money"]) for s in data["settlement"]]
    with phones[1].expect_download() as got:
        click(phones[1], "#save-image")
    png = folder / "shared-ja.png"
    got.value.save_as(png)
    raw = png.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(raw[16:20], "big") == 1080
    touch_targets(phones[1], "#share-image-box")
    shot(phones[1], folder, "phone-1-ja-shared-image")
    for page in phones:
        settle(page)

    # end the night: asked first (no: nothing changes); kept, on every page; then reopened
    from scorekeeper.flows import Night
    from scorekeeper.night_end import read_mark

    book = Night.open().book.path
    asked = end_the_night(phones[0], accept=False)
    assert asked and "reopen" in asked[0]
    assert phones[0].locator("#end-night").count() == 1 and read_mark(book, data["session"])["ended"] is False
    end_the_night(phones[0], accept=True)
    for page in (*phones, *boards.values()):
        page.wait_for_selector("#end h2.over")
    assert all(b.locator("#reopen").count() == 0 for b in boards.values())
    assert phones[2].locator("#end-night, #one-more").count() == 0 and phones[2].locator("#reopen").count() == 1
    shot(phones[0], folder, "phone-0-en-ended")
    shot(boards["tv"], folder, "board-tv-3-ended", whole=False)
    assert read_mark(book, data["session"])["ended"] is True
    assert summary_json() == {**data, "ended": True}  # ending changed no figure of the terminal's; it says it ended
    click(phones[1], "#reopen")
    for page in phones:
        page.wait_for_selector("#end h2:not(.over)")
        settle(page)
    # one more round: the round is offered again on every phone, the board follows
    click(phones[0], "#one-more")
    for page in (*phones, *boards.values()):
        page.wait_for_selector("#end", state="hidden")
    phones[2].wait_for_selector("#field-grid")
    boards["tv"].wait_for_selector("#round h2")
    assert read_mark(book, data["session"]) == {"ended": False, "more": 1}
    shot(boards["tv"], folder, "board-tv-4-one-more", whole=False)
    for page in (*phones, *boards.values()):
        settle(page)
        page.context.close()


def end_the_night(page, accept):
    """"end the night" tapped, its question answered: the question's words."""
    asked: list[str] = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()
    page.once("dialog", answer)
    click(page, "#end-night")
    settle(page)
    return asked


@pytest.fixture
def six_ended(book_file):
    """A night of six long names (fudawiki, a rate of 2.5), ended on a phone before its first round."""
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from scorekeeper.flows import Night
    from scorekeeper.night_end import write_mark
    from test_phones_browser import LONG

    r = CliRunner().invoke(cli_app, ["new-session", *LONG, "--rules", "fudawiki", "--rate", "2.5"])
    assert r.exit_code == 0, r.output
    night = Night.open()
    write_mark(night.book.path, night.sid, ended=True, more=0)
    with live_server() as (base, app, _):
        yield base, app


def test_the_end_of_a_night_of_six_long_names_fits_a_phone_light_and_dark_and_its_picture_draws(browser, six_ended, tmp_path):
    base, app = six_ended
    folder = shots_folder(tmp_path)
    for scheme in ("light", "dark"):
        page = device(browser, f"{base}/t/{app.state.tokens.table}", {"width": 360, "height": 740}, scheme=scheme)
        page.wait_for_selector("#end h2.over")
        assert page.locator("#final tbody tr").count() == 6
        assert page.locator("#final tbody td:nth-child(5)").first.text_content() == "0.00"  # money at a rate of 2.5
        click(page, "#share-image")
        page.wait_for_selector("#share-canvas")
        settle(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        touch_targets(page, "#end")
        shot(page, folder, f"six-names-ended-{scheme}")
        page.context.close()
