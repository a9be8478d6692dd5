"""The behaviour a profile chooses: one small object per value of a policy switch.

A profile (:class:`scorekeeper.rules.Rules`) holds one of these in each typed slot, chosen once
when it is built (from a built-in, a house-rule file or a stored session). Code that scores or
asks calls the slot's attributes and methods and never compares a policy with a string; each
object's ``key`` is what a stored profile and ``rules --json`` write, so that what is stored
does not change. Pure: imports nothing of the package.
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Sequence


class Policy:
    """One value of a policy switch. Singletons: compared by identity, written as ``key``."""

    __slots__ = ("key",)
    key: Any

    def __repr__(self) -> str:
        return f"{type(self).__name__.lstrip('_')}({self.key!r})"


class Field(Policy):
    """``field`` (TRADITIONAL §8): which multiplier a round applies, and what waits for later.
    This one: the field's own largest, nothing waits."""

    __slots__ = ("carries",)

    def __init__(self, key: str, carries: bool = False) -> None:
        self.key = key
        #: a 光 beyond the first waits for the next rounds (a round file may state ``carry``)
        self.carries = carries

    def take(self, own: Sequence[int], waiting: tuple[int, ...], small: int) -> tuple[int, tuple[int, ...]]:
        """This field's multipliers (largest first) and the queue -> the round's multiplier and
        the queue after it (``small``: 小場's multiplier)."""
        return (own[0] if own else small), ()


class _Carry(Field):
    __slots__ = ()

    def take(self, own: Sequence[int], waiting: tuple[int, ...], small: int) -> tuple[int, tuple[int, ...]]:
        if waiting:
            return waiting[0], tuple(sorted([*waiting[1:], *own], reverse=True))
        if own:
            return own[0], tuple(own[1:])
        return small, ()


class _Stack(Field):
    __slots__ = ()

    def take(self, own: Sequence[int], waiting: tuple[int, ...], small: int) -> tuple[int, tuple[int, ...]]:
        product = small
        for m in own:
            product *= m
        return product, ()


NONE = Field("none")
CARRY = _Carry("carry", carries=True)
STACK = _Stack("stack")


class TwoVolunteers(Policy):
    """``two_volunteers`` (TRADITIONAL §7): two volunteers play the round, or split the pot."""

    __slots__ = ("play",)

    def __init__(self, key: str, play: bool) -> None:
        self.key = key
        self.play = play

    def plays(self, volunteers: tuple[str, ...]) -> tuple[str, ...]:
        """Who plays the round out, from the volunteers: three, or two when they play; else nobody."""
        return volunteers if len(volunteers) == 3 or (len(volunteers) == 2 and self.play) else ()


PLAY = TwoVolunteers("play", play=True)
SPLIT = TwoVolunteers("split", play=False)


class TeyakuMode(Policy):
    """``teyaku_mode``: a hand scores its single highest 手役 (RULES §4), or the best of each group
    (TRADITIONAL §3)."""

    __slots__ = ("grouped",)

    def __init__(self, key: str, grouped: bool) -> None:
        self.key = key
        self.grouped = grouped


HIGHEST = TeyakuMode("highest", grouped=False)
GROUPS = TeyakuMode("groups", grouped=True)


class SpecialMode(Policy):
    """``special_mode``: every 特殊役 that occurs is paid (RULES §6), or only the first in order
    (TRADITIONAL §5)."""

    __slots__ = ("first_only",)

    def __init__(self, key: str, first_only: bool) -> None:
        self.key = key
        self.first_only = first_only


ALL = SpecialMode("all", first_only=False)
FIRST = SpecialMode("first", first_only=True)


class Winner(Policy):
    """``winner``: the round's winner is who gained the most 文 (RULES §8), or who won the play
    (TRADITIONAL §9)."""

    __slots__ = ("by_result",)

    def __init__(self, key: str, by_result: bool) -> None:
        self.key = key
        self.by_result = by_result


BY_RESULT = Winner("result", by_result=True)
BY_PLAY = Winner("play", by_result=False)


class _Asked(Policy):
    """A policy stored as a bool or a number: asked, never read as a flag (``if rules.cancel``
    would be true of every object, so it is refused)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        raise TypeError(f"{self!r} is a policy: ask it, do not test it")


class SageCallers(_Asked):
    """``sage_callers``: how many players may call 下げ in a round: one (RULES §7), any number
    (``0``: TRADITIONAL §4), or at most ``limit``."""

    __slots__ = ("limit",)
    _made: ClassVar[dict[int, "SageCallers"]] = {}

    def __init__(self, key: int) -> None:
        self.key = key
        #: the most callers a round may have (0: any number)
        self.limit = key

    @classmethod
    def of(cls, limit: int) -> "SageCallers":
        """The policy of ``limit`` callers, one object per limit."""
        return cls._made.setdefault(limit, cls(limit))

    @property
    def many(self) -> bool:
        """More than one player may call 下げ."""
        return self.limit != 1

    def refuses(self, callers: int) -> bool:
        """Are ``callers`` more than a round may have?"""
        return bool(self.limit) and callers > self.limit


ONE_CALLER = SageCallers.of(1)
ANY_CALLERS = SageCallers.of(0)


class Cancel(_Asked):
    """``cancel`` (TRADITIONAL §4): a 下げ caller who ends the round may end it by cancel, not
    勝負; RULES has no cancel."""

    __slots__ = ("allowed",)

    def __init__(self, key: bool) -> None:
        self.key = key
        self.allowed = key


CANCEL = Cancel(True)
NO_CANCEL = Cancel(False)


class ForcedThree(_Asked):
    """``forced_three`` (TRADITIONAL §7, §10): once only three could still play, nobody may drop."""

    __slots__ = ("on",)

    def __init__(self, key: bool) -> None:
        self.key = key
        self.on = key

    def may_drop(self, seated: int, dropped_before: int) -> bool:
        """May the next seat to speak drop, ``dropped_before`` having dropped? Never with three
        seated; under this rule, not once only three could still play."""
        return seated > 3 and not (self.on and seated - dropped_before <= 3)


FORCED_THREE = ForcedThree(True)
FREE_DROPS = ForcedThree(False)


class Climb(_Asked):
    """``nanatan_plus`` (TRADITIONAL §10): a 出来役 whose catalog record climbs (七短) is worth +1 kan
    per card of its kind beyond its need, every such card counted (on), or its flat value. A
    climbing value counts cards, so such a 出来役 may not be given by name."""

    __slots__ = ("on",)

    def __init__(self, key: bool) -> None:
        self.key = key
        self.on = key

    def kan(self, value: int, held: int, need: int) -> int:
        """The value in kan of a climbing 出来役 of ``held`` cards of its kind."""
        return value + max(0, held - need) if self.on else value


CLIMBS = Climb(True)
FLAT = Climb(False)


class DropFee(Policy):
    """``drop_fee`` (TRADITIONAL §7, §11.3): the n-th to drop pays 1 + (n − 1)/2 × the fee
    (``ladder``), or every one the fee (``flat``, 下り賃)."""

    __slots__ = ()

    def __init__(self, key: str) -> None:
        self.key = key

    def fee(self, n: int, value: int, mult: int) -> int:
        """The n-th fee in 文: ``value`` (the 逃げ料 in 文) × (n + 1)/2 × the multiplier."""
        return value * (n + 1) * mult // 2


class _FlatFee(DropFee):
    __slots__ = ()

    def fee(self, n: int, value: int, mult: int) -> int:
        return value * mult


LADDER = DropFee("ladder")
FLAT_FEE = _FlatFee("flat")


class ForcedOutPay(Policy):
    """``forced_out_pay`` (TRADITIONAL §7, §11.3): a forced-out player is paid from their hand
    (``hand``), or the 追い込み value whatever it holds (``flat``, 追い込み賃: no hand asked)."""

    __slots__ = ("from_hand",)

    def __init__(self, key: str, from_hand: bool) -> None:
        self.key = key
        self.from_hand = from_hand


BY_HAND = ForcedOutPay("hand", from_hand=True)
FLAT_PAY = ForcedOutPay("flat", from_hand=False)


class ForcedOutPaidBy(Policy):
    """``forced_out_paid_by`` (TRADITIONAL §7, §11.3): who pays a forced-out player: the two
    active players other than the round's 親 (``two``), or all of them (``all``)."""

    __slots__ = ("oya_pays",)

    def __init__(self, key: str, oya_pays: bool) -> None:
        self.key = key
        self.oya_pays = oya_pays

    def payers(self, volunteers: Sequence[str], oya: str) -> tuple[str, ...]:
        return tuple(v for v in volunteers if self.oya_pays or v != oya)


PAID_BY_TWO = ForcedOutPaidBy("two", oya_pays=False)
PAID_BY_ALL = ForcedOutPaidBy("all", oya_pays=True)


class Mizuten(Policy):
    """``mizuten`` (TRADITIONAL §11.2): who may declare みずてん and what it pays. This one: off
    (``false``), a round may not declare it."""

    __slots__ = ("on", "by_pile")

    def __init__(self, key: Any, on: bool = False, by_pile: bool = False) -> None:
        self.key = key
        self.on = on
        #: ``fudawiki``: judged on the declarer's pile (89 or more), who must be the night's 親
        self.by_pile = by_pile

    def owed(self, declarer: str, points: int, seated: Sequence[str], playing: Sequence[str],
             special: bool) -> list[tuple[str, str]]:
        """(payer, payee) of each みずてん payment: ``seated`` are the seats that may pay (the
        白札's holder left out), ``playing`` those who played the cards out (none: nothing is)."""
        return []


class _ByPile(Mizuten):
    """FudaWiki's: 89 or more, every other seat pays the declarer; fewer, the declarer pays each
    other active player. Not in a 特殊役 round, nor with fewer than three playing."""

    __slots__ = ()

    def owed(self, declarer: str, points: int, seated: Sequence[str], playing: Sequence[str],
             special: bool) -> list[tuple[str, str]]:
        if special or len(playing) != 3:
            return []
        if points >= 89:
            return [(p, declarer) for p in seated if p != declarer]
        return [(declarer, p) for p in playing if p != declarer]


class _Flat(Mizuten):
    """tarumino3's 水天: every other seat pays the declarer, whatever the cards, in every round
    whose cards are played."""

    __slots__ = ()

    def owed(self, declarer: str, points: int, seated: Sequence[str], playing: Sequence[str],
             special: bool) -> list[tuple[str, str]]:
        return [(p, declarer) for p in seated if p != declarer] if playing else []


NO_MIZUTEN = Mizuten(False)
MIZUTEN_FUDAWIKI = _ByPile("fudawiki", on=True, by_pile=True)
MIZUTEN_FLAT = _Flat("flat", on=True)


#: each policy slot of a profile: its values by the key a stored profile writes
FIELDS: Mapping[str, Field] = {p.key: p for p in (NONE, CARRY, STACK)}
VOLUNTEERS: Mapping[str, TwoVolunteers] = {p.key: p for p in (PLAY, SPLIT)}
DROP_FEES: Mapping[str, DropFee] = {p.key: p for p in (LADDER, FLAT_FEE)}
FORCED_OUT_PAYS: Mapping[str, ForcedOutPay] = {p.key: p for p in (BY_HAND, FLAT_PAY)}
FORCED_OUT_PAYERS: Mapping[str, ForcedOutPaidBy] = {p.key: p for p in (PAID_BY_TWO, PAID_BY_ALL)}
MIZUTEN: Mapping[Any, Mizuten] = {p.key: p for p in (NO_MIZUTEN, MIZUTEN_FUDAWIKI, MIZUTEN_FLAT)}
CHOICES: Mapping[str, Mapping[Any, Policy]] = {
    "field": FIELDS,
    "two_volunteers": VOLUNTEERS,
    "teyaku_mode": {p.key: p for p in (HIGHEST, GROUPS)},
    "special_mode": {p.key: p for p in (ALL, FIRST)},
    "winner": {p.key: p for p in (BY_RESULT, BY_PLAY)},
    "sage_callers": {p.key: p for p in (ONE_CALLER, ANY_CALLERS)},
    "cancel": {p.key: p for p in (CANCEL, NO_CANCEL)},
    "forced_three": {p.key: p for p in (FORCED_THREE, FREE_DROPS)},
    "nanatan_plus": {p.key: p for p in (CLIMBS, FLAT)},
    "drop_fee": DROP_FEES,
    "forced_out_pay": FORCED_OUT_PAYS,
    "forced_out_paid_by": FORCED_OUT_PAYERS,
    "mizuten": MIZUTEN,
}


def chosen(slot: str, value: Any) -> Any:
    """The policy object a slot's stored key names (an object stays as it is); a value that names
    none is kept as it is, for the profile's check to refuse with its own words. A stored bool is
    a bool (``1`` names no cancel policy), and any count of 下げ callers has its policy."""
    if isinstance(value, Policy):
        return value
    if slot in _BOOLEAN and not isinstance(value, bool):
        return value
    if slot == "sage_callers" and type(value) is int and value >= 0:
        return SageCallers.of(value)
    try:
        return CHOICES[slot].get(value, value)
    except TypeError:  # unhashable: not a key
        return value


_BOOLEAN = frozenset({"cancel", "forced_three", "nanatan_plus"})
