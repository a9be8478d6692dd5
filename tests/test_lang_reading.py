"""Japanese as a player says it: a name and its particle without a space (美咲は降ります), the
running total called 累計, 月 and 回 where players say them, one spelling of 取札, amounts
under one kan as 文, and the help's and prompts' words in Japanese.
"""

from __future__ import annotations

import io
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


# -- through the command line ------------------------------------------------------------------

from fast_cli import FastRunner, checked_run  # noqa: E402
from scorekeeper import night  # noqa: E402

run = checked_run(FastRunner())
GOLDEN = ROOT / "tests" / "golden" / "sdin"


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.setenv("HACHI_SCORE_DB", str(tmp_path / "book.json"))
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.setenv("COLUMNS", "100")
    run("new-session", "Aki", "Ben", "Chie", "--rounds", "6")
    return tmp_path


def test_the_standing_after_a_round_says_it_is_the_running_total(book):
    out = run("round", "--file", str(GOLDEN / "plain-teyaku.round.json")).stdout
    standing = next(line for line in out.splitlines() if "次の親" in line and "·" in line)
    assert standing.startswith("累計（第1回まで、全6回）: "), standing
    assert "ラウンド" not in out


def test_the_night_s_length_is_counted_in_rounds_of_the_game_not_ラウンド(book):
    run("round", "--file", str(GOLDEN / "plain-teyaku.round.json"))
    out = run("summary").stdout
    assert "1/6回" in out and "ラウンド" not in out


@pytest.mark.parametrize("amount, shown", [(6, "+6文"), (-6, "-6文"), (9, "+9文"), (10, "+1貫"), (16, "+1貫6文")])
def test_an_amount_under_one_kan_reads_in_文_alone(amount, shown):
    assert night.kan(amount) == shown


def test_a_settlement_under_one_kan_says_its_文_once(ja):
    from rich.console import Console
    from scorekeeper.night_view import settlement_view

    out = Console(file=io.StringIO(), width=100, color_system=None)
    out.print(settlement_view({"Aki": -6, "Ben": 6}, None, 10))
    text = out.file.getvalue()
    assert "Aki → Ben 6文" in text and "0貫" not in text and "(6文)" not in text


def test_the_help_words_click_s_placeholders_in_japanese(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    ja_help = run("new-session", "--help", "--lang", "ja").stdout
    assert "[オプション]" in ja_help and "<数値>" in ja_help and "<文字列>" in ja_help
    assert "[OPTIONS]" not in ja_help and "<float>" not in ja_help and "<str>" not in ja_help
    top = run("--lang", "ja", "--help").stdout
    assert "[オプション] コマンド [引数]..." in top
    assert "[OPTIONS] COMMAND [ARGS]..." in run("--help").stdout  # English as click says it


def test_new_session_s_help_says_three_to_seven_players(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert "3 to 7" in run("new-session", "--help").stdout  # seven with the 白札 (TRADITIONAL §11.5)
    assert "3〜7人" in run("new-session", "--help", "--lang", "ja").stdout


def test_the_questions_with_a_choice_of_keys_word_them_in_japanese():
    said = dict(translations())
    for english in ("{count} answers typed for this round at {time} are kept ({where}). Resume them? [Y/n/discard]: ",
                    "{count} answers are typed for this round, and it is being typed now at another terminal: join it? "
                    "What both type is merged, and an answer typed both ways is asked. [Y/n]: ",
                    "{question} [y/N] ", "{question} [Y/n]: "):
        assert "[" not in said[english] and ("はい" in said[english] or "破棄" in said[english]), said[english]
    for english in ("{said}: {theirs} from {who}, {mine} typed here. Keep 1 (from {who}) or 2 (typed here)? [1]: ",
                    "{said}: {theirs} saved, {mine} typed here. Keep 1 (saved) or 2 (typed here)? [1]: "):
        assert "[" not in said[english] and "Enter: 1" in said[english], said[english]


def test_the_phone_asks_who_is_holding_it_as_a_player_would():
    said = dict(translations())
    assert said["Who are you?"] == "どのプレイヤーですか？"
    assert said["not me"] == "別の人を選ぶ"


#: the help of every command, and what `rules` prints of each built-in profile
COMMANDS = ("", "score", "new-session", "round", "summary", "undo", "edit", "export", "import", "demo", "rules",
            "stats", "serve", "doctor", "show", "sessions", "cards", "odds", "use")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_help_and_rules_name_no_page_the_repository_lacks(language, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    said = [run(*(c.split() if c else []), "--help", "--lang", language).stdout for c in COMMANDS]
    said += [run("rules", profile, "--lang", language).stdout for profile in ("sdin", "fudawiki")]
    pages = r"[\w./-]+\.md\b|(?:samples|docs)/[\w./-]*\w|\b(?:RULES|TRADITIONAL|CONTRACT|DESIGN)\b"
    named = {m for text in said for m in re.findall(pages, text)}
    missing = sorted(n for n in named if not (ROOT / n).exists() and not (ROOT / f"{n}.md").exists())
    assert missing == []
