"""The regression corpus: today's outputs, pinned byte for byte, so that the rules refactor
(issue "Rules as objects") can prove it changed nothing.

A *case* is its input and the output it gave when recorded. ``tests/regression/corpus/KIND.jsonl.gz``
holds one case a line: ``{"id", "kind", "in", "out"}``. :func:`run` gives a case's output from its
``in`` alone (the recorded inputs are replayed as they are: the generator below only ever makes new
ones when re-recording), and tests/test_corpus.py compares it with ``out`` as UTF-8 bytes.

Kinds (``in`` and what ``out`` holds):

- ``score``: ``score --json ROUND`` (and ``--rules``) through the CLI: its line, or its error line
  and exit status, for every combination of today's house-rule switches (TRADITIONAL §10: kan,
  field, inoshikacho, nanatan_plus and, on fudawiki, two_volunteers and forced_three) on both
  bases, the built-in profiles, and house files changing [values]. The rounds: every golden,
  a round of every kind of ending found in the profiles-4600 rounds (one per tag: profile, seats,
  the round's kind, how it ended, 特殊役, bonuses, forced-out seats, volunteers, the multiplier,
  pot and carry; one per kind of error), the round files the question walks below make (piles
  counted, named or not asked, the field by its 光), and a seeded draw of the rest.
- ``screens``: ``score ROUND`` without --json (as a person sees it), in English and Japanese
  (``--lang``), 60 and 100 columns wide (``COLUMNS``), for the goldens, the edge rounds under
  their own profile and a few switch combinations; and bad rounds (the error line, worded).
- ``questions``: a round walked answer by answer through :class:`scorekeeper.questions.Form`:
  ``RoundView.to_json()`` before the first answer and after each, with answers refused (their
  problem, and the view they would give) and questions not open (their line) along the way.
- ``rules``: ``Rules.to_dict()``, ``key()`` and ``switches()`` of every combination (and of the
  built-ins and sample files); ``rules [NAME|FILE] --json`` and the ``rules`` screen; bad
  house-rule files (the error line and status).
- ``odds``: ``odds --json`` under the profiles, with --field and --hand, and refused options.
- ``nights``: whole nights typed through the CLI into a fresh book (``new-session``, ``round
  --file``, ``undo``, ``edit``), then ``summary --json``, ``summary``, ``export --csv``,
  ``export --json``, ``stats --json`` (all nights, by profile, by player, by date).

What could change from one run to another is normalised, by the recorder and the test alike
(:func:`normalise`): an ISO timestamp (a session's ``created``, in ``export --json`` and ``stats
--json``) reads ``<time>``, today's date ``<today>``, and the case's working folder ``<work>`` (every
file a case writes is named relative to it; its book is ``book/book.json`` there). The
environment is :data:`UNSET` cleared, English (``LANG=C.UTF-8``), ``HOME`` and the XDG folders in
the work folder.

Re-record deliberately with :data:`RERECORD` (it says how many cases changed, by kind).
"""

from __future__ import annotations

import contextlib
import gzip
import io
import itertools
import json
import os
import random
import re
import shlex
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
HERE = TESTS / "regression" / "corpus"
RERECORD = ("python scripts/record_corpus.py --rerun  (the recorded inputs' outputs again; --check first lists "
            "what would change and writes nothing; --kind KIND for one kind)")
KINDS = ("score", "screens", "questions", "rules", "odds", "nights")

#: variables that change what the CLI prints: cleared for every case (the test's conftest clears
#: the same and more)
UNSET = ("HACHI_SCORE_DEBUG", "HACHI_SCORE_TESTING_LOCK_TIMEOUT", "HACHI_SCORE_TESTING_LOCK_NOTICE",
         "HACHI_SCORE_LANG", "HACHI_SCORE_DB", "COLUMNS", "LINES", "FORCE_COLOR", "NO_COLOR",
         "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR", "CLICOLOR_FORCE", "COLORTERM", "TERM",
         "LANGUAGE", "LC_ALL", "LC_MESSAGES")


def environment(work: Path) -> dict[str, str | None]:
    """The variables every case runs under (None: unset)."""
    home = work / "home"
    env: dict[str, str | None] = {name: None for name in UNSET}
    env.update(LANG="C.UTF-8", HOME=str(home), XDG_DATA_HOME=str(home / "share"),
               XDG_CACHE_HOME=str(home / "cache"), XDG_CONFIG_HOME=str(home / "config"))
    return env


# ---------------------------------------------------------------------------------------------
# the stored cases


def path_of(kind: str) -> Path:
    return HERE / f"{kind}.jsonl.gz"


def load(kind: str) -> list[dict[str, Any]]:
    with gzip.open(path_of(kind), "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def save(kind: str, cases: Sequence[Mapping[str, Any]]) -> None:
    """One case a line, keys sorted; gzip's header without a time or a name (the same cases make
    the same bytes)."""
    HERE.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(c, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n" for c in cases)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as f:
        f.write(text.encode("utf-8"))
    path_of(kind).write_bytes(buffer.getvalue())


def first_difference(want: str, got: str, width: int = 160) -> tuple[int, int, str, str]:
    """(line number from 1, column from 1, the recorded line, the line given now) of the first
    character that differs; a long line is cut to ``width`` characters around it."""
    a, b = want.split("\n"), got.split("\n")
    for n, (x, y) in enumerate(itertools.zip_longest(a, b, fillvalue="<no line>"), 1):
        if x != y:
            col = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            start = max(0, col - width // 2)
            return n, col + 1, _cut(x, start, width), _cut(y, start, width)
    return 0, 0, "", ""


def _cut(line: str, start: int, width: int) -> str:
    return ("…" if start else "") + line[start:start + width] + ("…" if len(line) > start + width else "")


# ---------------------------------------------------------------------------------------------
# running a case

_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:?\d{2}|Z)?")


def normalise(text: str, work: Path) -> str:
    """What may differ between two runs of the same case, made the same (see the module's doc)."""
    text = text.replace(str(work), "<work>")
    text = _TIMESTAMP.sub("<time>", text)
    return text.replace(date.today().isoformat(), "<today>")


_RUNNER = None


def runner():
    global _RUNNER
    if _RUNNER is None:
        from fast_cli import FastRunner

        _RUNNER = FastRunner()
    return _RUNNER


def compact(obj: Any) -> str:
    from scorekeeper.cli import compact_json

    return compact_json(obj)


@contextlib.contextmanager
def scratch(fallback: Path) -> Iterator[Path]:
    """A folder for the cases to run in: in memory (/dev/shm) where the machine has it, since a
    case writes and reads a file or two and a book (about 30 times quicker there than on this
    machine's disk), else under ``fallback``. Its path never shows: :func:`normalise`."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        with tempfile.TemporaryDirectory(prefix="hachi-corpus-", dir=shm) as tmp:
            yield Path(tmp).resolve() / "work"
    else:
        yield fallback / "work"


#: the kinds whose cases may leave something behind (a book, a folder): each starts in an empty
#: folder; the others share one, their files written over
FRESH = ("rules", "nights")
_WRITTEN: dict[Path, bytes] = {}


def run(case: Mapping[str, Any], work: Path) -> str:
    """The output of ``case`` (its ``in``), run in the folder ``work`` (the current directory
    while it runs; emptied first for the kinds of :data:`FRESH`)."""
    if case["kind"] in FRESH or not work.exists():
        if work.exists():
            shutil.rmtree(work)
        work.mkdir(parents=True)
        _WRITTEN.clear()
    before = Path.cwd()
    env = environment(work)
    saved = {k: os.environ.get(k) for k in env}
    os.chdir(work)
    try:
        for key, value in env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        given = case["in"]
        if case["kind"] == "questions":
            text = walk(given)
        elif case["kind"] == "rules" and "profile" in given:
            text = profile_values(given)
        else:
            text = "".join(cli(step, work) for step in given["steps"])
    finally:
        os.chdir(before)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        from scorekeeper import lang

        lang.use("en")
    return normalise(text, work)


def cli(step: Mapping[str, Any], work: Path) -> str:
    """One command: ``$ hachi-score ARGS``, its standard output, its standard error and its exit
    status. ``files`` are written first (text, relative to ``work``); ``env`` adds variables."""
    for name, text in (step.get("files") or {}).items():  # text, or {"hex": BYTES}
        path = work / name
        data = bytes.fromhex(text["hex"]) if isinstance(text, dict) else text.encode("utf-8")
        if _WRITTEN.get(path) != data:  # written already by the case before: not again
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            _WRITTEN[path] = data
    env = {"HACHI_SCORE_DB": str(work / "book" / "book.json"), **(step.get("env") or {})}
    result = runner().invoke(args=list(step["args"]), input=step.get("stdin"), env=env)
    shown = " ".join(f"{k}={v}" for k, v in (step.get("env") or {}).items())
    out = [f"$ {shown + ' ' if shown else ''}hachi-score {shlex.join(step['args'])}\n", result.stdout]
    if result.stderr:
        out.append("--- stderr\n" + result.stderr)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        out.append(f"--- exception {type(result.exception).__name__}: {result.exception}\n")
    out.append(f"--- exit {result.exit_code}\n")
    return "".join(out)


def rules_of(spec: Any):
    """A profile from a case: a built-in name, or ``{"toml": TEXT}`` (a house-rule file's text)."""
    from scorekeeper.house import from_data, resolve

    if isinstance(spec, str):
        return resolve(spec)
    import tomllib

    return from_data(tomllib.loads(spec["toml"]), "house.toml")


def profile_values(given: Mapping[str, Any]) -> str:
    """A profile as data: ``to_dict()``, ``key()`` and ``switches()``, or the line that refuses it."""
    try:
        rules = rules_of(given["profile"])
    except ValueError as e:
        return f"refused: {e}\n"
    return "".join(f"{name} {compact(value)}\n" for name, value in (
        ("to_dict", rules.to_dict()), ("key", rules.key()), ("switches", rules.switches())))


def walk(given: Mapping[str, Any]) -> str:
    """A round answered step by step (``script``): each action, then what it gave."""
    from scorekeeper import lang
    from scorekeeper import questions as q
    from scorekeeper.scoring import NightState

    rules = rules_of(given["rules"])
    state = NightState(tuple(given["state"]["carry"]), given["state"]["pot"]) if "state" in given else None
    g = q.Givens(tuple(given["players"]), given["dealer"], rules, state, given.get("chain"))

    def go() -> str:
        form = q.Form(g)
        lines = ["view " + compact(form.view().to_json())]
        for action in given["script"]:
            lines.append("> " + compact(action))
            try:
                if action[0] == "mark":
                    v = form.mark(action[1], action[2])
                else:
                    v = form.answer(action[1], action[2], done=action[3] if len(action) > 3 else True)
            except q.Refused as e:
                lines.append("refused " + compact({**e.problem.to_json(), "text": str(e.problem.message)}))
                if e.view is not None:
                    lines.append("would be " + compact(e.view.to_json()))
                continue
            except q.NotAsked as e:
                lines.append(f"not asked {type(e).__name__} {e.key}: {e.message}")
                continue
            lines.append("view " + compact(v.to_json()))
        return "\n".join(lines) + "\n"

    return lang.in_language(given.get("lang", "en"), go)


# ---------------------------------------------------------------------------------------------
# making the cases (the recorder only): a seeded generator, hand-picked edges


def house_toml(base: str, name: str, switches: Mapping[str, Any], values: Mapping[str, int] | None = None) -> str:
    lines = [f'base = "{base}"', f'name = "{name}"']
    for key, value in switches.items():
        lines.append(f"{key} = " + (f'"{value}"' if isinstance(value, str) else str(value).lower()))
    if values:
        lines.append("[values]")
        lines.extend(f'"{k}" = {v}' for k, v in values.items())
    return "\n".join(lines) + "\n"


def combinations() -> list[tuple[str, str]]:
    """(name, house-rule file) for every combination of today's switches on both bases: 24 on
    sdin (two_volunteers and forced_three are fudawiki's alone), 96 on fudawiki."""
    from scorekeeper.house import SWITCHES
    from scorekeeper.rules import FIELD_MODES, TWO_VOLUNTEERS

    # the switches the corpus was recorded with; TRADITIONAL §11's came after it, each pinned by its
    # own tests at its default and away from it (standing_three_pairs: test_standing_three_pairs.py;
    # liability, mizuten, drop_fee, forced_out_pay, forced_out_paid_by: test_house_switches.py)
    assert SWITCHES == ("kan", "field", "inoshikacho", "nanatan_plus", "two_volunteers", "forced_three",
                        "liability", "mizuten", "drop_fee", "forced_out_pay", "forced_out_paid_by",
                        "standing_three_pairs"), "a switch was added or removed: add it to the corpus's combinations"
    out = []
    for base in ("sdin", "fudawiki"):
        seated = ((tv, f3) for tv in TWO_VOLUNTEERS for f3 in (False, True)) if base == "fudawiki" else [(None, None)]
        for (kan, field, ino, plus), (tv, f3) in itertools.product(
                itertools.product((10, 12), FIELD_MODES, (False, True), (False, True)), list(seated)):
            switches: dict[str, Any] = {"kan": kan, "field": field, "inoshikacho": ino, "nanatan_plus": plus}
            name = f"{base[0]}-k{kan}-{field}-i{int(ino)}-n{int(plus)}"
            if tv is not None:
                switches.update(two_volunteers=tv, forced_three=f3)
                name += f"-{tv}-f{int(f3)}"
            out.append((name, house_toml(base, name, switches)))
    return out


#: house files that change [values] (and samples/house-kan12.toml, read as it is)
VALUE_FILES = {
    "values-fudawiki": house_toml("fudawiki", "values-fudawiki", {"kan": 10, "field": "carry"}, {
        "三本": 3, "空素": 5, "二立三本": 9, "五光": 15, "七短": 11, "赤短": 6, "総八": 12, "二八": 9, "素十六": 10,
        "飛び込み": 2, "抜け役": 0, "逃げ料": 2}),
    "values-sdin": house_toml("sdin", "values-sdin", {"inoshikacho": True}, {
        "三本": 3, "空巣": 5, "四三": 25, "猪鹿蝶": 8, "青短": 0, "総八": 0, "二八": 11, "素十六": 13}),
}


def profiles() -> list[tuple[str, Any]]:
    """(name, spec) of every profile the corpus scores under: the built-ins, the sample file,
    the [values] files, then every combination."""
    sample = (ROOT / "samples" / "house-kan12.toml").read_text(encoding="utf-8")
    return ([("sdin", "sdin"), ("fudawiki", "fudawiki"), ("traditional", "traditional"),
             ("house-kan12", {"toml": sample})]
            + [(n, {"toml": t}) for n, t in VALUE_FILES.items()]
            + [(n, {"toml": t}) for n, t in combinations()])


def rules_args(spec: Any) -> tuple[list[str], dict[str, str]]:
    """The --rules option and the files it needs."""
    if isinstance(spec, str):
        return ["--rules", spec], {}
    return ["--rules", "house.toml"], {"house.toml": spec["toml"]}


def round_text(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


# -- the rounds --------------------------------------------------------------------------------


def goldens() -> list[tuple[str, Any, str]]:
    out = []
    for folder in sorted((TESTS / "golden").iterdir()):
        for p in sorted(folder.glob("*.round.json")):
            out.append((f"golden/{folder.name}/{p.name[:-len('.round.json')]}",
                        json.loads(p.read_text(encoding="utf-8")), folder.name))
    for p in sorted((ROOT / "samples" / "night").glob("*.json")):
        out.append((f"night/{p.stem}", json.loads(p.read_text(encoding="utf-8")), "sdin"))
    return out


def recorded_rounds() -> list[tuple[str, Any, str]]:
    """The 4,600 rounds of tests/regression/profiles-4600.jsonl.gz (made by the simulator and
    broken by one change each), with the profile each was recorded under."""
    with gzip.open(TESTS / "regression" / "profiles-4600.jsonl.gz", "rt", encoding="utf-8") as f:
        cases = [json.loads(line) for line in f]
    names = {"house-kan12": "house-kan12"}
    return [(f"p4600/{i}", c["round"], names.get(c["rules"], c["rules"])) for i, c in enumerate(cases)]


def simulated_rounds() -> list[tuple[str, Any, str]]:
    """Nights of 4–6 the 4,600 lack: two volunteers under split, forced_three, one volunteer,
    nobody; 3-player fudawiki rounds with a 下げ cancelled and 猪鹿蝶 in a pile."""
    from simulator import simulate, simulate_seated

    out = []
    names = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi"]
    for seed in range(60):
        n = 4 + seed % 3
        s = simulate_seated(random.Random(1000 + seed), names[:n], names[seed % n], drop_chance=0.3 + 0.1 * (seed % 6),
                            forced_three=seed % 5 == 0, split=seed % 4 == 1)
        out.append((f"seated/{seed}", s.round, "fudawiki"))
    for seed in range(40):
        s = simulate(random.Random(2000 + seed), rules="fudawiki", stop_chance=0.3, cancel_chance=0.4)
        out.append((f"fuda3/{seed}", s.round, "fudawiki"))
    return out


def tag(data: Any, spec: Any) -> tuple:
    """What kind of round ``data`` is under a profile: the edges are one round of each tag."""
    from scorekeeper.scoring import RoundError, score_dict

    rules = rules_of(spec)
    name = rules.name
    n = len(data["players"]) if isinstance(data, dict) and isinstance(data.get("players"), list) else None
    try:
        r = score_dict(data, rules=rules)
    except RoundError as e:
        return (name, n, "error", e.code, str(e.where).split(".")[0].split("[")[0])
    except Exception as e:  # noqa: BLE001 - an input the engine does not expect is an edge too
        return (name, n, "crash", type(e).__name__)
    rnd = r.round
    roles = sorted({p.role for p in r.players.values()})
    return (name, n, r.kind, r.redeal if hasattr(r, "redeal") else None, bool(rnd.sage), len(rnd.sage) > 1,
            rnd.ended_by is not None, rnd.ended_how, tuple(sorted({s for p in r.players.values() for s in p.special})),
            tuple(sorted({b for p in r.players.values() for b in p.bonuses})),
            tuple(sorted({d for p in r.players.values() for d in p.dekiyaku})),
            tuple(roles), len(rnd.playing), r.multiplier, r.state.pot > 0, bool(r.state.carry))


def coarse(t: tuple) -> tuple:
    """A tag with less in it: the profile, three or more seated, the round's kind, 下げ (called,
    by several), ended (how), 特殊役, any bonus, forced-out seats, how many played; for a bad
    round its error's code."""
    if t[2] in ("error", "crash"):
        return t[:4]
    name, n, kind, _redeal, sage, many, ended, how, specials, bonuses, _deki, roles, playing = t[:13]
    return (name, n == 3, kind, sage, many, ended, how, specials, bool(bonuses), "forced_out" in roles, playing)


def edges(rounds: Sequence[tuple[str, Any, str]], key=lambda t: t) -> list[tuple[str, Any, str]]:
    """The first round of each tag (``key`` of it), in order."""
    seen: set[tuple] = set()
    specs = dict(profiles())
    out = []
    for rid, data, rules in rounds:
        t = key(tag(data, specs[rules]))
        if t not in seen:
            seen.add(t)
            out.append((rid, data, rules))
    return out


# -- the question walks --------------------------------------------------------------------------


WRONG = {
    "dealer": ["Zed"],
    "field": ["1h 1h 2k 3k 4k 5k", "1h 2k 3k"],
    "hand": ["1h 2h", "三本 nope"],
    "sage": ["Zed"],
    "ended": ["Zed"],
    "pile": ["1h 1h", "=400", "xx"],
    "seat": ["maybe"],
    "how": ["later"],
    "kasu": ["Zed 99"],
}


def walk_script(g, answers: Mapping[str, str], rng: random.Random, *, wrong: float, short: bool,
                rest: bool) -> list[list[Any]]:
    """The answers in the order a terminal asks them (the first step not answered that is open),
    each at times given a wrong answer first (``wrong``: the chance); ``short``: piles given as
    little as the money needs (counted points, 出来役 by name); ``rest``: the last pile as 'rest'."""
    from scorekeeper import questions as q

    form = q.Form(g)
    script: list[list[Any]] = []
    tried: set[str] = set()
    if rng.random() < 0.5:
        script.append(["answer", "how" if rng.random() < 0.5 else "pile:Nobody", "x"])  # not open / no such question
    for _ in range(60):
        v = form.view()
        todo = [s for s in v.steps if s.status != "answered" and s.status != "waiting"]
        if not todo:
            break
        step = todo[0]
        key = step.key
        text = answers.get(key, "")
        if key.startswith("pile:"):
            player = key.split(":", 1)[1]
            piles_left = [s for s in todo if s.key.startswith("pile:")]
            if rest and len(piles_left) == 1 and q.rest_offered(g, v.values, key):
                text = "rest"
            elif short and step.need == "points" and text:
                from scorekeeper.notation import parse_cards

                text = f"={sum(c.points for c in parse_cards(text))}"
            elif short and step.need == "dekiyaku" and text:
                from scorekeeper.notation import parse_cards
                from scorekeeper.scoring import nameable
                from scorekeeper.yaku import dekiyaku

                names = dekiyaku(parse_cards(text), g.rules)
                if names and set(names) <= set(nameable(g.rules)):
                    text = " ".join(names)
            if player is not None and rng.random() < 0.2:
                script.append(["answer", key, text, False])  # typed, not said complete
                script.append(["mark", player, True])
                try:
                    form.answer(key, text, done=False, keep_refused=True)
                    form.mark(player, True)
                except (q.Refused, q.NotAsked):
                    break
                continue
        kind = key.split(":")[0]
        if short and key == "field" and text and not text.startswith("="):
            from scorekeeper.notation import parse_cards

            text = "=" + " ".join(c.code for c in parse_cards(text) if c.points == 20)
        if short and key == "kasu":
            text = _kasu_answer(answers, v.values)
        if key not in tried and rng.random() < wrong and kind in WRONG:
            tried.add(key)
            script.append(["answer", key, rng.choice(WRONG[kind])])
        script.append(["answer", key, text])
        try:
            form.answer(key, text)
        except (q.Refused, q.NotAsked):
            break  # the walk ends here; what was said is recorded
    if rng.random() < 0.3 and script:
        back = next((a for a in reversed(script) if a[0] == "answer" and a[1].startswith(("pile:", "ended"))), None)
        if back is not None:
            script.append(["answer", back[1], None])  # taken back
            script.append(list(back[:3]))
    return script


def _kasu_answer(answers: Mapping[str, str], values: Mapping[str, Any]) -> str:
    """``Ben 17``: the first counted pile that holds 16 kasu or more (柳 counted), by its cards."""
    from scorekeeper.notation import parse_cards

    for key, value in values.items():
        if key.startswith("pile:") and isinstance(value, int) and answers.get(key):
            kasu = sum(1 for c in parse_cards(answers[key]) if c.points == 1 or c.month == 11)
            if kasu >= 16:
                return f"{key[5:]} {kasu}"
    return ""


def walks(rng: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """(id, in) of every question walk."""
    from scorekeeper import questions as q
    from scorekeeper.scoring import NightState, RoundError

    specs = dict(profiles())
    chosen = goldens()
    pool = [r for r in recorded_rounds() + simulated_rounds()]
    rng2 = random.Random(7)
    chosen += rng2.sample([r for r in pool if r[2] != "sdin"], 24) + rng2.sample([r for r in pool if r[2] == "sdin"], 8)
    #: a few under switch combinations: the stand line's carry and stack, forced_three's seats
    #: that must play, two volunteers who split
    seated = [r for r in pool if r[0].startswith("seated/")]
    three = [r for r in pool if r[2] == "fudawiki" and len(r[1].get("players") or ()) == 3]
    chosen += [(rid, d, "f-k12-stack-i1-n1-split-f0") for rid, d, _r in seated[:6]]
    chosen += [(rid, d, "f-k10-none-i0-n0-play-f1") for rid, d, _r in seated[6:10]]
    chosen += [(rid, d, "house-kan12") for rid, d, _r in rng2.sample(three, 3)]
    chosen += [(rid, d, "s-k12-carry-i1-n1") for rid, d, r in goldens() if r == "sdin"][:3]
    out = []
    for n, (rid, data, rules_name) in enumerate(chosen):
        rules = rules_of(specs[rules_name])
        try:
            answers = q.answers_of(data, data["players"], rules)
        except (RoundError, KeyError, TypeError, ValueError):
            continue
        both = n % 3 == 0 or rid.startswith("golden/")
        for variant in ("plain", "short") if both else ("plain",) if n % 3 == 1 else ("short",):
            given = {"players": list(data["players"]), "dealer": data["dealer"], "rules": rules_name}
            if isinstance(data.get("pot"), int) or data.get("carry"):
                given["state"] = {"carry": list(data.get("carry") or []), "pot": data.get("pot") or 0}
            state = NightState(tuple(given["state"]["carry"]), given["state"]["pot"]) if "state" in given else None
            g = q.Givens(tuple(given["players"]), given["dealer"], rules, state)
            given["script"] = walk_script(g, answers, rng, wrong=0.25, short=variant == "short",
                                          rest=variant == "short" and rng.random() < 0.5)
            if n % 7 == 0:
                given["lang"] = "ja"
            out.append((f"{rules_name}/{rid}/{variant}", given))
    return out


def walk_round_file(given: Mapping[str, Any]) -> dict[str, Any] | None:
    """The round file a walk ends with, if it ends complete (it joins the rounds scored)."""
    from scorekeeper import questions as q
    from scorekeeper.scoring import NightState

    rules = rules_of(dict(profiles())[given["rules"]])
    state = NightState(tuple(given["state"]["carry"]), given["state"]["pot"]) if "state" in given else None
    form = q.Form(q.Givens(tuple(given["players"]), given["dealer"], rules, state, given.get("chain")))
    for action in given["script"]:
        try:
            if action[0] == "mark":
                form.mark(action[1], action[2])
            else:
                form.answer(action[1], action[2], done=action[3] if len(action) > 3 else True)
        except (q.Refused, q.NotAsked):
            pass
    return form.view().round_file


# -- the cases of each kind ---------------------------------------------------------------------


def step(*args: str, files: Mapping[str, str] | None = None, env: Mapping[str, str] | None = None,
         stdin: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"args": list(args)}
    if files:
        out["files"] = dict(files)
    if env:
        out["env"] = dict(env)
    if stdin is not None:
        out["stdin"] = stdin
    return out


def one(*args: str, **kw: Any) -> dict[str, Any]:
    return {"steps": [step(*args, **kw)]}


class Rounds:
    """The rounds the corpus draws on, made once: the goldens, the simulated extras, the 4,600,
    the walks' round files; the edges among them (one round of each tag under its own profile)."""

    def __init__(self) -> None:
        self.walks = walks(random.Random(88))
        made = []
        for wid, given in self.walks:
            data = walk_round_file(given)
            if data is not None and "lang" not in given:
                made.append((f"walk/{wid}", data, given["rules"]))  # scored under the walk's profile
        self.golden = goldens()
        self.pool = simulated_rounds() + recorded_rounds()
        #: scored under every profile: the goldens, and a round of each coarse tag
        self.core = [r for r in self.golden if not r[0].startswith("night/")] + edges(self.pool, coarse)
        core = {rid for rid, _d, _r in self.core}
        #: scored under their own profile: a round of each (fine) tag, and the walks' round files
        self.edges = [r for r in edges(self.golden + self.pool) if r[0] not in core] + made
        ids = core | {rid for rid, _d, _r in self.edges}
        self.rest = [r for r in self.pool if r[0] not in ids]


def score_cases(rounds: Rounds) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(8)
    out = []
    for name, spec in profiles():
        many = 40 if isinstance(spec, str) or name.startswith(("house", "values")) else 4
        natural = [r for r in rounds.edges if r[2] == name]
        for rid, data, _natural in rounds.core + natural + rng.sample(rounds.rest, many):
            args, files = rules_args(spec)
            if name == "sdin" and rid.startswith("golden/sdin"):
                args = []  # the default profile
            out.append((f"{name}/{rid}", one("score", "--json", "round.json", *args,
                                             files={"round.json": round_text(data), **files})))
    # several files at once (all or nothing), and standard input
    good = [d for rid, d, r in rounds.golden if r == "sdin"][:3]
    bad = next(d for rid, d, r in rounds.pool if tag(d, "sdin")[2] == "error")
    files = {f"r{i}.json": round_text(d) for i, d in enumerate(good)}
    out.append(("batch/good", one("score", "--json", *files, files=files)))
    out.append(("batch/one-bad", one("score", "--json", *files, "bad.json", files={**files, "bad.json": round_text(bad)})))
    out.append(("batch/missing-and-broken", one("score", "--json", "r0.json", "nope.json", "broken.json",
                                                files={"r0.json": files["r0.json"], "broken.json": '{"players": ['})))
    out.append(("stdin/good", one("score", "--json", "-", stdin=round_text(good[0]))))
    out.append(("stdin/not-json", one("score", "--json", "-", stdin="not json")))
    out.append(("rules/unknown", one("score", "--json", "r0.json", "--rules", "nope",
                                     files={"r0.json": files["r0.json"]})))
    return out


SCREENS = (("en", "60"), ("en", "100"), ("ja", "60"), ("ja", "100"))
#: switch combinations shown as screens too (the rest are pinned by --json)
SCREEN_PROFILES = ("house-kan12", "values-fudawiki", "values-sdin", "f-k12-stack-i1-n1-split-f0",
                   "f-k10-none-i0-n0-play-f1", "s-k12-carry-i1-n1")


def screens(args: Sequence[str], files: Mapping[str, str] | None = None) -> dict[str, Any]:
    return {"steps": [step("--lang", lang, *args, files=files if i == 0 else None, env={"COLUMNS": width})
                      for i, (lang, width) in enumerate(SCREENS)]}


def screen_cases(rounds: Rounds) -> list[tuple[str, dict[str, Any]]]:
    specs = dict(profiles())
    out = []
    for rid, data, natural in rounds.core:
        args, files = rules_args(specs[natural])
        out.append((f"{natural}/{rid}", screens(["score", "round.json", *args], {"round.json": round_text(data), **files})))
    for name in SCREEN_PROFILES:
        spec = specs[name]
        base = rules_of(spec).base
        mine = [r for r in rounds.core if rules_of(specs[r[2]]).base == base and r[2] != name]
        seated = [r for r in mine if len(r[1].get("players") or ()) > 3 and tag(r[1], spec)[2] != "error"]
        picked = mine[::6] + (seated if rules_of(spec).max_players > 3 else [])
        picked = list({r[0]: r for r in picked}.values())
        for rid, data, _natural in picked:
            args, files = rules_args(spec)
            out.append((f"{name}/{rid}", screens(["score", "round.json", *args], {"round.json": round_text(data), **files})))
    return out


def question_cases(rounds: Rounds) -> list[tuple[str, dict[str, Any]]]:
    return [(wid, {**given, "rules": dict(profiles())[given["rules"]]}) for wid, given in rounds.walks]


BAD_HOUSE = {
    "no-base": 'name = "x"\n',
    "no-name": 'base = "fudawiki"\n',
    "bad-base": 'base = "koikoi"\nname = "x"\n',
    "builtin-name": 'base = "fudawiki"\nname = "SDIN"\n',
    "empty-name": 'base = "fudawiki"\nname = "  "\n',
    "long-name": 'base = "fudawiki"\nname = "' + "n" * 41 + '"\n',
    "control-name": 'base = "fudawiki"\nname = "a\\tb"\n',
    "kan-11": 'base = "fudawiki"\nname = "x"\nkan = 11\n',
    "kan-string": 'base = "fudawiki"\nname = "x"\nkan = "10"\n',
    "field-bad": 'base = "fudawiki"\nname = "x"\nfield = "double"\n',
    "ino-string": 'base = "sdin"\nname = "x"\ninoshikacho = "yes"\n',
    "sdin-split": 'base = "sdin"\nname = "x"\ntwo_volunteers = "split"\n',
    "sdin-forced": 'base = "sdin"\nname = "x"\nforced_three = true\n',
    "unknown-key": 'base = "fudawiki"\nname = "x"\nmultiplier = 3\n',
    "uncovered": 'base = "fudawiki"\nname = "x"\nmizuten = true\n',
    "values-not-table": 'base = "fudawiki"\nname = "x"\nvalues = 3\n',
    "values-unknown": 'base = "fudawiki"\nname = "x"\n[values]\n"四光星" = 3\n',
    "values-other-base": 'base = "fudawiki"\nname = "x"\n[values]\n"空巣" = 3\n"空素" = 4\n',
    "values-ino-off": 'base = "fudawiki"\nname = "x"\n[values]\n"猪鹿蝶" = 3\n',
    "values-fee-sdin": 'base = "sdin"\nname = "x"\n[values]\n"逃げ料" = 3\n',
    "values-sdin-only": 'base = "fudawiki"\nname = "x"\n[values]\n"はねけん" = 3\n"二立三本" = 1\n"立三本" = 1\n"空巣" = 1\n',
    "values-negative": 'base = "fudawiki"\nname = "x"\n[values]\n"三本" = -1\n',
    "values-huge": 'base = "fudawiki"\nname = "x"\n[values]\n"三本" = 1000\n',
    "values-float": 'base = "fudawiki"\nname = "x"\n[values]\n"三本" = 2.5\n',
    "values-bare-key": 'base = "fudawiki"\nname = "x"\n[values]\n三本 = 3\n',
    "broken-toml": 'base = "fudawiki\n',
    "not-utf8": None,
}


def rules_cases() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for name, spec in profiles():
        out.append((f"values/{name}", {"profile": spec}))
        arg, files = (spec, {}) if isinstance(spec, str) else ("house.toml", {"house.toml": spec["toml"]})
        out.append((f"json/{name}", one("rules", arg, "--json", files=files)))
    out.append(("json/default", one("rules", "--json")))
    for name, spec in profiles()[:6]:
        arg, files = (spec, {}) if isinstance(spec, str) else ("house.toml", {"house.toml": spec["toml"]})
        out.append((f"screen/{name}", screens(["rules", arg], files)))
    out.append(("screen/default", screens(["rules"])))
    for name, text in BAD_HOUSE.items():
        files = {"bad.toml": text if text is not None else {"hex": "626173653d22ff"}}
        steps = [step("rules", "bad.toml", "--json", files=files), step("--lang", "ja", "rules", "bad.toml")]
        out.append((f"bad/{name}", {"steps": steps}))
    out.append(("bad/no-such-file", {"steps": [step("rules", "no-such.toml"), step("--lang", "ja", "rules", "no-such.toml")]}))
    out.append(("bad/unknown-name", one("rules", "koikoi")))
    out.append(("bad/directory", {"steps": [step("rules", "folder", files={"folder/x": ""}),
                                            step("rules", "folder.toml", files={"folder.toml/x": ""})]}))
    return out


ODDS_PROFILES = ("sdin", "fudawiki", "house-kan12", "values-fudawiki", "values-sdin", "f-k12-stack-i1-n1-play-f0",
                 "s-k12-none-i1-n0")
ODDS_OPTIONS = {
    "plain": [],
    "field": ["--field", "1h 3r 8k 12k 5t 9k"],
    "field-lights": ["--field", "11h 12h 1h 2k 4r 6k"],
    "hand-sanbon": ["--hand", "1h 1r 1k 2r 3r 5k 8k"],
    "hand-kasu": ["--hand", "1k 2k 3k 4k 5k 6k 7k"],
    "hand-shisan": ["--hand", "4t 4r 4k 4k 7t 7r 7k"],
    "hand-none": ["--hand", "1h 2t 3r 4k 5t 6r 9k"],
    "field-and-hand": ["--field", "1h 3r 8k 12k 5t 9k", "--hand", "2t 2r 2k 4t 6k 7k 10k"],
}
ODDS_BAD = {
    "field-short": ["--field", "1h 3r 8k"],
    "field-bad-card": ["--field", "1h 3r 8k 12k 5t 13k"],
    "hand-in-field": ["--field", "1h 3r 8k 12k 5t 9k", "--hand", "1h 2r 2k 4t 6k 7k 10k"],
    "hand-eight": ["--hand", "1h 2r 2k 4t 6k 7k 10k 10k"],
    "field-basi": ["--field", "9t 9r 9k 9k 1h 2k"],
}


def odds_cases() -> list[tuple[str, dict[str, Any]]]:
    specs = dict(profiles())
    out = []
    for name in ODDS_PROFILES:
        args, files = rules_args(specs[name]) if name != "sdin" else ([], {})
        for label, options in ODDS_OPTIONS.items():
            out.append((f"{name}/{label}", one("odds", "--json", *options, *args, files=files)))
    for label, options in ODDS_BAD.items():
        out.append((f"bad/{label}", {"steps": [step("odds", "--json", *options), step("--lang", "ja", "odds", *options)]}))
    for name in ("sdin", "fudawiki"):
        out.append((f"screen/{name}", screens(["odds", "--rules", name, "--hand", "1h 1r 1k 2r 3r 5k 8k"])))
    return out


def night_rounds(spec: Any, players: Sequence[str], count: int, seed: int) -> list[dict[str, Any]]:
    """A night's round files, dealt by the simulator, each 親 the winner of the round before (the
    night's state kept by the package itself); a round the profile refuses is dealt again."""
    from simulator import simulate, simulate_seated

    from scorekeeper.scoring import RoundError, score_dict

    rules = rules_of(spec)
    rng = random.Random(seed)
    state, dealer, out = None, players[0], []
    while len(out) < count:
        if len(players) > 3:
            data = simulate_seated(rng, players, dealer, drop_chance=0.35, split=not rules.two_volunteers.play,
                                   forced_three=rules.forced_three.on).round
        else:
            data = simulate(rng, players, dealer, rules="fudawiki" if rules.base == "fudawiki" else "sdin").round
        try:
            r = score_dict(data, rules=rules, state=state)
        except RoundError:
            continue
        out.append(data)
        state, dealer = r.state, r.next_dealer
    return out


def nights() -> list[tuple[str, Any, list[str], list[dict[str, Any]], float | None]]:
    """(name, profile, players, round files, rate) of each night."""
    specs = dict(profiles())
    three = ["Aki", "Ben", "Chie"]
    sample = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "samples" / "night").glob("*.json"))]
    return [
        ("bundled", "sdin", three, sample, 10.0),
        ("fudawiki-five", "fudawiki", ["Aki", "Ben", "Chie", "Dan", "Eri"],
         night_rounds("fudawiki", ["Aki", "Ben", "Chie", "Dan", "Eri"], 10, 5), None),
        ("kan12-four", "house-kan12", ["Aki", "Ben", "Chie", "Dan"],
         night_rounds(specs["house-kan12"], ["Aki", "Ben", "Chie", "Dan"], 8, 4), 0.5),
        ("split-six", "f-k12-stack-i1-n1-split-f0", ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi"],
         night_rounds(specs["f-k12-stack-i1-n1-split-f0"], ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi"], 8, 6), None),
        ("fudawiki-three", "fudawiki", three, night_rounds("fudawiki", three, 8, 3), 10.0),
        ("sdin-combo", "s-k12-carry-i1-n1", three, night_rounds(specs["s-k12-carry-i1-n1"], three, 8, 2), None),
    ]


def night_steps(name: str, spec: Any, players: Sequence[str], rounds: Sequence[Mapping[str, Any]],
                rate: float | None, *, views: bool = True) -> list[dict[str, Any]]:
    rules, files = rules_args(spec)
    steps = [step("new-session", "--name", name, *rules, "--dealer", players[0],
                  *(["--rate", str(rate)] if rate is not None else []), *players, files=files)]
    for n, data in enumerate(rounds, 1):
        file = f"r{n:02}.json"
        shown = views and n in (1, 2, len(rounds))
        steps.append(step("round", "--file", file, *([] if shown else ["--json"]), files={file: round_text(data)},
                          env={"COLUMNS": "100"} if shown else None))
    if views:
        last = f"r{len(rounds):02}.json"
        steps += [step("undo", "--yes"), step("round", "--file", last, "--json"),
                  step("edit", "2", "--file", "r02.json"), step("edit", "2", "--file", "r03.json"),
                  step("edit", "2", "--file", "r02.json"),
                  step("show", "1", env={"COLUMNS": "100"}),
                  step("summary", "--json"), step("summary", "--all", env={"COLUMNS": "100"}),
                  step("--lang", "ja", "summary", env={"COLUMNS": "60"}),
                  step("export", "--csv"), step("export", "--json")]
    return steps


def night_cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    every = nights()
    specs = dict(profiles())
    for name, profile_name, players, rounds, rate in every:
        out.append((name, {"steps": night_steps(name, specs[profile_name], players, rounds, rate)}))
    steps: list[dict[str, Any]] = []
    for name, profile_name, players, rounds, rate in every:
        steps += night_steps(name, specs[profile_name], players, rounds, rate, views=False)
    steps += [step("sessions", "--json"), step("stats", "--json"), step("stats", "--json", "--rules", "fudawiki"),
              step("stats", "--json", "--rules", "traditional"), step("stats", "--json", "--player", "Dan"),
              step("stats", "--json", "--rules", "sdin"), step("stats", "--json", "--since", "2000-01-01"),
              step("stats", "--json", "--until", "2000-01-01"), step("stats", "--json", "--since", "yesterday"),
              step("stats", env={"COLUMNS": "100"}), step("--lang", "ja", "stats", "--rules", "fudawiki", env={"COLUMNS": "60"}),
              step("summary", "--json", "bundled"), step("export", "--csv", "fudawiki-five"), step("export", "--all")]
    out.append(("book/every-night", {"steps": steps}))
    return out


def build(kinds: Iterable[str] = KINDS) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """(id, in) of every case of each kind asked for, in order."""
    kinds = list(kinds)
    rounds = Rounds() if {"score", "screens", "questions"} & set(kinds) else None
    makers = {"score": lambda: score_cases(rounds), "screens": lambda: screen_cases(rounds),
              "questions": lambda: question_cases(rounds), "rules": rules_cases, "odds": odds_cases,
              "nights": night_cases}
    out = {}
    for kind in kinds:
        cases = makers[kind]()
        ids = [cid for cid, _ in cases]
        assert len(ids) == len(set(ids)), f"{kind}: two cases share an id"
        out[kind] = cases
    return out
