"""The draft validator: what is wrong or still missing in a round typed so far.

Pure. It knows no rule of its own: it builds on :meth:`Round.from_dict`, the very check a round
file gets, and only tells apart a problem of the answers given from a check that waits for answers
still to come (the 48 cards of a played-out round, a 下げ caller's pile not typed yet). Every
problem has a machine-readable ``code`` and names the field (the key, the player, the month, the
token or card), so the terminal can say it in one line and a web form can mark the card.

A *partial round file* is a round file (CONTRACT §3) holding only what was answered: a pile not
typed yet is absent from ``captured``, an empty pile is an empty list.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .cards import DECK, Card, points, sort_cards
from .lang import L_, N_, Said
from .notation import CardError, format_compact, parse_cards
from .rules import SDIN, Rules
from .scoring import Round, RoundError, where_worded
from .yaku import dekiyaku


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the answers: its code, where (the round file's key, the player, a
    month, the token as typed or the card), and the line that says it at the table (``message``:
    a :class:`~scorekeeper.lang.Said`, which each phone words again in its own language from the
    ``said`` of :meth:`to_json`)."""

    code: str
    key: str
    message: str
    player: str | None = None
    month: int | None = None
    token: str | None = None
    card: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if v is not None}
        message = self.message
        out["message"] = str(message)
        out["said"] = (message.to_json() if isinstance(message, Said)
                       else {"t": "{text}", "args": {"text": str(message)}, "text": str(message)})
        return out


@dataclass
class Verdict:
    """What :func:`check_draft` found: the problems (the first is the one to fix), what is still
    to come, and the round once every answer is in and checks out."""

    problems: list[Problem] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    round: Round | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "complete": self.round is not None,
                "problems": [p.to_json() for p in self.problems], "missing": list(self.missing)}


def cards_of(codes: Sequence[str] | str | None) -> list[Card]:
    """The cards of an answer; nothing, or a blank line, is no cards."""
    if not codes or (isinstance(codes, str) and not codes.strip()):
        return []
    return parse_cards(codes)


def where_said(where: str) -> Any:
    """A round file's key, said for the person at the table (a message, worded where it is read;
    a key of no question as it is)."""
    head, _, player = where.partition(".")
    if player:
        if head == "hands":
            return L_("{player}'s hand", player=player)
        if head == "teyaku":
            return L_("{player}'s 手役", player=player)
        if head in ("captured", "points", "kasu", "dekiyaku"):
            return L_("{player}'s pile", player=player)
        if head == "liable":  # liable.RECEIVER.YAKU
            return Said(_KEYS[head])
        return where
    if where in ("field", "field_given"):
        return L_("場札 field")
    if where == "dealer":
        return L_("親")
    if where in _KEYS:
        return Said(_KEYS[where])
    return where_worded(where)


#: the round file's other keys, said for the person at the table in the game's words
_KEYS = {"players": N_("the players"), "dropped": N_("who dropped"), "pot": N_("pot"), "captured": N_("the piles"),
         "points": N_("the piles"), "dekiyaku": N_("the piles"), "unasked": N_("the piles not asked"),
         "hands": N_("the hands"), "teyaku": N_("手役"), "kasu": N_("素十六's kasu"),
         "ended_by": N_("who ended the round"), "sage": N_("下げ"), "ended_how": N_("how the round ended"),
         "carry": N_("the multipliers waiting"), "liable": N_("責任 (who fed it)"), "mizuten": N_("みずてん"),
         "blank": N_("the 白札's holder")}


def check_draft(data: Mapping[str, Any], *, rules: Rules = SDIN, players: Sequence[str] | None = None) -> Verdict:
    """Check a partial round file: a :class:`Verdict` of its problems, its missing answers, and
    the round when it is whole and checks out."""
    players = list(players if players is not None else data.get("players") or [])
    missing = _missing(data, players)
    try:
        rnd = Round.from_dict(dict(data), rules=rules, players=players or None)
    except RoundError as e:
        if _waits(e, data, players, rules):
            return Verdict(_so_far(data, rules), missing)
        return Verdict([_problem(e, data, rules)], missing)
    if rnd.redeal:
        return Verdict([], [], rnd)
    return Verdict([], missing, rnd if not missing else None)


def _missing(data: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    out = [k for k in ("dealer", "field") if data.get(k) is None]
    if len(players) == 7 and data.get("blank") is None:
        out.insert(0, "blank")
    piles = given_piles(data)
    return out + [f"captured.{p}" for p in players if p not in piles]


def _waits(e: RoundError, data: Mapping[str, Any], players: Sequence[str], rules: Rules) -> bool:
    """Is ``e`` a check that needs answers still to come?"""
    piles = given_piles(data)
    if e.where == "field":
        return "field" not in data
    if e.where == "dealer":
        return data.get("dealer") is None
    if e.where == "blank":  # seven seated: the 白札's holder is the first answer (TRADITIONAL §11.5)
        return data.get("blank") is None
    if e.code == "incomplete":  # a played-out round's 48 cards: once every pile is in
        return any(p not in piles for p in players)
    if e.code == "no_dekiyaku":  # that player's pile holds a 出来役: once it is in
        return without_yaku(e.where, data, rules) not in piles
    return False


def given_piles(data: Mapping[str, Any]) -> set[str]:
    """The players whose pile is given: by its cards (``captured``), its points (``points``) or
    its 出来役's names (``dekiyaku``), or said not asked (``unasked``)."""
    return {*(data.get("captured") or {}), *(data.get("points") or {}), *(data.get("dekiyaku") or {}),
            *(data.get("unasked") or ())}


def without_yaku(role: str, data: Mapping[str, Any], rules: Rules) -> str | None:
    """The player found holding no 出来役 in ``role`` (the ender, or the first such 下げ caller,
    a pile not typed yet counting as empty)."""
    if role == "ended_by":
        return data.get("ended_by")
    sage = data.get("sage") or []
    piles = data.get("captured") or {}
    for who in [sage] if isinstance(sage, str) else sage:
        if not dekiyaku(cards_of(piles.get(who)), rules):
            return who
    return None


def _so_far(data: Mapping[str, Any], rules: Rules) -> list[Problem]:
    """RULES §7's last line for the piles typed so far, while others are still to come (the
    round's own check makes it once every pile is in, after its 48-card check)."""
    ended = data.get("ended_by")
    sage = data.get("sage") or ()
    sage = (sage,) if isinstance(sage, str) else tuple(sage)
    for player, codes in (data.get("captured") or {}).items():
        try:
            held = dekiyaku(cards_of(codes), rules)
        except CardError:
            continue
        if (player == ended or player in sage) and not held:
            role = "ended_by" if player == ended else "sage"
            return [Problem("no_dekiyaku", role, role_problem(player, role), player=player)]
        if held and player != ended and player not in sage:
            return [Problem("unclaimed", f"captured.{player}", holder_problem(player, held), player=player)]
    return []


def _problem(e: RoundError, data: Mapping[str, Any], rules: Rules) -> Problem:
    """``e`` as a :class:`Problem`, said for the table and naming the player whose pile is off."""
    head, _, player = e.where.partition(".")
    who = player or None
    if e.code == "incomplete":
        message = not_264(data)
    elif e.code == "no_dekiyaku":
        who = without_yaku(e.where, data, rules) or "?"
        message = role_problem(who, e.where)
    elif e.code == "unclaimed":
        message = holder_problem(player, dekiyaku(cards_of(data["captured"][player]), rules))
    else:
        problem = e.problem
        if e.code == "deck" and isinstance(problem, Said):  # the places a card is in, said as the piles' owners
            args = {k: [where_said(w) for w in v] if k == "places" else v for k, v in problem.args}
            problem = Said(problem.template, args)
        message = L_("{where}: {problem}", where=where_said(e.where), problem=problem)
    return Problem(e.code, e.where, message, player=who, month=e.month, token=e.token, card=e.card)


def role_problem(player: str, role: str) -> Said:
    if role == "ended_by":
        return L_("{player} ended the round, but {player}'s pile holds no 出来役 "
                  "(a card in the wrong pile? or back to how the round ended)", player=player)
    return L_("{player} declared 下げ, but {player}'s pile holds no 出来役 "
              "(a card in the wrong pile? or back to how the round ended)", player=player)


def holder_problem(player: str, held: Sequence[str]) -> Said:
    return L_("{player}'s pile holds {yaku}, but {player} neither ended the round nor "
              "declared 下げ (a card in the wrong pile? or back to how the round ended)", player=player,
              yaku="・".join(held))


def not_264(data: Mapping[str, Any]) -> Said:
    """The 48-card check said with each pile's points and the cards in no pile."""
    piles = {p: cards_of(v) for p, v in (data.get("captured") or {}).items()}
    counted = dict(data.get("points") or {})
    made = {p: counted[p] if p in counted else points(piles.get(p, [])) for p in (*piles, *counted)}
    total = sum(made.values())
    each = " + ".join(f"{p} {n}" for p, n in made.items())
    if counted:
        return L_("a played-out round's piles make 264, these make {total} ({each}). A pile miscounted? back to "
                  "fix it, or to say who stopped", total=total, each=each)
    missing = sort_cards((Counter(DECK) - Counter(c for pile in piles.values() for c in pile)).elements())
    named = " ".join(f"{c.code} {c.ja}" for c in missing) if len(missing) <= 4 else format_compact(missing)
    return L_("a played-out round's piles make 264, these make {total} ({each}); in no pile: "
              "{cards}. A capture left out? back to fix a pile, or to say who stopped", total=total, each=each,
              cards=named)
