"""A night of rounds: replay, the 親 chain, totals, the settlement, 貫 (RULES.md §8).

Pure: no files, no printing. A *session* is the dict :meth:`scorekeeper.store.Book.session`
returns (``players``, ``dealer`` — the first 親 —, ``profile`` — the rule profile, every value —
and ``rounds``, a list of stored round records ``{"round": <round file>, "rules": NAME}``).
Nothing here decides a number: every amount comes from re-scoring the stored round files with
the session's profile (:func:`scorekeeper.scoring.score`), each in the night's state that the
rounds before it leave (the multipliers waiting, the pot); totals are derived from the rounds'
payment ledgers, and the state by replaying, never kept beside them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .lang import L_, _, message_of, quote
from .rules import SDIN, Rules, profile
from .scoring import (
    BAD_ROUND,
    MISDEAL,
    START,
    PlayerResult,
    NightState,
    POT,
    Payment,
    Result,
    Round,
    RoundError,
    check_table,
    ledger_totals,
    nobody_plays,
    score,
    settle_debts,
)

DEFAULT_RULES = "sdin"
#: the reason on the end-of-night payments
SETTLEMENT_REASON = "精算"
#: the export format (CONTRACT.md §5: at least ``players`` and ``rounds``)
EXPORT_FORMAT = "hachi-score session"
EXPORT_VERSION = 1


class StoredRoundError(ValueError):
    """A stored round that no longer checks out (a hand-edited or damaged session)."""

    def __init__(self, number: int, problem: Any) -> None:
        self.number = number
        super().__init__(L_("round {number}: {problem}", number=number, problem=message_of(problem)))


# ---------------------------------------------------------------------------------------------
# re-scoring


def session_rules(session: Mapping[str, Any]) -> Rules:
    """The session's rule profile: every value is stored in its header (a book written before
    profiles existed holds none, and is SDIN)."""
    stored = session.get("profile")
    return SDIN if stored is None else Rules.from_dict(stored)


def score_record(
    record: Mapping[str, Any],
    players: Sequence[str] | None = None,
    dealer: str | None = None,
    rules: Rules | None = None,
    state: NightState | None = None,
) -> Result:
    """Score one stored round record with the session's profile (``rules``; without it, the
    built-in profile the record names) in the night's ``state``.

    ``players`` and ``dealer`` fill in keys the round file leaves out (stored rounds have both).
    """
    rules = rules or profile(record.get("rules") or DEFAULT_RULES)
    return score(Round.from_dict(record["round"], players=players, dealer=dealer, rules=rules), rules, state or START)


def replay_records(
    records: Sequence[Mapping[str, Any]], players: Sequence[str], dealer: str, rules: Rules
) -> list[Result]:
    """Round records re-scored in order, each in the state the ones before it leave.

    A round that no longer checks out raises :class:`StoredRoundError` naming its number.
    """
    results: list[Result] = []
    state = START
    for number, record in enumerate(records, 1):
        try:
            result = never_saved(score_record(record, players, dealer, rules, state))
        except (RoundError, ValueError, KeyError, TypeError) as e:
            raise StoredRoundError(number, e) from None
        results.append(result)
        dealer, state = result.next_dealer, result.state
    return results


def unscored(record: Mapping[str, Any], players: Sequence[str], dealer: str, rules: Rules,
             state: NightState, problem: str) -> Result:
    """A stored round that no longer scores, as a result that pays nothing and passes the night's
    state on: the rest of the night still reads, and this round is marked (kind ``BAD_ROUND``)."""
    raw = record.get("round") if isinstance(record, Mapping) else None
    named = raw.get("dealer") if isinstance(raw, Mapping) else None
    dealer = named if isinstance(named, str) and named in players else dealer
    zero = PlayerResult(None, (), (), 0, 0)
    rnd = Round(tuple(players), dealer, 0, rules=rules)
    return Result(rnd, "–", 0, BAD_ROUND, {p: zero for p in players}, (), dealer, rules, state, None, problem)


def score_or_mark(number: int, record: Mapping[str, Any], players: Sequence[str], dealer: str, rules: Rules,
                  state: NightState) -> Result:
    """Stored round ``number`` scored, or, where it no longer scores, :func:`unscored`."""
    try:
        result = never_saved(score_record(record, players, dealer, rules, state))
    except (RoundError, ValueError, KeyError, TypeError, AttributeError) as e:
        result = unscored(record, players, dealer, rules, state, StoredRoundError(number, e).args[0])
    return result


def replay_lenient(session: Mapping[str, Any]) -> list[Result]:
    """:func:`replay`, but a round that no longer scores is kept as an :func:`unscored` result
    (kind ``BAD_ROUND``, its ``problem`` said) instead of stopping the replay: one bad round does
    not lock the session's other rounds away."""
    rules = session_rules(session)
    players, dealer, state = session["players"], session["dealer"], START
    results: list[Result] = []
    for number, record in enumerate(session["rounds"], 1):
        result = score_or_mark(number, record, players, dealer, rules, state)
        results.append(result)
        dealer, state = result.next_dealer, result.state
    return results


def never_saved(result: Result, where: str = "field") -> Result:
    """The result, unless it is a 場四's: a 場四 is redealt and never a round of the night (RULES
    §2), neither saved nor read back from a book. The one place that says so: a
    :class:`RoundError` at ``where``."""
    if result.redeal:
        raise RoundError(where, L_("is a 場四 (four cards of a month): the round is redealt and never saved"))
    return result


def round_file(rnd: Round) -> dict[str, Any]:
    """A round as the book stores it and an export carries it: its normalised round file (what
    waits and the pot are the night's, never stored)."""
    return {k: v for k, v in rnd.to_dict().items() if k not in ("carry", "pot")}


def stored_record(result: Result) -> dict[str, Any]:
    """A scored round as stored: its round file (:func:`round_file`) and its profile's name."""
    return {"round": round_file(never_saved(result).round), "rules": result.rules.name}


def bad_rounds(results: Sequence[Result]) -> dict[int, str]:
    """The rounds that no longer score, by number, with what is wrong."""
    return {n: r.problem or "" for n, r in enumerate(results, 1) if r.kind == BAD_ROUND}


def replay(session: Mapping[str, Any]) -> list[Result]:
    """Every stored round of the session, re-scored in order with the session's profile."""
    try:
        rules = session_rules(session)
    except (ValueError, KeyError, TypeError) as e:
        raise StoredRoundError(0, L_("the session's rule profile can't be read ({why})", why=str(e))) from None
    return replay_records(session["rounds"], session["players"], session["dealer"], rules)


def months_played(results: Sequence[Result]) -> int:
    """The months of the planned length the rounds used up: every round but a misdeal
    (TRADITIONAL §8; a 場四 is never saved)."""
    return sum(1 for r in results if r.kind != MISDEAL)


def months_of_records(records: Sequence[Any]) -> int:
    """:func:`months_played` of stored round records, read without scoring them (the book's
    index keeps it beside the round count); a record that can't be read counts as a month."""
    misdeals = 0
    mapping = (dict, Mapping)  # a dict first: read from JSON, every record is one (the ABC's check is slow)
    for record in records:
        raw = record.get("round") if isinstance(record, mapping) else None
        if not isinstance(raw, mapping):
            continue
        seated, dropped, blank = raw.get("players"), raw.get("dropped"), raw.get("blank")
        names = [*seated, *dropped] if isinstance(seated, list) and isinstance(dropped, list) else [None]
        if (isinstance(seated, list) and isinstance(dropped, list) and all(isinstance(n, str) for n in names)
                and nobody_plays(seated, dropped, blank if isinstance(blank, str) else None)):
            misdeals += 1
    return len(records) - misdeals


def at_planned_end(results: Sequence[Result], planned: int) -> bool:
    """The last round used up the planned length's last month (a misdeal after it uses none)."""
    return bool(results) and results[-1].kind != MISDEAL and months_played(results) == planned


def current_dealer(session: Mapping[str, Any], results: Sequence[Result] | None = None) -> str:
    """The 親 of the next round: the first 親 before any round, then the last round's winner."""
    if results is None:
        results = replay(session) if session["rounds"] else []
    return results[-1].next_dealer if results else session["dealer"]


def current_state(results: Sequence[Result]) -> NightState:
    """The night's state before its next round: what waits, and the pot."""
    return results[-1].state if results else START


def chain_breaks(session: Mapping[str, Any], results: Sequence[Result]) -> list[int]:
    """The rounds (1-based) whose 親 is not the previous round's winner: who really dealt is
    kept as recorded, so these are notes, not damage."""
    return [n for n in range(2, len(results) + 1) if results[n - 1].round.dealer != results[n - 2].next_dealer]


def totals(results: Sequence[Result], players: Sequence[str]) -> dict[str, int]:
    """Each player's net 文 over the rounds, summed from the rounds' payment ledgers."""
    net = {p: 0 for p in players}
    for result in results:
        for p, amount in ledger_totals(players, result.payments).items():
            net[p] += amount
    return net


def balances(results: Sequence[Result], players: Sequence[str]) -> dict[str, list[int]]:
    """Each player's running total after every round (the trend): starts at the first round."""
    running = {p: 0 for p in players}
    out: dict[str, list[int]] = {p: [] for p in players}
    for result in results:
        for p, amount in ledger_totals(players, result.payments).items():
            running[p] += amount
            out[p].append(running[p])
    return out


def settlement(net: Mapping[str, int], refunds: Mapping[str, int] | None = None) -> list[Payment]:
    """The end-of-night payments, losers to winners: at most n − 1 settle n players.

    ``refunds`` (:func:`pot_refunds`): while the pot holds anything, the settlement is worked out as
    if the night stopped now, the pot paid back to those who paid into it (TRADITIONAL §7).
    """
    if refunds:
        net = {p: v + refunds.get(p, 0) for p, v in net.items()}
    return settle_debts(net, reason=SETTLEMENT_REASON)


def pot_refunds(results: Sequence[Result]) -> dict[str, int]:
    """What each player paid into the pot since it was last emptied (nothing when it is empty)."""
    paid: dict[str, int] = {}
    for result in results:
        if not result.state.pot:
            paid = {}
            continue
        for pay in result.payments:
            if pay.payee == POT:
                paid[pay.payer] = paid.get(pay.payer, 0) + pay.mon
    return paid


# ---------------------------------------------------------------------------------------------
# 貫 and money


def kan(amount: int, per: int = 10) -> str:
    """文 as 貫 at ``per`` 文 a kan (the profile's): ``+12貫``, ``-3貫4文``, ``0貫``; at 12 文 a
    kan, 40文 is ``+3貫4文``; under one kan, 文 alone: ``-6文``, not ``-0貫6文``."""
    sign = "-" if amount < 0 else "+" if amount > 0 else ""
    whole, rest = divmod(abs(amount), per)
    if not whole and rest:
        return f"{sign}{rest}文"
    return f"{sign}{whole}貫{rest}文" if rest else f"{sign}{whole}貫"


def money(amount: int, rate: float | None) -> float | int | None:
    """文 at the session's rate (money per 文), or None without a rate. Whole amounts are ints."""
    if rate is None:
        return None
    value = round(amount * rate, 2)
    return int(value) if value == int(value) else value


def money_text(amount: int, rate: float, *, signed: bool = False) -> str:
    """``amount`` 文 in money at ``rate`` (money per 文), the one format every screen uses: with
    thousands separators, and with two decimals whenever the rate has a fraction (so that 2.50
    and 3.00 stand in one column), none when it is whole. ``signed``: ``+`` for a gain."""
    decimals = 0 if float(rate).is_integer() else 2
    value = round(amount * rate, 2)
    return f"{value:{'+' if signed and value else ''},.{decimals}f}"


# ---------------------------------------------------------------------------------------------
# the 親 chain after an edit (CONTRACT §5)


class Replacement(NamedTuple):
    """An edit worked out: the new records, the rounds whose result changed, the later rounds
    whose 親 no longer follows the chain, and the night's results after it."""

    records: list[dict[str, Any]]
    changed: list[int]
    breaks: list[int]
    results: list[Result]


def replace(
    session: Mapping[str, Any], number: int, new_round: Mapping[str, Any], *, rechain: bool = False,
    old: Sequence[Result] | None = None,
) -> Replacement:
    """Replace round ``number`` (1-based) and re-score every round after it from the night's state.

    A later round keeps the 親 recorded for it (who really dealt); with ``rechain`` every later
    親 is moved to follow the new chain instead (a night typed in afterwards from notes).
    ``new_round`` is the replacement round file with players and dealer filled in.

    ``old``: the session's results, where the caller has them (not replayed again).
    Returns the new records, the numbers of the rounds whose result changed, the later rounds
    whose 親 followed the chain before the edit and no longer does, and the new results.
    """
    rounds = session["rounds"]
    if not 1 <= number <= len(rounds):
        raise IndexError(_("round {number} is not in a session of {n} rounds").format(number=number, n=len(rounds)))
    rules = session_rules(session)
    players = session["players"]
    old = list(old) if old is not None else replay_lenient(session)
    records = [dict(r) for r in rounds]
    new: list[Result] = old[: number - 1]  # the rounds before it are as they were
    replaced = score_record({"round": new_round}, players, None, rules, current_state(new))  # a bad round: RoundError
    record = stored_record(replaced)
    new.append(replaced)
    stored = {k: v for k, v in new_round.items() if k not in ("carry", "pot")}  # what waits and the pot are the night's
    records[number - 1] = {**records[number - 1], "round": stored, "rules": record["rules"]}
    for i in range(number, len(records)):  # a later round that no longer scores stays marked
        round_i = records[i].get("round")
        if rechain and isinstance(round_i, Mapping) and round_i.get("dealer") != new[-1].next_dealer:
            records[i] = {**records[i], "round": {**round_i, "dealer": new[-1].next_dealer}}
        new.append(score_or_mark(i + 1, records[i], players, new[-1].next_dealer, rules, new[-1].state))
    changed = [i + 1 for i in range(number - 1, len(records)) if _differs(new[i], old[i])]
    was = set(chain_breaks(session, old))
    now = chain_breaks({**session, "rounds": records}, new)
    return Replacement(records, changed, [n for n in now if n > number and n not in was], new)


def _differs(new: Result, old: Result) -> bool:
    return new.round.dealer != old.round.dealer or new.to_json() != old.to_json()


# ---------------------------------------------------------------------------------------------
# the summary, export and import as data


def round_yaku(result: Result) -> list[tuple[str, str]]:
    """The yaku paid in a round, as (player, yaku): 手役 (not in a 特殊役 round), 出来役, 特殊役,
    bonuses; one of 0 kan too (it pays nothing, and is still shown)."""
    out: list[tuple[str, str]] = []
    for p, r in result.players.items():
        names = [*r.teyaku_all, *r.dekiyaku, *r.special, *r.bonuses]
        out.extend((p, y) for y in names if (p, y) in result.earned)
    return out


def round_said(result: Result) -> str:
    """A round in one line, for a question or a list about it: its 親, its field, the yaku it
    paid and each player's 文 (``親 Ben, 小場 ×1, Ben 三本: Aki -38 Ben +64 Chie -26``)."""
    if result.kind == BAD_ROUND:
        return _("a round that does not score")
    yaku = _(", ").join(f"{p} {y}" for p, y in round_yaku(result)) or _("no yaku")
    mon = " ".join(f"{p} {r.mon:+d}" for p, r in result.players.items())
    return _("親 {dealer}, {field} ×{multiplier}, {yaku}: {mon}").format(
        dealer=result.round.dealer, field=result.field_class, multiplier=result.multiplier, yaku=yaku, mon=mon)


def summary_data(session: Mapping[str, Any], results: Sequence[Result]) -> dict[str, Any]:
    """The object `summary --json` prints (CONTRACT.md §5, §7)."""
    players = list(session["players"])
    rules = session_rules(session)
    state = current_state(results)
    net = totals(results, players)
    rate = session.get("rate")
    pays = []
    for pay in settlement(net, pot_refunds(results)):
        row: dict[str, Any] = {"from": pay.payer, "to": pay.payee, "mon": pay.mon}
        if rate is not None:
            row["money"] = money(pay.mon, rate)
        pays.append(row)
    return {
        "session": session["id"],
        "name": session["name"],
        "players": players,
        "rounds": len(results),
        "months": months_played(results),
        "planned_rounds": session.get("planned_rounds"),
        "rate": rate,
        "dealer": current_dealer(session, results),
        "totals": net,
        "kan": {p: kan(v, rules.kan) for p, v in net.items()},
        "settlement": pays,
        "profile": rules.name,
        "pot": state.pot,
        "carry": list(state.carry),
        "history": [
            {
                "round": n,
                "dealer": r.round.dealer,
                "field_class": r.field_class,
                "multiplier": r.multiplier,
                "kind": r.kind,
                "yaku": [{"player": p, "yaku": y} for p, y in round_yaku(r)],
                "mon": {p: r.players[p].mon for p in players},
            }
            for n, r in enumerate(results, 1)
        ],
    }


def export_data(session: Mapping[str, Any], rules: Rules | None = None,
                values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The session as exported JSON: ``players`` and ``rounds`` (round files), plus its header
    and its whole rule profile, so that a book that never saw its house-rule file scores it alike
    (``rules``: that profile, read already; ``values``: its :meth:`~scorekeeper.rules.Rules.to_dict`)."""
    rules = rules or session_rules(session)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": session["name"],
        "created": session.get("created"),
        "players": list(session["players"]),
        "dealer": session["dealer"],
        "planned_rounds": session.get("planned_rounds"),
        "rate": session.get("rate"),
        "rules": rules.name,
        "profile": rules.to_dict() if values is None else values,
        "rounds": [dict(r["round"]) for r in session["rounds"]],
    }


CSV_FIXED = ["round", "dealer", "field_class", "multiplier", "kind", "yaku"]
#: columns after the fixed ones and each player's 文 (added later: kept after, in this order)
CSV_MORE = ["sage", "ended_by"]
#: columns after each player's card points (TRADITIONAL §7, added later: kept last, in this order):
#: who dropped and who was forced out (names, space-separated, in seat order), the pot after the
#: round (文), and how a 出来役 ended it (``shoubu`` or ``cancel``; empty when played out)
CSV_SEATS = ["dropped", "forced_out", "pot", "ended_how"]
#: columns after those, only in a night of seven or under a profile with 責任 or みずてん on
#: (TRADITIONAL §11): the 白札's holder, who declared みずてん, and who fed which yaku
#: (``receiver:yaku<feeder``, space-separated)
CSV_HOUSE = ["blank", "mizuten", "liable"]
#: a text cell starting with one of these is a formula to a spreadsheet: it gets a leading '
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: str) -> str:
    """A text cell for a spreadsheet: one that a spreadsheet would take as a formula (``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return first) is escaped with a leading ``'``."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def csv_rows(session: Mapping[str, Any], results: Sequence[Result]) -> list[list[Any]]:
    """One row per round, then a totals row (header first). Columns: number, 親, field class,
    multiplier, kind, yaku, each player's 文; then the 下げ callers, who ended the round, and each
    player's card points; then who dropped, who was forced out, the pot and how the round ended
    (:data:`CSV_SEATS`). Numbers are numbers; every text cell is escaped by :func:`csv_text`."""
    players = list(session["players"])
    rules = results[0].rules if results else None
    house = len(players) == 7 or (rules is not None and (rules.liability or rules.mizuten.on))
    header = CSV_FIXED + players + CSV_MORE + [f"{p} card_points" for p in players] + CSV_SEATS + (CSV_HOUSE if house else [])
    rows: list[list[Any]] = [[csv_text(h) for h in header]]
    for n, r in enumerate(results, 1):
        yaku = " ".join(f"{p}:{y}" for p, y in round_yaku(r))
        rows.append(
            [n, csv_text(r.round.dealer), r.field_class, r.multiplier, r.kind, csv_text(yaku)]
            + [r.players[p].mon for p in players]
            + [csv_text(" ".join(r.round.sage)), csv_text(r.round.ended_by or "")]
            + [r.players[p].card_points for p in players]
            + [csv_text(" ".join(r.round.seating.dropped)), csv_text(" ".join(r.round.seating.forced_out)),
               r.state.pot, r.round.ended_how or ""]
            + ([csv_text(r.round.blank or ""), csv_text(r.round.mizuten or ""),
                csv_text(" ".join(f"{p}:{y}<{f}" for p, by in r.round.liable.items() for y, f in by.items()))]
               if house else [])
        )
    sums = totals(results, players)
    rows.append(["total", "", "", "", "", ""] + [sums[p] for p in players] + ["", ""] + [""] * len(players)
                + ["", "", results[-1].state.pot if results else 0, ""] + (["", "", ""] if house else []))
    return rows


def read_export(data: Any) -> dict[str, Any]:
    """Check an exported session for `import`: a :class:`RoundError` names what is wrong and where.

    The profile is the export's own (``profile``, every value), else the built-in one ``rules``
    names. Every round is re-scored with it, in the night's state; a round without a dealer gets
    the chain's 親 (the first round the session's ``dealer``, or the first player). The 親 chain is
    otherwise taken as written, and rounds may repeat. Returns the header, the profile (as
    ``rules``, a :class:`~scorekeeper.rules.Rules`) and the rounds as normalised round files;
    ``scored``: those very rounds and their results, so that the book keeps the night's digest
    without scoring it again (a caller that gives other ``rounds`` has them replayed).
    """
    if not isinstance(data, dict):
        raise RoundError("", L_("an exported session is a JSON object with players and rounds"))
    rules = _export_rules(data)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RoundError("players", L_("must be a list of three names") if rules.max_players == 3
                         else L_("must be a list of 3 to {most} names", most=rules.max_players))
    check_table(players, rules)
    dealer = data.get("dealer")
    if dealer is not None and dealer not in players:
        raise RoundError("dealer", L_("{dealer} is not one of the players", dealer=quote(dealer)))
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RoundError("rounds", L_("must be a list of round files"))
    chain = dealer or players[0]
    state = START
    files: list[dict[str, Any]] = []
    results: list[Result] = []
    for i, raw in enumerate(rounds, 1):
        try:
            rnd = Round.from_dict(raw, players=players, dealer=chain, rules=rules)
            result = never_saved(score(rnd, rules, state), "")
        except RoundError as e:
            raise RoundError(f"rounds[{i}]" + (f".{e.where}" if e.where else ""), e.problem) from None
        if i == 1 and dealer is None:
            dealer = rnd.dealer
        files.append(round_file(rnd))
        results.append(result)
        chain, state = result.next_dealer, result.state
    planned = data.get("planned_rounds", 12)
    if planned not in (6, 12):
        planned = 12
    rate = data.get("rate")
    if rate is not None and (isinstance(rate, bool) or not isinstance(rate, (int, float)) or rate <= 0):
        raise RoundError("rate", L_("must be a positive number or null"))
    name = data.get("name")
    created = data.get("created")
    return {
        "players": list(players),
        "dealer": dealer or players[0],
        "name": name if isinstance(name, str) and name.strip() else None,
        "created": created if isinstance(created, str) and created.strip() else None,
        "planned_rounds": planned,
        "rate": rate,
        "rules": rules,
        "rounds": files,
        "scored": (files, results),
    }


def _export_rules(data: Mapping[str, Any]) -> Rules:
    """The profile an export carries: every value under ``profile``, else a built-in by name."""
    stored = data.get("profile")
    if stored is not None:
        if not isinstance(stored, dict):
            raise RoundError("profile", L_("must be a rule profile (an object of its values)"))
        try:
            return Rules.from_dict(stored)
        except (ValueError, KeyError, TypeError) as e:
            raise RoundError("profile", L_("is not a rule profile hachi-score can score with ({why})",
                                           why=str(e))) from None
    name = data.get("rules") or DEFAULT_RULES
    if not isinstance(name, str):
        raise RoundError("rules", L_("must be a rule profile's name"))
    try:
        return profile(name)
    except ValueError as e:
        raise RoundError("rules", str(e)) from None
