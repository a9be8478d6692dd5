"""Issue 20, the views in Japanese: `demo`, `summary`, `show N`, `sessions`, `stats`, `rules`,
`cards`, `odds` and `score FILE` under ``--lang ja`` (or ``LANG=ja_JP.UTF-8``) say their titles,
headers and lines in Japanese, and no English header is left; at 80 and 60 columns every line
fits and no name, yaku or amount is split across two lines; ``--json`` (and ``export``'s JSON
and CSV) are byte for byte the same in both languages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

import crash_harness as ch
from fast_cli import FastRunner
from helpers import add_round
from scorekeeper import lang, night, store
from scorekeeper.render import FitTable, Phrased, phrases

runner = FastRunner()
NAMES = ["Aki Tanaka", "花子さん", "Bartholomew"]
GOLDEN = Path(__file__).parent / "golden"
WIDTHS = [60, 80]
FIELD = "1h 3r 8k 12k 5t 9k"
HAND = "1k 1r 2t 2r 3k 4r 4k"


def run(args: list[str], width: int = 80, language: str = "ja", code: int = 0, env: dict | None = None):
    result = runner.invoke(args=["--lang", language, *args], env={"COLUMNS": str(width), **(env or {})})
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result


def shown(args: list[str], width: int) -> str:
    """``args``'s screen in Japanese at ``width`` columns: every line fits, nothing is cut."""
    text = run(args, width).stdout
    assert all(cell_len(line) <= width for line in text.splitlines()), text
    assert "…" not in text.replace("雷 …", ""), text  # a cut cell shows "…"
    return text


def english(text: str, *words: str) -> list[str]:
    """The English ``words`` (headers and the like) that ``text`` still says."""
    return [w for w in words if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text, re.IGNORECASE)]


def whole(text: str, phrase: str) -> bool:
    """``phrase`` stands on one line of ``text`` (not broken across two)."""
    return any(phrase in line for line in text.splitlines())


def whole_amount(text: str, amount: str) -> bool:
    """``amount`` (``113文``, ``+2貫2文``, ``-182``) on one line, not part of a longer number."""
    pattern = rf"(?<![\d,.]){re.escape(amount)}(?![\d,.])"
    return any(re.search(pattern, line) for line in text.splitlines())


@pytest.fixture
def book(book_file):
    """The bundled demo night, its players renamed: a name with a space, a Japanese name."""
    b = store.Book.open(book_file)
    sid = b.new_session(NAMES, name="金曜の夜", rate=0.5)
    for rnd in ch.NIGHT:
        add_round(b, sid, ch.renamed(rnd, NAMES))
    return b


def json_of(args: list[str]) -> dict:
    return json.loads(run([*args, "--json"], language="en").stdout)


# -- summary and demo ---------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_summary_speaks_japanese_and_keeps_every_name_and_amount_whole(book, width):
    text = shown(["summary"], width)
    for word in ("成績", "プレイヤー", "推移", "各回", "精算", "次の親", "ルール sdin（1貫 = 10文）",
                 "レート 1文 = 0.50", "12/12回", "札点のみ"):
        assert word in text, (word, text)
    assert english(text, "standings", "settlement", "pays", "player", "trend", "rounds", "round", "next",
                   "rules", "rate", "money", "yaku", "field", "card points") == []
    data = json_of(["summary"])
    for p in NAMES:
        assert whole(text, p), p
        total = data["totals"][p]
        assert whole_amount(text, f"{total:+d}" if total else "0"), (p, total)
        assert whole_amount(text, night.kan(total)), (p, total)
    for pay in data["settlement"]:  # one way to say it: payer → payee amount
        assert whole(text, f"{pay['from']} → {pay['to']} {pay['mon']}文"), pay
        assert whole_amount(text, f"{pay['mon']}文")


@pytest.mark.parametrize("width", WIDTHS)
def test_demo_speaks_japanese(width):
    text = shown(["demo"], width)
    assert "成績" in text and "精算" in text and "各回" in text and "→" in text
    assert english(text, "standings", "settlement", "pays", "round", "rounds", "player", "trend", "rules", "rate") == []
    data = json.loads(run(["demo", "--json"], language="en").stdout)
    for pay in data["settlement"]:
        assert whole(text, f"{pay['from']} → {pay['to']} {pay['mon']}文（{night.kan(pay['mon']).lstrip('+')}）")


def test_the_locale_speaks_japanese_too(book):
    result = runner.invoke(args=["summary"], env={"LANG": "ja_JP.UTF-8"})
    assert result.exit_code == 0, result.output
    assert "成績" in result.stdout and "精算" in result.stdout and "standings" not in result.stdout
    assert "standings" in run(["summary"], language="en").stdout  # and English is English still


def test_after_a_round_the_standing_line_is_japanese(book):
    from scorekeeper.night_view import standing_line

    n = night.replay(book.session(book.current_id()))
    lang.use("ja")
    line = standing_line(book.session(book.current_id()), n).plain
    assert line.startswith("累計（第12回まで、全12回）: ") and "次の親 花子さん" in line, line


# -- show N and score FILE ----------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("n", [1, 4, 5, 8])
def test_show_speaks_japanese_and_keeps_every_name_and_amount_whole(book, width, n):
    text = shown(["show", str(n)], width)
    for word in (f"第{n}回", "ルール sdin", "場札:", "プレイヤー", "支払い", "払う人", "受け取る人",
                 "理由", "次の親", "手札", "取札"):
        assert word in text, (word, text)
    assert english(text, "round", "rules", "field", "player", "payments", "from", "for", "next", "cards",
                   "hand", "pile", "void", "declared", "plain round") == []
    data = json_of(["show", str(n)])
    for p, r in data["players"].items():
        assert whole(text, p)
        assert whole_amount(text, f"{r['mon']:+d}" if r["mon"] else "0")
    for pay in data["payments"]:
        assert re.search(rf"│\s+{pay['mon']} │", text)  # the 文 column: each amount whole
    for r in data["players"].values():
        for y in (*r["teyaku_all"], *r["dekiyaku"], *r["special"]):
            assert whole(text, y)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["misdeal", "pot-to-winner", "two-player-tie", "cancel-half", "five-two-drops"])
def test_score_speaks_japanese_with_the_pot_and_the_fees(tmp_path, width, name):
    file = tmp_path / "r.json"  # a file name with no English word in it
    shutil.copy(GOLDEN / "fudawiki" / f"{name}.round.json", file)
    text = shown(["score", "--rules", "fudawiki", str(file)], width)
    assert "ルール fudawiki（1貫 = 10文）" in text and "支払い" in text and "次の親" in text
    assert english(text, "rules", "field", "player", "payments", "from", "to", "for", "pot", "round",
                   "waits", "into", "takes", "split", "drop", "nobody", "next") == [], text
    data = json.loads(run(["score", "--rules", "fudawiki", str(file), "--json"], language="en").stdout)
    for p, r in data["players"].items():
        assert whole(text, p)
        assert whole_amount(text, f"{r['mon']:+d}" if r["mon"] else "0")
    if any(pay["to"] == "pot" for pay in data["payments"]):
        assert "場銭" in text and "逃げ料" in text and re.search(r"1人目の降り", text)


def test_score_of_a_sdin_file_in_japanese_and_json_alike(tmp_path):
    file = tmp_path / "r.json"
    shutil.copy(GOLDEN / "sdin" / "sage-overtaken.round.json", file)
    text = shown(["score", str(file)], 80)
    assert "出来役の回" in text and "（無効）" in text and "void" not in text
    assert run(["score", str(file), "--json"]).stdout == run(["score", str(file), "--json"], language="en").stdout


def test_a_round_that_no_longer_scores_is_marked_in_japanese(book, book_file):
    file = ch.current_file(book_file)
    data = json.loads(file.read_text(encoding="utf-8"))
    rnd = data["rounds"]["2"]["round"]  # a card in two piles: round 2 no longer scores
    rnd["captured"][NAMES[0]] = rnd["captured"][NAMES[0]] + rnd["captured"][NAMES[1]][:2]
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for width in WIDTHS:
        summary = run(["summary"], width, code=1).stdout
        assert "✗ 採点不可:" in summary and "で差し替え" in summary and "does not score" not in summary
        text = run(["show", "2"], width, code=1).stdout
        assert text.startswith("第2回  ✗ 採点不可") and "`edit` で差し替えるまで" in text
        # (the problem itself is the round's checks' words, not the view's)
        assert "保存された内容: " in text and english(text, "does not score", "as stored", "counts nothing") == []
        assert all(cell_len(line) <= width for line in summary.splitlines())


# -- sessions, stats ----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_sessions_speak_japanese(book, width):
    text = shown(["sessions"], width)
    assert "名前" in text and "日付" in text and "プレイヤー" in text and "各回" in text and "12/12" in text
    assert english(text, "name", "date", "players", "rounds") == []
    for p in NAMES:
        assert whole(text, p), (p, text)  # "Aki Tanaka" never "Aki" and "Tanaka" on two lines


@pytest.mark.parametrize("width", WIDTHS)
def test_stats_speak_japanese_and_keep_names_yaku_and_amounts_whole(book, width):
    text = shown(["stats"], width)
    for word in ("ルール sdin（1貫 = 10文）: 1夜、12回", "成績", "夜とラウンド", "札の巡り", "珍しさ",
                 "出来役・下げ・特殊役", "手役ごと", "対戦", "夜ごとの累計成績", "1夜目", "期待どおり"):
        assert word in text, (word, text)
    assert english(text, "standings", "nights", "night", "rounds", "round", "player", "expected", "unusual",
                   "head to head", "pair", "net", "cancel", "overtaken", "played out", "best", "worst") == []
    data = json_of(["stats"])
    for p, me in data["players"].items():
        assert whole(text, p)
        assert whole_amount(text, f"{me['mon']:+d}" if me["mon"] else "0") and whole_amount(text, me["kan"])
        for y, n in {**me["dekiyaku"], **me["special"]}.items():
            assert whole(text, f"{y}×{n}"), (y, text)
    for pair in data["head_to_head"]:
        assert whole(text, f"{pair['a']} 対 {pair['b']}")
        assert whole(text, f"{pair['a']} {pair['net']:+,}")
    assert data["players"][NAMES[2]]["teyaku_all"]["unusual"] == "about 1 in 37 (fewer than expected)"
    assert whole(text, "約 37分の1（期待より少ない）")  # the JSON's English, worded for people


def test_stats_with_no_session_and_its_chart_in_japanese(book_file, tmp_path):
    b = store.Book.open(book_file)
    sid = b.new_session(NAMES, name="金曜の夜")
    assert "該当するセッションがありません" in run(["stats", "--since", "2999-01-01"]).stdout
    add_round(b, sid, ch.renamed(ch.NIGHT[0], NAMES))
    svg = tmp_path / "chart.svg"
    run(["stats", "--svg", str(svg)])
    assert "累計" in svg.read_text(encoding="utf-8") and "night" not in svg.read_text(encoding="utf-8")


# -- rules, cards, odds -------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", ["sdin", "fudawiki"])
def test_rules_speak_japanese_and_keep_every_value_whole(width, name):
    text = shown(["rules", name], width)
    switches = text[text.index("スイッチと方針"):]
    for word in (f"ルール {name}", f"{name} の値", "役", "貫", "備考" if name == "sdin" else "新規",
                 "最高の一つ" if name == "sdin" else "グループAの最高",
                 *(["項目"] if "┃" in switches else [])):  # a table's heading; stacked (too narrow), none
        assert word in text, (word, text)
    assert english(text, "rule profile", "values of", "yaku", "kan", "note", "switches", "policies", "rule",
                   "decimal", "the single highest", "winner", "players", "bonuses", "caller", "differs") == []
    values = json_of(["rules", name])["values"]
    for yaku, kan in values.items():
        assert re.search(rf"{re.escape(yaku)}\s+│\s+{kan} │", text), (yaku, kan)


def test_a_house_rule_file_says_its_problem_in_japanese(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text('base = "fudawiki"\nname = "家"\ndealer_swap = true\n', encoding="utf-8")
    error = run(["rules", str(house)], code=2).stderr
    assert error.startswith(f"hachi-score: {house}: dealer_swap: hachi-score は ")
    house.write_text('base = "fudawiki"\nname = "家"\nmizuten = true\n', encoding="utf-8")
    error = run(["rules", str(house)], code=2).stderr
    assert error.startswith(f"hachi-score: {house}: mizuten: false、\"fudawiki\"、\"flat\" のどれかです")
    house.write_text('base = "fudawiki"\nname = "家"\nkan = 11\n', encoding="utf-8")
    assert "kan: 10 か 12 にしてください（11（整数） ではありません）" in run(["rules", str(house)], code=2).stderr
    house.write_text('base = "fudawiki"\nname = "家"\n[values]\n"三本" = 3\n', encoding="utf-8")
    text = shown(["rules", str(house)], 200)
    assert text.startswith("ルール 家（fudawiki を元にしたハウスルール:") and "≠: sdin と異なる" in text
    assert "'koikoi': ルールではありません: 組み込みのルールは sdin" in run(["odds", "--rules", "koikoi"], code=2).stderr


@pytest.mark.parametrize("width", WIDTHS)
def test_cards_speak_japanese(width):
    text = shown(["cards"], width)
    header = next(line for line in text.splitlines() if "┃" in line)
    assert all(word in header for word in ("月", "コード", "名前", "種類", "札点")), header
    assert english(header, "month", "code", "name", "romaji", "kind", "points") == []
    assert "48枚の札" in text
    for c in json_of(["cards"]):
        assert re.search(rf"│ {re.escape(c['code'])}\s+│ {re.escape(c['ja'])}\s", text), c


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", [["odds"], ["odds", "--rules", "fudawiki"], ["odds", "--field", FIELD, "--hand", HAND],
                                  ["odds", "--rules", "fudawiki", "--field", FIELD, "--hand", HAND]])
def test_odds_speak_japanese_and_keep_every_count_whole(width, args):
    text = shown(args, width)
    assert "手札数" in text and "N分の1" in text and "手役あり" in text
    assert english(text, "hands", "probability", "1 in", "reading", "any", "none", "Group", "field", "fields",
                   "redeal", "Classes", "combinations", "at least", "hand", "cards", "profile") == []
    report = json_of(args)
    rows = report.get("teyaku") or [r for g in report.get("groups", {}).values() for r in g["teyaku"]]
    for row in rows:
        assert whole_amount(text, f"{row['count']:,}")
        if row["name"]:
            assert whole(text, row["name"])
    if "field" in report:
        assert whole(text, "場札: " + " ".join(report["field"]["cards"]))
    if "hand" in report:
        assert whole(text, "手札 " + " ".join(report["hand"]["cards"]) + ":")


def test_odds_say_a_card_too_many_in_japanese():
    error = run(["odds", "--field", FIELD, "--hand", "1k 1r 2t 2r 3k 3r 4k"], code=2).stderr
    assert "3r 桜に赤短 が 2 回ありますが、山札には 1 枚しかありません" in error


# -- what scripts read is the same in both languages --------------------------------------------


@pytest.mark.parametrize("args", [
    ["summary", "--json"], ["show", "1", "--json"], ["show", "5", "--json"], ["sessions", "--json"],
    ["stats", "--json"], ["rules", "sdin", "--json"], ["rules", "fudawiki", "--json"], ["cards", "--json"],
    ["odds", "--field", FIELD, "--hand", HAND, "--json"], ["odds", "--rules", "fudawiki", "--json"],
    ["demo", "--json"], ["export"], ["export", "--json"], ["export", "--csv"],
])
def test_what_scripts_read_is_byte_for_byte_the_same_in_both_languages(book, args):
    ja, en = run(args).stdout_bytes, run(args, language="en").stdout_bytes
    assert ja == en and ja.strip()


# -- the cells themselves -----------------------------------------------------------------------


def test_a_phrased_cell_wraps_between_its_phrases_never_inside_one():
    cell = Phrased(["Aki Tanaka", "素十六 120 ·", "花子さん"], Phrased.words("何人でも、キャンセル可"))
    console = Console(width=12, record=True, color_system=None)
    console.print(cell)
    lines = console.export_text().splitlines()
    assert lines == ["Aki Tanaka", "素十六 120 ·", "花子さん", "何人でも、", "キャンセル可"], lines
    wide = Console(width=80, record=True, color_system=None)
    wide.print(cell)
    assert wide.export_text().splitlines() == ["Aki Tanaka 素十六 120 · 花子さん", "何人でも、キャンセル可"]


def test_phrases_keep_each_argument_whole_with_the_words_it_touches():
    said = [p.plain for p in phrases("{payer} → {payee} {mon}文 ({kan})", payer="Aki Tanaka", payee="花子さん",
                                     mon=113, kan="11貫3文")]
    assert said == ["Aki Tanaka", "→", "花子さん", "113文", "(11貫3文)"]


@pytest.mark.parametrize("width", [20, 24, 30, 40])
def test_a_fit_table_folds_what_may_wrap_and_never_cuts_it(width):
    table = FitTable("t")
    table.add_column("名前", whole=True)
    table.add_column("方針")
    table.add_row("花子さん", "何人でも、キャンセル可、出た役はすべて払う")
    console = Console(width=width, record=True, color_system=None)
    console.print(table)
    text = console.export_text()
    assert "…" not in text and whole(text, "花子さん")
    if "│" in text:  # a table: the cell wraps after 、, each phrase whole
        cell = [line.split("│")[-1].strip() for line in text.splitlines() if "│" in line]
    else:  # too narrow for the table: the row stacked, the cell under its heading
        cell = [line.strip().removeprefix("方針 ") for line in text.splitlines()[2:]]
    assert "".join(cell) == "何人でも、キャンセル可、出た役はすべて払う", text
    assert all(any(phrase in line for line in cell) for phrase in ("何人でも、", "キャンセル可、", "出た役はすべて払う"))
    assert ("│" in text) == (width >= 31), text  # the table: 8 + 18 columns, and 5 of its rules and padding
