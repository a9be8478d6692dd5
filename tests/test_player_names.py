"""Player names are data: spaces, Japanese, emoji, names that look like options or like rich
markup go in as typed and come out as typed, in every command. Empty, invisible, over-long and
undecodable names are refused with one clear line (status 2)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import crash_harness as ch
from fast_cli import FastRunner
from scorekeeper import store

runner = FastRunner()

NAME_SETS = {
    "spaces and Japanese": ["Aki Tanaka", "花子", "山田 太郎"],
    "emoji": ["🀄 Chun", "👨‍👩‍👧", "🌸"],
    "like options": ["--json", "-x", "--db"],
    "rich markup": ["[bold red]Aki[/]", "[/]", ":smile: [link=https://x.example]y[/link]"],
    "other scripts": ["עברית", "\u00e9mile", "Ωμέγα"],  # é typed as e and its accent is kept as é (NFC)
    "forty characters": ["x" * 40, "s1", "no. 1"],  # a name of a number alone is refused (issue 33)
}


def run(*args: str, path: Path, code: int = 0, input: str | None = None):
    result = runner.invoke(args=[args[0], "--db", str(path), *args[1:]], input=input)  # before any --
    assert "Traceback" not in result.output
    assert result.exit_code == code, (args, result.output)
    if code:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("hachi-score: "), result.stderr
    return result


@pytest.mark.parametrize("kind", list(NAME_SETS))
def test_names_go_in_and_come_out_as_typed(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("COLUMNS", "250")
    names = NAME_SETS[kind]
    path = tmp_path / "book" / "book.json"
    out = run("new-session", "--name", f"night of {kind}", "--", *names, path=path).stdout
    for n in names:
        assert n in out
    for i, rnd in enumerate(ch.NIGHT[:3]):
        f = tmp_path / f"r{i}.json"
        f.write_text(json.dumps(ch.renamed(rnd, names), ensure_ascii=False), encoding="utf-8")
        shown = run("round", "--file", str(f), path=path).stdout
        for n in names:
            assert n in shown, (n, shown)
    data = json.loads(run("summary", "--json", path=path).stdout)
    assert data["players"] == names and set(data["totals"]) == set(names) and data["rounds"] == 3
    texts = [run("summary", path=path).stdout, run("show", "2", path=path).stdout, run("sessions", path=path).stdout]
    for text in texts:
        for n in names:
            assert n in text, (n, text)
        assert "😄" not in text  # :smile: is a name, not an emoji code
    rows = list(csv.reader(io.StringIO(run("export", "--csv", path=path).stdout.removeprefix("\ufeff"))))
    assert [n.removeprefix("'") if n[1:] in names else n for n in rows[0][6:9]] == names  # '-x: no formula
    exported = tmp_path / "export.json"
    run("export", "-o", str(exported), path=path)
    assert json.loads(exported.read_text(encoding="utf-8"))["players"] == names
    other = tmp_path / "other" / "book.json"  # this book holds the night already: another takes it
    run("import", str(exported), path=other)
    again = json.loads(run("summary", "--json", path=other).stdout)
    assert again["players"] == names and again["totals"] == data["totals"]
    assert store.Book.open(path).session("s1")["players"] == names


@pytest.mark.parametrize("bad, why", [
    ("x" * 41, "at most 40"),
    ("長" * 41, "at most 40"),
    ("", "must not be empty"),
    ("   ", "must not be empty"),
    ("\u3000", "must not be empty"),
    ("\u200b", "must not be empty"),
    ("\u200b\ufeff ", "must not be empty"),
    ("a\tb", "control character"),
    ("\x1b[31mred", "control character"),
    ("bad\udcffbyte", "not valid text"),
])
def test_bad_names_are_one_clear_line(tmp_path, bad, why):
    path = tmp_path / "book" / "book.json"
    result = run("new-session", "--", "Aki", bad, "Chie", path=path, code=2)
    assert why in result.stderr
    assert len(result.stderr) < 300  # a long name is quoted in part
    assert not path.exists()
    # the same name in a round file, for `score`
    f = tmp_path / "r.json"
    rnd = dict(ch.NIGHT[0], players=["Aki", bad, "Chie"])
    f.write_text(json.dumps(rnd), encoding="utf-8")
    result = runner.invoke(args=["score", str(f)])
    assert result.exit_code == 2 and why in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_name_that_looks_like_an_option_needs_the_separator(tmp_path):
    path = tmp_path / "book" / "book.json"
    result = run("new-session", "Aki", "--json", "Chie", path=path, code=2)
    assert "--json" in result.stderr or "No such option" in result.stderr or "three" in result.stderr
    run("new-session", "--", "Aki", "--json", "Chie", path=path)


def test_markup_in_a_round_file_name_is_quoted_as_typed_in_errors(tmp_path):
    f = tmp_path / "r.json"
    f.write_text(json.dumps(dict(ch.NIGHT[0], dealer="[red]Dan[/red]")), encoding="utf-8")
    result = runner.invoke(args=["score", str(f)])
    assert result.exit_code == 2 and "'[red]Dan[/red]' is not one of the players" in result.stderr
