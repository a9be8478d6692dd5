"""No night counted twice, and a whole book moved between laptops (CONTRACT §5).

`import` refuses a night the book holds already (the same players in order, the same profile, the
same rounds in order), and one whose rounds begin with all of a held night's or the reverse, with
status 2 and one line naming the session. `export --all` writes every night as
``{"sessions": [...]}``; `import` of it skips (and lists) the nights held, and takes the rest with
their profiles, all or nothing. Nights are played through `round --file` as at the table, then
exported and imported through the CLI.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner, one_line_error

from test_fudawiki_pot import P4
from test_months import NOBODY, PLAYED

from scorekeeper import files
from scorekeeper.cli import app
from scorekeeper.rules import SDIN

runner = FastRunner()
ROOT = Path(__file__).parent.parent
HOUSE = ROOT / "samples" / "house-kan12.toml"
NIGHTS = ch.nights(6, 5)  # six distinct nights of five rounds


def hachi(book: Path, *args: str, code: int = 0, input: str | None = None):
    result = runner.invoke(app, [*args, "--db", str(book)], input=input)
    assert "Traceback" not in result.output
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result


def play(book: Path, name: str, rounds: list[dict], *options: str, players: list[str] = ch.PLAYERS) -> None:
    """A night typed in at the table: a new session, then each round from its file (its players
    and 親 left to the session)."""
    hachi(book, "new-session", *players, "--name", name, *options)
    folder = book.parent / "typed"
    folder.mkdir(parents=True, exist_ok=True)
    for i, rnd in enumerate(rounds):
        f = folder / f"{name}-{i}.json"
        f.write_text(json.dumps(ch.bare(rnd)), encoding="utf-8")
        hachi(book, "round", "--file", str(f))


def export(book: Path, out: Path, *args: str) -> Path:
    hachi(book, "export", *args, "-o", str(out))
    return out


def sessions(book: Path) -> list[dict]:
    return json.loads(hachi(book, "sessions", "--json", "--all").stdout)


def nights_of(book: Path) -> list[dict]:
    """Every night of the book as `export --all` writes it."""
    return json.loads(hachi(book, "export", "--all").stdout)["sessions"]


def stats(book: Path) -> dict:
    return json.loads(hachi(book, "stats", "--json").stdout)


@pytest.fixture
def a(tmp_path) -> Path:
    return tmp_path / "a" / "book.json"


@pytest.fixture
def b(tmp_path) -> Path:
    return tmp_path / "b" / "book.json"


# ---------------------------------------------------------------------------------------------
# one night


def test_the_same_night_twice_is_refused(a, b, tmp_path):
    play(a, "Friday", NIGHTS[0])
    night = export(a, tmp_path / "friday.json")
    assert "imported 5 rounds as session s1 'Friday'" in hachi(b, "import", str(night)).stdout
    before = snapshot(b.parent)
    line = one_line_error(hachi(b, "import", str(night), code=2))
    assert line == (f"hachi-score: {night}: this night is the same night as session s1 'Friday' (the same "
                    "players, profile and 5 rounds): not imported, so that no night is counted twice")
    assert snapshot(b.parent) == before
    assert stats(b)["players"]["Aki"]["nights"] == 1
    # into the book it came from, too, and under another name (a name is not the night)
    line = one_line_error(hachi(a, "import", str(night), "--name", "again", code=2))
    assert "this night is the same night as session s1 'Friday'" in line


def test_a_night_and_its_continuation_are_one_night(a, b, tmp_path):
    """Exported at the break and again at the end: whichever comes second is refused, naming
    which holds which."""
    play(a, "Friday", NIGHTS[0][:3])
    early = export(a, tmp_path / "early.json")
    for i, rnd in enumerate(NIGHTS[0][3:]):
        f = tmp_path / f"more{i}.json"
        f.write_text(json.dumps(ch.bare(rnd)), encoding="utf-8")
        hachi(a, "round", "--file", str(f))
    late = export(a, tmp_path / "late.json")
    hachi(b, "import", str(early))
    line = one_line_error(hachi(b, "import", str(late), code=2))
    assert "this night holds all 3 rounds of session s1 'Friday' and 2 more: not imported" in line
    other = tmp_path / "c" / "book.json"
    hachi(other, "import", str(late))
    line = one_line_error(hachi(other, "import", str(early), code=2))
    assert "session s1 'Friday' holds all 3 rounds of this night and 2 more: not imported" in line


def test_nights_that_differ_in_players_profile_or_a_round_are_all_taken(a, b, tmp_path):
    play(a, "Friday", NIGHTS[0])
    hachi(b, "import", str(export(a, tmp_path / "friday.json")))
    base = json.loads((tmp_path / "friday.json").read_text(encoding="utf-8"))
    dai = ["Aki", "Ben", "Dai"]
    variants = {
        "another player": {**base, "players": dai, "rounds": [ch.renamed(r, dai) for r in base["rounds"]]},
        "another profile": {**base, "profile": SDIN._replace(name="house", kan=12).to_dict()},
        "the same name, other values": {**base, "profile": SDIN._replace(kan=12).to_dict()},
        "the last round otherwise": {**base, "rounds": base["rounds"][:4] + [base["rounds"][0]]},
        "the first round only, in its place": {**base, "rounds": base["rounds"][:1] + base["rounds"][2:]},
    }
    for what, data in variants.items():
        f = tmp_path / "variant.json"
        f.write_text(json.dumps({k: v for k, v in data.items() if v is not None}), encoding="utf-8")
        assert hachi(b, "import", str(f)).stdout.startswith("imported "), what
    assert len(sessions(b)) == 1 + len(variants)


def test_a_night_stored_in_another_spelling_is_the_same_night(a, tmp_path):
    """Rounds stored as they were written (through the API, or by an older release: here each pile
    in another order) are compared in the form import gives them."""
    from scorekeeper.night import read_export
    from scorekeeper.store import Book

    raw = [dict(rnd, captured={p: list(reversed(cards)) for p, cards in rnd["captured"].items()}) for rnd in NIGHTS[0]]
    Book.open(a).import_session({**read_export({"players": ch.PLAYERS, "rounds": []}), "rounds": raw, "name": "Friday"})
    assert Book.open(a).session("s1")["rounds"][0]["round"]["captured"] == raw[0]["captured"]  # stored as written
    line = one_line_error(hachi(a, "import", str(export(a, tmp_path / "friday.json")), code=2))
    assert "this night is the same night as session s1 'Friday'" in line


def test_a_night_with_no_round_holds_nothing(a, b, tmp_path):
    hachi(a, "new-session", *ch.PLAYERS, "--name", "empty")
    empty = export(a, tmp_path / "empty.json")
    play(b, "Friday", NIGHTS[0])
    hachi(b, "import", str(empty))
    hachi(b, "import", str(empty))  # twice: it counts nothing, once or twice
    assert [s["rounds"] for s in sessions(b)] == [5, 0, 0]


def test_an_index_of_an_older_release_is_read_for_the_nights_it_holds(a, b, tmp_path):
    """Rows without a night key (or of a file changed since) have their file read, and are put right."""
    play(b, "Friday", NIGHTS[0])
    index = json.loads(b.read_text(encoding="utf-8"))
    for row in index["sessions"].values():
        row.pop("night_key"), row.pop("file_key")
    b.write_text(json.dumps(index), encoding="utf-8")
    night = export(b, tmp_path / "friday.json")
    assert "is the same night as session s1" in one_line_error(hachi(b, "import", str(night), code=2))
    play(b, "Saturday", NIGHTS[1])  # a write of the index: the older row gets its key
    assert "night_key" in json.loads(b.read_text(encoding="utf-8"))["sessions"]["1"]
    assert "is the same night as session s1" in one_line_error(hachi(b, "import", str(night), code=2))


# ---------------------------------------------------------------------------------------------
# a whole book


def laptop_a(a: Path) -> None:
    """Three nights: five rounds under sdin, three under fudawiki with four seated (a misdeal
    among them), five under a house file."""
    play(a, "Friday", NIGHTS[0])
    play(a, "Saturday", [PLAYED, NOBODY, PLAYED], "--rules", "fudawiki", "--dealer", "Ben", players=P4)
    play(a, "Sunday", NIGHTS[2], "--rules", str(HOUSE))


def test_a_whole_book_into_an_empty_one(a, b, tmp_path):
    laptop_a(a)
    book = export(a, tmp_path / "all.json", "--all")
    data = json.loads(book.read_text(encoding="utf-8"))
    assert list(data) == ["sessions"] and len(data["sessions"]) == 3
    for i, night in enumerate(data["sessions"], 1):  # each night exactly as export --json writes it
        assert night == json.loads(hachi(a, "export", f"s{i}", "--json").stdout)
    result = hachi(b, "import", str(book))
    assert result.stdout.splitlines() == ["imported 3 of 3 nights (13 rounds) as s1, s2, s3; s3 'Sunday' is now current."]
    assert nights_of(b) == nights_of(a)  # every profile kept, every value
    assert [s["rules"] for s in sessions(b)] == ["sdin", "fudawiki", "kan12-house"]
    assert json.loads(hachi(b, "summary", "--json").stdout)["session"] == "s3"
    assert stats(b) == stats(a)


def test_a_whole_book_into_one_that_holds_part_of_it(a, b, tmp_path):
    laptop_a(a)
    hachi(b, "import", str(export(a, tmp_path / "friday.json", "s1")))  # Friday, brought over before
    play(b, "Sunday so far", NIGHTS[2][:2], "--rules", str(HOUSE))  # Sunday's first two rounds, typed on b
    play(b, "Monday", NIGHTS[3])
    result = hachi(b, "import", str(export(a, tmp_path / "all.json", "--all")))
    assert result.stdout.splitlines() == [
        "skipped sessions[1] 'Friday': this night is the same night as session s1 'Friday' (the same players, profile and 5 rounds)",
        "skipped sessions[3] 'Sunday': this night holds all 2 rounds of session s2 'Sunday so far' and 3 more",
        "imported 1 of 3 nights (3 rounds) as s4; s4 'Saturday' is now current.",
    ]
    assert [s["name"] for s in sessions(b)] == ["Friday", "Sunday so far", "Monday", "Saturday"]
    again = hachi(b, "import", str(tmp_path / "all.json"), code=2)  # a merge done twice changes nothing the second time
    assert again.stderr.splitlines()[-1] == (f"hachi-score: imported none of the 3 nights of {tmp_path / 'all.json'}: "
                                             "the book holds each of them; nothing was changed")


def test_a_damaged_night_in_the_middle_imports_nothing(a, b, tmp_path):
    laptop_a(a)
    data = json.loads(export(a, tmp_path / "all.json", "--all").read_text(encoding="utf-8"))
    data["sessions"][2]["rounds"][1]["field"] = ["1h"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    play(b, "Monday", NIGHTS[3])
    before = snapshot(b.parent)
    line = one_line_error(hachi(b, "import", str(bad), code=2))
    assert line.startswith(f"hachi-score: {bad}: sessions[3] 'Sunday': rounds[2].field: ")
    assert line.endswith("; nothing was imported")
    assert snapshot(b.parent) == before


def test_a_whole_book_that_cant_be_written_imports_nothing(a, b, tmp_path, monkeypatch):
    laptop_a(a)
    book = export(a, tmp_path / "all.json", "--all")
    play(b, "Monday", NIGHTS[3])
    before = snapshot(b.parent)
    real = files.atomic_write

    def full(path, *args, **kwargs):  # the sessions land, then the index can't be written
        if path == b:
            raise files.cant_write(path, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(files, "atomic_write", full)
    line = one_line_error(hachi(b, "import", str(book), code=1), code=1)
    assert "the disk is full" in line
    monkeypatch.undo()
    assert snapshot(b.parent) == before  # no session file left of the three
    assert len(sessions(b)) == 1


def test_a_whole_book_takes_no_name(a, b, tmp_path):
    laptop_a(a)
    line = one_line_error(hachi(b, "import", str(export(a, tmp_path / "all.json", "--all")), "--name", "x", code=2))
    assert "--name" in line and not b.exists()


def test_export_all_is_json_of_the_whole_book(a, tmp_path):
    assert f"no book at {a}" in one_line_error(hachi(a, "export", "--all", code=2))  # a path with no book
    laptop_a(a)
    assert "--all and --csv" in one_line_error(hachi(a, "export", "--all", "--csv", code=2))
    assert "give a session or --all" in one_line_error(hachi(a, "export", "s1", "--all", code=2))
    result = hachi(a, "export", "--all", "-o", str(tmp_path / "all.json"))
    assert result.stderr == f"wrote 3 sessions (13 rounds) to {tmp_path / 'all.json'}\n"


def test_a_year_of_nights_imported_is_said_in_one_line(a, b, tmp_path):
    for i, rounds in enumerate(ch.nights(8, 1)):
        play(a, f"night {i + 1}", rounds)
    result = hachi(b, "import", str(export(a, tmp_path / "all.json", "--all")))
    assert result.stdout == "imported 8 of 8 nights (8 rounds) as s1 … s8; s8 'night 8' is now current.\n"


def test_two_laptops_merged_count_each_night_once(a, b, tmp_path):
    """Each kept nights; some were carried over between them before. Merged both ways, each
    book's stats is the stats of the union, every night counted once."""
    play(a, "Friday", NIGHTS[0])
    play(a, "Saturday", NIGHTS[1])
    hachi(b, "import", str(export(a, tmp_path / "saturday.json", "s2")))
    play(b, "Sunday", NIGHTS[2])
    play(b, "Monday", NIGHTS[3][:3])
    hachi(a, "import", str(export(b, tmp_path / "monday-early.json", "s3")))  # on a, Monday went on
    for i, rnd in enumerate(NIGHTS[3][3:]):
        f = tmp_path / f"monday{i}.json"
        f.write_text(json.dumps(ch.bare(rnd)), encoding="utf-8")
        hachi(a, "round", "--file", str(f))
    union = tmp_path / "union" / "book.json"  # each distinct night once, the longer Monday
    for book, sid in ((a, "s1"), (a, "s2"), (a, "s3"), (b, "s2")):
        hachi(union, "import", str(export(book, tmp_path / "one.json", sid)))
    result = hachi(a, "import", str(export(b, tmp_path / "b.json", "--all")))
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        "skipped sessions[1] 'Saturday'", "skipped sessions[3] 'Monday'", "imported 1 of 3 nights (5 rounds) as s4; s4 'Sunday' is now current."]
    merged, whole = stats(a), stats(union)
    assert merged["players"]["Aki"]["nights"] == 4 and merged["rounds"] == 20
    key = lambda data: {k: v for k, v in data.items() if k != "chart"}  # the chart names the nights in the book's order
    assert key(merged) == key(whole)
    assert sorted(merged["chart"]["nights"], key=lambda n: n["name"]) == sorted(whole["chart"]["nights"], key=lambda n: n["name"])


# ---------------------------------------------------------------------------------------------
# doctor notes such nights already in a book


def test_doctor_notes_two_sessions_that_hold_one_night(a, tmp_path):
    """A book an older release let take a night twice: noted, never damage."""
    play(a, "Friday", NIGHTS[0])
    play(a, "Friday again", NIGHTS[0])
    play(a, "Saturday", NIGHTS[1][:2])
    play(a, "Saturday on", NIGHTS[1])
    result = hachi(a, "doctor")
    notes = [line for line in result.stdout.splitlines() if line.startswith("·")]
    assert notes == [
        f"· {a.parent / 'book.sessions' / 's2.json'}: session s2 (Friday again) is the same night as session s1 "
        "(Friday) (the same players, profile and 5 rounds): `stats` counts those rounds twice",
        f"· {a.parent / 'book.sessions' / 's4.json'}: session s4 (Saturday on) holds all 2 rounds of session s3 "
        "(Saturday) and 3 more: `stats` counts those rounds twice",
    ]
    assert result.stdout.splitlines()[-1].startswith("✓ healthy: 4 sessions")
