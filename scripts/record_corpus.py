"""Record the regression corpus (tests/regression/corpus/) from today's code, and say what changed.

    python scripts/record_corpus.py            re-record every kind
    python scripts/record_corpus.py --kind score --kind odds
    python scripts/record_corpus.py --check    say what would change, write nothing (exit 1 if any)
    python scripts/record_corpus.py --rerun    keep the recorded inputs, record their outputs again
    python scripts/record_corpus.py --show ID  one recorded case against what it gives now (a diff)

Without --rerun the inputs are made again by the seeded generator (tests/corpus.py), so a change
to the generator shows as cases added or removed. Re-record only when an output is meant to
change, and say in the commit which cases changed and why.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import corpus


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", action="append", choices=corpus.KINDS, help="only this kind (repeatable)")
    parser.add_argument("--check", action="store_true", help="write nothing: say what would change")
    parser.add_argument("--rerun", action="store_true", help="the recorded inputs, run again")
    parser.add_argument("--show", metavar="ID", help="diff one recorded case (its id; KIND:ID if ids clash)")
    args = parser.parse_args()
    kinds = args.kind or list(corpus.KINDS)
    if args.show:
        return show(args.show, kinds)
    started = time.monotonic()
    if args.rerun:
        made = {k: [(c["id"], c["in"]) for c in corpus.load(k)] for k in kinds}
    else:
        made = corpus.build(kinds)
    print(f"inputs made in {time.monotonic() - started:.1f} s")
    changed_any = False
    with tempfile.TemporaryDirectory(prefix="hachi-corpus-") as tmp, corpus.scratch(Path(tmp).resolve()) as work:
        for kind in kinds:
            t = time.monotonic()
            cases = [{"id": cid, "kind": kind, "in": given, "out": corpus.run({"kind": kind, "in": given}, work)}
                     for cid, given in made[kind]]
            old = {c["id"]: c for c in corpus.load(kind)} if corpus.path_of(kind).exists() else {}
            new_ids = {c["id"] for c in cases}
            added = sum(c["id"] not in old for c in cases)
            removed = sum(cid not in new_ids for cid in old)
            changed = [c["id"] for c in cases if c["id"] in old and (old[c["id"]]["out"], old[c["id"]]["in"]) != (c["out"], c["in"])]
            changed_any |= bool(added or removed or changed)
            print(f"{kind}: {len(cases)} cases ({time.monotonic() - t:.1f} s): {len(changed)} changed, "
                  f"{added} added, {removed} removed")
            for cid in changed[:10]:
                print(f"  changed: {cid}")
            if not args.check:
                corpus.save(kind, cases)
                print(f"  wrote {corpus.path_of(kind).relative_to(corpus.ROOT)} "
                      f"({corpus.path_of(kind).stat().st_size:,} bytes)")
    return 1 if args.check and changed_any else 0


def show(wanted: str, kinds: list[str]) -> int:
    import difflib

    kind_given, _sep, cid = wanted.rpartition(":") if wanted.split(":", 1)[0] in corpus.KINDS else ("", "", wanted)
    found = [c for k in ([kind_given] if kind_given else kinds) for c in corpus.load(k) if c["id"] == cid]
    if not found:
        print(f"no recorded case {wanted!r}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="hachi-corpus-") as tmp, corpus.scratch(Path(tmp).resolve()) as work:
        for case in found:
            now = corpus.run(case, work)
            print(f"{case['kind']} {case['id']}: " + ("the same bytes" if now == case["out"] else "differs"))
            sys.stdout.writelines(difflib.unified_diff(case["out"].splitlines(True), now.splitlines(True),
                                                       "recorded", "now"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
