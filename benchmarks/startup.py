"""Start-up: `hachi-score summary` on a 12-round session against two floors, side by side; and
start-up with and without a Japanese locale.

Every command is a fresh process typed between rounds, so start-up is the user's wait. Goal
(issue 6): summary within 1.2× of a minimal typer app in the same environment that prints a
three-row rich table. `python -c pass` is reported too. Goal (issue 20): choosing and loading
the language adds at most 5 ms: `cards --json`, `summary` and `--help` under LANG=ja_JP.UTF-8
beside the same under LANG=C.UTF-8; then, in one fresh process each, the language chosen and its
catalog read (the package's .mo, and a stand-in of 2,000 messages for a whole interface).
Medians of repeated runs, taken in turn so that a busy machine weighs on every command alike.

Goal (issue 36), printed in one run by ``--commands`` (and by default): every command the table
types between two rounds against the same minimal typer app: `summary`, `round` up to its first
question (its input ended there: it stops, status 1, nothing saved), `show N`, `new-session` (in a
book of its own), and the `--help` of each command within 1.2×; the `--json` forms within 1.0×.

``--before OTHER_VENV/bin`` runs each command of ``--commands`` from another install too, in turn
with this one, each against its own interpreter's typer app, and adds the least CPU time of each
(what a busy machine moves least). Each install reads a book of the same night that it wrote.

    python benchmarks/startup.py [--runs 21] [--lang-only] [--commands [--before OTHER_VENV/bin]]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import BIN, SAMPLES, bench_env, hachi, one_core, wall_time  # noqa: E402

MINIMAL_APP = '''
import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer()


@app.command()
def main() -> None:
    table = Table("player", "文")
    for name, mon in (("Aki", "-24"), ("Ben", "+64"), ("Chie", "-40")):
        table.add_row(name, mon)
    Console().print(table)


app()
'''

GOAL = 1.2
#: ms: what choosing and loading the language may add to a command's start-up (issue 20)
LANG_GOAL_MS = 5.0
#: the locale variables gettext reads, and ours: unset, so that LANG alone decides
LANG_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "HACHI_SCORE_LANG")
LOCALES = {"C": "C.UTF-8", "ja": "ja_JP.UTF-8"}

#: in a fresh process that has imported what a command imports (scorekeeper.cli: gettext, copy,
#: typer): the language chosen from LANG and its catalog read, as a command does before anything
#: else, in ms; then a .mo given as argv[2] read by gettext, in ms; and the package's catalog's size
IN_PROCESS = r'''
import gettext, sys, time
from scorekeeper import cli, lang
t = time.perf_counter()
lang.use(lang.choose(None, {"LANG": sys.argv[1]}))
chosen = time.perf_counter() - t
n = len(getattr(lang.translations("ja"), "_catalog", {}))
t = time.perf_counter()
with open(sys.argv[2], "rb") as f:
    gettext.GNUTranslations(f)
mo = time.perf_counter() - t
print(chosen * 1000, mo * 1000, n)
'''


def write_mo(path: Path, messages: dict[str, str]) -> None:
    """A GNU .mo file of ``messages`` (the format gettext reads; no hash table)."""
    keys = sorted(messages)
    ids = [k.encode("utf-8") for k in keys]
    strs = [messages[k].encode("utf-8") for k in keys]
    start = 7 * 4 + 16 * len(keys)
    offsets, blob = [], b""
    for data in ids + strs:
        offsets.append((len(data), start + len(blob)))
        blob += data + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    path.write_bytes(header + b"".join(struct.pack("<2I", *o) for o in offsets) + blob)


def stand_in_catalog(path: Path, size: int = 2000) -> Path:
    """A catalog of ``size`` messages shaped like the package's: its English messages (the .pot's,
    repeated with a number to reach ``size``), each worded in as many Japanese characters."""
    pot = Path(__file__).resolve().parent.parent / "scorekeeper" / "locale" / "hachi-score.pot"
    english = [json.loads(line[len("msgid "):]) for line in pot.read_text("utf-8").splitlines()
               if line.startswith('msgid "') and line != 'msgid ""'] or ["round {n} saved to session {id}."]
    messages = {"": "Content-Type: text/plain; charset=UTF-8\nLanguage: ja\n"}
    i = 0
    while len(messages) <= size:
        m = english[i % len(english)] + ("" if i < len(english) else f" #{i}")
        messages[m] = "訳" * max(1, len(m) * 2 // 3)
        i += 1
    write_mo(path, messages)
    return path


def lang_env(env: dict[str, str], locale: str) -> dict[str, str]:
    out = {k: v for k, v in env.items() if k not in LANG_VARS}
    out["LANG"] = locale
    return out


def language_side_by_side(env: dict[str, str], runs: int, tmp: Path) -> None:
    """Start-up under LANG=C.UTF-8 and LANG=ja_JP.UTF-8, each command in both in turn."""
    commands = {
        "hachi-score cards --json": hachi("cards", "--json"),
        "hachi-score summary": hachi("summary"),
        "hachi-score --help": hachi("--help"),
        "hachi-score summary --help": hachi("summary", "--help"),
    }
    envs = {k: lang_env(env, v) for k, v in LOCALES.items()}
    help_ja = subprocess.run(hachi("--help"), env=envs["ja"], capture_output=True, text=True).stdout
    if "使い方" not in help_ja:
        raise SystemExit("LANG=ja_JP.UTF-8 does not give Japanese here: nothing to compare")
    times: dict[tuple[str, str], list[float]] = {(n, k): [] for n in commands for k in envs}
    for i in range(runs + 1):
        for name, cmd in commands.items():
            for key, e in envs.items():
                elapsed = wall_time(cmd, e, name)
                if i:
                    times[(name, key)].append(elapsed)
    med = {k: statistics.median(t) * 1000 for k, t in times.items()}
    fast = {k: min(t) * 1000 for k, t in times.items()}
    print()
    print(f"start-up with and without a Japanese locale, median of {runs} runs each, one core, taken in turn")
    print(f"{'command':28} {'C.UTF-8':>9} {'ja_JP.UTF-8':>12} {'difference':>11} {'ratio':>7} {'fastest runs':>13}")
    diffs, fastest = [], []
    for name in commands:
        c, ja = med[(name, "C")], med[(name, "ja")]
        fc, fja = fast[(name, "C")], fast[(name, "ja")]
        diffs.append(ja - c)
        fastest.append(fja - fc)
        print(f"{name:28} {c:7.1f}ms {ja:10.1f}ms {ja - c:+9.1f}ms {ja / c:6.3f}x {fja - fc:+11.1f}ms")
    stand_in = stand_in_catalog(tmp / "stand-in.mo")
    inproc: dict[str, list[tuple[float, float, int]]] = {k: [] for k in LOCALES}
    for i in range(runs + 1):
        for key, locale in LOCALES.items():
            out = subprocess.run(one_core([sys.executable, "-c", IN_PROCESS, locale, str(stand_in)]),
                                 env=envs[key], capture_output=True, text=True, check=True).stdout.split()
            if i:
                inproc[key].append((float(out[0]), float(out[1]), int(out[2])))
    chosen = {k: statistics.median(v[0] for v in rows) for k, rows in inproc.items()}
    stand_in_ms = statistics.median(v[1] for rows in inproc.values() for v in rows)
    n = inproc["ja"][0][2]
    print(f"in a fresh process, after the command's imports, the language chosen and its catalog read: "
          f"C {chosen['C']:.2f} ms, ja {chosen['ja']:.2f} ms (the package's catalog: {n} messages)")
    print(f"a stand-in catalog of 2,000 messages ({stand_in.stat().st_size // 1024} KiB) reads in {stand_in_ms:.2f} ms")
    worst, worst_fast = max(diffs), max(fastest)
    cost = chosen["ja"] - chosen["C"]
    verdict = "meets" if cost <= LANG_GOAL_MS else "misses"
    print(f"choosing and loading Japanese costs {cost:.2f} ms in process (goal ≤ {LANG_GOAL_MS:g} ms: {verdict}); "
          f"the largest start-up difference is {worst:+.1f} ms between medians, {worst_fast:+.1f} ms between "
          f"the fastest runs (whole processes: a busy machine moves these by several ms either way)")


#: ratio to the minimal typer app each kind of command may take (issue 36)
COMMAND_GOAL, JSON_GOAL = 1.2, 1.0


def command_names() -> list[str]:
    """The commands `hachi-score --help` lists, as the installed package registers them."""
    out = subprocess.run([sys.executable, "-c", "from scorekeeper.cli import app\n"
                          "from typer.main import get_command_name\n"
                          "print(' '.join(c.name or get_command_name(c.callback.__name__) "
                          "for c in app.registered_commands if not c.hidden))"],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


def timed_until(cmd: list[str], env: dict[str, str], codes: tuple[int, ...]) -> tuple[float, float]:
    """Wall time and CPU time (user + system, the child's own) of one run of ``cmd`` on one
    core, its input at its end; ``codes``: the exit statuses it may end with (`round` stopped at
    its first question ends with 1). The CPU time is what a busy machine moves least."""
    import time

    start = time.perf_counter()
    proc = subprocess.Popen(one_core(cmd), env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    said = proc.stderr.read() if proc.stderr else b""
    if proc.stderr:
        proc.stderr.close()
    if code not in codes:
        raise SystemExit(f"{' '.join(cmd)} exited {code}: {said.decode()[:300]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def commands_side_by_side(runs: int, app: Path, before: Path | None = None) -> None:
    """Each command of goal 1 beside the minimal typer app, taken in turn (issue 36). ``before``:
    another install's ``bin`` folder (an older release, say): each command is run from it too,
    in turn with this one's, each against its own interpreter's typer app, so that both columns
    are measured in one run under the same load."""
    installs = {"now": BIN, **({"before": before} if before else {})}

    def made(b: Path) -> dict[str, tuple[list[str], dict[str, str], tuple[int, ...], float | None]]:
        def h(*args: str) -> list[str]:
            return [str(b / "hachi-score"), *args]
        env = ENV_OF[b]  # each install's own book, which it wrote
        other = dict(env, HACHI_SCORE_DB=str(Path(env["HACHI_SCORE_DB"]).parent / "other" / "book.json"))
        Path(other["HACHI_SCORE_DB"]).parent.mkdir(parents=True, exist_ok=True)
        # name -> (command, environment, allowed exit statuses, goal)
        commands: dict[str, tuple[list[str], dict[str, str], tuple[int, ...], float | None]] = {
            "minimal typer + rich table": ([str(b / "python"), str(app)], env, (0,), None),
            "summary": (h("summary"), env, (0,), COMMAND_GOAL),
            "summary --json": (h("summary", "--json"), env, (0,), JSON_GOAL),
            "show 3": (h("show", "3"), env, (0,), COMMAND_GOAL),
            "show 3 --json": (h("show", "3", "--json"), env, (0,), JSON_GOAL),
            "round (to its first question)": (h("round"), env, (1,), COMMAND_GOAL),
            "new-session": (h("new-session", "Dai", "Emi", "Fumi"), other, (0,), COMMAND_GOAL),
            "sessions --json": (h("sessions", "--json"), env, (0,), JSON_GOAL),
            "--help": (h("--help"), env, (0,), COMMAND_GOAL),
        }
        for name in command_names():
            commands[f"{name} --help"] = (h(name, "--help"), env, (0,), COMMAND_GOAL)
        return commands

    table = {k: made(b) for k, b in installs.items()}
    names = list(table["now"])
    wall: dict[tuple[str, str], list[float]] = {(k, n): [] for k in installs for n in names}
    cpu: dict[tuple[str, str], list[float]] = {(k, n): [] for k in installs for n in names}
    for i in range(runs + 1):
        for name in names:
            for k in installs:
                cmd, e, codes, _goal = table[k][name]
                w, c = timed_until(cmd, e, codes)
                if i:  # the first round only warms the caches
                    wall[(k, name)].append(w)
                    cpu[(k, name)].append(c)

    def ratio(k: str, name: str, least: bool = False) -> float:
        """``name``'s time over the typer app's, both of install ``k``: medians of the wall
        times, or (``least``) the least CPU times."""
        got, floor = (cpu if least else wall)[(k, name)], (cpu if least else wall)[(k, names[0])]
        pick = min if least else statistics.median
        return pick(got) / pick(floor)

    print(f"every command of the table (issue 36), median of {runs} runs each, one core, taken in turn"
          f"{f' with the install in {before}' if before else ''}; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    extra = f" {'before ÷ app':>13} {'least CPU ÷ app, now / before':>30}" if before else ""
    print(f"{'command':36} {'ms':>7} {'÷ typer app':>12} {'goal':>6}{'':8}{extra}")
    missed = []
    for name in names:
        goal = table["now"][name][3]
        r = ratio("now", name)
        mark = "" if goal is None else ("  ok" if r <= goal else "  MISSES")
        if goal is not None and r > goal:
            missed.append(name)
        goal_text = "" if goal is None else f"≤{goal:.1f}x"
        line = f"{name:36} {statistics.median(wall[('now', name)]) * 1000:7.1f} {r:11.2f}x {goal_text:>6}{mark:8}"
        if before:
            line += f" {ratio('before', name):12.2f}x {ratio('now', name, True):21.2f}x / {ratio('before', name, True):.2f}x"
        print(line)
    helps = [n for n in names if n.endswith("--help")]
    worst = max(helps, key=lambda n: ratio("now", n))
    print(f"slowest --help: {worst} {ratio('now', worst):.2f}x; "
          f"goal 1 {'met by every command' if not missed else 'missed by: ' + ', '.join(missed)}")


#: each install's environment, its book among it (:func:`booked`)
ENV_OF: dict[Path, dict[str, str]] = {}


def booked(b: Path, env: dict[str, str]) -> None:
    """The bundled night entered into ``env``'s book by the install in ``b``: an install reads a
    book it wrote (an older release may pay for reading a newer book's files)."""
    setup = [["new-session", "Aki", "Ben", "Chie"]]
    setup += [["round", "--file", str(f)] for f in sorted((SAMPLES / "night").glob("*.json"))]
    for args in setup:
        subprocess.run([str(b / "hachi-score"), *args], env=env, check=True, capture_output=True)
    ENV_OF[b] = env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--lang-only", action="store_true", help="only the side-by-side of the locales")
    ap.add_argument("--commands", action="store_true", help="only every command of goal 1 beside the typer app")
    ap.add_argument("--before", type=Path, metavar="BIN",
                    help="with --commands: another install's bin folder, each command run from it in turn too")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = bench_env(HACHI_SCORE_DB=str(Path(tmp) / "book.json"), COLUMNS="100")
        app = Path(tmp) / "minimal_app.py"
        app.write_text(MINIMAL_APP, encoding="utf-8")
        booked(BIN, env)
        if args.before:  # the other install's own book, of the same night, written by it
            booked(args.before, bench_env(HACHI_SCORE_DB=str(Path(tmp) / "before" / "book.json"), COLUMNS="100"))
        if args.lang_only:
            language_side_by_side(env, args.runs, Path(tmp))
            return
        if args.commands:
            commands_side_by_side(args.runs, app, args.before)
            return
        commands = {
            "hachi-score summary": hachi("summary"),
            "hachi-score summary --json": hachi("summary", "--json"),
            "hachi-score score --json (1 file)": hachi("score", "--json", str(SAMPLES / "plain-teyaku.json")),
            "hachi-score --version": hachi("--version"),
            "minimal typer + rich table": [sys.executable, str(app)],
            "python -c pass": [sys.executable, "-c", "pass"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for i in range(args.runs + 1):
            for name, cmd in commands.items():
                elapsed = wall_time(cmd, env, name)
                if i:  # the first round only warms the caches
                    times[name].append(elapsed)
        medians = {name: statistics.median(t) for name, t in times.items()}
        floor = medians["minimal typer + rich table"]
        bare = medians["python -c pass"]
        print(f"start-up, median of {args.runs} runs each, one core, taken in turn")
        print(f"{'command':36} {'ms':>7} {'÷ typer app':>12} {'÷ python':>9}")
        for name, t in medians.items():
            print(f"{name:36} {t * 1000:7.1f} {t / floor:11.2f}x {t / bare:8.2f}x")
        ratio = medians["hachi-score summary"] / floor
        verdict = "meets" if ratio <= GOAL else "misses"
        print(f"summary / minimal typer app = {ratio:.2f}x (goal ≤ {GOAL}x: {verdict})")
        print()
        commands_side_by_side(args.runs, app)
        language_side_by_side(env, args.runs, Path(tmp))


if __name__ == "__main__":
    main()
