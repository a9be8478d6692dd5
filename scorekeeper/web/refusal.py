"""A refusal of the web companion's: its status and its one line (as the terminal would say it),
worded in the language of the phone that asked, sent as JSON, or as a page when a browser
navigates. No rule here, and nothing of the night."""

from __future__ import annotations

from html import escape
from typing import Any, Mapping

from starlette.responses import HTMLResponse, JSONResponse, Response

from .. import lang
from .spoken import spoken, with_said

LANG_HEADER = "x-hachi-lang"  # the language a page reads, sent with each of its requests
LANG_COOKIE = "hachi-lang"  # the language a phone chose on the page (kept for its pages' navigations)


class HttpError(Exception):
    """A refusal: the status and the one line said (as the terminal would say it). A message
    (:func:`~scorekeeper.lang.L_`) is worded in the language of the phone that asked, however
    and wherever it was made."""

    def __init__(self, status: int, message: str | lang.Said, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def request_language(headers: Mapping[str, str]) -> str:
    """The language of the phone that asks: its page's (the ``X-Hachi-Lang`` header), else the
    one it chose on the page (its ``hachi-lang`` cookie, for a navigation), else its
    ``Accept-Language``'s, else English."""
    from starlette.requests import cookie_parser

    told = [headers.get(LANG_HEADER)]
    if "cookie" in headers:
        told.append(cookie_parser(headers["cookie"]).get(LANG_COOKIE))
    for name in told:
        if name:
            try:
                return lang.named(name[:16])
            except lang.UnknownLanguage:
                pass
    return lang.from_accept_language(headers.get("accept-language", "")[:1024])


def refused_page(error: HttpError) -> str:
    """A refusal as a page: its one line in the language spoken now (the phone's), in the page's
    own style (``#gone`` when the links were made new, as the page shows it)."""
    ident = "gone" if error.extra.get("relinked") else "refused"
    return (f'<!doctype html>\n<html lang="{lang.current()}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer">'
            '<title>八八 hachi-score</title><link rel="icon" href="/static/icon.svg">'
            '<link rel="stylesheet" href="/static/style.css"></head>\n'
            f'<body data-refused="{error.status}"><header id="top"><h1>八八 <span id="title">hachi-score</span></h1></header>'
            f'<main><p class="problem" id="{ident}">{escape(spoken(error.message))}</p></main></body></html>\n')


def refuse(error: HttpError, headers: Mapping[str, str] | None = None, method: str = "GET") -> Response:
    """The refusal's one line: as JSON, or a page of it when a browser navigates (a link
    opened, the page reloaded), never raw JSON on a phone's screen."""
    headers = headers or {}
    navigating = headers.get("sec-fetch-mode") == "navigate" or (
        method == "GET" and "text/html" in headers.get("accept", ""))
    if navigating:
        return HTMLResponse(refused_page(error), status_code=error.status, headers={"Cache-Control": "no-store"})
    return JSONResponse({"error": spoken(error.message), **with_said(error.extra)}, status_code=error.status)
