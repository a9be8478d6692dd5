"""The night's end (scorekeeper/night_end.py, issue 35): when the phones show it (the planned months
played, no round begun; or ended on a phone, until reopened), its figures as `summary --json`
says them, the choices over HTTP (the view link can't make them), and `summary --image`: the
figures it draws are `summary --json`'s, a PNG for a chat, one line and status 2 without a font.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from scorekeeper.cli import app as cli_app
from scorekeeper.night_end import best_round, end_figures, end_state, marks_path, more_after, read_mark, write_mark
from scorekeeper.store import Book

from helpers import add_round
from serve_helpers import PLAYERS, bundled_night

runner = CliRunner()


def short_night(book_file, rounds: int, rate: float | None = 10):
    book = Book.open(book_file)
    sid = book.new_session(PLAYERS, name="Friday", rate=rate, rounds=6)
    for data in bundled_night()[:rounds]:
        add_round(book, sid, data)
    return book, sid


def summary_json():
    r = runner.invoke(cli_app, ["summary", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


# -- when the end is shown ------------------------------------------------------------------------

def test_the_end_is_due_once_the_planned_months_are_played_and_not_a_round_before(book_file):
    short_night(book_file, 5)
    five = summary_json()
    assert end_state(five, {"more": 0}, begun=False)["due"] is False  # one short of the plan
    add_round(Book.open(book_file), five["session"], bundled_night()[5])
    six = summary_json()
    assert end_state(six, {"more": 0}, begun=False) == {"ended": False, "due": True, "shown": True}
    assert end_state(six, {"more": 0}, begun=True)["shown"] is False  # someone has begun the next round
    more = more_after(six)
    assert more == 1
    assert end_state(six, {"more": more}, begun=False)["shown"] is False  # one more round chosen
    assert end_state(six, {"ended": True, "more": more}, begun=True)["shown"] is True  # ended: until reopened


@given(months=st.integers(0, 20), planned=st.sampled_from([6, 12]), more=st.integers(0, 8), rounds=st.integers(1, 3))
@settings(max_examples=200, deadline=None)
def test_one_more_round_puts_the_end_one_month_after_now(months, planned, more, rounds):
    s = {"planned_rounds": planned, "months": months, "rounds": rounds}
    due = end_state(s, {"more": more}, begun=False)["due"]
    assert due == (months >= planned + more)
    after = more_after(s)
    assert end_state(s, {"more": after}, begun=False)["due"] is False
    assert end_state({**s, "months": months + 1}, {"more": after}, begun=False)["due"] is (months + 1 >= planned)


def test_the_mark_is_kept_per_session_and_a_damaged_file_is_none(book_file):
    book, sid = short_night(book_file, 0)
    assert read_mark(book.path, sid) == {"ended": False, "more": 0}
    write_mark(book.path, sid, ended=True, more=2)
    write_mark(book.path, "other", ended=False, more=1)
    assert read_mark(book.path, sid) == {"ended": True, "more": 2}
    marks_path(book.path).write_text("{not json")
    assert read_mark(book.path, sid) == {"ended": False, "more": 0}


def test_the_terminal_says_a_night_ended_on_a_phone_and_a_round_saved_there_reopens_it(book_file, tmp_path):
    """summary says the night was ended on a phone (and --json has "ended": true, only then); the
    terminal's round says so before its first question; a round saved plays on: the mark is undone,
    its "more" kept, and the figures are the same as before the night was ended."""
    book, sid = short_night(book_file, 5)
    before = summary_json()
    assert "ended" not in before
    write_mark(book.path, sid, ended=True, more=1)
    assert summary_json() == {**before, "ended": True}
    shown = runner.invoke(cli_app, ["summary"])
    assert shown.exit_code == 0 and "ended on a phone" in shown.output
    asked = runner.invoke(cli_app, ["round"], input="")  # its input ended at the first question
    assert "The night was ended on a phone: saving this round reopens it." in asked.output
    assert read_mark(book.path, sid) == {"ended": True, "more": 1}  # nothing saved: still ended
    round_file = tmp_path / "r6.json"
    round_file.write_text(json.dumps(bundled_night()[5]), encoding="utf-8")
    saved = runner.invoke(cli_app, ["round", "--file", str(round_file)])
    assert saved.exit_code == 0, saved.output
    assert read_mark(book.path, sid) == {"ended": False, "more": 1}
    assert "ended" not in summary_json() and "ended on a phone" not in runner.invoke(cli_app, ["summary"]).output


# -- the figures: summary --json's ----------------------------------------------------------------

@pytest.mark.parametrize("rate", [10, 2.5, None])
def test_the_end_s_figures_are_summary_json_s(book_file, rate):
    short_night(book_file, 6, rate)
    data = summary_json()
    F = end_figures(data)
    assert {s["player"]: (s["mon"], s["kan"], s["money"]) for s in F["standings"]} == \
           {p: (data["totals"][p], data["kan"][p], None if rate is None else round(data["totals"][p] * rate, 2))
            for p in PLAYERS}
    assert [s["mon"] for s in F["standings"]] == sorted(data["totals"].values(), reverse=True)
    assert [{k: v for k, v in s.items() if k != "money_text"} for s in F["settlement"]] == data["settlement"]
    assert len(F["settlement"]) <= len(PLAYERS) - 1
    assert {p: run[-1] for p, run in F["running"].items()} == data["totals"]
    for b in F["best"]:
        wins = [h["mon"][b["player"]] for h in data["history"]]
        assert b["mon"] == max(0, *wins)
        if b["round"] is not None:
            assert data["history"][b["round"] - 1]["mon"][b["player"]] == b["mon"]
            assert wins.index(b["mon"]) == b["round"] - 1  # the earliest of equals


def test_a_best_round_needs_a_round_won():
    s = {"history": [{"round": 1, "mon": {"A": -5, "B": 5}, "yaku": [{"player": "B", "yaku": "三本"}]},
                     {"round": 2, "mon": {"A": 0, "B": 5}, "yaku": []}]}
    assert best_round(s, "A") is None  # 0 is no win
    assert best_round(s, "B") == {"round": 1, "mon": 5, "yaku": ["三本"]}


# -- summary --image ------------------------------------------------------------------------------

def test_summary_image_draws_summary_json_s_figures_as_a_png_for_a_chat(book_file, tmp_path, monkeypatch):
    pytest.importorskip("PIL")
    from scorekeeper import night_image

    short_night(book_file, 6)
    handed = []
    real = night_image.draw_end
    monkeypatch.setattr(night_image, "draw_end", lambda F, drawn=None: real(F, handed.append))
    out = tmp_path / "night.png"
    r = runner.invoke(cli_app, ["summary", "--image", str(out)])
    assert r.exit_code == 0, r.output
    assert handed == [end_figures(summary_json())]
    from PIL import Image

    with Image.open(out) as img:
        assert img.format == "PNG" and img.width == 1080 and 1000 < img.height < 2000


def test_the_font_found_holds_japanese():
    pytest.importorskip("PIL")
    from PIL import ImageFont

    from scorekeeper.night_image import NoFont, cjk_font

    try:
        path = cjk_font()
    except NoFont:
        pytest.skip("no CJK font on this machine")
    font = ImageFont.truetype(path, 40)
    missing = font.getmask("\U0010fffd").getbbox()  # a glyph no font has: its box is the missing glyph's
    assert font.getmask("八").getbbox() not in (None, missing)


@pytest.mark.parametrize("how", ["named", "none"])
def test_without_a_font_summary_image_says_so_in_one_line_and_writes_nothing(book_file, tmp_path, monkeypatch, how):
    pytest.importorskip("PIL")
    from scorekeeper import night_image

    short_night(book_file, 2)
    if how == "named":
        monkeypatch.setenv("HACHI_FONT", str(tmp_path / "nope.ttf"))
    else:
        monkeypatch.delenv("HACHI_FONT", raising=False)
        monkeypatch.setenv("PATH", str(tmp_path))  # no fc-match
        monkeypatch.setattr(night_image, "KNOWN_FONTS", {"regular": [], "bold": []})
    out = tmp_path / "night.png"
    r = runner.invoke(cli_app, ["summary", "--image", str(out)])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and re.search("font", lines[0]) and "Traceback" not in r.output
    assert not out.exists()


def test_summary_image_into_a_missing_folder_is_refused(book_file, tmp_path):
    short_night(book_file, 2)
    r = runner.invoke(cli_app, ["summary", "--image", str(tmp_path / "no" / "night.png")])
    assert r.exit_code == 2 and "--image" in r.stderr


# -- the choices over HTTP ------------------------------------------------------------------------

def test_the_choices_at_the_end_over_http(book_file):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from serve_helpers import as_table, make_app, writer_headers

    book, sid = short_night(book_file, 6)
    app = make_app()
    before = [runner.invoke(cli_app, args).output for args in (["summary"], ["summary", "--json"], ["export", "--csv"])]

    def post(c, body):
        return c.post("/api/end", content=json.dumps(body), headers={**writer_headers(app), "Content-Type": "application/json"})

    with TestClient(app) as c:
        r = c.get(f"/v/{app.state.tokens.view}?board", follow_redirects=False)
        assert r.headers["location"] == "/?board"
        assert c.get("/api/state").json()["end"]["shown"] is True
        assert post(c, {"do": "end"}).status_code == 403  # the board and the view link never choose
        assert read_mark(book.path, sid) == {"ended": False, "more": 0}
        as_table(c, app)
        bad = post(c, {"do": "stop"})
        assert bad.status_code == 400 and "end" in bad.json()["error"]
        assert read_mark(book.path, sid) == {"ended": False, "more": 0}
        assert post(c, {"do": "end"}).json()["end"]["shown"] is True
        assert read_mark(book.path, sid)["ended"] is True
        text, data, csv = [runner.invoke(cli_app, args).output for args in (["summary"], ["summary", "--json"], ["export", "--csv"])]
        # the terminal and the CSV say the same figures: ending changes no round; summary says it ended
        assert text.startswith(before[0]) and "ended on a phone" in text[len(before[0]):]
        assert json.loads(data) == {**json.loads(before[1]), "ended": True} and csv == before[2]
        state = post(c, {"do": "reopen"}).json()
        assert state["end"]["ended"] is False and state["end"]["due"] is True
        state = post(c, {"do": "more"}).json()
        assert state["end"]["shown"] is False and read_mark(book.path, sid) == {"ended": False, "more": 1}
        assert state["history"][4]["sage"] == ["Aki"]  # the 下げ callers beside each round's yaku


def test_a_night_of_six_long_names_is_drawn(book_file, tmp_path):
    """Six names of 20 letters, a rate with a fraction, no round won by most: drawn, each name
    in its room (smaller, then cut), the picture as tall as its rows."""
    pytest.importorskip("PIL")
    from PIL import Image

    from scorekeeper.night_image import draw_end, image_height

    names = [f"{c}{'x' * 19}" for c in "ABCDEF"]
    summary = {"session": "s1", "name": "金曜", "players": names, "rounds": 1, "months": 1, "planned_rounds": 6,
               "rate": 2.5, "totals": {n: (60 if i == 0 else -12) for i, n in enumerate(names)},
               "kan": {n: ("+6貫" if i == 0 else "-1貫2文") for i, n in enumerate(names)},
               "settlement": [{"from": n, "to": names[0], "mon": 12, "money": 30} for n in names[1:]], "pot": 0,
               "history": [{"round": 1, "mon": {n: (60 if i == 0 else -12) for i, n in enumerate(names)},
                            "yaku": [{"player": names[0], "yaku": "三本"}]}]}
    F = end_figures(summary)
    assert [b["round"] for b in F["best"]] == [1, None, None, None, None, None]
    with Image.open(io.BytesIO(draw_end(F))) as img:
        assert img.size == (1080, image_height(F))


def test_serve_prints_a_board_link_the_view_link_with_board(book_file, monkeypatch):
    pytest.importorskip("uvicorn")
    import uvicorn

    short_night(book_file, 1)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # bound, not served
    r = runner.invoke(cli_app, ["serve", "--host", "127.0.0.1", "--port", "0"])
    assert r.exit_code == 0, r.output
    view = next(line.split()[-1] for line in r.output.splitlines() if "view only:" in line)
    assert f"  board (TV):      {view}?board" in r.output.splitlines()
