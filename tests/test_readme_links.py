"""The READMEs name no page the repository lacks (issue 26): every relative link and image is a
file of the repository, and the rules pages they cite are the copies under docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)[^)]*\)|src=\"([^\"]+)\"")


@pytest.mark.parametrize("readme", ["README.md", "README.ja.md"])
def test_every_relative_link_of_the_readme_is_a_file_here(readme):
    text = (ROOT / readme).read_text(encoding="utf-8")
    targets = [a or b for a, b in LINK.findall(text)]
    local = [t for t in targets if "://" not in t and not t.startswith("mailto:")]
    assert "docs/RULES.md" in local and "docs/TRADITIONAL.md" in local
    assert [t for t in local if not (ROOT / t).is_file()] == []


@pytest.mark.parametrize("readme", ["README.md", "README.ja.md"])
def test_the_rules_pages_are_named_only_where_the_repository_has_them(readme):
    text = (ROOT / readme).read_text(encoding="utf-8")
    assert re.findall(r"(?<![/\w])(?:RULES|TRADITIONAL|CONTRACT)\.md", text) == []  # only as docs/…
