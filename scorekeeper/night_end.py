"""The night's end: what the phones, the board and ``summary --image`` show once the planned rounds
are played, drawn from ``summary --json`` alone (:func:`end_figures`): the final standings in 文,
貫 and money at the rate, the settlement, each player's best round and its yaku, the running
totals; and whether the phones show it (:func:`end_state`): the planned months played with no
round begun, or the night ended on a phone. Ending is a mark kept beside the book
(``book.night-end``, by session), undone by "one more round" or "reopen": it never touches a
round, so the terminal's ``summary`` and the CSV say the same figures whatever is chosen."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Mapping

from . import files
from .night import money, money_text

#: the image's size (px): a chat's picture, as wide as a phone's screen at 3×
IMAGE_WIDTH = 1080


def best_round(summary: Mapping[str, Any], player: str) -> dict[str, Any] | None:
    """``player``'s best round: the one they won most in (the earliest of equals), with the yaku
    paid to them in it; None when they won in none."""
    best: dict[str, Any] | None = None
    for h in summary["history"]:
        mon = h["mon"].get(player, 0)
        if mon > 0 and (best is None or mon > best["mon"]):
            best = {"round": h["round"], "mon": mon,
                    "yaku": [y["yaku"] for y in h["yaku"] if y["player"] == player]}
    return best


def end_figures(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Every figure of the night's end, as the page and ``summary --image`` draw it, from the
    object ``summary --json`` prints: standings best first (seat order among equals), each with
    its money at the rate (text as every screen writes it), the settlement, best rounds, the
    running totals (0 first)."""
    rate = summary.get("rate")
    players = list(summary["players"])
    totals = summary["totals"]
    order = sorted(players, key=lambda p: -totals[p])
    running = {p: [0] for p in players}
    for h in summary["history"]:
        for p in players:
            running[p].append(running[p][-1] + h["mon"].get(p, 0))
    return {
        "session": summary["session"], "name": summary["name"], "players": players,
        "rounds": summary["rounds"], "months": summary.get("months"), "planned_rounds": summary.get("planned_rounds"),
        "rate": rate, "rate_text": None if rate is None else money_text(1, rate),
        "standings": [{"rank": 1 + sum(totals[q] > totals[p] for q in players), "player": p, "mon": totals[p],
                       "kan": summary["kan"][p], "money": money(totals[p], rate),
                       "money_text": None if rate is None else money_text(totals[p], rate, signed=True)}
                      for p in order],
        "settlement": [{**pay, "money_text": None if rate is None else money_text(pay["mon"], rate)}
                       for pay in summary["settlement"]],
        "pot": summary.get("pot", 0),
        "best": [{"player": p, **(best_round(summary, p) or {"round": None, "mon": 0, "yaku": []})} for p in players],
        "running": running,
    }


# -- the mark: a night ended on a phone, or played on past its plan ----------------------------------

def marks_path(book_path: str | os.PathLike[str]) -> Path:
    """``book.night-end`` beside ``book.json``."""
    p = Path(book_path)
    return p.with_suffix(".night-end") if p.suffix else p.with_name(p.name + ".night-end")


def read_mark(book_path: str | os.PathLike[str], sid: str) -> dict[str, Any]:
    """The session's mark: ``ended`` (the night ended on a phone) and ``more`` (months played on
    past the plan by "one more round"); none kept: not ended, none more. A mark that can't be read
    is none (it only chooses what the phones show)."""
    try:
        kept = json.loads(marks_path(book_path).read_bytes()).get(sid) or {}
        return {"ended": bool(kept.get("ended")), "more": max(0, int(kept.get("more", 0)))}
    except (OSError, ValueError, AttributeError, TypeError):
        return {"ended": False, "more": 0}


def write_mark(book_path: str | os.PathLike[str], sid: str, *, ended: bool, more: int) -> None:
    """Keep the session's mark (the other sessions' as they are)."""
    path = marks_path(book_path)
    try:
        marks = json.loads(path.read_bytes())
        if not isinstance(marks, dict):
            marks = {}
    except (OSError, ValueError):
        marks = {}
    marks[sid] = {"ended": ended, "more": more}
    files.atomic_write(path, files.json_bytes(marks), backup=False)


def end_state(summary: Mapping[str, Any], mark: Mapping[str, Any], begun: bool) -> dict[str, Any]:
    """Whether the phones show the night's end: ``ended`` (on a phone, until reopened), or ``due``:
    the planned months played (and any more chosen), no round begun (``begun``: the next round
    has an answer already: someone plays on)."""
    planned = summary.get("planned_rounds")
    months = summary.get("months") or 0
    due = (not begun and planned is not None and summary["rounds"] > 0
           and months >= planned + int(mark.get("more", 0)))
    return {"ended": bool(mark.get("ended")), "due": due, "shown": bool(mark.get("ended")) or due}


def more_after(summary: Mapping[str, Any]) -> int:
    """The ``more`` that "one more round" keeps: the end due again once one more month is played."""
    planned = summary.get("planned_rounds") or 0
    return max(0, (summary.get("months") or 0) + 1 - planned)
