"""A mistyped 手役 name gets a hint, as a mistyped card does (``sanbonn`` → ``三本?``):
:func:`scorekeeper.yaku.teyaku_hint`, and the one line a round file's bad ``teyaku`` gets."""

import json

import pytest
from fast_cli import FastRunner, one_line_error
from helpers import EXAMPLE_PILES, played_out

from scorekeeper.cli import app
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.yaku import teyaku_hint

runner = FastRunner()


@pytest.mark.parametrize("typed, sdin, fudawiki", [
    ("sanbonn", "三本", "三本"), ("sanbo", "三本", "三本"), ("tatesanbonn", "立三本", "立三本"),
    ("pikaich", "光一", "光一"), ("kuttsukii", "喰付", "喰付"), ("hanekn", "はねけん", "はねけん"),
    ("toiti", "十一", "十一"), ("ak", "赤", "赤"), ("サンボンン", "三本", "三本"),
    ("karasuu", "空巣", "空素"),  # the profile's own spelling
    ("futasanbonn", "立三本", "二三本"),  # only fudawiki has 二三本
])
def test_a_name_one_or_two_letters_off_hints_the_profiles_teyaku(typed, sdin, fudawiki):
    assert teyaku_hint(typed, SDIN) == sdin
    assert teyaku_hint(typed, FUDAWIKI) == fudawiki


@pytest.mark.parametrize("typed", ["", "  ", "a", "aaaa", "xyz", "sbn", "1h", "nope", "x" * 200])
def test_text_far_from_every_teyaku_gets_no_hint(typed):
    assert teyaku_hint(typed, SDIN) is None and teyaku_hint(typed, FUDAWIKI) is None


def declared(name, rules=SDIN):
    with pytest.raises(RoundError) as e:
        score_dict(played_out(EXAMPLE_PILES, teyaku={"Chie": name}), rules=rules)
    return str(e.value)


def test_a_round_files_mistyped_teyaku_ends_with_the_hint():
    assert declared("sanbonn") == "teyaku.Chie: 'sanbonn' is not a 手役 (三本?)"
    assert declared("karasuu", FUDAWIKI) == "teyaku.Chie: 'karasuu' is not a 手役 (空素?)"


def test_without_a_hint_the_line_lists_the_profiles_teyaku():
    assert declared("xyz") == f"teyaku.Chie: 'xyz' is not a 手役 ({' '.join(SDIN.teyaku)})"


def test_a_yaku_that_is_no_teyaku_is_said_so_not_hinted():
    assert "'赤短' is a 出来役, not a 手役" in declared("赤短")


def test_score_prints_the_hint_in_one_line(tmp_path):
    f = tmp_path / "r.json"
    f.write_text(json.dumps(played_out(EXAMPLE_PILES, teyaku={"Chie": "sanbonn"})), encoding="utf-8")
    line = one_line_error(runner.invoke(app, ["score", "--json", str(f)]))
    assert line.endswith("teyaku.Chie: 'sanbonn' is not a 手役 (三本?)")
