"""Issue 10, 手役 answers: a yaku that is no 手役 is said as such; 手役 names in kanji, hiragana,
katakana and romaji (entry and round files alike); only the cards of a 手役 are its declaration
by name, and under fudawiki the entry offers to take the seven cards for 飛び込み."""

from __future__ import annotations


import pytest

import crash_harness as ch
from entry_lines import Script, answers, console, printed
from scorekeeper.entry import RoundEntry
from scorekeeper.rules import FUDAWIKI
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.yaku import teyaku_name

NIGHT1 = ch.NIGHT[0]  # Ben's hand 1k 6k 9t 9k 9k 10k 12h: 三本 (菊)


def enter(lines, rules=None):
    script = Script(lines)
    con = console()
    kwargs = {"rules": rules} if rules else {}
    outcome = RoundEntry(ch.PLAYERS, "Aki", script, con, **kwargs).run()
    return outcome, script, printed(con)


def with_ben(answer: str, rnd=NIGHT1) -> list[str]:
    lines = answers(rnd)
    lines[3] = answer  # hands are asked from the 親 Aki: Aki, Ben, Chie
    return lines


@pytest.mark.parametrize("typed, why", [
    ("赤短", "'赤短' is a 出来役, not a 手役"),
    ("akatan", "'akatan' is a 出来役, not a 手役 (赤短)"),
    ("猪鹿蝶", "'猪鹿蝶' is a 出来役, not a 手役"),
    ("総八", "'総八' is a 特殊役, not a 手役"),
    ("素十六", "'素十六' is a 特殊役, not a 手役"),
])
def test_a_yaku_that_is_no_teyaku_is_said_precisely(typed, why):
    lines = with_ben(typed)
    lines.insert(4, "")  # then Enter: no 手役 (the default is still blank)
    _, _, text = enter(lines)
    assert f"✗ {why}" in text
    assert "is not a card" not in text.split(why)[0].splitlines()[-1]


@pytest.mark.parametrize("typed, name", [
    ("ピカイチ", "光一"), ("pikaichi", "光一"), ("Pikaichi", "光一"), ("ぴかいち", "光一"),
    ("喰い付き", "喰付"), ("kuttsuki", "喰付"), ("クッツキ", "喰付"),
    ("立て三本", "立三本"), ("tatesanbon", "立三本"),
    ("しそう", "四三"), ("shisou", "四三"), ("shisō", "四三"), ("シソウ", "四三"), ("ｓｈｉｓｏｕ", "四三"),
    ("sanbon", "三本"), ("sambon", "三本"), ("サンボン", "三本"),
    ("karasu", "空巣"), ("toichi", "十一"), ("tanichi", "短一"), ("aka", "赤"), ("teshi", "手四"),
    ("haneken", "はねけん"), ("ichinishi", "一二四"),
])
def test_teyaku_names_in_every_script(typed, name):
    assert teyaku_name(typed) == name
    # the same in a round file: a declaration with the hand, the name as typed checked against it
    rnd = dict(NIGHT1, teyaku={"Ben": typed})
    if name == "三本":
        assert score_dict(rnd).players["Ben"].teyaku == "三本"
    else:
        with pytest.raises(RoundError, match="the hand makes 三本"):
            score_dict(rnd)


def test_a_round_files_teyaku_that_is_a_dekiyaku_says_so():
    rnd = {k: v for k, v in NIGHT1.items() if k != "hands"}
    with pytest.raises(RoundError, match="'赤短' is a 出来役, not a 手役"):
        score_dict(dict(rnd, teyaku={"Ben": "赤短"}))


def test_a_teyaku_by_romaji_at_the_entry():
    rnd = {k: v for k, v in NIGHT1.items() if k != "hands"}
    rnd["teyaku"] = {"Ben": "三本"}
    outcome, _, text = enter(with_ben("sambon", rnd))
    assert outcome.round_file["teyaku"] == {"Ben": "三本"}
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_only_the_cards_of_a_teyaku_are_its_declaration_by_name():
    outcome, _, text = enter(with_ben("9t 9k 9k"))
    assert outcome.round_file.get("teyaku") == {"Ben": "三本"} and "Ben" not in outcome.round_file.get("hands", {})
    assert "9t 9k 9k shown, taken as the 手役's name" in text
    declared = dict({k: v for k, v in NIGHT1.items() if k != "hands"}, teyaku={"Ben": "三本"})
    assert outcome.result.to_json() == score_dict(declared).to_json()


def test_cards_that_make_no_single_teyaku_are_still_a_short_hand():
    lines = with_ben("9t 9k")
    lines.insert(4, " ".join(NIGHT1["hands"]["Ben"]))
    _, _, text = enter(lines)
    assert "✗ Ben's hand:" in text  # not taken as a declaration: a hand of two cards


def _fudawiki_round() -> dict:
    # the night's first round under fudawiki: Ben's 三本 of 菊, and his pile holds two 菊 only
    return dict(NIGHT1)


def test_under_fudawiki_the_entry_offers_the_seven_cards_for_tobikomi():
    rnd = _fudawiki_round()
    lines = with_ben("9t 9k 9k")
    lines.insert(4, " ".join(rnd["hands"]["Ben"]))  # the follow-up: the whole hand
    outcome, script, text = enter(lines, rules=FUDAWIKI)
    asked = [p for p in script.prompts if "飛び込み needs the whole hand" in p]
    assert len(asked) == 1 and "Enter: 三本 by name" in asked[0]
    assert outcome.round_file["hands"]["Ben"] == sorted(rnd["hands"]["Ben"], key=lambda c: (int(c[:-1]), "htrk".index(c[-1])))
    assert "teyaku" not in outcome.round_file


def test_under_fudawiki_enter_at_the_follow_up_keeps_the_name():
    lines = with_ben("9t 9k 9k")
    lines.insert(4, "")
    outcome, _, text = enter(lines, rules=FUDAWIKI)
    assert outcome.round_file["teyaku"] == {"Ben": "三本"}
    assert "taken as the 手役's name" in text


@pytest.mark.parametrize("profile_name", ["sdin", "fudawiki", "fudawiki without standing pairs"])
def test_a_profile_s_own_yaku_name_means_itself(profile_name):
    """A name of the profile's own tables is taken as it is (the book stores the names; issue 36: no
    catalog of folded forms is made to read them back): the folded lookup gives the same name."""
    from scorekeeper import yaku
    from scorekeeper.house import _with_standing_three_pairs
    from scorekeeper.rules import profile

    rules = (_with_standing_three_pairs(profile("fudawiki"), False) if profile_name.endswith("pairs")
             else profile(profile_name))
    for row in rules.teyaku_table:
        assert yaku.teyaku_name(row.name, rules) == row.name
        named = yaku.yaku_named(row.name)
        same = next((pair for pair in yaku._SAME_YAKU if named in pair), (named,))
        assert next((n for n in same if n in [r.name for r in rules.teyaku_table]), named) == row.name
    for name in rules.dekiyaku:
        assert yaku.dekiyaku_name(name, rules) == name == yaku.yaku_named(name)
