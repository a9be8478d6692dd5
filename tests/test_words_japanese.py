"""Issue 33, point 3: the Japanese says what is true, once. The pot waits for a coming round's
winner; a round ended by cancel is never told as a stop (上がり); 飛び込み and 抜け役 are bonuses,
not 特殊役; a payment for card points says 札点 once; no line mixes full- and half-width
brackets; the system's words in an error line are Japanese."""

from __future__ import annotations

import errno
import re
from pathlib import Path

import pytest
from fast_cli import FastRunner
from rich.console import Console

from scorekeeper import files, lang, night
from scorekeeper.night_view import settlement_view
from scorekeeper.rules import FUDAWIKI

runner = FastRunner()
GOLDEN = Path(__file__).parent / "golden"
P4 = ["Aki", "Ben", "Chie", "Dan"]
SMALL = ["2k", "4r", "6k", "7t", "9k", "10k"]


def ja(args: list[str], width: int = 100, **kw) -> str:
    result = runner.invoke(args=["--lang", "ja", *args], env={"COLUMNS": str(width)}, **kw)
    assert result.exit_code == 0, result.output
    return result.stdout


def drawn(renderable, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_pot_waits_for_a_coming_round_s_winner():
    data = {"id": "s1", "name": "night", "players": P4, "dealer": "Ben", "profile": FUDAWIKI.to_dict(),
            "rounds": [{"round": {"players": P4, "dealer": "Ben", "field": ["1h", "8h", "2k", "4r", "6k", "7t"],
                                  "dropped": P4}, "rules": "fudawiki"}]}
    results = night.replay(data)
    text = lang.in_language("ja", lambda: drawn(settlement_view(night.totals(results, P4), None, 10, results)))
    assert "これからの回の勝者" in text and "前の回" not in text, text


def test_a_round_ended_by_cancel_is_no_stop():
    path = GOLDEN / "fudawiki" / "cancel-half.round.json"
    text = ja(["score", "--rules", "fudawiki", str(path)])
    ben = next(line for line in text.splitlines() if line.startswith("Ben "))
    assert "キャンセル" in ben and "上がり" not in ben, text


def test_a_cancel_at_the_entry_is_said_as_ending_the_round(book_file):
    runner.invoke(args=["new-session", "Aki", "Ben", "Chie", "--rules", "fudawiki"])
    typed = "\n".join(["", " ".join(SMALL), "", "", "", "Aki Ben", "Ben", "c", "6rk 9rk 10rk", "y"]) + "\n"
    text = ja(["round"], input=typed)
    assert "出来役で上がりました" not in text and "Benは下げを宣言して上がりました" not in text, text
    assert "Benがこの回を終えました" in text and "キャンセル" in text, text


@pytest.mark.parametrize("language", ["en", "ja"])
def test_bonuses_have_their_own_column_not_the_special_yaku_s(language):
    path = GOLDEN / "fudawiki" / "tobikomi.round.json"
    result = runner.invoke(args=["--lang", language, "score", "--rules", "fudawiki", str(path)],
                           env={"COLUMNS": "160"})
    lines = result.stdout.splitlines()
    head = next(line for line in lines if "┃" in line)
    headings = [h.strip() for h in head.split("┃")]
    chie = [c.strip() for c in next(line for line in lines if line.startswith("Chie")).split("│")]
    assert chie[headings.index("特殊役")] == "–", result.stdout
    assert chie[headings.index("ボーナス" if language == "ja" else "bonuses")] == "飛び込み 10", result.stdout


def test_a_card_points_payment_says_satsuten_once():
    text = ja(["score", str(GOLDEN / "sdin" / "plain-teyaku.round.json")])
    assert "札点" in text and "札 札点" not in text, text


def shown_in_japanese() -> list[str]:
    out = []
    for rules in ("sdin", "fudawiki"):
        for path in sorted((GOLDEN / rules).glob("*.round.json")):
            out += ja(["score", "--rules", rules, str(path)]).splitlines()
    return out


def test_no_line_mixes_full_and_half_width_brackets():
    mixed = [line for line in shown_in_japanese() if re.search(r"[（）]", line) and re.search(r"[()]", line)]
    assert not mixed, mixed


def test_the_system_s_words_in_a_book_error_are_japanese(tmp_path):
    e = files.cant_write(tmp_path / "book.json", PermissionError(errno.EACCES, "Permission denied"))
    line = lang.in_language("ja", lambda: str(lang.worded(e.args[0])))
    assert "Permission denied" not in line and "許可がありません" in line, line
    assert "Permission denied" in str(e)  # in English, the system's own words
    broken = tmp_path / "book.json"
    broken.write_text('{"a": "b', encoding="utf-8")
    with pytest.raises(Exception) as caught:
        files.read_json_file(broken)
    line = lang.in_language("ja", lambda: str(lang.worded(caught.value.args[0])))
    assert not re.search(r"Unterminated|starting at", line), line
