"""The kinds of question a round asks, one object each: the registry the questions model, the
terminal and the page read instead of branching on a kind's name.

How to add a question kind
--------------------------

1. Write a subclass of :class:`StepKind` below and decorate it with ``@register``. Say its
   ``name`` (the key's first part: ``liable``, or ``liable:NAME`` with ``per_player``), what it
   depends on (``depends``: steps settled first), and override what differs from the defaults:
   ``read`` (the answer typed -> a :class:`~scorekeeper.questions.Reading`; raise
   :class:`~scorekeeper.questions.AnswerError` with the re-prompt's line), ``file`` (what the
   answer writes into the round file), ``label`` (the terminal's question), ``choices`` (the
   buttons: a page draws any kind whose ``box`` is ``"choice"`` as a title and a row of its
   choices, with no script of its own), ``words`` (what Tab completes), ``echo`` and ``help``
   (the terminal's lines). The defaults word it with ``q.NAME`` (``label``), ``t.NAME``
   (``title``) and ``said.NAME`` (``said``: the question named in a status or an error line) in
   :mod:`scorekeeper.words`: add those messages, then run ``python scripts/catalogs.py``.
2. Ask it: :func:`scorekeeper.questions.step_keys` says in which order the round's keys come.
   That is the only other place a new kind is named.
3. The step's JSON (``RoundView.to_json``) carries ``kind`` and ``box``: the page draws a
   ``"choice"`` box for it from ``title``, ``choices`` and ``problem``.

Nothing else branches on the kind: the walk, the check against the round, ``admit``, the
terminal's echo and help, and the page read the attributes and methods here.

Pure: no rich, no I/O. Every word comes from :mod:`scorekeeper.words`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

from . import questions as q
from .cards import points
from .check import cards_of
from .lang import noted, quote
from .names import NONE_WORDS, PLAYED_OUT_WORDS, fold
from .scoring import DECK_POINTS, dekiyaku_terms, nameable
from .words import Msg, msg, say
from .yaku import (YAKU_ALIASES, YAKU_BY_NAME, dekiyaku, dekiyaku_hint, dekiyaku_kan, dekiyaku_name, teyaku_all,
                   yaku_named)

if TYPE_CHECKING:
    from .cards import Card
    from .questions import Choice, Givens, Reading, RoundView, Step

Values = Mapping[str, Any]


class Speaker(Protocol):
    """What a kind's echo and help need of a terminal: the table, the view, a line said, and a
    player's name padded so that columns line up."""

    g: Givens

    @property
    def view(self) -> RoundView: ...

    def speak(self, text: str, style: str = "") -> None: ...

    def pad(self, who: str) -> str: ...


def yaku_text(name: str, value: int) -> str:
    """``三本 (さんぼん) 20文``: the name with its reading, and its value."""
    return f"{YAKU_BY_NAME[name].label()} {value}文"


class StepKind:
    """One kind of question, and what each front does with it. The defaults suit a question of
    one answer chosen among buttons."""

    #: the key's first part (``pile`` of ``pile:Aki``)
    name = ""
    #: the key names a player (``pile:Aki``); else the key is the name alone
    per_player = False
    #: asked only with more than three seated (the play-or-drop phase)
    seated_only = False
    #: asked of a forced-out player too (who is not in the order of play)
    of_forced_out = False
    #: may be typed though the ending does not ask it (a pile that cannot change the money)
    typed_unasked = False
    #: answered in parts: counts for the rest only once its player says it is complete
    marked = False
    #: steps that must be settled before this one is open
    depends: tuple[str, ...] = ()
    #: how a page draws it: ``choice`` (a title and a row of its choices) unless a box of its own
    box = "choice"
    #: the :class:`~scorekeeper.questions.Step` attributes its JSON carries beyond every step's
    json_fields: tuple[str, ...] = ()

    def proposed(self, g: Givens) -> str | None:
        """The answer that stands until another is given (the proposed 親); None: none."""
        return None

    def is_rest(self, text: str | None) -> bool:
        """Is ``text`` the ``rest`` answer (the deck minus the other piles)?"""
        return False

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        """The answer read into its canonical form (the check against the round comes after)."""
        raise NotImplementedError(self.name)

    def raw(self, g: Givens, text: str) -> Any:
        """The answer as the round file takes it when its cards could not be read (the validator
        then says which card, and where)."""
        return text

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        """What the answer writes into the round file (CONTRACT §3, §7)."""

    def prepare(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> None:
        """Set what the step carries beyond its words and choices (a player's role, a pile's need)."""

    def said(self, player: str | None) -> Msg:
        """The question named in an error line or a status (``Ben's pile``)."""
        return msg(f"said.{self.name}", player=player)

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        """The question as the terminal asks it."""
        return msg(f"q.{self.name}", player=player)

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        """The question as a page titles it (the choices are buttons there)."""
        return msg(f"t.{self.name}", player=player)

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        """The words the question takes (a terminal completes them with Tab)."""
        return ()

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        """The answers a page offers as buttons, as the answers stand."""
        return []

    def confirm(self, g: Givens, value: Any) -> Msg | None:
        """The yes an answer needs before it is taken (None: none)."""
        return None

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        """What the answer means, said back at the terminal: the choice it is, by default."""
        for c in step.choices:
            if c.on:
                t.speak("  " + say(c.label))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        """The question's help at the terminal (``?``), after the cards' notation."""


#: every kind of question, by name
KINDS: dict[str, StepKind] = {}


def register(cls: type[StepKind]) -> type[StepKind]:
    """Add a kind to :data:`KINDS` (a class decorator)."""
    KINDS[cls.name] = cls()
    return cls


def kind(name: str) -> StepKind:
    """The kind named ``name``; KeyError for none."""
    return KINDS[name]


# ---------------------------------------------------------------------------------------------
# the kinds, in the table's order


@register
class Dealer(StepKind):
    name = "dealer"
    box = "dealer"

    def proposed(self, g: Givens) -> str | None:
        return g.dealer

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        who = q.player_of(g, text)
        return q.Reading(who, who)

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        data["dealer"] = value

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("q.dealer", players=g.numbered())

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return tuple(g.players)

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        return [q.Choice(msg("a.player", number=i + 1, player=p), p, p == values.get("dealer"),
                         self.confirm(g, p), player=p) for i, p in enumerate(g.players)]

    def confirm(self, g: Givens, value: Any) -> Msg | None:
        if g.chain is not None and value != g.chain:
            return msg("t.chain", chain=g.chain, player=value)
        return None

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        pass

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.players", players=t.g.numbered())))


@register
class Field(StepKind):
    name = "field"
    box = "field"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        return q.read_field(text)

    def raw(self, g: Givens, text: str) -> Any:
        return q._field_typed(text)

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        data.update(q.field_keys(value))

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("q.field")

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return q.CARD_WORDS

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        from .render import field_cards_text  # the terminal's: it has render loaded

        t.speak("  " + field_cards_text(*q.field_of(step.value), " · "))
        if v.redeal:
            t.speak("  " + say(msg("e.redeal")), style="bold")
            return
        t.speak("  " + say(v.stand.line()), style="bold")

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.field")))


@register
class Seat(StepKind):
    name = "seat"
    per_player = True
    seated_only = True
    box = "seat"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        word = fold(text)
        if word in q.PLAY_WORDS:
            return q.Reading("play", "play")
        if word in q.DROP_WORDS:
            return q.Reading("drop", "drop")
        raise q.AnswerError(msg("r.seat", text=quote(text)).said())

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return ("play", "drop")

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        now = values.get(step.key)
        return [q.Choice(msg("a.play"), "play", now == "play", default=True),
                q.Choice(msg("a.drop"), "drop", now == "drop")]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        """A seat's answer; once the seating is settled, who plays, who dropped, who was forced out."""
        rules = t.g.rules
        t.speak("  " + say(msg("e.plays" if step.value == "play" else "e.drops", player=step.player)))
        if v.seating is None:
            return
        for p in v.must:
            t.speak("  " + say(msg("e.must_play", player=p, profile=rules.name)), style="dim")
        t.speak("  " + say(q.seating_line(v.seating, rules)), style="bold")
        if v.seating.forced_out:
            t.speak("  " + say(msg("e.forced", players=list(v.seating.forced_out))))
        for who, fee in v.stand.fees:  # what the phones show beside the seats too
            t.speak("  " + say(msg("stand.fee", player=who, mon=fee)))
        if v.stand.pot:
            t.speak("  " + say(msg("stand.pot", mon=v.stand.pot)))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.seat")))


def _forced(g: Givens, playing: Sequence[str], player: str | None) -> bool:
    """A hand asked of a forced-out player (four to six seated)."""
    return g.seated and bool(playing) and player not in playing


@register
class Hand(StepKind):
    name = "hand"
    per_player = True
    of_forced_out = True
    box = "hand"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        answer, shown_cards = q.read_hand(g, text)
        value = answer and {"hand": q._codes(cards_of(answer["hand"])) or None, "teyaku": answer["teyaku"]}
        note = None
        if shown_cards is not None and answer is not None and "飛び込み" in g.rules.bonuses:
            note = msg("t.whole_hand", name=answer["teyaku"][0])
        return q.Reading(value, q.hand_text(value), note, shown_cards)

    def raw(self, g: Givens, text: str) -> Any:
        return q.read_hand(g, text)[0]

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if not value:
            return
        if value["hand"]:
            data.setdefault("hands", {})[player] = value["hand"]
        names = value["teyaku"]
        if names:  # one name as a string: the SDIN form, and a list only where needed
            data.setdefault("teyaku", {})[player] = names[0] if len(names) == 1 else list(names)

    def prepare(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> None:
        if step.player is not None:
            step.role = "played" if step.player in playing else "forced_out"

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("q.hand.forced" if _forced(g, q.order(g, values), player) else "q.hand", player=player)

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("t.hand.forced" if _forced(g, q.order(g, values), player) else "t.hand", player=player)

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        names = list(g.rules.teyaku)
        return (*q.CARD_WORDS, *names, *(YAKU_BY_NAME[n].reading for n in names),
                *(a for n in names for a in YAKU_ALIASES.get(n, ()) if a.isascii()))  # romaji

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        forced = bool(g.seated and step.player not in playing)
        now = values.get(step.key, False)
        return [q.Choice(msg("a.no_claim" if forced else "a.no_teyaku"), "", now is None)] + [
            q.Choice(msg("a.teyaku", name=n), n, bool(now) and not now["hand"] and n in (now["teyaku"] or ()))
            for n in g.rules.teyaku]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        rules = t.g.rules
        player, value = step.player, step.value
        name = t.pad(player)  # type: ignore[arg-type]  # a hand is a player's
        found = value and (value["teyaku"] or teyaku_all(cards_of(value["hand"]), rules))
        forced = t.g.seated and v.seating is not None and player in v.seating.forced_out
        if not value and forced:
            t.speak(f"  {name}  {say(msg('e.no_claim'))}")
            return
        if not found:
            t.speak(f"  {name}  {say(msg('e.no_teyaku.hand' if value else 'e.no_teyaku'))}")
            return
        how = msg("e.teyaku.declared") if value["teyaku"] else msg("e.teyaku.hand")
        if value["teyaku"] and step.shown_cards:
            how = msg("e.teyaku.shown", cards=step.shown_cards)
        shown = " + ".join(yaku_text(n, rules.mon(rules.teyaku[n])) for n in found)
        t.speak(f"  {name}  {noted(shown, say(how))}", style="green")

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        rules = t.g.rules
        if t.g.grouped:
            for group in rules.groups:
                rows = " · ".join(yaku_text(row.name, rules.mon(row.kan))
                                  for row in rules.teyaku_table if row.group == group)
                t.speak(say(msg("h.hand.group", group=group, rows=rows)))
            t.speak(say(msg("h.hand.groups")))
            return
        rows = " · ".join(yaku_text(name, rules.mon(value)) for name, value in rules.teyaku.items())
        t.speak(say(msg("h.hand.rows", rows=rows)))
        t.speak(say(msg("h.hand")))


def _players_help(t: Speaker, v: RoundView) -> None:
    t.speak(say(msg("h.players", players=t.g.numbered(v.order or None))))


@register
class Ended(StepKind):
    name = "ended"
    box = "ending"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        ender = None if fold(text) in PLAYED_OUT_WORDS or not text.strip() else q.player_of(g, text, q.order(g, values))
        return q.Reading(ender, ender or "")

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if value:
            data["ended_by"] = value

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        playing = q.order(g, values)
        return msg("q.ended.cancel" if g.rules.cancel.allowed else "q.ended", players=g.numbered(playing or None))

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return (*(q.order(g, values) or g.players), "out")

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        now = values.get("ended", False)
        callers = values.get("sage", ()) if g.rules.cancel.allowed else ()  # a caller may end it by cancel: no 上がり
        return [q.Choice(msg("a.played_out"), "", "ended" in values and now is None, default=True)] + [
            q.Choice(msg("a.ended" if p in callers else "a.stopped", player=p), p, now == p, player=p)
            for p in playing]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        if step.value is None:
            t.speak("  " + say(msg("e.played_out.two" if len(v.order) == 2 else "e.played_out")))
        else:  # a 下げ caller who may cancel ended it: 勝負 or cancel is asked next, no 上がり yet
            t.speak("  " + say(msg("e.ended" if q.may_cancel(t.g, v.values) else "e.stopped", player=step.value)))
        _echo_sage(t, v, v.values.get("sage", ()))
        if "ended" in v.values and "sage" in v.values and (skipped := q.unasked(t.g, v.values)):
            t.speak("  " + say(msg("e.unasked", players=list(skipped))), style="dim")

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        _players_help(t, v)
        t.speak(say(msg("h.ended.cancel" if t.g.rules.cancel.allowed else "h.ended")))


def _echo_sage(t: Speaker, v: RoundView, value: Sequence[str]) -> None:
    """What the 下げ means for the settlement, once the ending is known."""
    if t.g.many_callers:
        _echo_callers(t, v, value)
    elif value:  # RULES §7's three cases, from the settlement's own terms
        ended, caller = v.values.get("ended"), value[0]
        terms = dekiyaku_terms(v.order, ended, value, None)
        if terms.case == "played_out":
            note = msg("e.sage.halved", player=caller)
        elif terms.lone is not None:
            note = msg("e.sage.overtaken", player=terms.lone, ended=ended)
        else:
            note = msg("e.sage.stopped", player=caller)
        t.speak(f"  下げ: {say(note)}")


def _echo_callers(t: Speaker, v: RoundView, callers: Sequence[str]) -> None:
    """What the 下げ callers mean for the settlement, as far as it is known (TRADITIONAL §4)."""
    ended = v.values.get("ended")
    if not callers:
        if ended is not None:
            said_ = q.settlement_said(t.g, v.values, ended, (), "shoubu")
            t.speak("  " + say(msg("e.sage.nobody", settlement=said_)))
        return
    first = "" if len(callers) == 1 else msg("e.sage.in_order")
    if ended is None:
        note = q.settlement_said(t.g, v.values, None, callers, None)
    elif q.may_cancel(t.g, v.values):
        note = msg("e.sage.then_how", player=ended)
    else:
        note = q.settlement_said(t.g, v.values, ended, callers, "shoubu")
    order: Any = callers[0]
    for caller in callers[1:]:
        order = msg("list.then", first=order, second=caller)
    t.speak("  " + say(msg("e.sage.callers", order=order, first=first, note=note)))


@register
class Sage(StepKind):
    name = "sage"
    box = "ending"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        callers = () if fold(text) in NONE_WORDS or not text.strip() else q.read_callers(g, text, q.order(g, values))
        return q.Reading(callers, q.callers_text(callers))

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if value:
            data["sage"] = value[0] if len(value) == 1 else list(value)

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        if g.many_callers:
            return msg("q.sage.many", example=g.callers_example(q.order(g, values))[0])
        return msg("q.sage")

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("t.sage.many") if g.many_callers else msg("t.sage", player=player)

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return tuple(q.order(g, values) or g.players)

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        now = tuple(values.get("sage", ()))
        out = [q.Choice(msg("a.nobody"), "", "sage" in values and not now, default=True)]
        for p in playing:
            on = p in now
            after = (tuple(x for x in now if x != p) if on else (*now, p)) if g.many_callers else (() if on else (p,))
            out.append(q.Choice(msg("a.sage", player=p), q.callers_text(after), on, player=p,
                                toggle=p if g.many_callers else None))
        return out

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        value = step.value
        if not value:
            return
        order: Any = value[0]
        for caller in value[1:]:
            order = msg("list.then", first=order, second=caller)
        t.speak(f"  下げ: {say(order) if isinstance(order, Msg) else order}")

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        _players_help(t, v)
        if not t.g.many_callers:
            t.speak(say(msg("h.sage")))
            return
        names, numbers = t.g.callers_example(v.order)
        t.speak(say(msg("h.sage.many", example=names, numbers=numbers)))
        t.speak(say(msg("h.sage.terms", profile=t.g.rules.name)))


@register
class How(StepKind):
    name = "how"
    depends = ("ended", "sage")
    box = "ending"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        word = fold(text)
        if not word or word in q.SHOUBU_WORDS:
            return q.Reading("shoubu", "勝負")
        if word in q.CANCEL_WORDS:
            return q.Reading("cancel", "cancel")
        raise q.AnswerError(msg("r.how", text=quote(text)).said())

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if value == "cancel":
            data["ended_how"] = "cancel"

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("q.how", player=values.get("ended"))

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("t.how", player=values.get("ended"))

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return ("勝負", "shoubu", "cancel", "キャンセル")

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        now = values.get("how")
        return [q.Choice(msg("a.shoubu"), "勝負", now == "shoubu", default=True),
                q.Choice(msg("a.cancel"), "cancel", now == "cancel")]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        ended = v.values["ended"]
        t.speak("  " + say(q.settlement_said(t.g, v.values, ended, v.values.get("sage", ()), step.value)))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        g = t.g
        ended = v.values["ended"]
        t.speak(say(msg("h.how", player=ended)))
        shoubu = q.settlement_said(g, v.values, ended, v.values.get("sage", ()), "shoubu")
        cancel = q.settlement_said(g, v.values, ended, (), "cancel")
        t.speak(say(msg("h.how.shoubu", settlement=str(shoubu))))
        t.speak(say(msg("h.how.cancel", settlement=str(cancel))))


#: a pile answered by its card points: ``=95``, ``95点``, or the number alone
_COUNTED = re.compile(r"^[=＝]?\s*(\d+)\s*(?:点|てん|pts?|points?)?$")


def _rest_may_be(g: Givens, values: Mapping[str, Any], key: str) -> bool:
    """``rest`` offered now, or once the ending is answered as played out (the phones may type
    the last pile before the ending)."""
    playing = q.order(g, values)
    return q.rest_offered(g, values, key) or (
        len(playing) == 3 and key == f"pile:{playing[-1]}" and "ended" not in values)


@register
class Pile(StepKind):
    name = "pile"
    per_player = True
    typed_unasked = True
    marked = True
    depends = ("field",)
    box = "pile"
    json_fields = ("need",)

    def is_rest(self, text: str | None) -> bool:
        return q.is_rest(text)

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        if fold(text) in NONE_WORDS:
            text = ""
        counted = _COUNTED.match(text.strip())
        if counted:
            n = int(counted.group(1))
            if n > DECK_POINTS:
                raise q.AnswerError(msg("r.points", text=quote(text)).said())
            return q.Reading(n, f"={n}")
        tokens = text.split()
        names = [dekiyaku_name(t, g.rules) for t in tokens]
        if names and all(names):
            named = [n for n in g.rules.dekiyaku if n in names]
            return q.Reading({"dekiyaku": named}, " ".join(named))
        if any(names):  # a 出来役's name: the pile is given by its names, and a word that is none is the one to blame
            other = next(t for t, n in zip(tokens, names) if n is None)
            if q._is_card(other):
                raise q.AnswerError(msg("r.names_or_cards", card=quote(other)).said())
            hint = dekiyaku_hint(other, g.rules)
            raise q.AnswerError(msg("r.dekiyaku_hint" if hint else "r.not_dekiyaku", text=quote(other), hint=hint).said())
        cards = q._codes(cards_of(text))
        return q.Reading(cards, q.format_compact(cards_of(cards)))

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if q.is_counted(value):
            data.setdefault("points", {})[player] = value
        elif q.is_named(value):
            names = value["dekiyaku"]
            data.setdefault("dekiyaku", {})[player] = names[0] if len(names) == 1 else list(names)
        else:
            data.setdefault("captured", {})[player] = value

    def prepare(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> None:
        if step.player is not None:  # a pile step is a player's
            step.role = "played" if step.player in playing else "forced_out"
            step.need = q.pile_need(g, values, step.player)

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        if player is not None and "ended" in values and q.pile_need(g, values, player) == "dekiyaku":
            return msg("q.pile.named", player=player)
        return msg("q.pile.rest" if q.rest_offered(g, values, key) else "q.pile", player=player)

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return (*q.CARD_WORDS, *g.rules.dekiyaku, *(("rest",) if _rest_may_be(g, values, key) else ()))

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        if _rest_may_be(g, values, step.key):
            return [q.Choice(msg("a.rest"), "rest", step.rest)]
        if "ended" in values and step.need == "dekiyaku":
            named = set(step.value["dekiyaku"]) if q.is_named(step.value) else set()  # typed, done or not
            return [q.Choice(msg("a.dekiyaku", name=n), " ".join(x for x in g.rules.dekiyaku if (x in named) != (x == n)),
                             n in named, toggle=n) for n in nameable(g.rules)]
        return []

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        rules, g = t.g.rules, t.g
        player, codes = step.player, step.value

        def line(who: str, cards: Sequence[Card] | int) -> str:
            said_ = (msg("e.counted", points=cards) if isinstance(cards, int)
                     else msg("e.pile", count=len(cards), points=points(cards)))
            return f"  {t.pad(who)}  {say(said_)}"

        playing = v.order
        piles = [p for p in playing if f"pile:{p}" in v.values]
        last = f"pile:{playing[-1]}" if playing else None
        if q.is_named(codes):
            shown = "・".join(yaku_text(d, rules.mon(rules.dekiyaku[d])) for d in codes["dekiyaku"])
            t.speak(f"  {t.pad(player)}  {say(msg('e.named', yaku=shown))}", style="green")  # type: ignore[arg-type]
            return
        if q.is_counted(codes):
            t.speak(line(player, codes))  # type: ignore[arg-type]
            if len(piles) == 2 and last is not None and last not in v.values and q.rest_offered(g, v.values, last):
                t.speak(line(playing[-1], q.rest_points(v.values)) + "  " + say(msg("e.rest_left")), style="dim")  # type: ignore[arg-type]
            return
        pile = cards_of(codes)
        held = dekiyaku(pile, rules)
        deki = "  出来役 " + "・".join(yaku_text(d, rules.mon(dekiyaku_kan(d, pile, rules))) for d in held) if held else ""
        t.speak(line(player, pile) + deki, style="green" if held else "")  # type: ignore[arg-type]
        if len(piles) == 2 and last is not None and last not in v.values and q.rest_offered(g, v.values, last):
            counted = q.rest_points(v.values)
            rest = counted if counted is not None else q.rest_of(v.values)
            t.speak(line(playing[-1], rest) + "  " + say(msg("e.rest_left")), style="dim")

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.pile")))
        t.speak(say(msg("h.pile.counted")))


@register
class Kasu(StepKind):
    name = "kasu"
    box = "kasu"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        return q.read_kasu(g, text, values)

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if value:
            data["kasu"] = {value[0]: value[1]}

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("q.kasu", players=g.numbered(q.kasu_candidates(g, values)))

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("t.kasu")

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return tuple(q.kasu_candidates(g, values))

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        value = step.value
        t.speak("  " + say(msg("e.kasu", player=value[0], count=value[1]) if value else msg("e.kasu.none")))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.kasu")))


# ---------------------------------------------------------------------------------------------
# TRADITIONAL §11: asked only where a house switch (or seven seats) has them


#: a yes to "did the 親 declare みずてん?"
YES_WORDS = frozenset({"y", "yes", "はい", "みずてん", "mizuten"})
NO_WORDS = NONE_WORDS | {"", "n", "no", "いいえ"}


@register
class Blank(StepKind):
    """Seven at the table (§11.5): who holds the 白札 this round. No default: it is dealt anew."""

    name = "blank"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        if not text.strip():
            raise q.AnswerError(msg("r.blank", players=g.numbered()).said())
        who = q.player_of(g, text)
        return q.Reading(who, who)

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        data["blank"] = value

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("q.blank", players=g.numbered())

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return tuple(g.players)

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        return [q.Choice(msg("a.player", number=i + 1, player=p), p, p == values.get("blank"), player=p)
                for i, p in enumerate(g.players)]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        t.speak("  " + say(msg("e.blank", player=step.value)))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.blank")))


@register
class Mizuten(StepKind):
    """みずてん (§11.2), asked once at the round's start: under ``fudawiki`` whether the night's 親
    declared (yes or Enter for no); under ``flat`` who declared among those who play."""

    name = "mizuten"

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        word = fold(text)
        if g.rules.mizuten.by_pile:
            if word in NO_WORDS:
                return q.Reading(None, "")
            if word in YES_WORDS or word == fold(values.get("dealer", g.dealer)):
                return q.Reading(True, "y")
            raise q.AnswerError(msg("r.mizuten", text=quote(text)).said())
        if not text.strip() or word in NONE_WORDS:
            return q.Reading(None, "")
        who = q.player_of(g, text, q.order(g, values))
        return q.Reading(who, who)

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if value:
            data["mizuten"] = value

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        if g.rules.mizuten.by_pile:
            return msg("q.mizuten.oya", player=values.get("dealer", g.dealer))
        return msg("q.mizuten", players=g.numbered(q.order(g, values)))

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        if g.rules.mizuten.by_pile:
            return msg("t.mizuten.oya", player=values.get("dealer", g.dealer))
        return msg("t.mizuten")

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        return ("y", "n") if g.rules.mizuten.by_pile else tuple(q.order(g, values))

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        now = values.get("mizuten", False)
        out = [q.Choice(msg("a.no_mizuten"), "", "mizuten" in values and now is None, default=True)]
        if g.rules.mizuten.by_pile:
            return [*out, q.Choice(msg("a.mizuten"), "y", now is True)]
        return [*out, *(q.Choice(msg("a.player_mizuten", player=p), p, now == p, player=p) for p in playing)]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        who = q.mizuten_declarer(t.g, v.values)
        if who is None:
            return
        t.speak("  " + say(msg("e.mizuten.oya" if t.g.rules.mizuten.by_pile else "e.mizuten", player=who)))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.mizuten.oya" if t.g.rules.mizuten.by_pile else "h.mizuten",
                        kan=t.g.rules.mizuten_value)))


@register
class Liable(StepKind):
    """責任 (§11.1): after a 出来役 that can be liable (or 飛び込み), did an opponent feed it? Enter
    for no; a name for every one of them, or ``赤短 Ben 青短 Chie`` one by one."""

    name = "liable"
    per_player = True

    def read(self, g: Givens, player: str | None, text: str, values: Values) -> Reading:
        if not text.strip() or fold(text) in NONE_WORDS:
            return q.Reading({}, "")
        names = q.liable_of(g, values).get(player or "", ())
        opponents = [p for p in q.order(g, values) if p != player]
        fed: dict[str, str] = {}
        pending = None
        for token in text.replace(",", " ").split():
            yaku = yaku_named(token)
            if yaku in names:
                pending = yaku
                continue
            who = q.player_of(g, token, opponents)
            for n in ((pending,) if pending else names):
                fed[n] = who
            pending = None
        if pending is not None or not fed:
            raise q.AnswerError(msg("r.liable", text=quote(text), players=g.numbered(opponents)).said())
        return q.Reading(fed, " ".join(f"{n} {p}" for n, p in fed.items()) if len(names) > 1 else next(iter(fed.values())))

    def file(self, data: dict[str, Any], player: str | None, value: Any) -> None:
        if value:
            data.setdefault("liable", {})[player] = dict(value)

    def _names(self, g: Givens, values: Values, player: str | None) -> str:
        return "・".join(q.liable_of(g, values).get(player or "", ()))

    def label(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        opponents = [p for p in q.order(g, values) if p != player]
        return msg("q.liable", receiver=player, yaku=self._names(g, values, player), players=g.numbered(opponents))

    def title(self, g: Givens, values: Values, key: str, player: str | None) -> Msg:
        return msg("t.liable", receiver=player, yaku=self._names(g, values, player))

    def words(self, g: Givens, values: Values, key: str) -> tuple[str, ...]:
        player = q.kind_of(key)[1]
        return (*(p for p in q.order(g, values) if p != player), *q.liable_of(g, values).get(player or "", ()))

    def choices(self, g: Givens, values: Values, step: Step, playing: Sequence[str]) -> list[Choice]:
        now = values.get(step.key)
        fed = set(now.values()) if now else set()
        return [q.Choice(msg("a.not_fed"), "", step.key in values and not now, default=True)] + [
            q.Choice(msg("a.fed", player=p), p, fed == {p}, player=p) for p in playing if p != step.player]

    def echo(self, t: Speaker, v: RoundView, step: Step) -> None:
        for name, feeder in (step.value or {}).items():
            t.speak("  " + say(msg("e.liable", feeder=feeder, yaku=name, player=step.player)))

    def help(self, t: Speaker, v: RoundView, step: Step | None) -> None:
        t.speak(say(msg("h.liable")))
