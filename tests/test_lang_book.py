"""The book's words in Japanese (issue 20): doctor's findings, its verdict, what --restore did and
what it would lose, and the book's one-line errors (a damaged file, a round that no longer
scores, a night already held, the lock that timed out), each with the exit status English has.
`doctor --json` is for scripts: the same bytes in every language.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner, one_line_error
from test_damaged_book import DAMAGE, SESSION_ONLY, _unscorable

from scorekeeper import errors, files, lang, store
from scorekeeper.cli import app
from scorekeeper.flows import Night

runner = FastRunner()
NIGHTS = ch.nights(2, 5)


@pytest.fixture
def book(tmp_path) -> Path:
    """Two sessions of 3 rounds each, s2 current; every file has a .bak."""
    return ch.two_nights(tmp_path / "book" / "book.json")


def hachi(path: Path, *args: str, code: int | None = None, input: str | None = None):
    result = runner.invoke(app, [*args, "--db", str(path)], input=input)
    assert "Traceback" not in result.output, result.output
    if code is not None:
        assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result


def both(path: Path, *args: str, input: str | None = None):
    """The command in English and in Japanese: the same exit status."""
    en = hachi(path, *args, input=input)
    ja = hachi(path, *args, "--lang", "ja", input=input)
    assert ja.exit_code == en.exit_code, f"{args}: ja {ja.exit_code}, en {en.exit_code}\n{ja.output}"
    return en, ja


def japanese(text: str) -> bool:
    return any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in text)


def damage_s2(book: Path, damage: str) -> Path:
    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes({**DAMAGE, **SESSION_ONLY}[damage](file.read_bytes()))
    return file


# ---------------------------------------------------------------------------------------------
# doctor


def test_doctor_on_a_healthy_book_says_so_in_japanese(book):
    en, ja = both(book, "doctor")
    assert en.exit_code == 0
    assert ja.stdout.splitlines() == [f"帳面 {book}", "✓ 正常です: 2 セッション、6回を読んで計算し直しました"]
    assert en.stdout.splitlines()[-1] == "✓ healthy: 2 sessions, 6 rounds read and re-scored"


def test_doctor_with_no_book_at_the_path_given(tmp_path):
    en, ja = both(tmp_path / "none" / "book.json", "doctor")
    assert en.exit_code == 0  # CONTRACT §5, §6: a book not there yet lists nothing, done
    assert ja.stderr.startswith(f"hachi-score: {tmp_path / 'none' / 'book.json'} に帳面はありません")


@pytest.mark.parametrize("damage", ["truncated", "NUL bytes", "0 bytes", "not UTF-8", "a JSON list", "no schema",
                                    "a future schema", "a round that no longer scores", "an unknown rule profile"])
def test_doctor_on_a_damaged_session_speaks_japanese_with_the_same_status(book, damage):
    file = damage_s2(book, damage)
    before = snapshot(book.parent)
    en, ja = both(book, "doctor")
    assert en.exit_code == 1
    problems = [line for line in ja.stdout.splitlines() if line.startswith("✗")]
    assert len(problems) == 1 and str(file) in problems[0], ja.stdout
    if damage == "a future schema":
        assert "新しい hachi-score が書いたもの" in problems[0] and "読むには hachi-score を更新してください" in problems[0]
    else:
        assert "--restore で最後の正常なコピー s2.json.bak を復元できます" in problems[0]
        assert "--restore puts back" not in problems[0]
    if damage == "a round that no longer scores":
        assert ": 第2回: " in problems[0] and "（edit 2 で差し替えられます）" in problems[0]
        assert "can't be read" not in problems[0] and "読めません" not in problems[0]
    elif damage != "a future schema":
        assert "読めません: " in problems[0]
    # the verdict: one line on standard error, in Japanese
    line = one_line_error(ja, code=1)
    assert line == (f"hachi-score: {book}: 1 件の問題が見つかりました。`hachi-score doctor --restore` で最後の正常な"
                    "コピーを復元できます" if damage != "a future schema" else
                    f"hachi-score: {book}: 1 件の問題が見つかりました。復元できる正常なコピーがありません（上を参照）")
    assert snapshot(book.parent) == before


@pytest.mark.parametrize("damage", ["truncated", "NUL bytes", "a future schema", "a round that no longer scores"])
def test_doctor_json_is_the_same_bytes_in_both_languages(book, damage):
    damage_s2(book, damage)
    en, ja = both(book, "doctor", "--json")
    assert en.exit_code == 1
    assert ja.stdout == en.stdout
    data = json.loads(ja.stdout)
    assert data["problems"] and not japanese(json.dumps(data, ensure_ascii=False).replace("松に赤短", ""))
    assert japanese(ja.stderr) and not japanese(en.stderr)


def test_doctor_json_of_a_damaged_index_and_its_notes_is_the_same_bytes(book):
    book.write_bytes(book.read_bytes()[:40])
    (book.parent / ".book.json.999999.abcd.tmp").write_bytes(b"{")  # a killed writer's temp file
    en, ja = both(book, "doctor", "--json")
    assert ja.stdout == en.stdout
    data = json.loads(en.stdout)
    assert [p["file"] for p in data["problems"]] == [str(book)] and data["notes"]
    text = hachi(book, "doctor", "--lang", "ja", code=1).stdout
    assert f"✗ {book}: 読めません: JSON が壊れています" in text
    assert "--restore で最後の正常なコピー book.json.bak を復元できます" in text
    assert "中断された保存が残した一時ファイルが 1 個あります（.book.json.999999.abcd.tmp）" in text


def test_doctor_json_under_a_japanese_locale_is_the_english_bytes(book, monkeypatch):
    damage_s2(book, "a round that no longer scores")
    en = hachi(book, "doctor", "--json", code=1)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    ja = hachi(book, "doctor", "--json", code=1)
    assert ja.stdout == en.stdout and "件の問題" in ja.stderr


def test_a_lost_index_is_rebuilt_and_said_in_japanese(book):
    book.unlink()
    files.backup_path(book).unlink()
    result = hachi(book, "doctor", "--lang", "ja", code=1)
    assert "索引がありませんが、" in result.stdout and "2 個のセッションファイルがあります" in result.stdout
    assert "--restore でセッションファイルから索引を作り直せます" in result.stdout
    result = hachi(book, "doctor", "--restore", "--yes", "--lang", "ja", code=0)
    assert f"↺ {book}: セッションファイルから作り直しました（s1、s2、現在 s2）" in result.stdout
    assert "✓ 正常です: 2 セッション、6回" in result.stdout


def test_restore_says_what_it_loses_and_did_in_japanese_and_its_json_stays_english(book):
    damage_s2(book, "a round that no longer scores")
    before = snapshot(book.parent)
    en, ja = both(book, "doctor", "--restore")  # no answer is a no
    assert en.exit_code == 1 and snapshot(book.parent) == before
    said = ja.stderr.splitlines()
    assert any(line.startswith("  s2.json: 第3回（.bak の後に追加）は失われます: 親 ") for line in said), ja.stderr
    assert any(line.startswith("  s2.json: 第2回は「計算できないラウンド」から「親 ") for line in said), ja.stderr

    result = hachi(book, "doctor", "--restore", "--yes", "--json", "--lang", "ja", code=0)
    data = json.loads(result.stdout)
    assert [r["how"] for r in data["restored"]] == ["put back its last good copy s2.json.bak (2 rounds)",
                                                    "index rows: corrected the round count of s2, corrected the "
                                                    "months count of s2"]
    assert data["healthy"] is True and not japanese(result.stdout)


def test_restore_words_what_it_did_in_japanese(book):
    damage_s2(book, "truncated")
    result = hachi(book, "doctor", "--restore", "--yes", "--lang", "ja", code=0)
    lines = result.stdout.splitlines()
    assert lines[0] == f"帳面 {book}"
    assert lines[1].startswith(f"↺ {store.sessions_dir(book) / 's2.json'}: 最後の正常なコピー s2.json.bak を復元しました"
                               "（2回）。壊れた内容は ")
    assert lines[2] == f"↺ {book}: 索引の行: s2 のラウンド数を直しました、s2 の月数を直しました"
    assert lines[-1] == "✓ 正常です: 2 セッション、5回を読んで計算し直しました"


def test_a_chain_break_is_a_note_in_japanese(book):
    file = store.sessions_dir(book) / "s1.json"
    data = json.loads(file.read_bytes())
    assert data["rounds"]["2"]["round"]["dealer"] == "Chie"  # round 1's winner
    data["rounds"]["2"]["round"]["dealer"] = "Aki"  # who really dealt, as recorded
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    en, ja = both(book, "doctor")
    assert en.exit_code == 0  # a note, not damage
    assert (f"· {file}: 第2回: 親 Akiは第1回の勝者 Chieではありません（実際に配った人として記録どおり残します）"
            in ja.stdout.splitlines()), ja.stdout
    assert f"· {file}: round 2: its 親 Aki is not round 1's winner Chie" in en.stdout
    assert hachi(book, "doctor", "--json").stdout == hachi(book, "doctor", "--json", "--lang", "ja").stdout


# ---------------------------------------------------------------------------------------------
# the book's one-line errors


def test_a_round_onto_a_session_with_a_damaged_round_is_one_japanese_line(book, tmp_path):
    damage_s2(book, "a round that no longer scores")
    round_file = tmp_path / "next.json"
    round_file.write_text(json.dumps(ch.bare(ch.NIGHT[6]), ensure_ascii=False), encoding="utf-8")
    before = snapshot(book.parent)
    for args in (["round", "--file", str(round_file)], ["undo", "--yes"]):
        en, ja = both(book, *args)
        assert en.exit_code == 1, en.output
        line = one_line_error(ja, code=1)
        file = store.sessions_dir(book) / "s2.json"
        assert line.startswith(f"hachi-score: {file}: 読めません: 第2回: "), line
        assert "（edit 2 で差し替えられます）。ファイルはそのまま残しました。前の版が " in line
        assert "`hachi-score doctor --restore` に任せることもできます" in line
        assert "can't be read" not in line and "It was left" not in line
        assert snapshot(book.parent) == before


@pytest.mark.parametrize("damage", ["truncated", "0 bytes", "a future schema"])
def test_a_damaged_index_is_one_japanese_line_for_every_reader(book, damage):
    book.write_bytes(DAMAGE[damage](book.read_bytes()))
    en, ja = both(book, "sessions")
    assert en.exit_code == 1
    line = one_line_error(ja, code=1)
    assert line.startswith(f"hachi-score: {book}: ")
    if damage == "a future schema":
        assert "新しい hachi-score が書いたものです（帳面のスキーマ 99、この版が読めるのは 2 まで）" in line
    else:
        assert "読めません: " in line and "ファイルはそのまま残しました" in line


def test_an_import_refused_is_one_japanese_line_with_status_2(tmp_path):
    a, b = tmp_path / "a" / "book.json", tmp_path / "b" / "book.json"
    sid = store.Book.open(a).new_session(ch.PLAYERS, name="Friday")
    for rnd in NIGHTS[0]:
        ch.add_round(store.Book.open(a), sid, ch.bare(rnd))
    night = tmp_path / "friday.json"
    hachi(a, "export", "-o", str(night), code=0)
    hachi(b, "import", str(night), code=0)
    before = snapshot(b.parent)
    en, ja = both(b, "import", str(night))
    assert en.exit_code == 2
    assert one_line_error(ja) == (f"hachi-score: {night}: この夜はセッション s1「Friday」と同じ夜です（プレイヤー、ルール、"
                                  "5回が同じ）: 同じ夜を二重に数えないよう、取り込みませんでした")
    assert snapshot(b.parent) == before


def test_a_night_held_in_part_is_refused_in_japanese(tmp_path):
    a, b = tmp_path / "a" / "book.json", tmp_path / "b" / "book.json"
    sid = store.Book.open(a).new_session(ch.PLAYERS, name="Friday")
    for rnd in NIGHTS[1][:3]:
        ch.add_round(store.Book.open(a), sid, ch.bare(rnd))
    early = tmp_path / "early.json"
    hachi(a, "export", "-o", str(early), code=0)
    for rnd in NIGHTS[1][3:]:
        ch.add_round(store.Book.open(a), sid, ch.bare(rnd))
    late = tmp_path / "late.json"
    hachi(a, "export", "-o", str(late), code=0)
    hachi(b, "import", str(early), code=0)
    line = one_line_error(hachi(b, "import", str(late), "--lang", "ja", code=2))
    assert "この夜はセッション s1「Friday」の3回をすべて含み、さらに 2回あります: " in line


def test_the_lock_timed_out_is_said_in_japanese_with_status_1(book, monkeypatch, tmp_path):
    round_file = tmp_path / "next.json"
    round_file.write_text(json.dumps(ch.bare(ch.NIGHT[6]), ensure_ascii=False), encoding="utf-8")
    before = snapshot(book.parent)
    monkeypatch.setenv(files.ENV_TEST_LOCK_NOTICE, "0.05")
    monkeypatch.setenv(files.ENV_TEST_LOCK_TIMEOUT, "0.3")
    fd = os.open(files.lock_path(book), os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        en, ja = both(book, "round", "--file", str(round_file))
    finally:
        os.close(fd)
    assert en.exit_code == 1
    lines = ja.stderr.splitlines()
    assert lines == [
        f"hachi-score: 帳面のロックを待っています（{files.lock_path(book)}）: 別の hachi-score が書き込み中です…",
        f"hachi-score: {files.lock_path(book)}: 別の hachi-score が帳面のロックを 0.3秒間持ち続けたため、あきらめました。"
        "何も変更していません。終わってからやり直してください",
    ]
    assert snapshot(book.parent) == before


def test_a_session_not_in_the_book_is_said_in_japanese(book):
    en, ja = both(book, "summary", "nosuch")
    assert en.exit_code == 2
    assert one_line_error(ja) == f"hachi-score: {book} にセッション 'nosuch' はありません（一覧は `sessions`）"


def test_new_session_options_are_refused_in_japanese(book):
    en, ja = both(book, "new-session", *ch.PLAYERS, "--rounds", "7")
    assert en.exit_code == 2
    assert one_line_error(ja) == "hachi-score: --rounds: 一夜は 12回か6回（半分の対局）です。7 ではありません"
    en, ja = both(book, "new-session", *ch.PLAYERS, "--name", "Friday")
    assert en.exit_code == 2
    assert one_line_error(ja) == ("hachi-score: --name: 「Friday」という名前のセッションはもうあります。"
                                  "別の名前にしてください")


# ---------------------------------------------------------------------------------------------
# the flows' errors, worded when raised, keeping their English


def test_a_round_saved_meanwhile_is_said_in_japanese_and_keeps_its_english(book):
    night = Night(store.Book.open(book), "s2")
    lang.use("ja")
    with pytest.raises(store.ChangedMeanwhile) as caught:
        night.add_round(ch.bare(ch.NIGHT[6]), expect_rounds=2)
    file = store.sessions_dir(book) / "s2.json"
    assert str(caught.value) == f"{file}: その間に第3回がスマホか別の端末で保存されました。何も保存していません"
    assert lang.english(lang.message_of(caught.value)) == (f"{file}: round 3 was saved meanwhile, on a phone or "
                                                            "at another terminal; nothing was saved")
    with pytest.raises(store.SessionError) as caught:
        night.replace_round(9, ch.bare(ch.NIGHT[0]))
    assert str(caught.value) == "第9回: セッション s2 にあるのは第1〜3回です"


def test_the_header_before_a_round_in_japanese(book):
    night = Night(store.Book.open(book), "s2")
    assert night.header() == "session 'Saturday' (s2) · round 4 — of 12 · rules sdin"
    assert night.header(2, edit=True) == night.header(2).replace(" · round", " · edit round")
    lang.use("ja")
    assert night.header() == "セッション「Saturday」（s2）· 第4回 — 予定 12 · ルール sdin"
    assert night.header(2, edit=True) == "セッション「Saturday」（s2）· 第2回の修正 — 予定 12 · ルール sdin"


def test_the_lock_s_notice_is_worded_when_said(tmp_path):
    path = tmp_path / "book.json"
    notices: list[str] = []
    holder = files.BookLock(files.lock_path(path))
    holder.acquire()
    try:
        lang.use("ja")
        with pytest.raises(errors.Locked) as caught:
            files.BookLock(files.lock_path(path), notices.append, timeout=0.1, notice_after=0.01).acquire()
    finally:
        holder.release()
    assert notices == [f"帳面のロックを待っています（{files.lock_path(path)}）: 別の hachi-score が書き込み中です…"]
    assert lang.english(lang.message_of(caught.value)).endswith("gave up, nothing was changed: try again when it is done")
    assert lang.english("plain text") == "plain text" and lang.current() == "ja"


@pytest.mark.parametrize("damage, args", [
    ("unscorable", ["show", "2", "--session", "s2", "--json"]),
    ("truncated", ["sessions", "--json"]),
])
def test_json_of_a_damaged_book_is_the_same_in_both_languages(book, damage, args):
    """What a script reads of a damaged book (show's ``problem``, sessions' ``error``) is English."""
    file = store.sessions_dir(book) / "s2.json"
    file.write_bytes((_unscorable if damage == "unscorable" else DAMAGE[damage])(file.read_bytes()))
    en, ja = both(book, *args)
    assert en.stdout and en.stdout == ja.stdout
    assert ('"problem":"round 2: the piles: ' if damage == "unscorable" else '"error":"') in en.stdout
