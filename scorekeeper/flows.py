"""The flows of a night: add a round, replace one, undo, the summary. The one layer the fronts
(the terminal, the phones) call, one call per action; it holds no rule of its own (the rules are
the core's: :mod:`scoring` and the round's questions, :mod:`questions`; the files are
:mod:`store`'s) and prints nothing. The round being typed has its own owner, over this one:
:class:`scorekeeper.round_draft.RoundDraft`.

:class:`Night` is one session of the book. Each write reads the session again under the book's
lock, checks that it is still the night the person was looking at, scores against it, and writes
with a compare-and-swap, so a round saved meanwhile by another terminal is never overwritten and
nothing half done is ever saved. The errors are typed: :class:`~scorekeeper.errors.ChangedMeanwhile`
(another writer saved meanwhile), :class:`~scorekeeper.errors.DamagedRound` (a stored round that
no longer scores), :class:`~scorekeeper.errors.SessionError`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from typing import TYPE_CHECKING

from . import night
from .scoring import NightState, Result, Round, score
from .errors import ChangedMeanwhile, DamagedRound, SessionError
from .files import cant_write, damaged, refuse_read_only
from .lang import L_
from .store import Book, book_path

if TYPE_CHECKING:  # a command that only reads (summary, show) never loads the round's questions
    from .rules import Rules
    from . import questions as q
    from .drafts import Drafts


class Added(NamedTuple):
    """A round saved: its number and result, and the night's results with it. A 場四 is shown and
    never saved: ``number`` is None. (Tuples, these two: a dataclass costs every command that opens
    a night ~0.7 ms of start-up to make, and these are made only by a write.)"""

    number: int | None
    result: Result
    results: list[Result]

    @property
    def saved(self) -> bool:
        return self.number is not None


class Replaced(NamedTuple):
    """Round ``number`` replaced: the night before and after, the rounds whose result changed,
    and the later rounds whose 親 no longer follows the chain."""

    number: int
    before: list[Result]
    after: list[Result]
    changed: list[int]
    breaks: list[int]


def rounds_digest(rounds: Sequence[Mapping[str, Any]]) -> str:
    """A short digest of a session's stored rounds: an edit saves only onto the rounds it began from."""
    from .files import sha256

    raw = json.dumps(list(rounds), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return sha256(raw.encode("utf-8", "surrogateescape")).hexdigest()[:16]


class Night:
    """One session of the book, and every operation on it."""

    def __init__(self, book: Book, sid: str, *, load: bool = True) -> None:
        self.book = book
        self.sid = sid
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
        """Read the session and replay it (a round that no longer scores is marked, not fatal); a
        session read again as it was is not replayed again."""
        session = self.book.session(self.sid)
        if self.__dict__.get("session") == session and "results" in self.__dict__:
            return
        self.session = session
        try:
            self.rules: Rules = night.session_rules(self.session)
        except (ValueError, KeyError, TypeError) as e:
            raise damaged(Path(self.session["file"]),
                          L_("its rule profile can't be read ({why})", why=str(e))) from None
        self.results = night.replay_lenient(self.session)

    @property
    def drafts(self) -> Drafts:
        """The drafts of the book (read when a round is typed)."""
        from .drafts import Drafts

        found = self.__dict__.get("_drafts")
        if found is None:
            found = self.__dict__["_drafts"] = Drafts(self.book.path)
        return found

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

    @property
    def ended(self) -> bool:
        """The night was ended on a phone (:mod:`night_end`'s mark), and not reopened since."""
        from .night_end import read_mark

        return read_mark(self.book.path, self.sid)["ended"]

    def _reopen(self) -> None:
        """A round saved after the night was ended on a phone plays on: the end is no longer shown."""
        from .night_end import read_mark, write_mark

        mark = read_mark(self.book.path, self.sid)
        if mark["ended"]:
            write_mark(self.book.path, self.sid, ended=False, more=mark["more"])

    def header(self, number: int | None = None, *, edit: bool = False) -> str:
        """``session 'Friday' (s2) · round 13 — past the planned 12``: said before a round is typed;
        the plan counts months, so after a misdeal ``round 13, month 12 — the last of the planned 12``.
        ``edit``: the round is being replaced (``· edit round 3 …``)."""
        n = self.rounds + 1 if number is None else number
        month = night.months_played(self.results[: n - 1]) + 1
        plan = (L_("the last of the planned {planned}", planned=self.planned) if month == self.planned
                else L_("past the planned {planned}", planned=self.planned) if month > self.planned
                else L_("of {planned}", planned=self.planned))
        if edit:
            which = (L_("edit round {n}", n=n) if month == n
                     else L_("edit round {n}, month {month}", n=n, month=month))
        else:
            which = L_("round {n}", n=n) if month == n else L_("round {n}, month {month}", n=n, month=month)
        return L_("session {name!r} ({sid}) · {which} — {plan} · rules {rules}", name=self.session["name"],
                  sid=self.sid, which=which, plan=plan, rules=self.rules.name)

    def chain_break(self, result: Result, number: int | None = None) -> str | None:
        """The previous round's winner when ``result``'s 親 is not them (a break of the chain)."""
        n = self.rounds + 1 if number is None else number
        if n <= 1:
            return None if result.round.dealer == self.session["dealer"] else self.session["dealer"]
        expected = self.results[n - 2].next_dealer
        return None if result.round.dealer == expected else expected

    # -- checks before anything is typed -------------------------------------------------------

    def check_writable(self, allow: int | None = None) -> None:
        """Raise :class:`BookError` now if a round could not be saved: before the first question,
        not after the last (``allow``: the round being replaced, which may be one that no longer
        scores)."""
        self._require_scoring(allow)
        folder = Path(self.session["file"]).parent
        try:
            with self.book.lock:
                import tempfile  # only when writing: a command that reads starts quicker

                fd, tmp = tempfile.mkstemp(prefix=".write-check.", suffix=".tmp", dir=folder)
                os.close(fd)
                os.unlink(tmp)
        except OSError as e:
            raise cant_write(Path(self.session["file"]), e) from None
        for path in (Path(self.session["file"]), self.book.path):
            refuse_read_only(path)

    def _require_scoring(self, allow: int | None = None) -> None:
        """A write to a session holding a round that no longer scores is refused (the book's
        damage); replacing one of them is allowed (``allow``), whatever the others."""
        bad = self.bad
        if not bad or allow in bad:
            return
        n = min(bad)
        what = L_("{problem} (edit {n} replaces it)", problem=bad[n], n=n)
        raise DamagedRound(damaged(Path(self.session["file"]), what).args[0], Path(self.session["file"]), n, what)

    def changed(self, what: str) -> ChangedMeanwhile:
        """Another writer saved meanwhile: ``what`` said, with the session's file."""
        return ChangedMeanwhile(L_("{file}: {what}", file=self.session["file"], what=what), Path(self.session["file"]))

    # -- rounds ----------------------------------------------------------------------------------

    def score_next(self, data: Any) -> Result:
        """Score a round file as the night's next round (its players, 親, profile and state)."""
        return score(
            Round.from_dict(data, players=self.players, dealer=self.dealer, rules=self.rules),
            self.rules, self.state,
        )

    def add_round(self, data: Mapping[str, Any], *, expect_rounds: int | None = None,
                  scored: Result | None = None) -> Added:
        """Score ``data`` as the next round and save it; a 場四 is scored and not saved. ``expect_rounds``:
        how many rounds the session had when the round was typed (another terminal's round
        meanwhile: :class:`ChangedMeanwhile`, nothing saved). ``scored``: ``data`` already scored
        against this night, read under the lock held now (not scored again)."""
        with self.book.locked():
            self.load()
            if expect_rounds is not None and self.rounds != expect_rounds:
                raise self.changed(saved_meanwhile(self.rounds))
            self._require_scoring()
            result = scored if scored is not None else self.score_next(data)
            if result.redeal:  # shown, and redealt: never a round of the night
                return Added(None, result, self.results)
            record = night.stored_record(result)
            before = self.session["rounds"]
            self.book.write_rounds(self.sid, before, [*before, record], results=[*self.results, result])
            self.session = self.book.session(self.sid)
            self.results = [*self.results, result]
            self._reopen()
        return Added(self.rounds, result, self.results)

    def replace_round(self, number: int, data: Mapping[str, Any], *, rechain: bool = False,
                      expect: Sequence[Mapping[str, Any]] | str | None = None) -> Replaced:
        """Replace round ``number`` (CONTRACT §5): every later result is recomputed; later rounds
        keep their recorded 親 unless ``rechain``. ``expect``: the stored rounds the edit began
        from, or their :func:`rounds_digest` (changed meanwhile: nothing saved). A round that no
        longer scores may be replaced, whatever other rounds do."""
        with self.book.locked():
            self.load()
            stored = self.session["rounds"]
            if expect is not None and (rounds_digest(stored) != expect if isinstance(expect, str)
                                       else stored != list(expect)):
                raise self.changed(L_("the session changed while round {number} was typed; nothing was saved: "
                                       "edit it again", number=number))
            if not 1 <= number <= self.rounds:
                raise SessionError(L_("round {number}: session {sid} has rounds 1 to {last}", number=number,
                                      sid=self.sid, last=self.rounds) if self.rounds
                                   else L_("round {number}: session {sid} has no rounds yet", number=number,
                                           sid=self.sid))
            self._require_scoring(allow=number)
            old = stored[number - 1].get("round") or {}
            has_dealer = isinstance(data, Mapping) and data.get("dealer") is not None
            rnd = Round.from_dict(data, players=self.players, dealer=None if has_dealer else old.get("dealer"),
                                  rules=self.rules)
            old_results: list[Result] | None
            before_results, base, old_results = self.results, self.session, self.results
            if number in self.bad:  # the old round can't be replayed: the night as if it were the new one
                base = {**base, "rounds": [{**r, "round": rnd.to_dict()} if n == number else r
                                           for n, r in enumerate(stored, 1)]}
                old_results = None
            records, changed, breaks, results = night.replace(base, number, rnd.to_dict(), rechain=rechain,
                                                              old=old_results)
            self.book.write_rounds(self.sid, stored, records, clean=not self.bad,
                                   results=None if night.bad_rounds(results) else results)
            self.session, self.results = self.book.session(self.sid), results
            if number in night.bad_rounds(before_results):
                changed = sorted({*changed, number})
        return Replaced(number, before_results, self.results, changed, breaks)

    def undo(self, *, expect: int | None = None) -> dict[str, Any]:
        """Remove the last round and return it. ``expect``: the number it must have."""
        with self.book.locked():
            self.load()
            if not self.rounds:
                raise SessionError(L_("session {sid} ({name}) has no rounds: nothing to undo", sid=self.sid,
                                      name=self.session["name"]))
            if expect is not None and self.rounds != expect:
                raise self.changed(L_("the session changed meanwhile (now {n} rounds); nothing was removed",
                                       n=self.rounds))
            self._require_scoring(allow=self.rounds)
            before = self.session["rounds"]
            self.book.write_rounds(self.sid, before, before[:-1],
                                   results=None if night.bad_rounds(self.results[:-1]) else self.results[:-1])
            self.session, self.results = self.book.session(self.sid), self.results[:-1]
        return before[-1]

    # -- a round being typed (its owner: :class:`scorekeeper.round_draft.RoundDraft`) ---------------

    def givens(self, kind: str = "round", number: int | None = None) -> q.Givens:
        """What a round is asked against: the next round's, the night now; an edit of round
        ``number``'s, the night before it, and the stored round's answers as each question's
        default."""
        from . import questions as q

        if kind == "edit" and number is not None and 1 <= number <= self.rounds:
            record = self.session["rounds"][number - 1].get("round") or {}
            defaults = {} if number in self.bad else q.answers_of(record, self.players, self.rules)
            dealer = record.get("dealer") if record.get("dealer") in self.players else self.dealer
            return q.Givens(tuple(self.players), defaults.get("dealer", dealer), self.rules,  # type: ignore[arg-type]
                            self.state_before(number), None, defaults)
        return q.Givens(tuple(self.players), self.dealer, self.rules, self.state,
                        self.dealer if self.rounds else None)


def saved_meanwhile(number: int) -> str:
    """Round ``number`` was saved while this writer typed its round: by a phone or another
    terminal (which one is not known here, so neither is blamed)."""
    return L_("round {number} was saved meanwhile, on a phone or at another terminal; nothing was saved", number=number)
