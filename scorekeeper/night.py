"""A night of rounds: replay, the 親 chain, totals, the settlement, 貫 (RULES.md §8).

Pure: no files, no printing. A *session* is the dict :meth:`scorekeeper.store.Book.session`
returns (``players``, ``dealer`` — the first 親 — and ``rounds``, a list of stored round records
``{"round": <round file>, "rules": "sdin"}``). Nothing here decides a number: every amount comes
from re-scoring the stored round files with :func:`scorekeeper.scoring.score`, and totals are
derived from the rounds' payment ledgers, never kept beside them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .rules import profile
from .scoring import (
    Payment,
    Result,
    Round,
    RoundError,
    check_player_name,
    ledger_totals,
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
        super().__init__(f"round {number}: {problem}")


# ---------------------------------------------------------------------------------------------
# re-scoring


def score_record(
    record: Mapping[str, Any], players: Sequence[str] | None = None, dealer: str | None = None
) -> Result:
    """Score one stored round record with the rule profile it was saved with.

    ``players`` and ``dealer`` fill in keys the round file leaves out (stored rounds have both).
    """
    rules = profile(record.get("rules") or DEFAULT_RULES)
    return score(Round.from_dict(record["round"], players=players, dealer=dealer, rules=rules), rules)


def replay(session: Mapping[str, Any]) -> list[Result]:
    """Every stored round of the session, re-scored in order.

    A round that no longer checks out raises :class:`StoredRoundError` naming its number.
    """
    players = session["players"]
    dealer = session["dealer"]
    results: list[Result] = []
    for number, record in enumerate(session["rounds"], 1):
        try:
            result = score_record(record, players, dealer)
        except (RoundError, ValueError, KeyError, TypeError) as e:
            raise StoredRoundError(number, e) from None
        if result.redeal:
            raise StoredRoundError(number, "is a 場四 (redeal), which is never saved")
        results.append(result)
        dealer = result.next_dealer
    return results


def current_dealer(session: Mapping[str, Any], results: Sequence[Result] | None = None) -> str:
    """The 親 of the next round: the first 親 before any round, then the last round's winner."""
    if results is None:
        results = replay(session) if session["rounds"] else []
    return results[-1].next_dealer if results else session["dealer"]


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


def settlement(net: Mapping[str, int]) -> list[Payment]:
    """The end-of-night payments, losers to winners: at most two settle three players."""
    return settle_debts(net, reason=SETTLEMENT_REASON)


# ---------------------------------------------------------------------------------------------
# 貫 and money


def kan(amount: int) -> str:
    """文 as 貫 (10文 = 1貫): ``+12貫``, ``-3貫4文``, ``0貫``."""
    sign = "-" if amount < 0 else "+" if amount > 0 else ""
    whole, rest = divmod(abs(amount), 10)
    return f"{sign}{whole}貫{rest}文" if rest else f"{sign}{whole}貫"


def money(amount: int, rate: float | None) -> float | int | None:
    """文 at the session's rate (money per 文), or None without a rate. Whole amounts are ints."""
    if rate is None:
        return None
    value = round(amount * rate, 2)
    return int(value) if value == int(value) else value


def money_text(value: float) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"


# ---------------------------------------------------------------------------------------------
# the 親 chain after an edit


def rechain(
    rounds: Sequence[Mapping[str, Any]], from_index: int, new_round: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], list[int]]:
    """Replace the round at ``from_index`` (0-based) and carry the 親 chain through later rounds.

    ``rounds`` are the stored records before the edit; ``new_round`` is the replacement round
    file, with players and dealer filled in (it keeps the replaced record's rule profile). A later
    round whose 親 followed the chain — its dealer was the previous round's ``next_dealer`` under
    the *old* results — gets the 親 the *new* chain gives; a round whose 親 did not follow the
    chain keeps the 親 as written.

    Returns the new records and the 1-based numbers of the rounds whose result changed (the
    replaced round if it scores differently, and every later round whose 親 or amounts changed).
    """
    if not 0 <= from_index < len(rounds):
        raise IndexError(f"round {from_index + 1} is not in a session of {len(rounds)} rounds")
    old_results = [score_record(r) for r in rounds]
    records = [dict(r) for r in rounds]
    records[from_index] = {**records[from_index], "round": dict(new_round)}
    changed: list[int] = []
    previous: Result | None = None
    for i in range(from_index, len(records)):
        if i > from_index:
            assert previous is not None
            dealer_was = rounds[i]["round"]["dealer"]
            if dealer_was == old_results[i - 1].next_dealer and dealer_was != previous.next_dealer:
                records[i] = {**records[i], "round": {**records[i]["round"], "dealer": previous.next_dealer}}
        result = score_record(records[i])
        if _differs(result, old_results[i]):
            changed.append(i + 1)
        previous = result
    return records, changed


def _differs(new: Result, old: Result) -> bool:
    return new.round.dealer != old.round.dealer or new.to_json() != old.to_json()


# ---------------------------------------------------------------------------------------------
# the summary, export and import as data


def round_yaku(result: Result) -> list[tuple[str, str]]:
    """The yaku paid in a round, as (player, yaku): 手役 (not in a 特殊役 round), 出来役, 特殊役."""
    received = {(pay.payee, pay.reason) for pay in result.payments}
    out: list[tuple[str, str]] = []
    for p, r in result.players.items():
        names = ([r.teyaku] if r.teyaku else []) + list(r.dekiyaku) + list(r.special)
        out.extend((p, y) for y in names if (p, y) in received)
    return out


def summary_data(session: Mapping[str, Any], results: Sequence[Result]) -> dict[str, Any]:
    """The object `summary --json` prints (CONTRACT.md §5)."""
    players = list(session["players"])
    net = totals(results, players)
    rate = session.get("rate")
    pays = []
    for pay in settlement(net):
        row: dict[str, Any] = {"from": pay.payer, "to": pay.payee, "mon": pay.mon}
        if rate is not None:
            row["money"] = money(pay.mon, rate)
        pays.append(row)
    return {
        "session": session["id"],
        "name": session["name"],
        "players": players,
        "rounds": len(results),
        "planned_rounds": session.get("planned_rounds"),
        "rate": rate,
        "dealer": current_dealer(session, results),
        "totals": net,
        "kan": {p: kan(v) for p, v in net.items()},
        "settlement": pays,
        "history": [
            {
                "round": n,
                "dealer": r.round.dealer,
                "field_class": r.field_class,
                "kind": r.kind,
                "yaku": [{"player": p, "yaku": y} for p, y in round_yaku(r)],
                "mon": {p: r.players[p].mon for p in players},
            }
            for n, r in enumerate(results, 1)
        ],
    }


def export_data(session: Mapping[str, Any]) -> dict[str, Any]:
    """The session as exported JSON: ``players`` and ``rounds`` (round files), plus its header."""
    profiles = {r.get("rules") or DEFAULT_RULES for r in session["rounds"]} or {DEFAULT_RULES}
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": session["name"],
        "created": session.get("created"),
        "players": list(session["players"]),
        "dealer": session["dealer"],
        "planned_rounds": session.get("planned_rounds"),
        "rate": session.get("rate"),
        "rules": profiles.pop() if len(profiles) == 1 else DEFAULT_RULES,
        "rounds": [dict(r["round"]) for r in session["rounds"]],
    }


CSV_FIXED = ["round", "dealer", "field_class", "multiplier", "kind", "yaku"]


def csv_rows(session: Mapping[str, Any], results: Sequence[Result]) -> list[list[Any]]:
    """One row per round: number, 親, field, kind, yaku, then each player's 文 (header first)."""
    players = list(session["players"])
    rows: list[list[Any]] = [CSV_FIXED + players]
    for n, r in enumerate(results, 1):
        yaku = " ".join(f"{p}:{y}" for p, y in round_yaku(r))
        rows.append(
            [n, r.round.dealer, r.field_class, r.multiplier, r.kind, yaku]
            + [r.players[p].mon for p in players]
        )
    return rows


def read_export(data: Any) -> dict[str, Any]:
    """Check an exported session for `import`: a :class:`RoundError` names what is wrong and where.

    Every round is re-scored; a round without a dealer gets the chain's 親 (the first round the
    session's ``dealer``, or the first player). The 親 chain is otherwise taken as written, and
    rounds may repeat. Returns the header and the rounds as normalised round files.
    """
    if not isinstance(data, dict):
        raise RoundError("", "an exported session is a JSON object with players and rounds")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 3:
        raise RoundError("players", "must be a list of three names")
    for p in players:
        check_player_name(p, "players")
    if len(set(players)) != 3:
        raise RoundError("players", "must be three distinct names")
    rules_name = data.get("rules") or DEFAULT_RULES
    if not isinstance(rules_name, str):
        raise RoundError("rules", "must be a rule profile's name")
    try:
        rules = profile(rules_name)
    except ValueError as e:
        raise RoundError("rules", str(e)) from None
    dealer = data.get("dealer")
    if dealer is not None and dealer not in players:
        raise RoundError("dealer", f"{dealer!r} is not one of the players")
    rounds = data.get("rounds")
    if not isinstance(rounds, list):
        raise RoundError("rounds", "must be a list of round files")
    chain = dealer or players[0]
    files: list[dict[str, Any]] = []
    for i, raw in enumerate(rounds, 1):
        try:
            rnd = Round.from_dict(raw, players=players, dealer=chain, rules=rules)
        except RoundError as e:
            raise RoundError(f"rounds[{i}]" + (f".{e.where}" if e.where else ""), e.problem) from None
        if rnd.redeal:
            raise RoundError(f"rounds[{i}]", "is a 場四 (redeal), which is never saved")
        if i == 1 and dealer is None:
            dealer = rnd.dealer
        files.append(rnd.to_dict())
        chain = score(rnd, rules).next_dealer
    planned = data.get("planned_rounds", 12)
    if planned not in (6, 12):
        planned = 12
    rate = data.get("rate")
    if rate is not None and (isinstance(rate, bool) or not isinstance(rate, (int, float)) or rate <= 0):
        raise RoundError("rate", "must be a positive number or null")
    name = data.get("name")
    return {
        "players": list(players),
        "dealer": dealer or players[0],
        "name": name if isinstance(name, str) and name.strip() else None,
        "planned_rounds": planned,
        "rate": rate,
        "rules": rules_name.lower(),
        "rounds": files,
    }
