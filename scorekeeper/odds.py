"""Exact odds of 手役 and of the field class, by counting (never by sampling).

Every count is over combinations of the 48 *physical* cards: the kasu of one month are
interchangeable faces but distinct cards, so there are C(48, 7) = 73,629,072 dealt hands and
C(48, 6) = 12,271,512 initial fields. Cards already seen (the field, a hand) leave the deck through
``excluded``, a multiset of :class:`~scorekeeper.cards.Card`.

Nothing is enumerated hand by hand. For each month the hand takes a sub-multiset of the month's
remaining cards, weighted by the number of physical choices (a product of binomials over the kasu
multiplicity); a dynamic programme over the twelve months keeps only what
:class:`~scorekeeper.yaku.HandShape` looks at, and each final state is judged by the profile's 手役
table (``rules.teyaku_table``, as :func:`~scorekeeper.yaku.shape_teyaku_all` judges a hand): the
single highest under SDIN, the best of each group under fudawiki, from the same one DP pass. The
full-deck table takes well under 0.1 s under either.

Pure: no printing, no files. Counts are exact ``int``; probabilities are
:class:`fractions.Fraction` internally, and ``float`` plus "1 in N" in :func:`odds`'s report.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb
from typing import Any, Callable, Iterable, Sequence

from .lang import _, quote
from .cards import DECK_COUNT, FACES, MONTHS, PAULOWNIA, Card, over_deck, sort_cards
from .rules import SDIN, Rules
from .scoring import field_class, is_bashi
from .yaku import YAKU_BY_NAME, HandShape, shape_teyaku, shape_teyaku_all, teyaku

HAND_SIZE = 7
FIELD_SIZE = 6
FIELD_CLASSES = ("小場", "大場", "絶場")

#: months whose three 立三本 looks at (藤 菖蒲 萩, and 桐); a three of any other month is a plain 三本
_THREE_MONTHS_SEEN = frozenset({4, 5, 7, PAULOWNIA})
#: stand-ins for the other months held three times, when a HandShape is rebuilt from a state
_PLAIN_MONTHS = tuple(m.number for m in MONTHS if m.number not in _THREE_MONTHS_SEEN)
_PAULOWNIA_BRIGHT = Card(PAULOWNIA, "h")


class OddsError(ValueError):
    """Cards that can't be counted from: too many of a card, or a field/hand of the wrong size."""


# ---------------------------------------------------------------------------------------------
# the deck left


def remaining(excluded: Iterable[Card] = ()) -> Counter[Card]:
    """The deck minus ``excluded`` (a multiset). Raises :class:`OddsError` on cards not in it."""
    out = Counter(excluded)
    for c in out:
        if not isinstance(c, Card) or c not in DECK_COUNT:
            raise OddsError(_("{card} is not a card").format(card=quote(c)))
    too_many = over_deck(out.elements())
    if too_many:
        c = too_many[0]
        raise OddsError(
            _("{code} {name} appears {n} times but the deck holds {count}").format(
                code=c.code, name=c.ja, n=out[c], count=DECK_COUNT[c])
        )
    left = Counter(DECK_COUNT)
    left.subtract(out)
    return +left


_Picked = tuple[tuple[Card, int], ...]  # (face, how many of it), for one month


def _month_options(left: Counter[Card], month: int) -> list[tuple[_Picked, int]]:
    """Every sub-multiset of one month's remaining cards: ``((face, how many) ...)`` and its weight,
    the number of ways to pick it from the physical cards."""
    options: list[tuple[_Picked, int]] = [((), 1)]
    for face in FACES:
        if face.month != month or not left[face]:
            continue
        have = left[face]
        options = [
            (picked + ((face, k),) if k else picked, weight * comb(have, k))
            for picked, weight in options
            for k in range(have + 1)
        ]
    return options


def _nibble(index: int, value: int = 1) -> int:
    """``value`` in the 4-bit field ``index`` of a packed state."""
    return value << (4 * index)


def _field(state: int, index: int) -> int:
    return (state >> (4 * index)) & 15


def _count(
    size: int, left: Counter[Card], feature: Callable[[int, _Picked], int]
) -> dict[int, int]:
    """Weighted count of every ``size``-card draw from ``left``, by final state.

    A state is a few small counters packed in 4-bit fields of one int, and ``feature(month,
    picked)`` is what one month's pick adds to them, so adding a month is one integer addition.
    Every counter counts months or cards of the draw, so it stays at most ``size`` < 16 and fields
    never carry into each other. Picks with the same feature are merged before the DP.
    """
    assert size < 16
    # layers[t]: state -> ways, over the months seen so far, for draws of t cards
    layers: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(size)]
    for m in MONTHS:
        by_n: list[Counter[int]] = [Counter() for _ in range(size + 1)]
        for picked, weight in _month_options(left, m.number):
            n = sum(k for _, k in picked)
            if 0 < n <= size:
                by_n[n][feature(m.number, picked)] += weight
        nxt = [dict(layer) for layer in layers]  # the month gives none of the cards
        for total, layer in enumerate(layers):
            for n in range(1, size - total + 1):
                target = nxt[total + n]
                for feat, weight in by_n[n].items():
                    for state, ways in layer.items():
                        new = state + feat
                        target[new] = target.get(new, 0) + ways * weight
        layers = nxt
    return layers[size]


# ---------------------------------------------------------------------------------------------
# 手役 (RULES.md §4)

# A hand state packs exactly what HandShape looks at, in 4-bit fields:
#   0-3   how many months the hand holds 1, 2, 3, 4 times (the month counts, sorted)
#   4-7   how many cards of 20, 10, 5, 1 手役 points (every 柳 card is 1: Card.hand_points)
#   8-11  whether 藤, 菖蒲, 萩, 桐 is held three times (立三本; other threes are plain 三本)
#   12    whether 桐に鳳凰 is held
_POINTS = (20, 10, 5, 1)
_THREE_AT = {m: 8 + i for i, m in enumerate(sorted(_THREE_MONTHS_SEEN))}
_BRIGHT_AT = 12


def _hand_feature(month: int, picked: _Picked) -> int:
    n = sum(k for _, k in picked)
    feat = _nibble(n - 1)
    for c, k in picked:
        feat += _nibble(4 + _POINTS.index(c.hand_points), k)
        if c == _PAULOWNIA_BRIGHT:
            feat += _nibble(_BRIGHT_AT)
    if n == 3 and month in _THREE_AT:
        feat += _nibble(_THREE_AT[month])
    return feat


def shape_of_state(state: int) -> HandShape:
    """The :class:`HandShape` of a packed hand state. Months held three times that 立三本 does not
    look at are stood in for by other plain months: nothing in the 手役 table tells them apart."""
    counts = tuple(n for n in (4, 3, 2, 1) for _ in range(_field(state, n - 1)))
    threes = frozenset(m for m, at in _THREE_AT.items() if _field(state, at))
    plain = counts.count(3) - len(threes)
    return HandShape(
        counts=counts,
        by_points=Counter({p: _field(state, 4 + i) for i, p in enumerate(_POINTS)}),
        threes=threes | frozenset(_PLAIN_MONTHS[:plain]),
        paulownia_bright=bool(_field(state, _BRIGHT_AT)),
    )


def teyaku_counts(excluded: Iterable[Card] = (), rules: Rules = SDIN) -> dict[str | None, int]:
    """How many 7-card hands from the deck minus ``excluded`` have each highest 手役.

    Keys are the 手役 names in table order, then ``None`` (no 手役); every key is present, with 0
    where no hand has it. The counts add up to C(cards left, 7). Only for a profile that scores the
    single highest (``teyaku_mode == "highest"``); a profile with groups is counted by
    :func:`combination_counts`.
    """
    if rules.teyaku_mode.grouped:
        raise ValueError(f"{rules.name} scores 手役 by groups: count them with combination_counts")
    left = remaining(excluded)
    states = _count(HAND_SIZE, left, _hand_feature)
    out: dict[str | None, int] = {row.name: 0 for row in rules.teyaku_table}
    out[None] = 0
    for state, ways in states.items():
        out[shape_teyaku(shape_of_state(state), rules)] += ways
    return out


def group_best(shape: HandShape, rules: Rules) -> tuple[str | None, ...]:
    """The best 手役 of each of ``rules.groups`` for a hand's shape, ``None`` where a group has
    none: :func:`~scorekeeper.yaku.shape_teyaku_all` spread out by group."""
    made = {rules.group_of(name): name for name in shape_teyaku_all(shape, rules)}
    return tuple(made.get(g) for g in rules.groups)


def combinations_of(rules: Rules) -> list[tuple[str | None, ...]]:
    """Every combination of one row (or none) per group, in table order with none last."""
    combos: list[tuple[str | None, ...]] = [()]
    for g in rules.groups:
        names = [row.name for row in rules.teyaku_table if row.group == g] + [None]
        combos = [c + (n,) for c in combos for n in names]
    return combos


def combination_value(combo: Sequence[str | None], rules: Rules) -> int:
    """What a hand scoring ``combo`` is worth, in kan: the groups' values added (TRADITIONAL §3)."""
    return sum(rules.teyaku[name] for name in combo if name)


def combination_counts(
    excluded: Iterable[Card] = (), rules: Rules = SDIN
) -> dict[tuple[str | None, ...], int]:
    """How many 7-card hands from the deck minus ``excluded`` score each combination of 手役: one
    entry per group of ``rules.groups`` (Group A, then Group B; ``("",)`` alone under SDIN), each
    that group's best row or ``None``.

    One pass of the DP: a state keeps the month counts, the 手役 points (every 柳 card a kasu) and
    which of 藤 菖蒲 萩 桐 is a three, and 桐に鳳凰: all that Group A (standing threes) and Group B
    (kinds) look at. Keys are every combination in table order (:func:`combinations_of`), 0 where
    no hand makes it; the counts add up to C(cards left, 7).
    """
    left = remaining(excluded)
    states = _count(HAND_SIZE, left, _hand_feature)
    out = dict.fromkeys(combinations_of(rules), 0)
    for state, ways in states.items():
        out[group_best(shape_of_state(state), rules)] += ways
    return out


# ---------------------------------------------------------------------------------------------
# the field (RULES.md §2–3)


# A field state, in 4-bit fields: 0 how many months it holds four times (場四); 1-5 whether it
# holds each 20-point card (松 桜 芒 柳 桐), which give the field class.
_BRIGHTS = tuple(c for c in FACES if c.kind_code == "h")


def _field_feature(month: int, picked: _Picked) -> int:
    feat = _nibble(0) if sum(k for _, k in picked) == 4 else 0
    for c, _kind in picked:
        if c in _BRIGHTS:
            feat += _nibble(1 + _BRIGHTS.index(c))
    return feat


def field_counts(excluded: Iterable[Card] = ()) -> dict[str, Any]:
    """Exact counts over every 6-card field from the deck minus ``excluded``.

    Returns ``{"total", "bashi", "classes", "classes_played"}``:

    - ``total``: C(cards left, 6);
    - ``bashi``: fields holding all four cards of a month (場四, a redeal);
    - ``classes``: 小場 / 大場 / 絶場 over **all** fields, 場四 fields included (so the three add up
      to ``total``): the class a field's brights give it, as :func:`scoring.field_class` judges;
    - ``classes_played``: the same with the 場四 fields left out (they add up to
      ``total - bashi``): the class of the fields a round is actually played on.
    """
    left = remaining(excluded)
    states = _count(FIELD_SIZE, left, _field_feature)
    classes = dict.fromkeys(FIELD_CLASSES, 0)
    played = dict.fromkeys(FIELD_CLASSES, 0)
    bashi = 0
    for state, ways in states.items():
        four = _field(state, 0)
        cls = field_class([c for i, c in enumerate(_BRIGHTS) if _field(state, 1 + i)])
        classes[cls] += ways
        if four:
            bashi += ways
        else:
            played[cls] += ways
    return {
        "total": comb(sum(left.values()), FIELD_SIZE),
        "bashi": bashi,
        "classes": classes,
        "classes_played": played,
    }


# ---------------------------------------------------------------------------------------------
# the report


def _rate(count: int, total: int) -> dict[str, Any]:
    """A count as JSON: the exact count, the probability, and "1 in N" (None for a count of 0)."""
    p = Fraction(count, total) if total else Fraction(0)
    return {
        "count": count,
        "probability": float(p),
        "one_in": float(1 / p) if p else None,
    }


def field_odds(excluded: Iterable[Card] = (), rules: Rules = SDIN) -> dict[str, Any]:
    """:func:`field_counts` with probabilities: 場四 and the three classes over all fields (場四
    included, as :func:`field_counts` counts them), and the classes of played fields (場四 left
    out, given that the field is not 場四)."""
    counts = field_counts(excluded)
    total = counts["total"]
    played_total = total - counts["bashi"]
    return {
        "total": total,
        "bashi": _rate(counts["bashi"], total),
        "classes": {
            cls: {"multiplier": rules.multipliers[cls], **_rate(n, total)}
            for cls, n in counts["classes"].items()
        },
        "classes_played": {
            cls: {"multiplier": rules.multipliers[cls], **_rate(n, played_total)}
            for cls, n in counts["classes_played"].items()
        },
    }


def _cards(cards: Sequence[Card] | None, size: int, what: str) -> list[Card] | None:
    if cards is None:
        return None
    cards = list(cards)
    if len(cards) != size:
        said = (_("the field must be {size} cards, not {n}") if what == "field"
                else _("the hand must be {size} cards, not {n}"))
        raise OddsError(said.format(size=size, n=len(cards)))
    return cards


def odds(
    field: Sequence[Card] | None = None,
    hand: Sequence[Card] | None = None,
    rules: Rules = SDIN,
) -> dict[str, Any]:
    """A JSON-ready report of the 手役 odds under ``rules``, optionally knowing the field and/or a
    hand.

    - ``field`` (6 cards): its class and 場四 are reported, and the six cards leave the deck, so
      the 手役 odds are over C(42, 7) hands.
    - ``hand`` (7 cards): its 手役 and how rare that is among the hands counted (the count and
      probability of what it scores, and of a hand worth at least as much). Without a field, the
      field odds are over the 41 cards the hand leaves; the hand's own cards stay in the deck the
      hands are counted from (it is one of them).

    Keys under every profile: ``profile`` (the profile's name: ``sdin``, ``fudawiki`` also when
    chosen as ``traditional``, or a house rule's), ``deck`` (cards hands are dealt from),
    ``hands`` (how many hands), ``any_teyaku`` (hands with any 手役); ``field`` (cards, class,
    multiplier, bashi) with a field, else ``field_odds`` (:func:`field_odds`). Every rate is the
    exact ``count`` with ``probability`` and ``one_in`` (N of "1 in N", null for a count of 0) as
    floats.

    A profile scoring the single highest 手役 (``sdin``; ``teyaku_mode`` ``"highest"``) also has
    ``teyaku`` (one row per 手役 in table order, then ``name: null`` for no 手役: ``name``,
    ``reading``, ``mon``, ``count``, ``probability``, ``one_in``) and, with a hand, ``hand``
    (cards, teyaku, reading, mon, count, probability, one_in, ``at_least``).

    A profile scoring groups (``fudawiki``: the best of Group A plus the best of Group B,
    TRADITIONAL §3) has instead:

    - ``teyaku_mode``: ``"groups"``; ``mon_per_kan``: 文 in one kan (the profile's ``kan``); ``group_names``: the groups in order;
    - ``groups``: ``{group: {"teyaku": rows, "any": rate}}``, where each row (``name``, ``group``,
      ``reading``, ``kan``, ``mon``, and the rate) counts the hands whose best of that group is
      that row, in table order, then ``name: null`` (the group has none): each group's rows add
      up to ``hands``;
    - ``combinations``: one row per combination of each group's best, every one in table order
      with none last (zero counts included): ``{group: name or null ...}`` keyed by the group
      names, ``teyaku`` (the names held, Group A first, as ``teyaku_all``), ``kan`` and ``mon``
      (the groups' values added), and the rate; they add up to ``hands``;
    - ``at_least``: for every value ``N`` in kan that some counted hand is worth (0 included,
      ascending), ``{"kan": N, "mon": ..., rate}``: the hands worth N kan or more;
    - with a hand, ``hand``: ``cards``; ``teyaku`` (the list, as ``teyaku_all``), each group's
      best by group name; ``kan`` and ``mon`` (the total); the rate of its combination; and
      ``at_least``, the rate of a hand worth at least its total.

    Raises :class:`OddsError` for a field or hand of the wrong size, or cards the deck can't hold.
    """
    field = _cards(field, FIELD_SIZE, "field")
    hand = _cards(hand, HAND_SIZE, "hand")
    remaining([*(field or ()), *(hand or ())])  # validates the cards together
    excluded = field or []
    deck_left = sum(remaining(excluded).values())
    if not rules.teyaku_mode.grouped:
        report = _highest_report(excluded, hand, rules)
    else:
        report = _groups_report(excluded, hand, rules)
    report = {"profile": rules.name, "deck": deck_left, **report}
    if field is not None:
        cls = field_class(field)
        report["field"] = {
            "cards": [c.code for c in sort_cards(field)],
            "class": cls,
            "multiplier": rules.multipliers[cls],
            "bashi": is_bashi(field),
        }
    else:
        report["field_odds"] = field_odds(hand or (), rules)
    if "hand" in report:  # after the field, as the report has always been ordered
        report["hand"] = report.pop("hand")
    return report


def _highest_report(
    excluded: Sequence[Card], hand: Sequence[Card] | None, rules: Rules
) -> dict[str, Any]:
    """The 手役 part of :func:`odds` for a profile that scores the single highest (SDIN)."""
    counts = teyaku_counts(excluded, rules)
    total = sum(counts.values())
    value = {name: (rules.mon(rules.teyaku[name]) if name else 0) for name in counts}
    rows = []
    for name, n in counts.items():
        rows.append(
            {
                "name": name,
                "reading": YAKU_BY_NAME[name].reading if name else None,
                "mon": value[name],
                **_rate(n, total),
            }
        )
    report: dict[str, Any] = {
        "hands": total,
        "teyaku": rows,
        "any_teyaku": _rate(total - counts[None], total),
    }
    if hand is not None:
        name = teyaku(hand, rules)
        at_least = sum(n for other, n in counts.items() if value[other] >= value[name])
        report["hand"] = {
            "cards": [c.code for c in sort_cards(hand)],
            "teyaku": name,
            "reading": YAKU_BY_NAME[name].reading if name else None,
            "mon": value[name],
            **_rate(counts[name], total),
            "at_least": _rate(at_least, total),
        }
    return report


def _groups_report(
    excluded: Sequence[Card], hand: Sequence[Card] | None, rules: Rules
) -> dict[str, Any]:
    """The 手役 part of :func:`odds` for a profile that adds the best of each group (fudawiki)."""
    combos = combination_counts(excluded, rules)
    total = sum(combos.values())
    groups = rules.groups
    kan_of = {combo: combination_value(combo, rules) for combo in combos}

    by_group: dict[str, dict[Any, int]] = {}
    for i, g in enumerate(groups):
        counts: dict[Any, int] = {row.name: 0 for row in rules.teyaku_table if row.group == g}
        counts[None] = 0
        for combo, n in combos.items():
            counts[combo[i]] += n
        by_group[g] = counts

    def row(name: str | None, group: str, n: int) -> dict[str, Any]:
        k = rules.teyaku[name] if name else 0
        return {
            "name": name,
            "group": group,
            "reading": YAKU_BY_NAME[name].reading if name else None,
            "kan": k,
            "mon": rules.mon(k),
            **_rate(n, total),
        }

    by_value: Counter[int] = Counter()
    for combo, n in combos.items():
        if n:
            by_value[kan_of[combo]] += n
    at_least, running = [], 0
    for k in sorted(by_value, reverse=True):
        running += by_value[k]
        at_least.append({"kan": k, "mon": rules.mon(k), **_rate(running, total)})
    at_least.reverse()
    none = tuple(None for _ in groups)

    report: dict[str, Any] = {
        "teyaku_mode": rules.teyaku_mode.key,
        "mon_per_kan": rules.kan,
        "group_names": list(groups),
        "hands": total,
        "groups": {
            g: {
                "teyaku": [row(name, g, n) for name, n in counts.items()],
                "any": _rate(total - counts[None], total),
            }
            for g, counts in by_group.items()
        },
        "combinations": [
            {
                **dict(zip(groups, combo)),
                "teyaku": [name for name in combo if name],
                "kan": kan_of[combo],
                "mon": rules.mon(kan_of[combo]),
                **_rate(n, total),
            }
            for combo, n in combos.items()
        ],
        "at_least": at_least,
        "any_teyaku": _rate(total - combos.get(none, 0), total),
    }
    if hand is not None:
        combo = group_best(HandShape.of(hand), rules)
        k = kan_of[combo]
        report["hand"] = {
            "cards": [c.code for c in sort_cards(hand)],
            "teyaku": [name for name in combo if name],
            **dict(zip(groups, combo)),
            "kan": k,
            "mon": rules.mon(k),
            **_rate(combos[combo], total),
            "at_least": _rate(sum(n for k2, n in by_value.items() if k2 >= k), total),
        }
    return report
