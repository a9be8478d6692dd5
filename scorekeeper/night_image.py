"""``summary --image FILE.png``: the night's end as the phones' picture (the page draws it on a
canvas: ``drawEnd`` in web/static/app.js, line for line), drawn with Pillow (the optional extra
``hachi-score[image]``) in a CJK font found on the system, from :func:`night_end.end_figures`."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable, Mapping

from .lang import L_, _, n_
from .night_end import IMAGE_WIDTH

#: where a CJK font is looked for when fontconfig has none to say (Debian's fonts-noto-cjk, macOS, others)
KNOWN_FONTS = {
    "regular": ["/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
                "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
                "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
                "/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc", "/Library/Fonts/Arial Unicode.ttf"],
    "bold": ["/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
             "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
             "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Bold.ttc",
             "/System/Library/Fonts/ヒラギノ角ゴシック W6.ttc"],
}
INK = {"bg": "#fbf8f1", "fg": "#1d1b18", "muted": "#6b655c", "line": "#d9d1c3", "accent": "#b3262d",
       "pos": "#1f7a3d", "neg": "#c0182b"}
#: each player's line and key, in seat order (the page's --p0 … --p6, light)
PLAYER_INK = ["#b3262d", "#1f5fa8", "#2f8a3b", "#8a5a00", "#7b3fa0", "#0f7c80", "#a8326e"]


class NoFont(Exception):
    """No font with Japanese in it was found: the picture can't be drawn."""


class NoPillow(Exception):
    """Pillow is not installed."""


def cjk_font(weight: str = "regular") -> str:
    """A font file that holds Japanese: $HACHI_FONT, else the one fontconfig chooses for Japanese
    (when it says it holds it), else a known path. :class:`NoFont` when there is none."""
    given = os.environ.get("HACHI_FONT")
    if given:
        if Path(given).is_file():
            return given
        raise NoFont(L_("HACHI_FONT {path}: no such font file", path=given))
    fc = shutil.which("fc-match")
    if fc:
        style = ":weight=bold" if weight == "bold" else ""
        try:
            out = subprocess.run([fc, "-f", "%{file}\n%{lang}", f"sans:lang=ja{style}"], capture_output=True,
                                 text=True, timeout=10).stdout.split("\n")
            if len(out) == 2 and "ja" in out[1].split("|") and Path(out[0]).is_file():
                return out[0]
        except (OSError, subprocess.SubprocessError):
            pass
    for path in KNOWN_FONTS[weight] + (KNOWN_FONTS["regular"] if weight == "bold" else []):
        if Path(path).is_file():
            return path
    raise NoFont(L_("no font with Japanese in it was found: install one (fonts-noto-cjk), or name one in HACHI_FONT"))


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def pay_line(x: Mapping[str, Any]) -> str:
    """A payment as the page words it: ``Aki → Ben 13文 = 130``."""
    pot = {"pot": _("pot")}
    line = _("{payer} → {payee} {mon}文").format(payer=pot.get(x["from"], x["from"]), payee=pot.get(x["to"], x["to"]),
                                                 mon=x["mon"])
    return line + ("" if x.get("money_text") is None else f" = {x['money_text']}")


def best_line(b: Mapping[str, Any]) -> str:
    if b["round"] is None:
        return _("no round won")
    return _("round {round}: {mon}文").format(round=b["round"], mon=signed(b["mon"])) + (
        " " + "・".join(b["yaku"]) if b["yaku"] else "")


def end_subtitle(F: Mapping[str, Any]) -> str:
    """``6 rounds · rate 10 per 文``: under the name."""
    rounds = n_("{n} round", "{n} rounds", F["rounds"]).format(n=F["rounds"])
    return rounds + ("" if F["rate_text"] is None else " · " + _("rate {money} per 文").format(money=F["rate_text"]))


def image_height(F: Mapping[str, Any]) -> int:
    """The picture's height: as the night needs (the page's ``drawEnd`` works it out alike)."""
    return (150 + 60 + 84 * len(F["standings"]) + 40 + 60 + 52 * max(1, len(F["settlement"])) + 40 + 60
            + 52 * len(F["best"]) + 40 + 300 + 70)


def draw_end(F: Mapping[str, Any], drawn: Callable[[Mapping[str, Any]], Any] | None = None) -> bytes:
    """The night's end (``F``: :func:`night_end.end_figures`) drawn, as PNG bytes; ``drawn`` is
    handed the figures drawn (a test's)."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise NoPillow(L_("--image needs Pillow: pip install 'hachi-score[image]'")) from None
    regular, bold = cjk_font("regular"), cjk_font("bold")
    fonts: dict[tuple[int, bool], Any] = {}

    def font(size: int, strong: bool) -> Any:
        if (size, strong) not in fonts:
            fonts[size, strong] = ImageFont.truetype(bold if strong else regular, size)
        return fonts[size, strong]

    if drawn is not None:
        drawn(F)
    W, H, pad, row, line, chart_h = IMAGE_WIDTH, image_height(F), 56, 84, 52, 300
    img = Image.new("RGB", (W, H), INK["bg"])
    g = ImageDraw.Draw(img)

    def text(t: str, x: float, y: float, size: int, color: str, strong: bool = False, right: bool = False,
             room: float = W - 2 * pad) -> None:
        cut = t  # a long name cut with … to its room
        while len(cut) > 1 and g.textlength(t if cut == t else cut + "…", font=font(size, strong)) > room:
            cut = cut[:-1]
        g.text((x, y), t if cut == t else cut + "…", fill=color, font=font(size, strong), anchor="rs" if right else "ls")

    def tone(mon: int) -> str:
        return INK["pos"] if mon > 0 else INK["neg"] if mon < 0 else INK["fg"]

    g.rectangle((0, 0, W, 150), fill=INK["accent"])
    text(f"八八 {F['name']}", pad, 82, 56, "#ffffff", True)
    text(end_subtitle(F), pad, 128, 30, "#ffffff")
    y = 150 + 60
    for s in F["standings"]:
        y += row
        text(str(s["rank"]), pad, y - 24, 44, INK["muted"], True)
        right = W - pad if F["rate_text"] is None else W - pad - 260
        room = right - 200 - g.textlength(f"{signed(s['mon'])}文", font=font(44, True)) - 24 - pad - 64  # up to the 文
        size = 44  # a long name in smaller type (down to 30 px), then cut
        while size > 30 and g.textlength(s["player"], font=font(size, True)) > room:
            size -= 2
        text(s["player"], pad + 64, y - 24, size, INK["fg"], True, room=room)
        text(f"{signed(s['mon'])}文", right - 200, y - 24, 44, tone(s["mon"]), True, True)
        text(s["kan"], right, y - 24, 30, INK["muted"], False, True)
        if F["rate_text"] is not None:
            text(s["money_text"], W - pad, y - 24, 44, tone(s["mon"]), True, True)
        g.rectangle((pad, y - 4, W - pad, y - 3), fill=INK["line"])
    y += 40 + 60
    text(_("settlement"), pad, y - 16, 32, INK["accent"], True)
    for said in [pay_line(x) for x in F["settlement"]] or [_("all square")]:
        y += line
        text(said, pad, y - 14, 34, INK["fg"])
    y += 40 + 60
    text(_("best rounds"), pad, y - 16, 32, INK["accent"], True)
    for b in F["best"]:
        y += line
        text(f"{b['player']}  {best_line(b)}", pad, y - 14, 34, INK["fg"])
    y += 40
    values = [0, *(v for run in F["running"].values() for v in run)]
    hi, lo = max(values), min(values)
    span = (hi - lo) or 1
    n = max(1, *(len(v) - 1 for v in F["running"].values()))

    def cx(i: int) -> float:
        return pad + 80 + (W - 2 * pad - 80) * i / n

    def cy(v: int) -> float:
        return y + 10 + (chart_h - 20) * (hi - v) / span

    g.rectangle((pad + 80, cy(0) - 1, W - pad, cy(0)), fill=INK["line"])
    text(signed(hi), pad + 70, cy(hi) + 10, 24, INK["muted"], False, True)
    text("0", pad + 70, cy(0) + 10, 24, INK["muted"], False, True)
    text(signed(lo), pad + 70, cy(lo) + 10, 24, INK["muted"], False, True)
    for i, p in enumerate(F["players"]):
        colour = PLAYER_INK[i % len(PLAYER_INK)]
        g.line([(cx(j), cy(v)) for j, v in enumerate(F["running"][p])], fill=colour, width=6, joint="curve")
    y += chart_h + 50
    key = (W - 2 * pad) / len(F["players"])
    for i, p in enumerate(F["players"]):
        text(f"● {p}", pad + i * key, y, 28, PLAYER_INK[i % len(PLAYER_INK)], True, room=key - 12)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()
