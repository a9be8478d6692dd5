"""Issue 33, point 5, the phones in a real browser (Debian's chromium, 360 px), in both languages:
a 手役 the round does not pay is drawn void, never as paid; a pile given by its 出来役's names shows
no points ("–", not 0); an onlooker refused for too many live pages is told so, not "offline";
the saved bar says 第N回 and goes once the next round is begun; a tap the terminal overtook says
the terminal, one another phone overtook says another phone; every button and field a finger
taps is 44 px at least, measured."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_serve_browser import browser, live, phone, set_field, settle, shot  # noqa: F401 (fixtures)
from test_phones_browser import as_player, finish_round, to_the_count
from serve_helpers import answers_of, bundled_night

GOLDEN = Path(__file__).parent / "golden" / "sdin"
#: the least a finger taps well (px), each way
FINGER = 44


def in_language(page, language):
    if page.locator("body").get_attribute("data-lang") != language:
        page.click(f"#lang button[data-lang='{language}']")
    page.wait_for_selector(f"body[data-lang='{language}']")


def result_row(page, player):
    return page.locator("#result tbody tr", has_text=player)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_void_teyaku_is_drawn_void_and_a_pile_by_name_has_no_points(browser, live, tmp_path, language):
    """A 特殊役 round where each player declared 赤: 赤 is listed, marked void, as the terminal marks
    it (the money pays no 赤). Then a round Chie stops, her pile given by its 出来役's name: her points
    are "–", as the piles not asked."""
    base, app = live
    data = json.loads((GOLDEN / "special-nihachi.round.json").read_text("utf-8"))
    data["teyaku"] = {p: "赤" for p in data["players"]}
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    in_language(page, language)
    finish_round(answers_of(data), save=False)
    page.wait_for_selector("#result")
    void = "赤 (void)" if language == "en" else "赤（無効）"
    for p in data["players"]:
        row = result_row(page, p)
        assert row.locator(".void").all_inner_texts() == [void], row.inner_text()
    payments = page.locator("#payments").inner_text()
    assert "赤" not in payments, payments  # as the money: 赤 not paid
    assert any(r["special"] for r in app.state.table.state["round"]["result"]["players"].values())  # a 特殊役 round
    shot(page, tmp_path, f"33-void-{language}")
    page.click("#bar #save")
    page.wait_for_selector("#bar #saved")
    stop = {"field": " ".join(bundled_night()[7]["field"]), **{f"hand:{p}": "" for p in data["players"]},
            "ended": "Chie", "sage": "", "pile:Chie": "akatan"}
    finish_round(stop, save=False)
    page.wait_for_selector("#result")
    points = {p: result_row(page, p).locator("td").nth(2).inner_text() for p in data["players"]}
    assert points == {"Aki": "–", "Ben": "–", "Chie": "–"}, points  # by name, not asked, not asked: never 0
    page.context.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_onlooker_refused_for_too_many_live_pages_is_told_so_not_offline(browser, live, language):
    base, app = live
    streams = app.state.streams
    viewer = phone(browser, f"{base}/v/{app.state.tokens.view}")
    in_language(viewer, language)
    viewer.wait_for_selector("#live.on")
    viewer.context.close()
    held = dict(streams.held)
    streams.held["view"] = streams.total  # every room an onlooker may take is taken
    try:
        viewer = phone(browser, f"{base}/v/{app.state.tokens.view}")
        in_language(viewer, language)  # (a fresh page, a new device: the switch once more)
        refused = "too many live pages are open" if language == "en" else "ライブ表示のページが多すぎます"
        viewer.wait_for_selector(f"#live.off:has-text('{refused}')")
        assert "offline" not in viewer.locator("#live").inner_text()
    finally:
        streams.held.update(held)
    viewer.context.close()


def test_the_saved_bar_says_dai_n_kai_and_goes_once_the_next_round_is_begun(browser, live, tmp_path):
    base, app = live
    a = answers_of(bundled_night()[2])
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    in_language(page, "ja")
    finish_round(a, save=False)
    page.wait_for_selector("#bar #save")
    page.click("#bar #save")
    page.wait_for_selector("#bar #saved")
    said = page.locator("#bar #saved").inner_text()
    assert said.startswith("第3回を保存しました") and "ラウンド" not in said, said
    shot(page, tmp_path, "33-saved-ja", whole=False)
    set_field(page, bundled_night()[3]["field"])  # round 4 begun: round 3's bar has had its time
    settle(page)
    page.wait_for_selector("#bar #saved", state="detached")
    page.context.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_tap_the_terminal_overtook_says_the_terminal(browser, live, language):
    """Aki's phone, offline, says nobody ended the round; the terminal meanwhile says Ben did."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft, writer_id

    base, app = live
    a = answers_of(bundled_night()[2])
    aki = phone(browser, f"{base}/t/{app.state.tokens.table}")
    in_language(aki, language)
    set_field(aki, a["field"])
    as_player(aki, "Aki")
    aki.context.set_offline(True)
    aki.click("#ended-out")
    aki.wait_for_selector("body[data-unsent='1']")
    RoundDraft.kept(Night.open()).answer("ended", "Ben", by=writer_id())
    aki.context.set_offline(False)
    overtaken = "#ending [data-overtaken='ended']"
    aki.wait_for_selector(f"{overtaken} button[data-again]")
    said = aki.locator(overtaken).inner_text()
    if language == "en":
        assert "by the terminal" in said and "another phone" not in said, said
    else:
        assert "端末で" in said and "別のスマホ" not in said, said
    aki.context.close()


def small_targets(page) -> list[str]:
    """Every button and field on screen that is less than a finger each way: 'what: w×h'."""
    boxes = page.evaluate("""() => [...document.querySelectorAll('button, input, select, textarea, a[href]')]
        .filter((e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed')
        .map((e) => { const r = e.getBoundingClientRect();
          return [e.id || e.dataset.lang || e.textContent.trim().slice(0, 20) || e.tagName, r.width, r.height]; })""")
    return [f"{what}: {w:.0f}×{h:.0f}" for what, w, h in boxes if w < FINGER - 0.5 or h < FINGER - 0.5]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_touch_target_is_a_finger_wide_and_high(browser, live, language):
    """The language switch, the pile's count field and its button, the round's buttons, the saved
    bar's buttons, measured where each is drawn."""
    base, app = live
    a = answers_of(bundled_night()[2])
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    in_language(page, language)
    seen = {"lang": page.locator("#lang button").count()}
    assert small_targets(page) == []  # the standings, the switch, the field
    set_field(page, a["field"])
    as_player(page, "Aki")
    to_the_count(page)
    seen["count"] = page.locator("#pile-points-row input, #pile-points-row button").count()
    assert small_targets(page) == []  # the pile's grid, its count field and button
    finish_round(a, save=False)
    page.wait_for_selector("#bar #save")
    page.click("#bar #save")
    page.wait_for_selector("#bar #saved")
    seen["saved"] = page.locator("#bar #saved button").count()
    assert small_targets(page) == []  # the saved bar's buttons
    assert seen == {"lang": 2, "count": 2, "saved": 2}, seen  # each was there to be measured
    page.context.close()
