"""RULES.md §2–3, §7–8 and CONTRACT.md §4: the field, settling a round, 下げ, the next 親."""

import json

import pytest
from helpers import (
    BIG_FIELD,
    EXAMPLE_PILES,
    FIELDS,
    SAGE_AKA_AO,
    SAGE_INO,
    SMALL_FIELD,
    TIE_PILES,
    ZEKKYO_FIELD,
    ledger,
    mon,
    net_of_payments,
    played_out,
    round_file,
    yaku_won,
)

from scorekeeper.scoring import score_dict

# 出来役 piles (ended rounds need not hold all 48 cards)
AKATAN = "1rk 2rk 3rk"  # 赤短 70
INOSHIKACHO = "6tk 7tk 10tk"  # 猪鹿蝶 70
AKA_AO = "1rk 2rk 3rk 6rk 9rk 10rk"  # 赤短 + 青短 140

#: Ben's dealt hand: three 梅 make 三本 (20)
BEN_SANBON = "2t 2r 2k 4t 6k 7k 10k"


def ended(pile, field=SMALL_FIELD, **extra):
    """Aki ends the round with ``pile``."""
    return round_file({"Aki": pile}, field=field, ended_by="Aki", **extra)


# --- RULES.md §3: field class ---------------------------------------------------------------


def test_no_twenty_point_card_on_the_field_is_kobaba_times_1():
    # 柳 cards other than 小野道風 are no 20-point card
    result = score_dict(ended(AKATAN, field=["11t", "11r", "11k", "2t", "5r", "9k"]))
    assert (result.field_class, result.multiplier) == ("小場", 1)
    assert mon(result) == yaku_won("Aki", 70)


@pytest.mark.parametrize("bright", ["1h", "3h", "8h"])
def test_tsuru_maku_or_tsuki_on_the_field_is_ooba_times_2(bright):
    result = score_dict(ended(AKATAN, field=[bright, "4k", "5k", "6k", "7k", "9k"]))
    assert (result.field_class, result.multiplier) == ("大場", 2)
    assert mon(result) == yaku_won("Aki", 140)


@pytest.mark.parametrize("bright", ["11h", "12h"])
def test_ono_no_michikaze_or_houou_on_the_field_is_zekkyo_times_4(bright):
    result = score_dict(ended(AKATAN, field=[bright, "4k", "5k", "6k", "7k", "9k"]))
    assert (result.field_class, result.multiplier) == ("絶場", 4)
    assert mon(result) == yaku_won("Aki", 280)


@pytest.mark.parametrize("zekkyo", ["11h", "12h"])
def test_zekkyo_wins_over_ooba_when_both_are_on_the_field(zekkyo):
    result = score_dict(ended(AKATAN, field=["1h", "3h", "8h", zekkyo, "5k", "9k"]))
    assert (result.field_class, result.multiplier) == ("絶場", 4)


def test_field_class_comes_from_the_initial_field_not_the_piles():
    result = score_dict(ended("1hk 3hk 8hk 12hk"))
    assert result.field_class == "小場"
    assert mon(result) == yaku_won("Aki", 100)


# --- RULES.md §2: 場四 --------------------------------------------------------------------------

MONTH_CARDS = {
    1: "1h 1r 1k 1k", 2: "2t 2r 2k 2k", 3: "3h 3r 3k 3k", 4: "4t 4r 4k 4k", 5: "5t 5r 5k 5k",
    6: "6t 6r 6k 6k", 7: "7t 7r 7k 7k", 8: "8h 8t 8k 8k", 9: "9t 9r 9k 9k", 10: "10t 10r 10k 10k",
    11: "11h 11t 11r 11k", 12: "12h 12k 12k 12k",
}


@pytest.mark.parametrize("month", range(1, 13))
def test_four_cards_of_one_month_on_the_field_is_bashi_and_the_same_dealer_redeals(month):
    others = [c for c in ["4k", "9k", "10k"] if not c.startswith(f"{month}k")][:2]
    field = MONTH_CARDS[month].split() + others
    result = score_dict(round_file({}, field=field, dealer="Ben"))
    field_class, multiplier = {1: ("大場", 2), 3: ("大場", 2), 8: ("大場", 2), 11: ("絶場", 4), 12: ("絶場", 4)}.get(
        month, ("小場", 1)
    )
    assert result.to_json() == {
        "field_class": field_class,
        "multiplier": multiplier,
        "redeal": True,
        "next_dealer": "Ben",
        "players": {
            p: {"teyaku": None, "dekiyaku": [], "special": [], "card_points": 0, "mon": 0,
                "teyaku_all": [], "bonuses": [], "role": "played"}
            for p in ["Aki", "Ben", "Chie"]
        },
        "payments": [],
        "profile": "sdin", "carry": [], "winner": None, "pot": 0,  # CONTRACT §7's keys
    }


def test_bashi_scores_nothing_even_with_hands_and_piles():
    data = round_file(
        {"Aki": AKA_AO, "Ben": "1h"},
        field="9* 2k 12k",
        dealer="Chie",
        hands={"Ben": BEN_SANBON},
        ended_by="Aki",
    )
    result = score_dict(data)
    assert result.redeal
    assert mon(result) == {"Aki": 0, "Ben": 0, "Chie": 0}
    assert result.payments == ()
    assert result.next_dealer == "Chie"


def test_three_cards_of_one_month_on_the_field_is_not_bashi():
    result = score_dict(ended(AKATAN, field=["9t", "9r", "9k", "2k", "12k", "4k"]))
    assert not result.redeal
    assert result.to_json()["redeal"] is False
    assert mon(result) == yaku_won("Aki", 70)


# --- RULES.md §7: settling -----------------------------------------------------------------


def test_every_yaku_is_paid_to_its_holder_by_each_of_the_other_two():
    result = score_dict(ended(INOSHIKACHO))
    assert sorted(ledger(result)) == [("Ben", "Aki", 70, "猪鹿蝶"), ("Chie", "Aki", 70, "猪鹿蝶")]
    assert mon(result) == {"Aki": 140, "Ben": -70, "Chie": -70}


def test_dekiyaku_round_pays_teyaku_and_dekiyaku_but_no_card_points():
    result = score_dict(ended(AKATAN, hands={"Ben": BEN_SANBON}))
    assert result.kind == "出来役"
    assert result.players["Aki"].card_points == 18  # reported, not scored
    assert mon(result) == {"Aki": 140 - 20, "Ben": -70 + 40, "Chie": -70 - 20}
    assert "札" not in {p.reason for p in result.payments}


def test_plain_round_pays_teyaku_and_card_points_minus_88():
    result = score_dict(played_out(EXAMPLE_PILES, hands={"Ben": BEN_SANBON}))
    assert result.kind == "札"
    # Aki 96, Ben 80, Chie 88 points; Ben's 三本 20 from each
    assert mon(result) == {"Aki": -20 + 8, "Ben": 40 - 8, "Chie": -20 + 0}


def test_plain_round_without_teyaku_scores_card_points_only():
    result = score_dict(played_out(EXAMPLE_PILES))
    assert mon(result) == {"Aki": 8, "Ben": -8, "Chie": 0}
    assert ledger(result) == [("Ben", "Aki", 8, "札")]


def test_a_declared_teyaku_is_paid_like_one_found_from_the_hand():
    result = score_dict(played_out(EXAMPLE_PILES, teyaku={"Chie": "立三本"}))
    assert result.players["Chie"].teyaku == "立三本"
    assert mon(result) == {"Aki": -30 + 8, "Ben": -30 - 8, "Chie": 60}


def test_received_minus_paid_is_each_players_result():
    result = score_dict(played_out(EXAMPLE_PILES, hands={"Ben": BEN_SANBON}, teyaku={"Aki": "十一"}))
    assert net_of_payments(result) == mon(result)
    assert sum(mon(result).values()) == 0


# --- the multiplier applies to every amount -------------------------------------------------

#: round builders by what is paid, with each player's result on a 小場 (×1) field
SCENARIOS = {
    "手役 and card points": (
        lambda field: played_out(EXAMPLE_PILES, field=field, hands={"Ben": BEN_SANBON}),
        {"Aki": -12, "Ben": 32, "Chie": -20},
    ),
    "card points": (lambda field: played_out(EXAMPLE_PILES, field=field), {"Aki": 8, "Ben": -8, "Chie": 0}),
    "出来役": (lambda field: ended(AKA_AO, field=field), {"Aki": 280, "Ben": -140, "Chie": -140}),
    "halved 出来役": (
        lambda field: played_out(SAGE_INO, field=field, sage="Aki"),
        {"Aki": 70, "Ben": -35, "Chie": -35},
    ),
    "doubled 出来役": (
        lambda field: round_file({"Aki": AKATAN, "Ben": INOSHIKACHO}, field=field, sage="Aki", ended_by="Ben"),
        {"Aki": -140, "Ben": 140, "Chie": 0},
    ),
    "特殊役": (
        lambda field: played_out(
            {"Aki": "1* 2tk 4* 5tr 6tr 7tr 8hk 9* 11ht", "Ben": "5kk 6kk 10rk 11rk", "Chie": "2rk 3* 7kk 8tk 10tk 12*"},
            field=field,
        ),
        {"Aki": 200, "Ben": -100, "Chie": -100},
    ),
}


@pytest.mark.parametrize("mult", [1, 2, 4])
@pytest.mark.parametrize("what", list(SCENARIOS))
def test_the_field_multiplier_applies_to_every_amount(what, mult):
    build, at_one = SCENARIOS[what]
    result = score_dict(build(FIELDS[mult]))
    assert result.multiplier == mult
    assert mon(result) == {p: m * mult for p, m in at_one.items()}


# --- 下げ ---------------------------------------------------------------------------------


def test_sage_player_who_stops_after_a_further_yaku_is_paid_all_in_full():
    result = score_dict(ended(AKA_AO, sage="Aki"))
    assert mon(result) == yaku_won("Aki", 140)


def test_sage_shiko_then_goko_pays_120_not_220():
    result = score_dict(ended("1hk 3hk 8hk 12hk 11hk", sage="Aki"))
    assert result.players["Aki"].dekiyaku == ("五光",)
    assert mon(result) == yaku_won("Aki", 120)


@pytest.mark.parametrize("piles, total", [(SAGE_INO, 70), (SAGE_AKA_AO, 140)])
def test_sage_played_out_without_further_yaku_is_halved_and_paid_by_each(piles, total):
    result = score_dict(played_out(piles, sage="Aki"))
    assert result.kind == "出来役"
    assert mon(result) == yaku_won("Aki", total // 2)  # no card points either


def test_sage_played_out_still_pays_teyaku_in_full():
    result = score_dict(played_out(SAGE_INO, sage="Aki", teyaku={"Chie": "三本"}))
    assert mon(result) == {"Aki": 70 - 20, "Ben": -35 - 20, "Chie": -35 + 40}


def test_when_another_player_ends_the_sage_player_alone_pays_double():
    result = score_dict(round_file({"Aki": AKATAN, "Ben": INOSHIKACHO}, sage="Aki", ended_by="Ben"))
    assert ledger(result) == [("Aki", "Ben", 140, "猪鹿蝶")]
    assert mon(result) == {"Aki": -140, "Ben": 140, "Chie": 0}


def test_when_another_player_ends_the_sage_players_own_yaku_earn_nothing_but_are_reported():
    # Aki's 赤短 + 青短 (140) is bigger than Ben's 猪鹿蝶, and still earns nothing
    result = score_dict(round_file({"Aki": AKA_AO, "Ben": INOSHIKACHO}, sage="Aki", ended_by="Ben"))
    assert result.to_json()["players"]["Aki"]["dekiyaku"] == ["赤短", "青短"]
    assert not [p for p in result.payments if p.payee == "Aki"]
    assert mon(result) == {"Aki": -140, "Ben": 140, "Chie": 0}


def test_when_another_player_ends_each_of_their_yaku_is_paid_double_by_the_sage_player():
    result = score_dict(round_file({"Chie": AKATAN, "Ben": "6* 7tk 9rk 10*"}, sage="Chie", ended_by="Ben"))
    assert result.players["Ben"].dekiyaku == ("青短", "猪鹿蝶")
    assert mon(result) == {"Aki": 0, "Ben": 280, "Chie": -280}
    assert {p.payer for p in result.payments} == {"Chie"}


def test_when_another_player_ends_after_sage_teyaku_are_still_paid():
    data = round_file({"Aki": AKATAN, "Ben": INOSHIKACHO}, sage="Aki", ended_by="Ben", teyaku={"Chie": "喰付"})
    assert mon(score_dict(data)) == {"Aki": -140 - 40, "Ben": 140 - 40, "Chie": 80}


# --- RULES.md §8: the next 親 -------------------------------------------------------------------


def test_the_player_with_the_highest_result_deals_next():
    result = score_dict(played_out(EXAMPLE_PILES, hands={"Ben": BEN_SANBON}))
    assert result.next_dealer == "Ben"
    result = score_dict(played_out(EXAMPLE_PILES, dealer="Chie"))
    assert result.next_dealer == "Aki"


def test_the_winner_of_a_dekiyaku_round_deals_next():
    assert score_dict(ended(AKATAN, dealer="Chie")).next_dealer == "Aki"
    data = round_file({"Aki": AKATAN, "Ben": INOSHIKACHO}, sage="Aki", ended_by="Ben", dealer="Aki")
    assert score_dict(data).next_dealer == "Ben"


@pytest.mark.parametrize("dealer", ["Aki", "Ben"])
def test_on_a_tie_the_dealer_keeps_the_deal_if_among_the_tied(dealer):
    result = score_dict(played_out(TIE_PILES, dealer=dealer))
    assert mon(result) == {"Aki": 5, "Ben": 5, "Chie": -10}
    assert result.next_dealer == dealer


@pytest.mark.parametrize(
    "piles, dealer, expected",
    [
        # Aki and Ben tied, 親 Chie: after Chie comes Aki
        ({"Aki": TIE_PILES["Aki"], "Ben": TIE_PILES["Ben"], "Chie": TIE_PILES["Chie"]}, "Chie", "Aki"),
        # Ben and Chie tied, 親 Aki: after Aki comes Ben
        ({"Aki": TIE_PILES["Chie"], "Ben": TIE_PILES["Aki"], "Chie": TIE_PILES["Ben"]}, "Aki", "Ben"),
        # Aki and Chie tied, 親 Ben: after Ben comes Chie, before Aki
        ({"Aki": TIE_PILES["Aki"], "Ben": TIE_PILES["Chie"], "Chie": TIE_PILES["Ben"]}, "Ben", "Chie"),
    ],
)
def test_on_a_tie_without_the_dealer_the_first_tied_player_after_the_dealer_deals(piles, dealer, expected):
    result = score_dict(played_out(piles, dealer=dealer))
    assert sorted(mon(result).values()) == [-10, 5, 5]
    assert result.next_dealer == expected


def test_play_order_is_the_order_of_players_not_alphabetical():
    piles = {"Aki": TIE_PILES["Aki"], "Ben": TIE_PILES["Chie"], "Chie": TIE_PILES["Ben"]}
    data = played_out(piles, dealer="Ben", players=["Ben", "Aki", "Chie"])
    assert score_dict(data).next_dealer == "Aki"  # Ben, then Aki


# --- CONTRACT.md §4: the worked example --------------------------------------------------------

#: A round played to the end by the simulator, from the example's field and Ben's hand.
EXAMPLE_ROUND = {
    "players": ["Aki", "Ben", "Chie"],
    "dealer": "Aki",
    "field": ["1h", "3r", "8k", "12k", "5t", "9k"],
    "hands": {"Ben": ["2t", "2r", "2k", "4t", "6k", "7k", "10k"]},
    "captured": {
        "Aki": ["3r", "3h", "9t", "9r", "1r", "1k", "7k", "7t", "11t", "11k", "4t", "4k", "6r", "6t", "3k", "3k"],
        "Ben": ["1h", "1k", "2r", "2k", "6k", "6k", "10t", "10k", "2k", "2t", "8k", "8t", "10r", "10k", "7r", "7k", "4k", "4r"],
        "Chie": ["12k", "12k", "5t", "5r", "9k", "9k", "12k", "12h", "11h", "11r", "8k", "8h", "5k", "5k"],
    },
}

#: CONTRACT.md §4, as printed there
EXAMPLE_JSON = {
    "field_class": "大場", "multiplier": 2, "redeal": False, "next_dealer": "Ben",
    "players": {
        "Aki": {"teyaku": None, "dekiyaku": [], "special": [], "card_points": 96, "mon": -24},
        "Ben": {"teyaku": "三本", "dekiyaku": [], "special": [], "card_points": 80, "mon": 64},
        "Chie": {"teyaku": None, "dekiyaku": [], "special": [], "card_points": 88, "mon": -40},
    },
    "payments": [
        {"from": "Aki", "to": "Ben", "mon": 40, "reason": "三本"},
        {"from": "Chie", "to": "Ben", "mon": 40, "reason": "三本"},
        {"from": "Ben", "to": "Aki", "mon": 16, "reason": "札"},
    ],
}


def test_the_contract_worked_example_round_is_a_whole_deck():
    piles = [c for pile in EXAMPLE_ROUND["captured"].values() for c in pile]
    assert len(piles) == 48
    assert sorted(piles) == sorted(c for pile in played_out(EXAMPLE_PILES)["captured"].values() for c in pile)


#: CONTRACT §7's keys, added under every profile after the keys of §4
ADDED_KEYS = ("profile", "carry", "winner", "pot")
ADDED_PLAYER_KEYS = ("teyaku_all", "bonuses", "role")


def contract_4(out: dict) -> dict:
    """``out`` without CONTRACT §7's added keys, checking that they come after §4's, in order."""
    assert list(out)[-len(ADDED_KEYS):] == list(ADDED_KEYS)
    kept = {k: v for k, v in out.items() if k not in ADDED_KEYS}
    kept["players"] = {}
    for p, r in out["players"].items():
        assert list(r)[-len(ADDED_PLAYER_KEYS):] == list(ADDED_PLAYER_KEYS)
        kept["players"][p] = {k: v for k, v in r.items() if k not in ADDED_PLAYER_KEYS}
    return kept


def test_the_contract_worked_example_reproduces_exactly():
    out = score_dict(EXAMPLE_ROUND).to_json()
    assert contract_4(out) == EXAMPLE_JSON
    # same keys in the same order, so the printed line is the same up to the added keys
    dump = lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":"))
    assert dump(contract_4(out)) == dump(EXAMPLE_JSON)
    assert {k: out[k] for k in ADDED_KEYS} == {"profile": "sdin", "carry": [], "winner": "Ben", "pot": 0}
    assert out["players"]["Ben"]["teyaku_all"] == ["三本"] and out["players"]["Aki"]["teyaku_all"] == []
    assert {r["role"] for r in out["players"].values()} == {"played"}


def test_the_example_piles_in_shorthand_are_the_same_round():
    data = played_out(EXAMPLE_PILES, field=BIG_FIELD, hands={"Ben": BEN_SANBON})
    assert contract_4(score_dict(data).to_json()) == EXAMPLE_JSON


def test_zekkyo_example_quadruples_every_amount():
    out = score_dict(played_out(EXAMPLE_PILES, field=ZEKKYO_FIELD, hands={"Ben": BEN_SANBON})).to_json()
    assert {p: r["mon"] for p, r in out["players"].items()} == {"Aki": -48, "Ben": 128, "Chie": -80}
