"""The web page in each phone's language, in a real browser (Debian's chromium, 360 px): a phone
whose browser asks for Japanese (Accept-Language ja) sees the page in Japanese; the switch on the
page changes it to English and back at once, and the phone keeps the choice through a reload; a
refusal shown on a Japanese phone is Japanese, as its pages of a refusal are; two phones, one
Japanese and one English, see the one view the server sends, each worded in its language.

What the page words from the view model is checked against the catalog itself (each message's
template and arguments worded by :func:`lang.word` in that language), so that the page and the
terminal say a message the same way. The screenshots are written under the test's temp folder.
"""

from __future__ import annotations

import re

import pytest

from test_serve_browser import ARGS, PHONE, browser, live, set_field, settle, shot, tap  # noqa: F401 (fixtures)
from serve_helpers import PLAYERS, answers_of, bundled_night

from helpers import HANG
from scorekeeper import lang
from scorekeeper.lang import in_language

CARD = re.compile(r"\b\d{1,2}[hbtrk]\b")
#: ASCII words that are no sentence: names the table gave, the tool's and the switch's own, ids
NOT_WORDS = {"hachi", "score", "English", "sdin", "fudawiki", "Friday", *PLAYERS}


def phone_in(browser, url, locale, scheme="light"):
    """A phone whose browser speaks ``locale`` (its Accept-Language and navigator.language)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, color_scheme=scheme, is_mobile=True,
                                  has_touch=True, locale=locale)
    context.set_default_timeout(HANG * 1000)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return page


def worded(m, language):
    """A message of the view model (``{"t", "args"}``, its args messages or lists of them) worded
    in ``language`` as the catalogs word it: what the page must show for it."""
    def arg(v):
        if isinstance(v, dict) and "t" in v:
            return lang.word(v["t"], {k: arg(x) for k, x in (v.get("args") or {}).items()})
        if isinstance(v, list):
            return lang._(", ").join(str(arg(x)) for x in v)
        return v

    return in_language(language, arg, m)


def messages(value):
    """Every message (``{"t": …}``) in a view's JSON, and the lines kept as text beside their template."""
    if isinstance(value, dict):
        if isinstance(value.get("t"), str):
            yield value
        for v in value.values():
            yield from messages(v)
    elif isinstance(value, list):
        for v in value:
            yield from messages(v)


def english_words(text: str, state: dict) -> list[str]:
    """The English words of ``text`` (a Japanese page's) that are no name, card code or id: every
    message of the view model is in the Japanese catalog (tests/test_lang.py), so none is left."""
    allowed = set(NOT_WORDS) | {f"s{i}" for i in range(1, 10)}
    return [w for w in re.findall(r"[A-Za-z]{2,}", CARD.sub(" ", text)) if w not in allowed]


def test_a_japanese_phone_sees_the_page_in_japanese_and_the_switch_changes_it_and_survives_a_reload(browser, live, tmp_path):
    base, app = live
    page = phone_in(browser, f"{base}/t/{app.state.tokens.table}", "ja-JP")
    page.wait_for_selector("body[data-lang='ja']")
    assert page.evaluate("document.documentElement.lang") == "ja"
    text = page.locator("body").inner_text()
    for said in ("成績 · 2回", "プレイヤー", "第3回 · 親", "場札 6 枚をタップしてください（0/6）", "別の親？",
                 "成績の推移", "接続中", "日本語"):
        assert said in text, said
    assert english_words(text, app.state.table.state) == [], text
    assert page.locator("#bar button").inner_text() == "場札を決定"
    shot(page, tmp_path, "1-ja-360")
    page.screenshot(path=str(tmp_path / "1-ja-360-top.png"))  # the screen as the phone shows it
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing overflows the phone's width
    for button in page.locator("#round button:visible, #bar button, #lang button").all():  # Japanese fits the buttons
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), button.inner_text()

    page.click("#lang button[data-lang='en']")  # English, at once
    page.wait_for_selector("body[data-lang='en']")
    page.wait_for_selector("#standings h2:has-text('Standings · 2 rounds')")
    text = page.locator("body").inner_text()
    assert "tap the six cards (0/6), or only its 光; anyone at the table may" in text and "成績の推移" not in text
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()  # kept on the phone, whatever its browser asks for
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("body").get_attribute("data-lang") == "en"
    assert "Standings · 2 rounds" in page.locator("#standings h2").inner_text()
    shot(page, tmp_path, "2-en-after-reload")

    page.click("#lang button[data-lang='ja']")  # and back
    page.wait_for_selector("body[data-lang='ja']")
    page.wait_for_selector("#standings h2:has-text('成績 · 2回')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("body").get_attribute("data-lang") == "ja"
    assert page.locator("#lang button[data-lang='ja']").get_attribute("aria-pressed") == "true"
    page.context.close()


def test_an_english_phone_sees_english_and_a_phone_asking_for_neither_too(browser, live):
    base, app = live
    for locale in ("en-GB", "fr-FR"):
        page = phone_in(browser, f"{base}/t/{app.state.tokens.table}", locale)
        assert page.locator("body").get_attribute("data-lang") == "en"
        assert "Standings · 2 rounds" in page.locator("#standings h2").inner_text()
        page.context.close()


def test_a_refusal_on_a_japanese_phone_is_japanese_and_on_an_english_one_english(browser, live, tmp_path):
    base, app = live
    field = answers_of(bundled_night()[2])["field"].split()
    lines = {}
    for locale in ("ja-JP", "en-US"):
        page = phone_in(browser, f"{base}/t/{app.state.tokens.table}", locale)
        # a write whose CSRF header is not the page's (a stale page): refused, its one line shown
        page.route("**/api/answer", lambda route: route.continue_(
            headers={**route.request.headers, "x-hachi-csrf": "stale"}))
        set_field(page, field)
        page.wait_for_selector("#gone")
        lines[locale] = (page.locator("#gone").inner_text(), page.locator("#live").inner_text())
        if locale == "ja-JP":
            shot(page, tmp_path, "3-refused-ja")
        page.context.close()
    assert lines["ja-JP"] == ("X-Hachi-CSRF ヘッダーがないか、間違っています。ページを再読み込みしてください",) * 2
    assert lines["en-US"] == ("missing or wrong X-Hachi-CSRF header: reload the page",) * 2
    assert app.state.table.state["round"]["answers"] == {}  # nothing kept


def test_a_page_of_a_refusal_is_in_the_phone_s_language_or_the_one_it_chose(browser, live):
    base, app = live
    page = phone_in(browser, f"{base}/t/{app.state.tokens.table}", "ja-JP")
    page.goto(f"{base}/t/not-the-table-s")  # a wrong link opened: a page of its one line
    page.wait_for_selector("#refused")
    assert page.locator("#refused").inner_text() == \
        "このリンクはこの卓のものではありません（または、もう使えません）。QR コードを読み取り直してください"
    assert page.evaluate("document.documentElement.lang") == "ja"
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#lang button[data-lang='en']")  # chosen on the page: its next refusal is English
    page.wait_for_selector("body[data-lang='en']")
    page.goto(f"{base}/t/not-the-table-s")
    page.wait_for_selector("#refused")
    assert page.locator("#refused").inner_text() == "this link is not (or no longer) the table's: scan the QR code again"
    page.context.close()


def test_two_phones_one_japanese_one_english_see_one_view_each_in_its_language(browser, live, tmp_path):
    base, app = live
    a = answers_of(bundled_night()[2])
    ja = phone_in(browser, f"{base}/t/{app.state.tokens.table}", "ja-JP")
    en = phone_in(browser, f"{base}/t/{app.state.tokens.table}", "en-US")
    set_field(ja, a["field"])
    for page, player in ((ja, "Aki"), (en, "Ben")):
        page.wait_for_selector("#who")
        page.click(f"#who button[data-player='{player}']")
        page.click("#hand-none")
        settle(page)
    version = str(app.state.table.version)
    for page in (ja, en):
        page.wait_for_selector(f"body[data-version='{version}']")  # the one view, on both
    state = app.state.table.state
    steps = {s["key"]: s for s in state["round"]["steps"]}
    for page, language in ((ja, "ja"), (en, "en")):
        chips = page.locator("#status li").all_inner_texts()
        shown = [s for s in state["round"]["steps"] if s["kind"] not in ("dealer", "seat", "how", "sage", "pile")]
        assert chips[:len(shown)] == [worded(s["said"], language) for s in shown]
        assert page.locator("#stand").inner_text() == worded(state["round"]["stand"]["line"], language)
        assert page.locator("#ending h3 + p.note, #ending p.note").first.inner_text() == \
            worded(steps["ended"]["title"], language)
        buttons = page.locator("#ending button[data-ended]").all_inner_texts()
        assert buttons == [worded(c["label"], language) for c in steps["ended"]["choices"] if c["player"]]
    assert ja.locator("#pile-box h3").inner_text() == f"{worded(steps['pile:Aki']['title'], 'ja')} · 0 枚"
    assert en.locator("#pile-box h3").inner_text() == f"{worded(steps['pile:Ben']['title'], 'en')} · 0 cards"
    assert ja.locator("#ending h3").inner_text() == "終わり方"
    assert en.locator("#ending h3").inner_text() == "How the round ended"
    assert "成績 · 2回" in ja.locator("#standings h2").inner_text()
    assert "Standings · 2 rounds" in en.locator("#standings h2").inner_text()
    assert english_words(ja.locator("body").inner_text(), state) == []
    shot(ja, tmp_path, "4-two-phones-ja")
    ja.locator("#round").screenshot(path=str(tmp_path / "4-round-ja.png"), timeout=HANG * 1000)
    en.locator("#round").screenshot(path=str(tmp_path / "4-round-en.png"), timeout=HANG * 1000)
    shot(en, tmp_path, "4-two-phones-en")
    ja.context.close()
    en.context.close()
