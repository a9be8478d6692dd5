"""Finding English a person would read in a Japanese run: the pseudo catalog and the checker.

:class:`Pseudo` is a catalog that "translates" every message into itself wrapped in markers
(``⟦round {n} saved⟧``), placeholders untouched, so that whatever a command prints went through
the catalogs exactly where it is marked. :func:`untranslated` then reads an output and lists the
lines that still hold an English word outside the markers: text that no catalog will ever reach.

What the checker strips before it looks for English, and why (each is text that stays as it is in
a Japanese interface, by the rules of issue 20 and scorekeeper/locale/README.md):

- everything inside ``⟦ ⟧``, nested or across lines (click wraps a help text over several lines;
  a message may be an argument of another); a line that ends in click's ``...`` (a short help cut
  to fit) closes the markers it left open, as the cut took their ``⟧`` with it;
- a line that is a JSON value (``--json``, ``export``: what scripts read is never translated);
- in ``--help`` (``help=True``): the usage lines (program, command, metavars: what one types) and,
  under each section heading (``Options:``, ``Commands:`` …), the first column of names;
- what one types, said as it is typed: a ``backquoted`` span, options (``--json``, ``-h``), the
  keys of a prompt's ``[Y/n]``, key caps (Enter, Tab, Ctrl-C), the language codes ``ja``/``en``;
- names that are data or names, not words: the players and other names given (``names=``, whole
  and in any case: ``Aki``, ``aki``, ``Ben's``; a house profile ``kan12-house``), session ids (``s1``),
  the rule profiles' names (``sdin``, ``fudawiki``, ``traditional``), ``hachi-score`` itself,
  file paths and file names, URLs;
- card codes and notation (``8t``, ``1hk``, ``10trkk``, ``3*``, ``松hk``) and numbers;
- keys as a file or ``--json`` spells them (``forced_three``, ``nanatan_plus``);
- words in capitals: metavars (``PATH``, ``FILE``), environment variables (``HACHI_SCORE_DB``,
  ``LANG``), acronyms a Japanese text writes as they are (JSON, CSV, UTF-8, SVG, QR);
- the game's words in romaji (the cards' romaji names, the months, the kinds, every yaku's
  romaji from the package's own tables): Japanese words, only in Latin letters.

What is left is looked at word by word: a word of two or more ASCII letters is English, and its
line is listed. One letter alone is not looked at (a card kind ``h``, ``x`` in ``1.2x``, a player
``A``); a Latin word with a macron (``shisō``) is romaji.
"""

from __future__ import annotations

import gettext
import json
import re
from typing import Iterable

OPEN, CLOSE = "⟦", "⟧"


class Pseudo(gettext.NullTranslations):
    """Every message as itself in markers, its ``{placeholders}`` untouched."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}" if message else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


def _romaji() -> tuple[list[str], set[str]]:
    """The game's words in romaji, as the package writes them: phrases (a card's name, longest
    first: ``yanagi no kasu (kaminari)``) and single words (months, kinds, yaku)."""
    from scorekeeper.cards import FACES, MONTHS, Kind
    from scorekeeper.yaku import YAKU_ALIASES

    phrases = sorted({c.romaji for c in FACES}, key=len, reverse=True)
    words = {m.romaji for m in MONTHS} | {k.romaji for k in Kind}
    words |= {a for aliases in YAKU_ALIASES.values() for a in aliases if a.isascii()}
    words |= {"kan", "mon", "hanafuda", "kaminari"}
    return phrases, words


#: the rule profiles' names, typed after --rules
PROFILES = ("sdin", "fudawiki", "traditional")
#: keys on the keyboard, named as a Japanese keyboard names them
KEYS = ("Enter", "Tab", "Esc", "Ctrl")
#: the round file's keys (CONTRACT §3), named as the file has them: where a problem is, or what
#: a file may leave out, is said by the key the person wrote
FILE_KEYS = ("players", "dealer", "field", "hands", "teyaku", "captured", "ended_by", "sage", "how")
#: the entry's answer words (scorekeeper.names), for a caller whose text names them as typed
ANSWER_WORDS = ("back", "help", "rest", "none", "nobody", "out", "pot")

_TRUNCATED = re.compile(r"(\.\.\.|…)[" + CLOSE + r"\s]*$")
_STRIP = [
    re.compile(r"`[^`\n]*`"),                                   # `code` as typed
    re.compile(r"https?://\S+"),                                # URLs
    re.compile(r"\S*/\S*"),                                     # paths (and 1/12, a/b)
    re.compile(r"[\w.-]+\.(?:json|jsonl|csv|toml|svg|png|md|bak|lock|po|pot|mo|py|txt|damaged-\S+)\b"),
    re.compile(r"\bhachi-score\b|\bHachi-hachi\b"),
    re.compile(r"\bCtrl-[A-Z]\b"),                               # Ctrl-C
    re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=\S*)?"),         # options
    re.compile(r"\[[yYnN](?:es|o)?/[yYnN](?:es|o)?\]|\([yYnN]/[yYnN]\)"),  # [Y/n]
    re.compile(r"\bs\d+\b"),                                    # session ids
    re.compile(r"\b\d{1,2}(?:[htrk]+|\*)(?![A-Za-z])"),         # card codes, notation
    re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])(?:[htrk]+|\*)(?![A-Za-z])"),  # 松hk, 柳*
    re.compile(r"\b[A-Z][A-Z0-9_]*[A-Z0-9](?:-\d+)?\b"),        # PATH, HACHI_SCORE_DB, UTF-8
    re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"),                      # keys as typed: forced_three
]
#: a word in Latin letters (a kanji or kana next to it ends it: "札card" holds the word "card")
_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+(?:['’][A-Za-z\u00c0-\u024f]+)*")


def unmarked(text: str, cut: bool = True) -> list[str]:
    """``text``'s lines with every marked span (and its markers) blanked out, columns kept.
    ``cut``: a line ending in "…" or "..." may be click's cut of a longer one (``--help``'s command
    list), so a marker it leaves open is closed there."""
    lines, depth = [], 0
    for line in text.split("\n"):
        out = []
        for ch in line:
            if ch == OPEN:
                depth += 1
                out.append(" ")
            elif ch == CLOSE:
                depth = max(0, depth - 1)
                out.append(" ")
            else:
                out.append(" " if depth else ch)
        if cut and depth and _TRUNCATED.search(line):
            depth = 0
        lines.append("".join(out))
    return lines


def _is_json(line: str) -> bool:
    s = line.strip().lstrip("\ufeff")
    if not s or s[0] not in "{[":
        return False
    try:
        json.loads(s)
    except ValueError:
        return False
    return True


def _help_lines(raw: list[str], bare: list[str]) -> list[str]:
    """``bare`` with the usage and the name column of each section of a ``--help`` blanked."""
    out, in_usage, in_section = [], True, False
    for r, b in zip(raw, bare):
        if in_usage:
            if not r.strip():
                in_usage = False
            out.append("")
            continue
        if not r.strip():
            in_section = False
        elif not r.startswith(" ") and r.rstrip().endswith(":"):
            in_section = True  # "Options:", "⟦Options⟧:", "オプション:"
            out.append("")
            continue
        elif in_section and re.match(r"  \S", r):
            m = re.match(r"(  \S.*?)(?= {2,}|$)", b)
            if m:
                b = " " * len(m.group(1)) + b[m.end():]
        out.append(b)
    return out


def english_words(line: str, names: Iterable[str] = (), allow: Iterable[str] = ()) -> list[str]:
    """The English words left in one line once names, codes, numbers and the rest are stripped."""
    phrases, romaji = _romaji_cached()
    for p in phrases:
        line = line.replace(p, " ")
    for name in sorted(names, key=len, reverse=True):  # a name as a whole: "kan12-house", "Aki", "Akiは"
        line = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", " ", line, flags=re.I)
    for pattern in _STRIP:
        line = pattern.sub(" ", line)
    keep = set(PROFILES) | set(KEYS) | set(FILE_KEYS) | set(allow) | {"ja", "en"}
    words = []
    for w in _WORD.findall(line):
        if len(w) < 2 or not w.isascii():
            continue
        if w in keep or w.lower() in romaji:
            continue
        words.append(w)
    return words


_CACHE: list = []


def _romaji_cached() -> tuple[list[str], set[str]]:
    if not _CACHE:
        _CACHE.append(_romaji())
    return _CACHE[0]


def untranslated(text: str, *, names: Iterable[str] = (), help: bool = False,
                 allow: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` that hold English outside the markers, each as it was printed
    followed by ``  <- word word``; ``[]`` when there is none. ``names``: the players (and any
    other name typed); ``help``: ``text`` is a ``--help``; ``allow``: other words to leave alone."""
    names, allow = list(names), list(allow)
    raw = text.split("\n")
    bare = unmarked(text, cut=help)
    if help:
        bare = _help_lines(raw, bare)
    found = []
    for r, b in zip(raw, bare):
        if _is_json(r):
            continue
        words = english_words(b, names, allow)
        if words:
            found.append(f"{r.rstrip()}   <- {' '.join(words)}")
    return found
