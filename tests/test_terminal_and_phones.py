"""Not one answer lost (issue 31, points 3 and 5): the terminal and the phones, and two terminals,
type one round. Real `hachi-score round` processes at a pseudo-terminal, beside the phones'
server (its app, answering HTTP); each step waits on what a process printed or what the draft
holds, never on the clock.

- 3: an answer a phone gave while the terminal typed is merged into the terminal's round, never
  overwritten; one the terminal typed otherwise is asked, the phone's offered first; an answer
  the terminal keeps over the phone's is said on the phones. Declining the kept answers sets
  them aside, so the phones are never left typing into a draft the terminal overwrites.
- 5: two terminals: a round saved by the other is shown difference by difference, the saved
  answer offered first, and an edit takes only the answers chosen; a draft being typed now at
  another terminal is offered as that, to join, not as abandoned.
"""

from __future__ import annotations

import json
import os
import warnings
from importlib.resources import files
from pathlib import Path

import pytest

from fast_cli import FastRunner, checked_run
from helpers import eventually
from scorekeeper import store
from scorekeeper.drafts import Drafts
from terminals import Terminal

PLAYERS = ["Aki", "Ben", "Chie"]
ROUND_1 = json.loads(files("scorekeeper").joinpath("data", "night", "01.json").read_text("utf-8"))
FIELD = " ".join(ROUND_1["field"])
HANDS = ["", "1k 6k 9t 9k 9k 10k 12h", ""]  # Ben's hand (三本, as round 1 has it)
AKI, BEN = (" ".join(ROUND_1["captured"][p]) for p in ("Aki", "Ben"))
runner = FastRunner()
run = checked_run(runner)


def saved_round(book_file: Path, number: int = 1) -> dict:
    return store.Book.open(book_file).session("s1")["rounds"][number - 1]["round"]


def draft_answers(book_file: Path) -> dict[str, str]:
    draft = Drafts(book_file).load("s1")[0]
    return draft.answers if draft is not None else {}


@pytest.fixture
def phones(book_file):
    """The phones' server on this book, and a function that posts as a table phone."""
    from serve_helpers import as_table, make_app, writer_headers
    from starlette.testclient import TestClient

    run("new-session", *PLAYERS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = make_app()
        with TestClient(app) as client:
            as_table(client, app)

            def post(path: str, body: dict):
                return client.post(path, content=json.dumps(body),
                                   headers={**writer_headers(app), "Content-Type": "application/json"})

            post.state = lambda: client.get("/api/state").json()  # type: ignore[attr-defined]
            yield post


def tap(post, key: str, text: str | None):
    """A phone's answer, stating what it saw and the round and draft it was for, as a page shown
    the round as it stands does (the server's next look may not have been pushed yet)."""
    state = post.state()
    draft = Drafts(Path(os.environ["HACHI_SCORE_DB"])).load("s1")[0]
    return post("/api/answer", {"key": key, "text": text, "was": draft.answers.get(key) if draft else None,
                                "round": state["round"]["number"], "draft": draft.id if draft else None})


def to_the_piles(t: Terminal, hands: list[str] = HANDS) -> None:
    t.wait_for("親 dealer")
    t.type("Aki", FIELD, *hands, "", "")  # 親, the field, three 手役, no 下げ, played out
    t.wait_for("札 Aki")


def test_a_pile_a_phone_gave_is_merged_into_the_terminals_round(book_file, phones):
    """Point 3: Ben's phone taps his pile while the terminal types Aki's: the terminal says it
    arrived and offers it as the question's answer (Ben has not said it is complete: Enter
    takes it), and saves the round with Ben's cards from the phone."""
    t = Terminal("round", tty=True)
    to_the_piles(t)
    assert tap(phones, "pile:Ben", BEN).status_code == 200
    t.type(AKI)
    t.wait_for("from a phone: Ben's pile:")
    t.wait_for("札 Ben  [" + BEN + "]")
    t.type("")
    t.wait_for("札 Chie")
    t.type("rest")
    t.wait_for("save?")
    t.type("y")
    assert t.end() == 0, t.out
    assert saved_round(book_file)["captured"]["Ben"] == ROUND_1["captured"]["Ben"]
    assert "not kept" not in t.out


@pytest.mark.parametrize("keep", ["1", "2"])
def test_an_answer_typed_both_ways_is_asked_the_phones_first(book_file, phones, keep):
    """Point 3: the terminal is at Ben's pile when Ben's phone gives it; the terminal's own line
    for it differs: the terminal asks which stands, the phone's offered first (1, Enter). Kept:
    the phone's cards are saved. The terminal's (2): saved, and the phones are told that theirs
    was replaced (never dropped unsaid)."""
    t = Terminal("round", tty=True)
    to_the_piles(t)
    t.type(AKI)
    t.wait_for("札 Ben")
    assert tap(phones, "pile:Ben", BEN).status_code == 200
    t.type("=90")
    t.wait_for("Keep 1 (from a phone) or 2 (typed here)? [1]")
    assert "Ben's pile: " + BEN + " from a phone, =90 typed here" in t.out.replace("\n", " ")
    t.type(keep)
    t.wait_for("札 Chie")
    if keep == "2":
        overruled = eventually(lambda: phones.state()["round"]["overruled"], "the phones told")  # the server's next look
        assert overruled["pile:Ben"]["text"] == BEN
        assert "replaced at the terminal by =90" in overruled["pile:Ben"]["line"]["text"]
    t.type("rest")
    if keep == "2":  # a counted pile: 素十六's kasu asked
        t.wait_for("素十六")
        t.type("")
    t.wait_for("save?")
    t.type("y")
    assert t.end() == 0, t.out
    saved = saved_round(book_file)
    if keep == "1":
        assert saved["captured"]["Ben"] == ROUND_1["captured"]["Ben"] and "points" not in saved
    else:  # CONTRACT §7: a pile by its counted points, its captured empty
        assert saved["points"]["Ben"] == 90 and not saved["captured"].get("Ben")


def test_answers_typed_after_the_confirm_are_shown_before_the_save(book_file, phones):
    """Point 3: a phone changes the field while the terminal shows its result: the terminal's yes
    saves nothing unseen: it says answers arrived, asks which field stands (the phone's first),
    shows the result again, and asks again."""
    t = Terminal("round", tty=True)
    to_the_piles(t)
    t.type(AKI, BEN, "rest")
    t.wait_for("save?")
    other = "2t 3k 8h 8t 8k 10k"
    assert tap(phones, "field", other).status_code == 200
    t.type("y")
    t.wait_for("answers were typed into this round meanwhile")
    t.wait_for("Keep 1 (from a phone) or 2 (typed here)? [1]")
    assert "field: 2t 3k 8h 8t 8k 10k from a phone, 2t 3k 8h 8t 8k 10t typed here" in t.out.replace("\n", " ")
    t.type("")
    t.wait_for("save?", count=2)
    t.type("y")
    assert t.end() == 0, t.out
    assert saved_round(book_file)["field"] == other.split()


def test_declining_the_kept_answers_sets_them_aside_and_merges_the_phones_next_taps(book_file, phones):
    """Point 3: the phones began the round; at the terminal "Resume? n" sets their answers aside
    (`round --restore` brings them back); a tap sent for that draft is refused with its line, and
    the phones' next taps land in the terminal's round, merged, not overwritten."""
    assert tap(phones, "field", FIELD).status_code == 200
    gone = phones.state()["round"]["draft"]
    t = Terminal("round", tty=True)
    t.wait_for("Resume them? [Y/n/discard]")
    t.type("n")
    t.wait_for("set aside: `hachi-score round --restore` brings them back")
    t.wait_for("親 dealer")
    t.type("Aki", FIELD)
    t.wait_for("手役 Aki")
    late = phones("/api/answer", {"key": "dealer", "text": "Ben", "was": None, "round": 1, "draft": gone})
    assert late.status_code == 409 and "thrown away or set aside meanwhile" in late.json()["error"]
    assert tap(phones, "hand:Ben", HANDS[1]).status_code == 200
    t.type("")  # Aki: no 手役; Ben's arrives
    t.wait_for("from a phone: Ben's 手役")
    t.wait_for("手役 Chie")
    t.type("", "", "", AKI, BEN, "rest")
    t.wait_for("save?")
    t.type("y")
    assert t.end() == 0, t.out
    assert saved_round(book_file)["hands"]["Ben"] == HANDS[1].split()


def test_a_round_thrown_away_on_a_phone_stops_the_terminal(book_file, phones):
    """Point 3: a phone throws the round away while the terminal types it: the terminal stops
    asking and says what to do; its answers are in the round thrown away, brought back whole."""
    t = Terminal("round", tty=True)
    t.wait_for("親 dealer")
    t.type("Aki", FIELD)
    t.wait_for("手役 Aki")
    eventually(lambda: draft_answers(book_file).get("field") == FIELD, "the field on disk")
    assert phones("/api/discard", {}).status_code == 200
    t.type("光一")
    t.wait_for("this round was thrown away meanwhile")
    assert t.end() == 1
    assert "`hachi-score round --restore` brings it back" in t.out
    back = run("round", "--restore", input="\x04", code=1)
    assert "brought back" in back.stdout
    kept = draft_answers(book_file)
    assert kept["field"] == FIELD and kept["hand:Aki"] == "光一"


def test_a_round_saved_elsewhere_is_asked_difference_by_difference_saved_first(book_file):
    """Point 5: T1 types Aki's hand as none and Chie's as 赤; round 1 is saved meanwhile from a
    file, with Aki's 三本. At T1's save both differences are asked one by one, the saved offered
    first: two Enters leave round 1 as saved (Aki keeps 三本); nothing is replaced unasked."""
    run("new-session", *PLAYERS)
    t1 = Terminal("round", tty=True)
    to_the_piles(t1, ["", HANDS[1], "赤"])
    t1.type(AKI, BEN, "rest")
    t1.wait_for("save?")
    saved = {**ROUND_1, "teyaku": {"Aki": "三本"}}
    run("round", "--file", "-", input=json.dumps(saved))
    t1.type("y")
    t1.wait_for("Keep 1 (saved) or 2 (typed here)? [1]")
    t1.type("")
    t1.wait_for("Keep 1 (saved) or 2 (typed here)? [1]", count=2)
    assert "Aki's 手役: 三本 saved, — typed here" in t1.out.replace("\n", " ")
    t1.type("")
    assert t1.end() == 1
    assert "round 1 was left as saved; your answers are set aside" in t1.out
    assert "replace round 1?" not in t1.out
    assert saved_round(book_file)["teyaku"] == {"Aki": "三本"}


def test_an_edit_takes_only_the_answers_chosen(book_file):
    """Point 5: of two differences, T1 keeps its own for one (2) and the saved one for the other
    (Enter): `edit 1` replaces only the one chosen; Aki's saved 三本 stays."""
    run("new-session", *PLAYERS)
    t1 = Terminal("round", tty=True)
    t1.wait_for("親 dealer")
    t1.type("Aki", FIELD, "", HANDS[1], "赤", "", "", AKI, BEN, "rest")  # Chie declares 赤
    t1.wait_for("save?")
    run("round", "--file", "-", input=json.dumps({**ROUND_1, "teyaku": {"Aki": "三本"}}))
    t1.type("y")
    t1.wait_for("Aki's 手役: 三本 saved, — typed here")
    t1.type("")  # Aki: the saved 三本
    t1.wait_for("Chie's 手役: — saved, 赤 typed here")
    t1.type("2")  # Chie: the 赤 typed here
    t1.wait_for("replace round 1?")
    t1.type("y")
    assert t1.end() == 0, t1.out
    assert saved_round(book_file)["teyaku"] == {"Aki": "三本", "Chie": "赤"}


def test_a_draft_being_typed_at_another_terminal_is_offered_to_join(book_file):
    """Point 5: while T1 types round 1, a second terminal is told it is being typed now, with
    the answers on disk counted, and offered to join (not "Resume" as if left); no leaves it to T1.
    Once T1 is gone, the answers it kept are offered to resume as before."""
    run("new-session", *PLAYERS)
    t1 = Terminal("round", tty=True)
    t1.wait_for("親 dealer")
    t1.type("Aki", FIELD, "", "")
    t1.wait_for("手役 Chie")
    t2 = Terminal("round", tty=True)
    t2.wait_for("join it?")
    assert "4 answers are typed for this round, and it is being typed now at another terminal" in t2.out
    assert "Resume them?" not in t2.out
    t2.type("n")
    assert t2.end() == 1
    assert "the other terminal goes on with this round" in t2.out
    t1.proc.terminate()
    t1.proc.wait()
    t3 = Terminal("round", tty=True)
    t3.wait_for("Resume them? [Y/n/discard]")
    t3.end()


def test_two_terminals_joined_type_one_round(book_file):
    """Point 5: T2 joins T1's round; each answer either gives reaches the other (said), and the
    one that saves saves them all."""
    run("new-session", *PLAYERS)
    t1 = Terminal("round", tty=True)
    t1.wait_for("親 dealer")
    t1.type("Aki", FIELD)
    t1.wait_for("手役 Aki")
    t2 = Terminal("round", tty=True)
    t2.wait_for("join it?")
    t2.type("y")
    t2.wait_for("手役 Aki")
    t2.type("", HANDS[1], "赤")  # T2 gives the three 手役
    t2.wait_for("下げ declared by")
    t1.type("")  # Aki: none, as T2 had it; T1 hears of Ben's and Chie's
    t1.wait_for("from another terminal: Chie's 手役")
    t1.wait_for("下げ declared by")
    t1.type("", "", AKI, BEN, "rest")
    t1.wait_for("save?")
    t1.type("y")
    assert t1.end() == 0, t1.out
    assert saved_round(book_file)["teyaku"] == {"Chie": "赤"}
    t2.end()


def test_a_phone_overtaken_by_the_terminal_is_told_it_was_the_terminal(book_file, phones):
    """A phone's tap against an answer the terminal changed since is refused with a line that
    names the terminal, not "another phone"; one against another phone's names a phone."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft, writer_id

    assert tap(phones, "dealer", "Aki").status_code == 200
    rd = RoundDraft.kept(Night.open())
    rd.answer("field", FIELD, by=writer_id())  # typed at a terminal
    state = phones.state()
    late = phones("/api/answer", {"key": "field", "text": "1k 4k 4k 7t 7k 11t", "was": None,
                                  "round": 1, "draft": rd.draft.id})
    assert late.status_code == 409 and "changed meanwhile by the terminal" in late.json()["error"], late.json()
    assert tap(phones, "field", "1k 4k 4k 7t 7k 11t").status_code == 200  # seen as it stands: taken
    again = phones("/api/answer", {"key": "field", "text": FIELD, "was": None, "round": 1, "draft": rd.draft.id})
    assert again.status_code == 409 and "changed meanwhile by another phone" in again.json()["error"]
    assert state["round"]["number"] == 1
