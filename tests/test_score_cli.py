"""`hachi-score score` and `cards` through CliRunner (CONTRACT.md §4, §6)."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scorekeeper.cli import app

GOLDEN = Path(__file__).parent / "golden" / "sdin"
PLAIN = GOLDEN / "plain-teyaku.round.json"
runner = CliRunner()


def plain() -> dict:
    return json.loads(PLAIN.read_text(encoding="utf-8"))


def write(tmp_path: Path, name: str, data) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), "utf-8")
    return str(path)


def test_dash_reads_standard_input():
    result = runner.invoke(app, ["score", "--json", "-"], input=PLAIN.read_text("utf-8"))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["players"]["Ben"]["mon"] == 64


def test_one_bad_file_prints_nothing_on_stdout_and_exits_2(tmp_path):
    bad = plain()
    bad["captured"]["Ben"] = bad["captured"]["Ben"] + ["13k"]
    bad_path = write(tmp_path, "bad.json", bad)
    result = runner.invoke(app, ["score", "--json", str(PLAIN), bad_path])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "bad.json" in lines[0] and "captured.Ben" in lines[0] and "'13k'" in lines[0]


def test_each_bad_file_gets_its_own_line(tmp_path):
    a = write(tmp_path, "a.json", "{not json")
    b = write(tmp_path, "b.json", {"players": ["A", "A", "B"]})
    result = runner.invoke(app, ["score", a, str(PLAIN), b])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2
    assert "a.json" in lines[0] and "broken JSON" in lines[0]
    assert "b.json" in lines[1] and "players" in lines[1]


@pytest.mark.parametrize(
    "text",
    ["", "[]", "null", "42", '{"players": "ABC"}', '{"players": ["A","B","C"], "dealer": 3}',
     '{"players": ["A","B","C"], "dealer": "A", "field": {"x": 1}}', "\x00\x00", '"' * 3],
)
def test_garbage_is_one_line_and_exit_2_never_a_traceback(tmp_path, text):
    result = runner.invoke(app, ["score", write(tmp_path, "g.json", text)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_file_is_bad_input():
    result = runner.invoke(app, ["score", "no/such/round.json"])
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_unknown_option_is_exit_2_on_one_line():
    result = runner.invoke(app, ["score", "--frobnicate", str(PLAIN)])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_table_shows_field_class_yaku_with_reading_points_and_payments():
    result = runner.invoke(app, ["score", str(PLAIN)], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    out = result.stdout
    for expected in ["大場", "×2", "三本", "さんぼん", "96", "80", "+64", "-24", "-40", "札"]:
        assert expected in out, expected


def test_table_for_a_redeal_says_so():
    result = runner.invoke(app, ["score", str(GOLDEN / "bashi.round.json")])
    assert result.exit_code == 0 and "場四" in result.stdout and "redeal" in result.stdout


def test_player_names_with_rich_markup_are_shown_as_typed(tmp_path):
    data = plain()
    text = json.dumps(data, ensure_ascii=False).replace("Ben", "[bold]Ben[/bold]")
    result = runner.invoke(app, ["score", write(tmp_path, "m.json", text)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "[bold]Ben[/bold]" in result.stdout


def test_cards_lists_all_48_with_codes_and_names():
    result = runner.invoke(app, ["cards", "--json"])
    assert result.exit_code == 0
    cards = json.loads(result.stdout)
    assert sum(c["count"] for c in cards) == 48
    assert sum(c["count"] * c["points"] for c in cards) == 264
    assert {"code": "8t", "ja": "芒に雁"}.items() <= next(c for c in cards if c["code"] == "8t").items()
    table = runner.invoke(app, ["cards"], env={"COLUMNS": "160"})
    assert table.exit_code == 0 and "柳に小野道風" in table.stdout and "12kkk" in table.stdout


def test_every_command_has_help_text():
    import typer.main

    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        assert command.help and command.help.strip(), name
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, name
        assert f"Usage: hachi-score {name}" in result.stdout, result.stdout
        assert command.help.split()[0] in result.stdout, (name, result.stdout)


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("hachi-score ")


def test_every_command_is_documented_in_the_readme():
    import typer.main

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    for name in typer.main.get_command(app).commands:
        assert f"`{name}" in readme or f"hachi-score {name}" in readme, name


def test_a_round_file_saved_with_a_bom_is_read(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + PLAIN.read_bytes())
    result = runner.invoke(app, ["score", "--json", str(path)])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["players"]["Ben"]["mon"] == 64


def test_a_round_file_that_is_not_utf8_is_bad_input(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Aki", "Bén", "Chie"]}'.encode("latin-1"))
    result = runner.invoke(app, ["score", str(path)])
    assert result.exit_code == 2 and "not UTF-8" in result.stderr
