"""Issue 33, point 1: a table never cuts a number or a name, at 40, 60 and 80 columns, in English
and in Japanese. Where no table fits, its rows are stacked (each row's name on a line, its cells
under it); every number and name of the result is found whole on one line: the players, each
yaku with its value (``立三本 30``), each player's 文 and card points, every payment."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fast_cli import FastRunner
from helpers import add_round
from rich.cells import cell_len

from scorekeeper import store
from scorekeeper.rules import profile

runner = FastRunner()
GOLDEN = Path(__file__).parent / "golden"
NIGHT = sorted((Path(__file__).parents[1] / "scorekeeper" / "data" / "night").glob("*.json"))
#: long names, a name of two words and Japanese ones: what a narrow table breaks first
NAMES = ["Aki Tanaka", "花子さん", "Bartholomew", "大輔", "Eri", "Fumiko"]
WIDTHS = [40, 60, 80]
LANGS = ["en", "ja"]


def renamed(data: dict) -> dict:
    """A round file with its players renamed (Aki → Aki Tanaka, Ben → 花子さん …), everywhere."""
    to = dict(zip(["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi"], NAMES))

    def one(value):
        if isinstance(value, str):
            return to.get(value, value)
        if isinstance(value, list):
            return [one(v) for v in value]
        if isinstance(value, dict):
            return {to.get(k, k): v for k, v in value.items()}
        return value

    return {k: (v if k in ("field", "hands", "captured", "points", "kasu", "dekiyaku", "carry", "pot") and
                not isinstance(v, dict) else one(v)) for k, v in data.items()}


def shown(args: list[str], width: int, language: str) -> str:
    result = runner.invoke(args=["--lang", language, *args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    text = result.stdout
    too_wide = [line for line in text.splitlines() if cell_len(line) > width]
    assert not too_wide, text
    assert "…" not in text, text  # nothing is cut short
    return text


def whole(text: str, word: str) -> bool:
    """``word`` on one line, not part of a longer number."""
    pattern = rf"(?<![\d,.+]){re.escape(word)}(?![\d,.])" if word[-1].isdigit() else re.escape(word)
    return any(re.search(pattern, line) for line in text.splitlines())


def assert_result_whole(text: str, data: dict, rules) -> None:
    """Every number and name of a round's result (its ``--json``) whole on a line of ``text``."""
    missing = []
    for p, r in data["players"].items():
        wanted = [p, f"{r['mon']:+d}" if r["mon"] else "0" if r["role"] == "played" else "–"]
        if r["role"] == "played" and r.get("pile", "cards") in ("cards", "counted"):
            wanted.append(str(r["card_points"]))
        wanted += [f"{t} {rules.mon(rules.teyaku[t])}" for t in r["teyaku_all"]]
        wanted += [*r["dekiyaku"], *r["special"]]
        wanted += [f"{b} {rules.mon(rules.bonuses[b])}" for b in r["bonuses"]]
        missing += [w for w in wanted if not whole(text, w)]
    missing += [str(pay["mon"]) for pay in data["payments"] if not whole(text, str(pay["mon"]))]
    assert not missing, (missing, text)


def golden_rounds() -> list[tuple[str, Path]]:
    return [(rules, f) for rules in ("sdin", "fudawiki") for f in sorted((GOLDEN / rules).glob("*.round.json"))
            if "bashi" not in f.name]


@pytest.mark.parametrize("language", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("rules, path", golden_rounds(), ids=lambda x: getattr(x, "stem", x))
def test_a_round_s_result_keeps_every_number_and_name_whole(tmp_path, rules, path, width, language):
    f = tmp_path / "round.json"
    f.write_text(json.dumps(renamed(json.loads(path.read_text(encoding="utf-8"))), ensure_ascii=False),
                 encoding="utf-8")
    data = json.loads(runner.invoke(args=["score", "--rules", rules, "--json", str(f)]).stdout)
    text = shown(["score", "--rules", rules, str(f)], width, language)
    assert_result_whole(text, data, profile(rules))


@pytest.fixture
def night(book_file):
    b = store.Book.open(book_file)
    sid = b.new_session(NAMES[:3], name="Friday night", rate=0.5)
    for path in NIGHT:
        add_round(b, sid, renamed({k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items()
                                   if k not in ("players", "dealer")}))
    return b


@pytest.mark.parametrize("language", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("n", [1, 4, 5, 8, 11])
def test_show_keeps_every_number_name_and_card_whole(night, n, width, language):
    data = json.loads(runner.invoke(args=["show", str(n), "--json"]).stdout)
    text = shown(["show", str(n)], width, language)
    assert_result_whole(text, data, profile("sdin"))
    for p, pile in data["file"]["captured"].items():
        assert all(whole(text, code) for code in pile), (p, text)


@pytest.mark.parametrize("language", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_night_s_tables_keep_every_total_and_name_whole(night, width, language):
    data = json.loads(runner.invoke(args=["summary", "--json"]).stdout)
    text = shown(["summary"], width, language)
    for p, total in data["totals"].items():
        assert whole(text, p) and whole(text, f"{total:+d}"), (p, text)
    text = shown(["sessions"], width, language)
    assert whole(text, "Friday night") and all(whole(text, p) for p in NAMES[:3]), text
    text = shown(["stats"], width, language)
    assert all(whole(text, p) for p in NAMES[:3]), text


@pytest.mark.parametrize("language", LANGS)
@pytest.mark.parametrize("width", WIDTHS)
def test_an_edit_s_changed_results_keep_every_amount_whole(width, language):
    """The table `edit N` shows after an edit: every player's 文, old → new, whole."""
    from rich.console import Console

    from scorekeeper import lang
    from scorekeeper.entry import changes_view
    from scorekeeper.scoring import score_dict

    old = [score_dict(renamed(json.loads((GOLDEN / "fudawiki" / f"{name}.round.json").read_text("utf-8"))),
                      rules=profile("fudawiki")) for name in ("five-two-drops", "five-two-drops-doubled")]
    new = [old[0], old[0]]
    players = list(old[0].players)
    console = Console(width=width, record=True, color_system=None)
    lang.in_language(language, lambda: console.print(changes_view(players, old, new, [2])))
    text = console.export_text()
    assert all(cell_len(line) <= width for line in text.splitlines()) and "…" not in text, text
    for p in players:
        before, after = old[1].mon(p), new[1].mon(p)
        said = f"{before:+d} → {after:+d}" if before != after else f"{after:+d}"
        assert whole(text, p) and whole(text, said), (p, said, text)
