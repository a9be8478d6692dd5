"""The round-entry flow under the traditional profile (``fudawiki``, TRADITIONAL §3–4).

It asks what the profile needs and no more: several 下げ callers in the order they first called,
"勝負 or cancel?" only when the player who ended the round had called 下げ, a 手役 by name one per
group. Under ``sdin`` the very same questions as before are asked (the last tests).

Every round entered is compared with scoring its round file directly, as tests/test_entry.py does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

import pytest

from helpers import money

from scorekeeper.entry import Aborted, RoundEntry
from scorekeeper.notation import format_compact, parse_cards
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import NightState, Round, pile_needed, score_dict

from entry_lines import CTRL_C, Script, console, order, printed

PLAYERS = ["Aki", "Ben", "Chie"]
FIELD = ["1k", "4k", "5k", "7k", "9k", "12k"]
GOLDEN = Path(__file__).parent / "golden" / "sdin"

def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.round.json").read_text("utf-8"))


def played_out(**keys: Any) -> dict:
    """A played-out round: Aki holds 青短, Ben 赤短, Chie no 出来役; all 48 cards in the piles."""
    return {
        "players": PLAYERS, "dealer": "Aki", "field": FIELD,
        "captured": {
            "Aki": "3h 3k 5t 5r 6r 6k 8h 8t 8k 8k 9r 9k 10r 10k 12h 12k".split(),
            "Ben": "1r 1k 2r 2k 3r 3k 5k 5k 7k 7k 9t 9k 11h 11k 12k 12k".split(),
            "Chie": "1h 1k 2t 2k 4t 4r 4k 4k 6t 6k 7t 7r 10t 10k 11t 11r".split(),
        },
        **keys,
    }


def ended(*, ben_aotan: bool, **keys: Any) -> dict:
    """A round Chie ended with 赤短; Ben holds 青短 (a 下げ caller) or nothing."""
    return {
        "players": PLAYERS, "dealer": "Aki", "field": FIELD,
        "captured": {
            "Aki": ["4k", "4k"],
            "Ben": "6r 6k 9r 9k 10r 10k".split() if ben_aotan else ["6r", "6k", "9t", "9k"],
            "Chie": "1r 1k 2r 2k 3r 3k".split(),
        },
        "ended_by": "Chie",
        **keys,
    }


TWO_CALLERS = played_out(sage=["Ben", "Aki"])
CANCEL = ended(ben_aotan=False, sage="Chie", ended_how="cancel")
CANCEL_AFTER_TWO = ended(ben_aotan=True, sage=["Ben", "Chie"], ended_how="cancel")
SHOUBU_LONE_CALLER = ended(ben_aotan=True, sage="Ben")
SHOUBU_OWN_SAGE = ended(ben_aotan=False, sage="Chie")
SHOUBU_BOTH_CALLED = ended(ben_aotan=True, sage=["Ben", "Chie"])
TEYAKU_A_B = {**golden("plain-teyaku"), "teyaku": {"Aki": ["三本", "赤"], "Chie": "空素"}}


def typed(rnd: Mapping[str, Any], how: str | None = None, rules=FUDAWIKI) -> list[str]:
    """The lines that enter ``rnd``: 親, field, 手役 ×3, 下げ, ended by, [勝負 or cancel], the piles
    asked (a round ended by a 出来役: those that can change the money), y."""
    seats = order(rnd["players"], rnd["dealer"])
    hands, declared = rnd.get("hands") or {}, rnd.get("teyaku") or {}
    lines = [rnd["dealer"], " ".join(rnd["field"])]
    for p in seats:
        names = declared.get(p) or []
        lines.append(" ".join([*hands.get(p, []), *([names] if isinstance(names, str) else names)]))
    sage = rnd.get("sage") or []
    lines += [" ".join([sage] if isinstance(sage, str) else sage), rnd.get("ended_by") or ""]
    if how is not None:
        lines.append(how)
    captured = rnd["captured"]
    asked = Round.from_dict(dict(rnd), rules=rules)
    lines += [format_compact(parse_cards(captured[p])) if captured.get(p) else "" for p in seats
              if pile_needed(rules, p, asked.ended_by, asked.sage, asked.shown.get(p), asked.declared.get(p))]
    return lines + ["y"]


def enter(lines, *, rules=FUDAWIKI, prefill=None, dealer="Aki", state=None):
    """Run the flow: (outcome, script, printed text)."""
    script, con = Script(lines), console()
    entry = RoundEntry(PLAYERS, dealer, script, con, prefill=prefill, rules=rules, state=state)
    return entry.run(), script, printed(con)


def scored(rnd: Mapping[str, Any], rules=FUDAWIKI) -> dict:
    return score_dict(rnd, rules=rules).to_json()


def flat(out: str) -> str:
    """The printed text with the console's line wrapping undone."""
    return " ".join(out.split())


def errors(out: str) -> list[str]:
    return [line for line in out.splitlines() if "✗" in line]


HOW = "勝負 or cancel? (how Chie ended it; Enter: 勝負): "


# ---------------------------------------------------------------------------------------------
# 下げ: several callers, in the order they first called


@pytest.mark.parametrize("answer", ["Ben Aki", "b, a", "2 1", "Ben、Aki", "2,1"])
def test_two_sage_callers_in_the_order_they_first_called(answer):
    lines = typed(TWO_CALLERS)
    lines[5] = answer
    outcome, script, out = enter(lines)
    assert outcome.round_file["sage"] == ["Ben", "Aki"]  # Ben first: Ben wins the round
    assert money(outcome.result) == money(scored(TWO_CALLERS))
    assert outcome.result.winner == "Ben"
    assert ("下げ: Ben, then Aki (in the order they first called). Played out: every holder of 出来役 is "
            "paid half of their own by each opponent; Ben, the first to call 下げ, wins the round") in flat(out)
    assert not any(p.startswith("勝負 or cancel") for p in script.prompts)  # played out: no cancel


def test_a_player_named_twice_is_asked_again():
    lines = typed(SHOUBU_LONE_CALLER)
    lines[5:6] = ["Ben ben", "Ben"]
    outcome, _, out = enter(lines)
    assert errors(out) == ["  ✗ Ben is named twice: list each 下げ caller once, in the order they first called"]
    assert outcome.round_file["sage"] == "Ben"


def test_the_sage_question_under_fudawiki_says_several_may_call():
    _, script, _ = enter(typed(SHOUBU_LONE_CALLER))
    assert script.prompts[5] == ("下げ declared by, in the order they first called "
                                 "(Enter: nobody; several: Ben Aki): ")


def test_under_sdin_two_sage_callers_are_one_clear_line():
    rnd = golden("sage-overtaken")  # Ben deals; Ben 下げ, Chie ended it
    lines = typed(rnd, rules=SDIN)
    lines[5:6] = ["Ben Chie", "Ben"]
    outcome, _, out = enter(lines, rules=SDIN, dealer="Ben")
    assert errors(out) == ["  ✗ Ben and Chie: under sdin only one player may call 下げ in a round"]
    assert money(outcome.result) == money(scored(rnd, SDIN))


# ---------------------------------------------------------------------------------------------
# 勝負 or cancel?


@pytest.mark.parametrize("answer", ["c", "cancel", "CANCEL", "キャンセル"])
def test_a_cancel_by_the_sage_player_is_paid_half(answer):
    outcome, script, out = enter(typed(CANCEL, how=answer))
    assert HOW in script.prompts
    assert outcome.round_file["ended_how"] == "cancel"
    assert money(outcome.result) == money(scored(CANCEL))
    # 赤短 7 kan = 70文, halved: 35 from each
    assert [(p.payer, p.mon) for p in outcome.result.payments if p.reason == "赤短"] == [("Aki", 35), ("Ben", 35)]
    assert ("cancel by Chie: each opponent pays Chie half of Chie's 出来役, no doubling; "
            "Chie wins the round") in flat(out)


def test_a_cancel_after_two_callers():
    outcome, script, out = enter(typed(CANCEL_AFTER_TWO, how="c"))
    assert HOW in script.prompts
    assert outcome.round_file["sage"] == ["Ben", "Chie"] and outcome.round_file["ended_how"] == "cancel"
    assert money(outcome.result) == money(scored(CANCEL_AFTER_TWO))
    assert "下げ: Ben, then Chie (in the order they first called). Chie called 下げ and ended the round" in flat(out)


@pytest.mark.parametrize("answer", ["", "s", "shoubu", "勝負"])
def test_enter_or_shoubu_at_the_question_is_shoubu(answer):
    outcome, script, out = enter(typed(SHOUBU_OWN_SAGE, how=answer))
    assert HOW in script.prompts
    assert "ended_how" not in outcome.round_file  # 勝負 is the default
    assert money(outcome.result) == money(scored(SHOUBU_OWN_SAGE))
    assert [(p.payer, p.mon) for p in outcome.result.payments if p.reason == "赤短"] == [("Aki", 70), ("Ben", 70)]
    assert "勝負 by Chie: Chie's 出来役 are paid, each opponent pays them once; Chie wins the round" in flat(out)


def test_shoubu_with_a_lone_opponent_caller_is_not_asked_and_paid_double():
    outcome, script, out = enter(typed(SHOUBU_LONE_CALLER))  # Ben called 下げ, Chie did not
    assert not any(p.startswith("勝負 or cancel") for p in script.prompts)
    assert money(outcome.result) == money(scored(SHOUBU_LONE_CALLER))
    assert [(p.payer, p.mon) for p in outcome.result.payments if p.reason == "赤短"] == [("Ben", 140)]
    assert ("下げ: Ben. 勝負 by Chie: Chie's 出来役 are paid, Ben, the only opponent who called 下げ, "
            "pays Chie double, Aki pays nothing; Chie wins the round") in flat(out)


def test_shoubu_by_a_caller_with_one_other_caller_is_paid_double():
    outcome, _, out = enter(typed(SHOUBU_BOTH_CALLED, how=""))
    assert money(outcome.result) == money(scored(SHOUBU_BOTH_CALLED))
    assert [(p.payer, p.mon) for p in outcome.result.payments if p.reason == "赤短"] == [("Ben", 140)]
    assert "Ben, the only opponent who called 下げ, pays Chie double, Aki pays nothing" in flat(out)


def test_a_stray_answer_at_shoubu_or_cancel_is_asked_again():
    lines = typed(CANCEL, how="c")
    lines[7:8] = ["maybe", "c"]
    outcome, script, out = enter(lines)
    assert errors(out) == ["  ✗ 'maybe': answer 勝負 (Enter, s) or cancel (c)"]
    assert script.prompts[7] == HOW and script.prompts[8] == HOW  # the refused answer is no default
    assert outcome.round_file["ended_how"] == "cancel"


def test_never_asked_when_it_cannot_be_cancel():
    one_caller = played_out(sage="Aki")  # only Aki holds a 出来役: Ben's 3r 3k go to Chie
    one_caller["captured"] = {
        "Aki": one_caller["captured"]["Aki"],
        "Ben": "1r 1k 2r 2k 4k 4k 5k 5k 7k 7k 9t 9k 11h 11k 12k 12k".split(),
        "Chie": "1h 1k 2t 2k 3r 3k 4t 4r 6t 6k 7t 7r 10t 10k 11t 11r".split(),
    }
    # played out; 勝負 by a player who did not call 下げ; 勝負 with nobody's 下げ
    for rnd in (one_caller, SHOUBU_LONE_CALLER, ended(ben_aotan=False)):
        outcome, script, _ = enter(typed(rnd))
        assert not any(p.startswith("勝負 or cancel") for p in script.prompts), rnd
        assert len(script.prompts) == len(typed(rnd))
        assert money(outcome.result) == money(scored(rnd))
    # a profile without cancel never asks it, nor offers it at "ended by"
    no_cancel = FUDAWIKI._replace(name="no-cancel", cancel=False)
    outcome, script, _ = enter(typed(SHOUBU_OWN_SAGE), rules=no_cancel)
    assert not any(p.startswith("勝負 or cancel") for p in script.prompts)
    assert script.prompts[6] == "ended by (Enter: played out; or who stopped with a 出来役: 1 Aki, 2 Ben, 3 Chie): "
    assert money(outcome.result) == money(scored(SHOUBU_OWN_SAGE, no_cancel))


def test_the_ended_by_prompt_under_fudawiki_names_both_endings():
    _, script, _ = enter(typed(CANCEL, how="c"))
    assert script.prompts[6] == "ended by (Enter: played out; or who ended it, by 勝負 or cancel: 1 Aki, 2 Ben, 3 Chie): "


def test_help_at_shoubu_or_cancel_explains_both_for_this_round():
    lines = typed(SHOUBU_OWN_SAGE, how="c")
    lines[7:7] = ["?"]
    _, script, out = enter(lines)
    assert "Chie had called 下げ, so Chie ended the round by one of:" in flat(out)
    assert "勝負 (Enter, s, shoubu): 勝負 by Chie: Chie's 出来役 are paid, each opponent pays them once" in flat(out)
    assert "cancel (c, キャンセル): cancel by Chie: each opponent pays Chie half of Chie's 出来役" in flat(out)
    assert script.prompts[7] == script.prompts[8] == HOW


def test_help_at_sage_explains_the_settlement_under_the_profile():
    lines = typed(SHOUBU_LONE_CALLER)
    lines[5:5] = ["?"]
    _, _, out = enter(lines)
    assert "in the order they first called, separated by spaces or commas" in flat(out)
    assert "a lone opponent who called 下げ pays double" in flat(out)
    assert "Cancel (by a player who called 下げ): each opponent pays half" in flat(out)


# ---------------------------------------------------------------------------------------------
# 手役 by name: one per group


def test_teyaku_of_group_a_and_b_by_name():
    lines = typed(TEYAKU_A_B)  # Aki 三本 赤, Ben's hand (三本), Chie 空素
    lines[2], lines[4] = "赤 三本", "空巣"  # any order; SDIN's spelling of 空素 too
    outcome, _, out = enter(lines)
    assert outcome.round_file["teyaku"] == {"Aki": ["三本", "赤"], "Chie": "空素"}
    assert money(outcome.result) == money(scored(TEYAKU_A_B))
    assert "Aki   三本 (さんぼん) 20文 + 赤 (あか) 20文 (declared)" in out
    assert "Chie  空素 (からす) 40文 (declared)" in out
    assert "Ben   三本 (さんぼん) 20文 (in the hand)" in out


def test_teyaku_echo_is_at_the_profile_s_kan():
    dozenal = FUDAWIKI._replace(name="dozenal", kan=12)
    _, _, out = enter(typed(TEYAKU_A_B), rules=dozenal)
    assert "Aki   三本 (さんぼん) 24文 + 赤 (あか) 24文 (declared)" in out
    assert "Chie  空素 (からす) 48文 (declared)" in out


def test_a_hand_and_its_names_of_both_groups():
    hand = "1r 2k 5k 7k 11h 11t 11k"  # 三本 (柳) and 短一 (one 短冊; every 柳 card a kasu)
    rnd = {**golden("plain-teyaku"), "hands": {"Aki": hand.split()}, "teyaku": {"Aki": ["三本", "短一"]}}
    rnd["field"] = ["1h", "3r", "5t", "8k", "9t", "12k"]
    outcome, _, out = enter(typed(rnd))
    assert outcome.round_file["teyaku"] == {"Aki": ["三本", "短一"]}
    assert "Aki   三本 (さんぼん) 20文 + 短一 (たんいち) 30文 (declared)" in out
    lines = typed(rnd)
    lines[2] = hand  # the cards alone: both groups are found
    outcome, _, out = enter(lines)
    assert "Aki   三本 (さんぼん) 20文 + 短一 (たんいち) 30文 (in the hand)" in out
    assert outcome.result.players["Aki"].teyaku_all == ("三本", "短一")


def test_two_names_of_one_group_are_refused():
    lines = typed(TEYAKU_A_B)
    lines[2:3] = ["三本 手四", "三本 赤"]
    outcome, _, out = enter(lines)
    assert errors(out) == ["  ✗ 三本 and 手四 are both of Group A: a hand scores one 手役 per group (? lists them)"]
    assert outcome.round_file["teyaku"]["Aki"] == ["三本", "赤"]


def test_under_sdin_two_names_stay_an_error():
    rnd = golden("declared-teyaku")  # Ben deals: Ben, Chie, Aki
    lines = typed(rnd)
    lines[3:4] = ["三本 赤", "三本"]
    outcome, _, out = enter(lines, rules=SDIN, dealer="Ben")
    assert errors(out) == ["  ✗ 三本 and 赤: under sdin a hand scores only its single highest 手役; type one name"]
    assert money(outcome.result) == money(scored(rnd, SDIN))


def test_help_at_a_teyaku_question_lists_each_group():
    lines = typed(TEYAKU_A_B)
    lines[2:2] = ["?"]
    _, _, out = enter(lines)
    assert "手役 Group A, highest first: 四三 (しそう) 200文" in flat(out)
    assert "手役 Group B, highest first: 空素 (からす) 40文" in flat(out)
    assert "at most one per group (三本 赤)" in flat(out)


# ---------------------------------------------------------------------------------------------
# edit N: every new answer pre-filled


ROUNDS = {
    "cancel": (CANCEL, 12),
    "shoubu-lone-caller": (SHOUBU_LONE_CALLER, 11),
    "shoubu-own-sage": (SHOUBU_OWN_SAGE, 12),
    "teyaku-a-b": (TEYAKU_A_B, 11),
}
LIST_ROUNDS = {
    "two-callers": (TWO_CALLERS, 11),
    "cancel-after-two": (CANCEL_AFTER_TWO, 12),
    "shoubu-both-called": (SHOUBU_BOTH_CALLED, 12),
}


@pytest.mark.parametrize("name", [*ROUNDS, *LIST_ROUNDS])
def test_edit_with_enter_everywhere_keeps_the_round(name):
    rnd, questions = {**ROUNDS, **LIST_ROUNDS}[name]
    outcome, script, _ = enter([""] * questions, prefill=rnd)
    assert outcome.round_file == Round.from_dict(rnd, rules=FUDAWIKI).to_dict()
    assert money(outcome.result) == money(scored(rnd))
    assert len(script.prompts) == questions


def test_edit_prefills_cancel_and_a_list_of_teyaku():
    _, script, _ = enter([""] * 12, prefill=CANCEL)
    assert script.prompts[7] == f"{HOW[:-2]} [cancel]: "
    _, script, _ = enter([""] * 11, prefill=TEYAKU_A_B)
    assert script.prompts[2].endswith("[三本 赤]: ") and script.prompts[4].endswith("[空素]: ")


def test_edit_prefills_the_callers_in_order():
    _, script, _ = enter([""] * 11, prefill=TWO_CALLERS)
    assert script.prompts[5].endswith("[Ben Aki]: ")


def test_edit_changes_cancel_to_shoubu():
    lines = [""] * 12
    lines[7] = "s"
    outcome, _, _ = enter(lines, prefill=CANCEL)
    assert "ended_how" not in outcome.round_file
    assert money(outcome.result) == money(scored({**CANCEL, "ended_how": "shoubu"}))


# ---------------------------------------------------------------------------------------------
# back through the new questions


def test_back_from_shoubu_or_cancel_to_sage_and_ended_keeps_the_answers():
    lines = typed(CANCEL, how="c")
    # at 勝負 or cancel: back to ended by, back to 下げ, Enter on both, then cancel
    lines[7:7] = ["back", "back", "", ""]
    outcome, script, _ = enter(lines)
    assert script.prompts[7:12] == [
        HOW,
        "ended by (Enter: played out; or who ended it, by 勝負 or cancel: 1 Aki, 2 Ben, 3 Chie) [Chie]: ",
        "下げ declared by, in the order they first called (Enter: nobody; several: Ben Aki) [Chie]: ",
        "ended by (Enter: played out; or who ended it, by 勝負 or cancel: 1 Aki, 2 Ben, 3 Chie) [Chie]: ",
        HOW,
    ]
    assert outcome.round_file["ended_how"] == "cancel"
    assert money(outcome.result) == money(scored(CANCEL))


def test_back_from_the_first_pile_asks_shoubu_or_cancel_again():
    lines = typed(CANCEL, how="c")
    lines[8:8] = ["back", ""]  # at Chie's pile (the only one asked): back, Enter keeps cancel
    outcome, script, _ = enter(lines)
    assert script.prompts[8].startswith("札 Chie") and script.prompts[9] == f"{HOW[:-2]} [cancel]: "
    assert outcome.round_file["ended_how"] == "cancel"


def test_back_to_sage_and_no_caller_drops_the_question():
    rnd = ended(ben_aotan=False)  # Chie ended it by 勝負, nobody called 下げ
    lines = typed(rnd)
    # say Chie called 下げ, answer cancel, then back to 下げ and say nobody
    lines[5] = "Chie"
    lines[7:7] = ["c", "back", "back", "back", "-", ""]  # from the pile: back to 勝負 or cancel, ended by, 下げ
    outcome, script, _ = enter(lines)
    assert script.prompts.count(HOW) == 1
    assert "sage" not in outcome.round_file and "ended_how" not in outcome.round_file
    assert money(outcome.result) == money(scored(rnd))


def test_back_to_sage_with_two_callers():
    lines = typed(CANCEL_AFTER_TWO, how="c")
    lines[7:7] = ["back", "back", "", ""]  # back from 勝負 or cancel to 下げ: Enter keeps "Ben Chie"
    outcome, script, _ = enter(lines)
    assert script.prompts[9].endswith("[Ben Chie]: ")
    assert outcome.round_file["sage"] == ["Ben", "Chie"]


# ---------------------------------------------------------------------------------------------
# the rest of the flow under the profile


def test_the_result_shown_uses_the_night_s_waiting_multipliers():
    outcome, _, out = enter(typed(CANCEL, how="c"), state=NightState((4,), 0))
    assert outcome.result.multiplier == 4
    assert [(p.payer, p.mon) for p in outcome.result.payments if p.reason == "赤短"] == [("Aki", 140), ("Ben", 140)]


def test_tab_completes_the_two_endings():
    entry = RoundEntry(PLAYERS, "Aki", Script([]), console(), rules=FUDAWIKI)
    entry.current = "how"
    assert {"勝負", "cancel", "キャンセル"} <= set(entry.completions())


# ---------------------------------------------------------------------------------------------
# under sdin nothing new is asked

SDIN_PROMPTS = [
    "親 dealer (1 Aki, 2 Ben, 3 Chie) [Chie]: ",
    "場札 the six field cards, or = and its 光 alone: ",
    "手役 Chie: ",
    "手役 Aki : ",
    "手役 Ben : ",
    "下げ declared by (Enter: nobody): ",
    "ended by (Enter: played out; or who stopped with a 出来役: 1 Aki, 2 Ben, 3 Chie): ",
    "札 Ben : the cards, or the 出来役's names (赤短 …): ",
    "save? [Y/n]: ",
]


def test_under_sdin_a_sage_player_who_stopped_is_asked_nothing_new():
    rnd = golden("sage-stops")  # Chie deals; Ben called 下げ and stopped: a cancel under fudawiki
    outcome, script, _ = enter(typed(rnd), rules=SDIN, dealer="Chie")
    assert script.prompts == SDIN_PROMPTS
    assert money(outcome.result) == money(scored(rnd, SDIN))


def test_the_same_round_under_fudawiki_asks_shoubu_or_cancel():
    rnd = golden("sage-stops")
    _, script, _ = enter(typed(rnd, how=""), rules=FUDAWIKI, dealer="Chie")
    assert "勝負 or cancel? (how Ben ended it; Enter: 勝負): " in script.prompts
    assert len(script.prompts) == len(SDIN_PROMPTS) + 1


def test_the_sage_prompt_s_example_uses_the_table_s_names():
    script, con = Script(["", " ".join(FIELD), "", "", "", CTRL_C]), console()
    with pytest.raises(Aborted):
        RoundEntry(["秋子", "Ben Smith", "千恵美"], "秋子", script, con, rules=FUDAWIKI).run()
    assert script.prompts[-1] == ("下げ declared by, in the order they first called "
                                  "(Enter: nobody; several: Ben Smith, 秋子): ")


def test_a_caller_whose_name_holds_a_space():
    players = ["Aki", "Ben Smith", "Chie"]
    rnd = json.loads(json.dumps(SHOUBU_LONE_CALLER).replace('"Ben"', '"Ben Smith"'))
    for answer in ("Ben Smith", "ben smith", "2", "be"):
        lines = typed(rnd)
        lines[5] = answer
        script, con = Script(lines), console()
        outcome = RoundEntry(players, "Aki", script, con, rules=FUDAWIKI).run()
        assert outcome.round_file["sage"] == "Ben Smith", answer
