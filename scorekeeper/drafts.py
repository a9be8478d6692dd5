"""Drafts: every answer of a round being typed, kept on disk as it is typed.

Each round being typed has its own draft, beside the book (``book.drafts/s1~3fa2c1e0.json``; an
older release wrote one per session, ``s1.json``, still read and resumed), or, where that folder can't
be written, in the user cache directory. Written atomically (temp file, fsync, replace), like
the book. Each save carries a revision number: a save is refused when the draft on disk is not
the one this writer last saw, so two writers (terminals, phones) never overwrite each other's
answers.

A draft holds the answers as typed, by question (``dealer``, ``field``, ``hand:Aki`` …), the
players who said their pile is complete, what it is for (``round``: the next round; ``edit``:
round N) and how many rounds the session had when it was begun, so that a resume knows what
another terminal's round made wrong (the 親). A draft whose round was saved stays as a mark
(``saved_as``) until the session moves on, so that a terminal still holding it is told where its
answers went. Only :class:`scorekeeper.round_draft.RoundDraft` writes them, under the book's lock.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import BookError, DraftConflict, SavedElsewhere  # noqa: F401 (the drafts' errors, named here too)
from .files import APP_DIR, atomic_write, read_json_file, sha256
from .lang import L_

DRAFT_FORMAT = "hachi-score draft"
_NAME = re.compile(r"^(s[1-9][0-9]*)(?:~([0-9a-f]{8}))?\.json$")


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
    #: the players who said their pile is complete (None: a draft of an older release, whose
    #: every pile typed counts as complete: its terminal typed each whole)
    done: list[str] | None = field(default_factory=list)
    #: which draft of the session: "3fa2c1e0" for ``s1~3fa2c1e0.json``, "" for an older release's
    #: ``s1.json`` (None: not on disk yet). Never reused: a writer holding a draft that went is
    #: never writing into another's
    id: str | None = None
    #: the round it was saved as (a mark left for a terminal still holding it)
    saved_as: int | None = None
    #: an edit's stored rounds when it was begun (a digest: changed meanwhile, nothing is saved)
    base: str | None = None
    #: thrown away by a person, and kept until the next round is saved: it can be brought back
    discarded: bool = False
    #: set aside: typed for this round, which another writer saved meanwhile (its answers differ)
    overtaken: int | None = None
    #: who typed each answer: ``phone``, or a terminal's ``terminal:HOST:PID``
    by: dict[str, str] = field(default_factory=dict)
    #: the writers holding it now (a terminal's ``terminal:HOST:PID``, a server's ``serve:HOST:PID``)
    typing: list[str] = field(default_factory=list)
    #: answers a writer chose over another's (key -> {"text": the answer not kept, "by": whose it
    #: was, "kept_by": who chose}): said on the phones until that question is answered again
    overruled: dict[str, dict[str, str]] = field(default_factory=dict)
    #: where it was last written (not part of the draft)
    where: Path | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        out = {"format": DRAFT_FORMAT, "session": self.session, "kind": self.kind, "number": self.number,
               "rounds_at": self.rounds_at, "answers": dict(self.answers), "revision": self.revision,
               "updated": self.updated, "done": sorted(self.done or ())}
        if self.saved_as is not None:
            out["saved_as"] = self.saved_as
        if self.base is not None:
            out["base"] = self.base
        if self.discarded:
            out["discarded"] = True
        if self.overtaken is not None:
            out["overtaken"] = self.overtaken
        for name in ("by", "typing", "overruled"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        return out

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
        done = data.get("done")
        if done is not None and not (isinstance(done, list) and all(isinstance(p, str) for p in done)):
            raise ValueError("its marks are not names")
        if done is None:  # an older release: the terminal typed every pile whole
            done = [k.partition(":")[2] for k in answers if k.startswith("pile:")]
        saved_as, base = data.get("saved_as"), data.get("base")
        if saved_as is not None and (type(saved_as) is not int or saved_as < 1):
            raise ValueError("its saved round is not a number")
        overtaken = data.get("overtaken")
        if overtaken is not None and (type(overtaken) is not int or overtaken < 1):
            raise ValueError("its overtaken round is not a number")
        by, typing, overruled = data.get("by") or {}, data.get("typing") or [], data.get("overruled") or {}
        if not (isinstance(by, dict) and all(isinstance(v, str) for v in by.values())
                and isinstance(typing, list) and all(isinstance(w, str) for w in typing)
                and isinstance(overruled, dict) and all(isinstance(v, dict) for v in overruled.values())):
            raise ValueError("its writers are not names")
        return cls(str(data.get("session")), kind, number, rounds_at, dict(answers), revision,  # type: ignore[arg-type]
                   str(data.get("updated", "")), list(done), None, saved_as, base if isinstance(base, str) else None,
                   data.get("discarded") is True, overtaken, dict(by), list(typing),
                   {k: {n: str(t) for n, t in v.items()} for k, v in overruled.items()})

    @property
    def open(self) -> bool:
        """Still being typed (neither saved nor thrown away)."""
        return self.saved_as is None and not self.discarded


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

    @functools.cached_property
    def cache(self) -> Path:
        """The fallback: the user cache directory, one folder per book (worked out once: every
        look for a draft asks for it)."""
        import platformdirs

        digest = sha256(str(self.book_path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]
        return Path(platformdirs.user_cache_dir(APP_DIR)) / "drafts" / digest

    @staticmethod
    def _name(sid: str, did: str) -> str:
        return f"{sid}.json" if not did else f"{sid}~{did}.json"

    def _paths(self, sid: str, did: str = "") -> list[Path]:
        name = self._name(sid, did)
        return [self.beside / name, self.cache / name]

    def files(self, sid: str) -> list[Path]:
        """Every file that may hold a draft of the session (for a watcher), existing or not."""
        out = [p for p in self._paths(sid)]
        for folder in (self.beside, self.cache):
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                continue
            out += [folder / n for n in names if (m := _NAME.match(n)) and m.group(1) == sid and m.group(2)]
        return out

    def ids(self, sid: str) -> list[str]:
        """The ids of the session's drafts on disk (an older release's ``""`` among them)."""
        found = {""}
        for path in self.files(sid):
            m = _NAME.match(path.name)
            if m and m.group(2):
                found.add(m.group(2))
        return sorted(found)

    def read(self, sid: str, did: str = "") -> tuple[Draft | None, Path | None]:
        """One draft and where it is (the newest revision of the two places)."""
        best: tuple[Draft | None, Path | None] = (None, None)
        for path in self._paths(sid, did):
            try:
                data = read_json_file(path)
                draft = Draft.from_json(data["draft"]["1"]) if data else None
            except (BookError, ValueError, KeyError, TypeError, OSError):
                continue  # a draft that can't be read is no draft: the book is never at stake
            if draft is not None and draft.session == sid and (best[0] is None or draft.revision > best[0].revision):
                draft.id, draft.where = did, path
                best = (draft, path)
        return best

    def all(self, sid: str) -> list[tuple[Draft, Path]]:
        """Every draft of the session (saved marks too), the most recently written first."""
        found = [(d, p) for d, p in (self.read(sid, did) for did in self.ids(sid)) if d is not None and p is not None]
        return sorted(found, key=lambda dp: (dp[0].updated, dp[0].revision), reverse=True)

    def load(self, sid: str) -> tuple[Draft | None, Path | None]:
        """The session's newest open draft and where it is."""
        return next(((d, p) for d, p in self.all(sid) if d.open), (None, None))

    def new_id(self, sid: str) -> str:
        """A new draft's id: random, so that none is ever used twice."""
        import secrets

        taken = set(self.ids(sid))
        while (did := secrets.token_hex(4)) in taken:
            pass
        return did

    def save(self, draft: Draft, seen: int) -> Path:
        """Write ``draft`` as the next revision after ``seen`` (the revision this writer read).

        Raises :class:`DraftConflict` when the draft on disk has moved on, and :class:`BookError`
        when neither place can be written. Returns where it was written.
        """
        if draft.id is None:
            draft.id = self.new_id(draft.session)
        current, _ = self.read(draft.session, draft.id)
        on_disk = current.revision if current is not None else 0
        if on_disk != seen:
            raise DraftConflict(L_("this session's round is being typed on a phone or at another terminal "
                                   "(draft revision {on_disk}, this one saw {seen})", on_disk=on_disk, seen=seen))
        draft.revision = seen + 1
        draft.updated = datetime.now().astimezone().isoformat(timespec="microseconds")
        payload = json.dumps(_wrap(draft.to_json()), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        last: BookError | None = None
        paths = self._paths(draft.session, draft.id)
        for path in paths:
            try:
                atomic_write(path, payload + b"\n", backup=False)
            except BookError as e:
                last = e
                continue
            for other in paths:  # one copy per draft: the older one goes
                if other != path:
                    _remove(other)
            draft.where = path
            return path
        assert last is not None
        raise last

    def remove(self, sid: str, did: str = "") -> bool:
        """Remove one draft; True if there was one."""
        found = False
        for path in self._paths(sid, did):
            found |= _remove(path)
        return found

    def discard(self, sid: str) -> bool:
        """Remove every draft of the session; True if there was one."""
        found = False
        for did in self.ids(sid):
            found |= self.remove(sid, did)
        return found


def _remove(path: Path) -> bool:
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False
    except OSError:
        return False
