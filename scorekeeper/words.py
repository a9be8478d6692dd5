"""Every word a person reads about a round being entered: the questions' labels and help, what
an answer means, what the round stands at, the settlement said. One table, keyed by message id,
that the terminal and the phones both word from (and error lines too).

A :class:`Msg` is an id and its arguments: plain data, so a view model can carry it to a page
and the page can word it from the same table. :func:`say` words one. Pure and light.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .lang import N_, Said, as_json, word


class Msg(NamedTuple):
    """A message by id, with its arguments (text, numbers, lists, or other messages)."""

    id: str
    args: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return say(self)

    def to_json(self) -> dict[str, Any]:
        """The id, the English template (``t``: a page words it from its catalog), the arguments
        and the text in the language spoken now."""
        return {"id": self.id, "t": TEXT[self.id], "args": {k: as_json(v) for k, v in self.args},
                "text": say(self)}

    def said(self) -> Said:
        """The message as a line of text that remembers its template and arguments (an error's
        line, a problem's message: text everywhere, and a phone still words it in its language)."""
        return Said(TEXT[self.id], self.args)


def msg(id: str, **args: Any) -> Msg:
    """The message ``id`` with ``args``."""
    return Msg(id, tuple(args.items()))


def say(m: Msg) -> str:
    """The message worded in the language spoken now."""
    return word(TEXT[m.id], m.args)


def both(items: Any) -> Any:
    """``Aki and Ben`` (``Aki and Ben and Chie``): items said together, as a message."""
    items = list(items)
    out: Any = items[0]
    for item in items[1:]:
        out = msg("list.and", first=out, second=item)
    return out


TEXT: dict[str, str] = {
    # -- the questions (labels), by kind ------------------------------------------------------
    "q.dealer": N_("親 dealer ({players})"),
    "q.field": N_("場札 the six field cards, or = and its 光 alone"),
    "q.seat": N_("席 {player} play or drop (Enter: play)"),
    "q.hand": N_("手役 {player}"),
    "q.hand.forced": N_("手役 {player} (forced out; Enter: no compensation claimed)"),
    "q.ended": N_("ended by (Enter: played out; or who stopped with a 出来役: {players})"),
    "q.ended.cancel": N_("ended by (Enter: played out; or who ended it, by 勝負 or cancel: {players})"),
    "q.sage": N_("下げ declared by (Enter: nobody)"),
    "q.sage.many": N_("下げ declared by, in the order they first called (Enter: nobody; several: {example})"),
    "q.how": N_("勝負 or cancel? (how {player} ended it; Enter: 勝負)"),
    "q.pile": N_("札 {player}"),
    "q.pile.rest": N_("札 {player} (or rest)"),
    "q.pile.named": N_("札 {player}: the cards, or the 出来役's names (赤短 …)"),
    "q.kasu": N_("素十六: kasu in a counted pile, 柳 counted, if 16 or more ({players}; Enter: fewer)"),
    "q.blank": N_("白札 who holds the blank card this round? ({players})"),
    "q.mizuten.oya": N_("みずてん: did {player}, the 親, declare it? (y: yes; Enter: no)"),
    "q.mizuten": N_("みずてん declared by (Enter: nobody; {players})"),
    "q.liable": N_("責任 {receiver}'s {yaku}: did someone feed it? (Enter: no; or who: {players})"),
    # -- the questions as a page titles them (its buttons say the rest) ----------------------------
    "t.dealer": N_("親 dealer"),
    "t.field": N_("場札 the six field cards"),
    "t.seat": N_("席 {player}: play or drop"),
    "t.hand": N_("手役 {player}"),
    "t.hand.forced": N_("手役 {player} · forced out 追い込み: their hand, for the compensation"),
    "t.ended": N_("ended by"),
    "t.sage": N_("下げ declared by"),
    "t.sage.many": N_("下げ declared by, in the order they first called"),
    "t.how": N_("勝負 or cancel? (how {player} ended it)"),
    "t.pile": N_("札 {player}'s pile"),
    "t.kasu": N_("素十六: kasu in a counted pile, 柳 counted, if 16 or more"),
    "t.blank": N_("白札: who holds the blank card this round?"),
    "t.mizuten.oya": N_("みずてん: did {player}, the 親, declare it?"),
    "t.mizuten": N_("みずてん declared by"),
    "t.liable": N_("責任 {receiver}'s {yaku}: did someone feed it?"),
    # -- a question said in an error line or a status ------------------------------------------
    "said.dealer": N_("親"),
    "said.field": N_("場札 field"),
    "said.seat": N_("{player}'s play or drop"),
    "said.hand": N_("{player}'s 手役"),
    "said.ended": N_("how the round ended"),
    "said.sage": N_("下げ"),
    "said.how": N_("勝負 or cancel"),
    "said.pile": N_("{player}'s pile"),
    "said.kasu": N_("素十六's kasu"),
    "said.blank": N_("白札"),
    "said.mizuten": N_("みずてん"),
    "said.liable": N_("責任 of {player}'s 出来役"),
    # -- the answers as choices ----------------------------------------------------------------
    "a.play": N_("play 打つ"),
    "a.drop": N_("drop 降り"),
    "a.played_out": N_("played out"),
    "a.stopped": N_("{player} stopped"),
    "a.ended": N_("{player} ended it"),
    "a.nobody": N_("nobody"),
    "a.sage": N_("下げ {player}"),
    "a.shoubu": N_("勝負"),
    "a.cancel": N_("cancel"),
    "a.rest": N_("rest 残り"),
    "a.no_teyaku": N_("none なし"),
    "a.no_claim": N_("no claim なし"),
    "a.teyaku": N_("{name}"),
    "a.dekiyaku": N_("{name}"),
    "a.player": N_("{number} {player}"),
    "a.no_mizuten": N_("no みずてん"),
    "a.mizuten": N_("みずてん declared"),
    "a.player_mizuten": N_("{player} みずてん"),
    "a.not_fed": N_("nobody fed it"),
    "a.fed": N_("{player} fed it"),
    # -- what an answer means (echoes) ---------------------------------------------------------
    "e.plays": N_("{player} plays"),
    "e.blank": N_("{player} holds the 白札 and sits this round out: their six other cards are the field"),
    "e.mizuten.oya": N_("{player} plays みずてん: may not drop; 89 or more in their pile wins it"),
    "e.mizuten": N_("{player} plays みずてん: every other seat pays it"),
    "e.liable": N_("責任: {feeder} fed {player}'s {yaku} and pays it alone"),
    "e.drops": N_("{player} drops"),
    "e.must_play": N_("{player} plays: only three could still play, and under {profile} (forced_three) nobody may drop then"),
    "e.misdeal": N_("nobody plays: a misdeal. The fees stay in the pot; the same 親 deals again"),
    "e.solo": N_("{player} alone plays: {player} takes the pot and wins; nothing is played"),
    "e.split": N_("{first} and {second} play: they split the pot; nothing is played"),
    "e.seated": N_("{players} play; {first} is the round's 親"),
    "e.forced": N_("forced out (追い込み): {players}: they had not spoken when the third said play"),
    "e.redeal": N_("場四 (ばし): redeal. The same 親 deals again; nothing is scored or saved."),
    "e.played_out": N_("played out: every card was captured"),
    "e.played_out.two": N_("played out: settled on the difference of the two piles"),
    "e.stopped": N_("{player} stopped with a 出来役"),
    "e.ended": N_("{player} ended the round"),
    "e.no_claim": N_("no compensation claimed"),
    "e.no_teyaku": N_("no 手役"),
    "e.no_teyaku.hand": N_("no 手役 in the hand"),
    "e.teyaku.declared": N_("declared"),
    "e.teyaku.shown": N_("declared: {cards} shown, taken as the 手役's name"),
    "e.teyaku.hand": N_("in the hand"),
    "e.pile": N_("{count:2d} cards {points:4d} points"),
    "e.rest_left": N_("left: type rest"),
    "e.counted": N_("{points:4d} points, counted"),
    "e.named": N_("出来役 by name: {yaku}"),
    "e.unasked": N_("not asked: in a round of 出来役 (ended by one, or after 下げ) no card points are paid ({players})"),
    "e.kasu": N_("{player}'s pile holds {count} kasu"),
    "e.kasu.none": N_("no counted pile holds 16 kasu"),
    "e.sage.halved": N_("played out after {player}'s 下げ: {player}'s 出来役 are halved"),
    "e.sage.stopped": N_("{player} declared 下げ and then stopped: all of {player}'s 出来役 are paid"),
    "e.sage.overtaken": N_("{ended} stopped after {player}'s 下げ: {player} alone pays {ended} double"),
    "e.sage.nobody": N_("nobody called 下げ: {settlement}"),
    "e.sage.callers": N_("下げ: {order}{first}. {note}"),
    "e.sage.in_order": N_(" (in the order they first called)"),
    "e.sage.then_how": N_("{player} called 下げ and ended the round: 勝負 or cancel, next"),
    # -- the settlement of 出来役 said (scoring.dekiyaku_terms) -----------------------------------
    "s.played_out": N_("Played out: every holder of 出来役 is paid half of their own by each opponent; "
                    "{first}, the first to call 下げ, wins the round"),
    "s.cancel": N_("cancel by {player}: each opponent pays {player} half of {player}'s 出来役, no doubling; "
                "{player} wins the round"),
    "s.shoubu": N_("勝負 by {player}: {player}'s 出来役 are paid, {pays}; {player} wins the round"),
    "s.pays.one": N_("{other} pays them once"),
    "s.pays.lone": N_("{lone}, the only opponent who called 下げ, pays {player} double, {spared} pays nothing"),
    "s.pays.both": N_("both opponents called 下げ: each pays {player} once"),
    "s.pays.each": N_("each opponent pays them once"),
    # -- what the round stands at --------------------------------------------------------------
    "stand.field": N_("{field_class} ({reading}) ×{multiplier}"),
    "stand.carried": N_("{field_class} ({reading}) ×{multiplier} (carried over)"),
    "stand.stacked": N_("{field_class} ({reading}) ×{multiplier} (the field's 光 multiplied)"),
    "stand.waits": N_("×{multiplier} (carried over)"),
    "stand.waiting": N_("{waiting} waiting"),
    "stand.and_waiting": N_("{stand}, {waiting} waiting"),
    "stand.fee": N_("{player} pays 逃げ料 {mon}文 into the pot"),
    "stand.pot": N_("the pot: {mon}文"),
    # -- throwing a round away, and bringing it back -----------------------------------------
    "d.pile": N_("{player}'s pile, {count} cards"),
    "d.pile.one": N_("{player}'s pile, 1 card"),
    "d.rest": N_("{player}'s pile as rest"),
    "d.counted": N_("{player}'s pile, {count} points"),
    "d.named": N_("{player}'s 出来役 by name"),
    "d.more": N_("{count} other answers"),
    "d.more.one": N_("1 other answer"),
    "d.answers": N_("{count} answers"),
    "d.answers.one": N_("1 answer"),
    "d.what": N_("{what}"),
    "d.nothing": N_("nothing typed yet"),
    "d.ask": N_("Throw away {what}? It can be brought back until the next round is saved."),
    "d.done": N_("thrown away: {what}. `hachi-score round --restore` (or the phones) brings it back until the next round is saved"),
    "d.back": N_("brought back: {what}"),
    "d.none": N_("no round was thrown away since the last round was saved"),
    "a.aside": N_("round {number} was saved meanwhile, by another terminal or phone; what was typed here differs "
               "from it ({what}) and is set aside: `hachi-score edit {number}` takes it into round {number}, "
               "`hachi-score round --restore` as the next round"),
    "a.restorable": N_("set aside: {what}, typed for round {number}, which was saved meanwhile. `hachi-score round "
                    "--restore` (or the phones) brings it back as the next round; `hachi-score edit {number}` "
                    "takes it into round {number}"),
    "a.diff": N_("{said}: typed here {mine}; saved {saved}"),
    # -- the terminal's walk --------------------------------------------------------------------
    "t.start": N_("Round for {players}. ? shows the card notation at any question; back goes to the previous one; "
               "Ctrl-C stops without saving."),
    "t.first": N_("(this is the first question)"),
    "t.keys": N_("Enter keeps the answer in [brackets] · back: the previous question · ?: help · "
              "Ctrl-C: stop, nothing is saved"),
    "t.intro.seats": N_("Play or drop: each seat from the 親 in turn, until three play; Enter: play, or drop."),
    "t.intro.forced": N_("追い込み: the forced-out players' hands, for their compensation: the 7 dealt cards, "
                      "or the 手役's names; Enter: no compensation claimed."),
    "t.intro.hands": N_("手役: each player's 7 dealt cards, or only the 手役's name (三本, 赤 …); Enter for none."),
    "t.intro.hands.groups": N_("手役: each player's 7 dealt cards, or the 手役's names, at most one per group "
                            "(三本 赤, 四三 空素 …); Enter for none."),
    "t.intro.piles": N_("札: each player's captured pile."),
    "t.intro.piles.rest": N_("札: each player's captured pile. The last may be typed as rest."),
    "t.chain": N_("  {chain} won the last round and deals next by the chain: did {player} deal this round? [y/N]: "),
    "t.whole_hand": N_("  飛び込み needs the whole hand: type the 7 dealt cards to have it judged (Enter: {name} by name): "),
    "t.confirm.help": N_("  Enter or y: save · n: stop without saving · back: the last pile again"),
    "t.confirm.again": N_("  ✗ answer y (save), n (don't save) or back"),
    # -- help, per question ---------------------------------------------------------------------
    "h.players": N_("Players: {players}: a name, its start, or its number."),
    "h.blank": N_("Seven at the table: the 白札 joins the deck, and whoever draws it shows it and sits the round "
                  "out (no fee, nothing paid or received). Their six other cards are the field."),
    "h.mizuten.oya": N_("みずてん: the 親 declares before looking at the cards and may not drop. After the round, 89 "
                        "or more in their pile wins {kan} kan from every other seat; fewer pays each player {kan} kan."),
    "h.mizuten": N_("水天: any player who plays may declare it at the start of play; every other seat pays them "
                    "{kan} kan, whatever the cards."),
    "h.liable": N_("責任 (法度): the opponent who fed the last card (played it from hand, taken on the very next "
                   "turn) pays the 出来役 alone: double under 勝負, in full under cancel; the other pays nothing "
                   "for it."),
    "h.seat": N_("Each seat from the 親 in turn: play (Enter, p) or drop (d). The n-th to drop pays 逃げ料 of "
              "1 + (n − 1)/2 kan × the multiplier into the pot; once three play, the rest are forced out "
              "(追い込み) and paid for their hands; the first to play is the round's 親."),
    "h.ended": N_("Enter (or out) if every hand was played out; else the player who completed a 出来役 and stopped."),
    "h.ended.cancel": N_("Enter (or out) if every hand was played out; else the player who ended the round: by 勝負 "
                      "after completing a 出来役, or by cancelling after their own 下げ."),
    "h.sage": N_("下げ: the player who completed a 出来役 and played on. Enter or - for nobody."),
    "h.sage.many": N_("下げ: every player who completed a 出来役 and played on, in the order they first called, "
                   "separated by spaces or commas ({example}, or {numbers}). Enter or - for nobody."),
    "h.sage.terms": N_("Under {profile}: 勝負 by a player: each opponent pays their 出来役, but a lone opponent who "
                    "called 下げ pays double and the other nothing. Cancel (by a player who called 下げ): each "
                    "opponent pays half, no doubling. Played out: every holder is paid half of their own by "
                    "each opponent, and the first caller wins."),
    "h.how": N_("{player} had called 下げ, so {player} ended the round by one of:"),
    "h.how.shoubu": N_("  勝負 (Enter, s, shoubu): {settlement}"),
    "h.how.cancel": N_("  cancel (c, キャンセル): {settlement}"),
    "h.hand.group": N_("手役 Group {group}, highest first: {rows}"),
    "h.hand.groups": N_("A hand scores the best of each group, added. Type the 7 dealt cards (they are found), or "
                     "the 手役's names, at most one per group (三本 赤), or both. Enter or - for none."),
    "h.hand.rows": N_("手役, highest first: {rows}"),
    "h.hand": N_("Type the 7 dealt cards (the 手役 is found), or only the 手役's name (三本), or both. "
              "Enter or - for none."),
    "h.field": N_("The six cards dealt face up, e.g. 2t 3k 8htk 10t. Or, since only its 光 set the multiplier, = "
               "and the 光 alone: =8h, =1h 11h, or = for none (小場)."),
    "h.pile": N_("Every card the player captured, e.g. 1hk 3rkk 8htkk. Enter or - for an empty pile. rest: every "
              "card not in the other two piles (played-out round, last pile)."),
    "h.pile.counted": N_("Or, where card points count, the pile's points counted: =95 (or 95点); the three make 264, "
                      "and rest gives the last."),
    "h.kasu": N_("素十六 needs a pile's kasu, every 柳 card counted as one: type the count if 16 or more (after the "
              "player's name where two piles could), else Enter."),
    # -- refusals (one line each) ---------------------------------------------------------------
    "r.seat": N_("{text}: answer play (Enter, p) or drop (d)"),
    "r.how": N_("{text}: answer 勝負 (Enter, s) or cancel (c)"),
    "r.blank": N_("who holds the 白札? Answer {players}"),
    "r.mizuten": N_("{text}: answer y (みずてん declared) or Enter (no)"),
    "r.liable": N_("{text}: answer who fed it ({players}), or the 出来役 and who for each; Enter: nobody"),
    "r.player": N_("{problem}: answer {players}"),
    "r.not_playing": N_("{player} does not play this round: answer {players}"),
    "r.twice": N_("{player} is named twice: list each 下げ caller once, in the order they first called"),
    "r.one_caller": N_("{players}: under {profile} only one player may call 下げ in a round"),
    "r.rest": N_("rest is only for the last pile of a played-out round of three"),
    "r.lights": N_("{card} is not a 光: after =, type only the field's 光 (=8h; = alone: none)"),
    "r.points": N_("{text}: a pile holds from 0 to 264 points"),
    "r.kasu": N_("{text}: answer the kasu count, 16 or more (after the player's name: {players}), or Enter for fewer"),
    "r.kasu.most": N_("{player}'s pile holds at most {most} kasu"),
    "r.rest_waits": N_("rest: waiting for {players} to finish their piles"),
    "r.single": N_("{names}: under {profile} a hand scores only its single highest 手役; type one name"),
    "r.same_group": N_("{first} and {second} are both of Group {group}: a hand scores one 手役 per group (? lists them)"),
    "r.teyaku_hint": N_("{text} is not a 手役 ({hint}?)"),
    "r.dekiyaku_hint": N_("{text} is not a 出来役 ({hint}?)"),
    "r.not_dekiyaku": N_("{text} is not a 出来役: give the pile by its cards, or by its 出来役's names"),
    "r.names_or_cards": N_("{card} is a card: give the pile by its cards, or by its 出来役's names, not both"),
    "r.shown_not": N_("{cards} make {shown}, not {names}: type the 7 dealt cards, or the 手役's name"),
    "r.chain": N_("the 親 stays {chain}, the last round's winner (Enter takes it)"),
    "r.not_asked": N_("{said} is not asked: {player} does not play this round (the seats as answered)"),
    "r.not_a_question": N_("{key!r} is not a question of this round"),
    "r.not_open": N_("{said} is not asked yet: first {first}"),
    "r.not_done": N_("the round is not complete: {missing}"),
    "r.overtaken": N_("{said} was changed meanwhile by {who}: look at it and tap again"),
    "r.overtaken.card": N_("{card} in {said} was changed on another phone meanwhile: look at it and tap again"),
    "r.empty_pile": N_("{said} holds no cards: it is marked complete only once its player says it is empty"),
    "r.draft_gone": N_("the round this tap was for was thrown away or set aside meanwhile: this tap is not kept"),
    "r.saved_since": N_("round {number} was saved meanwhile: this tap was for it, and is not kept"),
    "r.waits_for": N_("waiting for {said}"),
    "r.thrown_away": N_("this round was thrown away meanwhile, on a phone or at another terminal; every answer typed "
                        "here is kept with it: `hachi-score round --restore` brings it back"),
    "r.typed_since": N_("answers were typed into this round meanwhile, on a phone or at another terminal: "
                        "look at them before saving"),
    "r.overruled": N_("{said}: your answer {text} was replaced at the terminal by {kept}"),
    # -- two writers on one round ---------------------------------------------------------------
    "w.phone": N_("a phone"),
    "w.terminal": N_("another terminal"),
    "w.phone.other": N_("another phone"),
    "w.terminal.the": N_("the terminal"),
    "t.arrived": N_("from {who}: {said}: {shown}"),
    "t.differs": N_("{said}: {theirs} from {who}, {mine} typed here. Keep 1 (from {who}) or 2 (typed here)? [1]: "),
    "t.differs.saved": N_("{said}: {theirs} saved, {mine} typed here. Keep 1 (saved) or 2 (typed here)? [1]: "),
    "t.differs.again": N_("answer 1 or 2"),
    # -- lists said in words --------------------------------------------------------------------
    "list.and": N_("{first} and {second}"),
    "list.and.many": N_("{items}, and {last}"),
    "list.then": N_("{first}, then {second}"),
}
