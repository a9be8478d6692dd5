"""A real `hachi-score` process typed into as a person types: through a pipe, or through a
pseudo-terminal (``tty=True``: line editing, prompts and echo as at a real terminal). What it
prints is collected as it comes; :meth:`Terminal.wait_for` returns once a text has appeared
(never a wait on the clock: the bound only fails a hung test)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading

WAIT = float(os.environ.get("HACHI_TEST_WAIT", "120"))  # seconds at most for a process to say what it is
# waiting for: a bound that only fails a hung test, never a measure
_ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


class Terminal:
    """A `hachi-score` process (``python -m scorekeeper ARGS``) at ``columns`` columns (200)."""

    def __init__(self, *args: str, tty: bool = False, columns: int = 200) -> None:
        env = {**os.environ, "COLUMNS": str(columns)}
        if tty:  # a terminal rich sizes by its window (a dumb one is always 80 wide), without colour
            env.update(TERM="xterm", NO_COLOR="1")
        self.tty = tty
        if tty:
            import pty

            import fcntl
            import struct
            import termios

            self.master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))  # as wide as piped
            self.proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", *args], stdin=slave, stdout=slave,
                                         stderr=slave, env=env, close_fds=True)
            os.close(slave)
            self.writer = None
        else:
            self.proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", *args], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        self.out = ""
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _chunks(self):
        if self.tty:
            while True:
                try:
                    raw = os.read(self.master, 4096)
                except OSError:  # the other end closed: the process ended
                    return
                if not raw:
                    return
                yield raw
        else:
            assert self.proc.stdout is not None
            yield from iter(lambda: self.proc.stdout.read1(4096), b"")  # type: ignore[union-attr]

    def _read(self) -> None:
        import codecs

        decoder = codecs.getincrementaldecoder("utf-8")("replace")  # a character may span two reads
        for raw in self._chunks():
            with self.changed:
                self.out += _ESCAPES.sub("", decoder.decode(raw))
                self.changed.notify_all()
        with self.changed:
            self.out += "\x00"  # the end of its output
            self.changed.notify_all()

    def wait_for(self, text: str, count: int = 1) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: self.out.count(text) >= count or "\x00" in self.out, WAIT):
                raise AssertionError(f"never printed {text!r}:\n{self.out}")
            assert self.out.count(text) >= count, f"ended without printing {text!r}:\n{self.out}"

    def type(self, *lines: str) -> None:
        data = "".join(f"{line}\n" for line in lines).encode("utf-8")
        if self.tty:
            os.write(self.master, data)
            return
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def end(self) -> int:
        if self.tty:
            os.write(self.master, b"\x04")  # Ctrl-D: the end of input, if it still asks
        else:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        code = self.proc.wait(WAIT)
        self.wait_for("\x00")
        return code
