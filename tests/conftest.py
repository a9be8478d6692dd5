"""Every test runs with a book and a home of its own: no test ever reads or writes the real home.

The run's report ends with the random order's seed (pytest-randomly; replay a failing order with
``--randomly-seed=N``, or run in file order with ``-p no:randomly``) and the fuzz tests' counts.
"""

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from scorekeeper import lang

# hypothesis's two clocks, off for every property (a test's own @settings adds to this): the
# 200 ms deadline per example and the "too slow" health check fail a slow machine, not a bug
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

#: what the fuzz tests tried (tests/test_fuzz.py records it per test), added up over the run:
#: their reports come here from every pytest-xdist worker
FUZZ_TRIED: Counter = Counter()
FUZZ_SLOWEST = [0.0]


@pytest.fixture(autouse=True)
def book_file(tmp_path, monkeypatch) -> Iterator[Path]:
    """This test's book, through HACHI_SCORE_DB; HOME and the XDG folders moved away as well."""
    path = tmp_path / "book" / "book.json"
    monkeypatch.setenv("HACHI_SCORE_DB", str(path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home" / "cache"))  # the drafts' cache
    # a shell's own settings change nothing here: no debug tracebacks, the lock's real waits, rich's
    # own width (80 off a terminal) and colours
    for name in ("HACHI_SCORE_DEBUG", "HACHI_SCORE_TESTING_LOCK_TIMEOUT", "HACHI_SCORE_TESTING_LOCK_NOTICE",
                 "COLUMNS", "LINES", "FORCE_COLOR", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    # English, whatever the machine's locale says (a test of the language sets its own), and the
    # language a command before this one chose in this process forgotten
    for name in ("HACHI_SCORE_LANG", *lang.LOCALE_VARS):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    lang.use("en")
    yield path
    # and left English behind: a module's fixture built before the next test's reset (the
    # README's keystroke figures) must not read the prompts in the language a test chose
    lang.use("en")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (the long soaks) run only when asked for: ``pytest -m slow``."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow soak: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


def _seed_line(config) -> str | None:
    if not config.pluginmanager.hasplugin("randomly"):
        return None
    seed = config.getoption("randomly_seed", None)
    return f"random order: --randomly-seed={seed} replays it (-p no:randomly: file order)"


def pytest_sessionstart(session):
    """The seed first, even under -q (pytest-randomly's own header line shows only without it)."""
    line = _seed_line(session.config)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if line and reporter is not None and reporter.verbosity < 0 and not hasattr(session.config, "workerinput"):
        reporter.write_line(line)


def pytest_runtest_logreport(report):
    if report.when != "teardown":
        return
    for name, value in report.user_properties:
        if name == "fuzz inputs":
            FUZZ_TRIED.update(value)
        elif name == "fuzz slowest input":
            FUZZ_SLOWEST[0] = max(FUZZ_SLOWEST[0], value)


def pytest_terminal_summary(terminalreporter, config):
    if FUZZ_TRIED:
        terminalreporter.write_line(
            f"fuzz: inputs tried {dict(sorted(FUZZ_TRIED.items()))}, total {sum(FUZZ_TRIED.values())}; "
            f"slowest single input {FUZZ_SLOWEST[0]:.2f} s")
    line = _seed_line(config)
    if line:
        terminalreporter.write_line(line)
