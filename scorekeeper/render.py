"""Output: rich tables for people, compact JSON lines for scripts.

Nothing here decides a number: every amount comes from a :class:`~scorekeeper.scoring.Result`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .cards import DECK_COUNT, FACES, MONTHS, sort_cards
from .lang import N_, _, noted
from .scoring import (
    BAD_ROUND, BLANK_ROLE, CARD_POINTS_REASON, FIELD_READINGS, MISDEAL, PLAIN_ROUND, POT, REDEAL, SOLO, SPECIAL_ROUND, SPLIT, Payment,
    PlayerResult, Result,
)
from .yaku import YAKU_BY_NAME

#: how each kind of round is settled, in words (worded with _() where shown)
ROUND_KINDS = {
    REDEAL: N_("場四 (ばし): redeal, nothing scored"),
    "出来役": N_("出来役 round: 手役 and 出来役 paid, no card points"),
    SPECIAL_ROUND: N_("特殊役 round: only 特殊役 paid, 手役 void"),
    PLAIN_ROUND: N_("plain round: 手役 paid, card points − 88"),
    MISDEAL: N_("流れ: nobody plays, the fees stay in the pot, the 親 deals again"),
    SOLO: N_("一人: one volunteer takes the pot, nothing is played"),
    SPLIT: N_("山分け: the two volunteers share the pot, nobody wins"),
}
#: a plain round of two volunteers (TRADITIONAL §7): no − 88, the two piles against each other
TWO_PLAYER_PLAIN = N_("two-player round: 手役 paid, the lower pile pays the difference of the two piles")

#: a payment's note (the result's JSON keeps the English) in words for people
PAYMENT_NOTES = {
    "split": N_("split"),
    "下げ": "下げ",
    "下げ: double": N_("下げ: double"),
    "下げ: half": N_("下げ: half"),
    "cancel: half": N_("cancel: half"),
}
#: the pot as a payer or payee (scoring's ``POT``), for people
POT_WORD = N_("pot")


def two_handed(result: Result) -> bool:
    """Two volunteers played the round out (TRADITIONAL §7 "Two-player round")."""
    return len(result.round.playing) == 2


def kind_line(result: Result) -> str:
    """How the round was settled, in words."""
    if result.kind == PLAIN_ROUND and two_handed(result):
        return _(TWO_PLAYER_PLAIN)
    return _(ROUND_KINDS[result.kind])


def texts(template: str, **args: Any) -> Text:
    """``template`` (worded already) with ``args`` put in, as a :class:`rich.text.Text`: an
    argument that is a ``Text`` (a name, a styled amount) keeps its style, and a name is never
    read as rich markup; the others are formatted as ``str.format`` would (``{n:,}``, ``{x!r}``)."""
    out = Text()
    for literal, field, spec, conversion in _fields(template):
        if literal:
            out.append(literal)
        if field is None:
            continue
        value = args[field]
        if isinstance(value, Text) and not spec and not conversion:
            out.append_text(value)
        else:
            out.append(_formatted(value, spec, conversion))
    return out


def _fields(template: str) -> Iterable[tuple[str, str | None, str | None, str | None]]:
    """``template``'s literal text and fields, as :meth:`string.Formatter.parse` gives them (the
    same parser, without importing :mod:`string`, whose Template compiles a regex at import)."""
    from _string import formatter_parser  # type: ignore[import-not-found]

    return formatter_parser(template)  # type: ignore[no-any-return]


def _formatted(value: Any, spec: str | None, conversion: str | None) -> str:
    """A field's value as ``str.format`` writes it: ``!r``, ``!s``, ``!a``, then the spec."""
    if conversion == "r":
        value = repr(value)
    elif conversion == "s":
        value = str(value)
    elif conversion == "a":
        value = ascii(value)
    elif conversion is not None:
        raise ValueError(f"Unknown conversion specifier {conversion}")
    return format(value, spec or "")


def phrases(template: str, **args: Any) -> list[Text]:
    """``template`` (worded already) with ``args`` put in, as the phrases of a :class:`Phrased`:
    each argument whole (with the words it touches: ``{mon}文``), the words between, each one."""
    out: list[Text] = [Text()]
    for literal, field, spec, conversion in _fields(template):
        for i, word in enumerate(literal.split(" ")):
            if i and out[-1].plain:
                out.append(Text())
            out[-1].append(word)
        if field is None:
            continue
        value = args[field]
        if isinstance(value, Text) and not spec and not conversion:
            out[-1].append_text(value)
        else:
            out[-1].append(_formatted(value, spec, conversion))
    return [p for p in out if p.plain]


def profile_label(rules: Any) -> str:
    """``fudawiki (1貫 = 10文)``: the profile's name and its kan, on every screen."""
    return noted(rules.name, f"1貫 = {rules.kan}文")


def party(who: str) -> str:
    """A payer or payee as shown: a player's name, or the pot in words."""
    return _(POT_WORD) if who == POT else who


def note_words(note: str) -> str:
    """A payment's note (``1. to drop``, ``下げ: double``) in words for people."""
    import re

    dropped = re.fullmatch(r"(\d+)\. to drop", note)
    if dropped:
        return _("{n}. to drop").format(n=int(dropped.group(1)))
    return _(PAYMENT_NOTES[note]) if note in PAYMENT_NOTES else note


def field_cards_text(field: Iterable[Any], lights: bool, sep: str = "  ") -> str:
    """The initial field's cards, or, where it was given by its 光 alone, those 光 and so."""
    cards = sep.join(f"{c.code} {c.ja}" for c in sort_cards(field))
    if not lights:
        return cards
    return _("光 only: {cards}").format(cards=cards) if cards else _("no 光 (its cards not typed)")


def card_points_text(r: Any) -> str:
    """A pile's card points, ``95 (counted)`` where they were counted rather than its cards typed;
    ``– (by name)``, ``– (not asked)`` where a round ended by a 出来役 needed no points."""
    if r.pile == "counted":
        return _("{points} (counted)").format(points=r.card_points)
    if r.pile == "named":
        return _("– (by name)")
    if r.pile == "unasked":
        return _("– (not asked)")
    return str(r.card_points)


def payment_reason(pay: Payment, result: Result) -> str:
    """A payment's reason for people: ``札 card points``; in a two-player round ``札 the
    difference of the two piles (28 − 23)``; a note in brackets."""
    reason = party(pay.reason)
    if reason == CARD_POINTS_REASON:
        points = {p: r.card_points for p, r in result.players.items()}
        reason = (_("札 the difference of the two piles ({high} − {low})").format(
                      high=points[pay.payee], low=points[pay.payer])
                  if two_handed(result) else _("札 card points"))
    return noted(reason, note_words(pay.note)) if pay.note else reason


def pot_line(result: Result) -> str | None:
    """What the round did with the pot (TRADITIONAL §7): ``140文 逃げ料 into the pot, 140文
    waits``, ``…; Aki takes the pot, 230文``, ``…; split: Dan 95文 · Aki 95文``; None if nothing."""
    fees = sum(pay.mon for pay in result.payments if pay.payee == POT)
    out = [(pay.payee, pay.mon) for pay in result.payments if pay.payer == POT]
    text = _("{mon}文 逃げ料 into the pot").format(mon=fees) if fees else ""
    if out:
        taken = (_("split: {shares}").format(shares=" · ".join(f"{who} {amount}文" for who, amount in out))
                 if result.kind == SPLIT
                 else _("{player} takes the pot, {mon}文").format(
                     player=out[0][0], mon=sum(amount for _who, amount in out)))
        text = _("{fees}; {taken}").format(fees=text, taken=taken) if text else taken
    elif result.state.pot:
        text = (_("{fees}, {mon}文 waits").format(fees=text, mon=result.state.pot) if text
                else _("{mon}文 waits").format(mon=result.state.pot))
    return text or None


class FitTable:
    """A table that fits the terminal: it drops its least important columns (by ``drop`` rank,
    lowest first: readings, romaji, notes) until it fits, and never wraps or cuts a number or a
    name (right-aligned columns, and columns marked ``whole``), nor a heading of one word. What
    may wrap, wraps at spaces. When even its narrowest table does not fit, its rows are stacked
    (:meth:`stacked`): each row's name on a line, its cells under it, headed, each one whole.

    Built like a :class:`rich.table.Table` (``add_column``, ``add_row``); it picks its layout
    when rendered, from the console's width (``COLUMNS``).
    """

    def __init__(self, title: Any = None, *, line: Callable[[tuple[Any, ...]], list[Any]] | None = None,
                 **options: Any) -> None:
        self.title = title
        #: a row stacked as one line of phrases, where the table reads as a sentence (a payment:
        #: ``Ben → Aki 60文 短一``), in place of its cells under their headings
        self.line = line
        self.options = {"show_edge": False, **options}
        self.columns: list[tuple[Any, bool, int | None, bool]] = []
        self.rows: list[tuple[tuple[Any, ...], Any]] = []

    def add_column(self, heading: Any = "", *, right: bool = False, drop: int | None = None,
                   whole: bool | None = None) -> None:
        """A column; ``whole`` (by default: when ``right``, numbers) never wraps. A right-aligned
        column that is not ``whole`` wraps between phrases (``+160 s1``)."""
        self.columns.append((heading, right, drop, right if whole is None else whole))

    def add_row(self, *cells: Any, style: Any = None) -> None:
        self.rows.append((cells, style))

    def table(self, dropped: frozenset[int] = frozenset()) -> Table:
        """The table without the columns ``dropped`` (by index); a heading of one word (出来役) is
        kept whole where its column may wrap."""
        table = Table(title=self.title, **self.options)
        keep = [i for i in range(len(self.columns)) if i not in dropped]
        for i in keep:
            heading, right, _drop, whole = self.columns[i]
            # what may wrap folds a word too long for its column, never cuts it ("…")
            least = max([_cells(heading)] + [_cells(cells[i]) for cells, _style in self.rows]) if whole else (
                max((_cells(word) for word in str(heading).split()), default=0))
            table.add_column(heading, justify="right" if right else "left", no_wrap=whole, min_width=least,
                             overflow="ellipsis" if whole else "fold")
        for cells, style in self.rows:
            table.add_row(*(self._cell(cells[i], self.columns[i][3]) for i in keep), style=style)
        return table

    @staticmethod
    def _cell(cell: Any, whole: bool) -> Any:
        """A cell as shown: text in a column that may wrap wraps as prose (:meth:`Phrased.words`:
        in Japanese after 、 and 。 too, not only at spaces)."""
        if whole or not isinstance(cell, str) or not cell:
            return cell
        return Phrased(*(Phrased.words(line) for line in cell.split("\n")))

    def dropping(self) -> Iterable[frozenset[int]]:
        """The columns left out, narrowest last: none, then each rank of columns in turn."""
        dropped: frozenset[int] = frozenset()
        yield dropped
        for rank in sorted({c[2] for c in self.columns if c[2] is not None}):
            dropped |= {i for i, c in enumerate(self.columns) if c[2] == rank}
            yield dropped

    def variants(self) -> Iterable[Table]:
        """The table, then with each rank of columns dropped in turn (built as asked for)."""
        return (self.table(dropped) for dropped in self.dropping())

    def stacked(self, dropped: frozenset[int] = frozenset()) -> Group:
        """The rows one under another, for a terminal too narrow for any table: a row's first
        cells up to its first whole one (a name, a number) on a line, then under it each other
        cell after its heading (``手役 短一 30``), its numbers together on one line
        (``札 32  文 -20``); a cell wraps between its phrases only. A cell that says nothing
        (empty, or ``–`` beside a heading) is left out."""
        from rich.padding import Padding

        keep = [i for i in range(len(self.columns)) if i not in dropped]
        lead = next((n + 1 for n, i in enumerate(keep) if self.columns[i][3] and not self.columns[i][1]),
                    1)  # up to the first whole column that is not a number: the row's name
        parts: list[Any] = [_as_text(self.title, "bold")] if self.title else []
        for cells, style in self.rows:
            if self.line is not None:
                parts.append(Phrased(self.line(cells)))
                continue
            head = Text()
            for i in keep[:lead]:
                heading, right = self.columns[i][0], self.columns[i][1]
                cell = _as_text(cells[i])
                if right and str(heading) and cell.plain:  # a number is said with its heading (# 3)
                    cell = _as_text(heading) + Text(" ") + cell
                if cell.plain:
                    if head.plain:
                        head.append(" ")
                    head.append_text(cell)
            if style:
                head.stylize(style)
            lines: list[list[tuple[str, Text]]] = []
            numbers: list[tuple[str, Text]] = []
            for i in keep[lead:]:
                heading, right, _drop, whole = self.columns[i]
                body = _phrase_lines(cells[i])
                if not body or (heading and [p.plain for _g, p in body[0]] == ["–"] and len(body) == 1
                                and not right):
                    continue
                label = _as_text(heading, "dim")
                if label.plain:
                    first = label + Text(" ")
                    first.append_text(body[0][0][1])
                    body[0][0] = (body[0][0][0], first)
                if right and whole:
                    numbers.append(("  ", body[0][0][1]))
                else:
                    lines.extend(body)
            if numbers:
                lines.append(numbers)
            parts.append(head)
            if lines:
                parts.append(Padding(Phrased(*lines), (0, 0, 0, 2), expand=False))
        return Group(*parts)

    def __rich_console__(self, console: Console, options: Any) -> Any:
        dropped: frozenset[int] = frozenset()
        for dropped in self.dropping():
            table = self.table(dropped)
            if _fitted(console, options, table):
                yield table
                return
        yield self.stacked(dropped)


def _as_text(cell: Any, style: Any = "") -> Text:
    """A cell or a heading as one line of text (a name, a number): its plain words, styled."""
    if isinstance(cell, Text):
        return cell.copy()
    if isinstance(cell, Phrased):
        return Text(" ".join(line for line in cell.plain.split("\n")), style=style)
    return Text(str(cell) if cell is not None else "", style=style)


def _phrase_lines(cell: Any) -> list[list[tuple[str, Text]]]:
    """A cell as the lines of phrases of a :class:`Phrased`: its own, or its words."""
    if isinstance(cell, Phrased):
        return [list(line) for line in cell.lines if line]
    if isinstance(cell, Text):
        return [[(" ", cell.copy())]] if cell.plain else []
    text = str(cell) if cell is not None else ""
    return [words for line in text.split("\n") if (words := Phrased.words(line))]


class Phrased:
    """A table cell whose phrases never break (a name, a yaku with its value, an amount): lines
    of phrases, each line wrapped between its phrases only when the column is narrow; shown
    joined by single spaces. rich breaks a cell at every space, inside a name such as ``Aki
    Tanaka`` too, and Japanese has no spaces to break at: a phrase here is whatever must stay
    together, in either language. A phrase given as ``("", text)`` follows the one before it
    without a space (Japanese prose, which may break after 、 and 。: :meth:`words`)."""

    def __init__(self, *lines: Iterable[Any]) -> None:
        self.lines = [[self._glued(p) for p in line] for line in lines]

    @staticmethod
    def _glued(phrase: Any) -> tuple[str, Text]:
        if isinstance(phrase, tuple):
            glue, text = phrase
            return glue, text if isinstance(text, Text) else Text(text)
        return " ", phrase if isinstance(phrase, Text) else Text(phrase)

    @staticmethod
    def words(text: str, style: Any = "") -> list[tuple[str, Text]]:
        """Prose as phrases: it may break at a space, and in Japanese after 、 and 。 (a cell
        keeps its words whole: a column is never squeezed to a character's width)."""
        import re

        out: list[tuple[str, Text]] = []
        for word in (w for w in text.split(" ") if w):
            for i, piece in enumerate(re.findall(r"[^、。]*[、。]|[^、。]+", word)):
                out.append(("" if i else " ", Text(piece, style=style)))
        return out

    @property
    def plain(self) -> str:
        return "\n".join("".join((glue if i else "") + p.plain for i, (glue, p) in enumerate(line))
                         for line in self.lines)

    def __rich_measure__(self, console: Console, options: Any) -> Any:
        from rich.measure import Measurement

        widest = max((p.cell_len for line in self.lines for _glue, p in line), default=0)
        longest = max((sum(len(glue) * bool(i) + p.cell_len for i, (glue, p) in enumerate(line))
                       for line in self.lines), default=0)
        return Measurement(widest, max(widest, longest))

    def __rich_console__(self, console: Console, options: Any) -> Any:
        width = options.max_width
        for line in self.lines:
            out = Text()
            for i, (glue, phrase) in enumerate(line):
                if i and out.cell_len + len(glue) + phrase.cell_len > width:
                    yield out
                    out = Text()
                elif i:
                    out.append(glue)
                out.append_text(phrase)
            yield out


class PhraseText:
    """A (styled) text whose phrases, separated by two or more spaces, go on the next line whole
    when the line is too long for the terminal, rather than breaking inside one
    (``rules sdin (1貫 = 10文)`` stays together)."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: Any) -> Any:
        import re

        from .layout import fill, has_wide

        width = options.max_width
        for line in self.text.split("\n"):
            if line.cell_len <= width:
                yield line
                continue
            spans = [m.span() for m in re.finditer(r"\S+(?: \S+)*", line.plain)]
            out = Text()
            for start, end in spans:
                phrase = line[start:end]
                if out.plain and out.cell_len + 2 + phrase.cell_len > width:
                    yield out
                    out = Text()
                if not out.plain and phrase.cell_len > width and has_wide(phrase.plain):  # Japanese prose
                    *whole, last = fill(phrase.plain, width).split("\n")
                    yield from (Text(part, style=phrase.style) for part in whole)
                    phrase = Text(last, style=phrase.style)
                if out.plain:
                    out.append("  ")
                out.append_text(phrase)
            yield out


class Phrases:
    """Lines of text whose phrases (separated by two or more spaces, or after a ``;``) never break:
    a line too long for the terminal goes on at a phrase's start, indented (the notation help)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: Any) -> Any:
        import re

        from rich.cells import cell_len

        width = options.max_width
        for line in self.text.splitlines():
            if cell_len(line) <= width:
                yield Text(line)
                continue
            indent = line[: len(line) - len(line.lstrip())]
            out = indent
            for phrase in re.split(r"\s{2,}|(?<=;)\s", line.strip()):
                if out.strip() and cell_len(out) + 2 + cell_len(phrase) > width:
                    yield Text(out.rstrip())
                    out = indent + "  "
                out += ("  " if out.strip() else "") + phrase
            yield Text(out.rstrip())


def _fitted(console: Console, options: Any, table: Table) -> bool:
    """Whether ``table`` fits the width without cutting a word; if it does, its columns are
    given their widths: each as wide as it would be, narrowed where it has the most to spare,
    none below its narrowest (its longest word, its number). rich's own squeezing of a table too wide takes
    from every column alike, below its narrowest too: a number cut, a word folded."""
    measures = [table._measure_column(console, options, c) for c in table.columns]
    room = options.max_width - table._extra_width
    least = [m.minimum for m in measures]
    if sum(least) > room:
        return False
    widths = [m.maximum for m in measures]
    if sum(widths) <= room:
        return True
    for _cell in range(sum(widths) - room):  # a cell at a time, off the one with the most to spare
        spare = max(range(len(widths)), key=lambda i: (widths[i] - least[i], widths[i], i))
        widths[spare] -= 1
    for i, column in enumerate(table.columns):
        column.width = widths[i] - table._get_padding_width(i)
    return True


def _cells(cell: Any) -> int:
    """The widest line of a cell, in terminal cells."""
    from rich.cells import cell_len

    text = cell.plain if isinstance(cell, Text) else str(cell)
    return max((cell_len(line) for line in text.split("\n")), default=0)


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def name(player: str) -> Text:
    """A player's name as typed: rich markup in a name is shown, never interpreted."""
    return Text(player)


def mon(amount: int) -> Text:
    """A signed amount in 文, green for a gain, red for a loss."""
    style = "green" if amount > 0 else "red" if amount < 0 else ""
    return Text(f"{amount:+d}" if amount else "0", style=style)


def seat_mon(r: PlayerResult) -> Text:
    """A player's 文 for a round: ``–`` for one who did not play and paid or got nothing
    (else their 逃げ料 or 追い込み compensation)."""
    return Text("–", style="dim") if r.role != "played" and not r.mon else mon(r.mon)


def kan(amount: int) -> str:
    """文 as 貫: 10文 = 1貫 (the night's one formatter, :func:`scorekeeper.night.kan`)."""
    from .night import kan as night_kan

    return night_kan(amount)


def yaku_label(yaku: str, value: int | None = None) -> str:
    """``三本 20`` — the name and, when known, its value in 文."""
    return yaku if value is None else f"{yaku} {value}"


def readings(names: Iterable[str]) -> str:
    """``読み: 三本 さんぼん · 赤短 あかたん`` for the yaku named, each once, in order."""
    seen = dict.fromkeys(n for n in names if n in YAKU_BY_NAME)
    parts = [f"{n} {YAKU_BY_NAME[n].reading}" for n in seen if YAKU_BY_NAME[n].reading != n]
    return "読み: " + " · ".join(parts) if parts else ""


def waiting_label(carry: Iterable[int]) -> str:
    """``×4 ×2 waiting``: the multipliers the next rounds will take (TRADITIONAL §8)."""
    carry = list(carry)
    return _("{waiting} waiting").format(waiting=" ".join(f"×{m}" for m in carry)) if carry else ""


def field_label(result: Result) -> str:
    """``小場 (こば) ×4 (carried over)``: the field's class and the multiplier the round applied, in
    the words every screen uses (:func:`scorekeeper.questions.stand_line`)."""
    from .questions import stand_line

    if result.kind == BAD_ROUND:
        return _("✗ does not score")
    fc = result.field_class
    carried = result.multiplier != result.rules.multipliers[fc] and not result.redeal
    return str(stand_line(fc, result.multiplier, carried, (), result.rules))


def round_view(result: Result, title: str | None = None) -> Group:
    """The full result of a round: field, each player's yaku and points, the payments."""
    rnd = result.round
    head = Text()
    if title:
        head.append(title + "  ", style="bold")
    head.append(field_label(result), style="bold")
    if result.kind == BAD_ROUND:
        head.append(f"\n{result.problem}\n" + _("It counts nothing until `edit` replaces it."), style="red")
        return Group(head)
    head.append("  " + _("rules {profile}").format(profile=profile_label(result.rules)))
    if result.state.carry:
        head.append("  " + waiting_label(result.state.carry), style="bold")
    head.append("\n" + kind_line(result))
    head.append("\n" + _("場札 field:") + "  " + field_cards_text(rnd.field, rnd.field_lights))
    if result.redeal:
        head.append("\n" + _("場四: {dealer} deals again. Nothing is scored or saved.").format(dealer=rnd.dealer))
        return Group(PhraseText(head))

    bonuses = any(r.bonuses for r in result.players.values())  # TRADITIONAL §6: no 特殊役
    table = _numbers_table(
        None,
        [(_("player"), False, None, True), ("手役", False), ("出来役", False), ("特殊役", False),
         *([(_("bonuses"), False)] if bonuses else []), ("札", True), ("文", True)],
        pad_edge=False,
    )
    priced = result.priced  # what the settlement priced each yaku at, in 文 before the multiplier
    for p, r in result.players.items():
        label = name(p)
        if p == rnd.round_dealer:  # the round's 親: the first volunteer, when some dropped
            label.append(" 親", style="bold")
        elif p == rnd.dealer:
            label.append(" " + _("(the night's 親)"), style="dim")
        if r.role == "dropped":
            label.append(" " + _("(dropped)"), style="dim")
        elif r.role == "forced_out":
            label.append(" 追い込み", style="dim")
        elif r.role == BLANK_ROLE:  # TRADITIONAL §11.5: held the 白札, sat the round out
            label.append(" " + _("白札, sat out"), style="dim")
        if p == rnd.mizuten:  # TRADITIONAL §11.2
            label.append(" みずてん", style="yellow")
        if p in rnd.sage:
            label.append(" 下げ", style="yellow")
        if p == rnd.ended_by:  # cancelled after their 下げ: no 上がり (TRADITIONAL §4)
            label.append(" " + (_("cancel") if rnd.ended_how == "cancel" else "上がり"), style="cyan")
        void = result.void(p)
        te = [yaku_label(t, priced.get((p, t))) for t in r.teyaku_all] or ["–"]
        if r.teyaku and r.role == "forced_out":
            te[-1] = noted(te[-1], "追い込み")  # their compensation, paid before play: no 特殊役 cancels it (§7)
        elif r.teyaku in void:  # a hand's 手役 are paid or void together (a 特殊役 round, a dropped hand)
            te[-1] = noted(te[-1], _("void"))
        # several yaku in a cell: " · " between them, so that a narrow column wraps between two
        deki = [yaku_label(d, priced.get((p, d))) for d in r.dekiyaku]
        deki = [noted(label, _("void")) if d in void else label for d, label in zip(r.dekiyaku, deki)] or ["–"]
        sp = [yaku_label(y, priced.get((p, y))) for y in r.special] or ["–"]
        bonus = [yaku_label(b, priced.get((p, b))) for b in r.bonuses] or ["–"]
        table.add_row(label, _joined(te, "+"), _joined(deki, "·"), _joined(sp, "·"),
                      *([_joined(bonus, "·")] if bonuses else []),
                      card_points_text(r) if r.role == "played" else "–", seat_mon(r))

    pays = FitTable(_("payments"), pad_edge=False, title_justify="left", line=_payment_line)
    pays.add_column(_("from"), whole=True)
    pays.add_column(_("to"), whole=True)
    pays.add_column("文", right=True)
    pays.add_column(_("for"))
    for pay in result.payments:
        pays.add_row(name(party(pay.payer)), name(party(pay.payee)), str(pay.mon), payment_reason(pay, result))
    if not result.payments:
        pays.add_row("–", "–", "0", _("nobody pays"))
    named = [y for r in result.players.values() for y in (*r.teyaku_all, *r.dekiyaku, *r.special, *r.bonuses)]
    from .layout import Prose

    foot: list[Any] = []
    if result.kind == PLAIN_ROUND and two_handed(result) and not any(
            pay.reason == CARD_POINTS_REASON for pay in result.payments):
        tie = result.players[rnd.playing[0]].card_points
        foot.append(Prose(_("札: the two piles tie at {points}, nobody pays for them").format(points=tie)))
    pot = pot_line(result)
    if pot:
        foot.append(Prose(_("pot: {pot}").format(pot=pot), keep=result.players))
    foot.append(Text(_("next 親: {dealer}").format(dealer=result.next_dealer)))
    legend = readings(named)
    if legend:
        foot.append(Prose(legend, "dim"))
    return Group(PhraseText(head), table, pays, *foot)


def _payment_line(cells: tuple[Any, ...]) -> list[Any]:
    """A payment's row as one line, for a terminal too narrow for the table: ``Ben → Aki 60文 短一``."""
    payer, payee, amount, reason = cells
    if str(payer) == "–":  # nobody pays
        return Phrased.words(reason)
    return [*phrases(_("{payer} → {payee} {mon}文"), payer=payer, payee=payee, mon=amount), *Phrased.words(reason)]


def _joined(labels: list[str], sep: str) -> Phrased:
    """Yaku labels (``三本 20``) in one cell, ``sep`` between them: the cell wraps between two,
    never inside one."""
    return Phrased([label + ("" if i == len(labels) - 1 else f" {sep}") for i, label in enumerate(labels)])


def cards_table() -> FitTable:
    """Every card with its code, Japanese name, reading and points."""
    table = _numbers_table(
        _("The 48 cards (hachi-score cards)"),
        [(_("month"), False, None, True), ("", False, 2), (_("code"), False, None, True),
         (_("name"), False, None, True), (_("romaji"), False, 1), (_("kind"), False, None, True), ("", False, 1),
         (_("points"), True), ("×", True)],
    )
    for c in FACES:
        m = MONTHS[c.month - 1]
        table.add_row(
            f"{m.number} {m.ja}",
            f"({m.reading})",
            c.code,
            c.ja,
            c.romaji,
            c.kind.ja,
            c.kind.romaji,
            str(c.points),
            str(DECK_COUNT[c]),
        )
    return table


def _percent(row: dict[str, Any]) -> str:
    return f"{row['probability'] * 100:.3f} %"


def _one_in(row: dict[str, Any]) -> str:
    n = row["one_in"]
    return "–" if n is None else _("1 in {n:,.0f}").format(n=n) if n >= 100 else _("1 in {n:,.2f}").format(n=n)


def _numbers_table(title: str | None, columns: list[tuple[Any, ...]], **options: Any) -> FitTable:
    """A table whose columns are ``(heading, right-aligned?[, drop rank[, whole]])``: numbers
    (right-aligned) are never cut; a column with a drop rank goes first when the terminal is
    narrow (lowest rank first)."""
    table = FitTable(title, **options)
    for col, right, *more in columns:
        table.add_column(col, right=right, drop=more[0] if more else None, whole=more[1] if len(more) > 1 else None)
    return table


def odds_view(report: dict[str, Any]) -> Group:
    """The `odds` report: every 手役 with its count and odds, the hand's 手役, the field classes.

    Under a profile that scores groups (fudawiki) the 手役 part is each group's best, the
    combinations of the groups and the hands worth at least N kan (:func:`_odds_groups_parts`).
    """
    parts: list[Any] = []
    if "field" in report:
        f = report["field"]
        note = "  " + _("場四: the 親 redeals") if f["bashi"] else ""
        parts.append(Text(_("場札 field:") + f" {' '.join(f['cards'])}  {f['class']} "
                          f"({FIELD_READINGS[f['class']]}) ×{f['multiplier']}{note}"))
    if report.get("teyaku_mode") == "groups":
        parts.extend(_odds_groups_parts(report))
    else:
        parts.extend(_odds_highest_parts(report))
    if "field_odds" in report:
        fo = report["field_odds"]
        ft = _numbers_table(
            _("the field: {total:,} six-card fields").format(total=fo["total"]),
            [(_("field"), False), ("×", True), (_("fields"), True), (_("probability"), True),
             (_("1 in N"), True), (_("if not 場四"), True, 3)],
        )
        for cls, row in fo["classes"].items():
            ft.add_row(f"{cls} ({FIELD_READINGS[cls]})", str(row["multiplier"]), f"{row['count']:,}",
                       _percent(row), _one_in(row), _percent(fo["classes_played"][cls]))
        b = fo["bashi"]
        ft.add_row(_("場四 (ばし) redeal"), "", f"{b['count']:,}", _percent(b), _one_in(b), "")
        parts.append(ft)
        parts.append(Phrased(Phrased.words(_("Classes count every field, 場四 ones included; the last column leaves "
                                             "場四 out."))))
    return Group(*parts)


def _odds_highest_parts(report: dict[str, Any]) -> list[Any]:
    """The 手役 of the `odds` report under a single-highest profile (SDIN)."""
    parts: list[Any] = []
    mine = report.get("hand", {}).get("teyaku", ...)
    table = _numbers_table(
        _("手役 of a dealt hand: {hands:,} hands from {deck} cards").format(hands=report["hands"], deck=report["deck"]),
        [("手役", False), (_("reading"), False, 1), ("文", True), (_("hands"), True),
         (_("probability"), True), (_("1 in N"), True)],
    )
    for row in report["teyaku"]:
        table.add_row(row["name"] or _("none (役なし)"), row["reading"] or "", str(row["mon"]),
                      f"{row['count']:,}", _percent(row), _one_in(row),
                      style="bold" if row["name"] == mine else None)
    any_row = report["any_teyaku"]
    table.add_row(_("any 手役"), "", "", f"{any_row['count']:,}", _percent(any_row), _one_in(any_row))
    parts.append(table)
    if "hand" in report:
        h = report["hand"]
        held = f"{h['teyaku']} ({h['reading']}) {h['mon']}文" if h["teyaku"] else _("no 手役")
        parts.append(Text(_("hand {cards}: {held}; {percent} of hands ({one_in}); worth at least as much: "
                            "{at_least} ({at_least_one_in})").format(
            cards=" ".join(h["cards"]), held=held, percent=_percent(h), one_in=_one_in(h),
            at_least=_percent(h["at_least"]), at_least_one_in=_one_in(h["at_least"]))))
    return parts


def _kan_mon(kan_value: int, mon_value: int) -> str:
    """``24貫 (240文)``: a value in kan with its 文."""
    return f"{kan_value}貫 ({mon_value}文)"


def _odds_groups_parts(report: dict[str, Any]) -> list[Any]:
    """The 手役 of the `odds` report under a profile that adds each group's best (fudawiki):
    one table per group, the combinations that occur (highest first), the hands worth at least N
    kan, and the hand's line."""
    groups = report["group_names"]
    hand = report.get("hand")
    head = _("profile {profile}: a hand scores the best of {groups}; 1貫 = {kan}文. {hands:,} hands from "
             "{deck} cards.").format(profile=report["profile"],
                                     groups=_(" plus the best of ").join(_group(g) for g in groups),
                                     kan=report["mon_per_kan"], hands=report["hands"], deck=report["deck"])
    parts: list[Any] = [Text(head)]
    columns = [("貫", True), ("文", True, 2), (_("hands"), True), (_("probability"), True, 3), (_("1 in N"), True)]
    for g in groups:
        data = report["groups"][g]
        mine = hand[g] if hand else ...
        table = _numbers_table(_("Group {group} 手役 (the group's best)").format(group=g),
                               [("手役", False), (_("reading"), False, 1), *columns])
        for row in data["teyaku"]:
            table.add_row(row["name"] or _("none (役なし)"), row["reading"] or "", str(row["kan"]),
                          str(row["mon"]), f"{row['count']:,}", _percent(row), _one_in(row),
                          style="bold" if row["name"] == mine else None)
        table.add_row(_("any Group {group} 手役").format(group=g), "", "", "", f"{data['any']['count']:,}",
                      _percent(data["any"]), _one_in(data["any"]))
        parts.append(table)

    combos = _numbers_table(_("combinations that occur, most valuable first (the values add up)"),
                            [*((_group(g), False) for g in groups), *columns])
    seen = [c for c in report["combinations"] if c["count"]]
    for c in sorted(seen, key=lambda c: -c["kan"]):  # stable: table order within a value
        mine = hand is not None and all(c[g] == hand[g] for g in groups)
        combos.add_row(*(c[g] or "–" for g in groups), str(c["kan"]), str(c["mon"]),
                       f"{c['count']:,}", _percent(c), _one_in(c), style="bold" if mine else None)
    any_row = report["any_teyaku"]
    combos.add_row(_("any 手役"), *("" for _g in groups[1:]), "", "", f"{any_row['count']:,}",
                   _percent(any_row), _one_in(any_row))
    parts.append(combos)

    at_least = _numbers_table(_("hands worth at least"), [(_("at least"), False), *columns[2:]])
    for row in report["at_least"]:
        at_least.add_row(_kan_mon(row["kan"], row["mon"]), f"{row['count']:,}", _percent(row),
                         _one_in(row), style="bold" if hand and row["kan"] == hand["kan"] else None)
    parts.append(at_least)

    if hand is not None:
        held = " + ".join(hand["teyaku"]) or _("no 手役")
        parts.append(Text(_("hand {cards}: {held} = {value}; this combination: {percent} of hands ({one_in}); "
                            "worth at least as much: {at_least} ({at_least_one_in})").format(
            cards=" ".join(hand["cards"]), held=held, value=_kan_mon(hand["kan"], hand["mon"]),
            percent=_percent(hand), one_in=_one_in(hand), at_least=_percent(hand["at_least"]),
            at_least_one_in=_one_in(hand["at_least"]))))
    return parts


def _group(group: str) -> str:
    """``Group A``: a group of 手役 (TRADITIONAL §3) named."""
    return _("Group {group}").format(group=group)
