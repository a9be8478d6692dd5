"""RULES.md §5: 出来役, judged on a player's captured pile."""

import pytest
from helpers import cards, ledger, mon, round_file, yaku_won

from scorekeeper.scoring import score_dict
from scorekeeper.yaku import dekiyaku


def deki(text):
    return dekiyaku(cards(text))


def won_by_ending(pile):
    """Aki ends the round with ``pile`` on a 小場 field: what each player gets."""
    return score_dict(round_file({"Aki": pile}, ended_by="Aki"))


# --- each 出来役 at its boundary --------------------------------------------------------------


def test_goko_is_all_five_twenty_point_cards():
    assert deki("1h 3h 8h 11h 12h") == ["五光"]


def test_goko_does_not_also_pay_shiko():
    result = won_by_ending("1hk 3hk 8hk 11hk 12hk")
    assert result.players["Aki"].dekiyaku == ("五光",)
    assert mon(result) == yaku_won("Aki", 120)
    assert [reason for *_, reason in ledger(result)] == ["五光", "五光"]


def test_shiko_is_tsuru_maku_tsuki_and_houou():
    assert deki("1h 3h 8h 12h") == ["四光"]
    assert mon(won_by_ending("1hk 3hk 8hk 12hk")) == yaku_won("Aki", 100)


def test_shiko_needs_kiri_not_yanagi():
    assert deki("1h 3h 8h 11h") == []


@pytest.mark.parametrize("missing", ["1h", "3h", "8h", "12h"])
def test_three_of_the_four_brights_are_no_shiko(missing):
    assert deki(" ".join(c for c in ["1h", "3h", "8h", "12h", "11h"] if c != missing)) == []


# 赤短 1r 2r 3r and 青短 6r 9r 10r kept incomplete: two of each and the three plain ribbons
SEVEN_RIBBONS = "1r 2r 6r 9r 4r 5r 7r"


def test_shichitan_is_seven_ribbons():
    assert deki(SEVEN_RIBBONS) == ["七短"]
    assert mon(won_by_ending("1rk 2rk 6rk 9rk 4rk 5rk 7rk")) == yaku_won("Aki", 100)


def test_six_ribbons_are_no_shichitan():
    assert deki("1r 2r 6r 9r 4r 5r") == []


def test_yanagi_ribbon_does_not_count_toward_shichitan():
    assert deki("1r 2r 6r 9r 4r 5r 11r") == []


def test_eight_ribbons_are_still_one_shichitan_worth_100():
    # eight of the nine always complete 赤短 or 青短 as well, which adds up
    pile = "1rk 2rk 3rk 6rk 9rk 4rk 5rk 7rk"
    assert deki(pile) == ["七短", "赤短"]
    assert mon(won_by_ending(pile)) == yaku_won("Aki", 100 + 70)


def test_nine_ribbons_are_still_one_shichitan_worth_100():
    pile = "1rk 2rk 3rk 6rk 9rk 10rk 4rk 5rk 7rk"
    assert deki(pile) == ["七短", "赤短", "青短"]
    assert mon(won_by_ending(pile)) == yaku_won("Aki", 100 + 70 + 70)


def test_akatan_is_the_matsu_ume_sakura_ribbons():
    assert deki("1r 2r 3r") == ["赤短"]
    assert mon(won_by_ending("1rk 2rk 3rk")) == yaku_won("Aki", 70)


@pytest.mark.parametrize("pile", ["1r 2r", "1r 3r 4r", "2r 3r 11r"])
def test_two_red_poetry_ribbons_are_no_akatan(pile):
    assert deki(pile) == []


def test_aotan_is_the_botan_kiku_momiji_ribbons():
    assert deki("6r 9r 10r") == ["青短"]
    assert mon(won_by_ending("6rk 9rk 10rk")) == yaku_won("Aki", 70)


@pytest.mark.parametrize("pile", ["6r 9r", "9r 10r 4r", "6r 10r 11r"])
def test_two_blue_ribbons_are_no_aotan(pile):
    assert deki(pile) == []


def test_inoshikacho_is_boar_deer_and_butterfly():
    assert deki("7t 10t 6t") == ["猪鹿蝶"]
    assert mon(won_by_ending("6tk 7tk 10tk")) == yaku_won("Aki", 70)


@pytest.mark.parametrize("pile", ["7t 10t", "7t 6t 2t", "10t 6t 11t"])
def test_two_of_boar_deer_butterfly_are_no_inoshikacho(pile):
    assert deki(pile) == []


# --- combinations add up --------------------------------------------------------------------


def test_shichitan_akatan_and_aotan_add_up_to_240():
    result = won_by_ending("1rk 2rk 3rk 6rk 9rk 10rk 4rk 5rk 7rk")
    assert result.players["Aki"].mon == 2 * 240


def test_shiko_and_inoshikacho_add_up_to_170():
    pile = "1hk 3hk 8hk 12hk 6tk 7tk 10tk"
    assert deki(pile) == ["四光", "猪鹿蝶"]
    assert mon(won_by_ending(pile)) == yaku_won("Aki", 170)


def test_goko_and_akatan_add_up_to_190():
    pile = "1hr 3hr 2rk 8hk 11hk 12hk"
    assert deki(pile) == ["五光", "赤短"]
    assert mon(won_by_ending(pile)) == yaku_won("Aki", 190)


def test_every_dekiyaku_at_once():
    pile = "1* 2* 3* 6* 9* 10* 4rk 5rk 7* 8hk 11hk 12hk"
    assert deki(pile) == ["五光", "七短", "赤短", "青短", "猪鹿蝶"]
    assert mon(won_by_ending(pile)) == yaku_won("Aki", 120 + 100 + 70 + 70 + 70)


def test_each_dekiyaku_is_one_payment_from_each_other_player():
    result = won_by_ending("1rk 2rk 3rk 6tk 7tk 10tk")
    assert sorted(ledger(result)) == [
        ("Ben", "Aki", 70, "猪鹿蝶"),
        ("Ben", "Aki", 70, "赤短"),
        ("Chie", "Aki", 70, "猪鹿蝶"),
        ("Chie", "Aki", 70, "赤短"),
    ]


def test_no_dekiyaku_in_an_empty_pile():
    assert dekiyaku([]) == []
