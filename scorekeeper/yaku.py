"""Yaku as data: 手役 of a dealt hand, 出来役 of a captured pile, 特殊役 of a played-out round.

Every function here is pure. Values come from a :class:`~scorekeeper.rules.Rules` profile.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from .cards import (
    FACES, PAULOWNIA, Card, face_mask, month_plane, plane_months, tally_by_hand_points, tally_holds,
    tally_low, tally_month_planes, tally_of, tally_points,
)
from . import catalog
from .lang import L_, Said, quote
from .rules import SDIN, Rules, TeyakuRow, by_identity


class Yaku(NamedTuple):
    """A yaku's name as output uses it, its reading, and an English gloss."""

    name: str
    reading: str
    gloss: str

    def label(self) -> str:
        """``三本 (さんぼん)`` — the name with its reading, for people."""
        from .lang import noted

        return noted(self.name, self.reading) if self.reading != self.name else self.name


class HandShape(NamedTuple):
    """What 手役 look at: the month counts, largest first, and the cards by 手役 points."""

    counts: tuple[int, ...]
    by_points: Mapping[int, int]
    threes: frozenset[int]  # months held three times
    paulownia_bright: bool  # holds 桐に鳳凰

    @classmethod
    def of(cls, hand: Iterable[Card]) -> "HandShape":
        """The shape of a hand within the deck."""
        return cls.of_tally(tally_of(hand))

    @classmethod
    def of_tally(cls, t: int) -> "HandShape":
        once, twice, thrice, four = tally_month_planes(t)
        counts = (4,) * four.bit_count() + (3,) * thrice.bit_count() + (2,) * twice.bit_count() + (1,) * once.bit_count()
        return cls(counts, tally_by_hand_points(t), frozenset(plane_months(thrice)), bool(tally_holds(t, _PAULOWNIA_BRIGHT)))

    def only_kasu_but(self, points: int) -> bool:
        """One card of ``points`` and six 1-point cards."""
        return self.by_points[points] == 1 and self.by_points[1] == 6


_PAULOWNIA_BRIGHT = Card(PAULOWNIA, "h")
_TATE_MONTHS = frozenset({4, 5, 7})  # 藤 菖蒲 萩; 桐 only as its three kasu


def standing(s: HandShape, month: int) -> bool:
    """A three of ``month`` stands (立): 藤, 菖蒲 or 萩, or the three 桐 kasu."""
    return month in _TATE_MONTHS or (month == PAULOWNIA and not s.paulownia_bright)


def _standing_threes(s: HandShape) -> int:
    return sum(standing(s, m) for m in s.threes)


_TATE_PLANE = month_plane(_TATE_MONTHS)
_PAULOWNIA_PLANE = month_plane([PAULOWNIA])


def _tatesanbon(s: HandShape) -> bool:
    return _standing_threes(s) >= 1


def _one_three(standing_count: int) -> Callable[[HandShape], bool]:
    """Exactly one three, standing or not (TRADITIONAL §3: a hand of two threes makes a two-three row)."""
    return lambda s: len(s.threes) == 1 and _standing_threes(s) == standing_count


def _two_threes(standing_count: int) -> Callable[[HandShape], bool]:
    return lambda s: s.counts[:2] == (3, 3) and _standing_threes(s) == standing_count


#: The 手役 predicates, by the name a profile's table row gives in ``test`` (rules.TeyakuRow).
TEYAKU_TESTS: dict[str, Callable[[HandShape], bool]] = {
    "four-three": lambda s: s.counts[:2] == (4, 3),
    "four-two-one": lambda s: s.counts == (4, 2, 1),
    "two-standing-threes": _two_threes(2),
    "one-standing-of-two-threes": _two_threes(1),
    "three-two-two": lambda s: s.counts == (3, 2, 2),
    "two-plain-threes": _two_threes(0),
    "two-threes": lambda s: s.counts[:2] == (3, 3),  # TRADITIONAL §11.4: whatever the threes
    "four": lambda s: s.counts[0] == 4,
    "all-kasu": lambda s: s.by_points[1] == 7,
    "three-pairs": lambda s: s.counts == (2, 2, 2, 1),
    "one-bright": lambda s: s.only_kasu_but(20),
    "one-animal": lambda s: s.only_kasu_but(10),
    "one-ribbon": lambda s: s.only_kasu_but(5),
    "ribbons": lambda s: s.by_points[5] >= 2 and s.by_points[5] + s.by_points[1] == 7,
    "standing-three": _tatesanbon,
    "three": lambda s: bool(s.threes),
    "one-standing-three": _one_three(1),
    "one-plain-three": _one_three(0),
}

#: 手役 name -> (reading, gloss), from the catalog
_READINGS = {d.name: (d.reading, d.gloss) for d in catalog.of_kind(catalog.TEYAKU)}

#: 手役 of SDIN in table order (RULES.md §4), as (yaku, test): kept for the odds and the entry help.
TEYAKU: tuple[tuple[Yaku, Callable[[HandShape], bool]], ...] = tuple(
    (Yaku(row.name, *_READINGS[row.name]), TEYAKU_TESTS[row.test]) for row in SDIN.teyaku_table
)

def _faces(kind: str, months: Iterable[int]) -> frozenset[Card]:
    return frozenset(Card(m, kind) for m in months)


#: 出来役 in table order (RULES.md §5): the faces each is made of, and how many of them it needs
#: (七短: seven of the nine ribbons that are not 柳's). Which of them a profile pays, and which
#: one inside another is left out (五光 over 四光), is the profile's.
DEKIYAKU_FACES: dict[str, tuple[frozenset[Card], int]] = {
    d.name: (_faces(*d.faces), d.need) for d in catalog.of_kind(catalog.DEKIYAKU)
}
_DEKIYAKU_READINGS = {d.name: (d.reading, d.gloss) for d in catalog.of_kind(catalog.DEKIYAKU)}
#: the 出来役 whose value climbs (七短, its catalog record says): the mask of every card of its
#: kind, 柳's too (counted under nanatan_plus), and its need
_CLIMBING = {d.name: (face_mask(c for c in FACES if c.kind_code == d.faces[0]), d.need)
             for d in catalog.of_kind(catalog.DEKIYAKU) if d.climbs}

#: each 出来役 as a test on a pile's tally: (yaku, the mask of its faces, how many it needs). A
#: pile within the deck holds each of these faces at most once, so a face's low bit says it is held.
DEKIYAKU: tuple[tuple[Yaku, int, int], ...] = tuple(
    (Yaku(name, *_DEKIYAKU_READINGS[name]), face_mask(faces), need) for name, (faces, need) in DEKIYAKU_FACES.items()
)

SPECIAL: tuple[Yaku, ...] = tuple(Yaku(d.name, d.reading, d.gloss) for d in catalog.of_kind(catalog.SPECIAL))

BONUSES: tuple[Yaku, ...] = tuple(Yaku(d.name, d.reading, d.gloss) for d in catalog.of_kind(catalog.BONUS))

YAKU_BY_NAME: dict[str, Yaku] = {d.name: Yaku(d.name, d.reading, d.gloss) for d in catalog.YAKU.values()}

#: the 手役 names an input may use for one another (CONTRACT §2: 空素 and 空巣 for either profile)
TEYAKU_ALIASES = {
    "短カス": "赤", "赤 (短カス)": "赤", "赤(短カス)": "赤", "赤（短カス）": "赤",
}
_SAME_YAKU = catalog.SAME_PAIRS


def teyaku_made(hand: Sequence[Card], rules: Rules = SDIN) -> list[str]:
    """Every 手役 name of the profile's table that the 7-card hand satisfies, in table order."""
    return shape_teyaku_made(HandShape.of(hand), rules)


def shape_teyaku_made(shape: HandShape, rules: Rules = SDIN) -> list[str]:
    """:func:`teyaku_made` of a hand's shape."""
    return [row.name for row in rules.teyaku_table if TEYAKU_TESTS[row.test](shape)]


def teyaku(hand: Sequence[Card], rules: Rules = SDIN) -> str | None:
    """手役 of a dealt hand: the first of :func:`teyaku_all` (under SDIN, the single highest)."""
    best = shape_teyaku_all(HandShape.of(hand), rules)
    return best[0] if best else None


def teyaku_all(hand: Sequence[Card], rules: Rules = SDIN) -> tuple[str, ...]:
    """The 手役 a hand scores: the best of each group of the profile, in group order.

    Under SDIN the profile has one group, so this is the single highest (RULES §4); under
    ``fudawiki`` the best of Group A and the best of Group B (TRADITIONAL §3). A group's best is
    the highest value, ties going to the row higher in the table.
    """
    return tally_teyaku_all(tally_of(hand), rules)


def tally_teyaku_all(t: int, rules: Rules = SDIN) -> tuple[str, ...]:
    """:func:`teyaku_all` of a hand's tally (a hand within the deck)."""
    table = rules.teyaku_table
    by_tally = _judgements(table)[1]
    found = by_tally.get(t)
    if found is not None:  # the same hand, judged a moment ago (read, then scored)
        return found
    once, twice, thrice, four = tally_month_planes(t)
    standing_threes = (thrice & _TATE_PLANE).bit_count() + (
        bool(thrice & _PAULOWNIA_PLANE) and not tally_holds(t, _PAULOWNIA_BRIGHT))
    points = tally_by_hand_points(t)
    key = (four.bit_count(), thrice.bit_count(), twice.bit_count(), once.bit_count(),
           points[20], points[10], points[5], points[1], standing_threes)
    found = _judged(key, table, t)
    if len(by_tally) >= _HANDS_KEPT:
        by_tally.clear()
    by_tally[t] = found
    return found


def shape_teyaku_all(shape: HandShape, rules: Rules = SDIN) -> tuple[str, ...]:
    """:func:`teyaku_all` of a hand's shape. Judged once per shape and table: the 73 million
    hands have only a few hundred shapes, so a batch judges each shape once."""
    return _judged(shape_key(shape), rules.teyaku_table, shape)


def shape_key(shape: HandShape) -> tuple[int, ...]:
    """All that the 手役 tests look at: how many months are held four, three, two times and
    once, the cards by 手役 points, and how many of the threes stand (:func:`teyaku_all` works
    the same key out from a hand's tally)."""
    points = shape.by_points
    return (*(shape.counts.count(n) for n in (4, 3, 2, 1)), points[20], points[10], points[5], points[1],
            _standing_threes(shape))


#: what each 手役 table judged, by :func:`~scorekeeper.rules.by_identity`: its judgements by shape
#: key, and by hand tally (the last few hands: a round's hand is judged when it is read and again
#: when it is scored)
_JUDGED: dict[int, tuple[Any, tuple[dict[tuple[int, ...], tuple[str, ...]], dict[int, tuple[str, ...]]]]] = {}
#: a bound on the shapes judged, for a process that judges many house tables
_BOUND = 8192
#: the hands kept by tally: a round's hands are judged again a moment after they are read, so a
#: few suffice (a batch's 20,000 rounds keep no more memory for it)
_HANDS_KEPT = 64


def _judgements(table: tuple[TeyakuRow, ...]) -> tuple[dict[tuple[int, ...], tuple[str, ...]], dict[int, tuple[str, ...]]]:
    """The judgements of ``table`` (:data:`_JUDGED`): by shape key, and by hand tally."""
    return by_identity(_JUDGED, table, lambda: ({}, {}))


def _judged(key: tuple[int, ...], table: tuple[TeyakuRow, ...], hand: HandShape | int) -> tuple[str, ...]:
    """The best 手役 of each group for a shape's key, judged on ``hand`` (a shape, or a hand's
    tally to make one from) the first time the key is seen."""
    by_key = _judgements(table)[0]
    found = by_key.get(key)
    if found is None:
        shape = hand if isinstance(hand, HandShape) else HandShape.of_tally(hand)
        best: dict[str, TeyakuRow] = {}
        for row in table:
            if TEYAKU_TESTS[row.test](shape):
                held = best.get(row.group)
                if held is None or row.kan > held.kan:
                    best[row.group] = row
        groups = tuple(dict.fromkeys(row.group for row in table))
        found = tuple(best[g].name for g in groups if g in best)
        if len(by_key) < _BOUND:
            by_key[key] = found
    return found


def shape_teyaku(shape: HandShape, rules: Rules = SDIN) -> str | None:
    """The single highest 手役 of a hand's shape under an SDIN-like profile."""
    best = shape_teyaku_all(shape, rules)
    return best[0] if best else None


#: Other ways to write each yaku, as input (beside its name and its reading, which are in
#: ``_READINGS`` and the tables above): romaji (Hepburn; ``shisō`` folds to ``shisou``), okurigana
#: spellings, common alternatives. Katakana, full width, case and spaces are folded by
#: :func:`yaku_key`, so ピカイチ, ｐｉｋａｉｃｈｉ and Pikaichi are one.
YAKU_ALIASES: dict[str, tuple[str, ...]] = {d.name: d.aliases for d in catalog.YAKU.values() if d.aliases}

_MACRONS = str.maketrans({"ō": "ou", "ū": "uu", "ā": "aa", "ē": "ee", "ī": "ii", "ô": "ou", "û": "uu"})


def yaku_key(text: str) -> str:
    """A yaku's name as typed, folded for comparison: NFKC, case, katakana as hiragana, macrons
    as doubled vowels, Hepburn's ``m`` before b/p as ``n``, spaces, ``-``, ``'`` and ・ left out."""
    import re

    from .names import fold  # text is folded in one place; yaku names fold a little further

    folded = fold(text).translate(_MACRONS)
    folded = "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in folded)
    folded = re.sub(r"[\s\-'・()（）]", "", folded)
    return re.sub(r"m(?=[bp])", "n", folded)


@lru_cache(maxsize=1)
def _yaku_keys() -> dict[str, frozenset[str]]:
    """Every yaku name -> the folded forms it is typed in."""
    out: dict[str, set[str]] = {}
    for name, y in YAKU_BY_NAME.items():
        forms = out.setdefault(name, set())
        forms.update(yaku_key(x) for x in (name, y.reading, *YAKU_ALIASES.get(name, ())))
    return {n: frozenset(f) for n, f in out.items()}




def yaku_named(text: str) -> str | None:
    """The yaku (of any kind, any profile) a typed name, reading or alias means, or None.
    空巣 and 空素, the same 手役, give 空巣 here; :func:`teyaku_name` picks the profile's."""
    key = yaku_key(text)
    if not key:
        return None
    return next((n for n, forms in _yaku_keys().items() if key in forms), None)


def yaku_kind(name: str) -> str:
    """手役, 出来役, 特殊役 or bonus (``飛び込み``, ``抜け役``) for a name of YAKU_BY_NAME."""
    d = catalog.YAKU.get(name)
    return d.kind if d else catalog.BONUS


def not_teyaku(text: str, rules: Rules = SDIN) -> Said | None:
    """Why ``text``, a yaku's name but not one of the profile's 手役, is not taken as one:
    ``'赤短' is a 出来役, not a 手役``; None when it names no yaku at all."""
    named = yaku_named(text)
    if named is None:
        return None
    kind = yaku_kind(named)
    if kind == "手役":
        return L_("{text} ({named}) is not a 手役 under {profile}", text=quote(text), named=named, profile=rules.name)
    if kind == "bonus":
        return L_("{text} is a bonus ({named}), not a 手役: it is found from the cards", text=quote(text), named=named)
    if named != text.strip():
        return L_("{text} is a {kind}, not a 手役 ({named})", text=quote(text), kind=kind, named=named)
    return L_("{text} is a {kind}, not a 手役", text=quote(text), kind=kind)


def teyaku_name(text: str, rules: Rules = SDIN) -> str | None:
    """The profile's 手役 name for a typed name, reading, romaji or alias (kanji, hiragana,
    katakana, romaji: 四三, しそう, シソウ, shisou, shisō), or None if it is not one. The name
    itself, as a book stores it, is taken as it is: the folded forms of every yaku are made only
    for a name typed otherwise (~2 ms of a command that replays a night)."""
    names = [row.name for row in rules.teyaku_table]
    if text in names:
        return text
    named = yaku_named(text)
    if named is None:
        return None
    for pair in _SAME_YAKU:
        if named in pair:
            named = next((n for n in pair if n in names), named)
    return named if named in names else None


def dekiyaku_name(text: str, rules: Rules = SDIN) -> str | None:
    """The profile's 出来役 name for a typed name, reading or romaji (赤短, あかたん, akatan), or None
    (the name itself taken as it is, as :func:`teyaku_name` takes it)."""
    if text in rules.dekiyaku:
        return text
    named = yaku_named(text)
    return named if named in rules.dekiyaku else None


def teyaku_hint(text: str, rules: Rules = SDIN) -> str | None:
    """The profile's 手役 a mistyped name most likely means (``sanbonn`` → 三本), or None: the
    closest of their names, readings and romaji (:func:`_hint`)."""
    return _hint(text, [(row.name, next((pair for pair in _SAME_YAKU if row.name in pair), (row.name,)))
                        for row in rules.teyaku_table])


def dekiyaku_hint(text: str, rules: Rules = SDIN) -> str | None:
    """The profile's 出来役 a mistyped name most likely means (``inosika`` → 猪鹿蝶), or None."""
    return _hint(text, [(name, (name,)) for name in rules.dekiyaku])


def _hint(text: str, names: Sequence[tuple[str, Sequence[str]]]) -> str | None:
    """The yaku of ``names`` (each as the profile names it, with the names of the same yaku) that
    ``text`` most likely means: the closest of their names, readings and romaji, folded as
    :func:`yaku_key` and compared as a mistyped card is (:mod:`notation`:
    :func:`difflib.get_close_matches`), a little stricter: the names are short, and ``a`` is no 赤."""
    import difflib

    key = yaku_key(text)
    if not key or len(key) > 40:
        return None
    forms: dict[str, str] = {}
    for said, same in names:
        for name in same:
            for form in sorted(_yaku_keys().get(name, ())):
                forms.setdefault(form, said)
    close = difflib.get_close_matches(key, list(forms), n=1, cutoff=0.6)
    return forms[close[0]] if close else None


def dekiyaku(pile: Iterable[Card], rules: Rules = SDIN) -> list[str]:
    """出来役 of a captured pile that the profile pays, in table order; one always inside a
    higher one (the profile's ``no_overlap``) is left out."""
    return list(tally_dekiyaku(tally_of(set(pile)), rules))


def tally_dekiyaku(t: int, rules: Rules = SDIN) -> tuple[str, ...]:
    """:func:`dekiyaku` of a pile's tally (a pile within the deck)."""
    made = [y.name for y, mask, need in DEKIYAKU if (t & mask).bit_count() >= need]
    if not made:
        return ()
    made = [n for n in made if n in rules.dekiyaku]
    inside = {lower for higher, lower in rules.no_overlap if higher in made}
    return tuple(n for n in made if n not in inside)


def dekiyaku_kan(name: str, pile: Iterable[Card], rules: Rules = SDIN) -> int:
    """A 出来役's value in kan for this pile: 七短 under ``nanatan_plus`` counts every 短冊
    beyond seven, 柳に短冊 included (TRADITIONAL §10)."""
    return tally_dekiyaku_kan(name, tally_of(set(pile)), rules)


def tally_dekiyaku_kan(name: str, t: int, rules: Rules = SDIN) -> int:
    """:func:`dekiyaku_kan` of a pile's tally (a pile within the deck)."""
    value = rules.dekiyaku[name]
    climbing = _CLIMBING.get(name)
    if climbing is None:
        return value
    mask, need = climbing
    return rules.nanatan_plus.kan(value, (t & mask).bit_count(), need)


def special(
    piles: Mapping[str, Sequence[Card]], dealer: str, rules: Rules = SDIN
) -> dict[str, list[tuple[str, int]]]:
    """特殊役 of a played-out round with no 出来役: player -> [(name, 文 before the multiplier)].

    Under ``special_mode = "first"`` only the first that occurs in the order 総八, 二八, 素十六 is
    paid (TRADITIONAL §5); otherwise every one that occurs (RULES §6).
    """
    return tally_special({p: tally_of(pile) for p, pile in piles.items()}, dealer, rules)


def tally_special(piles: Mapping[str, int], dealer: str, rules: Rules = SDIN) -> dict[str, list[tuple[str, int]]]:
    """:func:`special` of the piles' tallies."""
    return special_of({p: tally_points(t) for p, t in piles.items()}, {p: tally_low(t) for p, t in piles.items()},
                      dealer, rules)


def special_of(totals: Mapping[str, int], kasu: Mapping[str, int], dealer: str,
               rules: Rules = SDIN) -> dict[str, list[tuple[str, int]]]:
    """The 特殊役 (RULES §6, TRADITIONAL §5) of piles known by their card points and their kasu
    (柳 counted): all that occur, or the first in the table's order under ``first``."""
    found: dict[str, list[tuple[str, int]]] = {p: [] for p in totals}
    if all(t == rules.base_points for t in totals.values()):
        found[dealer].append(("総八", rules.mon(rules.special["総八"])))
    for player in totals:
        if totals[player] >= rules.nihachi_from:
            found[player].append(("二八", rules.mon(rules.nihachi_kan(totals[player]))))
    for player in totals:
        if kasu[player] >= rules.sujiroku_from:
            found[player].append(("素十六", rules.mon(rules.sujiroku_kan(kasu[player]))))
    if rules.special_mode.first_only:
        for name, _ in SPECIAL_ORDER:
            holders = [p for p, got in found.items() if any(n == name for n, _ in got)]
            if holders:
                return {p: [(n, v) for n, v in got if n == name] for p, got in found.items()}
    else:
        for p in found:  # the table's order, whatever order they were found in
            found[p].sort(key=lambda nv: _SPECIAL_RANK[nv[0]])
    return found


SPECIAL_ORDER = tuple((y.name, y.reading) for y in SPECIAL)
_SPECIAL_RANK = {y.name: i for i, y in enumerate(SPECIAL)}
