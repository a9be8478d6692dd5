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

from .lang import L_, Said, quote


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


def name_problem(players: Sequence[str]) -> Said | None:
    """What makes these names unfit for one table, or None: a reserved word, or two names that
    fold to the same."""
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
    if folded.isdigit() and 1 <= int(folded) <= len(players):
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
