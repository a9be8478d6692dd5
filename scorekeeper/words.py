"""Every word a person reads about a round being entered: the questions' labels and help, what
an answer means, what the round stands at, the settlement said. One table, keyed by message id,
that the terminal and the phones both word from (and error lines too).

A :class:`Msg` is an id and its arguments: plain data, so a view model can carry it to a page
and the page can word it from the same table. :func:`say` words one. Pure and light.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Msg(NamedTuple):
    """A message by id, with its arguments (text, numbers, or lists of text)."""

    id: str
    args: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return say(self)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "args": dict(self.args), "text": say(self)}


def msg(id: str, **args: Any) -> Msg:
    """The message ``id`` with ``args``."""
    return Msg(id, tuple(args.items()))


def say(m: Msg) -> str:
    """The message worded."""
    args = {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in m.args}
    return TEXT[m.id].format(**args)


TEXT: dict[str, str] = {
    # -- the questions (labels), by kind ------------------------------------------------------
    "q.dealer": "親 dealer ({players})",
    "q.field": "場札 the six field cards",
    "q.seat": "席 {player} play or drop (Enter: play)",
    "q.hand": "手役 {player}",
    "q.hand.forced": "手役 {player} (forced out; Enter: no compensation claimed)",
    "q.ended": "ended by (Enter: played out; or who stopped with a 出来役: {players})",
    "q.ended.cancel": "ended by (Enter: played out; or who ended it, by 勝負 or cancel: {players})",
    "q.sage": "下げ declared by (Enter: nobody)",
    "q.sage.many": "下げ declared by, in the order they first called (Enter: nobody; several: {example})",
    "q.how": "勝負 or cancel? (how {player} ended it; Enter: 勝負)",
    "q.pile": "札 {player}",
    "q.pile.rest": "札 {player} (or rest)",
    # -- the questions as a page titles them (its buttons say the rest) ----------------------------
    "t.dealer": "親 dealer",
    "t.field": "場札 the six field cards",
    "t.seat": "席 {player}: play or drop",
    "t.hand": "手役 {player}",
    "t.hand.forced": "手役 {player} · forced out 追い込み: their hand, for the compensation",
    "t.ended": "ended by",
    "t.sage": "下げ declared by",
    "t.sage.many": "下げ declared by, in the order they first called",
    "t.how": "勝負 or cancel? (how {player} ended it)",
    "t.pile": "札 {player}'s pile",
    # -- a question said in an error line or a status ------------------------------------------
    "said.dealer": "親",
    "said.field": "場札 field",
    "said.seat": "{player}'s play or drop",
    "said.hand": "{player}'s 手役",
    "said.ended": "how the round ended",
    "said.sage": "下げ",
    "said.how": "勝負 or cancel",
    "said.pile": "{player}'s pile",
    # -- the answers as choices ----------------------------------------------------------------
    "a.play": "play 打つ",
    "a.drop": "drop 降り",
    "a.played_out": "played out",
    "a.stopped": "{player} stopped",
    "a.nobody": "nobody",
    "a.sage": "下げ {player}",
    "a.shoubu": "勝負",
    "a.cancel": "cancel",
    "a.rest": "rest 残り",
    "a.no_teyaku": "none なし",
    "a.no_claim": "no claim なし",
    "a.teyaku": "{name}",
    "a.player": "{number} {player}",
    # -- what an answer means (echoes) ---------------------------------------------------------
    "e.plays": "{player} plays",
    "e.drops": "{player} drops",
    "e.must_play": "{player} plays: only three could still play, and under {profile} (forced_three) nobody may drop then",
    "e.misdeal": "nobody plays: a misdeal. The fees stay in the pot; the same 親 deals again",
    "e.solo": "{player} alone plays: {player} takes the pot and wins; nothing is played",
    "e.split": "{first} and {second} play: they split the pot; nothing is played",
    "e.seated": "{players} play; {first} is the round's 親",
    "e.forced": "forced out (追い込み): {players}: they had not spoken when the third said play",
    "e.redeal": "場四 (ばし): redeal. The same 親 deals again; nothing is scored or saved.",
    "e.played_out": "played out: every card was captured",
    "e.played_out.two": "played out: settled on the difference of the two piles",
    "e.stopped": "{player} stopped with a 出来役",
    "e.no_claim": "no compensation claimed",
    "e.no_teyaku": "no 手役",
    "e.no_teyaku.hand": "no 手役 in the hand",
    "e.teyaku.declared": "declared",
    "e.teyaku.shown": "declared: {cards} shown, taken as the 手役's name",
    "e.teyaku.hand": "in the hand",
    "e.pile": "{count:2d} cards {points:4d} points",
    "e.rest_left": "left: type rest",
    "e.sage.halved": "played out after {player}'s 下げ: {player}'s 出来役 are halved",
    "e.sage.stopped": "{player} declared 下げ and then stopped: all of {player}'s 出来役 are paid",
    "e.sage.overtaken": "{ended} stopped after {player}'s 下げ: {player} alone pays {ended} double",
    "e.sage.nobody": "nobody called 下げ: {settlement}",
    "e.sage.callers": "下げ: {order}{first}. {note}",
    "e.sage.in_order": " (in the order they first called)",
    "e.sage.then_how": "{player} called 下げ and ended the round: 勝負 or cancel, next",
    # -- the settlement of 出来役 said (scoring.dekiyaku_terms) -----------------------------------
    "s.played_out": "Played out: every holder of 出来役 is paid half of their own by each opponent; "
                    "{first}, the first to call 下げ, wins the round",
    "s.cancel": "cancel by {player}: each opponent pays {player} half of {player}'s 出来役, no doubling; "
                "{player} wins the round",
    "s.shoubu": "勝負 by {player}: {player}'s 出来役 are paid, {pays}; {player} wins the round",
    "s.pays.one": "{other} pays them once",
    "s.pays.lone": "{lone}, the only opponent who called 下げ, pays {player} double, {spared} pays nothing",
    "s.pays.both": "both opponents called 下げ: each pays {player} once",
    "s.pays.each": "each opponent pays them once",
    # -- what the round stands at --------------------------------------------------------------
    "stand.field": "{field_class} ({reading}) ×{multiplier}",
    "stand.carried": "{field_class} ({reading}) ×{multiplier} (carried over)",
    "stand.stacked": "{field_class} ({reading}) ×{multiplier} (the field's 光 multiplied)",
    "stand.waits": "×{multiplier} (carried over)",
    "stand.waiting": "{waiting} waiting",
    "stand.and_waiting": "{stand}, {waiting} waiting",
    "stand.fee": "{player} pays 逃げ料 {mon}文 into the pot",
    "stand.pot": "the pot: {mon}文",
    # -- throwing a round away, and bringing it back -----------------------------------------
    "d.pile": "{player}'s pile, {count} cards",
    "d.pile.one": "{player}'s pile, 1 card",
    "d.rest": "{player}'s pile as rest",
    "d.more": "{count} more answers",
    "d.more.one": "1 more answer",
    "d.what": "{what}",
    "d.nothing": "nothing typed yet",
    "d.ask": "Throw away {what}? It can be brought back until the next round is saved.",
    "d.done": "thrown away: {what}. `hachi-score round --restore` (or the phones) brings it back until the next round is saved",
    "d.back": "brought back: {what}",
    "d.none": "no round was thrown away since the last round was saved",
    # -- the terminal's walk --------------------------------------------------------------------
    "t.start": "Round for {players}. ? shows the card notation at any question; back goes to the previous one; "
               "Ctrl-C stops without saving.",
    "t.first": "(this is the first question)",
    "t.keys": "Enter keeps the answer in [brackets] · back: the previous question · ?: help · "
              "Ctrl-C: stop, nothing is saved",
    "t.intro.seats": "Play or drop: each seat from the 親 in turn, until three play; Enter: play, or drop.",
    "t.intro.forced": "追い込み: the forced-out players' hands, for their compensation: the 7 dealt cards, "
                      "or the 手役's names; Enter: no compensation claimed.",
    "t.intro.hands": "手役: each player's 7 dealt cards, or only the 手役's name (三本, 赤 …); Enter for none.",
    "t.intro.hands.groups": "手役: each player's 7 dealt cards, or the 手役's names, at most one per group "
                            "(三本 赤, 四三 空素 …); Enter for none.",
    "t.intro.piles": "札: each player's captured pile.",
    "t.intro.piles.rest": "札: each player's captured pile. The last may be typed as rest.",
    "t.chain": "  {chain} won the last round and deals next by the chain: did {player} deal this round? [y/N]: ",
    "t.whole_hand": "  飛び込み needs the whole hand: type the 7 dealt cards to have it judged (Enter: {name} by name): ",
    "t.confirm.help": "  Enter or y: save · n: stop without saving · back: the last pile again",
    "t.confirm.again": "  ✗ answer y (save), n (don't save) or back",
    # -- help, per question ---------------------------------------------------------------------
    "h.players": "Players: {players}: a name, its start, or its number.",
    "h.seat": "Each seat from the 親 in turn: play (Enter, p) or drop (d). The n-th to drop pays 逃げ料 of "
              "1 + (n − 1)/2 kan × the multiplier into the pot; once three play, the rest are forced out "
              "(追い込み) and paid for their hands; the first to play is the round's 親.",
    "h.ended": "Enter (or out) if every hand was played out; else the player who completed a 出来役 and stopped.",
    "h.ended.cancel": "Enter (or out) if every hand was played out; else the player who ended the round: by 勝負 "
                      "after completing a 出来役, or by cancelling after their own 下げ.",
    "h.sage": "下げ: the player who completed a 出来役 and played on. Enter or - for nobody.",
    "h.sage.many": "下げ: every player who completed a 出来役 and played on, in the order they first called, "
                   "separated by spaces or commas ({example}, or {numbers}). Enter or - for nobody.",
    "h.sage.terms": "Under {profile}: 勝負 by a player: each opponent pays their 出来役, but a lone opponent who "
                    "called 下げ pays double and the other nothing. Cancel (by a player who called 下げ): each "
                    "opponent pays half, no doubling. Played out: every holder is paid half of their own by "
                    "each opponent, and the first caller wins.",
    "h.how": "{player} had called 下げ, so {player} ended the round by one of:",
    "h.how.shoubu": "  勝負 (Enter, s, shoubu): {settlement}",
    "h.how.cancel": "  cancel (c, キャンセル): {settlement}",
    "h.hand.group": "手役 Group {group}, highest first: {rows}",
    "h.hand.groups": "A hand scores the best of each group, added. Type the 7 dealt cards (they are found), or "
                     "the 手役's names, at most one per group (三本 赤), or both. Enter or - for none.",
    "h.hand.rows": "手役, highest first: {rows}",
    "h.hand": "Type the 7 dealt cards (the 手役 is found), or only the 手役's name (三本), or both. "
              "Enter or - for none.",
    "h.pile": "Every card the player captured, e.g. 1hk 3rkk 8htkk. Enter or - for an empty pile. rest: every "
              "card not in the other two piles (played-out round, last pile).",
    # -- refusals (one line each) ---------------------------------------------------------------
    "r.seat": "{text}: answer play (Enter, p) or drop (d)",
    "r.how": "{text}: answer 勝負 (Enter, s) or cancel (c)",
    "r.player": "{problem}: answer {players}",
    "r.not_playing": "{player} does not play this round: answer {players}",
    "r.twice": "{player} is named twice: list each 下げ caller once, in the order they first called",
    "r.one_caller": "{players}: under {profile} only one player may call 下げ in a round (RULES §7)",
    "r.rest": "rest is only for the last pile of a played-out round of three",
    "r.rest_waits": "rest: waiting for {players} to finish their piles",
    "r.single": "{names}: under {profile} a hand scores only its single highest 手役; type one name",
    "r.same_group": "{first} and {second} are both of Group {group}: a hand scores one 手役 per group (? lists them)",
    "r.teyaku_hint": "{text} is not a 手役 ({hint}?)",
    "r.shown_not": "{cards} make {shown}, not {names}: type the 7 dealt cards, or the 手役's name",
    "r.chain": "the 親 stays {chain}, the last round's winner (Enter takes it)",
    "r.not_asked": "{said} is not asked: {player} does not play this round (the seats as answered)",
    "r.not_a_question": "{key!r} is not a question of this round",
    "r.not_open": "{said} is not asked yet: first {first}",
    "r.not_done": "the round is not complete: {missing}",
    "r.overtaken": "{said} was changed on another phone meanwhile: look at it and tap again",
    "r.saved_since": "round {number} was saved meanwhile: this tap was for it, and is not kept",
    "r.waits_for": "waiting for {said}",
}
