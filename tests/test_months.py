"""TRADITIONAL §7/§8, CONTRACT §7: a misdeal is a record of the night like any round (numbered,
shown, counted in ``rounds``), but it does not use up a month of the planned length.

The header before a round, ``summary`` (``months`` in --json, the title, the line after a round),
``sessions`` and the book's index count the months; the night's planned end comes after the
planned months, not the planned records.
"""

import json

import pytest
from fast_cli import FastRunner
from helpers import EXAMPLE_PILES, SMALL_FIELD, codes, round_file
from test_fudawiki_pot import MISDEAL, P4, rendered, three

from scorekeeper import night, schema
from scorekeeper.cli import app
from scorekeeper.flows import Night
from scorekeeper.night_view import session_title, sessions_view, standing_line, summary_view
from scorekeeper.rules import FUDAWIKI
from scorekeeper.scoring import MISDEAL as MISDEAL_KIND
from scorekeeper.store import Book
from helpers import add_round

runner = FastRunner()
EX = {k: codes(v) for k, v in EXAMPLE_PILES.items()}
#: Ben, Chie and Dan play from the 親 Ben (Aki forced out); Ben wins
PLAYED = {"field": SMALL_FIELD, "captured": three("Ben", "Chie", "Dan", EX)}
#: everyone drops: nobody plays, the 親 deals again
NOBODY = {"field": MISDEAL["field"], "dropped": P4}


def cli(*args, code=0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result


def book_of(book_file, rounds, planned=6, players=P4, rules=FUDAWIKI):
    """A session of ``players`` (親 Ben) with the round files ``rounds`` saved in order."""
    book = Book.open(book_file)
    sid = book.new_session(list(players), dealer="Ben", rounds=planned, rules=rules)
    for rnd in rounds:
        add_round(book, sid, rnd)
    return book, sid


def index_data(book_file):
    """The index as the book reads it: the index file's rows, with the facts a round's write kept
    in the index's head alone (:func:`scorekeeper.index.fresh_facts`)."""
    from scorekeeper.index import fresh_facts

    data = json.loads(book_file.read_text(encoding="utf-8"))
    fresh_facts(book_file, data)
    return data


def index_row(book_file, sid="s1"):
    return index_data(book_file)["sessions"][sid[1:]]


# --- night.months_played: every round but a misdeal ---------------------------------------------


def test_a_misdeal_is_a_round_but_no_month(book_file):
    book, sid = book_of(book_file, [NOBODY, PLAYED, NOBODY])
    results = Night(book, sid).results
    assert [r.kind == MISDEAL_KIND for r in results] == [True, False, True]
    assert night.months_played(results) == 1
    assert night.months_played(results[:2]) == 1 and night.months_played(results[:1]) == 0
    data = json.loads(cli("summary", "--json").stdout)
    assert (data["rounds"], data["months"]) == (3, 1)


def test_every_round_of_a_night_of_three_is_a_month(book_file):
    book, sid = book_of(book_file, [round_file(EXAMPLE_PILES)] * 2, players=["Aki", "Ben", "Chie"], rules=None)
    data = json.loads(cli("summary", "--json").stdout)
    assert (data["rounds"], data["months"]) == (2, 2)


def test_the_stored_records_count_the_months_as_the_results_do(book_file):
    book, sid = book_of(book_file, [NOBODY, PLAYED, NOBODY, PLAYED])
    n = Night(book, sid)
    assert night.months_of_records(n.session["rounds"]) == night.months_played(n.results) == 2


# --- the planned end comes after the planned months ----------------------------------------------


def test_the_planned_end_is_the_round_that_uses_up_the_last_month(book_file):
    book, sid = book_of(book_file, [PLAYED] * 5 + [NOBODY], planned=6)
    results = Night(book, sid).results
    assert not night.at_planned_end(results[:5], 6)  # 5 months of 6
    assert not night.at_planned_end(results, 6)  # a misdeal: still 5 months
    add_round(book, sid, PLAYED)
    results = Night(book, sid).results
    assert night.at_planned_end(results, 6)  # round 7, the 6th month
    add_round(book, sid, NOBODY)
    assert not night.at_planned_end(Night(book, sid).results, 6)  # a misdeal after the end uses nothing
    add_round(book, sid, PLAYED)
    assert not night.at_planned_end(Night(book, sid).results, 6)  # past the planned end


def test_the_header_counts_the_months(book_file):
    book, sid = book_of(book_file, [PLAYED] * 4 + [NOBODY], planned=6)
    n = Night(book, sid)
    assert "round 6, month 5 — of 6" in n.header()
    assert "round 5 — of 6" in n.header(5)  # edit round 5: the 5th month, as before it
    add_round(book, sid, PLAYED)
    n = Night(book, sid)
    assert "round 7, month 6 — the last of the planned 6" in n.header()
    add_round(book, sid, PLAYED)
    assert "round 8, month 7 — past the planned 6" in Night(book, sid).header()


def test_without_a_misdeal_the_header_is_as_it_was(book_file):
    book, sid = book_of(book_file, [PLAYED] * 5, planned=6)
    assert Night(book, sid).header().endswith(f"round 6 — the last of the planned 6 · rules {FUDAWIKI.name}")
    add_round(book, sid, PLAYED)
    assert "round 7 — past the planned 6" in Night(book, sid).header()


def test_the_summary_title_and_the_line_after_a_round_count_the_months(book_file):
    book, sid = book_of(book_file, [PLAYED, NOBODY, PLAYED], planned=6)
    n = Night(book, sid)
    title = session_title(n.session, n.results).plain
    assert "2 of 6 months, 3 rounds (1 流れ)" in title
    assert "after round 3 (month 2 of 6)" in standing_line(n.session, n.results).plain
    assert "2 of 6 months, 3 rounds (1 流れ)" in rendered(summary_view(n.session, n.results))
    plain = book_of(book_file.parent / "other.json", [PLAYED, PLAYED], planned=6)
    n = Night(*plain)
    assert "2 of 6 rounds" in session_title(n.session, n.results).plain
    assert "after round 2 of 6:" in standing_line(n.session, n.results).plain


# --- sessions and the book's index ----------------------------------------------------------------


def test_sessions_shows_the_months_of_the_plan_and_the_misdeals(book_file):
    book_of(book_file, [PLAYED, NOBODY, PLAYED], planned=6)
    rows = json.loads(cli("sessions", "--json").stdout)
    assert (rows[0]["rounds"], rows[0]["months"]) == (3, 2)
    text = rendered(sessions_view(Book.open(book_file).sessions(with_rounds=True), "s1"))
    assert "2/6 +1 流れ" in text


def test_the_index_keeps_the_months_through_round_undo_and_edit(book_file, tmp_path):
    book, sid = book_of(book_file, [PLAYED, NOBODY])
    assert (index_row(book_file)["rounds"], index_row(book_file)["months"]) == (2, 1)
    cli("undo", "--yes")
    assert (index_row(book_file)["rounds"], index_row(book_file)["months"]) == (1, 1)
    f = tmp_path / "nobody.json"
    f.write_text(json.dumps(NOBODY), encoding="utf-8")
    cli("edit", "1", "--file", str(f))
    assert (index_row(book_file)["rounds"], index_row(book_file)["months"]) == (1, 0)


def test_an_imported_night_has_its_months_in_the_index(book_file, tmp_path):
    book_of(book_file, [PLAYED, NOBODY, PLAYED])
    exported = tmp_path / "night.json"
    cli("export", "--json", "-o", str(exported))
    Book.open(book_file)  # the first session stays
    other = tmp_path / "other" / "book.json"
    runner.invoke(app, ["--db", str(other), "import", str(exported)])
    row = index_data(other)["sessions"]["1"]
    assert (row["rounds"], row["months"]) == (3, 2)


def drop_months(path):
    """The index as a release before the months count wrote it."""
    data = index_data(path)
    for row in data["sessions"].values():
        row.pop("months", None)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_row_without_months_of_a_night_of_three_is_its_round_count_without_reading_the_file(book_file, monkeypatch):
    book_of(book_file, [round_file(EXAMPLE_PILES)] * 2, players=["Aki", "Ben", "Chie"], rules=None)
    drop_months(book_file)
    reads = []
    real = schema.read_book_file
    monkeypatch.setattr(schema, "read_book_file", lambda p: reads.append(p.name) or real(p))
    rows = json.loads(cli("sessions", "--json").stdout)
    assert (rows[0]["rounds"], rows[0]["months"]) == (2, 2)
    assert reads == ["book.json"]
    assert "months count" not in cli("doctor").stdout


def test_a_row_without_months_of_a_night_of_four_reads_the_file_and_doctor_fills_it_in(book_file):
    book_of(book_file, [PLAYED, NOBODY, PLAYED])
    drop_months(book_file)
    rows = json.loads(cli("sessions", "--json").stdout)
    assert (rows[0]["rounds"], rows[0]["months"]) == (3, 2)
    result = cli("doctor")
    assert "1 session row kept no months count" in result.stdout  # a note: still healthy
    result = cli("doctor", "--restore")
    assert "filled in the months count of 1 row" in result.stdout
    assert index_row(book_file)["months"] == 2
    assert "kept no months count" not in cli("doctor").stdout


def test_a_wrong_months_count_in_the_index_is_a_finding_and_restore_corrects_it(book_file):
    book_of(book_file, [PLAYED, NOBODY, PLAYED])
    data = index_data(book_file)
    data["sessions"]["1"]["months"] = 3
    book_file.write_text(json.dumps(data), encoding="utf-8")
    result = cli("doctor", code=1)
    assert "says 3 months, but s1.json holds 2" in result.stdout
    result = cli("doctor", "--restore")
    assert "corrected the months count of s1" in result.stdout
    assert index_row(book_file)["months"] == 2
    cli("doctor")


@pytest.mark.parametrize("months", [-1, True, "2", 2.0])
def test_a_months_count_that_is_not_a_count_is_not_believed(book_file, months):
    book_of(book_file, [PLAYED, NOBODY, PLAYED])
    data = index_data(book_file)
    data["sessions"]["1"]["months"] = months
    book_file.write_text(json.dumps(data), encoding="utf-8")
    assert json.loads(cli("sessions", "--json").stdout)[0]["months"] == 2


def test_a_wrong_round_count_in_a_row_of_three_without_months_is_one_finding(book_file):
    """An older row keeps no months; with three seated they are its round count, which is what
    is wrong: one finding, of the round count, and --restore corrects it and writes the months."""
    book_of(book_file, [round_file(EXAMPLE_PILES)] * 3, players=["Aki", "Ben", "Chie"], rules=None)
    data = index_data(book_file)
    data["sessions"]["1"]["rounds"] = 7
    data["sessions"]["1"].pop("months")
    book_file.write_text(json.dumps(data), encoding="utf-8")
    report = json.loads(cli("doctor", "--json", code=1).stdout)
    assert [p["problem"] for p in report["problems"]] == [
        "session row 1 (" + index_row(book_file)["name"] + ") says 7 rounds, but s1.json holds 3"]
    result = cli("doctor", "--restore")
    assert "corrected the round count of s1" in result.stdout and "months" not in result.stdout.split("index rows:")[1]
    assert (index_row(book_file)["rounds"], index_row(book_file)["months"]) == (3, 3)


def test_restore_has_nothing_to_say_of_a_row_of_three_without_months(book_file):
    book_of(book_file, [round_file(EXAMPLE_PILES)] * 2, players=["Aki", "Ben", "Chie"], rules=None)
    drop_months(book_file)
    result = cli("doctor", "--restore")
    assert "index rows" not in result.stdout and "↺" not in result.stdout
