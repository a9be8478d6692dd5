"""Nowhere to write: a full disk, a file too large, a read-only folder, a folder that can't be made.

Each writing command then exits 1 with one clear line, and every file of the book — the .bak
included — is byte-for-byte what it was. The disk-full case is made to really fail twice over:

- in-process, by making the storage's own system calls raise ENOSPC (the temp file's creation,
  its write, its fsync, the .bak's link, the rename), for every writing command;
- for real, where this test may mount one: a 256 KiB tmpfs filled to the last byte, with the
  installed executable; and, needing no privilege, RLIMIT_FSIZE (the kernel's EFBIG).
"""

from __future__ import annotations

import errno
import io
import json
import os
import resource
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner

from scorekeeper import files, store
from scorekeeper.cli import app
from helpers import add_round

runner = FastRunner()
ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.fixture
def book(tmp_path) -> Path:
    """A book with two sessions, the current one holding three rounds; every file has a .bak."""
    path = tmp_path / "book" / "book.json"
    b = store.Book.open(path)
    b.new_session(["Dan", "Eri", "Fumi"], name="Friday")
    sid = b.new_session(ch.PLAYERS, name="Saturday")
    for f in ch.NIGHT[:3]:
        add_round(b, sid, ch.bare(f))
    return path


def commands(tmp_path: Path) -> dict[str, list[str]]:
    files = ch.round_files(tmp_path / "rounds")
    export = tmp_path / "export.json"
    export.write_text(json.dumps({"players": ch.PLAYERS, "rounds": ch.NIGHT[5:7]}), encoding="utf-8")  # a night not in the book
    return {
        "round": ["round", "--file", str(files[3])],
        "new-session": ["new-session", "Gin", "Hana", "Ito"],
        "undo": ["undo", "--yes"],
        "edit": ["edit", "2", "--file", str(files[5])],
        "import": ["import", str(export)],
        "use": ["use", "Friday"],
    }


def run(args: list[str], path: Path):
    result = runner.invoke(app, [*args, "--db", str(path)])
    assert "Traceback" not in result.output
    return result


def one_line(result) -> str:
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hachi-score: "), result.stderr
    return lines[0]


# ---------------------------------------------------------------------------------------------
# ENOSPC raised inside the storage's own code path


class _FullFile(io.RawIOBase):
    """A temp file on a disk that fills up after ``room`` bytes: the rest raises ENOSPC."""

    def __init__(self, real, room: int) -> None:
        self.real, self.room = real, room

    def write(self, data) -> int:
        if len(data) > self.room:
            if self.room:
                self.real.write(bytes(data[: self.room]))
                self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.real.write(data)

    def fileno(self) -> int:
        return self.real.fileno()

    def flush(self) -> None:
        self.real.flush()

    def close(self) -> None:
        self.real.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def full_disk(monkeypatch, where: str) -> None:
    """Make the step ``where`` of files.atomic_write fail as a full disk does."""
    if where == "temp file":
        def mkstemp(*a, **k):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)  # the store imports it where it writes
    elif where == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(files.os, "fdopen", lambda fd, *a, **k: _FullFile(real_fdopen(fd, "wb", buffering=0), 100))
    elif where == "fsync":
        def fsync(fd):
            if stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(files.os, "fsync", fsync)
    elif where == "backup":
        def no_room(*a, **k):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        monkeypatch.setattr(files.os, "link", no_room)
        monkeypatch.setattr(files.shutil, "copy2", no_room)
    elif where == "rename":
        real_replace = os.replace

        def replace(src, dst):
            if not str(dst).endswith(".bak"):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            real_replace(src, dst)
        monkeypatch.setattr(files.os, "replace", replace)


STEPS = ["temp file", "write", "fsync", "backup", "rename"]


@pytest.mark.parametrize("where", STEPS)
@pytest.mark.parametrize("command", ["round", "new-session", "edit", "use"])  # every kind of file, written alone or two
def test_a_full_disk_changes_nothing_and_says_so(book, tmp_path, monkeypatch, command, where):
    args = commands(tmp_path)[command]
    before = snapshot(book.parent)
    with monkeypatch.context() as m:
        full_disk(m, where)
        result = run(args, book)
    assert result.exit_code == 1, result.output
    line = one_line(result)
    assert "No space left on device" in line and "the disk is full" in line and "nothing was changed" in line
    assert snapshot(book.parent) == before  # the .bak too; no temp file, no half session
    assert run(args, book).exit_code == 0  # with room again, the same command goes through


def test_a_failed_index_write_takes_back_the_new_session_file(book, tmp_path, monkeypatch):
    """new-session writes the session's file, then the index: if the index can't be written,
    the new file goes again, so the book is as it was and no session is half made."""
    before = snapshot(book.parent)
    real_replace = os.replace

    def replace(src, dst):
        if Path(dst) == book:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    result = run(commands(tmp_path)["import"], book)
    assert result.exit_code == 1 and "the disk is full" in one_line(result)
    assert snapshot(book.parent) == before


# ---------------------------------------------------------------------------------------------
# really out of room


def _mount_tmpfs(where: Path, size: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
                          capture_output=True, timeout=30)
    return proc.returncode == 0


def _umount(where: Path) -> None:
    subprocess.run(["umount", str(where)], capture_output=True, timeout=30)


@pytest.fixture
def tiny(tmp_path):
    where = tmp_path / "tiny"
    if not _mount_tmpfs(where, "256k"):
        pytest.skip("can't mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
    try:
        yield where
    finally:
        _umount(where)


def cli(*args: str, path: Path, pre=None) -> subprocess.CompletedProcess:
    proc = subprocess.run([*ch.hachi_score_exe(), *args, "--db", str(path)], capture_output=True, text=True,
                          timeout=60, preexec_fn=pre)
    assert "Traceback" not in proc.stderr
    return proc


def test_a_really_full_disk(tiny, tmp_path):
    path = tiny / "book.json"
    files = ch.round_files(tmp_path / "rounds")
    b = store.Book.open(path)
    sid = b.new_session(ch.PLAYERS)
    for f in ch.NIGHT[:6]:
        add_round(b, sid, ch.bare(f))
    filler = tiny / "filler"
    with open(filler, "wb", buffering=0) as out:  # every last byte
        for size in (65536, 4096, 512, 64, 1):
            try:
                while True:
                    out.write(b"\0" * size)
            except OSError as e:
                assert e.errno == errno.ENOSPC
    before = snapshot(tiny)
    for args in (["round", "--file", str(files[6])], ["new-session", "Dan", "Eri", "Fumi"]):
        proc = cli(*args, path=path)
        assert proc.returncode == 1, proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and "No space left on device" in lines[0] and "the disk is full" in lines[0], lines
        assert snapshot(tiny) == before, args
    undone = run(["undo", "--yes"], path)  # in-process as well
    assert undone.exit_code == 1 and "No space left on device" in one_line(undone)
    assert snapshot(tiny) == before
    shown = run(["summary", "--json"], path)  # reading needs no room
    assert shown.exit_code == 0 and json.loads(shown.stdout)["rounds"] == 6, shown.output
    filler.unlink()
    proc = cli("round", "--file", str(files[6]), "--json", path=path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["round"] == 7
    assert not [p for p in tiny.rglob("*.tmp")]


def test_a_file_size_limit_fails_cleanly(book, tmp_path):
    """RLIMIT_FSIZE below the session file's new size: the kernel refuses the write (EFBIG)."""
    session = store.sessions_dir(book) / "s2.json"
    limit = session.stat().st_size + 100  # the next round does not fit
    before = snapshot(book.parent)
    proc = cli("round", "--file", str(ch.round_files(tmp_path / "rounds")[3]), path=book,
               pre=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "File too large" in lines[0] and "nothing was changed" in lines[0]
    assert snapshot(book.parent) == before


# ---------------------------------------------------------------------------------------------
# a folder that can't be written, or made


def _without_privilege() -> list[str] | None:
    """A prefix that runs a command without the power to ignore file permissions, or None."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv"):
        probe = subprocess.run(["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--", "true"], capture_output=True)
        if probe.returncode == 0:
            return ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--"]
    return None


def test_a_read_only_folder(book, tmp_path):
    prefix = _without_privilege()
    if prefix is None:
        pytest.skip("root without setpriv: permissions can't be made to bite")
    files = ch.round_files(tmp_path / "rounds")
    folders = [book.parent, store.sessions_dir(book)]
    before = snapshot(book.parent)
    for f in folders:
        f.chmod(0o555)
    try:
        for args in (["round", "--file", str(files[3])], ["new-session", "Dan", "Eri", "Fumi"], ["use", "Friday"]):
            proc = subprocess.run([*prefix, *ch.hachi_score_exe(), *args, "--db", str(book)],
                                  capture_output=True, text=True, timeout=60)
            assert proc.returncode == 1, proc.stderr
            lines = proc.stderr.splitlines()
            assert len(lines) == 1 and "Permission denied" in lines[0] and "permissions" in lines[0], lines
            assert "Traceback" not in proc.stderr
        proc = subprocess.run([*prefix, *ch.hachi_score_exe(), "summary", "--json", "--db", str(book)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and json.loads(proc.stdout)["players"] == ch.PLAYERS  # reading still works
    finally:
        for f in folders:
            f.chmod(0o755)
    assert snapshot(book.parent) == before


@pytest.mark.parametrize("which", ["index", "session"])
def test_a_read_only_book_file_in_a_writable_folder(book, which):
    """``chmod a-w`` on one file of the book (its folders writable): every write is refused with
    the read-only folder's line and status, nothing is written, and the file stays read-only; as
    root too, whom the permission bits would not stop."""
    target = book if which == "index" else store.sessions_dir(book) / "s2.json"
    before = snapshot(book.parent)
    target.chmod(0o444)
    try:
        writes = [["round", "--file", str(ch.round_files(book.parent.parent / "rounds")[3])], ["undo", "--yes"],
                  ["round"]]  # typed: refused before the first question
        for args in writes + ([["new-session", "Gin", "Hana", "Ito"]] if which == "index" else []):
            result = run(args, book)
            assert result.exit_code == 1, result.output
            line = one_line(result)
            assert "can't be written (Permission denied)" in line and "permissions" in line, line
        assert stat.S_IMODE(target.stat().st_mode) == 0o444
    finally:
        target.chmod(0o644)
    assert snapshot(book.parent) == before


def test_a_read_only_file_system(tmp_path):
    where = tmp_path / "ro"
    if not _mount_tmpfs(where, "1m"):
        pytest.skip("can't mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
    try:
        path = where / "book.json"
        files = ch.round_files(tmp_path / "rounds")
        b = store.Book.open(path)
        add_round(b, b.new_session(ch.PLAYERS), ch.bare(ch.NIGHT[0]))
        before = snapshot(where)
        assert subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True).returncode == 0
        for args in (["round", "--file", str(files[1])], ["new-session", "Dan", "Eri", "Fumi"], ["doctor", "--restore"]):
            proc = cli(*args, path=path)
            assert proc.returncode == 1
            lines = proc.stderr.splitlines()
            assert len(lines) == 1 and "Read-only file system" in lines[0] and "read-only" in lines[0], lines
        shown, checked = run(["summary"], path), run(["doctor"], path)
        assert shown.exit_code == 0 and "standings" in shown.stdout, shown.output
        assert checked.exit_code == 0 and "healthy" in checked.stdout, checked.output
        assert snapshot(where) == before
    finally:
        _umount(where)


@pytest.mark.parametrize("kind", ["a file on the way", "under /proc"])
def test_a_folder_that_can_not_be_made(tmp_path, kind):
    if kind == "a file on the way":
        (tmp_path / "not-a-folder").write_text("x")
        path = tmp_path / "not-a-folder" / "sub" / "book.json"
        expect = "Not a directory"
    else:
        path = Path("/proc/hachi-score-test/book.json")
        if path.parent.parent.exists() is False:
            pytest.skip("no /proc")
        expect = ""
    for args in (["new-session", *ch.PLAYERS], ["round", "--file", str(ch.round_files(tmp_path / "rounds")[0])]):
        result = run(args, path)
        assert result.exit_code in (1, 2)
        line = one_line(result)
        assert str(path.parent) in line and expect in line
        if args[0] == "new-session":
            assert result.exit_code == 1 and ("use --db for another path" in line or "nothing was changed" in line)
    assert not path.parent.exists()


def test_a_missing_folder_is_made(tmp_path):
    path = tmp_path / "a" / "b" / "c" / "book.json"
    assert run(["new-session", *ch.PLAYERS], path).exit_code == 0
    assert store.Book.open(path).current_id() == "s1"
