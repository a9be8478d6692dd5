"""Issue 33, the terminal's questions of two writers at 40, 60 and 80 columns in both languages:
"join it?" (a round being typed at another terminal) and "Keep 1 or 2?" (an answer typed both
ways) are laid out at the terminal's width, as every other line: no line wider than the
terminal (which would cut a word at its edge, "termina/l", "[Y/n]" halved), nothing left out."""

from __future__ import annotations

import re
import pytest
from terminals import Terminal

from scorekeeper import lang, store
from scorekeeper.layout import cols

FIELD = "1k 2k 5r 10k 12k 12k"
HAND = "3h 3k 5t 7r 9k 11r 12h"
#: where each question ends, as it is typed after (whole at any width: no space inside)
JOIN_END = {"en": "[Y/n]: ", "ja": "いいえ）: "}
KEEP_END = {"en": "[1]: ", "ja": "1）: "}


def wider_than(out: str, width: int, typed: tuple[str, ...]) -> list[str]:
    """The lines of ``out`` wider than ``width`` columns, what the person typed after a question left out."""
    found = []
    for line in out.split("\n"):
        line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line)  # readline's cursor moves take no column
        for text in typed:
            if line.endswith(text):
                line = line[: -len(text)]
        if cols(line.rstrip()) > width:
            found.append(line)
    return found


def asked(out: str, question: str, end: str) -> str:
    """The question as ``out`` shows it, its lines joined, from its first word to ``end``."""
    start = out.rindex(question.split()[0], 0, out.rindex(end))
    return out[start: out.rindex(end) + len(end)]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("width", [40, 60, 80])
def test_the_questions_of_two_writers_fit_the_terminal(book_file, width, language):
    store.Book.open(book_file).new_session(["Aki", "Ben", "Chie"])
    first = Terminal("--lang", language, "round", tty=True, columns=width)
    second = None
    try:
        first.wait_for("Aki, 2 Ben")
        first.type("", FIELD)  # the 親 (Aki), the field: the 手役 asked next
        first.wait_for("手役 Aki")
        second = Terminal("--lang", language, "round", tty=True, columns=width)
        second.wait_for(JOIN_END[language])
        join = lang.in_language(language, lambda: lang._(
            "{count} answers are typed for this round, and it is being typed now at another terminal: join it? "
            "What both type is merged, and an answer typed both ways is asked. [Y/n]: ").format(count=2))
        shown = asked(second.out, join, JOIN_END[language])
        assert "".join(shown.split()) == "".join(join.split()), shown  # nothing cut or left out
        if language == "en":
            assert shown.split() == join.split(), shown  # no word broken
        second.type("y")
        second.wait_for("手役 Aki")  # the second terminal asks Aki's 手役 too
        first.type("")  # Aki's 手役: none, at the first terminal ...
        first.wait_for("手役 Ben")
        second.type(HAND)  # ... and a hand at the second: asked which to keep
        second.wait_for(KEEP_END[language])
        keep = second.out[second.out.rindex(HAND): second.out.rindex(KEEP_END[language])]
        assert ("Keep 1" if language == "en" else "どちらを残しますか") in "".join(keep.split()).replace("Keep1", "Keep 1")
        assert wider_than(second.out, width, ("y", HAND)) == [], second.out
        assert wider_than(first.out, width, (FIELD,)) == [], first.out
    finally:
        for t in (first, second):
            if t is not None:
                t.proc.kill()
                t.proc.wait()
