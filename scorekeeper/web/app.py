"""The web companion's server: one Starlette app over the book's current session.

It adds no rule and no flow: a round in progress is a draft of the night's (the file the
terminal's `round` keeps and resumes), its answers keyed and typed as the terminal types them.
Each endpoint is one call of :class:`~scorekeeper.flows.Night` (answer, mark, save, discard), and
the page draws the round's view model (:mod:`scorekeeper.questions`): the steps, who answers,
the choices and their words, the problems, what the round stands at. The page holds no rule.

Every read and write of the book goes through one worker thread (the book's lock is a process
lock, not a thread lock). A watcher polls the book's index and the session's and the draft's
files (~4×/s) and pushes the night's state to every open stream (server-sent events) when any
changed, whoever wrote it. When the current session changes at the terminal (`new-session`,
`use`), the phones follow it.

Security on a shared Wi-Fi (:mod:`scorekeeper.web.security`): random link tokens (128 bits) drawn
from a secret kept beside the book, so that a restarted server prints the same links; each login
by a link gives its device a cookie of its own (HttpOnly, SameSite=Strict), signed with a key kept
beside the book and naming the links it was given by, so that after a restart every phone is back
in its role without scanning, and once the links are made new (``serve --new-link``) an old
cookie is told to scan the new code (never counted against the phone) while a forged one is
counted like a wrong link; the view link can't write; a Host allow-list; a CSRF header plus an
Origin / Sec-Fetch-Site check on every write; no CORS headers; a content-security policy of local
assets only; caps on the body's size, the JSON's nesting and every field's length; a rate limit on
wrong links and forged cookies that locks a client out for minutes (a right link always gets in).
Slow and idle connections are the server's (:mod:`scorekeeper.web.guard`), and so are the live
streams' caps: a few per device (a newer one closes its oldest), and in all, with room kept for
the table's phones and for requests (:class:`~scorekeeper.web.guard.Streams`).

Languages: every phone is sent the same state, in English, its messages carried as templates and
arguments (a line kept as text, as ``NAME`` and ``NAME_m``); each page words them from the catalog
of its own language (``/api/words``) and sends that language with each request
(``X-Hachi-Lang``; a navigation: the ``hachi-lang`` cookie the page's switch sets, else
``Accept-Language``), in which that request's refusal is worded, whichever thread made it (:mod:`scorekeeper.web.refusal`).

The app is a Starlette app whose state (``app.state``) holds the ``table``, the ``tokens``, the
``limiter``, the ``streams`` and the ``notes`` (and ``guard``, the connections' watch, once
served); each route is a function of its request, reading that state.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import hmac
import json
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping, TYPE_CHECKING

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from .. import lang
from ..lang import L_, _
from ..scoring import MAX_NAME
from ..night_end import marks_path
from .guard import Streams
from .refusal import HttpError, refuse
from .security import COOKIE, HostsAndHeaders, RateLimit, Tokens, device, guessed, need, tokens_for
from .spoken import line_of, with_said

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_BODY = 16 * 1024
MAX_ANSWER = 2000  # characters of any text in a request (an answer, a member's name)
MAX_DEPTH = 32  # levels of a request's JSON nesting
MAX_KEY = 64  # characters of a question's key ("pile:" and a name of at most MAX_NAME)
POLL = 0.25  # seconds between looks at the files, and between looks at shutdown in a stream
KEEPALIVE = 15.0
STAMPS = ("run", "version")  # a pushed state's stamps (Table.stamped), not parts of the night
STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
          "icon.svg": "image/svg+xml", "cards.svg": "image/svg+xml"}
MANIFEST = {"name": "八八 hachi-score", "short_name": "八八", "start_url": "/", "scope": "/", "display": "standalone",
            "background_color": "#fbf8f1", "theme_color": "#b3262d",
            "icons": [{"src": "/static/icon.svg", "type": "image/svg+xml", "sizes": "any", "purpose": "any"}]}


class Table:
    """The night the server shows: the book's current session (or the one given), the round the
    phones are typing (a draft of the night's, kept by :class:`~scorekeeper.flows.Night`), and the
    pushed state.

    Every method whose name ends in ``_sync`` runs in the one worker thread."""

    def __init__(self, db: str | os.PathLike[str] | None, session: str | None = None) -> None:
        from ..flows import Night

        night = Night.open(db, session)
        self.db = db
        self.follows = session is None  # the current session, whichever it becomes
        self.book_path = Path(night.book.path)
        self.notice: Callable[[str], Any] | None = None  # told when the session followed changes
        self._show(night)
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hachi-writer")
        self.run_id = secrets.token_urlsafe(6)  # this process's: a restarted server counts its versions from 0 again
        self.version = 0
        self.state: dict[str, Any] = {}
        self.fingerprint: tuple[Any, ...] = ()
        self.changed = asyncio.Event()

    def _show(self, night: Any) -> None:
        """Show ``night``: its session's files and its drafts' folders to watch, and its rules."""
        from ..round_draft import RoundDraft

        self.sid, self.rules = night.sid, night.rules
        self.session_file = Path(night.session["file"])
        self.draft_dirs = RoundDraft.folders(night)

    # -- in the worker thread -------------------------------------------------------------------

    def night_sync(self) -> Any:
        from ..flows import Night

        return Night.open(self.db, self.sid)

    def files_sync(self) -> tuple[Any, ...]:
        out: list[tuple[int, int, int] | None] = []
        for path in (self.book_path, self.session_file, *self.draft_dirs, marks_path(self.book_path)):
            try:
                st = path.stat()
                out.append((st.st_mtime_ns, st.st_size, st.st_ino))
            except OSError:
                out.append(None)
        return tuple(out)

    def build_sync(self, night: Any = None, view: Any = None, rd: Any = None) -> dict[str, Any]:
        """The night's whole state, as every page shows it (``view``: the round's, just made): one
        for every phone, its messages carried as templates and arguments that each page words in
        its own language (their ``text``: English, as this thread speaks)."""
        from ..night import balances
        from ..round_draft import RoundDraft

        night = night or self.night_sync()
        summary = night.summary()
        if rd is None or view is None:
            rd = RoundDraft.take(night)
            view = rd.view()
        draft = rd.draft
        return with_said({
            "session": {k: summary[k] for k in ("session", "name", "players", "rounds", "planned_rounds",
                                                 "dealer", "profile", "carry", "pot", "months")},
            "header": night.header(),
            "totals": summary["totals"], "kan": summary["kan"], "settlement": summary["settlement"],
            "history": summary["history"],
            "chart": chart_svg(night.players, balances(night.results, night.players)),
            "round": {"number": draft.number, "revision": draft.revision, "draft": draft.id,
                      "answers": dict(draft.answers), "done": sorted(draft.done or ()), "keys": view.keys,
                      "discard": discard_said(view, draft), "restorable": restorable_said(RoundDraft.discarded(night)),
                      "overruled": overruled_said(draft), **view.to_json()},
            "deck": DECK_VIEW,
            **night_end_state(self.book_path, night, summary, bool(draft.answers)),
        })

    def refresh_sync(self, force: bool = False, night: Any = None, view: Any = None, rd: Any = None) -> bool:
        """Build the state again if the files changed (``night``, ``view``: just made, after a
        write to the draft)."""
        fp = self.files_sync()
        if not force and fp == self.fingerprint:
            return False
        if self.follows and fp[:1] != self.fingerprint[:1] and self.follow_sync():
            night, view, fp = None, None, self.files_sync()
        self.fingerprint = fp
        self.state = self.build_sync(night, view, rd)
        return True

    def follow_sync(self) -> bool:
        """Show the book's current session if it is another now (made or chosen at the
        terminal); True if it changed."""
        from ..flows import Night
        from ..store import Book

        current = Book.open(self.book_path).current_id()
        if current is None or current == self.sid:
            return False
        night = Night.open(self.db, current)
        self._show(night)
        if self.notice is not None:
            self.notice(L_("hachi-score serve · now session {session} ({name}): the phones follow it",
                           session=night.sid, name=night.session.get("name", "")))
        return True

    def _tap_sync(self, act: Callable[[Any], Any], key: str, number: int | None, draft: str | None) -> dict[str, Any]:
        """One tap on the phones' round, as the round's owner takes a tap."""
        from ..round_draft import RoundDraft

        rd, view = RoundDraft.tap(self.night_sync, act, key, number, draft)
        self.refresh_sync(force=True, night=rd.night, view=view, rd=rd)
        return self.state

    def answer_sync(self, key: str, text: str | None, was: Any = None, seen: bool = False,
                    number: int | None = None, draft: str | None = None) -> dict[str, Any]:
        """Keep one answer (``None``: take it back): a tap of a pile is not its player saying it is
        complete. ``was`` (when ``seen``): the answer the phone had seen, ``number`` and ``draft``
        the round and the draft it was for, so that a tap queued offline never overwrites another's,
        nor lands in the next round or in a draft begun after its own was thrown away."""
        from ..round_draft import UNCHECKED

        expect = was if seen else UNCHECKED
        return self._tap_sync(lambda rd: rd.answer(key, text, done=False, was=expect), key, number, draft)

    def card_sync(self, key: str, code: str, seen: int, count: int, was: Any = None, seen_was: bool = False,
                  number: int | None = None, draft: str | None = None) -> dict[str, Any]:
        """One card of pile ``key`` tapped from ``seen`` to ``count``, merged with the other
        phones' taps by the round's owner (:meth:`~scorekeeper.round_draft.RoundDraft.card`);
        ``was`` (when ``seen_was``): the pile's answer the phone had seen."""
        from ..round_draft import UNCHECKED

        expect = was if seen_was else UNCHECKED
        return self._tap_sync(lambda rd: rd.card(key, code, seen, count, was=expect), key, number, draft)

    def done_sync(self, player: str, done: bool, number: int | None = None, draft: str | None = None,
                  empty: bool = False) -> dict[str, Any]:
        """``player`` says their pile is complete (the mark is the draft's). A pile holding no
        cards is marked complete only when the phone says it is empty (``empty``: its player
        said yes), never by a tap alone."""
        from ..questions import said
        from ..round_draft import pile_cards
        from ..words import msg

        key = f"pile:{player}"

        def mark(rd: Any) -> Any:
            g = rd.givens
            if done and not empty and player in g.players and pile_cards(g, key, rd.answers.get(key)) == []:
                raise HttpError(422, msg("r.empty_pile", said=said(key)).said(), key=key)
            return rd.mark(player, done)  # the draft read here is the one marked, or it is read again

        return self._tap_sync(mark, key, number, draft)

    def save_sync(self, revision: int) -> dict[str, Any]:
        """Save the round once confirmed (``revision``: the one shown), exactly as `round` saves it."""
        from ..round_draft import RoundDraft

        rd = RoundDraft.take(self.night_sync())
        added = rd.save(revision=revision)  # a 場四 is redealt: nothing saved, the next round begins
        self.refresh_sync(force=True, night=rd.night)
        return {"saved": added.number, "state": self.state}

    def discard_sync(self) -> dict[str, Any]:
        """Throw the phones' round away (it can be brought back until the next round is saved)."""
        from ..round_draft import RoundDraft

        night = self.night_sync()
        RoundDraft.take(night).discard()
        self.refresh_sync(force=True, night=night)
        return self.state

    def restore_sync(self) -> dict[str, Any]:
        """Bring back the round thrown away since the last round was saved."""
        from ..round_draft import RoundDraft

        night = self.night_sync()
        RoundDraft.restore(night)
        self.refresh_sync(force=True, night=night)
        return self.state

    def end_sync(self, do: str) -> dict[str, Any]:
        """The night's end chosen on a phone: ``end`` it (kept until ``reopen``), or play ``more``
        (one more round before its end is shown again)."""
        from ..night_end import more_after, read_mark, write_mark

        night = self.night_sync()
        mark = read_mark(self.book_path, self.sid)
        if do == "more":
            write_mark(self.book_path, self.sid, ended=False, more=more_after(night.summary()))
        else:
            write_mark(self.book_path, self.sid, ended=do == "end", more=mark["more"])
        self.refresh_sync(force=True, night=night)
        return self.state

    # -- in the event loop ----------------------------------------------------------------------

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the worker thread, in English: the state it builds is the one every
        phone is sent (each words its messages from their templates), and the errors it raises
        are worded again in the language of the phone that asked (:func:`spoken.line_of`)."""
        english = contextvars.Context()  # of its own: the language's default, English
        return await asyncio.get_running_loop().run_in_executor(self.writer, english.run, fn, *args)

    def stamped(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """``state`` as sent to the phones: with this run's id and the version it is at (a page
        never takes an older version of the run it has, and always the state of another run)."""
        return {"run": self.run_id, "version": self.version, **state}

    async def publish(self, changed: bool) -> None:
        if changed:
            self.version += 1
            self.changed.set()
            self.changed = asyncio.Event()

    async def watch(self, stopping: Callable[[], bool]) -> None:
        """Poll the session's file and the drafts' folders; push the state when any changed."""
        while not stopping():
            try:
                await self.publish(await self.run(self.refresh_sync))
            except Exception:  # a book being rewritten, read again at the next look
                pass
            await asyncio.sleep(POLL)


def discard_said(view: Any, draft: Any) -> dict[str, Any] | None:
    """What throwing the round away throws away, asked as the terminal asks it (None: nothing typed)."""
    from ..questions import typed_summary
    from ..words import msg

    if not draft.answers:
        return None
    return msg("d.ask", what=typed_summary(view, draft.answers)).to_json()  # worded on each page


def overruled_said(draft: Any) -> dict[str, Any]:
    """The phones' answers another writer chose not to keep, by question: the answer not kept,
    and the line that says so (until that question is answered again)."""
    from ..questions import said
    from ..words import msg

    return {key: {"text": o["text"], "line": msg("r.overruled", said=said(key), text=o["text"] or "—",
                                                  kept=draft.answers.get(key) or "—").to_json()}
            for key, o in draft.overruled.items() if o.get("by") == "phone"}


def restorable_said(gone: Any) -> dict[str, Any] | None:
    """The round thrown away (or set aside) since the last round was saved, said (None: none)."""
    return None if gone is None else gone.restorable_said().to_json()


def _deck_view() -> list[dict[str, Any]]:
    """The 48 cards month by month (a kasu once per card), with names and readings."""
    from ..cards import DECK, MONTHS

    return [{"n": m.number, "ja": m.ja, "reading": m.reading,
             "cards": [{"code": c.code, "ja": c.ja, "romaji": c.romaji} for c in DECK if c.month == m.number]}
            for m in MONTHS]


DECK_VIEW = _deck_view()


# -- the chart, drawn here -----------------------------------------------------------------------

def chart_svg(players: list[str], running: Mapping[str, list[int]], width: int = 340, height: int = 170) -> str:
    """The running totals as an SVG line chart (classes for colours: the page's CSS, light or dark),
    its legend under it: a key per player in columns, a long name cut with … to fit (whole in
    the key's title)."""
    n = max((len(v) for v in running.values()), default=0)
    values = [0] + [x for v in running.values() for x in v]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi, lo = lo + 1, lo - 1
    columns = 3 if len(players) <= 3 else 2
    rows = -(-len(players) // columns)
    left, right, top, bottom = 44, 8, 10, 22
    w, h = width - left - right, height - top - bottom
    full = height + 14 * rows

    def x(i: int) -> float:
        return left + (w * i / max(n, 1))

    def y(v: int) -> float:
        return top + h * (hi - v) / (hi - lo)

    named, last = escape(_("running totals")), escape(_("round {n}").format(n=n))  # the page words them again
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {full}" class="chart" '
             f'role="img" aria-label="{named}">',
             f'<line class="axis" x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}"/>',
             f'<text class="label" x="{left - 4}" y="{y(hi) + 4:.1f}" text-anchor="end">{hi:+d}</text>',
             f'<text class="label" x="{left - 4}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
             f'<text class="label" x="{left - 4}" y="{y(lo) + 4:.1f}" text-anchor="end">{lo:+d}</text>',
             f'<text class="label" x="{width - right}" y="{height - 6}" text-anchor="end" data-round="{n}">'
             f'{last}</text>']
    column = (width - 8) / columns
    for i, p in enumerate(players):
        points = " ".join(f"{x(j):.1f},{y(v):.1f}" for j, v in enumerate([0, *running.get(p, [])]))
        parts.append(f'<polyline class="line p{i}" fill="none" points="{points}"/>')
        kx, ky = 8 + column * (i % columns), height + 8 + 14 * (i // columns)
        parts.append(f'<text class="key p{i}" x="{kx:.0f}" y="{ky}"><title>{escape(p)}</title>'
                     f'{escape(fit(p, column - 8))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def fit(text: str, room: float) -> str:
    """``text`` cut with … to fit ``room`` px at the legend's 11 px (about 6.6 px a narrow
    character, 11 a wide one)."""
    from rich.cells import cell_len

    def width(t: str) -> float:
        return sum(11 if cell_len(ch) == 2 else 6.6 for ch in t)

    if width(text) <= room:
        return text
    while text and width(text + "…") > room:
        text = text[:-1]
    return text + "…"


# -- the app -------------------------------------------------------------------------------------

def asset(name: str) -> bytes:
    return resources.files("scorekeeper.web").joinpath("static", name).read_bytes()


def nesting(text: str) -> int:
    """How deep ``text``'s JSON nests past :data:`MAX_DEPTH` (brackets inside strings not
    counted), read without recursion: 0 at once when it has too few brackets to, else the depth
    where it went past, or the depth left open at its end."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return 0
    depth = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return depth
        elif ch in "]}":
            depth -= 1
    return depth


_catalogs: dict[str, tuple[bytes, str]] = {}


def catalog_json(language: str) -> tuple[bytes, str]:
    """``language``'s catalog as the page reads it, and its ETag (made once per process)."""
    if language not in _catalogs:
        body = json.dumps({"lang": language, "words": lang.catalog(language), "plurals": lang.plurals(language)},
                          ensure_ascii=False, sort_keys=True).encode("utf-8")
        _catalogs[language] = (body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"')
    return _catalogs[language]


def catalogs_version() -> str:
    """This package's catalogs, in a word (a page asks for its catalog by it: kept for good)."""
    return hashlib.sha256("".join(catalog_json(x)[1] for x in lang.LANGS).encode()).hexdigest()[:12]


class HeldStream(StreamingResponse):
    """A live stream that gives its room back (``release``) once it ended, however it ended: the
    phone gone, the server stopping, a newer stream of its device's, or never begun."""

    def __init__(self, content: Any, release: Callable[[], None], **options: Any) -> None:
        super().__init__(content, **options)
        self.release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


async def either(first: asyncio.Event, second: asyncio.Event, timeout: float) -> None:
    """Until either event is set, or ``timeout`` seconds."""
    waits = [asyncio.ensure_future(first.wait()), asyncio.ensure_future(second.wait())]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


# -- a request's body ------------------------------------------------------------------------------

async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object: 16 KiB at most, nested 32 deep at most (looked at before
    the parser can recurse), each text (a member's name too) 2,000 characters at most and
    whole (no lone surrogate); a 4xx with one line otherwise."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise HttpError(413, L_("the request is over {size} KiB", size=MAX_BODY // 1024))
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise HttpError(413, L_("the request is over {size} KiB", size=MAX_BODY // 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise HttpError(400, L_("the request is not JSON")) from None
    if nesting(text) > MAX_DEPTH:
        raise HttpError(400, L_("the request is nested deeper than {depth} levels", depth=MAX_DEPTH))
    try:
        value = json.loads(text)
    except ValueError:  # not JSON, or a number of over 4,300 digits
        raise HttpError(400, L_("the request is not JSON")) from None
    if not isinstance(value, dict):
        raise HttpError(400, L_("the request is not a JSON object"))
    for name, member in value.items():
        texts_fit(name, name)
        texts_fit(member, name)
    return value


def texts_fit(value: Any, name: str) -> None:
    """Every text in ``value`` (member ``name`` of the request) fits (depth: at most 32)."""
    if isinstance(value, str):
        if len(value) > MAX_ANSWER:
            raise HttpError(413, L_("{member} is over {size:,} characters", member=shown(name), size=MAX_ANSWER))
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise HttpError(400, L_("{member} is not text (a lone surrogate)", member=shown(name))) from None
    elif isinstance(value, dict):
        for k, v in value.items():
            texts_fit(k, name)
            texts_fit(v, name)
    elif isinstance(value, list):
        for v in value:
            texts_fit(v, name)


def shown(name: str) -> str:
    return f'"{name}"' if len(name) <= 20 and name.isprintable() and name.isascii() else L_("a member's name")


def number_of(data: Mapping[str, Any], name: str, message: lang.Said) -> int | None:
    """Member ``name``: None, or a whole number from 0 below 2**31 (``message`` otherwise)."""
    number = data.get(name)
    if number is not None and (type(number) is not int or not 0 <= number < 2 ** 31):
        raise HttpError(400, message)
    return number


def round_of(data: Mapping[str, Any]) -> int | None:
    return number_of(data, "round", L_('"round" is the number of the round the tap was for'))


def draft_of(data: Mapping[str, Any]) -> str | None:
    """Member ``draft``: the id of the draft the tap was made in (None: not stated, or none yet)."""
    draft = data.get("draft")
    if draft is not None and not (isinstance(draft, str) and len(draft) <= 16 and (draft == "" or draft.isalnum())):
        raise HttpError(400, L_('"draft" is the id of the draft the tap was made in'))
    return draft


# -- the routes: each reads the app's state (its table, tokens, streams) ---------------------------

async def login(request: Request, kind: str) -> Response:
    """A link's token swapped for a cookie of the device's own. A right token always gets in,
    even from a client locked out: the lock refuses wrong tokens only."""
    tokens = request.app.state.tokens
    token = request.path_params["token"]
    good = tokens.table if kind == "table" else tokens.view
    if not hmac.compare_digest(token.encode("utf-8", "surrogateescape"), good.encode("ascii")):
        raise guessed(request, L_("this link is not (or no longer) the table's: scan the QR code again"))
    board = kind == "view" and "board" in request.query_params  # a tablet or TV at the table: the board
    response = RedirectResponse("/?board" if board else "/", status_code=303)
    response.set_cookie(COOKIE, tokens.cookie(kind), httponly=True, samesite="strict", path="/")
    return response


async def table_link(request: Request) -> Response:
    return await login(request, "table")


async def view_link(request: Request) -> Response:
    return await login(request, "view")


async def page(request: Request) -> Response:
    """The page, in the language its phone asks for (its choice on the page, else its
    Accept-Language): the page words itself from that language's catalog (:func:`words`)."""
    who = need(request, write=False)
    html = asset("index.html").decode("utf-8")
    html = html.replace("{{role}}", who).replace("{{csrf}}", request.app.state.tokens.csrf if who == "table" else "")
    noscript = _("This page needs JavaScript for the live standings.")
    html = (html.replace("{{lang}}", lang.current()).replace("{{words}}", catalogs_version())
            .replace("{{noscript}}", escape(noscript)))
    return HTMLResponse(html, headers={"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie"})


async def words(request: Request) -> Response:
    """A language's catalog for the page: ``{"lang", "words": {English: its words}, "plurals":
    {English singular: its forms}}`` (English: empty, the templates are the words). Nothing
    of the night in it: no cookie needed. Kept by the browser for good when asked for by this
    package's version of the catalogs (``v``), else checked again each time (its ETag)."""
    try:
        language = lang.named(request.query_params.get("lang", "en")[:16])
    except lang.UnknownLanguage:
        raise HttpError(400, L_("no such language: ja or en")) from None
    body, etag = catalog_json(language)
    cache = ("public, max-age=31536000, immutable" if request.query_params.get("v") == catalogs_version()
             else "no-cache")
    headers = {"Cache-Control": cache, "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


async def manifest(request: Request) -> Response:
    """The web app's manifest, so that a phone can add the table to its home screen (nothing
    of the night in it: it is fetched without the cookie)."""
    return JSONResponse(MANIFEST, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        raise HttpError(404, L_("no such file"))
    return Response(asset(name), media_type=STATIC[name], headers={"Cache-Control": "no-cache"})


async def state(request: Request) -> Response:
    need(request, write=False)
    table = request.app.state.table
    return JSONResponse(table.stamped(table.state))


async def written(request: Request, sync: Callable[..., dict[str, Any]], *args: Any) -> Response:
    """A write run in the worker thread, pushed to every stream, answered with its result."""
    table = request.app.state.table
    result = await table.run(sync, *args)
    await table.publish(True)
    return JSONResponse(table.stamped(result))


async def answer(request: Request) -> Response:
    """One answer: ``{"key": question, "text": the answer as typed (null: taken back), "was": the
    answer the page had seen (refused with a 409 if it changed since), "round", "draft": the round
    and draft the tap was made in}``. A card of a pile tapped on or off is ``{"key": "pile:NAME",
    "card": code, "seen": how many of it the page saw in the pile, "count": how many once
    tapped}`` (``was``: the pile's answer the page saw, checked only where it is given otherwise
    than by its cards): the taps of several phones on one pile are merged, never refused for
    another card's."""
    need(request, write=True)
    data = await body(request)
    key, text = data.get("key"), data.get("text")
    if not isinstance(key, str) or not (text is None or isinstance(text, str)):
        raise HttpError(400, L_('an answer is {{"key": question, "text": the answer as typed}}'))
    if len(key) > MAX_KEY:
        raise HttpError(400, L_("a question's key is at most {size} characters", size=MAX_KEY))
    was = data.get("was")
    if not (was is None or isinstance(was, str)):
        raise HttpError(400, L_('"was" is the answer the page had seen: text, or null for none'))
    table = request.app.state.table
    if "card" in data:
        code, seen, count = card_of(data, key)
        return await written(request, table.card_sync, key, code, seen, count, was, "was" in data, round_of(data),
                             draft_of(data))
    return await written(request, table.answer_sync, key, text, was, "was" in data, round_of(data), draft_of(data))


def card_of(data: Mapping[str, Any], key: str) -> tuple[str, int, int]:
    """A card tap's ``card`` (a code), ``seen`` (how many of it the page saw in the pile) and
    ``count`` (how many once tapped)."""
    from ..cards import DECK_COUNT

    code = data.get("card")
    copies = next((n for c, n in DECK_COUNT.items() if c.code == code), 0)
    if not key.startswith("pile:") or not copies:
        raise HttpError(400, L_('a card tap is {{"key": "pile:NAME", "card": code, "seen": N, "count": N}}'))
    said = L_('"seen" and "count" are how many of {card} the pile held as the page saw it and once tapped '
              '(0 to {copies})', card=code, copies=copies)
    seen, count = (number_of(data, name, said) for name in ("seen", "count"))
    if seen is None or count is None or seen > copies or count > copies:
        raise HttpError(400, said)
    return str(code), seen, count


async def done(request: Request) -> Response:
    """A pile said complete, or reopened: ``{"player": NAME, "done": true, "empty": true}``;
    ``empty`` (its player said yes to a pile holding no cards) or a 422."""
    need(request, write=True)
    data = await body(request)
    player = data.get("player")
    if not isinstance(player, str):
        raise HttpError(400, L_('say which player: {{"player": NAME, "done": true}}'))
    if len(player) > MAX_NAME:
        raise HttpError(400, L_("a player's name is at most {size} characters", size=MAX_NAME))
    return await written(request, request.app.state.table.done_sync, player, bool(data.get("done", True)),
                         round_of(data), draft_of(data), data.get("empty") is True)


async def save(request: Request) -> Response:
    need(request, write=True)
    data = await body(request)
    said = L_('say which revision of the round was confirmed: {{"revision": N}}')
    revision = number_of(data, "revision", said)
    if revision is None:
        raise HttpError(400, said)
    return await written(request, request.app.state.table.save_sync, revision)


async def discard(request: Request) -> Response:
    need(request, write=True)
    await body(request)
    return await written(request, request.app.state.table.discard_sync)


async def restore(request: Request) -> Response:
    need(request, write=True)
    await body(request)
    return await written(request, request.app.state.table.restore_sync)


END_CHOICES = ("end", "more", "reopen")


async def end(request: Request) -> Response:
    """The night's end chosen: ``{"do": "end" | "more" | "reopen"}``."""
    need(request, write=True)
    data = await body(request)
    if data.get("do") not in END_CHOICES:
        raise HttpError(400, L_('say what to do at the end of the night: {{"do": "end", "more" or "reopen"}}'))
    return await written(request, request.app.state.table.end_sync, data["do"])


def night_end_state(book_path: Path, night: Any, summary: Mapping[str, Any], begun: bool) -> dict[str, Any]:
    """The state's ``end`` (:mod:`scorekeeper.night_end`: shown or not, its figures) and each
    round's 下げ callers beside its yaku in ``history`` (the rounds table as the terminal's)."""
    from ..night_end import end_figures, end_state, read_mark

    for h, r in zip(summary["history"], night.results):
        h["sage"] = list(r.round.sage)
    return {"end": {**end_state(summary, read_mark(book_path, night.sid), begun), "figures": end_figures(summary)}}


def state_event(app: Starlette, since: int | None = None) -> bytes:
    """The night's state as a stream's event, written once a version for every stream (a tap
    with 50 viewers was 50 encodings of the same state). ``since``: the version a stream that
    takes the night in parts sent last; when the night was last written at that version, only
    the parts changed since are sent (``event: patch``: ``{"run", "version", "base": since,
    "set": {part: its value}, "drop": [part gone]}``): a tap changes the round, not the deck,
    the history or the chart, and 50 viewers were sent all of them at each tap."""
    table, shown = app.state.table, app.state.shown_event
    if shown["version"] != table.version:
        state = table.stamped(table.state)
        was = shown["state"]
        payload = json.dumps(state, ensure_ascii=False)
        patch = None
        if was is not None and was["run"] == state["run"]:
            part = json.dumps({"run": state["run"], "version": state["version"], "base": was["version"],
                               "set": {k: v for k, v in state.items() if k not in STAMPS and was.get(k) != v},
                               "drop": [k for k in was if k not in state]}, ensure_ascii=False)
            patch = f"event: patch\ndata: {part}\n\n".encode("utf-8")
        shown.update(version=table.version, state=state, patch=patch, base=was["version"] if patch else None,
                     event=f"event: state\ndata: {payload}\n\n".encode("utf-8"))
    if since is not None and since == shown["base"]:
        return shown["patch"]
    return shown["event"]


async def events(request: Request) -> Response:
    """The night's state each time it changes (``?patch=1``: whole first, then the parts that
    changed, :func:`state_event`). A device holds a few streams at most (a
    newer one closes its oldest: told ``replaced``), and the view link's phones leave room
    for the table's (:class:`~scorekeeper.web.guard.Streams`): over it, a 429, unless the
    device came before one holding a view link's stream (that one is told ``crowded``)."""
    who = need(request, write=False)
    try:
        limit = max(0, min(int(request.query_params.get("limit", "0")), 100))
    except ValueError:
        limit = 0
    parts = request.query_params.get("patch") == "1"  # the page's: the night in parts once it has it whole
    app, streams, mine = request.app, request.app.state.streams, device(request)
    table = app.state.table
    closing = streams.hold(mine, who)
    if closing is None:
        raise HttpError(429, L_("too many live pages are open: close one, or try again in a minute"))

    async def stream():
        sent, version, last = 0, -1, time.monotonic()
        while not app.state.stopping():
            if closing.is_set():  # replaced by a newer stream of its device's, or crowded out
                yield f"event: {closing.why}\ndata: {{}}\n\n"
                return
            if table.version != version:
                event = state_event(app, version if parts else None)
                version = table.version
                yield event
                sent += 1
                last = time.monotonic()
                if limit and sent >= limit:
                    return
            await either(table.changed, closing, POLL)
            if time.monotonic() - last > KEEPALIVE:
                last = time.monotonic()
                yield ": keep-alive\n\n"
        yield "event: bye\ndata: {}\n\n"

    return HeldStream(stream(), lambda: streams.release(mine, who, closing), media_type="text/event-stream",
                      headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


ROUTES = [
    Route("/", page), Route("/t/{token}", table_link), Route("/v/{token}", view_link),
    Route("/static/{name}", static), Route("/manifest.webmanifest", manifest),
    Route("/api/words", words), Route("/api/state", state), Route("/api/events", events),
    Route("/api/answer", answer, methods=["POST"]), Route("/api/done", done, methods=["POST"]),
    Route("/api/save", save, methods=["POST"]), Route("/api/discard", discard, methods=["POST"]),
    Route("/api/restore", restore, methods=["POST"]), Route("/api/end", end, methods=["POST"]),
]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    """The night's state built, then watched until the server stops (its streams end themselves)."""
    table = app.state.table
    await table.publish(await table.run(table.refresh_sync, True))
    watcher = asyncio.create_task(table.watch(app.state.stopping))
    try:
        yield
    finally:
        app.state.stopped = True
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watcher
        table.writer.shutdown(wait=False)


async def refuse_http(request: Request, e: HttpError) -> Response:  # async: in the request's own context
    return refuse(e, request.headers, request.method)


class Companion(Starlette):
    """The web companion: its routes, with :class:`~scorekeeper.web.security.HostsAndHeaders`
    around all of it (a 500 too is sent with the headers)."""

    def __init__(self, hosts: set[str], **options: Any) -> None:
        super().__init__(**options)
        self.hosts = hosts

    def build_middleware_stack(self) -> Any:
        return HostsAndHeaders(super().build_middleware_stack(), self.hosts)


def create_app(table: Table, *, hosts: set[str], tokens: Tokens | None = None,
               limiter: RateLimit | None = None, stopping: Callable[[], bool] | None = None,
               streams: Streams | None = None, new_link: bool = False) -> Starlette:
    """The app, its state: ``table``, ``tokens``, ``limiter``, ``streams``, ``notes``. ``hosts``:
    the Host names it answers to (the bound address; localhost names are always in).
    ``stopping``: true once the server shuts down (open streams end themselves). ``streams``:
    the live streams' caps (:class:`~scorekeeper.web.guard.Streams`; for this process's open
    files when not given). Without ``tokens``, the table's secrets kept beside the book, the
    links made new when ``new_link`` (secrets for this run alone when they can't be kept:
    ``notes`` says so)."""
    notes: list[str] = []
    if tokens is None:
        tokens, notes = tokens_for(table.book_path, new_link)
    app = Companion(hosts, routes=ROUTES, lifespan=lifespan)
    app.state.table, app.state.tokens, app.state.notes = table, tokens, notes
    app.state.limiter = limiter or RateLimit()
    app.state.streams = streams or Streams()
    app.state.shown_event = {"version": None, "event": b"", "state": None, "patch": None, "base": None}
    app.state.stopped = False
    app.state.stopping = lambda: app.state.stopped or (stopping is not None and stopping())

    from ..errors import DraftConflict
    from ..round_draft import Incomplete, NothingToRestore, Overtaken
    from ..questions import NoSuchQuestion, NotAsked, Refused
    from ..scoring import RoundError
    from ..errors import BookError, ChangedMeanwhile, DamagedRound, SessionError

    #: the flows' errors, by type, as the terminal says them (the most precise first)
    statuses: list[tuple[type[BaseException], int]] = [
        (Refused, 422), (NoSuchQuestion, 400), (NotAsked, 422), (Incomplete, 422), (RoundError, 422),
        (Overtaken, 409), (NothingToRestore, 409), (SessionError, 400),
        (DraftConflict, 409), (ChangedMeanwhile, 409), (DamagedRound, 409), (BookError, 503)]

    async def refuse_book(request: Request, e: Exception) -> Response:
        status = next(code for kind, code in statuses if isinstance(e, kind))
        extra: dict[str, Any] = {}
        if isinstance(e, Refused):
            extra = {"problem": e.problem.to_json()}
        if isinstance(e, (Refused, NotAsked, Overtaken)):
            extra["key"] = getattr(e, "key", None) or e.problem.key  # type: ignore[union-attr]
        return refuse(HttpError(status, line_of(e), **extra), request.headers, request.method)

    app.add_exception_handler(HttpError, refuse_http)  # type: ignore[arg-type]
    for kind, _status in statuses:
        app.add_exception_handler(kind, refuse_book)  # type: ignore[arg-type]
    return app
