#!/usr/bin/env python3
"""Write scorekeeper/web/static/cards.svg: one SVG sprite, a <symbol id="card-CODE"> per card face.

Every picture is composed here from circles, ellipses and short paths (nothing copied, no text,
no fonts, no ids other than the symbols', no external reference): the card's cream face and dark
edge, the month's plant in its colours (one motif per month, the same on each of its cards), and
what makes the card what it is: for a 光 a red sun disc in the top-left corner and its subject
(crane, curtain, moon, rain-man's umbrella, phoenix); for a 種 its animal or object; for a 短冊 a
ribbon (red with a poem line for 赤短, blue for 青短, plain red otherwise); for a カス the plant
alone. The kasu of a month share one face (one code, one symbol). The name and code are the page's
text under the picture.

Standard library only; the output is deterministic (run it twice, the same bytes).

    python3 scripts/make_card_sprite.py            # writes the package's sprite
    python3 scripts/make_card_sprite.py --check    # exit 1 if the committed sprite is stale
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.cards import FACES  # noqa: E402

OUT = ROOT / "scorekeeper" / "web" / "static" / "cards.svg"
W, H = 64, 96

FACE = "#f8f0dc"  # the card's own opaque face: the same picture on a light or a dark page
EDGE = "#2b2118"
RED = "#d0202e"
BLUE = "#1f47a6"
INK = "#1c1714"


# -- tiny SVG writers ---------------------------------------------------------------------------

def n(v: float) -> str:
    """A number, short: at most one decimal, no trailing zeros."""
    s = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def attrs(**kw: object) -> str:
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        k = k.rstrip("_").replace("_", "-")
        out.append(f' {k}="{n(v) if isinstance(v, (int, float)) else v}"')
    return "".join(out)


def circle(cx: float, cy: float, r: float, fill: str, **kw: object) -> str:
    return f"<circle{attrs(cx=cx, cy=cy, r=r, fill=fill, **kw)}/>"


def ellipse(cx: float, cy: float, rx: float, ry: float, fill: str, rot: float = 0, **kw: object) -> str:
    t = f"rotate({n(rot)} {n(cx)} {n(cy)})" if rot else None
    return f"<ellipse{attrs(cx=cx, cy=cy, rx=rx, ry=ry, fill=fill, transform=t, **kw)}/>"


def path(d: str, fill: str = "none", **kw: object) -> str:
    """A path; unfilled by default (each symbol says fill="none" once for all its lines)."""
    return f"<path{attrs(d=d, fill=None if fill == 'none' else fill, **kw)}/>"


def line(d: str, stroke: str, width: float, **kw: object) -> str:
    """An open stroked path, round-capped."""
    return path(d, "none", stroke=stroke, stroke_width=width, **kw)


def dots(points: list[tuple[float, float]], fill: str, diameter: float) -> str:
    """Round dots as one path of zero-length round-capped strokes (a blossom's petals in a few
    bytes each)."""
    d = "".join(f"M{n(x)} {n(y)}h0" for x, y in points)
    return f'<path{attrs(d=d, stroke=fill, stroke_width=diameter)}/>'


def group(parts: list[str], **kw: object) -> str:
    return f"<g{attrs(**kw)}>{''.join(parts)}</g>"


def poly(points: list[tuple[float, float]]) -> str:
    return "M" + " ".join(f"{n(x)} {n(y)}" for x, y in points) + "Z"


# -- shared shapes ------------------------------------------------------------------------------

def blossoms(centres: list[tuple[float, float]], r: float, petal: str, eye: str, turn: float = 0) -> list[str]:
    """Five round petals and an eye round each centre (plum, cherry)."""
    petals = []
    for k, (cx, cy) in enumerate(centres):
        for i in range(5):
            a = math.radians(turn * k + 72 * i - 90)
            petals.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return [dots(petals, petal, r * 1.9), dots(centres, eye, r)]


def star(cx: float, cy: float, outer: float, inner: float, points: int, rot: float = 0) -> str:
    pts = []
    for i in range(points * 2):
        a = math.radians(rot - 90 + 180 * i / points)
        r = outer if i % 2 == 0 else inner
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return poly(pts)


def maple_leaf(cx: float, cy: float, r: float, rot: float) -> str:
    """Five pointed lobes, the top one longest, deep notches between."""
    pts = []
    for a, k in ((-110, 0.62), (-82, 0.3), (-55, 0.9), (-27, 0.36), (0, 1.0), (27, 0.36), (55, 0.9),
                 (82, 0.3), (110, 0.62), (150, 0.22), (180, 0.28), (210, 0.22)):
        t = math.radians(a + rot - 90)
        pts.append((cx + r * k * math.cos(t), cy + r * k * math.sin(t)))
    return poly(pts)


def sun() -> str:
    """The 光's mark: a red sun disc in the top-left corner, ringed in the face colour so that it
    reads on any sky."""
    return circle(14, 14, 9, RED, stroke=FACE, stroke_width=1.5)


# -- the twelve plants (each fills the card; a card's mark is drawn over it) ------------------

def pine() -> list[str]:
    out = [line("M10 94C14 76 20 62 30 54S44 36 52 16M27 57C20 52 14 50 8 50M40 42C46 44 52 50 56 58",
                "#6b4226", 3)]
    clumps, needles = [], []
    for cx, cy, w in ((14, 48, 11), (50, 56, 11), (46, 22, 12), (26, 74, 10)):
        clumps.append(ellipse(cx, cy, w, w * 0.5, "#24592c"))
        needles += [f"M{n(cx)} {n(cy + w * 0.45)}L{n(cx + w * 0.95 * math.cos(math.radians(a)))} "
                    f"{n(cy - w * 0.5 * math.sin(math.radians(a)))}" for a in (15, 45, 75, 105, 135, 165)]
    return out + clumps + [line("".join(needles), "#6fae4f", 1.2)]


def plum() -> list[str]:
    return [line("M8 92C20 74 22 58 32 48S46 30 56 12", INK, 3.2),
            line("M32 48C40 50 48 54 56 62M22 66C16 62 12 56 10 48", INK, 1.9),
            *blossoms([(10, 46), (22, 66), (32, 46), (44, 30), (53, 13), (54, 62), (14, 82)], 3.4,
                      "#d8213f", "#f6d24a"),
            dots([(48, 54), (38, 40), (26, 56)], "#d8213f", 3.4)]


def cherry() -> list[str]:
    cloud = "#f7c6d4"
    return [path("M2 6H62V30C56 36 50 30 44 34S30 30 24 36 10 30 2 34ZM62 60C54 56 46 62 42 70S44 84 52 86 62 82 62 82Z",
                 cloud),
            line("M4 94C10 80 14 64 22 52", "#5b3a26", 3.2),
            *blossoms([(10, 18), (24, 12), (38, 20), (52, 12), (18, 30), (46, 30), (53, 70), (47, 80), (57, 87)],
                      3.1, "#ef8fae", "#c23a66", turn=17)]


def wisteria() -> list[str]:
    big, small = [], []
    for x, top, count in ((10, 8, 9), (24, 9, 11), (38, 9, 8), (52, 7, 10)):
        for i in range(count):
            (big if i < count * 0.55 else small).append((x + 1.5 * math.sin(i * 0.9), top + 4 + i * 5.2))
    return [line("M2 8C18 4 40 12 62 6", "#4e3b2a", 2.6),
            dots(big[::2], "#6c49b0", 6), dots(big[1::2], "#a88ad9", 5.6),
            dots(small[::2], "#6c49b0", 3.6), dots(small[1::2], "#a88ad9", 3.2),
            line("M14 9l6 1M42 10l6 2", "#4f8a3a", 3)]


def iris() -> list[str]:
    out = [path("M6 94Q8 60 16 36Q14 64 13 94ZM20 94Q22 64 30 44Q26 70 26 94Z"
                "M36 94Q38 66 50 40Q42 68 42 94ZM50 94Q52 72 60 54Q56 74 57 94Z", "#3c8a3a"),
           line("M22 94V40M45 94V30", "#2e6e2e", 1.4)]
    for x, y in ((22, 32), (45, 22), (14, 58)):
        out += [ellipse(x, y - 5, 2.8, 6, "#4636a4"),
                ellipse(x - 5, y + 2, 2.8, 6.5, "#5a48c0", rot=45),
                ellipse(x + 5, y + 2, 2.8, 6.5, "#5a48c0", rot=-45),
                line(f"M{x} {y - 1}v4", "#f2d04a", 2)]
    return out


def peony() -> list[str]:
    out = [path("M6 94C4 80 10 70 22 66C18 76 14 86 6 94ZM58 94C60 80 54 70 42 66C46 76 50 86 58 94Z"
                "M30 94C26 84 28 76 34 70C38 78 36 86 30 94ZM10 40C14 32 22 30 28 32C22 38 16 40 10 40Z", "#336f33")]
    for x, y, r in ((32, 52, 13), (16, 22, 8)):
        ring = [(x + r * 0.55 * math.cos(math.radians(45 * i)), y + r * 0.55 * math.sin(math.radians(45 * i)))
                for i in range(8)]
        out += [dots(ring, "#c7233f", r), dots([(x, y)], "#ee7f98", r * 1.2), dots([(x, y)], "#f6d24a", r * 0.44)]
    return out


def clover() -> list[str]:
    arcs = (("M6 94C8 64 26 36 55 23", (0.2, 0.35, 0.5, 0.65, 0.8, 0.95)),
            ("M30 94C32 74 44 56 56 50", (0.3, 0.55, 0.8, 0.98)),
            ("M18 94C14 72 10 54 8 40", (0.4, 0.7, 0.95)))
    dark, green, flowers = [], [], []
    for d, ts in arcs:
        nums = [float(v) for v in d[1:].replace("C", " ").split()]
        p = [(nums[i], nums[i + 1]) for i in range(0, 8, 2)]
        for t in ts:
            x = sum(c * px for c, (px, _) in zip(_bez(t), p))
            y = sum(c * py for c, (_, py) in zip(_bez(t), p))
            dark.append(f"M{n(x - 1)} {n(y)}l-4 -2")
            green.append(f"M{n(x + 1)} {n(y + 1)}l4 1")
            flowers.append((x, y - 2.6))
    return [line("".join(d for d, _ in arcs), "#7a3826", 1.6), line("".join(dark), "#7a2a2a", 2.6),
            line("".join(green), "#5f7d2e", 2.6), dots(flowers, "#cc2f86", 3.6)]


def _bez(t: float) -> tuple[float, float, float, float]:
    u = 1 - t
    return u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t


def pampas() -> list[str]:
    blades = "".join(f"M{x} 94Q{x + 2} {74 - (x % 7)} {x + 8} {60 - (x % 5)}" for x in range(4, 60, 8))
    out = [path("M2 58Q32 40 62 54V94H2Z", "#2d2824"), line(blades, "#e8dcc0", 1.1),
           line("".join(f"M{x} 52Q{x + 1} {top + 10} {x + 4} {top}" for x, top in ((14, 30), (30, 22), (48, 28))),
                "#8a7a4a", 1)]
    return out + [ellipse(x + 5, top + 3, 2.2, 6, "#c8a86a", rot=25) for x, top in ((14, 30), (30, 22), (48, 28))]


def chrysanthemum() -> list[str]:
    out = [line("M36 50C34 66 30 80 28 94M16 72C18 82 20 88 22 94", "#4a6e2e", 1.6),
           path("M28 80C20 76 14 80 12 88C20 90 26 86 28 80ZM32 74C40 70 48 74 50 82C42 84 36 80 32 74Z"
                "M26 92C30 84 38 84 44 90C38 94 30 94 26 92Z", "#3c7a38")]
    for x, y, r, petal, inner, mid in ((36, 38, 13, "#eca81c", "#f6cf4a", "#b8561a"),
                                       (16, 66, 8, "#c8322a", "#e86a4a", "#f0b420")):
        out += [path(star(x, y, r, r * 0.62, 16), petal, stroke=petal, stroke_width=1, stroke_linejoin="round"),
                path(star(x, y, r * 0.62, r * 0.38, 12, 15), inner),
                circle(x, y, r * 0.2, mid)]
    return out


def maple() -> list[str]:
    out = [line("M62 10C46 18 36 30 30 46S22 70 14 90M34 36C40 42 46 44 54 44M26 60C20 58 14 54 8 54",
                "#4e3222", 1.8)]
    for col, leaves in (("#d2311c", ((48, 16, 10, 10), (22, 30, 10, -10), (40, 64, 10, 5))),
                        ("#e07a22", ((54, 44, 9, -15), (16, 82, 9, -5))),
                        ("#b8241a", ((9, 54, 8, 20), (50, 86, 8, 15)))):
        out.append(path("".join(maple_leaf(x, y, r, rot) for x, y, r, rot in leaves), col))
    return out


def willow_strands(col: str = "#5e9a2e", leaves: str = "#8cc24a") -> list[str]:
    d = "".join(f"M{x} 4C{x + 4} 30 {x - 3} 60 {x + 2} {86 - (x % 9) * 2}" for x in (8, 18, 28, 40, 50, 58))
    return [line("M2 6C20 2 44 2 62 6", "#4a3a28", 2.4), line(d, col, 1.3),
            line(d, leaves, 2.6, stroke_dasharray="2 4")]


def willow() -> list[str]:
    return willow_strands()


def paulownia() -> list[str]:
    # flower spikes standing up from the leaves, tapering upwards (wisteria's hang down)
    out = [line("M14 66V30M32 58V20M50 66V30", "#5a6a2a", 1.4)]
    dark, light = [], []
    for x, y in ((14, 56), (32, 48), (50, 56)):
        for i, count in enumerate((3, 3, 2, 2, 1)):
            yy = y - 6 * i
            row = [(x + 4.4 * (j - (count - 1) / 2), yy) for j in range(count)]
            (dark if i % 2 == 0 else light).extend(row)
    out += [dots(dark, "#7a4cb4", 4.6), dots(light, "#a77ed8", 4.4)]
    for cx, cy, rot in ((18, 79, -30), (46, 79, 30), (32, 72, 0)):
        out += [ellipse(cx, cy, 10, 12.5, "#3f8236", rot=rot),
                line(f"M{cx} {cy + 12}V{cy - 10}", "#bcd48a", 0.9, transform=f"rotate({rot} {cx} {cy})")]
    return out


PLANTS = {1: pine, 2: plum, 3: cherry, 4: wisteria, 5: iris, 6: peony, 7: clover, 8: pampas,
          9: chrysanthemum, 10: maple, 11: willow, 12: paulownia}


# -- the marks ----------------------------------------------------------------------------------

def crane() -> list[str]:
    return [ellipse(34, 62, 13, 8, "#ffffff", rot=-15, stroke=INK, stroke_width=1),
            path("M22 66C16 70 12 74 10 80C18 78 24 74 28 68Z", INK),
            line("M42 58C46 50 44 42 46 36", INK, 3),
            circle(47, 34, 3.2, "#ffffff", stroke=INK, stroke_width=0.8), circle(47, 32.4, 1.6, RED),
            line("M49.5 35L57 38", "#c8a040", 1.3),
            line("M31 69L28 90M37 68L39 90", INK, 1.2)]


def curtain() -> list[str]:
    out = [line("M4 40H60", "#6b4226", 2.5)]
    stripes = ("#c8202a", "#ffffff", "#6c3a9c", "#ffffff", "#c8202a", "#ffffff", "#6c3a9c")
    w = 52 / len(stripes)
    for i, col in enumerate(stripes):
        x = 6 + i * w
        out.append(path(f"M{n(x)} 41H{n(x + w)}V68Q{n(x + w / 2)} 74 {n(x)} 68Z", col, stroke=INK, stroke_width=0.6))
    out += [circle(32, 55, 6, "#ffffff", stroke=INK, stroke_width=0.8), path(star(32, 55, 5, 2.2, 5), "#c8202a"),
            line("M12 40L10 50M52 40L54 50", "#e0b030", 1.5)]
    return out


def moon() -> list[str]:
    return [path("M2 2H62V50Q32 38 2 56Z", RED), circle(32, 28, 15, "#fbf4d8", stroke="#e8c870", stroke_width=1)]


def rain_man() -> list[str]:
    return [line("M14 40L8 56M22 36L16 52M56 44L50 60M60 64L54 80M8 70L4 80", "#5a6f8a", 0.9),
            path("M16 44Q34 20 56 38Q50 36 46 40Q42 35 36 38Q32 34 26 38Q21 36 16 44Z", "#e9a31c", stroke=INK, stroke_width=0.8),
            line("M36 30L40 72", INK, 1.1),
            path("M34 60L46 58L50 86H26Z", "#27376e", stroke=INK, stroke_width=0.6),
            circle(41, 53, 4, "#f2d0a8", stroke=INK, stroke_width=0.6), path("M37 51Q41 46 45 51Z", INK),
            ellipse(13, 86, 5, 3.5, "#3c9a3a", stroke=INK, stroke_width=0.6),
            circle(11, 83, 1.6, "#3c9a3a", stroke=INK, stroke_width=0.5), circle(15, 83, 1.6, "#3c9a3a", stroke=INK, stroke_width=0.5),
            line("M9 89L6 91M17 89L20 91", "#2e7a2e", 1)]


def phoenix() -> list[str]:
    return [line("M24 50C14 60 10 70 18 80", "#2f8a4a", 3.4),
            line("M28 52C24 66 26 76 34 84", "#d0202e", 3.4),
            line("M32 52C36 66 44 72 54 74", "#2a5ab0", 3.4),
            circle(18, 80, 2.6, "#f0c030"), circle(34, 84, 2.6, "#f0c030"), circle(54, 74, 2.6, "#f0c030"),
            path("M22 46C26 36 38 34 46 40C40 48 32 54 22 46Z", "#e0401e", stroke=INK, stroke_width=0.6),
            path("M30 40C34 26 46 22 56 26C50 36 42 40 30 40Z", "#2f8a4a", stroke=INK, stroke_width=0.6),
            path("M32 39C38 32 46 30 52 31", "none", stroke="#f0c030", stroke_width=1.2),
            line("M44 40C48 34 48 28 52 24", "#e0401e", 2.6),
            circle(53, 22, 3, "#e0401e", stroke=INK, stroke_width=0.6), line("M55.5 22L58 23.2", "#f0c030", 1.4),
            line("M52 19L54 13M54 19L58 14", "#f0c030", 1)]


def warbler() -> list[str]:
    body = "#7d8a2c"
    return [path("M19 54L9 61L12 63L21 58Z", "#5e6a20", stroke=INK, stroke_width=0.5),
            ellipse(28, 52, 11, 7, body, rot=-20, stroke=INK, stroke_width=0.7),
            circle(38, 44, 5.5, body, stroke=INK, stroke_width=0.7), circle(39.5, 43, 1.1, INK),
            path("M43 44L48 45L43 46.5Z", "#c8a040"), ellipse(26, 51, 6, 3.5, "#5e6a20", rot=-20),
            ellipse(30, 56, 5, 2.5, "#c8cc7a", rot=-20), line("M28 59L26 63M32 58L31 62", INK, 1)]


def cuckoo() -> list[str]:
    dark = "#33302e"
    return [path("M38 28A11 11 0 1 0 50 46A9 9 0 1 1 38 28Z", "#f0c838", stroke="#c89a20", stroke_width=0.6),
            path("M18 58C24 42 32 40 36 50C30 50 24 54 18 58Z", dark),
            path("M20 62C30 66 38 64 42 56C36 58 28 58 20 62Z", dark),
            ellipse(36, 54, 10, 4, dark, rot=-15), circle(46, 50, 3.5, dark),
            path("M49 49L55 49L49 51.5Z", "#e8b020"), circle(46.8, 49.3, 0.9, "#f0e0a0"),
            path("M27 56L14 52L16 58Z", dark), ellipse(38, 56, 5, 1.6, "#d8d0c0", rot=-15)]


def bridge() -> list[str]:
    """八橋: planks laid zigzag over the water, on posts."""
    planks = "M5 62L40 55M40 55L59 67M59 67L22 76M22 76L58 88"
    return [line("M8 62V72M40 56V66M58 68V78M23 77V87M56 88V93", "#5a3a1b", 2),
            line(planks, INK, 6.4), line(planks, "#9a6630", 4.8), line(planks, "#c89a60", 1)]


def butterflies() -> list[str]:
    out = []
    for x, y, s, a, b in ((21, 72, 1.4, "#3a66c8", "#f0c030"), (45, 30, 1.15, "#f0c030", "#d04020")):
        out += [ellipse(x - 5 * s, y - 4 * s, 5.5 * s, 4 * s, a, rot=-30, stroke=INK, stroke_width=0.6),
                ellipse(x + 5 * s, y - 4 * s, 5.5 * s, 4 * s, a, rot=30, stroke=INK, stroke_width=0.6),
                ellipse(x - 4 * s, y + 3.5 * s, 3.6 * s, 3 * s, b, rot=30, stroke=INK, stroke_width=0.6),
                ellipse(x + 4 * s, y + 3.5 * s, 3.6 * s, 3 * s, b, rot=-30, stroke=INK, stroke_width=0.6),
                ellipse(x, y, 1.1 * s, 5 * s, INK),
                line(f"M{n(x)} {n(y - 4 * s)}L{n(x - 3 * s)} {n(y - 10 * s)}M{n(x)} {n(y - 4 * s)}L{n(x + 3 * s)} {n(y - 10 * s)}",
                     INK, 0.6)]
    return out


def boar() -> list[str]:
    hide = "#5e4029"
    return [path("M12 60C14 50 24 46 36 48C44 48 50 52 54 58L60 62L56 66C50 70 40 72 28 72C18 72 12 68 12 60Z",
                 hide, stroke=INK, stroke_width=0.8),
            path("M14 56L18 50L20 55L24 48L27 54L31 47L33 53L38 48L40 54", "none", stroke=INK, stroke_width=1.2,
                 stroke_linejoin="round"),
            circle(50, 57, 1.1, "#f0e0a0"), path("M46 52L50 47L51 53Z", "#3e2a1a"),
            path("M56 64Q58 60 54 60", "none", stroke="#ffffff", stroke_width=1.3),
            line("M20 70L16 80M28 72L30 82M42 71L46 80M48 69L54 76", hide, 3.2),
            line("M12 60C8 58 6 62 4 60", hide, 1.4)]


def geese() -> list[str]:
    out = []
    for x, y, s in ((20, 18, 1.0), (40, 28, 0.9), (50, 12, 0.8)):
        out += [path(f"M{n(x - 9 * s)} {n(y - 3 * s)}Q{n(x - 3 * s)} {n(y - 1 * s)} {n(x)} {n(y + 2 * s)}"
                     f"Q{n(x + 3 * s)} {n(y - 1 * s)} {n(x + 9 * s)} {n(y - 5 * s)}"
                     f"Q{n(x + 3 * s)} {n(y + 1 * s)} {n(x)} {n(y + 5 * s)}Q{n(x - 3 * s)} {n(y + 1 * s)} {n(x - 9 * s)} {n(y - 3 * s)}Z",
                     "#1f1b18"),
                ellipse(x, y + 3 * s, 2.2 * s, 3.4 * s, "#1f1b18", rot=-20)]
    return out


def sake_cup() -> list[str]:
    return [path("M12 48Q32 78 52 48Z", "#c8202a", stroke=INK, stroke_width=0.8),
            ellipse(32, 48, 20, 5, "#e2b53a", stroke=INK, stroke_width=0.8),
            ellipse(32, 48, 16, 3.4, "#c8202a"),
            path("M26 61H38L40 67H24Z", "#e2b53a", stroke=INK, stroke_width=0.6),
            path(star(32, 56, 3.5, 1.5, 5), "#e2b53a")]


def deer() -> list[str]:
    hide = "#a8642a"
    return [ellipse(30, 58, 14, 7.5, hide, stroke=INK, stroke_width=0.8),
            path("M38 54L44 38L50 40L44 56Z", hide, stroke=INK, stroke_width=0.6),
            ellipse(49, 38, 5.5, 3.4, hide, rot=20, stroke=INK, stroke_width=0.6), circle(48.5, 37, 0.9, INK),
            line("M46 35L42 22L38 18M42 22L46 16M44 28L40 26M50 35L54 22L52 16M54 22L58 18", "#4e3222", 1.3),
            line("M20 64L18 82M26 65L25 82M36 65L38 82M41 62L45 80", hide, 2.4),
            circle(26, 55, 1.1, "#f8ecd0"), circle(31, 53, 1.1, "#f8ecd0"), circle(34, 58, 1.1, "#f8ecd0"),
            circle(22, 58, 1.1, "#f8ecd0"), path("M16 56L12 52L14 58Z", hide)]


def swallow() -> list[str]:
    dark = "#1c2236"
    return [path("M30 50C22 40 14 34 4 32C12 40 20 48 26 54Z", dark),
            path("M34 52C42 42 52 40 60 42C52 46 44 52 38 58Z", dark),
            ellipse(32, 56, 9, 4.5, dark, rot=25),
            path("M26 52L12 62L18 60L14 70L28 58Z", dark),
            circle(40, 61, 3.6, dark), circle(41.5, 63, 1.6, "#d0202e"),
            path("M43 61L47 64L42.5 63Z", INK), ellipse(33, 58.5, 6, 1.8, "#f4f0e6", rot=25)]


def ribbon(col: str, poem: bool) -> list[str]:
    out = [path("M27 14H39V70L33 66L27 70Z", col, stroke=INK, stroke_width=0.9),
           line("M27 19H39", "#f4e8c8", 1)]
    if poem:
        out.append(line("M31 25q4 1 1 4t2 4M34 36c-4 2 0 5 1 3M31 44q1 4 4 3M33 50v5l-2 2M31 60c2-1 4 0 3 3",
                        INK, 1.3))
    return [group(out, transform="rotate(-14 33 42)")]


def rain() -> list[str]:
    """柳のカス: the lightning card: a dark storm sky with rain and a bolt over the willow."""
    return [path("M2 2H62V94H2Z", "#3b3f4c"),
            *willow_strands("#4e7a2a", "#6e9a3a"),
            line("".join(f"M{x} {y}L{x - 4} {y + 12}" for x, y in ((8, 20), (20, 50), (32, 14), (46, 56), (56, 24),
                                                                  (12, 74), (40, 80), (58, 70))), "#a8b8d0", 0.9),
            path("M34 8L22 40H32L24 70L46 32H36L44 8Z", "#f2c230", stroke="#8a6a10", stroke_width=0.8),
            circle(14, 86, 5, RED, stroke=INK, stroke_width=0.7), circle(28, 88, 5, RED, stroke=INK, stroke_width=0.7),
            circle(42, 88, 5, RED, stroke=INK, stroke_width=0.7)]


MARKS = {
    "1h": crane, "3h": curtain, "8h": moon, "11h": rain_man, "12h": phoenix,
    "2t": warbler, "4t": cuckoo, "5t": bridge, "6t": butterflies, "7t": boar, "8t": geese,
    "9t": sake_cup, "10t": deer, "11t": swallow,
}
#: marks drawn larger than written: scale, and the point that stays put
ZOOM = {"12h": (1.15, 36, 44), "2t": (1.25, 30, 52), "4t": (1.2, 34, 50)}
AKATAN = {1, 2, 3}
AOTAN = {6, 9, 10}


def picture(month: int, kind: str) -> list[str]:
    code = f"{month}{kind}"
    if code == "11k":
        return rain()
    out = PLANTS[month]()
    if kind == "r":
        out += ribbon(BLUE if month in AOTAN else RED, poem=month in AKATAN)
    elif kind in "ht":
        mark = MARKS[code]()
        if code in ZOOM:
            k, x, y = ZOOM[code]
            mark = [group(mark, transform=f"matrix({k} 0 0 {k} {n(x - k * x)} {n(y - k * y)})")]
        out += mark
        if kind == "h":
            out.append(sun())
    return out


def symbol(month: int, kind: str) -> str:
    # the card: its own opaque face and dark edge (the picture stays inside the edge's inner half)
    face = f'<rect x="1" y="1" width="62" height="94" rx="5" fill="{FACE}" stroke="{EDGE}" stroke-width="2"/>'
    # drawn last, a cream rim inside the edge: the card keeps its outline on a dark page where the
    # picture is dark to its border (芒's hill, the storm), and the picture's border is neat
    edge = f'<rect x="2.6" y="2.6" width="58.8" height="90.8" rx="3.6" stroke="{FACE}" stroke-width="1.6"/>'
    body = "".join(picture(month, kind))
    return (f'<symbol id="card-{month}{kind}" viewBox="0 0 {W} {H}" fill="none" stroke-linecap="round" stroke-linejoin="round">'
            f"{face}{body}{edge}</symbol>\n")


def sprite() -> str:
    """The whole sprite, as text (the committed file's exact content)."""
    head = ('<svg xmlns="http://www.w3.org/2000/svg">\n'
            "<!-- hachi-score card faces: generated by scripts/make_card_sprite.py, do not edit -->\n")
    return head + "".join(symbol(c.month, c.kind_code) for c in FACES) + "</svg>\n"


def main(argv: list[str]) -> int:
    text = sprite()
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text("utf-8") == text
        print("cards.svg is up to date" if same else "cards.svg is stale: run scripts/make_card_sprite.py")
        return 0 if same else 1
    OUT.write_text(text, "utf-8", newline="\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(FACES)} faces, {len(text.encode('utf-8'))} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
