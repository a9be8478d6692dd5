"""Japanese as a player says it: a name and its particle without a space (美咲は降ります), the
running total called 累計, 月 and 回 where players say them, one spelling of 取札, amounts
under one kan as 文, and the help's and prompts' words in Japanese.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper import lang
from scorekeeper.words import msg, say

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "scorekeeper" / "locale" / "ja" / "LC_MESSAGES" / "hachi-score.po"
#: the placeholders that hold a person's name (or names), a yaku or a list of them
NAMES = ("player", "players", "dealer", "chain", "expected", "winner", "ended", "lone", "spared", "first",
         "second", "names", "yaku")
PARTICLES = "はがをにのとでもへか"


def translations() -> list[tuple[str, str]]:
    with CATALOG.open("rb") as f:
        cat = read_po(f, locale="ja")
    out = []
    for m in cat:
        if m.id:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            out += [(ids[0], s) for s in strs]
    return out


@pytest.fixture
def ja():
    lang.use("ja")


def test_a_name_and_its_particle_are_written_without_a_space():
    pattern = re.compile(r"\{(?:%s)(?:![rs])?\} [%s](?![^\s（(、。:：])" % ("|".join(NAMES), PARTICLES))
    spaced = [s for _id, s in translations() if pattern.search(s)]
    assert spaced == []


def test_the_entry_says_a_name_with_its_particle(ja):
    assert say(msg("e.drops", player="美咲")) == "美咲は降ります"
    assert say(msg("e.plays", player="Ben")) == "Benは打ちます"


def test_the_pile_is_spelt_one_way_throughout():
    package = ROOT / "scorekeeper"
    sources = [p for p in package.rglob("*") if p.suffix in (".py", ".js", ".html")]
    assert [p.name for p in sources if "取り札" in p.read_text("utf-8")] == []
    assert [s for _id, s in translations() if "取り札" in s] == []
