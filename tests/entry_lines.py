"""Typing a round into the entry flow, line by line, for the tests of `round` and `edit`.

:func:`answers` turns a round file into the lines a person would type at each question, in the
flow's order: the 親, the field, each 手役 going round the table from the 親, 下げ, how the round
ended, each pile asked (in a round ended by a 出来役, only the ender's), then the confirm. :class:`Script` feeds lines to the flow as its input function.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Mapping, Sequence

from rich.console import Console

from scorekeeper.notation import format_compact, parse_cards

#: typed in place of a line: the input function raises it (Ctrl-C, or end of input)
CTRL_C = KeyboardInterrupt
EOF = EOFError


def order(players: Sequence[str], dealer: str) -> list[str]:
    start = list(players).index(dealer)
    return [players[(start + i) % 3] for i in range(3)]


def answers(rnd: Mapping[str, Any], *, rest: bool = False, confirm: str = "y") -> list[str]:
    """The lines that enter ``rnd``; ``rest`` types the last pile of a played-out round as rest."""
    seats = order(rnd["players"], rnd["dealer"])
    hands = rnd.get("hands") or {}
    declared = rnd.get("teyaku") or {}
    lines = [rnd["dealer"], " ".join(rnd["field"])]
    for p in seats:
        hand = " ".join(hands[p]) if hands.get(p) else ""
        lines.append(" ".join(x for x in (hand, declared.get(p)) if x))
    lines += [rnd.get("sage") or "", rnd.get("ended_by") or ""]
    captured = rnd.get("captured") or {}
    sage = rnd.get("sage")
    for i, p in enumerate(seats):
        if rnd.get("ended_by") and p != rnd["ended_by"]:  # SDIN: only the ender's pile is asked
            continue
        if sage and not rnd.get("ended_by") and p != sage:  # played out after 下げ: only the caller's
            continue
        if rest and i == 2 and not rnd.get("ended_by") and not sage:
            lines.append("rest")
        else:
            lines.append(format_compact(parse_cards(captured[p])) if captured.get(p) else "")
    return lines + [confirm]


class Script:
    """An input function that types the given lines, recording every prompt it is shown."""

    def __init__(self, lines: Sequence[Any]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, type) and issubclass(line, BaseException):
            raise line
        return line


def console() -> Console:
    """A console that records, wide enough for the result table, without colour."""
    return Console(file=io.StringIO(), width=160, color_system=None, highlight=False)


def printed(con: Console) -> str:
    return con.file.getvalue()  # type: ignore[attr-defined]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of the book under ``folder`` and its bytes: a book "byte for byte". The drafts
    beside it (``*.drafts/``: the answers of a round being typed) are not the book."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not any(part.endswith(".drafts") for part in p.relative_to(folder).parts)}
