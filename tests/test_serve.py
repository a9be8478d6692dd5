"""`hachi-score serve`: the server through Starlette's TestClient (and one live uvicorn on loopback).

Every endpoint; every bad token, cookie, CSRF header, Origin, Host and oversize body is refused and
changes nothing; a bad card gets the terminal's own one line; three phones enter a round at once;
a round saved at the terminal (Book.add_round) reaches the stream, and a page taking the night in
parts (``?patch=1``) is sent what each push changed; the draft is the terminal's.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from scorekeeper.cli import app as cli_app  # noqa: E402
from scorekeeper.drafts import Drafts  # noqa: E402
from scorekeeper.store import Book  # noqa: E402

from helpers import HANG, add_round, eventually  # noqa: E402
from serve_helpers import PLAYERS, answers_of, as_table, bundled_night, make_app, new_night, writer_headers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ROUND1 = bundled_night()[0]


@pytest.fixture
def night(book_file):
    return new_night(book_file, rounds=2)


@pytest.fixture
def served(night):
    app = make_app()
    with TestClient(app) as client:
        yield app, as_table(client, app)


def post(client, app, path, body, **headers):
    return client.post(path, content=json.dumps(body), headers={**writer_headers(app), "Content-Type": "application/json", **headers})


def draft_answers(book_file, sid):
    draft, _ = Drafts(book_file).load(sid)
    return None if draft is None else draft.answers


def wait_state(client, ok):
    """The pushed state once ``ok`` holds (the watcher looks at the files ~4×/s)."""
    def state():
        got = client.get("/api/state").json()
        return got if ok(got) else None

    return eventually(state, "pushed state that fits")


def enter(client, app, answers, keys=None):
    for key in keys or answers:
        r = post(client, app, "/api/answer", {"key": key, "text": answers[key]})
        assert r.status_code == 200, (key, r.text)
    return r.json()


def complete(client, app, players):
    """Each player says their pile is complete (a tap never does)."""
    for p in players:
        r = post(client, app, "/api/done", {"player": p, "done": True})
        assert r.status_code == 200, (p, r.text)
    return r.json()


def step_of(round_view, key):
    return next(s for s in round_view["steps"] if s["key"] == key)


# -- the imports stay lazy ----------------------------------------------------------------------------

def test_other_commands_never_import_the_web_stack(tmp_path):
    code = ("import sys\nfrom scorekeeper import cli\nsys.argv = ['hachi-score', 'cards']\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in ('starlette', 'uvicorn', 'segno', 'ifaddr', 'scorekeeper.web.app') if m in sys.modules]\n"
            "sys.stderr.write(repr(bad))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stderr.strip().endswith("[]"), out.stderr


# -- tokens and cookies ---------------------------------------------------------------------------------

def test_table_link_swaps_its_token_for_a_strict_httponly_cookie(night):
    app = make_app()
    with TestClient(app) as c:
        r = c.get(f"/t/{app.state.tokens.table}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/"
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
        assert app.state.tokens.table not in cookie  # the link's token is not the cookie
        page = c.get("/")
        assert page.status_code == 200
        assert f'content="{app.state.tokens.csrf}"' in page.text and 'content="table"' in page.text


def test_view_link_shows_but_never_writes(night, book_file):
    book, sid = night
    app = make_app()
    with TestClient(app) as c:
        assert c.get(f"/v/{app.state.tokens.view}", follow_redirects=False).status_code == 303
        page = c.get("/")
        assert 'content="view"' in page.text and app.state.tokens.csrf not in page.text
        assert c.get("/api/state").json()["session"]["rounds"] == 2
        for path, body in (("/api/answer", {"key": "field", "text": " ".join(ROUND1["field"])}),
                           ("/api/done", {"player": "Aki"}), ("/api/save", {"revision": 0}), ("/api/discard", {})):
            r = post(c, app, path, body)
            assert r.status_code == 403 and "view-only" in r.json()["error"]
    assert draft_answers(book_file, sid) is None and Book.open(book_file).session(sid)["rounds"].__len__() == 2


@pytest.mark.parametrize("path", ["/t/nope", "/v/nope", "/t/", "/v/" + "A" * 22])
def test_bad_tokens_are_refused(night, path):
    app = make_app()
    with TestClient(app) as c:
        r = c.get(path, follow_redirects=False)
        assert r.status_code in (403, 404)
        assert "set-cookie" not in r.headers


@pytest.mark.parametrize("cookie", [None, "forged", "x" * 22])
def test_pages_and_api_need_a_good_cookie(night, cookie):
    app = make_app()
    with TestClient(app) as c:
        if cookie:
            c.cookies.set("hachi", cookie)
        for path in ("/", "/api/state", "/api/events?limit=1"):
            assert c.get(path).status_code == 403
        assert post(c, app, "/api/answer", {"key": "field", "text": "1h"}).status_code == 403


def test_the_table_token_is_not_a_cookie_and_the_view_cookie_is_not_the_table_token(night):
    app = make_app()
    with TestClient(app) as viewer, TestClient(app) as c:
        assert viewer.get(f"/v/{app.state.tokens.view}", follow_redirects=False).status_code == 303
        c.cookies.set("hachi", app.state.tokens.table)
        assert c.get("/").status_code == 403
        c.cookies.set("hachi", viewer.cookies["hachi"])
        r = post(c, app, "/api/answer", {"key": "field", "text": "1h"})
        assert r.status_code == 403 and "view-only" in r.json()["error"]


def test_wrong_links_lock_a_client_out_for_minutes_not_for_good_and_never_from_the_right_link(night):
    from scorekeeper.web.security import RateLimit

    now = [1000.0]
    limiter = RateLimit(limit=5, window=60, lock=300, clock=lambda: now[0])
    app = make_app(limiter=limiter)
    with TestClient(app) as c:
        for _ in range(5):
            assert c.get("/t/guess", follow_redirects=False).status_code == 403
        locked = c.get("/t/guess", follow_redirects=False)
        assert locked.status_code == 429 and "wait" in locked.json()["error"]
        assert c.get(f"/t/{app.state.tokens.table}", follow_redirects=False).status_code == 303  # the right link gets in
        assert c.get("/api/state").status_code == 200  # and its cookie works, the client locked all along
        now[0] += 299
        assert c.get("/t/guess", follow_redirects=False).status_code == 429
        now[0] += 2
        assert c.get("/t/guess", follow_redirects=False).status_code == 403


# -- CSRF, Origin, Host, CORS, CSP, body size ----------------------------------------------------------

@pytest.mark.parametrize("headers,why", [
    ({"X-Hachi-CSRF": ""}, "CSRF"),
    ({"X-Hachi-CSRF": "wrong"}, "CSRF"),
    ({"Origin": "http://evil.example"}, "another site"),
    ({"Origin": "null"}, "opaque"),
    ({"Origin": "http://testserver:9999"}, "another site"),
    ({"Sec-Fetch-Site": "cross-site"}, "cross-site"),
    ({"Sec-Fetch-Site": "same-site"}, "same-site"),
])
def test_writes_need_the_csrf_header_and_the_same_origin(served, book_file, night, headers, why):
    app, c = served
    r = post(c, app, "/api/answer", {"key": "field", "text": " ".join(ROUND1["field"])}, **headers)
    assert r.status_code == 403 and why in r.json()["error"]
    assert draft_answers(book_file, night[1]) is None


def test_a_write_with_neither_origin_nor_sec_fetch_site_is_refused(served):
    app, c = served
    r = c.post("/api/answer", json={"key": "field", "text": "1h"}, headers={"X-Hachi-CSRF": app.state.tokens.csrf})
    assert r.status_code == 403 and "Origin" in r.json()["error"]
    r = c.post("/api/answer", json={"key": "field", "text": " ".join(ROUND1["field"])},
               headers={"X-Hachi-CSRF": app.state.tokens.csrf, "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "192.0.2.7", "testserver.evil.example", ""])
def test_hosts_outside_the_allow_list_are_refused(night, host):
    app = make_app()
    with TestClient(app) as c:
        r = c.get(f"/t/{app.state.tokens.table}", headers={"Host": host}, follow_redirects=False)
        assert r.status_code == 421 and "set-cookie" not in r.headers


@pytest.mark.parametrize("host", ["localhost:8888", "127.0.0.1", "[::1]:8888", "testserver"])
def test_the_bound_address_and_localhost_are_answered(night, host):
    app = make_app()
    with TestClient(app) as c:
        assert c.get(f"/t/{app.state.tokens.table}", headers={"Host": host}, follow_redirects=False).status_code == 303


def test_no_cors_headers_even_when_asked(served):
    app, c = served
    for r in (c.get("/api/state", headers={"Origin": "http://evil.example"}),
              c.options("/api/answer", headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}),
              post(c, app, "/api/answer", {"key": "field", "text": "1h"})):
        assert not [h for h in r.headers if h.lower().startswith("access-control-")]


def test_every_response_has_the_local_only_csp_and_the_page_no_inline_script(served):
    app, c = served
    page = c.get("/")
    for r in (page, c.get("/static/app.js"), c.get("/api/state"), c.get("/t/bad")):
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in page.text and 'src="/static/app.js"' in page.text
    assert "http://" not in page.text and "https://" not in page.text  # no CDN
    assert c.get("/static/style.css").headers["content-type"].startswith("text/css")
    assert c.get("/static/icon.svg").status_code == 200
    assert c.get("/static/../app.py").status_code == 404
    assert c.get("/static/nope.js").status_code == 404


def test_bodies_over_16_kib_are_refused(served, book_file, night):
    app, c = served
    big = {"key": "field", "text": "1h " * 6000}
    r = post(c, app, "/api/answer", big)
    assert r.status_code == 413 and "16 KiB" in r.json()["error"]

    def chunks():
        yield b'{"key": "field", "text": "'
        for _ in range(20):
            yield b"1h " * 400
        yield b'"}'

    r = c.post("/api/answer", content=chunks(), headers=writer_headers(app))  # no Content-Length: counted
    assert r.status_code == 413
    assert post(c, app, "/api/answer", {"key": "field", "text": "1h " * 1000}).status_code == 413  # answer cap
    assert draft_answers(book_file, night[1]) is None


@pytest.mark.parametrize("body,status", [
    ("not json", 400), ("[1, 2]", 400), ('{"key": 3, "text": "1h"}', 400), ('{"key": "nope", "text": "1h"}', 400),
    ('{"key": "pile:Zed", "text": "1h"}', 400), ('{"player": 3}', 400),
])
def test_malformed_writes_are_4xx(served, body, status):
    app, c = served
    path = "/api/done" if "player" in body else "/api/answer"
    r = c.post(path, content=body, headers=writer_headers(app))
    assert r.status_code == status and r.json()["error"]


# -- answers, the validator, saving ----------------------------------------------------------------------

def terminal_says(book_file, answers_before, line) -> str:
    """What `hachi-score round` prints for ``line`` typed after ``answers_before`` (its ✗ line)."""
    other = book_file.parent.parent / "terminal" / "book.json"
    new_night(other, rounds=2)
    typed = "\n".join([*answers_before, line]) + "\n"
    result = CliRunner().invoke(cli_app, ["round", "--db", str(other)], input=typed)
    marks = [ln for ln in result.output.splitlines() if "✗" in ln]
    assert marks, result.output
    return marks[0].split("✗", 1)[1].strip()


def test_a_bad_card_gets_the_terminals_line_and_nothing_is_kept(served, night, book_file):
    app, c = served
    book, sid = night
    rnd = bundled_night()[2]
    a = answers_of({**rnd, "dealer": c.get("/api/state").json()["session"]["dealer"]})
    enter(c, app, a, ["field"])
    r = post(c, app, "/api/answer", {"key": "field", "text": "1h 2h 3h 4h 5h 6h"})
    assert r.status_code == 422
    expected = terminal_says(book_file, [a["dealer"]], "1h 2h 3h 4h 5h 6h")
    assert r.json()["error"] == expected
    assert draft_answers(book_file, sid)["field"] == a["field"]  # the good answer stays, the bad one never lands
    before = len(Book.open(book_file).session(sid)["rounds"])
    r = post(c, app, "/api/answer", {"key": f"pile:{PLAYERS[0]}", "text": "1h 1k 2h"})
    assert r.status_code == 422 and "'2h' is not a card" in r.json()["error"]
    assert r.json()["problem"]["token"] == "2h"
    assert f"pile:{PLAYERS[0]}" not in draft_answers(book_file, sid)
    assert len(Book.open(book_file).session(sid)["rounds"]) == before


def test_a_card_in_two_piles_is_marked_on_the_second_tap(served):
    app, c = served
    state = c.get("/api/state").json()
    field = answers_of(ROUND1)["field"]
    enter(c, app, {"field": field})
    first, second = state["round"]["order"][:2]
    assert post(c, app, "/api/answer", {"key": f"pile:{first}", "text": "1h"}).status_code == 200  # odd: waits
    r = post(c, app, "/api/answer", {"key": f"pile:{second}", "text": "1h"})
    assert r.status_code == 422 and r.json()["problem"]["card"] == "1h" and "deck has 1" in r.json()["error"]
    odd = step_of(c.get("/api/state").json()["round"], f"pile:{first}")["problem"]
    assert odd["code"] == "odd" and odd["soft"]  # shown once that player is done
    done = complete(c, app, [first])["round"]
    assert step_of(done, f"pile:{first}")["problem"]["code"] == "odd" and not step_of(done, f"pile:{first}")["problem"]["soft"]


def test_a_whole_round_is_shown_then_saved_once_confirmed(served, night, book_file):
    app, c = served
    book, sid = night
    state = c.get("/api/state").json()
    rnd = bundled_night()[2]
    assert rnd["dealer"] == state["session"]["dealer"]
    typed = enter(c, app, answers_of(rnd))
    assert not typed["round"]["complete"]  # every pile typed, none said complete yet
    final = complete(c, app, PLAYERS)
    assert final["round"]["complete"] and final["round"]["result"]["players"]
    assert post(c, app, "/api/save", {"revision": final["round"]["revision"] - 1}).status_code == 409
    assert post(c, app, "/api/save", {"revision": "1"}).status_code == 400
    r = post(c, app, "/api/save", {"revision": final["round"]["revision"]})
    assert r.status_code == 200 and r.json()["saved"] == 3
    stored = Book.open(book_file).session(sid)["rounds"]
    assert len(stored) == 3
    from scorekeeper.flows import Night

    expected = Night.open(None, sid).results[2].to_json()
    assert r.json()["state"]["history"][-1]["mon"] == {p: expected["players"][p]["mon"] for p in PLAYERS}
    assert draft_answers(book_file, sid) is None  # the draft goes with the save
    again = post(c, app, "/api/save", {"revision": r.json()["state"]["round"]["revision"]})
    assert again.status_code == 422 and "not complete" in again.json()["error"]


def test_the_phones_follow_the_current_session_made_or_chosen_at_the_terminal(served, night, book_file):
    app, c = served
    book, first = night
    enter(c, app, {"field": answers_of(ROUND1)["field"]})
    post(c, app, "/api/done", {"player": "Ben", "done": True})
    notices: list[str] = []
    app.state.table.notice = notices.append
    second = Book.open(book_file).new_session(["Dai", "Emi", "Fumi"], name="Saturday")
    state = wait_state(c, lambda s: s["session"]["session"] == second)
    assert state["session"]["players"] == ["Dai", "Emi", "Fumi"] and state["session"]["rounds"] == 0
    assert state["round"]["answers"] == {} and state["round"]["done"] == []  # nothing of the other night
    assert step_of(state["round"], "dealer")["value"] == "Dai"
    assert notices and second in notices[0] and "Saturday" in notices[0]
    r = post(c, app, "/api/answer", {"key": "pile:Aki", "text": "1h 1k"})
    assert r.status_code == 400 and "not a question" in r.json()["error"]  # Aki is not at this table
    assert draft_answers(book_file, first)["field"] == answers_of(ROUND1)["field"]  # the first night's draft stays
    Book.open(book_file).use(first)
    state = wait_state(c, lambda s: s["session"]["session"] == first)
    assert state["session"]["players"] == PLAYERS and state["session"]["rounds"] == 2
    assert state["round"]["answers"]["field"] == answers_of(ROUND1)["field"]  # and is shown again


def test_done_and_discard(served, night, book_file):
    app, c = served
    enter(c, app, {"field": answers_of(ROUND1)["field"]})
    r = post(c, app, "/api/done", {"player": "Ben", "done": True, "empty": True})
    assert r.status_code == 200 and r.json()["round"]["done"] == ["Ben"]
    assert post(c, app, "/api/done", {"player": "Zed"}).status_code == 400
    r = post(c, app, "/api/discard", {})
    assert r.status_code == 200 and r.json()["round"]["answers"] == {}
    assert draft_answers(book_file, night[1]) is None


def test_an_empty_pile_is_marked_complete_only_when_its_player_says_it_is_empty(served, night, book_file):
    """A pile holding no cards said complete by a tap alone moved all its points to the last
    pile (rest): refused with one line naming the player, nothing marked, unless the request says
    it is empty. A pile given by its count, rest or its 出来役's names is not empty."""
    app, c = served
    enter(c, app, {"field": answers_of(ROUND1)["field"]})
    for body in ({"player": "Ben"}, {"player": "Ben", "empty": "yes"}):
        r = post(c, app, "/api/done", {**body, "done": True})
        assert r.status_code == 422 and r.json()["key"] == "pile:Ben", r.text
        assert r.json()["error"].startswith("Ben's pile holds no cards") and "\n" not in r.json()["error"]
        assert "pile:Ben" not in draft_answers(book_file, night[1]) and c.get("/api/state").json()["round"]["done"] == []
    post(c, app, "/api/answer", {"key": "pile:Ben", "text": "1h"})
    post(c, app, "/api/answer", {"key": "pile:Ben", "text": ""})  # its one card taken off again
    assert post(c, app, "/api/done", {"player": "Ben"}).status_code == 422
    r = post(c, app, "/api/done", {"player": "Ben", "empty": True})
    assert r.status_code == 200 and r.json()["round"]["done"] == ["Ben"]
    assert post(c, app, "/api/done", {"player": "Ben", "done": False}).status_code == 200  # reopened: no question
    assert post(c, app, "/api/answer", {"key": "pile:Aki", "text": "=88"}).status_code == 200
    r = post(c, app, "/api/done", {"player": "Aki"})  # given by its count: not empty
    assert r.status_code == 200 and r.json()["round"]["done"] == ["Aki"]
    r = post(c, app, "/api/done", {"player": "Zed"})
    assert r.status_code == 400 and "not a question" in r.json()["error"]


def test_card_taps_from_two_phones_merge_and_the_whole_pile_answer_still_works(served, night, book_file):
    """A card tap adds or takes off one card (``card``, ``seen``: how many of it the phone saw,
    ``count``: how many once tapped): two phones tapping one pile interleaved lose none; the
    same card tapped on both is one; a pile given by its count is replaced only by a phone that
    saw it so. The whole pile's text (``text``, ``was``) is taken as before."""
    app, c = served
    other = as_table(TestClient(app), app)
    enter(c, app, {"field": answers_of(ROUND1)["field"]})
    a, b = ["1h", "1k", "3h", "4t"], ["8h", "9t", "11h", "12h"]
    for mine, theirs in zip(a, b):
        for client, code in ((c, mine), (other, theirs)):
            r = post(client, app, "/api/answer", {"key": "pile:Aki", "card": code, "seen": 0, "count": 1, "was": None})
            assert r.status_code == 200, r.text
    assert sorted(draft_answers(book_file, night[1])["pile:Aki"].split()) == sorted(a + b)
    r = post(other, app, "/api/answer", {"key": "pile:Aki", "card": "1h", "seen": 0, "count": 1})
    assert r.status_code == 200 and r.json()["round"]["answers"]["pile:Aki"].split().count("1h") == 1
    r = post(c, app, "/api/answer", {"key": "pile:Aki", "card": "1h", "seen": 1, "count": 0})
    assert r.status_code == 200 and "1h" not in r.json()["round"]["answers"]["pile:Aki"].split()
    assert post(c, app, "/api/answer", {"key": "pile:Aki", "text": "=88", "was": r.json()["round"]["answers"]["pile:Aki"]}).status_code == 200
    r = post(other, app, "/api/answer", {"key": "pile:Aki", "card": "2t", "seen": 0, "count": 1, "was": "1k 3h"})
    assert r.status_code == 409 and r.json()["key"] == "pile:Aki" and "another phone" in r.json()["error"]
    assert draft_answers(book_file, night[1])["pile:Aki"] == "=88"
    r = post(other, app, "/api/answer", {"key": "pile:Aki", "card": "2t", "seen": 0, "count": 1, "was": "=88"})
    assert r.status_code == 200 and draft_answers(book_file, night[1])["pile:Aki"] == "2t"
    assert post(c, app, "/api/answer", {"key": "pile:Aki", "text": "2t 2k", "was": "2t"}).status_code == 200
    assert post(c, app, "/api/answer", {"key": "pile:Aki", "text": "2t", "was": "2t"}).status_code == 409


@pytest.mark.parametrize("body", [
    {"key": "field", "card": "1h", "seen": 0, "count": 1}, {"key": "pile:Aki", "card": "1x", "seen": 0, "count": 1},
    {"key": "pile:Aki", "card": "1h", "seen": 0}, {"key": "pile:Aki", "card": "1h", "seen": 0, "count": 2},
    {"key": "pile:Aki", "card": "1h", "seen": "0", "count": 1}, {"key": "pile:Aki", "card": ["1h"], "seen": 0, "count": 1},
])
def test_a_malformed_card_tap_is_a_400_and_changes_nothing(served, night, book_file, body):
    app, c = served
    enter(c, app, {"field": answers_of(ROUND1)["field"]})
    r = post(c, app, "/api/answer", body)
    assert r.status_code == 400 and r.json()["error"], r.text
    assert "pile:Aki" not in draft_answers(book_file, night[1])


def test_taking_an_answer_back(served):
    app, c = served
    enter(c, app, {"field": answers_of(ROUND1)["field"]})
    r = post(c, app, "/api/answer", {"key": "field", "text": None})
    assert r.status_code == 200 and "field" not in r.json()["round"]["answers"]


def test_three_phones_enter_one_round_at_once(night, book_file):
    book, sid = night
    app = make_app()
    rnd = bundled_night()[2]
    a = answers_of(rnd)
    with TestClient(app) as c0:
        as_table(c0, app)
        enter(c0, app, a, ["dealer", "field", *[f"hand:{p}" for p in PLAYERS], "ended", "sage"])
        errors: list[str] = []

        def phone(player):
            c = TestClient(app)
            as_table(c, app)
            taps: list[str] = []
            for card in a[f"pile:{player}"].split():
                taps.append(card)
                r = post(c, app, "/api/answer", {"key": f"pile:{player}", "text": " ".join(taps)})
                if r.status_code != 200:
                    errors.append(f"{player} {card}: {r.status_code} {r.text}")
            post(c, app, "/api/done", {"player": player})

        threads = [threading.Thread(target=phone, args=(p,)) for p in PLAYERS]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors
        state = c0.get("/api/state").json()["round"]
        assert state["complete"] and sorted(state["done"]) == PLAYERS
        r = post(c0, app, "/api/save", {"revision": state["revision"]})
        assert r.status_code == 200
    stored = Book.open(book_file).session(sid)["rounds"]
    assert len(stored) == 3
    assert {p: sorted(v) for p, v in stored[2]["round"]["captured"].items()} == {p: sorted(v) for p, v in rnd["captured"].items()}


def test_a_terminal_save_reaches_the_stream(night, book_file):
    book, sid = night
    app = make_app()
    streamed = threading.Event()

    async def watched(scope, receive, send):  # the app, telling the test when the stream sent its first event
        async def send_(message):
            await send(message)
            if message["type"] == "http.response.body" and b"data:" in message.get("body", b""):
                streamed.set()
        await app(scope, receive, send_)

    with TestClient(watched) as c:
        as_table(c, app)

        def terminal():  # saves once the phone has the state before it
            assert streamed.wait(HANG)
            add_round(Book.open(book_file), sid, bundled_night()[2])

        t = threading.Thread(target=terminal)
        t.start()
        r = c.get("/api/events?limit=2")
        t.join(HANG)
        events = [json.loads(line[5:]) for line in r.text.splitlines() if line.startswith("data:")]
        assert [e["session"]["rounds"] for e in events] == [2, 3]
        assert r.headers["content-type"].startswith("text/event-stream")


def test_a_page_taking_the_night_in_parts_is_sent_it_whole_then_what_each_push_changed(night, book_file):
    book, sid = night
    app = make_app()
    sent = [threading.Event() for _ in range(3)]

    async def watched(scope, receive, send):  # the app, telling the test each event the stream sent
        async def send_(message):
            await send(message)
            if message["type"] == "http.response.body" and b"data:" in message.get("body", b""):
                next((e for e in sent if not e.is_set()), threading.Event()).set()
        await app(scope, receive, send_)

    with TestClient(watched) as c:
        as_table(c, app)

        def phones_and_terminal():  # a tap once the page has the night, a save at the terminal once it has the tap
            assert sent[0].wait(HANG)
            assert post(c, app, "/api/answer", {"key": "field", "text": " ".join(bundled_night()[2]["field"])}).status_code == 200
            assert sent[1].wait(HANG)
            add_round(Book.open(book_file), sid, bundled_night()[2])

        t = threading.Thread(target=phones_and_terminal)
        t.start()
        r = c.get("/api/events?patch=1&limit=3")
        t.join(HANG)
        kinds = [line.split(": ")[1] for line in r.text.splitlines() if line.startswith("event:")]
        whole, tap, saved = (json.loads(line[5:]) for line in r.text.splitlines() if line.startswith("data:"))
        assert kinds == ["state", "patch", "patch"]
        assert set(tap["set"]) == {"round"} and tap["base"] == whole["version"] and tap["drop"] == []  # a tap: the round
        assert {"session", "history", "chart", "round"} <= set(saved["set"]) and "deck" not in saved["set"]
        night_now = {**whole, **tap["set"], **saved["set"], "version": saved["version"]}
        assert night_now == c.get("/api/state").json() and night_now["session"]["rounds"] == 3
        assert saved["base"] == tap["version"]
        plain = c.get("/api/events?limit=1").text  # a stream not asking for parts: the night whole, as before
        assert plain.startswith("event: state\n") and json.loads(plain.splitlines()[1][5:]) == night_now


# -- the draft is the terminal's ------------------------------------------------------------------------

def test_a_round_begun_on_the_phones_is_finished_at_the_terminal(served, night, book_file):
    app, c = served
    book, sid = night
    rnd = bundled_night()[2]
    a = answers_of(rnd)
    seats = c.get("/api/state").json()["round"]["order"]
    enter(c, app, a, ["dealer", "field", *[f"hand:{p}" for p in seats], "ended", "sage", f"pile:{seats[0]}", f"pile:{seats[1]}"])
    complete(c, app, seats[:2])
    # `round`: resume (Enter), each kept answer is taken again, the last pile typed as rest, then yes
    result = CliRunner().invoke(cli_app, ["round"], input="\nrest\ny\n")
    assert result.exit_code == 0, result.output
    stored = Book.open(book_file).session(sid)["rounds"]
    assert len(stored) == 3 and sorted(stored[2]["round"]["captured"][seats[2]]) == sorted(rnd["captured"][seats[2]])
    state = wait_state(c, lambda s: s["session"]["rounds"] == 3)  # the watcher sees the terminal's save
    assert state["session"]["rounds"] == 3 and state["round"]["answers"] == {}


def test_a_round_begun_at_the_terminal_is_finished_on_the_phones(served, night, book_file):
    app, c = served
    book, sid = night
    rnd = bundled_night()[2]
    a = answers_of(rnd)
    seats = c.get("/api/state").json()["round"]["order"]
    typed = [a["dealer"], a["field"], *[a[f"hand:{p}"] for p in seats], a["ended"], a["sage"]]
    result = CliRunner().invoke(cli_app, ["round"], input="\n".join(typed) + "\n")  # then end of input
    assert result.exit_code != 0
    kept = draft_answers(book_file, sid)
    assert kept and "field" in kept, result.output
    assert kept["field"] == a["field"] and kept["sage"] == a["sage"]
    # the watcher may first push a draft the terminal was still writing: wait for its last one
    state = wait_state(c, lambda s: s["round"]["answers"] == kept)["round"]
    assert state["answers"]["field"] == a["field"] and state["missing"] == [f"pile:{p}" for p in seats]
    enter(c, app, a, [f"pile:{p}" for p in seats])
    final = complete(c, app, seats)
    assert post(c, app, "/api/save", {"revision": final["round"]["revision"]}).status_code == 200
    assert len(Book.open(book_file).session(sid)["rounds"]) == 3


def test_a_round_saved_elsewhere_meanwhile_is_not_saved_twice(served, night, book_file):
    app, c = served
    book, sid = night
    rnd = bundled_night()[2]
    enter(c, app, answers_of(rnd))
    final = complete(c, app, PLAYERS)
    add_round(Book.open(book_file), sid, rnd)  # the terminal saved the same round meanwhile
    r = post(c, app, "/api/save", {"revision": final["round"]["revision"]})
    assert r.status_code in (409, 422)
    assert len(Book.open(book_file).session(sid)["rounds"]) == 3


# -- the address, the QR code, the live server -----------------------------------------------------------

class FakeIP:
    def __init__(self, ip):
        self.ip = ip


class FakeAdapter:
    def __init__(self, *ips):
        self.ips = [FakeIP(ip) for ip in ips]


def test_the_lan_address_is_the_routed_one_cross_checked_with_the_interfaces():
    from scorekeeper.web.net import lan_addresses

    adapters = [FakeAdapter("127.0.0.1", ("::1", 0, 0)), FakeAdapter("10.8.0.2"), FakeAdapter("192.168.1.23", "169.254.3.3"),
                FakeAdapter("203.0.113.9")]
    assert lan_addresses(lambda: "192.168.1.23", adapters) == ["192.168.1.23", "10.8.0.2", "203.0.113.9"]
    # a route through an address no interface holds: the private interfaces first
    assert lan_addresses(lambda: "198.51.100.1", adapters)[:2] == ["10.8.0.2", "192.168.1.23"]
    assert lan_addresses(lambda: None, [FakeAdapter("127.0.0.1")]) == ["127.0.0.1"]


def test_the_udp_trick_sends_nothing_and_names_the_source_address():
    from scorekeeper.web.net import udp_guess

    assert udp_guess(("127.0.0.1", 9)) == "127.0.0.1"  # loopback only, in a test


def test_the_qr_code_is_drawn_in_explicit_black_and_white():
    from scorekeeper.web.net import qr_lines

    lines = qr_lines("http://192.168.1.23:8888/t/" + "A" * 22)
    assert len(lines) > 10 and all("\x1b[38;5;16m" in ln or "\x1b[38;5;231m" in ln for ln in lines)
    assert all("\x1b[48;5;231m" in ln for ln in lines[:1])  # the quiet zone is white
    assert all(ln.endswith("\x1b[0m") for ln in lines)


def test_a_live_server_stops_with_a_stream_open(night):
    import httpx

    from scorekeeper.web.serve import bind, make_server

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server, app = make_server(None, "127.0.0.1", sock)
    server.config.install_signal_handlers = False  # not the main thread
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    eventually(lambda: server.started, "server started")
    got: list[str] = []
    with httpx.Client(base_url=base, timeout=HANG, follow_redirects=True) as client:
        assert client.get(f"/t/{app.state.tokens.table}").status_code == 200  # follows to the page
        done = threading.Event()

        def listen():
            with client.stream("GET", "/api/events") as r:
                for line in r.iter_lines():
                    got.append(line)
            done.set()

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        eventually(lambda: any(line.startswith("data:") for line in got), "first event on the stream")
        server.should_exit = True
        thread.join(HANG)
        assert not thread.is_alive()
        assert done.wait(HANG) and "event: bye" in got


def test_serve_prints_the_links_and_stops_on_ctrl_c(night, book_file, tmp_path):
    import os
    import signal

    import httpx

    env = {**os.environ, "HACHI_SCORE_DB": str(book_file)}
    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = []
        while not any("view only" in ln for ln in lines):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line)
        table = next(ln.split()[-1] for ln in lines if "table (players)" in ln)
        assert table.startswith("http://127.0.0.1:") and "/t/" in table
        got: list[str] = []
        with httpx.Client(timeout=HANG, follow_redirects=True) as client:
            assert client.get(table).status_code == 200

            def listen():  # a phone holding the live stream through the Ctrl-C
                with client.stream("GET", table.split("/t/")[0] + "/api/events") as r:
                    got.extend(r.iter_lines())

            listener = threading.Thread(target=listen, daemon=True)
            listener.start()
            eventually(lambda: any(line.startswith("data:") for line in got), "first event on the stream")
            proc.send_signal(signal.SIGINT)  # the stream open
            proc.wait(HANG)
            listener.join(HANG)
        assert proc.returncode in (0, 1, -signal.SIGINT)
        assert any(line.startswith("data:") for line in got) and "event: bye" in got
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("with_field", [False, True])
def test_any_text_at_any_question_is_answered_or_refused_never_a_500(served, with_field):
    app, c = served
    if with_field:
        enter(c, app, {"field": answers_of(ROUND1)["field"]})
    keys = ["dealer", "field", "ended", "sage", "how", *[f"{k}:{p}" for k in ("hand", "pile") for p in PLAYERS]]
    for key in keys:
        for text in ("2h", "1h 2h", "???", "rest", "三本", "Zed", "", "-", "1h", "8*", "勝負", "cancel", "Aki Ben"):
            r = post(c, app, "/api/answer", {"key": key, "text": text})
            assert r.status_code in (200, 409, 422) or (r.status_code == 400 and not with_field), (key, text, r.status_code, r.text)
            if r.status_code == 422:
                assert r.json()["error"] and "\n" not in r.json()["error"]


def test_the_listening_socket_is_tcp_so_responses_are_not_held_by_nagle():
    import socket

    from scorekeeper.web.serve import bind

    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP  # asyncio sets TCP_NODELAY on what it accepts
    finally:
        sock.close()


def test_serve_prints_every_candidate_address(night, monkeypatch, capsys):
    import uvicorn

    from scorekeeper.web import net, serve

    monkeypatch.setattr(net, "lan_addresses", lambda *a, **k: ["127.0.0.1", "192.168.1.23"])
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # bound, not served
    serve.serve(None, None, 0)
    out = capsys.readouterr().out
    assert "table (players): http://127.0.0.1:" in out and "view only:       http://127.0.0.1:" in out
    assert "also reachable at http://192.168.1.23:" in out and "--host 192.168.1.23" in out


def test_serve_prints_the_same_links_each_time_and_new_ones_with_new_link(night, monkeypatch):
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # bound, not served

    def links(*options: str) -> tuple[list[str], str]:
        result = CliRunner().invoke(cli_app, ["serve", "--host", "127.0.0.1", "--port", "0", *options])
        assert result.exit_code == 0, result.output
        printed = [line.split()[-1].split(":", 2)[-1].split("/", 1)[-1] for line in result.output.splitlines()
                   if "table (players):" in line or "view only:" in line]
        return printed, result.output

    first, said = links()
    assert len(first) == 2 and "--new-link" in said  # the way to send everyone out, told
    assert links()[0] == first  # a restart: the same links, no phone scans again
    renewed, said = links("--new-link")
    assert renewed[0] != first[0] and renewed[1] != first[1] and "scan the new code" in said
    assert links()[0] == renewed


def test_the_ending_asks_cancel_only_where_the_profile_has_it(book_file):
    from scorekeeper.rules import profile

    book = Book.open(book_file)
    book.new_session(PLAYERS, name="trad", rules=profile("fudawiki"))
    app = make_app()
    with TestClient(app) as c:
        as_table(c, app)
        state = c.get("/api/state").json()
        assert "how" not in state["round"]["keys"]
        assert step_of(state["round"], "sage")["label"]["id"] == "q.sage.many"  # several may call 下げ
        enter(c, app, {"field": answers_of(ROUND1)["field"], "ended": "Aki", "sage": "Ben Aki"})
        r = c.get("/api/state").json()["round"]
        assert "how" in r["keys"] and "how" in r["missing"]  # Aki called 下げ and ended it: 勝負 or cancel?
        assert post(c, app, "/api/answer", {"key": "how", "text": "cancel"}).status_code == 200
        assert post(c, app, "/api/answer", {"key": "how", "text": "maybe"}).status_code == 422


def test_sdin_never_asks_cancel(served):
    app, c = served
    enter(c, app, {"field": answers_of(ROUND1)["field"], "ended": "Aki", "sage": "Aki"})
    assert "how" not in c.get("/api/state").json()["round"]["keys"]
    r = post(c, app, "/api/answer", {"key": "sage", "text": "Ben Aki"})
    assert r.status_code == 422 and "only one player may call 下げ" in r.json()["error"]


def test_every_page_asset_is_package_data():
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    root = Path(__file__).parent.parent
    globs = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]["scorekeeper.web"]
    static = root / "scorekeeper" / "web" / "static"
    for f in static.iterdir():
        assert any(fnmatch(f"static/{f.name}", g) for g in globs), f.name
    from scorekeeper.web.app import STATIC

    assert set(STATIC) | {"index.html"} == {f.name for f in static.iterdir()}


def test_another_dealer_is_an_answer_like_the_terminals(served, night, book_file):
    app, c = served
    state = c.get("/api/state").json()
    chain = state["session"]["dealer"]
    other = next(p for p in PLAYERS if p != chain)
    r = post(c, app, "/api/answer", {"key": "dealer", "text": other})
    assert r.status_code == 200 and r.json()["round"]["order"][0] == other
    assert draft_answers(book_file, night[1])["dealer"] == other
    r = post(c, app, "/api/answer", {"key": "dealer", "text": "Zed"})
    assert r.status_code == 422 and "'Zed' is not a player" in r.json()["error"]


def test_neither_the_server_nor_a_save_counts_the_odds(night):
    """A save writes the night's digest; the odds of each 手役 are the profile's, not the night's,
    so `stats` counts them, and neither the server's start nor a save waits for them (counting
    them made a night's first save ~90 ms slower than the rest, and the server's start hid it)."""
    from scorekeeper import stats
    from scorekeeper.web.serve import bind, make_server

    book, sid = night
    stats._odds_of.cache_clear()
    sock = bind("127.0.0.1", 0)
    try:
        make_server(None, "127.0.0.1", sock)
    finally:
        sock.close()
    add_round(book, sid, bundled_night()[2])
    assert book.digest(sid)["rounds"] == 3  # the save's digest, made without them
    assert stats._odds_of.cache_info().currsize == 0
