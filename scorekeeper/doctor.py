"""`hachi-score doctor`: check the whole book, say what is wrong, put back the last good copies.

:func:`check` reads every file of the book (CONTRACT.md §5): the index, every session file the
index lists or the sessions folder holds, and the ``.bak`` beside each. A file is healthy when it
parses, has the book's shape and schema, and — for a session — when every stored round still
checks out and re-scores (:func:`scorekeeper.night.replay`), not merely when it is JSON.

:func:`restore` (``--restore``) takes the book's lock and, for each damaged file whose ``.bak``
is itself healthy, moves the damaged bytes aside (``FILE.damaged-YYYYmmdd-HHMMSS``: a hard link
made before the file is replaced, so the bytes exist somewhere at every moment; never deleted)
and puts the ``.bak`` back in its place. A damaged or missing index with no good ``.bak`` is
rebuilt from the session files' own headers; then every index row is written right against the
session file as it is (its round count, months count and night key). A file written by a newer
hachi-score is never touched: that is not damage. :func:`preview` says first what putting a
``.bak`` back loses.

Besides damage, the check notes what is worth knowing and harms nothing: a 親 chain break, a
damaged ``.bak``, a killed writer's temp files, and two sessions that hold one night (the same
night, or one holding all of the other's rounds: `stats` counts those rounds twice).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

from . import digests, files, lang, schema
from .errors import BookError, Damaged, DamagedRound, NewerBook
from .lang import in_english
from .lang import L_, _, n_
from .store import Book, sessions_dir

__all__ = ["Finding", "Report", "check", "restore"]

#: called as ``progress(done, total)`` while the session files are read
Progress = Callable[[int, int], None]

_SESSION_FILE = re.compile(r"^s([1-9][0-9]*)\.json$")


@dataclass
class Finding:
    """One thing wrong (``error``) or worth knowing (``note``) about one file."""

    path: Path
    problem: str
    severity: str = "error"
    #: the healthy copy --restore would put back (a .bak), or "rebuild" for the index
    restore_from: str | None = None
    #: why nothing can be put back, when nothing can
    no_restore: str | None = None

    def line(self) -> str:
        mark = "✗" if self.severity == "error" else "·"
        text = f"{mark} {self.path}: {self.problem}"
        if self.severity == "error":
            if self.restore_from == "rebuild":
                text += " → " + _("--restore rebuilds the index from the session files")
            elif self.restore_from == "rows":
                text += " → " + _("--restore writes the right count into the index")
            elif self.restore_from == "head":
                text += " → " + _("--restore makes it again from the index")
            elif self.restore_from:
                text += " → " + _("--restore puts back its last good copy {name}").format(
                    name=Path(self.restore_from).name)
            elif self.no_restore:
                text += f" → {self.no_restore}"
        return text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": str(self.path), "problem": self.problem}
        if self.severity == "error":
            out["restorable"] = self.restore_from is not None
            out["restore_from"] = self.restore_from
        return out


@dataclass
class Report:
    """What :func:`check` found, and what :func:`restore` did."""

    book: Path
    findings: list[Finding] = field(default_factory=list)
    sessions: int = 0
    rounds: int = 0
    restored: list[dict[str, str | None]] = field(default_factory=list)
    exists: bool = True
    #: the same reading of the book made again (in English, for what --json says in every language)
    again: Callable[[], "Report"] | None = field(default=None, repr=False, compare=False)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def healthy(self) -> bool:
        return not self.errors

    def lines(self) -> list[str]:
        out = [_("book {book}").format(book=self.book)]
        for r in self.restored:
            if r["moved_to"]:
                out.append("↺ " + _("{file}: {how}; the damaged bytes were moved to {moved_to}").format(
                    file=r["file"], how=r["how"], moved_to=r["moved_to"]))
            else:
                out.append(f"↺ {r['file']}: {r['how']}")
        out += [f.line() for f in self.findings]
        out.append(self.verdict() if not self.healthy else self._healthy_line())
        return out

    def _healthy_line(self) -> str:
        if not self.exists:
            return "✓ " + _("no book here yet: nothing to check")
        return "✓ " + _("healthy: {sessions}, {rounds} read and re-scored").format(
            sessions=n_("{n} session", "{n} sessions", self.sessions).format(n=self.sessions),
            rounds=n_("{n} round", "{n} rounds", self.rounds).format(n=self.rounds))

    def verdict(self) -> str:
        n = len(self.errors)
        fixable = sum(1 for f in self.errors if f.restore_from)
        problems = n_("{n} problem", "{n} problems", n).format(n=n)
        if fixable == n:
            return _("{book}: {problems} found; `hachi-score doctor --restore` puts back the last good copies").format(
                book=self.book, problems=problems)
        if fixable:
            return _("{book}: {problems} found; `hachi-score doctor --restore` can mend {fixable}, the rest has no "
                     "good copy").format(book=self.book, problems=problems, fixable=fixable)
        return _("{book}: {problems} found; no good copy to put back (see above)").format(book=self.book,
                                                                                          problems=problems)

    def to_json(self) -> dict[str, Any]:
        """The report for scripts: in English whatever the language spoken (the book is read again
        in English for it, where another language is spoken)."""
        if lang.current() != lang.LANGS[0] and self.again is not None:
            again = self.again
            return in_english(lambda: again()._json(self.restored))
        return self._json(self.restored)

    def _json(self, restored: list[dict[str, str | None]]) -> dict[str, Any]:
        return {
            "book": str(self.book),
            "healthy": self.healthy,
            "sessions": self.sessions,
            "rounds": self.rounds,
            "problems": [f.to_json() for f in self.errors],
            "notes": [f.to_json() for f in self.findings if f.severity == "note"],
            "restored": [{**r, "how": _english(r["how"])} for r in restored],
        }


class _Told(str):
    """Words said in the language spoken, that keep their English (``english``) for --json."""

    english: str


def _told(make: Callable[[], str]) -> _Told:
    """``make()`` in the language spoken, keeping its English too."""
    told = _Told(make())
    told.english = in_english(make) if lang.current() != lang.LANGS[0] else str(told)
    return told


def _english(text: Any) -> Any:
    return getattr(text, "english", text)


# ---------------------------------------------------------------------------------------------
# reading one file, fully


def _problem(e: BookError) -> str:
    return e.problem or str(e)


def _read_index(path: Path) -> dict[str, Any] | None:
    """The index's data, every row checked; None if there is none. Damage is a BookError."""
    data = schema.read_book_file(path)
    if data is None:
        return None
    schema.check_index(path, data)
    for key, row in data.get("sessions", {}).items():
        schema.check_row(path, int(key), row)
    return data


def _break_line(n: int, dealer: str, winner: str) -> str:
    return _("round {n}: its 親 {dealer} is not round {previous}'s winner {winner} "
             "(kept as recorded: who really dealt)").format(n=n, dealer=dealer, previous=n - 1, winner=winner)


def _damaged_round(path: Path, what: str, number: int) -> DamagedRound:
    """A session file one of whose stored rounds no longer scores."""
    return DamagedRound(files.damaged(path, what).args[0], path, number, what)


@dataclass
class _Session:
    """A healthy session file: its header, its stored rounds, its round count and months count,
    its 親 chain breaks said in words, and its night key where its digest knows it."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    counts: tuple[int, int]
    breaks: list[str]
    known_key: str | None = None

    def facts(self) -> dict[str, Any]:
        """What the session's index row keeps of it (:func:`scorekeeper.digests.row_facts`)."""
        rounds, months = self.counts
        return {"rounds": rounds, "months": months,
                "night_key": self.known_key or digests.night_key(self.header, self.records)}


def _read_session(path: Path, main: Path | None = None, digest: dict[str, Any] | None = None,
                  backup: bool = False) -> _Session | None:
    """The session file at ``path``, every round re-scored; None if missing.

    ``main``: the session file ``path`` stands for (``path`` is then its .bak). ``digest``: the
    session's digest (:mod:`scorekeeper.digests`): bytes whose SHA-256 it names as replayed cleanly by
    this very release are parsed and checked, not re-scored again (the same bytes score the same).
    """
    from .night import StoredRoundError, bad_rounds, replay_lenient

    raw = files.read_bytes(path)
    if raw is None:
        return None
    data = schema.parse_book_bytes(path, raw)
    schema.check_session(main or path, data)
    header, records = data["session"]["1"], schema.rounds_of(data)
    counts = digests.counts_of(records)
    if digest is not None:
        sha = files.sha256(raw).hexdigest()
        night = digest["night"]
        if sha == digest["source"]["sha256"] and isinstance(night.get("breaks"), list) and night.get("rounds") == counts[0]:
            return _Session(header, records, counts, [_break_line(*b) for b in night["breaks"]], digest.get("night_key"))
        if backup and sha in digest["source"].get("ok", []):
            return _Session(header, records, counts, [])  # a .bak: its breaks are never reported
    session = {**header, "rounds": records}
    try:
        results = replay_lenient(session)
    except StoredRoundError as e:
        raise _damaged_round(path, e.args[0], e.number) from None
    except RecursionError:
        raise files.damaged(path, L_("a stored round is nested too deeply")) from None
    bad = bad_rounds(results)
    if bad:  # every round that no longer scores, not only the first
        n = min(bad)
        what = (L_("{problem} (edit {n} replaces it)", problem=bad[n], n=n) if len(bad) == 1
                else _("; ").join(bad.values()))
        raise _damaged_round(path, what, n)
    return _Session(header, records, counts, [_break_line(n, dealer, winner) for n, dealer, winner in breaks_of(session, results)])


def breaks_of(session: dict[str, Any], results: list[Any]) -> list[tuple[int, str, str]]:
    """Each 親 chain break as (round, its 親, the previous round's winner)."""
    from .night import chain_breaks

    return [(n, results[n - 1].round.dealer, results[n - 2].next_dealer) for n in chain_breaks(session, results)]


def _bak_state(read: Any, path: Path) -> tuple[bool, str]:
    """Whether ``path``'s .bak is a healthy copy, and if not, why not."""
    bak = files.backup_path(path)
    if not bak.is_file():
        return False, _("no good copy to put back (there is no {name})").format(name=bak.name)
    try:
        if read(bak) is None:
            return False, _("no good copy to put back (there is no {name})").format(name=bak.name)
    except BookError as e:
        return False, _("no good copy to put back: {name} is damaged too ({problem})").format(name=bak.name,
                                                                                              problem=_problem(e))
    return True, ""


def _folder_names(folder: Path) -> set[str]:
    """The names of the files in the sessions folder: the folder is listed once per check."""
    try:
        return {e.name for e in os.scandir(folder) if e.is_file()}
    except OSError:
        return set()


def _session_files(folder: Path, names: set[str] | None = None) -> dict[int, Path]:
    if names is None:
        names = _folder_names(folder)
    found = {}
    for name in names:
        m = _SESSION_FILE.match(name)
        if m:
            found[int(m.group(1))] = folder / name
    return found


# ---------------------------------------------------------------------------------------------
# the whole book


@dataclass
class _State:
    report: Report
    index: dict[str, Any] | None = None
    index_ok: bool = False
    #: session number -> header of every healthy session file
    headers: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: session files that are damaged and can be put back from their .bak
    put_back: list[Path] = field(default_factory=list)
    rebuild_index: bool = False
    restore_index: bool = False
    #: session number -> what its index row keeps of it, for every healthy session file
    facts: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: index rows whose facts are wrong or missing: number -> the right facts
    fill_rows: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: the index's head names the index as it is, but says otherwise than it
    remake_head: bool = False


def _session_finding(report: Report, state: _State, file: Path, what: str, good: bool, why: str) -> None:
    """A listed session file that is damaged or missing: restorable from a healthy .bak, or not."""
    if good:
        state.put_back.append(file)
        report.findings.append(Finding(file, what, restore_from=str(files.backup_path(file))))
    else:
        report.findings.append(Finding(file, what, no_restore=why))


def _session_temps(folder: Path, names: set[str], numbers: list[int]) -> list[Path]:
    """The temp files that interrupted saves of the session files ``numbers`` left in ``folder``
    (``.s1.json.….tmp``), session by session: the folder's names are gone through once."""
    by_file: dict[str, list[str]] = {}
    for name in names:
        if name.startswith(".") and name.endswith(".tmp") and ".json." in name:
            by_file.setdefault(name[1:].split(".json.", 1)[0] + ".json", []).append(name)
    return [folder / n for number in numbers for n in sorted(by_file.get(f"s{number}.json", []))]


def _row_wrong(report: Report, path: Path, row: dict[str, Any], file: Path, what: str) -> None:
    """An index row that says otherwise than its session file: wrong (--restore writes it right),
    or a row of the file as it was (the file changed since: the book reads the file instead)."""
    if row.get("file_key") != digests.row_key(file):
        report.findings.append(Finding(path, _("{what}: the file changed since (a save interrupted before the index "
                                               "was written?); the listing reads the file, and the next write or "
                                               "--restore corrects the row").format(what=what), severity="note"))
    else:
        report.findings.append(Finding(path, what, restore_from="rows"))


def _examine(path: Path, progress: Progress | None = None) -> _State:
    """The whole book: the index, every session file listed or not, the backups, the notes."""
    report = Report(path)
    state = _State(report)
    folder = Book(path).dir  # a path that names no file is refused here
    names = _folder_names(folder)
    found = _session_files(folder, names)
    if not _examine_index(path, state, folder, found):
        report.exists = False
        return state
    listed: dict[int, dict[str, Any]] = {}
    if state.index:
        listed = {int(k): row for k, row in state.index.get("sessions", {}).items()}

    # every session file, listed or not
    numbers = sorted(set(listed) | set(found))
    missing = {"rounds": 0, "months": 0}
    nights: dict[str, list[int]] = {}  # night key -> the sessions in the index that share it
    for done, number in enumerate(numbers):
        if progress is not None:
            progress(done, len(numbers))
        _examine_session(_Seen(path, state, folder, names, listed, missing, nights), number)

    if state.index_ok and state.index is not None and files.backup_path(path).is_file():
        try:
            _read_index(files.backup_path(path))
        except BookError as e:
            report.findings.append(Finding(files.backup_path(path), _("the backup is damaged ({problem}); the next "
                                                                      "change of session replaces it").format(
                problem=_problem(e)), severity="note"))

    if progress is not None:
        progress(len(numbers), len(numbers))
    _examine_head(path, state)
    _missing_counts(report, path, missing)
    report.findings.extend(_nights_held_twice(folder, state, [group for group in nights.values() if len(group) > 1]))
    _temp_files(report, path, folder, names, numbers)
    return state


def _examine_index(path: Path, state: _State, folder: Path, found: Any) -> bool:
    """The index: read, or damaged (its backup, or a rebuild from the files), or missing. False
    when there is no book at all."""
    report = state.report
    try:
        state.index = _read_index(path)
        state.index_ok = True
        if state.index is not None:  # the facts a round's write kept in the head alone are the rows'
            from .index import fresh_facts

            fresh_facts(path, state.index)
    except NewerBook as e:
        report.findings.append(Finding(path, _problem(e), no_restore=_("upgrade hachi-score to read it")))
    except Damaged as e:
        good, why = _bak_state(_read_index, path)
        if good:
            state.restore_index = True
            report.findings.append(Finding(path, _cant_read(e), restore_from=str(files.backup_path(path))))
        elif found:
            state.rebuild_index = True
            report.findings.append(Finding(path, _cant_read(e), restore_from="rebuild"))
        else:
            report.findings.append(Finding(path, _cant_read(e), no_restore=why))
    except BookError as e:
        report.findings.append(Finding(path, str(e), no_restore=_("fix the disk or the permissions first")))
    if state.index_ok and state.index is None:
        if not found:
            return False
        state.rebuild_index = True
        report.findings.append(Finding(path, _("the index is missing, but {folder} holds {files}").format(
            folder=folder, files=n_("{n} session file", "{n} session files", len(found)).format(n=len(found))),
            restore_from="rebuild"))
    return True


def _examine_head(path: Path, state: _State) -> None:
    """The index's head (:meth:`scorekeeper.index.Index.head`): one that names the index file as it
    is now is believed by every command, so it must say what the index says; a head of another
    version of the index is never believed (the next command makes it again), so it is no finding."""
    from .index import head_believed, head_of, head_path

    if not state.index_ok or state.index is None:
        return
    key = digests.stat_key(path)
    head = head_believed(head_path(path), key)
    if head is not None and key is not None and head != head_of(state.index, key):
        state.remake_head = True
        state.report.findings.append(Finding(head_path(path), _(
            "it says otherwise than the index it names (the current session, the count or the latest rows), and "
            "the listing and the current session are read from it"), restore_from="head"))


class _Seen(NamedTuple):
    """What the session files are examined against, and what they add up to."""

    path: Path
    state: _State
    folder: Path
    names: Any
    listed: Mapping[int, dict[str, Any]]
    missing: dict[str, int]
    nights: dict[str, list[int]]


def _examine_session(seen: _Seen, number: int) -> None:
    """One session file: readable (or its backup), its row in the index, its backup."""
    report, state, listed = seen.state.report, seen.state, seen.listed
    file = seen.folder / f"s{number}.json"
    in_index = number in listed or not state.index_ok
    digest_file = digests.digest_path(file)
    digest = digests.read_digest(digest_file) if digest_file.name in seen.names else None

    def read(p: Path) -> Any:
        return _read_session(p, file, digest, backup=p != file)

    try:
        got = read(file)
    except NewerBook as e:
        report.findings.append(Finding(file, _problem(e), no_restore=_("upgrade hachi-score to read it")))
        return
    except Damaged as e:
        good, why = _bak_state(read, file)
        what = _problem(e) if isinstance(e, DamagedRound) else _cant_read(e)
        if not in_index:
            report.findings.append(Finding(file, _("not in the index, and {what}").format(what=what),
                                           severity="note"))
        else:
            _session_finding(report, state, file, what, good, why)
        return
    except BookError as e:
        report.findings.append(Finding(file, str(e), no_restore=_("fix the disk or the permissions first")))
        return
    if got is None:  # listed, but no file
        row = listed[number]
        good, why = _bak_state(read, file)
        what = _("session {sid} ({name}) is in the index, but its file is missing").format(sid=row["id"],
                                                                                          name=row["name"])
        _session_finding(report, state, file, what, good, why)
        return
    state.headers[number] = got.header
    state.facts[number] = facts = got.facts()
    rounds = facts["rounds"]
    report.findings.extend(Finding(file, note, severity="note") for note in got.breaks)
    if number in listed:
        _check_row(seen, number, file, facts)
    if in_index:
        report.sessions += 1
        report.rounds += rounds
        if facts["night_key"] is not None:
            seen.nights.setdefault(facts["night_key"], []).append(number)
    elif state.index_ok:
        report.findings.append(Finding(file, _("session {sid} ({name!r}, {rounds} rounds) is not in the index: "
                                               "left by an interrupted new-session or import").format(
            sid=got.header["id"], name=got.header["name"], rounds=rounds), severity="note"))
    bak = files.backup_path(file)
    if bak.name in seen.names:
        try:
            read(bak)
        except BookError as e:
            report.findings.append(Finding(bak, _("the backup is damaged ({problem}); the next save replaces "
                                                  "it").format(problem=_problem(e)), severity="note"))


def _check_row(seen: _Seen, number: int, file: Path, facts: dict[str, Any]) -> None:
    """A session's row in the index against its file: the counts it kept, its night key."""
    report, state, path = seen.state.report, seen.state, seen.path
    row = seen.listed[number]
    kept = _kept(row)
    for key in ("rounds", "months"):
        if kept[key] is None:
            if key == "months" and not _months_missing(row):
                continue  # filled in with the round count; or three seated: the round count
            seen.missing[key] += 1
            state.fill_rows[number] = facts
        elif kept[key] != facts[key]:
            state.fill_rows[number] = facts
            kept_n = kept[key] or 0
            said = (n_("{n} round", "{n} rounds", kept_n) if key == "rounds"
                    else n_("{n} month", "{n} months", kept_n)).format(n=kept[key])
            _row_wrong(report, path, row, file, _("session row {number} ({name}) says {said}, but {file} "
                                                  "holds {count}").format(
                number=number, name=row["name"], said=said, file=file.name, count=facts[key]))
    if "night_key" in row and row["night_key"] != facts["night_key"]:
        state.fill_rows[number] = facts
        _row_wrong(report, path, row, file, _("session row {number} ({name}) keeps the key of another night "
                                              "than {file}'s (its players, profile and first round)").format(
            number=number, name=row["name"], file=file.name))


def _missing_counts(report: Report, path: Path, missing: Mapping[str, int]) -> None:
    """A note for the rows written before the index kept round and months counts."""
    for key in ("rounds", "months"):
        n = missing[key]
        if not n:
            continue
        if key == "rounds":
            said = n_("{n} session row kept no round count (written by an older hachi-score): `sessions` reads "
                      "those files instead; the next write or --restore fills it in",
                      "{n} session rows kept no round count (written by an older hachi-score): `sessions` reads "
                      "those files instead; the next write or --restore fills it in", n)
        else:
            said = n_("{n} session row kept no months count (written by an older hachi-score): `sessions` reads "
                      "those files instead; the next write or --restore fills it in",
                      "{n} session rows kept no months count (written by an older hachi-score): `sessions` reads "
                      "those files instead; the next write or --restore fills it in", n)
        report.findings.append(Finding(path, said.format(n=n), severity="note"))


def _temp_files(report: Report, path: Path, folder: Path, names: Any, numbers: list[int]) -> None:
    """A note for the temp files left by a writer that was killed."""
    left = files.temp_files(path) + _session_temps(folder, names, numbers)
    if left:
        shown = _(", ").join(t.name for t in left[:3]) + (_(", ") + "…" if len(left) > 3 else "")
        report.findings.append(Finding(path, n_(
            "{n} temp file left by an interrupted save ({names}): the book never reads them; the next save (or "
            "--restore) removes them",
            "{n} temp files left by an interrupted save ({names}): the book never reads them; the next save (or "
            "--restore) removes them", len(left)).format(n=len(left), names=shown), severity="note"))


def _nights_held_twice(folder: Path, state: _State, groups: list[list[int]]) -> list[Finding]:
    """A note for each two sessions of which one holds the other's night (CONTRACT §5): the same
    night, or all of one's rounds at the start of the other's. ``groups``: the sessions that share
    a night key (players, profile, first round), the only ones that can; their files are read again."""
    notes = []
    for group in groups:
        keys = {}
        for number in group:
            data = schema.read_book_file(folder / f"s{number}.json")
            if data is not None:  # (read healthy a moment ago)
                keys[number] = digests.round_keys(data["session"]["1"], schema.rounds_of(data))
        group = [number for number in group if number in keys]
        for i, first in enumerate(group):
            for later in group[i + 1:]:
                how = digests.overlap(keys[first], keys[later])
                if how is None:
                    continue
                what = digests.overlap_words(how, _named(state, first), _named(state, later), len(keys[first]),
                                             len(keys[later]))
                notes.append(Finding(folder / f"s{later}.json",
                                     _("{what}: `stats` counts those rounds twice").format(what=what),
                                     severity="note"))
    return notes


def _named(state: _State, number: int) -> str:
    sid = "s" + str(number)
    return L_("session {sid} ({name})", sid=sid, name=state.headers[number]["name"])


def _cant_read(e: BookError) -> str:
    return _("can't be read: {problem}").format(problem=_problem(e))


def check(path: Path, progress: Progress | None = None) -> Report:
    """Check every file of the book at ``path``; nothing is written. ``progress(done, total)``
    is called as the session files are read."""
    path = Path(path)
    report = _examine(path, progress).report
    report.again = lambda: _examine(path).report
    return report


# ---------------------------------------------------------------------------------------------
# restoring


def preview(path: Path, progress: Progress | None = None) -> tuple[list[str], list[str]]:
    """What ``--restore`` would do, before it is asked: the files it would put back or rebuild
    (their names), and what that loses, said per file: putting back a ``.bak`` that is one save
    older loses the rounds added, removed or changed since, each with its result; of a file that
    can't be read, what it held beyond its ``.bak`` can't be listed, and that is said. A missing
    file loses nothing (its ``.bak`` comes back), nor does an index put back or rebuilt (every
    session is listed again). Rows written right and temp files swept are no file put back.
    ``progress`` as for :func:`check`."""
    from .night import replay_lenient, round_said

    out: list[str] = []
    state = _examine(Path(path), progress)
    replaced = [file.name for file in state.put_back]
    if state.restore_index or state.rebuild_index:
        replaced.append(Path(path).name)
    for file in state.put_back:
        if not file.exists():
            continue
        header, before = _rounds_of(files.backup_path(file))
        try:
            _now, after = _rounds_of(file)
        except (BookError, ValueError, KeyError, TypeError):
            out.append(_("{file}: can't be read, so what it holds beyond its .bak's {rounds} can't be listed; it is "
                         "kept beside it").format(file=file.name, rounds=n_("{n} round", "{n} rounds", len(before))
                                                  .format(n=len(before))))
            continue
        results = {"now": replay_lenient({**header, "rounds": after}), "bak": replay_lenient({**header, "rounds": before})}
        for n in range(1, max(len(before), len(after)) + 1):
            if n > len(before):
                out.append(_("{file}: round {n} (added since its .bak) is lost: {result}").format(
                    file=file.name, n=n, result=round_said(results["now"][n - 1])))
            elif n > len(after):
                out.append(_("{file}: round {n} (removed since) comes back: {result}").format(
                    file=file.name, n=n, result=round_said(results["bak"][n - 1])))
            elif before[n - 1] != after[n - 1]:
                out.append(_("{file}: round {n} goes back from {now} to {bak}").format(
                    file=file.name, n=n, now=round_said(results["now"][n - 1]), bak=round_said(results["bak"][n - 1])))
    return replaced, out


def _rounds_of(file: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = schema.read_book_file(file)
    if data is None:
        raise Damaged(L_("{file}: missing", file=str(file)), file)
    return data["session"]["1"], schema.rounds_of(data)


def restore(path: Path, progress: Progress | None = None) -> Report:
    """Put back the last good copy of every damaged file, under the book's lock, and write every
    index row right against the files as they are then; then check again."""
    path = Path(path)
    actions: list[dict[str, str | None]] = []
    with files.BookLock(files.lock_path(path)):
        state = _examine(path, progress)  # under the lock: what is found is what is mended
        for file in state.put_back:
            bak = files.backup_path(file)
            moved = files.keep_aside(file)
            files.atomic_write(file, bak.read_bytes(), backup=False)
            rounds = len(schema.rounds_of(schema.read_book_file(file) or {}))
            actions.append({"file": str(file), "from": str(bak), "moved_to": str(moved) if moved else None,
                            "how": _told(lambda: _("put back its last good copy {name} ({rounds})").format(
                                name=bak.name, rounds=n_("{n} round", "{n} rounds", rounds).format(n=rounds)))})  # noqa: B023 (called at once)
        if state.put_back:
            state = _examine(path)  # the sessions put back, as their rows and a mended index must list them
        if state.restore_index or state.rebuild_index:
            actions.append(_mend_index(path, state))
            state = _examine(path)  # the mended index's rows, checked against the files
        if state.fill_rows and state.index_ok and state.index is not None:
            actions.append(_fill_rows(path, state))
        if state.remake_head:
            actions.append(_remake_head(path))
        folder = sessions_dir(path)
        swept = files.sweep_temps(path)
        for n in _session_files(folder):
            swept += files.sweep_temps(folder / f"s{n}.json")
        if swept:
            actions.append({"file": str(path), "from": None, "moved_to": None,
                            "how": _told(lambda: n_("removed {n} temp file left by an interrupted save",
                                                    "removed {n} temp files left by an interrupted save",
                                                    len(swept)).format(n=len(swept)))})
    report = _examine(path).report
    report.restored = actions
    report.again = lambda: _examine(path).report
    return report


def _mend_index(path: Path, state: _State) -> dict[str, str | None]:
    """The index from its healthy .bak, or rebuilt from the session headers; session files the
    restored index does not list are listed again, so no session drops out of the book."""
    if state.restore_index:
        data = schema.read_book_file(files.backup_path(path)) or {}
    else:
        data = {"meta": {"1": {"schema": schema.SCHEMA, "current": None}}, "sessions": {}}
    sessions = data.setdefault("sessions", {})
    added = []
    for number, header in sorted(state.headers.items()):
        if str(number) not in sessions:
            sessions[str(number)] = {**header, "file": f"s{number}.json",
                                     **state.facts.get(number, {"rounds": 0, "months": 0, "night_key": None}),
                                     "file_key": digests.row_key(sessions_dir(path) / f"s{number}.json")}
            added.append(header["id"])
    meta = schema.meta_of(data)
    current = meta.get("current")
    newest = f"s{max(int(k) for k in sessions)}" if sessions else None
    if current is None or (added and newest in added):  # a session made after the .bak was the last one made
        data["meta"]["1"] = {**meta, "schema": meta.get("schema", schema.SCHEMA), "current": newest}
    now = data["meta"]["1"]["current"] if added else None
    bak_name = files.backup_path(path).name

    def how() -> str:
        if state.restore_index and added:
            return _("put back its last good copy {name}, with {sessions} listed again (current: {current})").format(
                name=bak_name, sessions=_(", ").join(added), current=now)
        if state.restore_index:
            return _("put back its last good copy {name}").format(name=bak_name)
        if added:
            return _("rebuilt from the session files ({sessions}; current {current})").format(
                sessions=_(", ").join(added), current=now)
        return _("rebuilt from the session files")

    moved = files.keep_aside(path)
    files.atomic_write(path, files.json_bytes(data), backup=False)
    return {"file": str(path), "from": str(files.backup_path(path)) if state.restore_index else None,
            "moved_to": str(moved) if moved else None, "how": _told(how)}


def _remake_head(path: Path) -> dict[str, str | None]:
    """The index's head made again from the index as it is now (under the lock)."""
    from .index import head_of, head_path

    data = _read_index(path)
    key = digests.stat_key(path)
    if data is not None and key is not None:
        files.atomic_write(head_path(path), files.json_bytes(head_of(data, key)), backup=False)
    return {"file": str(head_path(path)), "from": None, "moved_to": None,
            "how": _told(lambda: _("made again from the index"))}


def _kept(row: dict[str, Any]) -> dict[str, int | None]:
    """The counts an index row keeps, None where it keeps none (a row from an older release)."""
    return {"rounds": digests.row_rounds(row), "months": digests.count_of(row.get("months"))}


def _months_missing(row: dict[str, Any]) -> bool:
    """A row keeps a round count but no months count, and its months can't be derived from it
    (four or more seated: a round may be a misdeal)."""
    return digests.row_rounds(row) is not None and digests.row_months(row) is None


def _fill_rows(path: Path, state: _State) -> dict[str, str | None]:
    """Write each session's facts into its index row where they are wrong or missing (the index's
    previous version kept as its .bak)."""
    data = state.index
    assert data is not None
    parts: dict[str, tuple[list[Any], int]] = {"rounds": ([], 0), "months": ([], 0)}  # key -> (the rows corrected, how many filled in)
    keys_wrong = []
    for number, facts in sorted(state.fill_rows.items()):
        row = data["sessions"][str(number)]
        kept = _kept(row)
        for key in parts:
            wrong, filled = parts[key]
            if kept[key] is None:
                parts[key] = (wrong, filled + (key == "rounds" or _months_missing(row)))
            elif kept[key] != facts[key]:
                wrong.append(row["id"])
        if "night_key" in row and row["night_key"] != facts["night_key"]:
            keys_wrong.append(row["id"])
        row.update(facts)
        row["file_key"] = digests.row_key(sessions_dir(path) / f"s{number}.json")
    files.atomic_write(path, files.json_bytes(data))

    def how() -> str:
        said = []
        for key in ("rounds", "months"):
            wrong, filled = parts[key]
            if wrong:
                said.append((_("corrected the round count of {sessions}") if key == "rounds"
                             else _("corrected the months count of {sessions}")).format(sessions=_(", ").join(wrong)))
            if filled:
                said.append((n_("filled in the round count of {n} row", "filled in the round count of {n} rows", filled)
                             if key == "rounds" else
                             n_("filled in the months count of {n} row", "filled in the months count of {n} rows",
                                filled)).format(n=filled))
        if keys_wrong:
            said.append(_("corrected the night key of {sessions}").format(sessions=_(", ").join(keys_wrong)))
        return _("index rows: {changes}").format(changes=_(", ").join(said))

    return {"file": str(path), "from": None, "moved_to": None, "how": _told(how)}
