"""Entering a round at the table: the terminal's prompt loop over the round's question model.

The loop asks the steps of :mod:`scorekeeper.questions` in the table's order: the 親, the six
field cards, the seats (four to six seated), each player's 手役, how the round ended and who
declared 下げ, each player's captured pile, then the full result and a confirm. It decides nothing:
what is asked, what an answer means, whether it checks out and what the round pays are the
model's; the words are :mod:`scorekeeper.words`'. What is the terminal's own: the prompts and
their defaults (Enter keeps the answer the question had), ``back``, ``?``, the echoes, Tab.

:class:`RoundEntry` takes an input function (``input``, or a script in tests), a rich console and
a form to answer (:class:`scorekeeper.questions.Form` in memory, or a night's draft through
:class:`scorekeeper.round_draft.DraftForm`), and returns an :class:`Outcome`. Ctrl-C, end of input or
"no" at the confirm raise :class:`Aborted`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence, TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from . import questions as q
from .names import fold as _fold
from .lang import _
from .layout import Prose, prompt
from .notation import help_text
from .questions import AnswerError, Form, Givens, Refused, RoundView, Step
from .round_draft import Overtaken, who_said
from .rules import SDIN, Rules
from .steps import KINDS, kind, yaku_text
from .words import Msg, msg, say

if TYPE_CHECKING:
    from .scoring import NightState, Result
    from rich.console import Console

#: Reads one answer: called with the prompt, returns the line typed (``input`` has this shape).
Ask = Callable[[str], str]

YES_WORDS = frozenset({"", "y", "yes", "はい"})
NO_WORDS = frozenset({"n", "no", "いいえ"})

__all__ = ["Aborted", "AnswerError", "Outcome", "RoundEntry", "changes_view", "enable_tab_completion", "pad",
           "yaku_text"]


class Aborted(Exception):
    """The person stopped: Ctrl-C, end of input, or "no" at the confirm. Nothing is to be saved."""


@dataclass(frozen=True)
class Outcome:
    """A confirmed round (its round file and result), or a 場四 (``round_file`` None)."""

    round_file: dict[str, Any] | None
    result: Result

    @property
    def redeal(self) -> bool:
        return self.result.redeal


_BACK = object()


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal cells, so that columns line up after CJK names."""
    return text + " " * max(0, width - cell_len(text))


class _Said:
    """What each answer means, said back in the model's words, and the help of each question:
    the half of :class:`RoundEntry` that only speaks."""

    g: Givens
    width: int
    current: str

    if TYPE_CHECKING:
        @property
        def rules(self) -> Rules: ...

        @property
        def view(self) -> RoundView: ...

        def _say(self, text: str, style: str = "") -> None: ...

    def speak(self, text: str, style: str = "") -> None:
        """A line for the person (a step kind's echo and help say theirs through it)."""
        self._say(text, style)

    def pad(self, who: str) -> str:
        """A player's name padded so that the columns of names line up."""
        return pad(who, self.width)

    def _echo(self, step: Step) -> None:
        """What the answer means, in the model's words (its kind says it)."""
        kind(step.kind).echo(self, self.view, step)

    def _help(self, step: Step | None) -> None:
        name = step.kind if step is not None else self.current.partition(":")[0]
        self._say(help_text())
        if name in KINDS:
            KINDS[name].help(self, self.view, step)
        self._say(say(msg("t.keys")), style="dim")

    # -- Tab completion -----------------------------------------------------------------------


class RoundEntry(_Said):
    """One round, asked question by question.

    ``players`` are in play order; ``dealer`` is the proposed 親 (RULES.md §8: the last winner).
    ``prefill``, a stored round file, gives every question its default (`edit N`). ``resume``:
    answers typed earlier (a draft), each taken again without asking while it checks out.
    ``form``: where the answers go (default: in memory); ``chain``: the 親 the chain gives (the
    last round's winner): another is taken after a yes.
    """

    def __init__(
        self,
        players: Sequence[str],
        dealer: str,
        ask: Ask,
        console: Console,
        *,
        prefill: Mapping[str, Any] | None = None,
        rules: Rules = SDIN,
        state: NightState | None = None,
        confirm: str | None = None,
        resume: Mapping[str, str] | None = None,
        chain: str | None = None,
        form: Any = None,
    ) -> None:
        if form is None:
            defaults = q.answers_of(prefill, players, rules) if prefill is not None else {}
            givens = Givens(tuple(players), defaults.get("dealer", dealer), rules, state, chain, defaults)
            form = Form(givens, resume)
        self.form = form
        self.g: Givens = form.givens
        self.ask = ask
        self.out = console
        self.confirm_prompt = confirm if confirm is not None else _("save?")
        #: each question's default: the last answer taken, or the stored round's
        self.texts: dict[str, str] = {"dealer": self.g.dealer, **self.g.defaults}
        self.width = max(cell_len(p) for p in self.g.players)
        self.current = "dealer"
        #: the answers typed earlier still to be taken again (each once, in the walk)
        self.resume = set(resume or ())

    @property
    def players(self) -> tuple[str, ...]:
        return self.g.players

    @property
    def rules(self) -> Rules:
        return self.g.rules

    @property
    def view(self) -> RoundView:
        return self.form.view()

    # -- the walk through the questions --------------------------------------------------------

    def run(self) -> Outcome:
        """Ask until the round is confirmed or is a 場四. Raises :class:`Aborted`."""
        self._say(say(msg("t.start", players=list(self.players))), style="dim")
        try:
            return self._walk()
        except (KeyboardInterrupt, EOFError) as e:
            self.out.print()
            raise Aborted("interrupted" if isinstance(e, KeyboardInterrupt) else "end of input") from None

    def again(self) -> Outcome:
        """The confirm asked again (answers arrived before the save): they are said first."""
        try:
            return self._walk(len(self.view.keys))
        except (KeyboardInterrupt, EOFError) as e:
            self.out.print()
            raise Aborted("interrupted" if isinstance(e, KeyboardInterrupt) else "end of input") from None

    def _walk(self, i: int = 0) -> Outcome:
        while True:
            self._news(i)
            v = self.view
            keys = v.keys
            if v.redeal and i >= len(keys):
                return Outcome(None, v.result)  # type: ignore[arg-type]  # a redeal has its result
            if i >= len(keys):
                outcome = self._confirm(v)
                if outcome is not None:
                    return outcome
                i -= 1
                continue
            key = self.current = keys[i]
            self._intro(key)
            answer = self._resumed(key) if key in self.resume else self._ask(key)
            if answer is _BACK:
                if i == 0:
                    self._say("  " + say(msg("t.first")), style="dim")
                i = max(0, i - 1)
            else:
                i += 1

    def _news(self, i: int) -> None:
        """What the phones and other terminals typed into this round meanwhile: each answer said,
        one still ahead taken without asking; one that changes what was typed here asked, theirs
        offered first."""
        catch_up = getattr(self.form, "catch_up", None)
        if catch_up is None:
            return
        ahead = set(self.view.keys[i:])
        for change in catch_up():
            if change.mine is not None:
                self._choose(change.key, change.theirs, change.mine, msg("t.differs", who=who_said(change.by),
                             said=q.said(change.key), theirs=change.theirs or "—", mine=change.mine or "—"))
                continue
            step = self.view.step(change.key)
            shown = (step.shown if step is not None else change.theirs) or "–"
            self._say("  " + say(msg("t.arrived", who=who_said(change.by), said=q.said(change.key), shown=shown)),
                      style="yellow")
            if change.key in ahead and change.theirs is not None:
                self.resume.add(change.key)

    def _choose(self, key: str, theirs: str | None, mine: str | None, question: Msg) -> None:
        """The person chooses between another writer's answer (1, offered first) and the one
        typed here (2); the one chosen is this terminal's answer (a phone's pile, not yet said
        complete by its player, is then complete)."""
        while True:
            word = _fold(self._asked(say(question)))
            if word in ("", "1", "2"):
                break
            self._say("  " + say(msg("t.differs.again")), style="red")
        text = mine if word == "2" else theirs
        if text is None:
            return  # taken back over there: asked again
        try:
            self.form.answer(key, text, done=True, keep_refused=True, overrule=word == "2")
        except Refused as e:  # kept as typed: asked again when the walk comes to it
            self._say(f"  ✗ {e.problem.message}", style="red")
        self.texts[key] = text

    def _resumed(self, key: str) -> Any:
        """A draft's answer to ``key``, taken again as if typed while it checks out; asked
        afresh (the draft's answer as its default) when it no longer does."""
        self.resume.discard(key)
        step = self.view.step(key)
        if step is None or step.text is None:
            return self._ask(key)
        if step.status != "answered":
            if step.problem is not None and not step.soft:
                self._say(f"  {self._prompt(step)}: {step.text}  ✗ {step.problem.message}", style="red")
            self.texts[key] = step.text
            return self._ask(key)
        self.texts[key] = step.shown
        self._say(f"  {self._prompt(step)}: {step.shown or '–'}", style="dim")
        self._echo(step)
        return None

    def _ask(self, key: str) -> Any:
        """Ask ``key`` until its answer checks out; None, or ``_BACK``."""
        refused = ""
        while True:
            step = self.view.step(key)
            default = self.texts.get(key, "")
            line = self._asked(f"{self._prompt(step)}{f' [{default}]' if default else ''}: ")
            if q.is_help(line):
                self._help(step)
                continue
            if q.is_back(line):
                if refused:  # refused for an earlier answer, maybe: the default when asked again
                    self.texts[key] = refused
                return _BACK
            text = line.strip() or default
            try:
                if key == "dealer":
                    self._confirm_chain(text)
                step = self._answer(key, text)
                if step.note is not None:  # 飛び込み wants the whole hand: offered once
                    again = self._asked(say(step.note)).strip()
                    if again and not q.is_back(again):
                        step = self._answer(key, again)
            except AnswerError as e:  # a yes refused (the 親 stays the chain's)
                self._say(f"  ✗ {e}", style="red")
                refused = line.strip() or refused
                continue
            except Overtaken as e:  # another writer answered it meanwhile, otherwise
                self._choose(key, e.theirs, text, msg("t.differs", who=who_said(e.by), said=q.said(key),
                                                      theirs=e.theirs or "—", mine=text or "—"))
                step = self.view.step(key)
                if step is None or step.status != "answered":
                    continue
            except Refused as e:
                self._say(f"  ✗ {e.problem.message}", style="red")
                # the default stays what it was (Enter must not submit the refused answer again);
                # going back to fix an earlier answer keeps it, as the default on the way forward
                refused = line.strip() or refused
                continue
            self.texts[key] = step.shown
            self._echo(step)
            return None

    def _answer(self, key: str, text: str) -> Step:
        """The form answered (the draft keeps the line, taken or not); the step as it now stands."""
        v = self.form.answer(key, text, done=True, keep_refused=True)
        return v.step(key)

    def _confirm_chain(self, text: str) -> None:
        """A 親 other than the last round's winner is taken only after a yes (who really dealt)."""
        try:
            who = q.read(self.g, "dealer", text, {}).value
        except AnswerError:
            return  # the form says why
        question = q.needs_confirm(self.g, "dealer", who)
        if question is not None and _fold(self._asked(say(question))) not in ("y", "yes", "はい"):
            raise AnswerError(msg("r.chain", chain=self.g.chain).said())

    def _prompt(self, step: Step | None) -> str:
        """The question as the terminal asks it: the model's label, a player's name padded so
        that the columns line up."""
        if step is None:
            return self.current
        label = step.label or q.label(self.g, self.view.values, step.key)
        return say(self._padded(label) if kind(step.kind).per_player else label)

    def _padded(self, m: Msg) -> Msg:
        """A player's question with the name padded (the columns of a player's questions line up)."""
        if any(k == "player" for k, _v in m.args):
            return Msg(m.id, tuple((k, pad(v, self.width) if k == "player" else v) for k, v in m.args))
        return m

    def _intro(self, key: str) -> None:
        v = self.view
        g = self.g
        seat_keys = [k for k in v.keys if k.startswith("seat:")]
        if g.seated and seat_keys and key == seat_keys[0]:
            self._say(say(msg("t.intro.seats")), style="dim")
            return
        forced = v.seating.forced_out if g.seated and v.seating is not None else ()
        if forced and key == f"hand:{forced[0]}":
            self._say(say(msg("t.intro.forced")), style="dim")
            return
        playing = v.order
        if not playing:
            return
        if key == f"hand:{playing[0]}":
            self._say(say(msg("t.intro.hands.groups" if g.grouped else "t.intro.hands")), style="dim")
        elif key == f"pile:{playing[0]}":
            rest = q.rest_offered(g, v.values, f"pile:{playing[-1]}")
            self._say(say(msg("t.intro.piles.rest" if rest else "t.intro.piles")), style="dim")

    # -- the confirm --------------------------------------------------------------------------

    def _confirm(self, v: RoundView) -> Outcome | None:
        """The full result, as `score` shows it, then save? The outcome, or None for back."""
        from .render import round_view

        if v.result is None:  # a check of the whole round (the 48 cards): back to the last pile
            for p in v.problems:
                self._say(f"  ✗ {p.message}", style="red")
            return None
        self.out.print()
        self.out.print(round_view(v.result))
        while True:
            word = _fold(self._asked(_("{question} [Y/n]: ").format(question=self.confirm_prompt)))
            if word in YES_WORDS:
                return Outcome(v.round_file, v.result)
            if word in NO_WORDS:
                raise Aborted("not saved")
            if q.is_back(word):
                return None
            if q.is_help(word):
                self._say(say(msg("t.confirm.help")))
                continue
            self._say(say(msg("t.confirm.again")), style="red")

    # -- echoes and help ----------------------------------------------------------------------

    def _say(self, text: str, style: str = "") -> None:
        """A line for the person, laid out at the console's width (Japanese by its rules, no
        player's name broken)."""
        self.out.print(Prose(text, style, self.players))

    def _asked(self, question: str) -> str:
        """The person's answer to ``question``, laid out as :meth:`_say` lays out a line."""
        return self.ask(prompt(question, self.out.width, self.players))

    def completions(self) -> list[str]:
        """The words Tab may complete at the current question."""
        if self.current == "confirm":
            return ["back", "yes", "no"]
        return ["back", *q.words_for(self.g, self.view.values, self.current)]


def enable_tab_completion(entry: RoundEntry) -> bool:
    """Let Tab complete card codes and names (and players, 手役, keywords), where readline exists."""
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without readline
        return False

    def complete(text: str, state: int) -> str | None:
        folded = _fold(text)
        matches = [w for w in entry.completions() if _fold(w).startswith(folded)]
        return matches[state] if state < len(matches) else None

    readline.set_completer_delims(" \t,")  # bytes to readline: a CJK 、 would split CJK names
    readline.set_completer(complete)
    if "libedit" in (readline.__doc__ or ""):  # pragma: no cover - macOS
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return True


def changes_view(players: Sequence[str], old: Sequence[Result], new: Sequence[Result],
                 numbers: Sequence[int]) -> Any:
    """After an edit: each round whose result changed, its 親 and every player's 文, old → new
    (a table that never cuts an amount: stacked on a narrow terminal)."""
    from .render import FitTable

    table = FitTable(_("results changed"), title_justify="left", pad_edge=False)
    table.add_column(_("round"), right=True)
    table.add_column("親", whole=True)
    for p in players:
        table.add_column(Text(p), right=True)
    for n in numbers:
        before, after = old[n - 1], new[n - 1]
        dealer = (after.round.dealer if before.round.dealer == after.round.dealer
                  else f"{before.round.dealer} → {after.round.dealer}")
        table.add_row(str(n), Text(dealer), *(
            Text(f"{before.mon(p):+d} → {after.mon(p):+d}" if before.mon(p) != after.mon(p)
                 else f"{after.mon(p):+d}") for p in players))
    from .night import totals

    was, now = totals(old, players), totals(new, players)
    table.add_row(_("total"), "", *(Text(f"{was[p]:+d} → {now[p]:+d}" if was[p] != now[p] else f"{now[p]:+d}",
                                      style="bold") for p in players))
    return table
