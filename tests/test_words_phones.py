"""Issue 33, point 5, what the server sends the phones: a round's result names the 手役 and 出来役
it does not pay (``void``: 赤 in a 特殊役 round is not listed as paid), and a pile's card points
only where they were given (``points``: None for a pile by its 出来役's names, no "0"); a tap
overtaken tells the phone who changed the answer (the terminal, or another phone); the saved
bar's words say 第N回, as everything else does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper import lang, store
from scorekeeper import questions as q
from scorekeeper.flows import Night
from scorekeeper.round_draft import Overtaken, RoundDraft
from scorekeeper.scoring import score_dict

GOLDEN = Path(__file__).parent / "golden"
PLAYERS = ["Aki", "Ben", "Chie"]


def golden(rules: str, name: str) -> dict:
    return json.loads((GOLDEN / rules / f"{name}.round.json").read_text("utf-8"))


def test_a_special_round_says_the_teyaku_it_voids():
    data = golden("sdin", "special-nihachi")
    data["teyaku"] = {p: "赤" for p in data["players"] if p not in data.get("teyaku", {})}  # each declared 赤
    result = score_dict(data)
    assert result.kind == "特殊役"
    shown = q.shown_result(result)
    assert all(r["void"] == ["赤"] for r in shown["players"].values()), shown["players"]
    assert not any(pay["reason"] == "赤" for pay in shown["payments"])
    paid = q.shown_result(score_dict(golden("sdin", "plain-teyaku")))
    assert all(r["void"] == [] for r in paid["players"].values())


def test_a_pile_by_name_has_no_points_to_show():
    data = {"players": PLAYERS, "dealer": "Aki", "field": ["2k", "4r", "6k", "7t", "9k", "10k"],
            "ended_by": "Ben", "dekiyaku": {"Ben": "猪鹿蝶"}, "unasked": ["Aki", "Chie"]}
    shown = q.shown_result(score_dict(data))
    ben = shown["players"]["Ben"]
    assert ben["pile"] == "named" and ben["points"] is None and ben["card_points"] == 0  # the JSON's stays
    assert shown["players"]["Aki"]["points"] is None  # not asked


def test_the_phones_view_carries_them():
    g = q.Givens(tuple(PLAYERS), "Aki")
    form = q.Form(g)
    for key, text in {"field": "=", "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "", "ended": "Ben",
                      "pile:Ben": "inoshikacho"}.items():
        form.answer(key, text, done=False)
    view = form.mark("Ben", True).to_json()
    assert view["complete"] and view["result"]["players"]["Ben"]["points"] is None


@pytest.fixture
def draft(book_file):
    book = store.Book.open(book_file)
    book.new_session(PLAYERS)
    return RoundDraft.begin(Night(book, "s1", load=True), "round", None)


@pytest.mark.parametrize("by_terminal", [True, False], ids=["the terminal", "another phone"])
def test_a_tap_overtaken_says_who_changed_the_answer(draft, by_terminal):
    draft.answer("field", "2k 4r 6k 7t 9k 10k")
    draft.answer("dealer", "Ben", by=draft.me if by_terminal else "phone")
    with pytest.raises(Overtaken) as caught:
        draft.answer("dealer", "Chie", was="Aki")  # a phone's tap, sent late: it had seen Aki
    line = str(caught.value)
    assert ("by the terminal" in line) == by_terminal and ("by another phone" in line) != by_terminal, line
    ja = lang.in_language("ja", lambda: str(lang.worded(caught.value.args[0])))
    assert ("端末で" in ja) == by_terminal, ja


def test_the_saved_bar_says_dai_n_kai():
    assert lang.in_language("ja", lambda: lang.word("Round {number} saved", {"number": 4})) == "第4回を保存しました"
