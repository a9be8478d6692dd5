"""A pseudo-locale run of every command: no English left where a Japanese table reads.

The pseudo catalog (tests/untranslated.py) is installed as Japanese and every command runs with
``--lang ja``: every message that goes through the catalogs comes out in ``⟦ ⟧``. Whatever English
is left outside the markers is text that no translation will ever reach; each case fails listing
those lines (the checker, and what it leaves alone and why, is described in untranslated.py).

Typer's plain CliRunner builds the command afresh for each run (tests/fast_cli.py's cached one
keeps the help texts a run worded). The web screens' pseudo run is the web part's own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from scorekeeper import lang
from scorekeeper.cli import app

from entry_lines import answers
from untranslated import Pseudo, untranslated, unmarked

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
GOLDEN = Path(__file__).parent / "golden"
#: every name the cases use: the players, and the sample house file's profile
NAMES = ["Aki", "Ben", "Chie", "Dan", "Eri", "kan12-house"]
WIDE = {"COLUMNS": "200"}  # a wide terminal: rich wraps no cell, so no marker spans a table's lines

runner = CliRunner()


def golden(rules: str, name: str) -> dict:
    return json.loads((GOLDEN / rules / f"{name}.round.json").read_text("utf-8"))


def typed(lines) -> str:
    return "".join(f"{line}\n" for line in lines)


@pytest.fixture
def pseudo(monkeypatch):
    """The pseudo catalog spoken as Japanese for this test."""
    monkeypatch.setitem(lang._loaded, "ja", Pseudo())


def english(*args: str, input: str | None = None) -> None:
    """A command run in English to set the scene (its output is not what is checked)."""
    r = runner.invoke(app, ["--lang", "en", *args], input=input, env=WIDE)
    assert r.exit_code == 0, (args, r.output)


# -- the scenes a case starts from ------------------------------------------------------------


def empty(tmp: Path) -> None:
    """A new book, nothing in it."""


def session(tmp: Path) -> None:
    """A night of Aki, Ben and Chie, no round yet."""
    english("new-session", "Aki", "Ben", "Chie", "--rate", "10")


def night(tmp: Path) -> None:
    """Two rounds played; Ben won the last."""
    session(tmp)
    english("round", "--file", str(SAMPLES / "plain-teyaku.json"))
    english("round", "--file", str(SAMPLES / "sage-played-out.json"))


def fudawiki(tmp: Path) -> None:
    """A night of five under the traditional rules: drops, 逃げ料, a pot."""
    english("new-session", "Aki", "Ben", "Chie", "Dan", "Eri", "--rules", "fudawiki", "--name", "五人")
    english("round", "--file", str(GOLDEN / "fudawiki" / "five-two-drops.round.json"))


def damaged(tmp: Path) -> None:
    """The night, its session file cut short (a crash of old, a disk's fault)."""
    night(tmp)
    folder = Path(os.environ["HACHI_SCORE_DB"]).parent
    (sf,) = sorted(folder.glob("*.sessions/s1.json"))
    sf.write_bytes(sf.read_bytes()[:200])


def exported(tmp: Path) -> None:
    """The night, exported to tmp/night.json."""
    night(tmp)
    english("export", "-o", str(tmp / "night.json"))


def bad_files(tmp: Path) -> None:
    """A round file with a card that is none, and a file that is not JSON."""
    data = json.loads((SAMPLES / "plain-teyaku.json").read_text("utf-8"))
    data["field"][0] = "13k"
    (tmp / "bad.json").write_text(json.dumps(data), "utf-8")
    (tmp / "not.json").write_text("{players: Aki", "utf-8")


# -- every command, and some bad inputs -------------------------------------------------------

#: id: (scene, arguments ({tmp} is the test's folder), typed input, exit status)
CASES = {
    "score": (empty, ["score", str(SAMPLES / "plain-teyaku.json"), str(SAMPLES / "sage-stops.json")], None, 0),
    "score specials": (empty, ["score", *(str(SAMPLES / f"{n}.json") for n in
                                          ("special-sohachi", "special-nihachi", "special-sujiroku",
                                           "early-dekiyaku", "sage-overtaken", "declared-teyaku"))], None, 0),
    "score a 場四": (empty, ["score", str(SAMPLES / "bashi.json")], None, 0),
    "score --json": (empty, ["score", "--json", str(SAMPLES / "plain-teyaku.json")], None, 0),
    "score fudawiki": (empty, ["score", "--rules", "fudawiki",
                               str(GOLDEN / "fudawiki" / "five-two-drops.round.json")], None, 0),
    "cards": (empty, ["cards"], None, 0),
    "odds": (empty, ["odds"], None, 0),
    "odds of a hand": (empty, ["odds", "--field", "1h 3r 8k 12k 5t 9k", "--hand", "2t 2r 2k 4t 6k 7k 10k"], None, 0),
    "odds fudawiki": (empty, ["odds", "--rules", "fudawiki"], None, 0),
    "rules": (empty, ["rules"], None, 0),
    "rules fudawiki": (empty, ["rules", "fudawiki"], None, 0),
    "rules of a house": (empty, ["rules", str(SAMPLES / "house-kan12.toml")], None, 0),
    "new-session": (empty, ["new-session", "Aki", "Ben", "Chie", "--rate", "10"], None, 0),
    "new-session fudawiki": (empty, ["new-session", "Aki", "Ben", "Chie", "Dan", "--rules", "fudawiki"], None, 0),
    "round fed": (session, ["round"], typed(answers(golden("sdin", "plain-teyaku"))), 0),
    "round fed, declined": (session, ["round"], typed(answers(golden("sdin", "plain-teyaku"), confirm="n")), 1),
    "round --file": (night, ["round", "--file", str(SAMPLES / "early-dekiyaku.json")], None, 0),
    "round --file, another 親": (night, ["round", "--file", str(SAMPLES / "sage-stops.json")], None, 0),
    "round --file, a 場四": (night, ["round", "--file", str(SAMPLES / "bashi.json")], None, 0),
    "round of five": (fudawiki, ["round", "--file", str(GOLDEN / "fudawiki" / "five-two-drops-doubled.round.json")], None, 0),
    "round, end of input": (session, ["round"], "", 1),
    "summary": (night, ["summary"], None, 0),
    "summary --all": (night, ["summary", "--all"], None, 0),
    "summary of five": (fudawiki, ["summary"], None, 0),
    "summary, empty": (session, ["summary"], None, 0),
    "sessions": (night, ["sessions"], None, 0),
    "sessions, no book": (empty, ["sessions"], None, 0),
    "use": (night, ["use", "s1"], None, 0),
    "show": (night, ["show", "2"], None, 0),
    "undo --yes": (night, ["undo", "--yes"], None, 0),
    "undo asked": (night, ["undo"], "n\n", 1),
    "edit fed": (night, ["edit", "1"], typed([""] * 11 + ["y"]), 0),
    "export": (night, ["export"], None, 0),
    "export -o": (night, ["export", "-o", "{tmp}/out.json"], None, 0),
    "export --all -o": (night, ["export", "--all", "-o", "{tmp}/all.json"], None, 0),
    "import": (exported, ["--db", "{tmp}/other/book.json", "import", "{tmp}/night.json"], None, 0),
    "doctor": (night, ["doctor"], None, 0),
    "doctor, damage": (damaged, ["doctor"], None, 1),
    "doctor --restore, declined": (damaged, ["doctor", "--restore"], "n\n", 1),
    "stats": (night, ["stats"], None, 0),
    "stats of five": (fudawiki, ["stats"], None, 0),
    "stats, no book": (empty, ["stats"], None, 0),
    "demo": (empty, ["demo"], None, 0),
    "version": (empty, ["--version"], None, 0),
    # bad inputs: one line on standard error
    "bad: a card that is none": (bad_files, ["score", "{tmp}/bad.json"], None, 2),
    "bad: not JSON": (bad_files, ["score", "{tmp}/not.json"], None, 2),
    "bad: no such file": (empty, ["score", "{tmp}/nowhere.json"], None, 2),
    "bad: round file": (bad_files, ["round", "--file", "{tmp}/bad.json"], None, 2),
    "bad: round without a session": (empty, ["round", "--file", str(SAMPLES / "plain-teyaku.json")], None, 2),
    "bad: a name twice": (empty, ["new-session", "Aki", "aki", "Ben"], None, 2),
    "bad: --rounds": (empty, ["new-session", "Aki", "Ben", "Chie", "--rounds", "7"], None, 2),
    "bad: show 9": (night, ["show", "9"], None, 2),
    "bad: use": (night, ["use", "nowhere"], None, 2),
    "bad: rules": (empty, ["rules", "nowhere"], None, 2),
    "bad: odds --field": (empty, ["odds", "--field", "13k"], None, 2),
    "bad: undo, nothing": (session, ["undo", "--yes"], None, 2),
    "bad: import twice": (exported, ["import", "{tmp}/night.json"], None, 2),
    "bad: stats --since": (night, ["stats", "--since", "2026-13-01"], None, 2),
    "bad: an option": (night, ["summary", "--bogus"], None, 2),
    "bad: a command": (empty, ["bogus"], None, 2),
    "bad: a missing argument": (empty, ["new-session"], None, 2),
}


def run_case(tmp: Path, case: str):
    scene, args, typed_in, code = CASES[case]
    scene(tmp)
    args = [a.replace("{tmp}", str(tmp)) for a in args]
    r = runner.invoke(app, ["--lang", "ja", *args], input=typed_in, env=WIDE)
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    assert r.exit_code == code, f"{args}: exit {r.exit_code}\n{r.output}"
    return r


def said(lines: list[str]) -> str:
    return f"{len(lines)} line(s) of English outside the catalogs:\n" + "\n".join(lines)


@pytest.mark.parametrize("case", list(CASES))
def test_every_command_in_the_pseudo_locale_leaves_no_english(case, tmp_path, pseudo):
    r = run_case(tmp_path, case)
    left = untranslated(r.stdout, names=NAMES) + untranslated(r.stderr, names=NAMES)
    assert not left, said(left)


def command_names() -> list[str]:
    return sorted(typer.main.get_command(app).commands)


@pytest.mark.parametrize("command", ["", *command_names()])
def test_every_help_in_the_pseudo_locale_leaves_no_english(command, pseudo):
    r = runner.invoke(app, ["--lang", "ja", *([command] if command else []), "--help"], env=WIDE)
    assert r.exit_code == 0, r.output
    left = untranslated(r.stdout, help=True)
    assert not left, said(left)


def test_no_arguments_shows_the_help_in_the_pseudo_locale(pseudo):
    r = runner.invoke(app, ["--lang", "ja"], env=WIDE)
    assert r.exit_code == 0, r.output
    left = untranslated(r.stdout, help=True)
    assert not left, said(left)


def test_export_csv_keeps_its_headers_for_scripts(tmp_path, pseudo):
    night(tmp_path)
    r = runner.invoke(app, ["--lang", "ja", "export", "--csv"], env=WIDE)
    assert r.exit_code == 0, r.output
    assert r.stdout.lstrip("\ufeff").splitlines()[0].startswith(
        "round,dealer,field_class,multiplier,kind,yaku,Aki,Ben,Chie,sage,ended_by")
    assert "⟦" not in r.stdout  # CSV is for spreadsheets and scripts: never worded


# -- the checker itself -----------------------------------------------------------------------


def test_the_checker_flags_english_outside_the_markers_and_passes_it_inside():
    assert untranslated("The round was saved.") == ["The round was saved.   <- The round was saved"]
    assert untranslated("⟦The round was saved.⟧") == []
    assert untranslated("ラウンド 3 を保存しました。") == []
    assert untranslated("⟦round 3⟧ saved") == ["⟦round 3⟧ saved   <- saved"]


def test_the_checker_follows_markers_nested_and_across_lines_and_cut_short():
    assert untranslated("⟦Aki pays ⟦Ben's pile⟧\n  and the rest⟧") == []
    assert unmarked("a ⟦b⟧ c") == ["a     c"]
    # click cut a short help to fit, taking the closing marker with it: the next line is read
    text = "  ⟦⟦The reference table of all 48 cards: code,...⟧\n  Exact odds"
    assert unmarked(text, cut=True)[1] == "  Exact odds"
    # outside a --help, a line of its own that ends in "…" ends no message
    assert untranslated("⟦names: 松に鶴 雷 …\n  and more⟧") == []


def test_the_checker_leaves_alone_what_stays_as_it_is():
    lines = [
        '{"players": {"Ben": {"mon": 64}}, "text": "not for people"}',  # --json
        "Aki 親 │ 三本 20 │ 1h 3r 8kk 10trkk 3* 松hk │ -24 │ 2026-12-01 s1 sdin fudawiki",
        " 1 松 │ (まつ) │ 1h │ 松に鶴 │ matsu ni tsuru │ 光 │ hikari │ kiri ni hōō │ pikaichi",
        "hachi-score: /tmp/x/book.json: 書けません (HACHI_SCORE_DB, JSON, UTF-8, CSV)",
        "`hachi-score round --resume` で再開できます。Enter で既定、Ctrl-C で中止 [Y/n]",
        "--json, -h, round.json, RULES.md",
        "kan12-house │ forced_three │ aki │ Ben's │ AKI",
    ]
    assert untranslated("\n".join(lines), names=["Aki", "Ben", "kan12-house"]) == []
    assert untranslated("Aki pays Ben", names=["Aki", "Ben"]) == ["Aki pays Ben   <- pays"]
    assert untranslated("no 手役") == ["no 手役   <- no"]
    assert untranslated("場四redeal") == ["場四redeal   <- redeal"]


def test_the_checker_reads_a_help_as_a_help():
    text = ("⟦Usage: ⟧hachi-score summary [OPTIONS] [session]\n\n"
            "  ⟦Standings in 文 and 貫.⟧\n\n"
            "⟦Arguments⟧:\n  session  ⟦A session's id or name.⟧\n\n"
            "⟦Options⟧:\n  --json          ⟦One compact JSON object.⟧\n"
            "  --db PATH       The book's main file.  [⟦env var: HACHI_SCORE_DB⟧]\n")
    assert untranslated(text, help=True) == [
        "  --db PATH       The book's main file.  [⟦env var: HACHI_SCORE_DB⟧]   <- The book's main file"]
    # a description left in English is found, even though it is indented like a name
    assert untranslated("Usage: x\n\n  Standings in 文 and 貫.\n", help=True) == [
        "  Standings in 文 and 貫.   <- Standings in and"]
