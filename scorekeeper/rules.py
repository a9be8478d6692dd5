"""Rule profiles: every value and switch a round's score depends on, as one immutable value.

Two profiles are built in: ``sdin`` (RULES.md, the default) and ``fudawiki`` (TRADITIONAL.md,
alias ``traditional``). A house-rule file (:mod:`scorekeeper.house`) starts from one of them and
changes what it lists. Yaku are *judged* by :mod:`yaku` (a row's ``test`` names the predicate);
what they are worth, which exist, their groups and the policies that differ between profiles
live here, so that a profile changes a value without touching code.

Every value is in **kan**; :meth:`Rules.mon` turns one into 文 (``kan × value``). Card points are
文 and never × kan (TRADITIONAL §1).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, NamedTuple, TypeVar

from . import catalog, policy
from .lang import _, quote


def _frozen(d: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(d))


class TeyakuRow(NamedTuple):
    """One row of a profile's 手役 table: the name, its group (``A``/``B``, or ``""`` where the
    profile scores only the single highest), its value in kan, and the predicate that judges it."""

    name: str
    group: str
    kan: int
    test: str


#: field-class multipliers (RULES §3); a 光 on the field gives its class's multiplier (TRADITIONAL §8)
FIELD_MULTIPLIERS = _frozen({"小場": 1, "大場": 2, "絶場": 4})

#: the field modes of TRADITIONAL §8, and the two_volunteers choices, as a house file names them
FIELD_MODES = tuple(policy.CHOICES["field"])
TWO_VOLUNTEERS = tuple(policy.CHOICES["two_volunteers"])


T = TypeVar("T")


def by_identity(kept: dict[int, tuple[Any, T]], value: Any, make: Callable[[], T]) -> T:
    """``make()`` made once for ``value`` (immutable: a profile, a 手役 table) and ``kept`` by its
    identity, the value kept beside it so that its id stays its own; at most 64 kept. Hashing a
    table's rows at every hand or round cost more than the work it saved."""
    entry = kept.get(id(value))
    if entry is None or entry[0] is not value:
        if len(kept) >= 64:
            kept.clear()
        entry = kept[id(value)] = (value, make())
    return entry[1]


#: each 手役 table's values (the ledger asks at every round), by :func:`by_identity`
_TEYAKU_VALUES: dict[int, tuple[Any, Mapping[str, int]]] = {}


def _teyaku_values(table: tuple[TeyakuRow, ...]) -> Mapping[str, int]:
    return by_identity(_TEYAKU_VALUES, table, lambda: _frozen({row.name: row.kan for row in table}))


class _Profile(NamedTuple):
    """A rule profile's fields (see :class:`Rules`)."""

    name: str
    base: str
    #: 文 in one kan: 10 (decimal) or 12 (dozenal)
    kan: int
    #: the 手役 table in table order (the order breaks ties between equal values)
    teyaku_table: tuple[TeyakuRow, ...]
    #: ``highest``: a hand scores its single highest 手役 (SDIN); ``groups``: the best of each
    #: group, added together (TRADITIONAL §3)
    teyaku_mode: policy.TeyakuMode
    #: 出来役 in table order, name -> kan (a switched-off yaku is absent)
    dekiyaku: Mapping[str, int]
    #: pairs (higher, lower): a pile making the higher is not paid the lower (五光 over 四光)
    no_overlap: tuple[tuple[str, str], ...]
    #: 七短 +1 kan per 短冊 beyond seven, 柳に短冊 counted (TRADITIONAL §10 ``nanatan_plus``)
    nanatan_plus: policy.Climb
    #: 特殊役 base values in kan, in precedence order; the steps above the threshold
    special: Mapping[str, int]
    nihachi_from: int
    nihachi_step: int
    sujiroku_from: int
    sujiroku_step: int
    #: ``all``: every 特殊役 that occurs is paid (SDIN); ``first``: only the first in order
    special_mode: policy.SpecialMode
    #: bonuses (飛び込み, 抜け役) in kan; none under SDIN
    bonuses: Mapping[str, int]
    multipliers: Mapping[str, int]
    #: ``none``, ``carry`` or ``stack`` (TRADITIONAL §8)
    field: policy.Field
    #: how many players may call 下げ in a round (0: any number); whether a caller may cancel
    sage_callers: policy.SageCallers
    cancel: policy.Cancel
    #: who wins a round: ``result`` the highest 文 (RULES §8), ``play`` TRADITIONAL §9
    winner: policy.Winner
    #: nights of 4–6 players (TRADITIONAL §7): the most seated, the fee in kan, the switches
    max_players: int
    fee: int
    two_volunteers: policy.TwoVolunteers
    forced_three: policy.ForcedThree
    base_points: int = 88
    #: TRADITIONAL §11.4: false, the table has no 二立三本 or 三本立三本 and two threes make 二三本
    #: (the rows are taken out when the profile is built; stored only when false)
    standing_three_pairs: bool = True
    #: TRADITIONAL §11 (each stored only away from its default, so that every stored profile and
    #: its key() stay as they were): 責任 (§11.1), みずてん (§11.2), 下り賃 and 追い込み賃 (§11.3)
    liability: bool = False
    mizuten: policy.Mizuten = policy.NO_MIZUTEN
    drop_fee: policy.DropFee = policy.LADDER
    forced_out_pay: policy.ForcedOutPay = policy.BY_HAND
    forced_out_paid_by: policy.ForcedOutPaidBy = policy.PAID_BY_TWO
    #: the 追い込み and みずてん values in kan (TRADITIONAL §10 [values]), read only where §11 uses them
    forced_value: int = 1
    mizuten_value: int = 1


#: TRADITIONAL §11's switches and their defaults, in §10's order: written by to_dict() only away
#: from them; ``rules --json`` prints every one
HOUSE_DEFAULTS: Mapping[str, Any] = MappingProxyType({
    "liability": False, "mizuten": False, "drop_fee": "ladder", "forced_out_pay": "hand",
    "forced_out_paid_by": "two", "standing_three_pairs": True})
#: TRADITIONAL §10 [values]: the values only §11 reads, by name -> the profile's field
HOUSE_VALUES: Mapping[str, str] = MappingProxyType({"追い込み": "forced_value", "みずてん": "mizuten_value"})


_SLOTS = tuple((i, name) for i, name in enumerate(_Profile._fields) if name in policy.CHOICES)


class Rules(_Profile):
    """A rule profile. A tuple, not a dataclass: it imports faster, and every command is a new
    process. Build another with ``_replace`` (or a house-rule file); compare with ``==``. Each
    policy slot holds a :mod:`~scorekeeper.policy` object, chosen here once from its key (a
    stored profile's ``"carry"`` or the object itself)."""

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> "Rules":
        values = list(_Profile.__new__(cls, *args, **kwargs))
        for i, name in _SLOTS:
            values[i] = policy.chosen(name, values[i])
        return tuple.__new__(cls, values)

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> "Rules":  # type: ignore[override]
        return cls(*iterable)

    # -- values ----------------------------------------------------------------------------

    def mon(self, kan_value: int) -> int:
        """A value in kan as 文 (before the multiplier)."""
        return kan_value * self.kan

    @property
    def teyaku(self) -> Mapping[str, int]:
        """手役 name -> kan, in table order."""
        return _teyaku_values(self.teyaku_table)

    def value(self, name: str) -> int:
        """Any yaku's, bonus's or fee's base value in kan, by its output name."""
        for row in self.teyaku_table:
            if row.name == name:
                return row.kan
        for table in (self.dekiyaku, self.special, self.bonuses):
            if name in table:
                return table[name]
        if name == "逃げ料":
            return self.fee
        if name in HOUSE_VALUES:
            return int(getattr(self, HOUSE_VALUES[name]))
        raise KeyError(name)

    def values(self) -> dict[str, int]:
        """Every yaku, bonus and fee by name, in kan (``rules --json``'s ``values``)."""
        out = {row.name: row.kan for row in self.teyaku_table}
        out.update(self.dekiyaku)
        out.update(self.special)
        out.update(self.bonuses)
        if self.max_players > 3:
            out["逃げ料"] = self.fee
        return out

    def group_of(self, name: str) -> str:
        for row in self.teyaku_table:
            if row.name == name:
                return row.group
        raise KeyError(name)

    @property
    def groups(self) -> tuple[str, ...]:
        """The 手役 groups in table order: ``("",)`` for a single-highest profile, ``("A", "B")``."""
        return tuple(dict.fromkeys(row.group for row in self.teyaku_table))

    def nihachi_kan(self, pile_points: int) -> int:
        """二八: its base at 168, +step per point above."""
        return self.special["二八"] + self.nihachi_step * (pile_points - self.nihachi_from)

    def sujiroku_kan(self, kasu: int) -> int:
        """素十六: its base at 16 kasu, +step per kasu above."""
        return self.special["素十六"] + self.sujiroku_step * (kasu - self.sujiroku_from)

    # -- as data ---------------------------------------------------------------------------

    @property
    def inoshikacho(self) -> bool:
        return "猪鹿蝶" in self.dekiyaku

    @property
    def most_seated(self) -> int:
        """The most players a night seats: three, or under a profile of 4–6 seven, the seventh
        with the 白札 (TRADITIONAL §11.5)."""
        return self.max_players + 1 if self.max_players > 3 else self.max_players

    def house(self) -> dict[str, Any]:
        """TRADITIONAL §11's switches as a house file writes them, every one (``rules --json``)."""
        return {key: getattr(self, key) if isinstance(default, bool) and key != "mizuten" else
                getattr(self, key).key for key, default in HOUSE_DEFAULTS.items()}

    def _house_changed(self) -> dict[str, Any]:
        """The §11 switches and values away from their defaults (what to_dict() adds)."""
        out = {k: v for k, v in self.house().items() if v != HOUSE_DEFAULTS[k] and k != "standing_three_pairs"}
        out.update({field: getattr(self, field) for field in HOUSE_VALUES.values() if getattr(self, field) != 1})
        return out

    def switches(self) -> dict[str, Any]:
        """The keys of a house-rule file (TRADITIONAL §10), ``values`` included."""
        return {
            "name": self.name,
            "base": self.base,
            "kan": self.kan,
            "field": self.field.key,
            "inoshikacho": self.inoshikacho,
            "nanatan_plus": self.nanatan_plus.key,
            "two_volunteers": self.two_volunteers.key,
            "forced_three": self.forced_three.key,
            **({} if self.standing_three_pairs else {"standing_three_pairs": False}),
            "values": self.values(),
        }

    def to_dict(self) -> dict[str, Any]:
        """Every value of the profile, as a session stores it: enough to score with it again
        after the house-rule file it came from is edited or gone."""
        return {
            **{k: v for k, v in self.switches().items() if k != "values"},
            "teyaku_table": [list(row) for row in self.teyaku_table],
            "teyaku_mode": self.teyaku_mode.key,
            "dekiyaku": dict(self.dekiyaku),
            "no_overlap": [list(pair) for pair in self.no_overlap],
            "special": dict(self.special),
            "nihachi_from": self.nihachi_from,
            "nihachi_step": self.nihachi_step,
            "sujiroku_from": self.sujiroku_from,
            "sujiroku_step": self.sujiroku_step,
            "special_mode": self.special_mode.key,
            "bonuses": dict(self.bonuses),
            "multipliers": dict(self.multipliers),
            "sage_callers": self.sage_callers.key,
            "cancel": self.cancel.key,
            "winner": self.winner.key,
            "max_players": self.max_players,
            "fee": self.fee,
            "base_points": self.base_points,
            **self._house_changed(),
        }

    def key(self) -> str:
        """A key of every value of the profile (its name among them): two house files that share
        a name but differ have two keys; the same values have one key wherever they are read."""
        import json

        from .files import sha256

        def made() -> str:
            text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
            return sha256(text.encode("utf-8")).hexdigest()[:12]

        return by_identity(_KEYS, self, made)  # a profile is immutable: its key is made once a process

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Rules":
        """The profile :meth:`to_dict` wrote. Raises ``ValueError``/``KeyError``/``TypeError``
        on anything else (the store reports it as damage). A profile is immutable, so the same
        values are read once a process (a decade's sessions share a profile or two)."""
        import json

        try:
            text: str | None = json.dumps(data, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            text = None
        seen = _READ.get(text) if text is not None else None
        if seen is not None:
            return seen
        rules = cls._read(data)
        if text is not None:
            if len(_READ) >= 64:
                _READ.clear()
            _READ[text] = rules
        return rules

    @classmethod
    def _read(cls, data: Mapping[str, Any]) -> "Rules":
        fields = dict(data)
        fields.pop("inoshikacho", None)  # derived from the 出来役 table
        rows = (TeyakuRow(*row) for row in fields["teyaku_table"])
        if policy.chosen("teyaku_mode", fields.get("teyaku_mode")) is policy.GROUPS:  # stored before "one three means exactly one"
            rows = (row._replace(test=_GROUPS_TESTS_RENAMED.get(row.test, row.test)) for row in rows)
        fields["teyaku_table"] = tuple(rows)
        fields["no_overlap"] = tuple(tuple(pair) for pair in fields["no_overlap"])
        for key in ("dekiyaku", "special", "bonuses", "multipliers"):
            fields[key] = _frozen(fields[key])
        rules = cls(**fields)
        check(rules)
        return rules


#: the profiles read so far (:meth:`Rules.from_dict`), by their stored values' JSON text
_READ: dict[str, Rules] = {}
#: the keys made so far (:meth:`Rules.key`), by :func:`by_identity`
_KEYS: dict[int, tuple[Any, str]] = {}
#: the values written so far (:func:`stored_values`), by :func:`by_identity`
_VALUES: dict[int, tuple[Any, dict[str, Any]]] = {}


def stored_values(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()`` made once a process for each profile and shared (a decade's nights,
    imported or exported, share a profile or two): read it, never change it."""
    return by_identity(_VALUES, rules, rules.to_dict)


def check(rules: Rules) -> Rules:
    """A profile's values make sense, or ``ValueError`` names the one that does not."""
    if rules.kan not in (10, 12):
        raise ValueError("kan: " + _("{value!r} is not 10 or 12").format(value=rules.kan))
    if not isinstance(rules.field, policy.Field):
        raise ValueError("field: " + _("{value!r} is not one of {choices}").format(
            value=rules.field, choices=", ".join(FIELD_MODES)))
    if not isinstance(rules.two_volunteers, policy.TwoVolunteers):
        raise ValueError("two_volunteers: " + _("{value!r} is not play or split").format(value=rules.two_volunteers))
    if not isinstance(rules.teyaku_mode, policy.TeyakuMode) or not isinstance(rules.special_mode, policy.SpecialMode):
        raise ValueError(_("not a hachi-score rule profile (teyaku_mode / special_mode)"))
    for slot, kind in _ASKED:
        if not isinstance(getattr(rules, slot), kind):
            raise ValueError(f"{slot}: " + _("{value!r} is not one of {choices}").format(
                value=getattr(rules, slot), choices=", ".join(map(str, policy.CHOICES[slot]))))
    if not isinstance(rules.winner, policy.Winner):
        raise ValueError("winner: " + _("{value!r} is not result or play").format(value=rules.winner))
    if not isinstance(rules.name, str) or not rules.name.strip():
        raise ValueError("name: " + _("a profile needs a name"))
    return rules


#: the policy slots stored as a bool or a count, and the class each must hold
_ASKED = (("sage_callers", policy.SageCallers), ("cancel", policy.Cancel), ("forced_three", policy.ForcedThree),
          ("nanatan_plus", policy.Climb), ("drop_fee", policy.DropFee), ("forced_out_pay", policy.ForcedOutPay),
          ("forced_out_paid_by", policy.ForcedOutPaidBy), ("mizuten", policy.Mizuten))

_TATE = "standing-three"
#: a profile of groups stored before TRADITIONAL §3's "one three means exactly one" named its
#: one-three rows' tests so (at least one three); :meth:`Rules.from_dict` reads them as now named
_GROUPS_TESTS_RENAMED = {_TATE: "one-standing-three", "plain-three": "one-plain-three"}

#: the order of each built-in's 手役 table (the order breaks ties between equal values): the
#: rows themselves are the catalog's defaults (:mod:`scorekeeper.catalog`)
SDIN_ORDER = ("四三", "一二四", "はねけん", "手四", "空巣", "喰付", "光一", "十一", "短一", "赤", "立三本", "三本")
FUDAWIKI_ORDER = ("四三", "一二四", "二立三本", "三本立三本", "はねけん", "二三本", "手四", "喰付", "立三本", "三本",
                  "空素", "光一", "十一", "短一", "赤")


def _table(base: str, order: tuple[str, ...]) -> tuple[TeyakuRow, ...]:
    return tuple(TeyakuRow(name, d.group, d.kan, d.test)
                 for name, d in catalog.defaults(base, catalog.TEYAKU, order).items())


def _kan(base: str, kind: str) -> Mapping[str, int]:
    return _frozen({name: d.kan for name, d in catalog.defaults(base, kind).items()})


#: TRADITIONAL §11.4: the 手役 rows a table without standing three pairs leaves out
STANDING_PAIRS = ("二立三本", "三本立三本")


def without_standing_pairs(table: tuple[TeyakuRow, ...]) -> tuple[TeyakuRow, ...]:
    """The 手役 table with no 二立三本 or 三本立三本: a hand of two threes, whatever its threes,
    makes 二三本 (TRADITIONAL §11.4); 立三本 is unchanged."""
    return tuple(row._replace(test="two-threes") if row.test == "two-plain-threes" else row
                 for row in table if row.name not in STANDING_PAIRS)


#: SDIN 手役 (RULES §4): the single highest, in kan
SDIN_TEYAKU = _table("sdin", SDIN_ORDER)

#: TRADITIONAL §3: Group A by month counts, Group B by kinds (every 柳 card a kasu)
FUDAWIKI_TEYAKU = _table("fudawiki", FUDAWIKI_ORDER)

SDIN = check(Rules(
    name="sdin",
    base="sdin",
    kan=10,
    teyaku_table=SDIN_TEYAKU,
    teyaku_mode=policy.HIGHEST,
    dekiyaku=_kan("sdin", catalog.DEKIYAKU),
    no_overlap=(("五光", "四光"),),
    nanatan_plus=policy.FLAT,
    special=_kan("sdin", catalog.SPECIAL),
    nihachi_from=168,
    nihachi_step=1,
    sujiroku_from=16,
    sujiroku_step=2,
    special_mode=policy.ALL,
    bonuses=_kan("sdin", catalog.BONUS),
    multipliers=FIELD_MULTIPLIERS,
    field=policy.NONE,
    sage_callers=policy.ONE_CALLER,
    cancel=policy.NO_CANCEL,
    winner=policy.BY_RESULT,
    max_players=3,
    fee=catalog.BY_NAME["逃げ料"].defaults["fudawiki"].kan,  # dormant: three seats pay none
    two_volunteers=policy.PLAY,
    forced_three=policy.FREE_DROPS,
))

FUDAWIKI = check(SDIN._replace(
    name="fudawiki",
    base="fudawiki",
    teyaku_table=FUDAWIKI_TEYAKU,
    teyaku_mode=policy.GROUPS,
    dekiyaku=_kan("fudawiki", catalog.DEKIYAKU),
    special_mode=policy.FIRST,
    bonuses=_kan("fudawiki", catalog.BONUS),
    field=policy.CARRY,
    sage_callers=policy.ANY_CALLERS,
    cancel=policy.CANCEL,
    winner=policy.BY_PLAY,
    max_players=6,
))

#: the built-in profiles by name
PROFILES: dict[str, Rules] = {"sdin": SDIN, "fudawiki": FUDAWIKI}
ALIASES = {"traditional": "fudawiki"}


def profile(name: str) -> Rules:
    """A built-in rule profile by name or alias, case-insensitive."""
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PROFILES[key]
    except KeyError:
        known = ", ".join([*PROFILES, *(f"{a} (= {n})" for a, n in ALIASES.items())])
        raise ValueError(_("unknown rule profile {name} (known: {known}, or a house-rule FILE.toml)").format(
            name=quote(name), known=known)) from None
