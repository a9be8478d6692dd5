"""A restart of `hachi-score serve`, in a real browser (Debian's chromium, 360 px), two live servers
one after the other on the same book and address, as a laptop's Ctrl-C and `serve` again.

A plain restart: each phone is back without scanning and without a reload, in its role (the table's
phone writes, the view link's reads and can't write), the tap made while the server was down sent
once it is back, the stream live again, nothing alarming said. A new link (`serve --new-link`):
the old page is told to scan the new code, in its status line and in the bar at the bottom (in
view while tapping), after a reload too (a page of the line, never raw JSON); its taps are never
counted as wrong links, so the new link gets in after a dozen of them, and they are kept on the
phone and sent once it has. The screenshots are written under the test's temp folder.
"""

from __future__ import annotations

from test_serve_browser import browser, phone, settle, shot, tap  # noqa: F401 (fixtures)
from test_phones_browser import start_round, wait_in_view
from serve_helpers import answers_of, bundled_night, live_server, new_night

from scorekeeper.web.security import RELINKED
from scorekeeper.web.serve import bind


def pile_of(app) -> list[str]:
    return (app.state.table.state["round"]["answers"].get("pile:Aki") or "").split()


def test_after_a_restart_each_phone_is_back_in_its_role_without_scanning_and_a_tap_made_meanwhile_is_sent(browser, book_file, tmp_path):
    new_night(book_file, rounds=2)
    pile = answers_of(bundled_night()[2])["pile:Aki"].split()
    sock = bind("127.0.0.1", 0)  # one address for both runs, as a laptop's
    try:
        with live_server(sock) as (base, old, _):
            page = phone(browser, f"{base}/t/{old.state.tokens.table}")
            viewer = phone(browser, f"{base}/v/{old.state.tokens.view}")
            start_round(page, answers_of(bundled_night()[2]))
            tap(page, "pile-grid", pile[0])
            settle(page)
            viewer.wait_for_selector("#status li:has-text('Aki: typing… 1')")
        tap(page, "pile-grid", pile[1])  # Ctrl-C: the server is down, the tap waits on the phone
        page.wait_for_selector("body[data-unsent='1']")
        with live_server(sock) as (again, new, _):  # `hachi-score serve` again: no code scanned, no reload
            assert again == base and new.state.tokens.table == old.state.tokens.table
            page.wait_for_selector("body[data-unsent='0']")  # the tap made while it was down, sent
            assert pile_of(new) == pile[:2]
            tap(page, "pile-grid", pile[2])  # the table's phone, a writer still
            settle(page)
            assert pile_of(new) == pile[:3]
            page.wait_for_selector("#live.on")
            assert page.locator("#gone").count() == 0 and page.locator("#live").inner_text() == "live"
            viewer.wait_for_selector("#status li:has-text('Aki: typing… 3')")  # its stream live again
            assert viewer.locator("#gone").count() == 0 and viewer.locator("#pile-grid").count() == 0
            r = viewer.context.request.post(f"{base}/api/answer", data={"key": "pile:Aki", "text": None},
                                            headers={"X-Hachi-CSRF": new.state.tokens.csrf, "Origin": base})
            assert r.status == 403 and "view-only" in r.json()["error"]  # view-only still, whatever it sends
            assert pile_of(new) == pile[:3] and new.state.limiter.bad == {}
            shot(page, tmp_path, "back-after-restart", whole=False)
            page.context.close()
            viewer.context.close()
    finally:
        sock.close()


def test_a_new_link_tells_the_old_page_to_scan_and_the_new_link_works_after_a_dozen_taps_on_it(browser, book_file, tmp_path):
    new_night(book_file, rounds=2)
    a = answers_of(bundled_night()[2])
    pile = a["pile:Aki"].split()
    sock = bind("127.0.0.1", 0)
    try:
        with live_server(sock) as (base, old, _):
            page = phone(browser, f"{base}/t/{old.state.tokens.table}")
            start_round(page, a)  # the field set, Aki's pile on the page
        with live_server(sock, new_link=True) as (again, new, _):  # Ctrl-C, then `hachi-score serve --new-link`
            assert again == base and new.state.tokens.table != old.state.tokens.table
            for code in pile[:12]:  # a dozen taps on the old page: refused for who sent them, kept
                tap(page, "pile-grid", code)
            page.wait_for_selector("body[data-taps='12']")  # the dozen taps wait on the phone
            page.wait_for_selector("#bar #gone")  # in the bar at the bottom, in view while tapping
            assert page.locator("#gone").inner_text() == RELINKED and wait_in_view(page, "#bar #gone")
            assert page.locator("#live").inner_text() == RELINKED
            shot(page, tmp_path, "relinked-light", whole=False)
            assert new.state.limiter.bad == {}  # none of them counted against the phone
            page.reload()
            page.wait_for_selector("#gone")
            assert page.locator("#gone").inner_text() == RELINKED
            assert not page.locator("body").inner_text().lstrip().startswith("{")
            page.goto(f"{base}/t/{new.state.tokens.table}")  # the new code, scanned
            page.wait_for_selector("body[data-ready='1']")
            page.wait_for_selector("body[data-unsent='0']")  # the dozen taps, sent at last
            settle(page)
            assert page.locator("#gone").count() == 0
            assert pile_of(new) == pile[:12]
            tap(page, "pile-grid", pile[12])
            settle(page)
            assert pile_of(new) == pile[:13]
            page.context.close()
    finally:
        sock.close()
