"""The language a person reads: English or Japanese, chosen as a person's machine already says.

Every word for people goes through :func:`_` (or :func:`n_` where English has plural forms); a
table of words marks its entries with :func:`N_` and words them when used. The catalogs are the
standard library's gettext ``.mo`` files in ``scorekeeper/locale``, made by Babel from the ``.po``
beside them (``python scripts/catalogs.py``). English is the messages themselves: no catalog.

The language is chosen once per command (:func:`choose`): ``--lang``, else ``HACHI_SCORE_LANG``,
else the locale as gettext reads it, else English. It is held in a context variable, so that a
server wording each phone's request in that phone's language never mixes two. What scripts read
(``--json``, exit statuses, error codes, CONTRACT's keys) is never translated.
"""

from __future__ import annotations

import gettext
from contextvars import ContextVar, copy_context
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

T = TypeVar("T")

#: the languages spoken, the first the default
LANGS = ("en", "ja")
DOMAIN = "hachi-score"
LOCALEDIR = Path(__file__).with_name("locale")
#: where gettext looks for the locale, in its order (the first one set decides)
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
ENV = "HACHI_SCORE_LANG"

_NONE = gettext.NullTranslations()
_loaded: dict[str, gettext.NullTranslations] = {"en": _NONE}
_words: ContextVar[gettext.NullTranslations] = ContextVar("hachi_score_words", default=_NONE)
_lang: ContextVar[str] = ContextVar("hachi_score_lang", default="en")


class UnknownLanguage(ValueError):
    """A language asked for by name that is not spoken here."""


def _(message: str) -> str:
    """``message`` in the current language."""
    return _words.get().gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that fits ``n``, in the current language."""
    return _words.get().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """``message`` as it is: marks a table's entry for the catalogs, worded with :func:`_` when used."""
    return message


class Said(str):
    """A message worded in the language spoken when it was made, that remembers its English
    template (the catalogs' msgid) and its arguments (text, numbers, lists, or other messages):
    a phone words it again in its own language from :meth:`to_json`. It is a ``str`` wherever
    text is wanted (an error line, a comparison, ``json.dumps``)."""

    template: str
    args: tuple[tuple[str, Any], ...]

    def __new__(cls, template: str, args: Any = ()) -> "Said":
        pairs = tuple(args.items()) if isinstance(args, Mapping) else tuple(args)
        self = super().__new__(cls, word(template, pairs))
        self.template, self.args = template, pairs
        return self

    def to_json(self) -> dict[str, Any]:
        return {"t": self.template, "args": {k: as_json(v) for k, v in self.args}, "text": str(self)}

    def __reduce__(self):  # a copy or a pickle is the same message
        return (Said, (self.template, self.args))


def L_(template: str, **args: Any) -> Said:
    """``template`` worded with ``args``, remembering both (:class:`Said`); marks it for the catalogs."""
    return Said(template, args)


def noted(text: Any, note: Any) -> str:
    """``text (note)``: a note in brackets after ``text``, as the language writes it (Japanese:
    ``text（note）``, full-width brackets, no space), so that no line mixes the two kinds."""
    return _("{text} ({note})").format(text=text, note=note)


def word(template: str, args: Any = ()) -> str:
    """``template`` in the current language, with ``args`` (pairs or a mapping) worded into it:
    a message as its words, a list joined as the language joins one."""
    pairs = args.items() if isinstance(args, Mapping) else args
    return _(template).format(**{k: worded(v) for k, v in pairs})


def worded(value: Any) -> Any:
    """An argument as it goes into a message: a message worded, a list joined, the rest as it is."""
    if isinstance(value, Said):
        return word(value.template, value.args)
    if isinstance(value, (list, tuple)) and not hasattr(value, "to_json"):
        return _(", ").join(str(worded(v)) for v in value)
    if hasattr(value, "to_json"):
        return str(value)
    return value


def as_json(value: Any) -> Any:
    """An argument as a page reads it: a message as its template and arguments, a list of them."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value


def message_of(error: Any) -> Any:
    """An error's one line as it was made: its :class:`Said` where it was worded from a template
    (so that it can be worded again, in English for a script or in a phone's language), else its
    text; anything that is not an error is returned as it is."""
    if not isinstance(error, BaseException):
        return error
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Said) else str(error)


#: the characters of typed text an error line shows: a pasted megabyte stays one short line
ECHO_MAX = 40


def echo(text: str, limit: int = ECHO_MAX, shown: Callable[[str], str] = str) -> Any:
    """Typed text (a name, a token, a key) as an error line shows it (``shown``): whole, or its
    first ``limit`` characters, "…" and its length (a message, worded where it is read)."""
    if len(text) <= limit:
        return shown(text)
    return L_("{start}… ({length:,} characters)", start=shown(text[:limit]), length=len(text))


def quote(value: Any, limit: int = ECHO_MAX) -> Any:
    """``repr(value)`` for an error line (``'Aki'``), cut short as :func:`echo` cuts text; a
    value that is not text is cut after ``limit`` characters of its repr."""
    if isinstance(value, str):
        return echo(value, limit, repr)
    text = repr(value)
    return text if len(text) <= limit + 2 else text[: limit + 1] + "…" + text[-1]


def in_language(language: str, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` done in ``language``, in a context of its own: the language spoken here
    is left as it was."""

    def run() -> T:
        use(language)
        return work(*args)

    return copy_context().run(run)


def in_english(work: Callable[[], T]) -> T:
    """``work()`` done in English, whatever the language spoken now."""
    return in_language(LANGS[0], work)


def english(value: Any) -> str:
    """A message as English says it, whatever the language spoken: what a script reads
    (``--json``) never changes with it. ``value`` is a :class:`Said`, a message with
    ``to_json`` (``words.Msg``), their JSON (``{"t": …, "args": …}``), a list of them, or text."""
    return in_english(lambda: str(worded(_from_json(value))))


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and "t" in value:
        return Said(value["t"], {k: _from_json(v) for k, v in (value.get("args") or {}).items()})
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


#: how a list of names or yaku is joined (", " in English)
_LIST_JOIN = N_(", ")


def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (read once per process)."""
    if lang not in LANGS:
        raise UnknownLanguage(lang)
    if lang not in _loaded:
        _loaded[lang] = gettext.translation(DOMAIN, LOCALEDIR, [lang], fallback=True)
    return _loaded[lang]


def use(lang: str, words: gettext.NullTranslations | None = None) -> None:
    """Speak ``lang`` from now on, in this context (``words``: a catalog of one's own, for tests)."""
    _words.set(words if words is not None else translations(lang))
    _lang.set(lang)


def current() -> str:
    """The language spoken now."""
    return _lang.get()


def named(text: str) -> str:
    """The language a name such as ``ja``, ``ja_JP.UTF-8``, ``en-GB`` or ``JA`` stands for."""
    code = text.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    if code not in LANGS:
        raise UnknownLanguage(text)
    return code


def from_locale(environ: Mapping[str, str]) -> str:
    """The locale's language as gettext reads it: the first of LANGUAGE, LC_ALL, LC_MESSAGES and
    LANG that is set decides, and a list (``fr:ja``) gives its first language spoken here, up to a
    ``C`` or ``POSIX``, where gettext stops (``C:ja`` is English); ``ja…`` is Japanese, any other
    (``C``, ``POSIX``, ``fr_FR``) English."""
    for var in LOCALE_VARS:
        value = environ.get(var, "")
        if value:
            for name in value.split(":"):
                if name in ("C", "POSIX"):
                    break
                try:
                    return named(name)
                except UnknownLanguage:
                    continue
            return LANGS[0]
    return LANGS[0]


def choose(flag: str | None, environ: Mapping[str, str]) -> str:
    """The language of a command: ``--lang``, else ``HACHI_SCORE_LANG``, else the locale, else
    English. A ``--lang`` or ``HACHI_SCORE_LANG`` that is not ``ja`` or ``en`` is
    :class:`UnknownLanguage` (the caller says which one it was)."""
    if flag is not None:
        return named(flag)
    if environ.get(ENV):
        return named(environ[ENV])
    return from_locale(environ)


def from_accept_language(header: str | None) -> str:
    """The language of a phone: the most preferred one of its ``Accept-Language`` spoken here,
    else English."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((header or "").split(",")):
        name, _sep, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _eq, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        try:
            lang = named(name)
        except UnknownLanguage:
            continue
        if q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, lang)
    return best[2] if best else LANGS[0]


def plurals(lang: str) -> dict[str, list[str]]:
    """Every plural message of ``lang``'s catalog: its English singular to its forms, in order
    (a page's own, beside :func:`catalog`)."""
    table = getattr(translations(lang), "_catalog", {})
    out: dict[str, list[str]] = {}
    for key, text in sorted((k, v) for k, v in table.items() if isinstance(k, tuple) and v):
        out.setdefault(key[0], []).append(text)
    return out


def catalog(lang: str) -> dict[str, str]:
    """Every message of ``lang``'s catalog that is translated: English to its words (a page's
    own catalog, handed to it by the server; English is empty: the messages are the words)."""
    words = translations(lang)
    table = getattr(words, "_catalog", {})
    return {k: v for k, v in table.items() if isinstance(k, str) and k and v}
