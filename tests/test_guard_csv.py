"""Issue 10, CSV for spreadsheets (CONTRACT §5): a UTF-8 BOM, the old columns first and the new
after, a totals row, numbers unquoted, and text that a spreadsheet would run as a formula escaped."""

from __future__ import annotations

import csv
import io
import json

import crash_harness as ch
from fast_cli import FastRunner

runner = FastRunner()


def exported(tmp_path, names, rounds=3, name="night"):
    assert runner.invoke(args=["new-session", "--name", name, "--", *names]).exit_code == 0
    for i, rnd in enumerate(ch.NIGHT[:rounds]):
        f = tmp_path / f"r{i}.json"
        f.write_text(json.dumps(ch.renamed(rnd, names), ensure_ascii=False), "utf-8")
        result = runner.invoke(args=["round", "--file", str(f)])
        assert result.exit_code == 0, result.output
    out = tmp_path / "night.csv"
    assert runner.invoke(args=["export", "--csv", "-o", str(out)]).exit_code == 0
    return out.read_bytes()


def test_csv_has_a_bom_the_old_columns_first_then_the_new_and_a_totals_row(tmp_path):
    raw = exported(tmp_path, ch.PLAYERS, rounds=12)
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["round", "dealer", "field_class", "multiplier", "kind", "yaku", *ch.PLAYERS,
                       "sage", "ended_by", *(f"{p} card_points" for p in ch.PLAYERS),
                       "dropped", "forced_out", "pot", "ended_how"]
    assert len(rows) == 1 + 12 + 1 and rows[-1][0] == "total"
    summary = json.loads(runner.invoke(args=["summary", "--json"]).stdout)
    assert [int(x) for x in rows[-1][6:9]] == [summary["totals"][p] for p in ch.PLAYERS]
    detail = [json.loads(runner.invoke(args=["show", str(n), "--json"]).stdout) for n in range(1, 13)]
    for row, d in zip(rows[1:-1], detail):
        assert [int(x) for x in row[11:14]] == [d["players"][p]["card_points"] for p in ch.PLAYERS]
    # 下げ and who ended, as the round files say
    for row, rnd in zip(rows[1:-1], ch.NIGHT):
        assert row[9] == (rnd.get("sage") or "") and row[10] == (rnd.get("ended_by") or "")
    # numbers are numbers: never quoted
    for line in text.splitlines()[1:]:
        first = next(csv.reader([line]))
        assert not line.startswith('"')
        for cell in first[6:9]:
            assert f'"{cell}"' not in line


def test_text_that_a_spreadsheet_would_run_is_escaped(tmp_path):
    names = ["=HYPERLINK(\"x\")", "+Ben", "@Chie"]
    raw = exported(tmp_path, names, rounds=2, name="-night")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][6:9] == ["'" + n for n in names]
    for row in rows[1:-1]:
        assert row[1].startswith("'") and row[1][1:] in names  # the 親
        assert not row[5] or row[5].startswith("'")  # the yaku, led by a name
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell  # -24 is a number
    assert int(rows[-1][6]) + int(rows[-1][7]) + int(rows[-1][8]) == 0
