"""`hachi-score serve` for a night of 4 to 6 players (TRADITIONAL §7): the phones answer the
play-or-drop questions (``seat:NAME``), the forced-out hands and then the round of the players who
play, over ``/api/answer``; ``/api/save`` stores exactly the round file the terminal's `round`
stores for the same answers (each round kind typed at the terminal in a second book and compared).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from scorekeeper.cli import app as cli_app  # noqa: E402

from fast_cli import FastRunner  # noqa: E402
from serve_helpers import as_table, make_app, writer_headers  # noqa: E402
from test_entry_seats import CALM, FIELD, HAND, P1, P2  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
PLAYERS = ["A", "B", "C", "D", "E"]
runner = FastRunner()


def cli(*args: str, input: str | None = None) -> str:
    result = runner.invoke(cli_app, list(args), input=input)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.stdout


@pytest.fixture
def night(book_file):
    cli("new-session", *PLAYERS, "--rules", "fudawiki")
    return book_file


@pytest.fixture
def served(night):
    app = make_app()
    with TestClient(app) as client:
        yield app, as_table(client, app)


def post(client, app, path, body):
    return client.post(path, content=json.dumps(body),
                       headers={**writer_headers(app), "Content-Type": "application/json"})


def say(served, key, text):
    app, client = served
    r = post(client, app, "/api/answer", {"key": key, "text": text})
    assert r.status_code == 200, (key, r.text)
    return r.json()["round"]


def done(served, *players):
    """Each player says their pile is complete (a tap never does)."""
    app, client = served
    for p in players:
        r = post(client, app, "/api/done", {"player": p, "done": True})
        assert r.status_code == 200, r.text
    return r.json()["round"]


def save(served, round_view):
    app, client = served
    r = post(client, app, "/api/save", {"revision": round_view["revision"]})
    assert r.status_code == 200, r.text
    return r.json()


def typed_at_the_terminal(tmp_path, answers: dict[str, str], steps: list[str]) -> dict:
    """The same answers typed at `round`, in the terminal's order, in a book of its own: the
    stored round file."""
    db = str(tmp_path / "terminal" / "book.json")
    cli("--db", db, "new-session", *PLAYERS, "--rules", "fudawiki")
    lines = [answers.get(k, "") for k in steps] + ["y"]
    cli("--db", db, "round", input="".join(f"{line}\n" for line in lines))
    return json.loads(cli("--db", db, "export", "--json"))["rounds"][0]


def stored() -> list[dict]:
    return json.loads(cli("export", "--json"))["rounds"]


def seats(served, choices: dict[str, str]) -> dict:
    view = None
    for p, choice in choices.items():
        view = say(served, f"seat:{p}", choice)
    return view


def test_three_play_two_drop_and_one_forced_out(served, tmp_path):
    app, client = served
    view = say(served, "field", " ".join(FIELD))
    assert view["keys"] == ["dealer", "field", "seat:A"] and view["seating"]["settled"] is False
    view = seats(served, {"A": "play", "B": "drop", "C": "play", "D": "play"})
    assert {k: v for k, v in view["seating"].items() if k not in ("line", "forced_line")} == {
        "settled": True, "must": [], "volunteers": ["A", "C", "D"], "dropped": ["B"], "forced_out": ["E"],
        "playing": ["A", "C", "D"]}
    assert view["seating"]["line"]["text"] == "A, C, D play; A is the round's 親"
    assert view["keys"] == ["dealer", "field", "seat:A", "seat:B", "seat:C", "seat:D", "hand:E",
                             "hand:A", "hand:C", "hand:D", "sage", "ended", "pile:A", "pile:C", "pile:D"]
    assert view["order"] == ["A", "C", "D"]  # the piles of who plays only
    for key in ("pile:B", "hand:B", "pile:E", "seat:E"):  # who dropped or was forced out: never asked
        r = post(client, app, "/api/answer", {"key": key, "text": "1h" if key.startswith("pile") else ""})
        assert r.status_code == 422 and "does not play this round" in r.json()["error"], (key, r.text)
    answers = {"hand:E": " ".join(HAND), "hand:A": "", "hand:C": "", "hand:D": "", "ended": "", "sage": "",
               "pile:A": " ".join(P1), "pile:C": " ".join(P2), "pile:D": "rest"}
    for key, text in answers.items():
        view = say(served, key, text)
    assert not view["complete"] and view["missing"] == ["pile:A", "pile:C", "pile:D"]  # not said complete; rest waits
    view = done(served, "A", "C")
    assert view["complete"] and view["missing"] == []
    assert save(served, view)["saved"] == 1
    mine = stored()[0]
    assert mine["dropped"] == ["B"] and mine["hands"] == {"E": HAND}
    assert mine["captured"]["B"] == mine["captured"]["E"] == []
    every = {"seat:A": "play", "seat:B": "drop", "seat:C": "play", "seat:D": "play", "field": " ".join(FIELD),
             **answers}
    assert mine == typed_at_the_terminal(tmp_path, every, view["keys"])


def test_three_play_after_two_drops(served, tmp_path):
    say(served, "field", " ".join(FIELD))
    view = seats(served, {"A": "drop", "B": "play", "C": "drop", "D": "play", "E": "play"})
    assert view["seating"]["volunteers"] == ["B", "D", "E"] and view["seating"]["forced_out"] == []
    assert view["order"] == ["B", "D", "E"]  # in turn order from the round's 親, B
    assert not any(k in view["keys"] for k in ("hand:A", "hand:C", "pile:A", "pile:C"))
    answers = {"hand:B": "", "hand:D": "", "hand:E": "", "ended": "", "sage": "",
               "pile:B": " ".join(P1), "pile:D": " ".join(P2), "pile:E": "rest"}
    # the phones answer in any order: rest waits for the other two piles
    view = say(served, "pile:E", "rest")
    assert "pile:E" in view["missing"]
    for key, text in answers.items():
        view = say(served, key, text)
    view = done(served, "B", "D")
    assert view["complete"]
    assert save(served, view)["saved"] == 1
    every = {"seat:A": "drop", "seat:B": "play", "seat:C": "drop", "seat:D": "play", "seat:E": "play",
             "field": " ".join(FIELD), **answers}
    assert stored()[0] == typed_at_the_terminal(tmp_path, every, view["keys"])


def test_one_volunteer_asks_nothing_more(served, tmp_path):
    say(served, "field", " ".join(CALM))
    view = seats(served, {"A": "drop", "B": "drop", "C": "play", "D": "drop"})
    assert not view["complete"] and view["missing"] == ["seat:E"]
    view = say(served, "seat:E", "drop")
    assert view["seating"]["volunteers"] == ["C"] and view["seating"]["playing"] == []
    assert view["keys"] == ["dealer", "field", "seat:A", "seat:B", "seat:C", "seat:D", "seat:E"]
    assert view["complete"] and view["order"] == [] and view["missing"] == []
    app, client = served
    r = post(client, app, "/api/answer", {"key": "ended", "text": ""})
    assert r.status_code == 422 and "not asked" in r.json()["error"]  # nothing is played: nothing kept
    assert "ended" not in client.get("/api/state").json()["round"]["answers"]
    assert save(served, client.get("/api/state").json()["round"])["saved"] == 1
    every = {"seat:A": "drop", "seat:B": "drop", "seat:C": "play", "seat:D": "drop", "seat:E": "drop",
             "field": " ".join(CALM)}
    mine = stored()[0]
    assert mine["dropped"] == ["A", "B", "D", "E"] and "ended_by" not in mine
    assert mine == typed_at_the_terminal(tmp_path, every, view["keys"])


def test_a_misdeal_nobody_plays(served, tmp_path):
    say(served, "field", " ".join(CALM))
    view = seats(served, {p: "drop" for p in PLAYERS})
    assert view["seating"]["settled"] and view["seating"]["volunteers"] == [] and view["order"] == []
    assert view["complete"] and view["result"] is not None
    assert save(served, view)["saved"] == 1
    every = {**{f"seat:{p}": "drop" for p in PLAYERS}, "field": " ".join(CALM)}
    mine = stored()[0]
    assert mine["dropped"] == PLAYERS and all(v == [] for v in mine["captured"].values())
    assert mine == typed_at_the_terminal(tmp_path, every, view["keys"])


def test_two_players_play_and_rest_is_not_offered(served, tmp_path):
    app, client = served
    say(served, "field", " ".join(FIELD))
    view = seats(served, {"A": "play", "B": "drop", "C": "drop", "D": "drop", "E": "play"})
    assert view["seating"]["playing"] == ["A", "E"] and view["order"] == ["A", "E"]
    answers = {"hand:A": "", "hand:E": "", "ended": "", "sage": "", "pile:A": " ".join(P1)}
    for key, text in answers.items():
        view = say(served, key, text)
    r = post(client, app, "/api/answer", {"key": "pile:E", "text": "rest"})
    assert r.status_code == 422 and "rest is only for the last pile of a played-out round of three" in r.json()["error"]
    say(served, "pile:E", " ".join(P2))
    view = done(served, "A", "E")
    assert view["complete"]
    assert save(served, view)["saved"] == 1
    every = {"seat:A": "play", "seat:B": "drop", "seat:C": "drop", "seat:D": "drop", "seat:E": "play",
             "field": " ".join(FIELD), **answers, "pile:E": " ".join(P2)}
    assert stored()[0] == typed_at_the_terminal(tmp_path, every, view["keys"])


def test_a_seat_answer_is_read_as_the_terminal_reads_it(served):
    app, client = served
    say(served, "field", " ".join(FIELD))
    r = post(client, app, "/api/answer", {"key": "seat:A", "text": "maybe"})
    assert r.status_code == 422 and "answer play (Enter, p) or drop (d)" in r.json()["error"]
    view = say(served, "seat:A", "")  # Enter: play
    assert view["missing"] == ["seat:B"]
    view = say(served, "seat:A", "d")
    assert view["answers"]["seat:A"] == "d" and view["missing"] == ["seat:B"]


def test_changing_a_seat_changes_who_is_asked(served):
    say(served, "field", " ".join(FIELD))
    view = seats(served, {"A": "play", "B": "play", "C": "play"})
    assert view["seating"]["forced_out"] == ["D", "E"] and view["order"] == ["A", "B", "C"]
    view = say(served, "seat:B", "drop")  # now D must speak too
    assert not view["seating"]["settled"] and view["missing"][0] == "seat:D"
    view = say(served, "seat:D", "play")
    assert view["order"] == ["A", "C", "D"] and view["seating"]["forced_out"] == ["E"]


def test_three_seated_nights_have_no_seat_questions(book_file):
    from serve_helpers import new_night

    new_night(book_file)
    app = make_app()
    with TestClient(app) as client:
        as_table(client, app)
        r = post(client, app, "/api/answer", {"key": "seat:Aki", "text": "drop"})
        assert r.status_code == 400
        assert client.get("/api/state").json()["round"]["seating"] is None
