"""Run the web companion: find the address, bind, print the links and the QR code, serve until
Ctrl-C (streams end themselves on shutdown; uvicorn's graceful timeout is the backstop).

uvicorn is told to trust no proxy (``X-Forwarded-For``, ``Forwarded``: the client is the
connection's own address, the one the rate limit counts), to keep an idle connection 5 s, and to
refuse a request line and headers still incomplete past 16 KiB; each connection is watched by a
:class:`~scorekeeper.web.guard.Guard` (slow and idle connections, per address and in all).
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import Any, Callable, TextIO

from .. import lang
from ..files import os_words
from ..lang import _

GRACE = 1  # seconds uvicorn waits for connections still open at shutdown
KEEP_ALIVE = 5  # seconds an idle connection is kept after a response
MAX_HEAD = 16 * 1024  # bytes of a request's line and headers


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY on accepted sockets only for it, and
    # without it every response's body waits ~40 ms behind its headers (Nagle, delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def make_server(db: Any, host: str, sock: socket.socket, *, hosts: set[str] | None = None,
                tokens: Any = None, log_level: str = "warning", guard: Any = None,
                new_link: bool = False) -> tuple[Any, Any]:
    """The uvicorn server and the app, over an already bound socket (``guard``: the connections'
    own, a :class:`~scorekeeper.web.guard.Guard` of the defaults when not given; ``app.state.guard``;
    ``new_link``: the links made new, every phone sent out)."""
    import uvicorn

    from .app import Table, create_app
    from .guard import Guard, Streams, protocol

    table = Table(db)
    holder: dict[str, Any] = {}
    guard = guard if guard is not None else Guard()
    app = create_app(table, hosts=hosts or {host}, tokens=tokens, streams=Streams(total=guard.total // 2),
                     stopping=lambda: bool(holder.get("server") and holder["server"].should_exit),
                     new_link=new_link)
    app.state.guard = guard
    config = uvicorn.Config(app, log_level=log_level, timeout_graceful_shutdown=GRACE, lifespan="on",
                            access_log=False, http=protocol(guard), ws="none", loop="asyncio",
                            proxy_headers=False, forwarded_allow_ips="", timeout_keep_alive=KEEP_ALIVE,
                            h11_max_incomplete_event_size=MAX_HEAD, backlog=guard.backlog)
    server = uvicorn.Server(config)
    holder["server"] = server
    return server, app


def serve(db: Any, host: str | None, port: int, out: TextIO | None = None,
          fail: Callable[[str], Any] | None = None, new_link: bool = False) -> None:
    out = out if out is not None else sys.stdout  # at call time: a test's capture, a redirect
    from .net import lan_addresses, qr_lines

    candidates = [host] if host else lan_addresses()
    chosen = candidates[0]
    try:
        sock = bind(chosen, port)
    except OSError as e:
        message = _("can't listen on {host}:{port}: {why} (--host IP or --port N)").format(
            host=chosen, port=port, why=os_words(e))
        if fail is not None:
            fail(message)
        raise SystemExit(message) from None
    port = sock.getsockname()[1]
    hosts = {chosen} | ({*lan_addresses()} if chosen in ("0.0.0.0", "::") else set())

    terminal = lang.current()  # the terminal's language, whichever thread or request says a line

    def notice(line: str) -> None:
        """A line on the terminal, in its language (a message made elsewhere worded again)."""
        print(in_language(terminal, spoken, line), file=out, flush=True)

    from .guard import Guard
    from ..lang import in_language
    from .spoken import spoken

    guard = Guard(say=notice, language=terminal)
    server, app = make_server(db, chosen, sock, hosts=hosts, guard=guard, new_link=new_link)
    tokens, table = app.state.tokens, app.state.table
    table.notice = notice
    logging.getLogger("asyncio").addFilter(guard.filter)  # an accept out of open files: counted, said once a minute
    for line in app.state.notes:
        notice(line)
    base = f"http://{url_host(chosen)}:{port}"
    table_url = f"{base}/t/{tokens.table}"
    if out.isatty():
        for line in qr_lines(table_url):
            print("  " + line, file=out)
    print(_("hachi-score serve · session {session} · scan the code, or open on each phone:").format(session=table.sid),
          file=out)
    print(_("  table (players): {url}").format(url=table_url), file=out)
    print(_("  view only:       {url}").format(url=f"{base}/v/{tokens.view}"), file=out)
    print(_("  board (TV):      {url}").format(url=f"{base}/v/{tokens.view}?board"), file=out)
    for other in candidates[1:] if not host else []:
        print(_("  also reachable at {url} (--host {host} to bind there)").format(
            url=f"http://{url_host(other)}:{port}/t/{tokens.table}", host=other), file=out)
    if new_link:
        print(_("New links: every phone that joined before must scan the new code."), file=out)
    elif not app.state.notes:  # the secrets kept beside the book (the notes say when they can't be)
        print(_("The links stay the same from one start to the next: a phone that joined comes back by itself "
                "(--new-link changes them and sends every phone out)."), file=out)
    print(_("Ctrl-C stops the server; the terminal's `round` keeps working beside it."), file=out, flush=True)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # pragma: no cover - uvicorn handles the signal itself
        pass
    finally:
        sock.close()
