"""The round's questions: one pure model that the terminal and the phones both draw.

Given the table (:class:`Givens`: who is seated, the rule profile, the night's state, the
proposed 親) and the answers typed so far (text as typed, by question) with the piles their
players have said are complete, :func:`view` says:

- the steps of the round in the table's order: ``dealer``, ``field``, ``seat:NAME`` (four to six
  seated), ``hand:NAME`` (the forced-out players' first), ``sage``, ``ended`` (as play goes),
  ``how`` (勝負 or cancel, where it can be), ``pile:NAME`` (in a round ended by a 出来役, only the
  piles that can change the money), ``kasu`` (素十六's count of a counted pile);
- for each: its status (``open``: to answer; ``waiting``: a step it depends on is not settled;
  ``answered``; ``typing``: a pile its player has not said is complete; ``refused``), who answers
  it, the answers allowed now (``choices``: what a button sends, worded), its label and help,
  and its problem (the draft validator's, with its code), hard or soft;
- what the round stands at: the field's class and the multiplier, with what is carried and what
  waits, the fees of those who dropped, the pot;
- once every step is complete: the round file and its result.

Which steps are open is set by what each depends on, not by the terminal's order: the seats come
before the hands, the ending and the piles (until the seating is settled those steps are not
asked at all), the field before the piles, the ending before ``how``. Each answer is checked
against the answers before it in the table's order, by building the round file answered so far
and handing it to :func:`scorekeeper.check.check_draft`, the very check a round file gets; an
answer that does not check out is left out of the rest. A pile counts for the rest only once its
player has said it is complete.

Pure: no rich, no I/O. Every word comes from :mod:`scorekeeper.words`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Collection, Mapping, Sequence

from .cards import DECK, FACES, MONTHS, Card, points, sort_cards, tally_of
from .check import Problem, cards_of, check_draft
from .names import (BACK_WORDS, HELP_WORDS, NONE_WORDS, REST_WORDS, PlayerError, fold,
                    resolve_player)
from .notation import CardError, format_compact, parse_cards, split_tokens
from .rules import SDIN, Rules
from .scoring import (DECK_POINTS, FIELD_LIGHTS, MAX_KASU, FIELD_READINGS, NightState, Result, Round, Seating, RoundError, dekiyaku_terms, fee_mon, field_class, liable_candidates, pile_needed, playing_of,
                      round_multiplier, score, seat, may_drop)
from .lang import quote
from .words import Msg, both, msg
from . import catalog, steps as _steps
from .yaku import not_teyaku, teyaku_hint, teyaku_name

SHOUBU_WORDS = frozenset({"shoubu", "shobu", "勝負", "しょうぶ", "s"})
CANCEL_WORDS = frozenset({"cancel", "c", "キャンセル", "きゃんせる"})
PLAY_WORDS = frozenset({"", "play", "p", "打つ", "うつ", "出る", "でる"})
DROP_WORDS = frozenset({"drop", "d", "降り", "おり", "降りる", "おりる"})

#: checks that wait for a pile to be typed in full: kept while its player is still typing it
SOFT = frozenset({"incomplete", "no_dekiyaku", "unclaimed", "odd"})

#: between 下げ callers typed on one line: a comma of either width (spaces are tried after)
_CALLER_SEP = re.compile(r"\s*[,、，]\s*")


def _bracketed(alias: str) -> str:
    """A spelling with brackets as a pattern: any spaces around them, either width."""
    return "".join(r"\s*[(（]\s*" if ch in "(（" else r"\s*[)）]" if ch in ")）" else re.escape(ch)
                   for ch in alias.replace(" ", ""))


#: the 手役 spelled with brackets (赤 (短カス), CONTRACT §2's spelling with a space: the catalog's
#: aliases), each kept one token among several 手役 names, read as its name
_BRACKETED = tuple((re.compile(p), d.name) for d in catalog.of_kind(catalog.TEYAKU)
                   for p in dict.fromkeys(_bracketed(a) for a in d.aliases if "(" in a or "（" in a))


#: Card codes, Japanese names and month flowers: the words a card question takes
CARD_WORDS: tuple[str, ...] = tuple([c.code for c in FACES] + [c.ja for c in FACES] + [m.ja for m in MONTHS])


class AnswerError(ValueError):
    """An answer that can't be taken: one line, shown before the question is asked again
    (``message``: a :class:`~scorekeeper.lang.Said`, worded again where it is read)."""

    def __init__(self, message: Any) -> None:
        super().__init__(message)
        self.message = message


def is_help(text: str) -> bool:
    return fold(text) in HELP_WORDS


def is_back(text: str) -> bool:
    return fold(text) in BACK_WORDS


def is_rest(text: str | None) -> bool:
    return text is not None and fold(text) in REST_WORDS


def kind_of(key: str) -> tuple[str, str | None]:
    """``pile:Aki`` -> (``pile``, ``Aki``); ``field`` -> (``field``, None)."""
    kind, _, player = key.partition(":")
    return kind, player or None


def said(key: str) -> Msg:
    """A question named in an error line or a status: ``Ben's pile``."""
    kind, player = kind_of(key)
    known = _steps.KINDS.get(kind)
    return known.said(player) if known is not None else msg("r.waits_for", said=key)


@dataclass(frozen=True)
class Givens:
    """What a round is asked against: the seated ``players`` in seat order, the profile, the
    night's ``state`` (None: a standalone round), the proposed 親 (``dealer``: the last round's
    winner, or the stored round's for an edit), the 親 the chain gives (``chain``: another is taken
    only after a yes), and each question's default text (``defaults``: an edit's stored round)."""

    players: tuple[str, ...]
    dealer: str
    rules: Rules = SDIN
    state: NightState | None = None
    chain: str | None = None
    defaults: Mapping[str, str] = field(default_factory=dict)

    @property
    def seated(self) -> bool:
        """More than three at the table: each round has its play-or-drop questions (TRADITIONAL §7)."""
        return len(self.players) > 3

    @property
    def seven(self) -> bool:
        """Seven at the table: each round the 白札's holder sits out (TRADITIONAL §11.5)."""
        return len(self.players) == 7

    @property
    def many_callers(self) -> bool:
        """Any number of players may call 下げ (``fudawiki``), not one (SDIN)."""
        return self.rules.sage_callers.many

    @property
    def grouped(self) -> bool:
        """A hand scores the best 手役 of each group (``fudawiki``), not its single highest."""
        return self.rules.teyaku_mode.grouped

    def numbered(self, players: Sequence[str] | None = None) -> str:
        """``1 Aki, 2 Ben, 4 Dan``: players with their seat numbers in the night."""
        chosen = set(self.players if players is None else players)
        return ", ".join(f"{n} {p}" for n, p in enumerate(self.players, 1) if p in chosen)

    def callers_example(self, playing: Sequence[str] = ()) -> tuple[str, str]:
        """An example answer of two 下げ callers among those who play (default: the first seats),
        the second, then the first: by name, and by seat number (``Ben Aki``, ``2,1``)."""
        two = [p for p in self.players if p in playing][:2] if playing else list(self.players[:2])
        return callers_text(two[::-1]), ",".join(str(self.players.index(p) + 1) for p in two[::-1])


@dataclass(frozen=True)
class Choice:
    """One answer a front may offer as a button: its label, the text it sends, whether it is the
    answer now, and the yes it needs first (a 親 other than the chain's)."""

    label: Msg
    answer: str
    on: bool = False
    confirm: Msg | None = None
    #: the answer Enter gives at the terminal (a page offers it first)
    default: bool = False
    #: the player the choice names
    player: str | None = None
    #: the item the choice adds or takes away, where the answer is a set of them (several 下げ
    #: callers, a pile's 出来役 by name): a page works out the answer from its own taps not sent
    #: yet, so that two taps made before the first is answered both count
    toggle: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label.to_json(), "answer": self.answer, "on": self.on,
                               "default": self.default, "player": self.player}
        if self.confirm is not None:
            out["confirm"] = self.confirm.to_json()
        if self.toggle is not None:
            out["toggle"] = self.toggle
        return out


@dataclass
class Step:
    """One question of the round and where it stands."""

    key: str
    status: str = "open"
    #: the answer as typed (None: not answered)
    text: str | None = None
    #: the answer in canonical form, once it checks out
    value: Any = None
    #: the canonical answer as text (a terminal's default)
    shown: str = ""
    problem: Problem | None = None
    #: a problem that waits for the pile to be typed in full (its player has not said it is)
    soft: bool = False
    #: a pile its player has said is complete (a terminal's answer always is)
    done: bool = False
    rest: bool = False
    label: Msg | None = None
    #: the question as a page titles it (its buttons say the rest; no keys to press)
    title: Msg | None = None
    choices: list[Choice] = field(default_factory=list)
    #: the words the question takes (a terminal completes them)
    words: tuple[str, ...] = ()
    #: the player's part in the round once the seating is settled (``played``, ``forced_out``)
    role: str | None = None
    #: a note on the answer (飛び込み wants the whole hand) and the cards shown for a 手役 by name
    note: Msg | None = None
    shown_cards: str | None = None
    default: str = ""
    #: what of a pile can change the money (:func:`~scorekeeper.scoring.pile_needed`): a page
    #: offers its counted points only where they are ``points``
    need: str | None = None

    @property
    def kind(self) -> str:
        return kind_of(self.key)[0]

    @property
    def player(self) -> str | None:
        return kind_of(self.key)[1]

    @property
    def settled(self) -> bool:
        return self.status == "answered"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key, "kind": self.kind, "box": _steps.kind(self.kind).box, "player": self.player,
            "status": self.status,
            "text": self.text, "value": _jsonable(self.value), "shown": self.shown, "done": self.done,
            "rest": self.rest, "label": self.label.to_json() if self.label else None,
            "title": self.title.to_json() if self.title else None,
            "said": said(self.key).to_json(), "choices": [c.to_json() for c in self.choices],
            "problem": None, "default": self.default, "role": self.role,
        }
        for name in _steps.kind(self.kind).json_fields:
            out[name] = getattr(self, name)
        if self.problem is not None:
            out["problem"] = {**self.problem.to_json(), "text": self.problem.message, "soft": self.soft}
        if self.note is not None:
            out["note"] = self.note.to_json()
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value


@dataclass(frozen=True)
class Stand:
    """What the round stands at: the field's class, the multiplier the round takes (carried from
    an earlier round or its own), what waits after it, the fees of those who dropped (in order),
    and the pot with them."""

    field_class: str | None
    multiplier: int | None
    carried: bool
    waiting: tuple[int, ...]
    fees: tuple[tuple[str, int], ...]
    pot: int
    rules: Rules = SDIN

    def line(self) -> Msg:
        """``絶場 (ぜつば) ×2 (carried over), ×4 waiting``: the one wording of every screen."""
        return stand_line(self.field_class, self.multiplier, self.carried, self.waiting, self.rules)

    def to_json(self) -> dict[str, Any]:
        return {"field_class": self.field_class, "multiplier": self.multiplier, "carried": self.carried,
                "waiting": list(self.waiting),
                "fees": [{"player": p, "mon": m, "line": msg("stand.fee", player=p, mon=m).to_json()}
                         for p, m in self.fees],
                "pot": self.pot, "pot_line": msg("stand.pot", mon=self.pot).to_json(), "line": self.line().to_json()}


def stand_line(fc: str | None, multiplier: int | None, carried: bool, waiting: Sequence[int], rules: Rules) -> Msg:
    """The field and the multiplier said, with what waits: ``絶場 (ぜつば) ×2 (carried over), ×4
    waiting``; before the field, what is carried (``×2 (carried over)``)."""
    if fc is None:
        line = msg("stand.waits", multiplier=multiplier) if carried else None
    else:
        kind = ("stand.field" if not carried else "stand.carried" if rules.field.carries else "stand.stacked")
        line = msg(kind, field_class=fc, reading=FIELD_READINGS[fc], multiplier=multiplier)
    wait = " ".join(f"×{m}" for m in waiting)
    if not wait:
        return line if line is not None else msg("stand.waiting", waiting="")
    if line is None:
        return msg("stand.waiting", waiting=wait)
    return msg("stand.and_waiting", stand=line, waiting=wait)


@dataclass
class RoundView:
    """The round as its questions stand: the steps in the table's order, the seating (four to six
    seated), what the round stands at, and once complete the round file and its result."""

    givens: Givens
    steps: list[Step]
    seating: Seating | None
    must: tuple[str, ...]
    stand: Stand
    order: tuple[str, ...]
    values: dict[str, Any]
    redeal: bool = False
    round_file: dict[str, Any] | None = None
    result: Result | None = None
    #: a problem of the whole round once every pile is in (the 48 cards), or of a pile clash
    problems: list[Problem] = field(default_factory=list)

    def step(self, key: str) -> Step | None:
        return next((s for s in self.steps if s.key == key), None)

    @property
    def keys(self) -> list[str]:
        return [s.key for s in self.steps]

    @property
    def complete(self) -> bool:
        return self.result is not None

    @property
    def missing(self) -> list[str]:
        """The steps still to answer (or to finish), in the table's order."""
        return [s.key for s in self.steps if s.status != "answered"]

    @property
    def settled(self) -> bool:
        """The play-or-drop phase is over (always, with three seated)."""
        return self.seating is not None

    def seat_rows(self) -> list[dict[str, Any]]:
        """Each seat from the 親 in turn, with where it stands in the play-or-drop phase: asked
        (its step's ``key``), ``forced`` out, ``must`` play (its drop refused), ``waiting`` for the
        seats before it, ``unasked`` (the seating was settled before its turn), or ``blank``: the
        白札's holder, who sits the round out."""
        g = self.givens
        dealer = self.values.get("dealer", g.dealer)
        start = g.players.index(dealer) if dealer in g.players else 0
        keys = set(self.keys)
        rows = []
        for i in range(len(g.players)):
            p = g.players[(start + i) % len(g.players)]
            key = f"seat:{p}"
            if p == self.values.get("blank"):  # TRADITIONAL §11.5: sits the round out
                state = "blank"
            elif self.seating is not None and p in self.seating.forced_out:
                state = "forced"
            elif key in keys:
                state = "asked"
            elif p in self.must or (g.rules.mizuten.by_pile and p == mizuten_declarer(g, self.values)):
                state = "must"  # its drop refused (forced_three), or みずてん's declarer (§11.2)
            else:
                state = "unasked" if self.settled else "waiting"
            rows.append({"player": p, "key": key if key in keys else None, "state": state, "dealer": p == dealer})
        return rows

    def problem_of(self, key: str) -> Problem | None:
        step = self.step(key)
        return step.problem if step is not None else None

    def to_json(self) -> dict[str, Any]:
        seating = None
        if self.givens.seated:
            s = self.seating
            seating = {"settled": s is not None, "must": list(self.must),
                       "volunteers": list(s.volunteers) if s else [], "dropped": list(s.dropped) if s else [],
                       "forced_out": list(s.forced_out) if s else [], "playing": list(self.order),
                       "line": seating_line(s, self.givens.rules).to_json() if s else None,
                       "forced_line": msg("e.forced", players=list(s.forced_out)).to_json()
                       if s and s.forced_out else None}
        return {
            "steps": [s.to_json() for s in self.steps], "order": list(self.order), "seating": seating,
            "seats": self.seat_rows() if self.givens.seated else [],
            "stand": self.stand.to_json(), "redeal": self.redeal, "complete": self.complete,
            "missing": self.missing, "problems": [{**p.to_json(), "text": p.message} for p in self.problems],
            "result": shown_result(self.result) if self.result is not None else None,
        }


def shown_result(result: Result) -> dict[str, Any]:
    """A round's result as a page shows it: its JSON (CONTRACT §4, §7, §9), and for each player
    ``void``, the 手役 and 出来役 it names that the round does not pay (:meth:`Result.void`: a
    page lists them as void, never as paid), and ``points``, the pile's card points, or None where
    they were never given (a pile by its 出来役's names, not asked, or no pile: a page shows no 0)."""
    out = result.to_json()
    for p, r in out["players"].items():
        r["void"] = list(result.void(p))
        r["points"] = r["card_points"] if r["role"] == "played" and r.get("pile") not in ("named", "unasked") else None
    return out


# ---------------------------------------------------------------------------------------------
# the steps


def seats(g: Givens, values: Mapping[str, Any]) -> tuple[list[str], Seating | None, list[str]]:
    """The play-or-drop questions as far as ``values`` reach: the seat keys to ask (the last
    unanswered when the seating is not settled yet), the seating once it is (None before), and
    the seats that play because :func:`~scorekeeper.scoring.may_drop` (seat's rule) refuses their drop
    (``forced_three``). A seat not asked yet counts as play there, so the questions stop where
    three volunteers have all spoken."""
    dealer = values.get("dealer", g.dealer)
    if dealer not in g.players:
        return [], None, []
    blank = values.get("blank") if g.seven else None
    if g.seven and blank is None:  # the 白札's holder first: the order skips them (TRADITIONAL §11.5)
        return [], None, []
    if mizuten_asked_first(g, values) and "mizuten" not in values:  # the 親 declares before anyone speaks
        return [], None, []
    start = g.players.index(dealer)
    turns = [p for p in (g.players[(start + i) % len(g.players)] for i in range(len(g.players))) if p != blank]
    n = len(turns)
    declarer = mizuten_declarer(g, values)
    keys: list[str] = []
    drops: list[str] = []
    must: list[str] = []
    for i, p in enumerate(turns):
        seating = seat(g.players, dealer, drops, g.rules, blank)
        if len(seating.volunteers) >= 3 and set(seating.volunteers[:3]) <= set(turns[:i]):
            return keys, seating, must
        if p == declarer and g.rules.mizuten.by_pile:  # みずてん's declarer plays: not offered drop (§11.2)
            continue
        if not may_drop(n, len(drops), g.rules):  # dropping is refused here: this seat plays, nothing to ask
            must.append(p)
            continue
        keys.append(f"seat:{p}")
        answer = values.get(f"seat:{p}")
        if answer is None:
            return keys, None, must
        if answer == "drop":
            drops.append(p)
    return keys, seat(g.players, dealer, drops, g.rules, blank), must


def mizuten_asked_first(g: Givens, values: Mapping[str, Any]) -> bool:
    """FudaWiki's みずてん is asked after the field, before the seats: the night's 親 declares
    before looking, unless they hold the 白札 (TRADITIONAL §11.2, §11.5)."""
    return g.rules.mizuten.by_pile and values.get("blank") != values.get("dealer", g.dealer)


def mizuten_declarer(g: Givens, values: Mapping[str, Any]) -> str | None:
    """Who declared みずてん so far (TRADITIONAL §11.2): ``true`` is the night's 親."""
    value = values.get("mizuten")
    return values.get("dealer", g.dealer) if value is True else value if isinstance(value, str) else None


def order(g: Givens, values: Mapping[str, Any]) -> tuple[str, ...]:
    """Who plays the round out, in turn order from the round's 親: the order hands and piles are
    asked in (none for a misdeal, one volunteer or a split pot; none before the seating is settled)."""
    if g.seated:
        seating = seats(g, values)[1]
        return playing_of(seating, g.rules) if seating is not None else ()
    dealer = values.get("dealer", g.dealer)
    start = g.players.index(dealer) if dealer in g.players else 0
    return tuple(g.players[(start + i) % 3] for i in range(3))


def step_keys(g: Givens, values: Mapping[str, Any], typed: Collection[str] = ()) -> list[str]:
    """The questions of the round in the table's order, as far as the answers settle them
    (``typed``: the questions answered, settled or not: a pile typed is kept, asked or not)."""
    keys = [*(("blank",) if g.seven else ()), "dealer", "field"]  # the 白札's holder first (§11.5)
    mizuten = g.rules.mizuten
    if mizuten_asked_first(g, values):
        keys.append("mizuten")
    if g.seated:
        asked, seating, _ = seats(g, values)
        keys += asked
        if seating is None:
            return keys
        if g.rules.forced_out_pay.from_hand:  # 追い込み賃 flat: a forced-out hand changes nothing (§11.3)
            keys += [f"hand:{p}" for p in seating.forced_out]
    playing = order(g, values)
    if not playing:  # a misdeal, one volunteer, a split: nothing is played
        return keys
    if mizuten.on and not mizuten.by_pile:  # 水天: any player who plays, at the start of play
        keys.append("mizuten")
    keys += [f"hand:{p}" for p in playing] + ["sage", "ended"]  # as play goes: 下げ is called before the end
    if may_cancel(g, values):
        keys.append("how")
    keys += [f"pile:{p}" for p in piles_asked(g, values, playing, typed)]
    if kasu_asked(g, values):
        keys.append("kasu")
    keys += [f"liable:{p}" for p in liable_of(g, values)]  # 責任: after a 出来役 that can be liable (§11.1)
    return keys


def liable_of(g: Givens, values: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """What a feeder could be liable for, by receiver, once the rest of the round checks out
    (:func:`~scorekeeper.scoring.liable_candidates`); nothing without 責任."""
    if not g.rules.liability or "ended" not in values:
        return {}
    rest = {k: v for k, v in values.items() if kind_of(k)[0] != "liable"}
    try:
        rnd = Round.from_dict(round_file(g, rest), rules=g.rules, players=g.players,
                              dealer=values.get("dealer", g.dealer))
    except RoundError:
        return {}
    return liable_candidates(rnd)


def piles_asked(g: Givens, values: Mapping[str, Any], playing: Sequence[str], typed: Collection[str] = ()) -> list[str]:
    """The players whose pile is asked: every one until the ending is answered; then only those
    whose pile can change the money (:func:`~scorekeeper.scoring.pile_needed`: in a round ended
    by a 出来役, the ender's; played out after 下げ, the callers'; and a pile a bonus reads), and
    a pile typed all the same."""
    if "ended" not in values or "sage" not in values or (values["ended"] is None and not values["sage"]):
        return list(playing)
    return [p for p in playing if pile_need(g, values, p) is not None or f"pile:{p}" in typed]


def pile_need(g: Givens, values: Mapping[str, Any], player: str) -> str | None:
    """:func:`~scorekeeper.scoring.pile_needed` of the answers so far."""
    hand = values.get(f"hand:{player}") or {}
    cards = hand.get("hand")
    return pile_needed(g.rules, player, values.get("ended"), values.get("sage", ()),
                       tally_of(cards_of(cards)) if cards else None, hand.get("teyaku"), mizuten_declarer(g, values))


def unasked(g: Givens, values: Mapping[str, Any]) -> list[str]:
    """The players whose pile is not asked (nor typed all the same), once the ending says so."""
    playing = order(g, values)
    asked = piles_asked(g, values, playing)
    return [p for p in playing if p not in asked and f"pile:{p}" not in values]


def is_named(value: Any) -> bool:
    """A pile answered by its 出来役's names (``{"dekiyaku": [...]}``)."""
    return isinstance(value, dict)


def is_counted(value: Any) -> bool:
    """A pile answered by its card points (an int), not by its cards (a list of codes)."""
    return isinstance(value, int) and not isinstance(value, bool)


def pile_points(value: Any) -> int:
    """A settled pile's card points: counted, or its cards' face total."""
    return value if is_counted(value) else 0 if is_named(value) else points(cards_of(value))


def kasu_candidates(g: Givens, values: Mapping[str, Any]) -> list[str]:
    """The players whose counted pile could hold 素十六's kasu: a played-out round of three with
    no 下げ (特殊役 are judged), each pile settled, a counted one of that many points or more."""
    playing = order(g, values)
    if (len(playing) != 3 or "素十六" not in g.rules.special or values.get("ended", False) is not None
            or values.get("sage") or any(f"pile:{p}" not in values for p in playing)):
        return []
    return [p for p in playing if is_counted(values[f"pile:{p}"]) and values[f"pile:{p}"] >= g.rules.sujiroku_from]


def kasu_asked(g: Givens, values: Mapping[str, Any]) -> bool:
    """素十六 needs the kasu count of a counted pile: asked once, after the piles (Enter: fewer)."""
    return bool(kasu_candidates(g, values))


def may_cancel(g: Givens, values: Mapping[str, Any]) -> bool:
    """Can the round have ended by cancel? Only where the profile has it and the player who
    ended the round is among the 下げ callers answered (TRADITIONAL §4)."""
    ended = values.get("ended")
    return g.rules.cancel.allowed and ended is not None and ended in values.get("sage", ())


def _depends(key: str) -> tuple[str, ...]:
    """The steps that must be settled before ``key`` is open (beyond being asked at all)."""
    known = _steps.KINDS.get(kind_of(key)[0])
    return known.depends if known is not None else ()


def rest_offered(g: Givens, values: Mapping[str, Any], key: str) -> bool:
    """``rest`` for the last pile of a played-out round of three (a two-player round's piles
    need not hold 48 cards)."""
    playing = order(g, values)
    return (len(playing) == 3 and key == f"pile:{playing[-1]}" and "ended" in values
            and values["ended"] is None and not values.get("sage"))


def rest_of(values: Mapping[str, Any]) -> list[Card]:
    """``rest``: the deck minus the piles settled so far (their cards)."""
    taken = Counter(c for k, v in values.items() if k.startswith("pile:") and isinstance(v, list) for c in cards_of(v))
    return list((Counter(DECK) - taken).elements())


def rest_points(values: Mapping[str, Any]) -> int | None:
    """``rest`` where a pile settled so far is counted: 264 less their points (None: none is)."""
    piles = [v for k, v in values.items() if k.startswith("pile:")]
    if not any(is_counted(v) for v in piles):
        return None
    return DECK_POINTS - sum(pile_points(v) for v in piles)


# ---------------------------------------------------------------------------------------------
# reading one answer


@dataclass
class Reading:
    """One answer read: its canonical value, its text as a default, a note (飛び込み wants the
    whole hand: the cards of the 手役 only were typed), and the round once it is whole."""

    value: Any
    shown: str
    note: Msg | None = None
    shown_cards: str | None = None


def player_of(g: Givens, text: str, allowed: Sequence[str] | None = None) -> str:
    """A player by name (in any case or width), by a name's unique start among ``allowed``, or by
    seat number in the night; one of ``allowed`` (default: everyone seated)."""
    allowed = list(g.players if allowed is None else allowed)
    try:
        who = resolve_player(text, g.players)
    except PlayerError as e:
        try:  # a start that fits two seated may fit only one of those allowed
            who = resolve_player(text, allowed)
        except PlayerError:
            raise AnswerError(msg("r.player", problem=e.message, players=g.numbered(allowed)).said()) from None
    if who not in allowed:
        raise AnswerError(msg("r.not_playing", player=who, players=g.numbered(allowed)).said())
    return who


def callers_text(callers: Sequence[str]) -> str:
    """下げ callers as an answer: spaces between them, or commas where a name holds a space."""
    return (", " if any(" " in c for c in callers) else " ").join(callers)


def read_callers(g: Givens, text: str, allowed: Sequence[str]) -> tuple[str, ...]:
    """下げ callers in the order they first called: names, starts or numbers, separated by
    commas or spaces (a name that holds a space is taken whole)."""
    callers: list[str] = []
    for part in _CALLER_SEP.split(text.strip()):
        if not part:
            continue
        try:
            callers.append(player_of(g, part, allowed))
        except AnswerError:
            callers.extend(_spaced_players(g, part, allowed))
    seen: set[str] = set()
    for who in callers:
        if who in seen:
            raise AnswerError(msg("r.twice", player=who).said())
        seen.add(who)
    if g.rules.sage_callers.refuses(len(callers)):
        raise AnswerError(msg("r.one_caller", players=both(callers), profile=g.rules.name).said())
    return tuple(callers)


def _spaced_players(g: Givens, part: str, allowed: Sequence[str]) -> list[str]:
    """Players typed with spaces between them; the longest run of words that is a name first."""
    words, found, i = part.split(), [], 0
    while i < len(words):
        for j in range(len(words), i, -1):
            run = " ".join(words[i:j])
            if j - i == 1:
                found.append(player_of(g, run, allowed))  # a single word: by start or number too
                break
            same = [p for p in g.players if fold(p) == fold(run)]
            if len(same) == 1:
                found.append(player_of(g, same[0], allowed))
                break
        i = j
    return found


def _is_card(token: str) -> bool:
    try:
        parse_cards(token)
    except ValueError:
        return False
    return True


def _card_hint(token: str) -> bool:
    """Does the card reader have a hint for this token (a mistyped card rather than a 手役)?"""
    try:
        parse_cards(token)
    except CardError as e:
        return e.suggested
    return False


def read_hand(g: Givens, text: str) -> tuple[dict[str, Any] | None, str | None]:
    """A 手役 answer: a dealt hand, a 手役's name, or both (``2trk 4t 6k 7k 10k 三本``); or only
    the cards that make the 手役 (``9t 9k 9k``), taken as its name. Returns the answer (``hand``:
    the cards or None, ``teyaku``: the names or None; None for none) and, for cards taken as a
    name, the cards shown."""
    if not text or fold(text) in NONE_WORDS:
        return None, None
    rules = g.rules
    name = teyaku_name(text, rules)
    if name is not None:
        return {"hand": None, "teyaku": [name]}, None
    for pattern, named in _BRACKETED:
        text = pattern.sub(named, text)
    tokens = split_tokens(text)
    for t in tokens:  # a yaku that is no 手役 (赤短, 総八 …) is said as such, not as "no card"
        if teyaku_name(t, rules) is not None or _is_card(t):
            continue
        if why := not_teyaku(t, rules):
            raise AnswerError(why)
        if (hint := teyaku_hint(t, rules)) is not None and not _card_hint(t):  # a mistyped 手役's name
            raise AnswerError(msg("r.teyaku_hint", text=quote(t), hint=hint).said())
    names = [n for n in (teyaku_name(t, rules) for t in tokens) if n]
    if len(names) > 1 and not g.grouped:
        raise AnswerError(msg("r.single", names=both(names), profile=rules.name).said())
    by_group: dict[str, str] = {}
    for n in names:
        group = rules.group_of(n)
        if group in by_group:
            raise AnswerError(msg("r.same_group", first=by_group[group], second=n, group=group).said())
        by_group[group] = n
    cards = " ".join(t for t in tokens if teyaku_name(t, rules) is None)
    ordered = [by_group[gr] for gr in rules.groups if gr in by_group]
    shown = _shown_teyaku(g, cards)
    if shown is not None:  # fewer than 7 cards, the ones a 手役 needs: its declaration by name
        if ordered and ordered != [shown]:
            raise AnswerError(msg("r.shown_not", cards=cards, shown=shown, names=" ".join(ordered)).said())
        return {"hand": None, "teyaku": [shown]}, cards
    return {"hand": cards or None, "teyaku": ordered or None}, None


def _shown_teyaku(g: Givens, cards: str) -> str | None:
    """The 手役 that fewer than 7 cards make, when they are only the cards it needs (each month
    three or four of them) and make exactly one 手役 of the profile; else None."""
    try:
        shown = cards_of(cards)
    except ValueError:
        return None
    if not 0 < len(shown) < 7 or sorted(set(Counter(c.month for c in shown).values())) not in ([3], [4], [3, 4]):
        return None
    from .yaku import HandShape, shape_teyaku_all

    made = shape_teyaku_all(HandShape.of(shown), g.rules)
    return made[0] if len(made) == 1 else None


def hand_text(value: Mapping[str, Any] | None) -> str:
    if not value:
        return ""
    hand = format_compact(cards_of(value["hand"]))
    return " ".join(x for x in (hand, *(value["teyaku"] or ())) if x)


def read(g: Givens, key: str, text: str, values: Mapping[str, Any]) -> Reading:
    """One answer read into its canonical form (the check against the round comes after).
    Raises :class:`AnswerError` with the re-prompt's line, or a :class:`CardError`."""
    kind, player = kind_of(key)
    return _steps.kind(kind).read(g, player, text, values)


def _field_typed(text: str) -> Any:
    """A field answer as typed, its ``=`` read: the six cards' text, or ``{"lights": text}``."""
    typed = text.strip()
    return {"lights": typed[1:]} if typed[:1] in ("=", "＝") else text


def read_field(text: str) -> Reading:
    """The six field cards, or ``=`` and the field's 光 alone (``=8h``; ``=``: none), the only
    cards its class and multipliers read: ``{"lights": [...]}``."""
    typed = _field_typed(text)
    if not isinstance(typed, dict):
        cards = cards_of(text)
        return Reading(_codes(cards), format_compact(cards))
    cards = cards_of(typed["lights"])
    dark = [c for c in cards if c.points != 20]
    if dark:
        raise AnswerError(msg("r.lights", card=f"{dark[0].code} {dark[0].ja}").said())
    return Reading({"lights": _codes(cards)}, "=" + format_compact(cards))


def field_keys(value: Any) -> dict[str, Any]:
    """The round file's keys of a field answer: its six cards, or its 光 alone, so marked."""
    if isinstance(value, dict):
        return {"field": value["lights"], "field_given": FIELD_LIGHTS}
    return {"field": value}


def field_of(value: Any) -> tuple[list[Card], bool]:
    """A field answer's cards, and whether they are its 光 alone."""
    keys = field_keys(value)
    return cards_of(keys["field"]), "field_given" in keys


def read_kasu(g: Givens, text: str, values: Mapping[str, Any]) -> Reading:
    """素十六's kasu count of a counted pile: nothing (Enter: fewer than 16), or the count,
    after the player's name where two piles could hold it (``Ben 17``)."""
    if not text.strip() or fold(text) in NONE_WORDS:
        return Reading(None, "")
    candidates = kasu_candidates(g, values)
    *name, count = text.split()
    who = player_of(g, " ".join(name), candidates) if name else candidates[0] if len(candidates) == 1 else None
    if who is None or not count.isdecimal():
        raise AnswerError(msg("r.kasu", text=quote(text), players=g.numbered(candidates)).said())
    n = int(count)
    if n < g.rules.sujiroku_from:
        return Reading(None, "")
    if n > min(MAX_KASU, values[f"pile:{who}"]):
        raise AnswerError(msg("r.kasu.most", player=who, most=min(MAX_KASU, values[f"pile:{who}"])).said())
    return Reading((who, n), f"{who} {n}")


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in sort_cards(cards)]


def round_file(g: Givens, values: Mapping[str, Any]) -> dict[str, Any]:
    """The round file (CONTRACT.md §3, §7) of some answers, by question."""
    data: dict[str, Any] = {"players": list(g.players)}
    if g.seated:
        drops = [kind_of(k)[1] for k in seats(g, values)[0] if values.get(k) == "drop"]
        if drops:
            data["dropped"] = drops
        seating = seats(g, values)[1]
        if seating is not None:  # who did not play holds no pile: none is asked
            played = set(playing_of(seating, g.rules))
            data["captured"] = {p: [] for p in g.players if p not in played}
    for key, value in values.items():
        kind, player = kind_of(key)
        _steps.kind(kind).file(data, player, value)
    if "ended" in values and "sage" in values:
        if skipped := unasked(g, values):
            data["unasked"] = skipped
    return data


def label(g: Givens, values: Mapping[str, Any], key: str) -> Msg:
    """The question ``key`` as asked (one table, :mod:`scorekeeper.words`, for every front)."""
    kind, player = kind_of(key)
    return _steps.kind(kind).label(g, values, key, player)


def title(g: Givens, values: Mapping[str, Any], key: str) -> Msg:
    """The question ``key`` as a page titles it: :func:`label` without the keys a terminal
    presses, the choices being buttons there."""
    kind, player = kind_of(key)
    return _steps.kind(kind).title(g, values, key, player)


def words_for(g: Givens, values: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """The words the question ``key`` takes (a terminal completes them with Tab)."""
    known = _steps.KINDS.get(kind_of(key)[0])
    return known.words(g, values, key) if known is not None else CARD_WORDS


def answers_of(stored: Mapping[str, Any], players: Sequence[str], rules: Rules) -> dict[str, str]:
    """A stored round as the answers that type it, by question: each question's default for an
    edit (`edit N`)."""
    rnd = Round.from_dict(dict(stored), players=players, rules=rules)
    texts = {"dealer": rnd.dealer, "field": ("=" if rnd.field_lights else "") + format_compact(rnd.field)}
    if rnd.blank:  # TRADITIONAL §11.5
        texts["blank"] = rnd.blank
    if len(players) > 3:
        for p in players:
            if p != rnd.blank:
                texts[f"seat:{p}"] = "drop" if p in rnd.dropped else "play"
    if rules.mizuten.on:  # TRADITIONAL §11.2: y (the 親 declared) or the declarer; Enter for none
        texts["mizuten"] = ("y" if rules.mizuten.by_pile else rnd.mizuten) if rnd.mizuten else ""
    if rules.liability:  # TRADITIONAL §11.1: who fed each, or Enter
        for p in players:
            fed = rnd.liable.get(p, {})
            texts[f"liable:{p}"] = (next(iter(fed.values())) if len(set(fed.values())) == 1 and fed
                                    else " ".join(f"{y} {f}" for y, f in fed.items()))
    for p in players:
        hand = format_compact(rnd.hands[p]) if p in rnd.hands else ""
        texts[f"hand:{p}"] = " ".join(x for x in (hand, *rnd.declared.get(p, ())) if x)
        if p in rnd.counted:
            texts[f"pile:{p}"] = f"={rnd.counted[p]}"
        elif p in rnd.named:
            texts[f"pile:{p}"] = " ".join(rnd.named[p])
        elif p not in rnd.unasked:
            texts[f"pile:{p}"] = format_compact(rnd.pile(p))
    texts["ended"] = rnd.ended_by or ""
    texts["sage"] = callers_text(rnd.sage)
    texts["kasu"] = " ".join(f"{p} {n}" for p, n in rnd.kasu.items())
    if rnd.ended_how is not None:
        texts["how"] = "cancel" if rnd.ended_how == "cancel" else "勝負"
    return texts


def differences(g: Givens, mine: Mapping[str, str], saved: Mapping[str, str]) -> list[str]:
    """The questions, in the table's order, that ``mine`` answered otherwise than ``saved`` (a
    round as stored: :func:`answers_of`), read as the round reads them: a pile typed in another
    order, or a name in other case, is the same answer."""
    def reading(answers: Mapping[str, str]) -> dict[str, Any]:
        return view(g, answers, g.players).values  # a pile typed is compared as it stands

    ours, theirs = reading(mine), reading(saved)
    keys = dict.fromkeys([*step_keys(g, ours), *mine])  # the table's order, then any answer it did not reach
    return [k for k in keys if k in mine and _same(ours.get(k, mine[k])) != _same(theirs.get(k))]


def _same(value: Any) -> Any:
    """A value as two answers are compared: lists without their order."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return tuple(sorted(repr(_same(v)) for v in value))
    if isinstance(value, dict):
        return tuple(sorted((k, repr(_same(v))) for k, v in value.items()))
    return value


def needs_confirm(g: Givens, key: str, value: Any) -> Msg | None:
    """The yes an answer needs before it is taken: a 親 other than the chain's (who really dealt)."""
    return _steps.kind(kind_of(key)[0]).confirm(g, value)


# ---------------------------------------------------------------------------------------------
# the view


def view(g: Givens, answers: Mapping[str, str], done: Collection[str] = ()) -> RoundView:
    """The round's questions over ``answers`` (text as typed, by question) and ``done`` (the
    players who said their pile is complete)."""
    return _Walk(g, answers, frozenset(done)).run()


class _Walk:
    """One pass over the steps in the table's order, each answer checked against the settled
    answers before it."""

    def __init__(self, g: Givens, answers: Mapping[str, str], done: frozenset[str]) -> None:
        self.g, self.answers, self.done = g, answers, done
        self.values: dict[str, Any] = {}
        self.steps: list[Step] = []
        self.redeal = False
        #: the questions typed, or given a pile by the stored round (an edit keeps every pile it had)
        self.typed = {*answers, *(k for k, v in g.defaults.items() if k.startswith("pile:") and v)}

    def run(self) -> RoundView:
        g = self.g
        i = 0
        while True:
            keys = step_keys(g, self.values, self.typed)
            if i >= len(keys):
                break
            step = self.take(keys[i])
            self.steps.append(step)
            i += 1
            if self.redeal:
                break
        _, seating, must = seats(g, self.values) if g.seated else ((), None, ())
        if not g.seated:
            seating = seat(g.players, self.values.get("dealer", g.dealer), (), g.rules)
        playing = order(g, self.values)
        problems = [] if self.redeal else self.clashes()
        for s in self.steps:
            self.dress(s, playing)
        stand = self.stand(seating)
        out = RoundView(g, self.steps, seating, tuple(must), stand, playing, dict(self.values),
                        self.redeal, problems=problems)
        if self.redeal or (not problems and all(s.status == "answered" for s in self.steps)):
            data = round_file(g, self.values)
            verdict = check_draft(data, rules=g.rules, players=g.players)
            if verdict.problems:  # the whole round's checks, once every answer is in
                out.problems.append(verdict.problems[0])
            elif verdict.round is not None:
                out.round_file = verdict.round.to_dict()
                out.result = score(verdict.round, g.rules, g.state)
        return out

    def take(self, key: str) -> Step:
        """Read and check the answer to ``key`` (if any) against the settled ones before it."""
        g, values = self.g, self.values
        kind_name, player = kind_of(key)
        kind = _steps.kind(kind_name)
        proposed = kind.proposed(g)  # the proposed 親 stands until another is answered
        step = Step(key, default=g.defaults.get(key, proposed or ""))
        text = self.answers.get(key)
        if text is None:
            text = proposed
        step.text = self.answers.get(key)
        step.done = kind.marked and player in self.done
        if any(d not in values for d in kind.depends):
            step.status = "waiting"
            step.rest = kind.is_rest(text)
            return step
        if text is None:
            step.status = "open"
            return step
        if kind.is_rest(text):
            return self.take_rest(step)
        try:
            reading = read(g, key, text, values)
        except AnswerError as e:
            return self.refuse(step, Problem("answer", key, e.message, player=player))
        except CardError as e:  # the validator's own line, naming the card and where
            raw = kind.raw(g, text)
            said_ = check_draft(round_file(g, {**values, key: raw}), rules=g.rules, players=g.players)
            problem = said_.problems[0] if said_.problems else Problem("card", key, e.message, token=e.token)
            return self.refuse(step, problem)
        step.value, step.shown, step.note, step.shown_cards = reading.value, reading.shown, reading.note, reading.shown_cards
        return self.check(step, reading.value)

    def take_rest(self, step: Step) -> Step:
        g, values = self.g, self.values
        step.rest, step.done = True, True
        if not rest_offered(g, values, step.key):
            if "ended" not in values and len(order(g, values)) == 3:
                step.status = "waiting"
                step.problem, step.soft = Problem("waits", step.key, msg("r.waits_for", said=said("ended")).said()), True
                return step
            return self.refuse(step, Problem("answer", step.key, msg("r.rest").said(), player=step.player))
        others = [p for p in order(g, values) if f"pile:{p}" != step.key]
        waiting = [p for p in others if f"pile:{p}" not in values]
        if waiting:
            step.status = "waiting"
            step.problem, step.soft = Problem("waits", step.key, msg("r.rest_waits", players=waiting).said()), True
            return step
        counted = rest_points(values)
        value: Any = counted if counted is not None else _codes(rest_of(values))
        step.value, step.shown = value, "rest"
        return self.check(step, value)

    def check(self, step: Step, value: Any) -> Step:
        """The draft validator on the settled answers plus this one."""
        g = self.g
        verdict = check_draft(round_file(g, {**self.values, step.key: value}), rules=g.rules, players=g.players)
        if verdict.problems:
            problem = verdict.problems[0]
            if _steps.kind(step.kind).marked and not step.done and problem.code in SOFT:
                step.status, step.problem, step.soft = "typing", problem, True
                return step
            return self.refuse(step, problem)
        if _steps.kind(step.kind).marked and not step.done:
            step.status = "typing"  # counts for the rest once its player says it is complete
            return step
        step.status = "answered"
        self.values[step.key] = value
        if verdict.round is not None and verdict.round.redeal:
            self.redeal = True
        return step

    @staticmethod
    def refuse(step: Step, problem: Problem) -> Step:
        step.status, step.problem, step.soft = "refused", problem, False
        return step

    def clashes(self) -> list[Problem]:
        """A card in two piles, one of them still being typed: the deck check over every pile
        typed so far (a pile still odd, mid-tapping, counts as well); the piles holding it are
        refused."""
        piles = {s.player: s.value for s in self.steps if _steps.kind(s.kind).marked and isinstance(s.value, list)
                 and s.status in ("answered", "typing")}
        if len(piles) < 2 or "field" not in self.values:
            return []
        data = {"players": list(self.g.players), "dealer": self.values.get("dealer", self.g.dealer),
                **field_keys(self.values["field"]), "captured": piles}
        verdict = check_draft(data, rules=self.g.rules, players=self.g.players)
        for problem in verdict.problems:
            if problem.code == "deck" and problem.card:
                for s in self.steps:
                    if s.player in piles and _steps.kind(s.kind).marked and problem.card in piles[s.player]:
                        if s.status == "answered":
                            self.values.pop(s.key, None)
                        self.refuse(s, problem)
                return [problem]
        return []

    def dress(self, step: Step, playing: Sequence[str]) -> None:
        """The step's label, choices and words, as the answers stand."""
        g, values = self.g, self.values
        kind = _steps.kind(step.kind)
        kind.prepare(g, values, step, playing)
        step.label = label(g, values, step.key)
        step.title = title(g, values, step.key)
        step.words = words_for(g, values, step.key)
        step.choices = kind.choices(g, values, step, playing)

    def stand(self, seating: Seating | None) -> Stand:
        """The field's class and multiplier with what is carried and waits, the fees, the pot."""
        g = self.g
        state = g.state or NightState()
        fc = mult = None
        carried = False
        waiting: tuple[int, ...] = tuple(state.carry)
        if "field" in self.values:
            cards, _ = field_of(self.values["field"])
            fc = field_class(cards)
            mult, waiting = round_multiplier(tally_of(cards), g.rules, state.carry)
            carried = mult != g.rules.multipliers[fc]
        elif state.carry and g.rules.field.carries:
            mult, carried, waiting = state.carry[0], True, state.carry[1:]
        fees: list[tuple[str, int]] = []
        if seating is not None and mult is not None and not self.redeal:
            fees = [(p, fee_mon(n, g.rules, mult)) for n, p in enumerate(seating.dropped, 1)]
        return Stand(fc, mult, carried, waiting, tuple(fees), state.pot + sum(m for _, m in fees), g.rules)


# ---------------------------------------------------------------------------------------------
# what an answer means, said (the terminal's echo; the phones show the same lines)


def seating_line(seating: Seating, rules: Rules) -> Msg:
    """Who plays once the seating is settled: a misdeal, one volunteer, a split, or who plays."""
    vols = seating.volunteers
    if not vols:
        return msg("e.misdeal")
    if len(vols) == 1:
        return msg("e.solo", player=vols[0])
    if len(vols) == 2 and not rules.two_volunteers.play:
        return msg("e.split", first=vols[0], second=vols[1])
    return msg("e.seated", players=list(vols), first=vols[0])


def settlement_said(g: Givens, values: Mapping[str, Any], ended: str | None, callers: Sequence[str],
                    how: str | None) -> Msg:
    """TRADITIONAL §4 (RULES §7) said for this round, from the settlement's own terms
    (:func:`scorekeeper.scoring.dekiyaku_terms`): who pays whom for the 出来役, and who wins."""
    playing = order(g, values) if g.seated else g.players
    terms = dekiyaku_terms(playing, ended, callers, how)
    if terms.case == "played_out":
        return msg("s.played_out", first=terms.first)
    if terms.case == "cancel":
        return msg("s.cancel", player=ended)
    others = list(terms.payers)
    if len(others) == 1:
        pays = msg("s.pays.one", other=others[0])
    elif terms.lone is not None:
        spared = next(p for p in others if p != terms.lone)
        pays = msg("s.pays.lone", lone=terms.lone, player=ended, spared=spared)
    elif any(p in callers for p in others):
        pays = msg("s.pays.both", player=ended)
    else:
        pays = msg("s.pays.each")
    return msg("s.shoubu", player=ended, pays=pays)



def typed_summary(v: RoundView, answers: Mapping[str, str]) -> Msg:
    """What the answers typed come to, said before they are thrown away: each pile taken with
    its cards, then how many other answers (``Ben's pile, 16 cards, and 3 other answers``), or
    how many answers (``7 answers``)."""
    piles = [s for s in v.steps if _steps.kind(s.kind).marked and s.text is not None and (s.rest or s.value is not None)]
    parts = [msg("d.rest" if s.rest else "d.counted" if is_counted(s.value) else "d.named" if is_named(s.value) else
                 "d.pile" if len(s.value or ()) != 1 else "d.pile.one",
                 player=s.player, count=s.value if is_counted(s.value) else len(s.value or ())) for s in piles]
    more = len(set(answers) - {s.key for s in piles})
    if more:
        parts.append(msg(("d.more" if parts else "d.answers") + (".one" if more == 1 else ""), count=more))
    if not parts:
        return msg("d.nothing")
    if len(parts) == 1:
        return msg("d.what", what=parts[0])
    if len(parts) == 2:
        return msg("d.what", what=msg("list.and", first=parts[0], second=parts[1]))
    return msg("d.what", what=msg("list.and.many", items=parts[:-1], last=parts[-1]))


# ---------------------------------------------------------------------------------------------
# answering: which answers are taken


class NotAsked(ValueError):
    """An answer to a question that is not asked of this seating, or not open yet: one line."""

    def __init__(self, key: str, message: Any) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


class NoSuchQuestion(NotAsked):
    """A key that names no question of a round of this table (a typo, a player not seated)."""


class Refused(ValueError):
    """An answer that does not check out: its problem (the validator's code, where, one line)."""

    def __init__(self, problem: Problem, view: "RoundView | None" = None) -> None:
        super().__init__(problem.message)
        self.problem = problem
        self.view = view


def admit(v: RoundView, key: str) -> None:
    """Raise :class:`NotAsked` unless ``key`` is a question of this round that is open now
    (asked of this seating, its steps before it settled)."""
    g = v.givens
    name, player = kind_of(key)
    kind = _steps.KINDS.get(name)
    if (kind is None or (player is None) == kind.per_player or (player is not None and player not in g.players)
            or (kind.seated_only and not g.seated)):
        raise NoSuchQuestion(key, msg("r.not_a_question", key=key).said())
    step = v.step(key)
    if step is None and kind.typed_unasked and player in v.order:
        return  # a pile the ending does not ask for may be typed all the same
    if step is None:
        if player is not None and v.settled and player not in v.order and not (
                kind.of_forced_out and v.seating is not None and player in v.seating.forced_out):
            raise NotAsked(key, msg("r.not_asked", said=said(key), player=player).said())
        first = next((s.key for s in v.steps if s.status != "answered"), v.steps[-1].key)
        raise NotAsked(key, msg("r.not_open", said=said(key), first=said(first)).said())
    if step.status == "waiting" and not step.rest:
        first = next(d for d in _depends(key) if d not in v.values)
        raise NotAsked(key, msg("r.not_open", said=said(key), first=said(first)).said())


def refusal(v: RoundView, key: str, text: str | None) -> Problem | None:
    """The problem that refuses an answer just given: any problem of the step once it is
    complete (every step but a pile still being typed), a hard one while it is typed."""
    if text is None:
        return None
    step = v.step(key)
    if step is None or step.problem is None or step.status == "waiting":
        return None
    return None if step.soft else step.problem


@dataclass
class Answered:
    """An answer taken or refused: the answers and marks after it, their view, and the problem
    that refuses it (None: taken)."""

    answers: dict[str, str]
    done: set[str]
    view: RoundView
    problem: Problem | None = None


def answer(g: Givens, answers: Mapping[str, str], done: Collection[str], key: str, text: str | None, *,
           complete: bool = True, seen: RoundView | None = None) -> Answered:
    """The round's one answer protocol, for every front and every keeper of answers: answer
    ``key`` with ``text`` (None: take it back) over ``answers`` and ``done`` (``seen``: their
    view, if made). :class:`NotAsked` when the question is not open; the result carries the
    problem that refuses it, if any (the caller keeps it or not)."""
    admit(seen if seen is not None else view(g, answers, done), key)
    after_answers, marks = apply(answers, done, key, text, complete)
    after = view(g, after_answers, marks)
    return Answered(after_answers, marks, after, refusal(after, key, text))


def mark_pile(g: Givens, answers: Mapping[str, str], done: Collection[str], player: str, complete: bool, *,
              seen: RoundView | None = None) -> Answered:
    """``player`` says their pile is complete (or takes that back). A pile said complete with no
    card typed is an empty pile, answered."""
    key = f"pile:{player}"
    admit(seen if seen is not None else view(g, answers, done), key)
    marks = mark(done, player, complete)
    after_answers = dict(answers)
    if complete and key not in after_answers:
        after_answers[key] = ""
    return Answered(after_answers, marks, view(g, after_answers, marks))


class Form:
    """A round being answered in memory: the answers as typed and the piles said complete. A
    front that keeps no draft (and the tests) answers through it;
    :class:`scorekeeper.round_draft.RoundDraft` keeps the same answers, by the same protocol
    (:func:`answer`, :func:`mark_pile`), in a draft."""

    def __init__(self, givens: Givens, answers: Mapping[str, str] | None = None,
                 done: Collection[str] | None = None) -> None:
        self.givens = givens
        self.answers: dict[str, str] = dict(answers or {})
        self.done: set[str] = set(done if done is not None else ())
        self._view: RoundView | None = None

    def view(self) -> RoundView:
        if self._view is None:
            self._view = view(self.givens, self.answers, self.done)
        return self._view

    def hold(self, answers: Mapping[str, str], done: Collection[str], seen: RoundView | None = None) -> None:
        """Hold these answers and marks (kept elsewhere: a night's draft), and their view if made."""
        self.answers, self.done, self._view = dict(answers), set(done), seen

    def answer(self, key: str, text: str | None, *, done: bool = True, keep_refused: bool = False) -> RoundView:
        """Answer ``key`` (None: take the answer back); a pile is complete when ``done``.
        :class:`NotAsked` or :class:`Refused` (nothing kept, unless ``keep_refused``)."""
        got = answer(self.givens, self.answers, self.done, key, text, complete=done, seen=self.view())
        if got.problem is None or keep_refused:
            self.hold(got.answers, got.done, got.view)
        if got.problem is not None:
            raise Refused(got.problem, got.view)
        return got.view

    def mark(self, player: str, done: bool) -> RoundView:
        """``player`` says their pile is complete (or takes that back)."""
        got = mark_pile(self.givens, self.answers, self.done, player, done, seen=self.view())
        self.hold(got.answers, got.done, got.view)
        return got.view


def apply(answers: Mapping[str, str], done: Collection[str], key: str, text: str | None,
          complete: bool) -> tuple[dict[str, str], set[str]]:
    """The answers and marks after answering ``key`` with ``text`` (None: taken back); a pile
    answered is complete only when ``complete`` (a tap is not: its player says so)."""
    out = dict(answers)
    if text is None:
        out.pop(key, None)
    else:
        out[key] = text
    kind, player = kind_of(key)
    marks = set(done)
    if _steps.kind(kind).marked:
        marks = mark(marks, player, complete and text is not None)
    return out, marks


def mark(done: Collection[str], player: str | None, complete: bool) -> set[str]:
    marks = set(done)
    if complete:
        marks.add(player)  # type: ignore[arg-type]  # a complete mark is a player's
    else:
        marks.discard(player)
    return marks
