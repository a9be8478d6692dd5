"""The table's secrets kept beside the book, so that a restarted `serve` lets every phone back in.

Each secret (the cookies' key, the links' secret) is made once, 0600, written whole and linked into
place: eight servers starting at once share the first one's, and a damaged one is replaced. Two
servers on one book print the same links and CSRF token and take each other's cookies, each device
in its role (a view cookie still can't write). A new link (`serve --new-link`) changes the links
and the CSRF token: the old links are wrong links, and the old cookies are told to scan the new
code, never counted against the phone.
"""

from __future__ import annotations

import json
import os
import stat
import threading

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from scorekeeper.web.security import (KEY_SIZE, LINKS_SIZE, RELINKED, RateLimit, key_path, kept_secret,  # noqa: E402
                                      links_path)

from helpers import HANG  # noqa: E402
from serve_helpers import as_table, bundled_night, make_app, new_night, writer_headers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
FIELD = " ".join(bundled_night()[0]["field"])


@pytest.fixture
def night(book_file):
    return new_night(book_file, rounds=2)


def post(client, app, path, body):
    return client.post(path, content=json.dumps(body), headers={**writer_headers(app), "Content-Type": "application/json"})


def login(app, link: str) -> str:
    """A new device's cookie, from ``link`` (``/t/…`` or ``/v/…``; the app's lifespan not run)."""
    c = TestClient(app)
    assert c.get(link, follow_redirects=False).status_code == 303
    return c.cookies["hachi"]


@pytest.mark.parametrize("name, size", [("book.serve-key", KEY_SIZE), ("book.serve-links", LINKS_SIZE)])
def test_a_kept_secret_is_made_once_shared_by_racing_servers_kept_0600_and_a_damaged_one_replaced(tmp_path, name, size):
    (tmp_path / "keys").mkdir()
    path = tmp_path / "keys" / name
    start = threading.Barrier(8)
    kept: list[bytes] = []

    def server():
        start.wait(HANG)
        kept.append(kept_secret(path, size))

    threads = [threading.Thread(target=server) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HANG)
    assert len(kept) == 8 and len(set(kept)) == 1 and len(kept[0]) == size
    assert kept[0].hex() == path.read_text().strip()
    assert [p.name for p in path.parent.iterdir()] == [name]  # no temp file left
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert kept_secret(path, size) == kept[0]  # reused
    os.chmod(path, 0o644)
    assert kept_secret(path, size) == kept[0] and stat.S_IMODE(path.stat().st_mode) == 0o600
    for damaged in ("damaged\n", "ab" * (size - 1) + "\n", ""):  # not hex, too short, empty
        path.write_text(damaged)
        fresh = kept_secret(path, size)
        assert len(fresh) == size and fresh != kept[0] and kept_secret(path, size) == fresh
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    renewed = kept_secret(path, size, new=True)  # made again on purpose (`serve --new-link`)
    assert renewed != fresh and kept_secret(path, size) == renewed
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and [p.name for p in path.parent.iterdir()] == [name]


def test_a_restarted_server_prints_the_same_links_and_takes_its_cookies_each_in_its_role(night, book_file):
    old = make_app()
    table, view = login(old, f"/t/{old.state.tokens.table}"), login(old, f"/v/{old.state.tokens.view}")
    new = make_app(limiter=RateLimit(limit=1))  # `hachi-score serve` again, on the same book
    assert (new.state.tokens.table, new.state.tokens.view, new.state.tokens.csrf) == (
        old.state.tokens.table, old.state.tokens.view, old.state.tokens.csrf)
    assert stat.S_IMODE(links_path(book_file).stat().st_mode) == 0o600
    assert stat.S_IMODE(key_path(book_file).stat().st_mode) == 0o600
    with TestClient(new) as c:
        c.cookies.set("hachi", table)
        assert c.get("/api/state").status_code == 200
        assert post(c, new, "/api/answer", {"key": "field", "text": FIELD}).status_code == 200  # still a writer
        c.cookies.set("hachi", view)
        assert c.get("/api/state").json()["round"]["answers"]["field"] == FIELD
        r = post(c, new, "/api/answer", {"key": "field", "text": None})
        assert r.status_code == 403 and "view-only" in r.json()["error"]  # still view-only
        assert 'content="view"' in c.get("/").text
        assert c.get(f"/t/{old.state.tokens.table}", follow_redirects=False).status_code == 303  # the printed link
    assert new.state.limiter.bad == {}


def test_a_new_link_sends_every_phone_out_told_to_scan_the_new_code_never_counted(night, book_file):
    old = make_app()
    cookies = [login(old, f"/t/{old.state.tokens.table}"), login(old, f"/v/{old.state.tokens.view}")]
    new = make_app(new_link=True, limiter=RateLimit(limit=5))  # `hachi-score serve --new-link`
    kept = old.state.tokens, new.state.tokens
    assert all(getattr(kept[0], name) != getattr(kept[1], name) for name in ("table", "view", "csrf"))
    assert make_app().state.tokens.table == new.state.tokens.table  # the new link is the one kept from now on
    with TestClient(new) as c:
        for i in range(30):  # an old page's reads, its stream, taps, reloads: told, never counted
            c.cookies.set("hachi", cookies[i % 2])
            r = [lambda: c.get("/api/state"), lambda: c.get("/api/events?limit=1"),
                 lambda: post(c, new, "/api/answer", {"key": "field", "text": FIELD}), lambda: c.get("/")][i % 4]()
            assert r.status_code == 403 and r.json() == {"error": RELINKED, "relinked": True}
        page = c.get("/", headers={"Accept": "text/html,application/xhtml+xml", "Sec-Fetch-Mode": "navigate"})
        assert page.status_code == 403 and page.headers["content-type"].startswith("text/html")
        assert f'<p class="problem" id="gone">{RELINKED}</p>' in page.text and "script" not in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert new.state.limiter.bad == {} and not new.state.limiter.locked("testclient")
        for link in (f"/t/{old.state.tokens.table}", f"/v/{old.state.tokens.view}"):  # the old links: wrong links
            r = c.get(link, follow_redirects=False)
            assert r.status_code == 403 and "scan the QR code again" in r.json()["error"]
        assert len(new.state.limiter.bad["testclient"]) == 2
        c.cookies.clear()
        as_table(c, new)  # the new code, scanned
        assert post(c, new, "/api/answer", {"key": "field", "text": FIELD}).status_code == 200
