"""The rule values as one object. SDIN 八八 (RULES.md) is the default and only profile today.

Yaku are judged by :mod:`yaku`; what they are worth, and every other number of the rules, lives
here so that another profile can change a value without touching code.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, NamedTuple


def _frozen(d: dict[str, int]) -> Mapping[str, int]:
    return MappingProxyType(d)


class Rules(NamedTuple):
    """Every number the scoring uses. Amounts are 文.

    A tuple rather than a dataclass: it imports faster, and every command is a fresh process.
    Another profile is ``SDIN._replace(...)``.
    """

    name: str = "SDIN"
    #: 手役 values (RULES.md §4), in table order: the order breaks ties between equal values.
    teyaku: Mapping[str, int] = _frozen(
        {
            "四三": 200,
            "一二四": 80,
            "はねけん": 70,
            "手四": 60,
            "空巣": 40,
            "喰付": 40,
            "光一": 40,
            "十一": 40,
            "短一": 30,
            "赤": 30,
            "立三本": 30,
            "三本": 20,
        }
    )
    #: 出来役 values (RULES.md §5), in table order.
    dekiyaku: Mapping[str, int] = _frozen(
        {"五光": 120, "四光": 100, "七短": 100, "赤短": 70, "青短": 70, "猪鹿蝶": 70}
    )
    #: 特殊役 (RULES.md §6)
    sohachi: int = 100
    nihachi: int = 100
    nihachi_from: int = 168
    nihachi_step: int = 10
    sujiroku: int = 120
    sujiroku_from: int = 16
    sujiroku_step: int = 20
    #: field multipliers (RULES.md §3)
    multipliers: Mapping[str, int] = _frozen({"小場": 1, "大場": 2, "絶場": 4})
    #: the card-point base: 264 / 3 (RULES.md §7)
    base_points: int = 88

    def nihachi_value(self, pile_points: int) -> int:
        """二八: 100 at 168, +10 per point above."""
        return self.nihachi + self.nihachi_step * (pile_points - self.nihachi_from)

    def sujiroku_value(self, kasu: int) -> int:
        """素十六: 120 at 16 kasu, +20 per kasu above."""
        return self.sujiroku + self.sujiroku_step * (kasu - self.sujiroku_from)


SDIN = Rules()

PROFILES: dict[str, Rules] = {"sdin": SDIN}


def profile(name: str) -> Rules:
    """A rule profile by name, case-insensitive."""
    try:
        return PROFILES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown rule profile {name!r} (known: {', '.join(PROFILES)})") from None
