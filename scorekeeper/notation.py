"""Text to cards and cards to text.

A pile is typed as tokens separated by spaces, commas or 、. Each token is one of:

- a card code ``<month><kind>``: ``1h`` 松に鶴, ``8t`` 芒に雁, ``11r`` 柳に短冊, ``12k`` 桐のカス;
- several cards of one month in one token, one kind letter per card: ``1hk`` is 松に鶴 and a 松
  kasu, ``12kkk`` the three 桐 kasu, ``8htkk`` all four 芒;
- ``<month>*``: all four cards of the month (``3*`` = ``3hrkk``);
- the month may be its flower instead of its number: ``松hk``, ``桐kkk``, ``柳*``;
- a Japanese card name: 松に鶴, 芒に月, 柳のカス, 桐のカス, 雷 …

Kinds: ``h`` 光 (20), ``t`` 種 (10), ``r`` 短冊 (5), ``k`` カス (1). Case, full-width characters
and surrounding spaces do not matter. Errors quote the token as typed and suggest the nearest card.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Sequence

from .cards import DECK_COUNT, FACES, MONTHS, Card, sort_cards
from .lang import L_, N_, Said, _, quote

KIND_LETTERS = "htrk"


class CardError(ValueError):
    """A token that is not a card. ``token`` is the text as typed; ``reason`` what is wrong with
    it and ``message`` the line (``'1x' is not a card``), each a :class:`~scorekeeper.lang.Said`
    that a phone words again; ``suggested``: the line suggests the nearest card."""

    def __init__(self, token: str, reason: Said, suggested: bool = False) -> None:
        #: as typed (a pasted megabyte cut short: it is marked, never shown whole)
        self.token = token if len(token) <= MAX_TOKEN else token[:MAX_TOKEN] + "…"
        self.reason = reason
        self.suggested = suggested
        self.message = L_("{token} {reason}", token=quote(token), reason=reason)
        super().__init__(self.message)


_MONTH_WORDS: dict[str, int] = {}
for _m in MONTHS:
    _MONTH_WORDS[_m.ja] = _m.number
    _MONTH_WORDS[_m.reading] = _m.number
    _MONTH_WORDS[_m.romaji] = _m.number
_MONTH_WORDS["あやめ"] = 5
_MONTH_WORDS["すすき"] = 8
_MONTH_WORDS["薄"] = 8
_MONTH_WORDS["芒"] = 8

_NAME_TO_CARD: dict[str, Card] = {}


def _add_name(name: str, c: Card) -> None:
    _NAME_TO_CARD[_fold(name)] = c


def _fold(text: str) -> str:
    from .names import fold  # text is folded in one place

    return fold(text)


for _c in FACES:
    _add_name(_c.ja, _c)
    _add_name(_c.romaji, _c)
    _add_name(_c.romaji.replace(" ", ""), _c)
    _m = MONTHS[_c.month - 1]
    if _c.kind_code == "r":  # 松に短冊 and 松の短冊 name the ribbon of any month
        _add_name(f"{_m.ja}に短冊", _c)
        _add_name(f"{_m.ja}の短冊", _c)
    if _c.kind_code == "k":
        _add_name(f"{_m.ja}のかす", _c)
        _add_name(f"{_m.ja}カス", _c)
_add_name("雷", Card(11, "k"))
_add_name("柳に雷", Card(11, "k"))
_add_name("柳に鬼", Card(11, "k"))
_add_name("柳に小野道風", Card(11, "h"))
_add_name("小野道風", Card(11, "h"))
_add_name("道風", Card(11, "h"))
_add_name("鳳凰", Card(12, "h"))
_add_name("桐に鳳凰", Card(12, "h"))
_add_name("芒に月", Card(8, "h"))
_add_name("坊主", Card(8, "h"))
_add_name("藤にほととぎす", Card(4, "t"))
_add_name("藤に杜鵑", Card(4, "t"))

_KINDS = re.compile(r"^(?:[htrk]+|\*)$")
_SPLIT = re.compile(r"[\s,、，・;]+")


def _month_of(text: str) -> int | None:
    if text.isdecimal():
        try:
            n = int(text)
        except ValueError:  # a digit int() does not read, such as 𐩀 (KHAROSHTHI DIGIT ONE)
            return None
        return n if 1 <= n <= 12 else None
    return _MONTH_WORDS.get(text)


def _split_month(folded: str) -> tuple[str, int | None, str] | None:
    """``(month text, month or None, kind letters)`` of a shorthand token, or None."""
    fallback = None
    for i in range(1, len(folded)):
        prefix, letters = folded[:i], folded[i:]
        if _KINDS.match(letters):
            month = _month_of(prefix)
            if month is not None:
                return prefix, month, letters
            if fallback is None and prefix.isdecimal():
                fallback = (prefix, None, letters)
    return fallback


def _month_cards(month: int) -> list[Card]:
    return [c for c in FACES if c.month == month for _ in range(DECK_COUNT[c])]


def _suggest(folded: str) -> Card | None:
    """The card a mistyped token most likely means, or None."""
    import difflib

    candidates = [c.code for c in FACES] + list(_NAME_TO_CARD)
    close = difflib.get_close_matches(folded, candidates, n=1, cutoff=0.5)
    if not close:
        return None
    target = _NAME_TO_CARD.get(close[0])
    code = target.code if target else close[0]
    return target or next(c for c in FACES if c.code == code)


def _not_a_card(token: str, folded: str) -> CardError:
    near = _suggest(folded)
    if near is None:
        return CardError(token, L_("is not a card"))
    return CardError(token, L_("is not a card (did you mean {code} {name}?)", code=near.code, name=near.ja), True)


def _too_long(token: str) -> CardError:
    return CardError(token, L_("is not a card"))


def parse_token(token: str) -> list[Card]:
    """The cards one token stands for. Raises :class:`CardError` quoting ``token``."""
    return list(_parse_token(token))


@lru_cache(maxsize=4096)
def _parse_token(token: str) -> tuple[Card, ...]:
    # a night types the same few dozen tokens over and over: parse each once
    return tuple(_read_token(token))


#: no card name or shorthand is longer; a longer token is refused before it is searched (a
#: pasted megabyte must not take minutes)
MAX_TOKEN = 40


def _read_token(token: str) -> list[Card]:
    if len(token) > 4 * MAX_TOKEN:
        raise _too_long(token)
    folded = _fold(token)
    if not folded:
        raise CardError(token, L_("is empty"))
    if len(folded) > MAX_TOKEN:
        raise _too_long(token)
    if folded in _NAME_TO_CARD:
        return [_NAME_TO_CARD[folded]]
    split = _split_month(folded)
    if split is None:
        raise _not_a_card(token, folded)
    prefix, month, letters = split
    if month is None:
        raise CardError(token, L_("is not a card: no month {prefix} (months are 1–12)", prefix=quote(prefix)))
    if letters == "*":
        return _month_cards(month)
    cards = [Card(month, k) for k in letters]
    for c in set(cards):
        if c not in DECK_COUNT:
            m = MONTHS[month - 1]
            held = " ".join(x.code for x in _month_cards(month))
            raise CardError(token, L_("is not a card: {month} has no {kind} ({held})", month=m.ja, kind=c.kind.ja,
                                      held=held))
        if cards.count(c) > DECK_COUNT[c]:
            raise CardError(token, L_("has {count} × {code} but the deck holds {deck}", count=cards.count(c),
                                      code=c.code, deck=DECK_COUNT[c]))
    return cards


def _shown(value: object) -> str:
    """A value that is not text, as an error quotes it: its repr, cut short."""
    return str(quote(value, MAX_TOKEN))


def split_tokens(text: str) -> list[str]:
    """The tokens of a typed line."""
    return [t for t in _SPLIT.split(text.strip()) if t]


def parse_cards(value: str | Sequence[str]) -> list[Card]:
    """Cards from a typed line or a list of tokens (a list item may hold several tokens)."""
    items = [value] if isinstance(value, str) else value
    try:
        return [c for item in items for c in _parse_item(item)]
    except TypeError:  # an unhashable item: a list or an object in place of a card
        bad = next(item for item in items if not isinstance(item, str))
        raise CardError(_shown(bad), L_("is not a card (expected text)")) from None


@lru_cache(maxsize=4096)
def _parse_item(item: str) -> tuple[Card, ...]:
    if not isinstance(item, str):
        raise CardError(_shown(item), L_("is not a card (expected text)"))
    tokens = split_tokens(item)
    if not tokens:
        raise CardError(item, L_("is empty"))  # the empty item's own text, as typed
    return tuple(c for token in tokens for c in _parse_token(token))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as codes in deck order, one token per card: ``1h 1k 3r``."""
    return " ".join(c.code for c in sort_cards(cards))


def format_compact(cards: Iterable[Card]) -> str:
    """Cards in the shorthand, one token per month: ``1hk 3r 12kkk``."""
    by_month: dict[int, str] = {}
    for c in sort_cards(cards):
        by_month[c.month] = by_month.get(c.month, "") + c.kind_code
    return " ".join(f"{m}{kinds}" for m, kinds in by_month.items())


#: the card notation, said at every question's ``?`` (worded with :func:`help_text`)
HELP = N_("""\
Card notation (one token per card, or per month):
  1h 松に鶴   8t 芒に雁   11r 柳に短冊   12k 桐のカス
  kinds: h 光 (20)  t 種 (10)  r 短冊 (5)  k カス (1)
  one month, several cards:  1hk = 1h 1k   12kkk = three 桐 kasu   3* = all four 桜
  flower for month:          松hk  桐kkk  柳*
  Japanese names work too:   松に鶴 芒に月 柳のカス 雷 …
  separate tokens with spaces or commas; `hachi-score cards` lists every card.""")


def help_text() -> str:
    """The card notation, in the language spoken now."""
    return _(HELP)
