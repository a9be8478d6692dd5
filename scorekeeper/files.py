"""The book's files on disk: read and checked, written atomically with a ``.bak``, under a lock.

Nothing here knows what a book holds (that is :mod:`scorekeeper.schema`): these are the promises
every file of the book keeps (CONTRACT §5).

- :func:`atomic_write` replaces a file whole or not at all: a temp file in the same folder, fsync,
  ``os.replace``, fsync of the folder; the version replaced is kept as ``FILE.bak``.
- :func:`sweep_temps` removes the temp files a killed writer left; a writer that is alive keeps its own.
- :class:`BookLock` is the one writer's lock: an exclusive ``fcntl.flock`` on ``FILE.lock``, which
  the kernel drops when its holder dies.
- :func:`read_json_file` reads a file's JSON; bytes that can't be used are :class:`~.errors.Damaged`,
  with one line saying which file, what is wrong and what to do.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import shutil
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import CantLock, CantRead, CantWrite, Damaged, Locked
from .lang import L_, N_, Said

#: the folder's name under the user's data and cache directories
APP_DIR = "hachi-score"
#: say so on standard error after this long waiting for the lock; give up after LOCK_TIMEOUT
LOCK_NOTICE_AFTER = 1.0
LOCK_TIMEOUT = 10.0
LOCK_POLL = 0.05
#: testing knobs, set by the test suite only (seconds): the two waits above, shortened so that no
#: test waits the real 10 s; a BookLock's own ``timeout`` / ``notice_after`` come first
ENV_TEST_LOCK_TIMEOUT = "HACHI_SCORE_TESTING_LOCK_TIMEOUT"
ENV_TEST_LOCK_NOTICE = "HACHI_SCORE_TESTING_LOCK_NOTICE"
#: a temp file's name: ``.NAME.PID.RANDOM.tmp`` (the new bytes) or ``.NAME.PID.bak.tmp`` (the old)
TEMP_NAME = re.compile(r"^\.(?P<name>.+?)\.(?P<pid>[0-9]+)\.(?:bak|[^.]+)\.tmp$")


def backup_path(path: Path) -> Path:
    """The previous good version of ``path``: ``FILE.bak``."""
    return path.with_name(path.name + ".bak")


def lock_path(path: Path) -> Path:
    """The lock file of ``path``: ``FILE.lock`` (never removed)."""
    return path.with_name(path.name + ".lock")


def say(message: str) -> None:
    """A notice on standard error, as every hachi-score line: ``hachi-score: …``."""
    print(f"hachi-score: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# what went wrong, in one line


#: the operating system's words for the errors a person meets here (glibc's, which e.strerror
#: says in English whatever the locale), worded in the language spoken where they are read
OS_WORDS = {
    errno.ENOENT: N_("No such file or directory"), errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"), errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"), errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"), errno.ENAMETOOLONG: N_("File name too long"),
    errno.EIO: N_("Input/output error"), errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.EDQUOT: N_("Disk quota exceeded"), errno.EFBIG: N_("File too large"),
    errno.EBADF: N_("Bad file descriptor"), errno.EPIPE: N_("Broken pipe"),
    errno.EADDRINUSE: N_("Address already in use"), errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
}

#: what the json module says of broken JSON (in English), in words worded in the language
#: spoken: its own, but for the place it says in a number an error line gives already
JSON_WORDS = {
    "Expecting value": N_("Expecting value"), "Expecting ',' delimiter": N_("Expecting ',' delimiter"),
    "Expecting ':' delimiter": N_("Expecting ':' delimiter"),
    "Expecting property name enclosed in double quotes": N_("Expecting property name enclosed in double quotes"),
    "Unterminated string starting at": N_("Unterminated string"),
    "Invalid control character at": N_("Invalid control character"), "Invalid \\escape": N_("Invalid \\escape"),
    "Invalid \\uXXXX escape": N_("Invalid \\uXXXX escape"), "Extra data": N_("Extra data"),
    "Illegal trailing comma before end of object": N_("Illegal trailing comma before end of object"),
    "Illegal trailing comma before end of array": N_("Illegal trailing comma before end of array"),
}


def os_words(e: OSError) -> Any:
    """What the operating system says of ``e``, a message worded where it is read (its own
    text where it is not one of :data:`OS_WORDS`)."""
    return Said(OS_WORDS[e.errno]) if e.errno in OS_WORDS else e.strerror or str(e)


def json_words(e: json.JSONDecodeError) -> Any:
    """What the json module says of broken JSON, a message worded where it is read."""
    return Said(JSON_WORDS[e.msg]) if e.msg in JSON_WORDS else e.msg


#: what an OS error on the book means for the person at the table, and what to do, by errno
_OS_HINTS = {
    errno.ENOSPC: N_("the disk is full: free some space and try again"),
    errno.EDQUOT: N_("the disk quota is used up: free some space and try again"),
    errno.EROFS: N_("the file system is read-only: use --db for a book on a writable disk"),
    errno.EACCES: N_("check the permissions of the file and its folder"),
    errno.EPERM: N_("check the permissions of the file and its folder"),
    errno.ENOTDIR: N_("a folder on its path is a file: use --db for another path"),
    errno.ENOENT: N_("its folder is missing and can't be made: use --db for another path"),
    errno.EFBIG: N_("the file would be too large for this disk or for the limits set"),
    errno.EISDIR: N_("it is a directory: give --db the path of a file"),
}


def os_hint(e: OSError) -> Said:
    """What an OS error on the book means for the person at the table, and what to do."""
    return L_(_OS_HINTS.get(e.errno or 0, N_("check the disk and the path")))


def damaged(path: Path, what: str) -> Damaged:
    """The one-line error for a file that can't be read: the path, what is wrong, what to do."""
    bak = backup_path(path)
    if bak.is_file():
        todo = L_("the previous version is in {bak}: copy it over {name} to go back to it, "
                  "or let `hachi-score doctor --restore` do it", bak=str(bak), name=path.name)
    else:
        todo = L_("move it aside to start afresh, or use --db for another book; `hachi-score doctor` checks the "
                  "whole book")
    return Damaged(L_("{path}: can't be read: {what}. It was left as it is; {todo}", path=str(path), what=what,
                      todo=todo),
                   path, what)


def cant_write(path: Path, e: OSError) -> CantWrite:
    return CantWrite(L_("{path}: can't be written ({why}): {hint}; nothing was changed", path=str(path),
                        why=os_words(e), hint=os_hint(e)), path, e.strerror)


def refuse_read_only(path: Path) -> None:
    """:class:`CantWrite` if ``path`` is a file made read-only (``chmod a-w``): an atomic write
    would replace it, and make it writable again, wherever its folder is writable. Its mode bits
    decide, not :func:`os.access`, so that the file stays read-only for root too."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # no file yet (or none to read): the write itself says what is wrong
    if stat.S_ISREG(mode) and not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise cant_write(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))


def not_a_book_file(path: Path | str) -> Said:
    """The line for a book path that names a folder."""
    return L_("{path}: is a directory, not a book file; give --db the path of a file", path=str(path))


def cant_read(path: Path, e: OSError) -> CantRead:
    if isinstance(e, IsADirectoryError):
        return CantRead(not_a_book_file(path), path, e.strerror)
    return CantRead(L_("{path}: can't be read ({why}): {hint}", path=str(path), why=os_words(e), hint=os_hint(e)),
                    path, e.strerror)


# ---------------------------------------------------------------------------------------------
# reading


def read_bytes(path: Path) -> bytes | None:
    """A file's bytes, or None if there is no file; the disk's refusal is :class:`CantRead`."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise cant_read(path, e) from None


def read_json_file(path: Path) -> Any:
    """A file's JSON, or None if there is no file; bytes that can't be used are :class:`Damaged`."""
    raw = read_bytes(path)
    return None if raw is None else parse_json(path, raw)


def parse_json(path: Path, raw: bytes) -> Any:
    """JSON from a file's bytes (read once by the caller); bytes that can't be used are :class:`Damaged`."""
    if not raw:
        raise damaged(path, L_("the file is empty (0 bytes)"))
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise damaged(path, L_("it holds NUL bytes (from byte {at}), a sign of a torn write", at=nul))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise damaged(path, L_("it is not UTF-8 text (byte {at})", at=e.start)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated"):
            what = L_("broken JSON at line {line} column {column}: {why} (cut short?)", line=e.lineno,
                      column=e.colno, why=json_words(e))
        else:
            what = L_("broken JSON at line {line} column {column}: {why}", line=e.lineno, column=e.colno,
                      why=json_words(e))
        raise damaged(path, what) from None
    except RecursionError:
        raise damaged(path, L_("broken JSON: nested too deeply")) from None
    except ValueError:  # a number too long to convert (sys.get_int_max_str_digits)
        raise damaged(path, L_("broken JSON: it holds a number too long to read")) from None


def json_bytes(data: Any) -> bytes:
    """Data as a book file holds it: compact UTF-8 JSON and a newline."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hash of ``data``, by the interpreter's own SHA-256 where it has one (``_sha2``,
    ``_sha256``), else by hashlib's: importing hashlib loads OpenSSL and makes a constructor of
    every hash it offers, ~3 ms of a command's start-up, and the book hashes with SHA-256 alone.
    The digest is SHA-256's either way."""
    try:
        from _sha2 import sha256 as made  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256 as made  # Python 3.11
        except ImportError:  # an interpreter built without its own hashes
            from hashlib import sha256 as made
    return made(data)


def file_hash(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, or None if it can't be read."""
    try:
        return sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


# ---------------------------------------------------------------------------------------------
# writing


def atomic_write(path: Path, data: bytes, *, backup: bool = True, durable: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file in the same directory, fsync, rename, fsync dir.

    ``durable=False`` leaves out both fsyncs, for derived data only (a digest, the index's head),
    which names what it was made from and is never believed after a crash left it torn or old.

    With ``backup``, the version being replaced is kept as ``path.bak`` (one generation). It is
    given its second name before the rename and becomes the .bak only after it, so a write that
    fails (a full disk) leaves the file *and* its .bak as they were; temp files carry the
    writer's pid, and :func:`sweep_temps` removes those of a writer that was killed. The disk's
    refusal is :class:`CantWrite`, as is a file made read-only (:func:`refuse_read_only`).
    """
    refuse_read_only(path)
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temp_beside(path)
    except OSError as e:
        raise cant_write(path, e) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            if durable:
                os.fsync(f.fileno())
        _put_in_place(path, tmp, backup)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise cant_write(path, e) from None
        raise
    if durable:
        fsync_dir(folder)


def _temp_beside(path: Path) -> tuple[int, str]:
    """A new temp file in ``path``'s folder, open for writing, named with this writer's pid as
    :func:`sweep_temps` knows a writer's temp files."""
    import tempfile  # only when writing: a command that reads starts quicker

    return tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)


def _put_in_place(path: Path, tmp: str, backup: bool) -> None:
    """``tmp`` (written and durable) renamed over ``path``. With ``backup`` the version replaced
    is given its second name first and becomes ``path.bak`` only after the rename (one
    generation); a rename that fails takes that second name away again and raises (the caller
    removes ``tmp``)."""
    old: Path | None = None
    try:
        if backup and path.exists():
            old = path.with_name(f".{path.name}.{os.getpid()}.bak.tmp")
            second_name(path, old)
        os.replace(tmp, path)
    except BaseException:
        if old is not None:
            with contextlib.suppress(OSError):
                os.unlink(old)
        raise
    if old is not None:  # the new version is saved already: if this fails, the older .bak stays
        with contextlib.suppress(OSError):
            os.replace(old, backup_path(path))
        with contextlib.suppress(OSError):
            os.unlink(old)  # rename(2) does nothing when both names are links to one file


#: from this many files at once, :func:`atomic_write_many` makes them durable with one syncfs of
#: their file system (where there is one), not an fsync each
SYNC_MANY = 8


def atomic_write_many(items: Sequence[tuple[Path, bytes]]) -> None:
    """:func:`atomic_write` of each file, with the same promises, for many files at once (an
    import of a decade writes 10,000): every temp file is written, then all are made durable (one
    ``syncfs`` of their file system from :data:`SYNC_MANY` files on, where Linux has it; else an
    fsync each), and only then does each replace its file (the version replaced kept as its
    ``.bak``), and each folder is synced once. A write that fails before the renames (a full
    disk) leaves every file as it was; a crash leaves files whole, old or new, and temp files
    that :func:`sweep_temps` removes."""
    if len(items) <= 1:
        for path, data in items:
            atomic_write(path, data)
        return
    for path, _data in items:
        refuse_read_only(path)
    temps: list[tuple[Path, str]] = []
    try:
        for path, data in items:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = _temp_beside(path)
                temps.append((path, tmp))
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
            except OSError as e:
                raise cant_write(path, e) from None
        try:
            _make_durable([tmp for _, tmp in temps])
        except OSError as e:
            raise cant_write(items[0][0], e) from None
    except BaseException:
        for _path, tmp in temps:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise
    for i, (path, tmp) in enumerate(temps):
        try:
            _put_in_place(path, tmp, backup=True)
        except BaseException as e:
            for _path, left in temps[i:]:
                with contextlib.suppress(OSError):
                    os.unlink(left)
            if isinstance(e, OSError):
                raise cant_write(path, e) from None
            raise
    for folder in dict.fromkeys(path.parent for path, _ in items):
        fsync_dir(folder)


def _make_durable(paths: Sequence[str]) -> None:
    """The bytes of ``paths`` (written and closed) on the disk: one syncfs of the file system of
    the first where there are many and Linux gives it (it waits for the writes, as fsync does),
    else an fsync of each."""
    if len(paths) >= SYNC_MANY and sys.platform.startswith("linux") and _syncfs(paths[0]):
        return
    for tmp in paths:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _syncfs(path: str) -> bool:
    """syncfs(2) of the file system holding ``path``: whether it was done."""
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError, ImportError):
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        return bool(syncfs(fd) == 0)
    finally:
        os.close(fd)


def second_name(path: Path, target: Path) -> None:
    """Give the bytes of ``path`` a second name, ``target``: a hard link (a copy where links fail),
    so that they exist under some name at every moment of what follows."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(target)
    try:
        try:
            os.link(path, target)
        except OSError:
            shutil.copy2(path, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise


def keep_aside(path: Path) -> Path | None:
    """Keep the bytes of a damaged ``path`` beside it as ``FILE.damaged-YYYYmmdd-HHMMSS`` before it
    is replaced (never deleted); returns that name, or None if there is no file."""
    if not path.exists():
        return None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 2
    while target.exists():
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        n += 1
    second_name(path, target)
    return target


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the file system lets a folder be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: inside :func:`listed_once`: each folder's temp files, listed once
_LISTED: dict[Path, list[str]] | None = None


@contextlib.contextmanager
def listed_once() -> Iterator[None]:
    """Inside, each folder's temp files are listed once, not once a file written: for one
    operation under the book's lock, where a killed writer's temp files were all there before it
    began (an import of a decade's nights writes 20,000 files into one folder)."""
    global _LISTED
    if _LISTED is not None:
        yield
        return
    _LISTED = {}
    try:
        yield
    finally:
        _LISTED = None


def _temp_names(folder: Path) -> list[str]:
    if _LISTED is not None and folder in _LISTED:
        return _LISTED[folder]
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(".") and e.name.endswith(".tmp")]
    except OSError:
        names = []
    if _LISTED is not None:
        _LISTED[folder] = names
    return names


def temp_files(path: Path) -> list[Path]:
    """The temp files an interrupted write of ``path`` may have left beside it."""
    prefix = f".{path.name}."
    return [path.parent / n for n in sorted(n for n in _temp_names(path.parent) if n.startswith(prefix))]


def writer_alive(pid: int) -> bool:
    """Whether the process ``pid`` (a temp file's writer) is still running."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def sweep_temps(path: Path) -> list[Path]:
    """Remove the temp files left beside ``path`` by writers that died (SIGKILL, power cut).

    Called under the book's lock, where no other writer of ``path`` can be at work; a file whose
    writer is still alive is left alone all the same. Returns the files removed.
    """
    removed = []
    for tmp in temp_files(path):
        m = TEMP_NAME.match(tmp.name)
        if m and m.group("name") == path.name and writer_alive(int(m.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            tmp.unlink()
            removed.append(tmp)
    if removed and _LISTED is not None and path.parent in _LISTED:
        _LISTED[path.parent] = [n for n in _LISTED[path.parent] if path.parent / n not in removed]
    return removed


# ---------------------------------------------------------------------------------------------
# the lock


def _seconds(env: str, default: float) -> float:
    """A wait in seconds from the testing knob ``env`` if it holds a positive number, else ``default``."""
    try:
        value = float(os.environ.get(env, ""))
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


class BookLock:
    """An exclusive ``fcntl.flock`` on a lock file; re-entrant within one holder.

    The kernel drops a flock when its holder dies, so a killed process never leaves it stuck. A
    writer that waits says so (``notice``) after ``notice_after`` seconds and gives up
    (:class:`Locked`) after ``timeout``; a lock file that can't be opened is :class:`CantLock`.
    """

    def __init__(self, path: Path, notice: Callable[[str], None] = say, *,
                 timeout: float | None = None, notice_after: float | None = None) -> None:
        self.path = path
        self.notice = notice
        self.timeout = timeout if timeout is not None else _seconds(ENV_TEST_LOCK_TIMEOUT, LOCK_TIMEOUT)
        self.notice_after = (notice_after if notice_after is not None
                             else _seconds(ENV_TEST_LOCK_NOTICE, LOCK_NOTICE_AFTER))
        self._fd: int | None = None
        self._depth = 0

    @property
    def held(self) -> bool:
        return self._depth > 0

    def acquire(self) -> None:
        if self._depth:
            self._depth += 1
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise CantLock(
                L_("{path}: the lock file can't be opened ({why}): {hint}; nothing was changed", path=str(self.path),
                   why=os_words(e), hint=os_hint(e)),
                self.path, e.strerror,
            ) from None
        try:
            self._wait(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd, self._depth = fd, 1

    def _wait(self, fd: int) -> None:
        start = time.monotonic()
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError as e:
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise CantLock(L_("{path}: can't be locked ({why})", path=str(self.path), why=os_words(e)),
                                   self.path, e.strerror) from None
            waited = time.monotonic() - start
            # the notice first: a writer that gives up has always said that it waits
            if not told and waited >= min(self.notice_after, self.timeout):
                self.notice(L_("waiting for the book's lock ({path}): another hachi-score is writing…",
                               path=str(self.path)))
                told = True
            if waited >= self.timeout:
                raise Locked(
                    L_("{path}: another hachi-score has held the book's lock for {seconds:g} s; gave up, nothing "
                       "was changed: try again when it is done", path=str(self.path), seconds=self.timeout), self.path
                )
            time.sleep(LOCK_POLL)

    def release(self) -> None:
        if not self._depth:
            return
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def __enter__(self) -> BookLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

