"""`hachi-score stats` on a hand-built book of three nights, every figure worked out by hand.

The book (all SDIN, 小場 ×1 unless said; piles from helpers.py):

s1 "first", 2026-01-10, Aki Ben Chie:
  r1 親 Aki, EXAMPLE_PILES played out (Aki 96, Ben 80, Chie 88): 札 Ben→Aki 8.
     Aki +8, Ben −8, Chie 0; winner Aki.
  r2 親 Aki, 大場 ×2, the same piles, Ben's hand 2t 2r 2k 4t 6k 7k 10k (三本, 20):
     三本 Aki→Ben 40, Chie→Ben 40; 札 (96 − 88) × 2: Ben→Aki 16.
     Aki −24, Ben +64, Chie −40; winner Ben.
  r3 親 Ben, samples/sage-overtaken.json: Aki's hand is 赤 (30), Ben holds 赤短 and called 下げ,
     Chie ends with 猪鹿蝶 (70): 赤 Ben→Aki 30, Chie→Aki 30; Ben alone pays 猪鹿蝶 twice, 140.
     Aki +60, Ben −170, Chie +110; winner Chie.
  totals: Aki 8 − 24 + 60 = +44, Ben −8 + 64 − 170 = −114, Chie 0 − 40 + 110 = +70.
s2 "second", 2026-02-10, Aki Ben Chie:
  r1 親 Aki, samples/sage-played-out.json: Aki called 下げ on 猪鹿蝶 and the round was played out:
     half, 35 from each. Aki +70, Ben −35, Chie −35; winner Aki.
s3 "third", 2026-03-10, Aki Ben Dan:
  r1 親 Aki, TIE_PILES (Aki 93, Ben 93, Dan 78): 札 Dan→Aki 5, Dan→Ben 5.
     Aki +5, Ben +5, Dan −10; Aki and Ben tie and the 親 Aki keeps the deal: winner Aki.

Per player, over the three nights:
- Aki: 3 nights, 5 rounds, 44 + 70 + 5 = +119 文 = +11貫9文, 23.8 a round; best s2 (+70), worst
  s3 (+5); won r1, s2 r1, s3 r1 = 3; 親 in s1 r1, r2, s2 r1, s3 r1 = 4. 手役: 赤 once; 出来役:
  猪鹿蝶 once (s2); 下げ once, played out.
- Ben: 3 nights, 5 rounds, −114 − 35 + 5 = −144 = −14貫4文, −28.8 a round; best s3 (+5), worst s1
  (−114); won 1 (s1 r2); 親 1 (s1 r3). 手役: 三本 once; 出来役: 赤短 once; 下げ once, overtaken.
- Chie: 2 nights, 4 rounds, 70 − 35 = +35 = +3貫5文, 8.75 a round; best s1, worst s2; won 1; 親 0;
  出来役 猪鹿蝶 once.
- Dan: 1 night, 1 round, −10 = −1貫; won 0; 親 0.
Head to head, paid between the two (from the first's side):
- Aki v Ben: s1 +8 − 40 + 16 + 30 = +14, s2 +35, s3 0: +49 over 3 nights;
- Aki v Chie: s1 +30, s2 +35: +65 over 2; Ben v Chie: s1 +40 − 140 = −100, s2 0: −100 over 2;
- Aki v Dan: +5, Ben v Dan: +5, 1 night each.
Cumulative standings: Aki 44, 114, 119; Ben −114, −149, −144; Chie 70, 35, 35; Dan 0, 0, −10.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fast_cli import FastRunner
from helpers import BIG_FIELD, EXAMPLE_PILES, TIE_PILES, round_file
from rich.console import Console

from scorekeeper import stats
from scorekeeper.cli import app
from scorekeeper.night import read_export
from scorekeeper.odds import combination_counts, teyaku_counts
from scorekeeper.rules import profile
from scorekeeper.stats_view import StandingsChart, chart_svg, stats_view
from scorekeeper.store import Book

runner = FastRunner()
SAMPLES = Path(__file__).parent.parent / "samples"
PLAYERS = ["Aki", "Ben", "Chie"]
HANDS = 73_629_072  # C(48, 7)


def sample(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def add_night(book: Book, name: str, day: str, players: list[str], rounds: list[dict], rules: str = "sdin") -> str:
    data = read_export({"players": players, "rounds": rounds, "rules": rules, "name": name,
                        "created": f"{day}T20:00:00+09:00"})
    return book.import_session(data)


def three_nights(path: Path) -> Book:
    book = Book.open(path)
    add_night(book, "first", "2026-01-10", PLAYERS, [
        round_file(EXAMPLE_PILES),
        round_file(EXAMPLE_PILES, field=BIG_FIELD, hands={"Ben": "2t 2r 2k 4t 6k 7k 10k"}),
        sample("sage-overtaken.json"),
    ])
    add_night(book, "second", "2026-02-10", PLAYERS, [sample("sage-played-out.json")])
    tie = {"Aki": TIE_PILES["Aki"], "Ben": TIE_PILES["Ben"], "Dan": TIE_PILES["Chie"]}
    add_night(book, "third", "2026-03-10", ["Aki", "Ben", "Dan"], [round_file(tie, players=["Aki", "Ben", "Dan"])])
    return book


@pytest.fixture
def book(book_file):
    return three_nights(book_file)


def stats_json(*args: str) -> dict:
    result = runner.invoke(app, ["stats", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_every_figure_of_the_three_nights(book):
    data = stats_json()
    assert data["profiles"] == ["sdin"] and "by_profile" not in data
    players = data["players"]
    assert list(players) == ["Aki", "Ben", "Chie", "Dan"]
    want = {  # nights, rounds, mon, kan, average, best, worst, won, 親
        "Aki": (3, 5, 119, "+11貫9文", 23.8, ("s2", 70), ("s3", 5), 3, 4),
        "Ben": (3, 5, -144, "-14貫4文", -28.8, ("s3", 5), ("s1", -114), 1, 1),
        "Chie": (2, 4, 35, "+3貫5文", 8.75, ("s1", 70), ("s2", -35), 1, 0),
        "Dan": (1, 1, -10, "-1貫", -10.0, ("s3", -10), ("s3", -10), 0, 0),
    }
    for p, (nights, rounds, mon, kan, avg, best, worst, won, dealer) in want.items():
        me = players[p]
        assert (me["nights"], me["rounds"], me["mon"], me["kan"], me["average"]) == (nights, rounds, mon, kan, avg), p
        assert (me["best"]["session"], me["best"]["mon"]) == best, p
        assert (me["worst"]["session"], me["worst"]["mon"]) == worst, p
        assert (me["won"], me["dealer"]) == (won, dealer), p
    held = {p: {y: row["held"] for y, row in me["teyaku"].items() if row["held"]} for p, me in players.items()}
    assert held == {"Aki": {"赤": 1}, "Ben": {"三本": 1}, "Chie": {}, "Dan": {}}
    assert {p: me["teyaku_all"]["held"] for p, me in players.items()} == {"Aki": 1, "Ben": 1, "Chie": 0, "Dan": 0}
    assert {p: me["dekiyaku"] for p, me in players.items()} == {
        "Aki": {"猪鹿蝶": 1}, "Ben": {"赤短": 1}, "Chie": {"猪鹿蝶": 1}, "Dan": {}}
    assert players["Aki"]["sage"] == {"shoubu": 0, "cancel": 0, "overtaken": 0, "played_out": 1, "declared": 1}
    assert players["Ben"]["sage"] == {"shoubu": 0, "cancel": 0, "overtaken": 1, "played_out": 0, "declared": 1}
    assert players["Chie"]["sage"]["declared"] == 0
    assert all(me["special"] == {} for me in players.values())
    h2h = {(r["a"], r["b"]): (r["nights"], r["net"]) for r in data["head_to_head"]}
    assert h2h == {("Aki", "Ben"): (3, 49), ("Aki", "Chie"): (2, 65), ("Ben", "Chie"): (2, -100),
                   ("Aki", "Dan"): (1, 5), ("Ben", "Dan"): (1, 5)}
    assert data["chart"]["standings"] == {"Aki": [44, 114, 119], "Ben": [-114, -149, -144], "Chie": [70, 35, 35],
                                          "Dan": [0, 0, -10]}
    assert [n["session"] for n in data["chart"]["nights"]] == ["s1", "s2", "s3"]


def test_the_expected_teyaku_are_the_exact_odds_times_the_hands_seen(book):
    """Aki played 5 rounds: each 手役 is expected 5 × count / C(48, 7) times; any 手役 5 × (1 −
    none / C(48, 7))."""
    data = stats_json()
    counts = teyaku_counts(rules=profile("sdin"))
    for p, me in data["players"].items():
        n = me["rounds"]
        for y, row in me["teyaku"].items():
            assert row["expected"] == round(n * counts[y] / HANDS, 3), (p, y)
            assert row["probability"] == pytest.approx(counts[y] / HANDS, rel=1e-12)
        assert me["teyaku_all"]["probability"] == pytest.approx(1 - counts[None] / HANDS, rel=1e-12)
        assert me["teyaku_all"]["expected"] == round(n * (1 - counts[None] / HANDS), 3)


def test_fudawiki_odds_count_each_group_best():
    rules = profile("fudawiki")
    odds = stats.teyaku_odds(rules)
    combos = combination_counts(rules=rules)
    total = sum(combos.values())
    for name, p in odds["teyaku"].items():
        assert p == pytest.approx(sum(n for c, n in combos.items() if name in c) / total, rel=1e-12)
    assert odds["any"] == pytest.approx(1 - combos[(None, None)] / total, rel=1e-12)


def test_how_unusual_in_words():
    """Chie holds no 手役 in 12 rounds: P(X = 0) = (1 − p)^12, with p = 0.2603 about 0.0269:
    about 1 in 37."""
    p = stats.teyaku_odds(profile("sdin"))["any"]
    tail = stats.binomial_tail(0, 12, p)
    assert tail == pytest.approx((1 - p) ** 12, rel=1e-9)
    assert stats.unusual_words(0, 12 * p, tail) == "about 1 in 37 (fewer than expected)"
    # the upper tail: 3 or more of 3 at p = 1/2 is 1/8
    assert stats.binomial_tail(3, 3, 0.5) == pytest.approx(0.125)
    assert stats.binomial_tail(2, 3, 0.5) == pytest.approx(0.5)
    assert stats.unusual_words(2, 1.5, 0.5) == "as expected"
    assert stats.binomial_tail(0, 0, 0.3) == 1.0
    assert "billion" in stats.unusual_words(0, 300, stats.binomial_tail(0, 1000, 0.3))


def test_choosing_nights(book):
    since = stats_json("--since", "2026-02-01")
    assert {p: me["nights"] for p, me in since["players"].items()} == {"Aki": 2, "Ben": 2, "Chie": 1, "Dan": 1}
    assert since["players"]["Aki"]["mon"] == 75
    until = stats_json("--until", "2026-01-10")
    assert until["sessions"] == 1 and until["players"]["Chie"]["mon"] == 70
    dan = stats_json("--player", "Dan")
    assert dan["sessions"] == 1 and dan["players"]["Dan"]["mon"] == -10
    none = stats_json("--rules", "fudawiki")
    assert none == {**none, "profiles": [], "players": {}}
    result = runner.invoke(app, ["stats", "--since", "January"])
    assert result.exit_code == 2 and "not a date" in result.stderr


def test_two_house_profiles_of_one_name_are_two_profiles(book_file):
    """Two house files both named "house", one at kan 10 and one at kan 12: two groups, each
    named with its profile's key; a third night under the first profile joins the first group."""
    from scorekeeper.rules import SDIN

    book = Book.open(book_file)
    ten, twelve = SDIN._replace(name="house"), SDIN._replace(name="house", kan=12)
    for name, rules, seats in (("a", ten, PLAYERS), ("b", twelve, PLAYERS), ("c", ten, PLAYERS[::-1])):
        rnd = round_file(EXAMPLE_PILES, players=seats, dealer=seats[0])  # "c" seated otherwise: another night
        book.import_session(read_export({"players": seats, "rounds": [rnd], "name": name,
                                         "profile": rules.to_dict(), "created": "2026-05-01T20:00:00+09:00"}))
    data = stats_json()
    assert len(data["profiles"]) == 2 and all(p.startswith("house (") for p in data["profiles"])
    first, second = (data["by_profile"][p]["players"]["Aki"] for p in data["profiles"])
    assert (first["nights"], second["nights"]) == (2, 1)
    assert first["mon"] == 2 * second["mon"] != 0  # the same round (card points only) twice, and once
    assert stats_json("--rules", "house")["profiles"] == data["profiles"]  # chosen by name, still apart
    one = Book.open(book_file)
    assert stats.profile_groups([one.digest("s1"), one.digest("s3")]).keys() == {"house"}  # one profile: its name


def test_nights_under_different_profiles_are_never_added_together(book):
    add_night(book, "fourth", "2026-04-10", PLAYERS, [round_file(EXAMPLE_PILES)], rules="fudawiki")
    data = stats_json()
    assert data["profiles"] == ["sdin", "fudawiki"]
    assert "players" not in data
    assert data["by_profile"]["sdin"]["players"]["Aki"]["mon"] == 119
    summary = json.loads(runner.invoke(app, ["summary", "s4", "--json"]).stdout)
    assert {p: me["mon"] for p, me in data["by_profile"]["fudawiki"]["players"].items()} == summary["totals"]
    assert stats_json("--rules", "traditional")["players"]["Aki"]["nights"] == 1  # an alias names its profile
    assert stats_json("--rules", "sdin")["players"]["Aki"]["mon"] == 119
    shown = runner.invoke(app, ["stats"])  # a block per profile
    assert shown.exit_code == 0 and "rules sdin" in shown.stdout and "rules fudawiki" in shown.stdout, shown.output


@pytest.mark.parametrize("width", [60, 120])
def test_the_chart_fits_the_terminal(book, width):
    data = stats_json()
    console = Console(width=width, record=True, force_terminal=False, color_system=None)
    console.print(StandingsChart(data["chart"]))
    lines = console.export_text().splitlines()
    assert lines and all(len(line) <= width for line in lines)
    assert "night 1" in lines[-2] and "night 3" in lines[-2]
    assert "Aki +119" in lines[-1] and "Dan -10" in lines[-1]
    console.print(stats_view(data))  # the whole view renders at this width
    text = console.export_text()
    assert "Aki v Ben" in text and "+11貫9文" in text


def test_the_chart_as_svg_parses_as_xml(book, tmp_path):
    out = tmp_path / "chart.svg"
    result = runner.invoke(app, ["stats", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    lines = root.findall(".//{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 4  # one per player
    assert len(lines[0].get("points").split()) == 3  # one point per night
    # names typed by people are escaped
    assert "<" in chart_svg({"profiles": ["a<b"], "chart": {"nights": [{}], "standings": {"A&B": [1]}}})
    ET.fromstring(chart_svg({"profiles": ["a<b"], "chart": {"nights": [{}], "standings": {"A&B": [1]}}}))
    ET.fromstring(chart_svg({"profiles": [], "players": {}}))


def test_an_empty_book(book_file):
    Book.open(book_file).new_session(["Aki", "Ben", "Chie"])  # a book: no night is chosen from 2999 on
    data = stats_json("--since", "2999-01-01")
    assert data["profiles"] == [] and data["players"] == {}
    result = runner.invoke(app, ["stats", "--since", "2999-01-01"])
    assert result.exit_code == 0 and "nothing to add up" in result.stdout, result.output


def test_no_book_at_the_path_given(book_file):
    result = runner.invoke(app, ["stats"])
    assert result.exit_code == 0 and result.stderr.startswith(f"hachi-score: no book at {book_file}"), result.output
    assert not book_file.exists()  # and nothing was made


@pytest.mark.parametrize("width", [40, 60, 80])
def test_the_chart_of_one_night_of_seven_names_its_night_once_and_each_player_by_a_mark_of_their_own(width):
    """One night: 'night 1' once, not at both ends; seven players (TRADITIONAL §11.5): seven marks;
    the key laid out as many to a line as fit, never a player's mark, name and standing broken."""
    players = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Gen"]
    chart = {"nights": [{}], "standings": {p: [10 * i - 30] for i, p in enumerate(players)}}
    console = Console(width=width, record=True, force_terminal=False, color_system=None)
    console.print(StandingsChart(chart))
    lines = console.export_text().splitlines()
    assert all(len(line) <= width for line in lines)
    axis = next(i for i, line in enumerate(lines) if "night" in line)
    assert lines[axis].split() == ["night", "1"]
    entries = [e for line in lines[axis + 1:] for e in re.findall(r"(\S) (\w+) ([+-]\d+)", line)]
    assert [name for _, name, _ in entries] == players  # each whole, on one line
    assert len({mark for mark, _, _ in entries}) == 7
