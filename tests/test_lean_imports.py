"""Each command imports what it uses and nothing more (issue 36): every command is a fresh process
typed between two rounds, so a module it never uses is start-up the table waits for.

Each command runs in a process of its own, as the table types it, on a book of a night; at its
exit the process says which of the heavy modules it had loaded. The web stack (starlette,
uvicorn, segno, ifaddr and the companion's own modules) is `serve`'s alone, the odds tables
(:mod:`scorekeeper.odds`) are `odds`'s and `stats`'s, and a `--json` form prints no rich view.
No command of the table loads hashlib (OpenSSL and every hash: the book hashes by
:func:`scorekeeper.files.sha256`) or socket (a draft's writer is named by :func:`platform.node`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NIGHT = sorted((ROOT / "samples" / "night").glob("*.json"))

WEB = ("starlette", "uvicorn", "segno", "ifaddr", "scorekeeper.web.app", "scorekeeper.web.guard")
ODDS = ("scorekeeper.odds",)
RICH = ("rich",)
#: what only the phones' server needs of the standard library (issue 36: ~3 ms, ~2 ms of start-up)
LIBS = ("hashlib", "socket")

#: the command (after ``hachi-score``), and the heavy modules it must not load
COMMANDS: list[tuple[list[str], tuple[str, ...]]] = [
    (["summary"], WEB + ODDS),
    (["summary", "--json"], WEB + ODDS + RICH),
    (["show", "3"], WEB + ODDS),
    (["show", "3", "--json"], WEB + ODDS + RICH),
    (["sessions"], WEB + ODDS),
    (["sessions", "--json"], WEB + ODDS + RICH),
    (["new-session", "Dai", "Emi", "Fumi", "--db", "{tmp}/other.json"], WEB + ODDS),
    (["round", "--file", str(NIGHT[0])], WEB + ODDS),
    (["round", "--file", str(NIGHT[0]), "--json"], WEB + ODDS + RICH),
    (["round"], WEB + ODDS),  # up to its first question, then the end of its input
    (["undo", "--yes"], WEB + ODDS),
    (["export", "--json"], WEB + ODDS + RICH),
    (["export", "--all"], WEB + ODDS + RICH),
    (["doctor"], WEB + ODDS),
    (["use", "s1"], WEB + ODDS + RICH),
    (["score", "--json", str(NIGHT[0])], WEB + ODDS + RICH),
    (["cards", "--json"], WEB + ODDS + RICH),
    (["rules"], WEB + ODDS),
    (["--help"], WEB + ODDS + RICH),
    (["summary", "--help"], WEB + ODDS + RICH),
    (["round", "--help"], WEB + ODDS + RICH),
]

HARNESS = """
import sys
watched = sys.argv[1].split(",")
sys.argv = ["hachi-score", *sys.argv[2:]]
from scorekeeper.cli import main
try:
    main()
except SystemExit:
    pass
finally:
    loaded = [m for m in watched if m in sys.modules]
    sys.stderr.write("\\nLOADED " + ",".join(loaded) + "\\n")
"""


def loaded(args: list[str], watched: tuple[str, ...], env: dict[str, str]) -> list[str]:
    """The modules of ``watched`` that ``hachi-score ARGS`` had loaded when it ended."""
    proc = subprocess.run([sys.executable, "-c", HARNESS, ",".join(watched), *args], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    line = [x for x in proc.stderr.splitlines() if x.startswith("LOADED ")]
    assert line, proc.stderr  # the harness ran to its end
    return [m for m in line[-1][len("LOADED "):].split(",") if m]


@pytest.fixture(scope="module")
def book_env(tmp_path_factory) -> dict[str, str]:
    """A book holding the bundled night, in the environment each command runs in."""
    from scorekeeper.store import Book
    from helpers import add_round
    import json

    folder = tmp_path_factory.mktemp("lean")
    book = Book.open(folder / "book.json")
    sid = book.new_session(["Aki", "Ben", "Chie"])
    for f in NIGHT:
        data = json.loads(f.read_text("utf-8"))
        add_round(book, sid, {k: v for k, v in data.items() if k != "dealer"})
    env = {k: v for k, v in os.environ.items() if k not in ("HACHI_SCORE_DB", "HACHI_SCORE_LANG")}
    env.update(HACHI_SCORE_DB=str(folder / "book.json"), COLUMNS="100", LANG="C.UTF-8", TMP_BOOKS=str(folder))
    return env


@pytest.mark.parametrize("args,never", COMMANDS, ids=[" ".join(a[:3]) for a, _ in COMMANDS])
def test_a_command_loads_no_module_it_does_not_use(args, never, book_env):
    args = [a.replace("{tmp}", book_env["TMP_BOOKS"]) for a in args]
    assert loaded(args, never + LIBS, book_env) == []


@pytest.mark.parametrize("args,used", [(["odds", "--json"], ODDS)])
def test_the_watch_sees_a_module_that_is_used(args, used, book_env):
    """The harness can fail: a command that does use the odds tables is seen loading them."""
    assert loaded(args, used, book_env) == list(used)


def test_the_book_hashes_as_hashlib_does():
    """The book's SHA-256 (:func:`scorekeeper.files.sha256`, the interpreter's own) is hashlib's."""
    import hashlib

    from scorekeeper.files import sha256

    for data in (b"", b"abc", "八八 s1".encode("utf-8") * 1000):
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    h = sha256()
    h.update(b"a")
    h.update(b"bc")
    assert h.hexdigest() == hashlib.sha256(b"abc").hexdigest()
