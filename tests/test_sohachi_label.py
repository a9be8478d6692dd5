"""総八's label shows its value whatever the piles were given by, and whoever the night's 親 is.

The screens read what the settlement priced each yaku at (``Result.priced``) instead of working
a 特殊役's value out again from the piles' cards and the night's 親: that showed 総八 without its
value when the piles were given by points (no cards), or when the night's 親 dropped (総八 goes
to the round's 親, the first volunteer).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from scorekeeper.render import round_view
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.scoring import score_dict
from helpers import profile_of

GOLDEN = Path(__file__).parent / "golden"


def _screen(data: dict, rules) -> str:
    result = score_dict(data, rules=rules)
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(round_view(result))
    return out.getvalue()


def _golden(path: str) -> dict:
    return json.loads((GOLDEN / path).read_text(encoding="utf-8"))


def test_sohachi_label_shows_its_value_when_the_piles_are_given_by_cards():
    screen = _screen(_golden("sdin/special-sohachi.round.json"), SDIN)
    assert "総八 100" in screen


def test_sohachi_label_shows_its_value_when_the_piles_are_given_by_points():
    data = _golden("sdin/special-sohachi.round.json")
    data["points"] = {p: 88 for p in data.pop("captured")}
    result = score_dict(data, rules=SDIN)
    assert result.players["Chie"].special == ("総八",)
    assert result.priced[("Chie", "総八")] == 100
    assert "総八 100" in _screen(data, SDIN)


def test_sohachi_label_shows_its_value_when_the_nights_oya_dropped():
    data = _golden("fudawiki/six-dealer-drops.round.json")
    result = score_dict(data, rules=FUDAWIKI)
    oya = result.round.round_dealer
    assert oya != data["dealer"] and result.players[oya].special == ("総八",)
    assert result.priced[(oya, "総八")] == 100
    assert "総八 100" in _screen(data, FUDAWIKI)


def test_every_yaku_shown_is_priced_by_the_settlement():
    for path in sorted(GOLDEN.glob("*/*.round.json")):
        rules = profile_of(path)
        data = json.loads(path.read_text(encoding="utf-8"))
        result = score_dict(data, rules=rules)
        for p, r in result.players.items():
            for name in (*r.teyaku_all, *r.dekiyaku, *r.special, *r.bonuses):
                assert (p, name) in result.priced, (path.name, p, name)
