"""A round in, a result out: validation, settlement, the payments ledger and the next 親.

:meth:`Round.from_dict` checks a round file (CONTRACT.md §3) and raises :class:`RoundError` with one
line naming the problem and where. :func:`score` settles a valid round (RULES.md §7) into a
:class:`Result` whose every amount is a payment; each player's result is derived from the ledger.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from dataclasses import dataclass, replace
from dataclasses import field as _field  # Round has a property named field
from functools import lru_cache
from typing import Any, Iterator, Mapping, NamedTuple, Sequence

from .cards import (
    BASE_POINTS, DECK, DECK_COUNT, FACES, Card, face_mask, month_counts, over_deck, plane_months, sort_cards,
    tally_cards, tally_count, tally_has_four, tally_holds, tally_low, tally_month, tally_month_planes,
    tally_odd_months, tally_of, tally_points, tally_within_deck, within_deck,
)
from . import catalog
from .lang import L_, N_, Said, echo, quote
from .names import bad_character, name_problem
from .notation import CardError, parse_cards
from .rules import SDIN, Rules
from .yaku import (
    DEKIYAKU_FACES, HandShape, dekiyaku, dekiyaku_kan, not_teyaku, shape_teyaku_made, tally_dekiyaku, tally_dekiyaku_kan,
    dekiyaku_name, special_of, tally_teyaku_all, teyaku_all, teyaku_hint, teyaku_name, yaku_named,
)

MAX_NAME = 40
CARD_POINTS_REASON = "札"
#: the deck's points, and its kasu with the four 柳 cards (素十六's count)
DECK_POINTS = 264
MAX_KASU = 27


class RoundError(ValueError):
    """A bad round: ``where`` is the key, player or token; ``problem`` says what is wrong.

    ``code`` says what kind of problem, for a front that marks it rather than says it (a web
    form's card): ``card`` (not a card: ``token``), ``deck`` (a card more often than the deck
    holds it: ``card``), ``count`` (a field or hand of the wrong size), ``odd`` (a pile's odd month:
    ``month``), ``incomplete`` (a played-out round short of 48 cards), ``no_dekiyaku`` (an ender or
    下げ caller whose pile holds none), ``unclaimed`` (a 出来役 nobody claimed), ``teyaku`` (a
    declaration), ``player`` (not a player), ``both`` (a pile given by cards and by points),
    ``counted`` (a pile given by points whose cards a yaku needs), else ``bad``.
    """

    def __init__(self, where: str, problem: str, code: str = "bad", *, token: str | None = None,
                 card: str | None = None, month: int | None = None) -> None:
        self.where = where
        #: what is wrong: a :class:`~scorekeeper.lang.Said`, worded again where it is read
        self.problem = problem
        self.code = code
        self.token, self.card, self.month = token, card, month
        #: the line: the key as the round file has it (a place said in words, worded), the problem
        self.message = (L_("{where}: {problem}", where=where_worded(where), problem=problem) if where
                        else problem)
        super().__init__(self.message)


#: the places a problem is found in that are not one key of the round file, said in words
_PLACES = {"field and hands": N_("field and hands"), "the piles": N_("the piles")}


def where_worded(where: str) -> Any:
    """A problem's place in the round file: its key as it is (``captured.Ben``), or a place said
    in words (``the piles``) as a message."""
    return Said(_PLACES[where]) if where in _PLACES else where


# ---------------------------------------------------------------------------------------------
# the field (RULES.md §2–3)

_ZEKKYO = frozenset({Card(11, "h"), Card(12, "h")})
_OOBA = frozenset({Card(1, "h"), Card(3, "h"), Card(8, "h")})
_ZEKKYO_MASK, _OOBA_MASK = face_mask(_ZEKKYO), face_mask(_OOBA)


#: the field classes, as read aloud
FIELD_READINGS = {"小場": "こば", "大場": "おおば", "絶場": "ぜつば"}


def field_class(field_cards: Sequence[Card]) -> str:
    """小場, 大場 or 絶場, from the 20-point cards of the initial field."""
    return _field_class(tally_of(set(field_cards)))


def _field_class(dealt: int) -> str:
    """:func:`field_class` of the field's tally."""
    return "絶場" if dealt & _ZEKKYO_MASK else "大場" if dealt & _OOBA_MASK else "小場"


def is_bashi(field_cards: Sequence[Card]) -> bool:
    """場四: the initial field (within the deck) holds all four cards of a month (the 親 redeals)."""
    return tally_has_four(tally_of(field_cards))


# ---------------------------------------------------------------------------------------------
# the round file


@dataclass(frozen=True)
class Round:
    """One round as typed: who played, the field, 手役 evidence, the piles and how it ended.

    The field (``dealt``), each hand shown (``shown``) and each pile are held as tallies
    (:mod:`cards`: one int each; ``field``, ``hands`` and ``pile`` give their cards in deck order).
    ``sage`` lists the 下げ callers in the order they first called (SDIN: at most one);
    ``ended_how`` is ``"shoubu"`` or ``"cancel"`` when ``ended_by`` is set. ``carry`` is the queue
    of waiting multipliers a standalone round file states (None: the night's, or none).
    """

    players: tuple[str, ...]
    dealer: str
    dealt: int
    shown: Mapping[str, int] = _field(default_factory=dict)
    declared: Mapping[str, tuple[str, ...]] = _field(default_factory=dict)
    piles: Mapping[str, int] = _field(default_factory=dict)
    sage: tuple[str, ...] = ()
    ended_by: str | None = None
    ended_how: str | None = None
    carry: tuple[int, ...] | None = None
    rules: Rules = SDIN
    #: who chose to drop (TRADITIONAL §7), in the seats' order from the 親; the pot a standalone
    #: round file states (None: the night's, or none)
    dropped: tuple[str, ...] = ()
    pot: int | None = None
    #: who played, who dropped and who was forced out (TRADITIONAL §7): worked out when not given
    seating: "Seating" = _field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    #: the 出来役 each player's pile holds that the profile pays (RULES.md §5): worked out when not given
    held_dekiyaku: Mapping[str, tuple[str, ...]] = _field(default=None, compare=False, repr=False)  # type: ignore[arg-type]
    #: the piles given by their card points rather than their cards (round file ``points``), and
    #: the kasu such a pile holds where it is 16 or more (``kasu``: 素十六; absent, fewer)
    counted: Mapping[str, int] = _field(default_factory=dict)
    kasu: Mapping[str, int] = _field(default_factory=dict)
    #: the 出来役 of a pile given by their names, not its cards (``dekiyaku``), and the piles not
    #: asked: in a round of 出来役 (ended by one, or played out after 下げ) they can't change the
    #: money (``unasked``)
    named: Mapping[str, tuple[str, ...]] = _field(default_factory=dict)
    unasked: tuple[str, ...] = ()
    #: the field given by its 光 only (``field_given``: ``lights``): its class and multipliers
    #: are all the money reads of it; its other cards were not typed
    field_lights: bool = False
    #: TRADITIONAL §11: 責任, receiver -> {yaku: feeder} (§11.1); who declared みずてん (§11.2);
    #: who held the 白札 and sat the round out (§11.5)
    liable: Mapping[str, Mapping[str, str]] = _field(default_factory=dict)
    mizuten: str | None = None
    blank: str | None = None

    def __post_init__(self) -> None:
        if self.seating is None:
            object.__setattr__(self, "seating", seat(self.players, self.dealer, self.dropped, self.rules, self.blank))
        if self.held_dekiyaku is None:
            held = {p: tally_dekiyaku(self.piles.get(p, 0), self.rules) for p in self.players}
            object.__setattr__(self, "held_dekiyaku", held)

    @property
    def active(self) -> tuple[str, ...]:
        """The players who chose to play, in turn order from the round's 親 (with three seated,
        all three in seat order)."""
        return self.seating.volunteers

    @property
    def round_dealer(self) -> str:
        """The round's 親: the first volunteer (with three seated, or nobody playing, the 親)."""
        vols = self.seating.volunteers
        return vols[0] if vols and len(self.players) > 3 else self.dealer

    @property
    def playing(self) -> tuple[str, ...]:
        """The players who play the round out: three, or two unless the pot is split; else none."""
        return playing_of(self.seating, self.rules)

    def role(self, player: str) -> str:
        return self.seating.roles[player]

    @property
    def field(self) -> tuple[Card, ...]:
        """The initial field's cards, in deck order."""
        return tally_cards(self.dealt)

    @property
    def hands(self) -> dict[str, tuple[Card, ...]]:
        """The dealt hands shown, each in deck order."""
        return {p: tally_cards(t) for p, t in self.shown.items()}

    @property
    def redeal(self) -> bool:
        return tally_has_four(self.dealt)

    @property
    def played_out(self) -> bool:
        return self.ended_by is None

    def pile(self, player: str) -> tuple[Card, ...]:
        """A player's captured cards, in deck order."""
        return tally_cards(self.piles.get(player, 0))

    def pile_given(self, player: str) -> str:
        """How a pile was given: ``cards``, ``counted`` (its points), ``named`` (its 出来役 by
        name) or ``unasked``."""
        return ("counted" if player in self.counted else "named" if player in self.named
                else "unasked" if player in self.unasked else "cards")

    def card_points(self, player: str) -> int:
        """A pile's card points: counted, or its cards' face total."""
        if player in self.counted:
            return self.counted[player]
        return tally_points(self.piles.get(player, 0))

    def kasu_of(self, player: str) -> int:
        """A pile's kasu, 柳 counted (素十六): a counted pile's as given (none: fewer than 16)."""
        if player in self.counted:
            return self.kasu.get(player, 0)
        return tally_low(self.piles.get(player, 0))

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        players: Sequence[str] | None = None,
        dealer: str | None = None,
        rules: Rules = SDIN,
    ) -> "Round":
        """Check a round file's data; ``players`` and ``dealer`` fill in keys the file leaves out."""
        return _Reader(data, players, dealer, rules).read()

    def to_dict(self) -> dict[str, Any]:
        """The round file form (CONTRACT.md §3, §7), cards as codes in deck order; a key keeps
        the SDIN form (one name, not a list) wherever it can."""
        out: dict[str, Any] = {
            "players": list(self.players),
            "dealer": self.dealer,
            "field": _codes(self.field),
        }
        if self.field_lights:
            out["field_given"] = FIELD_LIGHTS
        if self.hands:
            out["hands"] = {p: _codes(h) for p, h in self.hands.items()}
        if self.declared:
            out["teyaku"] = {p: names[0] if len(names) == 1 else list(names) for p, names in self.declared.items()}
        out["captured"] = {p: _codes(self.pile(p)) for p in self.players}
        if self.counted:
            out["points"] = dict(self.counted)
        if self.kasu:
            out["kasu"] = dict(self.kasu)
        if self.named:
            out["dekiyaku"] = {p: names[0] if len(names) == 1 else list(names) for p, names in self.named.items()}
        if self.unasked:
            out["unasked"] = list(self.unasked)
        if self.sage:
            out["sage"] = self.sage[0] if len(self.sage) == 1 else list(self.sage)
        if self.ended_by:
            out["ended_by"] = self.ended_by
        if self.ended_how == "cancel":
            out["ended_how"] = "cancel"
        if self.carry:
            out["carry"] = list(self.carry)
        if self.dropped:
            out["dropped"] = list(self.dropped)
        if self.pot:
            out["pot"] = self.pot
        if self.liable:
            out["liable"] = {p: dict(by) for p, by in self.liable.items()}
        if self.mizuten:
            out["mizuten"] = True if self.rules.mizuten.by_pile else self.mizuten
        if self.blank:
            out["blank"] = self.blank
        return out

    @property
    def seated(self) -> tuple[str, ...]:
        """The seats that pay and are paid this round: every player but the 白札's holder."""
        return tuple(p for p in self.players if p != self.blank)


class Seating(NamedTuple):
    """The dropout phase of a round: volunteers in the order they said *play* (the first is the
    round's 親), those who dropped in the order they spoke, those forced out, and each seat's role."""

    volunteers: tuple[str, ...]
    dropped: tuple[str, ...]
    forced_out: tuple[str, ...]
    roles: Mapping[str, str]


def playing_of(seating: Seating, rules: Rules) -> tuple[str, ...]:
    """Who plays the round out: three volunteers, or two unless the profile has them split the
    pot; else nobody."""
    return rules.two_volunteers.plays(seating.volunteers)


def may_drop(seated: int, dropped_before: int, rules: Rules) -> bool:
    """Whether a seat may drop when its turn comes, ``dropped_before`` seats having dropped before
    it (TRADITIONAL §7): never with three seated; under ``forced_three`` not once only three could
    still play (this seat and every one after it, with those who said play)."""
    return rules.forced_three.may_drop(seated, dropped_before)


def seat(players: Sequence[str], dealer: str, dropped: Sequence[str], rules: Rules, blank: str | None = None) -> Seating:
    """TRADITIONAL §7: from the 親 round the seats, each says play or drop until three play or
    everyone has spoken; whoever had not spoken is forced out. The 白札's holder (§11.5) sits out,
    skipped by the order. A :class:`RoundError` names a drop that can't be (never spoke;
    forbidden by ``forced_three``)."""
    if len(players) <= 3:
        if dropped:
            raise RoundError("dropped", L_("with three seated all three play: {player} can't drop", player=quote(dropped[0])))
        return _all_play(tuple(players))
    order = [p for p in _turns(players, dealer) if p != blank]
    volunteers: list[str] = []
    drops: list[str] = []
    forced: list[str] = []
    wanted = set(dropped)
    for p in order:
        if len(volunteers) == 3:
            forced.append(p)
            continue
        if p in wanted:
            if not may_drop(len(order), len(drops), rules):
                raise RoundError("dropped", L_("{player} can't drop: only three could still play, and under "
                                               "{profile} (forced_three) nobody may drop then",
                                               player=quote(p), profile=rules.name))
            drops.append(p)
        else:
            volunteers.append(p)
    for p in forced:
        if p in wanted:
            raise RoundError("dropped", L_("{player} never spoke: {volunteers} had said play before their turn, "
                                           "so they were forced out (追い込み)",
                                           player=quote(p), volunteers=[quote(v) for v in volunteers]))
    roles = ({p: "played" for p in volunteers} | {p: "dropped" for p in drops} | {p: "forced_out" for p in forced}
             | ({blank: BLANK_ROLE} if blank else {}))
    return Seating(tuple(volunteers), tuple(drops), tuple(forced), {p: roles[p] for p in players})


@lru_cache(maxsize=64)
def _all_play(players: tuple[str, ...]) -> Seating:
    """The seating of three: all three play, in seat order (one value per table: a night, or a
    batch, seats the same three round after round)."""
    return Seating(players, (), (), MappingProxyType({p: "played" for p in players}))


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in sort_cards(cards)]


#: the role of the 白札's holder, who sits the round out (TRADITIONAL §11.5)
BLANK_ROLE = "blank"
_OPTIONAL_PLAYER_KEYS = ("sage", "ended_by")
#: every key a round file may hold (CONTRACT §3, §7): any other is a misspelling, refused
ROUND_KEYS = ("players", "dealer", "field", "hands", "teyaku", "captured", "sage", "ended_by", "ended_how", "dropped",
              "carry", "pot", "points", "kasu", "dekiyaku", "unasked", "field_given", "liable", "mizuten", "blank")
#: ``field_given``'s one value: the field is given by its 光 only
FIELD_LIGHTS = "lights"
_ROUND_KEY_SET = frozenset(ROUND_KEYS)
ENDINGS = ("shoubu", "cancel")


def check_table(players: Sequence[str], rules: Rules, *, own: bool = False) -> None:
    """The players fit one table under the profile: 3 seated (SDIN) or 3 to 7, each name a name
    (not empty, not too long, no control character), none folding into another, none a word of
    the entry, none ``pot``; else a :class:`RoundError` at ``players``. The one place that says
    who may sit at a table (``own``: a session's own players, checked when it was made)."""
    _players_fit(tuple(players), own, rules.most_seated, rules.name)


@lru_cache(maxsize=512)
def _players_fit(raw: tuple[str, ...], own: bool, max_players: int, profile_name: str) -> None:
    """The players' names and count fit a table under the profile, or a :class:`RoundError`.
    Cached: a batch or a night names the same players round after round (a refusal is never
    cached: it raises again)."""
    for p in raw:
        check_player_name(p, "players")
    # names that fold together, or a word of the entry, can't be players; a session's own players
    # (given as the default) were checked when it was made, and an older book's stay readable
    if not own and 3 <= len(raw) <= max_players and (problem := name_problem(raw)):
        raise RoundError("players", problem)
    if len(set(raw)) == len(raw) and len(raw) > max_players == 3:
        raise RoundError("players", L_("{count} players: under {profile} a night is three players (nights of 4 "
                                       "to 6 need the fudawiki profile or a house-rule file based on it)",
                                       count=len(raw), profile=profile_name))
    if len(set(raw)) != len(raw) or not 3 <= len(raw) <= max_players:
        if max_players == 3:
            raise RoundError("players", L_("must be three distinct names, not {names}", names=_names(list(raw))))
        raise RoundError("players", L_("must be 3 to {most} distinct names, not {names}", most=max_players,
                                       names=_names(list(raw))))
    if "pot" in raw:
        raise RoundError("players", L_("{name} is not a player's name: it names the pot in payments",
                                       name=repr("pot")))


#: a pile's item as typed -> its cards' tally
_ITEM_TALLY: dict[str, int] = {}


class _Fields:
    """The round file as typed access: its keys, per-player tables, tallies and cards."""

    data: Any
    players: tuple[str, ...]  # set by _Reader.read once the table is read
    declarer: str | None = None  # FudaWiki's みずてん's declarer, whose pile is always asked: set likewise

    def __init__(self, data: Any, players: Sequence[str] | None, dealer: str | None, rules: Rules):
        self.data = data
        self.default_players = players
        self.default_dealer = dealer
        self.rules = rules

    def _get(self, key: str) -> Any:
        return self.data.get(key)

    def _player_key(self, key: str, default: str | None, required: bool = False) -> Any:
        value = self._get(key)
        if value is None:
            value = default
        if value is None:
            if required:
                raise RoundError(key, L_("is missing"))
            return None
        if not isinstance(value, str):
            raise RoundError(key, L_("must be a player's name, not {type}", type=_type(value)))
        if value not in self.players:
            raise RoundError(key, self._not_a_player(value), "player")
        return value

    def _not_a_player(self, value: Any) -> Said:
        return L_("{name} is not one of the players {players}", name=quote(value), players=_names(self.players))

    def _per_player(self, key: str) -> dict[str, Any]:
        value = self._get(key)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise RoundError(key, L_("must be an object keyed by player, not {type}", type=_type(value)))
        for p in value:
            if p not in self.players:
                raise RoundError(f"{key}.{echo(p, shown=_bare)}", self._not_a_player(p), "player")
        return {p: v for p, v in value.items() if v is not None}

    def _tally(self, where: str, value: Any, required: bool = False) -> int:
        """Some cards' tally: each item's from a cache (a night, or a batch, types the same few
        dozen items over and over), else read by :meth:`_cards`, which names a bad token."""
        items = [value] if isinstance(value, str) else value
        if isinstance(items, list):
            try:
                return sum(map(_ITEM_TALLY.__getitem__, items))
            except (KeyError, TypeError):
                pass
        cards = self._cards(where, value, required)
        if len(_ITEM_TALLY) < 4096:
            for item in items:
                if item.strip():  # a blank line is no pile; a blank item of a list is refused
                    _ITEM_TALLY[item] = tally_of(parse_cards(item))
        return tally_of(cards)

    def _cards(self, where: str, value: Any, required: bool = False) -> list[Card]:
        if value is None:
            if required:
                raise RoundError(where, L_("is missing"))
            return []
        if isinstance(value, list) and not value:
            return []
        if not isinstance(value, (str, list)):
            raise RoundError(where, L_("must be a list of cards, not {type}", type=_type(value)))
        if isinstance(value, str) and not value.strip():
            return []
        try:
            return parse_cards(value)
        except CardError as e:
            raise RoundError(where, e.message, "card", token=e.token) from None

    def _within_deck(self, where: str, places: Mapping[str, list[Card]]) -> None:
        """No card more often than the deck holds it; the error names every place it is in."""
        cards = [c for place in places.values() for c in place]
        if within_deck(cards):
            return
        extra = over_deck(cards)
        if extra:
            c = sort_cards(extra)[0]
            n = cards.count(c)
            held = [k for k, place in places.items() if c in place]
            raise RoundError(
                where, L_("hold {count} × {code} {name} (in {places}), but the deck has {deck}", count=n, code=c.code,
                          name=c.ja, places=held, deck=DECK_COUNT[c]),
                "deck", card=c.code,
            )


class _Table(_Fields):
    """The table: the players, the dealer's seat, who dropped, the pot (TRADITIONAL §7)."""

    def _players(self) -> tuple[str, ...]:
        raw = self._get("players")
        if raw is None:
            if self.default_players is None:
                raise RoundError("players", L_("is missing: name the three players in play order"))
            raw = list(self.default_players)
        elif self.default_players is not None and (not isinstance(raw, list) or raw != list(self.default_players)):
            raise RoundError(
                "players",
                L_("{names} are not this session's players {players}", names=_names(raw),
                   players=_names(self.default_players)),
            )
        if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
            raise RoundError("players", L_("must be a list of three names, not {type}", type=_type(raw)))
        own = self.default_players is not None and raw == list(self.default_players)
        check_table(raw, self.rules, own=own)
        if len(raw) == 3:
            for key in ("dropped", "pot"):
                value = self._get(key)
                if value not in (None, [], 0) or isinstance(value, bool):
                    raise RoundError(key, L_("with three seated all three play: there is no dropping out and no pot"))
        return tuple(raw)

    def _dropped(self) -> tuple[str, ...]:
        """The players who chose to drop, any order, each once (CONTRACT §7)."""
        value = self._get("dropped")
        if value is None or value == []:
            return ()
        if not isinstance(value, list):
            raise RoundError("dropped", L_("must be a list of players' names, not {type}", type=_type(value)))
        for name in value:
            if not isinstance(name, str):
                raise RoundError("dropped", L_("must be a list of players' names, not a list holding {type}",
                                               type=_type(name)))
            if name not in self.players:
                raise RoundError("dropped", self._not_a_player(name))
        if len(set(value)) != len(value):
            twice = next(n for n in value if value.count(n) > 1)
            raise RoundError("dropped", L_("names {player} twice: list each player who dropped once", player=quote(twice)))
        return tuple(value)

    def _pot(self) -> int | None:
        """The pot at the start of a standalone round (a whole number of 文, 0 or more)."""
        value = self._get("pot")
        if value is None:
            return None
        if type(value) is not int or value < 0:
            raise RoundError("pot", L_("must be the 文 in the pot at the round's start (0 or more), not {value}",
                                       value=quote(value)))
        return value

    def _blank(self, players: tuple[str, ...]) -> str | None:
        """``blank``: the 白札's holder (TRADITIONAL §11.5), required with seven seated and refused
        otherwise; the holder sits out, named in no key that says what a player did."""
        value = self._get("blank")
        if value is None:
            if len(players) == 7:
                raise RoundError("blank", L_("is missing: with seven seated, name who held the 白札 (they sit the "
                                             "round out)"))
            return None
        if not isinstance(value, str):
            raise RoundError("blank", L_("must be a player's name, not {type}", type=_type(value)))
        if value not in players:
            raise RoundError("blank", self._not_a_player(value), "player")
        if len(players) != 7:
            raise RoundError("blank", L_("{player} can't hold the 白札: it joins the deck only with seven seated", player=quote(value)))
        for key in ("hands", "teyaku", "points", "kasu", "dekiyaku", "captured"):
            table = self._get(key)
            if isinstance(table, dict) and table.get(value) not in (None, [], "") :
                raise RoundError(f"{key}.{echo(value, shown=_bare)}", L_("{player} held the 白札 and sat the round out",
                                                                         player=quote(value)))
        for key in ("dropped", "unasked", "sage", "ended_by"):
            named = self._get(key)
            if named == value or (isinstance(named, list) and value in named):
                raise RoundError(key, L_("{player} held the 白札 and sat the round out", player=quote(value)))
        return value

    @staticmethod
    def _absent(seating: Seating, p: str) -> Said:
        role = seating.roles[p]
        if role == BLANK_ROLE:
            return L_("held the 白札 and sat the round out")
        if role == "played":
            n = len(seating.volunteers)
            return L_("nothing is played with one volunteer") if n == 1 else L_("the two volunteers split the pot")
        return L_("dropped") if role == "dropped" else L_("forced out, 追い込み")


class _Deal(_Fields):
    """The deal: the field's 光 and the declared 手役 (hands and declarations)."""

    def _field_lights(self, dealt: int) -> bool:
        """``field_given``: absent (the six cards), or ``lights``: the field by its 光 alone, the
        only cards its class and multipliers read (none: 小場)."""
        given = self._get("field_given")
        if given is None:
            return False
        if given != FIELD_LIGHTS:
            raise RoundError("field_given", L_("must be {lights} or absent, not {value}",
                                               lights=quote(FIELD_LIGHTS), value=quote(given)))
        dark = [c for c in tally_cards(dealt) if c.points != 20]
        if dark:
            card = dark[0]
            raise RoundError("field", L_("{code} {name} is not a 光: a field given by its 光 names only them",
                                         code=card.code, name=card.ja), "card", token=card.code)
        return True

    def _declared(self, hands: Mapping[str, int]) -> dict[str, tuple[str, ...]]:
        """Declared 手役: one name, or under a profile of groups a list of at most one per group.
        With the hand also given, they must be what the hand scores (a tie of values: either)."""
        rules = self.rules
        declared: dict[str, tuple[str, ...]] = {}
        for p, typed in self._per_player("teyaku").items():
            where = f"teyaku.{p}"
            if isinstance(typed, list) and not rules.teyaku_mode.grouped:
                raise RoundError(where, L_("under {profile} a hand scores one 手役: give one name, not a list",
                                           profile=rules.name))
            typed_names = typed if isinstance(typed, list) else [typed]
            if not typed_names:
                continue
            names: dict[str, str] = {}
            for one in typed_names:
                if not isinstance(one, str):
                    raise RoundError(where, L_("must be a 手役 name, not {type}", type=_type(one)))
                name = teyaku_name(one, rules)
                if name is None:
                    why = not_teyaku(one, rules) if len(one) <= 40 else None
                    hint = teyaku_hint(one, rules) if why is None and len(one) <= 40 else None
                    names_ = " ".join(rules.teyaku)
                    raise RoundError(where, L_("{why} ({names})", why=why, names=names_) if why
                                     else L_("{text} is not a 手役 ({hint}?)", text=quote(one), hint=hint) if hint
                                     else L_("{text} is not a 手役 ({names})", text=quote(one), names=names_), "teyaku")
                group = rules.group_of(name)
                if group in names:
                    raise RoundError(where, L_("{first} and {second} are both of Group {group}: a hand scores one per "
                                               "group", first=names[group], second=name, group=group))
                names[group] = name
            shown = " + ".join(map(quote, typed_names))
            if p in hands:
                scored = tally_teyaku_all(hands[p], rules)
                best = dict(zip((rules.group_of(n) for n in scored), scored))
                made = shape_teyaku_made(HandShape.of_tally(hands[p]), rules)
                if not best:
                    raise RoundError(where, L_("{declared} is declared, but the hand makes no 手役", declared=shown),
                                     "teyaku")
                wrong = [n for g, n in names.items() if g not in best or n not in made or rules.teyaku[n] != rules.teyaku[best[g]]]
                if wrong or set(names) != set(best):
                    raise RoundError(where, L_("{declared} is declared, but the hand makes {made}", declared=shown,
                                               made=" + ".join(best.values())), "teyaku")
            declared[p] = tuple(names[g] for g in rules.groups if g in names)
        return declared


class _Piles(_Fields):
    """The piles: captured cards, counted points and kasu, 出来役 by name, piles not asked."""

    def _piles(self) -> dict[str, int]:
        """Each pile given, as its tally: its cards, no card more often than the deck holds it
        across the piles, every month an even number of times."""
        given = self._per_player("captured")
        piles = {p: self._tally(f"captured.{p}", v) for p, v in given.items()}
        if not tally_within_deck(sum(piles.values())):
            self._within_deck("the piles", {f"captured.{p}": self._cards(f"captured.{p}", v) for p, v in given.items()})
        for p, pile in piles.items():
            odd = tally_odd_months(pile)
            if odd:
                m = odd[0]
                n = tally_month(pile, m)
                held = " ".join(c.code for c in tally_cards(pile) if c.month == m)
                problem = (L_("holds 1 card of month {month} ({held}); captures come in twos or fours", month=m,
                              held=held) if n == 1 else
                           L_("holds {count} cards of month {month} ({held}); captures come in twos or fours",
                              count=n, month=m, held=held))
                raise RoundError(f"captured.{p}", problem, "odd", month=m)
        return piles

    def _counted(self, piles: Mapping[str, int], needs: Mapping[str, str | None],
                 holders: Sequence[str]) -> dict[str, int]:
        """The piles given by their card points (``points``): a whole number from 0 to 264 each,
        for a player whose cards are not given too, and whose cards no bonus needs (飛び込み)."""
        counted: dict[str, int] = {}
        for p, value in self._per_player("points").items():
            where = f"points.{p}"
            if type(value) is not int or not 0 <= value <= DECK_POINTS:
                raise RoundError(where, L_("a pile's card points are a whole number from 0 to 264, not {value}",
                                           value=quote(value)))
            if piles.get(p):
                raise RoundError(where, L_("this pile is given both by its cards and by its points: give one"), "both")
            if needs.get(p) == "dekiyaku":
                raise RoundError(where, L_("this pile pays its 出来役, which its points can't say: give its cards, or "
                                           "its 出来役's names"), "counted")
            if needs.get(p) == "cards" and p == self.declarer and p in holders:
                raise RoundError(where, L_("this pile pays its 出来役 and みずてん reads its points: give its cards"),
                                 "counted")
            if needs.get(p) == "cards" and p in holders:
                raise RoundError(where, L_("this pile pays its 出来役 and a bonus (飛び込み, 抜け役), which its points "
                                           "can't say: give its cards"), "counted")
            if needs.get(p) == "cards":
                raise RoundError(where, L_("飛び込み could follow from {player}'s cards (the hand holds a three): "
                                           "give the pile's cards", player=p), "counted")
            counted[p] = value
        return counted

    def _kasu(self, counted: Mapping[str, int]) -> dict[str, int]:
        """The kasu of a counted pile that holds 16 or more (素十六), 柳 counted."""
        kasu: dict[str, int] = {}
        for p, value in self._per_player("kasu").items():
            where = f"kasu.{p}"
            if p not in counted:
                raise RoundError(where, L_("only a pile given by its points takes a kasu count: {player}'s cards "
                                           "say it", player=p))
            if type(value) is not int or not 0 <= value <= MAX_KASU or value > counted[p]:
                raise RoundError(where, L_("a pile of {points} points holds from 0 to {most} kasu, not {value}",
                                           points=counted[p], most=min(MAX_KASU, counted[p]), value=quote(value)))
            kasu[p] = value
        return kasu

    def _named(self, piles: Mapping[str, int], counted: Mapping[str, int], needs: Mapping[str, str | None],
               holders: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """出来役 given by name (``dekiyaku``), in place of the cards of a holder's pile."""
        rules = self.rules
        named: dict[str, tuple[str, ...]] = {}
        for p, typed in self._per_player("dekiyaku").items():
            where = f"dekiyaku.{p}"
            names = typed if isinstance(typed, list) else [typed]
            if not names or not all(isinstance(n, str) for n in names):
                raise RoundError(where, L_("must be a 出来役's name or a list of names, not {type}", type=_type(typed)))
            if needs.get(p) == "cards" and p == self.declarer:
                raise RoundError(where, L_("みずてん reads this pile's points too: give its cards, not its 出来役's "
                                           "names"), "dekiyaku")
            if needs.get(p) == "cards" and p in holders:
                raise RoundError(where, L_("a bonus (飛び込み, 抜け役) reads this pile's cards too: give its cards, "
                                           "not its 出来役's names"), "dekiyaku")
            if needs.get(p) != "dekiyaku":
                raise RoundError(where, L_("only the pile of the player who ended the round, or of a 下げ caller "
                                           "in a round played out, may be given by its 出来役's names"))
            if piles.get(p) or p in counted:
                raise RoundError(where, L_("this pile is given both by its cards and by its 出来役's names: give one"),
                                 "both")
            found = []
            for n in names:
                name = dekiyaku_name(n, rules)
                if name is None:
                    raise RoundError(where, L_("{name} is not a 出来役 under {profile}", name=quote(n),
                                               profile=rules.name), "dekiyaku")
                if name not in nameable(rules):
                    raise RoundError(where, L_("七短's value counts its 短冊 under {profile}: give the pile's cards",
                                               profile=rules.name), "dekiyaku")
                found.append(name)
            inside = {lower for higher, lower in rules.no_overlap if higher in found}
            if len(set(found)) != len(found) or inside & set(found):
                raise RoundError(where, L_("{names}: each 出来役 once, and none that a higher one holds",
                                           names=_names(found)), "dekiyaku")
            named[p] = tuple(n for n in rules.dekiyaku if n in found)
        return named

    def _unasked(self, piles: Mapping[str, int], counted: Mapping[str, int], named: Mapping[str, Any],
                 needs: Mapping[str, str | None], ended_by: str | None) -> list[str]:
        """The piles not asked (``unasked``): in a round of 出来役, those no payment reads."""
        value = self._get("unasked")
        if value is None or value == []:
            return []
        if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
            raise RoundError("unasked", L_("must be a list of players' names, not {type}", type=_type(value)))
        for p in value:
            if p not in self.players:
                raise RoundError("unasked", self._not_a_player(p), "player")
            if p not in needs or needs[p] is not None:
                raise RoundError("unasked", L_("{player}'s pile can change the money: give it", player=p))
            if piles.get(p) or p in counted or p in named:
                raise RoundError("unasked", L_("{player}'s pile is given, so it was asked", player=p))
        return list(dict.fromkeys(value))


class _Ending(_Fields):
    """The ending: 下げ callers, who ended it and how, what waits (carry)."""

    def _sage(self) -> tuple[str, ...]:
        """下げ callers in the order they first called: one name, or a list (CONTRACT §7)."""
        value = self._get("sage")
        if value is None or value == []:
            return ()
        names = value if isinstance(value, list) else [value]
        callers = tuple(self._sage_name(name) for name in names)
        if len(set(callers)) != len(callers):
            raise RoundError("sage", L_("names a player twice ({names}): list each caller once, in the order they "
                                        "first called", names=_names(list(callers))))
        if self.rules.sage_callers.refuses(len(callers)):
            raise RoundError("sage", L_("{count} players called 下げ, but under {profile} only one may",
                                        count=len(callers), profile=self.rules.name))
        return callers

    def _sage_name(self, value: Any) -> str:
        """One name of ``sage`` (the key may hold a list: each name is checked on its own)."""
        if not isinstance(value, str):
            raise RoundError("sage", L_("must be a player's name or a list of names, not {type}", type=_type(value)))
        if value not in self.players:
            raise RoundError("sage", self._not_a_player(value), "player")
        return value

    def _ended_how(self, ended_by: str | None, sage: tuple[str, ...]) -> str | None:
        value = self._get("ended_how")
        if value is None:
            return "shoubu" if ended_by else None
        if value not in ENDINGS:
            raise RoundError("ended_how", L_("{value} is not shoubu or cancel", value=quote(value)))
        if ended_by is None:
            raise RoundError("ended_how", L_("is given, but ended_by is not: who ended the round?"))
        if value == "cancel":
            if not self.rules.cancel.allowed:
                raise RoundError("ended_how", L_("cancel is not a rule of {profile}: a 下げ can't be taken back",
                                                 profile=self.rules.name))
            if ended_by not in sage:
                raise RoundError("ended_how", L_("{player} cancelled without having called 下げ", player=quote(ended_by)))
        return value

    def _carry(self) -> tuple[int, ...] | None:
        value = self._get("carry")
        if value is None or value == []:
            return None
        if not isinstance(value, list) or any(type(m) is not int or m not in (2, 4) for m in value):
            raise RoundError("carry", L_("must be a list of 2s and 4s (the multipliers waiting), not {value}",
                                         value=quote(value)))
        if not self.rules.field.carries:
            raise RoundError("carry", L_("nothing waits under field {field}: carry must be empty",
                                         field=repr(self.rules.field.key)))
        return tuple(sorted(value, reverse=True))


class _Reader(_Table, _Deal, _Piles, _Ending):
    """Reads and checks a round file in the order CONTRACT.md §3 lists its rules, one phase after
    another (the order of its checks decides which error a file with two problems gets)."""

    def read(self) -> Round:
        if not isinstance(self.data, dict):
            raise RoundError("", L_("a round file holds a JSON object, not {type}", type=_type(self.data)))
        if not self.data.keys() <= _ROUND_KEY_SET:
            key = next(k for k in self.data if k not in _ROUND_KEY_SET)
            raise RoundError("", unknown_key(key, ROUND_KEYS))
        players = self._players()
        self.players = players
        dealer = self._player_key("dealer", self.default_dealer, required=True)
        blank = self._blank(players)
        dealt = self._tally("field", self._get("field"), required=True)
        lights = self._field_lights(dealt)
        if tally_count(dealt) != 6 and not lights:
            raise RoundError("field", L_("holds {count} cards, not 6", count=tally_count(dealt)), "count")
        given = self._per_player("hands")
        hands = {p: self._tally(f"hands.{p}", v) for p, v in given.items()}
        for p, hand in hands.items():
            if tally_count(hand) != 7:
                raise RoundError(f"hands.{p}", L_("holds {count} cards, not 7", count=tally_count(hand)), "count")
        if not tally_within_deck(dealt + sum(hands.values())):
            self._within_deck("field and hands", {"field": self._cards("field", self._get("field")),
                                                  **{f"hands.{p}": self._cards(f"hands.{p}", v) for p, v in given.items()}})
        rules = self.rules
        pot = self._pot()
        if tally_has_four(dealt):  # 場四: the piles and the rest are not judged; what waits passes through unused
            return Round(players, dealer, dealt, hands, carry=self._carry(), rules=rules, pot=pot, blank=blank)
        seating = seat(players, dealer, self._dropped(), rules, blank)
        declared = self._declared(hands)
        piles = self._piles()
        sage = self._sage()
        ended_by = self._player_key("ended_by", None)
        playing = playing_of(seating, rules)
        mizuten = self._mizuten(seating, dealer)
        self.declarer = mizuten if rules.mizuten.by_pile else None  # the pile みずてん reads (§11.2)
        needs = {p: pile_needed(rules, p, ended_by, sage, hands.get(p), declared.get(p), mizuten) for p in playing}
        holders = paid_dekiyaku(ended_by, sage)
        counted = self._counted(piles, needs, holders)
        kasu = self._kasu(counted)
        named = self._named(piles, counted, needs, holders)
        unasked = self._unasked(piles, counted, named, needs, ended_by)
        for p, pile in (*piles.items(), *counted.items(), *named.items()):
            if (pile or p in counted or p in named) and p not in playing:
                raise RoundError(f"captured.{p}", L_("{player} did not play this round ({why}): their pile must "
                                                    "be empty", player=quote(p), why=self._absent(seating, p)))
        for key, who in (("ended_by", ended_by), *(("sage", p) for p in sage)):
            if who is not None and who not in playing:
                raise RoundError(key, L_("{player} did not play this round ({why})", player=quote(who),
                                         why=self._absent(seating, who)))
        ended_how = self._ended_how(ended_by, sage)
        carry = self._carry()
        piles = {p: piles.get(p, 0) for p in players}
        whole = ended_by is None and len(playing) == 3 and not named and not unasked  # every pile, the 264 or 48
        if whole and counted:
            total = sum(tally_points(t) for t in piles.values()) + sum(counted.values())
            if total != DECK_POINTS:
                raise RoundError("points", L_("the piles make {total} points, but a played-out round's make 264; "
                                              "set ended_by if someone stopped with a 出来役", total=total),
                                 "incomplete")
        elif whole:
            everything = sum(piles.values())
            total = tally_count(everything)
            if total != len(DECK):
                missing = sorted(c for c in FACES if not tally_holds(everything, c))
                if missing:
                    problem = L_("the piles hold {total} cards, but a played-out round captures all 48 (missing "
                                 "e.g. {code} {name}); set ended_by if someone stopped with a 出来役",
                                 total=total, code=missing[0].code, name=missing[0].ja)
                else:
                    problem = L_("the piles hold {total} cards, but a played-out round captures all 48; "
                                 "set ended_by if someone stopped with a 出来役", total=total)
                raise RoundError("captured", problem, "incomplete")
        held = {p: named.get(p) or tally_dekiyaku(pile, rules) for p, pile in piles.items()}
        for key, who in (("ended_by", ended_by), *(("sage", p) for p in sage)):
            if who is not None and who not in unasked and who not in counted and not held[who]:  # a count names none
                raise RoundError(key, L_("{player}'s pile holds no 出来役", player=echo(who)), "no_dekiyaku")
        for p in players:
            if held[p] and p not in (*sage, ended_by):
                raise RoundError(
                    f"captured.{p}",
                    L_("holds {yaku} but {player} neither ended the round nor declared 下げ", yaku="・".join(held[p]),
                       player=quote(p)),
                    "unclaimed",
                )
        rnd = Round(players, dealer, dealt, hands, declared, piles, sage, ended_by, ended_how, carry, rules,
                    seating.dropped, pot, seating, held, counted, kasu, named, tuple(unasked), lights,
                    mizuten=mizuten, blank=blank)
        liable = self._liable(rnd)
        return replace(rnd, liable=liable, seating=seating, held_dekiyaku=held) if liable else rnd

    def _mizuten(self, seating: Seating, dealer: str) -> str | None:
        """``mizuten`` (TRADITIONAL §11.2): who declared: ``true`` the night's 親; under ``flat`` a
        name of a player who chose to play. ``false`` (or null) is none under every profile."""
        value = self._get("mizuten")
        if value is None or value is False:
            return None
        rules = self.rules
        if not rules.mizuten.on:
            raise RoundError("mizuten", L_("{profile} has no みずてん: it needs the house rule {switch}", profile=rules.name,
                                           switch=L_("{first} or {second}", first='mizuten = "fudawiki"',
                                                                    second='mizuten = "flat"')))
        if isinstance(value, str) and rules.mizuten.by_pile:
            raise RoundError("mizuten", L_("under {switch} only the night's 親 declares: give {true}, not {value}",
                                           switch='mizuten = "fudawiki"', true="true", value=quote(value)))
        if value is True:
            who = dealer
        elif isinstance(value, str):
            if value not in self.players:
                raise RoundError("mizuten", self._not_a_player(value), "player")
            who = value
        else:
            raise RoundError("mizuten", L_("must be {choices} or a player's name, not {type}", choices="true, false", type=_type(value)))
        if who not in seating.volunteers:
            said = self._absent(seating, who)
            if rules.mizuten.by_pile:
                raise RoundError("mizuten", L_("the night's 親 {player} declared みずてん and may not drop ({why})",
                                               player=quote(who), why=said))
            raise RoundError("mizuten", L_("{player} did not choose to play ({why}): only a player who plays may "
                                           "declare みずてん", player=quote(who), why=said))
        return who

    def _liable(self, rnd: Round) -> dict[str, dict[str, str]]:
        """``liable`` (TRADITIONAL §11.1): receiver -> {yaku: feeder}, each yaku one the receiver
        is paid this round (a 出来役 of the round's ender, or 飛び込み), each feeder an active
        opponent. ``{}`` (or a receiver's ``{}``) is none under every profile."""
        value = self._get("liable")
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise RoundError("liable", L_("must be an object: receiver -> {{yaku: feeder}}, not {type}",
                                          type=_type(value)))
        out: dict[str, dict[str, str]] = {}
        for receiver, by in value.items():
            where = f"liable.{echo(receiver, shown=_bare)}"
            if by is None or by == {}:
                continue
            if not isinstance(by, dict):
                raise RoundError(where, L_("must be an object: yaku -> the player who fed it, not {type}",
                                           type=_type(by)))
            if not self.rules.liability:
                raise RoundError(where, L_("{profile} has no 責任: it needs the house rule {switch}", profile=self.rules.name,
                                           switch="liability = true"))
            if receiver not in self.players:
                raise RoundError(where, self._not_a_player(receiver), "player")
            for typed, feeder in by.items():
                name = _liable_name(typed, self.rules)
                self._check_liable(rnd, f"{where}.{echo(typed, shown=_bare)}", receiver, name, typed, feeder)
                out.setdefault(receiver, {})[str(name)] = feeder
        return out

    def _check_liable(self, rnd: Round, where: str, receiver: str, name: str | None, typed: Any, feeder: Any) -> None:
        """One entry of ``liable``: a yaku the receiver is paid this round, fed by an active opponent."""
        if name is None:
            raise RoundError(where, L_("{yaku} can't be liable: only 五光, 四光, 赤短, 青短, 猪鹿蝶 (when on) and "
                                       "飛び込み are (七短 never is)", yaku=quote(typed)))
        if not isinstance(feeder, str):
            raise RoundError(where, L_("must be the name of the player who fed it, not {type}", type=_type(feeder)))
        if feeder not in self.players:
            raise RoundError(where, self._not_a_player(feeder), "player")
        playing = rnd.playing
        if receiver not in playing:
            raise RoundError(where, L_("{player} did not play this round ({why})", player=quote(receiver),
                                       why=self._absent(rnd.seating, receiver)))
        if len(playing) != 3:
            raise RoundError(where, L_("a two-player round has no 責任: its one opponent pays as it is"))
        if feeder == receiver:
            raise RoundError(where, L_("{player} can't have fed their own {yaku}", player=quote(feeder), yaku=name))
        if feeder not in playing:
            raise RoundError(where, L_("{player} did not play this round ({why}): the feeder is an active opponent",
                                       player=quote(feeder), why=self._absent(rnd.seating, feeder)))
        if name in rnd.rules.bonuses:
            if name not in _earned_bonuses(rnd, receiver):
                raise RoundError(where, L_("{player} is not paid {yaku} this round", player=quote(receiver), yaku=name))
            return
        if rnd.ended_by is None:
            raise RoundError(where, L_("a round played out pays its 出来役 halved for everyone: none is liable "
                                       "(only 飛び込み may be)"))
        if receiver != rnd.ended_by or name not in rnd.held_dekiyaku[receiver]:
            raise RoundError(where, L_("{player} is not paid {yaku} this round", player=quote(receiver), yaku=name))


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: lone surrogates (undecodable bytes of a command line, or "\udc80" in JSON) can't be written as UTF-8
_SURROGATE = re.compile(r"[\ud800-\udfff]")
#: characters that show nothing: a name of only these is empty
_INVISIBLE = re.compile(r"[\s\u200b-\u200f\u2060-\u2064\ufeff\u180e\u034f\u115f\u1160\u3164\uffa0]")


def check_player_name(name: Any, where: str = "players") -> str:
    """A player's name as typed; empty, blank or over 40 characters is a :class:`RoundError`."""
    if not isinstance(name, str) or not _INVISIBLE.sub("", name):
        raise RoundError(where, L_("a player's name must not be empty (got {value})", value=quote(name)))
    if len(name) > MAX_NAME:
        raise RoundError(where, L_("the name {name} is too long: at most {most} characters", name=quote(name),
                                   most=MAX_NAME))
    if _CONTROL.search(name):
        raise RoundError(where, bad_character(name) or "")
    if _SURROGATE.search(name):
        raise RoundError(where, L_("the name {name} is not valid text (a lone surrogate: undecodable bytes?)",
                                   name=repr(name)))
    return name


def unknown_key(key: Any, known: Sequence[str]) -> Said:
    """The line for a key no round file holds, with the known key it most likely means."""
    import difflib  # only for a misspelt key

    close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6) if isinstance(key, str) else []
    typed = echo(str(key), shown=lambda text: f'"{_bare(text)}"')
    if close:
        return L_('unknown key {key} (did you mean "{known}"?)', key=typed, known=close[0])
    return L_("unknown key {key} (a round file holds {keys})", key=typed, keys=" ".join(known))


def _bare(text: str) -> str:
    """Text as its repr shows it, without the quotes: one line, every invisible character escaped."""
    return repr(text)[1:-1]


_TYPES = {dict: N_("an object"), list: N_("a list"), str: N_("a string"), int: N_("a number"),
          float: N_("a number"), bool: N_("true/false"), type(None): N_("null")}


def _type(value: Any) -> Any:
    """What a value is, said in an error line (``a list``; a type of no JSON by its name)."""
    kind = _TYPES.get(type(value))
    return Said(kind) if kind is not None else type(value).__name__


def _names(names: Any) -> str:
    if isinstance(names, (list, tuple)):
        shown = ", ".join(quote(n) for n in names[:4])
        return "[" + shown + (", …" if len(names) > 4 else "") + "]"
    return quote(names)


# ---------------------------------------------------------------------------------------------
# the result


class Payment(NamedTuple):
    """One line of the ledger: ``payer`` pays ``payee`` ``mon`` 文 for ``reason``.

    A tuple, like :class:`PlayerResult`: a batch of rounds makes thousands of them.
    """

    payer: str
    payee: str
    mon: int
    reason: str
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "mon": self.mon, "reason": self.reason}


class PlayerResult(NamedTuple):
    """What one player held in a round. ``mon`` is derived from the ledger by :func:`score`.

    ``teyaku`` is the first of ``teyaku_all`` (each group's best), shown even where void.
    """

    teyaku: str | None
    dekiyaku: tuple[str, ...]
    special: tuple[str, ...]
    card_points: int
    mon: int
    teyaku_all: tuple[str, ...] = ()
    bonuses: tuple[str, ...] = ()
    role: str = "played"
    #: how the pile was given: ``cards``, ``counted``, ``named`` or ``unasked`` (:meth:`Round.pile_given`)
    pile: str = "cards"

    @property
    def counted(self) -> bool:
        """The pile was not typed card by card: its money came from what was said of it."""
        return self.pile != "cards"


#: How a round was settled (RULES.md §7).
REDEAL, DEKIYAKU_ROUND, SPECIAL_ROUND, PLAIN_ROUND = "場四", "出来役", "特殊役", "札"
#: a stored round that no longer scores (hand-edited, damaged): shown, marked, paying nothing
BAD_ROUND = "✗"


class NightState(NamedTuple):
    """What a night carries from one round to the next: the multipliers waiting (largest first,
    TRADITIONAL §8) and the pot (§7). Derived by replaying the night, never stored."""

    carry: tuple[int, ...] = ()
    pot: int = 0


START = NightState()


class Result(NamedTuple):
    """A settled round. Tuples import and build faster than dataclasses: every command makes
    these, and a batch makes thousands. ``state`` is the night's state after the round."""

    round: Round
    field_class: str
    multiplier: int
    kind: str
    players: Mapping[str, PlayerResult]
    payments: tuple[Payment, ...]
    next_dealer: str
    rules: Rules = SDIN
    state: NightState = START
    winner: str | None = None
    #: why a stored round no longer scores (``BAD_ROUND`` only)
    problem: str | None = None
    #: (player, yaku) for every yaku and bonus the round pays, one of 0 kan too: it pays nothing
    #: and is no payment, but it is not void (TRADITIONAL §10)
    earned: frozenset[tuple[str, str]] = frozenset()
    #: (player, yaku) -> what the settlement priced it at, in 文 before the multiplier: every
    #: 手役, 出来役, 特殊役 and bonus a player is shown with, void ones too (the screens read
    #: this, never work a value out again)
    priced: Mapping[tuple[str, str], int] = MappingProxyType({})

    @property
    def redeal(self) -> bool:
        return self.kind == REDEAL

    def mon(self, player: str) -> int:
        return self.players[player].mon

    def void(self, player: str) -> tuple[str, ...]:
        """The 手役 and 出来役 shown for ``player`` that the round does not pay: a 特殊役 round's
        手役, a dropped hand's, a 下げ caller's 出来役 when another stops (TRADITIONAL §4, §7). A
        forced-out hand's 手役 is paid as its compensation (追い込み): not void."""
        if self.redeal:  # nothing is played, nothing is paid or void
            return ()
        r = self.players[player]
        teyaku = () if r.role == "forced_out" else r.teyaku_all
        return tuple(y for y in (*teyaku, *r.dekiyaku) if (player, y) not in self.earned)

    def to_json(self) -> dict[str, Any]:
        """The object `hachi-score score --json` prints (CONTRACT.md §4, §7)."""
        return {
            "field_class": self.field_class,
            **({"field_given": FIELD_LIGHTS} if self.round.field_lights else {}),
            "multiplier": self.multiplier,
            "redeal": self.redeal,
            "next_dealer": self.next_dealer,
            "players": {
                p: {
                    "teyaku": r.teyaku,
                    "dekiyaku": list(r.dekiyaku),
                    "special": list(r.special),
                    "card_points": r.card_points,
                    "mon": r.mon,
                    "teyaku_all": list(r.teyaku_all),
                    "bonuses": list(r.bonuses),
                    "role": r.role,
                    **({"pile": r.pile} if r.pile != "cards" else {}),
                }
                for p, r in self.players.items()
            },
            "payments": [pay.to_json() for pay in self.payments],
            "profile": self.rules.name,
            "carry": list(self.state.carry),
            "winner": self.winner,
            "pot": self.state.pot,
            **self._house_json(),
        }

    def _house_json(self) -> dict[str, Any]:
        """TRADITIONAL §11's keys, repeated when the round gives them (CONTRACT §7)."""
        rnd, out = self.round, dict[str, Any]()
        if rnd.liable and not self.redeal:
            out["liable"] = {p: dict(by) for p, by in rnd.liable.items()}
        if rnd.mizuten and not self.redeal:
            out["mizuten"] = rnd.mizuten
        if rnd.blank:
            out["blank"] = rnd.blank
        return out


def ledger_totals(players: Sequence[str], payments: Sequence[Payment]) -> dict[str, int]:
    """Each player's net 文: received minus paid."""
    net = {p: 0 for p in players}
    for pay in payments:
        if pay.payer != POT:
            net[pay.payer] -= pay.mon
        if pay.payee != POT:
            net[pay.payee] += pay.mon
    return net


def settle_debts(net: Mapping[str, int], reason: str = CARD_POINTS_REASON) -> list[Payment]:
    """Payments that pay out zero-sum balances, losers to winners in the given order.

    With n players this takes at most n − 1 payments.
    """
    debtors: list[list[Any]] = [[p, -v] for p, v in net.items() if v < 0]
    creditors: list[list[Any]] = [[p, v] for p, v in net.items() if v > 0]
    payments: list[Payment] = []
    while debtors and creditors:
        d, c = debtors[0], creditors[0]
        amount = min(d[1], c[1])
        payments.append(Payment(d[0], c[0], amount, reason))
        d[1] -= amount
        c[1] -= amount
        if d[1] == 0:
            debtors.pop(0)
        if c[1] == 0:
            creditors.pop(0)
    return payments


def _turns(players: Sequence[str], dealer: str) -> list[str]:
    """The players in turn order from the 親."""
    start = players.index(dealer)
    return [players[(start + i) % len(players)] for i in range(len(players))]


def next_dealer(players: Sequence[str], dealer: str, mon: Mapping[str, int]) -> str:
    """The round's winner deals next; on a tie the 親 keeps it, else the first tied after the 親.
    ``mon`` may hold others than ``players``: only the players' are compared."""
    best = max(map(mon.__getitem__, players))
    for p in _turns(players, dealer):
        if mon[p] == best:
            return p
    raise AssertionError("a player holds the best")


# ---------------------------------------------------------------------------------------------
# the multiplier and what waits (TRADITIONAL §8): a policy per field mode


def field_multipliers(dealt: int, rules: Rules = SDIN) -> list[int]:
    """Each 光 of the initial field's multiplier (柳 or 桐 ×4, 松 桜 芒 ×2), largest first, from
    the field's tally."""
    zekkyo, ooba = (dealt & _ZEKKYO_MASK).bit_count(), (dealt & _OOBA_MASK).bit_count()
    return sorted([rules.multipliers["絶場"]] * zekkyo + [rules.multipliers["大場"]] * ooba, reverse=True)


def round_multiplier(dealt: int, rules: Rules, waiting: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The multiplier a round applies and the queue it leaves, from the field's tally."""
    return rules.field.take(field_multipliers(dealt, rules), waiting, rules.multipliers["小場"])


# ---------------------------------------------------------------------------------------------
# settlement


def _opponents(players: Sequence[str], p: str) -> list[str]:
    return [o for o in players if o != p]


class Terms(NamedTuple):
    """How a round's 出来役 are paid (RULES §7, TRADITIONAL §4): ``case`` is ``"shoubu"``,
    ``"cancel"`` or ``"played_out"``. For an ended round, ``payers`` gives each opponent of the
    ender the halves of each 出来役 they pay (4: double, 2: once, 1: half, 0: nothing); a played-out
    round pays every holder half by each opponent, and its winner is ``first``, the first caller."""

    case: str
    ender: str | None
    payers: Mapping[str, int]
    lone: str | None = None
    first: str | None = None


def dekiyaku_terms(players: Sequence[str], ended: str | None, sage: Sequence[str], how: str | None) -> Terms:
    """The terms of :class:`Terms` for who plays, who ended the round, the 下げ callers and how:
    勝負 with exactly one of two opponents having called 下げ makes that one pay double and the
    other nothing; cancel is half from each; otherwise each opponent pays once."""
    if ended is None:
        return Terms("played_out", None, {}, first=sage[0] if sage else None)
    others = _opponents(players, ended)
    if how == "cancel":
        return Terms("cancel", ended, {o: 1 for o in others})
    callers = [o for o in others if o in sage]
    if len(others) == 2 and len(callers) == 1:
        return Terms("shoubu", ended, {o: 4 if o == callers[0] else 0 for o in others}, lone=callers[0])
    return Terms("shoubu", ended, {o: 2 for o in others})


def _may_tobikomi(rules: Rules, hand: int | None) -> bool:
    """飛び込み may follow (TRADITIONAL §6): the profile pays it, and the dealt hand holds a three
    and no four (its pile decides)."""
    return "飛び込み" in rules.bonuses and hand is not None and _three_no_four(hand)


def _may_nukeyaku(rules: Rules, held: Sequence[str]) -> bool:
    """抜け役 may follow (TRADITIONAL §6): the profile pays it, and the hand's Group B 手役 is one
    other than 光一 (its pile's points decide)."""
    return "抜け役" in rules.bonuses and any(rules.group_of(n) == "B" and n != "光一" for n in held)


def _tobikomi(rnd: Round, player: str, rules: Rules, group_a: str | None) -> bool:
    """飛び込み (TRADITIONAL §6): the dealt hand's Group A 手役 holds a three and no four, and the
    pile holds all four cards of the month of one of its threes."""
    hand = rnd.shown.get(player)
    if group_a is None or hand is None or not _may_tobikomi(rules, hand):
        return False
    _, _, threes, _ = tally_month_planes(hand)
    pile = rnd.piles[player]
    return any(tally_month(pile, m) == 4 for m in plane_months(threes))


def pile_needed(rules: Rules, player: str, ended_by: str | None, sage: Sequence[str], hand: int | None,
                teyaku: Sequence[str] | None, mizuten: str | None = None) -> str | None:
    """What of a player's pile can change the money (issue 26): ``cards`` (飛び込み may follow
    from them; or a 出来役 holder's pile whose points 抜け役 reads too), ``dekiyaku`` (its cards
    or its 出来役's names: the round's ender, or a 下げ caller in a round played out), ``points``
    (its cards or its counted points: a played-out round with no 下げ, or 抜け役), or None: a
    round of 出来役 pays no card points (RULES §7, TRADITIONAL §4), and nobody else's 出来役.
    Under FudaWiki's みずてん the declarer's pile is always asked (§11.2): its points at least,
    its cards where its 出来役 are paid too."""
    need = _pile_needed(rules, player, ended_by, sage, hand, teyaku)
    if mizuten == player and rules.mizuten.by_pile:
        return "cards" if need in ("cards", "dekiyaku") else "points"
    return need


def _pile_needed(rules: Rules, player: str, ended_by: str | None, sage: Sequence[str], hand: int | None,
                 teyaku: Sequence[str] | None) -> str | None:
    if _may_tobikomi(rules, hand):
        return "cards"
    held = teyaku or (tally_teyaku_all(hand, rules) if hand is not None else ())
    nukeyaku = _may_nukeyaku(rules, held)
    if player in paid_dekiyaku(ended_by, sage):
        return "cards" if nukeyaku else "dekiyaku"
    if (ended_by is None and not sage) or nukeyaku:
        return "points"
    return None


def paid_dekiyaku(ended_by: str | None, sage: Sequence[str]) -> tuple[str, ...]:
    """Whose 出来役 a round pays: the player who ended it, or, played out, each 下げ caller."""
    return (ended_by,) if ended_by else tuple(sage)


def nameable(rules: Rules) -> tuple[str, ...]:
    """The 出来役 a pile may be given by name (``dekiyaku``): each of the profile's, but 七短
    where its value counts its 短冊 (``nanatan_plus``: the cards are needed)."""
    if not rules.nanatan_plus.on:
        return tuple(rules.dekiyaku)
    return tuple(n for n in rules.dekiyaku if not catalog.BY_NAME[n].climbs)


def _three_no_four(hand: int) -> bool:
    """A hand whose Group A 手役 holds a three and no four: 飛び込み may follow from the pile."""
    _, _, threes, fours = tally_month_planes(hand)
    return bool(threes) and not fours


def _bonuses(rnd: Round, rules: Rules, player: str, held: tuple[str, ...], card_points: int) -> tuple[str, ...]:
    """The bonuses a player earns (TRADITIONAL §6), in table order."""
    if not rules.bonuses:
        return ()
    groups = {rules.group_of(n): n for n in held}
    out = []
    if _tobikomi(rnd, player, rules, groups.get("A")):
        out.append("飛び込み")
    if _may_nukeyaku(rules, held) and card_points >= 89:
        out.append("抜け役")
    return tuple(out)


#: the pot's name in payments (CONTRACT §7: a player can't be named so)
POT = "pot"
FEE_REASON, FORCED_REASON, POT_REASON, MIZUTEN_REASON = "逃げ料", "追い込み", "pot", "みずてん"
#: the note of a payment the feeder makes alone (責任, TRADITIONAL §11.1)
_LIABLE_NOTE = "責任"
#: rounds of a night of 4–6 where nothing is played (TRADITIONAL §7)
MISDEAL, SOLO, SPLIT = "流れ", "一人", "山分け"

_INOSHIKACHO_CARDS = DEKIYAKU_FACES["猪鹿蝶"][0]
#: the cards a forced-out player is paid for when they are no part of a yaku: the 光, 赤短 and 青短
_COMPENSATED = DEKIYAKU_FACES["五光"][0] | DEKIYAKU_FACES["赤短"][0] | DEKIYAKU_FACES["青短"][0]
#: the cards each 出来役 takes: all its faces, or, made of some of them (七短: seven of nine), the
#: hand's own cards of their kind (its catalog record's)
_DEKIYAKU_CARDS = {name: faces for name, (faces, need) in DEKIYAKU_FACES.items() if need == len(faces)}
_DEKIYAKU_KIND = {name: catalog.BY_NAME[name].faces[0] for name in DEKIYAKU_FACES}


def nobody_plays(players: Sequence[str], dropped: Sequence[str], blank: str | None = None) -> bool:
    """A misdeal (TRADITIONAL §7): four or more seated, and every one of them (the 白札's holder
    aside, §11.5) chose to drop."""
    return len(players) > 3 and set(players) - {blank} <= set(dropped)


def fee_mon(n: int, rules: Rules, mult: int) -> int:
    """逃げ料 of the n-th to drop: fee × (1 + (n − 1)/2) kan × multiplier (whole at kan 10 and 12),
    or under ``drop_fee = "flat"`` the fee whatever n (下り賃, TRADITIONAL §11.3)."""
    return rules.drop_fee.fee(n, rules.mon(rules.fee), mult)


def _liable_name(typed: Any, rules: Rules) -> str | None:
    """A ``liable`` entry's yaku as the profile names it, where a feeder can be liable for it
    (TRADITIONAL §11.1: 五光, 四光, 赤短, 青短, 猪鹿蝶 when on, 飛び込み), else None."""
    from .catalog import LIABLE

    name = yaku_named(typed) if isinstance(typed, str) else None
    return name if name in LIABLE and (name in rules.dekiyaku or name in rules.bonuses) else None


def liable_candidates(rnd: Round) -> dict[str, tuple[str, ...]]:
    """What a feeder could be liable for in a checked round (TRADITIONAL §11.1), by receiver: the
    ender's paid 出来役 that can be (勝負 or cancel), and 飛び込み where it is paid; none in a
    two-player round, or where the profile has no 責任."""
    if not rnd.rules.liability or rnd.redeal or len(rnd.playing) != 3:
        return {}
    from .catalog import LIABLE

    out: dict[str, tuple[str, ...]] = {}
    for p in rnd.playing:
        deki = rnd.held_dekiyaku[p] if p == rnd.ended_by else ()
        names = (*(n for n in deki if n in LIABLE), *(n for n in _earned_bonuses(rnd, p) if n in LIABLE))
        if names:
            out[p] = names
    return out


def _earned_bonuses(rnd: Round, player: str) -> tuple[str, ...]:
    """The bonuses ``player`` is paid in a checked round: three play, and no 特殊役 (TRADITIONAL §6)."""
    playing = rnd.playing
    if len(playing) != 3 or player not in playing:
        return ()
    if not (rnd.sage or rnd.ended_by):
        found = special_of({p: rnd.card_points(p) for p in playing}, {p: rnd.kasu_of(p) for p in playing},
                           rnd.round_dealer, rnd.rules)
        if any(found.values()):
            return ()
    held = rnd.declared.get(player) or (tally_teyaku_all(rnd.shown[player], rnd.rules) if player in rnd.shown else ())
    return _bonuses(rnd, rnd.rules, player, held, rnd.card_points(player))


def _group_a_cards(hand: Sequence[Card], name: str | None) -> set[Card]:
    """The cards of a hand's best Group A row (TRADITIONAL §7): 四三 the four and the three;
    一二四 and はねけん all seven; two threes their six; 手四 the four; 喰付 the six; a three its three."""
    if name is None:
        return set()
    months = month_counts(hand)
    if name in ("一二四", "はねけん"):
        return set(hand)
    keep = {"四三": (4, 3), "手四": (4,), "喰付": (2,)}.get(name, (3,))
    return {c for c in hand if months[c.month] in keep}


def forced_out_mon(rnd: Round, player: str, rules: Rules) -> int:
    """What each of the two paying players owes a forced-out player, before the multiplier:
    half their 手役 and the 出来役 in their hand, plus 3 文 per 光, 赤短, 青短 (猪鹿蝶 when on) card
    outside those. Without the hand, half a declared 手役; with neither, nothing."""
    if player not in rnd.shown:
        return rules.mon(sum(rules.teyaku[n] for n in rnd.declared.get(player, ()))) // 2
    hand = tally_cards(rnd.shown[player])
    names = teyaku_all(hand, rules)
    deki = dekiyaku(hand, rules)
    kan_total = sum(rules.teyaku[n] for n in names) + sum(dekiyaku_kan(n, hand, rules) for n in deki)
    loose = 0
    if not any(rules.group_of(n) == "B" for n in names):  # a Group B hand is all part of it
        counted = _COMPENSATED | (_INOSHIKACHO_CARDS if rules.inoshikacho else frozenset())
        group_a = next((n for n in names if rules.group_of(n) == "A"), None)
        inside = _group_a_cards(hand, group_a)
        for n in deki:
            inside |= _DEKIYAKU_CARDS.get(n) or {c for c in hand if c.kind_code == _DEKIYAKU_KIND[n]}  # 七短: its ribbons
        loose = sum(1 for c in hand if c in counted and c not in inside)
    return rules.mon(kan_total) // 2 + 3 * loose


def score(rnd: Round, rules: Rules | None = None, state: NightState | None = None) -> Result:
    """Settle a checked round (RULES.md §7, TRADITIONAL §3–9) in the night's ``state``.

    Without ``state`` the round is standalone: what waits and the pot are what its file states as
    ``carry`` and ``pot``. The phases, in the order the ledger records them: before play (fees,
    compensation), play (手役, 出来役, 特殊役 or card points), bonuses, then the winner and the pot.
    """
    rules = rules or rnd.rules
    state = _night_state(rnd, state)
    dealt = rnd.dealt
    fc = _field_class(dealt)
    seated = rnd.players
    if rnd.redeal:  # 場四: nothing is scored, nothing is used up
        zero = PlayerResult(None, (), (), 0, 0)
        return Result(rnd, fc, rules.multipliers[fc], REDEAL, {p: zero for p in seated}, (), rnd.dealer, rules, state, None)
    mult, carry = round_multiplier(dealt, rules, state.carry)
    held_all = {
        p: rnd.declared.get(p) or (tally_teyaku_all(rnd.shown[p], rules) if p in rnd.shown else ()) for p in seated
    }
    card_points = {p: rnd.card_points(p) for p in seated}
    led = _Ledger(rnd, rules, mult, state.pot)
    _before_play(led)
    kind, winner, found = _play(led, held_all, card_points)
    players = led.playing
    bonuses: dict[str, tuple[str, ...]] = {p: () for p in seated}
    if len(players) == 3 and kind != SPECIAL_ROUND:  # bonuses: after everything else, but in a 特殊役 round
        for p in players:
            bonuses[p] = _bonuses(rnd, rules, p, held_all[p], card_points[p])
            for name in bonuses[p]:
                feeder = rnd.liable.get(p, {}).get(name)
                if feeder is None:
                    led.by_each(p, rules.mon(rules.bonuses[name]), name)
                else:  # 責任 (TRADITIONAL §11.1): the feeder pays double, the other nothing
                    led.earned.add((p, name))
                    led.pay(feeder, p, 2 * rules.mon(rules.bonuses[name]) * mult, name, _LIABLE_NOTE)
    declarer = rnd.mizuten
    if declarer is not None:  # みずてん (TRADITIONAL §11.2), after everything else of play
        value = rules.mon(rules.mizuten_value) * mult
        for payer, payee in rules.mizuten.owed(declarer, card_points[declarer], rnd.seated, players,
                                               kind == SPECIAL_ROUND):
            led.pay(payer, payee, value, MIZUTEN_REASON)
    paid_special = {p: tuple(name for name, _ in found.get(p, ())) for p in seated}
    net = ledger_totals(seated, led.lines)
    if len(players) == 3:
        winner = (next_dealer(players, rnd.dealer, net) if rules.winner.by_result
                  else _play_winner(rnd, kind, paid_special, card_points))
    elif players:  # two play (TRADITIONAL §9)
        winner = _play_winner(rnd, kind, paid_special, card_points)
    if winner is not None and led.pot:  # the winner of a round takes the whole pot
        led.lines.append(Payment(POT, winner, led.pot, POT_REASON))
        net[winner] += led.pot
        led.pot = 0
    results = {
        p: PlayerResult(
            held_all[p][0] if held_all[p] else None, rnd.held_dekiyaku[p], paid_special[p], card_points[p], net[p],
            held_all[p], bonuses[p], rnd.seating.roles[p], rnd.pile_given(p),
        )
        for p in seated
    }
    nxt = winner if winner is not None else rnd.dealer
    return Result(rnd, fc, mult, kind, results, tuple(led.lines), nxt, rules, NightState(carry, led.pot), winner,
                  earned=frozenset(led.earned), priced=_Priced(led, held_all, bonuses, found))


def _night_state(rnd: Round, state: NightState | None) -> NightState:
    """The night's state the round is settled in: the round file's own ``carry`` and ``pot``
    when it stands alone; else the night's, which a file may state only as they are."""
    if state is None:
        return NightState(rnd.carry or (), rnd.pot or 0)
    if rnd.carry is not None and rnd.carry != state.carry:
        raise RoundError("carry", L_("says {carry} waits, but the night's rounds leave {left}: leave carry out",
                                     carry=str(list(rnd.carry)),
                                     left=str(list(state.carry)) if state.carry else L_("nothing")))
    if rnd.pot is not None and rnd.pot != state.pot:
        raise RoundError("pot", L_("says {pot} 文 is in the pot, but the night's rounds leave {left}: leave pot out",
                                   pot=rnd.pot, left=state.pot))
    return state


class _Ledger:
    """A round's settlement as it is written: the payments in order, the yaku each player earned,
    and the pot."""

    __slots__ = ("rnd", "rules", "mult", "pot", "lines", "earned", "playing", "teyaku_kan")

    def __init__(self, rnd: Round, rules: Rules, mult: int, pot: int) -> None:
        self.rnd, self.rules, self.mult, self.pot = rnd, rules, mult, pot
        self.playing = rnd.playing  # worked out once: the ledger asks for it at every payment
        self.teyaku_kan = rules.teyaku
        self.lines: list[Payment] = []
        self.earned: set[tuple[str, str]] = set()

    def pay(self, payer: str, payee: str, amount: int, reason: str, note: str | None = None) -> None:
        """A line of the ledger; nothing for 0 文 (a 0-kan value pays nothing, TRADITIONAL §10)."""
        if amount:
            self.lines.append(Payment(payer, payee, amount, reason, note))

    def by_each(self, holder: str, value: int, reason: str, note: str | None = None) -> None:
        """``holder`` earned ``reason``: each opponent pays ``value`` × the multiplier."""
        self.earned.add((holder, reason))
        for other in _opponents(self.playing, holder):
            self.pay(other, holder, value * self.mult, reason, note)

    def teyaku(self, held_all: Mapping[str, tuple[str, ...]]) -> None:
        for p in self.playing:
            for name in held_all[p]:
                self.by_each(p, self.rules.mon(self.teyaku_kan[name]), name)

    def deki_mon(self, p: str, name: str) -> int:
        """A 出来役's value by name (七短 by name is refused under nanatan_plus)."""
        return self.rules.mon(tally_dekiyaku_kan(name, self.rnd.piles[p], self.rules))


def _before_play(led: _Ledger) -> None:
    """TRADITIONAL §7, before play: the fees into the pot, the forced-out players' compensation."""
    rnd, rules, mult = led.rnd, led.rules, led.mult
    seating, oya = rnd.seating, rnd.round_dealer
    for n, p in enumerate(seating.dropped, 1):
        fee = fee_mon(n, rules, mult)
        led.pay(p, POT, fee, FEE_REASON, L_("{n}. to drop", n=n))
        led.pot += fee
    for p in seating.forced_out:
        owed = (forced_out_mon(rnd, p, rules) if rules.forced_out_pay.from_hand else rules.mon(rules.forced_value)) * mult
        for payer in rules.forced_out_paid_by.payers(seating.volunteers, oya):
            led.pay(payer, p, owed, FORCED_REASON)


def _play(led: _Ledger, held_all: Mapping[str, tuple[str, ...]], card_points: Mapping[str, int]
          ) -> tuple[str, str | None, dict[str, list[tuple[str, int]]]]:
    """The round as played: its kind, its winner when nothing is played, and the 特殊役 found."""
    rnd, rules, mult = led.rnd, led.rules, led.mult
    players, volunteers = led.playing, rnd.seating.volunteers
    if not players:  # nothing is played: a misdeal, one volunteer, or two who split the pot
        if nobody_plays(rnd.players, rnd.seating.dropped, rnd.blank):
            return MISDEAL, None, {}
        if len(volunteers) == 1:
            return SOLO, volunteers[0], {}
        first, second = volunteers
        for who, share in ((first, led.pot - led.pot // 2), (second, led.pot // 2)):
            led.pay(POT, who, share, POT_REASON, L_("split"))
        led.pot = 0
        return SPLIT, None, {}
    if rnd.sage or rnd.ended_by:  # 出来役 round, of three or of two (TRADITIONAL §4, §7)
        led.teyaku(held_all)
        _dekiyaku_paid(led)
        return DEKIYAKU_ROUND, None, {}
    if len(players) == 2:  # two volunteers play for the pot (TRADITIONAL §7 "Two-player round")
        led.teyaku(held_all)
        high, low = sorted(players, key=lambda p: -card_points[p])  # a tie: the round's 親 first
        led.pay(low, high, (card_points[high] - card_points[low]) * mult, CARD_POINTS_REASON)
        return PLAIN_ROUND, None, {}
    found = special_of({p: card_points[p] for p in players}, {p: rnd.kasu_of(p) for p in players},
                       rnd.round_dealer, rules)
    if any(found.values()):
        for p in players:
            for name, value in found[p]:
                led.by_each(p, value, name)
        return SPECIAL_ROUND, None, found
    led.teyaku(held_all)
    balance = {p: (card_points[p] - rules.base_points) * mult for p in players}
    led.lines.extend(settle_debts(balance))
    return PLAIN_ROUND, None, {}


def _dekiyaku_paid(led: _Ledger) -> None:
    """出来役 (RULES §7, TRADITIONAL §4): the ender's by the settlement's terms, or after 下げ
    played out, every holder half of their own from each opponent."""
    rnd, mult, ended, sage = led.rnd, led.mult, led.rnd.ended_by, led.rnd.sage
    held_dekiyaku = rnd.held_dekiyaku
    if ended is not None:
        terms = dekiyaku_terms(led.playing, ended, sage, rnd.ended_how)
        note = {4: L_("下げ: double"), 2: "下げ" if sage else None, 1: L_("cancel: half")}
        liable = rnd.liable.get(ended, {})
        for name in held_dekiyaku[ended]:
            value = led.deki_mon(ended, name)
            led.earned.add((ended, name))
            feeder = liable.get(name)
            if feeder is not None:  # 責任 (TRADITIONAL §11.1): 2 × under 勝負, in full (2 × ½) under cancel
                led.pay(feeder, ended, value * (2 if terms.case == "shoubu" else 1) * mult, name, _LIABLE_NOTE)
                continue
            for payer, halves in terms.payers.items():
                if halves:
                    led.pay(payer, ended, value * halves // 2 * mult, name, note[halves])
    else:
        for p in led.playing:
            for name in held_dekiyaku[p]:
                led.by_each(p, led.deki_mon(p, name) // 2, name, L_("下げ: half"))


class _Priced(Mapping[tuple[str, str], int]):
    """What the settlement priced each yaku at (:func:`_priced`), from the settlement's own
    inputs, worked out the first time a screen asks: a batch of ``score --json`` never does."""

    __slots__ = ("_inputs", "_table")

    def __init__(self, *inputs: Any) -> None:
        self._inputs: tuple[Any, ...] | None = inputs
        self._table: dict[tuple[str, str], int] = {}

    def _priced(self) -> dict[tuple[str, str], int]:
        if self._inputs is not None:
            self._table, self._inputs = _priced(*self._inputs), None
        return self._table

    def __getitem__(self, key: tuple[str, str]) -> int:
        return self._priced()[key]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._priced())

    def __len__(self) -> int:
        return len(self._priced())


def _priced(led: _Ledger, held_all: Mapping[str, tuple[str, ...]], bonuses: Mapping[str, tuple[str, ...]],
            found: Mapping[str, list[tuple[str, int]]]) -> dict[tuple[str, str], int]:
    """What the settlement priced each yaku a player is shown with at (void ones too)."""
    rules, teyaku, priced = led.rules, led.teyaku_kan, {}
    for p in led.rnd.players:
        for name in held_all[p]:
            priced[(p, name)] = rules.mon(teyaku[name])
        for name in led.rnd.held_dekiyaku[p]:
            priced[(p, name)] = led.deki_mon(p, name)
        for name in bonuses[p]:
            priced[(p, name)] = rules.mon(rules.bonuses[name])
    priced.update(((p, name), value) for p, got in found.items() for name, value in got)
    return priced


def _play_winner(rnd: Round, kind: str, specials: Mapping[str, tuple[str, ...]], card_points: Mapping[str, int]) -> str:
    """TRADITIONAL §9: the ender of a 勝負 or cancel; else the first 下げ caller; a 特殊役's
    holder; else the highest card points, a tie to the earliest in turn order from the round's 親."""
    if rnd.ended_by is not None:
        return rnd.ended_by
    if rnd.sage:
        return rnd.sage[0]
    turns = _turns(rnd.playing, rnd.round_dealer)
    if kind == SPECIAL_ROUND:
        return next(p for p in turns if specials[p])
    best = max(card_points[p] for p in turns)
    return next(p for p in turns if card_points[p] == best)


def score_dict(data: Any, **defaults: Any) -> Result:
    """Check and score a round file's data in one step (``rules``, ``state``: see :func:`score`)."""
    rules = defaults.pop("rules", SDIN)
    state = defaults.pop("state", None)
    return score(Round.from_dict(data, rules=rules, **defaults), rules, state)


assert BASE_POINTS == SDIN.base_points
