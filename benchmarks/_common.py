"""Shared helpers for the benchmark scripts: timing whole commands as medians of repeated runs."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
BIN = Path(sys.executable).parent


def one_core(cmd: list[str]) -> list[str]:
    """Run on one core where taskset exists, so figures are per core."""
    return ["taskset", "-c", "0", *cmd] if shutil.which("taskset") else cmd


def bench_env(**extra: str) -> dict[str, str]:
    """The environment a user's shell has: bytecode caching on.

    This workplace sets PYTHONDONTWRITEBYTECODE, which makes every command recompile the
    package (about 80 ms); a user's install keeps its .pyc files, so the benchmarks do too.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def wall_time(cmd: list[str], env: dict[str, str], name: str | None = None) -> float:
    """The wall time of one run of ``cmd`` on one core; fails loudly on exit != 0."""
    start = time.perf_counter()
    proc = subprocess.run(one_core(cmd), env=env, capture_output=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{name or ' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[:300]}")
    return elapsed


def median_time(cmd: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    """Median wall time of ``cmd`` over ``runs`` runs, after one warm-up; fails loudly on exit != 0."""
    full_env = env if env is not None else bench_env()
    times = [wall_time(cmd, full_env) for _ in range(runs + 1)]
    return statistics.median(times[1:])  # the first run only warms the file and bytecode caches


def hachi(*args: str) -> list[str]:
    exe = BIN / "hachi-score"
    return [str(exe), *args] if exe.exists() else [sys.executable, "-m", "scorekeeper", *args]


def bundled_rounds() -> list[dict]:
    """The bundled night's twelve round files, in order."""
    import json
    from importlib.resources import files

    night = files("scorekeeper").joinpath("data", "night")
    return [json.loads(f.read_text("utf-8")) for f in sorted(night.iterdir(), key=lambda f: f.name) if f.name.endswith(".json")]


def answers_of(data: dict, dealer: str) -> dict[str, str]:
    """A round file as the phones answer it, by question (the draft's keys), the 親 as given."""
    players = data["players"]
    out = {"dealer": dealer, "field": " ".join(data["field"])}
    for p in players:
        hand = " ".join(data.get("hands", {}).get(p, []))
        out[f"hand:{p}"] = " ".join(x for x in (hand, (data.get("teyaku") or {}).get(p) or "") if x)
    out["ended"] = data.get("ended_by") or ""
    sage = data.get("sage") or ""
    out["sage"] = " ".join(sage) if isinstance(sage, list) else sage
    for p in players:
        out[f"pile:{p}"] = " ".join(data["captured"].get(p, []))
    return out
