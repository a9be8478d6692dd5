"""The interface in Japanese, end to end, as a Japanese machine starts it: ``LANG=ja_JP.UTF-8``.

``demo``, ``summary``, ``round`` fed its answers, a bad round file and ``--help`` speak Japanese:
each shows the glossary's words (scorekeeper/locale/README.md: 成績, 精算, 保存, 使い方, オプション …)
and no English is left (tests/untranslated.py reads what they print, as it reads the pseudo run).
``--lang en`` under that locale is English, and what scripts read (``--json``) is byte for byte
the same in both languages.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scorekeeper.cli import app

from entry_lines import answers
from untranslated import ANSWER_WORDS, untranslated

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
GOLDEN = Path(__file__).parent / "golden" / "sdin"
PLAYERS = ["Aki", "Ben", "Chie"]
JA = {"LANG": "ja_JP.UTF-8"}
KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa]")  # a sentence in Japanese has kana in it

runner = CliRunner()  # the command built afresh for each run: no help worded by an earlier one


def run(*args: str, env: dict | None = None, input: str | None = None, code: int = 0):
    r = runner.invoke(app, list(args), env=env, input=input)
    assert "Traceback" not in r.output, r.output
    assert r.exit_code == code, f"{args}: exit {r.exit_code}\n{r.output}"
    return r


def japanese(text: str, *words: str, help: bool = False) -> None:
    """``text`` shows each of ``words`` and holds no English a person would read."""
    missing = [w for w in words if w not in text]
    assert not missing, f"no {missing} in:\n{text}"
    left = untranslated(text, names=PLAYERS, help=help, allow=ANSWER_WORDS)
    assert not left, "English left:\n" + "\n".join(left)


def typed(lines) -> str:
    return "".join(f"{line}\n" for line in lines)


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.round.json").read_text("utf-8"))


@pytest.fixture
def night(book_file) -> Path:
    """A night of three with three rounds, typed in English (the book is the same in any language)."""
    run("new-session", *PLAYERS, "--rate", "10")
    for name in ("01", "02", "03"):
        run("round", "--file", str(SAMPLES / "night" / f"{name}.json"))
    return book_file


# -- Japanese --------------------------------------------------------------------------------


def test_demo_speaks_japanese():
    r = run("demo", env=JA)
    japanese(r.stdout, "成績", "精算", "推移", "各回")
    for word in ("standings", "settlement", " pays ", "rounds"):
        assert word not in r.stdout, word


def test_summary_speaks_japanese(night):
    r = run("summary", env=JA)
    japanese(r.stdout, "成績", "精算", "推移")
    assert "next 親" not in r.stdout and "standings" not in r.stdout


def test_round_fed_its_answers_speaks_japanese_and_saves(book_file):
    run("new-session", *PLAYERS)
    r = run("round", env=JA, input=typed(answers(golden("plain-teyaku"))))
    japanese(r.stdout, "場札", "手役", "保存", "第1回")
    for english in ("the six field cards", "played out", "saved", "save?"):
        assert english not in r.stdout, english
    # what was typed is what was saved, whatever the language
    summary = json.loads(run("summary", "--json").stdout)
    assert summary["rounds"] == 1 and summary["totals"] == {"Aki": -24, "Ben": 64, "Chie": -40}


def test_a_bad_round_file_is_one_line_in_japanese(tmp_path):
    data = json.loads((SAMPLES / "plain-teyaku.json").read_text("utf-8"))
    data["field"][0] = "13k"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), "utf-8")
    r = run("score", str(bad), env=JA, code=2)
    assert r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert line.startswith("hachi-score: ") and str(bad) in line and "13k" in line, line
    assert KANA.search(line.replace(str(bad), "")), f"no Japanese in: {line}"
    japanese(line)
    assert "is not a card" not in line


@pytest.mark.parametrize("args, words", [
    ([], ["使い方", "オプション", "コマンド"]),
    (["summary"], ["使い方", "オプション", "成績", "精算"]),
    (["round"], ["使い方", "オプション", "ラウンド", "保存"]),
    (["score"], ["使い方", "オプション"]),
])
def test_help_speaks_japanese(args, words):
    r = run(*args, "--help", env=JA)
    japanese(r.stdout, *words, help=True)
    assert "Usage:" not in r.stdout and "Show this message" not in r.stdout


def test_a_real_process_under_a_japanese_locale_speaks_japanese(tmp_path):
    """The installed command as a shell starts it: the locale from the environment, the catalog
    from the package's own .mo."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "HACHI_SCORE_LANG")}
    env.update(LANG="ja_JP.UTF-8", PYTHONIOENCODING="utf-8", COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "scorekeeper", "demo"], env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stderr
    japanese(proc.stdout, "成績", "精算")


# -- English under a Japanese locale -----------------------------------------------------------


def test_lang_en_under_a_japanese_locale_is_english(book_file):
    r = run("demo", "--lang", "en", env=JA)
    assert "standings" in r.stdout and "settlement" in r.stdout and " pays " in r.stdout
    assert "成績" not in r.stdout and "精算" not in r.stdout
    r = run("--lang", "en", "summary", "--help", env=JA)
    assert "Usage:" in r.stdout and "使い方" not in r.stdout
    run("new-session", *PLAYERS)
    r = run("round", "--lang", "en", env=JA, input=typed(answers(golden("plain-teyaku"))))
    assert "round 1 saved" in r.stdout and "保存" not in r.stdout


@pytest.mark.parametrize("env, english", [
    ({"LANGUAGE": "C:ja", "LANG": "ja_JP.UTF-8"}, True),  # gettext stops at C: the messages as they are
    ({"LANGUAGE": "POSIX:ja"}, True),
    ({"LANGUAGE": "fr:ja", "LANG": "C.UTF-8"}, False),  # no French here: the next one, Japanese
    ({"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, True),
    ({"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "C.UTF-8"}, False),
])
def test_the_locale_is_read_as_gettext_reads_it_up_to_a_c(env, english):
    r = run("summary", "--help", env=env)
    assert ("Usage:" in r.stdout) is english and ("使い方" in r.stdout) is not english, r.stdout


def test_hachi_score_lang_en_under_a_japanese_locale_is_english():
    r = run("demo", env={**JA, "HACHI_SCORE_LANG": "en"})
    assert "standings" in r.stdout and "成績" not in r.stdout


# -- what scripts read ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["score", "--json", str(SAMPLES / "plain-teyaku.json"), str(SAMPLES / "sage-stops.json"),
     str(SAMPLES / "bashi.json")],
    ["summary", "--json"],
    ["summary", "--json", "--all"],
    ["stats", "--json"],
    ["sessions", "--json"],
    ["show", "2", "--json"],
    ["rules", "fudawiki", "--json"],
    ["doctor", "--json"],
    ["export"],
])
def test_json_is_byte_identical_in_both_languages(night, args):
    """(``demo --json`` is left out: the demo's own night may well be named in the language.)"""
    english = run(*args, env={"LANG": "C.UTF-8"}).stdout_bytes
    assert english.strip()
    assert run(*args, env=JA).stdout_bytes == english
    assert run(*args, "--lang", "ja").stdout_bytes == english
    assert run(*args, "--lang", "en", env=JA).stdout_bytes == english


def test_a_bad_round_file_under_score_json_keeps_its_status_and_prints_no_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["Aki"]}', "utf-8")
    en = run("score", "--json", str(bad), code=2)
    ja = run("score", "--json", str(bad), env=JA, code=2)
    assert en.stdout == ja.stdout == ""
    assert len(en.stderr.splitlines()) == len(ja.stderr.splitlines()) == 1
