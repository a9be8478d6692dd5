"""Issue 33, points 2 and 3: every message catalog entry, walked. No internal key (``captured.``,
``dekiyaku.``, ``ended_by``) in any message or in any place a problem is said to be; no English
word left untranslated in the Japanese catalog, nor a word of the operating system or the json
module that an error line quotes; and the Japanese says one thing once: 保存 only for what reaches
the book (a draft's answers are 残す), no 上がり for a cancel, no 札 before 札点, a round by its
number 第N回, brackets full-width."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper import lang
from scorekeeper.scoring import ROUND_KEYS

PO = Path(__file__).resolve().parents[1] / "scorekeeper" / "locale" / "ja" / "LC_MESSAGES" / "hachi-score.po"
PLAYER_KEYS = ("captured", "dekiyaku", "points", "kasu", "hands", "teyaku")
#: a round file's key of a player as it is: ``captured.Ben``, ``dekiyaku.{player}``
KEY = re.compile(rf"\b({'|'.join(PLAYER_KEYS)})\.[\w{{]")
#: the English a Japanese line may hold: what a person types or reads as it is (commands, the
#: entry's words, a file's keys and values, names of programs and formats, the profiles)
TYPED = {
    'Enter', 'Ctrl', 'C', 'JSON', 'CSV', 'TOML', 'UTF', 'BOM', 'NUL', 'QR', 'SVG', 'HTTP',
    'IP', 'LAN', 'ID', 'id', 'KiB', 'JavaScript', 'WebSocket', 'CSRF', 'README', 'RULES', 'TRADITIONAL', 'md', 'hachi',
    'score',
    'sdin', 'fudawiki', 'traditional', 'toml', 'json', 'bak', 'damaged', 'lock', 'sessions', 'drafts', 'cards', 'round',
    'edit', 'undo', 'use', 'show', 'summary', 'stats', 'export', 'import', 'doctor', 'serve', 'demo', 'rules',
    'odds', 'new', 'session', 'back', 'out', 'rest', 'discard', 'none', 'y', 'n', 'yes', 'no',
    'ja', 'en', 'LANG', 'HACHI', 'DEBUG', 'DB', 'SCORE', 'DATE', 'FILE', 'NAME', 'YYYY', 'MM',
    'DD', 'N', 'base', 'name', 'kan', 'values', 'mode', 'teyaku', 'special', 'inoshikacho', 'nanatan',
    'plus', 'two', 'volunteers', 'forced', 'three', 'mizuten', 'liable', 'blank', 'players', 'rounds', 'dealer', 'field',
    'hands', 'captured', 'points', 'kasu', 'dekiyaku', 'unasked', 'given', 'lights', 'sage', 'ended', 'by', 'how',
    'carry', 'pot', 'profile', 'profiles', 'play', 'split', 'result', 'shoubu', 'cancel', 'stack', 'true', 'false',
    'null', 'was', 'draft', 'meta', 'starlette', 'uvicorn', 'segno', 'ifaddr', 'pip', 'install', 'dev',
    'samples', 'house', 'Origin', 'Sec', 'Fetch', 'Site', 'Hachi', 'uXXXX', 'akatan', 'htk', 'hk', 'rkk',
    'htkk', 'kkk', 'SDIN', 'X', 'Pillow', 'image', 'FONT', 'fonts', 'noto', 'cjk',
}


def entries() -> list[tuple[str, str]]:
    """Every entry of the Japanese catalog: (English, Japanese), each plural form its own."""
    with PO.open("rb") as f:
        cat = read_po(f)
    out = []
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        out += [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strs)]
    return out


def prose(text: str) -> str:
    """``text`` without what is typed or shown as it is: placeholders, `code`, "quoted" values,
    --options, file names and card codes."""
    text = re.sub(r"\{[^{}]*\}", " ", text)
    text = re.sub(r"`[^`]*`|\"[^\"]*\"", " ", text)
    text = re.sub(r"--?[A-Za-z][\w-]*|\S*[./_\\]\S*|\b\d+[htrk*]+\b", " ", text)
    return text


#: every place of a round file a problem at the table can be in
PLACES = [*ROUND_KEYS, *(f"{k}.Ben" for k in PLAYER_KEYS), "field and hands", "the piles"]


@pytest.mark.parametrize("language", lang.LANGS)
def test_no_message_holds_a_round_file_key(language):
    """Every catalog entry, worded as the table reads it: one that says where (``{where}``) with
    every place a problem can be in, said as the table says it (:func:`check.where_said`)."""
    from scorekeeper.check import where_said

    found = []
    for en, ja in entries():
        template = en if language == "en" else ja
        fields = {f for _lit, f, _spec, _conv in string.Formatter().parse(template) if f}
        if KEY.search(template):
            found.append(template)
        if "where" not in fields:
            continue
        for place in PLACES:
            args = {f: "x" for f in fields} | {"where": where_said(place)}
            line = lang.in_language(language, lang.word, en, args)
            said = lang.in_language(language, lambda p=place: str(lang.worded(where_said(p))))
            if KEY.search(line) or said in ROUND_KEYS and said != "pot":
                found.append(line)
    assert not found, sorted(set(found))


def test_no_english_word_is_left_in_the_japanese_catalog():
    """Every entry; and the words of the operating system and of the json module that an error
    line quotes (the book's too) are entries, translated."""
    from scorekeeper.files import JSON_WORDS, OS_WORDS

    ja = dict(entries())
    left = {}
    for english in [*ja, *OS_WORDS.values(), *JSON_WORDS.values()]:
        words = set(re.findall(r"[A-Za-z][A-Za-z']+", prose(ja.get(english) or english))) - TYPED
        if words:
            left[english] = sorted(words)
    assert not left, left


def test_save_is_only_what_reaches_the_book():
    wrong = [(en, ja) for en, ja in entries()
             if "保存" in ja and not re.search(r"sav|stor", en, re.IGNORECASE)
             or re.search(r"\bkept\b|\bkeep", en) and "保存" in ja and not re.search(r"sav", en, re.IGNORECASE)]
    assert not wrong, wrong


def test_a_cancel_is_no_agari_and_card_points_are_said_once():
    assert not [ja for en, ja in entries() if "上がり" in ja and re.search(r"cancel|ended (it|the round)", prose(en))]
    assert not [ja for en, ja in entries() if re.search(r"札 ?札点|札 二人", ja)]


def test_a_round_by_its_number_is_dai_n_kai():
    assert not [ja for en, ja in entries() if re.search(r"ラウンド ?[N{\d]|第[^回]*ラウンド", ja)]


def test_japanese_brackets_are_full_width():
    """A bracket round Japanese words is full-width; a formula (×(n+1)/2) and the card notation's
    table of codes keep theirs."""
    half = [ja for en, ja in entries()
            if re.search(r"\((?:[^()`]*[\u3040-\u30ff\u4e00-\u9fff][^()`]*)\)", re.sub(r"`[^`]*`", "", ja))
            and not en.startswith("Card notation")]
    assert not half, half
    assert not [ja for en, ja in entries() if re.search(r"\S （", ja)], "a space before a full-width bracket"
