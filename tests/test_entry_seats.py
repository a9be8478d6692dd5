"""`hachi-score round` and `edit N` for a night of 4 to 6 players (issue 11, "Entry at the table").

After the 親 and the field, each seat from the 親 says play or drop (Enter: play) until three play
or everyone has spoken; the forced-out players' hands follow (for their compensation); then the
round as before for the two or three who play. A misdeal, a single volunteer and a split pot ask
nothing more. With three seated nothing of this is asked.

The night here: five players A–E under fudawiki, typed through CliRunner, every saved round file
compared with the one written by hand, and `summary --json`'s totals plus its pot summing to zero.
"""

from __future__ import annotations

import builtins
import json
from pathlib import Path

import pytest

from fast_cli import FastRunner, checked_run, typed
from entry_lines import Script, answers, console, printed, snapshot
from scorekeeper.cli import app
from scorekeeper.entry import Aborted, RoundEntry
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import SPLIT

PLAYERS = ["A", "B", "C", "D", "E"]
runner = FastRunner()
run = checked_run(runner)
TYPED = builtins.input  # what CliRunner's input= feeds

FIELD = ["2t", "3k", "8h", "8t", "8k", "10t"]  # 芒に月: ×2
CALM = ["2t", "3k", "4t", "5k", "6k", "7k"]  # no 光: ×1
#: the three piles of a played-out round of FIELD (the bundled night's first round), 89, 35 and 140
P1 = ["1h", "1k", "4t", "4k", "7r", "7k", "9t", "9k", "10t", "10r", "10k", "10k", "12h", "12k", "12k", "12k"]
P2 = ["2r", "2k", "4r", "4k", "5t", "5r", "5k", "5k", "9r", "9k"]
P3 = ["1r", "1k", "2t", "2k", "3h", "3r", "3k", "3k", "6t", "6r", "6k", "6k", "7t", "7k", "8h", "8t", "8k", "8k",
      "11h", "11t", "11r", "11k"]
HAND = ["1k", "6k", "9t", "9k", "9k", "10k", "12h"]  # 三本 (of 9): a forced-out player's compensation


def by_hand(dealer: str, field: list[str], captured: dict, dropped=(), hands=None) -> dict:
    """A round file as one writes it for this night: every seat's pile (empty for who did not play)."""
    out = {"players": PLAYERS, "dealer": dealer, "field": field,
           "captured": {p: captured.get(p, []) for p in PLAYERS}}
    if hands:
        out["hands"] = hands
    if dropped:
        out["dropped"] = list(dropped)
    return out


def stored() -> list[dict]:
    return json.loads(run("export", "--json").stdout)["rounds"]


def summary() -> dict:
    return json.loads(run("summary", "--json", "--all").stdout)


def balanced(data: dict) -> None:
    assert sum(data["totals"].values()) + data["pot"] == 0


@pytest.fixture
def night(book_file) -> Path:
    run("new-session", *PLAYERS, "--rules", "fudawiki")
    return book_file


def pile(cards: list[str]) -> str:
    return " ".join(cards)


#: round 1, 親 A: A drops, B plays, C drops, D and E play: B is the round's 親, B D E play it out
ROUND1 = ["", pile(FIELD), "drop", "", "drop", "", "",  # the 親, the field, five seats
          "", "", "", "", "",  # three 手役, ended, 下げ
          pile(P1), pile(P2), "rest", "y"]
#: round 2, 親 E (round 1's winner): E plays, A drops, B and C play; D is forced out with a hand
ROUND2 = ["", pile(FIELD), "", "drop", "", "", pile(HAND),
          "", "", "", "", "", pile(P1), pile(P2), "rest", "y"]


def test_a_five_player_night_typed_at_the_table(night):
    # 1: two drops and three play
    out = run("round", input=typed(ROUND1)).stdout
    assert "B, D, E play; B is the round's 親" in out
    assert "手役 A" not in out and "札 A" not in out and "札 C" not in out  # who dropped is not asked
    assert stored() == [by_hand("A", FIELD, {"B": P1, "D": P2, "E": P3}, dropped=["A", "C"])]
    data = summary()
    assert data["dealer"] == "E" and data["pot"] == 0
    balanced(data)

    # 2: a drop, then three play before D spoke: D is forced out, paid for the hand
    out = run("round", input=typed(ROUND2)).stdout
    assert "forced out (追い込み): D" in out and "席 D" not in out
    assert "手役 D (forced out; Enter: no compensation claimed)" in out
    assert stored()[1] == by_hand("E", FIELD, {"E": P1, "B": P2, "C": P3}, dropped=["A"], hands={"D": HAND})
    data = summary()
    # from each of B and C (not E, the round's 親): 三本's 2 kan / 2 × 2, and 3文 × 2 for the 光 12h
    assert data["history"][1]["mon"]["D"] == 2 * (10 * 2 + 3 * 2)
    assert data["dealer"] == "C"
    balanced(data)

    # 3: a single volunteer: C plays, everyone else drops; nothing more is asked
    out = run("round", input=typed(["", pile(CALM), "", "drop", "drop", "drop", "drop", "y"])).stdout
    assert "C alone plays: C takes the pot and wins; nothing is played" in out
    assert "手役 C:" not in out and "ended by" not in out and "save? [Y/n]" in out
    assert stored()[2] == by_hand("C", CALM, {}, dropped=["D", "E", "A", "B"])
    balanced(summary())

    # 4: a misdeal: all five drop; the fees wait in the pot, the same 親 deals again
    out = run("round", input=typed(["", pile(CALM), "drop", "drop", "drop", "drop", "drop", "y"])).stdout
    assert "nobody plays: a misdeal" in out and "ended by" not in out
    assert stored()[3] == by_hand("C", CALM, {}, dropped=["C", "D", "E", "A", "B"])
    data = summary()
    assert data["pot"] > 0 and data["dealer"] == "C"
    balanced(data)
    text = run("summary").stdout  # the pot shown, and the text's settlement the --json's
    assert f"pot: {data['pot']}文" in text
    for pay in data["settlement"]:
        assert f"{pay['from']} pays {pay['to']} {pay['mon']}文" in text

    # 5: C, D and E play; A and B are forced out, no compensation claimed; the winner takes the pot
    waiting = data["pot"]
    out = run("round", input=typed(["", pile(FIELD), "", "", "", "", "",
                                    "", "", "", "", "", pile(P1), pile(P2), "rest", "y"])).stdout
    assert "forced out (追い込み): A, B" in out and out.count("no compensation claimed") >= 2
    assert stored()[4] == by_hand("C", FIELD, {"C": P1, "D": P2, "E": P3})
    data = summary()
    assert data["pot"] == 0
    assert data["history"][4]["mon"]["E"] > 0  # E (140 points) won, and took the pot
    balanced(data)
    # the settlement has no pot to pay back (the rounds still say where the pot went)
    assert "pot:" not in run("summary").stdout.split("\nsettlement")[-1]
    assert waiting

    # edit 2: A's drop becomes play: E, A and B play; C and D are forced out
    lines = ["", "", "", "play", "",  # the 親, the field kept; E plays (kept); A: play; B plays (kept)
             "", "",  # C forced out: no hand; D's hand kept
             "", "", "", "", "",  # three 手役, ended, 下げ
             "", pile(P2), "rest", "y"]  # E's pile kept, A's, B's the rest
    out = run("edit", "2", input=typed(lines)).stdout
    assert "席 A play or drop (Enter: play) [drop]" in out
    assert "forced out (追い込み): C, D" in out
    assert stored()[1] == by_hand("E", FIELD, {"E": P1, "A": P2, "B": P3}, hands={"D": HAND})
    balanced(summary())

    # exported, imported into a book that never saw the night, and summarised alike
    before = summary()
    exported = run("export").stdout
    other = night.parent / "other" / "book.json"
    result = runner.invoke(app, ["import", "-", "--db", str(other)], input=exported)
    assert result.exit_code == 0, result.output
    after = json.loads(runner.invoke(app, ["summary", "--json", "--all", "--db", str(other)]).stdout)
    for key in ("players", "totals", "settlement", "pot", "history", "profile"):
        assert after[key] == before[key], key
    csv_text = run("export", "--csv").stdout
    assert csv_text.splitlines()[0].endswith(tuple("ABCDE")) or all(p in csv_text.splitlines()[0] for p in "ABCDE")


def test_edit_prefills_the_seats_and_the_forced_out_hands(night):
    run("round", input=typed(ROUND1))
    run("round", input=typed(ROUND2))
    before = stored()
    out = run("edit", "2", input=typed([""] * 15 + ["y"])).stdout  # Enter at every question
    assert "席 A play or drop (Enter: play) [drop]" in out
    assert "手役 D (forced out; Enter: no compensation claimed) [1k 6k 9tkk 10k 12h]" in out
    assert stored() == before


def test_back_goes_across_the_dropout_questions(night):
    lines = ["", pile(FIELD),
             "back", "", "",  # back from A's seat: the field again (Enter keeps it), then A plays
             "drop", "", "",  # B drops, C and D play: E is forced out
             "back",  # from E's hand back to D's seat
             "drop",  # D drops now: E is asked
             "",  # E plays
             "back", "back", "play",  # from A's 手役 back over E's seat to D's: D plays after all
             pile(HAND),  # E forced out again: the hand
             "", "", "", "", "", pile(P1), pile(P2), "rest", "y"]
    out = run("round", input=typed(lines)).stdout
    assert out.count("席 D play or drop") == 3
    assert stored() == [by_hand("A", FIELD, {"A": P1, "C": P2, "D": P3}, dropped=["B"], hands={"E": HAND})]


def draft_of(book_file: Path) -> dict | None:
    from scorekeeper.drafts import Drafts

    draft, _ = Drafts(book_file).load("s1")  # the draft being typed
    return None if draft is None else draft.answers


#: the new questions of ROUND2: five seats (D never spoke: four) and D's hand
NEW_AT = [2, 3, 4, 5, 6]
NEW_KEYS = ["seat:E", "seat:A", "seat:B", "seat:C", "hand:D"]


@pytest.mark.parametrize("at", NEW_AT)
def test_ctrl_c_at_a_new_question_saves_nothing_and_the_draft_keeps_the_answers(night, monkeypatch, at):
    run("round", input=typed(ROUND1))
    before = snapshot(night.parent)
    queue, shown = list(ROUND2[:at]), []

    def typed_in(prompt: str = "") -> str:
        shown.append(prompt)
        if not queue:
            raise KeyboardInterrupt
        return queue.pop(0)

    monkeypatch.setattr(builtins, "input", typed_in)
    result = runner.invoke(app, ["round"])
    assert result.exit_code == 1 and result.stderr.strip() == "hachi-score: aborted: nothing was saved"
    assert len(shown) == at + 1  # Ctrl-C at the (at+1)-th question: a seat's, or D's hand
    last = [line for line in result.stdout.splitlines() if line.startswith(("席", "手役"))][-1]
    assert last.startswith(f"席 {NEW_KEYS[at - 2][5:]}" if at < 6 else "手役 D (forced out")
    assert snapshot(night.parent) == before
    kept = draft_of(night)
    assert set(kept) >= {"dealer", "field", *NEW_KEYS[:at - 2]}
    assert [kept[k] for k in NEW_KEYS[:at - 2]] == ROUND2[2:at]  # as typed (Enter: play)

    # the next `round` resumes them and asks only what is left
    monkeypatch.setattr(builtins, "input", TYPED)
    result = run("round", input=typed(["", *ROUND2[at:]]))
    assert "round 2 saved" in result.stdout
    assert stored()[1] == by_hand("E", FIELD, {"E": P1, "B": P2, "C": P3}, dropped=["A"], hands={"D": HAND})


# ---------------------------------------------------------------------------------------------
# the flow itself, without the book


def entry(lines, rules=FUDAWIKI, players=("A", "B", "C", "D"), dealer="A"):
    script = Script(lines)
    con = console()
    return RoundEntry(players, dealer, script, con, rules=rules), script, con


def test_a_two_player_round_asks_two_hands_and_two_piles_and_offers_no_rest():
    e, script, con = entry(["", pile(FIELD), "", "drop", "drop", "",  # A plays, B C drop, D plays
                            "", "", "", "", pile(P1), pile(P2), "y"])
    outcome = e.run()
    assert outcome.round_file["dropped"] == ["B", "C"]
    assert [p for p in script.prompts if p.startswith(("手役", "札"))] == ["手役 A: ", "手役 D: ", "札 A: ", "札 D: "]
    assert not any("rest" in p for p in script.prompts) and "type rest" not in printed(con)
    e, script, _ = entry(["", pile(FIELD), "", "drop", "drop", "", "", "", "", "", pile(P1), "rest"])
    with pytest.raises(Aborted):
        e.run()
    assert script.prompts[-1] == "札 D: "  # rest was refused, asked again


def test_a_split_pot_asks_nothing_after_the_seats():
    e, script, con = entry(["", pile(FIELD), "", "drop", "drop", "", "y"],
                           rules=FUDAWIKI._replace(two_volunteers="split"))
    outcome = e.run()
    assert outcome.round_file["dropped"] == ["B", "C"] and outcome.result.kind == SPLIT
    assert script.prompts[-1] == "save? [Y/n]: " and len(script.prompts) == 7
    assert "they split the pot" in printed(con)


def test_forced_three_does_not_offer_a_drop_it_forbids():
    e, script, con = entry(["", pile(FIELD), "drop", "", "", "", "", "", pile(P1), pile(P2), "rest", "y"],
                           rules=FUDAWIKI._replace(forced_three=True))
    outcome = e.run()  # A dropped: B, C and D are the last three, each must play
    assert outcome.round_file["dropped"] == ["A"]
    assert [p for p in script.prompts if p.startswith("席")] == ["席 A play or drop (Enter: play): "]
    assert "B plays: only three could still play" in printed(con)


def test_a_drop_is_said_as_play_or_drop():
    e, script, con = entry(["", pile(FIELD), "maybe", "d", "", "", "",  # A drops, B C D play
                            "", "", "", "", "", pile(P1), pile(P2), "rest", "y"])
    outcome = e.run()  # A dropped (d), B C D play
    assert "'maybe': answer play (Enter, p) or drop (d)" in printed(con)
    assert outcome.round_file["dropped"] == ["A"]


def test_round_view_marks_the_rounds_dealer_and_the_nights():
    e, _, con = entry(["", pile(FIELD), "drop", "", "", "", "", "", "", "", "", pile(P1), pile(P2), "rest", "y"])
    e.run()
    shown = printed(con)
    assert "A (the night's 親)" in shown and "B 親" in shown


#: the prompts of a three-player SDIN round as they were before seats (commit 97fd001): unchanged
SDIN_PROMPTS = [
    "親 dealer (1 Aki, 2 Ben, 3 Chie) [Aki]: ",
    "場札 the six field cards, or = and its 光 alone: ",
    "手役 Aki : ",
    "手役 Ben : ",
    "手役 Chie: ",
    "下げ declared by (Enter: nobody): ",
    "ended by (Enter: played out; or who stopped with a 出来役: 1 Aki, 2 Ben, 3 Chie): ",
    "札 Aki : ",
    "札 Ben : ",
    "札 Chie (or rest): ",
    "save? [Y/n]: ",
]


def test_the_sdin_questions_are_unchanged():
    rnd = {"players": ["Aki", "Ben", "Chie"], "dealer": "Aki", "field": FIELD,
           "captured": {"Aki": P1, "Ben": P2, "Chie": P3}}
    lines = answers(rnd, rest=True)
    script = Script(lines)
    RoundEntry(["Aki", "Ben", "Chie"], "Aki", script, console(), rules=SDIN).run()
    assert script.prompts == SDIN_PROMPTS
    script = Script(lines)
    RoundEntry(["Aki", "Ben", "Chie"], "Aki", script, console(), rules=FUDAWIKI).run()
    assert not any(p.startswith("席") for p in script.prompts)


def test_a_two_player_shoubu_is_said_with_its_one_opponent():
    field = ["4k", "5k", "6k", "7k", "8k", "10k"]
    lines = ["", " ".join(field), "", "drop", "drop", "",  # A and D play
             "", "", "", "A", "1r 1k 2r 2k 3r 3k", "y"]  # A stops with 赤短; D's pile is not asked
    e, script, con = entry(lines)
    outcome = e.run()
    assert "勝負 by A: A's 出来役 are paid, D pays them once; A wins the round" in printed(con)
    assert outcome.round_file["ended_by"] == "A" and outcome.round_file["dropped"] == ["B", "C"]
    assert outcome.result.players["D"].mon < 0 and outcome.result.players["B"].mon < 0


def test_a_dropped_hand_is_shown_void_and_a_forced_out_hand_as_its_compensation():
    """TRADITIONAL §7: a dropped player's hand earns nothing; a forced-out player's is paid as
    追い込み. The round view says so beside each 手役."""
    import io

    from rich.console import Console

    from scorekeeper.render import round_view
    from scorekeeper.rules import FUDAWIKI
    from scorekeeper.scoring import score_dict

    hand_e = ["4t", "4r", "4k", "5t", "6t", "7t", "11k"]  # 立三本 (of 藤)
    piles = {"B": P1, "C": P2, "D": P3}  # A drops; B, C and D play; E had not spoken: forced out
    data = {**by_hand("A", FIELD, piles, dropped=["A"]), "hands": {"A": HAND, "E": hand_e}}
    result = score_dict(data, rules=FUDAWIKI)
    assert result.players["A"].role == "dropped" and result.players["E"].role == "forced_out"
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(round_view(result))
    rows: dict[str, str] = {}
    for line in out.getvalue().splitlines():  # the first row of each: the players' table
        if line[:1] in "ABCDE" and line[:1] not in rows:
            rows[line[:1]] = line
    assert "(void)" in rows["A"] and "(追い込み)" in rows["E"]
    assert "(void)" not in rows["B"] and "(追い込み)" not in rows["B"]
