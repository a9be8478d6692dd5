"""A pile is a set of taps, merged (the phone half of "not one answer lost"): three phones tap
one pile card by card, each from its own view of it (seen when last told, with its own taps not
sent yet), in any interleaving; the round's owner (:meth:`RoundDraft.card`) merges them, so
that no tap is lost and the same card tapped on two phones is one. Whole answers (a pile by its
count) keep their ``was`` check: a conflict is reported, never dropped.

No browser: each phone is modelled as the page keeps its outbox (one entry a card, coalesced,
a card tapped on then off before it is sent cancelling out), and its taps go through the owner
as the server sends them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_helpers import answers_of, bundled_night, new_night

from scorekeeper.cards import DECK_COUNT
from scorekeeper.flows import Night
from scorekeeper.round_draft import UNCHECKED, Overtaken, RoundDraft, pile_cards

FIELD = answers_of(bundled_night()[2])["field"]
#: the codes a pile may hold, each with its copies in the deck (a kasu's code: two or more)
CODES = sorted((c.code, n) for c, n in DECK_COUNT.items())
PILE, COUNTED = "pile:Aki", "pile:Chie"
PHONES = 3


@dataclass
class Phone:
    """A phone as the page is: the pile as the server last told it, and its outbox."""

    told: Counter = field(default_factory=Counter)
    outbox: dict[str, tuple[int, int]] = field(default_factory=dict)  # code -> (seen, count), in order
    text: str | None = None  # the counted pile's answer as last told

    def holds(self, code: str) -> int:
        return self.outbox[code][1] if code in self.outbox else self.told[code]

    def tap(self, code: str, count: int) -> None:
        seen = self.outbox[code][0] if code in self.outbox else self.told[code]
        self.outbox.pop(code, None)
        if count != seen:  # on then off before sending: nothing to send
            self.outbox[code] = (seen, count)


def pile_now(night_of) -> Counter:
    rd = RoundDraft.take(night_of())
    return Counter(pile_cards(rd.givens, PILE, rd.answers.get(PILE)) or [])


def text_now(night_of) -> str | None:
    return RoundDraft.take(night_of()).answers.get(COUNTED)


#: an event: a phone taps one of its cards (on or off, as its own view has it), a phone sends its
#: oldest tap, a phone is told the pile, a phone gives the counted pile (from what it was told)
events = st.lists(st.one_of(
    st.tuples(st.just("tap"), st.integers(0, PHONES - 1), st.integers(0, 200)),
    st.tuples(st.just("shared"), st.integers(0, PHONES - 1), st.integers(0, 3)),
    st.tuples(st.just("send"), st.integers(0, PHONES - 1), st.just(0)),
    st.tuples(st.just("told"), st.integers(0, PHONES - 1), st.just(0)),
    st.tuples(st.just("count"), st.integers(0, PHONES - 1), st.integers(0, 264)),
), max_size=40)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events)
def test_card_taps_from_three_phones_in_any_order_all_land_and_conflicts_are_reported(book_file, taps):
    if not book_file.exists():
        new_night(book_file, rounds=2)
    old = RoundDraft.newest(Night.open())
    if old is not None:
        old.discard(for_good=True)
    RoundDraft.take(Night.open()).answer("field", FIELD)
    night_of = Night.open
    # each phone has cards of its own (every copy of a code, so that a count is one phone's), and
    # may add the first few codes too, shared: tapped on from any phone that shows them off
    shared = [code for code, _ in CODES[:4]]
    own = {code: i % PHONES for i, (code, _) in enumerate(CODES[4:])}
    copies = dict(CODES)
    phones = [Phone() for _ in range(PHONES)]
    added: set[str] = set()
    reported, landed = 0, 0

    def send(i: int) -> None:
        nonlocal reported, landed
        p = phones[i]
        if p.outbox:
            code = next(iter(p.outbox))
            seen, count = p.outbox.pop(code)
            RoundDraft.tap(night_of, lambda rd: rd.card(PILE, code, seen, count), PILE)
            p.told = pile_now(night_of)  # the answer carries the state
            assert p.told[code] == count or (code in shared and p.told[code] >= count), (code, seen, count, p.told)
        elif p.text is not None or text_now(night_of) is not None:
            p.text = text_now(night_of)

    for kind, i, n in taps:
        p = phones[i]
        if kind == "tap":
            mine = [code for code, who in own.items() if who == i]
            code = mine[n % len(mine)]
            now = p.holds(code)
            p.tap(code, now + 1 if now < copies[code] and (n // len(mine)) % 2 == 0 or now == 0 else now - 1)
        elif kind == "shared":
            code = shared[n]
            if p.holds(code) == 0:
                p.tap(code, 1)
                added.add(code)
        elif kind == "send":
            send(i)
        elif kind == "told":
            p.told = pile_now(night_of)
            p.text = text_now(night_of)
        else:  # a whole answer, stating what the phone saw: lands only over that, else reported
            before = text_now(night_of)
            try:
                RoundDraft.tap(night_of, lambda rd, text=f"={n}", was=p.text: rd.answer(COUNTED, text, done=False, was=was),
                               COUNTED)
            except Overtaken:
                reported += 1
                assert before != p.text  # reported only when it really changed meanwhile
                assert text_now(night_of) == before  # and nothing was written over it
            else:
                landed += 1
                # it lands over what the phone saw, or over the very answer it gives (no conflict)
                assert before in (p.text, f"={n}") and text_now(night_of) == f"={n}"
            p.text = text_now(night_of)
    for i in range(PHONES):  # every phone's taps, sent in the end
        while phones[i].outbox:
            send(i)
    pile = pile_now(night_of)
    intent = Counter({code: phones[who].holds(code) for code, who in own.items()})
    intent.update({code: 1 for code in added})
    assert +pile == +intent


def test_the_same_card_tapped_on_two_phones_is_one_and_a_card_moved_the_other_way_is_reported(book_file):
    new_night(book_file, rounds=2)
    night_of = Night.open
    RoundDraft.take(night_of()).answer("field", FIELD)

    def card(code: str, seen: int, count: int, was=UNCHECKED) -> str | None:
        RoundDraft.tap(night_of, lambda rd: rd.card(PILE, code, seen, count, was=was), PILE)
        return RoundDraft.take(night_of()).answers.get(PILE)

    assert card("1h", 0, 1) == "1h"
    assert card("1h", 0, 1) == "1h"  # the same tap, from the second phone: one card, no conflict
    assert card("1k", 0, 2) == "1h 1k 1k"
    assert card("1k", 0, 1) == "1h 1k 1k"  # one 1k more than it saw: held already
    try:
        card("1k", 1, 0)  # taken off from one seen, where two are now: which one is not known
    except Overtaken as e:
        assert e.key == PILE and "1k" in str(e)
    else:
        raise AssertionError("a card moved the other way meanwhile was not reported")
    assert card("1k", 2, 0) == "1h"
    RoundDraft.take(night_of()).answer(PILE, "=88", done=False)  # another phone gives it by its count
    try:
        card("3h", 0, 1, was="1h")
    except Overtaken:
        pass
    else:
        raise AssertionError("a card tapped over a counted pile it did not see was not reported")
    assert card("3h", 0, 1, was="=88") == "3h"  # seen so: the cards tapped replace the count
