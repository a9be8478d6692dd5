"""Issue 10, narrow terminals and what the tables say: at 60 and 80 columns no number or name is
cut (tables drop readings, romaji, notes first); the cards footer breaks between phrases; a void
出来役 says so; 特殊役 show their value; a long night's trend shows its latest rounds; money has
one format."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

import crash_harness as ch
from fast_cli import FastRunner
from scorekeeper import night, store
from scorekeeper.notation import HELP
from helpers import add_round

runner = FastRunner()
NAMES = ["Aki Tanaka", "花子さん", "Bartholomew"]
GOLDEN = Path(__file__).parent / "golden" / "sdin"


def out(args, width: int) -> str:
    result = runner.invoke(args=args, env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert all(cell_len(line) <= width for line in text.splitlines()), text
    return text


def no_cut(text: str) -> None:
    """No "…" stands for a cut: the only one allowed is the notation help's own "雷 …"."""
    assert "…" not in text.replace("雷 …", ""), text


@pytest.fixture
def book(book_file):
    b = store.Book.open(book_file)
    sid = b.new_session(NAMES, name="Friday night", rate=0.5)
    for rnd in ch.NIGHT:
        add_round(b, sid, ch.renamed(rnd, NAMES))
    return b


@pytest.mark.parametrize("width", [60, 80])
def test_summary_keeps_every_name_and_total_whole(book, width):
    text = out(["summary"], width)
    no_cut(text)
    assert "rules sdin (1貫 = 10文)" in text and "rate 0.50 per 文" in text  # phrases kept whole
    data = json.loads(runner.invoke(args=["summary", "--json"]).stdout)
    for p in NAMES:
        assert p in text
        total = data["totals"][p]
        assert re.search(rf"(?<![\d,.]){re.escape(f'{total:+d}')}(?![\d,.])", text), (p, total)
        assert night.kan(total) in text
        assert night.money_text(total, 0.5, signed=True) in text
    for pay in data["settlement"]:
        assert f"{pay['mon']}文" in text


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("n", [1, 4, 5, 8])
def test_show_keeps_every_name_and_amount_whole(book, width, n):
    text = out(["show", str(n)], width)
    no_cut(text)
    data = json.loads(runner.invoke(args=["show", str(n), "--json"]).stdout)
    from scorekeeper.notation import parse_cards

    field = json.loads(runner.invoke(args=["export"]).stdout)["rounds"][n - 1]["field"]
    for c in parse_cards(field):
        assert f"{c.code} {c.ja}" in text  # a field card and its name on one line
    assert "rules sdin (1貫 = 10文)" in text
    for p, r in data["players"].items():
        assert p in text
        assert (f"{r['mon']:+d}" if r["mon"] else "0") in text
        assert str(r["card_points"]) in text
    for pay in data["payments"]:
        assert re.search(rf"│\s+{pay['mon']} │", text)


@pytest.mark.parametrize("width", [60, 80])
def test_score_and_sessions_fit(book, width):
    for f in GOLDEN.glob("*.round.json"):
        text = out(["score", str(f)], width)
        no_cut(text)
    text = out(["sessions"], width)
    no_cut(text)
    assert "Friday night" in text and "12/12" in text and "s1" in text
    for p in NAMES:
        assert all(word in text for word in p.split())


@pytest.mark.parametrize("width", [60, 80])
def test_cards_drop_romaji_before_cutting_and_the_footer_breaks_between_phrases(width):
    text = out(["cards"], width)
    no_cut(text)
    cards = json.loads(runner.invoke(args=["cards", "--json"]).stdout)
    for c in cards:
        assert re.search(rf"│ {re.escape(c['code'])}\s+│ {re.escape(c['ja'])}\s", text), c
        assert re.search(rf"│\s+{c['points']} │ {c['count']}", text)
    lines = text.splitlines()
    for line in HELP.splitlines()[1:]:
        for phrase in re.split(r"\s{2,}|(?<=;)\s", line.strip()):
            assert any(phrase in shown for shown in lines), (phrase, text)


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("args", [["odds"], ["odds", "--rules", "fudawiki"],
                                  ["odds", "--field", "1h 3r 8k 12k 5t 9k"]])
def test_odds_keep_every_count_whole(width, args):
    text = out(args, width)
    no_cut(text)
    report = json.loads(runner.invoke(args=[*args, "--json"]).stdout)
    rows = report.get("teyaku") or [r for g in report.get("groups", {}).values() for r in g["teyaku"]]
    for row in rows:
        assert f"{row['count']:,}" in text
        if row["name"]:
            assert row["name"] in text


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("name", ["sdin", "fudawiki"])
def test_rules_keep_every_value_whole(width, name):
    text = out(["rules", name], width)
    no_cut(text)
    values = json.loads(runner.invoke(args=["rules", name, "--json"]).stdout)["values"]
    for yaku, kan in values.items():
        assert re.search(rf"{re.escape(yaku)}\s+│\s+{kan} │", text), (yaku, kan)


# -- 6. what the tables say ----------------------------------------------------------------------


def test_a_void_dekiyaku_is_shown_void():
    text = out(["score", str(GOLDEN / "sage-overtaken.round.json")], 120)
    ben = next(line for line in text.splitlines() if line.startswith("Ben"))
    assert "赤短 70 (void)" in ben
    chie = next(line for line in text.splitlines() if line.startswith("Chie"))
    assert "猪鹿蝶 70" in chie and "void" not in chie


@pytest.mark.parametrize("name, shown", [("special-nihachi", "二八 120"), ("special-sujiroku", "素十六 "),
                                         ("special-sohachi", "総八 100")])
def test_special_yaku_show_their_value(name, shown):
    text = out(["score", str(GOLDEN / f"{name}.round.json")], 120)
    assert shown in text
    assert re.search(r"(総八|二八|素十六) \d+", text)


def test_a_long_nights_trend_shows_the_latest_rounds(book_file):
    b = store.Book.open(book_file)
    sid = b.new_session(ch.PLAYERS, rate=10)
    rounds = (ch.NIGHT * 4)[:40]
    for rnd in rounds:
        add_round(b, sid, ch.bare(rnd))
    text = out(["summary"], 80)
    no_cut(text)
    stored = b.session(sid)
    results = night.replay(stored)
    trend = night.balances(results, ch.PLAYERS)
    every = [v for vs in trend.values() for v in vs]
    from scorekeeper.night_view import sparkline

    for p in ch.PLAYERS:
        line = next(line for line in text.splitlines() if line.startswith(p + " "))
        assert line.rstrip().endswith(sparkline(trend[p][-12:], min(every + [0]), max(every + [0])))
    assert "trend (last 12)" in text


def test_money_has_one_format(book):
    text = out(["summary"], 100)
    settled = re.findall(r"\) = (\S+)$", text, re.M)
    standings = [line.split("│")[3].strip() for line in text.splitlines()
                 if line.count("│") >= 4 and line.split("│")[0].strip() in NAMES]
    assert len(settled) == 2 and len(standings) == 3
    assert all(re.fullmatch(r"[+-]?[\d,]+\.\d\d", m) for m in settled + standings), (settled, standings)
    assert "rate 0.50 per 文" in text
    assert night.money_text(-7, 2.5) == "-17.50" and night.money_text(160, 10) == "1,600"
    assert night.money_text(3, 0.5) == "1.50" and night.money_text(4, 0.5) == "2.00"
