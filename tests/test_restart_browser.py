"""A restart of `hachi-score serve`, in a real browser (Debian's chromium, 360 px): the page of the
last run is told the server restarted and to scan the new code, in its status line and in the
bar at the bottom (in view while tapping), after a reload too (a page of the line, never raw
JSON); its taps are never counted as wrong links, so the new link gets in after a dozen of them,
and they are kept on the phone and sent once it has. The screenshot is written under the test's temp folder.
"""

from __future__ import annotations

from test_serve_browser import browser, phone, settle, shot, tap  # noqa: F401 (fixtures)
from test_phones_browser import start_round, wait_in_view
from serve_helpers import answers_of, bundled_night, live_server, new_night

from scorekeeper.web.security import RESTARTED
from scorekeeper.web.serve import bind


def test_a_restarted_server_is_told_and_its_new_link_works_after_a_dozen_taps_on_the_old_page(browser, book_file, tmp_path):
    new_night(book_file, rounds=2)
    a = answers_of(bundled_night()[2])
    pile = a["pile:Aki"].split()
    sock = bind("127.0.0.1", 0)  # one address for both runs, as a laptop's
    try:
        with live_server(sock) as (base, old, _):
            page = phone(browser, f"{base}/t/{old.state.tokens.table}")
            start_round(page, a)  # the field set, Aki's pile on the page
        with live_server(sock) as (again, new, _):  # Ctrl-C, then `hachi-score serve` again
            assert again == base and new.state.tokens.run != old.state.tokens.run
            for code in pile[:12]:  # a dozen taps on the old page: refused for who sent them, kept
                tap(page, "pile-grid", code)
            page.wait_for_selector("body[data-taps='12']")  # the dozen taps wait on the phone
            page.wait_for_selector("#bar #gone")  # in the bar at the bottom, in view while tapping
            assert page.locator("#gone").inner_text() == RESTARTED and wait_in_view(page, "#bar #gone")
            assert page.locator("#live").inner_text() == RESTARTED
            shot(page, tmp_path, "restarted-light", whole=False)
            assert new.state.limiter.bad == {}  # none of them counted against the phone
            page.reload()
            page.wait_for_selector("#gone")
            assert page.locator("#gone").inner_text() == RESTARTED
            assert not page.locator("body").inner_text().lstrip().startswith("{")
            page.goto(f"{base}/t/{new.state.tokens.table}")  # the new code, scanned
            page.wait_for_selector("body[data-ready='1']")
            page.wait_for_selector("body[data-unsent='0']")  # the dozen taps, sent at last
            settle(page)
            assert page.locator("#gone").count() == 0
            assert new.state.table.state["round"]["answers"]["pile:Aki"].split() == pile[:12]
            tap(page, "pile-grid", pile[12])
            settle(page)
            assert new.state.table.state["round"]["answers"]["pile:Aki"].split() == pile[:13]
            page.context.close()
    finally:
        sock.close()
