"""A small 八八 play-out simulator, and an independent reference settlement, for the tests.

Nothing here imports :mod:`scorekeeper`: the deck, the 出来役 check, the 手役 check and the
settlement are written again from RULES.md, so that tests can compare the engine against them.
Cards are plain code strings (``"1h"``, ``"12k"``). ``simulate(random.Random(seed)).round`` is a
round file dict (CONTRACT.md §3).

A round is played as RULES.md §2 describes it: 7 cards to each of three players, 6 to the field
(redealt on 場四), 21 in the stock. On a turn the player plays a hand card, capturing one field card
of its month if there is one (all three on 場三), else leaving it on the field; then draws from the
stock and does the same. After every capture the player is checked for a newly completed 出来役;
the player then stops or declares 下げ (one 下げ player per round, who may stop or play on after
each further yaku); anyone else completing a 出来役 after a 下げ ends the round at once.

``simulate(..., rules="fudawiki")`` plays TRADITIONAL.md §4 instead: whoever completes or improves
a 出来役 (猪鹿蝶 off) stops or calls 下げ, any number of players may call, and a caller may cancel at
the start of a later turn. :func:`reference_settlement_fudawiki` settles such a round from
TRADITIONAL.md §3–6, §8 and §9 alone (Group A + B 手役, bonuses, the first 特殊役 only, the winner,
the carry queue).

:func:`simulate_seated` deals a round of a night of 3 to 6 (TRADITIONAL §7: every seat dealt, the
dropout phase from the 親, the hands of those out under the stock, three or two playing) and
:func:`reference_night_round` settles it from §7–9 alone: fees, 追い込み, the two-player round or
split, one volunteer, misdeal, the pot.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

PLAYERS = ("Aki", "Ben", "Chie")

#: face points by kind letter (RULES.md §1)
KIND_POINTS = {"h": 20, "t": 10, "r": 5, "k": 1}
#: month -> the kinds it holds, one letter per card (RULES.md §1)
MONTH_KINDS = {
    1: "hrkk", 2: "trkk", 3: "hrkk", 4: "trkk", 5: "trkk", 6: "trkk",
    7: "trkk", 8: "htkk", 9: "trkk", 10: "trkk", 11: "htrk", 12: "hkkk",
}
#: the 48 cards as codes, kasu once per card
DECK: tuple[str, ...] = tuple(f"{m}{k}" for m, kinds in MONTH_KINDS.items() for k in kinds)


_MONTH = {f"{m}{k}": m for m, kinds in MONTH_KINDS.items() for k in kinds}


def month(code: str) -> int:
    return _MONTH[code]


def value(code: str) -> int:
    """Face points of a card."""
    return KIND_POINTS[code[-1]]


def hand_value(code: str) -> int:
    """Points for 手役 and 素十六: every 柳 card is a 1-point card."""
    return 1 if month(code) == 11 else value(code)


def pile_points(cards: Iterable[str]) -> int:
    return sum(value(c) for c in cards)


# --------------------------------------------------------------------------------------------
# yaku, written again from RULES.md §4–6

DEKIYAKU_VALUES = {"五光": 120, "四光": 100, "七短": 100, "赤短": 70, "青短": 70, "猪鹿蝶": 70}
TEYAKU_VALUES = {
    "四三": 200, "一二四": 80, "はねけん": 70, "手四": 60, "空巣": 40, "喰付": 40,
    "光一": 40, "十一": 40, "短一": 30, "赤": 30, "立三本": 30, "三本": 20,
}


def own_dekiyaku(pile: Iterable[str]) -> set[str]:
    """出来役 of a pile (RULES.md §5): 五光 replaces 四光, everything else adds up."""
    have = set(pile)
    found = set()
    if {"1h", "3h", "8h", "11h", "12h"} <= have:
        found.add("五光")
    elif {"1h", "3h", "8h", "12h"} <= have:
        found.add("四光")
    if len({c for c in have if c.endswith("r") and c != "11r"}) >= 7:
        found.add("七短")
    if {"1r", "2r", "3r"} <= have:
        found.add("赤短")
    if {"6r", "9r", "10r"} <= have:
        found.add("青短")
    if {"7t", "10t", "6t"} <= have:
        found.add("猪鹿蝶")
    return found


def own_teyaku(hand: Sequence[str]) -> str | None:
    """The 手役 of a 7-card hand (RULES.md §4): highest value, ties by table order."""
    by_month = Counter(month(c) for c in hand)
    shape = sorted(by_month.values(), reverse=True)
    pts = Counter(hand_value(c) for c in hand)
    threes = {m for m, n in by_month.items() if n == 3}
    made = []
    if shape[:2] == [4, 3]:
        made.append("四三")
    if shape == [4, 2, 1]:
        made.append("一二四")
    if shape == [3, 2, 2]:
        made.append("はねけん")
    if shape[0] == 4:
        made.append("手四")
    if pts[1] == 7:
        made.append("空巣")
    if shape == [2, 2, 2, 1]:
        made.append("喰付")
    for name, p in (("光一", 20), ("十一", 10), ("短一", 5)):
        if pts[1] == 6 and pts[p] == 1:
            made.append(name)
    if pts[5] >= 2 and pts[5] + pts[1] == 7:
        made.append("赤")
    if threes & {4, 5, 7} or (12 in threes and "12h" not in hand):
        made.append("立三本")
    if threes:
        made.append("三本")
    if not made:
        return None
    best = max(TEYAKU_VALUES[n] for n in made)
    return next(n for n in made if TEYAKU_VALUES[n] == best)


def own_specials(piles: Mapping[str, Sequence[str]], dealer: str) -> dict[str, list[tuple[str, int]]]:
    """特殊役 (RULES.md §6) of played-out piles: player -> [(name, 文)]."""
    out: dict[str, list[tuple[str, int]]] = {p: [] for p in piles}
    totals = {p: pile_points(c) for p, c in piles.items()}
    if all(t == 88 for t in totals.values()):
        out[dealer].append(("総八", 100))
    for p, cards in piles.items():
        if totals[p] >= 168:
            out[p].append(("二八", 100 + 10 * (totals[p] - 168)))
        kasu = sum(1 for c in cards if hand_value(c) == 1)
        if kasu >= 16:
            out[p].append(("素十六", 120 + 20 * (kasu - 16)))
    return out


def field_multiplier(field_cards: Iterable[str]) -> int:
    have = set(field_cards)
    if have & {"11h", "12h"}:
        return 4
    if have & {"1h", "3h", "8h"}:
        return 2
    return 1


def reference_settlement(rnd: Mapping) -> tuple[dict[str, int], str]:
    """Each player's 文 and the next 親 for a round file dict, computed from RULES.md alone.

    Understands the keys the simulator writes (declared 手役 are taken as given).
    """
    players = list(rnd["players"])
    dealer = rnd["dealer"]
    field_cards = rnd["field"]
    if any(n == 4 for n in Counter(month(c) for c in field_cards).values()):
        return {p: 0 for p in players}, dealer
    mult = field_multiplier(field_cards)
    piles = {p: list((rnd.get("captured") or {}).get(p) or []) for p in players}
    hands = rnd.get("hands") or {}
    declared = rnd.get("teyaku") or {}
    sage, ended = rnd.get("sage"), rnd.get("ended_by")
    mon = {p: 0 for p in players}

    def each_pays(holder: str, amount: int) -> None:
        for p in players:
            if p != holder:
                mon[p] -= amount
                mon[holder] += amount

    def teyaku_paid() -> None:
        for p in players:
            name = declared.get(p) or (own_teyaku(hands[p]) if hands.get(p) else None)
            if name:
                each_pays(p, TEYAKU_VALUES[name])

    def dekiyaku_total(p: str) -> int:
        return sum(DEKIYAKU_VALUES[n] for n in own_dekiyaku(piles[p]))

    if sage or ended:
        teyaku_paid()
        if sage is None or sage == ended:
            each_pays(ended, dekiyaku_total(ended))
        elif ended is None:
            total = dekiyaku_total(sage)
            assert total % 2 == 0
            each_pays(sage, total // 2)
        else:
            owed = 2 * dekiyaku_total(ended)
            mon[sage] -= owed
            mon[ended] += owed
    else:
        specials = own_specials(piles, dealer)
        if any(specials.values()):
            for p, found in specials.items():
                for _, amount in found:
                    each_pays(p, amount)
        else:
            teyaku_paid()
            for p in players:
                mon[p] += pile_points(piles[p]) - 88
    mon = {p: m * mult for p, m in mon.items()}
    best = max(mon.values())
    start = players.index(dealer)
    winner = next(players[(start + i) % 3] for i in range(3) if mon[players[(start + i) % 3]] == best)
    return mon, winner


# --------------------------------------------------------------------------------------------
# the simulator


@dataclass
class Simulation:
    """One simulated round: the round file and what happened."""

    round: dict
    dealt: dict[str, list[str]]  # every player's 7-card hand
    piles: dict[str, list[str]]
    played_out: bool
    events: list[str] = field(default_factory=list)


def deal(rng: random.Random, preset: Mapping | None = None) -> tuple[list[str], dict[int, list[str]], list[str]]:
    """Field, hands by seat (0 = 親) and stock; redealt while the field is 場四.

    ``preset`` may fix ``"field"`` and ``"hands"`` (seat -> cards); the rest is shuffled.
    """
    preset = preset or {}
    while True:
        rest = Counter(DECK)
        fixed_field = list(preset.get("field") or [])
        fixed_hands = {s: list(h) for s, h in (preset.get("hands") or {}).items()}
        for c in fixed_field + [c for h in fixed_hands.values() for c in h]:
            rest[c] -= 1
            assert rest[c] >= 0, f"preset uses {c} too often"
        pool = list(rest.elements())
        rng.shuffle(pool)
        hands = {}
        for seat in range(3):
            hand = fixed_hands.get(seat, [])
            while len(hand) < 7:
                hand.append(pool.pop())
            hands[seat] = hand
        field_cards = fixed_field
        while len(field_cards) < 6:
            field_cards.append(pool.pop())
        assert len(pool) == 21
        if all(n < 4 for n in Counter(month(c) for c in field_cards).values()):
            return field_cards, hands, pool
        assert not preset.get("field"), "a preset 場四 field can never be played"


def simulate(
    rng: random.Random | int,
    players: Sequence[str] = PLAYERS,
    dealer: str | None = None,
    *,
    preset: Mapping | None = None,
    show_hands: Sequence[str] | None = None,
    stop_chance: float = 0.5,
    rules: str = "sdin",
    cancel_chance: float = 0.2,
) -> Simulation:
    """Deal and play one random legal round.

    ``stop_chance`` is the chance that a player completing a 出来役 stops rather than declaring
    下げ (or, for the 下げ player, rather than playing on). ``show_hands`` lists the players
    whose dealt hand goes into the round file; by default a random subset.

    ``rules="fudawiki"`` plays TRADITIONAL.md §4 instead (see :func:`simulate_fudawiki`;
    ``cancel_chance`` is only used there). Under ``"sdin"`` the same seed gives the same round as
    it always did.
    """
    if rules == "fudawiki":
        return simulate_fudawiki(
            rng, players, dealer, preset=preset, show_hands=show_hands,
            stop_chance=stop_chance, cancel_chance=cancel_chance,
        )
    if rules != "sdin":
        raise ValueError(f"the simulator plays sdin or fudawiki, not {rules!r}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    players = list(players)
    dealer = dealer if dealer is not None else rng.choice(players)
    order = [players[(players.index(dealer) + i) % 3] for i in range(3)]
    field_cards, by_seat, stock = deal(rng, preset)
    initial_field = list(field_cards)
    hands = {order[s]: list(h) for s, h in by_seat.items()}
    dealt = {p: list(h) for p, h in hands.items()}
    piles: dict[str, list[str]] = {p: [] for p in players}
    table = list(field_cards)
    sage: str | None = None
    ended: str | None = None
    events: list[str] = []

    def place(player: str, c: str) -> bool:
        """Play or draw ``c``; True if the round ends here."""
        nonlocal sage, ended
        same = [f for f in table if month(f) == month(c)]
        if not same:
            table.append(c)
            return False
        taken = same if len(same) == 3 else [rng.choice(same)]
        before = own_dekiyaku(piles[player])
        for t in taken:
            table.remove(t)
        piles[player].extend(taken + [c])
        events.append(f"{player} takes {' '.join(taken + [c])}")
        new = own_dekiyaku(piles[player]) - before
        if not new:
            return False
        events.append(f"{player} completes {'・'.join(sorted(new))}")
        if sage is not None and player != sage:
            ended = player
            return True
        if rng.random() < stop_chance:
            ended = player
            return True
        if sage is None:
            sage = player
            events.append(f"{player} declares 下げ")
        return False

    done = False
    for _ in range(7):
        for player in order:
            hand = hands[player]
            played = hand.pop(rng.randrange(len(hand)))
            if place(player, played) or place(player, stock.pop()):
                done = True
                break
        if done:
            break

    played_out = ended is None
    if played_out:
        assert not table and not stock, "a played-out round leaves nothing on the table"
    if show_hands is None:
        show_hands = [p for p in players if rng.random() < 0.5]
    rnd: dict = {
        "players": players,
        "dealer": dealer,
        "field": initial_field,
        "captured": {p: list(piles[p]) for p in players},
    }
    if show_hands:
        rnd["hands"] = {p: list(dealt[p]) for p in show_hands}
    if sage is not None:
        rnd["sage"] = sage
    if ended is not None:
        rnd["ended_by"] = ended
    return Simulation(rnd, dealt, piles, played_out, events)


# ============================================================================================
# fudawiki (TRADITIONAL.md), written again from that page: nothing here is shared with the
# engine, and nothing of the SDIN code above changes.

FUDAWIKI_DEKIYAKU = {n: v for n, v in DEKIYAKU_VALUES.items() if n != "猪鹿蝶"}  # 猪鹿蝶 off (§2)
#: TRADITIONAL §3, in 文 at kan 10, in table order
GROUP_A = {"四三": 200, "一二四": 80, "二立三本": 80, "三本立三本": 70, "はねけん": 70, "二三本": 60,
           "手四": 60, "喰付": 40, "立三本": 30, "三本": 20}
GROUP_B = {"空素": 40, "光一": 40, "十一": 30, "短一": 30, "赤": 20}
FUDAWIKI_TEYAKU = {**GROUP_A, **GROUP_B}
BONUS = 10  # 飛び込み and 抜け役: 1 kan from each opponent (§6)


def fudawiki_dekiyaku(pile: Iterable[str]) -> set[str]:
    """出来役 of a pile under fudawiki: RULES §5's, without 猪鹿蝶."""
    return own_dekiyaku(pile) - {"猪鹿蝶"}


def _stands(m: int, hand: Sequence[str]) -> bool:
    """A three of month ``m`` stands: 藤, 菖蒲, 萩, or the three 桐 kasu (not with 桐に鳳凰)."""
    return m in (4, 5, 7) or (m == 12 and "12h" not in hand)


def own_group_a(hand: Sequence[str]) -> str | None:
    """The best Group A 手役 of a 7-card hand (§3): by month counts."""
    by_month = Counter(month(c) for c in hand)
    shape = sorted(by_month.values(), reverse=True)
    threes = [m for m, n in by_month.items() if n == 3]
    standing = sum(_stands(m, hand) for m in threes)
    made = []
    if shape[:2] == [4, 3]:
        made.append("四三")
    if shape == [4, 2, 1]:
        made.append("一二四")
    if len(threes) == 2:
        made.append({2: "二立三本", 1: "三本立三本", 0: "二三本"}[standing])
    if shape == [3, 2, 2]:
        made.append("はねけん")
    if shape[0] == 4:
        made.append("手四")
    if shape == [2, 2, 2, 1]:
        made.append("喰付")
    if standing:
        made.append("立三本")
    if len(threes) > standing:
        made.append("三本")
    if not made:
        return None
    best = max(GROUP_A[n] for n in made)
    return next(n for n in GROUP_A if n in made and GROUP_A[n] == best)


def own_group_b(hand: Sequence[str]) -> str | None:
    """The best Group B 手役 of a 7-card hand (§3): every 柳 card a kasu."""
    pts = Counter(hand_value(c) for c in hand)
    if pts[1] == 7:
        return "空素"
    if pts[1] == 6:
        return {20: "光一", 10: "十一", 5: "短一"}[next(p for p in pts if p != 1)]
    if pts[5] >= 2 and pts[5] + pts[1] == 7:
        return "赤"
    return None


def own_teyaku_groups(hand: Sequence[str]) -> tuple[str, ...]:
    """(best of A, best of B), those the hand has, Group A first."""
    return tuple(n for n in (own_group_a(hand), own_group_b(hand)) if n)


def field_multipliers(field_cards: Iterable[str]) -> list[int]:
    """§8: each 光 of the initial field: 柳 or 桐 ×4, 松 桜 芒 ×2; largest first."""
    out = [4 if c in ("11h", "12h") else 2 for c in field_cards if c in ("1h", "3h", "8h", "11h", "12h")]
    return sorted(out, reverse=True)


def reference_carry(field_cards: Iterable[str], waiting: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """§8 ``carry``: (the round's multiplier, the queue after). 場四 is the caller's business."""
    own = field_multipliers(field_cards)
    if waiting:
        return waiting[0], tuple(sorted([*waiting[1:], *own], reverse=True))
    if own:
        return own[0], tuple(own[1:])
    return 1, ()


def _names(value) -> list[str]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def reference_settlement_fudawiki(rnd: Mapping, waiting: Sequence[int] | None = None) -> dict:
    """A fudawiki round file settled from TRADITIONAL.md alone (three players, kan 10).

    Returns ``{"mon", "winner", "multiplier", "carry", "kind", "bonuses"}``. ``waiting`` is the
    night's queue before the round; by default the file's ``carry`` key.
    """
    players = list(rnd["players"])
    dealer = rnd["dealer"]
    field_cards = rnd["field"]
    if waiting is None:
        waiting = sorted(rnd.get("carry") or [], reverse=True)
    waiting = tuple(waiting)
    if any(n == 4 for n in Counter(month(c) for c in field_cards).values()):
        return {"mon": {p: 0 for p in players}, "winner": None, "multiplier": None, "carry": waiting,
                "kind": "場四", "bonuses": {p: () for p in players}}
    mult, carry = reference_carry(field_cards, waiting)
    piles = {p: list((rnd.get("captured") or {}).get(p) or []) for p in players}
    hands = rnd.get("hands") or {}
    declared = rnd.get("teyaku") or {}
    sage = _names(rnd.get("sage"))
    ended = rnd.get("ended_by")
    how = rnd.get("ended_how") or ("shoubu" if ended else None)
    mon = {p: 0 for p in players}
    points = {p: pile_points(piles[p]) for p in players}
    turns = [players[(players.index(dealer) + i) % 3] for i in range(3)]

    def each_pays(holder: str, amount: int) -> None:
        for p in players:
            if p != holder:
                mon[p] -= amount
                mon[holder] += amount

    def held(p: str) -> tuple[str, ...]:
        names = _names(declared.get(p))
        if names:
            return tuple(n for n in FUDAWIKI_TEYAKU if n in names or (n == "空素" and "空巣" in names))
        return own_teyaku_groups(hands[p]) if hands.get(p) else ()

    def deki_total(p: str) -> int:
        return sum(FUDAWIKI_DEKIYAKU[n] for n in fudawiki_dekiyaku(piles[p]))

    def bonuses(p: str) -> tuple[str, ...]:
        out = []
        names = held(p)
        hand = hands.get(p)
        a = next((n for n in names if n in GROUP_A), None)
        b = next((n for n in names if n in GROUP_B), None)
        if hand and a:
            by_month = Counter(month(c) for c in hand)
            if max(by_month.values()) == 3:
                in_pile = Counter(month(c) for c in piles[p])
                if any(in_pile[m] == 4 for m, n in by_month.items() if n == 3):
                    out.append("飛び込み")
        if b and b != "光一" and points[p] >= 89:
            out.append("抜け役")
        return tuple(out)

    paid_bonuses = {p: () for p in players}
    if sage or ended:
        kind = "出来役"
        for p in players:
            for n in held(p):
                each_pays(p, FUDAWIKI_TEYAKU[n])
        if ended and how == "cancel":
            assert deki_total(ended) % 2 == 0
            each_pays(ended, deki_total(ended) // 2)
            winner = ended
        elif ended:
            callers = [o for o in players if o != ended and o in sage]
            if len(callers) == 1:
                mon[callers[0]] -= 2 * deki_total(ended)
                mon[ended] += 2 * deki_total(ended)
            else:
                each_pays(ended, deki_total(ended))
            winner = ended
        else:
            for p in players:
                each_pays(p, deki_total(p) // 2)
            winner = sage[0]
    else:
        first = None
        if all(points[p] == 88 for p in players):
            first = (dealer, 100)
        else:
            for p in players:
                if points[p] >= 168:
                    first = (p, 100 + 10 * (points[p] - 168))
            if first is None:
                for p in players:
                    kasu = sum(1 for c in piles[p] if hand_value(c) == 1)
                    if kasu >= 16:
                        first = (p, 120 + 20 * (kasu - 16))
        if first:
            kind = "特殊役"
            each_pays(*first)
            winner = first[0]
        else:
            kind = "札"
            for p in players:
                for n in held(p):
                    each_pays(p, FUDAWIKI_TEYAKU[n])
                mon[p] += points[p] - 88
            best = max(points.values())
            winner = next(p for p in turns if points[p] == best)
    if kind != "特殊役":
        for p in players:
            paid_bonuses[p] = bonuses(p)
            for _ in paid_bonuses[p]:
                each_pays(p, BONUS)
    return {"mon": {p: m * mult for p, m in mon.items()}, "winner": winner, "multiplier": mult,
            "carry": carry, "kind": kind, "bonuses": paid_bonuses}


def simulate_fudawiki(
    rng: random.Random | int,
    players: Sequence[str] = PLAYERS,
    dealer: str | None = None,
    *,
    preset: Mapping | None = None,
    show_hands: Sequence[str] | None = None,
    stop_chance: float = 0.5,
    cancel_chance: float = 0.2,
) -> Simulation:
    """One random legal round under TRADITIONAL §4.

    Whoever completes or improves a 出来役 stops (勝負, chance ``stop_chance``) or calls 下げ; any
    number of players may call, each as often as they like. At the start of each of their later
    turns, a 下げ caller cancels with chance ``cancel_chance``. The round file lists ``sage`` in
    the order of first calls (one name as a string, several as a list) and ``ended_how`` for a
    cancel (and sometimes for 勝負, which is the default).
    """
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    players = list(players)
    dealer = dealer if dealer is not None else rng.choice(players)
    order = [players[(players.index(dealer) + i) % 3] for i in range(3)]
    field_cards, by_seat, stock = deal(rng, preset)
    initial_field = list(field_cards)
    hands = {order[s]: list(h) for s, h in by_seat.items()}
    dealt = {p: list(h) for p, h in hands.items()}
    piles: dict[str, list[str]] = {p: [] for p in players}
    table = list(field_cards)
    sage: list[str] = []
    ended: str | None = None
    how: str | None = None
    events: list[str] = []

    def place(player: str, c: str) -> bool:
        nonlocal ended, how
        same = [f for f in table if month(f) == month(c)]
        if not same:
            table.append(c)
            return False
        taken = same if len(same) == 3 else [rng.choice(same)]
        before = fudawiki_dekiyaku(piles[player])
        for t in taken:
            table.remove(t)
        piles[player].extend(taken + [c])
        events.append(f"{player} takes {' '.join(taken + [c])}")
        new = fudawiki_dekiyaku(piles[player]) - before
        if not new:
            return False
        events.append(f"{player} completes {'・'.join(sorted(new))}")
        if rng.random() < stop_chance:
            ended, how = player, "shoubu"
            events.append(f"{player} calls 勝負")
            return True
        if player not in sage:
            sage.append(player)
        events.append(f"{player} calls 下げ")
        return False

    done = False
    for _ in range(7):
        for player in order:
            if player in sage and rng.random() < cancel_chance:
                ended, how = player, "cancel"
                events.append(f"{player} cancels")
                done = True
                break
            hand = hands[player]
            played = hand.pop(rng.randrange(len(hand)))
            if place(player, played) or place(player, stock.pop()):
                done = True
                break
        if done:
            break

    played_out = ended is None
    if played_out:
        assert not table and not stock, "a played-out round leaves nothing on the table"
    if show_hands is None:
        show_hands = [p for p in players if rng.random() < 0.5]
    rnd: dict = {
        "players": players,
        "dealer": dealer,
        "field": initial_field,
        "captured": {p: list(piles[p]) for p in players},
    }
    if show_hands:
        rnd["hands"] = {p: list(dealt[p]) for p in show_hands}
    if sage:
        rnd["sage"] = sage[0] if len(sage) == 1 and rng.random() < 0.5 else list(sage)
    if ended is not None:
        rnd["ended_by"] = ended
        if how == "cancel" or rng.random() < 0.3:
            rnd["ended_how"] = how
    return Simulation(rnd, dealt, piles, played_out, events)


# --------------------------------------------------------------------------------------------
# Nights of 4 to 6 (TRADITIONAL §7): every seat is dealt 7 cards, then from the 親 each says play
# or drop until three play; the hands of those out go under the stock. Written again from §7 and
# §9 alone; none of the code above changes, so its rounds stay the same seed for seed.

FEE = 10  # 逃げ料: 1 kan at kan 10; the n-th to drop pays FEE × (n + 1) / 2
#: the cards worth 3 文 to a forced-out player: the five 光, 赤短 and 青短
THREE_MON_CARDS = {"1h", "3h", "8h", "11h", "12h", "1r", "2r", "3r", "6r", "9r", "10r"}
_DEKIYAKU_CARDS = {"五光": {"1h", "3h", "8h", "11h", "12h"}, "四光": {"1h", "3h", "8h", "12h"},
                   "赤短": {"1r", "2r", "3r"}, "青短": {"6r", "9r", "10r"}}


def reference_seating(players: Sequence[str], dealer: str, dropped: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """(volunteers in the order they spoke, the dropped in the order they spoke, the forced out)."""
    players = list(players)
    n = len(players)
    order = [players[(players.index(dealer) + i) % n] for i in range(n)]
    if n == 3:
        return players, [], []
    out = set(dropped)
    vol: list[str] = []
    drops: list[str] = []
    forced: list[str] = []
    for p in order:
        if len(vol) == 3:
            forced.append(p)
        elif p in out:
            drops.append(p)
        else:
            vol.append(p)
    return vol, drops, forced


def _group_a_row_cards(hand: Sequence[str], name: str | None) -> set[str]:
    """§7: the cards of the best Group A row."""
    by_month = Counter(month(c) for c in hand)
    if name is None:
        return set()
    if name in ("一二四", "はねけん"):
        return set(hand)
    if name == "四三":
        return {c for c in hand if by_month[month(c)] in (3, 4)}
    if name == "手四":
        return {c for c in hand if by_month[month(c)] == 4}
    if name == "喰付":
        return {c for c in hand if by_month[month(c)] == 2}
    return {c for c in hand if by_month[month(c)] == 3}  # two threes, or one


def reference_compensation(hand: Sequence[str] | None, declared: Sequence[str] = ()) -> int:
    """What each payer owes a forced-out player, in 文 before the multiplier (§7)."""
    if not hand:
        return sum(FUDAWIKI_TEYAKU[n] for n in declared) // 2
    names = own_teyaku_groups(hand)
    deki = fudawiki_dekiyaku(hand)
    half = (sum(FUDAWIKI_TEYAKU[n] for n in names) + sum(FUDAWIKI_DEKIYAKU[n] for n in deki)) // 2
    if own_group_b(hand):
        return half
    inside = _group_a_row_cards(hand, own_group_a(hand))
    for n in deki:
        inside |= _DEKIYAKU_CARDS.get(n) or {c for c in hand if c.endswith("r")}
    return half + 3 * sum(1 for c in hand if c in THREE_MON_CARDS and c not in inside)


def reference_night_round(rnd: Mapping, waiting: Sequence[int] = (), pot: int = 0, split: bool = False) -> dict:
    """A fudawiki round of a night of 3 to 6 settled from TRADITIONAL §7–9 (kan 10).

    Returns ``{"mon", "winner", "next_dealer", "multiplier", "carry", "pot", "kind"}``: ``mon`` for
    every seat, ``pot`` the pot after the round.
    """
    players = list(rnd["players"])
    dealer = rnd["dealer"]
    if len(players) == 3:
        ref = reference_settlement_fudawiki(rnd, waiting)
        return {**ref, "next_dealer": ref["winner"] or dealer, "pot": pot}
    vol, drops, forced = reference_seating(players, dealer, rnd.get("dropped") or [])
    mult, carry = reference_carry(rnd["field"], tuple(waiting))
    mon = {p: 0 for p in players}
    hands = rnd.get("hands") or {}
    declared = rnd.get("teyaku") or {}
    for n, p in enumerate(drops, 1):
        mon[p] -= FEE * (n + 1) // 2 * mult
        pot += FEE * (n + 1) // 2 * mult
    for p in forced:
        owed = reference_compensation(hands.get(p), _names(declared.get(p))) * mult
        for payer in vol[1:]:
            mon[payer] -= owed
            mon[p] += owed
    winner: str | None
    kind = None
    if len(vol) == 3:
        sub = {k: v for k, v in rnd.items() if k not in ("dropped", "pot", "carry")}
        sub.update(players=vol, dealer=vol[0],
                   captured={p: (rnd.get("captured") or {}).get(p) or [] for p in vol},
                   hands={p: h for p, h in hands.items() if p in vol},
                   teyaku={p: t for p, t in declared.items() if p in vol})
        ref = reference_settlement_fudawiki(sub, waiting)
        assert (ref["multiplier"], ref["carry"]) == (mult, carry)
        for p, m in ref["mon"].items():
            mon[p] += m
        winner, kind = ref["winner"], ref["kind"]
    elif len(vol) == 2 and not split:
        a, b = vol
        piles = {p: (rnd.get("captured") or {}).get(p) or [] for p in vol}
        pts = {p: pile_points(piles[p]) for p in vol}
        sage = _names(rnd.get("sage"))
        ended = rnd.get("ended_by")

        def pays(holder: str, amount: int) -> None:
            other = b if holder == a else a
            mon[other] -= amount * mult
            mon[holder] += amount * mult

        for p in vol:
            names = _names(declared.get(p))
            held = tuple(n for n in FUDAWIKI_TEYAKU if n in names) if names else (
                own_teyaku_groups(hands[p]) if hands.get(p) else ())
            for n in held:
                pays(p, FUDAWIKI_TEYAKU[n])
        deki = {p: sum(FUDAWIKI_DEKIYAKU[n] for n in fudawiki_dekiyaku(piles[p])) for p in vol}
        if ended:
            pays(ended, deki[ended] // 2 if rnd.get("ended_how") == "cancel" else deki[ended])
            winner, kind = ended, "出来役"
        elif sage:
            for p in vol:
                pays(p, deki[p] // 2)
            winner, kind = sage[0], "出来役"
        else:
            kind = "札"
            winner = a if pts[a] >= pts[b] else b
            loser = b if winner == a else a
            mon[loser] -= (pts[winner] - pts[loser]) * mult
            mon[winner] += (pts[winner] - pts[loser]) * mult
    elif len(vol) == 2:  # split: the odd 文 to the first volunteer
        mon[vol[0]] += pot - pot // 2
        mon[vol[1]] += pot // 2
        pot, winner, kind = 0, None, "山分け"
    elif len(vol) == 1:
        winner, kind = vol[0], "一人"
    else:
        winner, kind = None, "流れ"
    if winner is not None:
        mon[winner] += pot
        pot = 0
    return {"mon": mon, "winner": winner, "next_dealer": winner or dealer, "multiplier": mult,
            "carry": carry, "pot": pot, "kind": kind}


@dataclass
class SeatedRound:
    """One simulated round of a night of 3 to 6: the round file, every seat's dealt hand, the piles,
    and the cards left on the table and in the stock at the end (with the piles: all 48)."""

    round: dict
    dealt: dict[str, list[str]]
    piles: dict[str, list[str]]
    played_out: bool
    table: list[str]
    stock: list[str]
    volunteers: list[str]
    hands_left: dict[str, list[str]]


def simulate_seated(
    rng: random.Random | int,
    players: Sequence[str],
    dealer: str,
    *,
    drop_chance: float = 0.4,
    forced_three: bool = False,
    split: bool = False,
    stop_chance: float = 0.5,
    cancel_chance: float = 0.2,
) -> SeatedRound:
    """Deal 7 to every seat and 6 to the field (redealt on 場四), run the dropout phase from the 親
    (each drops with ``drop_chance``; under ``forced_three`` nobody drops once only three could still
    play), put the hands of those out under the stock, and play TRADITIONAL §4 among the three or two
    volunteers (nothing is played with fewer, or two under ``split``)."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    players = list(players)
    n = len(players)
    order = [players[(players.index(dealer) + i) % n] for i in range(n)]
    while True:
        pool = list(DECK)
        rng.shuffle(pool)
        field_cards = [pool.pop() for _ in range(6)]
        if all(k < 4 for k in Counter(month(c) for c in field_cards).values()):
            break
    dealt = {p: [pool.pop() for _ in range(7)] for p in order}
    vol: list[str] = []
    dropped: list[str] = []
    if n == 3:
        vol = list(players)
    else:
        for i, p in enumerate(order):
            if len(vol) == 3:
                continue
            could = len(vol) + n - i
            if not (forced_three and could <= 3) and rng.random() < drop_chance:
                dropped.append(p)
            else:
                vol.append(p)
    out = [p for p in order if p not in vol]
    stock = [c for p in out for c in dealt[p]] + pool  # under the stock: drawn last
    playing = vol if len(vol) == 3 or (len(vol) == 2 and not split) else []
    hands = {p: list(dealt[p]) for p in playing}
    piles: dict[str, list[str]] = {p: [] for p in playing}
    table = list(field_cards)
    sage: list[str] = []
    ended: str | None = None
    how: str | None = None

    def place(player: str, c: str) -> bool:
        nonlocal ended, how
        same = [f for f in table if month(f) == month(c)]
        if not same:
            table.append(c)
            return False
        taken = same if len(same) == 3 else [rng.choice(same)]
        before = fudawiki_dekiyaku(piles[player])
        for t in taken:
            table.remove(t)
        piles[player].extend(taken + [c])
        if not fudawiki_dekiyaku(piles[player]) - before:
            return False
        if rng.random() < stop_chance:
            ended, how = player, "shoubu"
            return True
        if player not in sage:
            sage.append(player)
        return False

    done = not playing
    for _ in range(7):
        if done:
            break
        for player in playing:
            if player in sage and rng.random() < cancel_chance:
                ended, how = player, "cancel"
                done = True
                break
            hand = hands[player]
            if place(player, hand.pop(rng.randrange(len(hand)))) or place(player, stock.pop()):
                done = True
                break
    played_out = bool(playing) and ended is None
    if played_out and len(playing) == 3:
        assert not table and not stock, "a played-out round of three leaves nothing on the table"
    rnd: dict = {"players": players, "dealer": dealer, "field": field_cards}
    if dropped:
        rnd["dropped"] = rng.sample(dropped, len(dropped))  # in any order
    captured = {p: list(piles[p]) for p in playing}
    for p in players:
        if p not in captured and rng.random() < 0.2:
            captured[p] = []  # an empty pile for a seat out is fine
    rnd["captured"] = captured
    shown = [p for p in players if rng.random() < 0.5]
    if shown:
        rnd["hands"] = {p: list(dealt[p]) for p in shown}
    teyaku = {}
    for p in players:
        names = own_teyaku_groups(dealt[p])
        if p not in shown and names and rng.random() < 0.4:
            teyaku[p] = list(names) if len(names) > 1 or rng.random() < 0.5 else names[0]
    if teyaku:
        rnd["teyaku"] = teyaku
    if sage:
        rnd["sage"] = list(sage)
    if ended is not None:
        rnd["ended_by"] = ended
        if how == "cancel":
            rnd["ended_how"] = how
    left = {p: hands.get(p, []) if p in playing else [] for p in players}
    if not playing:
        table, stock = list(field_cards), [c for p in order for c in dealt[p]] + pool  # nothing was played
    return SeatedRound(rnd, dealt, {p: list(piles.get(p, [])) for p in players}, played_out, table, stock, vol, left)
