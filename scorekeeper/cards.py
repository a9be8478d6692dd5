"""The hanafuda deck: 12 months × 4 cards, 48 cards worth 264 points (RULES.md §1).

A card is a value, not an object with identity: the kasu of one month are interchangeable, so a
pile is a multiset of :class:`Card`: a tuple of them, or, where a round is checked and settled,
its tally (one int: see below).
"""

from __future__ import annotations

from collections import Counter
from enum import Enum
from operator import itemgetter
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


# ---------------------------------------------------------------------------------------------
# A pile as one int: its tally, the sum of its cards' codes. Python adds the codes in C, and then
# each question a round asks of a pile (within the deck? every month even? how many points, how
# many kasu, which 出来役?) is a mask, a shift or a popcount, not a loop over 24 cards.
#
# The fields, low bits first: each face's count (7 bits, in FACES order, a month's faces side by
# side); each month's count (7 bits); the face points (12 bits); the cards worth 1, 5, 10 and 20
# for 手役 (every 柳 card worth 1: 7 bits each); and above them the number of cards, unbounded.
# Every field is exact while the pile holds at most TALLY_EXACT cards (the deck has 48).

TALLY_EXACT = 63
_W = 7
_FIELD = (1 << _W) - 1
_FACE_SHIFT: dict[Card, int] = {c: _W * i for i, c in enumerate(FACES)}
_MONTH_SHIFT = _W * len(FACES)
_POINTS_SHIFT = _MONTH_SHIFT + _W * 12
_HAND_SHIFT = {1: _POINTS_SHIFT + 12, 5: _POINTS_SHIFT + 12 + _W, 10: _POINTS_SHIFT + 12 + 2 * _W,
               20: _POINTS_SHIFT + 12 + 3 * _W}
_LOW_SHIFT = _HAND_SHIFT[1]
_S20, _S10, _S5, _S1 = (_HAND_SHIFT[p] for p in (20, 10, 5, 1))
_COUNT_SHIFT = _POINTS_SHIFT + 12 + 4 * _W


def _code(c: Card) -> int:
    return (
        1 << _FACE_SHIFT[c]
        | 1 << (_MONTH_SHIFT + _W * (c.month - 1))
        | CARD_POINTS[c] << _POINTS_SHIFT
        | 1 << _HAND_SHIFT[HAND_POINTS[c]]
        | 1 << _COUNT_SHIFT
    )


#: each face's code: a pile's tally is the sum of its cards' codes
TALLY_CODE: dict[Card, int] = {c: _code(c) for c in FACES}
#: a face's field plus (63 − its deck count) sets the field's top bit exactly when it is over
_OVER_ADD = sum((TALLY_EXACT - DECK_COUNT[c]) << s for c, s in _FACE_SHIFT.items())
_OVER_MASK = sum(1 << (s + _W - 1) for s in _FACE_SHIFT.values())
_MONTH_ONES = sum(1 << (_W * i) for i in range(12))
_MONTH_LOW = _MONTH_ONES << _MONTH_SHIFT
_MONTH_FOUR = _MONTH_LOW << 2


def tally_of(cards: Iterable[Card]) -> int:
    """The tally of some cards."""
    return sum(map(TALLY_CODE.__getitem__, cards))


def tally_count(t: int) -> int:
    """How many cards."""
    return t >> _COUNT_SHIFT


def tally_points(t: int) -> int:
    """The face points (exact up to TALLY_EXACT cards)."""
    return t >> _POINTS_SHIFT & 0xFFF


def tally_low(t: int) -> int:
    """The cards worth 1 for 手役: the kasu, every 柳 card counted as one (素十六's count)."""
    return t >> _LOW_SHIFT & _FIELD


def tally_by_hand_points(t: int) -> dict[int, int]:
    """How many cards are worth 20, 10, 5 and 1 for 手役 (every 柳 card worth 1)."""
    return {20: t >> _S20 & _FIELD, 10: t >> _S10 & _FIELD, 5: t >> _S5 & _FIELD, 1: t >> _S1 & _FIELD}


def tally_month_planes(t: int) -> tuple[int, int, int, int]:
    """The months held once, twice, three and four times (a hand within the deck: at most four
    of a month), each as a plane: month m's bit is bit 7·(m − 1). Worked out a bit plane at a
    time, not month by month."""
    region = t >> _MONTH_SHIFT
    b0, b1 = region & _MONTH_ONES, region >> 1 & _MONTH_ONES
    return b0 & ~b1, b1 & ~b0, b0 & b1, region >> 2 & _MONTH_ONES


def month_plane(months: Iterable[int]) -> int:
    """A plane holding ``months`` (see :func:`tally_month_planes`)."""
    return sum(1 << _W * (m - 1) for m in set(months))


def plane_months(plane: int) -> list[int]:
    """The months of a plane, in order."""
    out = []
    while plane:
        low = plane & -plane
        out.append(low.bit_length() // _W + 1)
        plane ^= low
    return out


def tally_holds(t: int, c: Card) -> int:
    """How many of the face ``c``."""
    return t >> _FACE_SHIFT[c] & _FIELD


def tally_month(t: int, month: int) -> int:
    """How many cards of ``month``."""
    return t >> (_MONTH_SHIFT + _W * (month - 1)) & _FIELD


def tally_within_deck(t: int) -> bool:
    """No face more often than the deck holds it."""
    return t >> _COUNT_SHIFT <= len(DECK) and not (t + _OVER_ADD) & _OVER_MASK


def tally_odd_months(t: int) -> list[int]:
    """The months held an odd number of times (a capture takes two or four of a month)."""
    low = t & _MONTH_LOW
    return [m for m in range(1, 13) if low >> (_MONTH_SHIFT + _W * (m - 1)) & 1] if low else []


def tally_has_four(t: int) -> bool:
    """A month held four times (within the deck: all of it)."""
    return bool(t & _MONTH_FOUR)


def tally_cards(t: int) -> tuple[Card, ...]:
    """The cards of a tally, in deck order (the reverse of :func:`tally_of`)."""
    out: list[Card] = []
    for c, s in _FACE_SHIFT.items():
        n = t >> s & _FIELD
        if n:
            out += (c,) * n
    return tuple(out)


def face_mask(faces: Iterable[Card]) -> int:
    """The bit that says each of ``faces`` is held once, or-ed: ``t & m == m`` holds them all."""
    return sum(1 << _FACE_SHIFT[c] for c in set(faces))


def within_deck(cards: Sequence[Card]) -> bool:
    """No face more often than the deck holds it (see :func:`over_deck` for which)."""
    if len(cards) > TALLY_EXACT:
        return not over_deck(cards)
    return tally_within_deck(tally_of(cards))


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in deck order: by month, then 光 種 短冊 カス."""
    return sorted(cards, key=lambda c: (c.month, "htrk".index(c.kind_code)))
