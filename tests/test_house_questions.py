"""TRADITIONAL §11's questions in the round's question model (the terminal and the phones ask
these): each asked where §11 says and nowhere else, at its boundary, both sides."""

from __future__ import annotations

from helpers import SMALL_FIELD

from scorekeeper import house
from scorekeeper import questions as q
from scorekeeper.rules import FUDAWIKI

P4 = ("Aki", "Ben", "Chie", "Dan")
P7 = (*P4, "Eri", "Fumi", "Gen")
FIELD = " ".join(SMALL_FIELD)


def rules_of(**switches):
    return house.from_data({"base": "fudawiki", "name": "house", **switches})


def keys(players, rules, answers, done=()):
    v = q.view(q.Givens(tuple(players), players[0], rules), answers, done)
    return [s.key for s in v.steps], v


def status(v, key):
    return v.step(key).status if v.step(key) else None


# -- 白札 (§11.5)


def test_with_seven_seated_the_blanks_holder_is_asked_first_with_no_default():
    ks, v = keys(P7, FUDAWIKI, {})
    assert ks[0] == "blank" and status(v, "blank") == "open"
    _ks, v = keys(P7, FUDAWIKI, {"blank": ""})
    assert status(v, "blank") == "refused"
    assert "blank" not in keys(P4, FUDAWIKI, {})[0] and "blank" not in keys(P4[:3], FUDAWIKI, {})[0]


def test_the_dropout_order_skips_the_blanks_holder():
    ks, _v = keys(P7, FUDAWIKI, {"blank": "Ben", "field": FIELD})
    assert "seat:Ben" not in ks and ks[-1] == "seat:Aki"
    ks, _v = keys(P7, FUDAWIKI, {"blank": "Aki", "field": FIELD})  # the 親 holds it: the next seat starts
    assert ks[-1] == "seat:Ben"


# -- みずてん (§11.2)


def test_mizuten_is_asked_once_at_the_start_only_when_the_switch_is_on():
    assert "mizuten" not in keys(P4, FUDAWIKI, {"field": FIELD})[0]
    ks, _v = keys(P4, rules_of(mizuten="fudawiki"), {"field": FIELD})
    assert ks == ["dealer", "field", "mizuten"]


def test_fudawiki_mizuten_the_declarer_is_not_offered_drop():
    on = rules_of(mizuten="fudawiki")
    ks, _v = keys(P4, on, {"field": FIELD, "mizuten": "y"})
    assert "seat:Aki" not in ks and ks[-1] == "seat:Ben"
    ks, _v = keys(P4, on, {"field": FIELD, "mizuten": ""})
    assert ks[-1] == "seat:Aki"


def test_fudawiki_mizuten_is_not_asked_when_the_oya_holds_the_blank():
    on = rules_of(mizuten="fudawiki")
    assert "mizuten" not in keys(P7, on, {"blank": "Aki", "field": FIELD})[0]
    assert "mizuten" in keys(P7, on, {"blank": "Gen", "field": FIELD})[0]


def test_fudawiki_mizuten_the_declarers_pile_is_asked_where_section_4_leaves_it_unasked():
    answers = {"field": FIELD, "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "Ben", "ended": "Ben",
               "how": "", "pile:Ben": "1rk 2rk 3rk"}
    plain, _v = keys(P4[:3], FUDAWIKI, answers)
    assert "pile:Aki" not in plain
    on = rules_of(mizuten="fudawiki")
    ks, v = keys(P4[:3], on, {**answers, "mizuten": "y"})
    assert "pile:Aki" in ks and v.step("pile:Aki").need == "points"


def test_flat_mizuten_is_asked_at_the_start_of_play_among_those_who_play():
    on = rules_of(mizuten="flat")
    answers = {"field": FIELD, "seat:Aki": "drop", "seat:Ben": "play", "seat:Chie": "play", "seat:Dan": "play"}
    ks, v = keys(P4, on, answers)
    assert ks.index("mizuten") == ks.index("seat:Dan") + 1
    assert [c.answer for c in v.step("mizuten").choices] == ["", "Ben", "Chie", "Dan"]
    _ks, v = keys(P4, on, {**answers, "mizuten": "Aki"})
    assert status(v, "mizuten") == "refused"


# -- 追い込み賃 (§11.3)


def test_under_forced_out_pay_flat_the_forced_out_hand_is_not_asked():
    answers = {"field": FIELD, "seat:Aki": "play", "seat:Ben": "play", "seat:Chie": "play"}
    assert "hand:Dan" in keys(P4, FUDAWIKI, answers)[0]
    assert "hand:Dan" not in keys(P4, rules_of(forced_out_pay="flat"), answers)[0]


# -- 責任 (§11.1)

ENDED = {"field": FIELD, "hand:Aki": "", "hand:Ben": "", "hand:Chie": "", "sage": "", "ended": "Aki"}


def test_after_a_dekiyaku_that_can_be_liable_one_question_enter_for_no():
    on = rules_of(liability=True)
    ks, v = keys(P4[:3], on, {**ENDED, "pile:Aki": "1rk 2rk 3rk"}, {"Aki"})
    assert ks[-1] == "liable:Aki" and status(v, "liable:Aki") == "open"
    _ks, v = keys(P4[:3], on, {**ENDED, "pile:Aki": "1rk 2rk 3rk", "liable:Aki": ""}, {"Aki"})
    assert v.result is not None and "liable" not in v.round_file
    _ks, v = keys(P4[:3], on, {**ENDED, "pile:Aki": "1rk 2rk 3rk", "liable:Aki": "Ben"}, {"Aki"})
    assert v.round_file["liable"] == {"Aki": {"赤短": "Ben"}}
    assert [(x.payer, x.mon) for x in v.result.payments] == [("Ben", 140)]


def test_no_liable_question_for_nanatan_nor_without_the_switch():
    on = rules_of(liability=True)
    nanatan = {**ENDED, "pile:Aki": "1rk 2rk 4rk 5rk 6rk 7rk 9rk"}
    assert not any(k.startswith("liable") for k in keys(P4[:3], on, nanatan, {"Aki"})[0])
    assert not any(k.startswith("liable") for k in keys(P4[:3], FUDAWIKI, {**ENDED, "pile:Aki": "1rk 2rk 3rk"},
                                                            {"Aki"})[0])


def test_the_feeder_is_an_opponent_who_plays():
    on = rules_of(liability=True)
    _ks, v = keys(P4[:3], on, {**ENDED, "pile:Aki": "1rk 2rk 3rk", "liable:Aki": "Aki"}, {"Aki"})
    assert status(v, "liable:Aki") == "refused"
