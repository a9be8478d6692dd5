"""`score --json` holds its output, UTF-8 lines in blocks moved to a temporary file, until every
file checked out."""

from __future__ import annotations

import json
from pathlib import Path

from fast_cli import FastRunner

from scorekeeper.cli import _HeldLines, app

runner = FastRunner()
SAMPLES = Path(__file__).parent.parent / "samples"


def holding(lines: list[str], monkeypatch) -> _HeldLines:
    """The lines held, in blocks of 64 bytes."""
    monkeypatch.setattr(_HeldLines, "BLOCK", 64)
    held = _HeldLines()
    for line in lines:
        held.add(line)
    return held


def test_held_lines_come_back_as_they_went_in_across_blocks(monkeypatch):
    lines = [json.dumps({"n": i, "name": "総八\u2028 二八", "x": "y" * (i % 50)}, ensure_ascii=False) for i in range(500)]
    held = holding(lines, monkeypatch)
    assert len(held._sizes) > 10 and not held._kept
    assert list(held) == lines
    assert list(held) == lines  # read again: the same lines
    assert list(_HeldLines()) == []


def test_without_a_temporary_file_the_blocks_stay_in_memory(monkeypatch):
    import tempfile

    def refuse():
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    lines = [f"line {i} 二八" for i in range(200)]
    held = holding(lines, monkeypatch)
    assert held._kept and not held._sizes
    assert list(held) == lines


def test_a_disk_that_fills_up_midway_keeps_every_line_in_order(monkeypatch):
    import tempfile

    real = tempfile.TemporaryFile

    class Filling:
        def __init__(self) -> None:
            self.file, self.writes = real(), 0

        def write(self, block: bytes) -> int:
            self.writes += 1
            if self.writes == 3:
                self.file.write(block[:10])  # a partial write, then the disk is full
                raise OSError(28, "No space left on device")
            return self.file.write(block)

        def __getattr__(self, name):
            return getattr(self.file, name)

    monkeypatch.setattr(tempfile, "TemporaryFile", Filling)
    lines = [f"line {i} 素十六" for i in range(300)]
    held = holding(lines, monkeypatch)
    assert len(held._sizes) == 2 and held._kept
    assert list(held) == lines


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
