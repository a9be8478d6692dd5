"""The phones at a real table, in a real browser (Debian's chromium, 360 px): a tap made while the
network is down is kept on the phone and sent when it is back, a reload keeps it, a tap held while
another phone's answer arrives is not lost, a tap queued
against an answer another phone changed meanwhile is shown for tapping again; discard asks and
can be undone; the one action of the moment is in a bar on screen; six long names, and three of 30
letters without a space, fit a phone.
Screenshots are written under the test's temp folder.
"""

from __future__ import annotations

import pytest

from test_serve_browser import PHONE, browser, drawn, live, phone, set_field, settle, shot, tap  # noqa: F401 (fixtures)
from serve_helpers import answers_of, bundled_night, new_night
from helpers import eventually

API = "**/api/answer"


def start_round(page, a):
    """The field set, Aki picked and Aki's 手役 answered: Aki's pile is on the page."""
    set_field(page, a["field"])
    as_player(page, "Aki")


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


def press(page, selector):
    """A finger down on ``selector`` (brought clear of the bar at the bottom), not lifted yet."""
    button = page.locator(selector).first
    button.evaluate("b => b.scrollIntoView({block: 'center'})")
    box = button.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def as_player(page, player):
    """``player`` picked on the page and their 手役 answered (none): their pile is on the page."""
    page.wait_for_selector("#who")
    page.click(f"#who button[data-player='{player}']")
    page.click("#hand-none")
    settle(page)
    page.wait_for_selector("#pile-grid")


def finish_round(a, save=True):
    """Another writer (the terminal, as the other phones would) answers what is left of the
    round, ``a`` (the bundled night's answers, the 親 as it is), and saves it (the round's number)."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft

    rd = RoundDraft.take(Night.open())
    for key, text in a.items():
        if key != "dealer" and key not in rd.answers:
            rd.answer(key, text)
    return rd.save().number if save else None


def dialogs(asked):
    """A page's confirm answered as the test says (accept or dismiss), its words kept in ``asked``."""
    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()
    return answer


def test_a_tap_made_without_the_network_is_kept_through_a_reload_and_sent_when_it_is_back(browser, live, tmp_path):
    app, a, page = aki_at_the_pile(browser, live)
    pile = a["pile:Aki"].split()
    for code in pile[:2]:
        tap(page, "pile-grid", code)
    settle(page)
    assert server_pile(app).split() == pile[:2]
    page.route(API, lambda route: route.abort())  # the Wi-Fi drops
    tap(page, "pile-grid", pile[2])
    page.wait_for_selector("#bar #unsent:has-text('1 tap not sent yet')")
    assert server_pile(app).split() == pile[:2]
    shot(page, tmp_path, "1-offline-tap-light")
    page.reload()  # the phone reloads the page, still without the network for answers
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("body[data-unsent='1']")
    assert page.locator("#pile-grid button.on").count() == 3  # the tap is still there, marked
    page.wait_for_selector("#bar #unsent:has-text('1 tap not sent yet')")
    page.unroute(API)  # the Wi-Fi is back
    page.wait_for_selector("body[data-unsent='0']")
    for code in pile[3:5]:
        tap(page, "pile-grid", code)
    wait_server(app, page, lambda s: s.get("pile:Aki", "").split() == pile[:5], "every tap, in order")
    page.wait_for_selector("#live:has-text('live')")
    assert page.locator("#pile-grid button.on").count() == 5
    shot(page, tmp_path, "2-back-online-light")
    page.context.close()


def another_phone(key, text):
    """Another phone's answer (the round's owner, as the server takes it): pushed to every page."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft

    RoundDraft.kept(Night.open()).answer(key, text, done=False)


def pushed(page, since):
    """Until a state newer than version ``since`` is drawn on the page."""
    page.wait_for_function("v => S.version > v", arg=since)
    drawn(page)


def to_the_count(page):
    """Played out, no 下げ: the pile's counted points are asked beside its cards."""
    page.click("#ended-out")
    settle(page)
    page.click("#sage-none")
    settle(page)
    page.wait_for_selector("#pile-points")


def test_a_card_tapped_offline_is_merged_with_the_cards_another_phone_tapped_meanwhile(browser, live, tmp_path):
    """A card tapped without the network while another phone typed the same pile is merged into
    it: it was refused, the whole pile it had seen having changed."""
    app, _a, page = aki_at_the_pile(browser, live)
    page.route(API, lambda route: route.abort())
    tap(page, "pile-grid", "1h")
    page.wait_for_selector("body[data-unsent='1']")
    another_phone("pile:Aki", "3h 3k")  # meanwhile
    page.unroute(API)
    page.wait_for_selector("body[data-unsent='0']")
    settle(page)
    assert server_pile(app).split() == ["3h", "3k", "1h"]  # both kept, nothing to choose
    assert page.locator("[data-overtaken]").count() == 0
    page.wait_for_selector("#pile-box h3:has-text('3 cards')")
    page.context.close()


def test_a_count_given_two_ways_is_shown_until_its_player_chooses(browser, live, tmp_path):
    """A count given two ways on two phones is a true conflict: shown in the pile's box with the
    tap that wasn't taken, and it stays through the player's next tap (which erased it) until they
    send it again or leave it."""
    app, _a, page = aki_at_the_pile(browser, live)
    to_the_count(page)
    page.route(API, lambda route: route.abort())
    page.fill("#pile-points", "88")
    page.press("#pile-points", "Enter")
    page.wait_for_selector("body[data-unsent='1']")
    another_phone("pile:Aki", "=90")  # meanwhile, counted otherwise
    page.unroute(API)
    page.wait_for_selector("#pile-problem:has-text('changed meanwhile by another phone')")
    settle(page)
    eventually(lambda: server_pile(app) == "=90", "the server's state from its next look")  # it stands until the player chooses
    tap(page, "pile-grid", "2t")  # the player's next tap: taken, and the notice stays
    settle(page)
    assert server_pile(app) == "2t"
    notice = page.locator("#pile-box [data-overtaken='pile:Aki']")
    assert "your tap, not taken: =88" in notice.inner_text()
    notice.evaluate("b => b.scrollIntoView({block: 'center'})")
    shot(page, tmp_path, "3-overtaken-count-light", whole=False)
    page.click("#lang button[data-lang='ja']")  # and in Japanese, the same notice
    page.wait_for_selector("body[data-lang='ja'] #pile-box [data-overtaken] :text('反映されなかったタップ: =88')")
    notice.evaluate("b => b.scrollIntoView({block: 'center'})")
    shot(page, tmp_path, "3-overtaken-count-ja", whole=False)
    page.click("#lang button[data-lang='en']")
    page.wait_for_selector("body[data-lang='en']")
    page.click("#pile-box [data-overtaken] button[data-again]")
    page.wait_for_selector("[data-overtaken]", state="detached")
    settle(page)
    assert server_pile(app) == "=88"
    page.context.close()


def test_two_phones_tapping_one_pile_interleaved_lose_no_card(browser, live, tmp_path):
    """Two phones tap 8 cards of Aki's pile in turn, each tap of the second landing after the
    first's (pushed to it meanwhile): a tap stated the whole pile its phone had seen, so each was
    refused as overtaken (2-4 of 8 lost at a real table). Every card lands, none refused."""
    app, a, one = aki_at_the_pile(browser, live)
    two = phone(browser, f"{live[0]}/t/{app.state.tokens.table}", "dark")
    two.click("#who button[data-player='Aki']")  # Aki's pile from a second phone (Aki's hand is set)
    two.wait_for_selector("#pile-grid")
    cards = list(dict.fromkeys(a["pile:Aki"].split()))[:8]
    held: list = []
    two.route(API, lambda route: held.append(route))  # the second phone's taps wait on the way, one at a time
    for mine, theirs in zip(cards[0::2], cards[1::2]):
        tap(two, "pile-grid", theirs)
        while not held:  # its request, on the way
            two.evaluate("0")
        tap(one, "pile-grid", mine)
        settle(one)  # the first phone's tap lands, and is pushed to the second
        two.wait_for_function("code => (S.round.answers['pile:Aki'] || '').split(' ').includes(code)", arg=mine)
        held.pop().continue_()
        settle(two)
    two.unroute(API)
    for page in (one, two):
        settle(page)
        assert page.locator("[data-overtaken]").count() == 0
        page.wait_for_selector(f"#pile-box h3:has-text('{len(cards)} cards')")
        assert page.locator("#pile-grid button.on").count() == len(cards)
    assert sorted(server_pile(app).split()) == sorted(cards)
    shot(two, tmp_path, "16-two-phones-one-pile-dark", whole=False)
    for page in (one, two):
        page.context.close()


def test_a_number_half_typed_survives_other_phones_answers_and_is_sent(browser, live, tmp_path):
    """Gen typed 88 into his pile's counted points; another phone's answer arrived and the page,
    drawn again whole, came back with the field empty and out of focus: "count" then found it
    empty and did nothing. The digits, the focus and the selection stay through every push, and
    Enter sends them."""
    app, _a, aki = aki_at_the_pile(browser, live)
    to_the_count(aki)
    field = aki.locator("#pile-points")
    field.click()
    aki.keyboard.type("8")
    since = aki.evaluate("S.version")
    another_phone("pile:Ben", "2t 2k")
    pushed(aki, since)
    assert field.input_value() == "8" and aki.evaluate("document.activeElement.id") == "pile-points"
    aki.keyboard.type("8")
    aki.keyboard.press("Shift+ArrowLeft")  # the last digit selected
    since = aki.evaluate("S.version")
    another_phone("pile:Chie", "3r 3k")
    pushed(aki, since)
    assert field.input_value() == "88" and aki.evaluate("document.activeElement.id") == "pile-points"
    assert aki.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]") == [1, 2]
    field.evaluate("b => b.scrollIntoView({block: 'center'})")
    shot(aki, tmp_path, "17-half-typed-count-light", whole=False)
    aki.evaluate("chooseLang('ja')")  # the page words itself again, in Japanese: the digits stay
    aki.wait_for_selector("body[data-lang='ja']")
    drawn(aki)
    assert field.input_value() == "88" and aki.evaluate("document.activeElement.id") == "pile-points"
    shot(aki, tmp_path, "17-half-typed-count-ja", whole=False)
    aki.evaluate("chooseLang('en')")
    aki.wait_for_selector("body[data-lang='en']")
    aki.keyboard.press("End")
    aki.keyboard.press("Enter")
    settle(aki)
    assert server_pile(app) == "=88"
    aki.wait_for_selector("#pile-box h3:has-text('88 points, counted')")
    assert field.input_value() == ""
    aki.click("#pile-points-set")  # nothing typed: said, not silently nothing
    aki.wait_for_selector("#pile-points-problem")
    assert aki.evaluate("document.activeElement.id") == "pile-points"
    aki.context.close()


def test_an_empty_pile_is_said_complete_only_once_its_player_says_yes(browser, live, tmp_path):
    """'my pile is complete' on a pile holding no cards was the big button, taken without a word
    (with rest on the last pile, a forgotten pile gave all its points to the last player). It
    asks first, dismissed it marks nothing, and it is not the big button; a pile holding cards is
    not asked."""
    app, _a, aki = aki_at_the_pile(browser, live)
    assert "primary" not in (aki.locator("#bar #pile-done").get_attribute("class") or "")
    asked: list[str] = []
    answer = dialogs(asked)
    aki.once("dialog", lambda d: answer(d, False))
    aki.click("#bar #pile-done")
    settle(aki)
    assert asked == ["Aki's pile holds no cards. Is it complete, empty?"]
    assert app.state.table.state["round"]["done"] == [] and server_pile(app) is None  # nothing marked
    aki.once("dialog", lambda d: answer(d, True))
    aki.click("#bar #pile-done")
    settle(aki)
    assert len(asked) == 2 and app.state.table.state["round"]["done"] == ["Aki"] and server_pile(app) == ""
    aki.click("#bar #pile-done")  # reopened
    settle(aki)
    tap(aki, "pile-grid", "1h")
    settle(aki)
    assert "primary" in aki.locator("#bar #pile-done").get_attribute("class")
    aki.click("#bar #pile-done")  # a pile holding a card: not asked
    settle(aki)
    assert len(asked) == 2 and app.state.table.state["round"]["done"] == ["Aki"]
    aki.context.close()


def test_a_tap_draws_only_what_it_changed(browser, live, tmp_path):
    """The page drew itself whole on every push, several times a tap (~970 elements): a tap now
    changes the card tapped, the pile's count, its chip and the bar; the grid's other cards, the
    standings, the chart and the rounds are the same nodes, untouched."""
    _app, a, aki = aki_at_the_pile(browser, live)
    pile = a["pile:Aki"].split()
    for code in pile[:3]:
        tap(aki, "pile-grid", code)
    settle(aki)
    drawn(aki)
    aki.evaluate("""() => {
      window.kept = {card: document.querySelector("#pile-grid button[data-code='12h']"), grid: document.getElementById("pile-grid"),
        standings: document.querySelector("#standings table"), history: document.querySelector("#history table"),
        chart: document.querySelector("#chart svg"), box: document.getElementById("pile-box"), round: document.getElementById("round")};
      window.touched = new Set();
      window.watching = new MutationObserver((records) => { for (const r of records) for (const n of [r.target, ...r.addedNodes, ...r.removedNodes]) touched.add(n); });
      watching.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    }""")
    tap(aki, "pile-grid", pile[3])
    settle(aki)
    drawn(aki)
    out = aki.evaluate("""() => {
      watching.disconnect();
      const inside = (sel) => [...touched].filter((n) => { const e = n.nodeType === 1 ? n : n.parentElement; return e && e.closest(sel); });
      return {replaced: Object.entries(kept).filter(([k, n]) => !n.isConnected).map(([k]) => k),
              same: document.querySelector("#pile-grid button[data-code='12h']") === kept.card,
              touched: touched.size, cards: [...touched].filter((n) => n.nodeType === 1 && n.matches("button.card")).map((n) => n.dataset.code),
              standings: inside("#standings").length, history: inside("#history").length, chart: inside("#chart").length};
    }""")
    assert out["replaced"] == [] and out["same"], out
    assert out["standings"] == out["history"] == out["chart"] == 0, out
    assert set(out["cards"]) == {pile[3]}, out  # of the 48, the one tapped
    assert out["touched"] <= 30, out  # 12 here; the page drawn whole touched 121
    aki.context.close()


def test_a_tap_held_while_another_phone_s_answer_arrives_is_not_lost(browser, live, tmp_path):
    """The page is not drawn again under a finger: the tap pressed before another phone's answer
    arrives and released after it is still a tap (a page redrawn between the press and the
    release lost it: a pile one card short, and no result)."""
    app, a, page = aki_at_the_pile(browser, live)
    press(page, "#pile-grid button[data-code='1h']:not(.on)")
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft

    night = Night.open()
    RoundDraft.kept(night).answer("ended", "out")  # another phone, while Aki's finger is down
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
    asked: list[str] = []
    answer = dialogs(asked)
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


def wait_in_view(page, selector):
    """Until ``selector`` is on the screen (a bar drawn again as taps are refused is waited for,
    not caught half drawn)."""
    page.wait_for_function("""s => { const e = document.querySelector(s); if (!e) return false;
        const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
                           arg=selector)
    return True


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
        finish_pile(p, a[f"pile:{who}"])
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


def test_a_field_picked_here_but_set_by_another_phone_is_not_picked_in_the_next_round(browser, live, tmp_path):
    """What a phone picked belongs to its round: the field Aki was picking when Ben's phone set it
    (Ben's tap landing while Aki's finger is down on the sixth card) came back picked in the next
    round, one tap from setting a field nobody dealt; and a card pressed on round 3's pile and
    released once round 3 is saved is no tap of round 4."""
    base, app = live
    a = answers_of(bundled_night()[2])
    field = a["field"].split()
    aki, ben = (phone(browser, f"{base}/t/{app.state.tokens.table}") for _ in range(2))
    for code in field[:5]:
        tap(aki, "field-grid", code)
    press(aki, f"#field-grid button[data-code='{field[5]}']:not(.on)")
    set_field(ben, field)  # Ben's phone sets the field first
    aki.wait_for_function("() => S.round.answers.field !== undefined")  # it came while Aki's finger is down
    aki.mouse.up()
    aki.wait_for_selector("#field-box p.chosen")
    as_player(aki, "Aki")
    press(aki, "#pile-grid button[data-code='1h']:not(.on)")
    assert finish_round(a) == 3  # the others finish round 3 and save it, Aki's finger still down
    aki.wait_for_function("() => S.session.rounds === 3")
    sent = []
    aki.on("request", lambda r: sent.append(r.post_data) if r.method == "POST" else None)
    aki.mouse.up()
    aki.wait_for_selector("body[data-round='3'] #field-grid")
    settle(aki)
    assert sent == []  # the press on round 3's pile is no tap of round 4
    assert aki.locator("#field-grid button.on").count() == 0
    assert aki.locator("#bar #set-field").is_disabled()
    assert app.state.table.state["round"]["answers"] == {}
    shot(aki, tmp_path, "7-next-round-nothing-picked-light", whole=False)
    for page in (aki, ben):
        page.context.close()


def test_a_tap_another_phone_overtook_is_shown_by_its_question_and_sent_again_in_one_tap(browser, live, tmp_path):
    """Aki's phone, offline, says nobody ended the round; Ben's meanwhile says Ben did, and no
    下げ: the ending is settled. Aki's tap, refused (409, its key), was dropped without a word: it
    is shown in the ending's box, the tap that wasn't taken, and one tap sends it again."""
    app, a, aki = aki_at_the_pile(browser, live)
    ben = phone(browser, f"{live[0]}/t/{app.state.tokens.table}", "dark")
    as_player(ben, "Ben")
    aki.context.set_offline(True)
    aki.click("#ended-out")
    aki.wait_for_selector("body[data-unsent='1']")
    ben.click("#ending button[data-ended='Ben']")
    settle(ben)
    ben.click("#sage-none")
    settle(ben)
    ben.wait_for_selector("#ending p.chosen")  # the ending settled on Ben's phone
    aki.context.set_offline(False)
    overtaken = "#ending [data-overtaken='ended']"
    aki.wait_for_selector(f"{overtaken} button[data-again]")
    said = aki.locator(overtaken).inner_text()
    nobody = aki.locator(overtaken).evaluate("() => say(step('ended').choices.find((c) => c.answer === '').label)")
    assert "changed meanwhile by another phone" in said and f"your tap, not taken: {nobody}" in said, said
    assert app.state.table.state["round"]["answers"]["ended"] == "Ben"  # the server's stands until tapped again
    aki.locator(overtaken).evaluate("b => b.scrollIntoView({block: 'center'})")
    shot(aki, tmp_path, "8-overtaken-ending-light", whole=False)
    aki.click(f"{overtaken} button[data-again]")
    aki.wait_for_selector("[data-overtaken]", state="detached")
    settle(aki)
    assert app.state.table.state["round"]["answers"]["ended"] == ""
    for page in (aki, ben):
        page.context.close()


def test_the_taps_not_sent_yet_are_counted_in_the_bar_in_view(browser, live, tmp_path):
    """Five taps made offline are five not sent yet (it said 1: the outbox keeps one entry an
    answer), said in the bar at the bottom, in view while tapping (it was in the header)."""
    app, a, aki = aki_at_the_pile(browser, live)
    pile = a["pile:Aki"].split()
    aki.context.set_offline(True)
    for code in pile[:5]:
        tap(aki, "pile-grid", code)
    aki.wait_for_selector("#bar #unsent:has-text('5 taps not sent yet')")
    assert wait_in_view(aki, "#bar #unsent")
    shot(aki, tmp_path, "9-five-taps-not-sent-light", whole=False)
    aki.context.set_offline(False)
    aki.wait_for_selector("body[data-taps='0']")
    settle(aki)
    assert aki.locator("#bar #unsent").count() == 0
    assert server_pile(app).split() == pile[:5]
    aki.context.close()


def test_a_tap_not_sent_yet_is_marked_on_its_card_and_its_choice_light_and_dark(browser, live, tmp_path):
    """Cards and choices in the outbox (not yet acknowledged) are drawn with a dashed outline and a
    small clock (they looked exactly like the sent ones); the mark goes once the server has them."""
    app, a, aki = aki_at_the_pile(browser, live)
    ben = phone(browser, f"{live[0]}/t/{app.state.tokens.table}", "dark")
    as_player(ben, "Ben")
    mine = a["pile:Aki"].split()
    for code in mine[:2]:
        tap(aki, "pile-grid", code)
    settle(aki)
    for page, who in ((aki, "Aki"), (ben, "Ben")):
        page.context.set_offline(True)
        for code in a[f"pile:{who}"].split()[2:4]:
            tap(page, "pile-grid", code)
    ben.click("#ended-out")
    ben.wait_for_selector("#ended-out.unsent svg.clock")
    for page, who in ((aki, "Aki"), (ben, "Ben")):
        marked = page.locator("#pile-grid button.unsent")
        assert sorted(marked.evaluate_all("bs => bs.map((b) => b.dataset.code)")) == sorted(a[f"pile:{who}"].split()[2:4])
        assert marked.evaluate_all("bs => bs.every((b) => b.querySelector('svg.clock') && getComputedStyle(b).borderTopStyle === 'dashed')")
    assert aki.locator("#pile-grid button.on:not(.unsent)").count() == 2  # the sent ones: not marked
    for page, scheme in ((aki, "light"), (ben, "dark")):
        page.locator("#pile-grid button.unsent").first.evaluate("b => b.scrollIntoView({block: 'center'})")
        shot(page, tmp_path, f"10-not-sent-marked-{scheme}", whole=False)
    ben.locator("#ending").evaluate("b => b.scrollIntoView({block: 'center'})")
    shot(ben, tmp_path, "10-not-sent-choice-dark", whole=False)
    for page in (aki, ben):
        page.context.set_offline(False)
        page.wait_for_selector("body[data-unsent='0']")
        settle(page)
        assert page.locator(".unsent").count() == 0
        page.context.close()


def test_a_round_saved_is_said_in_the_bar_of_every_phone_with_its_result(browser, live, tmp_path):
    """Saved, the result went and the standings were off-screen: every phone (Ben's, offline as
    Aki saves, too) says in its bar that round 3 is saved, with each player's 文 of it and the way
    to the standings."""
    base, app = live
    a = answers_of(bundled_night()[2])
    aki, ben = (phone(browser, f"{base}/t/{app.state.tokens.table}", scheme) for scheme in ("light", "dark"))
    set_field(aki, a["field"])
    settle(aki)
    finish_round(a, save=False)
    aki.wait_for_selector("#bar #save")
    ben.wait_for_selector("#result")
    ben.context.set_offline(True)
    aki.click("#save")
    aki.wait_for_selector("#bar #saved")
    ben.context.set_offline(False)
    ben.wait_for_selector("#bar #saved")
    mon = app.state.table.state["history"][-1]["mon"]
    for page, scheme in ((aki, "light"), (ben, "dark")):
        said = page.locator("#bar #saved").inner_text()
        assert said.startswith("Round 3 saved") and all(f"{p} {m:+d}文".replace("+0", "0") in said for p, m in mon.items()), said
        assert wait_in_view(page, "#bar #saved")
        shot(page, tmp_path, f"11-round-saved-{scheme}", whole=False)
    ben.click("#to-standings")
    assert wait_in_view(ben, "#standings h2")
    ben.click("#saved-ok")
    ben.wait_for_selector("#bar #saved", state="detached")
    for page in (aki, ben):
        page.context.close()


#: three names of 30 letters and no space, in wide letters: nowhere to break a line
UNBROKEN = ["WOLFESCHLEGELSTEINHAUSENBERGER", "W" * 30, "Chrysanthemumblossomgardenview"]


@pytest.fixture
def live_unbroken(book_file):
    from typer.testing import CliRunner

    from scorekeeper.cli import app as cli_app
    from test_serve_browser import serving

    result = CliRunner().invoke(cli_app, ["new-session", *UNBROKEN])
    assert result.exit_code == 0, result.output
    yield from serving()


def fits_the_phone(page, step: str) -> None:
    """Nothing wider than the screen, and the bar's every button on it."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], step
    for i in range(page.locator("#bar button").count()):
        box = page.locator("#bar button").nth(i).bounding_box()
        assert box is None or (box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]), (step, box)


def test_names_of_thirty_letters_without_a_space_keep_every_step_on_a_phone(browser, live_unbroken, tmp_path):
    """Each player's phone through a round, each step no wider than the screen, the bar on it."""
    base, app = live_unbroken
    to = dict(zip(["Aki", "Ben", "Chie"], UNBROKEN))
    a = {(f"{k.split(':')[0]}:{to[k.split(':')[1]]}" if ":" in k else k): to.get(v, v)
         for k, v in answers_of(bundled_night()[2]).items()}
    pages = [phone(browser, f"{base}/t/{app.state.tokens.table}") for _ in UNBROKEN]
    page = pages[0]
    fits_the_phone(page, "standings")
    set_field(page, a["field"])
    for p, who in zip(pages, UNBROKEN):
        p.wait_for_selector("#who")
        fits_the_phone(p, "who")
        p.click(f"#who button[data-player='{who}']")
        fits_the_phone(p, "hand")
        p.click("#hand-none")
        settle(p)
        p.wait_for_selector("#pile-grid")
        fits_the_phone(p, f"pile of {who}")
    page.click("#ended-out")
    settle(page)
    page.click("#sage-none")
    settle(page)
    for p, who in zip(pages, UNBROKEN):
        for code in a[f"pile:{who}"].split():
            tap(p, "pile-grid", code)
        settle(p)
        fits_the_phone(p, f"pile of {who} typed")
        p.click("#pile-done")
        settle(p)
    page.wait_for_selector("#bar #save")
    fits_the_phone(page, "save")
    shot(page, tmp_path, "7-unbroken-names-save")
    page.click("#bar #save")
    settle(page)
    fits_the_phone(page, "saved")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / "7-unbroken-names-saved.png"))  # the screen as the phone shows it
    viewer = phone(browser, f"{base}/v/{app.state.tokens.view}")
    fits_the_phone(viewer, "viewer")
    for p in [*pages, viewer]:
        p.context.close()


def three_phones_to_the_ending(browser, base, app, field, first):
    """Aki's, Ben's and Chie's phones, each its player's: ``first`` sets the field, each says no
    手役, and ``first`` says nobody called 下げ."""
    pages = {who: phone(browser, f"{base}/t/{app.state.tokens.table}") for who in ("Aki", "Ben", "Chie")}
    set_field(pages[first], field)
    for who, p in pages.items():
        p.wait_for_selector("#who")
        p.click(f"#who button[data-player='{who}']")
        p.click("#hand-none")
        settle(p)
    pages[first].click("#sage-none")
    settle(pages[first])
    return pages


def finish_pile(page, codes):
    """The phone's player taps each card of their pile (``codes``, as typed) and says it is complete."""
    for code in codes.split():
        tap(page, "pile-grid", code)
    settle(page)
    page.click("#pile-done")
    settle(page)


def saved_money(app):
    """Each player's 文 in the round the phones saved last."""
    return dict(app.state.table.state["history"][-1]["mon"])


def money_of(data):
    """Each player's 文 in the round file ``data``, scored on its own."""
    from scorekeeper.scoring import score_dict

    result = score_dict(data)
    return {p: result.players[p].mon for p in data["players"]}


@pytest.fixture
def live_before_a_stop(book_file):
    """A live server over the bundled night's first 7 rounds: round 8 is Chie's stop (赤短 …)."""
    from test_serve_browser import serving

    new_night(book_file, rounds=7)
    yield from serving()


def chie_stops(browser, base, app):
    """Round 8 of the bundled night on three phones, up to Chie saying she stopped (赤短 …):
    (its round file, its answers, the phones by player)."""
    data = bundled_night()[7]
    a = answers_of(data)
    pages = three_phones_to_the_ending(browser, base, app, a["field"], "Chie")
    pages["Chie"].click("button[data-ended='Chie']")
    settle(pages["Chie"])
    return data, a, pages


def test_a_stop_round_on_the_phones_asks_only_the_stopper_s_pile(browser, live_before_a_stop, tmp_path):
    """Issue 26 on the phones: in a round ended by a 出来役 the money needs only the stopper's pile,
    so only Chie's phone is asked for cards; Aki's and Ben's say theirs is not asked. The round
    saves with the money of the round file, as the terminal saves it."""
    base, app = live_before_a_stop
    data, a, pages = chie_stops(browser, base, app)
    chie = pages["Chie"]
    for who in ("Aki", "Ben"):
        pages[who].wait_for_selector("#pile-unasked")  # told, not asked
        assert pages[who].locator("#pile-grid").count() == 0
    finish_pile(chie, a["pile:Chie"])
    chie.wait_for_selector("#bar #save")
    points = [chie.locator("#result tr", has_text=who).locator("td").nth(2).inner_text() for who in ("Aki", "Ben")]
    assert points == ["–", "–"]  # a pile not asked shows no points, not 0
    shot(chie, tmp_path, "12-stop-round-save")
    chie.click("#bar #save")
    chie.wait_for_selector("#bar #saved")
    assert saved_money(app) == money_of({**data, "hands": {}, "teyaku": {}})  # no 手役 tapped here
    for p in pages.values():
        p.context.close()


def test_a_pile_given_by_its_counted_points_on_a_phone(browser, live, tmp_path):
    """Issue 26 on the phones: Aki counts his pile (no card tapped), Ben and Chie tap theirs;
    素十六's kasu count is asked of Aki alone, once the piles are in (fewer than 16). The round
    saves with the money of the cards, and is marked as counted."""
    from scorekeeper.cards import points
    from scorekeeper.notation import parse_cards

    base, app = live
    data = bundled_night()[2]
    a = answers_of(data)
    pages = three_phones_to_the_ending(browser, base, app, a["field"], "Aki")
    aki = pages["Aki"]
    aki.click("#ended-out")
    settle(aki)
    counted = points(parse_cards(data["captured"]["Aki"]))
    aki.fill("#pile-points", str(counted))
    aki.click("#pile-points-set")
    aki.wait_for_selector(f"#pile-box h3:has-text('{counted} points')")
    assert aki.locator("#pile-grid button.on").count() == 0  # not a card tapped
    aki.click("#pile-done")
    settle(aki)
    for who in ("Ben", "Chie"):
        finish_pile(pages[who], a[f"pile:{who}"])
    aki.wait_for_selector("#kasu-box")
    assert pages["Ben"].locator("#kasu-box").count() == 0  # asked of the counted pile's player
    shot(aki, tmp_path, "13-counted-pile-kasu")
    aki.click("#kasu-fewer")
    aki.wait_for_selector("#bar #save")
    aki.click("#bar #save")
    aki.wait_for_selector("#bar #saved")
    assert saved_money(app) == money_of(data)
    from scorekeeper.flows import Night

    stored = Night.open().session["rounds"][-1]["round"]
    assert stored["points"] == {"Aki": counted} and not stored["captured"].get("Aki")
    for p in pages.values():
        p.context.close()


@pytest.fixture
def live_before_a_sage(book_file):
    """A live server over the bundled night's first 4 rounds: round 5 is Aki's 下げ, played out."""
    from test_serve_browser import serving

    new_night(book_file, rounds=4)
    yield from serving()


def test_a_field_by_its_lights_and_a_sage_round_played_out_ask_what_pays(browser, live_before_a_sage, tmp_path):
    """Issue 26 on the phones: the field set by its 光 alone (none: 小場), and a round played out
    after Aki's 下げ asks Aki's pile only (its 出来役 are halved; no card points count). The round
    saves with the money of the whole round file, marked as given so."""
    base, app = live_before_a_sage
    data = bundled_night()[4]
    a = answers_of(data)
    pages = {who: phone(browser, f"{base}/t/{app.state.tokens.table}") for who in ("Aki", "Ben", "Chie")}
    ben = pages["Ben"]
    tap(ben, "field-grid", "2k")  # a card that is not a 光: "only these 光" can't be pressed
    ben.wait_for_selector("#set-field-lights[disabled]")  # drawn in the frame after the tap, not at once
    assert ben.locator("#set-field-lights").is_disabled()
    shot(ben, tmp_path, "14-field-lights-disabled")
    ben.locator("#field-grid button[data-code='2k'].on").first.click()  # tapped again: off
    ben.wait_for_selector("#set-field-lights:not([disabled])")
    ben.click("#set-field-lights")
    settle(ben)
    ben.wait_for_selector("#field-chosen")
    assert ben.locator("#field-chosen").inner_text() == "no 光 (its cards not typed)"
    assert "小場" in ben.locator("#stand").inner_text()
    for who, p in pages.items():
        p.wait_for_selector("#who")
        p.click(f"#who button[data-player='{who}']")
        p.click("#hand-none")
        settle(p)
    aki = pages["Aki"]
    aki.click("button[data-sage='Aki']")
    settle(aki)
    aki.click("#ended-out")
    settle(aki)
    for who in ("Ben", "Chie"):
        pages[who].wait_for_selector("#pile-unasked")
        assert pages[who].locator("#pile-grid").count() == 0
    finish_pile(aki, a["pile:Aki"])
    aki.wait_for_selector("#bar #save")
    shot(aki, tmp_path, "14-lights-sage-save")
    aki.click("#bar #save")
    aki.wait_for_selector("#bar #saved")
    assert saved_money(app) == money_of(data)
    from scorekeeper.flows import Night

    stored = Night.open().session["rounds"][-1]["round"]
    assert stored["field"] == [] and stored["field_given"] == "lights"
    assert stored["unasked"] == ["Ben", "Chie"]
    for p in pages.values():
        p.context.close()


def test_the_stopper_names_the_dekiyaku_on_a_phone_rather_than_tapping_the_pile(browser, live_before_a_stop, tmp_path):
    """Issue 26 on the phones: the stopper's pile may be given by its 出来役's names, as at the
    terminal: one tap on 赤短, not a tap for each captured card. A second tap takes it back."""
    base, app = live_before_a_stop
    data, _, pages = chie_stops(browser, base, app)  # Chie stops with 赤短
    chie = pages["Chie"]
    chie.click("#pile-choices button[data-yaku='青短']")
    settle(chie)
    chie.wait_for_selector("#pile-box h3:has-text('出来役 by name: 青短')")
    chie.click("#pile-choices button[data-yaku='青短']")  # taken back: nothing named
    settle(chie)
    chie.wait_for_selector("#pile-choices button[data-yaku='青短'][aria-pressed='false']")
    chie.click("#pile-choices button[data-yaku='赤短']")
    settle(chie)
    chie.wait_for_selector("#pile-box h3:has-text('出来役 by name: 赤短')")
    assert chie.locator("#pile-choices button[aria-pressed='true']").all_inner_texts() == ["赤短"]
    assert chie.locator("#pile-points").count() == 0  # its 出来役 pay, not its points: no count offered
    shot(chie, tmp_path, "15-stopper-names-the-dekiyaku", whole=False)
    chie.click("#pile-done")
    settle(chie)
    chie.wait_for_selector("#bar #save")
    chie.click("#bar #save")
    chie.wait_for_selector("#bar #saved")
    assert saved_money(app) == money_of({**data, "hands": {}, "teyaku": {}})  # no 手役 tapped here
    from scorekeeper.flows import Night

    stored = Night.open().session["rounds"][-1]["round"]
    assert stored["dekiyaku"] == {"Chie": "赤短"} and stored["unasked"] == ["Aki", "Ben"]
    for p in pages.values():
        p.context.close()


def test_two_names_tapped_offline_are_both_kept(browser, live_before_a_stop, tmp_path):
    """A set answered by toggles (the stopper's 出来役 by name; several 下げ callers) is worked out
    from the phone's own taps not sent yet: 赤短 then 青短 tapped without the network both
    arrive, where the second tap, worked out from the server's answer, would have dropped the first."""
    base, app = live_before_a_stop
    data, a, pages = chie_stops(browser, base, app)
    chie = pages["Chie"]
    chie.context.set_offline(True)
    chie.click("#pile-choices button[data-yaku='赤短']")
    chie.click("#pile-choices button[data-yaku='青短']")
    drawn(chie)
    pressed = chie.locator("#pile-choices button[aria-pressed='true']").all_inner_texts()
    assert sorted(pressed) == ["赤短", "青短"]
    assert chie.locator("body").get_attribute("data-taps") == "2"
    chie.context.set_offline(False)
    chie.wait_for_selector("body[data-pending='0']")
    settle(chie)
    assert app.state.table.state["round"]["answers"]["pile:Chie"] == "赤短 青短"
    chie.click("#pile-choices button[data-yaku='青短']")  # taken back: 赤短 alone, as dealt
    settle(chie)
    assert app.state.table.state["round"]["answers"]["pile:Chie"] == "赤短"
    for p in pages.values():
        p.context.close()


def test_an_answer_the_terminal_replaced_is_shown_on_the_phone_until_its_player_chooses(browser, live, tmp_path):
    """Issue 31, point 3: Aki's phone taps two cards of Aki's pile; the terminal types the pile
    otherwise and keeps its own over the phone's (2 at its question): Aki's phone says so by the
    pile, with the answer it gave, and sends it again in one tap; "leave it" takes the line away."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft, writer_id

    app, a, page = aki_at_the_pile(browser, live)
    two = a["pile:Aki"].split()[:2]
    for code in two:
        tap(page, "pile-grid", code)
    wait_server(app, page, lambda s: s.get("pile:Aki") == " ".join(two), "the phone's cards")
    since = page.evaluate("S.version")
    RoundDraft.kept(Night.open()).answer("pile:Aki", "=90", by=writer_id(), overrule=True)  # the terminal's choice
    pushed(page, since)
    page.wait_for_selector("[data-overruled='pile:Aki'] >> text=replaced at the terminal by =90")
    shot(page, tmp_path, "31-overruled")
    page.click("[data-overruled='pile:Aki'] [data-again]")
    wait_server(app, page, lambda s: s.get("pile:Aki") == " ".join(two), "sent again")
    page.wait_for_selector("[data-overruled]", state="detached")
