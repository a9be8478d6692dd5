"""Text laid out by display width, as Japanese is broken into lines (禁則): one way for every
front that wraps prose itself (the help, the entry's prompts and echoes, rich cells and lines).

A wide character (East Asian Wide or Fullwidth) takes two columns. A line breaks at a space, or
between two Japanese characters, but never inside a piece that must stay whole: a run of narrow
characters (a word, a number, a card code, an option), a katakana word, one of the game's words,
a player's name (``keep``), a number with the word after it (``113文``), nor before a closing mark
or after an opening one. English (no wide character) is left to the caller's own wrapping.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from . import lang


def wide(ch: str) -> bool:
    """Two columns on a terminal: East Asian Wide or Fullwidth."""
    from unicodedata import east_asian_width

    return ch > "\u10ff" and east_asian_width(ch) in "WF"


def has_wide(text: str) -> bool:
    """``text`` holds a wide character (Japanese)."""
    return any(wide(ch) for ch in text)


def cols(text: str) -> int:
    """``text``'s display width: a wide character is two columns, any other one."""
    return sum(2 if wide(ch) else 1 for ch in text)


#: no line starts with these (closing marks, small kana, the long-vowel mark: 禁則) ...
_NO_START = frozenset("、。，．・：；？！ー々ゝゞぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
                      "）」』】〕〉》］｝’”)]},.:;!?%")
#: ... and no line ends with these (opening marks)
_NO_END = frozenset("（「『【〔〈《［｛‘“([{")
#: the game's words (the glossary's) and a few of the help's, never broken across lines
_GLOSSARY = (
    "八八", "出来役", "手役", "特殊役", "小場", "大場", "絶場", "場四", "逃げ料", "追い込み", "飛び込み",
    "下げ", "勝負", "場札", "取札", "手札", "場銭", "札点", "帳面", "下書き", "倍率", "成績",
    "精算", "合計", "推移", "配り直し", "上がり", "残り",
    "既定", "必須", "環境変数", "標準入力", "標準出力", "標準エラー", "終了コード",
)


@lru_cache(maxsize=1)
def _words() -> tuple[str, ...]:
    """The words never broken, the longest first: the glossary's, and the yaku and fees with their
    other spellings in Japanese alone (the catalog's, read on the first line laid out)."""
    from . import catalog

    yaku = [*(d.name for d in catalog.CATALOG), *(a for d in catalog.CATALOG for a in d.aliases if all(wide(ch) for ch in a))]
    return tuple(sorted(dict.fromkeys([*_GLOSSARY, *yaku]), key=len, reverse=True))


#: a reading in brackets, ``(たてさんぼん)``, is one piece: at most this many characters
_READING = 12
#: what closes a quoted example, a `command` or a JSON value, kept on one line in Japanese
_CLOSERS = {'"': '"', "`": "`", "{": "}", "[": "]"}


def _hiragana(ch: str) -> bool:
    return "\u3041" <= ch <= "\u309f"


def _katakana(ch: str) -> bool:
    return "\u30a1" <= ch <= "\u30fa" or ch == "ー"


def units(text: str, keep: Iterable[str] = ()) -> list[tuple[str, bool]]:
    """``text`` as the pieces a line may break between, each with whether a space was before
    it: a run of narrow characters (a word, an option name, a number, a name, a card code) is
    never broken, nor a katakana word, one of the game's words, or a number and the word after it
    (113文, 2貫, 12ラウンド, 第3); Japanese breaks between its characters, but never before a closing
    mark or after an opening one. A quoted example or a `command` is one piece where the text is
    Japanese; English breaks where click does, at spaces and after a word's hyphen. ``keep``:
    words (the players' names) never broken either, spaces and all. In Japanese a word of
    kana after a space stays on the line of the narrow word before it (``? で``, ``Enter で``)."""
    import textwrap

    english = lang.current() == lang.LANGS[0]
    names = sorted((k for k in keep if k), key=len, reverse=True)
    atoms: list[tuple[str, bool]] = []
    i, n, space = 0, len(text), False
    while i < n:
        ch = text[i]
        if ch.isspace():
            space, i = True, i + 1
            continue
        name = next((k for k in names if text.startswith(k, i)), None)
        if name is not None:
            j = i + len(name)
            while not wide(name[-1]) and j < n and not text[j].isspace() and not wide(text[j]):
                j += 1  # the name's run of narrow characters goes on: one word ("Ben," or "Benjamin")
        elif not wide(ch):
            j = i + 1
            while j < n and not text[j].isspace() and not wide(text[j]):
                j += 1
            if english:
                for k, piece in enumerate(p for p in textwrap.TextWrapper.wordsep_re.split(text[i:j]) if p):
                    atoms.append((piece, space and k == 0))
                space, i = False, j
                continue
            close = text.find(_CLOSERS[ch], i + 1) if ch in _CLOSERS else -1
            if close > j and not has_wide(text[i:close]):  # "1h 3r 8k", `hachi-score round`, {"a": 1}
                j = close + 1
            elif ch == "(" and " " not in text[i:text.find(")", i) + 1] and 0 < text.find(")", i) - i <= _READING:
                j = text.find(")", i) + 1  # (さんぼん)
                while j < n and not text[j].isspace() and not wide(text[j]):
                    j += 1
        elif _katakana(ch):
            j = i + 1
            while j < n and _katakana(text[j]):
                j += 1
        else:
            word = next((w for w in _words() if text.startswith(w, i)), ch)
            j = i + len(word)
        atoms.append((text[i:j], space))
        space, i = False, j
    out: list[tuple[str, bool]] = []
    for atom, space in atoms:
        if out and not space:
            before = out[-1][0]
            if (atom[0] in _NO_START and not (len(atom) > 1 and atom[1].isalnum())  # .bak is a name
                    or before[-1] in _NO_END
                    or before[-1].isdigit() and wide(atom[0]) or before[-1] == "第" and atom[0].isdigit()):
                out[-1] = (before + atom, out[-1][1])
                continue
        elif out and not english and _hiragana(atom[0]) and not wide(out[-1][0][-1]):
            out[-1] = (out[-1][0] + " " + atom, out[-1][1])
            continue
        out.append((atom, space))
    return out


def fill(text: str, width: int, first: str = "", rest: str = "", keep: Iterable[str] = ()) -> str:
    """One paragraph in lines of at most ``width`` columns (``first`` and ``rest``: the first
    line's indent and the others'); a piece wider than a whole line is cut where it must be."""
    lines: list[str] = []
    line, used, bare = first, cols(first), True
    room = width - max(cols(first), cols(rest))
    pieces = [(piece, space if k == 0 else True) for unit, space in units(text, keep)
              for k, piece in enumerate(unit.split(" ") if " " in unit and cols(unit) > room else [unit])]
    for unit, space in pieces:
        w = cols(unit)
        if not bare and used + space + w <= width:
            line, used = line + " " * space + unit, used + space + w
            continue
        if not bare:
            lines.append(line)
            line, used = rest, cols(rest)
        while used + w > width and len(unit) > 1:
            cut, room = 1, width - used - cols(unit[0])
            while cut < len(unit) and cols(unit[cut]) <= room:
                room -= cols(unit[cut])
                cut += 1
            lines.append(line + unit[:cut])
            line, used, unit = rest, cols(rest), unit[cut:]
            w = cols(unit)
        line, used, bare = line + unit, used + w, False
    lines.append(line)
    return "\n".join(lines)


def joined(lines: list[str]) -> str:
    """A paragraph's lines as one: a space between them, none between two Japanese characters."""
    out = ""
    for line in (line.strip() for line in lines):
        if out and line:
            out += "" if wide(out[-1]) and wide(line[0]) else " "
        out += line
    return out




def lines(text: str, width: int, keep: Iterable[str] = ()) -> str:
    """Lines for a terminal ``width`` columns wide: each line of ``text`` that holds Japanese and
    is too wide is filled (:func:`fill`) under its own indent; a line that fits is kept as it is,
    its spaces and all (a table of the card notation), and English is left as it is. A line of
    phrases set apart by two spaces or more goes on at a phrase, indented two more."""
    import re

    out = []
    for line in text.split("\n"):
        if cols(line) <= width or not has_wide(line):
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        phrases = re.split(r"\s{2,}", line.strip())
        if len(phrases) == 1:
            out.append(fill(line.strip(), width, indent, indent, keep))
            continue
        more, row = indent + "  ", indent
        for phrase in phrases:
            gap = "  " if row.strip() else ""
            if row.strip() and cols(row + gap + phrase) > width:
                out.append(row)
                row, gap = more, ""
            if cols(row + gap + phrase) > width:  # a phrase wider than a line: filled from here
                *whole, row = fill(phrase, width, row + gap, more, keep).split("\n")
                out.extend(whole)
            else:
                row += gap + phrase
        out.append(row)
    return "\n".join(out)


def prompt(text: str, width: int, keep: Iterable[str] = ()) -> str:
    """A question asked on a terminal ``width`` columns wide: :func:`lines`, the space it ends
    with (where the answer is typed) kept."""
    body = text.rstrip()
    return lines(body, width, keep) + text[len(body):]


def on_terminal(text: str, width: int) -> str:
    """A question as a terminal ``width`` columns wide shows it: :func:`prompt`, and English too
    broken at its spaces where a line is too wide, never inside a word (the terminal would cut
    it at its edge: "termina/l")."""
    import textwrap

    body = text.rstrip()
    if has_wide(body):
        return prompt(text, width)
    return "\n".join(textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False)
                     if len(line) > width else line for line in body.split("\n")) + text[len(body):]


class Prose:
    """Text for rich laid out by :func:`lines` at the width it is drawn at (Japanese), or by
    rich as it always was (English); one style."""

    def __init__(self, text: str, style: Any = "", keep: Iterable[str] = ()) -> None:
        self.text, self.style, self.keep = text, style, tuple(keep)

    def __str__(self) -> str:
        return self.text

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        text = self.text
        if has_wide(text):
            text = lines(text, options.max_width, self.keep)
        yield Text(text, style=self.style)

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        widest = max((cols(line) for line in self.text.split("\n")), default=0)
        return Measurement(min(widest, options.max_width), widest)
