"""One record per yaku and fee: every fact about it that is not a profile's choice.

Its names (the output name, the reading, an English gloss, romaji and other spellings, the other
profile's name of the same 手役), its kind, the cards a 出来役 is made of, and what each built-in
profile makes of it (value in kan, group, the test that judges it). Scoring, the questions, the
screens, odds, stats and the house-rule files read these records; the built-in profiles
(:mod:`scorekeeper.rules`) are built from their defaults. Pure data: imports nothing of the
package, so that every command can read it for free.
"""

from __future__ import annotations

from typing import Mapping, NamedTuple

TEYAKU = "手役"
DEKIYAKU = "出来役"
SPECIAL = "特殊役"
BONUS = "bonus"
FEE = "fee"


class Default(NamedTuple):
    """What a built-in profile makes of a yaku: its value in kan, its 手役 group (``""``, ``A``,
    ``B``) and the 手役 test that judges it (``yaku.TEYAKU_TESTS``)."""

    kan: int
    group: str = ""
    test: str = ""


class YakuDef(NamedTuple):
    """A yaku, bonus or fee."""

    name: str  # CONTRACT §2's output name
    kind: str  # TEYAKU, DEKIYAKU, SPECIAL, BONUS or FEE
    reading: str
    gloss: str
    #: romaji, okurigana spellings, common alternatives (katakana, width, case fold by yaku_key)
    aliases: tuple[str, ...] = ()
    #: the other profile's name of the same 手役 (空巣 <-> 空素, TRADITIONAL §3)
    same: str = ""
    #: 出来役: the kind code and months of the faces it is made of, and how many it needs
    faces: tuple[str, tuple[int, ...]] = ("", ())
    need: int = 0
    #: 出来役: its value climbs +1 kan per card of its kind beyond ``need``, every card of the kind
    #: counted (柳's 短冊 too), where the profile's ``nanatan_plus`` is on (TRADITIONAL §10); such
    #: a value counts cards, so it is not given by name then
    climbs: bool = False
    #: per built-in base: absent means the yaku is not of that profile
    defaults: Mapping[str, Default] = {}
    #: 責任 (TRADITIONAL §11.1): an opponent who fed its last card may be liable for it
    liable: bool = False


def _both(kan: int) -> Mapping[str, Default]:
    return {"sdin": Default(kan), "fudawiki": Default(kan)}


CATALOG: tuple[YakuDef, ...] = (
    # 手役 (RULES §4, TRADITIONAL §3)
    YakuDef("四三", TEYAKU, "しそう", "four and three", ("shisou", "shiso", "shisō"),
            defaults={"sdin": Default(20, "", "four-three"), "fudawiki": Default(20, "A", "four-three")}),
    YakuDef("一二四", TEYAKU, "いちにし", "one, two, four", ("ichinishi",),
            defaults={"sdin": Default(8, "", "four-two-one"), "fudawiki": Default(8, "A", "four-two-one")}),
    YakuDef("二立三本", TEYAKU, "ふたたてさんぼん", "two standing threes", ("futatatesanbon", "二立て三本"),
            defaults={"fudawiki": Default(8, "A", "two-standing-threes")}),
    YakuDef("三本立三本", TEYAKU, "さんぼんたてさんぼん", "two threes, one standing", ("sanbontatesanbon", "三本立て三本"),
            defaults={"fudawiki": Default(7, "A", "one-standing-of-two-threes")}),
    YakuDef("はねけん", TEYAKU, "はねけん", "three, two, two", ("haneken", "跳ね拳", "跳拳"),
            defaults={"sdin": Default(7, "", "three-two-two"), "fudawiki": Default(7, "A", "three-two-two")}),
    YakuDef("二三本", TEYAKU, "ふたさんぼん", "two threes", ("futasanbon",),
            defaults={"fudawiki": Default(6, "A", "two-plain-threes")}),
    YakuDef("手四", TEYAKU, "てし", "four of a month", ("teshi",),
            defaults={"sdin": Default(6, "", "four"), "fudawiki": Default(6, "A", "four")}),
    YakuDef("空巣", TEYAKU, "からす", "all kasu", ("karasu",), same="空素",
            defaults={"sdin": Default(4, "", "all-kasu")}),
    YakuDef("空素", TEYAKU, "からす", "all kasu", ("karasu",), same="空巣",
            defaults={"fudawiki": Default(4, "B", "all-kasu")}),
    YakuDef("喰付", TEYAKU, "くっつき", "three pairs",
            ("kuttsuki", "kuttuki", "kuttsuki", "喰い付き", "喰いつき", "喰付き", "食い付き", "食付"),
            defaults={"sdin": Default(4, "", "three-pairs"), "fudawiki": Default(4, "A", "three-pairs")}),
    YakuDef("光一", TEYAKU, "ぴかいち", "one bright", ("pikaichi",),
            defaults={"sdin": Default(4, "", "one-bright"), "fudawiki": Default(4, "B", "one-bright")}),
    YakuDef("十一", TEYAKU, "といち", "one animal", ("toichi",),
            defaults={"sdin": Default(4, "", "one-animal"), "fudawiki": Default(3, "B", "one-animal")}),
    YakuDef("短一", TEYAKU, "たんいち", "one ribbon", ("tanichi", "tan'ichi"),
            defaults={"sdin": Default(3, "", "one-ribbon"), "fudawiki": Default(3, "B", "one-ribbon")}),
    YakuDef("赤", TEYAKU, "あか", "ribbons and kasu", ("aka", "短カス", "赤 (短カス)", "赤(短カス)"),
            defaults={"sdin": Default(3, "", "ribbons"), "fudawiki": Default(2, "B", "ribbons")}),
    YakuDef("立三本", TEYAKU, "たてさんぼん", "standing three", ("tatesanbon", "立て三本", "たて三本"),
            defaults={"sdin": Default(3, "", "standing-three"), "fudawiki": Default(3, "A", "one-standing-three")}),
    YakuDef("三本", TEYAKU, "さんぼん", "three of a month", ("sanbon",),
            defaults={"sdin": Default(2, "", "three"), "fudawiki": Default(2, "A", "one-plain-three")}),
    # 出来役 (RULES §5), in table order
    YakuDef("五光", DEKIYAKU, "ごこう", "five brights", ("gokou", "goko"),
            faces=("h", (1, 3, 8, 11, 12)), need=5, liable=True, defaults=_both(12)),
    YakuDef("四光", DEKIYAKU, "しこう", "four brights", ("shikou", "shiko"),
            faces=("h", (1, 3, 8, 12)), need=4, liable=True, defaults=_both(10)),
    YakuDef("七短", DEKIYAKU, "ななたん", "seven ribbons", ("nanatan",),
            faces=("r", (1, 2, 3, 4, 5, 6, 7, 9, 10)), need=7, climbs=True, defaults=_both(10)),
    YakuDef("赤短", DEKIYAKU, "あかたん", "red poetry ribbons", ("akatan",),
            faces=("r", (1, 2, 3)), need=3, liable=True, defaults=_both(7)),
    YakuDef("青短", DEKIYAKU, "あおたん", "blue ribbons", ("aotan",),
            faces=("r", (6, 9, 10)), need=3, liable=True, defaults=_both(7)),
    YakuDef("猪鹿蝶", DEKIYAKU, "いのしかちょう", "boar, deer, butterfly", ("inoshikachou", "inoshikacho"),
            faces=("t", (7, 10, 6)), need=3, liable=True, defaults={"sdin": Default(7)}),
    # 特殊役 (RULES §6, TRADITIONAL §5), in precedence order
    YakuDef("総八", SPECIAL, "そうはち", "all eighty-eight", ("souhachi", "sohachi"), defaults=_both(10)),
    YakuDef("二八", SPECIAL, "にはち", "a hundred and sixty-eight", ("nihachi",), defaults=_both(10)),
    YakuDef("素十六", SPECIAL, "すじろく", "sixteen kasu", ("sujiroku",), defaults=_both(12)),
    # bonuses (TRADITIONAL §6)
    YakuDef("飛び込み", BONUS, "とびこみ", "a dealt three completed", ("tobikomi", "飛込み", "飛込"),
            liable=True, defaults={"fudawiki": Default(1)}),
    YakuDef("抜け役", BONUS, "ぬけやく", "a Group B hand and 89 points", ("nukeyaku", "抜役"),
            defaults={"fudawiki": Default(1)}),
    # fees (TRADITIONAL §7): priced by the profile's ``fee``, not named in a yaku table
    YakuDef("逃げ料", FEE, "にげりょう", "the fee for dropping out", ("nigeryou",), defaults={"fudawiki": Default(1)}),
    # TRADITIONAL §11: read only where a switch of §11 uses them (追い込み賃, みずてん)
    YakuDef("追い込み", FEE, "おいこみ", "a forced-out player's flat compensation", ("oikomi",),
            defaults={"fudawiki": Default(1)}),
    YakuDef("みずてん", FEE, "みずてん", "playing blind", ("mizuten", "水天"), defaults={"fudawiki": Default(1)}),
)

#: 責任 (TRADITIONAL §11.1): the yaku and bonuses a feeder may be liable for
LIABLE: frozenset[str] = frozenset(d.name for d in CATALOG if d.liable)

#: every record by its output name
BY_NAME: dict[str, YakuDef] = {d.name: d for d in CATALOG}

#: the yaku (fees left out) by name, in catalog order
YAKU: dict[str, YakuDef] = {d.name: d for d in CATALOG if d.kind != FEE}

#: the pairs of names of one 手役 (空巣, 空素), the first in catalog order first
SAME_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (d.name, d.same) for i, d in enumerate(CATALOG) if d.same and i < list(BY_NAME).index(d.same))


def of_kind(kind: str) -> tuple[YakuDef, ...]:
    """The records of one kind, in catalog order."""
    return tuple(d for d in CATALOG if d.kind == kind)


def same(name: str) -> str:
    """The other profile's name of the same 手役 (空巣 for 空素), or ``""``."""
    d = BY_NAME.get(name)
    return d.same if d else ""


def defaults(base: str, kind: str, order: tuple[str, ...] | None = None) -> dict[str, Default]:
    """A built-in base's defaults for one kind, name -> Default, in catalog order (or ``order``)."""
    names = order if order is not None else tuple(d.name for d in CATALOG if d.kind == kind)
    return {n: BY_NAME[n].defaults[base] for n in names if BY_NAME[n].kind == kind and base in BY_NAME[n].defaults}
