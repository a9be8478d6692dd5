"""Nothing typed is lost, and the night has guard rails (issue "Nothing typed is lost").

The flows (scorekeeper.flows.Night) under the CLI: every answer of an interactive `round` is kept
in the session's draft as it is typed; a save that can't happen (another terminal's round, a book
turned read-only, Ctrl-C) leaves the book as it was and the draft whole; the next `round` resumes
it, asking again only what the change made wrong. Also: the header before a round, the planned
last round, a 親 off the chain, an edit's before/after, and a stored round that no longer scores.
"""

from __future__ import annotations

import builtins
import json
import os
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from fast_cli import FastRunner, checked_run, typed
from entry_lines import answers, snapshot
from scorekeeper import night as night_mod
from scorekeeper import store
from scorekeeper.cli import app
from scorekeeper.rules import FUDAWIKI
from helpers import add_round, money

# the draft store and the validator are imported where they are used: so that the tests of the
# CLI also run (and fail, as they did) on the commit before the drafts existed


def Drafts(book_file):  # noqa: N802 - the class, imported late
    from scorekeeper.drafts import Drafts as cls

    return cls(book_file)


def check_draft(*args, **kwargs):
    from scorekeeper.check import check_draft as check

    return check(*args, **kwargs)

PLAYERS = ["Aki", "Ben", "Chie"]
runner = FastRunner()
#: a console wide enough that a message naming a file under the temp folder (longer under
#: pytest-xdist) is never wrapped inside the words a test looks for
WIDE = {"COLUMNS": "400"}
run = checked_run(runner)
TYPED = builtins.input  # what CliRunner's input= feeds


def plain_input(monkeypatch) -> None:
    """Back to the input CliRunner feeds (never monkeypatch.undo(): the book's env would go too)."""
    monkeypatch.setattr(builtins, "input", TYPED)


def bundled_night() -> list[dict]:
    folder = files("scorekeeper").joinpath("data", "night")
    return [json.loads(f.read_text("utf-8"))
            for f in sorted((f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)]


NIGHT = bundled_night()


def play(book_file: Path, round_files: list[dict], **session) -> None:
    """A session with these rounds, through the book (as other terminals saved them)."""
    book = store.Book.open(book_file)
    sid = book.new_session(PLAYERS, **session)
    for r in round_files:
        add_round(book, sid, r)


def draft_of(book_file: Path) -> dict | None:
    """The answers kept for session s1 (read as a file: the draft's own format)."""
    from scorekeeper.drafts import Drafts

    draft, _ = Drafts(book_file).load("s1")  # the draft being typed
    return None if draft is None else draft.answers


def interrupt_after(monkeypatch, lines: list[str], hook=None):
    """Feed ``lines`` to input(), then Ctrl-C; ``hook(i)`` runs before the i-th line is given."""
    queue = list(lines)
    shown: list[str] = []

    def typed_in(prompt: str = "") -> str:
        shown.append(prompt)
        if hook is not None:
            hook(len(shown) - 1)
        if not queue:
            raise KeyboardInterrupt
        return queue.pop(0)

    monkeypatch.setattr(builtins, "input", typed_in)
    return shown


# ---------------------------------------------------------------------------------------------
# the draft


def test_every_answer_is_kept_in_the_draft_as_it_is_typed(book_file, monkeypatch):
    play(book_file, NIGHT[:1])
    before = snapshot(book_file.parent)
    lines = answers(NIGHT[1])[:4]  # the 親, the field, two 手役
    interrupt_after(monkeypatch, lines)
    result = runner.invoke(app, ["round"], env=WIDE)
    assert result.exit_code == 1 and result.stderr.strip() == "hachi-score: aborted: nothing was saved"
    assert "the answers typed are kept in" in result.stdout and "book.drafts" in result.stdout
    assert snapshot(book_file.parent) == before  # the book itself: byte for byte
    kept = draft_of(book_file)
    assert kept["dealer"] == NIGHT[1]["dealer"] and kept["field"] == lines[1]
    assert len([v for v in kept.values() if v is not None]) == 4


def test_the_next_round_resumes_the_draft_and_asks_only_what_is_left(book_file, monkeypatch):
    play(book_file, NIGHT[:1])
    lines = answers(NIGHT[1])
    interrupt_after(monkeypatch, lines[:5])
    runner.invoke(app, ["round"])
    plain_input(monkeypatch)
    rest = lines[5:]
    result = run("round", input=typed(["", *rest]))  # Enter: resume
    assert "Resume them? [Y/n/discard]" in result.stderr
    prompts = result.stdout
    assert prompts.count("場札 the six field cards") == 1  # shown once, as taken again, not asked
    assert "round 2 saved" in prompts
    assert draft_of(book_file) is None  # saved: the draft is removed
    assert money(night_mod.replay(store.Book.open(book_file).session("s1"))[1]) == \
        money(night_mod.score_record({"round": NIGHT[1]}, PLAYERS))


def test_round_resume_takes_the_draft_without_asking_and_discard_throws_it_away(book_file, monkeypatch):
    play(book_file, NIGHT[:1])
    lines = answers(NIGHT[1])
    interrupt_after(monkeypatch, lines[:3])
    runner.invoke(app, ["round"])
    plain_input(monkeypatch)
    assert draft_of(book_file) is not None
    assert "aborted: the answers are kept" in run("round", "--discard", code=1).stderr  # asked; no answer: no
    assert draft_of(book_file) is not None
    discarded = run("round", "--discard", input="y\n")
    assert "Throw away 3 answers?" in discarded.stderr and "thrown away: 3 answers." in discarded.stdout
    assert draft_of(book_file) is None
    assert "no answers" in run("round", "--resume", code=2).stderr
    interrupt_after(monkeypatch, lines[:3])
    runner.invoke(app, ["round"])
    plain_input(monkeypatch)
    result = run("round", "--resume", input=typed(lines[3:]))
    assert "Resume them?" not in result.stderr and "round 2 saved" in result.stdout


def test_another_terminal_saving_the_same_round_meanwhile_is_said_and_nothing_is_saved_twice(book_file, monkeypatch):
    """Round 2 typed here while another terminal saves the same round 2 from a file: nothing is
    saved here, the person is told it holds every answer typed here, and the next `round` is
    round 3, asked afresh (the field of round 2 never comes back as round 3's)."""
    play(book_file, NIGHT[:1])
    other = store.Book.open(book_file)

    def other_terminal(i: int) -> None:
        if i == 6:  # while round 2 is being typed here, round 2 is saved there
            add_round(other, "s1", NIGHT[1])

    lines = answers(NIGHT[1])
    queue = list(lines)

    def typed_in(prompt: str = "") -> str:
        other_terminal(len(lines) - len(queue))
        if not queue:
            raise EOFError
        return queue.pop(0)

    monkeypatch.setattr(builtins, "input", typed_in)
    result = runner.invoke(app, ["round"])
    assert result.exit_code == 1
    assert "round 2 was saved meanwhile, on a phone or at another terminal; nothing was saved" in result.stderr
    assert "it has every answer typed here" in result.stderr
    assert len(store.Book.open(book_file).session("s1")["rounds"]) == 2  # only the other terminal's
    assert draft_of(book_file) is None
    plain_input(monkeypatch)
    result = run("round", input=typed(answers(NIGHT[2])))
    assert "Resume them?" not in result.stderr and result.stdout.count("場札 the six field cards") == 1
    assert "round 3 saved" in result.stdout


def other_terminal(book_file, *, resume: bool) -> int:
    """Another terminal types round 2 and saves it, through the flows as `round` does: its own
    draft (it declined the answers kept), or the kept draft resumed and finished."""
    from scorekeeper.flows import Night
    from scorekeeper.round_draft import RoundDraft

    b = Night.open(book_file)
    rd = RoundDraft.kept(b) if resume else RoundDraft.begin(b)
    for key, text in answers_of_round(NIGHT[1]).items():
        if resume and key in rd.answers:
            continue
        rd.answer(key, text)
    return rd.save().number


def answers_of_round(data: dict) -> dict[str, str]:
    """The lines that type ``data`` (entry_lines.answers), by the question each answers."""
    start = PLAYERS.index(data["dealer"])
    turn = [PLAYERS[(start + i) % 3] for i in range(3)]
    asked = [p for p in turn if not data.get("ended_by") or p == data["ended_by"]]  # SDIN: only the ender's
    keys = ["dealer", "field", *(f"hand:{p}" for p in turn), "sage", "ended", *(f"pile:{p}" for p in asked)]
    return dict(zip(keys, answers(data)[:-1]))


def typed_with_another_terminal(monkeypatch, lines: list[str], at: int, other) -> dict:
    """This terminal types ``lines`` (then end of input); when ``at`` lines are left, ``other``
    (another terminal) acts once: what it returned is ``saved["b"]``."""
    queue, saved = list(lines), {}

    def typed_in(prompt: str = "") -> str:
        if len(queue) == at and not saved:
            saved["b"] = other()
            from scorekeeper.flows import Night
            from scorekeeper.round_draft import RoundDraft

            RoundDraft.take(Night.open())  # a watcher (the phones' server) looks at the drafts meanwhile
        if not queue:
            raise EOFError
        return queue.pop(0)

    monkeypatch.setattr(builtins, "input", typed_in)
    return saved


def test_answers_overtaken_by_another_terminal_are_named_and_offered_as_an_edit(book_file, monkeypatch):
    """A types round 2; B declines A's answers, types its own round 2 (the same) and saves it.
    A's answers were never written into by B; A's save is told the truth: round 2 as saved holds
    every answer A typed, and nothing more is saved."""
    play(book_file, NIGHT[:1])
    saved = typed_with_another_terminal(monkeypatch, [*answers(NIGHT[1])], 7,
                                        lambda: other_terminal(book_file, resume=False))
    result = runner.invoke(app, ["round"])
    assert saved["b"] == 2
    assert result.exit_code == 1
    assert "round 2 was saved meanwhile, on a phone or at another terminal; nothing was saved" in result.stderr
    assert "it has every answer typed here" in result.stderr
    rounds = store.Book.open(book_file).session("s1")["rounds"]
    assert len(rounds) == 2
    assert draft_of(book_file) is None  # nothing left being typed


def test_a_terminal_whose_answers_another_saved_is_told_so_not_offered_them_again(book_file, monkeypatch):
    """B resumes A's answers and saves them; A is told "saved by another terminal as round 2",
    that it holds nothing else, and saves nothing itself."""
    play(book_file, NIGHT[:1])
    # before A's yes, B finishes A's answers
    saved = typed_with_another_terminal(monkeypatch, list(answers(NIGHT[1])), 1,
                                        lambda: other_terminal(book_file, resume=True))
    result = runner.invoke(app, ["round"])
    assert saved["b"] == 2
    assert result.exit_code == 1
    assert "saved meanwhile, on a phone or at another terminal, as round 2" in result.stderr
    assert "it has every answer typed here" in result.stderr and "Edit round" not in result.stderr
    assert len(store.Book.open(book_file).session("s1")["rounds"]) == 2


def test_two_writers_of_one_draft_never_overwrite_each_other(book_file):
    from scorekeeper.drafts import Draft, DraftConflict

    drafts = Drafts(book_file)
    a = Draft("s1", answers={"field": "1h"})
    drafts.save(a, 0)
    b = Draft("s1", answers={"field": "2t"}, id=a.id)  # the same draft, taken by another writer
    with pytest.raises(DraftConflict):
        drafts.save(b, 0)  # b never saw a's revision
    assert drafts.load("s1")[0].answers == {"field": "1h"}
    drafts.save(b, 1)
    assert drafts.load("s1")[0].answers == {"field": "2t"} and drafts.load("s1")[0].revision == 2
    c = Draft("s1", answers={"field": "3h"})  # a new draft beside it: its own file
    drafts.save(c, 0)
    assert c.id != a.id and {d.answers["field"] for d, _ in drafts.all("s1")} == {"2t", "3h"}


def test_a_draft_whose_folder_cant_be_written_goes_to_the_user_cache(book_file, monkeypatch, tmp_path):
    from scorekeeper.drafts import Draft

    drafts = Drafts(book_file)
    drafts.beside.parent.mkdir(parents=True, exist_ok=True)
    drafts.beside.write_text("a file where the folder should be")  # the folder can't be made
    where = drafts.save(Draft("s1", answers={"field": "1h"}), 0)
    assert where.parent == drafts.cache and str(tmp_path) in str(where)  # HOME is the test's
    assert drafts.load("s1")[0].answers == {"field": "1h"}
    assert drafts.discard("s1") and drafts.load("s1")[0] is None


# ---------------------------------------------------------------------------------------------
# a book that turns read-only: a real read-only mount where the test may make one


def _mount(where: Path) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def _remount(where: Path, mode: str) -> None:
    assert subprocess.run(["mount", "-o", f"remount,{mode}", str(where)], capture_output=True).returncode == 0


def test_a_night_whose_book_turns_read_only_and_gets_a_second_terminal_loses_no_answer(tmp_path, monkeypatch):
    """Round 6 is typed while the book turns read-only: nothing is saved, every answer is kept
    (in the user cache, the book's folder being read-only), and once the disk is back the next
    `round` resumes it. Round 8 is typed while another terminal saves a round: nothing is saved,
    the draft stays, and the next `round` asks the 親 again and saves it."""
    where = tmp_path / "disk"
    if not _mount(where):
        pytest.skip("can't mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
    try:
        book_file = where / "book.json"
        monkeypatch.setenv("HACHI_SCORE_DB", str(book_file))
        play(book_file, NIGHT[:5])
        lines = answers(NIGHT[5])
        queue = list(lines)

        def typed_in(prompt: str = "") -> str:
            if len(queue) == 3:  # the disk turns read-only in the middle of round 6
                _remount(where, "ro")
            return queue.pop(0)

        monkeypatch.setattr(builtins, "input", typed_in)
        result = runner.invoke(app, ["round"], env=WIDE)
        plain_input(monkeypatch)
        assert result.exit_code == 1 and "read-only" in result.stderr
        assert "the book's folder can't be written" in result.stdout  # said where the answers went
        kept, at = Drafts(book_file).load("s1")
        assert at.parent == Drafts(book_file).cache and kept.answers.get(f"pile:{PLAYERS[0]}") is not None
        # still read-only: refused before the first question, nothing typed to lose
        blocked = run("round", code=1, input="")
        assert "read-only" in blocked.stderr and "親 dealer" not in blocked.stdout
        _remount(where, "rw")
        resumed = run("round", input=typed(["", "y"]))
        assert "round 6 saved" in resumed.stdout
        run("round", "--file", str(files("scorekeeper").joinpath("data", "night", "07.json")))
        # round 8 here, while a second terminal saves round 8 there
        other = store.Book.open(book_file)
        lines, queue = answers(NIGHT[7]), None
        queue = list(lines)

        def typed_8(prompt: str = "") -> str:
            if len(queue) == 4:
                add_round(other, "s1", NIGHT[7])
            if not queue:
                raise EOFError  # "take them again?": no
            return queue.pop(0)

        monkeypatch.setattr(builtins, "input", typed_8)
        clash = runner.invoke(app, ["round"])
        plain_input(monkeypatch)
        assert clash.exit_code == 1 and "meanwhile" in clash.stderr and "every answer typed here" in clash.stderr
        again = run("round", input=typed(answers(NIGHT[8])))
        assert "round 9 saved" in again.stdout and "Resume them?" not in again.stderr
        rounds = store.Book.open(book_file).session("s1")["rounds"]
        assert len(rounds) == 9 and rounds[7]["round"]["captured"] == NIGHT[7]["captured"]
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


# ---------------------------------------------------------------------------------------------
# guard rails at the table


def test_every_round_starts_with_the_session_and_the_planned_length(book_file):
    play(book_file, NIGHT[:1], name="Friday", rounds=6)
    out = run("round", input=typed(answers(NIGHT[1]))).stdout
    assert "session 'Friday' (s1) · round 2 — of 6" in out
    play_more = store.Book.open(book_file)
    for r in NIGHT[2:6]:
        add_round(play_more, "s1", r)
    out = run("round", input=typed(answers(NIGHT[6]))).stdout
    assert "round 7 — past the planned 6" in out


def test_the_planned_last_round_is_followed_by_the_nights_standing(book_file):
    play(book_file, NIGHT[:11])
    out = run("round", input=typed(answers(NIGHT[11]))).stdout
    assert "round 12 — the last of the planned 12" in out
    assert "that was the planned last round (12)" in out and "settlement" in out and " pays " in out


def test_a_dealer_off_the_chain_is_taken_only_after_a_yes_naming_the_winner(book_file):
    play(book_file, NIGHT[:1])
    chain = night_mod.replay(store.Book.open(book_file).session("s1"))[0].next_dealer
    other = next(p for p in PLAYERS if p != chain)
    lines = answers({**NIGHT[1], "dealer": other})
    refused = runner.invoke(app, ["round"], input=typed([other, "n"]))
    assert f"{chain} won the last round and deals next by the chain: did {other} deal this round? [y/N]" in refused.stdout
    assert f"the 親 stays {chain}" in refused.stdout
    taken = run("round", input=typed(["discard", other, "y", *lines[1:]]))
    assert "round 2 saved" in taken.stdout
    assert store.Book.open(book_file).session("s1")["rounds"][1]["round"]["dealer"] == other


def test_a_round_file_off_the_chain_is_saved_with_a_notice_on_stderr(book_file, tmp_path):
    play(book_file, NIGHT[:1])
    chain = night_mod.replay(store.Book.open(book_file).session("s1"))[0].next_dealer
    other = next(p for p in PLAYERS if p != chain)
    f = tmp_path / "r.json"
    f.write_text(json.dumps({**NIGHT[1], "dealer": other}), encoding="utf-8")
    result = run("round", "--file", str(f), "--json")
    assert f"its 親 {other} is not the last round's winner {chain}" in result.stderr
    assert json.loads(result.stdout)["round"] == 2  # stdout holds only the JSON


def test_doctor_notes_a_chain_break(book_file, tmp_path):
    play(book_file, NIGHT[:1])
    chain = night_mod.replay(store.Book.open(book_file).session("s1"))[0].next_dealer
    other = next(p for p in PLAYERS if p != chain)
    add_round(store.Book.open(book_file), "s1", {**NIGHT[1], "dealer": other})
    out = run("doctor").stdout
    assert "· " in out and f"round 2: its 親 {other} is not round 1's winner {chain}" in out


def test_edit_by_file_shows_the_before_and_after_of_the_rounds_it_changed(book_file, tmp_path):
    play(book_file, NIGHT[:3])
    f = tmp_path / "r.json"
    f.write_text(json.dumps({**NIGHT[1], "teyaku": {"Aki": "四三"}}), encoding="utf-8")
    out = run("edit", "2", "--file", str(f), "--rechain").stdout
    assert "round 2 replaced; results changed in round" in out
    assert "→" in out  # the before → after of each changed amount


# ---------------------------------------------------------------------------------------------
# one bad stored round does not lock the session


def _spoil(book_file: Path, *numbers: int) -> None:
    """Rounds that no longer score: a card in two piles (edited by hand)."""
    path = store.sessions_dir(book_file) / "s1.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for n in numbers:
        rnd = data["rounds"][str(n)]["round"]
        rnd["captured"]["Aki"] = rnd["captured"]["Aki"] + rnd["captured"]["Ben"][:2]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_a_round_that_no_longer_scores_is_marked_and_the_rest_of_the_night_still_reads(book_file):
    play(book_file, NIGHT[:4])
    good = night_mod.replay(store.Book.open(book_file).session("s1"))
    _spoil(book_file, 2)
    result = run("summary", "--json", code=1)
    data = json.loads(result.stdout)
    assert data["rounds"] == 4 and [h["kind"] for h in data["history"]][1] == "✗"
    expected = {p: sum(r.players[p].mon for i, r in enumerate(good) if i != 1) for p in PLAYERS}
    assert data["totals"] == expected  # every other round counts
    assert "round 2:" in result.stderr and "edit 2 replaces it" in result.stderr
    assert "does not score" in run("summary", code=1).stdout
    assert json.loads(run("show", "3", "--json", code=1).stdout)["round"] == 3
    assert "does not score" in run("show", "2", code=1).stdout
    exported = json.loads(run("export", code=1).stdout)
    assert len(exported["rounds"]) == 4
    run("round", "--file", "-", input=json.dumps(NIGHT[4]), code=1)  # no write on top of damage


def test_edit_replaces_a_round_that_no_longer_scores(book_file, tmp_path):
    play(book_file, NIGHT[:4])
    _spoil(book_file, 2)
    f = tmp_path / "r.json"
    f.write_text(json.dumps(NIGHT[1]), encoding="utf-8")
    run("edit", "2", "--file", str(f))
    assert json.loads(run("summary", "--json").stdout)["rounds"] == 4
    assert run("doctor").exit_code == 0


def test_two_rounds_that_no_longer_score_each_can_be_replaced(book_file, tmp_path):
    """Behaviour 8: with rounds 2 and 4 spoilt, `edit 4` and then `edit 2` each replace theirs
    (neither is refused because of the other), and the night is whole again."""
    play(book_file, NIGHT[:4])
    good = json.loads(run("summary", "--json").stdout)["totals"]
    _spoil(book_file, 2, 4)
    for n in (4, 2):
        f = tmp_path / f"r{n}.json"
        f.write_text(json.dumps(NIGHT[n - 1]), encoding="utf-8")
        out = run("edit", str(n), "--file", str(f)).stdout
        assert f"round {n} replaced" in out
    assert json.loads(run("summary", "--json").stdout)["totals"] == good
    assert run("doctor").exit_code == 0


def test_a_round_that_no_longer_scores_is_edited_at_the_terminal_beside_another(book_file):
    play(book_file, NIGHT[:4])
    _spoil(book_file, 2, 3)
    out = run("edit", "3", input=typed(answers(NIGHT[2], confirm="y"))).stdout
    assert "round 3 replaced" in out
    summary = run("summary", "--json", code=1)  # round 2 still does not score, and says so
    assert "round 2:" in summary.stderr and "edit 2 replaces it" in summary.stderr


def test_doctor_lists_every_round_that_no_longer_scores(book_file):
    play(book_file, NIGHT[:4])
    _spoil(book_file, 2, 4)
    result = run("doctor", code=1)
    assert "round 2:" in result.stdout and "round 4:" in result.stdout


# ---------------------------------------------------------------------------------------------
# the draft validator: codes a web form can mark


FIELD = ["1k", "4k", "5k", "7k", "9k", "12k"]


def test_the_draft_validator_names_a_typo_by_its_token_and_waits_for_answers_to_come():
    v = check_draft({"players": PLAYERS, "dealer": "Aki", "field": FIELD, "captured": {"Aki": ["1h", "1x"]}})
    assert [(p.code, p.key, p.token) for p in v.problems] == [("card", "captured.Aki", "1x")]
    waiting = check_draft({"players": PLAYERS, "dealer": "Aki", "field": FIELD, "captured": {"Aki": ["1h", "1k"]}})
    assert waiting.ok and waiting.missing == ["captured.Ben", "captured.Chie"] and waiting.round is None


def test_the_draft_validator_names_the_month_and_the_card():
    odd = check_draft({"players": PLAYERS, "dealer": "Aki", "field": FIELD, "captured": {"Aki": ["1h"]}})
    assert [(p.code, p.player, p.month) for p in odd.problems] == [("odd", "Aki", 1)]
    twice = check_draft({"players": PLAYERS, "dealer": "Aki", "field": FIELD,
                         "captured": {"Aki": ["1h", "1k"], "Ben": ["1h", "1k"]}})
    assert [(p.code, p.card) for p in twice.problems] == [("deck", "1h")]


def test_the_draft_validator_knows_the_profile():
    data = {"players": PLAYERS, "dealer": "Aki", "field": FIELD, "sage": ["Aki", "Ben"], "captured": {}}
    assert [p.code for p in check_draft(data).problems] == ["bad"]  # sdin: one caller
    assert check_draft(data, rules=FUDAWIKI).ok  # the piles are still to come
    no_yaku = check_draft({**data, "captured": {"Aki": ["1h", "1k"]}}, rules=FUDAWIKI)
    assert [(p.code, p.player) for p in no_yaku.problems] == [("no_dekiyaku", "Aki")]


def test_a_draft_written_by_the_release_before_resumes(book_file):
    """tests/fixtures/draft-0.1.0: a book and the draft `round` kept when stopped after two piles,
    both written by hachi-score 0.1.0 (commit f3e3f9b, one draft per session, no marks). The
    `round` of today offers it, takes every answer again, and asks only the last pile."""
    fixture = Path(__file__).parent / "fixtures" / "draft-0.1.0"
    shutil.copytree(fixture, book_file.parent)
    rnd = NIGHT[1]
    last = answers(rnd)[-2]  # Ben's pile, the one not typed
    result = run("round", input=typed(["", last, "y"]))
    assert "9 answers typed for this round at 17:56 are kept" in result.stderr and "Resume them?" in result.stderr
    asked = [line for line in result.stdout.splitlines() if line.startswith("札 ")]
    assert len(asked) == 1 and asked[0].startswith("札 Ben")  # the two piles kept were taken, not asked
    assert "round 2 saved" in result.stdout
    stored = store.Book.open(book_file).session("s1")["rounds"][1]["round"]
    assert stored == night_mod.score_record({"round": rnd}, PLAYERS).round.to_dict() | {"dealer": rnd["dealer"]}
    assert draft_of(book_file) is None


def test_a_round_thrown_away_is_brought_back_until_the_next_round_is_saved(book_file, monkeypatch):
    play(book_file, NIGHT[:2])
    lines = answers(NIGHT[2])  # played out: every pile is asked
    interrupt_after(monkeypatch, lines[:9])  # two piles typed
    runner.invoke(app, ["round"])
    plain_input(monkeypatch)
    kept = draft_of(book_file)
    gone = run("round", "--discard", "--yes")
    assert "thrown away: " in gone.stdout and "'s pile, " in gone.stdout and "other answers" in gone.stdout
    assert draft_of(book_file) is None
    back = run("round", "--restore", input=typed(lines[9:]))  # only the last pile is asked
    assert "brought back:" in back.stdout and "round 3 saved" in back.stdout
    assert len([line for line in back.stdout.splitlines() if line.startswith("札 ")]) == 1  # the last pile
    assert len(store.Book.open(book_file).session("s1")["rounds"]) == 3
    assert kept and draft_of(book_file) is None
    # thrown away again, then a round saved: nothing to bring back any more
    interrupt_after(monkeypatch, lines[:3])
    runner.invoke(app, ["round"])
    plain_input(monkeypatch)
    run("round", "--discard", "--yes")
    add_round(store.Book.open(book_file), "s1", NIGHT[3])
    none = run("round", "--restore", code=2)
    assert "no round was thrown away since the last round was saved" in none.stderr
