"""The web companion's server in each phone's language: the page is handed its language's catalog
(cacheable; English is empty); each request's refusal is worded in the language its phone asks
for (the page's X-Hachi-Lang, else the hachi-lang cookie the switch sets, else Accept-Language),
made wherever it was (the event loop, the worker thread); the state and the stream stay one view
for every phone, byte for byte; the serve command's terminal lines are in the terminal's language.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from scorekeeper import lang  # noqa: E402
from scorekeeper.web.app import catalogs_version, chart_svg, create_app  # noqa: E402
from scorekeeper.web.refusal import request_language  # noqa: E402
from scorekeeper.web.security import RELINKED, Tokens  # noqa: E402
from scorekeeper.web.guard import Notices  # noqa: E402
from scorekeeper.lang import in_language  # noqa: E402
from scorekeeper.web.spoken import line_of, spoken, with_said  # noqa: E402

from serve_helpers import HOST, PLAYERS, as_table, bundled_night, make_app, new_night, writer_headers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
JA = {"X-Hachi-Lang": "ja"}


@pytest.fixture
def night(book_file):
    return new_night(book_file, rounds=2)


def post(client, app, path, body, **headers):
    return client.post(path, content=json.dumps(body),
                       headers={**writer_headers(app), "Content-Type": "application/json", **headers})


@pytest.mark.parametrize("headers, want", [
    ({}, "en"),
    ({"accept-language": "ja-JP,ja;q=0.9,en;q=0.8"}, "ja"),
    ({"accept-language": "fr-FR,en;q=0.5"}, "en"),
    ({"accept-language": "ja", "cookie": "hachi-lang=en"}, "en"),  # chosen on the page
    ({"accept-language": "en", "cookie": "hachi=x; hachi-lang=ja"}, "ja"),
    ({"accept-language": "ja", "cookie": "hachi-lang=en", "x-hachi-lang": "ja"}, "ja"),  # the page's own
    ({"accept-language": "ja", "x-hachi-lang": "klingon"}, "ja"),  # a language not spoken: passed over
    ({"cookie": "hachi-lang=" + "j" * 5000}, "en"),
])
def test_a_request_s_language_is_its_page_s_else_its_choice_else_its_accept_language(headers, want):
    assert request_language(headers) == want


def test_the_page_is_handed_its_catalog_cacheable_and_english_is_empty(night):
    app = make_app()
    with TestClient(app) as c:
        r = c.get("/api/words?lang=ja")  # no cookie needed: nothing of the night in it
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
        data = r.json()
        assert data["lang"] == "ja" and data["words"] == lang.catalog("ja")
        assert data["words"]["live"] == "接続中" and data["words"][", "] == "、"
        assert data["plurals"]["Standings · {n} round"] == ["成績 · {n}回"]
        assert r.headers["cache-control"] == "no-cache" and r.headers["etag"]
        again = c.get("/api/words?lang=ja", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        kept = c.get(f"/api/words?lang=ja&v={catalogs_version()}")  # asked for by this package's version
        assert kept.headers["cache-control"] == "public, max-age=31536000, immutable" and kept.content == r.content
        assert c.get("/api/words?lang=en").json() == {"lang": "en", "words": {}, "plurals": {}}
        bad = c.get("/api/words?lang=fr", headers={"Accept-Language": "ja"})
        assert bad.status_code == 400 and bad.json() == {"error": "その言語はありません。ja か en を指定してください"}


def test_the_page_is_served_in_the_language_its_phone_asks_for(night):
    app = make_app()
    with TestClient(app) as c:
        as_table(c, app)
        ja = c.get("/", headers={"Accept-Language": "ja,en;q=0.5"}).text
        assert '<html lang="ja">' in ja and '<meta name="hachi-lang" content="ja">' in ja
        assert "成績をリアルタイムで表示するには JavaScript が必要です。" in ja
        assert f'<meta name="hachi-words" content="{catalogs_version()}">' in ja
        en = c.get("/", headers={"Accept-Language": "en-GB"}).text
        assert '<html lang="en">' in en and "This page needs JavaScript for the live standings." in en
        assert "{{" not in ja + en


def test_a_refusal_is_worded_in_its_phone_s_language_and_never_another_s(night):
    app = make_app()
    with TestClient(app) as ja, TestClient(app) as en, TestClient(app) as stranger:
        as_table(ja, app)
        as_table(en, app)
        r = post(ja, app, "/api/answer", {"key": 3}, **JA)
        assert r.status_code == 400 and r.json()["error"] == '回答は {"key": 質問, "text": 入力したとおりの回答} です'
        r = post(en, app, "/api/answer", {"key": 3})
        assert r.json()["error"] == 'an answer is {"key": question, "text": the answer as typed}'
        r = post(ja, app, "/api/answer", {"key": "k" * 65, "text": ""}, **JA)
        assert r.json()["error"] == "質問のキーは 64 文字までです"
        r = post(ja, app, "/api/answer", {"key": "field", "text": "x" * 2001}, **JA)
        assert r.status_code == 413 and r.json()["error"] == '"text" が 2,000 文字を超えています'
        r = post(ja, app, "/api/answer", {"é" * 30: "x" * 2001}, **JA)
        assert r.json()["error"] == "メンバー名 が 2,000 文字を超えています"
        r = ja.post("/api/answer", content="{}", headers={"Origin": f"http://{HOST}", **JA})
        assert r.status_code == 403 and r.json()["error"] == \
            "X-Hachi-CSRF ヘッダーがないか、間違っています。ページを再読み込みしてください"
        r = stranger.get("/api/state", headers={"Accept-Language": "ja"})
        assert r.status_code == 403 and r.json() == {"error": "まず QR コードのリンクを開いてください"}
        r = stranger.get("/api/state")  # the next request, English: nothing of the one before stays
        assert r.json() == {"error": "open the link from the QR code first"}
        r = stranger.get("/api/state", headers={"Host": "evil.example", "Accept-Language": "ja"})
        assert r.status_code == 421 and r.json()["error"] == "このサーバーは 'evil.example' には応答しません"


def test_a_refusal_made_in_the_worker_thread_is_worded_for_the_phone_that_asked(night):
    app = make_app()
    with TestClient(app) as c:
        as_table(c, app)
        r = post(c, app, "/api/save", {"revision": 999}, **JA)  # raised in the one worker thread
        assert r.status_code == 409 and r.json()["error"] == \
            "表示した後にラウンドが変わりました。保存する前にもう一度確認してください"
        r = post(c, app, "/api/save", {"revision": 999})
        assert r.json()["error"] == "the round changed since it was shown: look at it again before saving"
        # a tap for a round saved since (a message of words.py, worded for each phone from its template)
        r = post(c, app, "/api/answer", {"key": "field", "text": None, "round": 1}, **JA)
        assert r.status_code == 409 and r.json()["key"] == "field"
        from scorekeeper.words import msg, say

        assert r.json()["error"] == in_language("ja", say, msg("r.saved_since", number=1))


def test_the_state_and_the_stream_are_one_view_for_every_phone(night):
    app = make_app()
    with TestClient(app) as c:
        as_table(c, app)
        field = " ".join(bundled_night()[2]["field"])
        written = post(c, app, "/api/answer", {"key": "field", "text": field}, **JA)  # a Japanese phone's write
        assert written.status_code == 200
        ja = c.get("/api/state", headers={**JA, "Accept-Language": "ja"})
        en = c.get("/api/state", headers={"Accept-Language": "en"})
        assert ja.content == en.content  # byte for byte
        state = en.json()
        assert state["round"]["steps"][1]["title"]["text"] == "場札 the six field cards"  # its text: English
        assert state["round"]["steps"][1]["title"]["t"] == "場札 the six field cards"  # its template: for the page
        assert json.loads(written.content)["round"]["stand"] == state["round"]["stand"]
        with c.stream("GET", "/api/events?limit=1", headers={**JA, "Accept-Language": "ja"}) as s:
            ja_event = b"".join(s.iter_bytes())
        with c.stream("GET", "/api/events?limit=1") as s:
            en_event = b"".join(s.iter_bytes())
        assert ja_event == en_event and b"event: state" in ja_event


def test_a_message_kept_as_text_is_sent_with_its_template_too():
    said = lang.L_("{player} does not play this round: the piles and the ending are for {players}",
                   player="D", players=["A", "B", "C"])
    out = with_said({"problems": [{"code": "x", "message": said, "text": said}], "header": said, "n": 1})
    assert out["problems"][0]["message"] == "D does not play this round: the piles and the ending are for A, B, C"
    assert out["problems"][0]["message_m"] == {"t": said.template, "args": {"player": "D", "players": ["A", "B", "C"]},
                                               "text": str(said)}
    assert out["header_m"]["t"] == said.template and "n_m" not in out
    assert in_language("ja", spoken, said) == "Dはこの回に参加しません。取札と終わり方はA、B、Cが入力します"
    assert spoken("plain text") == "plain text"
    assert in_language("ja", line_of, ValueError(said)) == in_language("ja", spoken, said)

    class Framed(ValueError):
        def __str__(self):
            return f"round 3: {self.args[0]}"

    assert in_language("ja", line_of, Framed(said)) == f"round 3: {said}"  # its own words: as it says itself


def test_the_chart_s_words_are_marked_for_the_page_to_word_again():
    svg = chart_svg(PLAYERS, {p: [10, -20] for p in PLAYERS})
    assert 'aria-label="running totals"' in svg and '<text class="label" x="332" y="164" text-anchor="end" ' \
        'data-round="2">round 2</text>' in svg


def test_the_server_s_terminal_lines_are_in_the_terminal_s_language(night, monkeypatch, capsys):
    import uvicorn

    from scorekeeper.web import net, serve

    monkeypatch.setattr(net, "lan_addresses", lambda *a, **k: ["127.0.0.1", "192.168.1.23"])
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # bound, not served
    lang.use("ja")
    serve.serve(None, None, 0)
    out = capsys.readouterr().out
    assert "hachi-score serve · セッション s1 · コードを読み取るか、各スマホで開いてください:" in out
    assert "  卓（プレイヤー）: http://127.0.0.1:" in out and "  閲覧のみ:         http://127.0.0.1:" in out
    assert "（そこで待ち受けるには --host 192.168.1.23）" in out
    assert "Ctrl-C でサーバーを止めます。" in out
    lang.use("en")
    serve.serve(None, None, 0)
    assert "Ctrl-C stops the server; the terminal's `round` keeps working beside it." in capsys.readouterr().out


def test_can_t_listen_is_said_in_the_terminal_s_language(night):
    from scorekeeper.web import serve

    taken = serve.bind("127.0.0.1", 0)
    said: list[str] = []
    try:
        lang.use("ja")
        with pytest.raises(SystemExit):
            serve.serve(None, "127.0.0.1", taken.getsockname()[1], fail=said.append)
    finally:
        taken.close()
    assert said and said[0].startswith("127.0.0.1:") and "で待ち受けできません: " in said[0]
    assert said[0].endswith("（--host IP か --port N を指定してください）")


def test_a_notice_is_said_in_the_terminal_s_language_whoever_counts_it():
    said: list[str] = []
    notices = Notices(said.append, language="ja", later=lambda delay, fn: None)
    in_language("en", notices.count, "not HTTP, or headers over the size allowed", "127.0.0.2")
    notices.count(lang.L_("more than {n} connections open in all", n=64), "127.0.0.3")
    assert said == [
        "hachi-score serve · 接続 1 件（127.0.0.2 から）を閉じました: HTTP ではないか、ヘッダーが上限を超えています"
        "（この種の行は 1 分に 1 回まで）",
        "hachi-score serve · 接続 1 件（127.0.0.3 から）を閉じました: 開いている接続が全体で 64 を超えました"
        "（この種の行は 1 分に 1 回まで）"]
    lang.use("ja")
    assert Notices(said.append).language == "ja"  # the language spoken where it is made, unless told
    lang.use("en")


def test_a_follow_notice_made_in_the_worker_thread_is_in_the_terminal_s_language(night, book_file):
    app = make_app()
    heard: list[str] = []
    app.state.table.notice = lambda line: heard.append(in_language("ja", spoken, line))
    with TestClient(app) as c:
        as_table(c, app)
        from scorekeeper.store import Book

        sid = Book.open(book_file).new_session(["Dai", "Emi", "Fumi"], name="Saturday")
        from helpers import eventually

        eventually(lambda: c.get("/api/state").json()["session"]["session"] == sid, "the phones following")
    assert heard == [f"hachi-score serve · セッション {sid}（Saturday）に切り替わりました。スマホも切り替わります"]


def test_a_phone_sent_out_by_a_new_link_is_told_in_its_language(night):
    old = make_app()
    new = make_app(tokens=Tokens(key=old.state.tokens.key))  # the same key beside the book, new links
    with TestClient(old) as c:
        as_table(c, old)
        cookie = c.cookies["hachi"]
    with TestClient(new) as c:
        c.cookies.set("hachi", cookie)
        assert c.get("/api/state").json() == {"error": RELINKED, "relinked": True}
        ja = c.get("/api/state", headers=JA)
        assert ja.status_code == 403 and ja.json() == {"error": "卓のリンクが新しくなりました。新しいコードを読み取ってください",
                                                       "relinked": True}
        page = c.get("/", headers={"Accept-Language": "ja", "Sec-Fetch-Mode": "navigate"})
        assert '<html lang="ja">' in page.text and "卓のリンクが新しくなりました。" in page.text and 'id="gone"' in page.text
