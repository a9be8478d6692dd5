"""Japanese read as a Japanese player reads it: lines broken by display width and Japanese
line-breaking rules (禁則), never inside a name, a yaku or a number with its 文, never before a
closing mark; the help and the round's entry laid out by one function (scorekeeper.layout).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from scorekeeper import lang, layout
from scorekeeper.entry import Aborted, RoundEntry
from scorekeeper.notation import parse_cards
from scorekeeper.render import round_view
from scorekeeper.scoring import score_dict

from entry_lines import Script

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (60, 80, 100)
PLAYERS = ("美咲", "Ben", "Chie")
NO_START = "、。，．）」』】〕〉》］｝)]},.:;!?？！"
NO_END = "（「『【〔〈《［｛([{"
YAKU = ("喰付", "立三本", "猪鹿蝶", "素十六", "赤短", "青短")


def broken(text: str, width: int, whole=PLAYERS + YAKU) -> list[str]:
    """What a Japanese reader would trip over in ``text`` laid out ``width`` columns wide."""
    found = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if cell_len(line) > width:
            found.append(f"wider than {width}: {line!r}")
        if line.strip() and line.lstrip()[0] in NO_START:
            found.append(f"starts with a closing mark: {line!r}")
        if line.rstrip() and line.rstrip()[-1] in NO_END:
            found.append(f"ends with an opening mark: {line!r}")
        if i + 1 < len(lines):
            end, start = line.rstrip(), lines[i + 1].lstrip()
            if end[-1:].isdigit() and start[:1] in "文貫枚点":
                found.append(f"a number split from its word: {end[-8:]!r} / {start[:8]!r}")
            for word in whole:
                if any(end.endswith(word[:k]) and start.startswith(word[k:]) for k in range(1, len(word))):
                    found.append(f"{word} split: {end[-8:]!r} / {start[:8]!r}")
    return found


@pytest.fixture(autouse=True)
def japanese():
    lang.use("ja")


@pytest.mark.parametrize("width", range(12, 41))
def test_a_line_breaks_between_words_never_inside_a_name_or_an_amount(width):
    text = "美咲は下げを宣言しましたが、美咲の取札に出来役がありません（喰付 40文、猪鹿蝶 50文）。よろしいですか？"
    filled = layout.fill(text, width, keep=PLAYERS)
    assert broken(filled, width) == []
    assert filled.replace("\n", "").replace(" ", "") == text.replace(" ", "")  # nothing lost


def test_a_line_that_fits_keeps_its_spacing_and_english_is_left_as_it_is():
    assert layout.lines("  1h 松に鶴   8t 芒に雁", 60) == "  1h 松に鶴   8t 芒に雁"
    english = "Ben declared sage, " * 10
    assert layout.lines(english, 60) == english


def _entry(width: int, lines: list[str]) -> tuple[str, list[str]]:
    out = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    script = Script(lines)
    with pytest.raises(Aborted):
        RoundEntry(PLAYERS, "美咲", script, out).run()
    return out.file.getvalue(), script.prompts


@pytest.mark.parametrize("width", WIDTHS)
def test_the_entry_prompts_and_explanations_wrap_as_japanese_at(width):
    # each question's help, its prompts, the echoes: then end of input
    typed = ["?", "美咲", "?", "2t 3k 8h 8t 8k 10t", "?", "", "", "", "?", "", "?", "", "?", "1hk 2htk"]
    printed, prompts = _entry(width, typed)
    assert broken(printed, width) == []
    for prompt in prompts:
        assert broken(prompt.rstrip(), width) == [], prompt
        assert prompt.endswith(": ")  # the answer is typed after it, on its last line


@pytest.mark.parametrize("width", WIDTHS)
def test_a_round_s_explanations_wrap_as_japanese_at(width):
    rnd = json.loads((ROOT / "samples" / "sage-overtaken.json").read_text("utf-8"))
    rnd["players"] = ["美咲", "Ben", "Chie"]
    for key in ("hands", "teyaku", "captured"):
        if isinstance(rnd.get(key), dict):
            rnd[key] = {("美咲" if k == "Aki" else k): v for k, v in rnd[key].items()}
    rnd = {k: ("美咲" if v == "Aki" else v) for k, v in rnd.items()}
    out = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    out.print(round_view(score_dict(rnd)))
    assert broken(out.file.getvalue(), width) == []


def test_a_line_of_phrases_goes_on_at_a_phrase_its_spacing_kept():
    line = "  同じ月の何枚か:      1hk = 1h 1k   12kkk = 桐のカス3枚   3* = 桜の4枚すべて"
    assert layout.lines(line, 60).split("\n") == [
        "  同じ月の何枚か:  1hk = 1h 1k  12kkk = 桐のカス3枚", "    3* = 桜の4枚すべて"]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("given", ["cards", "counted"])
def test_a_round_s_table_keeps_its_headings_whole_and_every_amount_in_full(width, given):
    """A table's one-word headings (出来役, 特殊役) are never broken while the table fits
    without: only a table that can't fit otherwise lets them wrap, and never cuts a number."""
    rnd = json.loads((ROOT / "samples" / "night" / "01.json").read_text("utf-8"))
    rnd = json.loads(json.dumps(rnd).replace('"Aki"', '"美咲"'))
    if given == "counted":
        rnd["points"] = {p: sum(c.points for c in parse_cards(rnd["captured"].pop(p))) for p in list(rnd["captured"])}
        rnd["field"] = [c for c in rnd["field"] if c.endswith("h")] or []
        rnd["field_given"] = "lights"
    result = score_dict(rnd)
    out = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    out.print(round_view(result))
    text = out.file.getvalue()
    head = next(line for line in text.splitlines() if "プレイヤー" in line)
    assert "出来役" in head and "特殊役" in head, text
    for p, r in result.players.items():
        row = next(line for line in text.splitlines() if line.startswith(p))
        assert row.rstrip().endswith(f"{r.mon:+d}" if r.mon else "0"), (row, r.mon)
