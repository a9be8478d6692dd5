"""`hachi-score rules`: a rule profile's every value and switch, for people and for scripts.

Values are shown in kan and in 文 at the profile's kan, beside ``sdin``'s where they differ; the
policies (手役, 下げ, 特殊役, field, winner) are said in words.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group

from rich.text import Text

from . import catalog, policy
from .lang import N_, _
from .render import FitTable, Phrased
from .rules import HOUSE_DEFAULTS, HOUSE_VALUES, SDIN, Rules

#: marks a value or switch that differs from sdin
MARK = "≠"

_SAME = {d.name: d.same for d in catalog.CATALOG if d.same}


def rules_json(rules: Rules) -> dict[str, Any]:
    """`rules --json`: the keys of TRADITIONAL §10 with ``base``, ``values`` in kan and ``mon``
    the same values in 文 at the profile's kan."""
    out = rules.switches()
    if rules.house() != HOUSE_DEFAULTS:  # a file that turns a switch of TRADITIONAL §11: every one of them,
        values = out.pop("values")       # and the values only they read (a profile without stays as it was)
        out.update(rules.house())
        out["values"] = {**values, **{name: rules.value(name) for name in HOUSE_VALUES}}
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
    kind = catalog.BY_NAME[name].kind
    return _("bonus") if kind == catalog.BONUS else _("fee") if kind == catalog.FEE else kind


def _note(rules: Rules, name: str) -> str:
    if rules.nanatan_plus.on and name in catalog.YAKU and catalog.YAKU[name].climbs:
        return _("+1 per 短冊 > 7")
    if name == "二八":
        return _("+{step}/point > {start}").format(step=rules.nihachi_step, start=rules.nihachi_from)
    if name == "素十六":
        return _("+{step}/kasu > {start}").format(step=rules.sujiroku_step, start=rules.sujiroku_from)
    if name == "逃げ料":
        return _("n-th: ×(n+1)/2")
    return ""


def values_table(rules: Rules) -> FitTable:
    """Every value in kan and 文; beside sdin's (in 文 at sdin's kan) unless this is sdin."""
    compare = rules != SDIN
    table = FitTable(Text(_("values of {profile}").format(profile=rules.name)), title_justify="left", pad_edge=False)
    table.add_column("", whole=True)
    table.add_column(_("yaku"), whole=True)
    table.add_column(_("kan"), right=True)
    table.add_column("文", right=True)
    if compare:
        table.add_column(_("sdin kan"), right=True)
        table.add_column("sdin 文", right=True, drop=2)  # on a narrow terminal: kan × sdin's 10
        table.add_column("", whole=True)
    table.add_column(_("note"), drop=1)
    values = rules.values()
    for name, kan in values.items():
        row: list[str | Text] = [_kind(rules, name), name, str(kan), str(rules.mon(kan))]
        if compare:
            theirs = _sdin_value(name)
            if theirs is None:
                row += ["–", "–", Text(f"{MARK} " + _("new"), style="bold yellow")]
            else:
                differs = theirs != kan  # a 文 that differs by kan alone: the kan row says so
                row += [str(theirs), str(SDIN.mon(theirs)),
                        Text(MARK, style="bold yellow") if differs else ""]
        row.append(_note(rules, name))
        table.add_row(*row)
    if compare:  # what sdin pays that this profile does not
        for name, kan in SDIN.values().items():
            if name not in values and _SAME.get(name) not in values:
                table.add_row(_kind(SDIN, name), name, _("off"), "–", str(kan), str(SDIN.mon(kan)),
                              Text(f"{MARK} " + _("off"), style="bold yellow"), "")
    return table


def _teyaku_policy(rules: Rules) -> str:
    if not rules.teyaku_mode.grouped:
        return _("the single highest")
    return _("best of Group A + best of B")


def _sage_policy(rules: Rules) -> str:
    limit = rules.sage_callers.limit
    who = _("one caller") if limit == 1 else (
        _("any number of callers") if limit == 0 else _("up to {n} callers").format(n=limit))
    return who + (_(", may cancel") if rules.cancel.allowed else _(", no cancel"))


def _special_policy(rules: Rules) -> str:
    order = _(" over ").join(rules.special)
    if not rules.special_mode.first_only:
        return _("all that occur are paid")
    return _("the first only: {order}").format(order=order)


_FIELD = {
    policy.NONE: N_("none: the largest ×"),
    policy.CARRY: N_("carry: the other ×s wait"),
    policy.STACK: N_("stack: the ×s multiplied"),
}

_WINNER = {
    policy.BY_RESULT: N_("the highest result"),
    policy.BY_PLAY: N_("by play: who ended it, else the highest pile"),
}


def _players(rules: Rules) -> str:
    return "3" if rules.max_players == 3 else _("3 to {n}, some drop").format(n=rules.max_players)


def _policies(rules: Rules) -> list[tuple[str, str]]:
    """(the rule, what the profile says of it), in words."""
    on, off = _("on"), _("off")
    out = [
        (_("kan"), _("{mon} 文 (decimal)").format(mon=rules.kan) if rules.kan == 10
         else _("{mon} 文 (dozenal)").format(mon=rules.kan)),
        ("手役", _teyaku_policy(rules)),
        (_("猪鹿蝶 (inoshikacho)"), on if rules.inoshikacho else off),
        (_("七短 (nanatan_plus)"), _("+1 kan per 短冊 over 7") if rules.nanatan_plus.on else _("flat")),
        ("下げ", _sage_policy(rules)),
        ("特殊役", _special_policy(rules)),
        (_("bonuses"), _(", ").join(rules.bonuses) or _("none")),
        (_("field"), _(_FIELD[rules.field])),
        (_("winner"), _(_WINNER[rules.winner])),
        (_("players"), _players(rules)),
    ]
    if rules.max_players > 3 or SDIN.max_players > 3:
        out += [
            (_("two_volunteers"), _("play for the pot") if rules.two_volunteers.play else _("split the pot")),
            (_("forced_three"), _("on: no drop once only 3 can play") if rules.forced_three.on else off),
        ]
    if not rules.standing_three_pairs:  # TRADITIONAL §11.4: shown only when off, as a file sets it
        out.append((_("standing_three_pairs"), _("off: two threes make 二三本, whatever they are")))
    out += _house_policies(rules)
    return out


def _house_policies(rules: Rules) -> list[tuple[str, str]]:
    """TRADITIONAL §11.1–11.3's switches, each shown only when a file turns it on."""
    out = []
    if rules.liability:
        out.append((_("責任 (liability)"), _("on: who fed the card pays alone")))
    if rules.mizuten.on:
        said = (_("fudawiki: the 親 declares; 89 or more wins {kan} kan from each") if rules.mizuten.by_pile
                else _("flat: any player declares; {kan} kan from each"))
        out.append((_("みずてん (mizuten)"), said.format(kan=rules.mizuten_value)))
    if rules.drop_fee is not SDIN.drop_fee:
        out.append((_("下り賃 (drop_fee)"), _("flat: every fee {kan} kan").format(kan=rules.fee)))
    if rules.forced_out_pay is not SDIN.forced_out_pay:
        out.append((_("追い込み賃 (forced_out_pay)"), _("flat: {kan} kan from each payer").format(kan=rules.forced_value)))
    if rules.forced_out_paid_by is not SDIN.forced_out_paid_by:
        out.append((_("forced_out_paid_by"), _("all: the round's 親 pays compensation too")))
    return out


def switches_table(rules: Rules) -> FitTable:
    """The switches and policies in words, marked where they differ from sdin."""
    compare = rules != SDIN
    table = FitTable(_("switches and policies"), title_justify="left", pad_edge=False)
    table.add_column(_("rule"))
    table.add_column(Text(rules.name))  # a house file's name is shown as typed, never as markup
    if compare:
        table.add_column("")
    sdin = dict(_policies(SDIN))
    for key, said in _policies(rules):
        row: list[Any] = [key, said]
        if compare:
            differs = sdin.get(key) is not None and sdin[key] != said
            row.append(Phrased(Phrased.words(f"{MARK} sdin: {sdin[key]}", style="yellow")) if differs else "")
        table.add_row(*row)
    return table


def profile_view(rules: Rules, source: str | None = None) -> Group:
    """The whole `rules` screen."""
    if rules.name == rules.base:
        said = _("rule profile {profile}").format(profile=rules.name)
    elif source:
        said = _("rule profile {profile} (house rules on {base}, from {source})").format(
            profile=rules.name, base=rules.base, source=source)
    else:
        said = _("rule profile {profile} (house rules on {base})").format(profile=rules.name, base=rules.base)
    head = Text(said, style="bold")
    parts: list[Any] = [head, values_table(rules), switches_table(rules)]
    if rules != SDIN:
        kan_note = (_("; every 文 here is kan × {kan}, sdin's × {sdin_kan}").format(kan=rules.kan, sdin_kan=SDIN.kan)
                    if rules.kan != SDIN.kan else "")
        parts.append(Text(_("{mark}: differs from sdin").format(mark=MARK) + kan_note, style="dim"))
    return Group(*parts)
