"""A kind of question the page has no script for is drawn in real headless Chromium with the
generic choice box its step's ``box`` names, and its tap answers it."""

from __future__ import annotations

from test_serve_browser import browser, live, phone, set_field, settle  # noqa: F401 (fixtures)
from test_steps import toy  # noqa: F401 (fixture: the Toy kind registered and asked after the ending)
from serve_helpers import answers_of, bundled_night


def test_a_new_kind_of_question_is_drawn_with_the_choice_box_and_answered_by_a_tap(browser, live, toy):
    base, app = live
    a = answers_of(bundled_night()[2])
    page = phone(browser, f"{base}/t/{app.state.tokens.table}")
    set_field(page, a["field"])
    page.click("#who button[data-player='Aki']")
    settle(page)
    assert page.locator("[data-step='toy']").count() == 0  # waiting on the ending: not drawn
    page.click("#ended-out")
    settle(page)
    box = page.locator("#choice-toy")
    box.wait_for()
    assert box.locator("h3").inner_text() == toy.title(None, {}, "toy", None).to_json()["text"]
    assert [b.get_attribute("data-choice") for b in box.locator("button").all()] == ["yes", "no"]
    box.locator("button[data-choice='yes']").click()
    settle(page)
    assert app.state.table.state["round"]["answers"].get("toy") == "yes"
    page.locator("#choice-toy button[data-choice='yes'].on").wait_for()  # drawn as the answer now
    page.context.close()
