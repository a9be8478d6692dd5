"""The `hachi-score` command: parse options, call the core, render, map errors to exit codes.

Every command is a fresh process at the table, so heavy modules (rich tables, the book, odds) are
imported inside the command that needs them, never at start-up.

Exit status (CONTRACT.md §6): 0 done; 1 the book can't be read or written, the lock timed out, or
the person aborted; 2 bad input. Errors are one line on standard error, never a traceback.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Callable, NoReturn, Optional

import typer
from typer.core import TyperGroup

# typer 0.28 vendors click (the pin in pyproject.toml keeps these paths)
from typer._click import exceptions as click

from . import __version__, lang
from .cli_words import click_said, short_help, word_help
from .lang import _, n_, quote

EXIT_OK, EXIT_BOOK, EXIT_INPUT = 0, 1, 2


class UserError(Exception):
    """An error for the person at the table: one line, an exit status."""

    def __init__(self, message: str, code: int = EXIT_INPUT) -> None:
        super().__init__(message)
        self.code = code


#: compact JSON, UTF-8 as itself (CONTRACT.md §4): one encoder, not one per line (and what it
#: encodes is a tree of plain values: no cycles to look for)
compact_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def emit_json(obj: Any) -> None:
    """One compact JSON line on standard output, written with plain print (CONTRACT.md §4)."""
    print(compact_json(obj))


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    raise UserError(message, code)


def _error(message: str) -> None:
    print(f"hachi-score: {' '.join(str(message).split())}", file=sys.stderr)


class _OneLineErrors(TyperGroup):
    """Turns every failure into one line on standard error and the contract's exit status, in the
    language chosen before anything is parsed (so that ``--help`` is worded in it too)."""

    def main(self, args: Any = None, prog_name: Any = None, complete_var: Any = None,  # type: ignore[override]
             standalone_mode: bool = True, **extra: Any) -> Any:  # noqa: D102
        try:
            args = _choose_language(list(sys.argv[1:] if args is None else args))
            word_help(self)
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()  # a full disk shows at the flush: inside, to be said in one line
        except UserError as e:
            _error(str(e))
            sys.exit(e.code)
        except click.NoArgsIsHelpError as e:
            try:
                print(e.ctx.get_help() if e.ctx else e.format_message(), flush=True)
            except OSError as write_error:
                _stdout_failed(write_error)
            sys.exit(EXIT_OK)
        except click.UsageError as e:
            _error(click_said(e.format_message()))
            sys.exit(EXIT_INPUT)
        except (typer.Abort, KeyboardInterrupt, EOFError):  # typer._click has no Abort: typer.Abort is it
            _error(_("aborted: nothing was saved"))
            sys.exit(EXIT_BOOK)
        except click.ClickException as e:
            _error(click_said(e.format_message()))
            sys.exit(e.exit_code)
        except OSError as e:
            if e.errno not in _STDOUT_ERRNOS:
                _bug(e)
            _stdout_failed(e)
        except Exception as e:  # a bug: still one line, never a traceback
            _bug(e)
        if rv == _CTRL_C:  # typer turns a Ctrl-C it catches into Exit(130), silently
            _error(_("aborted (Ctrl-C): nothing half done was saved"))
            sys.exit(EXIT_BOOK)
        sys.exit(rv if isinstance(rv, int) else EXIT_OK)

    def format_commands(self, ctx: Any, formatter: Any) -> None:  # noqa: D102
        # typer's, with each command's first line shortened by display width (short_help)
        commands = [(name, cmd) for name in self.list_commands(ctx)
                    for cmd in [self.get_command(ctx, name)] if cmd is not None and not cmd.hidden]
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _cmd in commands)
            with formatter.section(_("Commands")):
                formatter.write_dl([(name, short_help(cmd, limit)) for name, cmd in commands])


def _take_lang(args: list[str]) -> tuple[list[str], str | None]:
    """``args`` without their ``--lang X`` (or ``--lang=X``), wherever it is before a ``--``, and
    the last language given."""
    rest: list[str] = []
    flag = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            rest.extend(args[i:])
            break
        if a == "--lang":
            if i + 1 >= len(args):
                fail(_("Option '--lang' requires an argument."))
            flag = args[i + 1]
            i += 2
            continue
        if a.startswith("--lang="):
            flag = a[len("--lang="):]
        else:
            rest.append(a)
        i += 1
    return rest, flag


def _choose_language(args: list[str]) -> list[str]:
    """Speak the command's language (:func:`lang.choose`); ``args`` without ``--lang``."""
    args, flag = _take_lang(args)
    try:
        lang.use(lang.choose(flag, os.environ))
    except lang.UnknownLanguage as e:
        lang.use(lang.from_locale(os.environ))
        where = "--lang" if flag is not None else lang.ENV
        fail(_("{where}: {value} is not a language spoken here: ja or en").format(where=where, value=quote(str(e))))
    return args


#: the status typer gives a KeyboardInterrupt; no command of ours exits with it
_CTRL_C = 130

#: an OSError that reaches the top with one of these is standard output failing (a full disk, a
#: closed or broken descriptor): the book's own writes are BookErrors long before
_STDOUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF, errno.EPIPE})


def _bug(e: Exception) -> NoReturn:
    if os.environ.get("HACHI_SCORE_DEBUG"):
        raise e
    _error(_("internal error: {kind}: {error} (set HACHI_SCORE_DEBUG=1 for details)").format(
        kind=type(e).__name__, error=e))
    sys.exit(EXIT_BOOK)


def _stdout_failed(e: OSError) -> NoReturn:
    """Standard output can't be written. A reader that went away (``| head``, a broken pipe) ends
    it quietly with status 1, as typer, click and rich do when it shows in the middle of a write;
    a full disk or a closed descriptor is one line and status 1 (README, "Output")."""
    _quiet_stdout()
    if not isinstance(e, BrokenPipeError):
        _error(_("can't write to standard output: {problem}").format(problem=_strerror(e) or e))
    sys.exit(EXIT_BOOK)


def _strerror(e: OSError) -> str:
    """``e``'s text from the operating system, in the language spoken."""
    from .files import os_words

    return str(os_words(e))


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what is still
    buffered can't fail again (a second message, exit status 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real descriptor (a test runner's stand-in)
        pass


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
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
    db: Annotated[
        Optional[str],
        typer.Option("--db", metavar="PATH", help="The book's main file, for the command that follows "
                                                  "(as the command's own --db, which wins)."),
    ] = None,
) -> None:
    """Score keeper for 八八 (Hachi-hachi), SDIN rules."""
    if db is not None:
        if "\0" in db:
            fail(_("--db: {path!r} is not a file name (it holds a NUL byte)").format(path=db))
        # `hachi-score --db X summary`: the command's --db option reads HACHI_SCORE_DB, so the root's
        # --db stands in for it (a --db after the command name still wins), until the command ends.
        before = os.environ.get("HACHI_SCORE_DB")
        os.environ["HACHI_SCORE_DB"] = db

        def restore() -> None:
            if before is None:
                os.environ.pop("HACHI_SCORE_DB", None)
            else:
                os.environ["HACHI_SCORE_DB"] = before

        ctx.call_on_close(restore)


# ---------------------------------------------------------------------------------------------
# reading round files


def read_stdin() -> str:
    """Standard input as text; bytes that are not UTF-8 are a :class:`UserError` (2)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text-only stand-in (tests)
        return sys.stdin.read()
    try:
        return stream.read().decode("utf-8-sig")
    except UnicodeDecodeError as e:
        fail(_("-: standard input is not UTF-8 text (byte {byte})").format(byte=e.start))


def read_json_arg(path: str, *, stdin_text: str | None = None) -> Any:
    """The JSON in a file, or in standard input for ``-``. Errors are :class:`UserError` (2)."""
    from .files import json_words

    if path == "-":
        text: str | bytes = stdin_text if stdin_text is not None else read_stdin()
    else:
        try:
            with open(path, "rb", buffering=0) as f:  # unbuffered: one read, no buffer to fill
                text = f.readall()  # json reads bytes as UTF-8 (a BOM too), undecoded
        except FileNotFoundError:
            fail(_("{path}: no such file").format(path=path))
        except IsADirectoryError:
            fail(_("{path}: is a directory, not a round file").format(path=path))
        except OSError as e:
            fail(_("{path}: can't be read ({problem})").format(path=path, problem=_strerror(e)))
        except ValueError:  # a NUL byte in the name (only possible from inside Python)
            fail(_("{path!r}: is not a file name").format(path=path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(_("{path}: broken JSON at line {line} column {column}: {problem}").format(
            path=path, line=e.lineno, column=e.colno, problem=json_words(e)))
    except UnicodeDecodeError:
        fail(_("{path}: is not UTF-8 text").format(path=path))
    except RecursionError:
        fail(_("{path}: broken JSON: nested too deeply").format(path=path))
    except ValueError:  # a number too long to convert (sys.get_int_max_str_digits)
        fail(_("{path}: broken JSON: it holds a number too long to read").format(path=path))


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


RULES_HELP = "The rule profile: sdin (the default), fudawiki (alias traditional), or a house-rule FILE.toml."
RulesOption = Annotated[Optional[str], typer.Option("--rules", metavar="NAME|FILE", help=RULES_HELP)]


def resolve_rules(text: str | None):
    """A rule profile from the command line: a built-in name or alias, or a house-rule file
    (default sdin). A bad one is one line and status 2 (a file's: "FILE: KEY: problem")."""
    from .rules import SDIN

    if text is None:
        return SDIN
    from .house import resolve

    try:
        return resolve(text)
    except ValueError as e:
        fail(str(e))


class _HeldLines:
    """Output lines held until every input has checked out (all or nothing): UTF-8, in blocks of
    about 1 MiB, each full block moved to an unnamed temporary file, so a batch's output costs
    one block of memory. Where no temporary file can be made or written, the blocks stay in memory."""

    BLOCK = 1 << 20

    def __init__(self) -> None:
        self._sizes: list[int] = []  # the blocks moved out, in order
        self._kept: list[bytes] = []  # or kept, where no temporary file could be made
        self._file: Any = None  # None: not made yet; False: can't be
        self._open = bytearray()

    def add(self, line: str) -> None:
        self._open += line.encode("utf-8")
        self._open += b"\n"
        if len(self._open) >= self.BLOCK:
            self._seal()

    def _seal(self) -> None:
        block, self._open = bytes(self._open), bytearray()
        if self._file is None:
            import tempfile

            try:
                self._file = tempfile.TemporaryFile()
            except OSError:
                self._file = False
        if self._file and not self._kept:
            try:
                self._file.write(block)
                self._sizes.append(len(block))
                return
            except OSError:  # the disk is full: the blocks written stay, this one and the rest in memory
                pass
        self._kept.append(block)

    def __iter__(self):
        for text in self.texts():
            yield from text.split("\n")[:-1]  # not splitlines: U+2028 is no line end here

    def texts(self):
        """The lines, a block of them at a time, each line ended by a newline."""
        if self._file:
            self._file.seek(0)
            for size in self._sizes:
                yield self._file.read(size).decode("utf-8")
        for block in self._kept:
            yield block.decode("utf-8")
        if self._open:
            yield self._open.decode("utf-8")


@app.command()
def score(
    files: Annotated[list[str], typer.Argument(help="Round files (JSON); - reads standard input.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="One compact JSON object per round, one per line.")
    ] = False,
    rules_name: RulesOption = None,
) -> None:
    """Score round files and print each result. Never opens the book.

    All or nothing: if any file is bad, nothing goes to standard output, each bad file gets one
    line on standard error, and the exit status is 2.
    """
    defaults = {"rules": resolve_rules(rules_name)}
    stdin_text = read_stdin() if "-" in files else None
    results: list[Any] = []
    held = _HeldLines()
    errors = []
    for path in files:
        try:
            result = score_file(path, stdin_text, **defaults)
        except UserError as e:
            errors.append(str(e))
            continue
        if errors:
            continue  # nothing will be printed: keep nothing
        if as_json:  # the encoded line, not the Result: 20,000 files stay a few MiB
            held.add(compact_json(result.to_json()))
        else:
            results.append(result)
    if errors:
        for line in errors:
            _error(line)
        raise typer.Exit(EXIT_INPUT)
    if as_json:
        for text in held.texts():
            sys.stdout.write(text)
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
        emit_json(
            [
                {"code": c.code, "month": c.month, "kind": c.kind.romaji, "points": c.points,
                 "ja": c.ja, "romaji": c.romaji, "count": DECK_COUNT[c]}
                for c in FACES
            ]
        )
        return
    from .notation import help_text
    from .render import Phrases, cards_table, console

    out = console()
    out.print(cards_table())
    out.print(Phrases(help_text()))


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
    rules_name: RulesOption = None,
) -> None:
    """Exact odds of every 手役 and of the field class, counted over all deals.

    With --field the six cards leave the deck (hands are counted over the other 42); with --hand
    the hand's 手役 is named with how rare it is. Under fudawiki each group's best is counted, with
    every combination of Group A and Group B and how many hands are worth at least N kan.
    """
    from .notation import CardError, parse_cards
    from . import odds as odds_mod
    rules = resolve_rules(rules_name)

    def cards_of(option: str, text: str | None):
        if text is None:
            return None
        try:
            return parse_cards(text)
        except CardError as e:
            fail(f"{option}: {e}")

    try:
        report = odds_mod.odds(
            field=cards_of("--field", field), hand=cards_of("--hand", hand), rules=rules
        )
    except odds_mod.OddsError as e:
        fail(str(e))
    if as_json:
        emit_json(report)
        return

    from .render import console, odds_view

    console().print(odds_view(report))


@app.command("rules")
def rules_(
    name: Annotated[
        str,
        typer.Argument(
            metavar="[NAME|FILE]",
            help="sdin (the default), fudawiki (alias traditional), or a house-rule FILE.toml.",
        ),
    ] = "sdin",
    as_json: Annotated[
        bool, typer.Option("--json", help="The switches and every value (kan and 文) as one compact JSON object.")
    ] = False,
) -> None:
    """A rule profile's every value, in kan and 文, and its switches.

    Built-in profiles: sdin (the default) and fudawiki (alias traditional), both told in the
    README's "Rules". A house-rule FILE.toml names a base profile and changes what it lists
    (samples/house-kan12.toml is an example to copy); a bad one exits 2 with one line naming the
    file and the key. The table shows each value beside sdin's and marks (≠) what differs.
    """
    chosen = resolve_rules(name)
    if as_json:
        from .profile_view import rules_json

        emit_json(rules_json(chosen))
        return
    from .profile_view import profile_view
    from .render import console

    source = name if chosen.name != chosen.base else None
    console().print(profile_view(chosen, source=source))


# ---------------------------------------------------------------------------------------------
# the book and the session commands (CONTRACT.md §5)

DbOption = Annotated[
    Optional[str],
    typer.Option(
        "--db",
        envvar="HACHI_SCORE_DB",
        metavar="PATH",
        help="The book's main file (default: book.json in the user data directory).",
    ),
]
SessionArg = Annotated[
    Optional[str], typer.Argument(help="A session's id or name (default: the current session).")
]
SessionOption = Annotated[
    Optional[str],
    typer.Option("--session", metavar="SESSION", help="A session's id or name (default: the current one)."),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="One compact JSON object.")]


class _BookErrors:
    """Maps the book's errors to one line and the contract's status: 1 for the book, 2 for input.

    ``source`` (a round file's name) prefixes a bad round's message; ``after`` (called when an
    error is said) adds to it, such as where the answers typed are kept; ``passes``: the errors
    its caller handles itself.
    """

    def __init__(self, source: str | None = None, after: Callable[[], str] | None = None,
                 passes: tuple[type[BaseException], ...] = ()) -> None:
        self.source, self.after, self.passes = source, after, passes

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: Any, tb: Any) -> bool:  # type: ignore[exit-return]
        if error is None or isinstance(error, self.passes):
            return False
        from .round_draft import Incomplete
        from .questions import NotAsked, Refused
        from .scoring import RoundError
        from .errors import BookError, SessionError

        more = self.after() if self.after is not None else ""
        if isinstance(error, BookError):
            fail(f"{error}{more}", EXIT_BOOK)
        if isinstance(error, (SessionError, RoundError, Refused, NotAsked, Incomplete)):
            said = f"{self.source}: {error}" if self.source and isinstance(error, RoundError) else str(error)
            fail(f"{said}{more}")
        return False


def _open_book(db: str | None, *, creating: bool = False, listing: bool = False):
    """The book (``creating``: a command that may start one: new-session, import; ``listing``:
    see :func:`_book_path`)."""
    from .store import Book

    return Book.open(_book_path(db, creating=creating, listing=listing))


def _book_path(db: str | None, *, creating: bool = False, listing: bool = False) -> Path:
    """The book's main file. A command that only uses a book, given a path (``--db`` or
    HACHI_SCORE_DB) where there is none, says so and where it looked: a mistyped path is never
    taken for a new, empty book. It is refused (status 2), except by a command that only lists
    what a book holds (``listing``: sessions, stats, doctor), which says it on standard error and
    lists nothing, done (status 0, CONTRACT §5: a book not there yet is a new one, not an error;
    nothing is made there). At the default place, no book yet is no error."""
    from .store import book_path, no_book_at

    path = book_path(db)
    if not creating and db and no_book_at(path):
        line = _("no book at {path} (the path given by --db or HACHI_SCORE_DB): nothing was ever saved there. "
                 "A mistyped path? `hachi-score new-session NAME NAME NAME` starts a book there").format(path=path)
        if not listing:
            fail(line)
        _error(line)
    return path


def _print_summary(session: dict[str, Any], results: list[Any], as_json: bool, show_all: bool,
                   ended: bool = False) -> None:
    """``ended``: the night was ended on a phone (said, and ``"ended": true`` in the JSON)."""
    if as_json:
        from .night import summary_data
        emit_json({**summary_data(session, results), **({"ended": True} if ended else {})})
        return
    from .night_view import summary_view
    from .render import console

    out = console()
    out.print(summary_view(session, results, show_all=show_all))
    if ended:
        from .layout import Prose

        out.print(Prose(_("The night was ended on a phone: a phone's \"reopen the night\", or a round saved, plays on.")))


@app.command("new-session")
def new_session(
    players: Annotated[
        list[str], typer.Argument(metavar="NAME NAME NAME", help="The players in play order: 3 (sdin), or 3 to 7 (fudawiki; with seven, a 白札 sits one out each round).")
    ],
    name: Annotated[
        Optional[str], typer.Option("--name", help="The session's name (default: today's date).")
    ] = None,
    dealer: Annotated[
        Optional[str], typer.Option("--dealer", help="The first 親, as the prompts take it: a name (any case), "
                                                     "its start, or its number (default: the first player).")
    ] = None,
    rounds: Annotated[
        int,
        typer.Option("--rounds", help="Planned length: 12 (a year) or 6 (a half game). Never stops a round."),
    ] = 12,
    rate: Annotated[
        Optional[float], typer.Option("--rate", help="Money per 文, to show the settlement in money.")
    ] = None,
    rules: RulesOption = None,
    db: DbOption = None,
) -> None:
    """Start a session (a night) and make it current.

    The session keeps its rule profile (--rules: sdin, the default; fudawiki, alias
    traditional; or a house-rule FILE.toml) with every value, so it scores the same after the
    file is edited or gone.
    """
    profile = resolve_rules(rules)
    with _BookErrors():
        book = _open_book(db, creating=True)
        sid = book.new_session(players, name=name, dealer=dealer, rounds=rounds, rate=rate, rules=profile)
        session = book.session(sid)
    print(_("session {sid} {name!r}: {players}; first 親 {dealer}; {rounds} rounds; rules {rules} "
            "({kan}文 a 貫). It is now current.").format(
        sid=sid, name=session["name"], players=lang.worded(session["players"]), dealer=session["dealer"],
        rounds=session["planned_rounds"], rules=profile.name, kan=profile.kan))


# -- interactive entry: `round` and `edit N` without --file (scorekeeper.entry) ----------------


def _entry(form: Any, to_stderr: bool = False, **options: Any) -> Any:  # noqa: D103
    """The question-by-question flow on the terminal over ``form``; Tab completes cards where
    stdin is one."""
    from .entry import RoundEntry, enable_tab_completion
    from .render import console

    stream = sys.stderr if to_stderr else sys.stdout  # with --json, the dialogue goes to stderr
    typed = sys.stdin is not None and sys.stdin.isatty()

    def ask(prompt: str) -> str:
        prompt = _fitted(prompt, stream)
        if typed and not to_stderr:
            return input(prompt)  # readline: line editing, history, Tab
        print(prompt, end="", file=stream, flush=True)
        if sys.stdin is None or sys.stdin.closed:  # standard input closed (<&-): the end of input
            raise EOFError
        line = input()
        if not typed:  # answers from a pipe or a file: echoed, so the dialogue reads as typed
            print(line, file=stream, flush=True)
        return line

    g = form.givens
    entry = RoundEntry(g.players, g.dealer, ask, console(stderr=to_stderr), form=form, **options)
    if typed:
        enable_tab_completion(entry)
    return entry


def _open_night(db: str | None, session: str | None = None) -> Any:
    """The session (default the current one) as a :class:`~scorekeeper.flows.Night`."""
    from .flows import Night

    with _BookErrors():
        return Night.open(_book_path(db), session)


def _bad_rounds(night: Any) -> None:
    """After a reader has shown what it can: a round that no longer scores is the book's damage
    (status 1), named with its file and number."""
    from .files import damaged

    bad = night.bad
    if bad:
        n = min(bad)
        more = n_("; {n} more round too (see doctor)", "; {n} more rounds too (see doctor)",
                  len(bad) - 1).format(n=len(bad) - 1) if len(bad) > 1 else ""
        fail(str(damaged(Path(night.session["file"]),
                         _("{problem} (edit {number} replaces it){more}").format(problem=bad[n], number=n, more=more))),
             EXIT_BOOK)


def _draft_form(rd: Any, out: Any) -> Any:
    """The round being typed as the entry's form: every answer kept as it is typed. A draft that
    can't be kept (a full disk, another terminal typing into it) is said once, and where it went
    when the book's folder can't be written."""
    from .errors import DraftConflict

    said: dict[str, Any] = {"where": None}

    def notice(e: Exception) -> None:
        if isinstance(e, DraftConflict):
            out.print("  " + _("(draft: {problem}; these answers are not kept)").format(problem=e), style="yellow")
        else:
            out.print("  " + _("(draft: can't be kept: {problem})").format(problem=e), style="yellow")

    def kept(where: Path) -> None:
        if where != said["where"] and not rd.beside_book:
            out.print("  " + _("(answers kept in {where}: the book's folder can't be written)").format(where=where),
                      style="dim", soft_wrap=True)
        said["where"] = where

    return rd.form(notice, kept)


def _run_entry(entry: Any, rd: Any, db: str | None, *, again: bool = False) -> Any:
    """The entry run (``again``: its confirm asked again); stopped (Ctrl-C, end of input, "no"),
    the answers stay in the draft. Thrown away by another writer meanwhile: said, with the way
    back, and nothing more is asked."""
    from .entry import Aborted
    from .errors import SavedElsewhere
    from .round_draft import ThrownAway

    try:
        return entry.again() if again else entry.run()
    except SavedElsewhere as e:
        _taken(e, db, rd.night.sid, entry.out)
    except ThrownAway as e:
        fail(str(e), EXIT_BOOK)
    except Aborted:
        where = rd.where
        if where is not None:  # an edit's answers are thrown away where they are resumed: `round --discard` is the next round's
            entry.out.print(_("the answers typed are kept in {where}: `hachi-score edit {number}` offers to resume "
                              "them, or to throw them away (answer discard)").format(where=where, number=rd.number)
                            if rd.kind == "edit" else
                            _("the answers typed are kept in {where}: `hachi-score round` offers to resume them "
                              "(`hachi-score round --discard` throws them away)").format(where=where),
                            style="yellow")
        fail(_("aborted: nothing was saved"), EXIT_BOOK)


def _save_entry(entry: Any, rd: Any, db: str | None, saving: Callable[[], Any], on_taken: Callable[[Any], Any],
                after: Callable[[], str]) -> Any:
    """The round typed at the terminal, saved once confirmed; answers typed on a phone or at another
    terminal after the confirm are said and the confirm asked again, never saved unseen."""
    from .errors import DraftConflict, RoundTaken, SavedElsewhere

    try:
        _run_entry(entry, rd, db)
        while True:
            try:
                with _BookErrors(after=after, passes=(DraftConflict, RoundTaken)):
                    return saving()
            except (SavedElsewhere, RoundTaken) as e:
                on_taken(e)
            except DraftConflict as e:
                entry.out.print("  " + str(e), style="yellow")
                _run_entry(entry, rd, db, again=True)
    finally:
        entry.form.leave()


def _no_edit_taken(e: BaseException) -> NoReturn:
    raise e


def _taken(e: Any, db: str | None, sid: str, out: Any) -> NoReturn:
    """The round being typed was saved meanwhile by another writer (:class:`SavedElsewhere`,
    :class:`RoundTaken`): each answer typed here that differs from it is named, then asked one by
    one, the saved one offered first; `edit N` takes only those chosen (every answer stays set
    aside either way). Nothing typed is dropped silently, and nothing saved is replaced unasked."""
    from .questions import said
    from .words import msg

    aside = e.aside
    if aside is None:
        fail(_("{problem}: it has every answer typed here").format(problem=e), EXIT_BOOK)
    _say_aside(out, aside, str(e))
    chosen: list[str] = []
    try:
        for key in aside.differences:
            question = str(msg("t.differs.saved", said=said(key), theirs=aside.saved.get(key) or "—",
                               mine=aside.mine.get(key) or "—"))
            while (word := _answer(_ask_line(question))) not in ("", "1", "2"):
                print(str(msg("t.differs.again")), file=sys.stderr)
            if word == "2":
                chosen.append(key)
    except EOFError:
        chosen = []
    if chosen:
        _edit_round(aside.number, db, False, resume=True, session=sid, keep=(chosen, aside.saved))
        raise SystemExit(EXIT_OK)
    fail(_("round {number} was left as saved; your answers are set aside").format(number=aside.number), EXIT_BOOK)


def _say_aside(out: Any, aside: Any, why: str | None = None) -> None:
    """Answers set aside, said: why, what, and each answer that differs, wrapped as the language
    breaks lines (no name cut)."""
    from .layout import Prose

    players = aside.players
    for line in ([why] if why else []) + [str(aside.said)]:
        out.print(Prose(line, "yellow", players))
    for line in aside.lines:
        out.print(Prose("  " + str(line), "", players))


def _take_draft(night: Any, kind: str, number: int | None, resume: bool, out: Any) -> tuple[Any, dict[str, str]]:
    """The round to type, and the answers to take again: this round's kept answers if the person
    resumes them (``--resume``: yes without asking), else a new draft beside them (they stay
    kept: another terminal may be typing them). Answers kept for a round saved meanwhile are set
    aside first, and said."""
    from .round_draft import RoundDraft

    for aside in RoundDraft.set_aside(night):
        _say_aside(out, aside)
    rd = RoundDraft.kept(night, kind, number)
    if resume and rd is None:
        other = RoundDraft.newest(night)
        fail(_("--resume: no answers are kept for this session") if other is None or other.kind == kind
             else _("--resume: the answers kept are for `hachi-score edit {number}`").format(number=other.number))
    if rd is None:
        other = RoundDraft.newest(night)
        if other is not None:
            what = f"edit {other.number}" if other.kind == "edit" else "round"
            out.print(_("(the answers kept since {time} for `hachi-score {command}` stay kept; "
                        "that command resumes them)").format(time=other.draft.updated[11:16], command=what),
                      style="yellow")
        return RoundDraft.begin(night, kind, number), {}
    count = len(rd.answers)  # "none" (Enter) is an answer typed too
    if rd.others_typing() and not resume:
        answer = _answer(_ask_line(_("{count} answers are typed for this round, and it is being typed now at another "
                                     "terminal: join it? What both type is merged, and an answer typed both ways is "
                                     "asked. [Y/n]: ").format(count=count)))
        if answer in _NO:
            fail(_("nothing was typed here: the other terminal goes on with this round"), EXIT_BOOK)
    elif not resume:
        answer = _answer(_ask_line(_("{count} answers typed for this round at {time} are kept ({where}). "
                                     "Resume them? [Y/n/discard]: ").format(
            count=count, time=rd.draft.updated[11:16], where=rd.where or "")))
        if answer in _DISCARD or answer in _NO:  # never left open beside the new one: the phones would type it
            with _BookErrors():
                rd.discard()
            if rd.kind == "round":
                out.print(_("(set aside: `hachi-score round --restore` brings them back)"), style="yellow")
            return RoundDraft.begin(night, kind, number), {}
    return rd, dict(rd.answers)


#: the answers to a yes/no question, as :func:`_answer` leaves them: y/n, the words, and Japanese
_YES = ("y", "yes", "はい")
_NO = ("n", "no", "いいえ")
_DISCARD = ("d", "discard", "破棄")


def _answer(line: str) -> str:
    """An answer as it is compared: full-width letters (ｙ, Ｎ) as their letters, lower case,
    without the spaces around it."""
    import unicodedata

    return unicodedata.normalize("NFKC", line).strip().lower()


def _fitted(prompt: str, stream: Any) -> str:
    """``prompt`` laid out at the width of the terminal ``stream`` is (as it is, when piped)."""
    if not (hasattr(stream, "isatty") and stream.isatty()):
        return prompt
    import shutil

    from .layout import on_terminal

    return on_terminal(prompt, shutil.get_terminal_size().columns)


def _ask_line(prompt: str) -> str:
    """One answer on standard error; one from a pipe is echoed, so the dialogue reads as typed.
    No standard input at all (closed: ``<&-``) is the end of input, an :class:`EOFError`. On a
    terminal, the question is laid out at its width (:func:`_fitted`): no word
    cut at the edge."""
    print(_fitted(prompt, sys.stderr), end="", file=sys.stderr, flush=True)
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    try:
        line = input()
    except RuntimeError:  # "input(): lost sys.stdin"
        raise EOFError from None
    if not sys.stdin.isatty():
        print(line, file=sys.stderr, flush=True)
    return line


def _discard_round(session: str | None, db: str | None, yes: bool) -> None:
    """`round --discard`: say what the answers kept come to, ask, and throw them away (they can
    be brought back with `round --restore` until the next round is saved)."""
    from .round_draft import RoundDraft
    from .words import msg

    night = _open_night(db, session)
    rd = RoundDraft.kept(night)
    if rd is None:
        print(_("no answers were kept for this session"))
        return
    what = str(rd.summary())
    if not yes and not _confirm(str(msg("d.ask", what=what))):
        fail(_("aborted: the answers are kept"), EXIT_BOOK)
    with _BookErrors():
        rd.discard()
    print(msg("d.done", what=what))


def _enter_round(session: str | None, db: str | None, as_json: bool, resume: bool, restore: bool = False) -> None:
    """`round` without --file: ask the round at the table, then save it if confirmed. Every
    answer is kept in the round's draft as it is typed; nothing reaches the book before yes. A
    round saved meanwhile by another writer is :func:`_taken`."""
    from .layout import Prose
    from .render import console
    from .round_draft import RoundDraft
    from .words import msg

    out = console(stderr=as_json)
    night = _open_night(db, session)
    if restore:
        with _BookErrors():
            back = RoundDraft.restore(night)
        out.print(str(msg("d.back", what=back.summary())), style="yellow")
        resume = True
    with _BookErrors():
        night.check_writable()  # before the first question, not after the last
    rd, answers = _take_draft(night, "round", None, resume, out)

    def kept() -> str:
        where = rd.where
        return _("; the answers are kept in {where}: `hachi-score round` resumes them").format(where=where) if where else ""

    out.print(Prose(night.header(), "bold", night.players))
    if night.ended:
        out.print(Prose(_("The night was ended on a phone: saving this round reopens it."), "yellow"))
    entry = _entry(_draft_form(rd, out), as_json, resume=answers)
    added = _save_entry(entry, rd, db, rd.save, lambda e: _taken(e, db, night.sid, out), kept)
    if not added.saved:
        if as_json:
            emit_json({"session": night.sid, "round": None, "saved": False, **added.result.to_json()})
        else:
            out.print(_("場四: redeal. {dealer} deals again; nothing was saved.").format(dealer=added.result.round.dealer))
        return
    _saved(night, added, as_json, out)


def _saved(night: Any, added: Any, as_json: bool, out: Any) -> None:
    """After a round is saved: its number, the standing; at the planned last round, the night."""
    if as_json:
        emit_json({"session": night.sid, "round": added.number, "saved": True, **added.result.to_json()})
        return
    from .night_view import settlement_view, standing_line
    from . import night as night_mod

    out.print(_("round {number} saved to session {sid}.").format(number=added.number, sid=night.sid))
    out.print(standing_line(night.session, added.results))
    if night_mod.at_planned_end(added.results, night.planned):
        out.print(_("that was the planned last round ({planned}): the night stands").format(planned=night.planned),
                  style="bold")
        out.print(settlement_view(night_mod.totals(added.results, night.players), night.session.get("rate"),
                                  night.rules.kan, results=added.results))


def _edit_round(number: int, db: str | None, rechain: bool, resume: bool = False, session: str | None = None,
                keep: tuple[list[str], dict[str, str]] | None = None) -> None:
    """`edit N` without --file: round N asked again, each answer pre-filled, then replaced
    (``resume``: the answers kept for it taken without asking; ``session``: another than the
    current one, the one the answers were typed in; ``keep``: of the answers set aside, only
    these keys taken, the others as saved)."""
    from .render import console

    out = console()
    night = _open_night(db, session)
    if not 1 <= number <= night.rounds:
        fail(_no_round(number, night.sid, night.rounds))
    with _BookErrors():
        night.check_writable(allow=number)
    rd, answers = _take_draft(night, "edit", number, resume, out)
    if keep is not None:  # the answers set aside that the person did not choose: as saved
        chosen, saved = keep
        for key in [k for k in answers if k not in chosen and answers[k] != saved.get(k, answers[k])]:
            with _BookErrors():
                rd.answer(key, saved[key], by=rd.me)
            answers[key] = saved[key]
    header = night.header(number)
    edited = header.replace(" · round", " · edit round")  # English; another language's header is named
    out.print(edited if edited != header else _("edit: {header}").format(header=header), style="bold")
    entry = _entry(_draft_form(rd, out), confirm=_("replace round {number}?").format(number=number),
                   resume=answers)
    with _BookErrors(_("round {number}").format(number=number),
                     after=lambda: _("; round {number} was left as it is").format(number=number)):
        done = _save_entry(entry, rd, db, lambda: rd.save(rechain=rechain), _no_edit_taken,
                           lambda: _("; round {number} was left as it is").format(number=number))
    _replaced(night, done, out)


def _no_round(number: int, sid: str, rounds: int) -> str:
    """Round ``number`` asked of a session with ``rounds`` rounds (not one of them)."""
    if rounds:
        return _("round {number}: session {sid} has rounds 1 to {last}").format(number=number, sid=sid, last=rounds)
    return _("round {number}: session {sid} has no rounds yet").format(number=number, sid=sid)


def _numbers(numbers: list[int]) -> str:
    """Round numbers as a list is joined in the language spoken."""
    return lang.worded([str(n) for n in numbers])


def _replaced(night: Any, done: Any, out: Any, *, title: bool = False) -> None:
    """What an edit changed: the round, the before/after of every round that changed, the 親
    chain breaks, the standing. The same at the prompt and by file."""
    from .entry import changes_view
    from .night_view import standing_line
    from .render import round_view

    n = done.number
    if title:
        out.print(round_view(done.after[n - 1], title=_("round {number} (edited)").format(number=n)))
    later = [c for c in done.changed if c != n]
    if done.changed:
        out.print(n_("round {number} replaced; results changed in round {rounds}",
                     "round {number} replaced; results changed in rounds {rounds}",
                     len(done.changed)).format(number=n, rounds=_numbers(done.changed)))
        if later:
            out.print(n_("re-scored: round {rounds} changed", "re-scored: rounds {rounds} changed",
                         len(later)).format(rounds=_numbers(later)))
        out.print(changes_view(night.players, done.before, done.after, done.changed))
    else:
        out.print(_("round {number} replaced; no result changed").format(number=n))
    _say_breaks(out, done.breaks)
    out.print(standing_line(night.session, done.after))


def _say_breaks(out: Any, breaks: list[int]) -> None:
    """The later rounds whose recorded 親 no longer follows the chain (CONTRACT §5)."""
    if breaks:
        out.print(n_("the 親 recorded for round {rounds} no longer follows the chain; kept as recorded "
                     "(edit --rechain moves every later 親 to follow it)",
                     "the 親 recorded for rounds {rounds} no longer follows the chain; kept as recorded "
                     "(edit --rechain moves every later 親 to follow it)", len(breaks)).format(rounds=_numbers(breaks)))


@app.command("round")
def round_(
    file: Annotated[
        Optional[str],
        typer.Option("--file", "-f", metavar="ROUND.json", help="A round file; - reads standard input."),
    ] = None,
    session: SessionOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The result as one compact JSON object, with its number.")
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Resume the answers kept for this session's round, without asking.")
    ] = False,
    discard: Annotated[
        bool, typer.Option("--discard", help="Throw away the answers kept for this session's round (asks; --yes: don't).")
    ] = False,
    restore: Annotated[
        bool, typer.Option("--restore", help="Bring back the round thrown away since the last round was saved, and resume it.")
    ] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --discard: don't ask.")] = False,
    db: DbOption = None,
) -> None:
    """Score a round and add it to the current session.

    Without --file, asks the round at the table question by question (? for help, back to go
    back), shows the result and saves it once confirmed. Only what the money needs is asked,
    and may be given short: the field by its 光 alone (=8h; = for none), a pile whose points pay
    by its count (=95), the stopper's pile by its 出来役's names (akatan). Every answer is kept as it is typed
    (in a draft beside the book): if the round can't be saved, or is stopped, the next `round`
    offers to resume it. --discard throws the answers away, saying what it throws away; --restore
    brings them back until the next round is saved. The file may leave out players (the
    session's) and dealer (the current 親). A 親 that is not the last round's winner is noted on
    standard error. A 場四 is shown and not saved.
    """
    if file is None:
        if sum((resume, discard, restore)) > 1:
            fail(_("--resume, --discard and --restore: give one of them"))
        if discard:
            _discard_round(session, db, yes)
            return
        _enter_round(session, db, as_json, resume, restore)
        return
    data = read_json_arg(file)
    night = _open_night(db, session)
    with _BookErrors(file):
        added = night.add_round(data)
    if not added.saved:  # 場四: shown, never saved
        if as_json:
            emit_json({"session": night.sid, "round": None, "saved": False, **added.result.to_json()})
        else:
            from .render import console, round_view

            console().print(round_view(added.result, title=_("場四: not saved")))
        return
    expected = night.chain_break(added.result, added.number)
    if expected is not None:
        _error(_("round {number}: its 親 {dealer} is not the last round's winner {expected} "
                 "(kept as written: who really dealt)").format(
            number=added.number, dealer=added.result.round.dealer, expected=expected))
    if as_json:
        emit_json({"session": night.sid, "round": added.number, "saved": True, **added.result.to_json()})
        return
    from .night_view import standing_line
    from .render import console, round_view

    out = console()
    out.print(round_view(added.result, title=_("round {number}").format(number=added.number)))
    out.print(standing_line(night.session, added.results))


@app.command()
def summary(
    session: SessionArg = None,
    as_json: JsonFlag = False,
    show_all: Annotated[bool, typer.Option("--all", help="Every round in the table, not the last 12.")] = False,
    image: Annotated[Optional[str], typer.Option(
        "--image", metavar="FILE.png",
        help="Also write the night's end as a picture for a chat, as the phones draw it (needs Pillow: hachi-score[image]).")] = None,
    db: DbOption = None,
) -> None:
    """Standings in 文 and 貫, the rounds, a trend per player and the settlement.

    A stored round that no longer scores is marked and counts nothing; the rest is shown, and
    the status is 1 with a line naming it (`edit N` replaces it)."""
    night = _open_night(db, session)
    if image is not None:
        _write_image(night, image)
    _print_summary(night.session, night.results, as_json, show_all, night.ended)
    _keep_digest(night.book, night.sid)
    _bad_rounds(night)


def _write_image(night: Any, output: str) -> None:
    """The night's end drawn (:mod:`scorekeeper.night_image`) and written atomically to ``output``."""
    from .errors import BookError
    from .files import atomic_write
    from .night_end import end_figures
    from .night_image import NoFont, NoPillow, draw_end

    _output_path("--image", output)
    try:
        png = draw_end(end_figures(night.summary()))
    except (NoFont, NoPillow) as e:
        fail(str(e))
    try:
        atomic_write(Path(output), png, backup=False)
    except BookError as e:
        fail(str(e), EXIT_BOOK)
    print(_("wrote the picture to {path}").format(path=output), file=sys.stderr)


def _keep_digest(book: Any, sid: str) -> None:
    """Bring the session's digest up to date if it is stale (a session edited by an older
    release): derived data, so nothing that goes wrong here is the command's failure."""
    try:
        book.digest(sid)
    except Exception:
        pass


#: sessions listed without --all
LATEST_SESSIONS = 20


@app.command()
def sessions(
    as_json: Annotated[bool, typer.Option("--json", help="The list as one compact JSON array.")] = False,
    show_all: Annotated[bool, typer.Option("--all", help=f"Every session, not the latest {LATEST_SESSIONS}.")] = False,
    db: DbOption = None,
) -> None:
    """The book's latest sessions (--all: every one): name, date, players, rounds; the current one marked *."""
    from .store import no_book_at

    with _BookErrors():
        book = _open_book(db, listing=True)
        rows = book.sessions(with_rounds=True, latest=None if show_all else LATEST_SESSIONS)
        count = book.session_count()
        current = book.current_id()
    if as_json:
        emit_json([{**row, **({"error": lang.english(row["error"])} if "error" in row else {}),
                    "current": row["id"] == current} for row in rows])
    elif not rows:
        if not (db and no_book_at(book.path)):  # a book path given where there is none: said already
            print(_("no sessions yet in {path}: start one with `hachi-score new-session NAME NAME NAME`").format(
                path=book.path))
    else:
        from .night_view import sessions_view
        from .render import console

        out = console()
        out.print(sessions_view(rows, current))
        if count > len(rows):
            out.print(_("the latest {shown} of {count} sessions: `sessions --all` lists every one").format(
                shown=len(rows), count=count))
    damaged = [row["error"] for row in rows if "error" in row]
    if damaged:
        fail(damaged[0], EXIT_BOOK)


@app.command()
def use(
    session: Annotated[str, typer.Argument(help="A session's id or name.")],
    db: DbOption = None,
) -> None:
    """Make a session current."""
    from .index import no_session
    from .store import no_book_at

    with _BookErrors():
        book = _open_book(db)
        if no_book_at(book.path):  # the default place, no book yet: nothing is made there (not even a lock)
            fail(str(no_session(session, book.path)))
        sid = book.use(session)
        name = book.row(sid)["name"]
    print(_("session {sid} {name!r} is now current").format(sid=sid, name=name))


@app.command()
def show(
    number: Annotated[int, typer.Argument(metavar="N", help="The round's number, from 1.")],
    session: SessionOption = None,
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Round N in full: its cards, every yaku with its value, the payments."""
    night = _open_night(db, session)
    stored, results = night.session, night.results
    if not 1 <= number <= len(results):
        fail(_no_round(number, stored["id"], len(results)))
    record, result = stored["rounds"][number - 1], results[number - 1]
    if as_json:
        emit_json({"session": stored["id"], "round": number, "rules": result.rules.name,
                   "file": record["round"], **result.to_json(),
                   **({"problem": lang.english(result.problem)} if result.problem else {})})
        _bad_rounds(night)
        return
    from .night_view import round_detail
    from .render import console

    console().print(round_detail(number, result, record))
    _bad_rounds(night)


def _confirm(question: str) -> bool:
    """A yes/no question on standard error, "no" by default; an answer from a pipe is echoed so
    that the error line that may follow starts on a line of its own."""
    try:
        answer = _ask_line(_("{question} [y/N] ").format(question=question))
    except EOFError:  # no answer is a "no"
        print(file=sys.stderr)
        return False
    except KeyboardInterrupt:  # the error line starts on a line of its own
        print(file=sys.stderr)
        raise
    return _answer(answer) in _YES


@app.command()
def undo(
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Don't ask: remove the last round.")] = False,
    db: DbOption = None,
) -> None:
    """Remove the current session's last round."""
    night = _open_night(db)
    count = night.rounds
    if count == 0:
        fail(_("session {sid} ({name}) has no rounds: nothing to undo").format(sid=night.sid, name=night.session["name"]))
    if not yes:
        from .night import round_said

        if not _confirm(_("remove round {number} of session {sid} ({round})?").format(
                number=count, sid=night.sid, round=round_said(night.results[-1]))):
            fail(_("aborted: round {number} was kept").format(number=count), EXIT_BOOK)
    with _BookErrors():
        night.undo(expect=count)
    print(_("removed round {number} of session {sid}; {left} rounds left, next 親 {dealer}").format(
        number=count, sid=night.sid, left=night.rounds, dealer=night.dealer))


@app.command()
def edit(
    number: Annotated[int, typer.Argument(metavar="N", help="The round's number, from 1.")],
    file: Annotated[
        Optional[str],
        typer.Option("--file", "-f", metavar="ROUND.json", help="The replacement round file; - reads standard input."),
    ] = None,
    rechain: Annotated[
        bool, typer.Option("--rechain", help="Move every later 親 to follow the new chain (a night typed in from notes).")
    ] = False,
    db: DbOption = None,
) -> None:
    """Replace round N of the current session; every later result is recomputed.

    Without --file, asks round N again with every answer pre-filled (Enter keeps it). The file may
    leave out players and dealer (round N's 親 stays). A later round keeps the 親 recorded for it
    (who really dealt); the rounds whose 親 no longer follows the chain are listed. With
    --rechain every later 親 moves to follow the new chain instead.
    """
    if file is None:
        _edit_round(number, db, rechain)
        return
    data = read_json_arg(file)
    night = _open_night(db)
    with _BookErrors(file):
        done = night.replace_round(number, data, rechain=rechain)
    from .render import console

    _replaced(night, done, console(), title=True)


@app.command()
def export(
    session: SessionArg = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON: players and round files (the default).")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="CSV: one row per round.")] = False,
    every: Annotated[
        bool, typer.Option("--all", help='Every session of the book, as {"sessions": [...]}: a whole book to import.')
    ] = False,
    output: Annotated[
        Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write to FILE, not standard output.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Write a session as JSON (to import again) or CSV (one row per round).

    --all writes every session of the book as one JSON object, {"sessions": [...]}, each night as
    --json writes it: `import` takes it into another book, skipping the nights that book holds.
    """
    if as_json and as_csv:
        fail(_("--json and --csv: choose one"))
    if every:
        if as_csv:
            fail(_("--all and --csv: a whole book is written as JSON only"))
        if session is not None:
            fail(_("--all and {session}: give a session or --all").format(session=quote(session)))
        _export_book(db, output)
        return
    night = _open_night(db, session)
    stored, results = night.session, night.results
    if as_csv:
        import csv
        import io

        from .night import csv_rows

        buffer = io.StringIO()
        buffer.write("\ufeff")  # UTF-8 with a BOM: a spreadsheet (Excel) then reads it as UTF-8
        csv.writer(buffer, lineterminator="\n").writerows(csv_rows(stored, results))
        text = buffer.getvalue()
    else:
        from .night import export_data

        text = json.dumps(export_data(stored), ensure_ascii=False, separators=(",", ":")) + "\n"
    _write_export(text, output, _("session {sid} ({rounds} rounds)").format(sid=stored["id"], rounds=len(results)))
    _bad_rounds(night)


def _export_book(db: str | None, output: str | None) -> None:
    """`export --all`: every session as `export --json` writes it. A session that can't be read
    writes nothing; one holding a round that no longer scores is written, then named (status 1)."""
    from .night import export_data, session_rules
    from .rules import stored_values

    damaged: dict[str, Any] = {}
    with _BookErrors():
        book = _open_book(db)
        nights = []
        sids = [row["id"] for row in book.sessions()]
        for sid in sids:
            stored = book.session(sid, kept=False)
            rules = session_rules(stored)  # a decade's nights share a profile or two: each read once
            nights.append(export_data(stored, rules, stored_values(rules)))
        book.digests(sids, damaged)  # replays a night, unless its digest vouches for these bytes
    bad = [str(damaged[sid]) for sid in sids if sid in damaged]
    text = json.dumps({"sessions": nights}, ensure_ascii=False, separators=(",", ":")) + "\n"
    rounds = sum(len(n["rounds"]) for n in nights)
    _write_export(text, output, n_("{n} session ({rounds} rounds)", "{n} sessions ({rounds} rounds)",
                                   len(nights)).format(n=len(nights), rounds=rounds))
    if bad:
        more = n_("; {n} more session too (see doctor)", "; {n} more sessions too (see doctor)",
                  len(bad) - 1).format(n=len(bad) - 1) if len(bad) > 1 else ""
        fail(bad[0] + more, EXIT_BOOK)


def _output_path(option: str, output: str) -> Path:
    """A file to write that a person named: in a folder that is there (a mistyped folder is
    never made, least of all at the root), and a file name. Else one line, status 2."""
    if "\0" in output:
        fail(_("{option}: {path!r} is not a file name").format(option=option, path=output))
    path = Path(output).expanduser()
    if not path.parent.is_dir():
        fail(_("{option}: there is no folder {folder}: nothing was written (make the folder first)").format(
            option=option, folder=path.parent))
    return path


def _write_export(text: str, output: str | None, what: str) -> None:
    """An export on standard output, or written atomically to ``output`` and said on standard error."""
    if output is None:
        sys.stdout.write(text)
        return
    from .errors import BookError
    from .files import atomic_write

    _output_path("-o", output)
    try:
        atomic_write(Path(output), text.encode("utf-8"), backup=False)
    except BookError as e:
        fail(str(e), EXIT_BOOK)
    print(_("wrote {what} to {path}").format(what=what, path=output), file=sys.stderr)


@app.command("import")
def import_(
    file: Annotated[str, typer.Argument(metavar="FILE", help="An exported session or book (JSON); - reads standard input.")],
    name: Annotated[Optional[str], typer.Option("--name", help="The new session's name.")] = None,
    db: DbOption = None,
) -> None:
    """Create a session from an exported JSON and make it current; every round is re-scored.

    A night the book holds already (the same players, profile and rounds), or one whose rounds
    begin with all of a held night's (or the reverse), is refused, so that no night is counted
    twice. A whole book (export --all) is taken all or nothing: each night held already is skipped
    and listed, and the last night imported becomes current.
    """
    from .errors import AlreadyHeld
    from .night import read_export
    from .scoring import RoundError

    data = read_json_arg(file)
    if isinstance(data, dict) and "sessions" in data:
        _import_book(file, data["sessions"], name, db)
        return
    try:
        checked = read_export(data)
    except RoundError as e:
        fail(f"{file}: {e}")
    with _BookErrors():
        book = _open_book(db, creating=True)
        try:
            sid = book.import_session(checked, name=name)
        except AlreadyHeld as e:
            fail(f"{file}: {e}")
        stored = book.session(sid)
    print(_("imported {rounds} rounds as session {sid} {name!r}. It is now current.").format(
        rounds=len(stored["rounds"]), sid=sid, name=stored["name"]))


def _import_book(file: str, nights: Any, name: str | None, db: str | None) -> None:
    """`import` of a whole book: every night checked first (a bad one imports nothing, and is named),
    then every night the book does not hold taken in one operation; the rest listed."""
    from .errors import AlreadyHeld, SessionError
    from .night import read_export
    from .scoring import RoundError

    if not isinstance(nights, list):
        fail(_("{file}: sessions: must be a list of exported nights").format(file=file))
    if name is not None:
        fail(_("--name: names one night; the nights of a whole book keep their own names"))
    checked = []
    for i, night in enumerate(nights, 1):
        try:
            checked.append(read_export(night))
        except RoundError as e:
            named = night.get("name") if isinstance(night, dict) else None
            fail(_("{file}: sessions[{i}]{name}: {problem}; nothing was imported").format(
                file=file, i=i, name=f" {named!r}" if isinstance(named, str) else "", problem=e))
    with _BookErrors():
        book = _open_book(db, creating=True)
        try:
            outcomes = book.import_sessions(checked)
        except SessionError as e:
            fail(_("{file}: {problem}; nothing was imported").format(file=file, problem=e))
    taken = [(night, sid) for night, sid in zip(checked, outcomes) if isinstance(sid, str)]
    for i, (night, outcome) in enumerate(zip(checked, outcomes), 1):
        if isinstance(outcome, AlreadyHeld):
            named = f" {night['name']!r}" if night["name"] else ""
            print(_("skipped sessions[{i}]{name}: {what}").format(i=i, name=named, what=outcome.what))
    if not taken:  # refused, as one night the book holds is (CONTRACT §5): status 2
        fail(_("imported none of the {count} nights of {file}: the book holds each of them; nothing was changed")
             .format(count=len(checked), file=file)
             if checked else _("{file} holds no night: nothing was imported").format(file=file))
    rounds = sum(len(night["rounds"]) for night, _ in taken)
    sids = [sid for _, sid in taken]
    last = book.row(sids[-1])
    named = ", ".join(sids) if len(sids) <= 6 else f"{sids[0]} … {sids[-1]}"  # a year of nights in one line
    print(_("imported {taken} of {count} nights ({rounds} rounds) as {sessions}; {sid} {name!r} is now current.")
          .format(taken=len(taken), count=len(checked), rounds=rounds, sessions=named, sid=last["id"], name=last["name"]))


@app.command()
def doctor(
    restore: Annotated[
        bool,
        typer.Option("--restore", help="Put back the last good copy (.bak) of each damaged file; "
                                       "the damaged bytes are moved aside, never deleted."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The report as one compact JSON object.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --restore: don't ask, even when a restore loses rounds.")] = False,
    db: DbOption = None,
) -> None:
    """Check the whole book: every file read, every round re-scored. Exit 0 if healthy, else 1.

    With --restore, each damaged file whose .bak is healthy is put back from it (the damaged
    file is kept beside it as FILE.damaged-DATE); a lost index is rebuilt from the sessions, and
    every index row is written right against its file. A .bak is one save older: what putting it
    back loses (the rounds added, removed or changed since, with their results; for a file that
    can't be read, that what it held beyond its .bak can't be listed) is said first, and asked
    about (--yes to skip; no answer is a no).
    """
    from .doctor import check, preview, restore as mend
    from .store import no_book_at

    with _BookErrors():
        path = _book_path(db, listing=True)
        if restore and not yes:
            with _progress(_("checking the book")) as progress:
                replaced, lost = preview(path, progress)
            if replaced:  # said and asked once the bar is gone, also when nothing is lost
                if lost:
                    print(_("--restore puts back files one save older:"), file=sys.stderr)
                    for line in lost:
                        print(f"  {line}", file=sys.stderr)
                else:
                    print(_("--restore puts back {files}; nothing is lost").format(files=lang.worded(replaced)),
                          file=sys.stderr)
                if sys.stdin is None or not _confirm(_("restore them?")):  # None: standard input closed
                    fail(_("aborted: nothing was restored"), EXIT_BOOK)
        with _progress(_("checking the book")) as progress:
            mending = restore and not no_book_at(path)  # no book: nothing to put back, no lock made for it
            report = mend(path, progress=progress) if mending else check(path, progress=progress)
    if as_json:
        emit_json(report.to_json())
    else:
        print("\n".join(report.lines()[:-1] if not report.healthy else report.lines()))
    if not report.healthy:
        fail(report.verdict(), EXIT_BOOK)


class _progress:
    """A rich progress bar on standard error while a long check runs, only when standard error
    is a terminal (none when piped or redirected); yields the callback ``(done, total)``."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Any:
        if not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.bar = Progress(TextColumn(self.what), BarColumn(), MofNCompleteColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        self.task = self.bar.add_task(self.what, total=None)
        return self.update

    def update(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc: Any) -> bool:  # type: ignore[exit-return]
        if self.bar is not None:
            self.bar.stop()
        return False


@app.command()
def stats(
    since: Annotated[Optional[str], typer.Option("--since", metavar="DATE", help="Only nights on or after DATE (YYYY-MM-DD).")] = None,
    until: Annotated[Optional[str], typer.Option("--until", metavar="DATE", help="Only nights on or before DATE (YYYY-MM-DD).")] = None,
    player: Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="Only nights NAME sat at.")] = None,
    rules_name: Annotated[Optional[str], typer.Option("--rules", metavar="NAME", help="Only nights under this rule profile.")] = None,
    as_json: JsonFlag = False,
    svg: Annotated[Optional[str], typer.Option("--svg", metavar="FILE", help="Also write the chart of standings as an SVG file.")] = None,
    db: DbOption = None,
) -> None:
    """A year of nights at a glance: standings, what the cards gave against the odds, 下げ, head to
    head and a chart, across every session (or those chosen). Profiles are never added together."""
    from datetime import date

    from .night import session_rules
    from .stats import aggregate, choose, teyaku_odds

    for option, value in (("--since", since), ("--until", until)):
        if value is not None:
            try:
                date.fromisoformat(value)
            except ValueError:
                fail(_("{option}: {value} is not a date (YYYY-MM-DD)").format(option=option, value=quote(value)))
    if rules_name is not None:
        from .rules import profile

        try:
            rules_name = profile(rules_name).name  # an alias (traditional) names its profile
        except ValueError:
            pass  # a house rule's name
    with _BookErrors():
        book = _open_book(db, listing=True)
        rows = choose(book.sessions(), since=since, until=until, player=player, rules=rules_name)
        nights = book.digests([row["id"] for row in rows])
        data = aggregate(nights, lambda night: teyaku_odds(session_rules(book.session(night["id"]))))
    if svg is not None:
        from .stats_view import chart_svg

        try:
            _output_path("--svg", svg).write_text(chart_svg(data), encoding="utf-8")
        except OSError as e:
            fail(_("{path}: can't be written ({problem})").format(path=svg, problem=_strerror(e)), EXIT_BOOK)
    if as_json:
        emit_json(data)
        return
    from .render import console
    from .stats_view import stats_view

    console().print(stats_view(data))


@app.command()
def serve(
    host: Annotated[Optional[str], typer.Option("--host", metavar="IP",
                                                help="The address to listen on (default: the laptop's LAN address).")] = None,
    port: Annotated[int, typer.Option("--port", metavar="N", min=0, max=65535,
                                      help="The port (0: any free one).")] = 8888,
    new_link: Annotated[bool, typer.Option("--new-link",
                                           help="Make the links new: every phone that joined before must scan the new code.")] = False,
    db: DbOption = None,
) -> None:
    """Serve the current session to the phones at the table: standings live, rounds entered by tapping.

    Prints a QR code and the links: the table link (players) and a view-only link (onlookers).
    The links stay the same from one start to the next (their secret is kept beside the book), so
    a phone that joined comes back by itself after a restart; --new-link sends everyone out.
    A round begun on the phones is the session's draft: `round` finishes it at the terminal, and
    the reverse. When `new-session` or `use` changes the current session, the phones follow it.
    Ctrl-C stops the server.
    """
    try:
        from .web.serve import serve as run
    except ImportError as e:  # pragma: no cover - an install without the web dependencies
        fail(_("serve needs starlette, uvicorn, segno and ifaddr ({module} is missing): pip install hachi-score")
             .format(module=e.name), EXIT_BOOK)
    _book_path(db)  # a book that is not there is said before anything is served
    with _BookErrors():
        run(db, host, port, fail=lambda message: fail(message, EXIT_BOOK), new_link=new_link)


@app.command()
def demo(
    as_json: JsonFlag = False,
    show_all: Annotated[bool, typer.Option("--all", help="Every round in the table.")] = False,
) -> None:
    """Replay the bundled 12-round night into a temporary book and show its summary.

    Never touches your book.
    """
    import tempfile
    from importlib.resources import files

    from .flows import Night
    from .store import Book

    night_dir = files("scorekeeper").joinpath("data", "night")
    rounds = sorted((f for f in night_dir.iterdir() if f.name.endswith(".json")), key=lambda f: f.name)
    with tempfile.TemporaryDirectory(prefix="hachi-score-demo-") as tmp, _BookErrors():
        book = Book.open(Path(tmp) / "book.json")
        # the night's name is data (--json keeps it as it is); people read it in their language
        name = "demo night" if as_json else _("demo night")
        night = Night(book, book.new_session(["Aki", "Ben", "Chie"], name=name, rate=10), load=False)
        for f in rounds:
            night.add_round(json.loads(f.read_text(encoding="utf-8")))
    _print_summary(night.session, night.results, as_json, show_all)


def _app_for(argv: list[str]) -> typer.Typer:
    """The app with only the command typed, when one is: typer inspects every command's
    signature on each start (about 20 ms for all of them), and a process runs just one."""
    from typer.main import get_command_name

    argv = _after_root_options(argv)
    typed = argv[0] if argv else ""
    chosen = [c for c in app.registered_commands
              if (c.name or get_command_name(c.callback.__name__)) == typed]  # type: ignore[union-attr]
    if not chosen:  # --help, --version, a typo: the whole app answers
        return app
    one = copy.copy(app)
    one.registered_commands = chosen
    return one


def _after_root_options(argv: list[str]) -> list[str]:
    """``argv`` from the command name on: the root's ``--db PATH`` (or ``--db=PATH``) skipped."""
    i = 0
    while i < len(argv):
        if argv[i] in ("--db", "--lang"):
            i += 2
        elif argv[i].startswith(("--db=", "--lang=")):
            i += 1
        else:
            break
    return argv[i:]


def main() -> None:
    """Console-script entry point."""
    if sys.stdout is None:  # started with standard output closed (`>&-`): nothing could be shown
        if sys.stderr is not None:
            try:
                lang.use(lang.choose(_take_lang(sys.argv[1:])[1], os.environ))
            except (lang.UnknownLanguage, UserError):
                pass
            _error(_("standard output is closed: nothing was done (send it to a file or /dev/null)"))
        sys.exit(EXIT_BOOK)
    if sys.stdout.encoding and sys.stdout.encoding.lower().replace("-", "") != "utf8":
        try:
            sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
            sys.stderr.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass
    _app_for(sys.argv[1:])()
