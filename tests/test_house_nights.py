"""The sample house files of TRADITIONAL §11 played as whole nights, through the command line.

samples/house-tables.toml (下り賃, 追い込み賃 flat and paid by all, 水天 flat, 法度) over seven seats
with the 白札, and samples/house-fudawiki-mizuten.toml (FudaWiki's みずてん and 責任) over four:
`new-session`, a `round --file` per sample round, then `summary --json`, `show`, the CSV, `stats`,
`rules --json`, and `score --json` of the same rounds standing alone. The totals are worked out by
hand in tests/test_golden.py's notes (its house goldens are these nights' rounds).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from fast_cli import FastRunner

from scorekeeper.cli import app

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "samples"
P7 = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Gen"]

runner = FastRunner()

NIGHTS = {
    "tables": (SAMPLES / "house-tables.toml", P7, "house-night-tables",
               {"Aki": -10, "Ben": 120, "Chie": -160, "Dan": 126, "Eri": -96, "Fumi": 0, "Gen": 20}),
    "fudawiki-mizuten": (SAMPLES / "house-fudawiki-mizuten.toml", P7[:4], "house-night-fudawiki-mizuten",
                         {"Aki": 148, "Ben": -88, "Chie": 30, "Dan": -90}),
}


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    if code:
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("hachi-score: "), result.stderr
    return result


@pytest.fixture
def night(request, book_file):
    toml, players, folder, totals = NIGHTS[request.param]
    run("new-session", *players, "--rules", str(toml), "--dealer", "Aki")
    outs = [json.loads(run("round", "--file", str(f), "--json").stdout)
            for f in sorted((SAMPLES / folder).glob("*.json"))]
    return request.param, toml, players, folder, totals, outs


@pytest.mark.parametrize("night", list(NIGHTS), indirect=True)
def test_a_sample_house_night_adds_up_to_the_hand_worked_totals(night):
    name, toml, players, _folder, totals, outs = night
    summary = json.loads(run("summary", "--json").stdout)
    assert summary["profile"] == name and summary["players"] == players
    assert summary["totals"] == totals and summary["pot"] == 0
    running = dict.fromkeys(players, 0)
    for out in outs:
        for p, r in out["players"].items():
            running[p] += r["mon"]
    assert running == totals


@pytest.mark.parametrize("night", list(NIGHTS), indirect=True)
def test_the_nights_rounds_standing_alone_score_the_same(night, tmp_path):
    _name, toml, players, folder, _totals, outs = night
    dealer, pot, files = "Aki", 0, []
    for i, (f, out) in enumerate(zip(sorted((SAMPLES / folder).glob("*.json")), outs)):
        data = {"players": players, "dealer": dealer, **json.loads(f.read_text(encoding="utf-8"))}
        if pot:
            data["pot"] = pot
        path = tmp_path / f"{i}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        files.append(str(path))
        dealer, pot = out["next_dealer"], out["pot"]
    lines = run("score", "--rules", str(toml), "--json", *files).stdout.splitlines()
    assert [json.loads(line)["players"] for line in lines] == [o["players"] for o in outs]


@pytest.mark.parametrize("night", ["tables"], indirect=True)
def test_the_seven_seat_night_repeats_its_keys_and_shows_the_blank_as_sat_out(night):
    _name, _toml, _players, _folder, _totals, outs = night
    assert outs[0]["blank"] == "Gen" and outs[0]["players"]["Gen"]["role"] == "blank"
    assert outs[0]["liable"] == {"Ben": {"赤短": "Chie"}} and outs[0]["mizuten"] == "Dan"
    shown = run("show", "1").stdout
    assert "白札" in shown and "みずてん" in shown and "責任" in shown
    rows = list(csv.reader(io.StringIO(run("export", "--csv").stdout.lstrip("\ufeff"))))
    assert rows[0][-3:] == ["blank", "mizuten", "liable"]
    assert rows[1][-3:] == ["Gen", "Dan", "Ben:赤短<Chie"]
    stats = json.loads(run("stats", "--json").stdout)
    assert stats["players"]["Gen"]["rounds"] == 0 and stats["players"]["Gen"]["nights"] == 1
    ja = runner.invoke(app, ["--lang", "ja", "show", "1"]).stdout
    assert "白札・休み" in ja


@pytest.mark.parametrize("night", ["fudawiki-mizuten"], indirect=True)
def test_a_night_without_seven_or_the_switches_keeps_the_csv_as_it_was(night, tmp_path, monkeypatch):
    rows = list(csv.reader(io.StringIO(run("export", "--csv").stdout.lstrip("\ufeff"))))
    assert rows[0][-3:] == ["blank", "mizuten", "liable"]  # mizuten and 責任 on
    monkeypatch.setenv("HACHI_SCORE_DB", str(tmp_path / "other.json"))
    run("new-session", "Aki", "Ben", "Chie", "Dan", "--rules", "fudawiki")
    plain = list(csv.reader(io.StringIO(run("export", "--csv").stdout.lstrip("\ufeff"))))
    assert plain[0][-1] == "ended_how"


def test_new_session_takes_seven_names_under_fudawiki_only(book_file):
    run("new-session", *P7, "--rules", "fudawiki")
    assert len(json.loads(run("summary", "--json").stdout)["players"]) == 7
    run("new-session", *P7, code=2)  # sdin seats three
    run("new-session", *P7, "Hana", "--rules", "fudawiki", code=2)  # eight never sit


def test_a_round_file_missing_the_blank_with_seven_is_refused_and_nothing_saved(book_file, tmp_path):
    run("new-session", *P7, "--rules", str(SAMPLES / "house-tables.toml"))
    data = json.loads((SAMPLES / "house-night-tables" / "01.json").read_text(encoding="utf-8"))
    del data["blank"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    err = run("round", "--file", str(path), code=2).stderr
    assert "blank" in err or "白札" in err
    assert json.loads(run("summary", "--json").stdout)["rounds"] == 0


@pytest.mark.parametrize("toml", ["house-tables.toml", "house-fudawiki-mizuten.toml"])
def test_rules_json_of_a_sample_prints_every_switch_of_section_11_and_its_values(toml):
    out = json.loads(run("rules", str(SAMPLES / toml), "--json").stdout)
    assert {"liability", "mizuten", "drop_fee", "forced_out_pay", "forced_out_paid_by",
            "standing_three_pairs"} <= set(out)
    assert out["values"]["追い込み"] == 1 and out["values"]["みずてん"] == 1 and out["mon"]["みずてん"] == 10
    screen = run("rules", str(SAMPLES / toml)).stdout
    assert "責任" in screen and "みずてん" in screen


def test_rules_json_of_a_builtin_is_as_it_was():
    out = json.loads(run("rules", "fudawiki", "--json").stdout)
    assert "liability" not in out and "みずてん" not in out["values"]


@pytest.mark.parametrize("night", ["tables"], indirect=True)
def test_edit_offers_a_house_rounds_answers_as_its_defaults_and_enter_keeps_them(night):
    """`edit N`: the 白札's holder, みずてん and 責任 come back as each question's default."""
    _name, _toml, _players, _folder, totals, _outs = night
    before = json.loads(run("export", "--json").stdout)["rounds"][0]
    result = runner.invoke(app, ["edit", "1"], input="\n" * 60)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    after = json.loads(run("export", "--json").stdout)["rounds"][0]
    assert {k: after.get(k) for k in ("blank", "mizuten", "liable")} == {k: before.get(k) for k in ("blank", "mizuten", "liable")}
    assert json.loads(run("summary", "--json").stdout)["totals"] == totals
