"""What each file of the book holds, and how it is checked each time it is read.

Every file is a TinyDB database (tables of documents keyed by number). The index (``book.json``)
holds ``meta`` {schema, current} and a ``sessions`` row per session; a session file
(``book.sessions/sN.json``) holds ``meta`` {schema}, ``session`` (its header, with its rule profile,
every value) and ``rounds`` (each a round file and the profile's name). Schema 2: the header holds
its profile; schema 1 (no profile: SDIN) is migrated by :meth:`scorekeeper.store.Book.open`.

A check raises :class:`~scorekeeper.errors.Damaged` naming the file and what is wrong, or
:class:`~scorekeeper.errors.NewerBook` for a newer schema, which is not damage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import files
from .errors import Damaged, NewerBook, SessionError
from .lang import L_, quote

if TYPE_CHECKING:  # annotations only: the book imports no rule at start-up
    from .rules import Rules

#: 2: the session header holds its rule profile, every value (1: no profile, SDIN)
SCHEMA = 2
SESSION_ID = re.compile(r"^s([1-9][0-9]*)$")
PLANNED_ROUNDS = (12, 6)
MAX_SESSION_NAME = 60
INDEX_ROW_KEYS = {"id": str, "name": str, "players": list, "dealer": str, "planned_rounds": int, "created": str,
                  "file": str}


def read_book_file(path: Path) -> dict[str, Any] | None:
    """A book file's data, or None if there is no file; damage is :class:`Damaged`."""
    raw = files.read_bytes(path)
    return None if raw is None else parse_book_bytes(path, raw)


def parse_book_bytes(path: Path, raw: bytes) -> dict[str, Any]:
    """A book file's data from its bytes (read once by the caller): JSON in TinyDB's shape."""
    data = files.parse_json(path, raw)
    problem = _tinydb_shape(data)
    if problem:
        raise files.damaged(path, L_("it is not a hachi-score book file ({problem})", problem=problem))
    return data


def _tinydb_shape(data: Any) -> str | None:
    """What keeps ``data`` from being a TinyDB database: tables of documents keyed by number."""
    if not isinstance(data, dict):
        return L_("not a JSON object")
    for name, table in data.items():
        if not isinstance(table, dict):
            return L_("table {name!r} is not an object", name=name)
        for doc_id, doc in table.items():
            if not doc_id.isdecimal() or not isinstance(doc, dict):
                return L_("table {name!r} holds {doc_id!r}, not a document", name=name, doc_id=doc_id)
    return None


def meta_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """A file's ``meta`` document (schema, and for the index the current session)."""
    meta = data.get("meta", {}).get("1")
    return meta if isinstance(meta, dict) else {}


def rounds_of(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A session file's stored rounds, oldest first."""
    rounds = data.get("rounds", {})
    return [rounds[k] for k in sorted(rounds, key=int)]


def _check_schema(path: Path, data: Mapping[str, Any], wrong: Callable[[str], Damaged]) -> None:
    schema = meta_of(data).get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise wrong(L_("no schema version in its meta table"))
    if schema > SCHEMA:
        raise NewerBook(
            L_("{path}: written by a newer hachi-score (book schema {schema}; this one reads up to "
               "{known}). It was left as it is: upgrade hachi-score to use it", path=str(path), schema=schema,
               known=SCHEMA),
            path,
            L_("written by a newer hachi-score (book schema {schema})", schema=schema),
        )


def check_index(path: Path, data: dict[str, Any]) -> None:
    """The schema and the current session's row, each time the index is read; any other row
    is checked when it is used, so that reading the index stays cheap as the book grows."""
    _check_schema(path, data, lambda what: not_a_book(path, what))
    current = meta_of(data).get("current")
    if current is not None:
        by_id = SESSION_ID.match(current) if isinstance(current, str) else None
        row = data.get("sessions", {}).get(by_id.group(1)) if by_id else None
        if row is None:
            raise not_a_book(path, L_("the current session {current!r} is not in it", current=current))
        assert by_id is not None  # a row was found by it
        check_row(path, int(by_id.group(1)), row)


def not_a_book(path: Path, what: str) -> Damaged:
    """An index that is JSON, but not the book's."""
    return files.damaged(path, L_("it is not a hachi-score book ({what})", what=what))


def check_row(path: Path, doc_id: int, row: Mapping[str, Any]) -> Mapping[str, Any]:
    """An index row as the book writes it, or the index is damaged."""
    for key, kind in INDEX_ROW_KEYS.items():
        if not isinstance(row.get(key), kind):
            raise not_a_book(path, L_("session row {number} has no valid {key!r}", number=doc_id, key=key))
    if row["id"] != f"s{doc_id}" or row["file"] != f"{row['id']}.json":
        raise not_a_book(path, L_("session row {number} names {id!r}", number=doc_id, id=row["id"]))
    return row


def check_session(path: Path, data: dict[str, Any]) -> None:
    """A session file as the book writes it: its header (players, first 親, profile) and its
    rounds numbered 1, 2, 3 …, each a round file under the session's profile."""
    sid = path.stem
    def wrong(what: str) -> Any:
        return files.damaged(path, L_("it is not a hachi-score session ({what})", what=what))

    _check_schema(path, data, wrong)
    header = data.get("session", {}).get("1")
    if not isinstance(header, dict) or header.get("id") != sid:
        raise wrong(L_("its header is not session {sid}'s", sid=sid))
    players = header.get("players")
    if not (isinstance(players, list) and 3 <= len(players) <= 7 and all(isinstance(p, str) for p in players)):
        raise wrong(L_("its players are not three to seven names"))
    profile_name = "sdin"  # schema 1: every round was scored under SDIN
    if "profile" in header:
        from .rules import Rules

        try:
            profile_name = Rules.from_dict(header["profile"]).name
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise wrong(L_("its rule profile can't be read: {why}", why=str(e))) from None
    if header.get("dealer") not in players:
        raise wrong(L_("its first 親 is not one of its players"))
    rounds = data.get("rounds", {})
    if sorted(int(k) for k in rounds) != list(range(1, len(rounds) + 1)):
        raise wrong(L_("its rounds are not numbered 1, 2, 3 …"))
    for n, record in rounds.items():
        if not isinstance(record.get("round"), dict) or not isinstance(record.get("rules"), str):
            raise wrong(L_("round {n} is not a stored round", n=n))
        if record["rules"] != profile_name:
            raise wrong(L_("round {n} names the rule profile {rules!r}, not the session's {profile!r}", n=n,
                           rules=record["rules"], profile=profile_name))


def check_new_session(players: Sequence[str], *, name: str | None, dealer: str | None, planned: int,
                      rate: float | None, rules: Rules,
                      tidy: bool = True) -> tuple[list[str], str, str | None, float | None]:
    """A new session's players, first 親, name and rate as the book keeps them, or the
    :class:`SessionError` that names the option at fault. With ``tidy`` (no round names them
    yet) the players are kept as :func:`~scorekeeper.names.tidy` makes them."""
    from .names import PlayerError, bad_character, number_named, resolve_player, tidy as tidied
    from .scoring import RoundError, check_table

    players = [tidied(p) if tidy and isinstance(p, str) else p for p in players]
    try:
        check_table(players, rules)
    except RoundError as e:
        raise SessionError(str(e)) from None
    if tidy and (problem := number_named(players)):  # a night begun here, answered by number at the table
        raise SessionError(L_("players: {problem}", problem=problem))
    try:
        dealer = players[0] if dealer is None else resolve_player(dealer, players)
    except PlayerError as e:
        raise SessionError(L_("--dealer: {problem}: one of {players} (a name, its start, or its number)",
                              problem=str(e), players=players)) from None
    if planned not in PLANNED_ROUNDS:
        raise SessionError(L_("--rounds: a night is 12 rounds or 6 (a half game), not {planned}", planned=planned))
    if rate is not None and (isinstance(rate, bool) or not rate > 0 or rate == float("inf")):
        raise SessionError(L_("--rate: must be a positive amount of money per 文, not {rate}", rate=rate))
    if isinstance(rate, float) and rate.is_integer():
        rate = int(rate)
    if name is not None:
        name = " ".join(tidied(str(name)).split())
        if problem := bad_character(name):
            raise SessionError(L_("--name: {problem}", problem=problem))
        bad = not name or len(name) > MAX_SESSION_NAME or any(0xD800 <= ord(ch) <= 0xDFFF for ch in name)
        if bad or SESSION_ID.match(name):
            raise SessionError(L_("--name: {name} is not a session name (1–{most} characters, not like s1)",
                                  name=quote(name), most=MAX_SESSION_NAME))
    return players, dealer, name, rate
