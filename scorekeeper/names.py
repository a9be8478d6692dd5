"""Player names: the one place where typed text is folded, and where "which player did they mean"
is answered (the entry's questions and ``new-session --dealer`` both ask it here).

Two names are the same name when they are equal after :func:`fold`: Unicode compatibility
(NFKC: full-width ``Ａｋｉ`` is ``Aki``), case, and runs of spaces. The words the entry answers
with (``back``, ``rest``, ``?``, ``-``, ``pot`` …) can't be names. Pure and light: no rich, no book.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any, Sequence

from .lang import L_, N_, Said, quote


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """``text`` as compared: NFKC, case-folded, spaces collapsed and trimmed. Cached: a batch
    folds the same few names for every round."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


#: answers of the entry (scorekeeper.entry) at any question, or where a player is asked
BACK_WORDS = frozenset({"back", "戻る", "もどる"})
HELP_WORDS = frozenset({"?", "help"})
NONE_WORDS = frozenset({"-", "none", "nobody", "なし"})
PLAYED_OUT_WORDS = NONE_WORDS | {"out", "played out", "最後まで"}
REST_WORDS = frozenset({"rest", "残り"})

#: words that can't be a player's name: the entry would take them as the word (and ``pot`` names
#: the pot in payments, CONTRACT §7)
RESERVED = frozenset({fold(w) for w in BACK_WORDS | HELP_WORDS | PLAYED_OUT_WORDS | REST_WORDS} | {"pot"})


class PlayerError(ValueError):
    """A typed player that is no player, or could be more than one: one line (``message``, a
    :class:`~scorekeeper.lang.Said` a phone words again)."""

    def __init__(self, message: Said) -> None:
        super().__init__(message)
        self.message = message


def tidy(text: str) -> str:
    """A name as typed, made as it is kept: NFC (one code point for ``が``, however typed) and
    without surrounding spaces."""
    return unicodedata.normalize("NFC", text).strip()


#: the kinds of character a name can't hold (Unicode categories), said in an error line: they
#: show nothing, or turn the text around them (U+202E), or break the line
_NOT_IN_A_NAME = {"Cc": N_("a control character"), "Cf": N_("an invisible formatting character"),
                  "Zl": N_("a line separator"), "Zp": N_("a paragraph separator"),
                  "Co": N_("a private-use character"), "Cn": N_("an unassigned code point")}
#: the zero-width joiner is Cf, and joins emoji (👨‍👩‍👧): taken between two symbols
_ZWJ = "\u200d"


def bad_character(name: str) -> Said | None:
    """The line for a name holding a character no name may hold (:data:`_NOT_IN_A_NAME`:
    control, format, separator, private-use or unassigned), naming it as ``U+202E``; or None."""
    for i, ch in enumerate(name):
        kind = unicodedata.category(ch)
        if kind not in _NOT_IN_A_NAME or (ch == _ZWJ and _joins_emoji(name, i)):
            continue
        code = f"U+{ord(ch):04X}"
        char = f"{code} {unicodedata.name(ch)}" if unicodedata.name(ch, "") else code
        return L_("the name {name} holds {char}, {what}: type the name without it", name=quote(name), char=char,
                  what=Said(_NOT_IN_A_NAME[kind]))
    return None


def _joins_emoji(name: str, i: int) -> bool:
    """The joiner at ``i`` stands between two emoji (a symbol, its variation selector or skin tone
    before it, a symbol after it)."""
    before = unicodedata.category(name[i - 1]) if i > 0 else ""
    after = unicodedata.category(name[i + 1]) if i + 1 < len(name) else ""
    return before in ("So", "Sk", "Mn") and after == "So"


def name_problem(players: Sequence[str]) -> Said | None:
    """What makes these names unfit for one table, or None: a character no name may hold, a
    reserved word, or two names that fold to the same."""
    for p in players:
        if bad := bad_character(p):
            return bad
    for p in players:
        if fold(p) == "pot":
            return L_("{name} is not a player's name: it names the pot in payments", name=quote(p))
        if fold(p) in RESERVED:
            return L_("{name} is a word the entry uses ({word}), not a name: pick another name",
                      name=quote(p), word=fold(p))

    seen: dict[str, str] = {}
    for p in players:
        key = fold(p)
        if key in seen:
            if seen[key] == p:
                return L_("{name} is named twice: the players must be distinct names", name=quote(p))
            return L_("{first} and {second} are the same name (case, width and spaces aside): "
                      "the players must be distinct names", first=quote(seen[key]), second=quote(p))
        seen[key] = p
    return None


def number_named(players: Sequence[str]) -> Said | None:
    """A new night's player named by a number alone (``2``: the player named 2, or the second
    player? A player is answered by number everywhere), or None. A round file may still name
    such players (CONTRACT §3): a new session may not."""
    for p in players:
        if fold(p).isdigit():
            return L_("{name} is a number, and a player may be answered by number: pick a name", name=quote(p))
    return None


def resolve_player(text: str, players: Sequence[str]) -> str:
    """The player ``text`` means: the name (in any case or width), its number in play order
    (from 1), or the unique start of a name. :class:`PlayerError` otherwise ("ambiguous" when the
    start fits more than one)."""
    if text in players:
        return text
    folded = fold(text)
    same = [p for p in players if fold(p) == folded]
    if len(same) == 1:
        return same[0]
    if folded.isdecimal() and 1 <= int(folded) <= len(players):
        return players[int(folded) - 1]
    start = [p for p in players if folded and fold(p).startswith(folded)]
    if len(start) == 1:
        return start[0]
    if len(start) > 1:
        raise PlayerError(L_("{text} is ambiguous: {names}? type more of the name, or its number",
                             text=quote(text), names=either(start)))
    raise PlayerError(L_("{text} is not a player", text=quote(text)))


def either(names: Sequence[str]) -> Any:
    """``Aki or Aya``: names said as a choice (a message, worded again where it is read)."""
    said: Any = names[0]
    for name in names[1:]:
        said = L_("{first} or {second}", first=said, second=name)
    return said
