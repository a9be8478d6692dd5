"""A round in, a result out: validation, settlement, the payments ledger and the next 親.

:meth:`Round.from_dict` checks a round file (CONTRACT.md §3) and raises :class:`RoundError` with one
line naming the problem and where. :func:`score` settles a valid round (RULES.md §7) into a
:class:`Result` whose every amount is a payment; each player's result is derived from the ledger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, NamedTuple, Sequence

from .cards import BASE_POINTS, DECK, DECK_COUNT, Card, month_counts, over_deck, points, sort_cards
from .notation import CardError, parse_cards
from .rules import SDIN, Rules
from .yaku import dekiyaku, special, teyaku, teyaku_made, teyaku_name

MAX_NAME = 40
CARD_POINTS_REASON = "札"


class RoundError(ValueError):
    """A bad round: ``where`` is the key, player or token; ``problem`` says what is wrong."""

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}" if where else problem)


# ---------------------------------------------------------------------------------------------
# the field (RULES.md §2–3)

_ZEKKYO = frozenset({Card(11, "h"), Card(12, "h")})
_OOBA = frozenset({Card(1, "h"), Card(3, "h"), Card(8, "h")})


def field_class(field_cards: Sequence[Card]) -> str:
    """小場, 大場 or 絶場, from the 20-point cards of the initial field."""
    present = set(field_cards)
    if present & _ZEKKYO:
        return "絶場"
    if present & _OOBA:
        return "大場"
    return "小場"


def is_bashi(field_cards: Sequence[Card]) -> bool:
    """場四: the initial field holds all four cards of a month (the 親 redeals)."""
    return any(n == 4 for n in month_counts(field_cards).values())


# ---------------------------------------------------------------------------------------------
# the round file


@dataclass(frozen=True)
class Round:
    """One round as typed: who played, the field, 手役 evidence, the piles and how it ended."""

    players: tuple[str, str, str]
    dealer: str
    field: tuple[Card, ...]
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    declared: Mapping[str, str] = field(default_factory=dict)
    captured: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    sage: str | None = None
    ended_by: str | None = None

    @cached_property
    def redeal(self) -> bool:
        return is_bashi(self.field)

    @property
    def played_out(self) -> bool:
        return self.ended_by is None

    def pile(self, player: str) -> tuple[Card, ...]:
        return self.captured.get(player, ())

    @cached_property
    def held_dekiyaku(self) -> dict[str, tuple[str, ...]]:
        """The 出来役 each player's pile holds (RULES.md §5)."""
        return {p: tuple(dekiyaku(self.pile(p))) for p in self.players}

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        players: Sequence[str] | None = None,
        dealer: str | None = None,
        rules: Rules = SDIN,
    ) -> "Round":
        """Check a round file's data; ``players`` and ``dealer`` fill in keys the file leaves out."""
        return _Reader(data, players, dealer, rules).read()

    def to_dict(self) -> dict[str, Any]:
        """The round file form (CONTRACT.md §3), cards as codes in deck order."""
        out: dict[str, Any] = {
            "players": list(self.players),
            "dealer": self.dealer,
            "field": _codes(self.field),
        }
        if self.hands:
            out["hands"] = {p: _codes(h) for p, h in self.hands.items()}
        if self.declared:
            out["teyaku"] = dict(self.declared)
        out["captured"] = {p: _codes(self.pile(p)) for p in self.players}
        if self.sage:
            out["sage"] = self.sage
        if self.ended_by:
            out["ended_by"] = self.ended_by
        return out


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in sort_cards(cards)]


_OPTIONAL_PLAYER_KEYS = ("sage", "ended_by")


class _Reader:
    """Reads and checks a round file in the order CONTRACT.md §3 lists its rules."""

    def __init__(self, data: Any, players: Sequence[str] | None, dealer: str | None, rules: Rules):
        self.data = data
        self.default_players = players
        self.default_dealer = dealer
        self.rules = rules

    def read(self) -> Round:
        if not isinstance(self.data, dict):
            raise RoundError("", f"a round file holds a JSON object, not {_type(self.data)}")
        players = self._players()
        self.players = players
        dealer = self._player_key("dealer", self.default_dealer, required=True)
        field_cards = self._cards("field", self._get("field"), required=True)
        if len(field_cards) != 6:
            raise RoundError("field", f"holds {len(field_cards)} cards, not 6")
        hands = {p: self._cards(f"hands.{p}", v) for p, v in self._per_player("hands").items()}
        for p, hand in hands.items():
            if len(hand) != 7:
                raise RoundError(f"hands.{p}", f"holds {len(hand)} cards, not 7")
        self._within_deck("field and hands", {"field": field_cards, **{f"hands.{p}": h for p, h in hands.items()}})
        base = Round(players, dealer, tuple(field_cards), {p: tuple(h) for p, h in hands.items()})
        if base.redeal:
            return base  # 場四: the piles and the rest are not judged
        declared = self._declared(hands)
        captured = {p: self._cards(f"captured.{p}", v) for p, v in self._per_player("captured").items()}
        self._within_deck("the piles", {f"captured.{p}": pile for p, pile in captured.items()})
        for p, pile in captured.items():
            counts = month_counts(pile)
            odd = [m for m, n in counts.items() if n & 1]
            if odd:
                m = min(odd)
                held = " ".join(c.code for c in sort_cards(pile) if c.month == m)
                raise RoundError(
                    f"captured.{p}",
                    f"holds {counts[m]} {'card' if counts[m] == 1 else 'cards'} of month {m} ({held}); "
                    "captures come in twos or fours",
                )
        sage = self._player_key("sage", None)
        ended_by = self._player_key("ended_by", None)
        rnd = Round(
            players,
            dealer,
            tuple(field_cards),
            base.hands,
            declared,
            {p: tuple(captured.get(p, ())) for p in players},
            sage,
            ended_by,
        )
        if rnd.played_out:
            total = sum(len(rnd.pile(p)) for p in players)
            if total != len(DECK):
                missing = sorted(set(DECK) - set(c for p in players for c in rnd.pile(p)))
                hint = f" (missing e.g. {missing[0].code} {missing[0].ja})" if missing else ""
                raise RoundError(
                    "captured",
                    f"the piles hold {total} cards, but a played-out round captures all 48{hint}; "
                    "set ended_by if someone stopped with a 出来役",
                )
        for key, who in (("ended_by", ended_by), ("sage", sage)):
            if who is not None and not rnd.held_dekiyaku[who]:
                raise RoundError(key, f"{who!r}'s pile holds no 出来役")
        for p in players:
            held = rnd.held_dekiyaku[p]
            if held and p not in (sage, ended_by):
                raise RoundError(
                    f"captured.{p}",
                    f"holds {'・'.join(held)} but {p!r} neither ended the round nor declared 下げ",
                )
        return rnd

    # -- pieces ---------------------------------------------------------------------------

    def _get(self, key: str) -> Any:
        return self.data.get(key)

    def _players(self) -> tuple[str, str, str]:
        raw = self._get("players")
        if raw is None:
            if self.default_players is None:
                raise RoundError("players", "is missing: name the three players in play order")
            raw = list(self.default_players)
        elif self.default_players is not None and (not isinstance(raw, list) or raw != list(self.default_players)):
            raise RoundError(
                "players",
                f"{_names(raw)} are not this session's players {_names(self.default_players)}",
            )
        if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
            raise RoundError("players", f"must be a list of three names, not {_type(raw)}")
        for p in raw:
            check_player_name(p, "players")
        if len(raw) != 3 or len(set(raw)) != 3:
            raise RoundError("players", f"must be three distinct names, not {_names(raw)}")
        return (raw[0], raw[1], raw[2])

    def _player_key(self, key: str, default: str | None, required: bool = False) -> Any:
        value = self._get(key)
        if value is None:
            value = default
        if value is None:
            if required:
                raise RoundError(key, "is missing")
            return None
        if not isinstance(value, str):
            raise RoundError(key, f"must be a player's name, not {_type(value)}")
        if value not in self.players:
            raise RoundError(key, f"{quote(value)} is not one of the players {_names(self.players)}")
        return value

    def _per_player(self, key: str) -> dict[str, Any]:
        value = self._get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise RoundError(key, f"must be an object keyed by player, not {_type(value)}")
        for p in value:
            if p not in self.players:
                raise RoundError(f"{key}.{quote(p)[1:-1]}", f"{quote(p)} is not one of the players {_names(self.players)}")
        return {p: v for p, v in value.items() if v is not None}

    def _cards(self, where: str, value: Any, required: bool = False) -> list[Card]:
        if value is None:
            if required:
                raise RoundError(where, "is missing")
            return []
        if isinstance(value, list) and not value:
            return []
        if not isinstance(value, (str, list)):
            raise RoundError(where, f"must be a list of cards, not {_type(value)}")
        if isinstance(value, str) and not value.strip():
            return []
        try:
            return parse_cards(value)
        except CardError as e:
            raise RoundError(where, str(e)) from None

    def _within_deck(self, where: str, places: Mapping[str, list[Card]]) -> None:
        """No card more often than the deck holds it; the error names every place it is in."""
        cards = [c for place in places.values() for c in place]
        extra = over_deck(cards)
        if extra:
            c = sort_cards(extra)[0]
            n = cards.count(c)
            held = ", ".join(k for k, place in places.items() if c in place)
            raise RoundError(
                where, f"hold {n} × {c.code} {c.ja} (in {held}), but the deck has {DECK_COUNT[c]}"
            )

    def _declared(self, hands: Mapping[str, list[Card]]) -> dict[str, str]:
        declared: dict[str, str] = {}
        for p, typed in self._per_player("teyaku").items():
            where = f"teyaku.{p}"
            if not isinstance(typed, str):
                raise RoundError(where, f"must be a 手役 name, not {_type(typed)}")
            name = teyaku_name(typed)
            if name is None:
                raise RoundError(where, f"{quote(typed)} is not a 手役 ({' '.join(self.rules.teyaku)})")
            if p in hands:
                best = teyaku(hands[p], self.rules)
                made = teyaku_made(hands[p])
                if best is None:
                    raise RoundError(where, f"{quote(typed)} is declared, but the hand makes no 手役")
                if name not in made or self.rules.teyaku[name] != self.rules.teyaku[best]:
                    raise RoundError(where, f"{quote(typed)} is declared, but the hand makes {best}")
            declared[p] = name
        return declared


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: lone surrogates (undecodable bytes of a command line, or "\udc80" in JSON) can't be written as UTF-8
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: characters that show nothing: a name of only these is empty
_INVISIBLE = re.compile(r"[\s\u200b-\u200f\u2060-\u2064\ufeff\u180e\u034f\u115f\u1160\u3164\uffa0]")


def check_player_name(name: Any, where: str = "players") -> str:
    """A player's name as typed; empty, blank or over 40 characters is a :class:`RoundError`."""
    if not isinstance(name, str) or not _INVISIBLE.sub("", name):
        raise RoundError(where, f"a player's name must not be empty (got {quote(name)})")
    if len(name) > MAX_NAME:
        raise RoundError(where, f"the name {name[:20]!r}… is {len(name)} characters; at most {MAX_NAME}")
    if _CONTROL.search(name):
        raise RoundError(where, f"the name {name!r} holds a control character")
    if _SURROGATE.search(name):
        raise RoundError(where, f"the name {name!r} is not valid text (a lone surrogate: undecodable bytes?)")
    return name


def quote(value: Any, limit: int = MAX_NAME) -> str:
    """``repr(value)`` for an error line, cut short: a pasted megabyte stays one short line."""
    text = repr(value)
    return text if len(text) <= limit + 2 else text[: limit + 1] + "…" + text[-1]


def _type(value: Any) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "a string",
        int: "a number",
        float: "a number",
        bool: "true/false",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _names(names: Any) -> str:
    if isinstance(names, (list, tuple)):
        shown = ", ".join(quote(n) for n in names[:4])
        return "[" + shown + (", …" if len(names) > 4 else "") + "]"
    return quote(names)


# ---------------------------------------------------------------------------------------------
# the result


class Payment(NamedTuple):
    """One line of the ledger: ``payer`` pays ``payee`` ``mon`` 文 for ``reason``.

    A tuple, like :class:`PlayerResult`: a batch of rounds makes thousands of them.
    """

    payer: str
    payee: str
    mon: int
    reason: str
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "mon": self.mon, "reason": self.reason}


class PlayerResult(NamedTuple):
    """What one player held in a round. ``mon`` is derived from the ledger by :class:`Result`."""

    teyaku: str | None
    dekiyaku: tuple[str, ...]
    special: tuple[str, ...]
    card_points: int
    mon: int


#: How a round was settled (RULES.md §7).
REDEAL, DEKIYAKU_ROUND, SPECIAL_ROUND, PLAIN_ROUND = "場四", "出来役", "特殊役", "札"


class Result(NamedTuple):
    """A settled round. Tuples import and build faster than dataclasses: every command makes
    these, and a batch makes thousands."""

    round: Round
    field_class: str
    multiplier: int
    kind: str
    players: Mapping[str, PlayerResult]
    payments: tuple[Payment, ...]
    next_dealer: str
    rules: Rules = SDIN

    @property
    def redeal(self) -> bool:
        return self.kind == REDEAL

    def mon(self, player: str) -> int:
        return self.players[player].mon

    def to_json(self) -> dict[str, Any]:
        """The object `hachi-score score --json` prints (CONTRACT.md §4)."""
        return {
            "field_class": self.field_class,
            "multiplier": self.multiplier,
            "redeal": self.redeal,
            "next_dealer": self.next_dealer,
            "players": {
                p: {
                    "teyaku": r.teyaku,
                    "dekiyaku": list(r.dekiyaku),
                    "special": list(r.special),
                    "card_points": r.card_points,
                    "mon": r.mon,
                }
                for p, r in self.players.items()
            },
            "payments": [pay.to_json() for pay in self.payments],
        }


def ledger_totals(players: Sequence[str], payments: Sequence[Payment]) -> dict[str, int]:
    """Each player's net 文: received minus paid."""
    net = {p: 0 for p in players}
    for pay in payments:
        net[pay.payer] -= pay.mon
        net[pay.payee] += pay.mon
    return net


def settle_debts(net: Mapping[str, int], reason: str = CARD_POINTS_REASON) -> list[Payment]:
    """Payments that pay out zero-sum balances, losers to winners in the given order.

    With three players this takes at most two payments.
    """
    debtors = [[p, -v] for p, v in net.items() if v < 0]
    creditors = [[p, v] for p, v in net.items() if v > 0]
    payments: list[Payment] = []
    while debtors and creditors:
        d, c = debtors[0], creditors[0]
        amount = min(d[1], c[1])
        payments.append(Payment(d[0], c[0], amount, reason))
        d[1] -= amount
        c[1] -= amount
        if d[1] == 0:
            debtors.pop(0)
        if c[1] == 0:
            creditors.pop(0)
    return payments


def next_dealer(players: Sequence[str], dealer: str, mon: Mapping[str, int]) -> str:
    """The round's winner deals next; on a tie the 親 keeps it, else the first tied after the 親."""
    best = max(mon.values())
    start = players.index(dealer)
    for i in range(3):
        p = players[(start + i) % 3]
        if mon[p] == best:
            return p
    raise AssertionError("unreachable")


def score(rnd: Round, rules: Rules = SDIN) -> Result:
    """Settle a checked round (RULES.md §7)."""
    fc = field_class(rnd.field)
    mult = rules.multipliers[fc]
    players = rnd.players
    if rnd.redeal:
        zero = PlayerResult(None, (), (), 0, 0)
        return Result(rnd, fc, mult, REDEAL, {p: zero for p in players}, (), rnd.dealer, rules)

    held_teyaku = {p: rnd.declared.get(p) or (teyaku(rnd.hands[p], rules) if p in rnd.hands else None) for p in players}
    held_dekiyaku = rnd.held_dekiyaku
    card_points = {p: points(rnd.pile(p)) for p in players}
    ledger: list[Payment] = []

    def paid_by_each(holder: str, value: int, reason: str, note: str | None = None) -> None:
        for other in players:
            if other != holder:
                ledger.append(Payment(other, holder, value * mult, reason, note))

    def pay_teyaku() -> None:
        for p in players:
            if held_teyaku[p]:
                paid_by_each(p, rules.teyaku[held_teyaku[p]], held_teyaku[p])

    paid_special: dict[str, tuple[str, ...]] = {p: () for p in players}
    sage, ended = rnd.sage, rnd.ended_by
    if sage or ended:
        kind = DEKIYAKU_ROUND
        pay_teyaku()
        if sage is None or ended == sage:
            winner = ended
            note = "下げ" if sage else None
            for name in held_dekiyaku[winner]:
                paid_by_each(winner, rules.dekiyaku[name], name, note)
        elif ended is None:  # 下げ, then played out with no further 出来役: halved
            for name in held_dekiyaku[sage]:
                paid_by_each(sage, rules.dekiyaku[name] // 2, name, "下げ: half")
        else:  # another player ended it: the 下げ player alone pays double
            for name in held_dekiyaku[ended]:
                ledger.append(Payment(sage, ended, 2 * rules.dekiyaku[name] * mult, name, "下げ: double"))
    else:
        found = special({p: rnd.pile(p) for p in players}, rnd.dealer, rules)
        if any(found.values()):
            kind = SPECIAL_ROUND
            for p in players:
                for name, value in found[p]:
                    paid_by_each(p, value, name)
                paid_special[p] = tuple(name for name, _ in found[p])
        else:
            kind = PLAIN_ROUND
            pay_teyaku()
            net = {p: (card_points[p] - rules.base_points) * mult for p in players}
            ledger.extend(settle_debts(net))

    net = ledger_totals(players, ledger)
    results = {
        p: PlayerResult(held_teyaku[p], held_dekiyaku[p], paid_special[p], card_points[p], net[p])
        for p in players
    }
    return Result(rnd, fc, mult, kind, results, tuple(ledger), next_dealer(players, rnd.dealer, net), rules)


def score_dict(data: Any, **defaults: Any) -> Result:
    """Check and score a round file's data in one step."""
    rules = defaults.pop("rules", SDIN)
    return score(Round.from_dict(data, rules=rules, **defaults), rules)


assert BASE_POINTS == SDIN.base_points
