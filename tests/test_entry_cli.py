"""`hachi-score round` and `edit N` without --file, through CliRunner, on a book under tmp_path.

HACHI_SCORE_DB points into tmp_path, so the real home is never touched. "Nothing saved" is checked
byte for byte: every file under the book's folder is read before and after.
"""

from __future__ import annotations

import builtins
import json
from importlib.resources import files
from pathlib import Path

import pytest

from scorekeeper import store
from scorekeeper.cli import app

from fast_cli import FastRunner, typed
from entry_lines import answers, order, snapshot
from helpers import add_round

GOLDEN = Path(__file__).parent / "golden" / "sdin"
PLAYERS = ["Aki", "Ben", "Chie"]
runner = FastRunner()


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.round.json").read_text("utf-8"))


def bundled_night() -> list[dict]:
    night = files("scorekeeper").joinpath("data", "night")
    return [json.loads(f.read_text("utf-8"))
            for f in sorted((f for f in night.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)]


@pytest.fixture
def session(book_file) -> str:
    result = runner.invoke(app, ["new-session", *PLAYERS])
    assert result.exit_code == 0, result.output
    return store.Book.open(book_file).current_id()


def summary() -> dict:
    result = runner.invoke(app, ["summary", "--json", "--all"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def score_json(rnd: dict) -> dict:
    from scorekeeper.scoring import score_dict

    return score_dict(rnd).to_json()


# ---------------------------------------------------------------------------------------------
# round


def test_round_typed_in_is_saved(session):
    rnd = golden("plain-teyaku")
    result = runner.invoke(app, ["round"], input=typed(answers(rnd)))
    assert result.exit_code == 0, result.output
    assert "round 1 saved" in result.stdout
    assert "after round 1 of 12: Aki -24 · Ben +64 · Chie -40 · next 親 Ben" in result.stdout
    night = summary()
    assert night["rounds"] == 1 and night["totals"] == {"Aki": -24, "Ben": 64, "Chie": -40}


def test_round_proposes_the_last_winner_as_dealer(session):
    runner.invoke(app, ["round"], input=typed(answers(golden("plain-teyaku"))))  # Ben wins
    rnd = {**golden("declared-teyaku"), "dealer": "Ben"}
    lines = answers(rnd)
    lines[0] = ""  # Enter takes the proposal
    result = runner.invoke(app, ["round"], input=typed(lines))
    assert result.exit_code == 0, result.output
    assert "親 dealer (1 Aki, 2 Ben, 3 Chie) [Ben]: " in result.stdout
    assert summary()["history"][1]["dealer"] == "Ben"


def test_answers_from_a_pipe_are_echoed_so_the_dialogue_reads_as_typed(session):
    result = runner.invoke(app, ["round"], input=typed(answers(golden("plain-teyaku"))))
    assert "場札 the six field cards, or = and its 光 alone: 1h 3r 5t 8k 9k 12k\n" in result.stdout
    assert "手役 Ben : 2t 2r 2k 4t 6k 7k 10k\n" in result.stdout


def test_round_json_keeps_the_dialogue_off_standard_output(session):
    result = runner.invoke(app, ["round", "--json"], input=typed(answers(golden("plain-teyaku"))))
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["round"] == 1 and out["saved"] and out["players"]["Ben"]["mon"] == 64
    assert "場札" in result.stderr


def test_a_bad_card_then_a_good_one_then_saved(session):
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[1:1] = ["1h 3r 5t 8k 9k 13k"]
    result = runner.invoke(app, ["round"], input=typed(lines))
    assert result.exit_code == 0, result.output
    assert "✗ 場札 field: '13k' is not a card" in result.stdout
    assert summary()["totals"] == {"Aki": -24, "Ben": 64, "Chie": -40}


def test_a_sage_round_with_rest_is_saved(session):
    rnd = golden("sage-played-out")
    result = runner.invoke(app, ["round"], input=typed(answers(rnd, rest=True)))
    assert result.exit_code == 0, result.output
    assert summary()["totals"] == {p: r["mon"] for p, r in score_json(rnd)["players"].items()}


def test_a_bashi_is_reported_and_nothing_saved(session, book_file):
    before = snapshot(book_file.parent)
    result = runner.invoke(app, ["round"], input=typed(["", " ".join(golden("bashi")["field"])]))
    assert result.exit_code == 0, result.output
    assert "場四: redeal" in result.stdout and "nothing was saved" in result.stdout
    assert snapshot(book_file.parent) == before


@pytest.mark.parametrize("at", [0, 1, 2, 5, 6, 7, 9, 10])
def test_ctrl_c_at_a_prompt_saves_nothing(session, book_file, monkeypatch, at):
    runner.invoke(app, ["round"], input=typed(answers(golden("declared-teyaku"))))  # a round in the book
    before = snapshot(book_file.parent)
    lines = answers(golden("plain-teyaku"))[:at]

    def ctrl_c_at(prompt: str = "") -> str:
        if not lines:
            raise KeyboardInterrupt
        return lines.pop(0)

    monkeypatch.setattr(builtins, "input", ctrl_c_at)
    result = runner.invoke(app, ["round"])
    assert result.exit_code == 1
    assert result.stderr.strip() == "hachi-score: aborted: nothing was saved"
    assert "Traceback" not in result.output
    assert snapshot(book_file.parent) == before


@pytest.mark.parametrize("at", [0, 3, 8, 10])
def test_end_of_input_saves_nothing(session, book_file, at):
    before = snapshot(book_file.parent)
    result = runner.invoke(app, ["round"], input=typed(answers(golden("plain-teyaku"))[:at]))
    assert result.exit_code == 1 and "aborted: nothing was saved" in result.stderr
    assert snapshot(book_file.parent) == before


def test_no_at_the_confirm_saves_nothing(session, book_file):
    before = snapshot(book_file.parent)
    result = runner.invoke(app, ["round"], input=typed(answers(golden("plain-teyaku"), confirm="n")))
    assert result.exit_code == 1 and "aborted: nothing was saved" in result.stderr
    assert "next 親: Ben" in result.stdout  # the full result was shown before the question
    assert snapshot(book_file.parent) == before


def test_round_without_a_session_is_one_line(book_file):
    result = runner.invoke(app, ["round"], input="\n")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "new-session" in result.stderr


# ---------------------------------------------------------------------------------------------
# edit N


def night_book(path: Path, rounds: list[dict]) -> str:
    """A session with ``rounds``; after the first, each round's 親 is the chain's (left out)."""
    book = store.Book.open(path)
    sid = book.new_session(PLAYERS)
    for i, rnd in enumerate(rounds):
        add_round(book, sid, rnd if i == 0 else {k: v for k, v in rnd.items() if k != "dealer"})
    return sid


def test_edit_with_enter_everywhere_changes_nothing(session, book_file):
    runner.invoke(app, ["round"], input=typed(answers(golden("plain-teyaku"))))
    before = summary()
    result = runner.invoke(app, ["edit", "1"], input=typed([""] * 11))
    assert result.exit_code == 0, result.output
    assert "round 1 replaced; no result changed" in result.stdout
    assert summary() == before


def test_edit_of_an_early_round_in_a_12_round_night(book_file, tmp_path):
    night = bundled_night()
    assert len(night) == 12
    night_book(book_file, night)
    before = summary()
    assert [h["dealer"] for h in before["history"]][:3] == ["Aki", "Chie", "Ben"]

    # round 1 again, every answer pre-filled: Aki's 手役 was forgotten, a declared 四三
    lines = [""] * 11
    lines[2 + order(PLAYERS, "Aki").index("Aki")] = "四三"
    result = runner.invoke(app, ["edit", "1", "--rechain"], input=typed(lines), env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "replace round 1? [Y/n]: " in result.stdout
    assert "results changed in rounds 1, 2" in result.stdout
    assert "Chie → Aki" in result.stdout  # --rechain: round 2's 親 followed the new winner

    after = summary()
    assert [h["dealer"] for h in after["history"]][:3] == ["Aki", "Aki", "Ben"]
    assert after["totals"] != before["totals"]

    # the same night, entered with the corrected round from the start
    fixed = [{**night[0], "teyaku": {"Aki": "四三"}}] + night[1:]
    other = tmp_path / "other" / "book.json"
    night_book(other, fixed)
    from_start = json.loads(runner.invoke(app, ["summary", "--json", "--all", "--db", str(other)]).stdout)
    for key in ("totals", "settlement", "history", "dealer"):
        assert after[key] == from_start[key], key


def test_edit_keeps_the_later_recorded_dealers_and_says_which_no_longer_follow(book_file):
    night = bundled_night()
    night_book(book_file, night)
    lines = [""] * 11
    lines[2 + order(PLAYERS, "Aki").index("Aki")] = "四三"  # round 1 now won by Aki, not Chie
    result = runner.invoke(app, ["edit", "1"], input=typed(lines), env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "round 2 no longer follows the chain" in " ".join(result.stdout.split())
    assert [h["dealer"] for h in summary()["history"]][:3] == ["Aki", "Chie", "Ben"]  # as recorded


def test_edit_shows_each_answer_pre_filled(session):
    rnd = golden("sage-overtaken")  # Ben deals
    runner.invoke(app, ["round"], input=typed(answers(rnd)))
    result = runner.invoke(app, ["edit", "1"], input=typed([""] * 11))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "親 dealer (1 Aki, 2 Ben, 3 Chie) [Ben]: " in out
    assert "場札 the six field cards, or = and its 光 alone [2k 3k 10rkk 12k]: " in out
    assert "手役 Aki  [4r 6rk 7k 9kk 12k]: " in out
    assert "[Chie]: " in out and "下げ declared by (Enter: nobody) [Ben]: " in out


@pytest.mark.parametrize("at", [0, 4, 8, 10])
def test_ctrl_c_in_edit_leaves_the_book_byte_for_byte(book_file, monkeypatch, at):
    night_book(book_file, bundled_night())
    before = snapshot(book_file.parent)
    lines = [""] * at

    def ctrl_c_at(prompt: str = "") -> str:
        if not lines:
            raise KeyboardInterrupt
        return lines.pop(0)

    monkeypatch.setattr(builtins, "input", ctrl_c_at)
    result = runner.invoke(app, ["edit", "3"])
    assert result.exit_code == 1 and "aborted: nothing was saved" in result.stderr
    assert snapshot(book_file.parent) == before


def test_no_at_the_edit_confirm_leaves_the_book(book_file):
    night_book(book_file, bundled_night())
    before = snapshot(book_file.parent)
    result = runner.invoke(app, ["edit", "2"], input=typed([""] * 10 + ["no"]))
    assert result.exit_code == 1
    assert snapshot(book_file.parent) == before


def test_edit_of_a_round_that_is_not_there(session):
    result = runner.invoke(app, ["edit", "4"], input="\n")
    assert result.exit_code == 2 and "no rounds yet" in result.stderr


def test_edit_into_a_bashi_leaves_the_round(book_file):
    night_book(book_file, bundled_night()[:2])
    before = snapshot(book_file.parent)
    result = runner.invoke(app, ["edit", "1"], input=typed(["", " ".join(golden("bashi")["field"])]))
    assert result.exit_code == 2 and "場四" in result.stderr
    assert snapshot(book_file.parent) == before
