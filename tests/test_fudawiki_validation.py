"""CONTRACT.md §7 "Also bad": the new round-file keys, for three players.

sage (one name or a list, each caller once; at most one under sdin), ended_how (shoubu or cancel,
only with ended_by; cancel not under sdin and only by a 下げ caller), teyaku (a list only under a
profile of groups), and ``sage: []`` / ``teyaku: {}`` meaning none. (``carry`` is in
test_fudawiki_carry.py.)
"""

import pytest
from helpers import EXAMPLE_PILES, SMALL_FIELD, played_out, round_file

from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import RoundError, score_dict

AKATAN = "1rk 2rk 3rk"
AOTAN = "6rk 9rk 10rk"


def two_holders(**extra):
    """Aki ends with 赤短; Ben holds 青短 (so he must have called 下げ)."""
    return round_file({"Aki": AKATAN, "Ben": AOTAN}, field=SMALL_FIELD, **extra)


def bad(data, rules=FUDAWIKI):
    with pytest.raises(RoundError) as e:
        score_dict(data, rules=rules)
    return e.value


# --- sage ---------------------------------------------------------------------------------------


def test_sage_naming_a_player_twice_is_bad():
    err = bad(two_holders(ended_by="Aki", sage=["Ben", "Aki", "Ben"]))
    assert err.where == "sage" and "twice" in err.problem


def test_sage_listing_each_caller_once_is_good():
    score_dict(two_holders(ended_by="Aki", sage=["Ben", "Aki"]), rules=FUDAWIKI)


@pytest.mark.parametrize("value", [["Ben", "Dan"], ["Ben", 3], [None], [["Ben"]], 7, {"Ben": 1}])
def test_sage_a_list_with_anything_but_the_players_names_is_bad(value):
    assert bad(two_holders(ended_by="Aki", sage=value)).where == "sage"


def test_under_sdin_more_than_one_sage_caller_is_bad():
    err = bad(two_holders(ended_by="Aki", sage=["Ben", "Aki"]), rules=SDIN)
    assert err.where == "sage"


def test_under_sdin_a_list_of_one_sage_caller_is_one_caller():
    a = score_dict(two_holders(ended_by="Aki", sage=["Ben"]))
    b = score_dict(two_holders(ended_by="Aki", sage="Ben"))
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("rules", [SDIN, FUDAWIKI], ids=["sdin", "fudawiki"])
def test_an_empty_sage_list_means_none_like_null(rules):
    data = round_file({"Aki": AKATAN}, ended_by="Aki")
    want = score_dict(data, rules=rules).to_json()
    assert score_dict(dict(data, sage=[]), rules=rules).to_json() == want
    assert score_dict(dict(data, sage=None), rules=rules).to_json() == want


# --- ended_how ------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["shoubu", "cancel"])
def test_ended_how_without_ended_by_is_bad(how):
    data = played_out(EXAMPLE_PILES, ended_how=how)
    assert bad(data).where == "ended_how"


@pytest.mark.parametrize("how", ["Shoubu", "stop", "", 1, ["cancel"], True])
def test_ended_how_other_than_shoubu_or_cancel_is_bad(how):
    assert bad(two_holders(ended_by="Aki", sage="Ben", ended_how=how)).where == "ended_how"


def test_ended_how_null_is_the_default_shoubu():
    a = score_dict(two_holders(ended_by="Aki", sage="Ben", ended_how=None), rules=FUDAWIKI)
    assert a.round.ended_how == "shoubu"


def test_cancel_under_sdin_is_bad():
    err = bad(round_file({"Ben": AOTAN}, ended_by="Ben", sage="Ben", ended_how="cancel"), rules=SDIN)
    assert err.where == "ended_how"


def test_shoubu_written_out_under_sdin_is_good():
    score_dict(two_holders(ended_by="Aki", sage="Ben", ended_how="shoubu"))


def test_cancel_by_a_player_who_never_called_sage_is_bad():
    err = bad(two_holders(ended_by="Aki", sage="Ben", ended_how="cancel"))
    assert err.where == "ended_how"


def test_cancel_by_a_sage_caller_is_good():
    score_dict(two_holders(ended_by="Aki", sage=["Aki", "Ben"], ended_how="cancel"), rules=FUDAWIKI)


# --- teyaku -----------------------------------------------------------------------------------------


def test_under_sdin_a_list_for_teyaku_is_bad():
    err = bad(played_out(EXAMPLE_PILES, teyaku={"Chie": ["三本"]}), rules=SDIN)
    assert err.where == "teyaku.Chie"


def test_under_fudawiki_a_list_for_teyaku_is_good():
    score_dict(played_out(EXAMPLE_PILES, teyaku={"Chie": ["三本", "赤"]}), rules=FUDAWIKI)


@pytest.mark.parametrize("value", [["三本", 3], ["三本", None], ["猪鹿蝶"], ["三本", "赤", "十一"]])
def test_under_fudawiki_a_teyaku_list_of_anything_but_one_name_per_group_is_bad(value):
    assert bad(played_out(EXAMPLE_PILES, teyaku={"Chie": value})).where == "teyaku.Chie"


@pytest.mark.parametrize("rules", [SDIN, FUDAWIKI], ids=["sdin", "fudawiki"])
def test_an_empty_teyaku_object_means_none_like_null(rules):
    data = played_out(EXAMPLE_PILES)
    want = score_dict(data, rules=rules).to_json()
    assert score_dict(dict(data, teyaku={}), rules=rules).to_json() == want
    assert score_dict(dict(data, teyaku=None), rules=rules).to_json() == want


@pytest.mark.parametrize("name", ["二立三本", "三本立三本", "二三本"])
def test_the_fudawiki_only_teyaku_names_are_not_sdin_names(name):
    assert bad(played_out(EXAMPLE_PILES, teyaku={"Chie": name}), rules=SDIN).where == "teyaku.Chie"
    score_dict(played_out(EXAMPLE_PILES, teyaku={"Chie": name}), rules=FUDAWIKI)


# --- with three seated there is no dropping out and no pot ----------------------------------------


@pytest.mark.parametrize("key,value", [("dropped", ["Ben"]), ("pot", 5)])
def test_with_three_seated_dropped_or_a_pot_is_bad(key, value):
    assert bad(played_out(EXAMPLE_PILES, **{key: value})).where == key


def test_a_player_named_pot_is_bad():
    data = played_out(EXAMPLE_PILES)
    data["players"] = ["Aki", "Ben", "pot"]
    data["captured"]["pot"] = data["captured"].pop("Chie")
    assert bad(data).where == "players"
