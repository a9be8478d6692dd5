"""The phones at a real table, in a real browser (Debian's chromium, 360 px): a tap made while the
network is down is kept on the phone and sent when it is back, a reload keeps it, a tap held while
another phone's answer arrives is not lost, a tap queued
against an answer another phone changed meanwhile is shown for tapping again; discard asks and
can be undone; the one action of the moment is in a bar on screen; six long names fit a phone.
Screenshots are written under the test's temp folder.
"""

from __future__ import annotations

import pytest

from test_serve_browser import PHONE, browser, live, phone, set_field, settle, shot, tap  # noqa: F401 (fixtures)
from serve_helpers import answers_of, bundled_night

API = "**/api/answer"


def start_round(page, a):
    """The field set, Aki picked and Aki's 手役 answered: Aki's pile is on the page."""
    set_field(page, a["field"])
    page.wait_for_selector("#who")
    page.click("#who button[data-player='Aki']")
    page.click("#hand-none")
    settle(page)
    page.wait_for_selector("#pile-grid")


def aki_at_the_pile(browser, live):
    """Aki's phone at Aki's pile of the bundled night's third round: (the app, its answers, the page)."""
    base, app = live
    a = answers_of(bundled_night()[2])
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    start_round(page, a)
    return app, a, page


def server_pile(app, player="Aki"):
    return app.state.table.state["round"]["answers"].get(f"pile:{player}")


def wait_server(app, page, ok, what):
    """Wait on the page's own events (its outbox empty) and say what the server holds."""
    settle(page)
    state = app.state.table.state["round"]["answers"]
    assert ok(state), (what, state)


def test_a_tap_made_without_the_network_is_kept_through_a_reload_and_sent_when_it_is_back(browser, live, tmp_path):
    app, a, page = aki_at_the_pile(browser, live)
    pile = a["pile:Aki"].split()
    for code in pile[:2]:
        tap(page, "pile-grid", code)
    settle(page)
    assert server_pile(app).split() == pile[:2]
    page.route(API, lambda route: route.abort())  # the Wi-Fi drops
    tap(page, "pile-grid", pile[2])
    page.wait_for_selector("#live:has-text('not sent yet')")
    assert server_pile(app).split() == pile[:2]
    shot(page, tmp_path, "1-offline-tap-light")
    page.reload()  # the phone reloads the page, still without the network for answers
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("body[data-unsent='1']")
    assert page.locator("#pile-grid button.on").count() == 3  # the tap is still there, marked
    page.wait_for_selector("#live:has-text('1 not sent yet')")
    page.unroute(API)  # the Wi-Fi is back
    page.wait_for_selector("body[data-unsent='0']")
    for code in pile[3:5]:
        tap(page, "pile-grid", code)
    wait_server(app, page, lambda s: s.get("pile:Aki", "").split() == pile[:5], "every tap, in order")
    page.wait_for_selector("#live:has-text('live')")
    assert page.locator("#pile-grid button.on").count() == 5
    shot(page, tmp_path, "2-back-online-light")
    page.context.close()


def test_a_tap_queued_against_an_answer_changed_meanwhile_is_shown_for_tapping_again(browser, live, tmp_path):
    app, a, page = aki_at_the_pile(browser, live)
    page.route(API, lambda route: route.abort())
    tap(page, "pile-grid", "1h")
    page.wait_for_selector("body[data-unsent='1']")
    from scorekeeper.flows import Night

    night = Night.open()
    night.answer(night.draft_for("round"), "pile:Aki", "3h 3k", done=False)  # another phone, meanwhile
    page.unroute(API)
    page.wait_for_selector("body[data-unsent='0']")
    page.wait_for_selector("#pile-problem:has-text('changed on another phone meanwhile')")
    assert server_pile(app) == "3h 3k"  # the server's draft wins; nothing was dropped without a word
    shot(page, tmp_path, "3-overtaken-light")
    page.context.close()


def test_a_tap_held_while_another_phone_s_answer_arrives_is_not_lost(browser, live, tmp_path):
    """The page is not drawn again under a finger: the tap pressed before another phone's answer
    arrives and released after it is still a tap (a page redrawn between the press and the
    release lost it: a pile one card short, and no result)."""
    app, a, page = aki_at_the_pile(browser, live)
    button = page.locator("#pile-grid button[data-code='1h']:not(.on)").first
    button.evaluate("b => b.scrollIntoView({block: 'center'})")  # clear of the bar at the bottom
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    from scorekeeper.flows import Night

    night = Night.open()
    night.answer(night.draft_for("round"), "ended", "out")  # another phone, while Aki's finger is down
    page.wait_for_function("() => S.round.answers.ended === 'out'")  # it came while the finger is down
    page.mouse.up()
    page.wait_for_selector("#pile-grid button[data-code='1h'].on")
    settle(page)
    assert server_pile(app) == "1h" and app.state.table.state["round"]["answers"].get("ended") == "out"
    page.context.close()


def test_discard_says_what_it_throws_away_asks_and_is_undone(browser, live, tmp_path):
    app, a, page = aki_at_the_pile(browser, live)
    for code in a["pile:Aki"].split()[:4]:
        tap(page, "pile-grid", code)
    settle(page)
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.click("#discard")
    assert asked and asked[0].startswith("Throw away Aki's pile, 4 cards and ") and "brought back" in asked[0]
    assert server_pile(app) is not None  # no: nothing thrown away
    page.once("dialog", lambda d: answer(d, True))
    page.click("#discard")
    page.wait_for_selector("#restore")
    assert app.state.table.state["round"]["answers"] == {}
    shot(page, tmp_path, "4-discarded-light")
    page.click("#restore")
    page.wait_for_selector("#pile-grid")
    settle(page)
    assert server_pile(app).split() == a["pile:Aki"].split()[:4]
    assert page.locator("#bar #discard").count() == 0  # never in the bar, where save is
    page.context.close()


def in_view(page, selector):
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_one_action_of_each_step_is_in_a_bar_on_screen(browser, live, tmp_path):
    base, app = live
    a = answers_of(bundled_night()[2])
    pages = [phone(browser, f"{base}/t/{app.state.tokens.table}") for _ in range(3)]
    page = pages[0]
    page.wait_for_selector("#sprite symbol#card-12k", state="attached")  # the pictures, read once into the page
    assert page.locator("#sprite symbol").count() == 36
    box = page.locator("#field-grid button[data-code='1h'] svg.pic").bounding_box()
    assert box and box["width"] > 20 and box["height"] > 30  # each card drawn with its picture
    assert in_view(page, "#bar #set-field")
    set_field(page, a["field"])
    for p, who in zip(pages, ("Aki", "Ben", "Chie")):
        p.wait_for_selector("#who")
        p.click(f"#who button[data-player='{who}']")
        p.click("#hand-none")
        settle(p)
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, "#bar #pile-done")  # at the top of the page too, the action is on screen
    page.click("#ended-out")
    settle(page)
    page.click("#sage-none")
    settle(page)
    for p, who in zip(pages, ("Aki", "Ben", "Chie")):
        for code in a[f"pile:{who}"].split():
            tap(p, "pile-grid", code)
        settle(p)
        p.click("#pile-done")
        settle(p)
    page.wait_for_selector("#bar #save")
    assert in_view(page, "#bar #save") and page.locator("#bar #discard").count() == 0
    shot(page, tmp_path, "5-bar-save-light")
    for p in pages:
        p.context.close()


LONG = ["Aiko Watanabe-Smithe", "Benjamin Oyelaran-Ko", "Chieko Yamamoto-Lee", "Daisuke Fernandez-Ho",
        "Emiko Kowalczyk-Ross", "Fumiko Abernathy-Lim"]


@pytest.fixture
def live_six(book_file):
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_serve_browser import serving

    result = CliRunner().invoke(cli_app, ["new-session", *LONG, "--rules", "fudawiki"])
    assert result.exit_code == 0, result.output
    yield from serving()


def test_no_page_is_wider_than_a_phone_with_six_long_names(browser, live_six, tmp_path):
    base, app = live_six
    for scheme in ("light", "dark"):
        page = phone(browser, f"{base}/t/{app.state.tokens.table}", scheme)
        if scheme == "light":  # the field, set once for the night's round
            set_field(page, "2t 3k 4t 5k 6k 7k")
        page.wait_for_selector("#seats")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, tmp_path, f"6-six-names-{scheme}")
        page.context.close()
