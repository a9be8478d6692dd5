"""The suite's own set-up: the README's test command is the one CI runs, with the plugins it needs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert block, "the README opens with no sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_opens_with_two_commands_the_second_runs_the_tests():
    commands = readme_commands()
    assert len(commands) == 2, commands
    assert commands[1].startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e \".[test]\" && ")
    assert commands[1].rpartition(" && ")[2].startswith("python -m pytest -q")


def test_ci_runs_the_readme_test_command():
    pytest_command = readme_commands()[1].rpartition(" && ")[2]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    runs = [line.split("#")[0].strip() for line in ci.splitlines() if line.lstrip().startswith("python -m pytest")]
    assert runs == [pytest_command], runs


def test_the_test_extras_bring_the_plugins_the_command_uses():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = {re.split(r"[<>=!~ \[]", req, maxsplit=1)[0] for req in extras["test"]}
    assert {"pytest", "pytest-randomly", "pytest-xdist"} <= names, names
