"""House-rule files: a TOML file that starts from a built-in profile and changes what it lists.

The keys are TRADITIONAL §10's::

    base = "fudawiki"          # required: sdin or fudawiki (alias traditional)
    name = "kan12-house"       # required: shown on every screen, printed as "profile"
    kan = 12                   # 10 or 12
    field = "stack"            # none, carry, stack
    inoshikacho = true         # 猪鹿蝶 (7 kan) on or off
    nanatan_plus = false       # 七短 +1 kan per 短冊 beyond seven
    two_volunteers = "play"    # play or split (nights of 4–6)
    forced_three = false       # nobody may drop once only three could still play

    [values]                   # any yaku's, bonus's or fee's value in kan, by its output name
    "三本" = 3

A bad file raises :class:`HouseRuleError`, whose message is one line: ``FILE: KEY: problem``.
The rules §10 leaves uncovered (liability, mizuten, the dealer's-hand swap, seven players with
the blank card) have keys of their own here only so that a file naming one is refused with a
line that says so, instead of "unknown key".

``tomllib`` is imported inside :func:`load`: every command is a fresh process, and only the ones
given a house-rule file need it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping

from .lang import N_, _, quote
from .rules import ALIASES, FIELD_MODES, PROFILES, SDIN, TWO_VOLUNTEERS, Rules, check, profile


class HouseRuleError(ValueError):
    """A house-rule file that can't be used: ``FILE: KEY: problem``, one line (``FILE: problem``
    when the file itself can't be read: then ``key`` is empty)."""

    def __init__(self, path: str | Path, key: str, problem: str) -> None:
        self.path, self.key, self.problem = str(path), key, problem
        super().__init__(f"{path}: {key}: {problem}" if key else f"{path}: {problem}")


#: the switches of TRADITIONAL §10 besides base, name and [values], with what each takes
SWITCHES = ("kan", "field", "inoshikacho", "nanatan_plus", "two_volunteers", "forced_three")
KEYS = ("base", "name", *SWITCHES, "values")

#: rules TRADITIONAL §10 leaves uncovered: key -> how the refusal names the rule
UNCOVERED = {
    "liability": N_("the liability rule (who fed the card pays for it)"),
    "mizuten": N_("mizuten"),
    "dealer_swap": N_("the dealer's-hand swap"),
    "seven_players": N_("seven players with the blank card"),
    "blank_card": N_("the blank card (seven players)"),
}

#: a profile's name is shown on every screen: one short line
MAX_NAME = 40

#: a value in [values] is a whole number of kan from 0 (it pays nothing, and is still shown) to
#: this (TRADITIONAL §10)
MAX_KAN = 999

#: 手役 names either profile accepts for the other's (TRADITIONAL §3)
_SAME = {"空巣": "空素", "空素": "空巣"}

_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_AT_END = re.compile(r"\s*\(at end of document\)\s*$")


def _type(value: Any) -> str:
    """A TOML value's type, as a file's author would call it."""
    if isinstance(value, bool):
        return _("{value} (a boolean)").format(value=str(value).lower())
    if isinstance(value, int):
        return _("{value} (a whole number)").format(value=value)
    if isinstance(value, float):
        return _("{value} (a decimal number)").format(value=repr(value))
    if isinstance(value, str):
        return _("{value} (a string)").format(value=quote(value))
    if isinstance(value, list):
        return _("an array")
    if isinstance(value, dict):
        return _("a table")
    return _("{value} (a date or time)").format(value=value)


def _key(key: str) -> str:
    """A key as typed, or quoted when it holds what would break the one-line message."""
    return key if key and key.isprintable() and len(key) <= 40 else quote(key)


def _read(path: Path) -> str:
    """The file's text, or :class:`HouseRuleError` for a file that can't be read as UTF-8."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise HouseRuleError(path, "", _("no such file")) from None
    except IsADirectoryError:
        raise HouseRuleError(path, "", _("is a directory, not a house-rule file")) from None
    except OSError as e:
        from .files import os_words

        raise HouseRuleError(path, "", _("can't be read ({reason})").format(reason=os_words(e))) from None
    except ValueError:  # a NUL byte in the name
        raise HouseRuleError(repr(str(path)), "", _("is not a file name")) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise HouseRuleError(path, "", _("is not UTF-8 text (byte {n})").format(n=e.start)) from None


def _parse(path: Path, text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        at = _AT.search(message)
        if at:
            where = _("line {line}, column {column}").format(line=at.group(1), column=at.group(2))
            message = message[: at.start()]
            lines = text.splitlines()
            line = lines[int(at.group(1)) - 1] if int(at.group(1)) <= len(lines) else ""
            key, _eq, value = (part.strip() for part in line.partition("="))
            if key and not key.isascii() and not key.startswith(('"', "'")):
                message += " " + _('(a yaku\'s name is quoted: "{key}" = {value})').format(key=key, value=value or "...")
        else:
            where = _("end of file")
            message = _AT_END.sub("", message)
        raise HouseRuleError(path, where, _("broken TOML: {message}").format(message=message)) from None
    except RecursionError:
        raise HouseRuleError(path, "", _("broken TOML: nested too deeply")) from None


def load(path: str | Path) -> Rules:
    """The profile a house-rule file describes, checked; a bad file is a :class:`HouseRuleError`."""
    path = Path(path)
    return from_data(_parse(path, _read(path)), path)


def from_data(data: Mapping[str, Any], path: str | Path = "<house rules>") -> Rules:
    """The profile of a house-rule file's parsed TOML (``path`` names it in errors)."""
    for key in data:
        if key in UNCOVERED:  # (a key that is neither is named as _key shows it: one line)
            raise HouseRuleError(path, key, _(
                "hachi-score does not cover {rule}: remove the key (samples/house-kan12.toml shows what a "
                "house-rule file may change)").format(rule=_(UNCOVERED[key])))
        if key not in KEYS:
            raise HouseRuleError(path, _key(key), _("unknown key (a house-rule file knows {keys})").format(
                keys=", ".join(KEYS)))
    reader = _Reader(path, data)
    rules = reader.read()
    try:
        return check(rules)
    except ValueError as e:  # check names the key first
        key, _sep, problem = str(e).partition(": ")
        raise HouseRuleError(path, key, problem or str(e)) from None


class _Reader:
    def __init__(self, path: str | Path, data: Mapping[str, Any]) -> None:
        self.path, self.data = path, data

    def fail(self, key: str, problem: str) -> HouseRuleError:
        return HouseRuleError(self.path, key, problem)

    def take(self, key: str, kind: type, what: str) -> Any:
        value = self.data[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise self.fail(key, _("must be {what}, not {value}").format(what=what, value=_type(value)))
        return value

    def choice(self, key: str, allowed: tuple[Any, ...]) -> Any:
        kinds = {type(a) for a in allowed}
        kind = kinds.pop()
        shown = _(" or ").join(map(str, allowed)) if kind is int else ", ".join(f'"{a}"' for a in allowed)
        what = _("one of {choices}").format(choices=shown) if kind is str else shown
        value = self.take(key, kind, what)
        if value not in allowed:
            raise self.fail(key, _("must be {what}, not {value}").format(what=what, value=_type(value)))
        return value

    def read(self) -> Rules:
        if "base" not in self.data:
            raise self.fail("base", _('missing: say which profile the file starts from (base = "sdin" or "fudawiki")'))
        base_text = self.take("base", str, _('a string: "sdin" or "fudawiki"'))
        try:
            base = profile(base_text)
        except ValueError:
            raise self.fail("base", _("{name} is not a built-in profile ({builtins})").format(
                name=quote(base_text), builtins=_builtins())) from None
        if "name" not in self.data:
            raise self.fail("name", _('missing: a house-rule file names its profile (name = "...")'))
        changes: dict[str, Any] = {"name": self.name(), "base": base.base}
        if "kan" in self.data:
            changes["kan"] = self.choice("kan", (10, 12))
        if "field" in self.data:
            changes["field"] = self.choice("field", FIELD_MODES)
        for key in ("inoshikacho", "nanatan_plus", "forced_three"):
            if key in self.data:
                changes[key] = self.take(key, bool, _("true or false"))
        if "two_volunteers" in self.data:
            changes["two_volunteers"] = self.choice("two_volunteers", TWO_VOLUNTEERS)
        for key in ("two_volunteers", "forced_three"):
            if key in changes and changes[key] != getattr(base, key) and base.max_players == 3:
                raise self.fail(key, _('only a night of 4–6 players has it, and {profile} seats three: '
                                       'use base = "fudawiki" or leave the key out').format(profile=base.name))
        # 猪鹿蝶 on or off, the table kept in table order (SDIN's holds every 出来役, in order)
        on = changes.pop("inoshikacho", base.inoshikacho)
        dekiyaku = {k: base.dekiyaku.get(k, v) for k, v in SDIN.dekiyaku.items()
                    if (k in base.dekiyaku and k != "猪鹿蝶") or (k == "猪鹿蝶" and on)}
        rules = base._replace(**changes, dekiyaku=dekiyaku)
        return self.values(rules)

    def name(self) -> str:
        import unicodedata

        name = self.take("name", str, _("a string"))
        name = name.strip()
        if not name:
            raise self.fail("name", _("is empty: a profile needs a name, shown on every screen"))
        if any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in name):
            raise self.fail("name", _("{name} holds a control character: one line of plain text, please").format(
                name=quote(name)))
        if len(name) > MAX_NAME:
            raise self.fail("name", _("{name} is too long: at most {most} characters").format(
                name=quote(name), most=MAX_NAME))
        folded = name.lower()
        if folded in PROFILES or folded in ALIASES:
            raise self.fail("name", _("{name} is a built-in profile's name: give the house rules their own").format(
                name=quote(name)))
        return name

    def values(self, rules: Rules) -> Rules:
        from types import MappingProxyType

        if "values" not in self.data:
            return _frozen_tables(rules)
        table = self.data["values"]
        if not isinstance(table, dict):
            raise self.fail("values", _("must be a table ([values]), not {value}").format(value=_type(table)))
        teyaku = {row.name: row for row in rules.teyaku_table}
        tables = {"dekiyaku": dict(rules.dekiyaku), "special": dict(rules.special), "bonuses": dict(rules.bonuses)}
        fee = rules.fee
        seen: dict[str, str] = {}
        for given, value in table.items():
            key = f"values.{_key(given)}"
            name = given if given in teyaku or given not in _SAME else _SAME[given]
            if name in seen:
                raise self.fail(key, _("names the same 手役 as values.{other}: give one of them").format(other=seen[name]))
            seen[name] = given
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(key, _("must be a whole number of kan, not {value}").format(value=_type(value)))
            if not 0 <= value <= MAX_KAN:
                raise self.fail(key, _("{value} kan: a value is a whole number of kan from 0 to {most}").format(
                    value=value, most=MAX_KAN))
            if name in teyaku:
                teyaku[name] = teyaku[name]._replace(kan=value)
                continue
            for part in tables.values():
                if name in part:
                    part[name] = value
                    break
            else:
                if name == "逃げ料" and rules.max_players > 3:
                    fee = value
                else:
                    raise self.fail(key, self.unknown(name, rules))
        rules = rules._replace(
            teyaku_table=tuple(teyaku.values()),
            fee=fee,
            **{k: MappingProxyType(v) for k, v in tables.items()},
        )
        return _frozen_tables(rules)

    def unknown(self, name: str, rules: Rules) -> str:
        if name == "猪鹿蝶":
            return _("猪鹿蝶 is off in this profile: set inoshikacho = true to pay it")
        if name == "逃げ料":
            return _('{base} seats three players, so nobody pays 逃げ料: use base = "fudawiki"').format(base=rules.base)
        for other in PROFILES.values():
            names = other.values().keys() | {"逃げ料"}
            if other.base != rules.base and name in names:
                return _('{name} is a value of {other}, not of {base}: use base = "{other}"').format(
                    name=name, other=other.name, base=rules.base)
        return _("{name} is not a yaku, bonus or fee of {base} (known: {known})").format(
            name=quote(name), base=rules.base, known=" ".join(rules.values()))


def _frozen_tables(rules: Rules) -> Rules:
    from types import MappingProxyType

    return rules._replace(**{k: MappingProxyType(dict(getattr(rules, k)))
                             for k in ("dekiyaku", "special", "bonuses", "multipliers")})


def _builtins() -> str:
    return ", ".join([*PROFILES, *(f"{a} (= {n})" for a, n in ALIASES.items())])


def resolve(text: str) -> Rules:
    """A profile from ``--rules`` / ``rules NAME|FILE``: a built-in name or alias, else a house-rule
    file (a name ending in ``.toml``, or one naming an existing file). ``ValueError`` (a
    :class:`HouseRuleError` for a file) says what is wrong, in one line."""
    text = str(text)
    if not text.strip():
        raise ValueError(_("{text}: not a rule profile: the built-in ones are {builtins}; "
                           "or give a house-rule FILE.toml").format(text=quote(text), builtins=_builtins()))
    if text.lower().endswith(".toml"):
        return load(text)
    try:
        return profile(text)
    except ValueError:
        try:
            is_file = Path(text).exists()  # a directory too: load says what is wrong
        except (OSError, ValueError):
            is_file = False
        if is_file:
            return load(text)
        raise ValueError(_("{text}: not a rule profile: the built-in ones are {builtins}; "
                           "or give a house-rule FILE.toml").format(text=quote(text), builtins=_builtins())) from None
