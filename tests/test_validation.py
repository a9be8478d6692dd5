"""CONTRACT.md §3: every bad round is a RoundError naming the key, the player, the token as typed."""

import copy

import pytest
from helpers import (
    BIG_FIELD,
    EXAMPLE_PILES,
    SAGE_INO,
    codes,
    mon,
    played_out,
    round_file,
)

from scorekeeper.scoring import Round, RoundError, score, score_dict

BEN_SANBON = "2t 2r 2k 4t 6k 7k 10k"


def valid():
    """A good played-out round: 大場, Ben's hand makes 三本."""
    return played_out(EXAMPLE_PILES, field=BIG_FIELD, hands={"Ben": BEN_SANBON})


def bad(data, *named):
    """Assert ``data`` is a bad round whose one-line message names everything in ``named``."""
    with pytest.raises(RoundError) as err:
        Round.from_dict(data)
    message = str(err.value)
    assert "\n" not in message
    for text in named:
        assert text in message, f"{text!r} not named in {message!r}"
    return err.value


def with_(**changes):
    data = copy.deepcopy(valid())
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return data


def test_the_good_round_is_good():
    assert score(Round.from_dict(valid())).players["Ben"].teyaku == "三本"


# --- wrong types ------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [[], "round", 3, None])
def test_a_round_file_must_hold_a_json_object(data):
    bad(data)


@pytest.mark.parametrize(
    "key, value",
    [
        ("players", "Aki Ben Chie"),
        ("players", {"Aki": 1}),
        ("dealer", 3),
        ("dealer", ["Aki"]),
        ("dealer", True),
        ("field", 5),
        ("field", {"1h": 1}),
        ("hands", ["2t"]),
        ("hands", "Ben"),
        ("teyaku", ["三本"]),
        ("teyaku", "三本"),
        ("captured", "1h 1k"),
        ("captured", ["1h"]),
        ("sage", 1),
        ("sage", ["Aki"]),
        ("ended_by", {"Aki": True}),
    ],
)
def test_a_key_holding_the_wrong_type_is_named(key, value):
    bad(with_(**{key: value}), key)


@pytest.mark.parametrize("key", ["hands", "captured"])
def test_a_players_cards_of_the_wrong_type_name_the_key_and_player(key):
    data = valid()
    data[key]["Ben"] = 7
    bad(data, f"{key}.Ben")


def test_a_declared_teyaku_of_the_wrong_type_names_the_player():
    bad(with_(teyaku={"Chie": 30}), "teyaku.Chie")


def test_a_card_that_is_not_text_is_named():
    data = valid()
    data["captured"]["Chie"][0] = 12
    bad(data, "captured.Chie", "12")


# --- players, dealer and who ------------------------------------------------------------------


@pytest.mark.parametrize(
    "players",
    [["Aki", "Ben"], ["Aki", "Ben", "Chie", "Dan"], ["Aki", "Aki", "Chie"], []],
)
def test_players_must_be_three_distinct_names(players):
    bad(with_(players=players), "players")


@pytest.mark.parametrize("name", ["", "   "])
def test_players_names_must_not_be_empty(name):
    bad(with_(players=["Aki", name, "Chie"]), "players")


def test_players_names_must_be_text():
    bad(with_(players=["Aki", 2, "Chie"]), "players")


@pytest.mark.parametrize("key", ["players", "dealer", "field"])
def test_a_missing_required_key_is_named(key):
    bad(with_(**{key: KeyError}), key)


@pytest.mark.parametrize("key", ["dealer", "sage", "ended_by"])
def test_dealer_sage_and_ended_by_must_be_one_of_the_players(key):
    bad(with_(**{key: "Dan"}), key, "Dan")


def test_a_name_differing_only_in_case_is_not_a_player():
    bad(with_(dealer="aki"), "dealer", "aki")


@pytest.mark.parametrize("key", ["hands", "teyaku", "captured"])
def test_keys_of_hands_teyaku_and_captured_must_be_players(key):
    data = valid()
    entry = {"hands": codes(BEN_SANBON), "teyaku": "三本", "captured": []}[key]
    data[key] = {**data.get(key, {}), "Dan": entry}
    if key == "hands":
        data["hands"].pop("Ben")
    bad(data, key, "Dan")


# --- tokens -----------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["1x", "13h", "2h", "Matsu", "１３ｈ", "松に靏", "12kkkk"])
def test_a_token_that_is_not_a_card_in_the_field_is_quoted_as_typed(token):
    data = valid()
    data["field"][1] = token
    bad(data, "field", token)


def test_a_token_that_is_not_a_card_in_a_hand_names_the_player():
    data = valid()
    data["hands"]["Ben"][3] = "4T?"
    bad(data, "hands.Ben", "4T?")


def test_a_token_that_is_not_a_card_in_a_pile_names_the_player():
    data = valid()
    data["captured"]["Chie"][2] = "5tt"
    bad(data, "captured.Chie", "5tt")


def test_a_bad_token_suggests_the_nearest_card():
    data = valid()
    data["captured"]["Chie"][2] = "5y"
    bad(data, "captured.Chie", "5y", "did you mean")


# --- cards beyond the deck ------------------------------------------------------------------
# The message names the card, where it is counted ("field and hands", "the piles") and every key
# that holds it, so the player is named.


def test_a_card_in_both_the_field_and_a_hand_is_too_many():
    data = valid()
    data["hands"]["Ben"][0] = "1h"  # 松に鶴 is on the field already
    bad(data, "1h", "field", "hands.Ben")


def test_a_kasu_more_often_across_field_and_hands_than_the_deck_holds():
    # 12k on the field, three more in Aki's hand: the deck has three
    data = valid()
    data["hands"]["Aki"] = codes("12kkk 1k 2k 4k 6k")
    bad(data, "12k", "field", "hands")


def test_a_card_twice_in_one_hand_is_too_many():
    data = valid()
    data["hands"]["Ben"] = codes("2t 2t 2k 4t 6k 7k 10k")
    bad(data, "2t", "hands")


def test_a_card_in_two_piles_is_too_many():
    data = valid()
    data["captured"]["Aki"] += ["8h", "8k"]  # Chie holds 8h already
    bad(data, "8h", "piles", "captured.Aki", "captured.Chie")


def test_a_kasu_more_often_across_the_piles_than_the_deck_holds():
    data = round_file({"Aki": "12kk 1rk 2rk 3rk", "Ben": "12kk"}, ended_by="Aki")
    bad(data, "12k", "piles")


# --- sizes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["1h 3r 8k 12k 5t", "1h 3r 8k 12k 5t 9k 10k", ""])
def test_the_field_must_be_six_cards(field):
    bad(with_(field=codes(field)), "field")


@pytest.mark.parametrize("hand", ["2t 2r 2k 4t 6k 7k", "2t 2r 2k 4t 6k 7k 10k 10t"])
def test_a_hand_must_be_seven_cards(hand):
    data = valid()
    data["hands"]["Ben"] = codes(hand)
    bad(data, "hands.Ben")


# --- declared 手役 --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["四五", "sanbon-ish", "五光", "赤短"])
def test_a_declared_teyaku_must_be_a_teyaku_name(name):
    bad(with_(teyaku={"Chie": name}), "teyaku.Chie", name)


def test_a_declared_teyaku_must_be_one_the_hand_makes():
    bad(with_(teyaku={"Ben": "空巣"}), "teyaku.Ben", "空巣")


def test_a_declared_teyaku_must_be_at_the_hands_highest_value():
    data = with_(hands={"Ben": codes("4trk 2t 3h 8t 6t")}, teyaku={"Ben": "三本"})  # makes 立三本
    bad(data, "teyaku.Ben", "三本")


def test_a_declared_teyaku_for_a_hand_with_none_is_bad():
    data = with_(hands={"Ben": codes("2t 4t 6t 7t 8t 9t 10t")}, teyaku={"Ben": "十一"})
    bad(data, "teyaku.Ben", "十一")


def test_a_declared_teyaku_matching_the_hand_is_reported():
    result = score_dict(with_(teyaku={"Ben": "三本"}))
    assert result.players["Ben"].teyaku == "三本"


def test_where_two_names_tie_either_may_be_declared():
    hand = codes("1kk 2kk 3kk 4k")  # 空巣 and 喰付, both 40
    for name in ["空巣", "喰付"]:
        result = score_dict(with_(hands={"Ben": hand}, teyaku={"Ben": name}))
        assert result.players["Ben"].teyaku == name
        assert result.players["Ben"].mon == 2 * (2 * 40 + 80 - 88)


@pytest.mark.parametrize("alias", ["短カス", "赤 (短カス)", "赤（短カス）", "赤"])
def test_aka_may_be_declared_as_tankasu(alias):
    hand = codes("1r 2r 4k 5k 6k 7k 9k")
    result = score_dict(with_(hands={"Ben": hand}, teyaku={"Ben": alias}))
    assert result.players["Ben"].teyaku == "赤"


@pytest.mark.parametrize("alias", ["短カス", "赤 (短カス)"])
def test_aka_alias_declared_without_a_hand_is_paid_as_aka(alias):
    result = score_dict(with_(hands={}, teyaku={"Chie": alias}))
    assert result.players["Chie"].teyaku == "赤"
    assert mon(result) == {"Aki": 2 * (-30 + 8), "Ben": 2 * (-30 - 8), "Chie": 2 * 60}


# --- piles ----------------------------------------------------------------------------------


def test_a_pile_with_an_odd_number_of_one_months_cards_is_bad():
    data = round_file({"Aki": "1rk 2rk 3rk 4k", "Ben": "7tk"}, ended_by="Aki")
    bad(data, "captured.Aki", "4")


def test_a_pile_with_three_cards_of_a_month_is_bad():
    data = round_file({"Aki": "1rk 2rk 3rk", "Ben": "7tkk"}, ended_by="Aki")
    bad(data, "captured.Ben", "7")


def test_an_empty_pile_or_a_missing_player_is_an_empty_pile():
    for captured in ({"Aki": "1rk 2rk 3rk", "Ben": ""}, {"Aki": "1rk 2rk 3rk"}):
        result = score_dict(round_file(captured, ended_by="Aki"))
        assert result.players["Ben"].card_points == 0


def test_a_played_out_rounds_piles_must_hold_all_48_cards():
    data = valid()
    data["captured"]["Chie"] = codes("5* 8hk 9kk 11hr")  # 12* left out
    bad(data, "captured", "48")


def test_a_played_out_round_with_no_piles_is_bad():
    bad(with_(captured={}), "captured", "48")


def test_ended_by_must_hold_a_dekiyaku():
    bad(round_file({"Aki": "1rk 2rk"}, ended_by="Aki"), "ended_by", "Aki")


def test_sage_must_hold_a_dekiyaku():
    bad(round_file({"Aki": "1rk 2rk 3rk", "Ben": "6tk"}, ended_by="Aki", sage="Ben"), "sage", "Ben")


def test_a_dekiyaku_held_by_a_player_who_neither_ended_nor_declared_sage_is_bad():
    data = round_file({"Aki": "1rk 2rk 3rk", "Chie": "6tk 7tk 10tk"}, ended_by="Aki")
    bad(data, "Chie")


def test_a_dekiyaku_held_by_a_third_player_after_sage_is_bad():
    data = round_file({"Aki": "1rk 2rk 3rk", "Ben": "6rk 9rk 10rk", "Chie": "6tk 7tk 10tk"}, sage="Aki", ended_by="Ben")
    bad(data, "Chie")


def test_a_played_out_round_holding_a_dekiyaku_without_sage_is_bad():
    bad(played_out(SAGE_INO), "Aki")
    assert score_dict(played_out(SAGE_INO, sage="Aki")).players["Aki"].dekiyaku == ("猪鹿蝶",)


# --- null and absent ------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["hands", "teyaku", "sage", "ended_by"])
def test_a_null_optional_key_is_the_key_absent(key):
    data = valid()
    data[key] = None
    absent = valid()
    absent.pop(key, None)
    assert score_dict(data).to_json() == score_dict(absent).to_json()


def test_a_null_declaration_is_no_declaration():
    data = with_(teyaku={"Ben": None, "Chie": None})
    assert score_dict(data).to_json() == score_dict(valid()).to_json()


def test_a_null_hand_is_no_hand():
    data = valid()
    data["hands"]["Ben"] = None
    assert score_dict(data).players["Ben"].teyaku is None


# --- 場四 is recognised before the piles are judged ---------------------------------------

BASHI_FIELD = ["9t", "9r", "9k", "9k", "2k", "12k"]


def test_bashi_is_recognised_before_the_piles_are_judged():
    data = {
        "players": ["Aki", "Ben", "Chie"],
        "dealer": "Ben",
        "field": BASHI_FIELD,
        "hands": {"Ben": codes(BEN_SANBON)},
        "captured": {"Aki": ["1h"], "Ben": ["no such card", "1h"], "Chie": "3k"},
    }
    result = score_dict(data)
    assert result.redeal and result.next_dealer == "Ben"


def test_bashi_does_not_judge_teyaku_or_who_ended():
    data = round_file({}, field=BASHI_FIELD, teyaku={"Ben": "四五"}, ended_by="Chie", sage="Aki")
    assert score_dict(data).redeal


def test_bashi_still_judges_the_hands():
    data = round_file({}, field=BASHI_FIELD, hands={"Ben": "2t 2r 2k 4t 6k 7k"})
    bad(data, "hands.Ben")


def test_bashi_still_judges_field_and_hands_against_the_deck():
    data = round_file({}, field=BASHI_FIELD, hands={"Ben": "9t 2r 2k 4t 6k 7k 10k"})
    bad(data, "9t")


@pytest.mark.parametrize("key, value", [("dealer", "Dan"), ("players", ["Aki", "Ben"])])
def test_bashi_still_judges_players_and_dealer(key, value):
    bad(round_file({}, field=BASHI_FIELD, **{key: value}), key)
