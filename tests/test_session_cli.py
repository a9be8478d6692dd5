"""The session commands through the CLI (CONTRACT.md §5, §6), each with a temporary book.

HACHI_SCORE_DB points into tmp_path for every test; the real home is never touched.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from fast_cli import FastRunner
import pytest

from scorekeeper import files, store
from scorekeeper.cli import app
from scorekeeper.scoring import Payment, ledger_totals, score_dict

PLAYERS = ["Aki", "Ben", "Chie"]
ROOT = Path(__file__).parent.parent
NIGHT_FILES = sorted((ROOT / "samples" / "night").glob("*.json"))
NIGHT = [json.loads(p.read_text(encoding="utf-8")) for p in NIGHT_FILES]
BASHI = ROOT / "samples" / "bashi.json"

runner = FastRunner()  # the app's command built once, not at every invoke


@pytest.fixture
def db(book_file) -> Path:
    """The book for this test (conftest.py sets HACHI_SCORE_DB to it)."""
    return book_file


def run(*args: str, input: str | None = None, code: int = 0):
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    if code:
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("hachi-score: "), result.stderr
    return result


def one_json(result) -> dict:
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def bare_file(tmp_path: Path, f: dict, name: str = "round.json") -> str:
    """A round file without players and dealer, as a person at the table would write it."""
    path = tmp_path / name
    path.write_text(json.dumps({k: v for k, v in f.items() if k not in ("players", "dealer")}), encoding="utf-8")
    return str(path)


def play_night(files=NIGHT_FILES) -> None:
    run("new-session", *PLAYERS)
    for f in files:
        run("round", "--file", str(f))


def summary_json(*args: str) -> dict:
    return one_json(run("summary", "--json", *args))


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p): (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.rglob("*")) if p.is_file()}


def pays_out(totals: dict[str, int], settlement: list[dict]) -> bool:
    pays = [Payment(s["from"], s["to"], s["mon"], "精算") for s in settlement]
    return len(pays) <= 2 and ledger_totals(list(totals), pays) == totals


# ---------------------------------------------------------------------------------------------
# the full night


def scored_by_the_score_command(files) -> dict[str, int]:
    """Each player's total from `score --json`: the rounds scored one by one, no book involved."""
    lines = run("score", "--json", *map(str, files)).stdout.splitlines()
    return {p: sum(json.loads(line)["players"][p]["mon"] for line in lines) for p in PLAYERS}


def test_a_full_night_sums_its_rounds_and_its_settlement_pays_them_out(db):
    play_night()
    data = summary_json()
    assert data["rounds"] == 12
    assert data["players"] == PLAYERS
    assert data["totals"] == scored_by_the_score_command(NIGHT_FILES)
    assert sum(data["totals"].values()) == 0
    assert pays_out(data["totals"], data["settlement"])
    assert [h["mon"] for h in data["history"]] == [
        {p: score_dict(f).players[p].mon for p in PLAYERS} for f in NIGHT
    ]


def test_the_night_still_agrees_after_undo(db):
    play_night()
    run("undo", "--yes")
    data = summary_json()
    assert data["rounds"] == 11
    assert data["totals"] == scored_by_the_score_command(NIGHT_FILES[:11])
    assert pays_out(data["totals"], data["settlement"])


def test_the_night_still_agrees_after_export_and_import(db, tmp_path):
    play_night()
    run("new-session", *PLAYERS, "--name", "next")  # the other book has a night of its own first
    before = summary_json("s1")
    out = tmp_path / "night.json"
    run("export", "s1", "-o", str(out))
    other = tmp_path / "other" / "book.json"
    run("new-session", *PLAYERS, "--db", str(other))
    run("import", str(out), "--db", str(other))
    after = summary_json("--db", str(other))
    assert after["session"] == "s2"
    for key in ("players", "rounds", "totals", "settlement", "history", "dealer"):
        assert after[key] == before[key]
    assert after["totals"] == scored_by_the_score_command(NIGHT_FILES)


def test_a_night_imported_into_the_book_that_holds_it_is_refused(db, tmp_path):
    play_night()
    out = tmp_path / "night.json"
    run("export", "-o", str(out))
    result = run("import", str(out), code=2)
    assert "this night is the same night as session s1" in result.stderr
    assert [s["id"] for s in json.loads(run("sessions", "--json").stdout)] == ["s1"]


def test_rounds_may_leave_out_players_and_dealer(db, tmp_path):
    run("new-session", *PLAYERS)
    for i, f in enumerate(NIGHT):
        run("round", "--file", bare_file(tmp_path, f, f"{i}.json"))
    data = summary_json()
    assert data["totals"] == scored_by_the_score_command(NIGHT_FILES)
    assert [h["dealer"] for h in data["history"]] == [f["dealer"] for f in NIGHT]


# ---------------------------------------------------------------------------------------------
# new-session, sessions, use


def test_new_session_makes_the_session_current(db):
    result = run("new-session", "Aki", "Ben", "Chie", "--name", "Friday", "--dealer", "Ben", "--rounds", "6", "--rate", "2.5")
    assert "s1" in result.stdout and "Friday" in result.stdout
    rows = one_json(run("sessions", "--json"))
    assert rows[0]["name"] == "Friday" and rows[0]["current"] is True
    assert (rows[0]["dealer"], rows[0]["planned_rounds"], rows[0]["rate"]) == ("Ben", 6, 2.5)
    assert db.exists()


@pytest.mark.parametrize(
    "args",
    [
        ["Aki", "Ben"],
        ["Aki", "Ben", "Chie", "Dan"],
        ["Aki", "Aki", "Ben"],
        ["Aki", "Ben", "Chie", "--dealer", "Dan"],
        ["Aki", "Ben", "Chie", "--rounds", "8"],
        ["Aki", "Ben", "Chie", "--rounds", "twelve"],
        ["Aki", "Ben", "Chie", "--rate", "-5"],
        ["Aki", "Ben", "Chie", "--rate", "nan"],
    ],
)
def test_new_session_refuses_bad_options_with_status_2(db, args):
    run("new-session", *args, code=2)
    assert not db.exists()


def test_sessions_lists_the_book_and_marks_the_current_one(db):
    run("new-session", *PLAYERS, "--name", "Friday")
    run("round", "--file", str(NIGHT_FILES[0]))
    run("new-session", "Dan", "Eri", "Fumi", "--name", "Saturday")
    out = run("sessions").stdout
    lines = [line for line in out.splitlines() if "Friday" in line or "Saturday" in line]
    assert "1/12" in lines[0] and "Aki Ben Chie" in lines[0] and not lines[0].lstrip().startswith("*")
    assert lines[1].lstrip().startswith("*")
    run("use", "Friday")
    assert one_json(run("sessions", "--json"))[0]["current"] is True
    assert summary_json()["session"] == "s1"


def test_sessions_on_a_new_book_says_how_to_start(db):
    error = run("sessions", code=0).stderr  # status 0 (CONTRACT §5, §6); HACHI_SCORE_DB names a path with no book: said, and where
    assert f"no book at {db}" in error and "new-session" in error
    assert not db.exists()


def test_use_an_unknown_session_is_status_2(db):
    run("new-session", *PLAYERS)
    assert "no session 'Sunday'" in run("use", "Sunday", code=2).stderr
    assert summary_json()["session"] == "s1"  # still the current one


# ---------------------------------------------------------------------------------------------
# round --file


def test_round_shows_the_result_and_the_standing(db):
    run("new-session", *PLAYERS)
    out = run("round", "--file", str(NIGHT_FILES[0])).stdout
    assert "round 1" in out and "after round 1 of 12" in out and "next 親" in out


def test_round_json_gives_the_number_and_the_result(db):
    run("new-session", *PLAYERS)
    data = one_json(run("round", "--file", str(NIGHT_FILES[0]), "--json"))
    assert (data["session"], data["round"], data["saved"]) == ("s1", 1, True)
    assert data["players"] == score_dict(NIGHT[0]).to_json()["players"]


def test_round_reads_standard_input(db):
    run("new-session", *PLAYERS)
    run("round", "--file", "-", input=NIGHT_FILES[0].read_text(encoding="utf-8"))
    assert summary_json()["rounds"] == 1


def test_a_round_of_other_players_is_refused_with_status_2(db, tmp_path):
    run("new-session", "Dan", "Eri", "Fumi")
    result = run("round", "--file", str(NIGHT_FILES[0]), code=2)
    assert str(NIGHT_FILES[0]) in result.stderr and "players" in result.stderr
    assert summary_json()["rounds"] == 0


def test_a_bad_round_is_status_2_and_nothing_is_saved(db, tmp_path):
    run("new-session", *PLAYERS)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(NIGHT[0], field=["1h", "zz"])), encoding="utf-8")
    result = run("round", "--file", str(bad), code=2)
    assert "bad.json: field" in result.stderr and "'zz'" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    run("round", "--file", str(broken), code=2)
    run("round", "--file", str(tmp_path / "missing.json"), code=2)
    assert summary_json()["rounds"] == 0


def test_a_bashi_is_shown_and_not_saved(db):
    run("new-session", *PLAYERS)
    out = run("round", "--file", str(BASHI)).stdout
    assert "場四" in out and "not saved" in out
    data = one_json(run("round", "--file", str(BASHI), "--json"))
    assert (data["saved"], data["round"], data["redeal"]) == (False, None, True)
    assert summary_json()["rounds"] == 0


def test_round_without_a_session_is_status_2(db):
    result = run("round", "--file", str(NIGHT_FILES[0]), code=2)
    assert "new-session" in result.stderr
    assert not db.exists()


def test_planned_rounds_never_stop_a_round(db):
    run("new-session", *PLAYERS, "--rounds", "6")
    for f in NIGHT_FILES[:8]:
        run("round", "--file", str(f))
    assert summary_json()["rounds"] == 8


def test_round_goes_to_the_named_session(db):
    run("new-session", *PLAYERS, "--name", "Friday")
    run("new-session", *PLAYERS, "--name", "Saturday")
    run("round", "--file", str(NIGHT_FILES[0]), "--session", "Friday")
    assert summary_json("Friday")["rounds"] == 1
    assert summary_json()["rounds"] == 0


# ---------------------------------------------------------------------------------------------
# summary


def test_summary_shows_standings_trend_rounds_and_settlement(db):
    run("new-session", *PLAYERS, "--rate", "10")
    for f in NIGHT_FILES:
        run("round", "--file", str(f))
    out = run("summary").stdout
    for text in ("standings", "貫", "trend", "settlement", "Aki pays Chie 160文 (16貫) = 1,600", "猪鹿蝶", "大場 ×2", "下げ"):
        assert text in out, text
    assert any(ch in out for ch in "▁▂▃▄▅▆▇█")


def test_summary_shows_the_last_12_rounds_unless_all(db):
    play_night(NIGHT_FILES + NIGHT_FILES[:2])
    out = run("summary").stdout
    assert "last 12 of 14" in out
    rows = [line.split()[0] for line in out.splitlines() if line.strip()[:2].strip().isdigit()]
    assert "1" not in rows and "14" in rows
    rows_all = [line.split()[0] for line in run("summary", "--all").stdout.splitlines() if line.strip()[:2].strip().isdigit()]
    assert rows_all[:3] == ["1", "2", "3"] and "14" in rows_all
    assert summary_json()["rounds"] == summary_json("--all")["rounds"] == 14  # totals always whole


def test_summary_of_an_empty_session(db):
    run("new-session", *PLAYERS)
    data = summary_json()
    assert data["totals"] == {p: 0 for p in PLAYERS} and data["settlement"] == []
    assert "nobody pays" in run("summary").stdout


def test_names_are_shown_literally_never_as_markup(db):
    run("new-session", "[bold]Aki[/bold]", "Ben", "[red]Chie")
    out = run("summary").stdout
    assert "[bold]Aki[/bold]" in out and "[red]Chie" in out


# ---------------------------------------------------------------------------------------------
# show, undo, edit


def test_show_gives_a_round_in_full(db):
    play_night(NIGHT_FILES[:8])
    out = run("show", "8").stdout
    assert "赤短 70" in out and "短一 30" in out and "payments" in out and "cards" in out
    for card in NIGHT[7]["captured"]["Chie"]:
        assert card in out
    data = one_json(run("show", "8", "--json"))
    assert data["round"] == 8 and data["rules"] == "sdin"
    assert data["file"]["captured"] == NIGHT[7]["captured"]
    assert data["players"] == score_dict(NIGHT[7]).to_json()["players"]
    run("show", "9", code=2)
    run("show", "0", code=2)


def test_undo_asks_first(db):
    play_night(NIGHT_FILES[:3])
    for answer in ("n\n", "\n", None):  # no, Enter (no is the default), end of input
        result = runner.invoke(app, ["undo"], input=answer)
        assert result.exit_code == 1
        question, error = result.stderr.splitlines()
        assert question.startswith("remove round 3 of session s1 (親 Ben, ") and ")? [y/N] " in question
        assert error.startswith("hachi-score: aborted")
    assert summary_json()["rounds"] == 3
    run("undo", input="y\n")
    assert summary_json()["rounds"] == 2


def test_undo_with_nothing_to_undo_is_status_2(db):
    run("new-session", *PLAYERS)
    before = snapshot(db.parent)
    assert "has no rounds: nothing to undo" in run("undo", "--yes", code=2).stderr
    assert snapshot(db.parent) == before


def test_edit_replaces_a_round_and_later_rounds_keep_their_recorded_dealer(db, tmp_path):
    play_night()
    # round 3 (親 Ben, won by Aki) becomes round 1's piles under the same 親: Chie wins it
    replacement = bare_file(tmp_path, NIGHT[0])
    out = " ".join(run("edit", "3", "--file", replacement).stdout.split())
    assert "round 3 (edited)" in out  # under sdin a later result changes only with its 親
    assert "round 4 no longer follows the chain" in out and "--rechain" in out
    data = summary_json()
    dealers = [h["dealer"] for h in data["history"]]
    assert dealers == [f["dealer"] for f in NIGHT]  # who really dealt stays
    assert data["totals"] == {p: sum(h["mon"][p] for h in data["history"]) for p in PLAYERS}
    assert pays_out(data["totals"], data["settlement"])


def test_edit_with_rechain_moves_later_rounds_to_the_new_chain(db, tmp_path):
    play_night()
    replacement = bare_file(tmp_path, NIGHT[0])
    out = run("edit", "3", "--file", replacement, "--rechain").stdout
    assert "round 3 (edited)" in out and "re-scored" in out and "no longer follows" not in out
    data = summary_json()
    dealers = [h["dealer"] for h in data["history"]]
    assert dealers[2] == "Ben" and dealers[3] == "Chie"
    assert data["totals"] == {p: sum(h["mon"][p] for h in data["history"]) for p in PLAYERS}
    assert pays_out(data["totals"], data["settlement"])


def test_edit_refusals(db, tmp_path):
    play_night(NIGHT_FILES[:2])
    run("edit", "3", "--file", str(NIGHT_FILES[0]), code=2)
    run("edit", "1", "--file", str(BASHI), code=2)
    assert summary_json()["history"][0]["mon"] == {p: score_dict(NIGHT[0]).players[p].mon for p in PLAYERS}


# ---------------------------------------------------------------------------------------------
# export and import


def test_export_json_has_players_and_round_files(db):
    play_night(NIGHT_FILES[:3])
    data = one_json(run("export"))
    assert data["players"] == PLAYERS
    assert [r["dealer"] for r in data["rounds"]] == [f["dealer"] for f in NIGHT[:3]]
    assert all(r["players"] == PLAYERS for r in data["rounds"])
    assert one_json(run("export", "--json")) == data


def test_export_csv_has_one_row_per_round(db):
    play_night()
    rows = list(csv.reader(io.StringIO(run("export", "--csv").stdout.removeprefix("\ufeff"))))
    assert rows[0][:3] == ["round", "dealer", "field_class"] and rows[0][6:9] == PLAYERS
    assert len(rows) == 14 and rows[-1][0] == "total"
    assert rows[1][1:3] == ["Aki", "大場"]
    totals = summary_json()["totals"]
    assert [sum(int(r[i]) for r in rows[1:-1]) for i in (6, 7, 8)] == [totals[p] for p in PLAYERS]
    assert [int(x) for x in rows[-1][6:9]] == [totals[p] for p in PLAYERS]


def test_export_to_a_file(db, tmp_path):
    play_night(NIGHT_FILES[:2])
    out = tmp_path / "out.csv"
    result = run("export", "s1", "--csv", "-o", str(out))
    assert result.stdout == "" and "out.csv" in result.stderr
    assert len(out.read_text(encoding="utf-8-sig").splitlines()) == 4  # header, 2 rounds, totals


def test_export_json_and_csv_together_is_status_2(db):
    run("new-session", *PLAYERS)
    result = run("export", "--json", "--csv", code=2)
    assert result.stdout == "" and "--json and --csv: choose one" in result.stderr


def test_import_takes_the_chain_as_written_and_rounds_may_repeat(db, tmp_path):
    exported = tmp_path / "x.json"
    exported.write_text(json.dumps({"players": PLAYERS, "rounds": [NIGHT[0], NIGHT[0], NIGHT[0]]}), encoding="utf-8")
    run("import", str(exported), "--name", "again")
    data = summary_json()
    assert [h["dealer"] for h in data["history"]] == ["Aki", "Aki", "Aki"]
    assert data["totals"] == {p: 3 * score_dict(NIGHT[0]).players[p].mon for p in PLAYERS}


def test_a_bad_import_is_status_2_and_creates_nothing(db, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"players": PLAYERS, "rounds": [NIGHT[0], {"field": []}]}), encoding="utf-8")
    result = run("import", str(bad), code=2)
    assert "rounds[2].field" in result.stderr
    run("import", str(tmp_path / "none.json"), code=2)
    assert not db.exists()


# ---------------------------------------------------------------------------------------------
# demo


def test_demo_replays_the_bundled_night_and_never_touches_the_book(db):
    out = run("demo").stdout
    assert "demo night" in out and "12 of 12 rounds" in out and "settlement" in out
    data = one_json(run("demo", "--json"))
    assert data["totals"] == scored_by_the_score_command(NIGHT_FILES)
    assert pays_out(data["totals"], data["settlement"])
    assert not db.parent.exists()


# ---------------------------------------------------------------------------------------------
# where the book is, and what stays out of it


def test_db_option_comes_before_the_environment(db, tmp_path):
    other = tmp_path / "other" / "book.json"
    run("new-session", *PLAYERS, "--db", str(other))
    assert other.exists() and not db.exists()
    assert one_json(run("sessions", "--json", "--db", str(other)))[0]["id"] == "s1"


def test_score_never_creates_a_book(db):
    run("score", "--json", str(NIGHT_FILES[0]))
    assert not db.parent.exists()


def test_score_never_touches_a_book(db):
    play_night(NIGHT_FILES[:2])
    before = snapshot(db.parent)
    run("score", str(NIGHT_FILES[0]))
    run("score", "--json", *map(str, NIGHT_FILES))
    assert snapshot(db.parent) == before


def test_score_never_opens_the_book_module(db):
    code = (
        "import sys\n"
        "from scorekeeper.cli import main\n"
        f"sys.argv = ['hachi-score', 'score', '--json', {str(NIGHT_FILES[0])!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('tinydb', 'scorekeeper.store', 'scorekeeper.night') if m in sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert result.stderr.strip() == "[]"


def test_startup_imports_neither_the_book_nor_rich():
    code = "import sys, scorekeeper.cli; print(sorted(m for m in ('tinydb', 'rich', 'scorekeeper.store') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert result.stdout.strip() == "[]"


# ---------------------------------------------------------------------------------------------
# a book that can't be read, and the lock


BOOK_COMMANDS = [
    ["summary"],
    ["summary", "--json"],
    ["sessions"],
    ["use", "s1"],
    ["show", "1"],
    ["undo", "--yes"],
    ["export"],
    ["new-session", "Dan", "Eri", "Fumi"],
    ["round", "--file", str(NIGHT_FILES[1])],
    ["edit", "1", "--file", str(NIGHT_FILES[1])],
    ["import", "EXPORT"],
]


@pytest.mark.parametrize("args", BOOK_COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("damage", [b"", b"\x00" * 40, b'{"meta": {"1": {"sche', b"[1, 2]", b'{"meta":{"1":{"schema":7}}}'])
def test_a_damaged_index_is_status_1_with_one_line_and_left_as_it_is(db, tmp_path, args, damage):
    play_night(NIGHT_FILES[:1])
    exported = tmp_path / "export.json"
    run("export", "-o", str(exported))
    db.write_bytes(damage)
    before = snapshot(db.parent)
    args = [str(exported) if a == "EXPORT" else a for a in args]
    result = run(*args, code=1)
    assert str(db) in result.stderr
    assert snapshot(db.parent) == before


@pytest.mark.parametrize("args", BOOK_COMMANDS[:-2], ids=lambda a: " ".join(a[:2]))
def test_a_damaged_session_file_is_status_1_and_left_as_it_is(db, args):
    play_night(NIGHT_FILES[:1])
    session_file = db.parent / "book.sessions" / "s1.json"
    session_file.write_bytes(session_file.read_bytes()[:100])
    before = snapshot(db.parent)
    result = run(*args, code=0 if args[0] in ("use", "new-session") else 1)
    if result.exit_code == 1:
        assert str(session_file) in result.stderr
    else:  # these never read the session's rounds; the damaged file is still left alone
        assert snapshot(db.parent)[str(session_file)] == before[str(session_file)]


def test_sessions_still_lists_with_a_damaged_session(db):
    run("new-session", *PLAYERS, "--name", "Friday")
    run("new-session", *PLAYERS, "--name", "Saturday")
    (db.parent / "book.sessions" / "s1.json").write_bytes(b"")
    result = run("sessions", code=1)
    assert "Saturday" in result.stdout and "damaged" in result.stdout
    assert "s1.json" in result.stderr


def test_a_stored_round_that_no_longer_scores_is_status_1(db):
    play_night(NIGHT_FILES[:2])
    path = db.parent / "book.sessions" / "s1.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["rounds"]["2"]["round"]["captured"]["Aki"] = ["1h"]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("summary", code=1)
    assert str(path) in result.stderr and "round 2" in result.stderr
    run("round", "--file", str(NIGHT_FILES[2]), code=1)
    run("edit", "1", "--file", str(NIGHT_FILES[0]), code=1)


def test_a_held_lock_is_waited_for_then_status_1(db, monkeypatch):
    run("new-session", *PLAYERS)
    monkeypatch.setenv(files.ENV_TEST_LOCK_NOTICE, "0.05")
    monkeypatch.setenv(files.ENV_TEST_LOCK_TIMEOUT, "0.3")
    fd = os.open(files.lock_path(db), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        result = runner.invoke(app, ["round", "--file", str(NIGHT_FILES[0])])
    finally:
        os.close(fd)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert "waiting for the book's lock" in lines[0]
    assert "gave up" in lines[1] and len(lines) == 2
    assert summary_json()["rounds"] == 0


# ---------------------------------------------------------------------------------------------
# every command is documented


SESSION_COMMANDS = ["new-session", "round", "summary", "sessions", "use", "show", "undo", "edit", "export", "import", "demo"]


@pytest.mark.parametrize("command", SESSION_COMMANDS)
def test_every_session_command_has_help(command):
    result = run(command, "--help")
    assert "Usage:" in result.stdout
    if command != "demo":
        assert "--db" in result.stdout and "HACHI_SCORE_DB" in result.stdout
