"""The flows of a night: add a round, replace one, undo, the summary, and the drafts of rounds
being typed. The one layer the fronts (the terminal, the phones) call; it holds no rule of its own
(the rules are :mod:`scoring`'s, the files :mod:`store`'s) and prints nothing.

:class:`Night` is one session of the book. Each operation replays the session once: writes read
the session again under the book's lock, check that it is still the night the person was looking
at (``expect``), score against it, and write with a compare-and-swap, so a round saved meanwhile by
another terminal is never overwritten and nothing half done is ever saved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from . import night
from .drafts import Draft, Drafts
from .rules import Rules
from .scoring import NightState, Result, Round, RoundError, score
from .store import Book, BookError, SessionError, _has, _record, book_path, cant_write, damaged


@dataclass
class Added:
    """A round saved: its number and result, and the night's results with it."""

    number: int
    result: Result
    results: list[Result]


@dataclass
class AnswerCheck:
    """A draft's answers checked as the terminal checks them, question by question: the
    questions in the order the terminal asks them, the problem of each answer that does not
    check out (``check.Problem``, naming the card where it can), the questions still to come,
    and, once every answer is in and checks out, the round file and its result."""

    steps: list[str]
    problems: dict[str, Any]
    missing: list[str]
    round_file: dict[str, Any] | None = None
    result: Result | None = None
    #: more than three seated: the play-or-drop phase as far as the answers reach (the entry's
    #: own reading of the ``seat:NAME`` answers): ``volunteers``, ``dropped``, ``forced_out``,
    #: ``must`` (seats that play because a drop is refused there), ``playing`` (who plays the
    #: round out, in turn order from the round's 親) and ``settled``; None with three seated
    seating: dict[str, Any] | None = None


@dataclass
class Replaced:
    """Round ``number`` replaced: the night before and after, the rounds whose result changed,
    and the later rounds whose 親 no longer follows the chain."""

    number: int
    before: list[Result]
    after: list[Result]
    changed: list[int]
    breaks: list[int]


class Night:
    """One session of the book, and every operation on it."""

    def __init__(self, book: Book, sid: str, *, load: bool = True) -> None:
        self.book = book
        self.sid = sid
        self.drafts = Drafts(book.path)
        if load:  # a write loads afresh under the lock anyway
            self.load()

    @classmethod
    def open(cls, db: str | os.PathLike[str] | None = None, session: str | None = None,
             notice: Callable[[str], None] | None = None) -> "Night":
        """The session ``session`` (an id, a name or a number; default the current one) of the
        book at ``db`` (``--db``, ``$HACHI_SCORE_DB`` or the user data directory)."""
        book = Book.open(book_path(db)) if notice is None else Book.open(book_path(db), notice)
        return cls(book, book.resolve(session))

    def load(self) -> None:
        """Read the session and replay it (a round that no longer scores is marked, not fatal)."""
        self.session = self.book.session(self.sid)
        try:
            self.rules: Rules = night.session_rules(self.session)
        except (ValueError, KeyError, TypeError) as e:
            raise damaged(Path(self.session["file"]), f"its rule profile can't be read ({e})") from None
        self.results = night.replay_lenient(self.session)

    # -- what the night is now ---------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return list(self.session["players"])

    @property
    def rounds(self) -> int:
        return len(self.session["rounds"])

    @property
    def planned(self) -> int:
        return int(self.session.get("planned_rounds") or 12)

    @property
    def dealer(self) -> str:
        """The next round's 親: the last round's winner (the first 親 before any round)."""
        return night.current_dealer(self.session, self.results)

    @property
    def state(self) -> NightState:
        return night.current_state(self.results)

    @property
    def bad(self) -> dict[int, str]:
        """The stored rounds that no longer score, by number."""
        return night.bad_rounds(self.results)

    def state_before(self, number: int) -> NightState:
        """The night's state at the start of round ``number``."""
        return night.current_state(self.results[: number - 1])

    def summary(self) -> dict[str, Any]:
        """The object `summary --json` prints."""
        return night.summary_data(self.session, self.results)

    def header(self, number: int | None = None) -> str:
        """``session 'Friday' (s2) · round 13 — past the planned 12``: said before a round is typed;
        the plan counts months, so after a misdeal ``round 13, month 12 — the last of the planned 12``."""
        n = self.rounds + 1 if number is None else number
        month = night.months_played(self.results[: n - 1]) + 1
        plan = (f"the last of the planned {self.planned}" if month == self.planned
                else f"past the planned {self.planned}" if month > self.planned else f"of {self.planned}")
        which = f"round {n}" if month == n else f"round {n}, month {month}"
        return f"session {self.session['name']!r} ({self.sid}) · {which} — {plan} · rules {self.rules.name}"

    def chain_break(self, result: Result, number: int | None = None) -> str | None:
        """The previous round's winner when ``result``'s 親 is not them (a break of the chain)."""
        n = self.rounds + 1 if number is None else number
        if n <= 1:
            return None if result.round.dealer == self.session["dealer"] else self.session["dealer"]
        expected = self.results[n - 2].next_dealer
        return None if result.round.dealer == expected else expected

    # -- checks before anything is typed -------------------------------------------------------

    def check_writable(self) -> None:
        """Raise :class:`BookError` now if a round could not be saved: before the first question,
        not after the last."""
        self._require_scoring()
        folder = Path(self.session["file"]).parent
        try:
            with self.book.lock:
                import tempfile  # only when writing: a command that reads starts quicker

                fd, tmp = tempfile.mkstemp(prefix=".write-check.", suffix=".tmp", dir=folder)
                os.close(fd)
                os.unlink(tmp)
        except OSError as e:
            raise cant_write(Path(self.session["file"]), e) from None
        if not os.access(self.session["file"], os.W_OK) and os.geteuid() != 0:
            raise cant_write(Path(self.session["file"]), PermissionError(13, "Permission denied"))

    def _require_scoring(self, allow: int | None = None) -> None:
        """A write to a session holding a round that no longer scores is refused (the book's
        damage); ``allow``: the bad round being replaced."""
        bad = {n: why for n, why in self.bad.items() if n != allow}
        if bad:
            n = min(bad)
            raise damaged(Path(self.session["file"]), f"{bad[n]} (edit {n} replaces it)")

    # -- writes ----------------------------------------------------------------------------------

    def score_next(self, data: Any) -> Result:
        """Score a round file as the night's next round (its players, 親, profile and state)."""
        return score(
            Round.from_dict(data, players=self.players, dealer=self.dealer, rules=self.rules),
            self.rules, self.state,
        )

    def add_round(self, data: Mapping[str, Any], *, expect_rounds: int | None = None) -> Added:
        """Score ``data`` as the next round and save it. ``expect_rounds``: how many rounds the
        session had when the round was typed (another terminal's round meanwhile: nothing saved)."""
        with self.book.locked():
            self.load()
            if expect_rounds is not None and self.rounds != expect_rounds:
                raise BookError(f"{self.session['file']}: another terminal saved a round meanwhile "
                                f"(now {self.rounds}); nothing was saved", Path(self.session["file"]))
            self._require_scoring()
            result = self.score_next(data)
            if result.redeal:
                raise RoundError("field", "is a 場四 (four cards of a month): the round is redealt and never saved")
            before = self.session["rounds"]
            self.book.write_rounds(self.sid, before, [*before, _record(result)])
            self.session = self.book.session(self.sid)
            self.results = [*self.results, result]
        return Added(self.rounds, result, self.results)

    def replace_round(self, number: int, data: Mapping[str, Any], *, rechain: bool = False,
                      expect: Sequence[Mapping[str, Any]] | None = None) -> Replaced:
        """Replace round ``number`` (CONTRACT §5): every later result is recomputed; later rounds
        keep their recorded 親 unless ``rechain``. ``expect``: the stored rounds the edit began
        from (changed meanwhile: nothing saved). A round that no longer scores may be replaced."""
        with self.book.locked():
            self.load()
            if expect is not None and self.session["rounds"] != list(expect):
                raise BookError(f"{self.session['file']}: the session changed while round {number} was "
                                "typed; nothing was saved: edit it again", Path(self.session["file"]))
            if not 1 <= number <= self.rounds:
                raise SessionError(f"round {number}: session {self.sid} has "
                                   + (f"rounds 1 to {self.rounds}" if self.rounds else "no rounds yet"))
            self._require_scoring(allow=number)
            old = self.session["rounds"][number - 1].get("round") or {}
            dealer = None if _has(data, "dealer") else old.get("dealer")
            rnd = Round.from_dict(data, players=self.players, dealer=dealer, rules=self.rules)
            if rnd.redeal:
                raise RoundError("field", f"is a 場四: a redeal is not a round; round {number} was left as it is")
            before_results, stored = self.results, self.session["rounds"]
            base, old = self.session, before_results
            if number in self.bad:  # the old round can't be replayed: the night as if it were the new one
                base = {**base, "rounds": [{**r, "round": rnd.to_dict()} if n == number else r
                                           for n, r in enumerate(stored, 1)]}
                old = None
            records, changed, breaks, results = night.replace(base, number, rnd.to_dict(), rechain=rechain, old=old)
            self.book.write_rounds(self.sid, stored, records, clean=number not in self.bad)
            self.session, self.results = self.book.session(self.sid), results
            if number in night.bad_rounds(before_results):
                changed = sorted({*changed, number})
        return Replaced(number, before_results, self.results, changed, breaks)

    def undo(self, *, expect: int | None = None) -> dict[str, Any]:
        """Remove the last round and return it. ``expect``: the number it must have."""
        with self.book.locked():
            self.load()
            if not self.rounds:
                raise SessionError(f"session {self.sid} ({self.session['name']}) has no rounds: nothing to undo")
            if expect is not None and self.rounds != expect:
                raise BookError(f"{self.session['file']}: the session changed meanwhile (now {self.rounds} "
                                "rounds); nothing was removed", Path(self.session["file"]))
            self._require_scoring(allow=self.rounds)
            before = self.session["rounds"]
            self.book.write_rounds(self.sid, before, before[:-1])
            self.session, self.results = self.book.session(self.sid), self.results[:-1]
        return before[-1]

    def check_answers(self, answers: Mapping[str, str]) -> AnswerCheck:
        """Check a draft's answers (text as typed, by question: ``dealer``, ``field``,
        ``hand:NAME``, ``ended``, ``sage``, ``how``, ``pile:NAME``) exactly as `round` takes
        them: through the terminal entry's own answer reading and the draft validator, each
        answer against the ones before it in the terminal's order. An answer that does not
        check out is left out of the rest, as the terminal asks it again; ``rest`` waits for
        the other two piles. For a front that gets answers in any order (the phones)."""
        from io import StringIO

        from rich.console import Console

        from .check import Problem, check_draft
        from .entry import REST_WORDS, AnswerError, RoundEntry, _fold
        from .notation import CardError

        def no_questions(prompt: str) -> str:  # resumed answers never ask (confirm_chain=False)
            raise AnswerError(prompt)

        entry = RoundEntry(self.players, self.dealer, no_questions, Console(file=StringIO()),
                           rules=self.rules, state=self.state)
        done: list[str] = []
        problems: dict[str, Any] = {}
        missing: list[str] = []
        i = 0
        while True:
            steps = [k for k in entry.steps() if k != "confirm"]
            if i >= len(steps):
                break
            key = steps[i]
            i += 1
            if key not in answers:
                missing.append(key)
                continue
            text = answers[key]
            if key.startswith("pile:") and _fold(text) in REST_WORDS and any(
                    k.startswith("pile:") and k != key and k not in done for k in steps):
                missing.append(key)  # rest: the deck less the other two piles, once they are in
                continue
            try:
                value, shown, rnd = entry.read_answer(key, text, list(done), confirm_chain=False)
            except (AnswerError, CardError) as e:  # a CardError: a pile typed before the field
                message = str(e)
                problem = Problem("answer" if isinstance(e, AnswerError) else "card", key, message)
                if key == "field" or key.startswith("pile:"):  # the validator's own, with its card
                    said = check_draft(entry.round_file({**{k: entry.values[k] for k in done}, key: text}),
                                       rules=self.rules)
                    if said.problems and (said.problems[0].message == message or isinstance(e, CardError)):
                        problem = said.problems[0]
                problems[key] = problem
                continue
            entry.values[key] = value
            entry.texts[key] = shown
            done.append(key)
            if rnd is not None and rnd.redeal:
                break
        check = AnswerCheck([k for k in entry.steps() if k != "confirm"], problems, missing)
        if entry._seated:
            _, seating, must = entry.seats(entry.values)
            check.seating = {"settled": seating is not None, "must": list(must),
                             "volunteers": list(seating.volunteers) if seating else [],
                             "dropped": list(seating.dropped) if seating else [],
                             "forced_out": list(seating.forced_out) if seating else [],
                             "playing": entry.order()}
        redeal = "field" in done and _redeal(entry)
        if not problems and (redeal or not missing):
            check.round_file = entry.round_file({k: entry.values[k] for k in done})
            check.missing = [] if redeal else check.missing
            check.result = self.score_next(check.round_file)
        return check

    # -- drafts --------------------------------------------------------------------------------

    def draft(self) -> tuple[Draft | None, Path | None]:
        """The round being typed for this session, and where it is kept."""
        return self.drafts.load(self.sid)

    def new_draft(self, kind: str = "round", number: int | None = None) -> Draft:
        return Draft(self.sid, kind, self.rounds + 1 if number is None else number, self.rounds)

    def keep(self, draft: Draft, seen: int) -> Path:
        """Save the draft as its next revision (see :meth:`Drafts.save`)."""
        return self.drafts.save(draft, seen)

    def discard(self) -> bool:
        return self.drafts.discard(self.sid)


def _redeal(entry: Any) -> bool:
    """Is the field answered a 場四 (the round ends there, nothing else is asked)?"""
    from .check import cards_of
    from .scoring import is_bashi

    return is_bashi(cards_of(entry.values["field"]))
