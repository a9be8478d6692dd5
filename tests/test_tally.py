"""A pile's tally (cards.py): every field it answers equals the plain count over the cards, for
any multiset of up to TALLY_EXACT cards, and the 手役 key worked out from a hand's tally equals
the one worked out from its shape."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import (
    CARD_POINTS, DECK, DECK_COUNT, FACES, HAND_POINTS, TALLY_EXACT, month_plane, plane_months, tally_by_hand_points,
    tally_cards, tally_count, tally_has_four, tally_holds, tally_low, tally_month, tally_month_planes,
    tally_odd_months, tally_of, tally_points, tally_within_deck,
)
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.yaku import (
    HandShape, _standing_threes, dekiyaku, shape_key, shape_teyaku_all, special, tally_dekiyaku, teyaku_all,
)

any_cards = st.lists(st.sampled_from(FACES), max_size=TALLY_EXACT)
deck_piles = st.permutations(DECK).flatmap(lambda d: st.integers(0, 48).map(lambda n: d[:n]))
hands = st.permutations(DECK).map(lambda d: d[:7])


@settings(max_examples=400)
@given(any_cards)
def test_every_field_is_the_plain_count(cards):
    t = tally_of(cards)
    counts = Counter(cards)
    months = Counter(c.month for c in cards)
    assert tally_count(t) == len(cards)
    assert tally_points(t) == sum(CARD_POINTS[c] for c in cards)
    assert tally_low(t) == sum(1 for c in cards if HAND_POINTS[c] == 1)
    assert all(tally_holds(t, c) == counts[c] for c in FACES)
    assert all(tally_month(t, m) == months[m] for m in range(1, 13))
    assert tally_odd_months(t) == sorted(m for m, n in months.items() if n % 2)
    assert tally_within_deck(t) == all(n <= DECK_COUNT[c] for c, n in counts.items())
    assert tally_cards(t) == tuple(sorted(cards, key=lambda c: (c.month, "htrk".index(c.kind_code))))
    assert tally_by_hand_points(t) == {p: sum(1 for c in cards if HAND_POINTS[c] == p) for p in (20, 10, 5, 1)}


def test_one_card_over_the_deck_is_seen_at_the_boundary():
    two_kasu = [c for c in FACES if DECK_COUNT[c] == 2][0]
    assert tally_within_deck(tally_of([two_kasu] * 2))
    assert not tally_within_deck(tally_of([two_kasu] * 3))
    assert tally_within_deck(tally_of(DECK)) and not tally_within_deck(tally_of(DECK + DECK[:1]))


@settings(max_examples=300)
@given(deck_piles)
def test_month_planes_within_the_deck(pile):
    t = tally_of(pile)
    months = Counter(c.month for c in pile)
    planes = tally_month_planes(t)
    for n, plane in zip((1, 2, 3, 4), planes):
        assert plane_months(plane) == sorted(m for m, k in months.items() if k == n)
        assert plane == month_plane(m for m, k in months.items() if k == n)
    assert tally_has_four(t) == (4 in months.values())


@settings(max_examples=300)
@given(hands)
def test_the_hand_key_from_the_tally_is_the_shapes(hand):
    shape = HandShape.of(hand)
    months = Counter(c.month for c in hand)
    assert shape.counts == tuple(sorted(months.values(), reverse=True))
    assert shape.threes == {m for m, n in months.items() if n == 3}
    key = shape_key(shape)
    assert key[-1] == _standing_threes(shape)
    for rules in (SDIN, FUDAWIKI):
        assert teyaku_all(hand, rules) == shape_teyaku_all(shape, rules)


@settings(max_examples=300)
@given(deck_piles)
def test_dekiyaku_and_special_of_cards_and_of_tallies_agree(pile):
    for rules in (SDIN, FUDAWIKI):
        assert tuple(dekiyaku(pile, rules)) == tally_dekiyaku(tally_of(pile), rules)
    assert dekiyaku(list(pile) + list(pile)[:3]) == dekiyaku(pile)  # a face twice is still held once
    found = special({"Aki": pile, "Ben": [], "Chie": []}, "Ben")
    assert [n for n, _ in found["Aki"]] == (["二八"] if sum(CARD_POINTS[c] for c in pile) >= 168 else []) + (
        ["素十六"] if sum(1 for c in pile if HAND_POINTS[c] == 1) >= 16 else [])
