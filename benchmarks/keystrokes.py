"""Keystrokes of typing a night at the terminal: the bundled night and a simulated 5-seat night.

Each round is fed to the terminal's entry (:class:`scorekeeper.entry.RoundEntry`) as typed input,
answering each prompt as it comes (so the same script counts any version of the entry: run it
with ``PYTHONPATH`` at an older checkout for "before"). A keystroke is a character typed, and
Enter: Enter alone takes a question's default (the proposed 親, nobody, played out, save).

Two ways of typing the piles:
- ``cards``: every pile card by card in the compact notation (``1hk 3rkk``), the last pile of a
  played-out round of three as ``rest``: the old way, and every pile the entry asks;
- ``counted``: the field by its 光 alone (``=8h``, ``=`` for none: they alone set the
  multiplier), a player by seat number, a pile by its counted points (``95``, the shortest of
  ``=95``, ``95点``) wherever the money needs only the points, under SDIN a hand by its 手役's romaji name (``sanbon``),
  a 出来役 holder's pile by its 出来役's names in romaji (``akatan``), the cards only where a bonus
  reads them (飛び込み), the last pile ``rest``; a pile the entry does not ask is not typed.

Otherwise hands are typed as the round file has them (the dealt cards or the 手役's name). Every round's amounts are checked against the round file scored on its own: the money
must not change with the way it is typed.

    python benchmarks/keystrokes.py                  # both ways, both nights
    python benchmarks/keystrokes.py --house          # and the 5-seat night again with みずてん and 法度 on
    PYTHONPATH=/path/to/old python benchmarks/keystrokes.py --way cards   # the old entry
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from simulator import simulate_seated  # noqa: E402

from scorekeeper.cards import tally_low, tally_of  # noqa: E402
from scorekeeper.entry import RoundEntry  # noqa: E402
from scorekeeper.lang import in_english  # noqa: E402
from scorekeeper.notation import format_compact, parse_cards  # noqa: E402
from scorekeeper.rules import profile  # noqa: E402
from scorekeeper.scoring import Round, nameable, score  # noqa: E402
from scorekeeper.yaku import YAKU_ALIASES, teyaku_all  # noqa: E402

GOAL_PLAIN = 30  # a plain played-out round of three, with counted piles
GOAL_STOP = 25  # a round ended by a 出来役


def cards_text(codes: Any) -> str:
    return format_compact(parse_cards(codes)) if codes else ""


class Typist:
    """Answers the entry's prompts for one round file; counts what it types."""

    def __init__(self, data: dict, rules: Any, way: str) -> None:
        self.data, self.rules, self.way = data, rules, way
        self.rnd = Round.from_dict(data, rules=rules)
        self.lines: list[str] = []

    def __call__(self, prompt: str) -> str:
        line = self.answer(prompt)
        self.lines.append(line)
        if len(self.lines) > 100:
            raise SystemExit(f"the entry keeps asking: {prompt!r} after {self.lines[-3:]}")
        return line

    @property
    def keystrokes(self) -> int:
        return sum(len(line) + 1 for line in self.lines)

    def answer(self, prompt: str) -> str:
        d, rnd = self.data, self.rnd
        after = prompt.partition(" ")[2]
        who = max((p for p in d["players"] if after.startswith(p)), key=len, default=None)
        if prompt.startswith("親"):
            return "" if f"[{rnd.dealer}]" in prompt else self.player(rnd.dealer)
        if prompt.startswith("場札"):
            if self.way == "counted":  # only the 光 set the multiplier: = and them (= alone: none)
                return "=" + format_compact([c for c in rnd.field if c.points == 20])
            return cards_text(d["field"])
        if prompt.startswith("席"):
            return "d" if who in rnd.dropped else ""
        if prompt.startswith("手役"):
            names = list(rnd.declared.get(who, ()))
            if self.way == "counted" and self.rules.name == "sdin":  # the 手役's name pays as its hand
                held = names or (list(teyaku_all(rnd.hands[who], self.rules)) if who in rnd.hands else [])
                return " ".join(min(YAKU_ALIASES.get(n, (n,)), key=len) for n in held)
            return " ".join(x for x in (cards_text(d.get("hands", {}).get(who)), *names) if x)
        if prompt.startswith("下げ"):
            return " ".join(map(self.player, rnd.sage))
        if prompt.startswith("ended by"):
            return self.player(rnd.ended_by) if rnd.ended_by else ""
        if prompt.startswith("勝負 or cancel"):
            return "c" if rnd.ended_how == "cancel" else ""
        if prompt.startswith("札"):
            return self.pile(who, "(or rest)" in prompt)
        if prompt.startswith("みずてん"):  # TRADITIONAL §11.2: y, or Enter for none
            return "y" if getattr(rnd, "mizuten", None) else ""
        if prompt.startswith("責任"):  # TRADITIONAL §11.1: who fed it, or Enter
            fed = set(getattr(rnd, "liable", {}).get(self.receiver(prompt), {}).values())
            return self.player(fed.pop()) if fed else ""
        if prompt.startswith("白札"):
            return self.player(rnd.blank)
        if prompt.startswith("素十六"):
            big = [p for p in rnd.playing if tally_low(rnd.piles[p]) >= self.rules.sujiroku_from]
            return f"{self.player(big[0])} {tally_low(rnd.piles[big[0]])}" if big else ""
        if "[y/N]" in prompt:  # a 親 other than the chain's: yes, they dealt
            return "y"
        return ""  # save? and 飛び込み's offer: Enter

    def receiver(self, prompt: str) -> str | None:
        """The player a 責任 question names (``責任 Ben's 赤短: …``)."""
        return max((p for p in self.data["players"] if prompt.startswith(f"責任 {p}'s")), key=len, default=None)

    def player(self, name: str) -> str:
        """A player as typed: the counted way by seat number (``2``), the old way by name."""
        return str(self.data["players"].index(name) + 1) if self.way == "counted" else name

    def pile(self, who: str, rest: bool) -> str:
        rnd = self.rnd
        codes = self.data.get("captured", {}).get(who)
        if self.way == "cards":
            return "rest" if rest else cards_text(codes)
        from scorekeeper.scoring import pile_needed  # the counted way needs the entry of issue 26

        mizuten = {"mizuten": rnd.mizuten} if getattr(rnd, "mizuten", None) else {}  # §11.2: its declarer's pile
        need = pile_needed(self.rules, who, rnd.ended_by, rnd.sage, rnd.shown.get(who), rnd.declared.get(who), **mizuten)
        if rest and need == "points":
            return "rest"
        if need == "dekiyaku" and rnd.held_dekiyaku[who] and set(rnd.held_dekiyaku[who]) <= set(nameable(self.rules)):
            return " ".join(min(YAKU_ALIASES.get(n, (n,)), key=len) for n in rnd.held_dekiyaku[who])
        if need == "points":
            return str(rnd.card_points(who))
        return cards_text(codes)


def money(result: Any) -> tuple:
    return tuple(sorted((p, r.mon) for p, r in result.players.items())), result.payments


def type_night(rounds: list[dict], rules: Any, way: str) -> list[dict]:
    """Each round typed: its keystrokes, its kind, and whether the amounts came out the same."""
    out = []
    for data in rounds:
        typist = Typist(data, rules, way)
        con = Console(file=io.StringIO(), width=160, color_system=None)
        entry = RoundEntry(list(data["players"]), typist.rnd.dealer, typist, con, rules=rules)
        outcome = in_english(entry.run)  # the typist reads the English prompts
        same = money(outcome.result) == money(score(typist.rnd, rules))
        kind = ("seated" if len(data["players"]) > 3 else
                "stop" if typist.rnd.ended_by else "sage" if typist.rnd.sage else "plain")
        out.append({"keystrokes": typist.keystrokes, "lines": len(typist.lines), "kind": kind, "same": same})
    return out


def bundled_night() -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "samples" / "night").glob("*.json"))]


def seated_night(seed: int = 26) -> list[dict]:
    """Twelve simulated rounds of five seated under fudawiki, each standalone (nothing waits)."""
    rng = random.Random(seed)
    players = ["Aki", "Ben", "Chie", "Dan", "Eri"]
    rounds, dealer = [], players[0]
    while len(rounds) < 12:
        data = simulate_seated(rng, players, dealer).round
        data = {k: v for k, v in data.items() if k not in ("carry", "pot")}
        if Round.from_dict(data, rules=profile("fudawiki")).redeal:
            continue
        rounds.append(data)
        dealer = score(Round.from_dict(data, rules=profile("fudawiki")), profile("fudawiki")).next_dealer
    return rounds


HOUSE = """base = "fudawiki"
name = "mizuten-hatto"
mizuten = "fudawiki"
liability = true
"""


def house_night(rounds: list[dict]) -> tuple[list[dict], Any]:
    """The simulated night again under FudaWiki's みずてん and 法度 (TRADITIONAL §11.1–11.2): the
    night's 親 declares みずてん in every round they play, and every liable 出来役 or 飛び込み was fed
    by the first opponent in turn order."""
    from scorekeeper.house import from_data
    from scorekeeper.scoring import liable_candidates
    import tomllib

    rules = from_data(tomllib.loads(HOUSE))
    out = []
    for data in rounds:
        data = dict(data)
        if data["dealer"] not in data.get("dropped", ()):
            data["mizuten"] = True
        rnd = Round.from_dict(data, rules=rules)
        fed = {p: {n: next(o for o in rnd.playing if o != p) for n in names}
               for p, names in liable_candidates(rnd).items()}
        if fed:
            data["liable"] = fed
        out.append(data)
    return out, rules


def summary(name: str, way: str, typed: list[dict]) -> dict:
    by_kind: dict[str, list[int]] = {}
    for t in typed:
        by_kind.setdefault(t["kind"], []).append(t["keystrokes"])
    return {"night": name, "way": way, "rounds": len(typed), "keystrokes": sum(t["keystrokes"] for t in typed),
            "per_round": round(statistics.mean(t["keystrokes"] for t in typed), 1),
            "by_kind": {k: {"rounds": len(v), "median": statistics.median(v), "max": max(v)} for k, v in by_kind.items()},
            "amounts_unchanged": all(t["same"] for t in typed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--way", choices=["cards", "counted", "both"], default="both")
    ap.add_argument("--json", action="store_true", help="one JSON object per night and way")
    ap.add_argument("--house", action="store_true", help="also the 5-seat night with みずてん and 法度 on")
    args = ap.parse_args()
    ways = ["cards", "counted"] if args.way == "both" else [args.way]
    nights = [("bundled (3 seated, sdin)", bundled_night(), profile("sdin")),
              ("simulated (5 seated, fudawiki)", seated_night(), profile("fudawiki"))]
    if args.house:
        nights.append(("the same, みずてん + 法度 on", *house_night(seated_night())))
    ok = True
    for name, rounds, rules in nights:
        for way in ways:
            s = summary(name, way, type_night(rounds, rules, way))
            ok &= s["amounts_unchanged"]
            if args.json:
                print(json.dumps(s, ensure_ascii=False))
                continue
            kinds = ", ".join(f"{k} {v['rounds']}× median {v['median']} max {v['max']}" for k, v in s["by_kind"].items())
            print(f"{name:32} {way:8} {s['keystrokes']:5} keystrokes, {s['per_round']:6} a round ({kinds})"
                  f"{'' if s['amounts_unchanged'] else '  AMOUNTS CHANGED'}")
    if not args.json:
        print(f"goal: a plain round of three ≤ {GOAL_PLAIN} keystrokes with counted piles, a stop round ≤ {GOAL_STOP}")
    if not ok:
        raise SystemExit("the amounts changed with the way the piles were typed")


if __name__ == "__main__":
    main()
