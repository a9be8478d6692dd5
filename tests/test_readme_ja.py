"""README.ja.md is README.md's Japanese twin: the same two set-up commands first, each section's
twin, the same commands in its examples, links both ways, and every in-page link lands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main

from scorekeeper.cli import app

ROOT = Path(__file__).resolve().parent.parent
EN = (ROOT / "README.md").read_text(encoding="utf-8")
JA = (ROOT / "README.ja.md").read_text(encoding="utf-8")


def blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block: (its language, its text)."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)


def commands(block: str) -> list[str]:
    """A shell block's lines without their comments (the comments are what is translated)."""
    return [re.sub(r"\s+#\s.*$", "", line).rstrip() for line in block.splitlines() if line.strip()]


def headings(text: str) -> list[str]:
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.findall(r"^(#{1,6}) ", text, re.M)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_japanese_readme_opens_with_the_same_two_set_up_commands():
    en, ja = blocks(EN)[0], blocks(JA)[0]
    assert en[0] == ja[0] == "sh"
    assert ja[1] == en[1] and len(commands(en[1])) == 2
    assert JA.startswith("# hachi-score\n\n```sh\n" + en[1] + "```\n")


def test_each_readme_links_to_the_other_right_after_the_set_up_commands():
    after_en = EN.split("```", 2)[2].lstrip("\n").splitlines()[0]
    after_ja = JA.split("```", 2)[2].lstrip("\n").splitlines()[0]
    assert after_en == "[日本語](README.ja.md)"
    assert after_ja == "[English](README.md)"


def test_every_section_has_its_twin():
    assert headings(JA) == headings(EN)


def test_the_examples_are_the_same_commands_and_outputs():
    en, ja = blocks(EN), blocks(JA)
    assert [kind for kind, _ in ja] == [kind for kind, _ in en]
    for (kind, e), (_, j) in zip(en, ja):
        if kind == "sh":
            assert commands(j) == commands(e)
        else:  # round files, a dialogue, an error line: as the program reads and writes them
            assert j == e


def test_every_command_is_in_the_japanese_readme():
    for name in typer.main.get_command(app).commands:
        assert f"`{name}" in JA or f"hachi-score {name}" in JA, name


@pytest.mark.parametrize("name, text", [("README.md", EN), ("README.ja.md", JA)])
def test_every_link_within_the_page_lands_on_a_heading(name, text):
    body = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    anchors = {slug(h) for h in re.findall(r"^#{1,6} (.*)$", body, re.M)}
    links = re.findall(r"\]\(#([^)]+)\)", body)
    assert links, name
    assert [a for a in links if a not in anchors] == [], name


@pytest.mark.parametrize("text", [EN, JA])
def test_the_language_section_says_how_the_language_is_chosen_and_messages_are_added(text):
    for word in ("--lang ja", "HACHI_SCORE_LANG", "`LANGUAGE`", "`LC_ALL`", "`LC_MESSAGES`", "`LANG`",
                 "Accept-Language", "scorekeeper/locale/README.md", "python scripts/catalogs.py"):
        assert word in text, word
