"""The step kinds' registry (scorekeeper.steps): every question the model asks is a registered
kind, no front branches on a kind's name, and a kind added to the registry alone is asked,
read, checked, offered and echoed with no other module changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper import questions as q
from scorekeeper import steps
from scorekeeper.rules import FUDAWIKI, SDIN
from scorekeeper.words import msg

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("Aki", "Ben", "Chie")
SIX = ("Aki", "Ben", "Chie", "Dan", "Eri", "Fumi")
FIELD = "2t 3k 8h 8t 8k 10t"
#: the modules that once chose a step's behaviour by its kind's name
FRONTS = ("questions.py", "entry.py", "web/static/app.js")


def test_every_step_the_model_asks_is_a_registered_kind():
    for players, rules in ((PLAYERS, SDIN), (SIX, FUDAWIKI)):
        v = q.view(q.Givens(players, players[0], rules), {"field": FIELD})
        assert v.steps
        for s in v.steps:
            kind = steps.KINDS[s.kind]
            assert kind.name == s.kind
            assert (s.player is not None) == kind.per_player


def test_no_front_branches_on_a_step_kinds_name():
    kinds = "|".join(steps.KINDS)
    branch = re.compile(rf"""kind\s*(?:==|!=|===|!==)\s*["'](?:{kinds})["']|kind (?:not )?in \(["'](?:{kinds})""")
    found = {name: branch.findall((ROOT / "scorekeeper" / name).read_text("utf-8")) for name in FRONTS}
    assert found == {name: [] for name in FRONTS}


def test_the_registry_says_what_the_branches_said():
    # the attributes that replaced `kind == "pile"`, `kind == "seat"` … : each on its kind only
    on = {attr: sorted(n for n, k in steps.KINDS.items() if getattr(k, attr))
          for attr in ("per_player", "seated_only", "of_forced_out", "typed_unasked", "marked")}
    assert on == {"per_player": ["hand", "liable", "pile", "seat"], "seated_only": ["seat"], "of_forced_out": ["hand"],
                  "typed_unasked": ["pile"], "marked": ["pile"]}
    assert {n: k.depends for n, k in steps.KINDS.items() if k.depends} == {"pile": ("field",), "how": ("ended", "sage")}


class Toy(steps.StepKind):
    """A question no module knows: yes or no, asked once the ending is answered."""

    name = "toy"
    depends = ("ended",)

    def read(self, g, player, text, values):
        if text not in ("yes", "no"):
            raise q.AnswerError(msg("r.how", text=text).said())
        return q.Reading(text == "yes", text)

    def said(self, player):
        return msg("said.how", player=player)

    def label(self, g, values, key, player):
        return msg("q.field")

    def title(self, g, values, key, player):
        return msg("t.field")

    def choices(self, g, values, step, playing):
        now = values.get(step.key)
        return [q.Choice(msg("a.shoubu"), "yes", now is True), q.Choice(msg("a.cancel"), "no", now is False)]


@pytest.fixture
def toy(monkeypatch):
    steps.register(Toy)
    asked = q.step_keys
    monkeypatch.setattr(q, "step_keys", lambda g, values, typed=(): [*asked(g, values, typed), "toy"])
    yield steps.KINDS["toy"]
    del steps.KINDS["toy"]


def test_a_kind_added_to_the_registry_alone_is_asked_read_and_offered(toy):
    form = q.Form(q.Givens(PLAYERS, "Aki"))
    v = form.view()
    assert v.step("toy").status == "waiting"  # its depends: the ending first
    with pytest.raises(q.NotAsked):
        form.answer("toy", "yes")
    form.answer("ended", "")
    assert form.view().step("toy").status == "open"
    with pytest.raises(q.Refused):
        form.answer("toy", "maybe")
    v = form.answer("toy", "yes")
    s = v.step("toy")
    assert (s.status, s.value, s.shown) == ("answered", True, "yes")
    assert [c.on for c in s.choices] == [True, False]
    shown = s.to_json()
    assert shown["kind"] == "toy" and [c["answer"] for c in shown["choices"]] == ["yes", "no"]
    assert shown["box"] == "choice"  # the page draws it with the generic choice box
    with pytest.raises(q.NoSuchQuestion):
        q.admit(v, "toy:Aki")  # not a player's question


def test_each_step_says_the_box_a_page_draws_it_with():
    v = q.view(q.Givens(SIX, "Aki", FUDAWIKI), {"field": FIELD})
    boxes = {s["kind"]: s["box"] for s in v.to_json()["steps"]}
    assert boxes == {"dealer": "dealer", "field": "field", "seat": "seat"}
    v = q.view(q.Givens(PLAYERS, "Aki", FUDAWIKI), {"field": FIELD})
    boxes = {s["kind"]: s["box"] for s in v.to_json()["steps"]}
    assert boxes == {"dealer": "dealer", "field": "field", "hand": "hand", "sage": "ending", "ended": "ending",
                     "pile": "pile"}
