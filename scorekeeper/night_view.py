"""Rich views of the book: a session's summary, the list of sessions, one stored round in full.

Every number comes from :mod:`scorekeeper.night` (re-scored rounds); names typed by people are
always shown as :class:`rich.text.Text`, never read as rich markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group
from rich.text import Text

from . import night
from .cards import sort_cards
from .lang import _, noted
from .render import (FitTable, Phrased, PhraseText, card_points_text, mon, name, pot_line, profile_label, round_view,
                     seat_mon, texts, two_handed,
                     waiting_label)
from .scoring import BAD_ROUND, FORCED_REASON, MISDEAL, PLAIN_ROUND, SOLO, SPLIT, Payment, Result, Round

SPARKS = "▁▂▃▄▅▆▇█"
#: rounds shown in the summary's table without --all
RECENT = 12
#: rounds the trend shows: the latest, so that a long night's line fits its column
TREND = 12


def sparkline(values: Sequence[int], lo: int, hi: int) -> str:
    """One block per value, scaled between ``lo`` and ``hi`` (shared by all players)."""
    if hi == lo:
        return SPARKS[3] * len(values)
    top = len(SPARKS) - 1
    return "".join(SPARKS[round((v - lo) * top / (hi - lo))] for v in values)


def plan_label(months: int, rounds: int, planned: int) -> str:
    """``5 of 12 rounds``: the months of the planned length used up; after a misdeal, which is a
    round but no month (TRADITIONAL §8), ``5 of 12 months, 6 rounds (1 流れ)``."""
    if months == rounds:
        return _("{rounds} of {planned} rounds").format(rounds=rounds, planned=planned)
    return _("{months} of {planned} months, {rounds} rounds ({misdeals} 流れ)").format(
        months=months, planned=planned, rounds=rounds, misdeals=rounds - months)


def session_title(session: Mapping[str, Any], results: Sequence[Result]) -> Text:
    title = Text("八八 ", style="bold")
    title.append(session["name"], style="bold")
    title.append(noted("", session["id"]) + "  ")
    date = str(session.get("created", ""))[:10]
    if date and date != session["name"]:
        title.append(f"{date}  ")
    title.append(plan_label(night.months_played(results), len(results), session.get("planned_rounds", 12)))
    title.append("  " + _("rules {profile}").format(profile=profile_label(night.session_rules(session))))
    if session.get("rate") is not None:
        title.append("  " + _("rate {money} per 文").format(money=night.money_text(1, session["rate"])))
    return title


def summary_view(session: Mapping[str, Any], results: Sequence[Result], show_all: bool = False) -> Group:
    """Standings in 文 and 貫 with a trend, the recent rounds, and the settlement."""
    players = list(session["players"])
    rate = session.get("rate")
    net = night.totals(results, players)
    trend = night.balances(results, players)
    every = [v for vs in trend.values() for v in vs]
    lo, hi = min(every + [0]), max(every + [0])

    per = night.session_rules(session).kan
    head = session_title(session, results)
    head.append("\n")
    head.append_text(texts(_("next 親: {dealer}"), dealer=name(night.current_dealer(session, results))))
    state = night.current_state(results)
    if state.carry:
        head.append(f"  {waiting_label(state.carry)}", style="bold")

    standings = FitTable(_("standings"), title_justify="left", pad_edge=False)
    standings.add_column(_("player"), whole=True)
    standings.add_column("文", right=True)
    standings.add_column("貫", right=True)
    if rate is not None:
        standings.add_column(_("money"), right=True)
    standings.add_column(_("trend (last {n})").format(n=TREND) if len(results) > TREND else _("trend"),
                         whole=True, drop=1)
    for p in players:
        row: list[Any] = [name(p), mon(net[p]), night.kan(net[p], per)]
        if rate is not None:
            row.append(night.money_text(net[p], rate, signed=True))
        row.append(sparkline(trend[p][-TREND:], lo, hi))  # the latest rounds: a long night fits
        standings.add_row(*row)

    shown = list(enumerate(results, 1))
    if not show_all and len(shown) > RECENT:
        shown = shown[-RECENT:]
        caption = _("rounds: the last {recent} of {rounds} (--all for every round)").format(
            recent=RECENT, rounds=len(results))
    else:
        caption = _("rounds")
    table = FitTable(caption, title_justify="left", pad_edge=False)
    table.add_column("#", right=True)
    table.add_column("親", whole=True, drop=2)
    table.add_column(_("場 field"), whole=True, drop=1)
    table.add_column(_("yaku"))
    for p in players:
        table.add_column(name(p), right=True)
    for n, r in shown:
        # one player's yaku a line, the name and the yaku each whole: a narrow column wraps between
        lines: list[list[Any]] = [[name(p), Text(y)] for p, y in night.round_yaku(r)]
        if r.kind == BAD_ROUND:
            lines.append(Phrased.words(_("✗ does not score: edit replaces it"), style="red"))
        elif r.kind in (MISDEAL, SOLO, SPLIT):  # nothing played: what it did with the pot (TRADITIONAL §7)
            lines.append(Phrased.words(f"{r.kind}: " + (pot_line(r) or _("nothing paid")), style="dim"))
        elif not lines:
            plain = _("札 the two piles' difference only") if two_handed(r) else _("札 card points only")
            lines.append(Phrased.words(plain if r.kind == PLAIN_ROUND else "–", style="dim"))
        if r.kind not in (BAD_ROUND, MISDEAL, SOLO, SPLIT):
            lines.extend(seat_lines(r))
        if r.round.sage:
            lines.append(Phrased.words(_("(下げ {callers})").format(callers="→".join(r.round.sage)), style="yellow"))
        yaku = Phrased(*lines)
        table.add_row(str(n), name(r.round.dealer), "✗" if r.kind == BAD_ROUND else f"{r.field_class} ×{r.multiplier}", yaku,
                      *[seat_mon(r.players[p]) for p in players])
    if not results:
        table.add_row("–", "", "", Text(_("no rounds yet"), style="dim"), *["" for _p in players])

    return Group(PhraseText(head), Text(), standings, Text(), table, Text(),
                 settlement_view(net, rate, per, results=results))


def seat_lines(result: Result) -> list[list[Any]]:
    """What a round of four or more did beside the play (TRADITIONAL §7), a line each, as the
    phrases of a :class:`Phrased`: each forced-out player's compensation (``追い込み Dan 30文``),
    and the pot (the fees paid in, who took it or what waits)."""
    lines: list[list[Any]] = []
    paid: dict[str, int] = {}
    for pay in result.payments:
        if pay.reason == FORCED_REASON:
            paid[pay.payee] = paid.get(pay.payee, 0) + pay.mon
    if paid:
        lines.append([Text("追い込み", style="dim"),
                      *(Text(f"{p} {m}文", style="dim") for p, m in paid.items())])
    pot = pot_line(result)
    if pot:
        lines.append(Phrased.words(_("pot: {pot}").format(pot=pot), style="dim"))
    return lines


def settlement_view(net: Mapping[str, int], rate: float | None, per: int = 10,
                    results: Sequence[Result] | None = None) -> Text:
    """Who pays whom to settle ``net``. Given the night's ``results``, while the pot holds anything
    it is shown and paid back to those who paid into it, as if the night stopped now (TRADITIONAL
    §7): the same payments as `summary --json`."""
    pot = night.current_state(results).pot if results else 0
    refunds = night.pot_refunds(results) if pot else {}  # type: ignore[arg-type]  # a pot: there are results
    pays: list[Payment] = night.settlement(net, refunds)
    out = Text(_("settlement"), style="bold")
    if pot:
        back = _(", ").join(f"{p} {v}文" for p, v in refunds.items() if v)
        out.append("\n  " + _("pot: {mon}文 waits for the winner of a round to come; settled as if the night "
                               "stopped now, paid back to who paid in ({refunds})").format(mon=pot, refunds=back), style="")
    if not pays:
        out.append("\n  " + _("all square: nobody pays"))
    for pay in pays:
        out.append("\n  ")
        if pay.mon < per:  # under one kan: the 文 say it all
            out.append_text(texts(_("{payer} pays {payee} {mon}文"), payer=name(pay.payer), payee=name(pay.payee),
                                  mon=pay.mon))
        else:
            out.append_text(texts(_("{payer} pays {payee} {mon}文 ({kan})"), payer=name(pay.payer),
                                  payee=name(pay.payee), mon=pay.mon, kan=night.kan(pay.mon, per).lstrip("+")))
        if rate is not None:
            out.append(f" = {night.money_text(pay.mon, rate)}")
    return out


def standing_line(session: Mapping[str, Any], results: Sequence[Result]) -> Text:
    """One line after a round: each player's total so far and the next 親."""
    net = night.totals(results, session["players"])
    planned, months = session.get("planned_rounds", 12), night.months_played(results)
    out = Text(_("after round {n} of {planned}: ").format(n=len(results), planned=planned)
               if months == len(results) else
               _("after round {n} (month {months} of {planned}): ").format(n=len(results), months=months,
                                                                           planned=planned))
    for p in session["players"]:
        out.append(name(p))
        out.append(" ")
        out.append(mon(net[p]))
        out.append(" · ")
    out.append_text(texts(_("next 親 {dealer}"), dealer=name(night.current_dealer(session, results))))
    waiting = waiting_label(night.current_state(results).carry)
    if waiting:
        out.append(f" · {waiting}")
    return out


def sessions_view(rows: Sequence[Mapping[str, Any]], current: str | None) -> FitTable:
    """The book's sessions, the current one marked with *."""
    table = FitTable(pad_edge=False)
    table.add_column("")
    table.add_column(_("id"), whole=True)
    table.add_column(_("name"), whole=True)
    table.add_column(_("date"), whole=True, drop=1)
    table.add_column(_("players"))
    table.add_column(_("rounds"), right=True)
    for row in rows:
        rounds, months = row.get("rounds"), row.get("months", row.get("rounds"))
        shown = _("damaged") if rounds is None and "error" in row else f"{months}/{row['planned_rounds']}"
        if rounds is not None and months is not None and months != rounds:
            shown += f" +{rounds - months} 流れ"  # a misdeal is a round but no month (TRADITIONAL §8)
        table.add_row(
            "*" if row["id"] == current else "",
            row["id"],
            name(row["name"]),
            row["created"][:10],
            Phrased(row["players"]),  # each name whole: the cell wraps between two
            shown,
        )
    return table


def round_detail(number: int, result: Result, record: Mapping[str, Any]) -> Group:
    """One stored round in full: the result (yaku with values, payments) and every card typed.
    A round that no longer scores shows what is wrong and the round file as stored."""
    if result.kind == BAD_ROUND:
        import json

        stored = json.dumps(record.get("round"), ensure_ascii=False)
        return Group(round_view(result, title=_("round {n}").format(n=number)), Text(),
                     Text(_("as stored: ") + stored))
    rnd: Round = result.round
    cards = FitTable(_("cards"), title_justify="left", pad_edge=False)
    cards.add_column(_("player"), whole=True)
    cards.add_column(_("手札 hand"))
    cards.add_column(_("取札 pile"))
    cards.add_column("札", right=True)
    for p in rnd.players:
        hand = " ".join(c.code for c in sort_cards(rnd.hands[p])) if p in rnd.hands else "–"
        if p in rnd.declared:
            hand += " " + _("(declared {teyaku})").format(teyaku=" + ".join(rnd.declared[p]))
        pile = rnd.pile(p)
        if result.players[p].role != "played":  # sat out: no pile, nothing to count
            cards.add_row(name(p), hand, "", "")
            continue
        given = rnd.pile_given(p)
        if given != "cards":
            what = {"counted": _("counted, not typed"), "named": " · ".join(rnd.named.get(p, ())),
                    "unasked": _("not asked: it can't change the money")}[given]
            cards.add_row(name(p), hand, what, card_points_text(result.players[p]))
            continue
        cards.add_row(name(p), hand, " ".join(c.code for c in sort_cards(pile)) or "–",
                      _("{n} cards, {points}").format(n=len(pile), points=result.players[p].card_points))
    title = _("round {n}").format(n=number)
    return Group(round_view(result, title=title), Text(), cards)
