"""Every test runs with a book and a home of its own: no test ever reads or writes the real home."""

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def book_file(tmp_path, monkeypatch) -> Path:
    """This test's book, through HACHI_SCORE_DB; HOME and XDG_DATA_HOME moved away as well."""
    path = tmp_path / "book" / "book.json"
    monkeypatch.setenv("HACHI_SCORE_DB", str(path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "share"))
    return path


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (the long soaks) run only when asked for: ``pytest -m slow``."""
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow soak: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
