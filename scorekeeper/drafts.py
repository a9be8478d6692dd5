"""Drafts: every answer of a round being typed, kept on disk as it is typed.

One draft per session, beside the book (``book.drafts/s1.json``), or, where that folder can't be
written, in the user cache directory. Written atomically (temp file, fsync, replace), like the
book. Each save carries a revision number: a save is refused when the draft on disk is not the one
this writer last saw, so two terminals (or phones) never overwrite each other's answers.

A draft holds the answers as typed, by question (``dealer``, ``field``, ``hand:Aki`` …), what it
is for (``round``: the next round; ``edit``: round N) and how many rounds the session had when it
was begun, so that a resume knows what another terminal's round made wrong (the 親).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .store import APP_DIR, BookError, atomic_write, read_json_file

DRAFT_FORMAT = "hachi-score draft"


class DraftConflict(BookError):
    """Another writer saved this session's draft since this one last read it."""


@dataclass
class Draft:
    """The answers typed so far for one round of a session."""

    session: str
    kind: str = "round"  # "round": the next round; "edit": round ``number``
    number: int = 0  # the round it is for
    rounds_at: int = 0  # how many rounds the session had when it was begun
    answers: dict[str, str] = field(default_factory=dict)
    revision: int = 0
    updated: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"format": DRAFT_FORMAT, "session": self.session, "kind": self.kind, "number": self.number,
                "rounds_at": self.rounds_at, "answers": dict(self.answers), "revision": self.revision,
                "updated": self.updated}

    @classmethod
    def from_json(cls, data: Any) -> "Draft":
        if not isinstance(data, dict) or data.get("format") != DRAFT_FORMAT:
            raise ValueError("not a hachi-score draft")
        answers = data.get("answers")
        if not isinstance(answers, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in answers.items()):
            raise ValueError("its answers are not text")
        kind, number, rounds_at, revision = (data.get(k) for k in ("kind", "number", "rounds_at", "revision"))
        if kind not in ("round", "edit") or not all(type(n) is int and n >= 0 for n in (number, rounds_at, revision)):
            raise ValueError("its header is not a draft's")
        return cls(str(data.get("session")), kind, number, rounds_at, dict(answers), revision, str(data.get("updated", "")))


def _wrap(data: dict[str, Any]) -> dict[str, Any]:
    """A draft in the shape the book's file reader checks (one table, one document)."""
    return {"draft": {"1": data}}


class Drafts:
    """The drafts of a book: where they live, and reading, saving and removing them."""

    def __init__(self, book_path: Path) -> None:
        self.book_path = Path(book_path)

    @property
    def beside(self) -> Path:
        """``book.drafts`` beside ``book.json``."""
        p = self.book_path
        return p.with_suffix(".drafts") if p.suffix else p.with_name(p.name + ".drafts")

    @property
    def cache(self) -> Path:
        """The fallback: the user cache directory, one folder per book."""
        import hashlib

        import platformdirs

        digest = hashlib.sha256(str(self.book_path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]
        return Path(platformdirs.user_cache_dir(APP_DIR)) / "drafts" / digest

    def _paths(self, sid: str) -> list[Path]:
        return [self.beside / f"{sid}.json", self.cache / f"{sid}.json"]

    def load(self, sid: str) -> tuple[Draft | None, Path | None]:
        """The session's draft and where it is (the newest revision of the two places)."""
        best: tuple[Draft | None, Path | None] = (None, None)
        for path in self._paths(sid):
            try:
                data = read_json_file(path)
                draft = Draft.from_json(data["draft"]["1"]) if data else None
            except (BookError, ValueError, KeyError, TypeError, OSError):
                continue  # a draft that can't be read is no draft: the book is never at stake
            if draft is not None and draft.session == sid and (best[0] is None or draft.revision > best[0].revision):
                best = (draft, path)
        return best

    def save(self, draft: Draft, seen: int) -> Path:
        """Write ``draft`` as the next revision after ``seen`` (the revision this writer read).

        Raises :class:`DraftConflict` when the draft on disk has moved on, and :class:`BookError`
        when neither place can be written. Returns where it was written.
        """
        current, _ = self.load(draft.session)
        on_disk = current.revision if current is not None else 0
        if on_disk != seen:
            raise DraftConflict(f"another terminal is typing this session's round (draft revision {on_disk}, "
                                f"this one saw {seen})")
        draft.revision = seen + 1
        draft.updated = datetime.now().astimezone().isoformat(timespec="seconds")
        payload = json.dumps(_wrap(draft.to_json()), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        last: BookError | None = None
        for path in self._paths(draft.session):
            try:
                atomic_write(path, payload + b"\n", backup=False)
            except BookError as e:
                last = e
                continue
            for other in self._paths(draft.session):  # one draft per session: the older copy goes
                if other != path:
                    _remove(other)
            return path
        assert last is not None
        raise last

    def discard(self, sid: str) -> bool:
        """Remove the session's draft (saved, or abandoned); True if there was one."""
        found = False
        for path in self._paths(sid):
            found |= _remove(path)
        return found


def _remove(path: Path) -> bool:
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False
    except OSError:
        return False
