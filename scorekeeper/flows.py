"""The flows of a night: add a round, replace one, undo, the summary, and the whole life of a
round being typed (its draft). The one layer the fronts (the terminal, the phones) call, one call
per action; it holds no rule of its own (the rules are the core's: :mod:`scoring` and the round's
questions, :mod:`questions`; the files are :mod:`store`'s and :mod:`drafts`') and prints nothing.

:class:`Night` is one session of the book. Each write reads the session again under the book's
lock, checks that it is still the night the person was looking at, scores against it, and writes
with a compare-and-swap, so a round saved meanwhile by another terminal is never overwritten and
nothing half done is ever saved. The errors are typed: :class:`~scorekeeper.store.ChangedMeanwhile`
(another writer saved meanwhile), :class:`~scorekeeper.store.DamagedRound` (a stored round that no
longer scores), :class:`~scorekeeper.questions.NotAsked` (a question not asked, or not yet),
:class:`~scorekeeper.questions.Refused` (an answer that does not check out),
:class:`~scorekeeper.drafts.DraftConflict` and :class:`~scorekeeper.drafts.SavedElsewhere`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from typing import TYPE_CHECKING

from . import night
from .rules import Rules
from .scoring import NightState, Result, Round, score
from .errors import BookError, CantLock, ChangedMeanwhile, DamagedRound, SessionError
from .files import cant_write, damaged, refuse_read_only
from .lang import L_
from .store import Book, book_path

if TYPE_CHECKING:  # a command that only reads (summary, show) never loads the round's questions
    from . import questions as q
    from .drafts import Draft, Drafts


class Overtaken(ValueError):
    """An answer given against what another writer has since changed (a phone's queued tap sent
    late): nothing is kept, and the one line says whose answer changed."""

    def __init__(self, message: str, key: str) -> None:
        super().__init__(message)
        self.key = key


#: Night.answer's ``was`` when the writer states nothing it saw (a terminal, a tap sent at once)
UNCHECKED = object()


class Incomplete(ValueError):
    """A save of a round whose questions are not all answered: the one line names what is left."""

    def __init__(self, message: str, missing: Sequence[str]) -> None:
        super().__init__(message)
        self.missing = list(missing)


@dataclass
class Added:
    """A round saved: its number and result, and the night's results with it. A 場四 is shown and
    never saved: ``number`` is None."""

    number: int | None
    result: Result
    results: list[Result]

    @property
    def saved(self) -> bool:
        return self.number is not None


@dataclass
class Replaced:
    """Round ``number`` replaced: the night before and after, the rounds whose result changed,
    and the later rounds whose 親 no longer follows the chain."""

    number: int
    before: list[Result]
    after: list[Result]
    changed: list[int]
    breaks: list[int]


def rounds_digest(rounds: Sequence[Mapping[str, Any]]) -> str:
    """A short digest of a session's stored rounds: an edit saves only onto the rounds it began from."""
    raw = json.dumps(list(rounds), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8", "surrogateescape")).hexdigest()[:16]


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
        """Read the session and replay it (a round that no longer scores is marked, not fatal)."""
        self.session = self.book.session(self.sid)
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

    def _changed(self, what: str) -> ChangedMeanwhile:
        return ChangedMeanwhile(L_("{file}: {what}", file=self.session["file"], what=what), Path(self.session["file"]))

    # -- rounds ----------------------------------------------------------------------------------

    def score_next(self, data: Any) -> Result:
        """Score a round file as the night's next round (its players, 親, profile and state)."""
        return score(
            Round.from_dict(data, players=self.players, dealer=self.dealer, rules=self.rules),
            self.rules, self.state,
        )

    def add_round(self, data: Mapping[str, Any], *, expect_rounds: int | None = None) -> Added:
        """Score ``data`` as the next round and save it; a 場四 is scored and not saved. ``expect_rounds``:
        how many rounds the session had when the round was typed (another terminal's round
        meanwhile: :class:`ChangedMeanwhile`, nothing saved)."""
        with self.book.locked():
            self.load()
            if expect_rounds is not None and self.rounds != expect_rounds:
                raise self._changed(saved_meanwhile(self.rounds))
            self._require_scoring()
            result = self.score_next(data)
            if result.redeal:  # shown, and redealt: never a round of the night
                return Added(None, result, self.results)
            record = night.stored_record(result)
            before = self.session["rounds"]
            self.book.write_rounds(self.sid, before, [*before, record])
            self.session = self.book.session(self.sid)
            self.results = [*self.results, result]
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
                raise self._changed(L_("the session changed while round {number} was typed; nothing was saved: "
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
            before_results, base, old_results = self.results, self.session, self.results
            if number in self.bad:  # the old round can't be replayed: the night as if it were the new one
                base = {**base, "rounds": [{**r, "round": rnd.to_dict()} if n == number else r
                                           for n, r in enumerate(stored, 1)]}
                old_results = None
            records, changed, breaks, results = night.replace(base, number, rnd.to_dict(), rechain=rechain,
                                                              old=old_results)
            self.book.write_rounds(self.sid, stored, records, clean=not self.bad)
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
                raise self._changed(L_("the session changed meanwhile (now {n} rounds); nothing was removed",
                                       n=self.rounds))
            self._require_scoring(allow=self.rounds)
            before = self.session["rounds"]
            self.book.write_rounds(self.sid, before, before[:-1])
            self.session, self.results = self.book.session(self.sid), self.results[:-1]
        return before[-1]

    # -- a round being typed: its draft, from begin to save -----------------------------------

    def drafts_open(self) -> list[Draft]:
        """The session's drafts still being typed, the most recently written first. A mark left by
        a saved round, and a round thrown away, are swept once another round follows them."""
        out = []
        for draft, _ in self.drafts.all(self.sid):
            if draft.open:
                out.append(draft)
            elif (draft.saved_as < self.rounds if draft.saved_as is not None else draft.rounds_at < self.rounds):
                self.drafts.remove(self.sid, draft.id or "")
        return out

    def discarded(self) -> Draft | None:
        """The newest round thrown away since the last round was saved (it can be brought back)."""
        found = [d for d, _ in self.drafts.all(self.sid)
                 if d.discarded and d.saved_as is None and d.kind == "round" and d.rounds_at == self.rounds]
        return found[0] if found else None

    def draft_for(self, kind: str = "round", number: int | None = None) -> Draft | None:
        """The newest draft being typed for the next round (``round``) or for round ``number`` (``edit``)."""
        for draft in self.drafts_open():
            if draft.kind == kind and (kind == "round" or draft.number == number):
                return draft
        return None

    def draft(self) -> tuple[Draft | None, Path | None]:
        """The newest draft being typed for this session (of any kind), and where it is kept."""
        found = self.drafts_open()
        return (found[0], self.where(found[0])) if found else (None, None)

    def begin(self, kind: str = "round", number: int | None = None) -> Draft:
        """A new draft for the next round or for an edit of round ``number`` (on disk from its
        first answer; another draft being typed is never touched)."""
        from .drafts import Draft

        n = self.rounds + 1 if number is None else number
        draft = Draft(self.sid, kind, n, self.rounds)
        if kind == "edit":
            draft.base = rounds_digest(self.session["rounds"])
        return draft

    def resume(self, draft: Draft) -> tuple[Draft, int]:
        """Take a draft again: a draft for the next round begun before other rounds were saved
        becomes this round's, its 親 asked again. Returns it and how many rounds came between."""
        between = self.rounds - draft.rounds_at if draft.kind == "round" else 0
        if between > 0:
            draft.answers.pop("dealer", None)
            draft.rounds_at, draft.number = self.rounds, self.rounds + 1
        return draft, between

    def where(self, draft: Draft) -> Path | None:
        """Where the draft is kept (None: not on disk yet)."""
        if draft.id is None:
            return None
        return self.drafts.read(self.sid, draft.id)[1] or draft.where

    def givens(self, draft: Draft) -> q.Givens:
        """What the draft's round is asked against: the night now, or for an edit the night
        before the round, and the stored round's answers as each question's default."""
        from . import questions as q

        if draft.kind == "edit" and 1 <= draft.number <= self.rounds:
            record = self.session["rounds"][draft.number - 1].get("round") or {}
            defaults = {} if draft.number in self.bad else q.answers_of(record, self.players, self.rules)
            dealer = record.get("dealer") if record.get("dealer") in self.players else self.dealer
            return q.Givens(tuple(self.players), defaults.get("dealer", dealer), self.rules,
                            self.state_before(draft.number), None, defaults)
        return q.Givens(tuple(self.players), self.dealer, self.rules, self.state,
                        self.dealer if self.rounds else None)

    def view(self, draft: Draft) -> q.RoundView:
        """The round's questions as the draft's answers stand."""
        from . import questions as q

        return q.view(self.givens(draft), draft.answers, draft.done or ())

    def _fresh(self, draft: Draft) -> None:
        """The draft on disk is the one this writer holds: else :class:`SavedElsewhere` (its round
        was saved meanwhile) or :class:`DraftConflict` (another writer typed into it)."""
        from .drafts import DraftConflict, SavedElsewhere

        if draft.id is None:
            return
        on_disk, _ = self.drafts.read(self.sid, draft.id)
        if on_disk is not None and on_disk.saved_as is not None:
            raise SavedElsewhere(saved_elsewhere(on_disk.saved_as), on_disk.saved_as)
        seen = on_disk.revision if on_disk is not None else 0
        if seen != draft.revision:
            raise DraftConflict(L_("another terminal is typing this round's answers (draft revision {seen}, "
                                   "this one saw {revision})", seen=seen, revision=draft.revision))

    def _keep(self, draft: Draft) -> Path:
        return self.drafts.save(draft, draft.revision)

    @contextlib.contextmanager
    def _draft_lock(self) -> Iterator[None]:
        """The book's lock for a draft's write; where the lock can't even be opened (the book's
        folder turned read-only), the draft is still kept (in the user cache), its revision the
        only guard."""
        try:
            self.book.lock.acquire()
        except CantLock:
            yield
            return
        try:
            yield
        finally:
            self.book.lock.release()

    def answer(self, draft: Draft, key: str, text: str | None, *, done: bool = True,
               keep_refused: bool = False, was: Any = UNCHECKED) -> q.RoundView:
        """Answer ``key`` of the draft's round (None: take the answer back) and keep it, under the
        lock. A pile is complete when ``done`` (a tap is not: its player says so). A question not
        asked or not open is :class:`~scorekeeper.questions.NotAsked`; an answer that does not
        check out is :class:`~scorekeeper.questions.Refused`, and nothing of it is kept unless
        ``keep_refused`` (a terminal keeps every line typed). ``was``: the answer the writer saw
        (None: none); another since is :class:`Overtaken`."""
        from . import questions as q
        from .words import msg

        with self._draft_lock():
            self._fresh(draft)
            if was is not UNCHECKED and draft.answers.get(key) != was:
                raise Overtaken(msg("r.overtaken", said=q.said(key)).said(), key)
            givens = self.givens(draft)
            q.admit(q.view(givens, draft.answers, draft.done or ()), key)
            answers, marks = q.apply(draft.answers, draft.done or (), key, text, done)
            after = q.view(givens, answers, marks)
            problem = q.refusal(after, key, text)
            if problem is None or keep_refused:
                old = draft.answers, draft.done
                draft.answers, draft.done = answers, sorted(marks)
                try:
                    self._keep(draft)
                except BaseException:
                    draft.answers, draft.done = old
                    raise
        if problem is not None:
            raise q.Refused(problem, after)
        return after

    def back(self, draft: Draft, key: str) -> q.RoundView:
        """Take the answer to ``key`` back (a phone's "change"): the step is open again, and
        every other answer stays."""
        return self.answer(draft, key, None)

    def mark(self, draft: Draft, player: str, done: bool = True) -> q.RoundView:
        """``player`` says their pile is complete (or takes that back): the marks are the draft's."""
        from . import questions as q

        with self._draft_lock():
            self._fresh(draft)
            givens = self.givens(draft)
            q.admit(q.view(givens, draft.answers, draft.done or ()), f"pile:{player}")
            marks = q.mark(draft.done or (), player, done)
            if f"pile:{player}" not in draft.answers:
                draft.answers = {**draft.answers, f"pile:{player}": ""}  # an empty pile, said complete
            draft.done = sorted(marks)
            self._keep(draft)
        return self.view(draft)

    def save(self, draft: Draft, *, rechain: bool = False) -> Added | Replaced:
        """Save the draft's round once every question is answered, as `round` or `edit` saves it,
        then mark the draft saved (an edit's is removed). A 場四 is never saved: the draft goes and
        the result is returned unsaved. :class:`Incomplete`, :class:`ChangedMeanwhile` (another
        terminal saved meanwhile: the draft stays), :class:`SavedElsewhere`. The answers saved are
        the ones the caller holds (what the person confirmed), whoever typed into the draft since."""
        from . import questions as q
        from .drafts import SavedElsewhere
        from .words import msg

        with self.book.locked():
            self.load()
            on_disk = self.drafts.read(self.sid, draft.id)[0] if draft.id is not None else None
            if on_disk is not None and on_disk.saved_as is not None:
                raise SavedElsewhere(saved_elsewhere(on_disk.saved_as), on_disk.saved_as)
            if draft.kind == "round" and draft.rounds_at != self.rounds:
                raise self._changed(saved_meanwhile(self.rounds))
            v = self.view(draft)
            if v.redeal and draft.kind == "round":  # shown, and redealt: the draft goes
                self.discard(draft, for_good=True)
                return Added(None, v.result, self.results)
            if not v.complete:
                first = next((s.problem for s in v.steps if s.problem is not None), None) or next(iter(v.problems), None)
                if first is not None:
                    raise q.Refused(first, v)
                raise Incomplete(msg("r.not_done", missing=[q.said(k) for k in v.missing]).said(), v.missing)
            if draft.kind == "edit":
                done: Added | Replaced = self.replace_round(draft.number, v.round_file, rechain=rechain,
                                                            expect=draft.base)
            else:
                done = self.add_round(v.round_file, expect_rounds=draft.rounds_at)
        # the book is written: the draft goes, or stays as a mark for a terminal still holding it
        if isinstance(done, Replaced):
            self.discard(draft, for_good=True)
        else:
            self._saved_as(draft, done.number)
        return done

    def _saved_as(self, draft: Draft, number: int | None) -> None:
        draft.saved_as = number
        try:
            with self._draft_lock():
                on_disk = self.drafts.read(self.sid, draft.id)[0] if draft.id is not None else None
                self.drafts.save(draft, on_disk.revision if on_disk is not None else 0)
        except BookError:  # a mark that can't be written: the draft goes
            self.drafts.remove(self.sid, draft.id or "")

    def discard(self, draft: Draft | None = None, *, for_good: bool = False) -> bool:
        """Throw the draft away (default: every draft being typed); True if there was one. A round's
        draft can be brought back with :meth:`restore` until the next round is saved, unless
        ``for_good`` (a 場四, redealt); an edit's goes for good."""
        if draft is None:
            return any([self.discard(d, for_good=for_good) for d in self.drafts_open()])
        if draft.id is None:
            return False
        with self._draft_lock():
            on_disk, _ = self.drafts.read(self.sid, draft.id)
            if on_disk is None or not on_disk.open:
                return False
            if for_good or on_disk.kind != "round":
                return self.drafts.remove(self.sid, draft.id)
            on_disk.discarded = True
            self.drafts.save(on_disk, on_disk.revision)
        draft.discarded, draft.revision = True, on_disk.revision
        return True

    def restore(self) -> Draft | None:
        """Bring back the round thrown away since the last round was saved: its draft is being
        typed again, every answer as it was. None if there is none."""
        with self._draft_lock():
            draft = self.discarded()
            if draft is None:
                return None
            draft.discarded = False
            self.drafts.save(draft, draft.revision)
        return draft


def saved_meanwhile(number: int) -> str:
    """Another terminal saved round ``number`` while this one typed its round."""
    return L_("another terminal saved round {number} meanwhile; nothing was saved", number=number)


def saved_elsewhere(number: int) -> str:
    """The draft's round was saved meanwhile by another terminal, as round ``number``."""
    return L_("these answers were saved meanwhile, by another terminal, as round {number}", number=number)


class DraftForm:
    """A night's draft as a form the terminal's prompt loop answers (the shape of
    :class:`scorekeeper.questions.Form`): every answer goes through :meth:`Night.answer` and is
    kept as it is typed. A draft that can't be written (a full disk, another terminal typing into
    it) is said once through ``notice``, and the round goes on in memory."""

    def __init__(self, night: Night, draft: Draft, notice: Callable[[BookError], None],
                 kept: Callable[[Path], None] | None = None) -> None:
        from . import questions as q

        self.night, self.draft, self.notice, self.kept = night, draft, notice, kept
        self.givens = night.givens(draft)
        self.memory = q.Form(self.givens, draft.answers, draft.done or ())
        self.keeping = True

    @property
    def answers(self) -> dict[str, str]:
        return self.memory.answers

    def view(self) -> q.RoundView:
        return self.memory.view()

    def answer(self, key: str, text: str | None, *, done: bool = True, keep_refused: bool = False) -> q.RoundView:
        from . import questions as q
        from .drafts import SavedElsewhere

        if self.keeping:
            try:
                after = self.night.answer(self.draft, key, text, done=done, keep_refused=keep_refused)
            except q.Refused as e:
                if keep_refused:
                    self._take(e.view)
                raise
            except (q.NotAsked, SavedElsewhere):
                raise
            except BookError as e:  # the disk, the lock, another terminal typing into it
                self.keeping = False
                self.notice(e)
            else:
                self._take(after)
                if self.kept is not None and self.draft.where is not None:
                    self.kept(self.draft.where)
                return after
        try:
            return self.memory.answer(key, text, done=done, keep_refused=keep_refused)
        finally:  # the draft in hand holds what the person typed: the save takes it
            self.draft.answers, self.draft.done = dict(self.memory.answers), sorted(self.memory.done)

    def _take(self, v: q.RoundView | None) -> None:
        self.memory.hold(self.draft.answers, self.draft.done or (), v)

    def mark(self, player: str, done: bool) -> q.RoundView:
        if self.keeping:
            self._take(self.night.mark(self.draft, player, done))
            return self.view()
        return self.memory.mark(player, done)
