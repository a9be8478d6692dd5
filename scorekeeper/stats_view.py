"""Rich views of `stats`, and its chart as a hand-written SVG file.

Every number comes from :func:`scorekeeper.stats.aggregate`; names typed by people are shown as
:class:`rich.text.Text` (never rich markup) and escaped in the SVG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text

from .lang import _, n_, noted
from .render import FitTable, Phrased, mon, name, phrases
from .stats import SAGE_ENDS, SAGE_LABELS, unusual, unusual_words

#: one mark and colour per player, in order of first appearance (a night seats at most seven; a
#: book's players beyond eight share them)
MARKS = "●▲■◆✚★▼✖"
COLOURS = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan", "bright_magenta")
SVG_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#e377c2")
CHART_HEIGHT = 9


def _columns(values: Sequence[int], width: int) -> list[float]:
    """``values`` spread over ``width`` columns: the line between nights, interpolated where
    there are fewer nights than columns, sampled where there are more."""
    if len(values) == 1 or width == 1:
        return [float(values[-1])] * width
    out = []
    for x in range(width):
        t = x * (len(values) - 1) / (width - 1)
        i = min(int(t), len(values) - 2)
        out.append(values[i] + (values[i + 1] - values[i]) * (t - i))
    return out


class StandingsChart:
    """Cumulative standings night by night as a small line chart that fits the console's width."""

    def __init__(self, chart: Mapping[str, Any], height: int = CHART_HEIGHT) -> None:
        self.chart = chart
        self.height = height

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        standings = self.chart["standings"]
        nights = len(self.chart["nights"])
        if not nights:
            yield Text(_("no nights to chart"))
            return
        every = [v for vs in standings.values() for v in vs] + [0]
        lo, hi = min(every), max(every)
        label_w = max(len(f"{lo:+,}"), len(f"{hi:+,}"), 2) + 1
        width = max(1, min(options.max_width - label_w, 200))
        grid: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(self.height)]
        span = hi - lo or 1

        def row_of(v: float) -> int:
            return self.height - 1 - round((v - lo) * (self.height - 1) / span)

        zero = row_of(0)
        for x in range(width):
            grid[zero][x] = ("·", "dim")
        for i, values in enumerate(standings.values()):
            for x, v in enumerate(_columns(values, width)):
                grid[row_of(v)][x] = (MARKS[i % len(MARKS)], COLOURS[i % len(COLOURS)])
        for y, cells in enumerate(grid):
            line = Text()
            label = f"{hi:+,}" if y == 0 else f"{lo:+,}" if y == self.height - 1 else "0" if y == zero else ""
            line.append(label.rjust(label_w - 1) + " ", style="dim")
            for ch, style in cells:
                line.append(ch, style=style)
            yield line
        axis = Text(" " * label_w)
        first, last = _night(1), _night(nights)
        gap = width - cell_len(first) - cell_len(last)
        axis.append(first + (" " * gap + last if gap > 0 and nights > 1 else ""), style="dim")
        yield axis
        yield from self._legend(standings, label_w, options.max_width)

    @staticmethod
    def _legend(standings: Mapping[str, Sequence[int]], indent: int, room: int) -> RenderResult:
        """Each player's mark, name and standing, as many to a line as fit: one is never broken."""
        line = Text(" " * indent)
        for i, player in enumerate(standings):
            entry = Text(MARKS[i % len(MARKS)] + " ", style=COLOURS[i % len(COLOURS)])
            entry.append(f"{player} {values_last(standings[player]):+,}")
            if line.cell_len > indent and line.cell_len + 2 + entry.cell_len > room:
                yield line
                line = Text(" " * indent)
            if line.cell_len > indent:
                line.append("  ")
            line.append_text(entry)
        yield line


def values_last(values: Sequence[int]) -> int:
    return values[-1] if values else 0


def _count_text(counts: Mapping[str, int]) -> str:
    return " ".join(f"{k}×{v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])) or "–"


def _nights(n: int) -> str:
    return n_("{n} night", "{n} nights", n).format(n=n)


def _rounds(n: int) -> str:
    return n_("{n} round", "{n} rounds", n).format(n=n)


def _night(n: int) -> str:
    """``night 3``: the chart's axis."""
    return _("night {n}").format(n=n)


def _unusual(row: Mapping[str, Any]) -> str:
    """How unusual a row's figure held is, in words (the row's own English words, worded: the
    words are worked out again from the row, and are the row's whenever they say the same)."""
    template, args = unusual(row["held"], row["expected"], row["tail"])
    if unusual_words(row["held"], row["expected"], row["tail"]) != row["unusual"]:
        return row["unusual"]  # the rounded expectation says otherwise: the row's words, as they are
    return _(template).format(**args)


def _profile_view(title: str, data: Mapping[str, Any]) -> Group:
    """One profile's block. Every table fits the terminal without cutting a name, a yaku or an
    amount (:class:`~scorekeeper.render.FitTable`): what may wrap wraps between phrases."""
    players = data["players"]
    parts: list[Any] = [Text(title, style="bold")]
    table = FitTable(_("standings"), pad_edge=False, title_justify="left")
    table.add_column(_("player"), whole=True)
    for col in (_("nights"), _("rounds"), "文", "貫", _("per round")):
        table.add_column(col, right=True)
    for p, me in players.items():
        table.add_row(name(p), str(me["nights"]), str(me["rounds"]), mon(me["mon"]), me["kan"],
                      "–" if me["average"] is None else f"{me['average']:+.1f}")
    nights = FitTable(_("nights and rounds"), pad_edge=False, title_justify="left")
    nights.add_column(_("player"), whole=True)
    for col in (_("best night"), _("worst night")):  # an amount and a session: may wrap between the two
        nights.add_column(col, right=True, whole=False)
    for col in (_("rounds won"), _("親 held")):
        nights.add_column(col, right=True)
    for p, me in players.items():
        best, worst = me["best"], me["worst"]
        nights.add_row(name(p), Phrased([f"{best['mon']:+,}", best["session"]]) if best else "–",
                       Phrased([f"{worst['mon']:+,}", worst["session"]]) if worst else "–",
                       str(me["won"]), str(me["dealer"]))
    parts += [table, Text(), nights, Text()]

    cards = FitTable(_("what the cards gave"), pad_edge=False, title_justify="left")
    cards.add_column(_("player"), whole=True)
    cards.add_column(_("手役 held / expected"))
    cards.add_column(_("how unusual"))
    made = FitTable(_("出来役, 下げ and 特殊役"), pad_edge=False, title_justify="left")
    made.add_column(_("player"), whole=True)
    for col in ("出来役", "下げ", "特殊役"):
        made.add_column(col)
    counting = any(me.get(k) for me in players.values() for k in ("counted", "named", "unasked"))
    if counting:  # piles not given by their cards: no 出来役 odds read them
        made.add_column(_("piles typed / counted / by name / not asked"))
    for p, me in players.items():
        allrow = me["teyaku_all"]
        cards.add_row(name(p), f"{allrow['held']} / {allrow['expected']:.1f}", _unusual(allrow))
        row = [name(p), _counted(me["dekiyaku"]), _sage(me["sage"]), _counted(me["special"])]
        given = " / ".join(str(me.get(k, 0)) for k in ("typed", "counted", "named", "unasked"))
        made.add_row(*row, *([given] if counting else []))
    parts += [cards, Text(), made, Text()]

    each = FitTable(_("手役 by name: held / expected"), pad_edge=False, title_justify="left")
    each.add_column("手役", whole=True)
    for p in players:
        each.add_column(name(p), right=True)
    names = list(next(iter(players.values()))["teyaku"]) if players else []
    for y in names:
        cells = []
        for me in players.values():
            row = me["teyaku"][y]
            mark = " !" if row["tail"] < 0.05 and row["unusual"] != "as expected" else ""
            cells.append(f"{row['held']} / {row['expected']:.1f}{mark}")
        each.add_row(y, *cells)
    parts += [each, Text(_("! : about 1 in 20 or rarer"), style="dim"), Text()]

    if data["head_to_head"]:
        h2h = FitTable(_("head to head (paid between the two)"), pad_edge=False, title_justify="left")
        h2h.add_column(_("pair"))
        h2h.add_column(_("nights"), right=True)
        h2h.add_column(_("net"), right=True)
        for pair in data["head_to_head"]:
            h2h.add_row(Phrased(phrases(_("{a} v {b}"), a=name(pair["a"]), b=name(pair["b"]))),
                        str(pair["nights"]), Text(f"{pair['a']} {pair['net']:+,}"))
        parts += [h2h, Text()]
    parts += [Text(_("cumulative standings, night by night"), style="bold"), StandingsChart(data["chart"])]
    return Group(*parts)


def _counted(counts: Mapping[str, int]) -> Phrased:
    """``猪鹿蝶×2 青短×1``, most first: each yaku whole."""
    return Phrased(_count_text(counts).split(" "))


def _sage(sage: Mapping[str, int]) -> Phrased | str:
    """``3: 勝負 1, cancel 2``: the 下げ called and how each ended."""
    if not sage["declared"]:
        return "–"
    ends = [f"{_(SAGE_LABELS[h])} {sage[h]}" for h in SAGE_ENDS if sage[h]]
    sep = _(", ")  # ", " in English, "、" in Japanese: a space after it only where the language has one
    glue = " " if sep.endswith(" ") else ""
    return Phrased([f"{sage['declared']}:", *((" " if i == 0 else glue, e + (sep.rstrip() if i < len(ends) - 1 else ""))
                                              for i, e in enumerate(ends))])


def stats_view(data: Mapping[str, Any]) -> Group:
    """`stats` for the terminal: one block per profile."""
    if not data["profiles"]:
        return Group(Text(_("no sessions chosen: nothing to add up")))
    if "by_profile" in data:
        blocks: list[Any] = []
        for profile, part in data["by_profile"].items():
            blocks += [_profile_view(_title(profile, part), part), Text()]
        return Group(*blocks)
    return _profile_view(_title(data["profiles"][0], data), data)


def _title(profile: str, data: Mapping[str, Any]) -> str:
    """``rules sdin (1貫 = 10文): 3 nights, 36 rounds``."""
    return _("rules {profile}: {nights}, {rounds}").format(
        profile=noted(profile, f"1貫 = {data['kan_per']}文"), nights=_nights(data["nights"]), rounds=_rounds(data["rounds"]))


# ---------------------------------------------------------------------------------------------
# the SVG


def chart_svg(data: Mapping[str, Any], width: int = 720, height: int = 360) -> str:
    """The cumulative standings night by night, one chart per profile, as an SVG document."""
    parts = data["by_profile"] if "by_profile" in data else ({data["profiles"][0]: data} if data["profiles"] else {})
    panel_h = height
    total_h = max(1, len(parts)) * panel_h
    title, empty = escape(_("cumulative standings, night by night")), escape(_("no nights to chart"))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total_h}" '
           f'viewBox="0 0 {width} {total_h}" font-family="sans-serif" font-size="12">',
           f"<title>hachi-score: {title}</title>",
           f'<rect width="{width}" height="{total_h}" fill="#ffffff"/>']
    if not parts:
        out.append(f'<text x="20" y="30">{empty}</text>')
    for i, (profile, part) in enumerate(parts.items()):
        out.append(_panel(profile, part["chart"], 0, i * panel_h, width, panel_h))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _panel(profile: str, chart: Mapping[str, Any], x0: int, y0: int, width: int, height: int) -> str:
    left, right, top, bottom = 70, 130, 30, 40
    w, h = width - left - right, height - top - bottom
    standings = chart["standings"]
    n = len(chart["nights"])
    every = [v for vs in standings.values() for v in vs] + [0]
    lo, hi = min(every), max(every)
    span = (hi - lo) or 1

    def px(i: int) -> float:
        return x0 + left + (w * i / (n - 1) if n > 1 else w / 2)

    def py(v: float) -> float:
        return y0 + top + h - (v - lo) * h / span

    heading = escape(_("{profile}: cumulative 文 after each night").format(profile=profile))
    g = ['<g class="panel">',
         f'<text x="{x0 + left}" y="{y0 + 18}" font-weight="bold">'
         f'{heading}</text>',
         f'<line x1="{x0 + left}" y1="{y0 + top}" x2="{x0 + left}" y2="{y0 + top + h}" stroke="#888"/>',
         f'<line x1="{x0 + left}" y1="{py(0):.1f}" x2="{x0 + left + w}" y2="{py(0):.1f}" stroke="#bbb" stroke-dasharray="4 3"/>']
    for v in sorted({lo, 0, hi}):
        g.append(f'<text x="{x0 + left - 6}" y="{py(v) + 4:.1f}" text-anchor="end" fill="#555">{v:+,}</text>')
    g.append(f'<text x="{x0 + left}" y="{y0 + top + h + 18}" fill="#555">{escape(_night(1))}</text>')
    if n > 1:
        g.append(f'<text x="{x0 + left + w}" y="{y0 + top + h + 18}" text-anchor="end" fill="#555">{escape(_night(n))}</text>')
    for i, (player, values) in enumerate(standings.items()):
        colour = SVG_COLOURS[i % len(SVG_COLOURS)]
        points = " ".join(f"{px(j):.1f},{py(v):.1f}" for j, v in enumerate(values))
        if len(values) == 1:
            g.append(f'<circle cx="{px(0):.1f}" cy="{py(values[0]):.1f}" r="3" fill="{colour}"/>')
        else:
            g.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        ly = y0 + top + 16 * i + 6
        last = values[-1] if values else 0
        g.append(f'<rect x="{x0 + left + w + 14}" y="{ly - 8}" width="10" height="10" fill="{colour}"/>')
        g.append(f'<text x="{x0 + left + w + 30}" y="{ly + 1}">{escape(player)} {last:+,}</text>')
    g.append("</g>")
    return "\n".join(g)
