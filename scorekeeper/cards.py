"""The hanafuda deck: 12 months × 4 cards, 48 cards worth 264 points (RULES.md §1).

A card is a value, not an object with identity: the kasu of one month are interchangeable, so a
pile is a multiset of :class:`Card` (a tuple or a ``Counter``).
"""

from __future__ import annotations

from collections import Counter
from enum import Enum
from functools import reduce
from operator import itemgetter, xor
from typing import Any, Iterable, NamedTuple, Sequence


class Kind(Enum):
    """The four kinds of card, with their code letter and face points."""

    HIKARI = ("h", 20, "光", "hikari")
    TANE = ("t", 10, "種", "tane")
    TAN = ("r", 5, "短冊", "tanzaku")
    KASU = ("k", 1, "カス", "kasu")

    def __init__(self, code: str, points: int, ja: str, romaji: str) -> None:
        self.code = code
        self.points = points
        self.ja = ja
        self.romaji = romaji

    @classmethod
    def from_code(cls, code: str) -> "Kind":
        return _KIND_BY_CODE[code]


_KIND_BY_CODE = {kind.code: kind for kind in Kind}
_POINTS = {kind.code: kind.points for kind in Kind}


class Month(NamedTuple):
    """One month of the deck: its number, flower and reading."""

    number: int
    ja: str
    reading: str
    romaji: str


MONTHS: tuple[Month, ...] = (
    Month(1, "松", "まつ", "matsu"),
    Month(2, "梅", "うめ", "ume"),
    Month(3, "桜", "さくら", "sakura"),
    Month(4, "藤", "ふじ", "fuji"),
    Month(5, "菖蒲", "あやめ", "ayame"),
    Month(6, "牡丹", "ぼたん", "botan"),
    Month(7, "萩", "はぎ", "hagi"),
    Month(8, "芒", "すすき", "susuki"),
    Month(9, "菊", "きく", "kiku"),
    Month(10, "紅葉", "もみじ", "momiji"),
    Month(11, "柳", "やなぎ", "yanagi"),
    Month(12, "桐", "きり", "kiri"),
)

WILLOW = 11  # 柳: its four cards count as kasu for 手役 and 素十六
PAULOWNIA = 12  # 桐


class Card(NamedTuple):
    """One card face: a month (1–12) and a kind letter (h t r k).

    A tuple, so that hashing and comparing cards (done for every card of every pile) runs in C.
    """

    month: int
    kind_code: str

    @property
    def kind(self) -> Kind:
        return Kind.from_code(self.kind_code)

    @property
    def points(self) -> int:
        return _POINTS[self.kind_code]

    @property
    def code(self) -> str:
        """The card code of CONTRACT.md §1, e.g. ``8t``."""
        return f"{self.month}{self.kind_code}"

    @property
    def ja(self) -> str:
        """The Japanese name, e.g. 芒に雁."""
        return _NAMES[self][0]

    @property
    def romaji(self) -> str:
        return _NAMES[self][1]

    @property
    def is_willow(self) -> bool:
        return self.month == WILLOW

    @property
    def hand_points(self) -> int:
        """Points for judging 手役: every 柳 card counts as a 1-point card (RULES.md §4)."""
        return 1 if self.month == WILLOW else _POINTS[self.kind_code]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


def card(code: str) -> Card:
    """The card for an exact code such as ``'11r'`` (no shorthand: see :mod:`notation`)."""
    return _BY_CODE[code]


# month -> the kinds it holds, kasu once per card (RULES.md §1)
_COMPOSITION: dict[int, str] = {
    1: "hrkk",
    2: "trkk",
    3: "hrkk",
    4: "trkk",
    5: "trkk",
    6: "trkk",
    7: "trkk",
    8: "htkk",
    9: "trkk",
    10: "trkk",
    11: "htrk",
    12: "hkkk",
}

_SPECIAL_NAMES: dict[str, tuple[str, str]] = {
    "1h": ("松に鶴", "matsu ni tsuru"),
    "1r": ("松に赤短", "matsu ni akatan"),
    "2t": ("梅に鶯", "ume ni uguisu"),
    "2r": ("梅に赤短", "ume ni akatan"),
    "3h": ("桜に幕", "sakura ni maku"),
    "3r": ("桜に赤短", "sakura ni akatan"),
    "4t": ("藤に不如帰", "fuji ni hototogisu"),
    "5t": ("菖蒲に八橋", "ayame ni yatsuhashi"),
    "6t": ("牡丹に蝶", "botan ni chō"),
    "6r": ("牡丹に青短", "botan ni aotan"),
    "7t": ("萩に猪", "hagi ni inoshishi"),
    "8h": ("芒に月", "susuki ni tsuki"),
    "8t": ("芒に雁", "susuki ni kari"),
    "9t": ("菊に盃", "kiku ni sakazuki"),
    "9r": ("菊に青短", "kiku ni aotan"),
    "10t": ("紅葉に鹿", "momiji ni shika"),
    "10r": ("紅葉に青短", "momiji ni aotan"),
    "11h": ("柳に小野道風", "yanagi ni ono no michikaze"),
    "11t": ("柳に燕", "yanagi ni tsubame"),
    "11k": ("柳のカス", "yanagi no kasu (kaminari)"),
    "12h": ("桐に鳳凰", "kiri ni hōō"),
}


def _name(month: Month, kind_code: str) -> tuple[str, str]:
    code = f"{month.number}{kind_code}"
    if code in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[code]
    if kind_code == "r":
        return f"{month.ja}に短冊", f"{month.romaji} ni tanzaku"
    return f"{month.ja}のカス", f"{month.romaji} no kasu"


#: The 48 cards, month by month, kasu repeated once per card.
DECK: tuple[Card, ...] = tuple(
    Card(month, kind) for month, kinds in _COMPOSITION.items() for kind in kinds
)
#: How many of each distinct card the deck holds (kasu: 1–3, others 1).
DECK_COUNT: Counter[Card] = Counter(DECK)
#: The distinct card faces in deck order.
FACES: tuple[Card, ...] = tuple(DECK_COUNT)

_NAMES: dict[Card, tuple[str, str]] = {c: _name(MONTHS[c.month - 1], c.kind_code) for c in FACES}
_BY_CODE: dict[str, Card] = {c.code: c for c in FACES}

#: Face points and 手役 points (every 柳 card as 1) of each card, for the hot paths.
CARD_POINTS: dict[Card, int] = {c: c.points for c in FACES}
HAND_POINTS: dict[Card, int] = {c: c.hand_points for c in FACES}

TOTAL_POINTS = sum(c.points for c in DECK)  # 264
BASE_POINTS = TOTAL_POINTS // 3  # 88

assert len(DECK) == 48 and TOTAL_POINTS == 264


def points(cards: Iterable[Card]) -> int:
    """The face total of some cards."""
    return sum(map(CARD_POINTS.__getitem__, cards))


def tally(items: Iterable[Any]) -> dict[Any, int]:
    """How many times each item occurs: a plain dict, built in one pass. A round makes a dozen
    of these, and a ``Counter`` costs three times as much to build."""
    out: dict[Any, int] = {}
    get = out.get
    for x in items:
        out[x] = get(x, 0) + 1
    return out


def month_counts(cards: Iterable[Card]) -> dict[int, int]:
    """How many cards of each month (only the months held)."""
    return tally(map(itemgetter(0), cards))


def over_deck(cards: Iterable[Card]) -> list[Card]:
    """The faces that appear more often than the deck holds them."""
    counts = tally(cards)
    return [c for c, n in counts.items() if n > DECK_COUNT[c]]


# Fast checks for the hot path, each a sum or an xor over a map of small ints, so the loop runs
# in C. They only say yes or no; the exact wording of a problem comes from tally() above.
#: each face a 7-bit field holding its count; a count above the deck's sets the field's top bit
_FIELD_BITS = 7
_FACE_FIELD = {c: 1 << (_FIELD_BITS * i) for i, c in enumerate(FACES)}
_OVER_ADD = sum((2 ** (_FIELD_BITS - 1) - 1 - DECK_COUNT[c]) << (_FIELD_BITS * i) for i, c in enumerate(FACES))
_OVER_MASK = sum(1 << (_FIELD_BITS * i + _FIELD_BITS - 1) for i in range(len(FACES)))
#: each month a bit: the xor of a pile's cards is 0 when every month is held an even number of times
_MONTH_BIT = {c: 1 << c.month for c in FACES}


def within_deck(cards: Sequence[Card]) -> bool:
    """No face more often than the deck holds it (see :func:`over_deck` for which)."""
    if len(cards) >= 2 ** (_FIELD_BITS - 1) - 4:  # a field could overflow: count it the slow way
        return not over_deck(cards)
    return not (sum(map(_FACE_FIELD.__getitem__, cards)) + _OVER_ADD) & _OVER_MASK


def months_even(cards: Iterable[Card]) -> bool:
    """Every month held an even number of times (a capture takes two or four of a month)."""
    return not reduce(xor, map(_MONTH_BIT.__getitem__, cards), 0)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in deck order: by month, then 光 種 短冊 カス."""
    return sorted(cards, key=lambda c: (c.month, "htrk".index(c.kind_code)))
