"""The round-entry flow (scorekeeper.entry), fed its input line by line.

Every answer is checked by Round.from_dict, the check `round --file` uses: these tests enter real
rounds (the golden files and simulated nights) and compare with scoring the file directly.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from rich.cells import cell_len

from scorekeeper.entry import Aborted, RoundEntry
from scorekeeper.notation import HELP, format_compact, parse_cards
from scorekeeper.scoring import Round, score_dict

from entry_lines import CTRL_C, Script, answers, console, printed
from helpers import money
from simulator import simulate

GOLDEN = Path(__file__).parent / "golden" / "sdin"
PLAYERS = ["Aki", "Ben", "Chie"]


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.round.json").read_text("utf-8"))


ROUNDS = sorted(p.name.removesuffix(".round.json") for p in GOLDEN.glob("*.round.json"))
PLAYED = [n for n in ROUNDS if not Round.from_dict(golden(n)).redeal]


def enter(lines, *, dealer="Aki", players=PLAYERS, prefill=None):
    """Run the flow on ``lines``: (outcome, script, printed text)."""
    script = Script(lines)
    con = console()
    entry = RoundEntry(players, dealer, script, con, prefill=prefill)
    return entry.run(), script, printed(con)


def abort(lines, **kwargs):
    with pytest.raises(Aborted) as info:
        enter(lines, **kwargs)
    return info.value


def compact(codes: str) -> str:
    return format_compact(parse_cards(codes))


# ---------------------------------------------------------------------------------------------
# whole rounds: the flow and the round file never disagree


@pytest.mark.parametrize("name", PLAYED)
def test_a_golden_round_typed_in_scores_as_its_file(name):
    rnd = golden(name)
    outcome, _, _ = enter(answers(rnd), dealer=rnd["dealer"])
    if not rnd.get("ended_by") and not rnd.get("sage"):  # a round of 出来役: only the ender's or caller's pile is asked
        assert outcome.round_file == Round.from_dict(rnd).to_dict()
    assert money(outcome.result) == money(score_dict(rnd))


@pytest.mark.parametrize("seed", range(40))
def test_a_simulated_round_typed_in_scores_as_its_file(seed):
    rnd = simulate(random.Random(seed)).round
    outcome, _, _ = enter(answers(rnd, rest=seed % 2 == 0), dealer=rnd["dealer"])
    assert money(outcome.result) == money(score_dict(rnd))


def test_the_proposed_dealer_is_taken_with_enter():
    rnd = golden("plain-teyaku")
    lines = answers({**rnd, "dealer": "Ben"})
    lines[0] = ""
    outcome, script, _ = enter(lines, dealer="Ben")
    assert script.prompts[0].endswith("[Ben]: ")
    assert outcome.round_file["dealer"] == "Ben"


def test_a_player_by_number_by_start_or_in_any_case():
    rnd = golden("early-dekiyaku")  # dealer Ben, ended by Chie
    for typed in ("3", "ch", "CHIE", "Chie"):
        lines = answers(rnd)
        lines[6] = typed
        outcome, _, _ = enter(lines, dealer="Ben")
        assert outcome.round_file["ended_by"] == "Chie"


# ---------------------------------------------------------------------------------------------
# a bad answer is asked again, with its one-line error, and nothing before it is lost


def test_a_bad_card_then_a_good_one():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[1:2] = ["1h 3r 5t 8k 9k 12x", lines[1]]
    outcome, script, out = enter(lines)
    assert "'12x' is not a card (did you mean 12k 桐のカス?)" in out
    # the field, asked again with the default it had (none): Enter must not submit the bad line
    # again (issue 10); on a terminal ↑ recalls it to fix
    assert script.prompts[2] == "場札 the six field cards, or = and its 光 alone: "
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_an_error_is_one_line_quoting_the_token_as_typed():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[7:7] = ["1h 松にツル"]
    _, _, out = enter(lines)
    errors = [line for line in out.splitlines() if "✗" in line]
    assert errors == ["  ✗ Aki's pile: '松にツル' is not a card (did you mean 1h 松に鶴?)"]


def test_a_field_of_five_cards_is_asked_again():
    lines = answers(golden("plain-teyaku"))
    lines[1:2] = ["1h 3r 5t 8k 9k", lines[1]]
    _, _, out = enter(lines)
    assert "場札 field: holds 5 cards, not 6" in out


def test_a_hand_card_already_on_the_field_is_refused():
    lines = answers(golden("plain-teyaku"))  # field holds 1h
    lines[2:3] = ["1h 2r 2k 4t 6k 7k 10k", "-"]
    _, _, out = enter(lines)
    assert "field and hands: hold 2 × 1h 松に鶴 (in 場札 field, Aki's hand), but the deck has 1" in out


def test_a_hand_of_six_cards_is_refused():
    lines = answers(golden("plain-teyaku"))
    lines[3:4] = ["2t 2r 2k 4t 6k 7k", lines[3]]
    _, _, out = enter(lines)
    assert "Ben's hand: holds 6 cards, not 7" in out


def test_back_goes_to_the_previous_question_and_keeps_every_answer():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    # at Ben's 手役: back to Aki's, back to the field, fix it, then Enter through Aki's 手役
    lines[3:3] = ["back", "back", "", ""]
    outcome, script, _ = enter(lines)
    field_prompts = [p for p in script.prompts if p.startswith("場札")]
    assert field_prompts[1].endswith("[1h 3r 5t 8k 9k 12k]: ")
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_back_from_the_piles_to_the_end_of_the_round_keeps_the_piles():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    # after Aki's pile: back to Aki's pile, back to 下げ, then Enter on both
    lines[8:8] = ["back", "back", "", ""]
    outcome, script, _ = enter(lines)
    assert any(p.startswith("札 Aki") and p.endswith(f"[{compact(' '.join(rnd['captured']['Aki']))}]: ")
               for p in script.prompts)
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_back_at_the_first_question_stays_there():
    lines = ["back"] + answers(golden("plain-teyaku"))
    outcome, _, out = enter(lines)
    assert "first question" in out and outcome.round_file


def test_back_at_the_confirm_asks_the_last_pile_again():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[-1:] = ["back", "", "y"]
    outcome, script, _ = enter(lines)
    assert script.prompts[-2].startswith("札 Chie")
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_question_mark_shows_the_notation_and_asks_again():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[1:1] = ["?"]
    lines[3:3] = ["？"]  # full-width, as a Japanese keyboard types it
    outcome, script, out = enter(lines)
    assert out.count(HELP.splitlines()[0]) == 2
    assert "三本 (さんぼん) 20文" in out  # the 手役 list, at a 手役 question
    assert script.prompts[1] == script.prompts[2]
    assert outcome.round_file


# ---------------------------------------------------------------------------------------------
# 手役


def test_a_declared_yaku_name_or_its_reading():
    rnd = golden("declared-teyaku")  # Chie 三本, Aki 赤, by name
    lines = answers(rnd)
    lines[3] = "さんぼん"  # Chie, by reading (Ben deals: Ben, Chie, Aki)
    outcome, _, out = enter(lines, dealer="Ben")
    assert outcome.round_file["teyaku"] == {"Chie": "三本", "Aki": "赤"}
    assert "三本 (さんぼん) 20文 (declared)" in out
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_a_dealt_hand_echoes_the_yaku_found():
    _, _, out = enter(answers(golden("plain-teyaku")))
    assert "Ben   三本 (さんぼん) 20文 (in the hand)" in out
    assert "Aki   no 手役" in out


def test_a_declaration_the_hand_does_not_make_is_refused():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[3:4] = ["2t 2r 2k 4t 6k 7k 10k 赤", "2t 2r 2k 4t 6k 7k 10k 三本"]
    outcome, _, out = enter(lines)
    assert "Ben's 手役: '赤' is declared, but the hand makes 三本" in out
    assert outcome.round_file["teyaku"] == {"Ben": "三本"}


def test_two_yaku_names_for_one_hand_are_refused():
    lines = answers(golden("plain-teyaku"))
    lines[3:3] = ["三本 赤"]
    _, _, out = enter(lines)
    assert "single highest 手役" in out


# ---------------------------------------------------------------------------------------------
# the piles: rest and the cross-checks, as soon as they can be made


def test_rest_is_the_deck_minus_the_other_two_piles():
    rnd = golden("plain-teyaku")
    outcome, _, out = enter(answers(rnd, rest=True))
    assert sorted(outcome.round_file["captured"]["Chie"]) == sorted(rnd["captured"]["Chie"])
    assert "Chie  18 cards   88 points  left: type rest" in out


def test_rest_only_for_the_last_pile_of_a_played_out_round():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    lines[7:7] = ["rest"]
    _, _, out = enter(lines)
    assert "rest is only for the last pile of a played-out round" in out
    early = golden("early-dekiyaku")
    lines = answers(early)
    lines[-2:-1] = ["rest", lines[-2]]
    _, _, out = enter(lines, dealer="Ben")
    assert "rest is only for the last pile" in out


def test_piles_short_of_264_say_so_with_each_pile_s_points():
    rnd = golden("plain-teyaku")
    lines = answers(rnd)
    chie = rnd["captured"]["Chie"]
    short = [c for c in chie if c not in ("9t", "9r")]  # a capture left out
    lines[9:9] = [" ".join(short)]
    outcome, _, out = enter(lines)
    assert "piles make 264, these make 249 (Aki 96 + Ben 80 + Chie 73)" in out
    assert "9t 菊に盃 9r 菊に青短" in out
    assert outcome.result.to_json() == score_dict(rnd).to_json()


def test_an_odd_month_names_the_player_whose_pile_is_off():
    lines = answers(golden("plain-teyaku"))
    lines[8:8] = ["1k 2k 2k 3h 3r 9k 9k 10t 10r 10k 10k 11t 11k 12h 12k"]  # one 1k
    _, _, out = enter(lines)
    assert "Ben's pile: holds 1 card of month 1 (1k); captures come in twos or fours" in out


def test_a_card_in_two_piles_names_both():
    lines = answers(golden("plain-teyaku"))
    lines[8:8] = ["1h 1k 2k 2k 3h 3r 9k 9k 10t 10r 10k 10k 11t 11k 12h 12k"]
    _, _, out = enter(lines)
    assert "hold 2 × 1h 松に鶴 (in Aki's pile, Ben's pile)" in out


def test_a_yaku_in_the_first_pile_of_a_played_out_round_is_caught_at_once():
    rnd = golden("sage-played-out")  # Aki declared 下げ and holds 猪鹿蝶; played out
    lines = answers(rnd)
    lines[5] = ""  # 下げ forgotten
    # Aki's pile is refused at once; back to 下げ (past the ending), say Aki, and Enter takes the rest as typed
    lines[8:8] = ["back", "back", "Aki", "", ""]
    outcome, script, out = enter(lines)
    errors = [line for line in out.splitlines() if "✗" in line]
    assert errors == ["  ✗ Aki's pile holds 猪鹿蝶, but Aki neither ended the round nor declared 下げ "
                      "(a card in the wrong pile? or back to how the round ended)"]
    assert script.prompts[7].startswith("札 Aki") and script.prompts[8].startswith("札 Aki")
    # played out after Aki's 下げ: only Aki's pile is asked, the others' not, and the money is the file's
    assert money(outcome.result) == money(score_dict(rnd))
    assert [outcome.result.players[p].pile for p in PLAYERS] == ["cards", "unasked", "unasked"]


def test_the_player_who_ended_must_hold_a_yaku():
    rnd = golden("early-dekiyaku")  # Ben deals (Ben, Chie, Aki); Chie ended it with 猪鹿蝶
    lines = answers(rnd)
    lines[6] = "Ben"
    lines[7] = " ".join(rnd["captured"]["Ben"])
    script, con = Script(lines[:8]), console()  # up to Ben's pile, the only one asked
    with pytest.raises(Aborted):
        RoundEntry(PLAYERS, "Ben", script, con).run()
    errors = [line for line in printed(con).splitlines() if "✗" in line]
    assert errors == ["  ✗ Ben ended the round, but Ben's pile holds no 出来役 "
                      "(a card in the wrong pile? or back to how the round ended)"]


def test_a_yaku_held_by_someone_who_did_not_end_names_that_player():
    rnd = golden("sage-played-out")  # Aki declared 下げ and holds 猪鹿蝶; played out
    lines = answers(rnd)
    lines[5] = "Ben"  # the wrong 下げ caller: only Ben's pile is asked, and it holds none
    aki = lines[7]
    # back to 下げ, say Aki: Aki's pile is asked, and Ben's, typed already, is kept (Enter)
    lines[7:8] = [compact(" ".join(rnd["captured"]["Ben"])), "back", "back", "Aki", "", aki, ""]
    outcome, script, out = enter(lines)
    assert "Ben declared 下げ, but Ben's pile holds no 出来役" in out
    assert [p.split(":")[0].split()[1] for p in script.prompts if p.startswith("札")] == ["Ben", "Ben", "Aki", "Ben"]
    assert money(outcome.result) == money(score_dict(rnd))


# ---------------------------------------------------------------------------------------------
# 下げ and 場四


def test_a_sage_round_played_out_is_halved():
    rnd = golden("sage-played-out")
    outcome, _, out = enter(answers(rnd, rest=True))
    assert outcome.round_file["sage"] == "Aki" and "ended_by" not in outcome.round_file
    assert "Aki's 出来役 are halved" in out
    assert money(outcome.result) == money(score_dict(rnd))
    assert outcome.round_file["unasked"] == ["Ben", "Chie"]  # card points don't count: not asked


def test_a_sage_round_overtaken_is_paid_double_by_the_sage_player():
    rnd = golden("sage-overtaken")
    outcome, _, out = enter(answers(rnd), dealer="Ben")
    assert "Chie stopped after Ben's 下げ: Ben alone pays Chie double" in out
    assert money(outcome.result) == money(score_dict(rnd))


def test_a_bashi_field_is_a_redeal_at_once():
    rnd = golden("bashi")
    outcome, script, out = enter(["", " ".join(rnd["field"])])
    assert outcome.redeal and outcome.round_file is None
    assert len(script.prompts) == 2
    assert "場四 (ばし): redeal" in out


# ---------------------------------------------------------------------------------------------
# stopping: Ctrl-C, end of input, no


@pytest.mark.parametrize("at", [0, 1, 3, 5, 6, 7, 9, 10])
def test_ctrl_c_at_any_question_aborts(at):
    lines = answers(golden("plain-teyaku"))
    lines[at] = CTRL_C
    assert "interrupted" in str(abort(lines))


@pytest.mark.parametrize("at", [0, 4, 9, 10])
def test_end_of_input_aborts(at):
    lines = answers(golden("plain-teyaku"))[:at]
    assert "end of input" in str(abort(lines))


def test_no_at_the_confirm_aborts():
    lines = answers(golden("plain-teyaku"), confirm="no")
    assert "not saved" in str(abort(lines))


def test_a_stray_answer_at_the_confirm_asks_again():
    lines = answers(golden("plain-teyaku"))
    lines[-1:] = ["maybe", "y"]
    outcome, script, out = enter(lines)
    assert "answer y (save), n (don't save) or back" in out and outcome.round_file


def test_the_confirm_shows_the_full_result_table():
    _, script, out = enter(answers(golden("plain-teyaku")))
    assert script.prompts[-1] == "save? [Y/n]: "
    for expected in ["大場 (おおば) ×2", "三本 20", "+64", "-24", "-40", "next 親: Ben"]:
        assert expected in out, expected


# ---------------------------------------------------------------------------------------------
# edit: every answer pre-filled


@pytest.mark.parametrize("name", PLAYED)
def test_edit_with_enter_everywhere_keeps_the_round(name):
    rnd = golden(name)
    outcome, script, _ = enter([""] * 11, dealer="Aki", prefill=rnd)
    assert outcome.round_file == Round.from_dict(rnd).to_dict()
    assert script.prompts[1].endswith(f"[{compact(' '.join(rnd['field']))}]: ")


def test_edit_changes_one_answer_and_keeps_the_rest():
    rnd = golden("plain-teyaku")
    lines = [""] * 11
    lines[3] = "-"  # Ben's hand: none after all
    outcome, _, _ = enter(lines, prefill=rnd)
    assert "hands" not in outcome.round_file
    assert outcome.result.players["Ben"].teyaku is None


def test_edit_prefills_a_declared_yaku_with_its_hand():
    rnd = {**golden("plain-teyaku"), "teyaku": {"Ben": "三本"}}
    _, script, _ = enter([""] * 11, prefill=rnd)
    assert "[2trk 4t 6k 7k 10k 三本]: " in script.prompts[3]


# ---------------------------------------------------------------------------------------------
# CJK: names and numbers line up


def test_numbers_line_up_after_japanese_names():
    players = ["秋子", "Ben", "千恵美"]
    rnd = json.loads(json.dumps(golden("plain-teyaku")).replace('"Aki"', '"秋子"').replace('"Chie"', '"千恵美"'))
    _, script, out = enter(answers(rnd), players=players, dealer="秋子")
    rows = [line for line in out.splitlines() if " cards " in line and " points" in line]
    assert len(rows) >= 3
    assert len({cell_len(line[: line.index("cards")]) for line in rows}) == 1
    pile_prompts = [p for p in script.prompts if p.startswith("札")]
    assert len({cell_len(p) for p in pile_prompts[:2]}) == 1


def test_tab_completes_cards_at_card_questions_and_players_at_player_questions():
    script = Script([])
    entry = RoundEntry(PLAYERS, "Aki", script, console())
    assert "Ben" in entry.completions() and "1h" not in entry.completions()
    entry.current = "confirm"
    assert "1h" not in entry.completions()
    entry.current = "field"
    assert {"1h", "12k", "松に鶴", "桐"} <= set(entry.completions())
    entry.current = "pile:Chie"
    assert "rest" in entry.completions()
    entry.current = "hand:Ben"
    assert "三本" in entry.completions()
