"""TRADITIONAL §3: "one three" means exactly one.

A hand of two threes makes 二三本, 三本立三本 or 二立三本, never 三本 or 立三本 as well, whatever values
a house file's ``[values]`` give them. Under SDIN (RULES §4, no two-three rows) a hand of two threes
is 三本 or 立三本. Each sentence is checked at its boundary: one three against two, standing and not.
"""

import pytest
from helpers import EXAMPLE_PILES, cards, played_out

from scorekeeper import house
from scorekeeper.rules import FUDAWIKI, SDIN, Rules
from scorekeeper.scoring import RoundError, score_dict
from scorekeeper.yaku import teyaku_all, teyaku_made

#: house files that raise the one-three rows above every two-three row (二立三本 is 8)
RAISED = house.from_data({"base": "fudawiki", "name": "raised", "values": {"三本": 9, "立三本": 10}})
RAISED_PLAIN = house.from_data({"base": "fudawiki", "name": "raised-plain", "values": {"三本": 8}})

ONE_PLAIN = "1hrk 4t 5t 7t 12h"  # a three of 松, no other three
ONE_STANDING = "4trk 1h 2t 3h 8t"  # a three of 藤
TWO_PLAIN = "1hrk 3hrk 8h"  # 松 and 桜
ONE_OF_TWO_STANDING = "4trk 1hrk 3h"  # 藤 and 松
TWO_STANDING = "4trk 7trk 1h"  # 藤 and 萩
KIRI_PHOENIX_AND_PLAIN = "12hkk 1hrk 3h"  # 桐に鳳凰 with two 桐 kasu is a plain three: two plain threes


def best(hand, rules):
    return teyaku_all(cards(hand), rules)


@pytest.mark.parametrize("rules", [FUDAWIKI, RAISED, RAISED_PLAIN], ids=lambda r: r.name)
@pytest.mark.parametrize("hand, name", [
    (TWO_PLAIN, "二三本"), (KIRI_PHOENIX_AND_PLAIN, "二三本"),
    (ONE_OF_TWO_STANDING, "三本立三本"), (TWO_STANDING, "二立三本"),
])
def test_two_threes_make_a_two_three_row_and_never_sanbon_or_tatesanbon(rules, hand, name):
    assert best(hand, rules) == (name,)
    made = teyaku_made(cards(hand), rules)
    assert name in made and "三本" not in made and "立三本" not in made


@pytest.mark.parametrize("rules", [FUDAWIKI, RAISED, RAISED_PLAIN], ids=lambda r: r.name)
@pytest.mark.parametrize("hand, name", [(ONE_PLAIN, "三本"), (ONE_STANDING, "立三本")])
def test_exactly_one_three_makes_sanbon_or_tatesanbon(rules, hand, name):
    assert best(hand, rules) == (name,)
    assert name in teyaku_made(cards(hand), rules)


def test_raised_one_three_rows_are_paid_at_their_raised_value():
    assert (RAISED.teyaku["三本"], RAISED.teyaku["立三本"]) == (9, 10)
    assert best("4trk 1hr 2tr 3h", RAISED) == ("立三本",)  # はねけん (7) also holds: 立三本 (10) is higher
    assert best("1hrk 2tr 3hr 4t", RAISED) == ("三本",)  # はねけん (7) below a raised 三本 (9)


def test_a_house_round_pays_the_two_three_row_not_a_raised_sanbon():
    """The hand is Chie's; CONTRACT §4's piles (Aki 96, Ben 80, Chie 88): the 手役 aside, Chie gets 0."""
    field = ["2k", "4r", "6k", "7t", "9k", "10k"]
    data = played_out(EXAMPLE_PILES, field=field, hands={"Chie": TWO_PLAIN})
    result = score_dict(data, rules=RAISED_PLAIN)
    assert result.players["Chie"].teyaku_all == ("二三本",)
    assert sorted((p.payer, p.mon) for p in result.payments if p.payee == "Chie") == [("Aki", 60), ("Ben", 60)]
    assert not any(p.reason == "三本" for p in result.payments)


def test_a_declared_sanbon_is_refused_for_a_hand_of_two_threes_under_a_house_file():
    field = ["2k", "4r", "6k", "7t", "9k", "10k"]
    data = played_out(EXAMPLE_PILES, field=field, hands={"Chie": TWO_PLAIN}, teyaku={"Chie": "三本"})
    with pytest.raises(RoundError, match="the hand makes 二三本"):
        score_dict(data, rules=RAISED_PLAIN)


@pytest.mark.parametrize("hand, name", [
    (ONE_PLAIN, "三本"), (TWO_PLAIN, "三本"), (KIRI_PHOENIX_AND_PLAIN, "三本"),
    (ONE_STANDING, "立三本"), (ONE_OF_TWO_STANDING, "立三本"), (TWO_STANDING, "立三本"),
])
def test_under_sdin_a_hand_of_two_threes_is_sanbon_or_tatesanbon(hand, name):
    assert best(hand, SDIN) == (name,)


def test_a_profile_stored_before_the_rule_judges_two_threes_alike():
    """A session stores its profile, tests and all; one stored before "exactly one" named the
    one-three rows' tests ``standing-three`` and ``plain-three`` (at least one three)."""
    stored = RAISED.to_dict()
    old = {"立三本": "standing-three", "三本": "plain-three"}
    stored["teyaku_table"] = [[n, g, k, old.get(n, t)] for n, g, k, t in stored["teyaku_table"]]
    again = Rules.from_dict(stored)
    assert again == RAISED
    assert best(TWO_PLAIN, again) == ("二三本",) and best(ONE_OF_TWO_STANDING, again) == ("三本立三本",)
