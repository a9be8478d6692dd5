"""House-rule files (TRADITIONAL §10), `hachi-score rules` and `score --rules` (CONTRACT §7)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fast_cli import FastRunner
import pytest
from rich.cells import cell_len

from helpers import EXAMPLE_PILES, played_out
from scorekeeper import house
from scorekeeper.cli import app
from scorekeeper.house import HouseRuleError, UNCOVERED, load, resolve
from scorekeeper.rules import FUDAWIKI, SDIN, Rules
from scorekeeper.scoring import score_dict

ROOT = Path(__file__).parent.parent
SAMPLE = ROOT / "samples" / "house-kan12.toml"
PLAIN = Path(__file__).parent / "golden" / "sdin" / "plain-teyaku.round.json"
runner = FastRunner()  # the app's command built once, not at every invoke

SWITCH_KEYS = {"name", "base", "kan", "field", "inoshikacho", "nanatan_plus", "two_volunteers",
               "forced_three", "values", "mon"}


def write(tmp_path: Path, body: str, name: str = "house.toml", head: str = 'base = "fudawiki"\nname = "h"\n') -> Path:
    path = tmp_path / name
    path.write_text(head + body, encoding="utf-8")
    return path


def house_rules(tmp_path: Path, body: str = "", **kw) -> Rules:
    return load(write(tmp_path, body, **kw))


def refused(tmp_path: Path, body: str, key: str, *words: str, **kw) -> str:
    """The file is refused through the CLI: exit 2, nothing on stdout, one line naming file and key."""
    path = write(tmp_path, body, **kw)
    result = runner.invoke(app, ["rules", str(path), "--json"])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    line = lines[0]
    assert str(path) in line and f": {key}:" in line, line
    for word in words:
        assert word in line, line
    assert "Traceback" not in result.stderr
    with pytest.raises(HouseRuleError) as caught:
        load(path)
    assert caught.value.key == key and str(caught.value).startswith(f"{path}: {key}: ")
    return line


def rules_json(*args: str) -> dict:
    result = runner.invoke(app, ["rules", *args, "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("\n") == 1 and ": " not in result.stdout  # one compact line
    return json.loads(result.stdout)


# -- the sample and the minimal file ---------------------------------------------------------


def test_the_sample_loads_with_what_it_says():
    r = load(SAMPLE)
    assert (r.name, r.base, r.kan, r.field.key, r.inoshikacho) == ("kan12-house", "fudawiki", 12, "stack", True)
    assert r.teyaku["赤"] == 3 and r.dekiyaku["猪鹿蝶"] == 5
    assert r.teyaku_mode == FUDAWIKI.teyaku_mode and r.bonuses == FUDAWIKI.bonuses


def test_base_and_name_alone_is_the_base_renamed(tmp_path):
    r = house_rules(tmp_path)
    assert r == FUDAWIKI._replace(name="h")
    s = house_rules(tmp_path, head='base = "sdin"\nname = "mine"\n')
    assert s == SDIN._replace(name="mine")


def test_base_accepts_the_alias_and_any_case(tmp_path):
    assert house_rules(tmp_path, head='base = "traditional"\nname = "h"\n').base == "fudawiki"
    assert house_rules(tmp_path, head='base = "SDIN"\nname = "h"\n').base == "sdin"


@pytest.mark.parametrize("path", [SAMPLE, None])
def test_the_loaded_profile_survives_to_dict_and_back(tmp_path, path):
    r = load(path) if path else house_rules(
        tmp_path, 'kan = 12\nfield = "none"\nnanatan_plus = true\n[values]\n"空巣" = 6\n"逃げ料" = 2\n"二八" = 12\n')
    again = Rules.from_dict(json.loads(json.dumps(r.to_dict(), ensure_ascii=False)))
    assert again == r
    assert list(again.dekiyaku) == list(r.dekiyaku)


# -- every key at its boundary -----------------------------------------------------------------


@pytest.mark.parametrize("kan", [10, 12])
def test_kan_10_and_12(tmp_path, kan):
    assert house_rules(tmp_path, f"kan = {kan}\n").kan == kan


@pytest.mark.parametrize("value", ["11", "9", "0", "-10", "120", "true", '"12"', "12.0"])
def test_kan_other_than_10_or_12_is_refused(tmp_path, value):
    refused(tmp_path, f"kan = {value}\n", "kan", "10 or 12")


@pytest.mark.parametrize("mode", ["none", "carry", "stack"])
def test_field_each_mode(tmp_path, mode):
    assert house_rules(tmp_path, f'field = "{mode}"\n').field.key == mode
    assert house_rules(tmp_path, f'field = "{mode}"\n', head='base = "sdin"\nname = "h"\n').field.key == mode


@pytest.mark.parametrize("value", ['"Stack"', '"carried"', '""', "1", "true", '["stack"]'])
def test_field_other_values_are_refused(tmp_path, value):
    refused(tmp_path, f"field = {value}\n", "field", "none", "carry", "stack")


@pytest.mark.parametrize("key", ["inoshikacho", "nanatan_plus", "forced_three"])
@pytest.mark.parametrize("value", [True, False])
def test_bool_keys_take_true_and_false(tmp_path, key, value):
    r = house_rules(tmp_path, f"{key} = {str(value).lower()}\n")
    assert r.switches()[key] is value  # as stored: a policy object is written by its key


@pytest.mark.parametrize("key", ["inoshikacho", "nanatan_plus", "forced_three"])
@pytest.mark.parametrize("value", ["1", "0", '"true"', '"yes"', "1.0"])
def test_bool_keys_refuse_numbers_and_strings(tmp_path, key, value):
    refused(tmp_path, f"{key} = {value}\n", key, "true or false")


@pytest.mark.parametrize("mode", ["play", "split"])
def test_two_volunteers(tmp_path, mode):
    assert house_rules(tmp_path, f'two_volunteers = "{mode}"\n').two_volunteers.key == mode


@pytest.mark.parametrize("value", ['"share"', '"Split"', "true", "2"])
def test_two_volunteers_other_values_are_refused(tmp_path, value):
    refused(tmp_path, f"two_volunteers = {value}\n", "two_volunteers", "play", "split")


def test_a_three_player_base_refuses_the_switches_of_bigger_nights(tmp_path):
    sdin = 'base = "sdin"\nname = "h"\n'
    refused(tmp_path, 'two_volunteers = "split"\n', "two_volunteers", "fudawiki", head=sdin)
    refused(tmp_path, "forced_three = true\n", "forced_three", "fudawiki", head=sdin)
    # their sdin values change nothing, so they are not refused
    assert house_rules(tmp_path, 'two_volunteers = "play"\nforced_three = false\n', head=sdin) == SDIN._replace(name="h")


def test_inoshikacho_on_adds_it_in_table_order_and_off_removes_it(tmp_path):
    on = house_rules(tmp_path, "inoshikacho = true\n")
    assert list(on.dekiyaku.items()) == list(SDIN.dekiyaku.items())
    assert on.values()["猪鹿蝶"] == 7
    off = house_rules(tmp_path, "inoshikacho = false\n", head='base = "sdin"\nname = "h"\n')
    assert "猪鹿蝶" not in off.dekiyaku and list(off.dekiyaku) == ["五光", "四光", "七短", "赤短", "青短"]
    assert house_rules(tmp_path, "inoshikacho = false\n").dekiyaku == FUDAWIKI.dekiyaku


def test_nanatan_plus_scores_each_ribbon_beyond_seven(tmp_path):
    from scorekeeper.yaku import dekiyaku_kan
    from helpers import cards

    r = house_rules(tmp_path, 'nanatan_plus = true\n[values]\n"七短" = 8\n')
    pile = cards("1r 2r 3r 4r 5r 6r 7r 9r 11r")  # 9 短冊 with 柳に短冊
    assert dekiyaku_kan("七短", pile, r) == 8 + 2


# -- [values] -------------------------------------------------------------------------------


@pytest.mark.parametrize("name, field", [
    ("三本", "teyaku"), ("四三", "teyaku"), ("空素", "teyaku"),
    ("五光", "dekiyaku"), ("七短", "dekiyaku"), ("赤短", "dekiyaku"),
    ("総八", "special"), ("二八", "special"), ("素十六", "special"),
    ("飛び込み", "bonuses"), ("抜け役", "bonuses"),
])
def test_values_change_one_value_by_its_output_name(tmp_path, name, field):
    r = house_rules(tmp_path, f'[values]\n"{name}" = 9\n')
    assert getattr(r, field)[name] == 9
    assert r.values()[name] == 9
    others = {k: v for k, v in r.values().items() if k != name}
    assert others == {k: v for k, v in FUDAWIKI.values().items() if k != name}


def test_the_special_bases_keep_their_steps(tmp_path):
    r = house_rules(tmp_path, '[values]\n"二八" = 15\n"素十六" = 20\n')
    assert r.nihachi_kan(168) == 15 and r.nihachi_kan(170) == 17
    assert r.sujiroku_kan(16) == 20 and r.sujiroku_kan(18) == 24


def test_the_fee_is_a_value(tmp_path):
    r = house_rules(tmp_path, '[values]\n"逃げ料" = 2\n')
    assert r.fee == 2 and r.values()["逃げ料"] == 2


def test_a_three_player_base_has_no_fee(tmp_path):
    refused(tmp_path, '[values]\n"逃げ料" = 2\n', "values.逃げ料", "fudawiki", head='base = "sdin"\nname = "h"\n')


def test_a_teyaku_keeps_its_group_and_place(tmp_path):
    r = house_rules(tmp_path, '[values]\n"三本" = 30\n')
    assert [row.name for row in r.teyaku_table] == [row.name for row in FUDAWIKI.teyaku_table]
    assert r.group_of("三本") == "A"


@pytest.mark.parametrize("base, typed, stored", [
    ("sdin", "空素", "空巣"), ("sdin", "空巣", "空巣"), ("fudawiki", "空巣", "空素"), ("fudawiki", "空素", "空素"),
])
def test_karasu_is_accepted_by_either_spelling(tmp_path, base, typed, stored):
    r = house_rules(tmp_path, f'[values]\n"{typed}" = 5\n', head=f'base = "{base}"\nname = "h"\n')
    assert r.teyaku[stored] == 5 and r.values()[stored] == 5


def test_both_spellings_of_karasu_at_once_are_refused(tmp_path):
    refused(tmp_path, '[values]\n"空巣" = 5\n"空素" = 6\n', "values.空素", "空巣")


@pytest.mark.parametrize("value", ["0", "1", "999"])
def test_a_value_from_0_to_999_kan(tmp_path, value):
    assert house_rules(tmp_path, f'[values]\n"三本" = {value}\n').teyaku["三本"] == int(value)


@pytest.mark.parametrize("value", ["-1", "2.5", "3.0", "true", '"3"', "[3]", "1000"])
def test_a_value_not_a_whole_number_of_kan_is_refused(tmp_path, value):
    refused(tmp_path, f'[values]\n"三本" = {value}\n', "values.三本")


@pytest.mark.parametrize("name", ["nope", "三本 ", "sanbon", "逃げ", "場四"])
def test_an_unknown_name_in_values_is_refused(tmp_path, name):
    refused(tmp_path, f'[values]\n"{name}" = 3\n', f"values.{name}", "not a yaku")


def test_a_name_of_the_other_profile_says_which(tmp_path):
    refused(tmp_path, '[values]\n"二立三本" = 3\n', "values.二立三本", 'base = "fudawiki"', head='base = "sdin"\nname = "h"\n')
    refused(tmp_path, '[values]\n"飛び込み" = 3\n', "values.飛び込み", "fudawiki", head='base = "sdin"\nname = "h"\n')


def test_inoshikacho_needs_the_switch_to_get_a_value(tmp_path):
    refused(tmp_path, '[values]\n"猪鹿蝶" = 5\n', "values.猪鹿蝶", "inoshikacho = true")
    assert house_rules(tmp_path, 'inoshikacho = true\n[values]\n"猪鹿蝶" = 5\n').dekiyaku["猪鹿蝶"] == 5


def test_values_must_be_a_table(tmp_path):
    refused(tmp_path, "values = 3\n", "values", "table")
    refused(tmp_path, '[values."三本"]\nkan = 3\n', "values.三本", "whole number")


def test_an_unquoted_yaku_name_is_broken_toml_with_a_hint(tmp_path):
    refused(tmp_path, "[values]\n三本 = 3\n", "line 4, column 1", "broken TOML", '"三本" = 3')


# -- base and name -----------------------------------------------------------------------------


def test_base_is_required(tmp_path):
    refused(tmp_path, 'name = "h"\n', "base", "missing", head="")


@pytest.mark.parametrize("value", ['"sdin2"', '"fuda"', '""', "1", "true"])
def test_base_must_be_a_built_in(tmp_path, value):
    refused(tmp_path, f"base = {value}\n", "base", head='name = "h"\n')


def test_name_is_required(tmp_path):
    refused(tmp_path, 'base = "sdin"\n', "name", "missing", head="")


@pytest.mark.parametrize("value", ['"sdin"', '"Fudawiki"', '"traditional"', '" SDIN "', '"TRADITIONAL"'])
def test_name_may_not_be_a_built_in_name_or_alias(tmp_path, value):
    refused(tmp_path, f"name = {value}\n", "name", "built-in", head='base = "sdin"\n')


@pytest.mark.parametrize("value", ['""', '"   "', "12", "true", '"a\\nb"', '"' + "x" * 41 + '"'])
def test_name_must_be_one_short_line(tmp_path, value):
    refused(tmp_path, f"name = {value}\n", "name", head='base = "sdin"\n')


def test_a_name_with_a_full_width_space_is_fine(tmp_path):
    assert house_rules(tmp_path, "", head='base = "sdin"\nname = "八八\u3000会"\n').name == "八八\u3000会"


def test_a_name_that_looks_like_markup_is_shown_as_typed(tmp_path):
    path = write(tmp_path, "", head='base = "fudawiki"\nname = "[bold]x[/bold]"\n')
    view = _view(str(path))
    assert view.count("[bold]x[/bold]") >= 3  # heading, values title, switches column


def test_a_40_character_name_is_fine(tmp_path):
    assert house_rules(tmp_path, "", head='base = "sdin"\nname = "' + "八" * 40 + '"\n').name == "八" * 40


# -- keys that are not switches ---------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(UNCOVERED))
def test_the_uncovered_rules_are_refused_by_name(tmp_path, key):
    line = refused(tmp_path, f"{key} = true\n", key, "does not cover")
    assert "unknown" not in line


@pytest.mark.parametrize("key", ["kans", "Kan", "players", "max_players", "sage_callers", "teyaku_mode"])
def test_an_unknown_key_is_refused(tmp_path, key):
    refused(tmp_path, f"{key} = 1\n", key, "unknown key")


def test_a_key_with_a_newline_is_named_on_one_line(tmp_path):
    refused(tmp_path, '"a\\nb" = 1\n', "'a\\nb'", "unknown key")
    refused(tmp_path, '[values]\n"x\\ty" = 1\n', "values.'x\\ty'", "not a yaku")


def test_an_unknown_table_is_refused(tmp_path):
    refused(tmp_path, '[teyaku]\n"三本" = 3\n', "teyaku", "unknown key")


# -- files that are not house-rule files --------------------------------------------------------


def test_broken_toml_says_where(tmp_path):
    line = refused(tmp_path, "kan = \n", "line 3, column 7", "broken TOML")
    assert "(at line" not in line
    refused(tmp_path, "kan = ", "end of file", "broken TOML")
    refused(tmp_path, "kan = 10\nkan = 12\n", "line 4, column 9", "broken TOML", "a key given twice")


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes('base = "sdin"\nname = "caf\xe9"\n'.encode("latin-1"))
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"hachi-score: {path}: is not UTF-8 text (byte 25)"]


def test_a_utf8_bom_is_fine(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes('\ufeffbase = "sdin"\nname = "bom"\n'.encode("utf-8"))
    assert load(path).name == "bom"


@pytest.mark.parametrize("what", ["missing", "directory"])
def test_a_missing_file_or_a_directory(tmp_path, what):
    path = tmp_path / "nowhere.toml"
    if what == "directory":
        path.mkdir()
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0]
    assert ("no such file" if what == "missing" else "directory") in lines[0]


def test_an_unreadable_file(tmp_path):
    import os

    path = write(tmp_path, "")
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("running as root: every file is readable")
        result = runner.invoke(app, ["rules", str(path)])
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [f"hachi-score: {path}: can't be read (Permission denied)"]
    finally:
        path.chmod(0o644)


# -- resolve ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [("sdin", SDIN), ("fudawiki", FUDAWIKI), ("traditional", FUDAWIKI),
                                            ("SDIN", SDIN)])
def test_resolve_a_built_in(text, expected):
    assert resolve(text) == expected


def test_resolve_a_file(tmp_path, monkeypatch):
    assert resolve(str(SAMPLE)) == load(SAMPLE)
    plain = tmp_path / "house-rules"  # an existing file needs no .toml
    plain.write_text('base = "sdin"\nname = "plain"\n', encoding="utf-8")
    assert resolve(str(plain)).name == "plain"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fudawiki").write_text('base = "sdin"\nname = "x"\n', encoding="utf-8")
    assert resolve("fudawiki") == FUDAWIKI  # a built-in name is the built-in, whatever lies here


def test_resolve_an_unknown_name_lists_the_built_ins():
    with pytest.raises(ValueError) as caught:
        resolve("sdim")
    message = str(caught.value)
    assert "\n" not in message and "sdim" in message
    assert "sdin" in message and "fudawiki" in message and "traditional" in message and ".toml" in message


@pytest.mark.parametrize("text", ["", "  "])
def test_resolve_an_empty_name(text):
    with pytest.raises(ValueError, match="not a rule profile"):
        resolve(text)


def test_resolve_a_missing_toml_names_the_file(tmp_path):
    with pytest.raises(HouseRuleError, match="no such file"):
        resolve(str(tmp_path / "x.toml"))


# -- `hachi-score rules` ------------------------------------------------------------------------


def test_rules_json_sdin():
    out = rules_json("sdin")
    assert set(out) == SWITCH_KEYS
    assert out["name"] == "sdin" and out["base"] == "sdin" and out["kan"] == 10 and out["field"] == "none"
    assert out["inoshikacho"] is True and out["values"] == SDIN.values()
    assert out["mon"] == {k: 10 * v for k, v in SDIN.values().items()}
    assert "逃げ料" not in out["values"]
    assert rules_json() == out  # sdin is the default


@pytest.mark.parametrize("name", ["fudawiki", "traditional", "Traditional"])
def test_rules_json_fudawiki(name):
    out = rules_json(name)
    assert out == {**FUDAWIKI.switches(), "mon": {k: 10 * v for k, v in FUDAWIKI.values().items()}}
    assert out["name"] == "fudawiki" and out["field"] == "carry" and out["inoshikacho"] is False
    assert out["values"]["飛び込み"] == 1 and out["values"]["逃げ料"] == 1 and "猪鹿蝶" not in out["values"]


def test_rules_json_of_the_sample():
    out = rules_json(str(SAMPLE))
    assert set(out) == SWITCH_KEYS
    assert (out["name"], out["base"], out["kan"], out["field"], out["inoshikacho"]) == (
        "kan12-house", "fudawiki", 12, "stack", True)
    assert out["values"]["三本"] == 2 and out["mon"]["三本"] == 24
    assert out["values"]["猪鹿蝶"] == 5 and out["mon"]["猪鹿蝶"] == 60
    assert list(out["values"]) == list(out["mon"])


def test_rules_unknown_name_is_one_line():
    result = runner.invoke(app, ["rules", "hachi"])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "sdin" in lines[0] and "fudawiki" in lines[0]


def _view(*args: str) -> str:
    result = runner.invoke(app, ["rules", *args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    for line in result.stdout.splitlines():
        assert cell_len(line) <= 80, line
    return result.stdout


def _row(view: str, name: str) -> str:
    rows = [line for line in view.splitlines() if f" {name} " in line]
    assert rows, name
    return rows[0]


def _policy(view: str, key: str) -> str:
    policies = view.split("switches and policies", 1)[1]
    rows = [line for line in policies.splitlines() if line.startswith(key + " ")]
    assert rows, key
    return rows[0]


def test_the_view_of_sdin_has_nothing_to_mark():
    view = _view()
    assert "rule profile sdin" in view and "≠" not in view
    assert "三本" in _row(view, "三本") and " 20 " in _row(view, "三本")


def test_the_view_marks_what_differs_from_sdin():
    view = _view("fudawiki")
    assert "≠" in _row(view, "十一") and "≠" in _row(view, "赤")  # 3 vs 4, 2 vs 3
    assert "≠" not in _row(view, "四三")
    assert "new" in _row(view, "二立三本") and "new" in _row(view, "飛び込み")
    assert "off" in _row(view, "猪鹿蝶")
    assert "Group A" in view and "single highest" in view  # 手役 policy, with sdin's beside
    assert "≠" in _policy(view, "特殊役") and "first only" in _policy(view, "特殊役")
    assert "≠" in _policy(view, "field") and "carry" in _policy(view, "field")
    assert "≠" not in _policy(view, "kan")
    assert "carry" in view and "cancel" in view


def test_the_view_of_a_house_file_shows_kan_and_mon():
    view = _view(str(SAMPLE))
    assert "kan12-house" in view and "fudawiki" in view
    row = _row(view, "三本")
    assert " 24 " in row and " 20 " in row  # 2 kan: 24 文 here, 20 文 under sdin
    assert "≠" not in _row(view, "赤")  # 3 kan, as in sdin
    assert "≠" in _row(view, "猪鹿蝶")  # 5 kan, sdin 7
    assert "stack" in _policy(view, "field") and "≠" in _policy(view, "field")
    assert "dozenal" in _policy(view, "kan") and "≠" in _policy(view, "kan")


def test_rules_help_lists_the_profiles():
    result = runner.invoke(app, ["rules", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "sdin" in text and "fudawiki" in text and "traditional" in text and "FILE.toml" in text


# -- `score --rules` ----------------------------------------------------------------------------


def test_score_rules_help_lists_the_profiles():
    result = runner.invoke(app, ["score", "--help"])
    text = " ".join(result.stdout.split())
    assert "--rules" in text and "fudawiki" in text and "traditional" in text and "FILE.toml" in text


@pytest.mark.parametrize("name", ["fudawiki", "traditional"])
def test_score_rules_fudawiki_json(name):
    result = runner.invoke(app, ["score", "--rules", name, str(PLAIN), "--json"])
    assert result.exit_code == 0, result.stderr
    assert '"profile":"fudawiki"' in result.stdout


def test_score_without_rules_is_sdin():
    result = runner.invoke(app, ["score", str(PLAIN), "--json"])
    assert '"profile":"sdin"' in result.stdout


def test_score_rules_house_file_shows_its_name():
    result = runner.invoke(app, ["score", "--rules", str(SAMPLE), str(PLAIN)])
    assert result.exit_code == 0, result.stderr
    assert "kan12-house" in result.stdout
    as_json = runner.invoke(app, ["score", "--rules", str(SAMPLE), str(PLAIN), "--json"])
    assert json.loads(as_json.stdout)["profile"] == "kan12-house"


def test_score_rules_bad_file_is_one_line_and_nothing_scored(tmp_path):
    path = write(tmp_path, "kan = 11\n")
    result = runner.invoke(app, ["score", "--rules", str(path), str(PLAIN), "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "kan" in lines[0]


def test_score_rules_unknown_name(tmp_path):
    result = runner.invoke(app, ["score", "--rules", "hachi", str(PLAIN)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


#: Ben's dealt hand: one three (桜, not standing), no pair, no Group B: 三本 (2 kan) and nothing else
SANBON_HAND = {"Ben": "3hrk 5t 9t 11t 12h"}


def _sanbon_round() -> dict:
    return played_out(EXAMPLE_PILES, hands=SANBON_HAND)  # 小場: ×1; Aki 96, Ben 80, Chie 88


@pytest.mark.parametrize("kan", [10, 12])
def test_a_kan_12_house_pays_twelve_mon_a_kan(tmp_path, kan):
    rules = house_rules(tmp_path, f"kan = {kan}\n")
    result = score_dict(_sanbon_round(), rules=rules)
    assert result.multiplier == 1
    sanbon = [(p.payer, p.payee, p.mon) for p in result.payments if p.reason == "三本"]
    assert sanbon == [("Aki", "Ben", 2 * kan), ("Chie", "Ben", 2 * kan)]
    cards = {(p.payer, p.payee, p.mon) for p in result.payments if p.reason == "札"}
    assert cards == {("Ben", "Aki", 8)}  # card points are 文, never × kan
    assert result.players["Ben"].mon == 4 * kan - 8


def test_score_rules_sample_pays_24_mon_for_sanbon(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(_sanbon_round()), encoding="utf-8")
    result = runner.invoke(app, ["score", "--rules", str(SAMPLE), str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["profile"] == "kan12-house"
    assert [p["mon"] for p in out["payments"] if p["reason"] == "三本"] == [24, 24]
    plain = json.loads(runner.invoke(app, ["score", str(path), "--json"]).stdout)
    assert [p["mon"] for p in plain["payments"] if p["reason"] == "三本"] == [20, 20]


# -- start-up -----------------------------------------------------------------------------------


def test_tomllib_and_house_are_imported_only_when_needed():
    code = ("import sys, scorekeeper.cli, scorekeeper.house; "
            "print('tomllib' in sys.modules, 'rich' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    code = "import sys, scorekeeper.cli; print('scorekeeper.house' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_house_module_documents_its_keys():
    assert set(house.KEYS) == {"base", "name", "kan", "field", "inoshikacho", "nanatan_plus",
                               "two_volunteers", "forced_three", "liability", "mizuten", "drop_fee", "forced_out_pay",
                               "forced_out_paid_by", "standing_three_pairs", "values"}
