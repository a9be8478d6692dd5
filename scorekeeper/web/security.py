"""Who may do what on the web companion, on a shared Wi-Fi: the links' tokens and the devices'
signed cookies (:class:`Tokens`, their secrets kept beside the book: :func:`kept_secret`), wrong links
and forged cookies counted (:class:`RateLimit`), the checks every request passes (:func:`need`,
and for a write :func:`same_origin`: the CSRF header and the Origin / Sec-Fetch-Site), and the
Host allow-list and the security headers of every response (:class:`HostsAndHeaders`, an ASGI
middleware). The checks read the app's state: its ``tokens`` and its ``limiter``."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TYPE_CHECKING
from urllib.parse import urlsplit


from .. import lang
from ..files import os_words
from ..lang import L_, N_, _
from .refusal import HttpError, refuse, request_language

if TYPE_CHECKING:
    from starlette.requests import Request

COOKIE = "hachi"
MAX_COOKIE = 256  # a cookie of ours is ~80 characters: anything longer is not one
ROLES = ("table", "view")
KEY_SIZE = 32  # bytes of the cookies' key
LINKS_SIZE = 16  # bytes of the links' secret
RELINKED = N_("the table has a new link: scan the new code")
CSRF_HEADER = "x-hachi-csrf"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'")
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: sent with every response (and no CORS header: a handler's own are taken out)
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
           (b"cross-origin-resource-policy", b"same-origin")]


@dataclass
class Tokens:
    """The secrets of the table: the cookies' ``key`` and the ``links``' secret, both kept beside
    the book (:func:`kept_secret`), so that a restarted server prints the same links and takes the
    cookies it gave before. The links' tokens, the CSRF token and the cookies' ``generation`` are
    drawn from ``links`` (:meth:`drawn`): a new links' secret (``serve --new-link``) changes them
    all. A cookie reads ``ROLE.GENERATION.DEVICE.MAC``, a DEVICE id drawn for each login and MAC
    the HMAC-SHA256 of the rest under ``key``."""

    key: bytes = field(default_factory=lambda: secrets.token_bytes(KEY_SIZE), repr=False)
    links: bytes = field(default_factory=lambda: secrets.token_bytes(LINKS_SIZE), repr=False)
    table: str = field(init=False, repr=False)
    view: str = field(init=False, repr=False)
    csrf: str = field(init=False, repr=False)
    generation: str = field(init=False)

    def __post_init__(self) -> None:
        self.table, self.view, self.csrf = (self.drawn(name, 16) for name in ("table", "view", "csrf"))
        self.generation = self.drawn("generation", 9)

    def drawn(self, name: str, size: int) -> str:
        """The token ``name`` of these links: ``size`` bytes of the HMAC of its name under the
        links' secret, URL-safe."""
        digest = hmac.new(self.links, name.encode("ascii"), hashlib.sha256).digest()[:size]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def _mac(self, signed: str) -> bytes:
        digest = hmac.new(self.key, signed.encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=")

    def cookie(self, role: str) -> str:
        """A new cookie for one device, as ``role``."""
        signed = f"{role}.{self.generation}.{secrets.token_urlsafe(12)}"
        return f"{signed}.{self._mac(signed).decode('ascii')}"

    def holder(self, value: str) -> str:
        """Whose cookie ``value`` is: ``"table"`` or ``"view"`` (one given by these links),
        ``"relinked"`` (signed with this key, for links made new since), else ``"forged"``."""
        parts = value.split(".") if len(value) <= MAX_COOKIE and value.isascii() else []
        if len(parts) != 4 or parts[0] not in ROLES:
            return "forged"
        if not hmac.compare_digest(self._mac(".".join(parts[:3])), parts[3].encode("ascii")):
            return "forged"
        return parts[0] if parts[1] == self.generation else "relinked"

    @staticmethod
    def device(value: str) -> str:
        """The device a cookie was given to (its DEVICE id: read once :meth:`holder` vouched for it)."""
        return value.split(".")[2]


def beside(book_path: str | os.PathLike[str], suffix: str) -> Path:
    """``book`` + ``suffix`` beside ``book.json``."""
    p = Path(book_path)
    return p.with_suffix(suffix) if p.suffix else p.with_name(p.name + suffix)


def key_path(book_path: str | os.PathLike[str]) -> Path:
    """``book.serve-key`` beside ``book.json``: the key the cookies are signed with."""
    return beside(book_path, ".serve-key")


def links_path(book_path: str | os.PathLike[str]) -> Path:
    """``book.serve-links`` beside ``book.json``: the links' secret."""
    return beside(book_path, ".serve-links")


def kept_secret(path: Path, size: int, *, new: bool = False) -> bytes:
    """The secret of ``size`` bytes kept in ``path``, made the first time (or when ``new``): in
    hex, 0600, written whole to a temp file then linked into place, so that two servers starting
    at once share the first one's and no reader ever sees half a secret. A damaged one is
    replaced. OSError when it can be neither read nor made."""
    for _attempt in range(3):
        try:
            raw: bytes | None = None if new else path.read_bytes()
        except FileNotFoundError:
            raw = None
        if raw is not None:
            with contextlib.suppress(ValueError):
                secret = bytes.fromhex(raw.decode("ascii").strip())
                if len(secret) == size:
                    if path.stat().st_mode & 0o077:
                        os.chmod(path, 0o600)
                    return secret
        import tempfile

        secret = secrets.token_bytes(size)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)  # 0600
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(secret.hex().encode("ascii") + b"\n")
                f.flush()
                os.fsync(f.fileno())
            if raw is None and not new:
                try:
                    os.link(tmp, path)
                except FileExistsError:  # another server made it meanwhile: its secret is the one
                    continue
                except OSError:  # a file system without hard links (FAT)
                    os.replace(tmp, path)
            else:
                os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        with contextlib.suppress(OSError):
            folder = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        return secret
    raise OSError(_("{path}: changed by another process while it was read").format(path=path))


class RateLimit:
    """Wrong links and forged cookies from one client: ``limit`` within ``window`` seconds lock it
    out for ``lock`` seconds (minutes, never for good). The lock refuses only more wrong links and
    forged cookies: a right link, or a cookie this server gave, always gets in."""

    def __init__(self, limit: int = 10, window: float = 60.0, lock: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.lock, self.clock = limit, window, lock, clock
        self.bad: dict[str, list[float]] = {}
        self.until: dict[str, float] = {}

    def locked(self, client: str) -> bool:
        until = self.until.get(client)
        if until is not None and self.clock() >= until:
            del self.until[client]
            self.bad.pop(client, None)
            return False
        return until is not None

    def failed(self, client: str) -> None:
        now = self.clock()
        if len(self.bad) > 4096:  # many clients: forget those whose failures are all past the window
            for other in [c for c, seen in self.bad.items() if now - seen[-1] >= self.window and c not in self.until]:
                del self.bad[other]
        seen = [t for t in self.bad.get(client, []) if now - t < self.window] + [now]
        self.bad[client] = seen
        if len(seen) >= self.limit:
            self.until[client] = now + self.lock


def tokens_for(book_path: Path, new_link: bool = False) -> tuple[Tokens, list[str]]:
    """The table's secrets kept beside the book (``new_link``: the links made new, every phone
    told to scan the new code); secrets for this run alone when they can't be kept, and the notice
    that says so."""
    try:
        key = kept_secret(key_path(book_path), KEY_SIZE)
        return Tokens(key=key, links=kept_secret(links_path(book_path), LINKS_SIZE, new=new_link)), []
    except OSError as e:
        return Tokens(), [L_("hachi-score serve · the table's link and key can't be kept beside the book ({why}): "
                             "after a restart, every phone scans the new code", why=os_words(e))]


def client(request: Request) -> str:
    return request.client.host if request.client else "?"


def guessed(request: Request, message: str) -> HttpError:
    """A wrong link or a forged cookie: counted against the client, refused (429 once it is
    locked out)."""
    limiter = request.app.state.limiter
    if limiter.locked(client(request)):
        return HttpError(429, L_("too many wrong links from this device: wait a few minutes"))
    limiter.failed(client(request))
    return HttpError(403, message)


def need(request: Request, write: bool) -> str:
    """Whose cookie the request carries, ``"table"`` or ``"view"``, or a refusal: none, one of
    links made new since (told to scan the new code, never counted), a forged one (counted), the
    view link's for a write; a write comes from the page itself (:func:`same_origin`)."""
    value = request.cookies.get(COOKIE)
    if not value:
        raise HttpError(403, L_("open the link from the QR code first"))
    who = request.app.state.tokens.holder(value)
    if who == "relinked":  # this key's, for links made new since: told, never counted
        raise HttpError(403, lang.Said(RELINKED), relinked=True)
    if who == "forged":
        raise guessed(request, L_("this cookie is not this server's: open the link from the QR code"))
    if write and who != "table":
        raise HttpError(403, L_("this is the view-only link: it can't change the round"))
    if write:
        same_origin(request)
    return who


def device(request: Request) -> str:
    """The device of a request :func:`need` let in (the id in its cookie)."""
    return Tokens.device(request.cookies[COOKIE])


def same_origin(request: Request) -> None:
    """A write comes from the table's own page: its CSRF header, and an Origin or Sec-Fetch-Site
    of this server's."""
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(), request.app.state.tokens.csrf.encode()):
        raise HttpError(403, L_("missing or wrong X-Hachi-CSRF header: reload the page"))
    origin = request.headers.get("origin")
    site = request.headers.get("sec-fetch-site")
    if origin is None and site is None:
        raise HttpError(403, L_("a write needs an Origin or Sec-Fetch-Site header"))
    if origin is not None and origin != "null":
        parts = urlsplit(origin)
        if parts.netloc.lower() != request.headers.get("host", "").lower() or parts.scheme not in ("http", "https"):
            raise HttpError(403, L_("a write from another site ({origin}) is refused", origin=origin))
    elif origin == "null":
        raise HttpError(403, L_("a write from an opaque origin is refused"))
    if site is not None and site != "same-origin":
        raise HttpError(403, L_("a write from a {site} page is refused", site=site))


class HostsAndHeaders:
    """An ASGI middleware, around the whole app: each request's language (its refusals worded in
    it), a Host not in ``hosts`` (nor a localhost name) refused with a 421, and every response's
    security headers, any CORS header taken out."""

    def __init__(self, app: Any, hosts: set[str]) -> None:
        self.app = app
        self.allowed = {h.lower().strip("[]") for h in hosts} | LOCAL_NAMES

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        lang.use(request_language(headers))  # this request's task alone: its refusals in its phone's words

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                raw = [(k, v) for k, v in message.get("headers", []) if not k.lower().startswith(b"access-control-")]
                message = {**message, "headers": raw + HEADERS}
            await send(message)

        host = headers.get("host", "")
        name = host.rsplit(":", 1)[0] if not host.startswith("[") else host[1:].split("]")[0]
        if name.lower() not in self.allowed:
            refused = HttpError(421, L_("this server does not answer to {host!r}", host=host))
            await refuse(refused, headers, scope["method"])(scope, receive, with_headers)  # type: ignore[arg-type]
            return
        await self.app(scope, receive, with_headers)
