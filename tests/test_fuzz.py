"""Hostile input, fuzzed with hypothesis: the card notation, round files, command lines.

What must hold whatever comes in:

- the notation parser returns cards or raises CardError, quickly, with a short one-line message;
- a round file is checked (RoundError, one line) or scores, and a scored round's mon sum to 0;
- `score` exits 0 or 2, every other command 0, 1 or 2; never a traceback, never an "internal
  error", never a hang, and a command that fails leaves the book byte for byte as it was;
- a round that is certainly invalid (a token that is no card, fewer than six field cards, a
  repeated player) exits 2.

Each test must have tried inputs (a property given none proves nothing); how many each kind got,
added up over the run (and over pytest-xdist's workers), is printed at its end (conftest.py), with
the slowest single input's time, a figure: no input is held to a time, only a hang fails.
"""

from __future__ import annotations

import json
import os
import random
import signal
import string
import threading
import time
from collections import Counter
from pathlib import Path

import crash_harness as ch
import pytest
from entry_lines import snapshot
from fast_cli import FastRunner
from helpers import HANG
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from simulator import simulate

from scorekeeper import store
from scorekeeper.cards import FACES
from scorekeeper.notation import (
    _MONTH_WORDS,
    _NAME_TO_CARD,
    CardError,
    format_cards,
    parse_cards,
)
from scorekeeper.scoring import Round, RoundError, score
from helpers import add_round

runner = FastRunner()
TRIED: Counter = Counter()
#: examples per property; HACHI_FUZZ_EXAMPLES=5000 for a long hunt
EXAMPLES = int(os.environ.get("HACHI_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
SLOWEST = [0.0]  # seconds: the slowest single input of this test, printed at the end


class Hung(BaseException):
    """One input ran for HANG seconds (a BaseException: no ``except Exception`` swallows it)."""


def _hung(signum, frame):
    raise Hung(f"one input ran for {HANG:g} s: a hang")


def timed(fn, *args):
    """``fn(*args)``, its time kept for the report; failed only by a hang (HANG seconds)."""
    guard = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if guard:
        previous = signal.signal(signal.SIGALRM, _hung)
        signal.setitimer(signal.ITIMER_REAL, HANG)
    start = time.perf_counter()
    try:
        return fn(*args)
    finally:
        SLOWEST[0] = max(SLOWEST[0], time.perf_counter() - start)
        if guard:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


@pytest.fixture(autouse=True)
def inputs_tried(record_property):
    """Every test here tries inputs; the counts go to the run's report (conftest.py)."""
    before = Counter(TRIED)
    SLOWEST[0] = 0.0
    yield
    tried = {kind: n for kind, n in (Counter(TRIED) - before).items() if n}
    record_property("fuzz inputs", tried)
    record_property("fuzz slowest input", round(SLOWEST[0], 3))
    assert tried, "this property was given no input: it proved nothing"


# ---------------------------------------------------------------------------------------------
# strategies

#: text of every kind: any code point (surrogates included), and the awkward ones on purpose
ODD = ["\u202e", "\u200b", "\u200d", "\ufeff", "\u0301", "\x00", "\x1b[31m", "\r", "\n", "\t", "\ud800", "\udcff",
       "🀄", "👨‍👩‍👧", "𐩀", "١٢", "①", "ｈ", "１２ｋ", "﷽", "[bold]", "[/]", "%s", "{}", "\\", '"', "'", "-", "--json"]
ANY_TEXT = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=30),
    st.lists(st.sampled_from(ODD), max_size=8).map("".join),
)
NOTATION_PIECES = (
    [str(m) for m in range(0, 14)] + list("htrk*") + ["hk", "kk", "kkk", "htkk", "hrkk"] + list(_MONTH_WORDS)
    + list(_NAME_TO_CARD)[:80] + [" ", ",", "、", "・", ";", "　", "\t"] + ODD
)
NOTATION = st.lists(st.sampled_from(NOTATION_PIECES), max_size=12).map("".join)
HUGE = st.sampled_from([
    "h" * 200_000, "1" * 100_000, "1" + "k" * 50_000, "あ" * 100_000, "12k " * 20_000, "𐩀" * 10_000,
    "\u0301" * 50_000, "🀄" * 30_000, "[" * 10_000, "1h," * 30_000,
])

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), ANY_TEXT)
JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                     st.dictionaries(ANY_TEXT, inner, max_size=5)), max_leaves=20)
KEYS = ["players", "dealer", "field", "hands", "teyaku", "captured", "sage", "ended_by"]


@st.composite
def legal_rounds(draw) -> dict:
    seed = draw(st.integers(0, 2**32))
    names = draw(st.sampled_from([["Aki", "Ben", "Chie"], ["花子", "太郎 山田", "👾"], ["-x", "--json", "[b]B[/b]"]]))
    return simulate(random.Random(seed), names, stop_chance=draw(st.sampled_from([0.0, 0.5, 1.0]))).round


@st.composite
def mutated_rounds(draw) -> dict:
    """A legal round with one to four things changed: a key dropped, a value replaced by any
    JSON, a card token replaced, a card duplicated or dropped, a player renamed."""
    rnd = json.loads(json.dumps(draw(legal_rounds()), ensure_ascii=False))
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["drop", "replace", "token", "duplicate", "remove", "player", "type", "extra"]))
        key = draw(st.sampled_from(KEYS))
        if how == "drop":
            rnd.pop(key, None)
        elif how == "replace":
            rnd[key] = draw(JSON)
        elif how == "extra":
            rnd[draw(ANY_TEXT)] = draw(JSON)
        elif how == "player" and isinstance(rnd.get("players"), list) and rnd["players"]:
            i = draw(st.integers(0, len(rnd["players"]) - 1))
            rnd["players"][i] = draw(st.one_of(ANY_TEXT, st.sampled_from(rnd["players"]), JSON))
        elif how == "type" and key in rnd:
            value = rnd[key]
            rnd[key] = (" ".join(map(str, value)) if isinstance(value, list) else
                        [value] if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
        else:  # a card list somewhere: the field, a hand or a pile
            lists = [("field", None)] + [(k, p) for k in ("hands", "captured") if isinstance(rnd.get(k), dict)
                                          for p in rnd[k] if isinstance(rnd[k][p], list)]
            k, p = draw(st.sampled_from(lists))
            cards = rnd.get(k) if p is None else rnd[k][p]
            if not isinstance(cards, list) or not cards:
                continue
            i = draw(st.integers(0, len(cards) - 1))
            if how == "token":
                cards[i] = draw(st.one_of(ANY_TEXT, NOTATION, JSON))
            elif how == "duplicate":
                cards.append(cards[i])
            elif how == "remove":
                cards.pop(i)
    return rnd


# ---------------------------------------------------------------------------------------------
# the card notation


def _parse(text):
    try:
        return parse_cards(text)
    except CardError as e:
        message = str(e)
        assert "\n" not in message and len(message) < 300, message
        return None


@FUZZ
@given(st.one_of(ANY_TEXT, NOTATION, st.lists(st.one_of(ANY_TEXT, NOTATION), max_size=6)))
def test_the_parser_gives_cards_or_one_line(text):
    TRIED["card notation"] += 1
    cards = timed(_parse, text)
    if cards:
        again = parse_cards(format_cards(cards))
        assert Counter(again) == Counter(cards)


@settings(max_examples=10, deadline=None)
@given(HUGE)
def test_huge_tokens_are_refused_quickly(text):
    TRIED["card notation"] += 1
    timed(_parse, text)


@FUZZ
@given(st.lists(st.sampled_from([c.code for c in FACES]), min_size=1, max_size=10), st.data())
def test_cards_written_any_way_read_the_same(codes, data):
    TRIED["card notation"] += 1
    ways = [lambda c: c, str.upper, lambda c: f"  {c} ", lambda c: c.translate(str.maketrans(
        string.digits + "htrk", "０１２３４５６７８９ｈｔｒｋ"))]
    typed = ",".join(data.draw(st.sampled_from(ways))(c) for c in codes)
    assert [c.code for c in parse_cards(typed)] == codes


# ---------------------------------------------------------------------------------------------
# round files, in-process


def _check(data, players=None, dealer=None):
    try:
        rnd = Round.from_dict(data, players=players, dealer=dealer)
    except RoundError as e:
        assert "\n" not in str(e) and len(str(e)) < 600, str(e)
        return None
    result = score(rnd)
    assert sum(r.mon for r in result.players.values()) == 0
    json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")  # printable as it stands
    return result


@FUZZ
@given(mutated_rounds())
def test_a_mutated_round_is_refused_in_one_line_or_scores(data):
    TRIED["round files"] += 1
    timed(_check, data)


@FUZZ
@given(JSON)
def test_any_json_is_a_round_or_one_line(data):
    TRIED["round files"] += 1
    timed(_check, data)
    timed(_check, {"players": ["A", "B", "C"], "dealer": "A", **(data if isinstance(data, dict) else {"field": data})})


@FUZZ
@given(mutated_rounds())
def test_a_round_checked_against_a_session(data):
    """As `round --file` reads it: the session's players and 親 fill in what is left out."""
    TRIED["round files"] += 1
    for bare in (data, {k: v for k, v in data.items() if k not in ("players", "dealer")}):
        timed(_check, bare, ["Aki", "Ben", "Chie"], "Aki")


# ---------------------------------------------------------------------------------------------
# round files through `score` and `round --file`


def score_cli(tmp: Path, texts: list[str]):
    paths = []
    for i, text in enumerate(texts):
        p = tmp / f"r{i}.json"
        p.write_text(text, encoding="utf-8", errors="surrogatepass")
        paths.append(str(p))
    result = runner.invoke(args=["score", "--json", *paths])
    assert "Traceback" not in result.output and "internal error" not in result.stderr, result.stderr
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 0:
        assert len(result.stdout.splitlines()) == len(texts)
        for line in result.stdout.splitlines():
            json.loads(line)
    else:
        assert result.stdout == ""
        assert 1 <= len(result.stderr.splitlines()) <= len(texts)
    return result


def _json_text(data) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=True)


BROKEN = st.one_of(
    ANY_TEXT,
    mutated_rounds().map(_json_text).flatmap(lambda t: st.integers(0, max(0, len(t) - 1)).map(lambda i: t[:i])),
    st.sampled_from(["", "{", "[" * 5000, "{" * 100_000, '{"players": 1e999}', '{"a": 1' + "0" * 5000 + "}",
                     "\ufeff{}", "NaN", '{"field": "\\ud800"}', "\x00" * 10, "null"]),
)


@FUZZ
@given(st.lists(st.one_of(mutated_rounds().map(_json_text), BROKEN), min_size=1, max_size=3))
def test_score_exits_0_or_2(tmp_path_factory, texts):
    TRIED["round files through score"] += len(texts)
    timed(score_cli, tmp_path_factory.mktemp("s"), texts)


@FUZZ
@given(st.binary(max_size=200))
def test_score_reads_any_bytes_on_standard_input(data):
    TRIED["round files through score"] += 1
    result = runner.invoke(args=["score", "-"], input=data)
    assert result.exit_code in (0, 2) and "Traceback" not in result.output and "internal error" not in result.stderr


@st.composite
def certainly_bad(draw) -> tuple[str, dict]:
    rnd = json.loads(json.dumps(draw(legal_rounds()), ensure_ascii=False))
    how = draw(st.sampled_from(["token", "short field", "repeated player"]))
    if how == "token":
        bad = draw(st.sampled_from(["13k", "0h", "2h", "zz", "松に鶴鶴", "1x", "", "１３ｋ", "🀄"]))
        where = draw(st.sampled_from(["field", "captured"]))
        if where == "field":
            rnd["field"][draw(st.integers(0, 5))] = bad
        else:
            pile = draw(st.sampled_from([p for p in rnd["captured"] if rnd["captured"][p]]))
            rnd["captured"][pile].append(bad)
    elif how == "short field":
        rnd["field"] = rnd["field"][: draw(st.integers(0, 5))]
    else:
        i, j = draw(st.sampled_from([(0, 1), (0, 2), (1, 2)]))
        rnd["players"][j] = rnd["players"][i]
    return how, rnd


@FUZZ
@given(certainly_bad())
def test_a_certainly_invalid_round_exits_2(tmp_path_factory, case):
    how, rnd = case
    TRIED["round files through score"] += 1
    result = score_cli(tmp_path_factory.mktemp("bad"), [_json_text(rnd)])
    assert result.exit_code == 2, (how, rnd)


@pytest.fixture(scope="module")
def night_book(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fuzzbook") / "book" / "book.json"
    b = store.Book.open(path)
    sid = b.new_session(ch.PLAYERS)
    for f in ch.NIGHT[:2]:
        add_round(b, sid, ch.bare(f))
    return path


@FUZZ
@given(st.one_of(mutated_rounds().map(_json_text), BROKEN))
def test_round_file_saves_whole_or_not_at_all(night_book, tmp_path_factory, text):
    TRIED["round files through round --file"] += 1
    f = tmp_path_factory.mktemp("r") / "r.json"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = snapshot(night_book.parent)
    count = len(store.Book.open(night_book).session("s1")["rounds"])
    result = timed(lambda: runner.invoke(args=["round", "--file", str(f), "--json", "--db", str(night_book)]))
    assert "Traceback" not in result.output and "internal error" not in result.stderr, result.stderr
    assert result.exit_code in (0, 2), result.output
    rounds = store.Book.open(night_book).session("s1")["rounds"]
    if result.exit_code == 2:
        assert len(result.stderr.splitlines()) == 1
        assert snapshot(night_book.parent) == before  # nothing written, not even in part
    else:
        out = json.loads(result.stdout)
        if out["saved"]:
            assert len(rounds) == count + 1 and out["round"] == count + 1
        else:  # a 場四 is shown and never saved
            assert snapshot(night_book.parent) == before


# ---------------------------------------------------------------------------------------------
# command lines


COMMANDS = ["score", "cards", "odds", "new-session", "round", "summary", "sessions", "use", "show", "undo",
            "edit", "export", "import", "doctor", "demo", "--version", "--help", "nope", ""]
OPTIONS = ["--json", "--csv", "--all", "--yes", "--restore", "--file", "-f", "--name", "--dealer", "--rounds",
           "--rate", "--session", "-o", "--output", "--field", "--hand", "--db", "--", "-h", "-"]
VALUES = ["Aki", "Ben", "Chie", "s1", "1", "0", "-1", "6", "12", "99999999999999999999", "1e400", "nan", "-5", "2.5",
          "ROUND", "BAD", "OUT", "EXPORT", "1h 3r 8k 12k 5t 9k", "13k", "1h", ""]


@st.composite
def argvs(draw) -> list[str]:
    argv = [draw(st.sampled_from(COMMANDS))]
    for _ in range(draw(st.integers(0, 6))):
        argv.append(draw(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(VALUES), ANY_TEXT)))
    return [a for a in argv if a != "" or draw(st.booleans())]


@pytest.fixture(scope="module")
def argv_book(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("argv")
    path = folder / "book" / "book.json"
    b = store.Book.open(path)
    sid = b.new_session(ch.PLAYERS)
    add_round(b, sid, ch.bare(ch.NIGHT[0]))
    files = ch.round_files(folder / "rounds")
    (folder / "bad.json").write_text('{"field": ["13k"]}', encoding="utf-8")
    (folder / "export.json").write_text(json.dumps({"players": ch.PLAYERS, "rounds": ch.NIGHT[:2]}), encoding="utf-8")
    names = {"ROUND": str(files[1]), "BAD": str(folder / "bad.json"), "OUT": str(folder / "out.txt"),
             "EXPORT": str(folder / "export.json")}
    return path, names


@FUZZ
@given(argvs())
def test_any_command_line_exits_0_1_or_2(argv_book, monkeypatch, tmp_path_factory, argv):
    TRIED["command lines"] += 1
    path, names = argv_book
    argv = [names.get(a, a) for a in argv]
    monkeypatch.chdir(tmp_path_factory.getbasetemp())  # a relative --db or -o lands in the test's folders
    monkeypatch.setenv("HACHI_SCORE_DB", str(path))
    before = snapshot(path.parent)
    result = timed(lambda: runner.invoke(args=argv, input=""))
    assert "Traceback" not in result.output, result.output
    assert "internal error" not in result.stderr, (argv, result.stderr)
    allowed = (0, 2) if argv and argv[0] == "score" else (0, 1, 2)
    assert result.exit_code in allowed, (argv, result.exit_code, result.output)
    if result.exit_code:
        lines = result.stderr.splitlines()
        assert lines and lines[-1].startswith("hachi-score: "), (argv, result.stderr)
        errors = [line for line in lines if line.startswith("hachi-score: ") and "waiting for" not in line]
        most = len(argv) - 1 if argv[0] == "score" else 1  # score: one line for each bad file
        assert 1 <= len(errors) <= max(1, most), (argv, result.stderr)
        assert snapshot(path.parent) == before, argv  # a failed command wrote nothing
    store.Book.open(path)  # and whatever happened, the book still opens
