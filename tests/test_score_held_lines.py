"""`score --json` holds its output as compressed UTF-8 lines until every file checked out."""

from __future__ import annotations

import json
from pathlib import Path

from fast_cli import FastRunner

from scorekeeper.cli import _HeldLines, app

runner = FastRunner()
SAMPLES = Path(__file__).parent.parent / "samples"


def test_held_lines_come_back_as_they_went_in_across_blocks(monkeypatch):
    monkeypatch.setattr(_HeldLines, "BLOCK", 64)
    lines = [json.dumps({"n": i, "name": "総八\u2028 二八", "x": "y" * (i % 50)}, ensure_ascii=False) for i in range(500)]
    held = _HeldLines()
    for line in lines:
        held.add(line)
    assert len(held._blocks) > 10
    assert list(held) == lines
    assert list(_HeldLines()) == []


def test_many_files_print_the_same_lines_as_one_at_a_time():
    files = sorted(str(p) for p in SAMPLES.glob("*.json")) * 40
    together = runner.invoke(app, ["score", "--json", *files])
    assert together.exit_code == 0, together.output
    alone = {f: runner.invoke(app, ["score", "--json", f]).stdout for f in set(files)}
    assert together.stdout == "".join(alone[f] for f in files)


def test_a_bad_file_among_many_prints_nothing(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    files = sorted(str(p) for p in SAMPLES.glob("*.json")) * 10
    result = runner.invoke(app, ["score", "--json", *files, str(bad), *files])
    assert result.exit_code == 2 and result.stdout == ""
    assert "bad.json" in result.stderr
