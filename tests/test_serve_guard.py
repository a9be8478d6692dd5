"""`hachi-score serve` against a stranger on the Wi-Fi, each attack tried with its numbers.

Cookies: each device's own, signed with the key kept beside the book and naming the links that gave
it (a cookie of links made new since is told to scan the new code, never counted:
tests/test_serve_kept.py); a forged one is counted like a wrong link (7 kinds of forgery, locked out after 5), a right link always gets
in (after 11 wrong ones). Connections (a live uvicorn on loopback; the stranger at 127.0.0.2, the
phones at 127.0.0.1 and 127.0.0.3): an idle connection and half-sent requests are closed, 40 slow
ones from one address are cut to 16, 300 slow ones under ``ulimit -n 256`` (from one address, and
from 30) leave the phones answered and a round saved, the log saying so once, not once each;
proxy headers change nothing; a request head over 16 KiB is a 400 said once. Streams: 2,000 from
one view cookie hold 4 (each closing the device's oldest) and 300 without a cookie hold none,
the table's taps answered meanwhile; over the view link's room a new device is a 429, while the
table's phones and a reloaded page get theirs; a stranger's new logins from one address or from
many never take the room of a player or of a device that held a stream before (the logins that
came last are crowded out). JSON: 15,000 nested
brackets, lone surrogates, a 5,000-digit number, over-long keys and names: a 4xx with one line,
never a 500, nothing on the server's terminal.
"""

from __future__ import annotations

import contextlib
import json
import resource
import select
import socket
import stat
import subprocess
import sys
import threading

import pytest

pytest.importorskip("starlette")
import httpx  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from scorekeeper.web.security import RateLimit, Tokens, key_path  # noqa: E402
from scorekeeper.web.guard import PER_ADDRESS, REQUEST_TIMEOUT, Guard, Notices, Streams  # noqa: E402

from helpers import HANG, eventually  # noqa: E402
from serve_helpers import (PLAYERS, answers_of, as_table, bundled_night, live_server, make_app, new_night,  # noqa: E402
                           writer_headers)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
STRANGER = "127.0.0.2"
HALF = b"GET / HTTP/1.1\r\nHost: 127"  # half a request, never finished


@pytest.fixture
def night(book_file):
    return new_night(book_file, rounds=2)


def post(client, app, path, body):
    return client.post(path, content=json.dumps(body), headers={**writer_headers(app), "Content-Type": "application/json"})


# -- cookies: a device's own, signed, of these links ---------------------------------------------------

def test_each_login_gives_its_device_a_cookie_of_its_own_signed_for_these_links(night, book_file):
    app = make_app()
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as v:
        for c, link in ((a, f"/t/{app.state.tokens.table}"), (b, f"/t/{app.state.tokens.table}"), (v, f"/v/{app.state.tokens.view}")):
            assert c.get(link, follow_redirects=False).status_code == 303
        cookies = [c.cookies["hachi"] for c in (a, b, v)]
        assert len(set(cookies)) == 3
        for value, role in zip(cookies, ("table", "table", "view")):
            got, generation, device, mac = value.split(".")
            assert (got, generation) == (role, app.state.tokens.generation) and len(device) >= 16 and len(mac) == 43
            assert app.state.tokens.table not in value and app.state.tokens.view not in value
        assert a.get("/api/state").status_code == b.get("/api/state").status_code == 200
        assert post(b, app, "/api/answer", {"key": "field", "text": " ".join(bundled_night()[0]["field"])}).status_code == 200
        assert post(v, app, "/api/answer", {"key": "field", "text": None}).status_code == 403
    key = key_path(book_file)
    assert key == book_file.with_name("book.serve-key")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(bytes.fromhex(key.read_text())) == 32


def test_forged_cookies_count_like_wrong_links_and_a_right_link_still_gets_in(night):
    app = make_app(limiter=RateLimit(limit=5))
    with TestClient(app) as c:
        viewer = TestClient(app)  # another device (the app's lifespan is c's)
        viewer.get(f"/v/{app.state.tokens.view}", follow_redirects=False)
        view = viewer.cookies["hachi"]
        role, generation, device, mac = view.split(".")
        other_key = Tokens(links=app.state.tokens.links).cookie("table")  # these links, another key
        forged = [f"table.{generation}.{device}.{mac}",  # the view cookie made a table one
                  f"{view[:-1]}{'A' if view[-1] != 'A' else 'B'}",  # its MAC changed
                  other_key, "forged", "x" * 22, view + "x" * 300, f"table.{generation}.é.{mac}"]
        for value in forged[:5]:
            c.cookies.set("hachi", value)
            r = c.get("/api/state")
            assert r.status_code == 403 and "not this server's" in r.json()["error"] and "relinked" not in r.json()
        assert len(app.state.limiter.bad["testclient"]) == 5
        c.cookies.clear()
        for value in forged[5:]:  # (as bytes: a client's cookie jar takes ASCII only)
            r = c.get("/api/state", headers={"Cookie": b"hachi=" + value.encode("utf-8")})
            assert r.status_code == 429  # locked out: more guesses get nowhere
        assert c.get(f"/t/{app.state.tokens.table}", follow_redirects=False).status_code == 303  # locked, yet the right link
        assert c.get("/api/state").status_code == 200  # and its cookie work
        assert c.get("/t/guess", follow_redirects=False).status_code == 429


def test_eleven_wrong_links_then_the_right_one_gets_in(night):
    app = make_app()
    with TestClient(app) as c:
        codes = [c.get(f"/t/wrong{i}", follow_redirects=False).status_code for i in range(11)]
        assert codes == [403] * 10 + [429]  # the tenth locks the client out
        assert c.get(f"/t/{app.state.tokens.table}", follow_redirects=False).status_code == 303
        assert c.get("/").status_code == 200


# -- JSON: nesting and every field's length capped ----------------------------------------------------

@pytest.mark.parametrize("body,status,said", [
    ("[" * 15000, 400, "nested deeper than 32"),
    ('{"a":' * 3000, 400, "nested deeper than 32"),
    ('{"key": "field", "text": "1h", "x": ' + "[" * 33 + "]" * 33 + "}", 400, "nested deeper than 32"),
    ('{"key": "field", "text": "\\ud800"}', 400, "not text"),
    ('{"key": "pile:\\udfff", "text": "1h"}', 400, "not text"),
    ('{"key": "field", "text": "1h", "was": "\\ud800"}', 400, "not text"),
    ('{"key": "field", "text": "1h", "round": 1' + "0" * 5000 + "}", 400, "not JSON"),
    ('{"key": "field", "text": "1h", "round": 1' + "0" * 30 + "}", 400, "round"),
    ('{"key": "field", "text": "1h", "round": -1}', 400, "round"),
    ('{"key": "' + "k" * 65 + '", "text": "1h"}', 400, "64 characters"),
    ('{"key": "field", "text": "' + "1h " * 700 + '"}', 413, "2,000 characters"),
    ('{"key": "field", "text": "1h", "note": "' + "n" * 2001 + '"}', 413, "2,000 characters"),
    ('{"key": "field", "text": "1h", "' + "n" * 2001 + '": 1}', 413, "2,000 characters"),
])
def test_deep_or_long_json_is_a_4xx_with_one_line(night, body, status, said):
    app = make_app()
    with TestClient(app) as c:  # a 500 would raise here (raise_server_exceptions)
        as_table(c, app)
        r = c.post("/api/answer", content=body, headers=writer_headers(app))
        assert r.status_code == status and said in r.json()["error"] and "\n" not in r.json()["error"], r.text[:200]
        assert len(r.json()["error"]) < 120


@pytest.mark.parametrize("path,body,said", [
    ("/api/done", {"player": "P" * 41}, "40 characters"),
    ("/api/done", {"player": "Aki", "round": 2 ** 40}, "round"),
    ("/api/save", {"revision": 2 ** 40}, "revision"),
    ("/api/save", {"revision": -3}, "revision"),
])
def test_each_field_of_the_other_writes_is_capped(night, path, body, said):
    app = make_app()
    with TestClient(app) as c:
        as_table(c, app)
        r = post(c, app, path, body)
        assert r.status_code == 400 and said in r.json()["error"] and "\n" not in r.json()["error"]


# -- the live server: one in a thread, or the command in a process --------------------------------------

def connect(port, source=STRANGER, send=HALF):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(HANG)
    s.connect(("127.0.0.1", port))
    if send:
        s.sendall(send)
    return s


def closed_by_server(s) -> bool:
    """The server closed ``s`` (read what it sent first); False while it holds it open."""
    while select.select([s], [], [], 0)[0]:
        try:
            if not s.recv(65536):
                return True
        except OSError:  # reset
            return True
    return False


@contextlib.contextmanager
def phone(base, token, source):
    """A phone at ``source``, in through the table link, sending the page's CSRF header."""
    with httpx.Client(base_url=base, timeout=HANG, transport=httpx.HTTPTransport(local_address=source)) as c:
        page = c.get(f"/t/{token}", follow_redirects=True)
        assert page.status_code == 200, page.text[:200]
        csrf = page.text.split('name="hachi-csrf" content="')[1].split('"')[0]
        c.headers.update({"X-Hachi-CSRF": csrf, "Origin": base, "Content-Type": "application/json"})
        yield c


def save_a_round(c) -> int:
    """A whole round entered and saved by one phone: the round's number."""
    rnd = bundled_night()[2]
    state = c.get("/api/state").json()
    a = answers_of({**rnd, "dealer": state["session"]["dealer"]})
    for key, text in a.items():
        r = c.post("/api/answer", content=json.dumps({"key": key, "text": text}))
        assert r.status_code == 200, (key, r.text[:200])
    for p in PLAYERS:
        assert c.post("/api/done", content=json.dumps({"player": p, "done": True})).status_code == 200
    revision = c.get("/api/state").json()["round"]["revision"]
    r = c.post("/api/save", content=json.dumps({"revision": revision}))
    assert r.status_code == 200, r.text[:300]
    return r.json()["saved"]


@contextlib.contextmanager
def command(nofile: int | None = None):
    """`hachi-score serve` in a process (at most ``nofile`` open files): the table link, and
    every line it printed (standard output and error), read as they come."""
    def limit():
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=limit)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        eventually(lambda: any("view only" in ln for ln in lines) or proc.poll() is not None, "the links printed")
        assert proc.poll() is None, "".join(lines)
        table = next(ln.split()[-1] for ln in lines if "table (players)" in ln)
        yield table, lines
    finally:
        proc.terminate()
        try:
            proc.wait(HANG)
        except subprocess.TimeoutExpired:
            proc.kill()
        reader.join(HANG)


def test_an_idle_connection_and_half_sent_requests_are_closed_within_the_request_timeout(night):
    assert REQUEST_TIMEOUT == 5 and Guard().timeout == REQUEST_TIMEOUT
    said: list[str] = []
    with live_server(guard=Guard(say=said.append)) as (base, app, server):
        port = int(base.rsplit(":", 1)[1])
        idle = connect(port, send=b"")
        half_line = connect(port)
        half_headers = connect(port, send=b"GET /manifest.webmanifest HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*")
        half_body = connect(port, send=b"POST /api/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"key\"")
        after_one = connect(port, send=b"GET /manifest.webmanifest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HT")
        held = [idle, half_line, half_headers, half_body, after_one]
        with phone(base, app.state.tokens.table, "127.0.0.3") as c:  # answered meanwhile
            assert c.get("/api/state").status_code == 200
        for s in held:
            eventually(lambda: closed_by_server(s), "the server closing a slow connection")
        with phone(base, app.state.tokens.table, "127.0.0.3") as c:  # and after
            assert c.get("/api/state").status_code == 200
        for s in held:
            s.close()
    slow = [line for line in said if "not sent whole within 5 s" in line]
    assert len(slow) == 1 and STRANGER in slow[0], said  # three half-sent: said once; the idle ones: quietly


def test_forty_slow_connections_from_one_address_are_cut_to_sixteen_and_the_phones_still_answered(night):
    said: list[str] = []
    guard = Guard(timeout=HANG, say=said.append)  # only the cap closes them here
    with live_server(guard=guard) as (base, app, server):
        port = int(base.rsplit(":", 1)[1])
        slow = [connect(port) for _ in range(40)]
        others = [connect(port, source="127.0.0.3") for _ in range(PER_ADDRESS)]  # another address: its own 16
        eventually(lambda: sum(map(closed_by_server, slow)) == 40 - PER_ADDRESS or None, "24 closed")
        assert [closed_by_server(s) for s in slow[:24]] == [True] * 24  # the ones that waited longest
        eventually(lambda: len(guard.by_address.get(STRANGER, ())) == PER_ADDRESS, "16 held")
        assert not any(closed_by_server(s) for s in slow[24:] + others)
        with phone(base, app.state.tokens.table, "127.0.0.1") as aki, phone(base, app.state.tokens.table, "127.0.0.3") as ben:
            assert aki.get("/").status_code == ben.get("/api/state").status_code == 200
            assert save_a_round(ben) == 3
        for s in slow + others:
            s.close()
    cap = [line for line in said if "more than 16 connections at once from one address" in line]
    assert len(cap) == 1 and STRANGER in cap[0] and "127.0.0.3" not in cap[0], said


@pytest.mark.parametrize("sources", [[STRANGER] * 300, [f"127.0.1.{1 + i % 30}" for i in range(300)]],
                         ids=["300 from one address", "300 from 30 addresses"])
def test_under_ulimit_256_three_hundred_slow_connections_leave_the_phones_answered(night, sources):
    with command(nofile=256) as (table, lines):
        base, token = table.split("/t/")
        port = int(base.rsplit(":", 1)[1])
        slow = [connect(port, source=src) for src in sources]
        eventually(lambda: any("hachi-score serve · closed" in ln for ln in lines), "the refusals said")
        answered = 0
        for i in range(7):  # 7 phones' page loads, each on a connection of its own
            with phone(base, token, ("127.0.0.1", "127.0.0.3")[i % 2]) as c:
                answered += c.get("/").status_code == 200
        assert answered == 7
        with phone(base, token, "127.0.0.3") as c:
            assert save_a_round(c) == 3
        room = min(PER_ADDRESS * len(set(sources)), Guard(files=256).total)  # 16 for one address, 160 in all
        eventually(lambda: sum(map(closed_by_server, slow)) >= len(slow) - room or None,
                   "the connections over the caps closed")
        for s in slow:
            s.close()
    said = [ln for ln in lines if "hachi-score serve · closed" in ln]
    assert 1 <= len(said) <= 3, said  # once a reason (the cap, the timeout), not once a connection
    assert not [ln for ln in lines if "Traceback" in ln or "Too many open files" in ln or "out of system resource" in ln]


def test_proxy_headers_are_not_trusted_the_limiter_counts_the_connections_address(night):
    with live_server() as (base, app, server):
        assert server.config.proxy_headers is False
        for source in ("127.0.0.1", "127.0.0.3"):  # uvicorn would trust 127.0.0.1's by default
            with httpx.Client(base_url=base, timeout=HANG, transport=httpx.HTTPTransport(local_address=source)) as c:
                for headers in ({"X-Forwarded-For": "1.2.3.4"}, {"X-Real-IP": "1.2.3.4"},
                                {"Forwarded": "for=1.2.3.4;proto=https"}, {"X-Forwarded-For": "1.2.3.4, 5.6.7.8"}):
                    assert c.get("/t/guess", headers=headers).status_code == 403
        assert {k: len(v) for k, v in app.state.limiter.bad.items()} == {"127.0.0.1": 4, "127.0.0.3": 4}


@pytest.mark.parametrize("host,status", [("127.0.0.2", 421), ("127.0.0.3:{port}", 421), ("127.0.0.1:{port}", 303),
                                         ("localhost:{port}", 303)])
def test_the_host_is_the_servers_name_the_source_address_the_clients(night, host, status):
    with live_server() as (base, app, server):
        port = base.rsplit(":", 1)[1]
        with httpx.Client(base_url=base, timeout=HANG, transport=httpx.HTTPTransport(local_address="127.0.0.3")) as c:
            r = c.get(f"/t/{app.state.tokens.table}", headers={"Host": host.format(port=port)})
            assert r.status_code == status and ("set-cookie" in r.headers) == (status == 303)


def test_a_request_head_over_16_kib_and_upgrades_are_refused_and_said_once(night):
    import logging

    said: list[str] = []
    printed: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = printed.append  # type: ignore[method-assign]
    logging.getLogger("uvicorn.error").addHandler(handler)
    try:
        with live_server(guard=Guard(say=said.append)) as (base, app, server):
            port = int(base.rsplit(":", 1)[1])
            for _ in range(5):
                s = connect(port, send=b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"b" * 17 * 1024)  # and more to come
                reply = b""
                while chunk := s.recv(65536):
                    reply += chunk
                assert reply.startswith(b"HTTP/1.1 400")
                s.close()
            for _ in range(5):
                r = httpx.get(f"{base}/", headers={"Connection": "Upgrade", "Upgrade": "websocket"}, timeout=HANG)
                assert r.status_code == 403
    finally:
        logging.getLogger("uvicorn.error").removeHandler(handler)
    assert len([line for line in said if "not HTTP, or headers over" in line]) == 1, said
    assert len([line for line in said if "upgrade" in line]) == 1, said
    assert not printed, [r.getMessage() for r in printed]


def test_a_json_bomb_is_a_400_and_the_servers_terminal_shows_no_traceback(night):
    with command() as (table, lines):
        base, token = table.split("/t/")
        with phone(base, token, "127.0.0.1") as c:
            for body in ("[" * 15000, '{"a":' * 3000, '{"key": "field", "text": "\\ud800"}'):
                r = c.post("/api/answer", content=body)
                assert r.status_code == 400 and "\n" not in r.json()["error"]
            assert c.get("/api/state").status_code == 200
    assert not [ln for ln in lines if "Traceback" in ln or "Error" in ln], lines


def test_notices_say_a_reason_at_once_then_once_a_minute_with_the_count():
    now = [0.0]
    said: list[str] = []
    due: list = []
    notices = Notices(said.append, clock=lambda: now[0], later=lambda delay, fn: due.append((now[0] + delay, fn)))
    for i in range(69617):
        notices.count("slow", STRANGER if i % 2 else "127.0.0.9")
        now[0] += 0.0005  # 35 s of them
    assert len(said) == 1 and "closed a connection from" in said[0] and "at most one a minute" in said[0]
    assert len(due) == 1 and due[0][0] == 60
    now[0] = 60
    due.pop()[1]()
    assert len(said) == 2 and "closed 69,616 connections from" in said[1] and "in the last minute" in said[1]
    assert STRANGER in said[1] and "127.0.0.9" in said[1]
    assert not due  # nothing more to say: no timer left
    notices.count("slow")
    assert len(said) == 2 and len(due) == 1


# -- live streams: a few per device, room kept for the table ----------------------------------------------

def stream_from(port, cookie, source=STRANGER):
    """A stream asked for on a connection of its own (``cookie``: none when empty), its answer's
    status read (None: the connection closed unanswered), the connection kept open as a stranger
    keeps it."""
    s = connect(port, source=source, send=b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + (b"Cookie: hachi=" + cookie.encode() + b"\r\n" if cookie else b"") + b"\r\n")
    head = b""
    with contextlib.suppress(OSError):
        while b"\r\n" not in head and (chunk := s.recv(1)):
            head += chunk
    return (int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else None), s


def read_until(s, said: bytes) -> bytes:
    got = b""
    while said not in got and (chunk := s.recv(65536)):
        got += chunk
    return got


def test_a_device_holds_four_streams_a_newer_closing_its_oldest_and_the_view_link_leaves_the_table_room():
    streams = Streams(total=10, per_device=4, table_room=3)
    mine = [streams.hold("phone", "view") for _ in range(4)]
    fifth = streams.hold("phone", "view")
    assert mine[0].is_set() and not any(e.is_set() for e in mine[1:]) and fifth is not None
    assert streams.held == {"table": 0, "view": 5}  # the closed one counted until it ended
    streams.release("phone", "view", mine[0])
    others = [streams.hold(f"viewer{i}", "view") for i in range(4)]
    assert None not in others[:3] and others[3] is None  # 7 of 10 for the view link: 3 kept for the table
    assert streams.hold("viewer0", "view") is not None and others[0].is_set()  # full, yet a reload gets in
    assert streams.held == {"table": 0, "view": 8}
    viewer2 = list(streams.open["viewer2"])
    assert [streams.hold(f"player{i}", "table") is not None for i in range(3)] == [True, True, True]
    assert [(e.is_set(), getattr(e, "why", None)) for e in viewer2] == [(True, "crowded")]  # the viewer who came last
    for e in [*mine[1:], fifth]:
        streams.release("phone", "view", e)
    assert streams.held["view"] == 4 and streams.hold("viewer9", "view") is not None


def test_when_full_a_table_phone_or_a_device_seen_before_takes_the_room_of_the_view_device_that_came_last():
    streams = Streams(total=10, per_device=4, table_room=3)
    known = {d: streams.hold(d, "view") for d in ("ann", "bo")}  # onlookers from the start of the night
    for d, e in known.items():
        streams.release(d, "view", e)  # their phones asleep: no stream held
    flood = [(f"login{i}", streams.hold(f"login{i}", "view")) for i in range(50)]  # each login a new device
    assert [e is not None for _d, e in flood] == [True] * 7 + [False] * 43
    held = [(d, e) for d, e in flood if e is not None]
    back = streams.hold("ann", "view")  # a device seen before: in, the last login out
    assert back is not None and held[-1][1].is_set() and held[-1][1].why == "crowded"
    assert not any(e.is_set() for _d, e in held[:-1])
    streams.release(*held[-1][0:1], "view", held[-1][1])
    assert streams.hold("login99", "view") is None  # a new login still takes no one's room
    players = [streams.hold(f"player{i}", "table") for i in range(5)]  # the table's room, then the logins'
    assert None not in players and [e.why for _d, e in held[1:-1] if e.is_set()] == ["crowded"] * 2
    assert streams.hold("bo", "view") is not None and held[-4][1].why == "crowded"
    assert not known["ann"].is_set() or known["ann"].why == "replaced"
    forgetful = Streams(total=4, remember=3)
    for i in range(10):
        forgetful.release(f"d{i}", "view", forgetful.hold(f"d{i}", "view"))
    assert list(forgetful.known) == ["d0", "d1", "d9"]  # those that came first are kept


@pytest.mark.parametrize("sources", ["one address", "many addresses"])
def test_a_flood_of_view_logins_never_takes_the_room_of_a_player_or_a_device_seen_before(night, sources):
    with live_server(guard=Guard(files=256)) as (base, app, server):
        port = int(base.rsplit(":", 1)[1])
        streams = app.state.streams
        room = streams.total - streams.table_room

        def login(link, source):
            with httpx.Client(transport=httpx.HTTPTransport(local_address=source), timeout=HANG) as c:
                return c.get(f"{base}{link}", follow_redirects=False).cookies["hachi"]

        view = f"/v/{app.state.tokens.view}"
        onlookers = {source: login(view, source) for source in ("127.0.0.4", "127.0.0.5")}
        for source, cookie in onlookers.items():  # each held a stream once, then its phone slept
            status, s = stream_from(port, cookie, source)
            assert status == 200 and b"event: state" in read_until(s, b"event: state")
            s.close()
        eventually(lambda: not streams.open, "the onlookers' streams released")
        held, taps = [], []
        with phone(base, app.state.tokens.table, "127.0.0.3") as aki:
            for i in range(room + 20):  # a stranger's logins, each a new device, each asking for a stream
                source = STRANGER if sources == "one address" else f"127.0.2.{1 + i}"
                held.append(stream_from(port, login(view, source), source))
                if i % 20 == 19:  # a player's tap, answered meanwhile
                    taps.append(aki.post("/api/answer", content=json.dumps({"key": "dealer", "text": PLAYERS[i % 3]})).status_code)
            assert [st for st, _s in held] == [200] * room + [429] * 20
            for n, (source, cookie) in enumerate(onlookers.items(), start=1):  # the onlookers back: in
                status, s = stream_from(port, cookie, source)
                assert status == 200 and b"event: state" in read_until(s, b"event: state")
                assert b"event: crowded" in read_until(held[room - n][1], b"event: crowded")  # the last logins out
                held.append((status, s))
            players = [login(f"/t/{app.state.tokens.table}", "127.0.0.3") for _ in range(streams.table_room + 2)]
            for n, cookie in enumerate(players):  # the table's room, then the logins'
                status, s = stream_from(port, cookie, "127.0.0.3")
                assert status == 200 and b"event: state" in read_until(s, b"event: state")
                held.append((status, s))
            for n in range(2):
                assert b"event: crowded" in read_until(held[room - 3 - n][1], b"event: crowded")
            taps.append(aki.post("/api/answer", content=json.dumps({"key": "dealer", "text": PLAYERS[0]})).status_code)
            assert taps == [200] * len(taps) and len(taps) >= 4
        for _st, s in held:
            s.close()


def test_two_thousand_streams_from_one_view_cookie_and_three_hundred_without_leave_the_table_answered(night):
    said: list[str] = []
    with live_server(guard=Guard(files=256, say=said.append)) as (base, app, server):
        port = int(base.rsplit(":", 1)[1])
        assert (app.state.guard.total, app.state.streams.total) == (160, 80)
        viewer = httpx.get(f"{base}/v/{app.state.tokens.view}", follow_redirects=False).cookies["hachi"]
        held, taps = [], []
        with phone(base, app.state.tokens.table, "127.0.0.3") as aki:
            for i in range(2000):
                status, s = stream_from(port, viewer)
                held.append((status, s))
                if i % 500 == 499:  # a player's tap, answered meanwhile
                    taps.append(aki.post("/api/answer", content=json.dumps({"key": "dealer", "text": PLAYERS[0]})).status_code)
            assert [st for st, _s in held] == [200] * 2000  # each one a stream, closing the device's oldest
            assert b"event: replaced" in read_until(held[0][1], b"event: replaced")
            assert app.state.streams.held["view"] <= app.state.streams.per_device + 1 and len(app.state.streams.open[
                app.state.tokens.device(viewer)]) == app.state.streams.per_device
            nobody = [stream_from(port, "") for _ in range(300)]
            assert {st for st, _s in nobody} == {403}  # refused before any stream is held
            assert app.state.streams.held["view"] <= app.state.streams.per_device + 1
            taps.append(aki.post("/api/answer", content=json.dumps({"key": "dealer", "text": PLAYERS[1]})).status_code)
            assert taps == [200] * 5
            with httpx.Client(base_url=base, timeout=HANG, cookies={"hachi": aki.cookies["hachi"]},
                              transport=httpx.HTTPTransport(local_address="127.0.0.3")) as again:
                assert again.get("/").status_code == 200  # the page reloaded
                with again.stream("GET", "/api/events") as r:  # and its stream
                    assert r.status_code == 200 and next(r.iter_lines()) == "event: state"
        for _st, s in held + nobody:
            s.close()


def test_over_the_view_links_room_a_new_device_is_a_429_the_table_and_a_reload_still_get_theirs(night):
    with live_server(guard=Guard(files=256)) as (base, app, server):
        port = int(base.rsplit(":", 1)[1])
        room = app.state.streams.total - app.state.streams.table_room
        viewers = [httpx.get(f"{base}/v/{app.state.tokens.view}", follow_redirects=False).cookies["hachi"]
                   for _ in range(room + 3)]
        held = [stream_from(port, v) for v in viewers]
        assert [st for st, _s in held] == [200] * room + [429] * 3
        assert b'{"error":"too many live pages are open: close one' in read_until(held[-1][1], b"}")
        again = stream_from(port, viewers[0])  # a reload of a page holding one: in, its old one closed
        assert again[0] == 200 and b"event: replaced" in read_until(held[0][1], b"event: replaced")
        with phone(base, app.state.tokens.table, "127.0.0.3") as aki:
            with aki.stream("GET", "/api/events") as r:
                assert r.status_code == 200
            assert aki.post("/api/answer", content=json.dumps({"key": "dealer", "text": PLAYERS[0]})).status_code == 200
        for _st, s in [*held, again]:
            s.close()
