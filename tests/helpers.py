"""Shared helpers for building rounds in tests.

Piles and hands are written in the tool's own shorthand (``"1hk 3* 12kkk"``) and expanded to card
codes here, so a test reads like a score sheet. Full played-out rounds are checked to be exactly
the 48-card deck, so that a typo in a test shows up as a test error, not as a false pass.
"""

from __future__ import annotations

import time
from pathlib import Path
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from simulator import DECK

from scorekeeper.notation import parse_cards
from scorekeeper.scoring import Result

PLAYERS = ["Aki", "Ben", "Chie"]

#: seconds: how long a test waits for something that is sure to come before calling it a hang. Never
#: a bound on how quick anything is (the tests assert no times; benchmarks/ measures them)
HANG = 60.0
T = TypeVar("T")


def eventually(check: Callable[[], T], what: str, timeout: float = HANG, every: float = 0.02) -> T:
    """``check()``'s first truthy value, asked every ``every`` s; a hang (nothing after
    ``timeout`` s) fails the test with ``what`` it waited for."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"hung: no {what} after {timeout:g} s")
        time.sleep(every)

#: initial fields, none of them 場四
SMALL_FIELD = ["2k", "4r", "6k", "7t", "9k", "10k"]  # 小場: no 20-point card
BIG_FIELD = ["1h", "3r", "8k", "12k", "5t", "9k"]  # 大場: 松に鶴
ZEKKYO_FIELD = ["11h", "2k", "4r", "6k", "7t", "9k"]  # 絶場: 柳に小野道風
FIELDS = {1: SMALL_FIELD, 2: BIG_FIELD, 4: ZEKKYO_FIELD}


def codes(text: str) -> list[str]:
    """Card codes for a line of shorthand: ``codes("1hk 12kk") == ["1h", "1k", "12k", "12k"]``."""
    return [c.code for c in parse_cards(text)] if text.strip() else []


def cards(text: str):
    """Cards for a line of shorthand."""
    return parse_cards(text)


def round_file(
    captured: Mapping[str, str],
    *,
    field: list[str] | str | None = None,
    dealer: str = "Aki",
    players: list[str] | None = None,
    hands: Mapping[str, str] | None = None,
    **extra: Any,
) -> dict:
    """A round file dict (CONTRACT.md §3); piles and hands in shorthand, extra keys as given."""
    data: dict[str, Any] = {
        "players": list(players or PLAYERS),
        "dealer": dealer,
        "field": codes(field) if isinstance(field, str) else list(field or SMALL_FIELD),
        "captured": {p: codes(pile) for p, pile in captured.items()},
    }
    if hands:
        data["hands"] = {p: codes(h) for p, h in hands.items()}
    data.update(extra)
    return data


def played_out(captured: Mapping[str, str], **kwargs: Any) -> dict:
    """A played-out round file; the piles must make up the deck exactly."""
    data = round_file(captured, **kwargs)
    held = Counter(c for pile in data["captured"].values() for c in pile)
    assert held == Counter(DECK), f"not the 48-card deck: extra {held - Counter(DECK)}, missing {Counter(DECK) - held}"
    return data


def mon(result: Result) -> dict[str, int]:
    """Each player's 文 for the round."""
    return {p: r.mon for p, r in result.players.items()}


def ledger(result: Result) -> list[tuple[str, str, int, str]]:
    """The payments as (from, to, 文, reason)."""
    return [(p.payer, p.payee, p.mon, p.reason) for p in result.payments]


def net_of_payments(result: Result) -> dict[str, int]:
    """Received minus paid for each player, from the payments alone."""
    net = {p: 0 for p in result.players}
    for p in result.payments:
        net[p.payer] -= p.mon
        net[p.payee] += p.mon
    return net


def yaku_won(holder: str, amount: int, players: list[str] | None = None) -> dict[str, int]:
    """The 文 when ``holder``'s yaku worth ``amount`` is paid by each of the other two."""
    return {p: 2 * amount if p == holder else -amount for p in players or PLAYERS}


# ---------------------------------------------------------------------------------------------
# Whole played-out rounds (48 cards), found by dealing random partitions and kept here in
# shorthand. Month totals for checking by hand: 松 27, 梅 17, 桜 27, 藤 17, 菖蒲 17, 牡丹 17,
# 萩 17, 芒 32, 菊 17, 紅葉 17, 柳 36, 桐 23.

#: No 出来役 and no 特殊役: Aki 96, Ben 80, Chie 88 (the CONTRACT §4 example's piles).
EXAMPLE_PILES = {
    "Aki": "1rk 3* 4tk 6tr 7tk 9tr 11tk",
    "Ben": "1hk 2* 4rk 6kk 7rk 8tk 10*",
    "Chie": "5* 8hk 9kk 11hr 12*",
}
#: No yaku: Aki 93, Ben 93, Chie 78.
TIE_PILES = {
    "Aki": "1rk 3hk 6tk 8hk 10tk 12*",
    "Ben": "2* 3rk 4rk 5tk 9* 10rk 11ht",
    "Chie": "1hk 4tk 5rk 6rk 7* 8tk 11rk",
}
#: Played-out, Aki the only 出来役 holder: 猪鹿蝶 alone
SAGE_INO = {
    "Aki": "1kk 4tr 6* 7* 8hk 9kk 10* 11tk",
    "Ben": "1hr 2tk 3* 9tr 11hr 12hk",
    "Chie": "2rk 4kk 5* 8tk 12kk",
}
#: Played-out, Aki the only 出来役 holder: 赤短 and 青短
SAGE_AKA_AO = {
    "Aki": "1hr 2tr 3rk 6rk 9* 10*",
    "Ben": "1kk 3hk 4rk 5rk 7rk 8* 11* 12hk",
    "Chie": "2kk 4tk 5tk 6tk 7tk 12kk",
}


# -- the night's writes, through the flows (the book itself never calls them) --------------------


def add_round(book: Any, sid: str, data: Mapping[str, Any]) -> int:
    """A round file added to a session as `round --file` adds it; its number. A 場四, never
    saved, is the RoundError it always was here."""
    from scorekeeper.flows import Night
    from scorekeeper.scoring import RoundError

    added = Night(book, sid, load=False).add_round(data)
    if not added.saved:
        raise RoundError("field", "is a 場四 (four cards of a month): the round is redealt and never saved")
    return added.number


def replace_round(book: Any, sid: str, number: int, data: Mapping[str, Any], *, rechain: bool = False):
    """Round ``number`` replaced as `edit N --file` replaces it: (changed, breaks)."""
    from scorekeeper.flows import Night

    done = Night(book, sid, load=False).replace_round(number, data, rechain=rechain)
    return done.changed, done.breaks


def remove_last_round(book: Any, sid: str, expect: int | None = None) -> dict[str, Any]:
    """The last round removed as `undo` removes it."""
    from scorekeeper.flows import Night

    return Night(book, sid, load=False).undo(expect=expect)


def money(result: Any) -> dict[str, Any]:
    """What a round pays, from a result's JSON: each player's 文, the payments, the winner, the
    next 親 and the pot (a pile not asked, in a round ended by a 出来役, changes none of it)."""
    data = result if isinstance(result, dict) else result.to_json()
    return {"mon": {p: r["mon"] for p, r in data["players"].items()}, "payments": data["payments"],
            **{k: data.get(k) for k in ("winner", "next_dealer", "pot", "carry", "multiplier")}}


def profile_of(path: Path) -> Any:
    """The rule profile a sample or golden round file is scored under, by its folder: a built-in
    profile's name (``fudawiki``), a house file's sample (``house-tables``: samples/house-tables.toml)
    or its sample night (``house-night-tables``); else sdin."""
    from scorekeeper import house
    from scorekeeper.rules import PROFILES, SDIN

    folder = path.parent.name
    if folder in PROFILES:
        return PROFILES[folder]
    if folder.startswith("house-"):
        samples = Path(__file__).resolve().parent.parent / "samples"
        return house.load(samples / f"house-{folder.removeprefix('house-').removeprefix('night-')}.toml")
    return SDIN
