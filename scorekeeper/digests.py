"""What the book derives from each session and keeps, so that no night is read or replayed twice.

- An index row's facts (:func:`row_facts`): the round count, the months count (every round but a
  misdeal) and the *night key*: the night's players, its whole profile and its first round, hashed,
  with which `import` finds a night the book holds already (:func:`overlap`) without opening every
  session file. A row also keeps the size and mtime of the file its facts are of (:func:`row_key`),
  so that a file changed behind the book's back is read instead.
- A digest file beside each session (``book.sessions/s1.digest.json``): what `stats` needs of the
  night (:func:`scorekeeper.stats.night_digest`), naming the size, inode, mtime and SHA-256 of the
  session bytes it was made from, and the hashes of session bytes known to replay cleanly (which
  lets `doctor` skip re-scoring them). A digest that no longer matches is rebuilt by replaying the
  session; it is derived data only, and one that can't be written never stops a command.

Nights are compared as the CONTRACT says (§5): the same players in order, the same profile (every
value) and the same rounds in order, each a round file as the book stores it; a night whose rounds
begin with all of another's holds it. A night with no round holds nothing and is never held.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from . import __version__, files, schema
from .errors import BookError, Damaged
from .lang import L_, Said, n_

#: the digest's format; a digest of another format, or written by another release, is rebuilt
DIGEST_VERSION = 4  # 2: the profile's key beside its name; 3: the piles counted and typed; 4: no odds (the
#: profile's, counted by `stats`: a save never counts them)
DIGEST_SUFFIX = ".digest.json"
#: hashes of session bytes known to replay cleanly kept in a digest (the file's, its .bak's, …)
DIGEST_KEEP = 3
#: the book's nights at once (:func:`nights_of`), beside the session files: derived, as each digest is
NIGHTS_FILE = "all.digest.json"
#: a book's nights file is written again only when more nights than this were not in it as they
#: are: a round of tonight's night is read from its own digest, and a decade is not rewritten for it
NIGHTS_STALE = 16


# ---------------------------------------------------------------------------------------------
# an index row's facts


def count_of(n: Any) -> int | None:
    """A count as an index row keeps it, a whole number ≥ 0; else None."""
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else None


def row_rounds(row: Mapping[str, Any]) -> int | None:
    """The round count an index row keeps, or None (a row from an older release)."""
    return count_of(row.get("rounds"))


def row_months(row: Mapping[str, Any]) -> int | None:
    """The months count an index row keeps, or None. A row from a release before it keeps only
    the round count: with three seated no round is a misdeal, so that is the months count too."""
    months, rounds = count_of(row.get("months")), row_rounds(row)
    if rounds is None:
        return None
    if months is None and len(row.get("players") or ()) <= 3:
        return rounds
    return months


def counts_of(records: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """A session's round count and months count (every round but a misdeal), from its stored rounds."""
    from .night import months_of_records

    return len(records), months_of_records(records)


def _hash(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return files.sha256(text.encode("utf-8")).hexdigest()[:16]


def round_keys(header: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> list[str]:
    """A key of each of the session's stored rounds, in order: of its round file in the normal form
    `import` gives it (:func:`scorekeeper.night.round_file`; the 親 as written), so that a round
    stored in another spelling (by an older release, through the API) is the same round; one
    that no longer reads is keyed as it is stored."""
    from .night import round_file, session_rules
    from .scoring import Round, RoundError

    rules, players = session_rules(header), list(header["players"])
    keys = []
    for record in records:
        stored = record["round"]
        try:
            stored = round_file(Round.from_dict(stored, players=players, dealer=stored.get("dealer"), rules=rules))
        except (RoundError, ValueError, KeyError, TypeError, AttributeError):
            pass
        keys.append(_hash(stored))
    return keys


def night_key(header: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> str | None:
    """The key of a night's players (in order), whole profile and first round; None with no round.
    Two nights of which one holds the other share it."""
    if not records:
        return None
    from .night import session_rules

    return _hash([list(header["players"]), session_rules(header).key(), round_keys(header, records[:1])[0]])


def row_facts(header: Mapping[str, Any], records: Sequence[Mapping[str, Any]], key: str | None = None) -> dict[str, Any]:
    """What an index row keeps of its session's stored rounds (``key``: their night key, made already)."""
    rounds, months = counts_of(records)
    return {"rounds": rounds, "months": months, "night_key": key or night_key(header, records)}


def overlap(held: Sequence[str], new: Sequence[str]) -> str | None:
    """How a night's round keys ``new`` stand to a held night's ``held``: ``"same"``, ``"extends"``
    (``new`` begins with all of ``held``), ``"extended"`` (the reverse), or None."""
    if not held or not new:
        return None
    if list(held) == list(new):
        return "same"
    if len(new) > len(held) and list(new[: len(held)]) == list(held):
        return "extends"
    if len(held) > len(new) and list(held[: len(new)]) == list(new):
        return "extended"
    return None


def overlap_words(how: str, held: str, new: str, held_rounds: int, new_rounds: int) -> Said:
    """How the night ``new`` stands to the night ``held`` (:func:`overlap`), in words."""
    if how == "same":
        return L_("{new} is the same night as {held} (the same players, profile and {rounds})", new=new, held=held,
                  rounds=_rounds(new_rounds))
    if how == "extends":
        return L_("{new} holds all {rounds} of {held} and {more} more", new=new, held=held,
                  rounds=_rounds(held_rounds), more=new_rounds - held_rounds)
    return L_("{held} holds all {rounds} of {new} and {more} more", new=new, held=held, rounds=_rounds(new_rounds),
              more=held_rounds - new_rounds)


def _rounds(n: int) -> str:
    return n_("{n} round", "{n} rounds", n).format(n=n)


def _key_of(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


def stat_key(path: Path) -> list[int] | None:
    """What says cheaply that a file is still the one seen: its size, mtime, inode and ctime (an
    edit in place that puts the mtime back still moves the ctime)."""
    try:
        return _key_of(os.stat(path))
    except OSError:
        return None


def row_key(path: Path) -> list[int] | None:
    """What an index row keeps to say its facts are of the file as it is: size and mtime (both
    survive a copy of the book, unlike the inode)."""
    key = stat_key(path)
    return key[:2] if key else None


# ---------------------------------------------------------------------------------------------
# the digest file beside each session


def digest_path(session_file: Path) -> Path:
    return session_file.with_name(f"{session_file.stem}{DIGEST_SUFFIX}")


def read_digest(path: Path) -> dict[str, Any] | None:
    """A digest file as this release writes it, or None (missing, broken, another format)."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not (isinstance(data, dict) and data.get("digest") == DIGEST_VERSION and data.get("app") == __version__):
        return None
    source = data.get("source")
    if not (isinstance(source, dict) and isinstance(source.get("key"), list) and isinstance(source.get("sha256"), str)
            and isinstance(source.get("ok", []), list) and isinstance(data.get("night"), dict)):
        return None
    return data


def write_digest(path: Path, digest: Mapping[str, Any]) -> bool:
    """Write a digest atomically, if it can be: a digest is derived data, and a full disk or a
    read-only folder never stops a command. Returns whether it was written."""
    try:
        files.sweep_temps(path)
        files.atomic_write(path, json.dumps(digest, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
                           backup=False, durable=False)  # derived: it names the bytes it is of
    except (BookError, OSError):
        return False
    return True


def night_of(session_file: Path) -> dict[str, Any]:
    """What `stats` needs of the session, from its digest if that still names the file's bytes
    (size, inode, mtime, ctime), else rebuilt (:func:`rebuild`). A missing file is
    ``FileNotFoundError``; a damaged one :class:`~scorekeeper.errors.Damaged`, as everywhere."""
    old = read_digest(digest_path(session_file))
    key = stat_key(session_file)
    if old is not None and key is not None and old["source"]["key"] == key:
        return old["night"]
    return rebuild(session_file, old)["night"]


def rebuild(session_file: Path, old: dict[str, Any] | None = None, verified: str | None = None,
            results: Sequence[Any] | None = None, key: str | None = None) -> dict[str, Any]:
    """The session's digest made afresh from its bytes, and written back where it can be: bytes
    the old digest was made from are only hashed, anything else is replayed (``results``: the
    rounds just written as their writer replayed them, taken as they are; ``key``: their night
    key, made already). ``verified``: the hash of bytes known to replay cleanly (those this
    write replaced, now the ``.bak``)."""
    from .night import StoredRoundError, replay
    from .stats import night_digest

    try:
        with open(session_file, "rb") as f:
            st = os.fstat(f.fileno())
            raw = f.read()
    except FileNotFoundError:
        raise
    except OSError as e:
        raise files.cant_read(session_file, e) from None
    sha = files.sha256(raw).hexdigest()
    ok = [h for h in (old or {}).get("source", {}).get("ok", []) if isinstance(h, str)]
    if old is not None and old["source"]["sha256"] == sha:
        digest = {**old, "source": {**old["source"], "key": _key_of(st)}}  # same bytes, touched or copied
    else:
        data = schema.parse_book_bytes(session_file, raw)
        schema.check_session(session_file, data)
        session = {**data["session"]["1"], "rounds": schema.rounds_of(data)}
        try:
            if results is None or len(results) != len(session["rounds"]):
                results = replay(session)
        except StoredRoundError as e:
            raise files.damaged(session_file, str(e)) from None
        digest = {"digest": DIGEST_VERSION, "app": __version__, "source": {"key": _key_of(st), "sha256": sha, "ok": ok},
                  "night": night_digest(session, results),
                  "night_key": key or night_key(session, session["rounds"])}
    if verified:
        ok = [verified, *ok]
    digest["source"]["ok"] = list(dict.fromkeys([sha, *ok]))[:DIGEST_KEEP]
    write_digest(digest_path(session_file), digest)
    return digest


def nights_of(folder: Path, sids: Sequence[str], damaged: dict[str, Damaged] | None = None) -> dict[str, Any]:
    """What `stats` needs of each session (:func:`night_of`), by id, from the book's nights file
    (``NIGHTS_FILE`` in the sessions ``folder``): one read for a decade of nights, each night taken
    from it only while its session file is as it was (size, mtime, inode, ctime), as a digest is.
    The others are read from their own digests (or rebuilt), and the nights file is written again
    when they are many (``NIGHTS_STALE``). A missing session file is ``FileNotFoundError`` naming
    its session; a damaged one :class:`~scorekeeper.errors.Damaged`, as everywhere, or, given
    ``damaged``, put there by session id (its night left out)."""
    path = folder / NIGHTS_FILE
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        kept = None
    if not (isinstance(kept, dict) and kept.get("digest") == DIGEST_VERSION and kept.get("app") == __version__
            and isinstance(kept.get("nights"), dict)):
        kept = {"nights": {}}
    out: dict[str, Any] = {}
    fresh: dict[str, Any] = {}
    for sid in sids:
        session_file = folder / f"{sid}.json"
        key = stat_key(session_file)
        got = kept["nights"].get(sid)
        if key is not None and isinstance(got, list) and len(got) == 2 and got[0] == key and isinstance(got[1], dict):
            out[sid] = got[1]
            continue
        try:
            out[sid] = night_of(session_file)
        except FileNotFoundError as e:
            e.filename = sid
            raise
        except Damaged as e:
            if damaged is None:
                raise
            damaged[sid] = e
            continue
        key = stat_key(session_file)
        if key is not None:
            fresh[sid] = [key, out[sid]]
    if len(fresh) > NIGHTS_STALE:
        nights = {**{sid: got for sid, got in kept["nights"].items() if sid not in fresh}, **fresh}
        with contextlib.suppress(BookError, OSError):
            files.sweep_temps(path)
            files.atomic_write(path, json.dumps({"digest": DIGEST_VERSION, "app": __version__, "nights": nights},
                                                ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
                               backup=False, durable=False)  # derived: each night names its file's bytes
    return out
