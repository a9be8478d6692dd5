"""What the round view (``score``, ``show N``) and the rounds table say a round did.

TRADITIONAL §7: fees and compensation are paid before play, and no 特殊役 cancels them: a
forced-out player's 手役, paid as their 追い込み, is never labelled void, and each group's best
手役 of the hand is shown.
"""

import json

from fast_cli import FastRunner
from helpers import codes
from test_fudawiki_pot import FORCED_FIELD, P4, SOHACHI, EX, fw, rendered, rf, table_rows, three

from scorekeeper.cli import app
from scorekeeper.render import round_view
from scorekeeper.rules import FUDAWIKI
from scorekeeper.store import Book

runner = FastRunner()
#: 立三本 (a three of 藤) and 赤 (three 短冊, the rest kasu): one of each group
BOTH_GROUPS = "4rkk 1r 2r 3k 5k"


def cli(*args, code=0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result


def forced_out_round(piles, hand=BOTH_GROUPS, **extra):
    """Aki, Ben and Chie play from the 親 Aki; Dan, forced out, shows ``hand``."""
    return rf(P4, "Aki", three("Aki", "Ben", "Chie", piles), field=FORCED_FIELD, hands={"Dan": codes(hand)}, **extra)


def row_of(result, player):
    return table_rows(rendered(round_view(result)), {player})[player]


# --- a forced-out player's 手役 is their 追い込み, paid in every kind of round ---------------------


def test_a_forced_out_players_teyaku_in_a_special_round_is_not_void():
    result = fw(forced_out_round(SOHACHI))
    assert result.kind == "特殊役" and result.players["Aki"].special == ("総八",)
    assert [p.mon for p in result.payments if p.payee == "Dan"] == [25, 25]  # (3 + 2) / 2 kan each
    cell = row_of(result, "Dan")[1]
    assert cell == "立三本 30 + 赤 20 (追い込み)"
    assert "void" not in cell


def test_a_forced_out_players_teyaku_in_a_plain_round_is_their_tsuikomi():
    result = fw(forced_out_round(EX))
    assert result.kind == "札"
    assert row_of(result, "Dan")[1] == "立三本 30 + 赤 20 (追い込み)"


def test_a_played_teyaku_in_a_special_round_is_still_void():
    result = fw(rf(P4, "Aki", three("Aki", "Ben", "Chie", SOHACHI), field=FORCED_FIELD,
                   hands={"Ben": codes(BOTH_GROUPS)}))
    assert result.kind == "特殊役"
    assert row_of(result, "Ben")[1] == "立三本 30 + 赤 20 (void)"


def test_a_dropped_players_hand_is_void_in_every_kind_of_round():
    for piles, kind in ((SOHACHI, "特殊役"), (EX, "札")):
        data = rf(P4, "Aki", three("Ben", "Chie", "Dan", piles), field=FORCED_FIELD,
                  hands={"Aki": codes(BOTH_GROUPS)}, dropped=["Aki"])
        result = fw(data)
        assert result.kind == kind and result.players["Aki"].role == "dropped"
        assert row_of(result, "Aki")[1] == "立三本 30 + 赤 20 (void)"


def test_show_n_labels_the_forced_out_players_teyaku_as_their_tsuikomi(book_file):
    book = Book.open(book_file)
    sid = book.new_session(P4, dealer="Aki", rules=FUDAWIKI)
    add_round(book, sid, forced_out_round(SOHACHI))
    text = cli("show", "1").stdout
    dan = next(line for line in text.splitlines() if line.startswith("Dan "))
    assert "立三本 30 + 赤 20 (追い込み)" in dan and "void" not in dan
    data = json.loads(cli("show", "1", "--json").stdout)
    assert data["players"]["Dan"]["teyaku_all"] == ["立三本", "赤"]


# --- TRADITIONAL §7, two-player round: settled on the difference of the two piles ----------------

from test_fudawiki_pot import MISDEAL, night, session  # noqa: E402

from scorekeeper.night_view import summary_view  # noqa: E402
from scorekeeper.scoring import POT  # noqa: E402
from helpers import add_round

#: 親 Aki; Aki and Ben drop, Chie (23) and Dan (28) play two-handed
TWO_HANDED = {"players": P4, "dealer": "Aki", "field": FORCED_FIELD, "dropped": ["Aki", "Ben"],
              "captured": {"Chie": codes("2* 4rk"), "Dan": codes("5* 9tk")}}


def test_a_two_player_round_says_it_is_settled_on_the_difference_of_the_two_piles():
    result = fw(TWO_HANDED)
    text = rendered(round_view(result))
    assert "two-player round: 手役 paid, the lower pile pays the difference of the two piles" in text
    assert "− 88" not in text
    assert "札 the difference of the two piles (28 − 23)" in text


def test_a_three_player_plain_round_still_says_card_points_minus_88():
    result = fw(rf(P4, "Aki", three("Aki", "Ben", "Chie", EX), field=FORCED_FIELD))
    text = rendered(round_view(result))
    assert "plain round: 手役 paid, card points − 88" in text and "札 card points" in text
    assert "two piles" not in text


def test_a_two_player_tie_says_nobody_pays_for_the_piles():
    tie = {**TWO_HANDED, "captured": {"Chie": codes("2* 4rk"), "Dan": codes("5rk 6tk 9rk")}}  # 23 and 23
    result = fw(tie)
    assert not any(p.reason == "札" for p in result.payments)
    assert "札: the two piles tie at 23, nobody pays for them" in rendered(round_view(result))


def summary_rounds(rounds, rules=FUDAWIKI):
    s = session(rounds, rules=rules)
    text = rendered(summary_view({**s, "planned_rounds": 12, "rate": None}, night.replay(s)))
    return table_rows(text, {str(n) for n in range(1, len(rounds) + 1)})


def test_the_rounds_table_says_a_two_player_round_was_settled_on_the_piles():
    rows = summary_rounds([{**TWO_HANDED, "dealer": "Ben", "dropped": ["Ben", "Aki"]}])
    assert rows["1"][3] == "札 the two piles' difference only"


# --- the rounds table and show N name what a round of nobody playing did --------------------------

#: 親 Ben: Ben, Chie and Dan drop, Aki alone plays
SOLO = {"players": P4, "dealer": "Ben", "field": FORCED_FIELD, "dropped": ["Ben", "Chie", "Dan"]}


def test_the_rounds_table_names_the_misdeal_the_single_volunteer_and_the_split():
    rows = summary_rounds([MISDEAL, SOLO])
    assert rows["1"][3] == "流れ: 140文 逃げ料 into the pot, 140文 waits"
    assert rows["2"][3] == "一人: 90文 逃げ料 into the pot; Aki takes the pot, 230文"
    split = FUDAWIKI._replace(two_volunteers="split")
    rows = summary_rounds([MISDEAL, {"players": P4, "dealer": "Ben", "field": FORCED_FIELD, "dropped": ["Ben", "Chie"]}],
                          rules=split)
    assert rows["2"][3] == "山分け: 50文 逃げ料 into the pot; split: Dan 95文 · Aki 95文"


def test_a_played_round_that_takes_the_pot_still_lists_its_yaku():
    rows = summary_rounds([MISDEAL, {"players": P4, "dealer": "Ben", "field": FORCED_FIELD,
                                     "captured": three("Ben", "Chie", "Dan", EX)}])
    assert rows["2"][3] == "札 card points only"


def test_show_n_says_what_a_misdeal_and_a_single_volunteer_did_with_the_pot(book_file):
    book = Book.open(book_file)
    sid = book.new_session(P4, dealer="Ben", rules=FUDAWIKI)
    add_round(book, sid, {k: v for k, v in MISDEAL.items() if k != "players"})
    add_round(book, sid, {k: v for k, v in SOLO.items() if k != "players"})
    assert "pot: 140文 逃げ料 into the pot, 140文 waits" in cli("show", "1").stdout
    assert "pot: 90文 逃げ料 into the pot; Aki takes the pot, 230文" in cli("show", "2").stdout
    data = json.loads(cli("show", "2", "--json").stdout)
    assert [p for p in data["payments"] if p["from"] == POT] == [{"from": "pot", "to": "Aki", "mon": 230, "reason": "pot"}]
