"""A night of four or more (TRADITIONAL §7) as `show`, `summary` and `export --csv` give it: who
dropped and was forced out, the fees, the compensation and the pot are shown; a seat that sat a
round out has no pile to count; the CSV's new columns come after every existing one.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from fast_cli import FastRunner, checked_run

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "fudawiki"
PLAYERS = ["Aki", "Ben", "Chie", "Dan", "Eri"]
#: the columns every CSV had before nights of four or more (CONTRACT §5: kept, in this order)
BEFORE = (["round", "dealer", "field_class", "multiplier", "kind", "yaku", *PLAYERS, "sage", "ended_by"]
          + [f"{p} card_points" for p in PLAYERS])
run = checked_run(FastRunner())


@pytest.fixture
def night(tmp_path, monkeypatch):
    """Round 1: Chie and Aki drop (fees into the pot, Ben takes it); round 2: Dan and Eri are
    forced out, Dan paid for his 三本."""
    monkeypatch.setenv("HACHI_SCORE_DB", str(tmp_path / "book.json"))
    monkeypatch.setenv("COLUMNS", "160")  # a row of the rounds table on one line
    run("new-session", *PLAYERS, "--rules", "fudawiki")
    run("round", "--file", str(GOLDEN / "five-two-drops.round.json"))
    run("round", "--file", str(GOLDEN / "forced-out-sanbon.round.json"))


def test_the_csv_adds_who_dropped_who_was_forced_out_the_pot_and_how_it_ended_after_every_column(night):
    rows = list(csv.reader(io.StringIO(run("export", "--csv").stdout.lstrip("\ufeff"))))
    assert rows[0] == BEFORE + ["dropped", "forced_out", "pot", "ended_how"]
    by_round = {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}
    assert (by_round["1"]["dropped"], by_round["1"]["forced_out"], by_round["1"]["pot"]) == ("Aki Chie", "", "0")
    assert (by_round["2"]["dropped"], by_round["2"]["forced_out"]) == ("", "Dan Eri")
    assert by_round["1"]["ended_how"] == by_round["2"]["ended_how"] == ""


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_summary_shows_the_pot_and_the_compensation_of_each_round(night, language):
    out = run("summary", "--lang", language).stdout
    rounds = out[out.index("\n#"):]
    assert "追い込み Dan 38文" in rounds
    assert ("Ben takes the pot, 25文" if language == "en" else "Benが場銭 25文を取る") in rounds
    assert ("25文 逃げ料 into the pot" if language == "en" else "逃げ料 25文を場銭へ") in rounds


@pytest.mark.parametrize("language", ["en", "ja"])
def test_show_leaves_a_seat_that_sat_out_blank_and_names_its_role(night, language):
    out = run("show", "2", "--lang", language).stdout
    cards = out[out.rindex("\n札" if language == "ja" else "\ncards"):]
    for seat in ("Dan", "Eri"):
        line = next(line for line in cards.splitlines() if line.startswith(seat))
        assert "0枚" not in line and "0 cards" not in line and "0点" not in line, line
    first = run("show", "1", "--lang", language).stdout
    assert ("降り" if language == "ja" else "(dropped)") in first
    assert "Dan 追い込み" in out and "Eri 追い込み" in out  # the forced-out seats, marked in the result
