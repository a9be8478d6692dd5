"""Issue 33, point 2: a message blames what is wrong, in the player's words. The word that is
neither a card nor a 出来役 is the one named (``akatan inosika``: ``inosika``); a field given by
its 光 says what the month holds (``=2h``: 梅 has no 光); no round file key (``captured.Ben``,
``dekiyaku.Ben``) reaches the table; a counted pile is told what to give; what is thrown away is
counted without "more"; an edit stopped says how its own answers are thrown away; broken JSON
says what is broken, in the language spoken; typed text is quoted to 40 characters."""

from __future__ import annotations

import builtins
import json
import re
from pathlib import Path

import pytest
from fast_cli import FastRunner
from helpers import add_round

from scorekeeper import lang, store
from scorekeeper import questions as q
from scorekeeper.check import check_draft

runner = FastRunner()
PLAYERS = ("Aki", "Ben", "Chie")
SMALL = "2k 4r 6k 7t 9k 10k"
#: a round of 出来役 up to its piles: Ben called 下げ and it was played out
SAGE = {"field": "=", "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "Ben", "ended": ""}
#: a round file key said as it is: ``captured.Ben``, ``dekiyaku.Ben`` …
KEY = re.compile(r"\b(captured|dekiyaku|points|kasu|hands|teyaku)\.|\b(unasked|field_given|ended_by|ended_how)\b")
GOLDEN = Path(__file__).parent / "golden" / "sdin"


def problem(answers: dict, key: str, language: str = "en") -> str:
    v = q.view(q.Givens(PLAYERS, "Aki"), answers)
    found = v.problem_of(key)
    assert found is not None, (answers, key)
    return lang.in_language(language, lambda: str(lang.worded(found.message)))


def test_a_pile_by_its_names_blames_the_word_that_is_no_yaku_and_says_the_one_meant():
    line = problem({**SAGE, "pile:Ben": "akatan inosika"}, "pile:Ben")
    assert "'inosika'" in line and "猪鹿蝶" in line and "akatan" not in line, line
    line = problem({**SAGE, "pile:Ben": "赤短 1h"}, "pile:Ben")
    assert "'1h' is a card" in line and "not both" in line, line
    assert "'inosika'" in problem({**SAGE, "pile:Ben": "akatan inosika"}, "pile:Ben", "ja")


def test_a_field_by_its_lights_says_what_the_month_holds():
    line = problem({"field": "=2h"}, "field")
    assert "梅 has no 光" in line and "12h" not in line and "'=2h'" not in line, line
    assert "梅に光はありません" in problem({"field": "＝2h"}, "field", "ja")


@pytest.mark.parametrize("answers, key", [
    ({**SAGE, "pile:Ben": "1hk", "pile:Aki": "1hk"}, "pile:Aki"),  # a card in two piles
    ({**SAGE, "ended": "Ben", "sage": "", "pile:Ben": "=30"}, "pile:Ben"),  # a holder's pile counted
])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_problem_at_the_table_names_the_pile_not_its_key(answers, key, language):
    line = problem(answers, key, language)
    assert not KEY.search(line), line
    assert "Aki" in line or "Ben" in line
    assert not said_twice(line), line


def said_twice(line: str) -> bool:
    """A player's pile named twice in one line (``Ben's pile: Ben's pile is …``)."""
    return any(line.count(f"{p}'s pile") > 1 or line.replace(" ", "").count(f"{p}の取札") > 1 for p in PLAYERS)


@pytest.mark.parametrize("data", [
    {"dekiyaku": {"Ben": "赤短"}, "captured": {"Ben": ["1r", "1k", "2r", "2k", "3r", "3k"]}},
    {"points": {"Ben": 30}},
    {"captured": {"Ben": ["1h", "1k"], "Aki": ["1h", "1k"]}},
])
def test_the_validator_at_the_table_says_where_in_words(data):
    full = {"players": list(PLAYERS), "dealer": "Aki", "field": SMALL.split(), "ended_by": "Ben", **data}
    found = check_draft(full).problems
    assert found, full
    for language in ("en", "ja"):
        line = lang.in_language(language, lambda: str(lang.worded(found[0].message)))
        assert not KEY.search(line) and not said_twice(line), line


def test_a_counted_pile_is_told_what_to_give():
    line = problem({**SAGE, "ended": "Ben", "sage": "", "pile:Ben": "=30"}, "pile:Ben")
    assert "give its cards, or its 出来役's names" in line and "give them" not in line, line


def test_what_is_thrown_away_is_counted_without_more():
    v = q.view(q.Givens(PLAYERS, "Aki"), {"field": SMALL, "hand:Aki": "", "hand:Ben": ""})
    said = str(q.typed_summary(v, {"field": SMALL, "hand:Aki": "", "hand:Ben": ""}))
    assert said == "3 answers", said
    answers = {"field": SMALL, "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "", "ended": "",
               "pile:Aki": "1hk 3*", "pile:Ben": "akatan inosika"}
    said = str(q.typed_summary(q.view(q.Givens(PLAYERS, "Aki"), answers), answers))
    assert said == "Aki's pile, 6 cards and 7 other answers", said  # a refused pile is an answer, not 0 cards


def test_round_discard_says_once_what_it_threw_away(book_file):
    book = store.Book.open(book_file)
    book.new_session(list(PLAYERS))
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft

    rd = RoundDraft.begin(Night(book, "s1", load=True), "round", None)
    rd.answer("field", SMALL)
    for language, twice in (("en", "thrown away"), ("ja", "破棄しました")):
        result = runner.invoke(args=["--lang", language, "round", "--discard", "--yes"])
        assert result.exit_code == 0, result.output
        assert result.stdout.count(twice) == 1, result.stdout
        rd = RoundDraft.restore(Night(book, "s1", load=True))


def test_an_edit_stopped_says_how_its_own_answers_are_thrown_away(book_file, monkeypatch):
    book = store.Book.open(book_file)
    sid = book.new_session(list(PLAYERS))
    add_round(book, sid, json.loads((GOLDEN / "plain-teyaku.round.json").read_text("utf-8")))

    typed = [""]  # the 親 kept, then Ctrl-C: an answer is kept in the edit's draft

    def stop(prompt: str = "") -> str:
        if typed:
            return typed.pop()
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", stop)
    result = runner.invoke(args=["edit", "1"], env={"COLUMNS": "400"})
    assert result.exit_code == 1, result.output
    assert "`hachi-score edit 1` offers to resume them, or to throw them away" in result.output, result.output
    assert "round --discard" not in result.output


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_broken_book_says_what_is_broken_in_the_language_spoken(book_file, language):
    book_file.parent.mkdir(parents=True)
    book_file.write_text('{"meta": {"1": {"schema": 2, "current": "s1', encoding="utf-8")
    result = runner.invoke(args=["--lang", language, "sessions"])
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert "starting at" not in line and "at (" not in line, line
    if language == "ja":
        assert not re.search(r"Unterminated|string", line), line
    else:
        assert "Unterminated string (cut short?)" in line, line


def test_an_error_quotes_forty_characters_of_what_was_typed():
    long = "Bartholomew-" + "x" * 40
    result = runner.invoke(args=["new-session", long, "Ben", "Chie"])
    assert result.exit_code == 2, result.output
    assert repr(long[:40]) in result.stderr and f"{len(long)} characters" in result.stderr, result.stderr
    assert result.stderr.count(str(len(long))) == 1, result.stderr  # its length said once


def test_a_pile_s_count_typed_too_long_is_quoted_to_forty_characters():
    answers = {"field": SMALL, "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "", "ended": "",
               "pile:Aki": "=" + "9" * 100}
    line = problem(answers, "pile:Aki")
    assert "(101 characters)" in line and "9" * 41 not in line, line
