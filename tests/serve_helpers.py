"""Shared by the serve tests: a session with a bundled night, the app, clients with their cookie."""

from __future__ import annotations

import contextlib
import json
import threading
import warnings
from importlib.resources import files

from scorekeeper.store import Book
from helpers import HANG, add_round, eventually

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)
PLAYERS = ["Aki", "Ben", "Chie"]
HOST = "testserver"
ORIGIN = f"http://{HOST}"


def bundled_night() -> list[dict]:
    night = files("scorekeeper").joinpath("data", "night")
    return [json.loads(f.read_text("utf-8"))
            for f in sorted((f for f in night.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)]


def new_night(book_file, rounds: int = 0) -> tuple[Book, str]:
    book = Book.open(book_file)
    sid = book.new_session(PLAYERS, name="Friday", rate=10)
    for data in bundled_night()[:rounds]:
        add_round(book, sid, data)
    return book, sid


def answers_of(data: dict) -> dict[str, str]:
    """A round file as the terminal's answers, by question (the draft's keys), text as typed."""
    out = {"dealer": data["dealer"], "field": " ".join(data["field"])}
    for p in data["players"]:
        hand = " ".join(data.get("hands", {}).get(p, []))
        name = (data.get("teyaku") or {}).get(p) or ""
        out[f"hand:{p}"] = " ".join(x for x in (hand, name) if x)
    out["ended"] = data.get("ended_by") or ""
    sage = data.get("sage") or ""
    out["sage"] = " ".join(sage) if isinstance(sage, list) else sage
    for p in data["players"]:
        out[f"pile:{p}"] = " ".join(data["captured"].get(p, []))
    return out


def make_app(**options):
    from scorekeeper.web.app import Table, create_app

    return create_app(Table(None), hosts={HOST}, **options)


def writer_headers(app) -> dict[str, str]:
    return {"X-Hachi-CSRF": app.state.tokens.csrf, "Origin": ORIGIN}


def as_table(client, app):
    r = client.get(f"/t/{app.state.tokens.table}", follow_redirects=False)
    assert r.status_code == 303, r.text
    return client


@contextlib.contextmanager
def live_server(sock=None, **options):
    """A live server on 127.0.0.1 in a thread, stopped after: ``(base, app, server)``. ``sock``: a
    listening socket kept by the caller (a copy of it is served, so that another server can take
    it up after this one stops, the phones' address unchanged); else one on port 0."""
    from scorekeeper.web.serve import bind, make_server

    listening = bind("127.0.0.1", 0) if sock is None else sock.dup()
    port = listening.getsockname()[1]
    server, app = make_server(None, "127.0.0.1", listening, **options)
    server.config.install_signal_handlers = False  # not the main thread
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    eventually(lambda: server.started, "server started")
    try:
        yield f"http://127.0.0.1:{port}", app, server
    finally:
        server.should_exit = True
        thread.join(HANG)
        assert not thread.is_alive(), "the server did not stop"
