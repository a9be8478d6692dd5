"""One owner for the round being typed (issue 25): no answer lost or misreported when two
terminals, or a terminal and the phones, type one round.

Behaviour 1 runs two real `hachi-score round` processes on one draft, each fed its lines through
a pipe, stepped by what each prints (never by the clock). Behaviour 2 is the one rule for a stale
draft, seen from the terminal and from the phones' server alike.
"""

from __future__ import annotations

import json
import os
from importlib.resources import files
from pathlib import Path

import pytest

from fast_cli import FastRunner, checked_run, typed
from helpers import add_round
from scorekeeper import store
from terminals import Terminal

PLAYERS = ["Aki", "Ben", "Chie"]
runner = FastRunner()
run = checked_run(runner)
#: round 2 of the bundled night: Chie deals, Ben stops with 猪鹿蝶; no 手役
ROUND_2 = json.loads(files("scorekeeper").joinpath("data", "night", "02.json").read_text("utf-8"))
ROUND_1 = files("scorekeeper").joinpath("data", "night", "01.json")
FIELD = " ".join(ROUND_2["field"])
#: the rest of round 2 after the 手役: nobody called 下げ, Ben stopped, and Ben's pile (the one pile a
#: stop asks: the others can't change the money)
ENDING = ["", "Ben", "4r 4k 6t 6r 6k 6k 7t 7k 10t 10k 11t 11k"]


@pytest.fixture
def night_of_one(book_file: Path) -> Path:
    """Session s1 of Aki, Ben, Chie with round 1 saved, and round 2's 親 and field typed into
    its draft (the answers a second terminal then resumes)."""
    run("new-session", *PLAYERS)
    run("round", "--file", str(ROUND_1))
    runner.invoke(__import__("scorekeeper.cli", fromlist=["app"]).app, ["round"], input=typed(["Chie", FIELD]))
    return book_file


def round_2(book_file: Path) -> dict:
    return store.Book.open(book_file).session("s1")["rounds"][1]["round"]


def test_two_terminals_resuming_one_round_lose_no_answer(night_of_one):
    """Behaviour 1: T1 and T2 resume the same draft; T1 types Chie's 手役 光一; T2 presses Enter
    (no 手役): T2 is asked which stands, T1's offered first, and keeps its own (2), then saves
    first. T1 is shown exactly which of its answers differ from round 2 as saved, asked each, and
    `edit 2` takes the one it keeps: round 2 holds T1's 光一 (Chie +10, not −30)."""
    t1 = Terminal("round", "--resume")
    t1.wait_for("手役 Chie")
    t2 = Terminal("round", "--resume")
    t2.wait_for("手役 Chie")
    t1.type("光一")
    t1.wait_for("手役 Aki")  # T1's answer is on disk
    t2.type("")
    t2.wait_for("Chie's 手役: 光一 from another terminal, — typed here. Keep 1 (from another terminal) or 2")
    t2.type("2", "", "", *ENDING, "y")
    assert t2.end() == 0, t2.out
    assert "round 2 saved" in t2.out
    assert "光一" not in json.dumps(round_2(night_of_one), ensure_ascii=False)  # T2's round: no 手役
    t1.type("")  # Aki: no 手役. T1 learns now that round 2 was saved
    t1.wait_for("Chie's 手役: — saved, 光一 typed here. Keep 1 (saved) or 2 (typed here)?")
    assert "Chie's 手役: typed here 光一; saved —" in t1.out  # the one difference, named
    assert "(Chie's 手役)" in t1.out  # and only it
    t1.type("2", *[""] * 5, "y")  # the edit: T1's answer taken, the rest as saved (Enter), replace
    assert t1.end() == 0, t1.out
    assert "round 2 replaced" in t1.out
    stored = round_2(night_of_one)
    assert stored["teyaku"] == {"Chie": "光一"} and stored["captured"]["Ben"] == ROUND_2["captured"]["Ben"]
    gone = run("round", "--restore", code=2)  # taken into round 2: nothing is left to bring back
    assert "no round was thrown away" in gone.stderr


def test_the_terminal_that_declines_the_edit_keeps_its_answers_set_aside(night_of_one):
    """Behaviour 1, declined: T1's answers stay, set aside; `edit 2` later offers them."""
    t1 = Terminal("round", "--resume")
    t1.wait_for("手役 Chie")
    t2 = Terminal("round", "--resume")
    t2.wait_for("手役 Chie")
    t1.type("光一")
    t1.wait_for("手役 Aki")
    t2.type("", "2", "", "", *ENDING, "y")
    assert t2.end() == 0, t2.out
    t1.type("", "1")  # the saved 手役 stands: nothing is edited
    assert t1.end() == 1
    assert "your answers are set aside" in t1.out
    edit = run("edit", "2", input=typed(["y", *[""] * 5, "y"]))
    assert "answers typed for this round" in edit.stderr  # the answers set aside, offered
    assert round_2(night_of_one)["teyaku"] == {"Chie": "光一"}


def _stale_draft(book_file: Path, field: str) -> None:
    """Round 2's draft typed with ``field`` at the terminal, then round 2 saved from a file."""
    from scorekeeper.cli import app

    runner.invoke(app, ["round"], input=typed(["Chie", field]))
    add_round(store.Book.open(book_file), "s1", ROUND_2)


def test_a_stale_draft_is_one_thing_at_the_terminal(book_file):
    """Behaviour 2: a draft for round 2 whose round was saved from a file meanwhile is never
    typed into as round 3. Its answers differ (another field): they are set aside and said, the
    next `round` asks round 3 afresh, and `round --restore` brings them back as round 3."""
    run("new-session", *PLAYERS)
    run("round", "--file", str(ROUND_1))
    _stale_draft(book_file, "1k 4k 4k 7t 7k 12k")
    result = runner.invoke(__import__("scorekeeper.cli", fromlist=["app"]).app, ["round"], input=typed([]))
    assert "round 2 was saved meanwhile" in result.stdout and "set aside" in result.stdout
    assert "Resume them?" not in result.stderr  # never offered as round 3's
    assert "round 3 —" in result.stdout and "親 dealer (1 Aki, 2 Ben, 3 Chie) [Ben]" in result.stdout  # asked afresh
    back = run("round", "--restore", input=typed([]), code=1)
    assert "brought back" in back.stdout


def test_a_stale_draft_that_matches_its_round_goes(book_file):
    """Behaviour 2: a stale draft whose answers round 2 as saved holds already goes, unsaid."""
    run("new-session", *PLAYERS)
    run("round", "--file", str(ROUND_1))
    _stale_draft(book_file, FIELD)
    result = runner.invoke(__import__("scorekeeper.cli", fromlist=["app"]).app, ["round"], input=typed([]))
    assert "set aside" not in result.stdout and "Resume them?" not in result.stderr
    from scorekeeper.drafts import Drafts

    assert Drafts(book_file).load("s1")[0] is None or Drafts(book_file).load("s1")[0].answers == {}


def test_a_stale_draft_is_the_same_thing_on_the_phones(book_file):
    """Behaviour 2, the phones: the same stale draft is set aside (restorable, said), and the
    phones type round 3 from an empty draft; the old draft is not left being typed."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft
    from scorekeeper.web.app import Table

    run("new-session", *PLAYERS)
    run("round", "--file", str(ROUND_1))
    _stale_draft(book_file, "1k 4k 4k 7t 7k 12k")
    table = Table(None)
    state = table.build_sync()
    assert state["round"]["number"] == 3 and state["round"]["answers"] == {}
    assert state["round"]["restorable"] is not None
    night = Night.open()
    assert all(rd.number == 3 for rd in filter(None, [RoundDraft.newest(night)]))
    back = RoundDraft.restore(night)
    assert back.number == 3 and "dealer" not in back.answers and back.answers["field"] == "1k 4k 4k 7t 7k 12k"


def _scores(monkeypatch) -> list[int]:
    """A counter of every round scored (the replay's and the round's own), in one list."""
    import scorekeeper.flows
    import scorekeeper.night
    import scorekeeper.questions
    import scorekeeper.scoring

    calls: list[int] = []
    real = scorekeeper.scoring.score

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    for module in (scorekeeper.scoring, scorekeeper.night, scorekeeper.flows, scorekeeper.questions):
        monkeypatch.setattr(module, "score", counted)
    return calls


def _night_of_eleven() -> list[dict]:
    folder = files("scorekeeper").joinpath("data", "night")
    rounds = [json.loads(f.read_text("utf-8")) for f in sorted(folder.iterdir(), key=lambda f: f.name)
              if f.name.endswith(".json")]
    run("new-session", *PLAYERS)
    book = store.Book.open(os.environ["HACHI_SCORE_DB"])
    for r in rounds[:11]:
        add_round(book, "s1", r)
    return rounds


@pytest.mark.parametrize("front", ["terminal", "phones"])
def test_a_save_replays_the_night_once(book_file, monkeypatch, front):
    """Adding round 12 scores round 12 once, and replays rounds 1–11 at most once: not at all at
    the terminal, whose night in hand is the book's still; once for the phones, whose server reads
    the night afresh for each request (it was 35 and 24: the night replayed three times, and twice)."""
    from scorekeeper.flows import Night
    from scorekeeper.questions import answers_of
    from scorekeeper.round_draft import RoundDraft
    from scorekeeper.rules import SDIN
    from scorekeeper.web.app import Table

    rounds = _night_of_eleven()
    table = Table(None) if front == "phones" else None
    rd = RoundDraft.begin(Night.open())
    for key, text in answers_of(rounds[11], PLAYERS, SDIN).items():
        if key in rd.view().keys:
            rd.answer(key, text)
    assert rd.view().complete
    calls = _scores(monkeypatch)
    if table is None:
        assert rd.save().number == 12
    else:
        assert table.save_sync(rd.revision)["saved"] == 12
    assert len(calls) == (12 if front == "phones" else 1)


def test_a_tap_made_in_a_draft_thrown_away_never_lands_in_the_next(book_file):
    """A phone's tap queued offline in a draft that another phone then threw away is refused
    (409, the line says why), not typed into the draft begun after it; a tap in the draft being
    typed is taken."""
    import warnings

    from serve_helpers import as_table, make_app, new_night, writer_headers
    from starlette.testclient import TestClient

    new_night(book_file, rounds=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = make_app()
        with TestClient(app) as client:
            client = as_table(client, app)

            def post(path, body):
                return client.post(path, content=json.dumps(body),
                                   headers={**writer_headers(app), "Content-Type": "application/json"})

            first = post("/api/answer", {"key": "field", "text": "1k 4k 4k 7t 7k 11t", "round": 3}).json()
            gone = first["round"]["draft"]
            assert gone
            assert post("/api/discard", {}).status_code == 200
            late = post("/api/answer", {"key": "field", "text": "1k 4k 4k 7t 7k 12k", "round": 3, "draft": gone})
            assert late.status_code == 409 and "thrown away or set aside meanwhile" in late.json()["error"]
            state = client.get("/api/state").json()
            assert "field" not in state["round"]["answers"]
            taken = post("/api/answer", {"key": "field", "text": "1k 4k 4k 7t 7k 12k", "round": 3,
                                         "draft": state["round"]["draft"]})
            assert taken.status_code == 200 and taken.json()["round"]["answers"]["field"] == "1k 4k 4k 7t 7k 12k"
