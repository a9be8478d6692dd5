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
