"""The command line's words: ``--lang`` listed on every command, the help of every command and
option worded when shown, click's and typer's own words (typer vendors click, whose messages are
English in its code), and help text laid out by display width where it holds Japanese (click
counts a character as one column and breaks lines only at spaces), as :mod:`scorekeeper.layout`
lays out every front's Japanese.

Imported by :mod:`scorekeeper.cli` at start-up: the standard library, typer's click,
:mod:`scorekeeper.lang` and :mod:`scorekeeper.layout` only.
"""

from __future__ import annotations

from typing import Any, Callable

import typer
import typer.core
from typer._click.core import Context as _ClickContext
from typer._click.formatting import HelpFormatter as _ClickFormatter
from typer._click.formatting import wrap_text as _click_wrap_text
from typer._types import TyperChoice as _Choice

from . import lang, layout
from .lang import N_, _


#: the option every command lists; :func:`scorekeeper.cli._take_lang` reads it before anything is parsed
_LANG_OPTION = typer.core.TyperOption(
    param_decls=["--lang"], type=_Choice(list(lang.LANGS)), expose_value=False,
    help=N_("The language for people: ja or en (default: HACHI_SCORE_LANG, else the locale)."),
)


#: click's placeholders in a usage line and beside an option, worded in the language spoken
_METAVARS = (N_("[OPTIONS]"), N_("COMMAND"), N_("[ARGS]"), N_("<str>"), N_("<int>"), N_("<float>"))


def _said(word: str) -> Callable[[Any], str]:
    return lambda _m: _(word)


def _placeholders(text: str) -> str:
    """``text`` with click's placeholders (``[OPTIONS]``, ``<float>`` …) in the language spoken."""
    import re

    for word in _METAVARS:
        text = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", _said(word), text)
    return text


class _Formatter(_ClickFormatter):
    """click's help formatter, with its own words ("Usage:", the help option's help) worded, and
    text that holds wide characters (Japanese) laid out by display width (:func:`_wrap`): click
    counts a character as one column and breaks lines only at spaces. Text of narrow characters
    only is laid out by click, as it always was."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:  # noqa: D102
        prefix = _("Usage: ") if prefix is None else prefix
        args = _placeholders(args)
        if not layout.has_wide(prefix + prog + args):
            return super().write_usage(prog, args, prefix)
        usage_prefix = f"{prefix:>{self.current_indent}}{prog} "
        text_width = self.width - self.current_indent
        if text_width >= layout.cols(usage_prefix) + 20:  # the arguments fit to the right of the prefix
            self.write(_wrap(args, text_width, usage_prefix, " " * layout.cols(usage_prefix)))
        else:
            self.write(usage_prefix + "\n")
            indent = " " * (max(self.current_indent, layout.cols(prefix)) + 4)
            self.write(_wrap(args, text_width, indent, indent))
        self.write("\n")

    def write_text(self, text: str) -> None:  # noqa: D102
        if not layout.has_wide(text):
            return super().write_text(text)
        indent = " " * self.current_indent
        self.write(_wrap(text, self.width, indent, indent, paragraphs=True) + "\n")

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:  # noqa: D102
        rows = [(_placeholders(term), _(text) if text else text) for term, text in rows]
        if not rows or not any(layout.has_wide(term + text) for term, text in rows):
            return super().write_dl(rows, col_max, col_spacing)
        # click's layout, measured in columns
        first_col = min(max(layout.cols(term) for term, _text in rows), col_max) + col_spacing
        for term, text in rows:
            self.write(f"{'':>{self.current_indent}}{term}")
            if not text:
                self.write("\n")
                continue
            if layout.cols(term) <= first_col - col_spacing:
                self.write(" " * (first_col - layout.cols(term)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = _wrap(text, max(self.width - first_col - 2, 10), paragraphs=True).splitlines() or [""]
            self.write(lines[0] + "\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n")


def _wrap(text: str, width: int, first: str = "", rest: str = "", paragraphs: bool = False) -> str:
    """click's ``wrap_text``, by display width where ``text`` holds wide characters: paragraphs
    (a blank line between) kept, each with its own indent; a ``\\b`` paragraph not rewrapped."""
    if not layout.has_wide(text + first + rest):
        return _click_wrap_text(text, width, first, rest, preserve_paragraphs=paragraphs)
    text = text.expandtabs()
    if not paragraphs:
        return layout.fill(layout.joined(text.splitlines()), width, first, rest)
    found: list[tuple[int, bool, str]] = []
    block: list[str] = []
    indent: int | None = None

    def end_block() -> None:
        if block:
            raw = block[0].strip() == "\b"
            found.append((indent or 0, raw, "\n".join(block[1:]) if raw else layout.joined(block)))
            block.clear()

    for line in text.splitlines():
        if not line:
            end_block()
            indent = None
            continue
        if indent is None:
            indent = layout.cols(line) - layout.cols(line.lstrip())
        block.append(line)
    end_block()
    out = []
    for extra, raw, body in found:
        pad = " " * extra
        if raw:
            out.append("\n".join((first if i == 0 else rest) + pad + line for i, line in enumerate(body.splitlines())))
        elif not layout.has_wide(body + first + rest):  # a paragraph of narrow characters, as click lays it out
            out.append(_click_wrap_text(body, width, first + pad, rest + pad))
        else:
            out.append(layout.fill(body, width, first + pad, rest + pad))
    return "\n\n".join(out)



def short_help(cmd: Any, limit: int) -> str:
    """A command's line in the list of commands: click's (its first sentence, or its first words
    and "..."), and in Japanese its first sentence (to 。) if it fits in ``limit`` columns, else
    as much of it as fits, cut between words, and "…"."""
    text = cmd.help or ""
    if cmd.short_help or lang.current() == lang.LANGS[0] or not layout.has_wide(text):
        return cmd.get_short_help_str(limit)
    import inspect

    first = layout.joined(inspect.cleandoc(text).partition("\f")[0].partition("\n\n")[0].splitlines())
    end = first.find("。")
    if end != -1 and layout.cols(first[: end + 1]) <= limit:
        return first[: end + 1]
    if layout.cols(first) <= limit:
        return first
    out, used = "", 0
    for unit, space in layout.units(first):
        gap = 1 if space and out else 0
        if used + gap + layout.cols(unit) > limit - 1:
            break
        out, used = out + " " * gap + unit, used + gap + layout.cols(unit)
    return out + "…"


class _Context(_ClickContext):
    formatter_class = _Formatter


#: typer's own words: typer.core words them with the gettext module's domain, which is not ours,
#: so it is handed ours; they are listed here for the catalogs
typer.core._ = _
_TYPER_WORDS = (N_("Usage: "), N_("Options"), N_("Arguments"), N_("Commands"), N_("default: {default}"),
                N_("required"), N_("env var: {var}"), N_("(dynamic)"), N_("Aborted!"), N_("Missing command."),
                N_("No such command {name!r}."), N_("Show this message and exit."))

#: click's own errors (typer vendors click, whose messages are English in its code): a pattern on
#: the English message, and its template, the English exactly click's; ``message`` and ``hint``
#: are worded in turn
_CLICK_WORDS = (
    (r"(?P<message>.+?)\.? Did you mean (?P<suggestions>.+)\?", N_("{message}. Did you mean {suggestions}?")),
    (r"No such option: (?P<name>.+?) \(Possible options: (?P<possible>.+)\)",
     N_("No such option: {name} (Possible options: {possible})")),
    (r"No such option: (?P<name>.+)", N_("No such option: {name}")),
    (r"(?P<message>Missing .+?\.) Choose from:\s+(?P<choices>.+)", N_("{message} Choose from:\n\t{choices}")),
    (r"Missing argument (?P<name>.+)\.", N_("Missing argument {name}.")),
    (r"Missing option (?P<name>.+)\.", N_("Missing option {name}.")),
    (r"Missing parameter (?P<name>.+)\.", N_("Missing parameter {name}.")),
    (r"Invalid value for (?P<hint>'[^']*'(?: / '[^']*')*(?: \(env var: '[^']*'\))?): (?P<message>.+)",
     N_("Invalid value for {hint}: {message}")),
    (r"Invalid value: (?P<message>.+)", N_("Invalid value: {message}")),
    (r"(?P<hint>'[^']*'(?: / '[^']*')*) \(env var: (?P<var>'[^']*')\)", N_("{hint} (env var: {var})")),
    (r"(?P<value>.+) is not a valid int\.", N_("{value} is not a valid int.")),
    (r"(?P<value>.+) is not a valid int range\.", N_("{value} is not a valid int range.")),
    (r"(?P<value>.+) is not a valid float\.", N_("{value} is not a valid float.")),
    (r"(?P<value>.+) is not a valid float range\.", N_("{value} is not a valid float range.")),
    (r"(?P<value>.+) is not in the range (?P<range>.+)\.", N_("{value} is not in the range {range}.")),
    (r"(?P<value>.+) is not one of (?P<choices>.+)\.", N_("{value} is not one of {choices}.")),
    (r"Option (?P<name>'[^']*') requires an argument\.", N_("Option {name} requires an argument.")),
    (r"Option (?P<name>'[^']*') requires (?P<n>\d+) arguments\.", N_("Option {name} requires {n} arguments.")),
    (r"Option (?P<name>'[^']*') does not take a value\.", N_("Option {name} does not take a value.")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra argument(s) ({args})")),
    (r"Got unexpected extra argument \((?P<args>.*)\)", N_("Got unexpected extra argument ({args})")),
    (r"Got unexpected extra arguments \((?P<args>.*)\)", N_("Got unexpected extra arguments ({args})")),
)


def click_said(message: str) -> str:
    """One of click's error messages in the language spoken (as it is where no pattern fits)."""
    import re

    for pattern, template in _CLICK_WORDS:
        found = re.fullmatch(pattern, message, re.S)
        if found:
            args = {k: click_said(v) if k in ("message", "hint") else v for k, v in found.groupdict().items()}
            return _(template).format(**args)
    return message


def word_help(cmd: Any) -> None:
    """List ``--lang`` and word the help of ``cmd`` and of every command under it in the language
    spoken now: typer fixes help texts when the app is made, in English (the catalogs' messages),
    which each one keeps, so that a command made once words its help again in another language."""
    for c in _commands_under(cmd):
        c.context_class = _Context
        c.params = [p for p in c.params if p is not _LANG_OPTION] + [_LANG_OPTION]
        for thing in (c, *(p for p in c.params if p is not _LANG_OPTION)):
            english = thing.__dict__.setdefault("_english_help", getattr(thing, "help", None))
            if english:
                thing.help = _(english)


def _commands_under(cmd: Any) -> list[Any]:
    out = [cmd]
    for sub in getattr(cmd, "commands", {}).values():
        out.extend(_commands_under(sub))
    return out
