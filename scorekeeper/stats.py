"""A year of nights at a glance: the figures `hachi-score stats` shows, across sessions.

Pure: no files, no printing. It works from *digests*: :func:`night_digest` sums up one session
(re-scored by :func:`scorekeeper.night.replay`) into plain JSON data, which the book keeps beside
the session file (:meth:`scorekeeper.store.Book.digest`) so that a year of nights is not replayed
on every look; :func:`aggregate` adds the chosen nights up, one rule profile at a time (amounts
under different profiles are never added together, CONTRACT §8).

What the cards gave is set against the exact odds (:mod:`scorekeeper.odds`): a player who played n
rounds is expected to hold a 手役 n·p times, p its probability in a hand dealt from the full deck
(a dealt hand nobody typed counts as no 手役, so the figure held can only fall short of the
cards); :func:`binomial_tail` says how unusual the difference is.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .lang import N_
from .night import chain_breaks, kan, session_rules, totals
from .rules import Rules

#: a night's digest -> its profile's odds (:func:`teyaku_odds`)
OddsOf = Callable[[Mapping[str, Any]], Mapping[str, Any]]

#: how a pile was given (``PlayerResult.pile``) -> its count per player: by its cards, its points,
#: its 出来役's names, or not asked
PILES_GIVEN = {"cards": "typed", "counted": "counted", "named": "named", "unasked": "unasked"}
#: how each 下げ call ended, in the order shown
SAGE_ENDS = ("shoubu", "cancel", "overtaken", "played_out")
#: how each end is said (worded with _() where shown)
SAGE_LABELS = {"shoubu": "勝負", "cancel": N_("cancel"), "overtaken": N_("overtaken"), "played_out": N_("played out")}


# ---------------------------------------------------------------------------------------------
# the odds a profile gives a dealt hand


@lru_cache(maxsize=16)
def _odds_of(profile_json: str) -> dict[str, Any]:
    from .odds import combination_counts, teyaku_counts

    rules = Rules.from_dict(json.loads(profile_json))
    names = [row.name for row in rules.teyaku_table]
    per = dict.fromkeys(names, 0)
    if not rules.teyaku_mode.grouped:
        counts = teyaku_counts(rules=rules)
        total = sum(counts.values())
        for name in names:
            per[name] = counts[name]
        none = counts[None]
    else:
        combos = combination_counts(rules=rules)
        total = sum(combos.values())
        none = 0
        for combo, n in combos.items():
            held = [c for c in combo if c]
            for name in held:
                per[name] += n
            if not held:
                none += n
    return {"teyaku": {name: per[name] / total for name in names}, "any": (total - none) / total}


def teyaku_odds(rules: Rules) -> dict[str, Any]:
    """The probability that a hand dealt from the full deck holds each 手役 (as ``teyaku_all``
    reports it: the single highest, or each group's best) and any at all."""
    return _odds_of(json.dumps(rules.to_dict(), sort_keys=True, ensure_ascii=False))


# ---------------------------------------------------------------------------------------------
# one night


def _bump(counts: dict[str, int], key: str, by: int = 1) -> None:
    counts[key] = counts.get(key, 0) + by


def night_digest(session: Mapping[str, Any], results: Sequence[Any]) -> dict[str, Any]:
    """Everything `stats` needs of one session, as plain JSON data.

    ``session`` is :meth:`~scorekeeper.store.Book.session`'s dict (or a header with ``rounds``),
    ``results`` its rounds re-scored in order. Per player: ``rounds`` played (role ``played``),
    ``won`` (the round's ``winner``), ``dealer`` (rounds dealt, 親 held), ``teyaku`` (each held
    in ``teyaku_all``, rounds played only) and ``teyaku_any`` (rounds with any), ``dekiyaku`` (the
    出来役 each pile held), ``special`` (特殊役 paid), ``sage`` (each 下げ call by how it ended),
    how each pile was given (:data:`PILES_GIVEN`): ``typed`` (by its cards: the rounds the odds of
    出来役 can use), ``counted`` (by its points), ``named`` (by its 出来役's names), ``unasked``.
    ``ledger``: what each player received from each other, net, over the night's payments.
    """
    players = list(session["players"])
    rules = session_rules(session)
    net = totals(results, players)
    per: dict[str, dict[str, Any]] = {
        p: {"rounds": 0, "won": 0, "dealer": 0, "teyaku": {}, "teyaku_any": 0, "dekiyaku": {}, "special": {},
            "sage": dict.fromkeys(SAGE_ENDS, 0), **dict.fromkeys(PILES_GIVEN.values(), 0)}
        for p in players
    }
    ledger: dict[str, dict[str, int]] = {p: {q: 0 for q in players if q != p} for p in players}
    for result in results:
        rnd = result.round
        if rnd.dealer in per:
            per[rnd.dealer]["dealer"] += 1
        if result.winner in per:
            per[result.winner]["won"] += 1
        for p, r in result.players.items():
            if p not in per or r.role != "played":
                continue
            mine = per[p]
            mine["rounds"] += 1
            mine[PILES_GIVEN[r.pile]] += 1
            for name in r.teyaku_all:
                _bump(mine["teyaku"], name)
            if r.teyaku_all:
                mine["teyaku_any"] += 1
            for name in r.dekiyaku:
                _bump(mine["dekiyaku"], name)
            for name in r.special:
                _bump(mine["special"], name)
        for caller in rnd.sage:
            if caller not in per:
                continue
            if rnd.ended_by is None:
                how = "played_out"
            elif rnd.ended_by == caller:
                how = "cancel" if rnd.ended_how == "cancel" else "shoubu"
            else:
                how = "overtaken"
            per[caller]["sage"][how] += 1
        for pay in result.payments:
            if pay.payer in ledger and pay.payee in ledger:
                ledger[pay.payee][pay.payer] += pay.mon
                ledger[pay.payer][pay.payee] -= pay.mon
    return {
        "id": session.get("id"),
        "name": session.get("name"),
        "created": session.get("created"),
        "players": players,
        "profile": rules.name,
        # the whole profile, hashed: two house files may share a name and differ
        "profile_key": rules.key(),
        "kan": rules.kan,
        "rounds": len(results),
        "totals": net,
        "per_player": per,
        "ledger": ledger,
        # 親 chain breaks (round, its 親, the previous winner), for `doctor`'s notes
        "breaks": [[n, results[n - 1].round.dealer, results[n - 2].next_dealer] for n in chain_breaks(session, results)],
    }


# ---------------------------------------------------------------------------------------------
# how unusual


def binomial_tail(k: int, n: int, p: float) -> float:
    """The chance of a result at least as far from n·p as ``k``, on its side: P(X ≥ k) when k is
    at or above the mean, else P(X ≤ k), for X ~ Binomial(n, p). 1.0 when nothing could differ."""
    if n <= 0 or p <= 0.0 or p >= 1.0:
        expected = 0 if p <= 0.0 else n
        return 1.0 if k == expected or n <= 0 else 0.0
    up = k >= n * p
    log_pmf = (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
               + k * math.log(p) + (n - k) * math.log1p(-p))
    term = math.exp(log_pmf)
    total = term
    ratio = p / (1 - p)
    i = k
    while True:  # outward from k, away from the mean: the terms only shrink
        if up:
            if i >= n:
                break
            term *= (n - i) / (i + 1) * ratio
            i += 1
        else:
            if i <= 0:
                break
            term *= i / (n - i + 1) / ratio
            i -= 1
        total += term
        if term <= total * 1e-17:
            break
    return min(total, 1.0)


def _round_nicely(x: float) -> int:
    if x < 10:
        return max(1, round(x))
    digits = 10 ** (int(math.log10(x)) - 1)
    return int(round(x / digits) * digits)


#: the words of :func:`unusual_words`, by how unusual and on which side
UNUSUAL = {
    None: N_("as expected"),
    ("far", "more"): N_("far more than expected (less than 1 in a billion)"),
    ("far", "fewer"): N_("far fewer than expected (less than 1 in a billion)"),
    ("about", "more"): N_("about 1 in {odds:,} (more than expected)"),
    ("about", "fewer"): N_("about 1 in {odds:,} (fewer than expected)"),
}


def unusual(k: int, expected: float, tail: float) -> tuple[str, dict[str, int]]:
    """How unusual ``k`` held against ``expected`` is: one of :data:`UNUSUAL`'s templates, with
    its arguments."""
    if tail >= 0.5 or abs(k - expected) < 0.5:
        return UNUSUAL[None], {}
    side = "more" if k > expected else "fewer"
    if tail <= 0 or 1 / tail >= 1e9:
        return UNUSUAL["far", side], {}
    return UNUSUAL["about", side], {"odds": _round_nicely(1 / tail)}


def unusual_words(k: int, expected: float, tail: float) -> str:
    """How unusual ``k`` held against ``expected`` is, in words: "about 1 in 40 (more than
    expected)", "as expected". English always: `stats --json` holds it (the view words it)."""
    template, args = unusual(k, expected, tail)
    return template.format(**args)


def _held_row(held: int, rounds: int, p: float) -> dict[str, Any]:
    expected = rounds * p
    tail = binomial_tail(held, rounds, p)
    return {"held": held, "expected": round(expected, 3), "probability": p, "tail": tail,
            "unusual": unusual_words(held, expected, tail)}


# ---------------------------------------------------------------------------------------------
# nights together


def choose(
    rows: Iterable[Mapping[str, Any]],
    *,
    since: str | None = None,
    until: str | None = None,
    player: str | None = None,
    rules: str | None = None,
) -> list[Mapping[str, Any]]:
    """The index rows (or digests) chosen: created on or after ``since`` and on or before
    ``until`` (ISO dates, compared by day), with ``player`` at the table, under the profile
    ``rules`` (its name)."""
    out = []
    for row in rows:
        day = str(row.get("created") or "")[:10]
        if since and day < since:
            continue
        if until and day > until:
            continue
        if player is not None and player not in row.get("players", ()):
            continue
        if rules is not None and (row.get("rules") or row.get("profile") or "sdin") != rules:
            continue
        out.append(row)
    return out


def _profile_stats(nights: Sequence[Mapping[str, Any]], odds_of: OddsOf) -> dict[str, Any]:
    """One profile's nights added up (they all share its kan and its odds)."""
    per_kan = nights[0]["kan"]
    odds = odds_of(nights[0])
    names = list(odds["teyaku"])
    players: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for night in nights:
        for p in night["players"]:
            if p not in players:
                order.append(p)
                players[p] = {"nights": 0, "rounds": 0, "mon": 0, "won": 0, "dealer": 0, "best": None, "worst": None,
                              "teyaku": dict.fromkeys(names, 0), "teyaku_any": 0, "dekiyaku": {}, "special": {},
                              "sage": dict.fromkeys(SAGE_ENDS, 0), **dict.fromkeys(PILES_GIVEN.values(), 0)}
            me, got = players[p], night["per_player"][p]
            mon = night["totals"][p]
            me["nights"] += 1
            me["rounds"] += got["rounds"]
            me["mon"] += mon
            me["won"] += got["won"]
            me["dealer"] += got["dealer"]
            me["teyaku_any"] += got["teyaku_any"]
            for key in PILES_GIVEN.values():
                me[key] += got.get(key, 0)
            for name, n in got["teyaku"].items():
                _bump(me["teyaku"], name, n)
            for key in ("dekiyaku", "special"):
                for name, n in got[key].items():
                    _bump(me[key], name, n)
            for how in SAGE_ENDS:
                me["sage"][how] += got["sage"].get(how, 0)
            here = {"session": night["id"], "name": night["name"], "mon": mon}
            if me["best"] is None or mon > me["best"]["mon"]:
                me["best"] = here
            if me["worst"] is None or mon < me["worst"]["mon"]:
                me["worst"] = here
    for p in order:
        me = players[p]
        me["kan"] = kan(me["mon"], per_kan)
        me["average"] = round(me["mon"] / me["rounds"], 2) if me["rounds"] else None
        me["teyaku"] = {name: _held_row(n, me["rounds"], odds["teyaku"].get(name, 0.0)) for name, n in me["teyaku"].items()}
        me["teyaku_all"] = _held_row(me.pop("teyaku_any"), me["rounds"], odds["any"])
        me["sage"]["declared"] = sum(me["sage"][h] for h in SAGE_ENDS)

    pairs: dict[tuple[str, str], dict[str, Any]] = {}
    for night in nights:
        seated = night["players"]
        for i, a in enumerate(seated):
            for b in seated[i + 1:]:
                x, y = sorted((a, b), key=order.index)
                pair = pairs.setdefault((x, y), {"a": x, "b": y, "nights": 0, "net": 0, "totals_diff": 0})
                pair["nights"] += 1
                pair["net"] += night["ledger"][x][y]
                pair["totals_diff"] += night["totals"][x] - night["totals"][y]

    running = dict.fromkeys(order, 0)
    chart: dict[str, Any] = {"nights": [], "standings": {p: [] for p in order}}
    for night in nights:
        chart["nights"].append({"session": night["id"], "name": night["name"], "created": night["created"]})
        for p in order:
            running[p] += night["totals"].get(p, 0)
            chart["standings"][p].append(running[p])
    return {
        "kan_per": per_kan,
        "nights": len(nights),
        "rounds": sum(n["rounds"] for n in nights),
        "players": {p: players[p] for p in order},
        "head_to_head": list(pairs.values()),
        "chart": chart,
    }


def profile_groups(nights: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """The nights by profile, in the order first seen, each named by its profile's name; where
    nights of different profiles share a name (two house files, one name), each is that name
    with its key: ``house (3fa2c1e09b7d)``. Nights of different profiles are never one group."""
    by_key: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for night in nights:
        by_key.setdefault((night["profile"], night["profile_key"]), []).append(night)
    names = [name for name, _ in by_key]
    return {(name if names.count(name) == 1 else f"{name} ({key})"): group for (name, key), group in by_key.items()}


def aggregate(nights: Sequence[Mapping[str, Any]], odds_of: OddsOf) -> dict[str, Any]:
    """The object `stats --json` prints (CONTRACT §8) from the chosen nights' digests, oldest
    first: ``profiles``; then ``players`` (``nights``, ``rounds``, ``mon`` and more) with
    ``head_to_head`` and ``chart`` when one profile holds them all, else ``by_profile``.
    ``odds_of``: a night's profile's odds (:func:`teyaku_odds`), asked once per profile: they are
    the profile's, not the night's, so no digest keeps them (and no save counts them)."""
    groups = profile_groups(nights)
    out: dict[str, Any] = {"profiles": list(groups), "sessions": len(nights)}
    if len(groups) <= 1:
        if groups:
            out.update(_profile_stats(next(iter(groups.values())), odds_of))
        else:
            out.update({"players": {}, "head_to_head": [], "chart": {"nights": [], "standings": {}}})
    else:
        out["by_profile"] = {name: _profile_stats(group, odds_of) for name, group in groups.items()}
    return out
