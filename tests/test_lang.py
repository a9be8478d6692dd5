"""The language a person reads: how it is chosen, and the catalogs it is read from."""

import importlib.util
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scorekeeper import lang
from scorekeeper.cli import app

ROOT = Path(__file__).resolve().parents[1]


def catalogs_script():
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("env, want", [
    ({}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C"}, "en"),
    ({"LC_MESSAGES": "ja_JP", "LANG": "en_US"}, "ja"),
    ({"LC_ALL": "en_US", "LC_MESSAGES": "ja_JP"}, "en"),
    ({"LANGUAGE": "ja:en", "LC_ALL": "C"}, "ja"),
    ({"LANGUAGE": "fr:ja", "LANG": "en_US"}, "ja"),
    ({"LANGUAGE": "fr", "LANG": "ja_JP"}, "en"),
    ({"LANGUAGE": "", "LANG": "ja_JP.UTF-8"}, "ja"),
])
def test_the_locale_is_read_as_gettext_reads_it(env, want):
    assert lang.from_locale(env) == want


def test_lang_wins_over_the_variable_and_the_variable_over_the_locale():
    env = {"HACHI_SCORE_LANG": "en", "LANG": "ja_JP.UTF-8"}
    assert lang.choose(None, env) == "en"
    assert lang.choose("ja", env) == "ja"
    assert lang.choose(None, {"HACHI_SCORE_LANG": "ja", "LANG": "en_US"}) == "ja"
    assert lang.choose(None, {"HACHI_SCORE_LANG": "", "LANG": "ja_JP"}) == "ja"
    with pytest.raises(lang.UnknownLanguage):
        lang.choose("fr", {})


@pytest.mark.parametrize("header, want", [
    (None, "en"), ("", "en"), ("ja", "ja"), ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
    ("en-GB,en;q=0.9,ja;q=0.8", "en"), ("fr-FR, ja;q=0.5", "ja"), ("en;q=0.4, ja;q=0.6", "ja"),
    ("ja;q=0, en", "en"), ("de, fr", "en"), ("ja;q=abc, en;q=0.1", "en"),
])
def test_a_phone_s_language_is_its_most_preferred_spoken_here(header, want):
    assert lang.from_accept_language(header) == want


def test_the_catalogs_hold_every_message_translated_with_its_placeholders_and_the_mo_is_the_po():
    assert catalogs_script().problems() == []


@pytest.mark.parametrize("args", [
    ["--lang", "ja", "summary", "--help"], ["summary", "--help", "--lang", "ja"],
    ["summary", "--lang=ja", "--help"], ["--lang=ja", "--help"],
])
def test_lang_is_taken_anywhere_and_words_the_help(args):
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "使い方:" in r.output and "Usage:" not in r.output
    assert "Show this message" not in r.output


def test_lang_en_under_a_japanese_locale_is_english(monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert "使い方:" in CliRunner().invoke(app, ["summary", "--help"]).output
    r = CliRunner().invoke(app, ["summary", "--help", "--lang", "en"])
    assert "Usage:" in r.output and "使い方" not in r.output


@pytest.mark.parametrize("args, env, where", [
    (["--lang", "fr", "summary"], {}, "--lang: 'fr'"),
    (["summary"], {"HACHI_SCORE_LANG": "klingon"}, "HACHI_SCORE_LANG: 'klingon'"),
])
def test_a_language_not_spoken_here_is_one_line_and_status_2(args, env, where, monkeypatch):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [f"hachi-score: {where} is not a language spoken here: ja or en"]


def test_lang_without_a_value_is_one_line_and_status_2():
    r = CliRunner().invoke(app, ["summary", "--lang"])
    assert r.exit_code == 2 and r.output.strip() == "hachi-score: Option '--lang' requires an argument."


def test_an_argument_after_a_double_dash_is_never_taken_for_lang(tmp_path):
    r = CliRunner().invoke(app, ["score", "--", "--lang"])
    assert r.exit_code == 2 and "--lang" in r.output
