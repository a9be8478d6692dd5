"""The profile is the session's: stored once with every value, migrated from old books, carried
by export and import, and the night's state (what waits) derived by replaying the rounds.

Every test has its own book (conftest.py); the schema-1 book under ``fixtures/book-schema1`` was
written by the release before rule profiles (commit 87d315b), with its summaries beside it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import crash_harness as ch
from helpers import BIG_FIELD, EXAMPLE_PILES, SMALL_FIELD, ZEKKYO_FIELD, played_out
from scorekeeper import files, night, schema, store
from scorekeeper.cli import app
from scorekeeper.rules import FUDAWIKI, SDIN, Rules
from scorekeeper.store import Book
from helpers import add_round

FIXTURE = Path(__file__).parent / "fixtures" / "book-schema1"
runner = CliRunner()


def run(*args: str, code: int = 0, input: str | None = None):
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result


def old_book(tmp_path: Path) -> Path:
    """A copy of the schema-1 book (two sessions, 12 and 2 rounds, with their .bak files)."""
    folder = tmp_path / "old"
    shutil.copytree(FIXTURE, folder)
    return folder / "book.json"


def expected(name: str) -> dict:
    return json.loads((FIXTURE / f"expected-{name}.json").read_text(encoding="utf-8"))


def schema_of(path: Path) -> int:
    return json.loads(path.read_text(encoding="utf-8"))["meta"]["1"]["schema"]


def summaries(path: Path) -> dict[str, dict]:
    return {sid: json.loads(run("summary", sid, "--json", "--all", "--db", str(path)).stdout) for sid in ("s1", "s2")}


CONTRACT_SUMMARY_KEYS = ("session", "players", "rounds", "totals", "settlement", "history", "dealer", "kan")


def as_before(summary: dict) -> dict:
    """The keys the previous release printed, with the history rows' keys as they were."""
    out = {k: summary[k] for k in CONTRACT_SUMMARY_KEYS}
    out["history"] = [{k: v for k, v in h.items() if k != "multiplier"} for h in summary["history"]]
    return out


# ---------------------------------------------------------------------------------------------
# migration: a book written by the previous release


def test_a_schema_1_book_opens_migrates_and_every_total_is_unchanged(tmp_path):
    path = old_book(tmp_path)
    baks = {p.name: p.read_bytes() for p in path.parent.rglob("*.json") if p.suffix == ".json"}
    assert schema_of(path) == 1
    got = summaries(path)  # the first command migrates the book, under the lock
    for sid in ("s1", "s2"):
        assert as_before(got[sid]) == as_before(expected(sid)), sid
        assert got[sid]["profile"] == "sdin"
    assert schema_of(path) == schema.SCHEMA == 2
    for sid in ("s1", "s2"):
        file = store.sessions_dir(path) / f"{sid}.json"
        data = json.loads(file.read_text(encoding="utf-8"))
        assert data["meta"]["1"]["schema"] == 2
        assert Rules.from_dict(data["session"]["1"]["profile"]) == SDIN
        # the version the old release wrote is kept as the .bak: nothing is lost
        assert files.backup_path(file).read_bytes() == baks[file.name]
    assert files.backup_path(path).read_bytes() == baks["book.json"]


def test_a_migrated_book_is_healthy_and_its_rounds_are_untouched(tmp_path):
    path = old_book(tmp_path)
    rounds_before = json.loads((store.sessions_dir(path) / "s1.json").read_text(encoding="utf-8"))["rounds"]
    Book.open(path)
    rounds_after = json.loads((store.sessions_dir(path) / "s1.json").read_text(encoding="utf-8"))["rounds"]
    assert rounds_after == rounds_before
    assert "healthy" in run("doctor", "--db", str(path)).stdout


def test_a_migration_killed_inside_any_write_loses_nothing(tmp_path):
    """SIGKILL at each change a migrating `summary` makes to the book's folders: every time the
    book opens afterwards, finishes migrating, and every total is the previous release's."""
    kills = 0
    for kill_at in range(1, 12):
        path = old_book(tmp_path / f"k{kill_at}")
        watcher = ch.Watcher([path.parent, store.sessions_dir(path)])
        try:
            child, killed, _ = ch.attempt(path, watcher, ch.Forked, ["summary", "--json", "--db", str(path)],
                                          kill_at, 0, tmp_path / f"out{kill_at}")
        finally:
            watcher.close()
        kills += killed is not None
        got = summaries(path)
        for sid in ("s1", "s2"):
            assert as_before(got[sid]) == as_before(expected(sid))
        assert schema_of(path) == 2
        assert not list(path.parent.rglob("*.tmp"))
    assert kills >= 3  # the kills really landed inside the migration's writes


# ---------------------------------------------------------------------------------------------
# the profile is stored once, with every value


KAN12 = FUDAWIKI._replace(name="kan12-house", kan=12)


def plain_rounds() -> list[dict]:
    """Three plain rounds (no 出来役) valid under every profile, on fields of every class."""
    return [played_out(EXAMPLE_PILES, field=f, hands={"Ben": "2t 2r 2k 4t 6k 7k 10k"} if i == 0 else None)
            for i, f in enumerate([BIG_FIELD, SMALL_FIELD, ZEKKYO_FIELD])]


def test_the_session_stores_its_profile_and_scores_with_it_when_the_file_is_gone(book_file):
    book = Book.open(book_file)
    sid = book.new_session(["Aki", "Ben", "Chie"], rules=KAN12)
    for r in plain_rounds():
        add_round(book, sid, r)
    session = book.session(sid)
    assert Rules.from_dict(session["profile"]) == KAN12
    assert {r["rules"] for r in session["rounds"]} == {"kan12-house"}
    results = night.replay(session)
    assert all(r.rules == KAN12 for r in results)
    data = json.loads(run("summary", "--json").stdout)
    assert data["profile"] == "kan12-house"
    assert data["kan"] == {p: night.kan(v, 12) for p, v in data["totals"].items()}


def test_an_export_of_a_kan_12_night_imports_into_a_book_that_never_saw_its_file(book_file, tmp_path):
    book = Book.open(book_file)
    sid = book.new_session(["Aki", "Ben", "Chie"], rules=KAN12, name="house night")
    for r in plain_rounds():
        add_round(book, sid, r)
    exported = run("export").stdout
    data = json.loads(exported)
    assert data["rules"] == "kan12-house" and Rules.from_dict(data["profile"]) == KAN12
    before = json.loads(run("summary", "--json").stdout)

    other = tmp_path / "other" / "book.json"
    (tmp_path / "export.json").write_text(exported, encoding="utf-8")
    run("import", str(tmp_path / "export.json"), "--db", str(other))
    after = json.loads(run("summary", "--json", "--db", str(other)).stdout)
    for key in ("totals", "settlement", "profile", "kan", "history"):
        assert after[key] == before[key], key
    # and the same rounds under sdin are a different night: the profile really was carried
    sdin = Book.open(tmp_path / "sdin" / "book.json")
    s = sdin.new_session(["Aki", "Ben", "Chie"])
    for r in plain_rounds():
        add_round(sdin, s, r)
    assert night.totals(night.replay(sdin.session(s)), ["Aki", "Ben", "Chie"]) != after["totals"]


def test_an_old_export_without_a_profile_imports_under_the_profile_it_names(book_file, tmp_path):
    old = {"players": ["Aki", "Ben", "Chie"], "rules": "traditional", "rounds": plain_rounds()}
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    run("import", str(tmp_path / "old.json"))
    assert json.loads(run("summary", "--json").stdout)["profile"] == "fudawiki"


def test_an_export_whose_profile_is_damaged_is_refused_with_one_line(tmp_path):
    bad = {"players": ["Aki", "Ben", "Chie"], "profile": {"name": "x", "kan": 11}, "rounds": []}
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    result = run("import", str(tmp_path / "bad.json"), code=2)
    assert result.stderr.count("\n") == 1 and "profile" in result.stderr


def test_new_session_takes_a_built_in_profile_by_name_or_alias():
    out = run("new-session", "Aki", "Ben", "Chie", "--rules", "traditional").stdout
    assert "rules fudawiki" in out
    assert json.loads(run("summary", "--json").stdout)["profile"] == "fudawiki"
    result = run("new-session", "Aki", "Ben", "Chie", "--rules", "koikoi", code=2)
    assert "koikoi" in result.stderr and result.stderr.count("\n") == 1


def test_under_sdin_a_night_is_three_players_with_a_clear_error():
    result = run("new-session", "Aki", "Ben", "Chie", "Dan", code=2)
    assert "three players" in result.stderr


def test_rounds_are_checked_with_the_sessions_profile(tmp_path):
    run("new-session", "Aki", "Ben", "Chie")  # sdin
    r = plain_rounds()[0]
    cancel = {**r, "ended_by": "Aki", "ended_how": "cancel"}
    (tmp_path / "r.json").write_text(json.dumps(cancel), encoding="utf-8")
    result = run("round", "--file", str(tmp_path / "r.json"), code=2)
    assert "ended_how" in result.stderr


# ---------------------------------------------------------------------------------------------
# the night's state: the carry queue derived by replay (TRADITIONAL §8)

FIELDS = {
    "zekkyo": ZEKKYO_FIELD,  # 柳に小野道風: ×4
    "two-brights": ["1h", "3h", "2k", "4r", "6k", "7t"],  # 松 and 桜: ×2 ×2
    "two-fours": ["11h", "12h", "2k", "4r", "6k", "7t"],  # 柳 and 桐: ×4 ×4
    "small": SMALL_FIELD,
}


def carry_night(fields: list[str]) -> list[dict]:
    return [played_out(EXAMPLE_PILES, field=FIELDS[f]) for f in fields]


def test_a_night_with_a_carry_queue_derives_every_multiplier_by_replay(book_file):
    book = Book.open(book_file)
    sid = book.new_session(["Aki", "Ben", "Chie"], rules=FUDAWIKI)
    for r in carry_night(["zekkyo", "two-brights", "small", "small"]):
        add_round(book, sid, r)
    results = night.replay(book.session(sid))
    # ×4 (nothing waits); ×2 with ×2 waiting; the waiting ×2; ×1
    assert [r.multiplier for r in results] == [4, 2, 2, 1]
    assert [r.state.carry for r in results] == [(), (2,), (), ()]
    stored = json.loads(Path(book.session(sid)["file"]).read_text(encoding="utf-8"))
    assert all("carry" not in r["round"] for r in stored["rounds"].values())  # never stored


def test_editing_round_2s_field_moves_every_later_multiplier(book_file, tmp_path):
    book = Book.open(book_file)
    sid = book.new_session(["Aki", "Ben", "Chie"], rules=FUDAWIKI)
    for r in carry_night(["zekkyo", "two-brights", "small", "small", "small"]):
        add_round(book, sid, r)
    before = [r.multiplier for r in night.replay(book.session(sid))]
    assert before == [4, 2, 2, 1, 1]
    new = carry_night(["two-fours"])[0]
    (tmp_path / "r2.json").write_text(json.dumps(new), encoding="utf-8")
    out = run("edit", "2", "--file", str(tmp_path / "r2.json")).stdout
    after = night.replay(book.session(sid))
    assert [r.multiplier for r in after] == [4, 4, 4, 1, 1]
    assert "re-scored: round 3 changed" in " ".join(out.split())
    summary = json.loads(run("summary", "--json").stdout)
    assert [h["multiplier"] for h in summary["history"]] == [4, 4, 4, 1, 1]


def test_a_session_round_file_stating_another_carry_is_refused(tmp_path):
    run("new-session", "Aki", "Ben", "Chie", "--rules", "fudawiki")
    for i, r in enumerate(carry_night(["two-brights"])):
        (tmp_path / f"{i}.json").write_text(json.dumps(r), encoding="utf-8")
        run("round", "--file", str(tmp_path / f"{i}.json"))
    wrong = {**carry_night(["small"])[0], "carry": [4]}
    (tmp_path / "w.json").write_text(json.dumps(wrong), encoding="utf-8")
    result = run("round", "--file", str(tmp_path / "w.json"), code=2)
    assert "carry" in result.stderr and "[2]" in result.stderr
    same = {**carry_night(["small"])[0], "carry": [2]}  # what the night leaves: accepted
    (tmp_path / "s.json").write_text(json.dumps(same), encoding="utf-8")
    saved = json.loads(run("round", "--file", str(tmp_path / "s.json"), "--json").stdout)
    assert saved["multiplier"] == 2 and saved["carry"] == []


def test_every_screen_shows_what_waits(tmp_path):
    run("new-session", "Aki", "Ben", "Chie", "--rules", "fudawiki")
    (tmp_path / "r.json").write_text(json.dumps(carry_night(["two-brights"])[0]), encoding="utf-8")
    out = run("round", "--file", str(tmp_path / "r.json")).stdout
    assert "×2 waiting" in out
    assert "×2 waiting" in run("summary").stdout
    assert "×2 waiting" in run("show", "1").stdout
    assert "rules fudawiki" in run("summary").stdout


@pytest.mark.parametrize("amount,per,text", [(40, 12, "+3貫4文"), (40, 10, "+4貫"), (-24, 12, "-2貫"), (0, 12, "0貫")])
def test_kan_as_the_profile_has_it(amount, per, text):
    assert night.kan(amount, per) == text
