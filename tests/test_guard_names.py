"""Issue 10, names and answers: one name whatever its case, width or spaces; the entry's words
are not names; --dealer takes what the prompts take; an ambiguous start says so; and after a bad
answer Enter does not submit it again."""

from __future__ import annotations

import json

import pytest

import crash_harness as ch
from entry_lines import Script, answers, console, printed
from fast_cli import FastRunner, one_line_error
from scorekeeper.entry import RoundEntry
from helpers import add_round

runner = FastRunner()


@pytest.mark.parametrize("names", [
    ["Aki", "aki", "Ben"],
    ["Aki", "ＡＫＩ", "Ben"],
    ["Aki Tanaka", "aki  tanaka", "Ben"],
    ["花子", "Ben", " 花子 "],
])
def test_names_equal_after_folding_are_one_name(book_file, tmp_path, names):
    line = one_line_error(runner.invoke(args=["new-session", "--", *names]))
    assert "same name" in line or "twice" in line
    assert not book_file.exists()
    f = tmp_path / "r.json"
    f.write_text(json.dumps(dict(ch.NIGHT[0], players=names, dealer=names[0]), ensure_ascii=False), "utf-8")
    line = one_line_error(runner.invoke(args=["score", str(f)]))
    assert "players" in line and ("same name" in line or "twice" in line)


@pytest.mark.parametrize("word", ["back", "rest", "?", "-", "pot", "Pot", "none", "out", "BACK", "help", "なし"])
def test_the_entrys_words_are_not_names(book_file, tmp_path, word):
    line = one_line_error(runner.invoke(args=["new-session", "--", "Aki", word, "Chie"]))
    assert repr(word) in line
    f = tmp_path / "r.json"
    rnd = {k: v for k, v in ch.NIGHT[0].items() if k not in ("players",)}
    f.write_text(json.dumps(dict(rnd, players=["Aki", word, "Chie"]), ensure_ascii=False), "utf-8")
    assert repr(word) in one_line_error(runner.invoke(args=["score", str(f)]))


@pytest.mark.parametrize("typed, dealer", [("2", "Ben"), ("be", "Ben"), ("CHIE", "Chie"), ("ｃｈ", "Chie"), ("Ben", "Ben")])
def test_dealer_takes_what_the_prompts_take(book_file, typed, dealer):
    result = runner.invoke(args=["new-session", "Aki", "Ben", "Chie", "--dealer", typed])
    assert result.exit_code == 0, result.output
    assert f"first 親 {dealer};" in result.stdout
    data = json.loads(runner.invoke(args=["summary", "--json"]).stdout)
    assert data["players"] == ["Aki", "Ben", "Chie"]


def test_an_ambiguous_dealer_says_ambiguous(book_file):
    line = one_line_error(runner.invoke(args=["new-session", "Aki", "Akira", "Ben", "--dealer", "ak"]))
    assert "ambiguous" in line and "Aki" in line and "Akira" in line
    line = one_line_error(runner.invoke(args=["new-session", "Aki", "Akira", "Ben", "--dealer", "Dan"]))
    assert "--dealer" in line and "'Dan'" in line


def test_an_ambiguous_start_at_the_prompt_says_ambiguous():
    players = ["Aki", "Akira", "Ben"]
    rnd = dict(ch.NIGHT[0], players=players, dealer="Aki")
    rnd = json.loads(json.dumps(rnd).replace('"Chie"', '"Akira"'))
    lines = answers(rnd)
    con = console()
    entry = RoundEntry(players, "Aki", Script(["ak"] + lines), con)
    entry.run()
    assert "'ak' is ambiguous: Aki or Akira?" in printed(con)


def test_the_resolver_is_shared():
    from scorekeeper import names, questions, schema

    assert questions.resolve_player is names.resolve_player
    assert "resolve_player" in open(schema.__file__, encoding="utf-8").read()  # a new session's first 親


def test_after_a_bad_answer_enter_keeps_the_default_it_had():
    rnd = ch.NIGHT[0]
    lines = answers(rnd)
    # a bad 親, then Enter: the proposed 親 is taken, not the bad answer again
    script = Script(["zz", "", "1h 1h", ""] + lines[1:])
    con = console()
    outcome = RoundEntry(ch.PLAYERS, rnd["dealer"], script, con).run()
    assert script.prompts[1].endswith(f"[{rnd['dealer']}]: ")
    assert "[zz]" not in "".join(script.prompts)
    # the bad field answer did not become the field's default either
    field_prompts = [p for p in script.prompts if p.startswith("場札")]
    assert len(field_prompts) == 3 and all("1h 1h" not in p for p in field_prompts)
    assert outcome.round_file["dealer"] == rnd["dealer"]


def test_a_book_made_before_keeps_its_players_readable(book_file):
    """Names an older hachi-score took ("Rest", "aki" beside "Aki") are refused for new sessions,
    but a session that has them still replays: its players were checked when it was made."""
    from scorekeeper import night, store
    from scorekeeper.scoring import score_dict

    b = store.Book.open(book_file)
    sid = b.new_session(["Aki", "Ben", "Chie"])
    add_round(b, sid, ch.bare(ch.NIGHT[0]))
    session = dict(b.session(sid), players=["Aki", "Rest", "aki"])
    rounds = [dict(r, round=json.loads(json.dumps(r["round"]).replace('"Ben"', '"Rest"').replace('"Chie"', '"aki"')))
              for r in session["rounds"]]
    session["rounds"] = rounds
    results = night.replay(session)
    assert [r.players["Rest"].mon for r in results] == [score_dict(ch.NIGHT[0]).players["Ben"].mon]
