"""Entering a round at the table: the question-by-question flow of `hachi-score round` and `edit N`.

The flow asks in the order the table sees a round: the 親, the six field cards, each player's 手役,
how the round ended and who declared 下げ, each player's captured pile, then the full result and a
confirm. It asks what the rule profile needs and no more: where any number may call 下げ
(``fudawiki``) the 下げ question takes several players in the order they first called; where the
player who ended the round had called 下げ and the profile has cancel, "勝負 or cancel?" follows; where
a hand scores one 手役 per group, a 手役 by name takes one per group.

It knows no rule of its own: every answer is checked by building the round file answered so far and
handing it to :meth:`Round.from_dict`, the very check `round --file` uses, so the two can never
disagree. A check that needs answers still to come waits for them.

:class:`RoundEntry` takes an input function (``input``, or a script in tests) and a rich console and
returns an :class:`Outcome`; it never touches the book. Ctrl-C, end of input or "no" at the confirm
raise :class:`Aborted`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from .cards import DECK, FACES, MONTHS, Card, points, sort_cards
from .notation import HELP, format_compact, parse_cards, split_tokens
from .rules import SDIN, Rules
from .check import cards_of, check_draft
from .scoring import NightState, Result, Round, RoundError, Seating, field_class, playing_of, score, seat
from .yaku import YAKU_ALIASES, YAKU_BY_NAME, dekiyaku, dekiyaku_kan, not_teyaku, teyaku_all, teyaku_name

#: Reads one answer: called with the prompt, returns the line typed (``input`` has this shape).
Ask = Callable[[str], str]

from .names import (BACK_WORDS, HELP_WORDS, NONE_WORDS, PLAYED_OUT_WORDS, REST_WORDS, PlayerError,  # noqa: E402
                    fold, resolve_player)

SHOUBU_WORDS = frozenset({"shoubu", "shobu", "勝負", "しょうぶ", "s"})
CANCEL_WORDS = frozenset({"cancel", "c", "キャンセル", "きゃんせる"})
PLAY_WORDS = frozenset({"", "play", "p", "打つ", "うつ", "出る", "でる"})
DROP_WORDS = frozenset({"drop", "d", "降り", "おり", "降りる", "おりる"})
YES_WORDS = frozenset({"", "y", "yes", "はい"})
NO_WORDS = frozenset({"n", "no", "いいえ"})

KEYS_HELP = ("Enter keeps the answer in [brackets] · back: the previous question · ?: help · "
             "Ctrl-C: stop, nothing is saved")


class Aborted(Exception):
    """The person stopped: Ctrl-C, end of input, or "no" at the confirm. Nothing is to be saved."""


class AnswerError(ValueError):
    """An answer that can't be taken: one line, shown before the question is asked again."""


@dataclass(frozen=True)
class Outcome:
    """A confirmed round (its round file and result), or a 場四 (``round_file`` None)."""

    round_file: dict[str, Any] | None
    result: Result

    @property
    def redeal(self) -> bool:
        return self.result.redeal


_BACK = object()

#: between 下げ callers typed on one line: a comma of either width (spaces are tried after)
_CALLER_SEP = re.compile(r"\s*[,、，]\s*")
#: 赤 (短カス), CONTRACT §2's spelling with a space, kept one token among several 手役 names
_AKA_ALIAS = re.compile(r"赤\s*[(（]\s*短カス\s*[)）]")


_fold = fold  # text folding lives in scorekeeper.names


def _is_card(token: str) -> bool:
    try:
        parse_cards(token)
    except ValueError:
        return False
    return True


def pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal cells, so that columns line up after CJK names."""
    return text + " " * max(0, width - cell_len(text))


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in sort_cards(cards)]


def yaku_text(name: str, value: int) -> str:
    """``三本 (さんぼん) 20文``: the name with its reading, and its value."""
    return f"{YAKU_BY_NAME[name].label()} {value}文"


class RoundEntry:
    """One round, asked question by question.

    ``players`` are in play order; ``dealer`` is the proposed 親 (RULES.md §8: the last winner).
    ``prefill``, a stored round file, gives every question its default (`edit N`).
    """

    def __init__(
        self,
        players: Sequence[str],
        dealer: str,
        ask: Ask,
        console: Console,
        *,
        prefill: Mapping[str, Any] | None = None,
        rules: Rules = SDIN,
        state: NightState | None = None,
        confirm: str = "save?",
        resume: Mapping[str, str] | None = None,
        on_answer: Callable[[dict[str, str]], None] | None = None,
        chain: str | None = None,
    ) -> None:
        self.players = tuple(players)
        self.ask = ask
        self.out = console
        self.rules = rules
        #: the night's waiting multipliers and pot, for the result shown (None: a standalone round)
        self.state = state
        self.confirm_prompt = confirm
        #: answers, checked and in canonical form (card codes), by question
        self.values: dict[str, Any] = {}
        #: each question's default: the last answer, or the stored round's
        self.texts: dict[str, str] = {"dealer": dealer}
        self.width = max(cell_len(p) for p in self.players)
        self.current = "dealer"
        #: the 親 the chain gives (the last round's winner): another is taken after a yes
        self.chain = chain
        #: answers typed earlier (a draft): each taken again without asking while it checks out
        self.resume = dict(resume or {})
        #: called with every answer as typed, by question (the draft keeps them)
        self.on_answer = on_answer
        self.typed: dict[str, str] = dict(self.resume)
        if prefill is not None:
            self._prefill(prefill)

    # -- the walk through the questions --------------------------------------------------------

    def order(self) -> list[str]:
        """Play order from the 親: the order hands and piles are asked in. With more than three
        seated, the players who play the round out, in turn order from the round's 親 (none for a
        misdeal, one volunteer or a split pot)."""
        dealer = self.values.get("dealer", self.texts["dealer"])
        if self._seated:
            seating = self._seating(self.values)
            if seating is None:
                return []
            return list(playing_of(seating, self.rules))
        start = self.players.index(dealer) if dealer in self.players else 0
        return [self.players[(start + i) % 3] for i in range(3)]

    @property
    def _seated(self) -> bool:
        """More than three at the table: each round has its play-or-drop questions (TRADITIONAL §7)."""
        return len(self.players) > 3

    def seats(self, answers: Mapping[str, Any]) -> tuple[list[str], Seating | None, list[str]]:
        """The play-or-drop questions as far as ``answers`` reach: the seat keys to ask (the last
        unanswered when the seating is not settled yet), the seating once it is (None before),
        and the seats that play because :func:`seat` refuses their drop (``forced_three``).

        The rule of who plays, drops or is forced out is :func:`scorekeeper.scoring.seat`'s: a
        seat not asked yet counts as play there, so the questions stop where it has three
        volunteers who all spoke."""
        dealer = answers.get("dealer", self.texts["dealer"])
        if dealer not in self.players:
            return [], None, []
        start = self.players.index(dealer)
        turns = [self.players[(start + i) % len(self.players)] for i in range(len(self.players))]
        keys: list[str] = []
        drops: list[str] = []
        must: list[str] = []
        for i, p in enumerate(turns):
            seating = seat(self.players, dealer, drops, self.rules)
            spoken = set(turns[:i])
            if len(seating.volunteers) >= 3 and set(seating.volunteers[:3]) <= spoken:
                return keys, seating, must
            try:
                seat(self.players, dealer, drops + [p], self.rules)
            except RoundError:  # dropping is refused here: this seat plays, nothing to ask
                must.append(p)
                continue
            keys.append(f"seat:{p}")
            answer = answers.get(f"seat:{p}")
            if answer is None:
                return keys, None, must
            if answer == "drop":
                drops.append(p)
        return keys, seat(self.players, dealer, drops, self.rules), must

    def _seating(self, answers: Mapping[str, Any]) -> Seating | None:
        return self.seats(answers)[1]

    def steps(self) -> list[str]:
        head = ["dealer", "field"]
        if self._seated:
            keys, seating, _ = self.seats(self.values)
            head += keys
            if seating is None:
                return head
            head += [f"hand:{p}" for p in seating.forced_out]
        order = self.order()
        if self._seated and not order:  # a misdeal, one volunteer, a split: nothing is played
            return head + ["confirm"]
        return (head + [f"hand:{p}" for p in order] + ["ended", "sage"]
                + (["how"] if self._may_cancel() else [])
                + [f"pile:{p}" for p in order] + ["confirm"])

    def _forced_out(self, player: str) -> bool:
        seating = self._seating(self.values) if self._seated else None
        return seating is not None and player in seating.forced_out

    def _may_cancel(self) -> bool:
        """Can the round have ended by cancel? Only where the profile has it and the player who
        ended the round is among the 下げ callers answered (TRADITIONAL §4)."""
        ended = self.values.get("ended")
        return self.rules.cancel and ended is not None and ended in self.values.get("sage", ())

    @property
    def _many_callers(self) -> bool:
        """Any number of players may call 下げ (``fudawiki``), not one (SDIN)."""
        return self.rules.sage_callers != 1

    @property
    def _grouped(self) -> bool:
        """A hand scores the best 手役 of each group (``fudawiki``), not its single highest."""
        return self.rules.teyaku_mode == "groups"

    def run(self) -> Outcome:
        """Ask until the round is confirmed or is a 場四. Raises :class:`Aborted`."""
        self._say(f"Round for {', '.join(self.players)}. ? shows the card notation at any question; "
                  "back goes to the previous one; Ctrl-C stops without saving.", style="dim")
        try:
            return self._walk()
        except (KeyboardInterrupt, EOFError) as e:
            self.out.print()
            raise Aborted("interrupted" if isinstance(e, KeyboardInterrupt) else "end of input") from None

    def _walk(self) -> Outcome:
        i = 0
        while True:
            steps = self.steps()
            key = self.current = steps[i]
            if key == "confirm":
                outcome = self._confirm(steps[:i])
                if outcome is not None:
                    return outcome
                i -= 1
                continue
            self._intro(key)
            answer = self._resumed(key, steps[:i]) if key in self.resume else self._ask(key, steps[:i])
            if answer is _BACK:
                if i == 0:
                    self._say("  (this is the first question)", style="dim")
                i = max(0, i - 1)
            elif isinstance(answer, Round) and answer.redeal:
                return Outcome(None, score(answer, self.rules, self.state))
            else:
                i += 1

    def _resumed(self, key: str, before: list[str]) -> Any:
        """A draft's answer to ``key``, taken again as if typed while it checks out; asked
        afresh (the draft's answer as its default) when it no longer does."""
        text = self.resume.pop(key)
        try:
            value, shown, rnd = self.read_answer(key, text, before, confirm_chain=False)
        except AnswerError as e:
            self._say(f"  {self._prompt(key)}: {text}  ✗ {e}", style="red")
            self.texts[key] = text
            return self._ask(key, before)
        self.values[key] = value
        self.texts[key] = shown
        self._say(f"  {self._prompt(key)}: {shown or '–'}", style="dim")
        self._echo(key, value, before + [key], rnd)
        return rnd

    def _keep(self, key: str, line: str) -> None:
        """An answer as typed, to the draft (a blank line keeps the default it accepted)."""
        self.typed[key] = line.strip() or self.texts.get(key, "")
        if self.on_answer is not None:
            self.on_answer(dict(self.typed))

    def _ask(self, key: str, before: list[str]) -> Any:
        """Ask ``key`` until its answer checks out; the checked round so far, or ``_BACK``."""
        refused = ""
        while True:
            default = self.texts.get(key, "")
            line = self.ask(f"{self._prompt(key)}{f' [{default}]' if default else ''}: ")
            if _fold(line) not in HELP_WORDS | BACK_WORDS:
                self._keep(key, line)
            word = _fold(line)
            if word in HELP_WORDS:
                self._help(key)
                continue
            if word in BACK_WORDS:
                if refused:  # refused for an earlier answer, maybe: the default when asked again
                    self.texts[key] = refused
                return _BACK
            try:
                value, text, rnd = self.read_answer(key, line.strip() or default, before)
            except AnswerError as e:
                self._say(f"  ✗ {e}", style="red")
                # the default stays what it was (Enter must not submit the refused answer again);
                # going back to fix an earlier answer keeps it, as the default on the way forward
                refused = line.strip() or refused
                continue
            self.values[key] = value
            self.texts[key] = text
            self._echo(key, value, before + [key], rnd)
            return rnd

    def _prompt(self, key: str) -> str:
        kind, _, player = key.partition(":")
        if kind == "dealer":
            return f"親 dealer ({self._numbered()})"
        if kind == "field":
            return "場札 the six field cards"
        if kind == "seat":
            return f"席 {pad(player, self.width)} play or drop (Enter: play)"
        if kind == "hand" and self._forced_out(player):
            return f"手役 {pad(player, self.width)} (forced out; Enter: no compensation claimed)"
        if kind == "hand":
            return f"手役 {pad(player, self.width)}"
        if kind == "ended":
            if self.rules.cancel:
                return f"ended by (Enter: played out; or who ended it, by 勝負 or cancel: {self._numbered()})"
            return f"ended by (Enter: played out; or who stopped with a 出来役: {self._numbered()})"
        if kind == "sage":
            if self._many_callers:
                return ("下げ declared by, in the order they first called "
                        f"(Enter: nobody; several: {self._two_callers()})")
            return "下げ declared by (Enter: nobody)"
        if kind == "how":
            return f"勝負 or cancel? (how {self.values['ended']} ended it; Enter: 勝負)"
        rest = " (or rest)" if self._rest_offered(key) else ""
        return f"札 {pad(player, self.width)}{rest}"

    def _intro(self, key: str) -> None:
        if self._seated and key == (self.seats(self.values)[0] or [None])[0]:
            self._say("Play or drop: each seat from the 親 in turn, until three play; Enter: play, "
                      "or drop.", style="dim")
            return
        forced = self._seating(self.values).forced_out if self._seated and self._seating(self.values) else ()
        if forced and key == f"hand:{forced[0]}":
            self._say("追い込み: the forced-out players' hands, for their compensation: the 7 dealt cards, "
                      "or the 手役's names; Enter: no compensation claimed.", style="dim")
            return
        order = self.order()
        if not order:
            return
        if key == f"hand:{order[0]}":
            if self._grouped:
                self._say("手役: each player's 7 dealt cards, or the 手役's names, at most one per group "
                          "(三本 赤, 四三 空素 …); Enter for none.", style="dim")
            else:
                self._say("手役: each player's 7 dealt cards, or only the 手役's name (三本, 赤 …); "
                          "Enter for none.", style="dim")
        elif key == f"pile:{order[0]}":
            last = " The last may be typed as rest." if self._rest_offered(f"pile:{order[-1]}") else ""
            self._say(f"札: each player's captured pile.{last}", style="dim")

    def _two_callers(self) -> str:
        """An example answer of two 下げ callers, with this table's names: the second, then the first."""
        return self._callers_text(self.players[1::-1])

    def _numbered(self) -> str:
        return ", ".join(f"{n} {p}" for n, p in enumerate(self.players, 1))

    # -- answers: each checked by Round.from_dict on the round answered so far ------------------

    def read_answer(self, key: str, text: str, before: list[str], confirm_chain: bool = True) -> tuple[Any, str, Round | None]:
        """One answer read and checked: (the answer in canonical form, its text as a default, the
        round if it is complete). Raises :class:`AnswerError` with the re-prompt's line. The web
        companion's answers go through here too (:meth:`scorekeeper.flows.Night.check_answers`)."""
        kind = key.partition(":")[0]
        if kind == "dealer":
            who = self._player(text)
            if confirm_chain and self.chain is not None and who != self.chain:
                self._confirm_chain_break(who)
            return who, who, self._check(before, {key: who})
        if kind == "seat":
            word = _fold(text)
            if word in PLAY_WORDS:
                choice = "play"
            elif word in DROP_WORDS:
                choice = "drop"
            else:
                raise AnswerError(f"{text!r}: answer play (Enter, p) or drop (d)")
            return choice, choice, self._check(before, {key: choice})
        if kind == "field":
            rnd = self._check(before, {key: text})  # the text as typed: errors quote its tokens
            cards = cards_of(text)
            return _codes(cards), format_compact(cards), rnd
        if kind == "hand":
            answer = self._hand(text)
            rnd = self._check(before, {key: answer})
            value = answer and {"hand": _codes(cards_of(answer["hand"])) or None,
                                "teyaku": answer["teyaku"]}
            return value, self._hand_text(value), rnd
        if kind == "ended":
            who = None if _fold(text) in PLAYED_OUT_WORDS or not text else self._player(text)
            return who, who or "", self._check(before, {key: who})
        if kind == "sage":
            callers = () if _fold(text) in NONE_WORDS or not text else self._callers(text)
            return callers, self._callers_text(callers), self._check(before, {key: callers})
        if kind == "how":
            how = self._how(text)
            return how, "cancel" if how == "cancel" else "勝負", self._check(before, {key: how})
        return self._pile(key, text, before)

    def _callers(self, text: str) -> tuple[str, ...]:
        """下げ callers in the order they first called: names, starts or numbers, separated by
        commas or spaces (a name that holds a space is taken whole)."""
        callers: list[str] = []
        for part in _CALLER_SEP.split(text.strip()):
            if not part:
                continue
            try:
                callers.append(self._player(part))
            except AnswerError:
                callers.extend(self._spaced_players(part))
        seen: set[str] = set()
        for who in callers:
            if who in seen:
                raise AnswerError(f"{who} is named twice: list each 下げ caller once, in the order they first called")
            seen.add(who)
        limit = self.rules.sage_callers
        if limit and len(callers) > limit:
            raise AnswerError(f"{' and '.join(callers)}: under {self.rules.name} only one player may call 下げ "
                              "in a round (RULES §7)")
        return tuple(callers)

    def _confirm_chain_break(self, who: str) -> None:
        """A 親 other than the last round's winner is taken only after a yes (who really dealt)."""
        answer = _fold(self.ask(f"  {self.chain} won the last round and deals next by the chain: "
                                f"did {who} deal this round? [y/N]: "))
        if answer not in ("y", "yes", "はい"):
            raise AnswerError(f"the 親 stays {self.chain}, the last round's winner (Enter takes it)")

    def _spaced_players(self, part: str) -> list[str]:
        """Players typed with spaces between them; the longest run of words that is a name first."""
        words, found, i = part.split(), [], 0
        while i < len(words):
            for j in range(len(words), i, -1):
                run = " ".join(words[i:j])
                if j - i == 1:
                    found.append(self._player(run))  # a single word: by start or number too
                    break
                same = [p for p in self.players if _fold(p) == _fold(run)]
                if len(same) == 1:
                    found.append(same[0])
                    break
            i = j
        return found

    @staticmethod
    def _callers_text(callers: Sequence[str]) -> str:
        return (", " if any(" " in c for c in callers) else " ").join(callers)

    @staticmethod
    def _how(text: str) -> str:
        word = _fold(text)
        if not word or word in SHOUBU_WORDS:
            return "shoubu"
        if word in CANCEL_WORDS:
            return "cancel"
        raise AnswerError(f"{text!r}: answer 勝負 (Enter, s) or cancel (c)")

    def _pile(self, key: str, text: str, before: list[str]) -> tuple[list[str], str, Round | None]:
        rest = _fold(text) in REST_WORDS
        if _fold(text) in NONE_WORDS:
            text = ""
        elif rest:
            if not self._rest_offered(key):
                raise AnswerError("rest is only for the last pile of a played-out round of three")
            text = " ".join(_codes(self._rest(before)))
        rnd = self._check(before, {key: text})  # with piles still to come: who may hold 出来役, so far
        cards = _codes(cards_of(text))
        return cards, "rest" if rest else format_compact(cards_of(cards)), rnd

    def _hand(self, text: str, follow_up: bool = True) -> dict[str, Any] | None:
        """A 手役 answer: a dealt hand, a 手役's name, or both (``2trk 4t 6k 7k 10k 三本``); or only
        the cards that make the 手役 (``9t 9k 9k``), taken as its name."""
        self._shown = None
        if not text or _fold(text) in NONE_WORDS:
            return None
        rules = self.rules
        name = teyaku_name(text, rules)
        if name is not None:
            return {"hand": None, "teyaku": [name]}
        tokens = split_tokens(_AKA_ALIAS.sub("赤", text))
        for t in tokens:  # a yaku that is no 手役 (赤短, 総八 …) is said as such, not as "no card"
            if teyaku_name(t, rules) is None and (why := not_teyaku(t, rules)) and not _is_card(t):
                raise AnswerError(why)
        names = [n for n in (teyaku_name(t, rules) for t in tokens) if n]
        if len(names) > 1 and not self._grouped:
            raise AnswerError(f"{' and '.join(names)}: under {rules.name} a hand scores only its single "
                              "highest 手役; type one name")
        by_group: dict[str, str] = {}
        for n in names:
            group = rules.group_of(n)
            if group in by_group:
                raise AnswerError(f"{by_group[group]} and {n} are both of Group {group}: a hand scores one "
                                  "手役 per group (? lists them)")
            by_group[group] = n
        cards = " ".join(t for t in tokens if teyaku_name(t, rules) is None)
        ordered = [by_group[g] for g in rules.groups if g in by_group]
        shown = self._shown_teyaku(cards)
        if shown is not None:  # fewer than 7 cards, the ones a 手役 needs: its declaration by name
            if ordered and ordered != [shown]:
                raise AnswerError(f"{cards} make {shown}, not {' '.join(ordered)}: type the 7 dealt cards, "
                                  "or the 手役's name")
            if follow_up and "飛び込み" in rules.bonuses:
                again = self.ask(f"  飛び込み needs the whole hand: type the 7 dealt cards to have "
                                 f"it judged (Enter: {shown} by name): ").strip()
                if again and _fold(again) not in BACK_WORDS:
                    return self._hand(again, follow_up=False)
            self._shown = cards
            return {"hand": None, "teyaku": [shown]}
        return {"hand": cards or None, "teyaku": ordered or None}

    def _shown_teyaku(self, cards: str) -> str | None:
        """The 手役 that fewer than 7 cards make, when they are only the cards it needs (each month
        three or four of them) and make exactly one 手役 of the profile; else None."""
        try:
            shown = cards_of(cards)
        except ValueError:
            return None
        if not 0 < len(shown) < 7 or sorted(set(Counter(c.month for c in shown).values())) not in ([3], [4], [3, 4]):
            return None
        from .yaku import HandShape, shape_teyaku_all

        made = shape_teyaku_all(HandShape.of(shown), self.rules)
        return made[0] if len(made) == 1 else None

    @staticmethod
    def _hand_text(value: Mapping[str, Any] | None) -> str:
        if not value:
            return ""
        hand = format_compact(cards_of(value["hand"]))
        return " ".join(x for x in (hand, *(value["teyaku"] or ())) if x)

    def _player(self, text: str) -> str:
        """A player by name, by a name's unique start, or by number in play order."""
        try:
            return resolve_player(text, self.players)
        except PlayerError as e:
            raise AnswerError(f"{e}: answer {self._numbered()}") from None

    def round_file(self, answers: Mapping[str, Any]) -> dict[str, Any]:
        """The round file (CONTRACT.md §3) of some answers, by question."""
        data: dict[str, Any] = {"players": list(self.players)}
        if self._seated:
            drops = [k.partition(":")[2] for k in self.seats(answers)[0] if answers.get(k) == "drop"]
            if drops:
                data["dropped"] = drops
            seating = self._seating(answers)
            if seating is not None:  # who did not play holds no pile: none is asked
                played = set(playing_of(seating, self.rules))
                data["captured"] = {p: [] for p in self.players if p not in played}
        for key, value in answers.items():
            kind, _, player = key.partition(":")
            if kind in ("dealer", "field"):
                data[kind] = value
            elif kind == "hand" and value:
                if value["hand"]:
                    data.setdefault("hands", {})[player] = value["hand"]
                names = value["teyaku"]
                if names:  # one name as a string: the SDIN form, and a list only where needed
                    data.setdefault("teyaku", {})[player] = names[0] if len(names) == 1 else list(names)
            elif kind == "ended" and value:
                data["ended_by"] = value
            elif kind == "sage" and value:
                data["sage"] = value[0] if len(value) == 1 else list(value)
            elif kind == "how" and value == "cancel":
                data["ended_how"] = "cancel"
            elif kind == "pile":
                data.setdefault("captured", {})[player] = value
        return data

    def _check(self, before: list[str], answer: Mapping[str, Any]) -> Round | None:
        """The draft validator (:func:`scorekeeper.check.check_draft`) on the answers so far plus
        this one: the round when it is whole and checks out; None while answers are still to
        come; any problem of the answers given is this answer's, an :class:`AnswerError`."""
        verdict = check_draft(self.round_file({**{k: self.values[k] for k in before}, **answer}), rules=self.rules, players=self.players)
        if verdict.problems:
            raise AnswerError(verdict.problems[0].message)
        return verdict.round

    def _rest(self, before: list[str]) -> list[Card]:
        """``rest``: the deck minus the piles typed so far."""
        taken = Counter(c for k in before if k.startswith("pile:") for c in cards_of(self.values[k]))
        return list((Counter(DECK) - taken).elements())

    def _is_last_pile(self, key: str) -> bool:
        order = self.order()
        return bool(order) and key == f"pile:{order[-1]}"

    def _rest_offered(self, key: str) -> bool:
        """``rest`` for the last pile of a played-out round of three (a two-player round's piles
        need not hold 48 cards)."""
        return self._is_last_pile(key) and self.values.get("ended") is None and len(self.order()) == 3

    # -- the confirm --------------------------------------------------------------------------

    def _confirm(self, keys: list[str]) -> Outcome | None:
        """The full result, as `score` shows it, then save? The outcome, or None for back."""
        from .render import round_view

        rnd = Round.from_dict(self.round_file({k: self.values[k] for k in keys}), players=self.players,
                              rules=self.rules)
        result = score(rnd, self.rules, self.state)
        self.out.print()
        self.out.print(round_view(result))
        while True:
            word = _fold(self.ask(f"{self.confirm_prompt} [Y/n]: "))
            if word in YES_WORDS:
                return Outcome(rnd.to_dict(), result)
            if word in NO_WORDS:
                raise Aborted("not saved")
            if word in BACK_WORDS:
                return None
            if word in HELP_WORDS:
                self._say("  Enter or y: save · n: stop without saving · back: the last pile again")
                continue
            self._say("  ✗ answer y (save), n (don't save) or back", style="red")

    # -- echoes and help ----------------------------------------------------------------------

    def _say(self, text: str, style: str = "") -> None:
        self.out.print(Text(text, style=style))

    def _echo(self, key: str, value: Any, keys: list[str], rnd: Round | None) -> None:
        kind, _, player = key.partition(":")
        if kind == "seat":
            self._echo_seat(player, value)
        elif kind == "field":
            from .render import FIELD_READINGS

            self._say("  " + " · ".join(f"{c.code} {c.ja}" for c in cards_of(value)))
            if rnd is not None and rnd.redeal:
                self._say("  場四 (ばし): redeal. The same 親 deals again; nothing is scored or saved.",
                          style="bold")
                return
            fc = field_class(cards_of(value))
            self._say(f"  {fc} ({FIELD_READINGS[fc]}) ×{self.rules.multipliers[fc]}", style="bold")
        elif kind == "hand":
            self._echo_hand(player, value)
        elif kind == "ended":
            self._say("  played out: every card was captured" if value is None
                      else f"  {value} stopped with a 出来役")
        elif kind == "sage" and self._many_callers:
            self._echo_callers(value)
        elif kind == "sage" and value:
            ended, value = self.values.get("ended"), value[0]
            if ended is None:
                note = f"played out after {value}'s 下げ: {value}'s 出来役 are halved"
            elif ended == value:
                note = f"{value} declared 下げ and then stopped: all of {value}'s 出来役 are paid"
            else:
                note = f"{ended} stopped after {value}'s 下げ: {value} alone pays {ended} double"
            self._say(f"  下げ: {note}")
        elif kind == "how":
            self._say(f"  {self._settlement(self.values['ended'], self.values.get('sage', ()), value)}")
        elif kind == "pile":
            self._echo_pile(player, value, keys)

    def _echo_seat(self, player: str, choice: str) -> None:
        """A seat's answer; once the seating is settled, who plays, who dropped, who was forced out."""
        keys, seating, must = self.seats(self.values)
        self._say(f"  {player} {'plays' if choice == 'play' else 'drops'}")
        if seating is None:
            return
        for p in must:
            self._say(f"  {p} plays: only three could still play, and under {self.rules.name} "
                      "(forced_three) nobody may drop then", style="dim")
        vols = seating.volunteers
        if not vols:
            line = "nobody plays: a misdeal. The fees stay in the pot; the same 親 deals again"
        elif len(vols) == 1:
            line = f"{vols[0]} alone plays: {vols[0]} takes the pot and wins; nothing is played"
        elif len(vols) == 2 and self.rules.two_volunteers == "split":
            line = f"{vols[0]} and {vols[1]} play: they split the pot; nothing is played"
        else:
            line = f"{', '.join(vols)} play; {vols[0]} is the round's 親"
        self._say(f"  {line}", style="bold")
        if seating.forced_out:
            self._say(f"  forced out (追い込み): {', '.join(seating.forced_out)}: they had not spoken when "
                      "the third said play")

    def _echo_callers(self, callers: Sequence[str]) -> None:
        """What the 下げ callers mean for the settlement, as far as it is known (TRADITIONAL §4)."""
        ended = self.values.get("ended")
        if not callers:
            if ended is not None:
                self._say(f"  nobody called 下げ: {self._settlement(ended, (), 'shoubu')}")
            return
        order = ", then ".join(callers)
        first = "" if len(callers) == 1 else " (in the order they first called)"
        if ended is None:
            note = self._settlement(None, callers, None)
        elif self._may_cancel():
            note = f"{ended} called 下げ and ended the round: 勝負 or cancel, next"
        else:
            note = self._settlement(ended, callers, "shoubu")
        self._say(f"  下げ: {order}{first}. {note}")

    def _settlement(self, ended: str | None, callers: Sequence[str], how: str | None) -> str:
        """TRADITIONAL §4 said for this round: who pays whom for the 出来役, and who wins."""
        if ended is None:
            return (f"Played out: every holder of 出来役 is paid half of their own by each opponent; "
                    f"{callers[0]}, the first to call 下げ, wins the round")
        if how == "cancel":
            return (f"cancel by {ended}: each opponent pays {ended} half of {ended}'s 出来役, "
                    f"no doubling; {ended} wins the round")
        others = [p for p in (self.order() if self._seated else self.players) if p != ended]
        against = [p for p in others if p in callers]
        if len(others) == 1:  # a two-player round: the one opponent pays, no doubling (TRADITIONAL §7)
            pays = f"{others[0]} pays them once"
        elif len(against) == 1:
            lone, spared = against[0], next(p for p in others if p != against[0])
            pays = f"{lone}, the only opponent who called 下げ, pays {ended} double, {spared} pays nothing"
        elif against:
            pays = f"both opponents called 下げ: each pays {ended} once"
        else:
            pays = "each opponent pays them once"
        return f"勝負 by {ended}: {ended}'s 出来役 are paid, {pays}; {ended} wins the round"

    def _echo_hand(self, player: str, value: Mapping[str, Any] | None) -> None:
        name = pad(player, self.width)
        found = value and (value["teyaku"] or teyaku_all(cards_of(value["hand"]), self.rules))
        if not value and self._forced_out(player):
            self._say(f"  {name}  no compensation claimed")
            return
        if not found:
            self._say(f"  {name}  no 手役" + (" in the hand" if value else ""))
            return
        how = "declared" if value["teyaku"] else "in the hand"
        if value["teyaku"] and getattr(self, "_shown", None):
            how = f"declared: {self._shown} shown, taken as the 手役's name"
        shown = " + ".join(yaku_text(n, self.rules.mon(self.rules.teyaku[n])) for n in found)
        self._say(f"  {name}  {shown} ({how})", style="green")

    def _echo_pile(self, player: str, codes: list[str], keys: list[str]) -> None:
        def line(who: str, cards: Sequence[Card]) -> str:
            return f"  {pad(who, self.width)}  {len(cards):2d} cards {points(cards):4d} points"

        pile = cards_of(codes)
        held = dekiyaku(pile, self.rules)
        deki = "  出来役 " + "・".join(yaku_text(d, self.rules.mon(dekiyaku_kan(d, pile, self.rules))) for d in held) if held else ""
        self._say(line(player, pile) + deki, style="green" if held else "")
        piles = [k for k in keys if k.startswith("pile:")]
        if len(piles) == 2 and self._rest_offered(f"pile:{self.order()[-1]}"):
            rest = self._rest(piles)
            self._say(line(self.order()[-1], rest) + "  left: type rest", style="dim")

    def _help(self, key: str) -> None:
        kind = key.partition(":")[0]
        self.out.print(HELP, markup=False, highlight=False)
        if kind in ("dealer", "ended", "sage"):
            self._say(f"Players: {self._numbered()}: a name, its start, or its number.")
        if kind == "seat":
            self._say("Each seat from the 親 in turn: play (Enter, p) or drop (d). The n-th to drop pays "
                      "逃げ料 of 1 + (n − 1)/2 kan × the multiplier into the pot; once three play, the "
                      "rest are forced out (追い込み) and paid for their hands; the first to play is the "
                      "round's 親.")
        if kind == "ended" and self.rules.cancel:
            self._say("Enter (or out) if every hand was played out; else the player who ended the round: "
                      "by 勝負 after completing a 出来役, or by cancelling after their own 下げ.")
        elif kind == "ended":
            self._say("Enter (or out) if every hand was played out; else the player who completed a "
                      "出来役 and stopped.")
        elif kind == "sage" and self._many_callers:
            self._say("下げ: every player who completed a 出来役 and played on, in the order they first "
                      f"called, separated by spaces or commas ({self._two_callers()}, or 2,1). "
                      "Enter or - for nobody.")
            self._say(f"Under {self.rules.name}: 勝負 by a player: each opponent pays their 出来役, but a lone "
                      "opponent who called 下げ pays double and the other nothing. Cancel (by a player who "
                      "called 下げ): each opponent pays half, no doubling. Played out: every holder is "
                      "paid half of their own by each opponent, and the first caller wins.")
        elif kind == "sage":
            self._say("下げ: the player who completed a 出来役 and played on. Enter or - for nobody.")
        elif kind == "how":
            ended = self.values["ended"]
            self._say(f"{ended} had called 下げ, so {ended} ended the round by one of:")
            self._say(f"  勝負 (Enter, s, shoubu): {self._settlement(ended, self.values.get('sage', ()), 'shoubu')}")
            self._say(f"  cancel (c, キャンセル): {self._settlement(ended, (), 'cancel')}")
        elif kind == "hand" and self._grouped:
            for group in self.rules.groups:
                self._say(f"手役 Group {group}, highest first: " + " · ".join(
                    yaku_text(row.name, self.rules.mon(row.kan))
                    for row in self.rules.teyaku_table if row.group == group))
            self._say("A hand scores the best of each group, added. Type the 7 dealt cards (they are "
                      "found), or the 手役's names, at most one per group (三本 赤), or both. "
                      "Enter or - for none.")
        elif kind == "hand":
            self._say("手役, highest first: " + " · ".join(
                yaku_text(name, self.rules.mon(value)) for name, value in self.rules.teyaku.items()))
            self._say("Type the 7 dealt cards (the 手役 is found), or only the 手役's name (三本), "
                      "or both. Enter or - for none.")
        elif kind == "pile":
            self._say("Every card the player captured, e.g. 1hk 3rkk 8htkk. Enter or - for an empty "
                      "pile. rest: every card not in the other two piles (played-out round, last pile).")
        self._say(KEYS_HELP, style="dim")

    # -- edit: every default from a stored round ------------------------------------------------

    def _prefill(self, stored: Mapping[str, Any]) -> None:
        rnd = Round.from_dict(dict(stored), players=self.players, rules=self.rules)
        self.texts["dealer"] = rnd.dealer
        self.texts["field"] = format_compact(rnd.field)
        if self._seated:
            for p in self.players:
                self.texts[f"seat:{p}"] = "drop" if p in rnd.dropped else "play"
        for p in self.players:
            hand = format_compact(rnd.hands[p]) if p in rnd.hands else ""
            self.texts[f"hand:{p}"] = " ".join(x for x in (hand, *rnd.declared.get(p, ())) if x)
            self.texts[f"pile:{p}"] = format_compact(rnd.pile(p))
        self.texts["ended"] = rnd.ended_by or ""
        self.texts["sage"] = self._callers_text(rnd.sage)
        if rnd.ended_how is not None:
            self.texts["how"] = "cancel" if rnd.ended_how == "cancel" else "勝負"

    # -- Tab completion -----------------------------------------------------------------------

    def completions(self) -> list[str]:
        """The words Tab may complete at the current question."""
        kind = self.current.partition(":")[0]
        words = ["back"]
        if kind == "confirm":
            return words + ["yes", "no"]
        if kind == "seat":
            return words + ["play", "drop"]
        if kind in ("dealer", "ended", "sage"):
            return words + list(self.players) + (["out"] if kind == "ended" else [])
        if kind == "how":
            return words + ["勝負", "shoubu", "cancel", "キャンセル"]
        words += CARD_WORDS
        if kind == "hand":
            names = list(self.rules.teyaku)
            words += names + [YAKU_BY_NAME[n].reading for n in names]
            words += [a for n in names for a in YAKU_ALIASES.get(n, ()) if a.isascii()]  # romaji
        elif kind == "pile":
            words.append("rest")
        return words


#: Card codes, Japanese names and month flowers, for Tab.
CARD_WORDS: list[str] = [c.code for c in FACES] + [c.ja for c in FACES] + [m.ja for m in MONTHS]


def enable_tab_completion(entry: RoundEntry) -> bool:
    """Let Tab complete card codes and names (and players, 手役, keywords), where readline exists."""
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without readline
        return False

    def complete(text: str, state: int) -> str | None:
        folded = _fold(text)
        matches = [w for w in entry.completions() if _fold(w).startswith(folded)]
        return matches[state] if state < len(matches) else None

    readline.set_completer_delims(" \t,")  # bytes to readline: a CJK 、 would split CJK names
    readline.set_completer(complete)
    if "libedit" in (readline.__doc__ or ""):  # pragma: no cover - macOS
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return True


def changes_view(players: Sequence[str], old: Sequence[Result], new: Sequence[Result],
                 numbers: Sequence[int]) -> Any:
    """After an edit: each round whose result changed, its 親 and every player's 文, old → new."""
    from rich.table import Table

    table = Table(title="results changed", title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("round", justify="right")
    table.add_column("親")
    for p in players:
        table.add_column(Text(p), justify="right")
    for n in numbers:
        before, after = old[n - 1], new[n - 1]
        dealer = (after.round.dealer if before.round.dealer == after.round.dealer
                  else f"{before.round.dealer} → {after.round.dealer}")
        table.add_row(str(n), Text(dealer), *(
            Text(f"{before.mon(p):+d} → {after.mon(p):+d}" if before.mon(p) != after.mon(p)
                 else f"{after.mon(p):+d}") for p in players))
    from .night import totals

    was, now = totals(old, players), totals(new, players)
    table.add_row("total", "", *(Text(f"{was[p]:+d} → {now[p]:+d}" if was[p] != now[p] else f"{now[p]:+d}",
                                      style="bold") for p in players))
    return table
