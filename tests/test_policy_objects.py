"""The policies that were plain flags and counts (sage_callers, cancel, forced_three,
nanatan_plus) are objects chosen once when the profile is built, asked where they decide, and
stored by the very keys they were stored as (issue "Rules as objects")."""

from __future__ import annotations

import json

import pytest

from scorekeeper import catalog, policy
from scorekeeper.rules import FUDAWIKI, SDIN, Rules
from scorekeeper.scoring import may_drop, nameable
from scorekeeper.yaku import tally_dekiyaku_kan
from scorekeeper.cards import tally_of
from scorekeeper.notation import parse_cards

SLOTS = ("sage_callers", "cancel", "forced_three", "nanatan_plus")


@pytest.mark.parametrize("rules", [SDIN, FUDAWIKI, FUDAWIKI._replace(forced_three=True, nanatan_plus=True)])
def test_each_slot_holds_its_object_and_is_stored_as_before(rules):
    stored = rules.to_dict()
    assert [type(stored[s]) for s in SLOTS] == [int, bool, bool, bool]
    for slot in SLOTS:
        assert getattr(rules, slot) is policy.CHOICES[slot][stored[slot]]
    again = Rules.from_dict(json.loads(json.dumps(stored)))
    assert again == rules and again.key() == rules.key()


@pytest.mark.parametrize("slot", SLOTS)
def test_a_policy_is_asked_never_tested_as_a_flag(slot):
    with pytest.raises(TypeError):
        bool(getattr(FUDAWIKI, slot))


def test_sage_callers_one_any_or_at_most_n():
    assert (SDIN.sage_callers.many, SDIN.sage_callers.refuses(1), SDIN.sage_callers.refuses(2)) == (False, False, True)
    assert (FUDAWIKI.sage_callers.many, FUDAWIKI.sage_callers.refuses(3)) == (True, False)
    two = Rules.from_dict({**FUDAWIKI.to_dict(), "sage_callers": 2})
    assert two.sage_callers is policy.SageCallers.of(2)
    assert (two.sage_callers.refuses(2), two.sage_callers.refuses(3)) == (False, True)
    assert two.to_dict()["sage_callers"] == 2


def test_cancel_is_fudawikis_alone():
    assert (SDIN.cancel.allowed, FUDAWIKI.cancel.allowed) == (False, True)


@pytest.mark.parametrize("seated", [4, 5, 6])
def test_forced_three_forbids_a_drop_exactly_once_only_three_could_play(seated):
    on = FUDAWIKI._replace(forced_three=True)
    last_free = seated - 4  # drops before a seat that leave four who could play: it may still drop
    assert may_drop(seated, last_free, on) and not may_drop(seated, last_free + 1, on)
    assert may_drop(seated, last_free + 1, FUDAWIKI)  # off: it may
    assert not may_drop(3, 0, FUDAWIKI)  # three seated: nobody drops


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_a_stored_flag_that_is_no_bool_is_refused(value):
    with pytest.raises(ValueError, match="cancel"):
        Rules.from_dict({**FUDAWIKI.to_dict(), "cancel": value})


def test_the_climb_is_the_catalog_records_not_a_name():
    climbing = [d.name for d in catalog.CATALOG if d.climbs]
    assert climbing == ["七短"]
    plus = FUDAWIKI._replace(nanatan_plus=True)
    assert [n for n in FUDAWIKI.dekiyaku if n not in nameable(plus)] == climbing
    assert nameable(FUDAWIKI) == tuple(FUDAWIKI.dekiyaku)
    eight = tally_of(parse_cards("1r 2r 3r 4r 5r 6r 7r 11r"))  # 柳's 短冊 counted under nanatan_plus
    seven = tally_of(parse_cards("1r 2r 3r 4r 5r 6r 7r"))
    base = FUDAWIKI.dekiyaku["七短"]
    assert (tally_dekiyaku_kan("七短", seven, plus), tally_dekiyaku_kan("七短", eight, plus)) == (base, base + 1)
    assert tally_dekiyaku_kan("七短", eight, FUDAWIKI) == base
