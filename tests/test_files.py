"""The files layer on its own (scorekeeper.files): no book, only a file written under its lock.

- a writer killed at every change it makes in the folder (the crash harness's watcher) leaves the
  file whole, old or new, its bytes somewhere, the lock free, and temp files the next write sweeps;
- a full disk at every step of a write, and a read-only folder, leave the file and its .bak as
  they were, with one line saying so (a typed error: CantWrite, CantLock);
- two writers under the lock lose no update.
"""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import stat
import sys
import tempfile
from pathlib import Path

import crash_harness as ch
import pytest
from helpers import HANG

from scorekeeper import files
from scorekeeper.errors import CantLock, CantWrite, Damaged

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork, flock and SIGKILL; Linux")


@pytest.fixture
def path(tmp_path) -> Path:
    """A file with a .bak: "older" was replaced by "old"."""
    p = tmp_path / "folder" / "f.json"
    p.parent.mkdir()
    write(p, b'"older"\n')
    write(p, b'"old"\n')
    return p


def write(path: Path, data: bytes) -> None:
    """One writer's save, as the book makes it: under the lock, a killed one's leftovers swept first."""
    with files.BookLock(files.lock_path(path)):
        files.sweep_temps(path)
        files.atomic_write(path, data)


def in_folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in path.parent.iterdir() if p.is_file()}


def test_a_writer_killed_at_every_step_of_a_save_leaves_the_file_whole(path):
    """Killed just before and just after each call of a save that touches the disk or the lock
    (crash_harness.kill_inside): the file is old or new, whole; the version it replaces exists at
    every moment; only the killed writer's temp files are left, and the next save sweeps them;
    the lock is free."""
    killed, steps, _ = ch.kill_inside(lambda: write(path, b'"new"\n'), None)
    assert not killed and steps >= 10  # the lock, the temp file, its bytes and fsync, the .bak, the renames …
    for k in range(1, steps + 1):
        for after in (False, True):
            files.atomic_write(files.backup_path(path), b'"older"\n', backup=False)
            files.atomic_write(path, b'"old"\n', backup=False)
            killed, _, pid = ch.kill_inside(lambda: write(path, b'"new"\n'), k, after)
            at = (k, "after" if after else "before")
            assert killed, at
            now = in_folder(path)
            assert now["f.json"] in (b'"old"\n', b'"new"\n'), (at, now)  # whole, old or new
            assert files.read_json_file(path) in ("old", "new")
            assert now["f.json.bak"] in (b'"older"\n', b'"old"\n'), (at, now)
            assert b'"old"\n' in now.values(), (at, now)  # the version replaced is somewhere at every moment
            assert all(f".{pid}." in p.name for p in files.temp_files(path)), (at, now)  # the killed writer's only
            assert ch.lock_is_free(path), at  # the kernel dropped the killed writer's lock
            write(path, b'"next"\n')  # the next writer goes ahead, and sweeps what the killed one left
            assert files.temp_files(path) == [], at
            assert path.read_bytes() == b'"next"\n' and files.backup_path(path).read_bytes() == now["f.json"], at


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


class FullFile:
    """A file that takes 3 bytes, then has no room."""

    def __init__(self, real) -> None:
        self.real = real

    def write(self, data: bytes) -> int:
        self.real.write(data[:3])
        no_space()

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.real.close()


STEPS = {
    "the temp file": lambda m: m.setattr(tempfile, "mkstemp", no_space),
    "its bytes": lambda m: m.setattr(files.os, "fdopen", lambda fd, *a, real=os.fdopen, **k: FullFile(real(fd, "wb"))),
    "its fsync": lambda m: m.setattr(files.os, "fsync", lambda fd, real=os.fsync: no_space() if stat.S_ISREG(
        os.fstat(fd).st_mode) else real(fd)),
    "the .bak's second name": lambda m: (m.setattr(files.os, "link", no_space), m.setattr(files.shutil, "copy2", no_space)),
    "the rename": lambda m: m.setattr(files.os, "replace", lambda src, dst, real=os.replace: no_space() if Path(
        dst).name == "f.json" else real(src, dst)),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_a_full_disk_at_any_step_changes_nothing(path, monkeypatch, step):
    before = in_folder(path)
    with monkeypatch.context() as m:
        STEPS[step](m)
        with pytest.raises(CantWrite) as e:
            write(path, b'"new"\n')
    assert str(e.value) == (f"{path}: can't be written (No space left on device): the disk is full: free some "
                            "space and try again; nothing was changed")
    assert in_folder(path) == before  # the .bak too, and no temp file
    write(path, b'"new"\n')  # with room again, the same write goes through
    assert path.read_bytes() == b'"new"\n' and files.backup_path(path).read_bytes() == b'"old"\n'


def test_a_read_only_file_system_changes_nothing(path, monkeypatch):
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    before = in_folder(path)
    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(CantWrite, match="the file system is read-only: use --db for a book on a writable disk"):
        files.atomic_write(path, b'"new"\n')
    lock = files.lock_path(path.parent / "other.json")  # no lock file yet: it can't be made either
    real_open = os.open
    monkeypatch.setattr(files.os, "open", lambda p, *a, **k: read_only() if Path(p) == lock else real_open(p, *a, **k))
    with pytest.raises(CantLock, match="the lock file can't be opened .*: the file system is read-only"):
        files.BookLock(lock).acquire()
    assert in_folder(path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="running as root: every folder is writable")
def test_a_read_only_folder_changes_nothing(path):
    before = in_folder(path)
    path.parent.chmod(0o555)
    try:
        with pytest.raises(CantWrite, match="Permission denied.*check the permissions"):
            files.atomic_write(path, b'"new"\n')
        with pytest.raises(CantLock):
            files.BookLock(files.lock_path(path.parent / "other.json")).acquire()
    finally:
        path.parent.chmod(0o755)
    assert in_folder(path) == before


def test_a_read_only_file_in_a_writable_folder_is_not_replaced(path):
    """``chmod a-w`` on the file alone: the write is refused as for a read-only folder, by the
    file's mode bits, so for root too (who could replace it), and the file stays read-only."""
    before = in_folder(path)
    path.chmod(0o444)
    try:
        with pytest.raises(CantWrite, match="can't be written \\(Permission denied\\): check the permissions"):
            files.atomic_write(path, b'"new"\n')
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
    finally:
        path.chmod(0o644)
    assert in_folder(path) == before


def test_bytes_that_cant_be_used_are_damage_named_with_the_file(path):
    for raw, what in ((b"", "the file is empty"), (b'"cut', "cut short"), (b"\0\0", "NUL bytes"), (b"\xff", "not UTF-8")):
        path.write_bytes(raw)
        with pytest.raises(Damaged, match=what) as e:
            files.read_json_file(path)
        assert str(e.value).startswith(f"{path}: can't be read: ") and "It was left as it is" in str(e.value)
        assert path.read_bytes() == raw


def _count_up(path: str, times: int, barrier) -> None:
    barrier.wait()
    for _ in range(times):
        with files.BookLock(files.lock_path(Path(path))):  # read, add one, write: under the lock
            n = files.read_json_file(Path(path))
            files.atomic_write(Path(path), json.dumps(n + 1).encode())


def test_two_writers_under_the_lock_lose_no_update(tmp_path):
    path = tmp_path / "count.json"
    files.atomic_write(path, b"0")
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(2)
    writers = [ctx.Process(target=_count_up, args=(str(path), 50, barrier)) for _ in range(2)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(HANG)
    assert [w.exitcode for w in writers] == [0, 0]
    assert files.read_json_file(path) == 100
    assert files.read_json_file(files.backup_path(path)) == 99
    assert files.temp_files(path) == []


def test_many_files_are_written_all_or_none(tmp_path, monkeypatch):
    """An import's session files: written at once, made durable together, each replacing its file
    (the old version kept as its .bak); a disk that refuses them leaves every file as it was."""
    paths = [tmp_path / f"s{n}.json" for n in range(1, files.SYNC_MANY + 3)]
    paths[0].write_bytes(b"old\n")
    real = files._make_durable

    def full(temps):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "_make_durable", full)
    with pytest.raises(CantWrite):
        files.atomic_write_many([(p, b"new\n") for p in paths])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s1.json"] and paths[0].read_bytes() == b"old\n"
    monkeypatch.setattr(files, "_make_durable", real)
    files.atomic_write_many([(p, b"new\n") for p in paths])
    assert all(p.read_bytes() == b"new\n" for p in paths)
    assert files.backup_path(paths[0]).read_bytes() == b"old\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
