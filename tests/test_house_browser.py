"""TRADITIONAL §11 on the phones, in real headless Chromium: a night of seven long names under a
house file with every switch on. The 白札's question and FudaWiki's みずてん are drawn with the
generic choice box and answered by a tap; the seats skip the 白札's holder (shown as sitting out)
and the declaring 親 (shown as playing, never offered drop); no page is wider than the phone."""

from __future__ import annotations

import pytest
from test_serve_browser import PHONE, browser, phone, set_field, settle  # noqa: F401 (fixtures)

ALL_ON = """base = "fudawiki"
name = "all-on"
liability = true
mizuten = "fudawiki"
drop_fee = "flat"
forced_out_pay = "flat"
forced_out_paid_by = "all"
"""
SEVEN = ["Aiko Watanabe-Smithe", "Benjamin Oyelaran-Ko", "Chieko Yamamoto-Lee", "Daisuke Fernandez-Ho",
         "Emiko Kowalczyk-Ross", "Fumiko Abernathy-Lim", "Gen"]


@pytest.fixture
def live_seven(book_file, tmp_path):
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_serve_browser import serving

    rules = tmp_path / "all-on.toml"
    rules.write_text(ALL_ON, encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["new-session", *SEVEN, "--rules", str(rules), "--dealer", SEVEN[0]])
    assert result.exit_code == 0, result.output
    yield from serving()


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
