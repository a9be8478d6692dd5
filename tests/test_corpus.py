"""Nothing changed: every case of the regression corpus (tests/regression/corpus/, see
tests/corpus.py) gives the bytes it gave when recorded.

Recorded before the rules refactor (issue "Rules as objects"): a refactor that means to change no
output passes this unchanged. A case that fails is named with the first line that differs; when a
change is meant, re-record with ``python scripts/record_corpus.py`` and say in the commit which
cases changed and why.

The corpus builds on what was pinned before it, and repeats none of it as such:
tests/test_golden.py checks the golden rounds against sums worked by hand, test_sdin_regression.py
keeps SDIN's values from before the profiles, test_profiles_regression.py the 4,600 rounds'
``score_dict`` bytes under sdin, fudawiki and house-kan12. The corpus scores the goldens and
those rounds again through the CLI under every switch combination, and pins the screens, the
question views, the profiles, odds and whole nights besides.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import corpus
import pytest

#: at most this many failing cases are named (the count says how many there are)
SHOWN = 8


@pytest.fixture(scope="module")
def recorded() -> dict[str, list[dict]]:
    return {kind: corpus.load(kind) for kind in corpus.KINDS}


@pytest.fixture
def work(tmp_path):
    with corpus.scratch(tmp_path) as folder:
        yield folder


@pytest.mark.parametrize("kind", corpus.KINDS)
def test_every_recorded_case_gives_the_same_bytes(kind, recorded, work):
    cases = recorded[kind]
    assert cases, f"{kind}: no cases recorded"
    failed = []
    for case in cases:
        got = corpus.run(case, work).encode("utf-8")
        want = case["out"].encode("utf-8")
        if got != want:
            failed.append((case["id"], *corpus.first_difference(want.decode("utf-8"), got.decode("utf-8"))))
    assert Path.cwd() != work and os.environ.get("LANG") == "C.UTF-8"  # run() puts back what it changed
    if failed:
        lines = [f"{len(failed)} of {len(cases)} {kind} cases give other bytes than recorded:"]
        for cid, line, col, want, got in failed[:SHOWN]:
            lines += [f"  {kind} {cid}: line {line}, column {col}", f"    recorded: {want}", f"    now:      {got}"]
        if len(failed) > SHOWN:
            lines.append(f"  ... and {len(failed) - SHOWN} more")
        lines.append(f"The whole diff of one: python scripts/record_corpus.py --show {kind}:{failed[0][0]}")
        lines.append(f"If the change is meant: {corpus.RERECORD}, and say in the commit why.")
        pytest.fail("\n".join(lines), pytrace=False)


def test_the_corpus_covers_every_switch_combination_profile_and_kind_of_round(recorded):
    score = recorded["score"]
    by_profile = Counter(c["id"].split("/", 1)[0] for c in score)
    names = [name for name, _spec in corpus.profiles()]
    assert len(corpus.combinations()) == 24 + 96
    assert set(names) <= set(by_profile), set(names) - set(by_profile)
    # every kind of ending, the 特殊役 and the bonuses: as the JSON says them, and as the screens do
    text = "\n".join(c["out"] for c in score)
    for word in ('"redeal":true', '"role":"forced_out"', '"role":"dropped"', '"from":"pot"', "総八", "二八", "素十六",
                 "飛び込み", "抜け役", "追い込み", "逃げ料"):
        assert word in text, word
    shown = "\n".join(c["out"] for c in recorded["screens"])
    for word in ("場四", "出来役 round", "特殊役 round", "plain round", "two-player round", "流れ:", "一人:", "山分け:",
                 "cancel: half", "下げ: double", "下げ: half", "追い込み", "--- exit 2", "┃", "手役"):
        assert word in shown, word
    outs = [c["out"] for c in score]
    assert sum("--- exit 2" in o for o in outs) > 1000 and sum("--- exit 0" in o for o in outs) > 8000
    assert Counter(len(c["in"]["players"]) for c in recorded["questions"]) .keys() >= {3, 4, 5, 6}
    assert any("refused " in c["out"] for c in recorded["questions"])
    assert any("not asked " in c["out"] for c in recorded["questions"])
    screens = recorded["screens"]
    assert all([s["args"][:2] for s in c["in"]["steps"]] == [["--lang", "en"], ["--lang", "en"], ["--lang", "ja"],
                                                           ["--lang", "ja"]] for c in screens)


def test_a_changed_byte_fails_and_names_the_case_and_the_line(recorded, tmp_path):
    case = dict(next(c for c in recorded["score"] if "--- exit 0" in c["out"]))
    out = case["out"]
    i = out.index('"mon":') + len('"mon":')
    case["out"] = out[:i] + ("7" if out[i] != "7" else "8") + out[i + 1:]
    got = corpus.run(case, tmp_path / "work")
    assert got != case["out"]
    line, col, want, now = corpus.first_difference(case["out"], got)
    assert line == 2 and col > 0 and want != now  # the command, then the JSON line


def _ending(data) -> str | None:
    """How a round file says its round ended (None: a file too broken to say)."""
    if not isinstance(data, dict):
        return None
    sage, ended = data.get("sage"), data.get("ended_by")
    if sage and data.get("ended_how") == "cancel":
        return "下げ then cancel"
    if sage:
        return "下げ then stop" if ended else "下げ then played out"
    return "stopped" if ended else "played out"


def test_every_switch_combination_scores_every_kind_of_round(recorded):
    import json

    by_profile: dict[str, list[dict]] = {}
    for case in recorded["score"]:
        by_profile.setdefault(case["id"].split("/", 1)[0], []).append(case)
    for name, _toml in corpus.combinations():
        cases = by_profile[name]
        rounds = [json.loads(c["in"]["steps"][0]["files"]["round.json"]) for c in cases]
        seats = {len(d["players"]) for d in rounds if isinstance(d, dict) and isinstance(d.get("players"), list)}
        assert {3, 4, 5, 6} <= seats, (name, seats)
        assert {"played out", "stopped", "下げ then stop", "下げ then played out", "下げ then cancel"} <= {
            _ending(d) for d in rounds}, name
        outs = "\n".join(c["out"] for c in cases)
        for word in ('"redeal":true', '"special":["総八"]', '"special":["二八"]', '"special":["素十六"]',
                     "--- exit 0", "--- exit 2"):
            assert word in outs, (name, word)
        if name.startswith("f-"):  # seated 4–6 and bonuses: fudawiki's alone (sdin refuses such rounds)
            for word in ('"role":"forced_out"', '"role":"dropped"', '"bonuses":["飛び込み"', '"抜け役"'):
                assert word in outs, (name, word)
