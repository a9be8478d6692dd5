"""The book's errors, one type for each way it fails, so that no caller tells them apart by their words.

A :class:`BookError` is the book's failure (exit status 1, CONTRACT §6): its message is the one line
said, naming the file, what is wrong and what to do. Its kinds::

    BookError
      Damaged           the bytes can't be used: a torn write, a hand edit, a missing file
        DamagedRound    a stored round no longer scores: `edit N` replaces it
      NewerBook         written by a newer hachi-score: not damage, never touched
      ChangedMeanwhile  another writer saved first: nothing was written
        RoundTaken      the round being typed was saved meanwhile from other answers
      DraftConflict     another writer typed into the round's draft since this one read it
        SavedElsewhere  the draft's round was saved meanwhile, by another terminal or phone
      Locked            another hachi-score held the lock past the wait
      CantRead          the disk refused a read (permissions, a folder where a file should be)
      CantWrite         the disk refused a write (full, read-only, permissions)
        CantLock        the lock file itself can't be opened

A :class:`SessionError` is a request the book can't apply (exit status 2): no such session, a bad
option, a night the book already holds (:class:`AlreadyHeld`).
"""

from __future__ import annotations

from pathlib import Path

from .lang import L_


class BookError(Exception):
    """The book can't be read or written: one line, exit status 1. ``path`` is the file concerned
    and ``problem`` what is wrong with it, where known."""

    def __init__(self, message: str, path: Path | None = None, problem: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.problem = problem


class Damaged(BookError):
    """A file of the book can't be used as it is: it was left as it is, and is never overwritten."""


class DamagedRound(Damaged):
    """A stored round no longer scores (edited by hand, damaged): the night can't take a new
    round until ``edit N`` replaces it."""

    def __init__(self, message: str, path: Path | None = None, number: int = 0, problem: str | None = None) -> None:
        super().__init__(message, path, problem)
        self.number = number


class NewerBook(BookError):
    """A file written by a newer hachi-score (a newer schema): not damage, and never touched."""


class ChangedMeanwhile(BookError):
    """Another writer saved a round (or changed the session) since this one read it: nothing
    was written."""


class DraftConflict(BookError):
    """Another writer (a terminal, a phone) saved the round's draft since this one last read it."""


class SavedElsewhere(DraftConflict):
    """The draft's round was saved meanwhile, by another terminal or phone, as round ``number``.
    ``aside``: what this writer held that differs from that round as saved, set aside (a
    :class:`scorekeeper.round_draft.Aside`; None: nothing differs), told to the person, never
    dropped silently."""

    def __init__(self, message: str, number: int, aside: object = None) -> None:
        super().__init__(message)
        self.number = number
        self.aside = aside


class RoundTaken(ChangedMeanwhile):
    """The round being typed was saved meanwhile by another writer, from other answers (a file,
    another draft) as round ``number``: ``aside`` as for :class:`SavedElsewhere`."""

    def __init__(self, message: str, path: Path | None, number: int, aside: object = None) -> None:
        super().__init__(message, path)
        self.number = number
        self.aside = aside


class Locked(BookError):
    """Another hachi-score held the book's lock for the whole wait: nothing was changed."""


class CantRead(BookError):
    """The disk refused to read a file of the book (permissions, a folder in its place)."""


class CantWrite(BookError):
    """The disk refused a write (full, read-only, permissions): nothing was changed."""


class CantLock(CantWrite):
    """The book's lock file can't be opened (a read-only folder, a full disk): nothing can be
    written to the book, though a draft may still be kept elsewhere."""


class SessionError(ValueError):
    """A request the book can't apply: no such session, no round N, a bad option (exit 2)."""


class AlreadyHeld(SessionError):
    """A night to import that the book holds already, whole or in part (CONTRACT §5): ``sid`` is
    the session that holds it (or that it holds), ``how`` :func:`scorekeeper.digests.overlap`'s
    word for it, ``what`` the reason in words, for a list of the nights skipped."""

    def __init__(self, what: str, sid: str, how: str) -> None:
        super().__init__(L_("{what}: not imported, so that no night is counted twice", what=what))
        self.what, self.sid, self.how = what, sid, how
