"""Killing hachi-score in the middle of a save, and checking that nothing was lost.

Used by tests/test_crash.py (a CI-sized run) and benchmarks/soak_kill.py (the long soak).

- :class:`Watcher` watches the book's folders (inotify through ctypes; polling ``os.scandir``
  where there is no inotify) so that a kill can be sent *the moment a file there changes*: the
  temp file appearing, being written, closed, linked as the .bak, renamed over the book.
- :class:`Forked` runs ``hachi-score ARGS`` as a forked copy of the current process (the CLI's
  real ``main``, with everything already imported: no start-up to wait through), and
  :class:`Spawned` runs the installed ``hachi-score`` executable. Both are separate processes,
  killed with SIGKILL.
- :func:`attempt` starts one ``round --file``, kills it at the chosen change, and
  :func:`check_after` checks the book afterwards: it opens, every round whose save was confirmed
  is there, the round whose save was not confirmed is whole or absent, the earlier rounds are
  byte-for-byte what they were, at most one interrupted save's temp files are lying about, and
  the lock is free.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import random
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from scorekeeper import files, night, store
from scorekeeper.scoring import Round
from helpers import add_round

ROOT = Path(__file__).resolve().parent.parent
NIGHT_DIR = ROOT / "scorekeeper" / "data" / "night"
NIGHT = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(NIGHT_DIR.glob("*.json"))]
PLAYERS = ["Aki", "Ben", "Chie"]

# inotify(7)
IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE = 0x2, 0x4, 0x8
IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x40, 0x80, 0x100, 0x200
IN_NONBLOCK, IN_CLOEXEC = 0o4000, 0o2000000
WATCHED = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
_EVENT = struct.Struct("iIII")


class Watcher:
    """Changes to the files of a few folders, as they happen."""

    def __init__(self, folders: list[Path], force_polling: bool = False) -> None:
        self.folders = [Path(f) for f in folders]
        self.fd = -1
        if not force_polling and sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
                if fd >= 0:
                    for folder in self.folders:
                        if libc.inotify_add_watch(fd, os.fsencode(folder), WATCHED) < 0:
                            os.close(fd)
                            fd = -1
                            break
                self.fd = fd
            except (OSError, AttributeError):
                self.fd = -1
        self.kind = "inotify" if self.fd >= 0 else "polling"
        self._seen = self._scan()

    def _scan(self) -> dict[str, tuple[int, int, int]]:
        seen = {}
        for folder in self.folders:
            try:
                with os.scandir(folder) as it:
                    for e in it:
                        try:
                            st = e.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        seen[f"{folder.name}/{e.name}"] = (st.st_ino, st.st_mtime_ns, st.st_size)
            except OSError:
                pass
        return seen

    def changes(self, timeout: float) -> list[str]:
        """The changes seen within ``timeout`` seconds (returns as soon as there is one)."""
        if self.fd >= 0:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            return self._read() if ready else []
        deadline = time.monotonic() + timeout
        while True:
            now = self._scan()
            if now != self._seen:
                names = sorted(k for k in set(now) | set(self._seen) if now.get(k) != self._seen.get(k))
                self._seen = now
                return names
            if time.monotonic() >= deadline:
                return []

    def _read(self) -> list[str]:
        out = []
        try:
            buf = os.read(self.fd, 65536)
        except BlockingIOError:
            return out
        i = 0
        while i + _EVENT.size <= len(buf):
            _wd, mask, _cookie, length = _EVENT.unpack_from(buf, i)
            name = buf[i + _EVENT.size : i + _EVENT.size + length].rstrip(b"\0").decode("utf-8", "replace")
            out.append(f"{mask:#x}:{name}")
            i += _EVENT.size + length
        return out

    def drain(self) -> None:
        if self.fd >= 0:
            while self._read():
                pass
        else:
            self._seen = self._scan()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


# ---------------------------------------------------------------------------------------------
# the process that gets killed


class Forked:
    """``hachi-score ARGS`` in a forked copy of this process: the real CLI ``main``."""

    def __init__(self, args: list[str], out: Path) -> None:
        self.out = out
        self.status: int | None = None
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 70
            try:
                sys.stdin = open(os.devnull, encoding="utf-8")
                sys.stdout = open(out, "w", encoding="utf-8")
                sys.stderr = open(str(out) + ".err", "w", encoding="utf-8")
                sys.argv = ["hachi-score", *args]
                from scorekeeper.cli import main

                try:
                    main()
                    code = 0
                except SystemExit as e:
                    code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:  # noqa: BLE001 - anything else is the harness's failure
                code = 71
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        self.pid = pid

    def poll(self) -> int | None:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)

    def wait(self) -> int:
        if self.status is None:
            _, self.status = os.waitpid(self.pid, 0)
        return self.status

    def output(self) -> tuple[str, str]:
        err = Path(str(self.out) + ".err")
        return self.out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8") if err.exists() else ""


def hachi_score_exe() -> list[str]:
    exe = Path(sys.executable).parent / "hachi-score"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "scorekeeper"]


class Spawned:
    """The installed ``hachi-score`` executable, started afresh."""

    def __init__(self, args: list[str], out: Path) -> None:
        self.out = out
        self._stdout = open(out, "wb")
        self._stderr = open(str(out) + ".err", "wb")
        self.proc = subprocess.Popen([*hachi_score_exe(), *args], stdin=subprocess.DEVNULL,
                                     stdout=self._stdout, stderr=self._stderr)
        self.pid = self.proc.pid
        self.status: int | None = None

    def poll(self) -> int | None:
        rc = self.proc.poll()
        if rc is not None and self.status is None:
            self.status = _as_wait_status(rc)
        return self.status

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)

    def wait(self) -> int:
        rc = self.proc.wait(60)
        self._stdout.close()
        self._stderr.close()
        if self.status is None:
            self.status = _as_wait_status(rc)
        return self.status

    def output(self) -> tuple[str, str]:
        return (self.out.read_text(encoding="utf-8", errors="replace"),
                Path(str(self.out) + ".err").read_text(encoding="utf-8", errors="replace"))


def _as_wait_status(rc: int) -> int:
    """Popen's returncode as a waitpid status (negative: killed by that signal)."""
    return -rc if rc < 0 else rc << 8


# ---------------------------------------------------------------------------------------------
# a kill at a chosen system call of a save


#: the calls a save makes that change the disk or the lock, where a kill may land between two
SAVE_CALLS = ((tempfile, "mkstemp"), (os, "open"), (os, "fdopen"), (os, "fsync"), (os, "link"), (os, "replace"),
              (os, "unlink"))


def kill_inside(save: Callable[[], None], k: int | None, after: bool = False) -> tuple[bool, int, int]:
    """Run ``save`` in a forked child that SIGKILLs itself at its ``k``-th call of SAVE_CALLS, just
    before it or, with ``after``, just after it returned (None: never). Returns whether the child
    was killed, how many of those calls it made, and its pid. Unlike a watcher's kill this one
    lands exactly where it is aimed, so that every step of a save can be tried in turn."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 70
        try:
            os.close(read_end)
            made = [0]

            def counted(real: Callable[..., Any]) -> Callable[..., Any]:
                def call(*args: Any, **kwargs: Any) -> Any:
                    made[0] += 1
                    mine = made[0]  # a call may make others (mkstemp opens its file)
                    os.write(write_end, b".")
                    if mine == k and not after:
                        os.kill(os.getpid(), signal.SIGKILL)
                    try:
                        return real(*args, **kwargs)
                    finally:  # returned or raised (an unlink of a name not there)
                        if mine == k and after:
                            os.kill(os.getpid(), signal.SIGKILL)
                return call

            for module, name in SAVE_CALLS:
                setattr(module, name, counted(getattr(module, name)))
            save()
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as calls:
        made = len(calls.read())
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert killed or os.WEXITSTATUS(status) == 0, f"the save failed (exit {os.WEXITSTATUS(status)})"
    return killed, made, pid


# ---------------------------------------------------------------------------------------------
# the book


def bare(f: dict) -> dict:
    return {k: v for k, v in f.items() if k not in ("players", "dealer")}


def renamed(rnd: dict, names: list[str]) -> dict:
    """A night round with Aki, Ben and Chie renamed; players and dealer left to the session."""
    to = dict(zip(PLAYERS, names))
    out = {}
    for key, value in bare(rnd).items():
        if isinstance(value, dict):
            value = {to[p]: v for p, v in value.items()}
        elif isinstance(value, str) and value in to:
            value = to[value]
        out[key] = value
    return out


def nights(count: int, rounds: int) -> list[list[dict]]:
    """``count`` distinct nights of ``rounds`` rounds each, from the bundled night: the first is
    the night repeated as it is, each other begins at another of its rounds (past twelve nights,
    the twelve in a shuffled order), so that no night holds another (a book never counts one twice)."""
    out = []
    for n in range(count):
        order = NIGHT[n:] + NIGHT[:n] if n < len(NIGHT) else random.Random(n).sample(NIGHT, len(NIGHT))
        out.append([order[i % len(order)] for i in range(rounds)])
    return out


def build_book(path: Path, rounds: int, sessions: int = 1) -> None:
    """A book of ``sessions`` distinct sessions of ``rounds`` rounds each (:func:`nights`); the
    last is current."""
    book = store.Book.open(path)
    for night_rounds in nights(sessions, rounds):
        book.import_session(night.read_export({"players": PLAYERS, "rounds": night_rounds, "name": "soak"}))


def two_nights(path: Path) -> Path:
    """A book at ``path`` with s1 (Friday: the bundled night's first 3 rounds) and s2 (Saturday,
    current: its next 3)."""
    from scorekeeper import store

    b = store.Book.open(path)
    for name, rounds in (("Friday", NIGHT[:3]), ("Saturday", NIGHT[3:6])):
        sid = b.new_session(PLAYERS, name=name)
        for f in rounds:
            add_round(b, sid, bare(f))
    return path


def current_file(path: Path) -> Path:
    """The current session's file."""
    book = store.Book.open(path)
    return book.session_path(book.resolve(None))


def round_files(folder: Path) -> list[Path]:
    """The bundled night as round files without players and dealer (the session fills them)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, f in enumerate(NIGHT):
        p = folder / f"r{i:02}.json"
        p.write_text(json.dumps(bare(f), ensure_ascii=False), encoding="utf-8")
        out.append(p)
    return out


def stored_rounds(path: Path) -> list[dict]:
    """The current session's rounds as stored; raises if the book can't be opened."""
    book = store.Book.open(path)
    return [r["round"] for r in book.session(book.resolve(None))["rounds"]]


def _same_round(stored: dict, file: dict) -> bool:
    """A stored round is the round file (whatever 親 the chain gave it)."""
    typed = Round.from_dict(bare(file), players=PLAYERS, dealer=stored["dealer"]).to_dict()
    return typed == stored


def temps(path: Path) -> list[Path]:
    return files.temp_files(path) + files.temp_files(current_file(path))


def lock_is_free(path: Path) -> bool:
    fd = os.open(files.lock_path(path), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------
# one attempt


@dataclass
class Tally:
    """What happened over a run of attempts."""

    attempts: int = 0
    confirmed: int = 0  # exit 0 with the round's number printed
    kills: int = 0  # died of SIGKILL
    stages: Counter = field(default_factory=Counter)  # where each kill landed
    max_temps: int = 0
    swept: int = 0  # temp files of a killed save that the next save removed
    seconds: float = 0.0

    @property
    def inside_save(self) -> int:
        """Kills that landed once the save had begun: sweeping, writing, renaming, or just after."""
        return sum(n for stage, n in self.stages.items() if stage != "before the save")

    @property
    def before_rename(self) -> int:
        """Kills that left the save unfinished: the file not yet replaced, temp files left."""
        return sum(n for stage, n in self.stages.items() if stage not in ("before the save", "after the rename"))

    def line(self) -> str:
        stages = ", ".join(f"{n} {stage}" for stage, n in sorted(self.stages.items(), key=lambda kv: -kv[1]))
        return (f"{self.attempts} attempts in {self.seconds:.1f} s: {self.kills} SIGKILLs, "
                f"{self.inside_save} inside a save, {self.before_rename} before its rename ({stages}); "
                f"{self.confirmed} saves confirmed; "
                f"at most {self.max_temps} temp file(s) at once, {self.swept} swept by the next save")


def attempt(
    path: Path,
    watcher: Watcher,
    start: Callable[[list[str], Path], Any],
    args: list[str],
    kill_at: int | None,
    spin_us: int,
    out: Path,
) -> tuple[Any, int | None, list[str]]:
    """Run ``hachi-score ARGS``; SIGKILL it at the ``kill_at``-th change in the book's folders
    (None: let it finish). Returns the child, the change it was killed at, the changes seen."""
    watcher.drain()
    child = start(args, out)
    seen: list[str] = []
    killed_at = None
    deadline = time.monotonic() + 60
    while child.poll() is None:
        if time.monotonic() > deadline:
            child.kill()
            child.wait()
            raise AssertionError(f"round --file hung for 60 s (pid {child.pid})")
        got = watcher.changes(0.002)
        if not got:
            continue
        seen += got
        if kill_at is not None and len(seen) >= kill_at:
            if spin_us:
                until = time.perf_counter() + spin_us / 1e6
                while time.perf_counter() < until:
                    pass
            child.kill()
            killed_at = len(seen)
            break
    child.wait()
    child.killed_at, child.seen = killed_at, seen
    return child, killed_at, seen


def check_after(path: Path, before: list[dict], file: dict, child: Any, tally: Tally,
                temps_before: list[Path]) -> list[dict]:
    """Everything the issue asks of the book after one attempt; returns the rounds now stored."""
    status = child.wait()
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    stdout, stderr = child.output()
    assert killed or code == 0, f"exit {code}, not a kill: {stderr!r}"
    assert "Traceback" not in stderr
    confirmed = code == 0
    if confirmed:
        printed = json.loads(stdout.splitlines()[0])
        assert printed["saved"] and printed["round"] == len(before) + 1, printed

    rounds = stored_rounds(path)  # the book always opens
    assert rounds[: len(before)] == before, "an earlier round changed or was lost"
    assert len(rounds) in (len(before), len(before) + 1), f"{len(before)} rounds became {len(rounds)}"
    landed = len(rounds) == len(before) + 1
    if confirmed:
        assert landed, "a confirmed save is not in the book"
    if landed:
        assert _same_round(rounds[-1], file), "the new round is not the round that was sent"
    left = temps(path)
    assert len(left) <= 2, f"temp files pile up: {[p.name for p in left]}"
    assert lock_is_free(path), "a killed writer left the lock held"

    tally.attempts += 1
    tally.max_temps = max(tally.max_temps, len(left))
    tally.swept += sum(1 for p in temps_before if not p.exists())
    if confirmed or landed:  # the save went through: what a killed save left must be gone
        assert not [p for p in temps_before if p.exists()], "the next save did not sweep a killed save's temp files"
    if confirmed:
        tally.confirmed += 1
    if killed:
        tally.kills += 1
        data_tmp = [p for p in left if not p.name.endswith(".bak.tmp") and f".{os.getpid()}." not in p.name
                    and f".{child.pid}." in p.name]
        bak_tmp = [p for p in left if p.name.endswith(".bak.tmp") and f".{child.pid}." in p.name]
        if child.seen[:1] and child.seen[0].startswith(f"{IN_DELETE:#x}:") and not data_tmp:
            stage = "sweeping the last killed save's temp files"
        elif landed:
            stage = "after the rename"
        elif bak_tmp:
            stage = "between the .bak link and the rename"
        elif data_tmp:
            stage = "writing the temp file"
        else:
            stage = "before the save"
        tally.stages[stage] += 1
        if os.environ.get("CRASH_DEBUG"):
            print(stage, child.killed_at, child.seen, [p.name for p in left])
    return rounds


def soak(path: Path, kills: int, *, spawn: bool = False, rng: random.Random | None = None,
         max_attempts: int | None = None, work: Path | None = None, log: Callable[[str], None] | None = None) -> Tally:
    """Add rounds to the book at ``path`` until ``kills`` of them were killed mid-save.

    Each attempt is killed at the k-th change in the book's folders, k drawn from 1 to 8 (a save
    makes about eight: the temp file created, written, closed; the .bak linked and renamed; the
    temp renamed over the file), sometimes after a few more microseconds; one in five is left to
    finish, so that saves are confirmed between kills.
    """
    rng = rng or random.Random(0)
    work = work or path.parent.parent / "work"  # outside the folders watched
    files = round_files(work / "rounds")
    watcher = Watcher([path.parent, store.sessions_dir(path)])
    start = Spawned if spawn else Forked
    tally = Tally()
    rounds = stored_rounds(path)
    began = time.monotonic()
    n = 0
    try:
        while tally.kills < kills and (max_attempts is None or n < max_attempts):
            i = n % len(files)
            kill_at = None if rng.random() < 0.2 else rng.choice([1, 1, 2, 3, 4, 5, 6, 7, 8])
            spin = rng.choice([0, 0, 0, 50, 200, 1000])
            temps_before = temps(path)
            args = ["round", "--file", str(files[i]), "--json", "--db", str(path)]
            child, _, _ = attempt(path, watcher, start, args, kill_at, spin, work / f"out{n % 4}")
            rounds = check_after(path, rounds, NIGHT[i], child, tally, temps_before)
            n += 1
            tally.seconds = time.monotonic() - began
            if log and n % 25 == 0:
                log(tally.line())
    finally:
        watcher.close()
        tally.seconds = time.monotonic() - began
    return tally
