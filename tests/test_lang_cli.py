"""The command line in Japanese: every command's help, cli.py's one-line errors and answers, and
click's own errors, chosen by the locale (LANG=ja_JP.UTF-8) or --lang; English stays English, and
what scripts read (--json, exit statuses) is the same in both. Help is laid out by display width:
a Japanese character is two columns, and no line is wider than the terminal's."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
import typer.main
from typer._click.formatting import wrap_text as click_wrap_text
from typer.testing import CliRunner

from fast_cli import FastRunner, one_line_error
from scorekeeper import cli, cli_words, lang
from scorekeeper.cli import app

ROOT = Path(__file__).resolve().parents[1]
NIGHT = sorted((ROOT / "samples" / "night").glob("*.json"))
COMMANDS = sorted(typer.main.get_command(app).commands)
runner = CliRunner()


@pytest.fixture
def japanese(monkeypatch):
    """A Japanese machine: the locale says ja, nothing else does."""
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")


def cols(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def has_kana(text: str) -> bool:
    return bool(re.search(r"[\u3041-\u30ff]", text))


#: a word of English prose (not an option, a metavar, a code or a file name)
_ENGLISH_WORD = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?[,.;:]?")


def english_runs(text: str) -> list[str]:
    """The lines of ``text`` that hold three English words in a row: a sentence left in English."""
    found = []
    for line in text.splitlines():
        line = re.sub(r"`[^`]*`|\"[^\"]*\"|\[[^\]]*\]|<[^>]*>|\{[^}]*\}", " ", line)  # code, examples, metavars
        run = 0
        for token in line.split():
            run = run + 1 if _ENGLISH_WORD.fullmatch(token) else 0
            if run >= 3:
                found.append(line)
                break
    return found


def help_of(command: str | None, *more: str, env: dict | None = None) -> str:
    args = ([command] if command else []) + ["--help", *more]
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    return result.stdout


# -- help -----------------------------------------------------------------------------------------


def test_the_english_run_finder_finds_english():
    assert english_runs("  --db PATH  The book's main file (default: book.json)")
    assert not english_runs("  --db PATH  帳面のメインファイル（既定: book.json）。 [環境変数: HACHI_SCORE_DB]")
    assert not english_runs("使い方: hachi-score new-session [OPTIONS] {NAME NAME NAME}")


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_under_a_japanese_locale_is_japanese(japanese, command):
    text = help_of(command)
    assert text.startswith("使い方: hachi-score"), text
    assert "オプション:" in text and "このヘルプを表示して終了します。" in text
    assert english_runs(text) == [], text
    if command is not None:  # the command's own words, not only typer's
        described = text.split("\n\n")[1]
        assert has_kana(described), text


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_lang_en_under_a_japanese_locale_is_english(japanese, command):
    text = help_of(command, "--lang", "en")
    assert text.startswith("Usage: hachi-score") and "Show this message and exit." in text
    assert "使い方" not in text and "オプション" not in text
    if command is not None:
        english = typer.main.get_command(app).commands[command].help
        assert english.split()[0] in text


def test_the_list_of_commands_is_japanese_first_sentences(japanese):
    text = help_of(None)
    listed = text.split("コマンド:\n")[1]
    assert "  score        ラウンドのファイルを採点します。\n" in listed
    assert "  doctor       帳面全体を確認します。\n" in listed
    assert len(listed.strip().splitlines()) == len(COMMANDS)


def test_a_command_made_once_words_its_help_again_in_each_language(monkeypatch):
    """FastRunner builds the app's command once: Japanese help, then English, then Japanese."""
    fast = FastRunner()
    assert "使い方" in fast.invoke(app, ["summary", "--help", "--lang", "ja"]).stdout
    english = fast.invoke(app, ["summary", "--help"]).stdout
    assert "Standings in 文 and 貫" in english and "成績" not in english and "Usage:" in english
    assert "成績（文と貫）" in fast.invoke(app, ["summary", "--help", "--lang", "ja"]).stdout


def help_at(columns: int, *args: str, capsys, monkeypatch) -> str:
    """The help as a terminal ``columns`` wide shows it (CliRunner forces 80 columns: the command
    is run as ``hachi-score`` runs it, its width read from COLUMNS)."""
    monkeypatch.setenv("COLUMNS", str(columns))
    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        typer.main.get_command(app).main([*args, "--help"], prog_name="hachi-score")
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("columns", [80, 60])
def test_no_line_of_any_help_is_wider_than_the_terminal(language, columns, capsys, monkeypatch):
    width = columns - 2  # click's: the terminal's width less two
    for command in [None, *COMMANDS]:
        text = help_at(columns, "--lang", language, *([command] if command else []),
                       capsys=capsys, monkeypatch=monkeypatch)
        assert text.startswith("使い方: " if language == "ja" else "Usage: "), text
        wide = [line for line in text.splitlines() if cols(line) > width]
        assert wide == [], (command, wide)
        if columns == 60:  # the width is the terminal's, not CliRunner's 80
            assert max(cols(line) for line in text.splitlines()) > 50, text


@pytest.mark.parametrize("columns", [80, 60])
def test_japanese_help_keeps_options_names_and_amounts_whole(japanese, columns, capsys, monkeypatch):
    lines = [line for command in ("edit", "odds", "export", "round", "doctor")
             for line in help_at(columns, command, capsys=capsys, monkeypatch=monkeypatch).splitlines()]
    text = "\n".join(lines)
    for whole in ("--rechain", "--file", "ROUND.json", '"1h 3r 8k 12k 5t 9k"', "42枚", "6枚", '{"sessions": [...]}',
                  "`round`", "回ごとに1行", "環境変数", "FILE.damaged-DATE"):
        assert any(whole in line for line in lines), (whole, text)
    starts = [line.strip()[:1] for line in lines if line.strip()]
    assert not set(starts) & set("、。）」"), text  # no line starts with a closing mark


def test_the_english_help_of_narrow_text_is_laid_out_by_click():
    text = ("Score round files and print each result. Never opens the book. All or nothing: if any "
            "file is bad, nothing goes to standard output, a house-rule file included.")
    for width in range(20, 90, 7):
        assert cli_words._wrap(text, width, "  ", "  ") == click_wrap_text(text, width, "  ", "  ")


# -- the layout by display width ------------------------------------------------------------------


SAMPLE = ("ハウスルールの FILE.toml は出来役と手役の値を変えます。1貫は113文で、"
          "`hachi-score round` で再開でき、--rechain で以降の親をすべて順に合わせます（例: \"1h 3r 8k\"）。")


@pytest.mark.parametrize("width", range(26, 72, 3))
def test_japanese_breaks_between_characters_never_inside_a_word(width):
    lang.use("ja")
    lines = cli_words._wrap(SAMPLE, width, "  ", "  ").splitlines()
    assert all(cols(line) <= width for line in lines), lines
    for whole in ("ハウスルール", "FILE.toml", "出来役", "手役", "1貫", "113文", "`hachi-score round`",
                  "--rechain", '"1h 3r 8k"'):
        assert any(whole in line for line in lines), (whole, lines)
    assert not any(line.strip()[0] in "、。）" for line in lines), lines
    assert "".join(line.strip() for line in lines).replace(" ", "") == SAMPLE.replace(" ", "")


def test_a_piece_wider_than_the_line_is_cut_to_fit():
    lines = cli_words._wrap("あ" * 30, 20).splitlines()
    assert [cols(line) for line in lines] == [20, 20, 20]


# -- cli.py's messages ------------------------------------------------------------------------------


@pytest.mark.parametrize("args, ja, en", [
    (["export", "--json", "--csv"], "--json と --csv: どちらか一つにしてください", "--json and --csv: choose one"),
    (["stats", "--since", "2020-13-01"], "--since: '2020-13-01' は日付ではありません（YYYY-MM-DD）",
     "--since: '2020-13-01' is not a date (YYYY-MM-DD)"),
    (["score", "nosuch.json"], "nosuch.json: ファイルがありません", "nosuch.json: no such file"),
    (["round", "--resume", "--discard"], "--resume、--discard、--restore: どれか一つにしてください",
     "--resume, --discard and --restore: give one of them"),
    (["export", "--all", "--csv"], "--all と --csv: 帳面全体は JSON でしか書き出せません",
     "--all and --csv: a whole book is written as JSON only"),
    (["--db", "a\0b", "summary"], "--db: 'a\\x00b' はファイル名ではありません（NUL バイトを含んでいます）",
     "--db: 'a\\x00b' is not a file name (it holds a NUL byte)"),
])
def test_cli_errors_are_one_japanese_line_with_the_same_status(japanese, args, ja, en):
    assert one_line_error(runner.invoke(app, args)) == f"hachi-score: {ja}"
    assert one_line_error(runner.invoke(app, [*args, "--lang", "en"])) == f"hachi-score: {en}"


def test_a_broken_round_file_is_said_in_japanese(japanese, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["Aki"]', encoding="utf-8")
    line = one_line_error(runner.invoke(app, ["score", str(bad)]))
    assert line == f"hachi-score: {bad}: JSON が壊れています（1行 20列）: 「,」がありません"
    line = one_line_error(runner.invoke(app, ["score", str(bad), "--lang", "en"]))
    assert line == f"hachi-score: {bad}: broken JSON at line 1 column 20: Expecting ',' delimiter"


def _night(rounds: int = 2) -> None:
    assert runner.invoke(app, ["new-session", "Aki", "Ben", "Chie", "--name", "金曜"]).exit_code == 0
    for path in NIGHT[:rounds]:
        assert runner.invoke(app, ["round", "-f", str(path)]).exit_code == 0


def test_a_session_s_lines_are_japanese(japanese):
    made = runner.invoke(app, ["new-session", "Aki", "Ben", "Chie", "--name", "金曜"])
    assert made.stdout.startswith("セッション s1 '金曜': Aki、Ben、Chie。最初の親 Aki、12回、ルール sdin")
    saved = runner.invoke(app, ["round", "-f", str(NIGHT[0])])
    assert "第1回" in saved.stdout
    assert one_line_error(runner.invoke(app, ["show", "9"])) == (
        "hachi-score: 第9回: セッション s1 にあるのは第1〜1回です")
    done = runner.invoke(app, ["undo", "--yes"])
    assert done.exit_code == 0
    assert done.stdout == "セッション s1 の第1回を取り消しました。残りは 0回、次の親はAkiです\n"
    assert one_line_error(runner.invoke(app, ["undo"])) == (
        "hachi-score: セッション s1（金曜）にはラウンドがありません。取り消すものはありません")


@pytest.mark.parametrize("answer, removed", [
    ("y", True), ("yes", True), ("はい", True), ("ｙ", True), ("Ｙｅｓ", True),
    ("", False), ("n", False), ("いいえ", False), ("ｎ", False), ("maybe", False),
])
def test_undo_s_question_takes_y_n_full_width_and_japanese(japanese, answer, removed):
    _night()
    result = runner.invoke(app, ["undo"], input=answer + "\n")
    assert "セッション s1 の第2回（親 " in result.stderr and "を取り消しますか？（y: はい／N: いいえ）" in result.stderr
    if removed:
        assert result.exit_code == 0 and "第2回を取り消しました" in result.stdout
    else:
        assert result.exit_code == 1
        assert result.stderr.splitlines()[-1] == "hachi-score: 中止しました。第2回はそのままです"


def test_the_answers_are_compared_as_their_letters():
    assert [cli._answer(a) for a in ("ｄｉｓｃａｒｄ", " Ｎ ", "はい", "YES")] == ["discard", "n", "はい", "yes"]
    assert "破棄" in cli._DISCARD and "いいえ" in cli._NO


def test_json_is_the_same_in_both_languages(japanese):
    _night(3)
    for args in (["summary", "--json"], ["show", "2", "--json"], ["sessions", "--json"], ["demo", "--json"],
                 ["score", str(NIGHT[0]), "--json"], ["export"]):
        ja, en = runner.invoke(app, args), runner.invoke(app, [*args, "--lang", "en"])
        assert ja.exit_code == en.exit_code == 0
        assert ja.stdout_bytes == en.stdout_bytes, args
    json.loads(ja.stdout)


# -- click's own errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("args, ja, en", [
    (["--bogus"], "--bogus というオプションはありません。", "No such option: --bogus"),
    (["summary", "--al"], "--al というオプションはありません（候補: --all, --help, --lang）。",
     "No such option: --al (Possible options: --all, --help, --lang)"),
    (["summary", "-z"], "-z というオプションはありません。", "No such option: -z"),
    (["new-session"], "引数 'NAME NAME NAME' を指定してください。", "Missing argument 'NAME NAME NAME'."),
    (["use"], "引数 'session' を指定してください。", "Missing argument 'session'."),
    (["new-session", "--rounds", "x", "A", "B", "C"], "'--rounds' の値が正しくありません: 'x' は整数ではありません。",
     "Invalid value for '--rounds': 'x' is not a valid int."),
    (["new-session", "--rate", "x", "A", "B", "C"], "'--rate' の値が正しくありません: 'x' は数ではありません。",
     "Invalid value for '--rate': 'x' is not a valid float."),
    (["serve", "--port", "x"], "'--port' の値が正しくありません: 'x' は整数ではありません。",
     "Invalid value for '--port': 'x' is not a valid int range."),
    (["serve", "--port", "99999"], "'--port' の値が正しくありません: 99999 は範囲 0<=x<=65535 の外です。",
     "Invalid value for '--port': 99999 is not in the range 0<=x<=65535."),
    (["show", "x"], "'N' の値が正しくありません: 'x' は整数ではありません。", "Invalid value for 'N': 'x' is not a valid int."),
    (["new-session", "--rate"], "オプション '--rate' には値が必要です。", "Option '--rate' requires an argument."),
    (["summary", "--all=1"], "オプション '--all' は値を取りません。", "Option '--all' does not take a value."),
    (["use", "a", "b", "c"], "余分な引数があります（b c）", "Got unexpected extra argument(s) (b c)"),
    (["sumary"], "'sumary' というコマンドはありません。 'summary' のことですか？",
     "No such command 'sumary'. Did you mean 'summary'?"),
    (["nothing"], "'nothing' というコマンドはありません。", "No such command 'nothing'."),
])
def test_click_s_errors_are_worded_in_the_language_and_unchanged_in_english(japanese, args, ja, en):
    assert one_line_error(runner.invoke(app, args)) == f"hachi-score: {ja}"
    assert one_line_error(runner.invoke(app, [*args, "--lang", "en"])) == f"hachi-score: {en}"


@pytest.mark.parametrize("message, ja", [
    ("'x' is not one of 'a', 'b'.", "'x' は 'a', 'b' のどれでもありません。"),
    ("Missing option '--x'.", "オプション '--x' を指定してください。"),
    ("Missing option '--x'. Choose from:\n\ta,\n\tb", "オプション '--x' を指定してください。 次から選んでください: a,\n\tb"),
    ("Invalid value for '--db' (env var: 'HACHI_SCORE_DB'): 'x' is not a valid int.",
     "'--db'（環境変数 'HACHI_SCORE_DB'） の値が正しくありません: 'x' は整数ではありません。"),
    ("Invalid value: 'x' is not a valid float.", "値が正しくありません: 'x' は数ではありません。"),
    ("Option '--x' requires 2 arguments.", "オプション '--x' には値が 2 個必要です。"),
    ("Got unexpected extra argument (x)", "余分な引数があります（x）"),
    ("Got unexpected extra arguments (x y)", "余分な引数があります（x y）"),
    ("Something click says that no pattern knows.", "Something click says that no pattern knows."),
])
def test_every_pattern_of_click_s_words_gives_its_english_back(message, ja):
    assert cli_words.click_said(message) == message
    lang.use("ja")
    assert cli_words.click_said(message) == ja


# -- standard output failing, as `hachi-score` meets it ---------------------------------------------


def _hachi(shell_tail: str, tmp_path, **kwargs):
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(ROOT), "HACHI_SCORE_DB": str(tmp_path / "b" / "book.json"),
           "LANG": "ja_JP.UTF-8"}
    return subprocess.run(f'"{sys.executable}" -m scorekeeper {shell_tail}', shell=True, env=env,
                          stderr=subprocess.PIPE, text=True, **kwargs)


def test_a_closed_standard_output_is_said_in_the_language_chosen(tmp_path):
    done = _hachi("new-session Aki Ben Chie >&-", tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "hachi-score: 標準出力が閉じています。何もしていません（ファイルか /dev/null に送ってください）"]
    done = _hachi("new-session Aki Ben Chie --lang en >&-", tmp_path)
    assert done.stderr.splitlines() == [
        "hachi-score: standard output is closed: nothing was done (send it to a file or /dev/null)"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_disk_is_said_in_japanese_with_the_system_s_words_worded(tmp_path):
    done = _hachi("cards > /dev/full", tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == ["hachi-score: 標準出力に書き込めません: デバイスに空き領域がありません"]
