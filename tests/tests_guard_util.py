"""Helpers of the issue-10 tests."""

from __future__ import annotations

import crash_harness as ch


def renamed_round(rnd: dict, names: list[str]) -> dict:
    """A night round with Aki, Ben and Chie renamed; players and dealer left to the session."""
    to = dict(zip(ch.PLAYERS, names))
    out = {}
    for key, value in rnd.items():
        if key in ("players", "dealer"):
            continue
        if isinstance(value, dict):
            value = {to[p]: v for p, v in value.items()}
        elif isinstance(value, str) and value in to:
            value = to[value]
        out[key] = value
    return out
