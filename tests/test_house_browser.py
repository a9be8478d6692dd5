"""TRADITIONAL §11 on the phones, in real headless Chromium: a night of seven long names under a
house file with every switch on. The 白札's question and FudaWiki's みずてん are drawn with the
generic choice box and answered by a tap; the seats skip the 白札's holder (shown as sitting out)
and the declaring 親 (shown as playing, never offered drop); no page is wider than the phone. And
the terminal's whole night with every switch on (tests/test_house_terminal.py), played from phones."""

from __future__ import annotations

import pytest
from test_serve_browser import PHONE, browser, phone, set_field, settle  # noqa: F401 (fixtures)

SEVEN = ["Aiko Watanabe-Smithe", "Benjamin Oyelaran-Ko", "Chieko Yamamoto-Lee", "Daisuke Fernandez-Ho",
         "Emiko Kowalczyk-Ross", "Fumiko Abernathy-Lim", "Gen"]


def serving_all_on(tmp_path, players):
    """A night of ``players`` under the terminal night's house file with every switch on, served."""
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_house_terminal import ALL_ON
    from test_serve_browser import serving

    rules = tmp_path / "all-on.toml"
    rules.write_text(ALL_ON, encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["new-session", *players, "--rules", str(rules), "--dealer", players[0]])
    assert result.exit_code == 0, result.output
    yield from serving()


@pytest.fixture
def live_seven(book_file, tmp_path):
    yield from serving_all_on(tmp_path, SEVEN)


def test_the_blank_and_mizuten_are_tapped_and_the_seats_skip_the_holder_on_a_phone(browser, live_seven):
    base, app = live_seven
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    blank = page.locator("#choice-blank")
    blank.wait_for()  # asked first, as at the terminal: above the field, before it is set
    assert blank.bounding_box()["y"] < page.locator("#field-box").bounding_box()["y"]
    assert [b.get_attribute("data-choice") for b in blank.locator("button").all()] == SEVEN  # no default
    blank.locator("button[data-choice='Gen']").click()
    settle(page)
    assert app.state.table.state["round"]["answers"].get("blank") == "Gen"
    set_field(page, "2t 3k 4t 5k 6k 7k")
    settle(page)
    mizuten = page.locator("#choice-mizuten")
    mizuten.wait_for()
    mizuten.locator("button[data-choice='y']").click()
    settle(page)
    assert app.state.table.state["round"]["answers"].get("mizuten") == "y"
    page.wait_for_selector("#seats")
    assert "白札" in page.locator("[data-seat='Gen'] .tag").inner_text()  # the 白札's holder: sits out
    assert page.locator("[data-seat='Gen'] button").count() == 0
    oya = page.locator(f"[data-seat='{SEVEN[0]}']")
    assert oya.locator("button").count() == 0 and "may not drop" in oya.locator(".tag").inner_text()  # never offered drop
    assert page.locator(f"[data-seat='{SEVEN[1]}'] button").count() == 2  # the next seat: play or drop
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


@pytest.fixture
def live_three(book_file):
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_serve_browser import serving

    samples = __import__("pathlib").Path(__file__).parent.parent / "samples"
    result = CliRunner().invoke(cli_app, ["new-session", "Aki", "Ben", "Chie", "--rules",
                                          str(samples / "house-fudawiki-mizuten.toml"), "--dealer", "Aki"])
    assert result.exit_code == 0, result.output
    yield from serving()


def test_three_phones_declare_mizuten_and_name_who_fed_a_stop_and_agree_with_summary(browser, live_three):
    """FudaWiki's みずてん and 責任 on three phones: Aki (the 親) declares; Chie stops with 赤短 that
    Ben fed; Aki's pile is asked (his count is enough) though the stop needs only Chie's. Chie's
    phone alone is asked who fed it. Ben pays 140 alone; Aki's 30 points are fewer than 89: he pays
    Ben and Chie 10 each. Aki −20, Ben −130, Chie +150, as `summary --json` has it."""
    import json

    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_phones_browser import finish_pile

    base, app = live_three
    pages = {who: phone(browser, f"{base}/t/{app.state.tokens.table}") for who in ("Aki", "Ben", "Chie")}
    aki, chie = pages["Aki"], pages["Chie"]
    set_field(aki, "2k 4r 6k 7t 9k 10k")
    settle(aki)
    aki.locator("#choice-mizuten button[data-choice='y']").click()
    settle(aki)
    for who, p in pages.items():
        p.wait_for_selector("#who")
        p.click(f"#who button[data-player='{who}']")
        p.click("#hand-none")
        settle(p)
    aki.click("#sage-none")
    settle(aki)
    chie.click("button[data-ended='Chie']")
    settle(chie)
    finish_pile(chie, "1r 1k 2r 2k 3r 3k")
    aki.fill("#pile-points", "30")
    aki.click("#pile-points-set")
    settle(aki)
    aki.click("#pile-done")
    settle(aki)
    fed = chie.locator("#choice-liable-Chie")
    fed.wait_for()
    assert pages["Ben"].locator("#choice-liable-Chie").count() == 0  # the receiver's phone asks it
    fed.locator("button[data-choice='Ben']").click()
    settle(chie)
    chie.wait_for_selector("#bar #save")
    chie.click("#bar #save")
    chie.wait_for_selector("#bar #saved")
    summary = json.loads(CliRunner().invoke(cli_app, ["summary", "--json"]).stdout)
    assert summary["totals"] == {"Aki": -20, "Ben": -130, "Chie": 150}
    for p in pages.values():
        p.context.close()


@pytest.fixture
def live_all_on(book_file, tmp_path):
    from test_house_terminal import P7

    yield from serving_all_on(tmp_path, P7)


def be(page, who):
    """The phone is ``who``'s now: passed round the table, it says 'not me' and picks them."""
    page.wait_for_selector("#who")
    if page.locator(f"#who button[data-player='{who}']").count() == 0:
        page.click("#who button:has-text('not me')")
    page.click(f"#who button[data-player='{who}']")
    settle(page)


def test_the_terminals_whole_night_with_every_switch_on_played_from_three_phones_agrees_with_summary(browser, live_all_on):
    """The night tests/test_house_terminal.py types at a terminal (seven seats, FudaWiki's みずてん,
    責任 by a 出来役 and by 飛び込み, flat 下り賃 and 追い込み賃 paid by all), played instead from three
    phones passed round the table: its hand-worked totals are `summary --json`'s, to the 文."""
    import json

    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_house_terminal import EX, TOTALS
    from test_phones_browser import finish_pile
    from test_serve_browser import played_out_no_sage, tap

    from helpers import SMALL_FIELD

    base, app = live_all_on
    p = [phone(browser, f"{base}/t/{app.state.tokens.table}") for _ in range(3)]

    def opening(blank, seats, mizuten):
        p[0].locator(f"#choice-blank button[data-choice='{blank}']").click()
        settle(p[0])
        set_field(p[0], SMALL_FIELD)
        settle(p[0])
        if mizuten:
            p[0].locator("#choice-mizuten button[data-choice='y']").click()
            settle(p[0])
        else:
            assert p[0].locator("#choice-mizuten").count() == 0
        for seat, way in seats:
            p[1].locator(f"[data-seat='{seat}'] button[data-choice='{way}']").click()
            settle(p[1])

    def counted(page, points):
        page.fill("#pile-points", str(points))
        page.click("#pile-points-set")
        settle(page)
        page.click("#pile-done")
        settle(page)

    def rest(page):
        page.click("#rest")
        settle(page)
        if page.locator("#pile-done:not(.on)").count():
            page.click("#pile-done")
            settle(page)

    def played_out(first, second):
        """Played out, no 下げ; the first two phones' piles tapped, the third's the rest."""
        played_out_no_sage(p)
        finish_pile(p[0], first)
        finish_pile(p[1], second)
        rest(p[2])

    def save(page, number):
        page.wait_for_selector("#bar #save")
        page.click("#bar #save")
        for q in p:
            q.wait_for_selector(f"body[data-round='{number}']")
            settle(q)

    # 1. Gen holds the 白札; Aki (親) declares みずてん; Ben drops; Chie calls 下げ and stops by 勝負 with
    #    赤短, which Dan fed; Aki's count of 30 is asked (he declared), Dan's pile is not.
    opening("Gen", [("Ben", "drop"), ("Chie", "play"), ("Dan", "play")], mizuten=True)
    assert p[1].locator("[data-seat='Aki'] button").count() == 0  # the declaring 親 is never asked
    for page, who in zip(p, ("Aki", "Chie", "Dan")):
        be(page, who)
        page.click("#hand-none")
        settle(page)
    p[1].click("[data-sage='Chie']")
    settle(p[1])
    p[1].click("[data-ended='Chie']")
    settle(p[1])
    p[1].click("#ending button:has-text('勝負')")
    settle(p[1])
    counted(p[0], 30)
    finish_pile(p[1], "1r 1k 2r 2k 3r 3k")
    assert p[2].locator("#pile-unasked").count() == 1
    fed = p[1].locator("#choice-liable-Chie")
    fed.wait_for()
    assert p[0].locator("#choice-liable-Chie").count() == 0 and p[2].locator("#choice-liable-Chie").count() == 0
    fed.locator("button[data-choice='Dan']").click()
    settle(p[1])
    save(p[1], 1)

    # 2. Chie (親) holds the 白札: no みずてん; Dan starts; Eri and Fumi drop; Dan's 三本 of 3 by the
    #    dealt cards, and 飛び込み (all of month 3 in his pile) fed by Gen; Aki's pile the rest.
    opening("Chie", [("Dan", "play"), ("Eri", "drop"), ("Fumi", "drop"), ("Gen", "play"), ("Aki", "play")], mizuten=False)
    for page, who in zip(p, ("Dan", "Gen", "Aki")):
        be(page, who)
    p[0].click("[data-cards='Dan']")
    for code in "3h 3r 3k 1k 5t 8t 10t".split():
        tap(p[0], "hand-grid-3", code)
    p[0].click("[data-set-hand='Dan']")
    settle(p[0])
    for page in p[1:]:
        page.click("#hand-none")
        settle(page)
    played_out(EX["Aki"], EX["Ben"])
    fed = p[0].locator("#choice-liable-Dan")
    fed.wait_for()
    fed.locator("button[data-choice='Gen']").click()
    settle(p[0])
    save(p[0], 2)

    # 3. Eri holds the 白札; Dan (親) declares; Fumi and Gen play; Aki, Ben and Chie forced out, their
    #    hands not asked; played out.
    opening("Eri", [("Fumi", "play"), ("Gen", "play")], mizuten=True)
    assert p[0].locator("[data-hand='Aki'], [data-hand='Ben'], [data-hand='Chie']").count() == 0
    for page, who in zip(p, ("Dan", "Fumi", "Gen")):
        be(page, who)
        page.click("#hand-none")
        settle(page)
    played_out(EX["Chie"], EX["Aki"])
    save(p[2], 3)

    summary = json.loads(CliRunner().invoke(cli_app, ["summary", "--json"]).stdout)
    assert summary["totals"] == TOTALS and summary["pot"] == 0 and summary["rounds"] == 3
    strokes = p[0].locator("#chart polyline").evaluate_all("ls => ls.map((l) => getComputedStyle(l).stroke)")
    assert len(strokes) == 7 and len(set(strokes)) == 7 and "none" not in strokes  # the seventh's line drawn too
    for page in p:
        page.context.close()
