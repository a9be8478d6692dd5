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
    liability = false          # 責任 (法度): the feeder pays alone (fudawiki only, TRADITIONAL §11.1)
    mizuten = false            # false, "fudawiki" or "flat": みずてん (fudawiki only, §11.2)
    drop_fee = "ladder"        # ladder or flat: 下り賃 (fudawiki only, §11.3)
    forced_out_pay = "hand"    # hand or flat: 追い込み賃 (fudawiki only, §11.3)
    forced_out_paid_by = "two" # two or all: the round's 親 pays compensation too (fudawiki only, §11.3)
    standing_three_pairs = true  # false: no 二立三本 or 三本立三本 (fudawiki only, TRADITIONAL §11.4)

    [values]                   # any yaku's, bonus's or fee's value in kan, by its output name
    "三本" = 3
    "追い込み" = 1             # read only under forced_out_pay = "flat"; "みずてん" only with mizuten on

Seven at the table (TRADITIONAL §11.5) needs no switch: a profile of 4–6 seats a seventh with the
白札. A bad file raises :class:`HouseRuleError`, whose message is one line: ``FILE: KEY: problem``.
The rule §10 leaves uncovered (the dealer's-hand swap) has a key of its own here only so that a
file naming it is refused with a line that says so, instead of "unknown key"; so do the keys a
table might guess for seven seats, which need none.

``tomllib`` is imported inside :func:`load`: every command is a fresh process, and only the ones
given a house-rule file need it.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping, NamedTuple

from . import catalog, policy
from .lang import N_, _, quote
from .rules import (ALIASES, FIELD_MODES, FUDAWIKI, HOUSE_VALUES, PROFILES, SDIN, STANDING_PAIRS, TWO_VOLUNTEERS, Rules,
                    check, profile, without_standing_pairs)


class HouseRuleError(ValueError):
    """A house-rule file that can't be used: ``FILE: KEY: problem``, one line (``FILE: problem``
    when the file itself can't be read: then ``key`` is empty)."""

    def __init__(self, path: str | Path, key: str, problem: str) -> None:
        self.path, self.key, self.problem = str(path), key, problem
        super().__init__(f"{path}: {key}: {problem}" if key else f"{path}: {problem}")



#: rules TRADITIONAL §10 leaves uncovered: key -> how the refusal names the rule
UNCOVERED = {
    "dealer_swap": N_("the dealer's-hand swap"),
}
#: the house rules TRADITIONAL §10 leaves uncovered, as an unknown key's line lists them
NOT_COVERED = N_("the dealer's-hand swap and its achievement, buying out a forced-out player, paying 四光 and then "
                 "五光 both, みずてん paid by the players who dropped")
#: keys a table might guess for seven seats (TRADITIONAL §11.5), which need no switch
SEVEN_SEATS = ("seven_players", "blank_card")

#: a profile's name is shown on every screen: one short line
MAX_NAME = 40

#: a value in [values] is a whole number of kan from 0 (it pays nothing, and is still shown) to
#: this (TRADITIONAL §10)
MAX_KAN = 999

#: 手役 names either profile accepts for the other's (TRADITIONAL §3)
_SAME = {d.name: d.same for d in catalog.CATALOG if d.same}

_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_AT_END = re.compile(r"\s*\(at end of document\)\s*$")
#: tomllib's reasons (Python 3.11 to 3.13), each as the player's words: {what} is the character,
#: key or text it names (a repr there), quoted again as the line quotes. A reason not here is said
#: as broken TOML at its line and column, with no English in a Japanese line.
_TOML_SAYS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), words) for pattern, words in (
    (r"Invalid statement", N_("not a key = value, [table] or comment")),
    (r"Expected newline or end of document after a statement", N_("more after a value on its line")),
    (r"Expected '=' after a key in a key/value pair", N_("a key without '=' after it")),
    (r"Expected '\]' at the end of a table declaration", N_("a [table] without its ']'")),
    (r"Expected '\]\]' at the end of an array declaration", N_("a [[table]] without its ']]'")),
    (r"Expected (?P<what>.+)", N_("{what} was expected here")),
    (r"(?:Found invalid|Illegal) character (?P<what>.+)", N_("{what} can't be here")),
    (r"Cannot declare (?P<what>.+) twice", N_("[{what}] is declared twice")),
    (r"Cannot overwrite a value|Duplicate inline table key (?P<what>.+)", N_("a key given twice")),
    (r"Cannot (?:mutate immutable|redefine) namespace (?P<what>.+)", N_("{what} is given twice")),
    (r"Invalid initial character for a key part", N_("a key can't begin with this character")),
    (r"Unclosed array", N_("a list without its ']'")),
    (r"Unclosed inline table", N_("a {{table}} without its '}}'")),
    (r"Unterminated string", N_("a text without its closing quote")),
    (r"Unescaped '\\' in a string|Invalid hex value|Escaped character is not a Unicode scalar value",
     N_("a '\\' in a text that is no escape")),
    (r"Invalid date or datetime", N_("not a date")),
    (r"Invalid value", N_("not a value: a number, \"text\", true or false")),
))


def _toml_says(reason: str) -> str:
    """tomllib's English ``reason`` in the player's words (:data:`_TOML_SAYS`)."""
    import ast

    for pattern, words in _TOML_SAYS:
        found = pattern.fullmatch(reason.strip())
        if found:
            what = found.groupdict().get("what")
            if what is not None and what[:1] in "'\"(":
                with contextlib.suppress(ValueError, SyntaxError):
                    value = ast.literal_eval(what)  # a key's parts are a tuple: ('a', 'b') is a.b
                    if value == "\n":  # a line break inside a text: its quote left open
                        words = "a text without its closing quote"
                    what = ".".join(value) if isinstance(value, tuple) else str(quote(value))
            return _("broken TOML: {reason}").format(reason=_(words).format(what=what))
    return _("broken TOML")


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
            message = _toml_says(message[: at.start()])
            lines = text.splitlines()
            line = lines[int(at.group(1)) - 1] if int(at.group(1)) <= len(lines) else ""
            key, _eq, value = (part.strip() for part in line.partition("="))
            if key and not key.isascii() and not key.startswith(('"', "'")):
                hint = _('(a yaku\'s name is quoted: "{key}" = {value})').format(key=key, value=value or "...")
                message += ("" if hint.startswith("（") else " ") + hint  # no space before a full-width bracket
        else:
            where = _("end of file")
            message = _toml_says(_AT_END.sub("", message))
        raise HouseRuleError(path, where, message) from None
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
        if key in SEVEN_SEATS:
            raise HouseRuleError(path, key, _(
                'seven at the table needs no switch: under base = "fudawiki" a night of seven seats the 白札\'s '
                "holder (TRADITIONAL §11.5): remove the key"))
        if key not in KEYS:
            raise HouseRuleError(path, _key(key), _("unknown key (a house-rule file knows {keys}; not covered: "
                                                    "{uncovered})").format(keys=", ".join(KEYS), uncovered=_(NOT_COVERED)))
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
        rules = base._replace(name=self.name(), base=base.base)
        given = [(switch, switch.read(self, switch.key)) for switch in SWITCH_TABLE if switch.key in self.data]
        for switch, value in given:
            rules = switch.apply(rules, value)
            changed = getattr(rules, switch.key) != getattr(base, switch.key)
            if switch.seated_only and changed and base.max_players == 3:
                raise self.fail(switch.key, _('only a night of 4–6 players has it, and {profile} seats three: '
                                              'use base = "fudawiki" or leave the key out').format(profile=base.name))
            if switch.fudawiki_only and changed and base is not FUDAWIKI:
                raise self.fail(switch.key, _('a house rule of fudawiki\'s (TRADITIONAL §11): use base = "fudawiki" '
                                              'or leave the key out'))
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
            if name in STANDING_PAIRS and not rules.standing_three_pairs:  # TRADITIONAL §11.4: accepted, unused
                continue
            if name in HOUSE_VALUES:  # TRADITIONAL §10: read only where §11 uses them, accepted under either base
                rules = rules._replace(forced_value=value) if name == "追い込み" else rules._replace(mizuten_value=value)
                continue
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
            dekiyaku=MappingProxyType(tables["dekiyaku"]),
            special=MappingProxyType(tables["special"]),
            bonuses=MappingProxyType(tables["bonuses"]),
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


def _boolean(file: _Reader, key: str) -> bool:
    return bool(file.take(key, bool, _("true or false")))


def _one_of(choices: tuple[Any, ...]) -> Callable[[_Reader, str], Any]:
    return lambda file, key: file.choice(key, choices)


def _with_kan(rules: Rules, kan: int) -> Rules:
    return rules._replace(kan=kan)


def _with_field(rules: Rules, key: str) -> Rules:
    return rules._replace(field=policy.FIELDS[key])


def _with_inoshikacho(rules: Rules, on: bool) -> Rules:
    """猪鹿蝶 on or off, the table kept in table order (SDIN's holds every 出来役, in order)."""
    return rules._replace(dekiyaku=MappingProxyType({
        k: rules.dekiyaku.get(k, v) for k, v in SDIN.dekiyaku.items()
        if (k in rules.dekiyaku and k != "猪鹿蝶") or (k == "猪鹿蝶" and on)}))


def _with_nanatan_plus(rules: Rules, on: bool) -> Rules:
    return rules._replace(nanatan_plus=policy.CLIMBS if on else policy.FLAT)


def _with_two_volunteers(rules: Rules, key: str) -> Rules:
    return rules._replace(two_volunteers=policy.VOLUNTEERS[key])


def _with_forced_three(rules: Rules, on: bool) -> Rules:
    return rules._replace(forced_three=policy.FORCED_THREE if on else policy.FREE_DROPS)


def _with_standing_three_pairs(rules: Rules, on: bool) -> Rules:
    """TRADITIONAL §11.4, a table transform: off, the two rows leave the 手役 table."""
    if on:
        return rules._replace(standing_three_pairs=True)
    return rules._replace(standing_three_pairs=False, teyaku_table=without_standing_pairs(rules.teyaku_table))


def _with_liability(rules: Rules, on: bool) -> Rules:
    return rules._replace(liability=on)


def _mizuten(file: _Reader, key: str) -> Any:
    """``mizuten``: false, "fudawiki" or "flat" (TRADITIONAL §11.2)."""
    value = file.data[key]
    if value is False or (isinstance(value, str) and value in policy.CHOICES["mizuten"]):
        return value
    raise file.fail(key, _('must be false, "fudawiki" or "flat", not {value}').format(value=_type(value)))


def _with_mizuten(rules: Rules, key: Any) -> Rules:
    return rules._replace(mizuten=policy.MIZUTEN[key])


def _with_drop_fee(rules: Rules, key: str) -> Rules:
    return rules._replace(drop_fee=policy.DROP_FEES[key])


def _with_forced_out_pay(rules: Rules, key: str) -> Rules:
    return rules._replace(forced_out_pay=policy.FORCED_OUT_PAYS[key])


def _with_forced_out_paid_by(rules: Rules, key: str) -> Rules:
    return rules._replace(forced_out_paid_by=policy.FORCED_OUT_PAYERS[key])


class Switch(NamedTuple):
    """One switch of TRADITIONAL §10: its key, how its value is read from a file (refused in one
    line), the profile with it applied, and whether only a night of 4–6 has it."""

    key: str
    read: Callable[[_Reader, str], Any]
    apply: Callable[[Rules, Any], Rules]
    seated_only: bool = False
    #: a switch of TRADITIONAL §11: under sdin only its default is accepted
    fudawiki_only: bool = False


#: the switches of TRADITIONAL §10 besides base, name and [values], in the order a file is read
SWITCH_TABLE: tuple[Switch, ...] = (
    Switch("kan", _one_of((10, 12)), _with_kan),
    Switch("field", _one_of(FIELD_MODES), _with_field),
    Switch("inoshikacho", _boolean, _with_inoshikacho),
    Switch("nanatan_plus", _boolean, _with_nanatan_plus),
    Switch("two_volunteers", _one_of(TWO_VOLUNTEERS), _with_two_volunteers, seated_only=True),
    Switch("forced_three", _boolean, _with_forced_three, seated_only=True),
    Switch("liability", _boolean, _with_liability, fudawiki_only=True),
    Switch("mizuten", _mizuten, _with_mizuten, fudawiki_only=True),
    Switch("drop_fee", _one_of(tuple(policy.CHOICES["drop_fee"])), _with_drop_fee, fudawiki_only=True),
    Switch("forced_out_pay", _one_of(tuple(policy.CHOICES["forced_out_pay"])), _with_forced_out_pay, fudawiki_only=True),
    Switch("forced_out_paid_by", _one_of(tuple(policy.CHOICES["forced_out_paid_by"])), _with_forced_out_paid_by,
           fudawiki_only=True),
    Switch("standing_three_pairs", _boolean, _with_standing_three_pairs, fudawiki_only=True),
)
SWITCHES = tuple(switch.key for switch in SWITCH_TABLE)
KEYS = ("base", "name", *SWITCHES, "values")


def _frozen_tables(rules: Rules) -> Rules:
    from types import MappingProxyType

    return rules._replace(dekiyaku=MappingProxyType(dict(rules.dekiyaku)), special=MappingProxyType(dict(rules.special)),
                          bonuses=MappingProxyType(dict(rules.bonuses)),
                          multipliers=MappingProxyType(dict(rules.multipliers)))


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
