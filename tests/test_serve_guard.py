"""`hachi-score serve` against a stranger on the Wi-Fi, each attack tried with its numbers.

Cookies: each device's own, signed with the key kept beside the book and carrying the run: a past
run's cookie is told "the server restarted" and never counted (30 requests with one), a forged one
is counted like a wrong link (7 kinds of forgery, locked out after 5), a right link always gets
in (after 11 wrong ones).
"""

from __future__ import annotations

import json
import os
import stat
import threading

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from scorekeeper.web.app import RESTARTED, RateLimit, Tokens, cookie_key, key_path  # noqa: E402

from helpers import HANG  # noqa: E402
from serve_helpers import as_table, bundled_night, make_app, new_night, writer_headers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def night(book_file):
    return new_night(book_file, rounds=2)


def post(client, app, path, body):
    return client.post(path, content=json.dumps(body), headers={**writer_headers(app), "Content-Type": "application/json"})


# -- cookies: a device's own, signed, of this run ---------------------------------------------------

def test_each_login_gives_its_device_a_cookie_of_its_own_signed_for_this_run(night, book_file):
    app = make_app()
    with TestClient(app) as a, TestClient(app) as b, TestClient(app) as v:
        for c, link in ((a, f"/t/{app.tokens.table}"), (b, f"/t/{app.tokens.table}"), (v, f"/v/{app.tokens.view}")):
            assert c.get(link, follow_redirects=False).status_code == 303
        cookies = [c.cookies["hachi"] for c in (a, b, v)]
        assert len(set(cookies)) == 3
        for value, role in zip(cookies, ("table", "table", "view")):
            got, run, device, mac = value.split(".")
            assert (got, run) == (role, app.tokens.run) and len(device) >= 16 and len(mac) == 43
            assert app.tokens.table not in value and app.tokens.view not in value
        assert a.get("/api/state").status_code == b.get("/api/state").status_code == 200
        assert post(b, app, "/api/answer", {"key": "field", "text": " ".join(bundled_night()[0]["field"])}).status_code == 200
        assert post(v, app, "/api/answer", {"key": "field", "text": None}).status_code == 403
    key = key_path(book_file)
    assert key == book_file.with_name("book.serve-key")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(bytes.fromhex(key.read_text())) == 32


def test_the_cookies_key_is_made_once_shared_by_racing_servers_kept_0600_and_a_damaged_one_replaced(tmp_path):
    path = tmp_path / "book.serve-key"
    start = threading.Barrier(8)
    keys: list[bytes] = []

    def server():
        start.wait(HANG)
        keys.append(cookie_key(path))

    threads = [threading.Thread(target=server) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HANG)
    assert len(keys) == 8 and len(set(keys)) == 1 and keys[0].hex() == path.read_text().strip()
    assert [p.name for p in tmp_path.iterdir()] == ["book.serve-key"]  # no temp file left
    os.chmod(path, 0o644)
    assert cookie_key(path) == keys[0] and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("damaged\n")
    fresh = cookie_key(path)
    assert len(fresh) == 32 and fresh != keys[0] and cookie_key(path) == fresh


def test_a_past_runs_cookie_is_told_the_server_restarted_and_never_counted(night):
    old = make_app()
    with TestClient(old) as c:
        as_table(c, old)
        stale = c.cookies["hachi"]
    new = make_app(limiter=RateLimit(limit=5))  # the same book, so the same key: a new run
    assert new.tokens.run != old.tokens.run
    with TestClient(new) as c:
        c.cookies.set("hachi", stale)
        for i in range(30):  # 30 requests of an old page: taps, its stream, reloads
            r = [lambda: c.get("/api/state"), lambda: c.get("/api/events?limit=1"),
                 lambda: post(c, new, "/api/answer", {"key": "field", "text": "1h"}), lambda: c.get("/")][i % 4]()
            assert r.status_code == 403 and r.json() == {"error": RESTARTED, "restarted": True}
        assert new.limiter.bad == {} and not new.limiter.locked("testclient")
        page = c.get("/", headers={"Accept": "text/html,application/xhtml+xml", "Sec-Fetch-Mode": "navigate"})
        assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
        assert f'<p class="problem" id="gone">{RESTARTED}</p>' in page.text and "script" not in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert c.get(f"/t/{new.tokens.table}", follow_redirects=False).status_code == 303  # the new code
        assert c.get("/api/state").status_code == 200


def test_forged_cookies_count_like_wrong_links_and_a_right_link_still_gets_in(night):
    app = make_app(limiter=RateLimit(limit=5))
    with TestClient(app) as c:
        viewer = TestClient(app)  # another device (the app's lifespan is c's)
        viewer.get(f"/v/{app.tokens.view}", follow_redirects=False)
        view = viewer.cookies["hachi"]
        role, run, device, mac = view.split(".")
        other_key = Tokens(run=app.tokens.run).cookie("table")  # this run's id, another key
        forged = [f"table.{run}.{device}.{mac}",  # the view cookie made a table one
                  f"{view[:-1]}{'A' if view[-1] != 'A' else 'B'}",  # its MAC changed
                  other_key, "forged", "x" * 22, view + "x" * 300, f"table.{run}.é.{mac}"]
        for value in forged[:5]:
            c.cookies.set("hachi", value)
            r = c.get("/api/state")
            assert r.status_code == 403 and "not this server's" in r.json()["error"] and "restarted" not in r.json()
        assert len(app.limiter.bad["testclient"]) == 5
        c.cookies.clear()
        for value in forged[5:]:  # (as bytes: a client's cookie jar takes ASCII only)
            r = c.get("/api/state", headers={"Cookie": b"hachi=" + value.encode("utf-8")})
            assert r.status_code == 429  # locked out: more guesses get nowhere
        assert c.get(f"/t/{app.tokens.table}", follow_redirects=False).status_code == 303  # locked, yet the right link
        assert c.get("/api/state").status_code == 200  # and its cookie work
        assert c.get("/t/guess", follow_redirects=False).status_code == 429


def test_eleven_wrong_links_then_the_right_one_gets_in(night):
    app = make_app()
    with TestClient(app) as c:
        codes = [c.get(f"/t/wrong{i}", follow_redirects=False).status_code for i in range(11)]
        assert codes == [403] * 10 + [429]  # the tenth locks the client out
        assert c.get(f"/t/{app.tokens.table}", follow_redirects=False).status_code == 303
        assert c.get("/").status_code == 200
