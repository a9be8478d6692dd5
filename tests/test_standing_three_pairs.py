"""TRADITIONAL §11.4: ``standing_three_pairs = false``: no 二立三本 or 三本立三本; a hand of two
threes, whatever its threes, makes 二三本; 立三本 (one standing three) is unchanged. The switch
is fudawiki's alone; at its default (true) nothing changes, under either base."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fast_cli import FastRunner

from scorekeeper.cli import app
from scorekeeper.house import HouseRuleError, load
from scorekeeper.notation import parse_cards
from scorekeeper.rules import FUDAWIKI, SDIN, Rules
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.yaku import teyaku_all

runner = FastRunner()
GOLDEN = Path(__file__).parent / "golden" / "fudawiki"

TWO_STANDING = "4t 4r 4k 5t 5r 5k 1k"  # 藤 and 菖蒲: two standing threes
ONE_STANDING_OF_TWO = "4t 4r 4k 1h 1r 1k 2k"  # 藤 stands, 松 does not
TWO_PLAIN = "1h 1r 1k 2t 2r 2k 3k"  # 松 and 梅: neither stands
ONE_STANDING = "4t 4r 4k 1k 2k 3k 6k"  # one three: 立三本
ONE_PLAIN = "1h 1r 1k 2k 3k 6k 9k"  # one three: 三本


def house(tmp_path: Path, body: str, base: str = "fudawiki") -> Rules:
    path = tmp_path / "house.toml"
    path.write_text(f'base = "{base}"\nname = "h"\n' + body, encoding="utf-8")
    return load(path)


@pytest.fixture
def off(tmp_path: Path) -> Rules:
    return house(tmp_path, "standing_three_pairs = false\n")


def group_a(hand: str, rules: Rules) -> str:
    return teyaku_all(parse_cards(hand), rules)[0]


@pytest.mark.parametrize("hand, made", [(TWO_STANDING, "二立三本"), (ONE_STANDING_OF_TWO, "三本立三本"),
                                        (TWO_PLAIN, "二三本"), (ONE_STANDING, "立三本"), (ONE_PLAIN, "三本")])
def test_on_by_default_each_hand_makes_its_row(hand, made, tmp_path):
    assert group_a(hand, FUDAWIKI) == made
    assert group_a(hand, house(tmp_path, "standing_three_pairs = true\n")) == made


@pytest.mark.parametrize("hand, made", [(TWO_STANDING, "二三本"), (ONE_STANDING_OF_TWO, "二三本"),
                                        (TWO_PLAIN, "二三本"), (ONE_STANDING, "立三本"), (ONE_PLAIN, "三本")])
def test_off_two_threes_make_nisanbon_whatever_they_are_and_one_three_is_unchanged(hand, made, off):
    assert group_a(hand, off) == made


def test_off_the_two_rows_leave_the_table_and_nothing_else_changes(off):
    names = [row.name for row in off.teyaku_table]
    assert "二立三本" not in names and "三本立三本" not in names
    kept = [row for row in FUDAWIKI.teyaku_table if row.name not in ("二立三本", "三本立三本", "二三本")]
    assert [row for row in off.teyaku_table if row.name != "二三本"] == kept
    assert off._replace(name=FUDAWIKI.name, teyaku_table=FUDAWIKI.teyaku_table, standing_three_pairs=True) == FUDAWIKI


def test_at_its_default_the_stored_profile_and_its_key_are_unchanged(tmp_path):
    on = house(tmp_path, "standing_three_pairs = true\n")
    assert on == FUDAWIKI._replace(name="h")
    assert "standing_three_pairs" not in on.to_dict() and "standing_three_pairs" not in FUDAWIKI.switches()


def test_off_is_stored_and_read_back(off):
    stored = off.to_dict()
    assert stored["standing_three_pairs"] is False
    assert Rules.from_dict(json.loads(json.dumps(stored, ensure_ascii=False))) == off
    assert off.key() != FUDAWIKI._replace(name="h").key()


def test_off_a_declared_standing_pair_is_refused(off):
    data = json.loads((GOLDEN / "plain-teyaku-a-plus-b.round.json").read_text(encoding="utf-8"))
    player = data["players"][0]
    data["teyaku"] = {player: "二立三本"}
    with pytest.raises(RoundError, match="二立三本"):
        score_dict(data, rules=off)


def test_off_a_value_for_the_rows_is_accepted_and_unused(tmp_path):
    rules = house(tmp_path, 'standing_three_pairs = false\n[values]\n"二立三本" = 9\n"三本立三本" = 9\n')
    assert "二立三本" not in rules.values() and rules.values()["二三本"] == 6
    with pytest.raises(HouseRuleError, match="whole number"):
        house(tmp_path, 'standing_three_pairs = false\n[values]\n"二立三本" = "nine"\n')


def test_under_sdin_only_its_default_is_accepted(tmp_path):
    assert house(tmp_path, "standing_three_pairs = true\n", base="sdin") == SDIN._replace(name="h")
    with pytest.raises(HouseRuleError, match=r"standing_three_pairs: .*base = \"fudawiki\""):
        house(tmp_path, "standing_three_pairs = false\n", base="sdin")
    with pytest.raises(HouseRuleError, match="standing_three_pairs: must be true or false"):
        house(tmp_path, 'standing_three_pairs = "no"\n')


def test_rules_json_and_screen_say_it_when_off(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "fudawiki"\nname = "h"\nstanding_three_pairs = false\n', encoding="utf-8")
    shown = json.loads(runner.invoke(app, ["rules", str(path), "--json"]).output)
    assert shown["standing_three_pairs"] is False and "二立三本" not in shown["values"]
    screen = runner.invoke(app, ["rules", str(path)], env={"COLUMNS": "120"}).output
    assert "standing_three_pairs" in screen
