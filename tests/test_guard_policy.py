"""The profile's policies are objects chosen once (scorekeeper/policy.py): outside the modules that
build a profile (rules, house, policy, catalog) no code compares a profile's policy slot, its name
or its base with a string literal; it calls the slot instead (issue "Rules as objects")."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
BUILDERS = {"rules.py", "house.py", "policy.py", "catalog.py"}
SLOTS = {"field", "two_volunteers", "teyaku_mode", "special_mode", "winner", "name", "base", "key",
         "sage_callers", "cancel", "forced_three", "nanatan_plus"}
PROFILE_NAMES = {"rules", "base", "profile", "SDIN", "FUDAWIKI"}


def _profile_slot(node: ast.AST) -> bool:
    """``rules.field``, ``self.rules.winner``, ``g.rules.field.key``, ``SDIN.name`` …"""
    if not isinstance(node, ast.Attribute) or node.attr not in SLOTS:
        return False
    inner = node.value
    if node.attr == "key" and isinstance(inner, ast.Attribute):
        return _profile_slot(inner)
    return (isinstance(inner, ast.Name) and inner.id in PROFILE_NAMES) or (
        isinstance(inner, ast.Attribute) and inner.attr in PROFILE_NAMES)


def _literal(node: ast.AST) -> bool:
    """A string, a number or a bool written out (``1 caller``, ``cancel is True`` …)."""
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, int)) or (
        isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_literal(e) for e in node.elts))


def test_no_policy_is_compared_with_a_string_outside_the_builders():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in BUILDERS and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_profile_slot(s) for s in sides) and any(_literal(s) for s in sides):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []
