"""Make the message catalogs with Babel: extract, update, compile; or check that they are whole.

    python scripts/catalogs.py          # the .pot from the code, the .po updated, the .mo compiled
    python scripts/catalogs.py --check  # exit 1, saying why, unless every message is translated
                                        # with its placeholders and the .mo is the .po compiled

The messages are every ``_()``, ``n_()`` and ``N_()`` in the package's Python and in the page's
JavaScript, and the help of every command, option and argument (typer takes it from docstrings
and ``help=``: read here from the command tree, as ``--help`` shows it). The ``.po`` files are
under version control and are where translations are written; the ``.mo`` beside each is what
the installed package reads (standard library gettext, no Babel at run time).
"""

from __future__ import annotations

import io
from datetime import datetime, timezone
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
LOCALE = PACKAGE / "locale"
DOMAIN = "hachi-score"
LANGS = ("ja",)
KEYWORDS = {"_": None, "n_": (1, 2), "N_": None, "L_": None}
#: the catalogs' header: fixed, so that making them again changes only what changed
HEADER = dict(project="hachi-score", version="0.1", copyright_holder="the hachi-score authors",
              msgid_bugs_address="", creation_date=datetime(2026, 12, 1, tzinfo=timezone.utc),
              revision_date=datetime(2026, 12, 1, tzinfo=timezone.utc),
              header_comment="# The messages of hachi-score, made by scripts/catalogs.py.\n")
METHODS = [("**/locale/**", "ignore"), ("**.py", "python"), ("web/static/**.js", "javascript")]


def _help_texts():
    """(text, where) for the help of every command, option and argument of the CLI."""
    sys.path.insert(0, str(ROOT))
    import typer.main

    from scorekeeper import cli

    def walk(cmd, path):
        if cmd.help:
            yield cmd.help, path
        for p in cmd.params:
            if getattr(p, "help", None):
                yield p.help, f"{path} {p.name}"
        for name, sub in sorted(getattr(cmd, "commands", {}).items()):
            yield from walk(sub, f"{path} {name}")

    yield from walk(typer.main.get_command(cli.app), "hachi-score")


def template() -> Catalog:
    """The catalog of every message, untranslated (the ``.pot``)."""
    pot = Catalog(domain=DOMAIN, fuzzy=False, **HEADER)
    for filename, _lineno, message, comments, context in extract_from_dir(
            PACKAGE, METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        pot.add(message, locations=[(f"scorekeeper/{filename}", None)], auto_comments=comments, context=context)
    for text, where in _help_texts():
        pot.add(text, locations=[(f"--help: {where}", None)])
    return pot


def _po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read(path: Path, lang: str) -> Catalog:
    if not path.exists():
        return Catalog(locale=lang, domain=DOMAIN, fuzzy=False, **HEADER)
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _write_po(cat: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_lineno=False, sort_output=False, ignore_obsolete=True)
    path.write_bytes(buf.getvalue())


def _mo_bytes(cat: Catalog) -> bytes:
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def make() -> None:
    """The .pot from the code; each .po brought up to it (new messages empty); each .mo compiled."""
    pot = template()
    _write_po(pot, LOCALE / f"{DOMAIN}.pot")
    for lang in LANGS:
        path = _po_path(lang)
        cat = _read(path, lang)
        cat.update(pot, no_fuzzy_matching=True)
        _write_po(cat, path)
        path.with_suffix(".mo").write_bytes(_mo_bytes(cat))


def _fields(text: str) -> set[str]:
    try:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"<not a format string>"}


def _entry(m) -> tuple:
    """A compiled message as a pair that can be compared (a plural's forms are a list)."""
    frozen = lambda v: tuple(v) if isinstance(v, list) else v
    return frozen(m.id), frozen(m.string)


def problems() -> list[str]:
    """What keeps the catalogs from being whole, a line each (empty: they are)."""
    out: list[str] = []
    pot = template()
    wanted = {m.id for m in pot if m.id}
    for lang in LANGS:
        path = _po_path(lang)
        cat = _read(path, lang)
        have = {m.id for m in cat if m.id}
        for mid in sorted(wanted - have, key=str):
            out.append(f"{lang}: not in {path.name}: {mid!r}")
        for mid in sorted(have - wanted, key=str):
            out.append(f"{lang}: in {path.name} but no longer in the code: {mid!r}")
        for m in cat:
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            if m.fuzzy or not all(strs):
                out.append(f"{lang}: untranslated: {ids[0]!r}")
                continue
            want = set().union(*(_fields(i) for i in ids))
            for s in strs:
                if _fields(s) != want:
                    out.append(f"{lang}: placeholders {sorted(_fields(s))} in {s!r}, not {sorted(want)} of {ids[0]!r}")
        mo = path.with_suffix(".mo")
        if not mo.exists():
            out.append(f"{lang}: {mo.name} is missing: python scripts/catalogs.py")
        else:
            with mo.open("rb") as f:
                compiled = {_entry(m) for m in read_mo(f) if m.id}
            with io.BytesIO(_mo_bytes(cat)) as f:
                expected = {_entry(m) for m in read_mo(f) if m.id}
            if compiled != expected:
                out.append(f"{lang}: {mo.name} is not {path.name} compiled: python scripts/catalogs.py")
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        found = problems()
        for line in found:
            print(line)
        sys.exit(1 if found else 0)
    make()
