"""RULES.md §1 (the deck) and CONTRACT.md §1 (card codes, names and shorthand)."""

from collections import Counter

import pytest

from scorekeeper.cards import DECK, DECK_COUNT, Card, card, points
from scorekeeper.notation import CardError, format_cards, format_compact, parse_cards


def parsed(text):
    return sorted(c.code for c in parse_cards(text))


# --- the deck -------------------------------------------------------------------------------


def test_the_deck_has_48_cards_worth_264_points():
    assert len(DECK) == 48
    assert points(DECK) == 264
    assert points(DECK) // 3 == 88


def test_every_month_has_four_cards():
    assert Counter(c.month for c in DECK) == {m: 4 for m in range(1, 13)}


def test_the_deck_holds_5_brights_9_animals_10_ribbons_24_kasu():
    assert Counter(c.points for c in DECK) == {20: 5, 10: 9, 5: 10, 1: 24}


@pytest.mark.parametrize(
    "month, kinds",
    [
        (1, "hrkk"), (2, "trkk"), (3, "hrkk"), (4, "trkk"), (5, "trkk"), (6, "trkk"),
        (7, "trkk"), (8, "htkk"), (9, "trkk"), (10, "trkk"), (11, "htrk"), (12, "hkkk"),
    ],
)
def test_each_month_holds_the_cards_of_the_rules_table(month, kinds):
    assert sorted(c.kind_code for c in DECK if c.month == month) == sorted(kinds)


def test_susuki_has_a_goose_and_no_ribbon():
    assert Card(8, "t") in DECK_COUNT
    assert Card(8, "r") not in DECK_COUNT
    assert points(c for c in DECK if c.month == 8) == 32


def test_kasu_of_one_month_are_one_card_value_held_several_times():
    assert DECK_COUNT[Card(12, "k")] == 3
    assert DECK_COUNT[Card(11, "k")] == 1
    assert DECK_COUNT[Card(1, "k")] == 2


@pytest.mark.parametrize(
    "code, name, pts",
    [
        ("1h", "松に鶴", 20), ("8t", "芒に雁", 10), ("11r", "柳に短冊", 5), ("12k", "桐のカス", 1),
        ("8h", "芒に月", 20), ("11h", "柳に小野道風", 20), ("11t", "柳に燕", 10),
        ("12h", "桐に鳳凰", 20), ("11k", "柳のカス", 1), ("6r", "牡丹に青短", 5),
        ("1r", "松に赤短", 5), ("1k", "松のカス", 1), ("4r", "藤に短冊", 5),
    ],
)
def test_card_codes_name_the_cards_of_the_rules_table(code, name, pts):
    c = card(code)
    assert (c.code, c.ja, c.points) == (code, name, pts)


# --- parsing: codes, case, spaces, full width -------------------------------------------------


@pytest.mark.parametrize("code", sorted({c.code for c in DECK}))
def test_every_card_code_parses_to_its_card(code):
    assert parse_cards(code) == [card(code)]


@pytest.mark.parametrize("typed", ["1H", " 1h ", "\t1h\n", "１ｈ", "１Ｈ", "  １Ｈ  "])
def test_case_spaces_and_full_width_do_not_matter(typed):
    assert parse_cards(typed) == [Card(1, "h")]


def test_full_width_two_digit_month():
    assert parsed("１２ｋ　１１Ｒ") == ["11r", "12k"]


def test_a_months_kasu_are_written_once_per_card():
    assert parsed("12k 12k 12k") == ["12k", "12k", "12k"]


@pytest.mark.parametrize("line", ["1h 2t 3r", "1h,2t,3r", "1h、2t、3r", "1h, 2t ,3r"])
def test_tokens_are_separated_by_spaces_commas_or_touten(line):
    assert parsed(line) == ["1h", "2t", "3r"]


def test_a_list_item_may_hold_several_tokens():
    assert parsed(["1h", "2t 2r", "12kk"]) == ["12k", "12k", "1h", "2r", "2t"]


# --- Japanese names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, code",
    [
        ("松に鶴", "1h"), ("芒に月", "8h"), ("芒に雁", "8t"), ("柳のカス", "11k"), ("雷", "11k"),
        ("桐のカス", "12k"), ("桐に鳳凰", "12h"), ("柳に小野道風", "11h"), ("柳に燕", "11t"),
        ("柳に短冊", "11r"), ("萩に猪", "7t"), ("紅葉に鹿", "10t"), ("牡丹に蝶", "6t"),
        ("菊に盃", "9t"), ("桜に幕", "3h"), ("梅に赤短", "2r"), ("紅葉に青短", "10r"),
        ("藤に短冊", "4r"), ("萩に短冊", "7r"), ("菖蒲に短冊", "5r"),
    ],
)
def test_japanese_card_names_parse(name, code):
    assert parse_cards(name) == [card(code)]


@pytest.mark.parametrize("c", sorted(set(DECK)))
def test_every_cards_own_japanese_name_parses_back_to_it(c):
    assert parse_cards(c.ja) == [c]


# --- shorthand ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, expected",
    [
        ("1hk", ["1h", "1k"]),
        ("12kkk", ["12k", "12k", "12k"]),
        ("8htkk", ["8h", "8k", "8k", "8t"]),
        ("3*", ["3h", "3k", "3k", "3r"]),
        ("11*", ["11h", "11k", "11r", "11t"]),
        ("12*", ["12h", "12k", "12k", "12k"]),
        ("松hk", ["1h", "1k"]),
        ("桐kkk", ["12k", "12k", "12k"]),
        ("柳*", ["11h", "11k", "11r", "11t"]),
        ("1HK", ["1h", "1k"]),
        ("１ｈｋ", ["1h", "1k"]),
    ],
)
def test_shorthand_several_cards_of_one_month_in_one_token(typed, expected):
    assert parsed(typed) == sorted(expected)


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["1x", "13h", "0h", "2h", "8r", "12t", "zz", "12kkkk", "1hh", "松に靏"])
def test_a_bad_token_is_an_error_quoting_the_token_as_typed(token):
    with pytest.raises(CardError) as err:
        parse_cards(f"1h {token} 2t")
    assert err.value.token == token
    assert token in str(err.value)


def test_the_error_names_the_bad_token_not_its_neighbours():
    with pytest.raises(CardError) as err:
        parse_cards("3r 9q 12k")
    assert err.value.token == "9q"


@pytest.mark.parametrize(
    "token, suggestion",
    [("1x", "1"), ("松に靏", "1h"), ("芒に鴈", "8t"), ("桐に鳳皇", "12h"), ("柳のかず", "11k")],
)
def test_an_unknown_token_suggests_the_nearest_card(token, suggestion):
    with pytest.raises(CardError) as err:
        parse_cards(token)
    message = str(err.value)
    assert "did you mean" in message
    suggested = message.split("did you mean", 1)[1].split()[0]
    assert suggested.startswith(suggestion)
    parse_cards(suggested)  # the suggestion itself is a card


def test_a_month_that_does_not_exist_is_named():
    with pytest.raises(CardError, match="13"):
        parse_cards("13h")


def test_a_kind_the_month_lacks_lists_what_the_month_holds():
    with pytest.raises(CardError) as err:
        parse_cards("2h")
    assert "2t 2r 2k 2k" in str(err.value)


def test_more_of_a_card_in_one_token_than_the_deck_holds_is_an_error():
    assert len(parse_cards("12kkk")) == 3
    with pytest.raises(CardError, match="3"):
        parse_cards("12kkkk")


def test_an_empty_item_is_an_error():
    with pytest.raises(CardError):
        parse_cards(["1h", "  "])


def test_a_non_text_item_is_an_error():
    with pytest.raises(CardError):
        parse_cards(["1h", 5])


# --- writing cards --------------------------------------------------------------------------


def test_format_cards_writes_codes_in_deck_order():
    assert format_cards(parse_cards("12k 1k 3r 1h 11t")) == "1h 1k 3r 11t 12k"


def test_format_compact_writes_one_token_per_month():
    assert format_compact(parse_cards("12k 1k 12k 3r 1h")) == "1hk 3r 12kk"
