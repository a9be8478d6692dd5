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
    book.add_round(sid, forced_out_round(SOHACHI))
    text = cli("show", "1").stdout
    dan = next(line for line in text.splitlines() if line.startswith("Dan "))
    assert "立三本 30 + 赤 20 (追い込み)" in dan and "void" not in dan
    data = json.loads(cli("show", "1", "--json").stdout)
    assert data["players"]["Dan"]["teyaku_all"] == ["立三本", "赤"]
