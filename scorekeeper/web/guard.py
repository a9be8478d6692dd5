"""The server's connections, kept from a stranger on the Wi-Fi: no one holds the table's server
with slow or idle connections, and no one floods its terminal.

uvicorn closes a connection left idle after a response (``timeout_keep_alive``), but not one that
never sends a whole request: a connection that sends half a request line and waits is held for
good, and a few hundred of them use up the open files a laptop allows (a Mac's ``ulimit -n`` is
256), after which the table's phones get no answer, a save can't open the book, and asyncio
prints a traceback for each accept it can't make. So each connection is watched, through the
protocol class uvicorn is given (:func:`protocol`), a subclass of its h11 one:

- a connection *waits* while its client still owes bytes of a request (from the moment it is
  made, or its last response ended, to the end of its request's headers and body): it has
  :data:`REQUEST_TIMEOUT` to begin a request (else it is closed quietly, as a keep-alive is),
  and as long again, from its first byte, to send it whole (else it is refused);
- at most :data:`PER_ADDRESS` connections from one address wait at once: the one that has
  waited longest is closed when another comes;
- at most ``total`` connections are open in all: over it, the one that has waited longest, from
  whichever address, is closed. A phone's stream or a request being answered never waits, so it
  is never the one closed. asyncio accepts up to ``backlog`` connections in one go before any of
  them is looked at, so the open files are shared out: :data:`RESERVE` for the book, the drafts
  and the server itself, twice ``backlog`` for connections just accepted, the rest (``total``)
  for the connections open;
- the live streams (server-sent events) hold their connections for good, so they are capped
  below them (:class:`Streams`): half the connections at most, 16 of them kept for the table's
  phones, 4 for one device (a newer one closes its oldest); when all are held, a table's phone, or
  a device that held one before, takes the room of the view link's device that came last, so that
  a stranger's new logins never take the room of those who came before;
- every refusal, and uvicorn's and asyncio's own lines about them (a request that is not HTTP,
  an upgrade, an accept out of open files), is said on the server's terminal at most once a
  minute for each reason, with how many there were (:class:`Notices`).

No starlette here; uvicorn and h11 are imported when the protocol class is made.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import Any, Callable

from .. import lang
from ..lang import L_, N_, _, n_

REQUEST_TIMEOUT = 5.0  # seconds to begin a request, and to send it whole (headers and body)
PER_ADDRESS = 16  # connections from one address waiting on their request at once
RESERVE = 32  # open files kept for the book, the drafts and the server itself
MAX_TOTAL = 1024  # connections in all, however many files the system allows
MAX_BACKLOG = 2048  # connections accepted in one go (and queued by the system), at most
SAY_EVERY = 60.0  # seconds between two lines for one reason
PER_DEVICE = 4  # live streams one device (its cookie) holds at once: a newer one closes its oldest
TABLE_ROOM = 16  # live streams kept for the table's phones, whatever the view link's hold
REMEMBER = 4096  # devices known by when they first held a stream (those that came last forgotten first)

#: uvicorn's and asyncio's lines that a stranger can repeat at will: counted, never printed each
#: time (None: said by the line before it)
NOISY: dict[str, str | None] = {
    "Invalid HTTP request received.": N_("not HTTP, or headers over the size allowed"),
    "Unsupported upgrade request.": N_("an upgrade (WebSocket) this server doesn't do"),
    "No supported WebSocket library detected.": None,
    "socket.accept() out of system resource": N_("out of open files: a connection could not be accepted"),
}


def open_files() -> int:
    """The process's limit of open files (1024 where it can't be read)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 1024
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


class Notices:
    """Refusals said on the terminal: a reason's first at once, then at most one line a minute
    with the count since (``later(delay, fn)`` calls ``fn`` after ``delay`` seconds), in the
    terminal's ``language`` (the one spoken when they are made, unless told)."""

    def __init__(self, say: Callable[[str], Any], every: float = SAY_EVERY,
                 clock: Callable[[], float] = time.monotonic,
                 later: Callable[[float, Callable[[], None]], Any] | None = None,
                 language: str | None = None) -> None:
        self.say, self.every, self.clock, self.later = say, every, clock, later
        self.language = language or lang.current()
        self.counts: Counter[str] = Counter()
        self.where: dict[str, Counter[str]] = {}
        self.last: dict[str, float] = {}
        self.pending = False

    def count(self, reason: str, where: str = "") -> None:
        self.counts[reason] += 1
        self.where.setdefault(reason, Counter())[where] += 1
        last = self.last.get(reason)
        if last is None or self.clock() - last >= self.every:
            self._say(reason, first=last is None)
        elif not self.pending and self.later is not None:
            self.pending = True
            self.later(max(0.0, last + self.every - self.clock()), self.tick)

    def tick(self) -> None:
        """Say every reason whose minute is over; come back for those whose minute is not."""
        self.pending = False
        now = self.clock()
        for reason in [r for r in self.counts if now - self.last[r] >= self.every]:
            self._say(reason, first=False)
        if self.counts and self.later is not None:
            self.pending = True
            self.later(min(self.last[r] + self.every for r in self.counts) - now, self.tick)

    def _say(self, reason: str, first: bool) -> None:
        n = self.counts.pop(reason)
        where = self.where.pop(reason)
        self.last[reason] = self.clock()
        from ..lang import in_language

        self.say(in_language(self.language, self._line, n, where, reason, first))

    @staticmethod
    def _line(n: int, where: Counter[str], reason: str, first: bool) -> str:
        """The line said for ``n`` connections closed for ``reason`` (from ``where``)."""
        from .spoken import spoken

        named = [w for w, _count in where.most_common(3) if w]
        others = len([w for w in where if w]) - len(named)
        addresses = _(", ").join(named)
        if named and others:
            source = _(" from {addresses} and {others} other addresses").format(addresses=addresses, others=others)
        elif named:
            source = _(" from {addresses}").format(addresses=addresses)
        else:  # no address known (then no others either)
            source = ""
        what = n_("a connection", "{n:,} connections", n).format(n=n)
        why = spoken(reason) if isinstance(reason, lang.Said) else _(reason)
        if first:
            return _("hachi-score serve · closed {what}{source}: {reason} (lines like this one: at most one a minute)").format(
                what=what, source=source, reason=why)
        return _("hachi-score serve · closed {what}{source} in the last minute: {reason}").format(
            what=what, source=source, reason=why)


def connections(files: int | None = None) -> tuple[int, int]:
    """The connections accepted in one go (``backlog``), and open in all, for ``files`` open files
    (the process's limit when not told): :data:`RESERVE` kept for the book, twice the backlog for
    connections just accepted, the rest for those open."""
    files = files if files is not None else open_files()
    backlog = max(16, min(MAX_BACKLOG, files // 8))
    return backlog, max(32, min(MAX_TOTAL, files - RESERVE - 2 * backlog))


class Guard:
    """The open connections, and those waiting on their request, by address (oldest first)."""

    def __init__(self, per_address: int = PER_ADDRESS, total: int | None = None,
                 timeout: float = REQUEST_TIMEOUT, say: Callable[[str], Any] | None = None,
                 files: int | None = None, language: str | None = None) -> None:
        self.per_address, self.timeout = per_address, timeout
        self.backlog, most = connections(files)
        self.total = total if total is not None else most
        self.notices = Notices(say or logging.getLogger("uvicorn.error").warning, later=self._later, language=language)
        self.open: set[Any] = set()
        self.waiting: dict[Any, Any] = {}  # connection -> its timer, in the order they began waiting
        self.by_address: dict[str, dict[Any, None]] = {}

    @staticmethod
    def _later(delay: float, fn: Callable[[], None]) -> None:
        import asyncio

        asyncio.get_running_loop().call_later(delay, fn)

    # -- the connections' events (in the event loop) ----------------------------------------------

    def opened(self, conn: Any) -> None:
        self.open.add(conn)
        self.seen(conn)
        mine = self.by_address.get(conn.peer, {})
        if len(mine) > self.per_address:
            self.refuse(next(iter(mine)), L_("more than {n} connections at once from one address waiting to send a request",
                                             n=self.per_address))
        if len(self.open) > self.total and self.waiting:
            self.refuse(next(iter(self.waiting)), L_("more than {n} connections open in all", n=self.total))

    def seen(self, conn: Any, data: bool = False) -> None:
        """After anything the connection did (``data``: bytes came): is it waiting on its client?
        An idle connection has ``timeout`` seconds to begin a request, and a request begun has
        ``timeout`` seconds to be whole."""
        if not conn.owes_request():
            self._done_waiting(conn)
        elif conn not in self.waiting:
            conn.partial = data
            self.waiting[conn] = conn.loop.call_later(self.timeout, self.expire, conn)
            self.by_address.setdefault(conn.peer, {})[conn] = None
        elif data and not conn.partial:
            conn.partial = True
            self.waiting[conn].cancel()
            self.waiting[conn] = conn.loop.call_later(self.timeout, self.expire, conn)

    def closed(self, conn: Any) -> None:
        self.open.discard(conn)
        self._done_waiting(conn)

    def _done_waiting(self, conn: Any) -> None:
        timer = self.waiting.pop(conn, None)
        if timer is None:
            return
        timer.cancel()
        mine = self.by_address[conn.peer]
        del mine[conn]
        if not mine:
            del self.by_address[conn.peer]

    def expire(self, conn: Any) -> None:
        """Waited ``timeout`` seconds: a half-sent request is refused and said, an idle
        connection closed quietly, as a keep-alive is."""
        if conn not in self.waiting:
            return
        if conn.partial:
            self.refuse(conn, L_("a request not sent whole within {seconds:g} s", seconds=self.timeout))
        else:
            self._done_waiting(conn)
            conn.transport.close()

    def refuse(self, conn: Any, reason: str) -> None:
        """Close ``conn`` at once (its file is free before its ``connection_lost`` comes)."""
        self._done_waiting(conn)
        self.open.discard(conn)
        self.notices.count(reason, conn.peer)
        conn.transport.abort()

    # -- uvicorn's and asyncio's own lines ----------------------------------------------------------

    def quiet(self, message: Any, where: str = "") -> bool:
        """True when ``message`` is one a stranger can repeat at will: counted (said once a
        minute), not printed."""
        text = str(message)
        for start, reason in NOISY.items():
            if text.startswith(start):
                if reason is not None:
                    self.notices.count(reason, where)
                return True
        return False

    def filter(self, record: logging.LogRecord) -> bool:
        """A logging filter for asyncio's logger (an accept out of open files, each time)."""
        return not self.quiet(record.msg)


class Streams:
    """The live streams held, by device (the id in its cookie), oldest first. A stream holds its
    connection for good, so they are capped below the connections (:class:`Guard`): ``total`` in
    all (half the connections by default: the other half answers requests), of which
    ``table_room`` only the table's phones may take. A device holds at most ``per_device``: a
    newer one closes its oldest, and so does a device's stream when every room is taken (a page
    reloaded always gets its stream). A stream is counted until it ends, a closed one too.

    When every room is taken, a device holding none is not refused at once: the view link is
    given out at the table, so a stranger holding it can log in again and again (each login a
    new device, from one address or from many) and fill the room. The devices are known by when
    they first held a stream (``known``, the ``remember`` last of them): a table's phone takes
    the room of the view link's device that came last, and a view link's device the room of one
    that came after it (told ``crowded``); a device never seen before, which is what each of a
    stranger's new logins is, takes no one's room and is refused."""

    def __init__(self, total: int | None = None, per_device: int = PER_DEVICE, table_room: int = TABLE_ROOM,
                 files: int | None = None, remember: int = REMEMBER) -> None:
        self.total = total if total is not None else connections(files)[1] // 2
        self.per_device = per_device
        self.table_room = min(table_room, self.total // 2)
        self.remember = remember
        self.open: dict[str, dict[Any, str]] = {}  # device -> its streams open (each: its role), oldest first
        self.held: dict[str, int] = {"table": 0, "view": 0}  # streams not ended yet (closed ones too), by role
        self.known: dict[str, int] = {}  # device -> when it first held a stream (a count), first come first
        self.came = 0

    def hold(self, device: str, role: str) -> Any:
        """A stream for ``device`` (as ``role``): an event set when it is to end (``why``:
        ``"replaced"`` by a newer stream of its device's, ``"crowded"`` out by a device that
        came before it; release it once it ended), or None when no room is left for it."""
        import asyncio

        mine = self.open.get(device, {})
        full = sum(self.held.values()) >= self.total or (
            role != "table" and self.held["view"] >= self.total - self.table_room)
        if len(mine) >= self.per_device or (mine and full):
            self.close(device, next(iter(mine)))
        elif full:
            later = self.came_after(device, role)
            if later is None:
                return None
            self.close(later, next(c for c, r in self.open[later].items() if r == "view"), "crowded")
        closing = asyncio.Event()
        self.open.setdefault(device, {})[closing] = role
        self.held[role] += 1
        self.met(device)
        return closing

    def came_after(self, device: str, role: str) -> str | None:
        """The view link's device holding a stream that came last, if after ``device`` (any,
        for a table's phone); None when there is none."""
        since = self.known.get(device)
        if since is None and role != "table":
            return None  # never seen: no one came after it
        for other in reversed(self.known):
            if role != "table" and self.known[other] <= since:  # type: ignore[operator]
                return None
            if "view" in self.open.get(other, {}).values():
                return other
        return None

    def met(self, device: str) -> None:
        """``device`` holds a stream: known from now on (the devices that came last and hold
        none are forgotten past ``remember``)."""
        if device in self.known:
            return
        self.came += 1
        self.known[device] = self.came
        if len(self.known) > self.remember:
            gone = next((d for d in reversed(self.known) if d not in self.open), None)
            if gone is not None:
                del self.known[gone]

    def close(self, device: str, closing: Any, why: str = "replaced") -> None:
        """Tell a stream to end (it stays counted until it has)."""
        mine = self.open[device]
        del mine[closing]
        if not mine:
            del self.open[device]
        closing.why = why
        closing.set()

    def release(self, device: str, role: str, closing: Any) -> None:
        """A stream ended."""
        if not closing.is_set():
            self.close(device, closing)
        self.held[role] -= 1


def protocol(guard: Guard) -> type:
    """uvicorn's h11 protocol, each connection watched by ``guard``."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Quiet(logging.LoggerAdapter):
        """A connection's logger: the lines a stranger can repeat go to the guard's notices."""

        @property
        def level(self) -> int:  # uvicorn reads its logger's level
            return self.logger.level

        def log(self, level: int, msg: Any, *args: Any, **kwargs: Any) -> None:
            if not guard.quiet(msg, self.extra.get("peer", "")):  # type: ignore[union-attr, arg-type]
                self.logger.log(level, msg, *args, **kwargs)

    class Guarded(H11Protocol):
        peer = "?"
        partial = False  # bytes of the request it owes came

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._where = {"peer": "?"}
            self.logger = Quiet(self.logger, self._where)  # type: ignore[assignment]

        def owes_request(self) -> bool:
            """Its client still owes bytes of a request: none yet, or headers or body begun."""
            return self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing()

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.peer = self._where["peer"] = self.client[0] if self.client else "?"
            guard.opened(self)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            guard.seen(self, data=True)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            guard.seen(self)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.closed(self)
            super().connection_lost(exc)

    return Guarded
