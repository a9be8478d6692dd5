"""A round in Japanese: the question model's labels, help, echoes and problems, the card, name and
round-file errors, and `round --lang ja` fed its answers.

The phones are sent one view model and word it themselves, so a problem carries its English
template and arguments (``said``): worded again in English it is the English line, whatever
language the server spoke when it made it.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper import lang, words
from scorekeeper import questions as q
from scorekeeper.check import check_draft
from scorekeeper.cli import app
from scorekeeper.names import PlayerError, name_problem, resolve_player
from scorekeeper.notation import CardError, parse_cards
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import Round, RoundError

from entry_lines import answers
from fast_cli import FastRunner, typed

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "sdin"
CATALOG = ROOT / "scorekeeper" / "locale" / "ja" / "LC_MESSAGES" / "hachi-score.po"
#: the modules of a round's questions, answers and problems
ROUND_MODULES = {f"scorekeeper/{m}.py" for m in ("words", "entry", "questions", "steps", "check", "notation", "cards",
                                                  "scoring", "yaku", "names")}
PLAYERS = ("Aki", "Ben", "Chie")
FIELD = "2t 3k 8h 8t 8k 10t"  # 芒に月: 大場 ×2
runner = FastRunner()

#: ASCII words a Japanese line may keep: the keys a person presses or types (answers accepted
#: as they are), command names, the rules' own names, a round file's keys
KEPT = {"Enter", "back", "out", "p", "d", "s", "c", "y", "n", "N", "Y", "Ctrl-C", "shoubu", "cancel", "RULES",
        "forced_three", "hachi-score", "round", "--restore", "cards", "ended_by", "carry", "pot", "field", "fudawiki",
        "JSON", "true", "false", "null"}


#: the card notation's kind letters, as the help shows them after a month's flower (松hk)
NOTATION = {"h", "t", "r", "k", "hk", "kkk"}


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.round.json").read_text("utf-8"))


def fields(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def english_words(text: str) -> set[str]:
    """The ASCII words of a line outside its placeholders, `commands` and card codes."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\b\d+[a-z*]*\b", " ", text)
    return set(re.findall(r"-{0,2}[A-Za-z][A-Za-z_-]*(?:-[A-Z])?", text))


def reword(said):
    """A message's JSON worded again, as a phone words it: its template from the catalog, each
    argument that is a message worded the same way."""
    if isinstance(said, dict) and "t" in said:
        return lang.word(said["t"], {k: reword(v) for k, v in said["args"].items()})
    if isinstance(said, list):
        return [reword(x) for x in said]
    return said


def ja():
    lang.use("ja")


# ---------------------------------------------------------------------------------------------
# the words table, and every message of this part


@pytest.mark.parametrize("key", sorted(words.TEXT))
def test_every_entry_of_the_words_table_is_japanese_with_its_placeholders(key):
    english = words.TEXT[key]
    ja()
    said = lang._(english)
    assert fields(said) == fields(english)
    if english_words(english) - KEPT:  # more than the game's words and placeholders: translated
        assert said != english
    assert english_words(said) <= KEPT, said


def test_every_message_of_a_round_is_translated_with_its_placeholders_and_no_english_left():
    catalog = read_po(CATALOG.open("rb"), locale="ja")
    messages = [m for m in catalog if m.id and any(f in ROUND_MODULES for f, _line in m.locations)]
    assert len(messages) > len(words.TEXT)
    for m in messages:
        assert m.string, m.id
        assert fields(m.string) == fields(m.id), m.id
        assert english_words(m.string) <= KEPT | NOTATION, m.string


def test_the_card_notation_help_is_japanese():
    from scorekeeper.notation import help_text

    assert help_text().startswith("Card notation")
    ja()
    assert help_text().startswith("札の書き方") and "1h 松に鶴" in help_text()


# ---------------------------------------------------------------------------------------------
# the question model under lang.use("ja")


def test_the_labels_titles_and_choices_are_japanese():
    ja()
    g = q.Givens(("Aki", "Ben", "Chie", "Dan"), "Aki", FUDAWIKI)
    form = q.Form(g)
    v = form.answer("field", FIELD)
    assert str(v.step("dealer").label) == "親（1 Aki, 2 Ben, 3 Chie, 4 Dan）"
    assert str(v.step("field").label) == "場札（6枚、または = と光だけ）"
    assert str(v.step("seat:Aki").label) == "席 Aki 打つ か 降りる（Enter: 打つ）"
    assert str(v.step("seat:Aki").title) == "席 Aki: 打つ か 降りる"
    assert [str(c.label) for c in v.step("seat:Aki").choices] == ["打つ", "降りる"]
    assert str(v.stand.line()) == "大場（おおば）×2"
    assert v.to_json()["stand"]["pot_line"]["text"] == "場銭: 0文"


def test_the_japanese_answers_the_prompts_name_are_taken():
    ja()
    g = q.Givens(("Aki", "Ben", "Chie", "Dan"), "Aki", FUDAWIKI)
    form = q.Form(g)
    form.answer("field", FIELD)
    form.answer("seat:Aki", "打つ")
    v = form.answer("seat:Ben", "降りる")
    assert v.values["seat:Aki"] == "play" and v.values["seat:Ben"] == "drop"
    rnd = golden("plain-teyaku")
    form = q.Form(q.Givens(PLAYERS, "Aki", SDIN))
    form.answer("field", " ".join(rnd["field"]))
    assert form.answer("ended", "最後まで").values["ended"] is None
    assert form.answer("sage", "なし").values["sage"] == ()
    form.answer("pile:Aki", " ".join(rnd["captured"]["Aki"]))
    form.answer("pile:Ben", " ".join(rnd["captured"]["Ben"]))
    v = form.answer("pile:Chie", "残り")
    assert v.step("pile:Chie").status == "answered" and v.values["pile:Chie"] == rnd["captured"]["Chie"]
    assert q.is_back("戻る")


def test_a_bad_pile_token_is_a_japanese_problem_naming_the_player_and_the_token_as_typed():
    ja()
    form = q.Form(q.Givens(PLAYERS, "Aki"))
    form.answer("field", FIELD)
    with pytest.raises(q.Refused) as e:
        form.answer("pile:Ben", "1hk 1x")
    problem = e.value.problem
    assert problem.code == "card" and problem.token == "1x" and problem.player == "Ben"
    assert problem.message.startswith("Benの取札: '1x' は札ではありません")
    assert "is not a card" not in problem.message


def test_the_264_check_and_a_holder_of_dekiyaku_are_said_in_japanese():
    rnd = golden("sage-played-out")
    ja()
    form = q.Form(q.Givens(PLAYERS, "Aki"))
    form.answer("field", " ".join(rnd["field"]))
    form.answer("ended", "")
    form.answer("sage", "")
    with pytest.raises(q.Refused) as e:  # Aki's pile holds 猪鹿蝶, and nobody called 下げ
        form.answer("pile:Aki", " ".join(rnd["captured"]["Aki"]))
    assert e.value.problem.code == "unclaimed"
    assert e.value.problem.message.startswith("Akiの取札に猪鹿蝶がありますが、Akiは上がっても下げを宣言してもいません")
    form.answer("sage", "Aki")
    form.answer("pile:Aki", " ".join(rnd["captured"]["Aki"]))
    form.answer("pile:Ben", " ".join(rnd["captured"]["Ben"][:-2]))  # two of 桐 left out
    with pytest.raises(q.Refused) as e:
        form.answer("pile:Chie", " ".join(rnd["captured"]["Chie"]))
    assert e.value.problem.code == "incomplete"
    assert e.value.problem.message.startswith("最後まで打った回の取札は合わせて264点のはずですが、262点です")
    assert "12k 桐のカス" in e.value.problem.message


def test_the_help_and_echo_words_of_the_model_are_japanese():
    ja()
    g = q.Givens(PLAYERS, "Aki", FUDAWIKI)
    values = {"field": q.read(g, "field", FIELD, {}).value, "ended": "Aki", "sage": ("Aki",)}
    said = q.settlement_said(g, values, "Aki", ("Aki",), "cancel")
    assert str(said).startswith("Akiのキャンセル: 相手の各人がAkiにAkiの出来役の半分を払います")
    shoubu = q.settlement_said(g, values, "Aki", ("Ben",), "shoubu")
    assert "下げを宣言した相手はBenだけなのでBenがAkiに倍払い、Chieは払いません" in str(shoubu)
    lang.use("en")
    assert lang.english(shoubu) == str(q.settlement_said(g, values, "Aki", ("Ben",), "shoubu"))


def test_a_view_made_in_japanese_words_again_in_english_for_a_phone_that_speaks_it():
    def refused():
        form = q.Form(q.Givens(PLAYERS, "Aki"))
        form.answer("field", FIELD)
        with pytest.raises(q.Refused) as e:
            form.answer("pile:Ben", "1hk 1x")
        return e.value.problem, e.value.view

    english, _ = refused()
    ja()
    problem, view = refused()
    said = json.loads(json.dumps(problem.to_json()))["said"]
    assert said["text"] == problem.message == json.loads(json.dumps(problem.to_json()))["message"]
    lang.use("en")
    assert reword(said) == english.message == "Ben's pile: '1x' is not a card (did you mean 1r 松に赤短?)"
    assert lang.english(said) == english.message
    step = json.loads(json.dumps(view.to_json()))["steps"]
    pile = next(s for s in step if s["key"] == "pile:Ben")
    assert reword(pile["problem"]["said"]) == english.message
    lang.use("ja")
    assert reword(said) == problem.message


@pytest.mark.parametrize("data, english", [
    ({"field": "1h 3r 5t 8k 9k 1x"}, "場札 field: '1x' is not a card (did you mean 1r 松に赤短?)"),
    ({"field": FIELD, "captured": {"Ben": "1h 1k 1k"}}, "Ben's pile: holds 3 cards of month 1 (1h 1k 1k); "
                                                        "captures come in twos or fours"),
    ({"field": FIELD, "sage": "Dan"}, "下げ: 'Dan' is not one of the players ['Aki', 'Ben', 'Chie']"),
    ({"field": FIELD, "teyaku": {"Aki": "赤短"}}, f"Aki's 手役: '赤短' is a 出来役, not a 手役 ({' '.join(SDIN.teyaku)})"),
])
def test_every_problem_of_the_draft_check_words_again_in_english(data, english):
    def problem():
        verdict = check_draft({"players": list(PLAYERS), "dealer": "Aki", **data}, players=PLAYERS)
        return verdict.problems[0]

    assert problem().message == english
    ja()
    said = problem()
    assert said.message != english and english_words(said.message) <= KEPT | {"Dan", "Aki", "Ben", "Chie"}
    lang.use("en")
    assert reword(said.to_json()["said"]) == english


def test_card_name_and_round_file_errors_are_japanese_and_keep_the_english_template():
    ja()
    with pytest.raises(CardError) as e:
        parse_cards("1h 1x")
    assert str(e.value) == "'1x' は札ではありません（1r 松に赤短 のことですか？）"
    assert e.value.message.template == "{token} {reason}"
    with pytest.raises(PlayerError) as e:
        resolve_player("A", ["Aki", "Aya", "Ben"])
    assert str(e.value) == "'A' では決まりません: AkiかAya？ 名前をもっと入力するか、番号で答えてください"
    assert str(name_problem(["Aki", "aki", "Ben"])).startswith("'Aki'と'aki'は同じ名前です")
    with pytest.raises(RoundError) as e:
        Round.from_dict({"players": list(PLAYERS), "dealer": "Aki", "field": "1h 3r 5t 8k 9k"})
    assert str(e.value) == "field: 5枚あります（6枚のはずです）"
    lang.use("en")
    assert lang.english(e.value.message) == "field: holds 5 cards, not 6"


def test_english_is_as_it_was():
    with pytest.raises(PlayerError) as e:
        resolve_player("A", ["Aki", "Aya", "Ben"])
    assert str(e.value) == "'A' is ambiguous: Aki or Aya? type more of the name, or its number"
    with pytest.raises(RoundError) as e:
        Round.from_dict({"players": list(PLAYERS), "dealer": "Aki", "field": "1h 3r 5t 8k 9k", "captured": []})
    assert str(e.value) == "field: holds 5 cards, not 6"


# ---------------------------------------------------------------------------------------------
# `round --lang ja` fed its answers


def _round(book_file, name: str, lang_: str, lines) -> tuple:
    db = str(book_file.parent / name / "book.json")
    assert runner.invoke(app, ["new-session", *PLAYERS, "--db", db]).exit_code == 0
    result = runner.invoke(app, ["round", "--db", db, "--lang", lang_], input=typed(lines))
    assert result.exit_code == 0, result.output
    shown = runner.invoke(app, ["show", "1", "--json", "--db", db])
    assert shown.exit_code == 0, shown.output
    return result, json.loads(shown.stdout)


def test_round_in_japanese_asks_in_japanese_and_saves_the_same_round(book_file):
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[1:1] = ["?"]  # the help, once
    lines[-2:-2] = ["1h 1x"]  # a bad pile first: Chie's
    en, saved_en = _round(book_file, "en", "en", lines)
    ja_lines = list(lines)
    ja_lines[-1] = "はい"
    jp, saved_ja = _round(book_file, "ja", "ja", ja_lines)
    assert saved_ja["file"] == saved_en["file"]
    assert {p: r["mon"] for p, r in saved_ja["players"].items()} == {"Aki": -24, "Ben": 64, "Chie": -40}
    out = jp.stdout
    for japanese in ("Aki、Ben、Chieで打つ回です。", "親（1 Aki, 2 Ben, 3 Chie） [Aki]: ", "札の書き方",
                     "場札（6枚、または = と光だけ）: 1h 3r 5t 8k 9k 12k", "手役 Ben : 2t 2r 2k 4t 6k 7k 10k", "三本（さんぼん） 20文（手札から）",
                     "終わり方（Enter: 最後まで。", "下げを宣言した人（Enter: なし）: ", "取札 Aki : ", "14枚   96点",
                     "取札 Chie（または「残り」）: ", "✗ Chieの取札: '1x' は札ではありません", "保存しますか？（Y: はい／n: いいえ）: "):
        assert japanese in out, japanese
    for english in ("the six field cards", "ended by", "declared by", "is not a card", "cards  ", "save?",
                    "Round for", "card notation"):
        assert english not in out, english
    assert "✗ Chie's pile: '1x' is not a card" in en.stdout and "save? [Y/n]: " in en.stdout


def test_japanese_answers_at_the_terminal(book_file):
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[5] = "なし"  # 下げ
    lines[6] = "最後まで"  # ended
    lines[-2:-1] = ["戻る", lines[-3], "残り"]  # back from Chie's pile to Ben's, then Chie's as rest
    lines[-1] = "はい"
    result, saved = _round(book_file, "ja", "ja", lines)
    assert saved["file"]["captured"]["Chie"] == rnd["captured"]["Chie"]
    assert "取札 Chie（または「残り」）: 残り" in result.stdout
