"""The card sprite (scorekeeper/web/static/cards.svg): a picture for every card face, and nothing else.

Every face code of cards.FACES has its <symbol id="card-CODE">; the sprite is inert (no script,
no event attribute, no foreignObject, no text, no reference to anything outside itself); the
generator (scripts/make_card_sprite.py) reproduces the committed file byte for byte; the app serves
it as image/svg+xml with the page's CSP; and a real chromium, on the live page under that CSP,
draws every face from `<svg><use href="/static/cards.svg#card-CODE"/></svg>` (a screenshot of all
of them, light and dark, is written under the test's temp folder).
"""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from importlib.resources import files
from pathlib import Path

import pytest

from scorekeeper.cards import FACES, MONTHS

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_card_sprite.py"
VIEWBOX = "0 0 64 96"


def sprite_bytes() -> bytes:
    return files("scorekeeper.web").joinpath("static", "cards.svg").read_bytes()


def sprite_tree() -> ET.Element:
    return ET.fromstring(sprite_bytes())


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def test_every_face_has_its_symbol_and_the_sprite_holds_nothing_else():
    root = sprite_tree()
    assert root.tag == f"{SVG}svg"
    symbols = root.findall(f"{SVG}symbol")
    assert [local(e.tag) for e in root] == ["symbol"] * len(symbols)  # only symbols at the top
    assert [s.get("id") for s in symbols] == [f"card-{c.code}" for c in FACES]
    assert len(symbols) == 36  # 5 光, 9 種, 10 短冊 and one カス face for each of the 12 months
    assert all(s.get("viewBox") == VIEWBOX for s in symbols)
    ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
    assert ids == [s.get("id") for s in symbols]  # no other id: every symbol draws on its own
    for s in symbols:
        assert len(s) > 3, f"{s.get('id')} draws almost nothing"


def test_the_sprite_is_inert_and_self_contained():
    raw = sprite_bytes().decode("utf-8")
    root = sprite_tree()
    tags = {local(e.tag) for e in root.iter()}
    for bad in ("script", "foreignObject", "image", "use", "a", "style", "text", "tspan", "iframe",
                "animate", "set", "feImage"):
        assert bad not in tags, bad
    for e in root.iter():
        for name, value in e.attrib.items():
            name = local(name).lower()
            assert not name.startswith("on"), (e.get("id"), name)  # no event attribute
            assert name not in ("href", "src", "style"), (e.tag, name)  # no link anywhere, no inline css
            assert "url(" not in value and "javascript:" not in value.lower(), (e.tag, name, value)
    assert re.findall(r"https?://[^\"']*", raw) == ["http://www.w3.org/2000/svg"]  # the namespace only
    assert "<!DOCTYPE" not in raw and "<!ENTITY" not in raw
    assert len(raw.encode("utf-8")) < 60 * 1024


def test_the_generator_reproduces_the_committed_sprite_byte_for_byte():
    spec = importlib.util.spec_from_file_location("make_card_sprite", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines functions; writes nothing unless main() is called
    made = module.sprite().encode("utf-8")
    assert made == module.sprite().encode("utf-8")  # deterministic
    assert made == sprite_bytes(), "cards.svg is stale: run python3 scripts/make_card_sprite.py"


def test_the_app_serves_the_sprite_with_the_pages_csp(book_file):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from scorekeeper.web.security import CSP
    from serve_helpers import as_table, make_app, new_night

    new_night(book_file, rounds=1)
    app = make_app()
    with TestClient(app) as client:
        page = as_table(client, app).get("/")
        r = client.get("/static/cards.svg")
        assert r.status_code == 200
        assert r.headers["content-type"] == "image/svg+xml"
        assert r.headers["content-security-policy"] == CSP == page.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.content == sprite_bytes()


# -- in a real browser ----------------------------------------------------------------------------

from test_serve_browser import browser, live, phone  # noqa: E402,F401  (the fixtures, and the phone)

# Inserted into the live page from Playwright (its evaluate is not the page's eval, so the CSP
# allows it); elements and CSSOM styles only, as the page's own script would make them.
DRAW = """([months, extra]) => {
  const NS = 'http://www.w3.org/2000/svg';
  for (const el of document.body.children) el.style.display = 'none';
  const box = document.createElement('div');
  box.id = 'cards-test';
  Object.assign(box.style, {padding: '6px', background: 'Canvas', color: 'CanvasText'});
  const pic = (code) => {
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 64 96'); svg.setAttribute('width', '64'); svg.setAttribute('height', '96');
    svg.setAttribute('aria-hidden', 'true'); svg.classList.add('pic');
    const use = document.createElementNS(NS, 'use');
    use.setAttribute('href', '/static/cards.svg#card-' + code);
    svg.appendChild(use);
    return svg;
  };
  for (const [label, cards] of months) {
    const row = document.createElement('div');
    Object.assign(row.style, {display: 'grid', gridTemplateColumns: '34px repeat(4, 74px)', gap: '4px',
                              marginBottom: '4px', alignItems: 'start', font: '11px/1.2 sans-serif'});
    const m = document.createElement('div'); m.textContent = label; row.appendChild(m);
    for (const [code, name] of cards) {
      const cell = document.createElement('div');
      cell.dataset.code = code;
      Object.assign(cell.style, {display: 'flex', flexDirection: 'column', alignItems: 'center'});
      cell.appendChild(pic(code));
      const t = document.createElement('span'); t.textContent = name + ' ' + code; cell.appendChild(t);
      row.appendChild(cell);
    }
    box.appendChild(row);
  }
  const probe = document.createElement('div'); probe.id = 'cards-probe';
  probe.appendChild(pic(extra));
  const img = document.createElement('img'); img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
  img.style.display = 'none';
  probe.appendChild(img);  // refused by img-src 'self': proof that the page's CSP is in force
  box.appendChild(probe);
  document.body.appendChild(box);
  return true;
}"""

SIZES = """() => [...document.querySelectorAll('#cards-test use')].map(u => {
  const r = u.getBoundingClientRect();
  return [u.getAttribute('href'), Math.round(r.width), Math.round(r.height)];
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chromium_draws_every_face_from_the_sprite_under_the_csp(browser, live, tmp_path, scheme):
    from scorekeeper.web.security import CSP

    base, app = live
    page = phone(browser, f"{base}/v/{app.state.tokens.view}", scheme)
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    months = [[f"{m.number} {m.ja}", [[c.code, c.ja] for c in FACES if c.month == m.number]] for m in MONTHS]
    with page.expect_response("**/static/cards.svg") as sprite:
        assert page.evaluate(DRAW, [months, "no-such-card"])
    assert sprite.value.ok and sprite.value.headers["content-security-policy"] == CSP
    for _ in range(50):  # the page's CSP forbids wait_for_function (eval): look a few times
        sizes = {href: (w, h) for href, w, h in page.evaluate(SIZES)}
        if all(w and h for href, (w, h) in sizes.items() if not href.endswith("no-such-card")):
            break
        page.wait_for_timeout(100)
    assert sizes.pop("/static/cards.svg#card-no-such-card") == (0, 0)  # an unknown fragment draws nothing
    assert sorted(sizes) == sorted(f"/static/cards.svg#card-{c.code}" for c in FACES)
    for href, (w, h) in sizes.items():
        assert (w, h) == (62, 94), href  # the card's face, 1 unit in from the 64×96 box on each side
    assert any("Content Security Policy" in s and "data:image" in s for s in said), said
    assert not [s for s in said if "cards.svg" in s], said
    path = tmp_path / f"cards-{scheme}.png"
    page.locator("#cards-test").screenshot(path=str(path))
    assert path.stat().st_size > 20_000  # 36 coloured pictures, not a blank page
    page.context.close()
