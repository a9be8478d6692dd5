"""Bad input that used to be taken (issue 25): a misspelt key of a round file, typed text echoed
whole in an error line, and names that carry invisible characters or surrounding spaces.

Each is refused with one line naming the problem and where (status 2), and nothing is saved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fast_cli import FastRunner
from helpers import BIG_FIELD, EXAMPLE_PILES, played_out

from scorekeeper import lang
from scorekeeper.cli import app
from scorekeeper.scoring import ROUND_KEYS, Round, RoundError
from scorekeeper.rules import profile
from helpers import profile_of

ROOT = Path(__file__).parent.parent
runner = FastRunner()
#: a pasted megabyte's worth: what a person never typed, and a line must not echo whole
HUGE = 2_000_000


def declared() -> dict:
    """A good round whose Ben declares 三本 by name (a misspelt ``teyaku`` loses him 三本)."""
    return played_out(EXAMPLE_PILES, field=BIG_FIELD, teyaku={"Ben": "三本"})


def refused(args: list[str], *, input: str | None = None) -> str:
    """The one line of a command refused as bad input (status 2)."""
    result = runner.invoke(app, args, input=input)
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hachi-score: "), result.stderr
    assert result.stdout == ""
    return lines[0]


# --- a round file's keys (CONTRACT §3, §7) ----------------------------------------------------


def test_a_misspelt_key_is_refused_naming_the_key_meant():
    data = declared()
    data["teyku"] = data.pop("teyaku")
    with pytest.raises(RoundError) as e:
        Round.from_dict(data)
    assert str(e.value) == 'unknown key "teyku" (did you mean "teyaku"?)'


@pytest.mark.parametrize("typed, meant", [("captued", "captured"), ("endedby", "ended_by"), ("Sage", "sage"),
                                          ("hand", "hands"), ("droped", "dropped")])
def test_every_key_of_the_round_file_is_checked(typed, meant):
    data = declared()
    data[typed] = None  # a null is still a key typed
    with pytest.raises(RoundError, match=f'unknown key "{typed}" \\(did you mean "{meant}"\\?\\)'):
        Round.from_dict(data)


def test_a_key_like_no_other_lists_the_keys_a_round_file_holds():
    data = {**declared(), "comment": "Friday's third round"}
    with pytest.raises(RoundError, match='unknown key "comment" \\(a round file holds players dealer field'):
        Round.from_dict(data)


@pytest.mark.parametrize("typed", ["\n", "a\u2028b", "\u202eyaku"])
def test_a_key_of_invisible_characters_is_shown_escaped_in_one_line(typed):
    for data in ({**declared(), typed: 1}, {**declared(), "hands": {typed: []}}):
        with pytest.raises(RoundError) as e:
            Round.from_dict(data)
        assert len(str(e.value).splitlines()) == 1 and repr(typed)[1:-1] in str(e.value), str(e.value)


def test_every_key_the_tool_writes_is_a_key_it_reads():
    """The keys of CONTRACT §3 and §7, with ``carry`` and ``pot`` (which ``score --json`` writes
    too) among them: a round file as the tool writes it loads again."""
    assert set(ROUND_KEYS) == {"players", "dealer", "field", "hands", "teyaku", "captured", "sage", "ended_by",
                               "ended_how", "dropped", "carry", "pot", "points", "kasu", "dekiyaku", "unasked", "field_given",
                               "liable", "mizuten", "blank"}
    data = {**declared(), "sage": None, "ended_by": None, "ended_how": None, "dropped": [], "carry": [], "pot": 0,
            "liable": {}, "mizuten": False, "blank": None}
    rnd = Round.from_dict(data)
    assert Round.from_dict(rnd.to_dict()).to_dict() == rnd.to_dict()


@pytest.mark.parametrize("path", sorted([*ROOT.glob("samples/**/*.json"), *ROOT.glob("tests/golden/*/*.round.json")]),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_and_golden_round_file_still_loads(path):
    Round.from_dict(json.loads(path.read_text(encoding="utf-8")), rules=profile_of(path))


def test_score_refuses_a_misspelt_key_with_one_line_and_prints_nothing(tmp_path):
    data = declared()
    data["teyku"] = data.pop("teyaku")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    line = refused(["score", str(path), "--json"])
    assert line == f'hachi-score: {path}: unknown key "teyku" (did you mean "teyaku"?)'


def test_round_file_refuses_a_misspelt_key_and_saves_nothing(tmp_path, book_file):
    runner.invoke(app, ["new-session", "Aki", "Ben", "Chie"])
    before = book_file.read_bytes()
    data = declared()
    data["teyku"] = data.pop("teyaku")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    line = refused(["round", "--file", str(path)])
    assert 'unknown key "teyku" (did you mean "teyaku"?)' in line
    assert book_file.read_bytes() == before


# --- typed text echoed in an error line -------------------------------------------------------


def test_typed_text_is_echoed_whole_or_cut_with_its_length():
    assert lang.quote("Aki") == "'Aki'"
    assert lang.quote("x" * 40) == repr("x" * 40)
    assert lang.quote("x" * HUGE) == f"{'x' * 40!r}… (2,000,000 characters)"
    assert lang.echo("k" * 41) == "k" * 40 + "… (41 characters)"


def test_a_huge_session_name_is_not_echoed_whole(book_file):
    runner.invoke(app, ["new-session", "Aki", "Ben", "Chie"])
    for args in (["summary", "s" * HUGE], ["use", "s" * HUGE], ["new-session", "Aki", "Ben", "Chie", "--name", "s" * HUGE]):
        line = refused(args)
        assert len(line) < 300 and "(2,000,000 characters)" in line, line[:300]


def test_a_huge_token_of_a_round_file_is_not_echoed_whole(tmp_path):
    path = tmp_path / "r.json"
    for where, data in (("field", {**declared(), "field": ["1h" * (HUGE // 2)]}),
                        ("dealer", {**declared(), "dealer": "A" * HUGE}),
                        ("", {**declared(), "k" * HUGE: 1})):
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        line = refused(["score", str(path)])  # the cut token, and at most the list of keys beside it
        assert len(line) < 400 and "(2,000,000 characters)" in line and where in line, line[:400]


def test_a_huge_player_typed_for_the_dealer_is_not_echoed_whole():
    line = refused(["new-session", "Aki", "Ben", "Chie", "--dealer", "B" * HUGE])
    assert len(line) < 300 and "(2,000,000 characters)" in line, line[:300]


def test_a_cut_line_reads_as_japanese_in_japanese(book_file):
    runner.invoke(app, ["new-session", "Aki", "Ben", "Chie"])
    line = refused(["--lang", "ja", "summary", "s" * HUGE])
    assert "（全 2,000,000 文字）" in line, line[:300]


# --- names: as kept, and what they can't hold -------------------------------------------------


def test_a_new_sessions_names_are_kept_without_surrounding_spaces_and_in_one_form(book_file):
    """`` Aki`` is Aki, and ``é`` typed as e and its accent is the one character é (NFC)."""
    runner.invoke(app, ["new-session", " Aki", "Ben\u3000", "Cha\u0301", "--name", " Friday "])
    summary = json.loads(runner.invoke(app, ["summary", "--json"]).stdout)
    assert summary["players"] == ["Aki", "Ben", "Chá"] and summary["name"] == "Friday"
    assert summary["dealer"] == "Aki"


@pytest.mark.parametrize("char, named", [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"), ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"), ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("\u00ad", "U+00AD SOFT HYPHEN"), ("\u2028", "U+2028 LINE SEPARATOR"), ("\u2029", "U+2029 PARAGRAPH SEPARATOR"),
    ("\ue000", "U+E000"), ("\u0378", "U+0378"), ("\u200d", "U+200D ZERO WIDTH JOINER"), ("\x07", "U+0007"),
])
def test_a_name_holding_an_invisible_or_format_character_is_refused_naming_it(tmp_path, book_file, char, named):
    name = f"Be{char}n"
    line = refused(["new-session", "Aki", name, "Chie"])
    assert named in line and repr(name) in line, line
    assert not book_file.exists()
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**declared(), "players": ["Aki", name, "Chie"]}), encoding="utf-8")
    assert named in refused(["score", str(path)])
    if char not in "\u2028\u2029":  # a separator is a space between words of a session's name
        line = refused(["new-session", "Aki", "Ben", "Chie", "--name", f"Fri{char}day"])
        assert line.startswith("hachi-score: --name: ") and named in line, line
    assert not book_file.exists()


@pytest.mark.parametrize("name", ["👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "山田\u3000太郎", "Zoë"])
def test_names_of_every_script_and_emoji_are_still_names(book_file, name):
    result = runner.invoke(app, ["new-session", "Aki", name, "Chie"])
    assert result.exit_code == 0, result.output
    assert json.loads(runner.invoke(app, ["summary", "--json"]).stdout)["players"] == ["Aki", name, "Chie"]


@pytest.mark.parametrize("key", ["²", "①", "٣x"])
def test_a_session_named_by_a_digit_that_is_not_a_number_is_no_session(book_file, key):
    """'²' is a digit to str.isdigit() but no number to int(): `summary ²` said an internal
    error (found by the fuzz); it is a session the book does not hold, status 2."""
    runner = FastRunner()
    assert runner.invoke(app, ["new-session", "Aki", "Ben", "Chie"]).exit_code == 0
    result = runner.invoke(app, ["summary", key])
    assert result.exit_code == 2 and f"no session '{key}'" in result.stderr, result.stderr
    assert "internal error" not in result.stderr
