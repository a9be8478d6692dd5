"""`hachi-score rules`: a rule profile's every value and switch, for people and for scripts.

Values are shown in kan and in 文 at the profile's kan, beside ``sdin``'s where they differ; the
policies (手役, 下げ, 特殊役, field, winner) are said in words.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group

from rich.text import Text

from .render import FitTable
from .rules import SDIN, Rules

#: marks a value or switch that differs from sdin
MARK = "≠"

_SAME = {"空巣": "空素", "空素": "空巣"}


def rules_json(rules: Rules) -> dict[str, Any]:
    """`rules --json`: the keys of TRADITIONAL §10 with ``base``, ``values`` in kan and ``mon``
    the same values in 文 at the profile's kan."""
    out = rules.switches()
    out["mon"] = {name: rules.mon(kan) for name, kan in out["values"].items()}
    return out


def _sdin_value(name: str) -> int | None:
    values = SDIN.values()
    if name in values:
        return values[name]
    return values.get(_SAME.get(name, ""))


def _kind(rules: Rules, name: str) -> str:
    for row in rules.teyaku_table:
        if row.name == name:
            return f"手役 {row.group}" if row.group else "手役"
    if name in rules.dekiyaku:
        return "出来役"
    if name in rules.special:
        return "特殊役"
    if name in rules.bonuses:
        return "bonus"
    return "fee"


def _note(rules: Rules, name: str) -> str:
    if name == "七短" and rules.nanatan_plus:
        return "+1 per 短冊 > 7"
    if name == "二八":
        return f"+{rules.nihachi_step}/point > {rules.nihachi_from}"
    if name == "素十六":
        return f"+{rules.sujiroku_step}/kasu > {rules.sujiroku_from}"
    if name == "逃げ料":
        return "n-th: ×(n+1)/2"
    return ""


def values_table(rules: Rules) -> FitTable:
    """Every value in kan and 文; beside sdin's (in 文 at sdin's kan) unless this is sdin."""
    compare = rules != SDIN
    table = FitTable(Text(f"values of {rules.name}"), title_justify="left", pad_edge=False)
    table.add_column("", whole=True)
    table.add_column("yaku", whole=True)
    table.add_column("kan", right=True)
    table.add_column("文", right=True)
    if compare:
        table.add_column("sdin kan", right=True)
        table.add_column("sdin 文", right=True, drop=2)  # on a narrow terminal: kan × sdin's 10
        table.add_column("", whole=True)
    table.add_column("note", drop=1)
    values = rules.values()
    for name, kan in values.items():
        row = [_kind(rules, name), name, str(kan), str(rules.mon(kan))]
        if compare:
            theirs = _sdin_value(name)
            if theirs is None:
                row += ["–", "–", Text(f"{MARK} new", style="bold yellow")]
            else:
                differs = theirs != kan  # a 文 that differs by kan alone: the kan row says so
                row += [str(theirs), str(SDIN.mon(theirs)),
                        Text(MARK, style="bold yellow") if differs else ""]
        row.append(_note(rules, name))
        table.add_row(*row)
    if compare:  # what sdin pays that this profile does not
        for name, kan in SDIN.values().items():
            if name not in values and _SAME.get(name) not in values:
                table.add_row(_kind(SDIN, name), name, "off", "–", str(kan), str(SDIN.mon(kan)),
                              Text(f"{MARK} off", style="bold yellow"), "")
    return table


def _teyaku_policy(rules: Rules) -> str:
    if rules.teyaku_mode == "highest":
        return "the single highest"
    return "best of Group A + best of B"


def _sage_policy(rules: Rules) -> str:
    who = "one caller" if rules.sage_callers == 1 else (
        "any number of callers" if rules.sage_callers == 0 else f"up to {rules.sage_callers} callers")
    return who + (", may cancel" if rules.cancel else ", no cancel")


def _special_policy(rules: Rules) -> str:
    order = " over ".join(rules.special)
    if rules.special_mode == "all":
        return "all that occur are paid"
    return f"the first only: {order}"


_FIELD = {
    "none": "none: the largest ×",
    "carry": "carry: the other ×s wait",
    "stack": "stack: the ×s multiplied",
}

_WINNER = {
    "result": "the highest result",
    "play": "by play (TRADITIONAL §9)",
}


def _players(rules: Rules) -> str:
    return "3" if rules.max_players == 3 else f"3 to {rules.max_players}, some drop"


def _policies(rules: Rules) -> list[tuple[str, str]]:
    out = [
        ("kan", f"{rules.kan} 文 ({'decimal' if rules.kan == 10 else 'dozenal'})"),
        ("手役", _teyaku_policy(rules)),
        ("猪鹿蝶 (inoshikacho)", "on" if rules.inoshikacho else "off"),
        ("七短 (nanatan_plus)", "+1 kan per 短冊 over 7" if rules.nanatan_plus else "flat"),
        ("下げ", _sage_policy(rules)),
        ("特殊役", _special_policy(rules)),
        ("bonuses", ", ".join(rules.bonuses) or "none"),
        ("field", _FIELD[rules.field]),
        ("winner", _WINNER[rules.winner]),
        ("players", _players(rules)),
    ]
    if rules.max_players > 3 or SDIN.max_players > 3:
        out += [
            ("two_volunteers", "play for the pot" if rules.two_volunteers == "play" else "split the pot"),
            ("forced_three", "on: no drop once only 3 can play" if rules.forced_three else "off"),
        ]
    return out


def switches_table(rules: Rules) -> FitTable:
    """The switches and policies in words, marked where they differ from sdin."""
    compare = rules != SDIN
    table = FitTable("switches and policies", title_justify="left", pad_edge=False)
    table.add_column("rule")
    table.add_column(Text(rules.name))  # a house file's name is shown as typed, never as markup
    if compare:
        table.add_column("")
    sdin = dict(_policies(SDIN))
    for key, said in _policies(rules):
        row: list[Any] = [key, said]
        if compare:
            differs = sdin.get(key) is not None and sdin[key] != said
            row.append(Text(f"{MARK} sdin: {sdin[key]}", style="yellow") if differs else "")
        table.add_row(*row)
    return table


def profile_view(rules: Rules, source: str | None = None) -> Group:
    """The whole `rules` screen."""
    head = Text(f"rule profile {rules.name}", style="bold")
    if rules.name != rules.base:
        head.append(f" (house rules on {rules.base}", style="bold")
        head.append(f", from {source})" if source else ")", style="bold")
    parts: list[Any] = [head, values_table(rules), switches_table(rules)]
    if rules != SDIN:
        kan_note = f"; every 文 here is kan × {rules.kan}, sdin's × {SDIN.kan}" if rules.kan != SDIN.kan else ""
        parts.append(Text(f"{MARK}: differs from sdin{kan_note}", style="dim"))
    return Group(*parts)
