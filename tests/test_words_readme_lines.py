"""The READMEs quote a refused round file's line as the program prints it, in each language
(README.ja once showed 「teyku」 where the program prints "teyku")."""

from __future__ import annotations

from pathlib import Path

import pytest
from fast_cli import FastRunner

ROOT = Path(__file__).resolve().parents[1]
runner = FastRunner()


@pytest.mark.parametrize(("language", "readme"), [("en", "README.md"), ("ja", "README.ja.md")])
def test_the_readme_quotes_the_misspelt_key_line_as_printed(tmp_path, monkeypatch, language, readme):
    monkeypatch.chdir(tmp_path)
    Path("r.json").write_text('{"teyku": {}}', "utf-8")
    result = runner.invoke(args=["--lang", language, "score", "r.json"])
    assert result.exit_code == 2
    line = result.stderr.strip().removeprefix("hachi-score: ")
    assert line.startswith("r.json: ") and f"`{line}`" in (ROOT / readme).read_text("utf-8"), line
