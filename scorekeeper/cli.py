"""The `hachi-score` command: parse options, call the core, render, map errors to exit codes.

Every command is a fresh process at the table, so heavy modules (rich tables, the book, odds) are
imported inside the command that needs them, never at start-up.

Exit status (CONTRACT.md §6): 0 done; 1 the book can't be read or written, the lock timed out, or
the person aborted; 2 bad input. Errors are one line on standard error, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer
from typer.core import TyperGroup

try:  # typer 0.28 vendors click; the pin in pyproject.toml keeps this path
    from typer._click import exceptions as click
except ImportError:  # pragma: no cover - a typer that uses click itself
    import click  # type: ignore[no-redef]

from . import __version__

EXIT_OK, EXIT_BOOK, EXIT_INPUT = 0, 1, 2


class UserError(Exception):
    """An error for the person at the table: one line, an exit status."""

    def __init__(self, message: str, code: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.code = code


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    raise UserError(message, code)


def _error(message: str) -> None:
    print(f"hachi-score: {' '.join(str(message).split())}", file=sys.stderr)


class _OneLineErrors(TyperGroup):
    """Turns every failure into one line on standard error and the contract's exit status."""

    def main(self, args: Any = None, prog_name: Any = None, complete_var: Any = None,
             standalone_mode: bool = True, **extra: Any) -> Any:  # noqa: D102
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except UserError as e:
            _error(str(e))
            sys.exit(e.code)
        except click.NoArgsIsHelpError as e:
            print(e.ctx.get_help() if e.ctx else e.format_message())
            sys.exit(EXIT_OK)
        except click.UsageError as e:
            _error(e.format_message())
            sys.exit(EXIT_INPUT)
        except (click.Abort, typer.Abort, KeyboardInterrupt, EOFError):
            _error("aborted: nothing was saved")
            sys.exit(EXIT_BOOK)
        except click.ClickException as e:
            _error(e.format_message())
            sys.exit(e.exit_code)
        except BrokenPipeError:
            sys.exit(EXIT_OK)
        except Exception as e:  # a bug: still one line, never a traceback
            if os.environ.get("HACHI_SCORE_DEBUG"):
                raise
            _error(f"internal error: {type(e).__name__}: {e} (set HACHI_SCORE_DEBUG=1 for details)")
            sys.exit(EXIT_BOOK)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)


app = typer.Typer(
    cls=_OneLineErrors,
    name="hachi-score",
    help="Score keeper for 八八 (Hachi-hachi), SDIN rules: score rounds, keep the night, settle up.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        print(f"hachi-score {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Score keeper for 八八 (Hachi-hachi), SDIN rules."""


# ---------------------------------------------------------------------------------------------
# reading round files


def read_json_arg(path: str, *, stdin_text: str | None = None) -> Any:
    """The JSON in a file, or in standard input for ``-``. Errors are :class:`UserError` (2)."""
    if path == "-":
        text = stdin_text if stdin_text is not None else sys.stdin.read()
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            fail(f"{path}: no such file")
        except IsADirectoryError:
            fail(f"{path}: is a directory, not a round file")
        except UnicodeDecodeError:
            fail(f"{path}: is not UTF-8 text")
        except OSError as e:
            fail(f"{path}: can't be read ({e.strerror})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{path}: broken JSON at line {e.lineno} column {e.colno}: {e.msg}")
    except RecursionError:
        fail(f"{path}: broken JSON: nested too deeply")


def score_file(path: str, stdin_text: str | None = None, **defaults: Any):
    """Read, check and score one round file; a bad one is a :class:`UserError` naming the file."""
    from .scoring import RoundError, score_dict

    data = read_json_arg(path, stdin_text=stdin_text)
    try:
        return score_dict(data, **defaults)
    except RoundError as e:
        fail(f"{path}: {e}")


# ---------------------------------------------------------------------------------------------
# commands


@app.command()
def score(
    files: Annotated[list[str], typer.Argument(help="Round files (JSON); - reads standard input.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One compact JSON object per round, one per line.")
    ] = False,
) -> None:
    """Score round files and print each result. Never opens the book.

    All or nothing: if any file is bad, nothing goes to standard output, each bad file gets one
    line on standard error, and the exit status is 2.
    """
    stdin_text = sys.stdin.read() if "-" in files else None
    results, errors = [], []
    for path in files:
        try:
            results.append(score_file(path, stdin_text))
        except UserError as e:
            errors.append(str(e))
    if errors:
        for line in errors:
            _error(line)
        raise typer.Exit(EXIT_INPUT)
    if as_json:
        from .render import emit_json

        for result in results:
            emit_json(result.to_json())
        return
    from .render import console, round_view

    out = console()
    for path, result in zip(files, results):
        out.print(round_view(result, title=path))
        out.print()


@app.command()
def cards(
    as_json: Annotated[bool, typer.Option("--json", help="The cards as JSON.")] = False,
) -> None:
    """The reference table of all 48 cards: code, Japanese name, reading, points."""
    from .cards import DECK_COUNT, FACES

    if as_json:
        from .render import emit_json

        emit_json(
            [
                {"code": c.code, "month": c.month, "kind": c.kind.romaji, "points": c.points,
                 "ja": c.ja, "romaji": c.romaji, "count": DECK_COUNT[c]}
                for c in FACES
            ]
        )
        return
    from .notation import HELP
    from .render import cards_table, console

    out = console()
    out.print(cards_table())
    out.print(HELP, markup=False)


@app.command()
def odds(
    field: Annotated[
        Optional[str],
        typer.Option(
            "--field", metavar="CARDS", help='The six field cards, e.g. "1h 3r 8k 12k 5t 9k".'
        ),
    ] = None,
    hand: Annotated[
        Optional[str], typer.Option("--hand", metavar="CARDS", help="A seven-card hand to rate.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The report as one compact JSON object.")
    ] = False,
) -> None:
    """Exact odds of every 手役 and of the field class, counted over all deals.

    With --field the six cards leave the deck (hands are counted over the other 42); with --hand
    the hand's 手役 is named with how rare it is.
    """
    from .notation import CardError, parse_cards
    from . import odds as odds_mod

    def cards_of(option: str, text: str | None):
        if text is None:
            return None
        try:
            return parse_cards(text)
        except CardError as e:
            fail(f"{option}: {e}")

    try:
        report = odds_mod.odds(field=cards_of("--field", field), hand=cards_of("--hand", hand))
    except odds_mod.OddsError as e:
        fail(str(e))
    if as_json:
        print(json.dumps(report, ensure_ascii=False, separators=(",", ":")))
        return

    from rich.table import Table

    from .render import FIELD_READINGS, console

    def pct(row: dict[str, Any]) -> str:
        return f"{row['probability'] * 100:.3f} %"

    def one_in(row: dict[str, Any]) -> str:
        n = row["one_in"]
        return "–" if n is None else f"1 in {n:,.0f}" if n >= 100 else f"1 in {n:,.2f}"

    out = console()
    if "field" in report:
        f = report["field"]
        note = "  場四: the 親 redeals" if f["bashi"] else ""
        out.print(f"場札 field: {' '.join(f['cards'])}  {f['class']} ({FIELD_READINGS[f['class']]}) "
                  f"×{f['multiplier']}{note}")
    mine = report.get("hand", {}).get("teyaku", ...)
    title = f"手役 of a dealt hand: {report['hands']:,} hands from {report['deck']} cards"
    table = Table(title=title, show_edge=False)
    for col, right in [("手役", False), ("reading", False), ("文", True), ("hands", True),
                       ("probability", True), ("1 in N", True)]:
        table.add_column(col, justify="right" if right else "left")
    for row in report["teyaku"]:
        table.add_row(row["name"] or "none (役なし)", row["reading"] or "", str(row["mon"]),
                      f"{row['count']:,}", pct(row), one_in(row),
                      style="bold" if row["name"] == mine else None)
    any_row = report["any_teyaku"]
    table.add_row("any 手役", "", "", f"{any_row['count']:,}", pct(any_row), one_in(any_row))
    out.print(table)
    if "hand" in report:
        h = report["hand"]
        name = f"{h['teyaku']} ({h['reading']}) {h['mon']}文" if h["teyaku"] else "no 手役"
        out.print(f"hand {' '.join(h['cards'])}: {name}; {pct(h)} of hands ({one_in(h)}); "
                  f"worth at least as much: {pct(h['at_least'])} ({one_in(h['at_least'])})")
    if "field_odds" in report:
        fo = report["field_odds"]
        ft = Table(title=f"the field: {fo['total']:,} six-card fields", show_edge=False)
        for col, right in [("field", False), ("×", True), ("fields", True), ("probability", True),
                           ("1 in N", True), ("if not 場四", True)]:
            ft.add_column(col, justify="right" if right else "left")
        for cls, row in fo["classes"].items():
            ft.add_row(f"{cls} ({FIELD_READINGS[cls]})", str(row["multiplier"]),
                       f"{row['count']:,}", pct(row), one_in(row), pct(fo["classes_played"][cls]))
        b = fo["bashi"]
        ft.add_row("場四 (ばし) redeal", "", f"{b['count']:,}", pct(b), one_in(b), "")
        out.print(ft)
        out.print("Classes count every field, 場四 ones included; the last column leaves 場四 out.")


def main() -> None:
    """Console-script entry point."""
    if sys.stdout.encoding and sys.stdout.encoding.lower().replace("-", "") != "utf8":
        try:
            sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
            sys.stderr.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass
    app()
