"""Issue 33, point 6: the README's keystroke figures are what `benchmarks/keystrokes.py` prints
now, in English and in Japanese: the bundled night card by card and with counted piles, and the
simulated 5-seat night both ways."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def figures() -> dict[tuple[str, str], dict]:
    spec = importlib.util.spec_from_file_location("keystrokes", ROOT / "benchmarks" / "keystrokes.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    nights = {"bundled": (bench.bundled_night(), bench.profile("sdin")),
              "seated": (bench.seated_night(), bench.profile("fudawiki"))}
    return {(night, way): bench.summary(night, way, bench.type_night(rounds, rules, way))
            for night, (rounds, rules) in nights.items() for way in ("cards", "counted")}


def test_the_readmes_quote_the_keystrokes_the_benchmark_counts(figures):
    cards, counted = figures["bundled", "cards"], figures["bundled", "counted"]
    seated = f"{figures['seated', 'cards']['keystrokes']} → {figures['seated', 'counted']['keystrokes']}"
    plain, stop = counted["by_kind"]["plain"]["median"], counted["by_kind"]["stop"]["median"]
    assert all(s["amounts_unchanged"] for s in figures.values())
    english = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert (f"the bundled night took {cards['keystrokes']} ({cards['per_round']} a round) card by card, and "
            f"{counted['keystrokes']} ({counted['per_round']} a round; a plain round's median {plain}, a stop "
            f"round's {stop:g}) now; a simulated 5-seat night {seated}.") in english
    japanese = (ROOT / "README.ja.md").read_text(encoding="utf-8")
    assert (f"同梱の夜は札を一枚ずつ入力して {cards['keystrokes']}（1 回 {cards['per_round']}）、今は "
            f"{counted['keystrokes']}（1 回 {counted['per_round']}。通常の回の中央値 {plain}、上がりの回 {stop:g}）。"
            f"模擬の 5 人の夜は {seated} です。") in japanese
