"""Yaku as data: 手役 of a dealt hand, 出来役 of a captured pile, 特殊役 of a played-out round.

Every function here is pure. Values come from a :class:`~scorekeeper.rules.Rules` profile.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from .cards import FACES, HAND_POINTS, PAULOWNIA, Card, month_counts, points
from .rules import SDIN, Rules


class Yaku(NamedTuple):
    """A yaku's name as output uses it, its reading, and an English gloss."""

    name: str
    reading: str
    gloss: str

    def label(self) -> str:
        """``三本 (さんぼん)`` — the name with its reading, for people."""
        return f"{self.name} ({self.reading})" if self.reading != self.name else self.name


class HandShape(NamedTuple):
    """What 手役 look at: the month counts, largest first, and the cards by 手役 points."""

    counts: tuple[int, ...]
    by_points: Mapping[int, int]
    threes: frozenset[int]  # months held three times
    paulownia_bright: bool  # holds 桐に鳳凰

    @classmethod
    def of(cls, hand: Iterable[Card]) -> "HandShape":
        hand = list(hand)
        months = month_counts(hand)
        return cls(
            counts=tuple(sorted(months.values(), reverse=True)),
            by_points=Counter(c.hand_points for c in hand),
            threes=frozenset(m for m, n in months.items() if n == 3),
            paulownia_bright=Card(PAULOWNIA, "h") in hand,
        )

    def only_kasu_but(self, points: int) -> bool:
        """One card of ``points`` and six 1-point cards."""
        return self.by_points[points] == 1 and self.by_points[1] == 6


_TATE_MONTHS = frozenset({4, 5, 7})  # 藤 菖蒲 萩; 桐 only as its three kasu


def _tatesanbon(s: HandShape) -> bool:
    return bool(s.threes & _TATE_MONTHS) or (PAULOWNIA in s.threes and not s.paulownia_bright)


#: 手役 in table order (RULES.md §4); the order breaks ties between equal values.
TEYAKU: tuple[tuple[Yaku, Callable[[HandShape], bool]], ...] = (
    (Yaku("四三", "しそう", "four and three"), lambda s: s.counts[:2] == (4, 3)),
    (Yaku("一二四", "いちにし", "one, two, four"), lambda s: s.counts == (4, 2, 1)),
    (Yaku("はねけん", "はねけん", "three, two, two"), lambda s: s.counts == (3, 2, 2)),
    (Yaku("手四", "てし", "four of a month"), lambda s: s.counts[0] == 4),
    (Yaku("空巣", "からす", "all kasu"), lambda s: s.by_points[1] == 7),
    (Yaku("喰付", "くっつき", "three pairs"), lambda s: s.counts == (2, 2, 2, 1)),
    (Yaku("光一", "ぴかいち", "one bright"), lambda s: s.only_kasu_but(20)),
    (Yaku("十一", "といち", "one animal"), lambda s: s.only_kasu_but(10)),
    (Yaku("短一", "たんいち", "one ribbon"), lambda s: s.only_kasu_but(5)),
    (
        Yaku("赤", "あか", "ribbons and kasu"),
        lambda s: s.by_points[5] >= 2 and s.by_points[5] + s.by_points[1] == 7,
    ),
    (Yaku("立三本", "たてさんぼん", "standing three"), _tatesanbon),
    (Yaku("三本", "さんぼん", "three of a month"), lambda s: bool(s.threes)),
)

#: Input aliases of 手役 names (CONTRACT.md §2).
TEYAKU_ALIASES = {"短カス": "赤", "赤 (短カス)": "赤", "赤(短カス)": "赤", "赤（短カス）": "赤"}

_BRIGHTS = frozenset(c for c in FACES if c.kind_code == "h")
_FOUR_BRIGHTS = frozenset(Card(m, "h") for m in (1, 3, 8, 12))
_SEVEN_RIBBONS = frozenset(c for c in FACES if c.kind_code == "r" and c.month != 11)
_AKATAN = frozenset(Card(m, "r") for m in (1, 2, 3))
_AOTAN = frozenset(Card(m, "r") for m in (6, 9, 10))
_INOSHIKACHO = frozenset(Card(m, "t") for m in (7, 10, 6))

#: 出来役 in table order (RULES.md §5): a test on the set of faces in a pile.
DEKIYAKU: tuple[tuple[Yaku, Callable[[frozenset[Card]], bool]], ...] = (
    (Yaku("五光", "ごこう", "five brights"), lambda p: _BRIGHTS <= p),
    (Yaku("四光", "しこう", "four brights"), lambda p: _FOUR_BRIGHTS <= p and not _BRIGHTS <= p),
    (Yaku("七短", "ななたん", "seven ribbons"), lambda p: len(_SEVEN_RIBBONS & p) >= 7),
    (Yaku("赤短", "あかたん", "red poetry ribbons"), lambda p: _AKATAN <= p),
    (Yaku("青短", "あおたん", "blue ribbons"), lambda p: _AOTAN <= p),
    (Yaku("猪鹿蝶", "いのしかちょう", "boar, deer, butterfly"), lambda p: _INOSHIKACHO <= p),
)

SPECIAL: tuple[Yaku, ...] = (
    Yaku("総八", "そうはち", "all eighty-eight"),
    Yaku("二八", "にはち", "a hundred and sixty-eight"),
    Yaku("素十六", "すじろく", "sixteen kasu"),
)

YAKU_BY_NAME: dict[str, Yaku] = {
    y.name: y for y in [t[0] for t in TEYAKU] + [d[0] for d in DEKIYAKU] + list(SPECIAL)
}


def teyaku_made(hand: Sequence[Card]) -> list[str]:
    """Every 手役 name the 7-card hand satisfies, in table order."""
    shape = HandShape.of(hand)
    return [y.name for y, test in TEYAKU if test(shape)]


def teyaku(hand: Sequence[Card], rules: Rules = SDIN) -> str | None:
    """手役 of a dealt hand: only the single highest counts; ties go to the one higher in the table."""
    return shape_teyaku(HandShape.of(hand), rules)


def shape_teyaku(shape: HandShape, rules: Rules = SDIN) -> str | None:
    """The single highest 手役 of a hand's shape (see :func:`teyaku`)."""
    made = [y.name for y, test in TEYAKU if test(shape)]
    if not made:
        return None
    return max(made, key=lambda name: rules.teyaku[name])  # max keeps the first of equals


def teyaku_name(text: str) -> str | None:
    """The 手役 name for a typed name or alias, or None if it is not one."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", text).strip()
    folded = TEYAKU_ALIASES.get(folded, folded)
    for y, _ in TEYAKU:
        if folded in (y.name, y.reading, unicodedata.normalize("NFKC", y.name)):
            return y.name
    return None


def dekiyaku(pile: Iterable[Card]) -> list[str]:
    """出来役 of a captured pile, in table order; one always inside a higher one is left out."""
    return list(_dekiyaku(frozenset(pile)))


@lru_cache(maxsize=1024)
def _dekiyaku(faces: frozenset[Card]) -> tuple[str, ...]:
    return tuple(y.name for y, test in DEKIYAKU if test(faces))


def kasu_count(pile: Iterable[Card]) -> int:
    """素十六's count: the kasu, with every 柳 card counted as one."""
    return list(map(HAND_POINTS.__getitem__, pile)).count(1)


def special(
    piles: Mapping[str, Sequence[Card]], dealer: str, rules: Rules = SDIN
) -> dict[str, list[tuple[str, int]]]:
    """特殊役 of a played-out round with no 出来役: player -> [(name, 文)]."""
    found: dict[str, list[tuple[str, int]]] = {p: [] for p in piles}
    totals = {p: points(pile) for p, pile in piles.items()}
    if all(t == rules.base_points for t in totals.values()):
        found[dealer].append(("総八", rules.sohachi))
    for player, pile in piles.items():
        if totals[player] >= rules.nihachi_from:
            found[player].append(("二八", rules.nihachi_value(totals[player])))
        kasu = kasu_count(pile)
        if kasu >= rules.sujiroku_from:
            found[player].append(("素十六", rules.sujiroku_value(kasu)))
    return found
