"""The names the layout keeps whole and the bracketed spellings the 手役 answer reads come from
the catalog's records (scorekeeper.catalog), not from lists of their own."""

from __future__ import annotations

from scorekeeper import catalog, layout
from scorekeeper import questions as q
from scorekeeper.rules import FUDAWIKI


def test_every_yaku_and_fee_of_the_catalog_is_one_unbroken_word():
    for d in catalog.CATALOG:
        assert d.name in layout._words(), d.name
        text = "役は" + d.name + "です"
        assert (d.name, False) in layout.units(text), (d.name, layout.units(text))


def test_the_bracketed_spellings_are_the_catalogs():
    bracketed = {d.name for d in catalog.of_kind(catalog.TEYAKU) if any("(" in a for a in d.aliases)}
    assert {name for _, name in q._BRACKETED} == bracketed == {"赤"}


def test_a_bracketed_spelling_of_either_width_and_spacing_is_one_name_among_several():
    g = q.Givens(("Aki", "Ben", "Chie"), "Aki", FUDAWIKI)
    for typed in ("三本 赤 (短カス)", "三本 赤（短カス）", "三本 赤 （ 短カス ）"):
        value, _ = q.read_hand(g, typed)
        assert value == {"hand": None, "teyaku": ["三本", "赤"]}, typed
