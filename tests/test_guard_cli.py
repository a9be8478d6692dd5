"""Issue 10, the command line's guard rails: --db before the command name, import --name like
new-session's, round --json keeps its questions off standard output, and a full or closed
standard output is one line and status 1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import crash_harness as ch
from entry_lines import answers
from fast_cli import FastRunner, one_line_error
from helpers import HANG
from scorekeeper import store

runner = FastRunner()
ROOT = Path(__file__).resolve().parent.parent


# -- 2. --db before the command name -------------------------------------------------------------


def test_db_before_the_command_name(tmp_path, monkeypatch, book_file):
    other = tmp_path / "other" / "book.json"
    result = runner.invoke(args=["--db", str(other), "new-session", "Aki", "Ben", "Chie"])
    assert result.exit_code == 0, result.output
    assert other.exists() and not book_file.exists()
    assert os.environ["HACHI_SCORE_DB"] == str(book_file)  # the root's --db lasts one command
    f = tmp_path / "r.json"
    f.write_text(json.dumps(ch.bare(ch.NIGHT[0])), "utf-8")
    assert runner.invoke(args=[f"--db={other}", "round", "--file", str(f)]).exit_code == 0
    data = json.loads(runner.invoke(args=["--db", str(other), "summary", "--json"]).stdout)
    assert data["rounds"] == 1
    # the command's own --db wins over the root's
    third = tmp_path / "third" / "book.json"
    result = runner.invoke(args=["--db", str(other), "sessions", "--json", "--db", str(third)])
    assert result.exit_code == 0 and f"no book at {third}" in result.stderr  # third's, not other's
    assert not book_file.exists()


def test_db_before_the_command_still_builds_only_that_command():
    from scorekeeper.cli import _app_for, app

    for argv in (["--db", "x.json", "summary"], ["--db=x.json", "summary", "--json"]):
        chosen = _app_for(argv)
        assert chosen is not app and [c.callback.__name__ for c in chosen.registered_commands] == ["summary"]


def test_db_before_the_command_in_a_real_process(tmp_path):
    db = tmp_path / "b" / "book.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HACHI_SCORE_DB", None)
    cmd = [sys.executable, "-m", "scorekeeper", "--db", str(db)]
    made = subprocess.run(cmd + ["new-session", "Aki", "Ben", "Chie"], capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    shown = subprocess.run(cmd + ["summary", "--json"], capture_output=True, text=True, env=env)
    assert shown.returncode == 0 and json.loads(shown.stdout)["players"] == ["Aki", "Ben", "Chie"]


# -- 3. import --name, and the date kept ------------------------------------------------------


def test_import_name_refuses_a_taken_name_as_new_session_does(tmp_path, book_file):
    assert runner.invoke(args=["new-session", "Aki", "Ben", "Chie", "--name", "Friday"]).exit_code == 0
    exported = tmp_path / "x.json"
    exported.write_text(json.dumps({"players": ch.PLAYERS, "rounds": [ch.NIGHT[0]]}), "utf-8")
    line = one_line_error(runner.invoke(args=["import", str(exported), "--name", "Friday"]))
    assert "'Friday' already exists" in line
    again = one_line_error(runner.invoke(args=["new-session", "Aki", "Ben", "Chie", "--name", "Friday"]))
    assert "'Friday' already exists" in again
    sessions = json.loads(runner.invoke(args=["sessions", "--json"]).stdout)
    assert [s["name"] for s in sessions] == ["Friday"]


def test_an_imported_session_keeps_its_date(tmp_path):
    exported = tmp_path / "x.json"
    data = {"players": ch.PLAYERS, "name": "old night", "created": "2024-03-09T21:14:00+09:00",
            "rounds": [ch.NIGHT[0], ch.NIGHT[1]]}
    exported.write_text(json.dumps(data), "utf-8")
    assert runner.invoke(args=["import", str(exported)]).exit_code == 0
    row = json.loads(runner.invoke(args=["sessions", "--json"]).stdout)[0]
    assert row["created"] == "2024-03-09T21:14:00+09:00"
    out = runner.invoke(args=["export"]).stdout
    assert json.loads(out)["created"] == "2024-03-09T21:14:00+09:00"


# -- 7. round --json without --file: the questions on standard error -----------------------------


def test_round_json_asks_on_standard_error_and_prints_only_the_json_line():
    assert runner.invoke(args=["new-session", "Aki", "Ben", "Chie"]).exit_code == 0
    rnd = ch.NIGHT[0]
    typed = "".join(f"{line}\n" for line in answers(rnd))
    result = runner.invoke(args=["round", "--json"], input=typed)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["round"] == 1 and data["saved"] is True
    assert "場札" in result.stderr and "save?" in result.stderr


# -- 8. a full or closed standard output ----------------------------------------------------------


def _run(args: list[str], db: Path, **kwargs):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HACHI_SCORE_DB": str(db), "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "scorekeeper", *args], env=env, stderr=subprocess.PIPE,
                          text=True, **kwargs)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["summary"], ["summary", "--json"], ["cards"], []])
def test_a_full_standard_output_is_one_line_and_status_1(tmp_path, args):
    db = tmp_path / "b" / "book.json"
    assert _run(["new-session", "Aki", "Ben", "Chie"], db, stdout=subprocess.DEVNULL).returncode == 0
    with open("/dev/full", "w") as full:
        done = _run(args, db, stdout=full)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines == ["hachi-score: can't write to standard output: No space left on device"], done.stderr


def test_a_closed_standard_output_is_one_line_and_status_1(tmp_path):
    db = tmp_path / "b" / "book.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HACHI_SCORE_DB": str(db)}
    done = subprocess.run(f'"{sys.executable}" -m scorekeeper new-session Aki Ben Chie >&-', shell=True,
                          env=env, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert len(done.stderr.splitlines()) == 1 and "standard output is closed" in done.stderr
    assert not db.exists()  # nothing was done


@pytest.mark.parametrize("args", [["cards"], ["sessions", "--json"]])
def test_a_reader_that_goes_away_is_quiet_status_1(tmp_path, args):
    db = tmp_path / "b" / "book.json"
    store.Book.open(db).new_session(["Aki", "Ben", "Chie"])  # a book to read
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HACHI_SCORE_DB": str(db)}
    child = subprocess.Popen([sys.executable, "-m", "scorekeeper", *args], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # the reader is gone before the first byte
    assert child.wait(timeout=HANG) == 1
    assert child.stderr.read() == b""
    child.stderr.close()


def test_a_question_with_standard_input_closed_is_a_no_never_an_internal_error(tmp_path):
    """`undo`, `round` and `round --discard` started with standard input closed (`<&-`): each
    question is the end of input, so nothing changes and nothing is said as a bug."""
    import json as json_mod
    import os
    import subprocess
    import sys

    from serve_helpers import bundled_night

    db = tmp_path / "book.json"
    env = {**os.environ, "HACHI_SCORE_DB": str(db)}

    def hachi(*args, closed=True, input=None):
        return subprocess.run([sys.executable, "-m", "scorekeeper", *args], capture_output=not closed or input is not None,
                              input=input, text=True, env=env, timeout=120,
                              **({"preexec_fn": lambda: os.close(0), "stdout": subprocess.PIPE,
                                  "stderr": subprocess.PIPE} if closed else {}))

    assert hachi("new-session", "Aki", "Ben", "Chie", closed=False).returncode == 0
    assert hachi("round", "--file", "-", closed=False, input=json_mod.dumps(bundled_night()[0])).returncode == 0
    undo = hachi("undo")
    assert undo.returncode == 1 and "aborted: round 1 was kept" in undo.stderr and "internal error" not in undo.stderr
    typed = hachi("round")
    assert typed.returncode == 1 and "aborted: nothing was saved" in typed.stderr and "internal error" not in typed.stderr
    assert json_mod.loads(hachi("summary", "--json", closed=False).stdout)["rounds"] == 1
