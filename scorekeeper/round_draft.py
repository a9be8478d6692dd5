"""The round being typed, and its one owner: :class:`RoundDraft`.

Every front (the terminal's `round` and `edit`, the phones of `serve`) types a round through
here, and nowhere else is it decided which draft is typed into, what a stale draft is, what a
tap sent late may change, or what becomes of answers whose round another writer saved. The
answer protocol itself is the round's questions' (:func:`scorekeeper.questions.answer` and
:func:`~scorekeeper.questions.mark_pile`, pure); the files are :mod:`scorekeeper.drafts`'; the
book's writes are :class:`scorekeeper.flows.Night`'s. The fronts import neither of those two
for a round: only this module and its typed errors.

The rules, one place each:

- **Which draft.** A round's answers belong to the round they were typed for. The draft typed
  into is the newest one still open for that round (:meth:`RoundDraft.kept`), else a new one.
- **Stale.** A draft for the next round begun before another round was saved is stale. It is
  never typed into as the next round: its answers are set aside (:meth:`RoundDraft.set_aside`)
  if they differ from that round as saved, and go if they don't. Answers set aside are offered by
  `edit N` (the round they were typed for) and by `round --restore` (as the next round, its 親
  asked again), until the next round is saved.
- **Saved elsewhere.** A writer still holding answers whose round was saved meanwhile is told
  which of them differ from the round as saved (:class:`~scorekeeper.errors.SavedElsewhere`'s
  ``differences``), and they are set aside, never dropped.
- **A tap.** An answer that states what it saw (``was``) and the round it was for is applied to
  the newest draft, retried when another writer typed meanwhile; one that changed meanwhile is
  :class:`Overtaken`. A line typed at the terminal states nothing: it goes into the revision its
  terminal holds, or raises :class:`~scorekeeper.errors.DraftConflict`.
- **A card tap.** A pile typed card by card on the phones is a set of taps, merged
  (:meth:`RoundDraft.card`): each says one card's count as the phone saw it and once tapped, so
  that taps of other cards, from any phone, all land and the same card tapped on two is one.
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Self, Sequence

from . import questions as q
from .cards import card
from .drafts import Draft
from .errors import BookError, CantLock, DraftConflict, RoundTaken, SavedElsewhere, SessionError
from .lang import L_
from .notation import CardError
from .words import Msg, msg

if TYPE_CHECKING:
    from .flows import Added, Night, Replaced


class Overtaken(ValueError):
    """An answer given against what another writer has since changed (a phone's queued tap sent
    late): nothing is kept, and the one line says whose answer changed."""

    def __init__(self, message: str, key: str, theirs: str | None = None, by: str = "") -> None:
        super().__init__(message)
        self.key, self.theirs, self.by = key, theirs, by


class ThrownAway(BookError):
    """The round being typed was thrown away by another writer meanwhile (a phone's "throw this
    round away"): every answer typed here is in it, and `round --restore` brings it back."""


@dataclass
class Change:
    """An answer another writer gave meanwhile: ``theirs`` now stands, given ``by`` them; ``mine``
    is what this writer had typed to the question (None: not typed here)."""

    key: str
    theirs: str | None
    mine: str | None
    by: str


#: who answers from the phones (a draft's ``by``)
PHONE = "phone"


@functools.cache
def writer_id(kind: str = "terminal") -> str:
    """This process as a writer of drafts: ``terminal:HOST:PID`` (or ``serve:…``)."""
    import os
    import platform  # its node() is the host's name, as socket's gethostname(); the command has it loaded

    return f"{kind}:{platform.node()}:{os.getpid()}"


def alive(writer: str) -> bool:
    """A writer still running: a process of this machine whose pid lives (of another machine:
    it can't be told, so yes)."""
    import os
    import platform

    _kind, _, rest = writer.partition(":")
    host, _, pid = rest.rpartition(":")
    if host != platform.node():
        return True
    try:
        os.kill(int(pid), 0)
    except PermissionError:
        return True
    except (OSError, ValueError):
        return False
    return True


def who_said(by: str, to_phone: bool = False) -> Msg:
    """Whose answer it is, as a person says it at a terminal (a phone, another terminal) or on a
    phone (``to_phone``: another phone, the terminal)."""
    if by == PHONE:
        return msg("w.phone.other" if to_phone else "w.phone")
    return msg("w.terminal.the" if to_phone else "w.terminal")


class Incomplete(ValueError):
    """A save of a round whose questions are not all answered: the one line names what is left."""

    def __init__(self, message: str, missing: Sequence[str]) -> None:
        super().__init__(message)
        self.missing = list(missing)


class NothingToRestore(SessionError):
    """`round --restore` with no round thrown away (or set aside) since the last round was saved."""


#: an answer's ``was`` when the writer states nothing it saw (a terminal, a tap sent at once)
UNCHECKED = object()
#: how often a tap is applied again when another writer typed into the draft meanwhile
TAP_TRIES = 3


@dataclass
class Aside:
    """Answers set aside: typed for round ``number``, which another writer saved meanwhile.
    ``differences``: the questions they answer otherwise than that round as saved."""

    number: int
    differences: list[str]
    said: Msg
    #: each difference in a line: the question, as typed here, as saved
    lines: list[Msg]
    #: the night's players (their names are never broken when it is said)
    players: tuple[str, ...] = ()
    #: each difference: as typed here, and as saved
    mine: dict[str, str] = field(default_factory=dict)
    saved: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "differences": self.differences, "said": self.said.to_json(),
                "lines": [m.to_json() for m in self.lines]}


class _InStep:
    """One draft kept in step with its file under the lock: what other writers did meanwhile,
    kept in, set aside or saved (the private half of :class:`RoundDraft`)."""

    def __init__(self, night: Night, draft: Draft) -> None:
        self.night, self.draft = night, draft
        #: what other writers answered meanwhile, taken by a merging answer and not said yet
        self.arrived: list[Change] = []

    @staticmethod
    @contextlib.contextmanager
    def _lock(night: Night) -> Iterator[None]:
        """The book's lock for a draft's write; where the lock can't even be opened (the book's
        folder turned read-only), the draft is still kept (in the user cache), its revision the
        only guard."""
        try:
            night.book.lock.acquire()
        except CantLock:
            yield
            return
        try:
            yield
        finally:
            night.book.lock.release()

    @staticmethod
    def _open(night: Night) -> list[Draft]:
        """The session's drafts still being typed, the most recently written first. A mark left by
        a saved round, and a round thrown away or set aside, are swept once another round follows."""
        out = []
        for draft, _ in night.drafts.all(night.sid):
            if draft.open:
                out.append(draft)
            elif (draft.saved_as < night.rounds if draft.saved_as is not None else draft.rounds_at < night.rounds):
                night.drafts.remove(night.sid, draft.id or "")
        return out

    @staticmethod
    def _aside(night: Night) -> list[Draft]:
        """The rounds thrown away or set aside since the last round was saved, the newest first."""
        return [d for d, _ in night.drafts.all(night.sid)
                if d.discarded and d.saved_as is None and d.kind == "round" and d.rounds_at == night.rounds]

    @classmethod
    def _current(cls, night: Night) -> tuple[list[Draft], list[Aside]]:
        """The drafts being typed for the night as it is now, the most recently written first,
        once each stale one is set aside (:meth:`set_aside`); and what was set aside."""
        current, asides = [], []
        for draft in cls._open(night):
            if draft.kind != "round" or draft.rounds_at >= night.rounds:
                current.append(draft)
                continue
            with cls._lock(night):
                on_disk = night.drafts.read(night.sid, draft.id or "")[0]
                if on_disk is None or not on_disk.open or on_disk.revision != draft.revision:
                    continue  # another writer moved it meanwhile: its own look decides
                aside = cls(night, on_disk)._put_aside(on_disk.number, on_disk.answers)
            if aside is not None:
                asides.append(aside)
        return current, asides

    def _catch_up(self, typing: dict[str, str] | None = None) -> list[Change]:
        """:meth:`catch_up` under the lock held: the draft on disk taken as this one, and what
        it answers otherwise than the one held here (``typing``: the answer being given, kept
        with the rest if the round is gone)."""
        night, held = self.night, self.draft
        if held.id is None:  # not on disk yet: another writer may have begun this round meanwhile
            if held.kind != "round":
                return []
            on_disk = next((d for d in self._open(night) if d.kind == "round" and d.rounds_at == held.rounds_at), None)
            if on_disk is None:
                return []
        else:
            on_disk = night.drafts.read(night.sid, held.id)[0]
            self._saved_meanwhile(on_disk, typing)
            if on_disk is None or on_disk.revision == held.revision:
                return []
            if on_disk.discarded:
                self._keep_in(on_disk, {**held.answers, **(typing or {})})
                raise ThrownAway(msg("r.thrown_away").said())
        keys = sorted(set(on_disk.answers) | set(held.answers), key=list({**held.answers, **on_disk.answers}).index)
        changes = [Change(k, on_disk.answers.get(k), held.answers.get(k) if held.by.get(k) == self.me else None,
                          on_disk.by.get(k, PHONE))
                   for k in keys if on_disk.answers.get(k) != held.answers.get(k)]
        on_disk.typing = sorted(set(on_disk.typing) | set(held.typing))
        self.draft = on_disk
        return changes

    def _keep_in(self, on_disk: Draft, answers: dict[str, str]) -> None:
        """Answers typed here kept in a draft another writer threw away (brought back with it)."""
        missing = {k: v for k, v in answers.items() if k not in on_disk.answers}
        if missing:
            on_disk.answers.update(missing)
            with contextlib.suppress(BookError):
                self.night.drafts.save(on_disk, on_disk.revision)

    @property
    def me(self) -> str:
        """This process as a terminal writing drafts."""
        return writer_id()

    def _fresh(self, typing: dict[str, str] | None = None) -> None:
        """The draft on disk is the one held here: else :class:`SavedElsewhere` (its round was
        saved meanwhile; ``typing``: the answer being given, set aside with the rest) or
        :class:`DraftConflict` (another writer typed into it)."""
        if self.draft.id is None:
            return
        on_disk, _ = self.night.drafts.read(self.night.sid, self.draft.id)
        self._saved_meanwhile(on_disk, typing)
        seen = on_disk.revision if on_disk is not None else 0
        if seen != self.draft.revision:
            raise DraftConflict(L_("this round's answers are being typed on a phone or at another terminal "
                                   "(draft revision {seen}, this one saw {revision})", seen=seen, revision=self.draft.revision))

    def _saved_meanwhile(self, on_disk: Draft | None, typing: dict[str, str] | None = None) -> None:
        """:class:`SavedElsewhere` when ``on_disk`` (this draft as read now) says another writer
        saved its round: the answers held here (and ``typing``, the one being given) that differ
        from it are set aside, and named."""
        if on_disk is None or on_disk.saved_as is None:
            return
        number = on_disk.saved_as
        if self.night.rounds < number:  # the night held here was read before that save
            self.night.load()
        aside = self._put_aside(number, {**self.draft.answers, **(typing or {})}, new=True)
        raise SavedElsewhere(saved_elsewhere(number), number, aside)

    def _put_aside(self, number: int, answers: dict[str, str], *, new: bool = False) -> Aside | None:
        """Set ``answers`` (typed for round ``number``, saved meanwhile) aside when they differ from
        it, as a round thrown away that `edit N` and `round --restore` offer; else the draft goes.
        ``new``: in a draft of their own (the one held here is another writer's mark)."""
        night = self.night
        record = night.session["rounds"][number - 1].get("round") or {} if 1 <= number <= night.rounds else {}
        g = night.givens("edit", number) if record else None
        saved = q.answers_of(record, night.players, night.rules) if record and number not in night.bad else {}
        keys = q.differences(g, answers, saved) if g is not None else [k for k, v in answers.items() if v]
        draft = Draft(night.sid, "round", night.rounds + 1, night.rounds, dict(answers),
                      done=list(self.draft.done or ())) if new else self.draft
        if not keys:
            if not new:
                night.drafts.remove(night.sid, draft.id or "")
            return None
        draft.discarded, draft.overtaken = True, number
        draft.rounds_at, draft.number = night.rounds, night.rounds + 1
        try:
            night.drafts.save(draft, draft.revision if not new else 0)
        except BookError:
            pass  # the answers are still named to the person; they can't be kept on disk
        lines = [msg("a.diff", said=q.said(k), mine=answers.get(k) or "—", saved=saved.get(k) or "—") for k in keys]
        return Aside(number, keys, msg("a.aside", number=number, what=[q.said(k) for k in keys]), lines,
                     tuple(night.players), {k: answers.get(k) or "" for k in keys}, {k: saved.get(k) or "" for k in keys})

    def _keep(self, got: q.Answered, by: dict[str, str] | None = None,
              overruled: dict[str, str | None] | None = None) -> None:
        """Write the answers ``got``, each of ``by`` marked as that writer's; ``overruled``: the
        answers (key -> the one it replaced) chosen over another writer's."""
        draft = self.draft
        old = draft.answers, draft.done, dict(draft.by), dict(draft.overruled), draft.revision
        draft.answers, draft.done = got.answers, sorted(got.done)
        for key, writer in (by or {}).items():
            draft.by[key] = writer
            draft.overruled.pop(key, None)
        for key, was in (overruled or {}).items():
            if was is not None and was != draft.answers.get(key):
                draft.overruled[key] = {"text": was, "by": old[2].get(key, PHONE), "kept_by": draft.by.get(key, "")}
        try:
            self.night.drafts.save(draft, draft.revision)
        except BaseException:
            draft.answers, draft.done, draft.by, draft.overruled, draft.revision = old
            raise

    def _mark_saved(self, number: int | None) -> None:
        night, draft = self.night, self.draft
        draft.saved_as = number
        try:
            with self._lock(night):
                on_disk = night.drafts.read(night.sid, draft.id)[0] if draft.id is not None else None
                night.drafts.save(draft, on_disk.revision if on_disk is not None else 0)
        except BookError:  # a mark that can't be written: the draft goes
            night.drafts.remove(night.sid, draft.id or "")


class _Drafts(_InStep):
    """A night's drafts: which one a round is typed in, begun, kept, set aside or put back (the
    class side of :class:`RoundDraft`)."""

    @classmethod
    def begin(cls, night: Night, kind: str = "round", number: int | None = None) -> Self:
        """A new draft for the next round, or for an edit of round ``number`` (another draft being
        typed is never touched)."""
        from .flows import rounds_digest

        n = night.rounds + 1 if number is None else number
        draft = Draft(night.sid, kind, n, night.rounds)
        if kind == "edit":
            draft.base = rounds_digest(night.session["rounds"])
        return cls(night, draft)

    @classmethod
    def kept(cls, night: Night, kind: str = "round", number: int | None = None) -> Self | None:
        """The draft still being typed for the next round (``round``) or for round ``number``
        (``edit``; answers set aside from that round are taken as its edit), stale ones set aside
        first. None: nothing is kept for it."""
        for draft in cls._current(night)[0]:
            if draft.kind == kind and (kind == "round" or draft.number == number):
                return cls(night, draft)
        if kind == "edit":
            aside = next((d for d in cls._aside(night) if d.overtaken == number), None)
            if aside is not None:
                from .flows import rounds_digest

                with cls._lock(night):  # an edit's draft from now on: a saved edit removes it
                    aside.kind, aside.number, aside.discarded = "edit", number, False  # type: ignore[assignment]
                    aside.base = rounds_digest(night.session["rounds"])
                    night.drafts.save(aside, aside.revision)
                return cls(night, aside)
        return None

    @classmethod
    def take(cls, night: Night) -> Self:
        """The next round as the phones type it: the draft kept for it, else a new one."""
        return cls.kept(night) or cls.begin(night)

    @classmethod
    def newest(cls, night: Night) -> Self | None:
        """The newest draft being typed for this session, of any kind."""
        found = cls._current(night)[0]
        return cls(night, found[0]) if found else None

    @classmethod
    def set_aside(cls, night: Night) -> list[Aside]:
        """The one rule for a stale draft (a next round's draft begun before another round was
        saved): set aside if its answers differ from the round it was typed for, as saved, else
        gone. Returns what was set aside."""
        return cls._current(night)[1]

    @classmethod
    def discarded(cls, night: Night) -> Self | None:
        """The newest round thrown away (or set aside) since the last round was saved."""
        found = cls._aside(night)
        return cls(night, found[0]) if found else None

    @classmethod
    def restore(cls, night: Night) -> Self:
        """Bring back the round thrown away (or set aside) since the last round was saved: typed
        again as the next round, every answer as it was (the 親 of one set aside asked again).
        :class:`NothingToRestore` if there is none."""
        with cls._lock(night):
            found = cls.discarded(night)
            if found is None:
                raise NothingToRestore(msg("d.none").said())
            draft = found.draft
            if draft.overtaken is not None:  # typed for a round saved since: this round's 親 is asked
                draft.answers.pop("dealer", None)
                draft.overtaken = None
            draft.discarded = False
            night.drafts.save(draft, draft.revision)
        return found

    @staticmethod
    def folders(night: Night) -> list[Path]:
        """Where a night's drafts are kept: beside the book, else the user cache (for a watcher)."""
        return [night.drafts.beside, night.drafts.cache]


class RoundDraft(_Drafts):
    """One round being typed: the night it is for, and its draft (on disk from its first answer)."""

    def restorable_said(self) -> Msg:
        """This round, thrown away or set aside, as the line that offers it back."""
        if self.draft.overtaken is not None:
            return msg("a.restorable", number=self.draft.overtaken, what=self.summary())
        return msg("d.done", what=self.summary())

    @property
    def answers(self) -> dict[str, str]:
        return self.draft.answers

    @property
    def number(self) -> int:
        return self.draft.number

    @property
    def kind(self) -> str:
        return self.draft.kind

    @property
    def revision(self) -> int:
        return self.draft.revision

    @property
    def where(self) -> Path | None:
        """Where the draft is kept (None: not on disk yet)."""
        if self.draft.id is None:
            return None
        return self.night.drafts.read(self.night.sid, self.draft.id)[1] or self.draft.where

    @property
    def beside_book(self) -> bool:
        """Kept beside the book (not in the user cache, the book's folder being read-only)."""
        where = self.where
        return where is None or where.parent == self.night.drafts.beside

    @property
    def givens(self) -> q.Givens:
        return self.night.givens(self.draft.kind, self.draft.number)

    def view(self) -> q.RoundView:
        """The round's questions as the draft's answers stand."""
        return q.view(self.givens, self.draft.answers, self.draft.done or ())

    def summary(self) -> Msg:
        """What is typed, in a line (for "throw away …?", "resume …?")."""
        return q.typed_summary(self.view(), self.draft.answers)

    def answer(self, key: str, text: str | None, *, done: bool = True, keep_refused: bool = False,
               was: Any = UNCHECKED, by: str = PHONE, merge: bool = False,
               overrule: bool = False) -> q.RoundView:
        """Answer ``key`` (None: take it back) and keep it, under the lock, as given ``by`` a
        writer. A pile is complete when ``done`` (a tap is not: its player says so). ``merge``:
        what other writers typed meanwhile is taken first (:meth:`catch_up`; :attr:`arrived`),
        rather than a :class:`~scorekeeper.errors.DraftConflict`. ``overrule``: this answer is
        chosen over another writer's (said on the phones). :class:`~scorekeeper.questions.NotAsked`,
        :class:`~scorekeeper.questions.Refused` (nothing kept unless ``keep_refused``: a terminal
        keeps every line typed), :class:`Overtaken` (``was``: the answer the writer saw, changed
        since to another than ``text``), :class:`~scorekeeper.errors.DraftConflict`,
        :class:`~scorekeeper.errors.SavedElsewhere`, :class:`ThrownAway`."""
        with self._lock(self.night):
            if merge:  # the question answered now is not news: it is answered, or asked of the person
                self.arrived += [c for c in self._catch_up({key: text} if text is not None else {}) if c.key != key]
            self._fresh({key: text} if text is not None else {})
            now = self.draft.answers.get(key)
            if was is not UNCHECKED and now != was and now != text:
                by_now = self.draft.by.get(key, PHONE)
                raise Overtaken(msg("r.overtaken", said=q.said(key), who=who_said(by_now, to_phone=True)).said(),
                                key, now, by_now)
            got = q.answer(self.givens, self.draft.answers, self.draft.done or (), key, text, complete=done)
            if got.problem is None or keep_refused:
                self._keep(got, {key: by}, {key: now} if overrule else {})
        if got.problem is not None:
            raise q.Refused(got.problem, got.view)
        return got.view

    def card(self, key: str, code: str, seen: int, count: int, *, was: Any = UNCHECKED) -> q.RoundView:
        """A phone's tap of one card of pile ``key``: ``code`` held ``seen`` times as it saw the
        pile, ``count`` times once tapped (a kasu's code may be held twice), merged under the lock
        with what other writers tapped meanwhile (:func:`tapped_pile`): taps of other cards all
        land, and the same card tapped so on two phones is one. The pile is not complete after it.
        :class:`Overtaken` when that card, or a pile given otherwise than by its cards, changed
        meanwhile (``was``: the pile's answer the writer saw); else as :meth:`answer`."""
        with self._lock(self.night):
            self._fresh()
            text = tapped_pile(self.givens, self.draft.answers, key, code, seen, count, was,
                               self.draft.by.get(key, PHONE))
            if text is None:  # held so already: the same tap, from another phone
                return self.view()
            got = q.answer(self.givens, self.draft.answers, self.draft.done or (), key, text, complete=False)
            if got.problem is None:
                self._keep(got, {key: PHONE})
        if got.problem is not None:
            raise q.Refused(got.problem, got.view)
        return got.view

    def join(self) -> None:
        """This terminal holds the round now: said to another terminal that finds it (written at
        once where the draft is on disk, else with its first answer)."""
        if self.me in self.draft.typing:
            return
        self.draft.typing = sorted({*self.draft.typing, self.me})
        if self.draft.id is not None:
            with contextlib.suppress(BookError), self._lock(self.night):
                self.night.drafts.save(self.draft, self.draft.revision)  # moved meanwhile: its next answer

    def leave(self) -> None:
        """This terminal no longer holds the round (its last write, where there is a draft)."""
        with contextlib.suppress(BookError), self._lock(self.night):
            on_disk = self.night.drafts.read(self.night.sid, self.draft.id)[0] if self.draft.id is not None else None
            if on_disk is not None and self.me in on_disk.typing:
                on_disk.typing = [w for w in on_disk.typing if w != self.me]
                self.night.drafts.save(on_disk, on_disk.revision)

    def others_typing(self) -> list[str]:
        """The other terminals holding this round now (their processes still running)."""
        return [w for w in self.draft.typing if w != self.me and alive(w)]

    def catch_up(self) -> list[Change]:
        """Take what other writers typed into this round since this writer last looked (the
        draft on disk, or one another writer began for the same round meanwhile, becomes the one
        held): the answers that changed, in the order the questions were first answered.
        :class:`~scorekeeper.errors.SavedElsewhere`,
        :class:`ThrownAway`."""
        with self._lock(self.night):
            self.arrived += self._catch_up()
        got, self.arrived = self.arrived, []
        return got

    def back(self, key: str) -> q.RoundView:
        """Take the answer to ``key`` back (a phone's "change"): the step is open again."""
        return self.answer(key, None)

    def mark(self, player: str, done: bool = True, *, merge: bool = False) -> q.RoundView:
        """``player`` says their pile is complete (or takes that back); ``merge`` as for :meth:`answer`."""
        with self._lock(self.night):
            if merge:
                self.arrived += self._catch_up()
            self._fresh()
            got = q.mark_pile(self.givens, self.draft.answers, self.draft.done or (), player, done)
            self._keep(got)
        return got.view

    @classmethod
    def tap(cls, night_of: Callable[[], Night], act: Callable[[RoundDraft], q.RoundView],
            key: str, round_for: int | None = None, draft_for: str | None = None) -> tuple[RoundDraft, q.RoundView]:
        """A phone's tap on the next round: ``act`` applied to the draft being typed now, again
        on the newest when another writer typed into it meanwhile. ``round_for``: the round the
        tap was made for (saved since: :class:`Overtaken`, never landing in the next round);
        ``draft_for``: the draft it was made in (thrown away or set aside since: :class:`Overtaken`,
        never landing in the draft begun after it)."""
        for _attempt in range(TAP_TRIES):
            rd = cls.take(night_of())
            if round_for is not None and round_for != rd.number:
                raise Overtaken(msg("r.saved_since", number=round_for).said(), key)
            if draft_for is not None and draft_for != rd.draft.id:
                raise Overtaken(msg("r.draft_gone").said(), key)
            try:
                return rd, act(rd)
            except SavedElsewhere:
                raise
            except DraftConflict:
                continue
        raise DraftConflict(L_("this round keeps being typed on a phone or at another terminal: try again"))

    def save(self, *, revision: int | None = None, rechain: bool = False) -> Added | Replaced:
        """Save the round once every question is answered, as `round` or `edit` saves it, then
        mark the draft saved (an edit's goes). A 場四 is never saved: the draft goes and the
        result is returned unsaved. ``revision``: the one the person confirmed (another since:
        :class:`~scorekeeper.errors.DraftConflict`). The answers saved are the ones held here
        (what the person confirmed). :class:`Incomplete`, :class:`~scorekeeper.errors.ChangedMeanwhile`
        (another round saved meanwhile: the draft stays), :class:`~scorekeeper.errors.SavedElsewhere`."""
        from .flows import Added, saved_meanwhile

        night, draft = self.night, self.draft
        with night.book.locked():
            night.load()
            if draft.id is not None:
                on_disk = night.drafts.read(night.sid, draft.id)[0]
                self._saved_meanwhile(on_disk)
                if on_disk is not None and on_disk.revision != draft.revision:  # another writer typed since
                    raise DraftConflict(msg("r.typed_since").said())
            if revision is not None and revision != draft.revision:
                raise DraftConflict(L_("the round changed since it was shown: look at it again before saving"))
            if draft.kind == "round" and draft.rounds_at != night.rounds:  # its round taken by another's
                number = draft.rounds_at + 1
                aside = self._put_aside(number, draft.answers, new=True)
                if draft.id is not None:
                    night.drafts.remove(night.sid, draft.id)
                raise RoundTaken(saved_meanwhile(number), Path(night.session["file"]), number, aside)
            v = self.view()
            if v.redeal and draft.kind == "round":  # shown, and redealt: the draft goes
                self.discard(for_good=True)
                return Added(None, v.result, night.results)  # type: ignore[arg-type]  # a redeal has its result
            if not v.complete:
                first = next((s.problem for s in v.steps if s.problem is not None), None) or next(iter(v.problems), None)
                if first is not None:
                    raise q.Refused(first, v)
                raise Incomplete(msg("r.not_done", missing=[q.said(k) for k in v.missing]).said(), v.missing)
            if draft.kind == "edit":
                done: Added | Replaced = night.replace_round(draft.number, v.round_file, rechain=rechain,  # type: ignore[arg-type]
                                                             expect=draft.base)
            else:
                done = night.add_round(v.round_file, expect_rounds=draft.rounds_at, scored=v.result)  # type: ignore[arg-type]
        from .flows import Replaced

        if isinstance(done, Replaced):
            self.discard(for_good=True)
        else:  # the draft stays as a mark for a writer still holding it
            self._mark_saved(done.number)
        return done

    def discard(self, *, for_good: bool = False) -> bool:
        """Throw the draft away; True if there was one. A round's can be brought back with
        :meth:`restore` until the next round is saved, unless ``for_good`` (a 場四, redealt); an
        edit's goes for good."""
        night, draft = self.night, self.draft
        if draft.id is None:
            return False
        with self._lock(night):
            on_disk, _ = night.drafts.read(night.sid, draft.id)
            if on_disk is None or not on_disk.open:
                return False
            if for_good or on_disk.kind != "round":
                return night.drafts.remove(night.sid, draft.id)
            on_disk.discarded = True
            night.drafts.save(on_disk, on_disk.revision)
        draft.discarded, draft.revision = True, on_disk.revision
        return True

    def form(self, notice: Callable[[BookError], None], kept: Callable[[Path], None] | None = None) -> DraftForm:
        """This round as the terminal's entry answers it (:class:`DraftForm`)."""
        return DraftForm(self, notice, kept)


def pile_cards(g: q.Givens, key: str, text: str | None) -> list[str] | None:
    """Pile ``key``'s answer as the codes of its cards (none typed: none); None when it is given
    otherwise (its count, rest, its 出来役's names) or can't be read."""
    if text is None:
        return []
    if q.is_rest(text):
        return None
    try:
        value = q.read(g, key, text, {}).value
    except (q.AnswerError, CardError):
        return None
    return list(value) if isinstance(value, list) else None


def tapped_pile(g: q.Givens, answers: Mapping[str, str], key: str, code: str, seen: int, count: int,
                was: Any = UNCHECKED, by: str = PHONE) -> str | None:
    """Pile ``key``'s answer once ``code`` is tapped from ``seen`` to ``count`` over ``answers``
    (None: it holds that already). The card's count is set when it is still ``seen``, and left
    when another tap has already brought it as far (the same card, tapped on two phones); moved
    the other way meanwhile, :class:`Overtaken`. A pile given otherwise (its count, rest, its
    出来役's names) becomes the card tapped only when ``was`` is that answer, as the writer saw it."""
    text = answers.get(key)
    codes = pile_cards(g, key, text)
    if codes is None:
        if was is UNCHECKED or was != text:
            raise Overtaken(msg("r.overtaken", said=q.said(key), who=who_said(by, to_phone=True)).said(), key, text, by)
        codes = []
    now = codes.count(code)
    if now == count or (seen < count < now) or (now < count < seen):
        return None
    if now != seen:
        face = card(code)
        raise Overtaken(msg("r.overtaken.card", card=f"{face.code} {face.ja}", said=q.said(key)).said(), key)
    for _ in range(now - count):
        del codes[len(codes) - 1 - codes[::-1].index(code)]
    return " ".join(codes + [code] * (count - now))


def saved_elsewhere(number: int) -> str:
    """The draft's round was saved meanwhile, by a phone or another terminal, as round ``number``."""
    return L_("these answers were saved meanwhile, on a phone or at another terminal, as round {number}", number=number)


class DraftForm:
    """A round being typed as a form the terminal's prompt loop answers (the shape of
    :class:`scorekeeper.questions.Form`): every answer goes through :meth:`RoundDraft.answer` and
    is kept as it is typed, merged with what the phones and other terminals type into the same
    round meanwhile (:meth:`catch_up`; an answer they changed one way and this terminal another
    is :class:`Overtaken`, for the person to choose). A draft that can't be written (a full disk)
    is said once through ``notice``, and the round goes on in memory, by the same protocol."""

    def __init__(self, rd: RoundDraft, notice: Callable[[BookError], None],
                 kept: Callable[[Path], None] | None = None) -> None:
        self.rd, self.notice, self.kept = rd, notice, kept
        self.givens = rd.givens
        self.memory = q.Form(self.givens, rd.draft.answers, rd.draft.done or ())
        self.keeping = True
        rd.join()

    @property
    def answers(self) -> dict[str, str]:
        return self.memory.answers

    def view(self) -> q.RoundView:
        return self.memory.view()

    def answer(self, key: str, text: str | None, *, done: bool = True, keep_refused: bool = False,
               overrule: bool = False) -> q.RoundView:
        """Answer ``key`` as this terminal's; ``overrule``: chosen over another writer's answer."""
        if self.keeping:
            rd = self.rd
            try:
                after = rd.answer(key, text, done=done, keep_refused=keep_refused, was=rd.draft.answers.get(key),
                                  by=rd.me, merge=True, overrule=overrule)
            except q.Refused as e:
                if keep_refused:
                    self._take(e.view)
                raise
            except Overtaken:
                self._take(None)  # what the others typed is held here now
                raise
            except (q.NotAsked, SavedElsewhere, ThrownAway):
                raise
            except BookError as e:  # the disk, the lock
                self.keeping = False
                self.notice(e)
            else:
                self._take(after)
                if self.kept is not None and rd.draft.where is not None:
                    self.kept(rd.draft.where)
                return after
        try:
            return self.memory.answer(key, text, done=done, keep_refused=keep_refused)
        finally:  # the draft in hand holds what the person typed: the save takes it
            self.rd.draft.answers, self.rd.draft.done = dict(self.memory.answers), sorted(self.memory.done)

    def catch_up(self) -> list[Change]:
        """What the phones and other terminals typed into this round since the last look, taken
        (none while the round goes on in memory)."""
        if not self.keeping:
            return []
        got = self.rd.catch_up()
        if got:
            self._take(None)
        return got

    def leave(self) -> None:
        self.rd.leave()

    def _take(self, v: q.RoundView | None) -> None:
        self.memory.hold(self.rd.draft.answers, self.rd.draft.done or (), v)

    def mark(self, player: str, done: bool) -> q.RoundView:
        if self.keeping:
            self._take(self.rd.mark(player, done, merge=True))
            return self.view()
        try:
            return self.memory.mark(player, done)
        finally:
            self.rd.draft.answers, self.rd.draft.done = dict(self.memory.answers), sorted(self.memory.done)
