"""No night counted twice (CONTRACT §5).

`import` refuses a night the book holds already (the same players in order, the same profile, the
same rounds in order), and one whose rounds begin with all of a held night's or the reverse, with
status 2 and one line naming the session; `doctor` notes two such sessions already in a book.
Nights are played through `round --file` as at the table, then exported and imported through the CLI.
"""

from __future__ import annotations

import json
from pathlib import Path

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner, one_line_error

from scorekeeper.cli import app
from scorekeeper.rules import SDIN

runner = FastRunner()
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
