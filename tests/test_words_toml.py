"""Issue 33, a house-rule file that TOML can't read: the reason is said in the player's language
(tomllib's English never reaches a Japanese line), in one line naming the file and its line."""

from __future__ import annotations

import re

import pytest
from fast_cli import FastRunner
from test_words_catalog import TYPED, prose

runner = FastRunner()

#: a broken file's body (after a good ``base`` and ``name``), the line it breaks at (None: the end
#: of the file) and the words each language says of it
BROKEN = [
    ("kan = \n", 3, "not a value", "値ではありません"),
    ("kan = 10\nkan = 12\n", 4, "a key given twice", "同じキーが2回あります"),
    ("[values\n", 3, "a [table] without its ']'", "[表] の「]」がありません"),
    ("[[x\n", 3, "a [[table]] without its ']]'", "[[表]] の「]]」がありません"),
    ("kan 10\n", 3, "a key without '=' after it", "キーのあとに「=」がありません"),
    ("kan = 10 12\n", 3, "more after a value on its line", "同じ行でまだ続きがあります"),
    ("]\n", 3, "not a key = value, [table] or comment", "「キー = 値」「[表]」コメントのどれでもありません"),
    ("kan = [1, 2\n", None, "a list without its ']'", "リストの「]」がありません"),
    ("kan = {a = 1\n", 3, "a {table} without its '}'", "{表} の「}」がありません"),
    ('x = "abc\n', 3, "a text without its closing quote", "文字列を閉じる引用符がありません"),
    ('x = "a\\q"\n', 3, "a '\\' in a text that is no escape", "エスケープになっていません"),
    ("[a]\n[a]\n", 4, "[a] is declared twice", "[a] が2回あります"),
    ("x = {a = 1, a = 2}\n", 3, "a key given twice", "同じキーが2回あります"),
    ("a = [1]\n[[a]]\n", 4, "a is given twice", "a が2回あります"),
    ("[values]\n三本 = 3\n", 4, "comment (a yaku's name is quoted", "どれでもありません（役の名前は引用符で囲みます"),
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize(("body", "line", "en", "ja"), BROKEN, ids=[b for b, *_ in BROKEN])
def test_broken_toml_is_said_in_the_player_s_words_with_its_file_and_line(tmp_path, language, body, line, en, ja):
    path = tmp_path / "house.toml"
    path.write_text('base = "sdin"\nname = "house"\n' + body, "utf-8")
    result = runner.invoke(args=["--lang", language, "rules", str(path)])
    assert result.exit_code == 2 and not result.stdout, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, lines
    said = lines[0]
    assert said.startswith(f"hachi-score: {path}: "), said
    where = {("en", None): "end of file", ("ja", None): "ファイルの終わり"}.get((language, line)) or (
        f"line {line}, column " if language == "en" else f"{line}行 ")
    assert where in said and (en if language == "en" else ja) in said, said
    if language == "ja":
        reason = said.split("TOML が壊れています", 1)[1]
        english = set(re.findall(r"[A-Za-z][A-Za-z']+", prose(reason))) - TYPED
        assert not english, (english, said)  # tomllib's words ("Invalid value", "Cannot overwrite") left in
