"""A CliRunner for tests that invoke the app hundreds of times.

typer's CliRunner builds the click command from the app on every ``invoke`` (about 30 ms: every
command's signature is inspected); this one builds it once. What runs is the same command object
``hachi-score`` runs, error handling included.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import typer.main
import typer.testing

from scorekeeper.cli import app

_COMMAND = None


def command():
    global _COMMAND
    if _COMMAND is None:
        _COMMAND = typer.main.get_command(app)
    return _COMMAND


class FastRunner(typer.testing.CliRunner):
    def invoke(self, app_: Any = app, args: Any = None, **kwargs: Any):  # type: ignore[override]
        cmd = command() if app_ is app else typer.main.get_command(app_)
        with mock.patch.object(typer.testing, "_get_command", lambda _: cmd):
            return super().invoke(app_, args, **kwargs)


def typed(lines) -> str:
    """Lines as a person types them at the prompts, each ended by Enter."""
    return "".join(f"{line}\n" for line in lines)


def checked_run(runner: typer.testing.CliRunner):
    """``run(*args, input=None, code=0)``: the app invoked through ``runner``, never a traceback,
    with exit status ``code``."""

    def run(*args: str, input: str | None = None, code: int = 0):
        result = runner.invoke(app, list(args), input=input)
        assert "Traceback" not in result.output, result.output
        assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
        return result

    return run


def one_line_error(result, code: int = 2) -> str:
    """The one line a refused command writes on standard error (status ``code``, no traceback)."""
    assert "Traceback" not in result.output
    assert result.exit_code == code, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hachi-score: "), result.stderr
    return lines[0]
