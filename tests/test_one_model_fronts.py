"""One round, one model: the behaviours the redesign changed, each on every front it concerns.

The terminal is fed its keystrokes (RoundEntry with a script, or `round` through CliRunner); the
phones are the server through Starlette's TestClient. Both draw the same question model, so each
behaviour reads the same on both.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from entry_lines import Script, console, printed  # noqa: E402
from fast_cli import FastRunner, checked_run, typed  # noqa: E402
from scorekeeper.cli import app as cli_app  # noqa: E402
from scorekeeper.entry import RoundEntry  # noqa: E402
from scorekeeper.rules import FUDAWIKI  # noqa: E402
from scorekeeper.scoring import NightState  # noqa: E402
from serve_helpers import as_table, make_app, new_night, writer_headers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
run = checked_run(FastRunner())
CALM = "1k 2k 3k 4k 5k 12k"  # no 光: ×1
ZEKKYO = "11h 2k 4r 6k 7t 9k"  # 柳に小野道風: 絶場 ×4
BRIGHT = ["1h", "11h", "2k", "4r", "6k", "7t"]  # 松に鶴 and 柳に小野道風: ×4, and ×2 joins the queue
INOSHIKACHO = "6t 6r 7t 7k 10t 10r"


def post(client, app, path, body):
    return client.post(path, content=json.dumps(body), headers={**writer_headers(app), "Content-Type": "application/json"})


def step(round_view, key):
    return next(s for s in round_view["steps"] if s["key"] == key)


@pytest.fixture
def phones(book_file):
    """The phones of a three-player night (sdin), two rounds in."""
    new_night(book_file, rounds=2)
    app = make_app()
    with TestClient(app) as client:
        yield app, as_table(client, app)


@pytest.fixture
def four_phones(book_file):
    """The phones of a night of four under fudawiki whose first round, a misdeal, left ×2 waiting."""
    run("new-session", "A", "B", "C", "D", "--rules", "fudawiki")
    run("round", "--file", "-", input=json.dumps({"field": BRIGHT, "dropped": ["A", "B", "C", "D"]}))
    app = make_app()
    with TestClient(app) as client:
        yield app, as_table(client, app)


# -- 2. a pile typed as any of rest's words is rest, on every front ------------------------------------------

@pytest.mark.parametrize("word", ["残り", "rest", "Rest"])
def test_a_pile_typed_as_a_word_for_rest_shows_on_the_phones_as_rest(phones, word):
    app, c = phones
    r = post(c, app, "/api/answer", {"key": "field", "text": CALM})
    last = r.json()["round"]["order"][-1]
    post(c, app, "/api/answer", {"key": "ended", "text": ""})
    r = post(c, app, "/api/answer", {"key": f"pile:{last}", "text": word})
    assert r.status_code == 200, r.text
    pile = step(r.json()["round"], f"pile:{last}")
    assert pile["rest"] and pile["value"] is None  # rest, waiting for the other two piles: no card named so
    assert pile["problem"]["code"] == "waits" and pile["problem"]["soft"]


# -- 3. the result waits for the stopper to say the pile is complete ----------------------------------------

def test_a_round_ended_by_a_dekiyaku_shows_its_result_only_once_the_pile_is_said_complete(phones):
    app, c = phones
    for key, text in {"field": CALM, "ended": "Ben", "sage": "", "hand:Aki": "", "hand:Ben": "", "hand:Chie": ""}.items():
        assert post(c, app, "/api/answer", {"key": key, "text": text}).status_code == 200
    for p in ("Aki", "Chie"):
        post(c, app, "/api/done", {"player": p, "done": True})
    r = post(c, app, "/api/answer", {"key": "pile:Ben", "text": INOSHIKACHO})
    view = r.json()["round"]
    assert not view["complete"] and view["result"] is None  # 猪鹿蝶 checks out, but Ben has not said so
    refused = post(c, app, "/api/save", {"revision": view["revision"]})
    assert refused.status_code == 422 and "not complete" in refused.json()["error"] and "Ben's pile" in refused.json()["error"]
    post(c, app, "/api/answer", {"key": "pile:Ben", "text": f"{INOSHIKACHO} 9r 9k"})
    view = post(c, app, "/api/done", {"player": "Ben", "done": True}).json()["round"]
    assert view["complete"] and view["result"]["players"]["Ben"]["mon"] == 280  # 猪鹿蝶 and 青短


def test_at_the_terminal_a_pile_is_complete_when_typed():
    lines = ["", CALM, "", "", "", "", "Ben", INOSHIKACHO + " 9r 9k", "y"]
    outcome = RoundEntry(["Aki", "Ben", "Chie"], "Aki", Script(lines), console()).run()
    assert outcome.result.mon("Ben") == 280


# -- 4. an answer to a step not open, or not asked of this seating, is refused and nothing kept -------------

def test_the_ending_before_the_seats_is_refused_over_http_and_nothing_is_kept(four_phones):
    app, c = four_phones
    post(c, app, "/api/answer", {"key": "field", "text": CALM})
    r = post(c, app, "/api/answer", {"key": "ended", "text": "x" * 2000})
    assert r.status_code == 422 and "\n" not in r.json()["error"]
    assert r.json()["error"] == "how the round ended is not asked yet: first A's play or drop"
    assert "ended" not in c.get("/api/state").json()["round"]["answers"]


def test_a_pile_before_the_field_is_refused_over_http(phones):
    app, c = phones
    r = post(c, app, "/api/answer", {"key": "pile:Aki", "text": "1h 1k"})
    assert r.status_code == 422 and r.json()["error"] == "Aki's pile is not asked yet: first 場札 field"
    assert c.get("/api/state").json()["round"]["answers"] == {}


# -- 5. the multiplier while the round is entered is the one it will pay --------------------------------------

def test_the_terminal_shows_the_carried_multiplier_and_what_waits_before_the_seats():
    lines = ["", ZEKKYO]  # the 親, the field: then the seats are asked (end of input)
    script = Script(lines)
    con = console()
    entry = RoundEntry(list("ABCD"), "A", script, con, rules=FUDAWIKI, state=NightState((2,), 0))
    with pytest.raises(Exception):
        entry.run()
    out = printed(con)
    assert "  絶場 (ぜつば) ×2 (carried over), ×4 waiting" in out.splitlines()
    assert script.prompts[-1].startswith("席 A")  # shown before anyone chose to play or drop


def test_the_phones_show_the_carried_multiplier_and_what_waits_before_the_seats(four_phones):
    app, c = four_phones
    state = c.get("/api/state").json()
    assert state["session"]["carry"] == [2]
    assert state["round"]["stand"]["line"]["text"] == "×2 (carried over)"  # before the field
    view = post(c, app, "/api/answer", {"key": "field", "text": ZEKKYO}).json()["round"]
    assert view["stand"]["line"]["text"] == "絶場 (ぜつば) ×2 (carried over), ×4 waiting"
    assert view["seating"]["settled"] is False and view["stand"]["multiplier"] == 2


# -- 6. only players who play are offered as the ender or a 下げ caller ---------------------------------------

SEATS = {"seat:A": "play", "seat:B": "drop", "seat:C": "play", "seat:D": "play"}


def test_the_phones_offer_only_players_who_play_for_the_ending(four_phones):
    app, c = four_phones
    post(c, app, "/api/answer", {"key": "field", "text": CALM})
    for key, text in SEATS.items():
        view = post(c, app, "/api/answer", {"key": key, "text": text}).json()["round"]
    ended, sage = step(view, "ended"), step(view, "sage")
    assert [ch["player"] for ch in ended["choices"] if ch["player"]] == ["A", "C", "D"]
    assert [ch["player"] for ch in sage["choices"] if ch["player"]] == ["A", "C", "D"]
    assert ended["label"]["text"].endswith("1 A, 3 C, 4 D)")
    r = post(c, app, "/api/answer", {"key": "ended", "text": "B"})
    assert r.status_code == 422 and r.json()["error"] == "B does not play this round: answer 1 A, 3 C, 4 D"


def test_the_terminal_offers_only_players_who_play_for_the_ending():
    lines = ["", CALM, "", "d", "", "", "", "", "", "c d", "2", "4", "", "", "", "n"]
    script = Script(lines)
    con = console()
    with pytest.raises(Exception):
        RoundEntry(list("ABCD"), "A", script, con, rules=FUDAWIKI).run()
    ended = [p for p in script.prompts if p.startswith("ended by")]
    assert ended[0].endswith("1 A, 3 C, 4 D): ")  # the example line: who plays, with their seat numbers
    out = printed(con)
    assert "✗ B does not play this round: answer 1 A, 3 C, 4 D" in out  # seat 2 is B, who dropped
    assert "D ended the round" in out  # seat 4 is D, a 下げ caller: 勝負 or cancel is asked next, no 上がり yet
    sage = [p for p in script.prompts if p.startswith("下げ")]
    assert sage[0].endswith("(Enter: nobody; several: C A): ")  # the example: two who play


# -- 9. a two-player round says what happened -------------------------------------------------------------------

def test_the_terminal_says_a_two_player_round_is_settled_on_the_difference():
    lines = ["", CALM, "", "d", "d", "", "", "", "", ""]
    script = Script(lines)
    con = console()
    with pytest.raises(Exception):
        RoundEntry(list("ABCD"), "A", script, con, rules=FUDAWIKI).run()
    out = printed(con)
    assert "played out: settled on the difference of the two piles" in out
    assert "every card was captured" not in out


# -- 11. a mistyped 手役 name gets a hint, on every front --------------------------------------------------------

def test_the_terminal_hints_a_mistyped_teyaku_name():
    lines = ["", CALM, "sanbonn"]
    con = console()
    with pytest.raises(Exception):
        RoundEntry(["Aki", "Ben", "Chie"], "Aki", Script(lines), con).run()
    assert "✗ 'sanbonn' is not a 手役 (三本?)" in printed(con)


def test_the_phones_hint_a_mistyped_teyaku_name(phones):
    app, c = phones
    post(c, app, "/api/answer", {"key": "field", "text": CALM})
    r = post(c, app, "/api/answer", {"key": "hand:Aki", "text": "sanbonn"})
    assert r.status_code == 422 and r.json()["error"] == "'sanbonn' is not a 手役 (三本?)"


def test_round_typed_at_the_cli_keeps_the_done_marks_in_its_draft(book_file, monkeypatch):
    """The marks are the draft's, not a server's memory: a pile typed at the terminal is complete."""
    import builtins

    from scorekeeper.drafts import Drafts

    run("new-session", "Aki", "Ben", "Chie")
    queue = ["", CALM, "", "", "", "", "", "1h 1k 3h 3k"]

    def typed_in(prompt=""):
        if not queue:
            raise EOFError
        return queue.pop(0)

    monkeypatch.setattr(builtins, "input", typed_in)
    FastRunner().invoke(cli_app, ["round"])
    draft, _ = Drafts(book_file).load("s1")
    assert draft.answers["pile:Aki"] == "1h 1k 3h 3k" and draft.done == ["Aki"]
    assert typed  # (the helper is shared with the other CLI tests)


# -- the page shows what the terminal shows: the fees and the pot, before play ----------------------------

def test_the_fees_and_the_pot_are_said_on_both_fronts_before_play(four_phones):
    app, c = four_phones  # round 1 was a misdeal: 100文 of fees wait in the pot, ×2 waits
    post(c, app, "/api/answer", {"key": "field", "text": CALM})
    for key, text in SEATS.items():
        view = post(c, app, "/api/answer", {"key": key, "text": text}).json()["round"]
    stand = view["stand"]
    assert [f["line"]["text"] for f in stand["fees"]] == ["B pays 逃げ料 20文 into the pot"]  # ×2 carried
    assert stand["pot_line"]["text"] == f"the pot: {stand['pot']}文" and stand["pot"] > 20
    lines = ["", CALM, "", "d", "", ""]
    con = console()
    state = NightState(tuple(c.get("/api/state").json()["session"]["carry"]), stand["pot"] - 20)
    with pytest.raises(Exception):
        RoundEntry(list("ABCD"), "A", Script(lines), con, rules=FUDAWIKI, state=state).run()
    out = printed(con)
    assert "  B pays 逃げ料 20文 into the pot" in out.splitlines()
    assert f"  the pot: {stand['pot']}文" in out.splitlines()
