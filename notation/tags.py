"""The tags DGN gives a meaning to, read into values (still without rules).

`Result` and `Players` have a small syntax of their own; reading them here
keeps the writer (which puts `Result` in seat order) and the validator in
agreement. `check_tag` is the one check of a tag's name and value that a user
gives (the server's API, `diamonds record --event`, `diamonds simulate --hands`):
plain text, no control or bidi characters, which would move a terminal's
cursor, hide text, or reorder it on a page.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from typing import Final

from .records import ResultEntry

__all__ = ["SETUP_TAGS", "TagSyntaxError", "UnsafeTagText", "check_tag", "check_tags", "is_dgn_date", "is_tag_name",
           "parse_players", "parse_result", "format_result", "parse_variants"]

_RESULT_ENTRY = re.compile(r"\s*([A-Za-z][A-Za-z0-9_-]*(?:\+[A-Za-z][A-Za-z0-9_-]*)*)\s+(-?[0-9]{1,9})\s*\Z")


class TagSyntaxError(ValueError):
    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset  # of the trouble within the value


class UnsafeTagText(TagSyntaxError):
    """A tag's name or value holds a control or bidi character: `tag` names the tag, `character` is the
    character, `offset` its place in the value (or in the name, when `in_name`)."""

    def __init__(self, tag: str, character: str, offset: int, in_name: bool = False) -> None:
        shown = tag if not _UNSAFE.search(tag) else _escaped(tag)
        where = "name" if in_name else "value"
        super().__init__(f"the {shown} tag's {where} holds {_character_name(character)} at character "
                         f"{offset + 1}: tags are plain text, without control or bidi characters or lone surrogates",
                         offset)
        self.tag, self.character, self.in_name = tag, character, in_name

    rule: str | None = None  # no ruling decides it: the notation's own rule (DGN.md, tag values)


# C0 and C1 controls (tab included: a tag is one line) and DEL; the bidi marks, embeddings, overrides and
# isolates (U+061C, U+200E-F, U+202A-E, U+2066-9); the line and paragraph separators (U+2028-9).
# A lone surrogate is no character at all: no file, no terminal and no database (SQLite's UTF-8) can hold it.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


#: The tags a game writes itself, from its set-up (the rule set's option tags besides) and, once over, its
#: result: a caller's extra tags (`Position.game(tags)`, a new table's `tags`) may not give them.
SETUP_TAGS: Final = ("Rules", "Variant", "Players", "Dealer", "Result")
_DATE: Final = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)\Z")


def is_dgn_date(text: str) -> bool:
    """Whether `text` is a Date tag's value as DGN writes one: YYYY.MM.DD, `??` for what is unknown
    (`2026.11.??`, `????.??.??`), and a day of the calendar where all of it is known."""
    match = _DATE.match(text)
    if match is None:
        return False
    year, month, day = match.groups()
    if month != "??" and not 1 <= int(month) <= 12 or day != "??" and not 1 <= int(day) <= 31:
        return False
    if "?" in year + month + day:
        return True
    try:
        datetime.date(int(year), int(month), int(day))
    except ValueError:  # 2026.02.30
        return False
    return True


_TAG_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def is_tag_name(name: object) -> bool:
    """Whether `name` is a tag's name as DGN writes one: a letter, then letters, digits or `_`."""
    return isinstance(name, str) and _TAG_NAME.match(name) is not None


def check_tag(name: str, value: str) -> None:
    """Raise `UnsafeTagText` if the tag's name or value holds a control or bidi character or a lone surrogate."""
    for text, in_name in ((name, True), (value, False)):
        found = _UNSAFE.search(text)
        if found is not None:
            raise UnsafeTagText(name, found.group(), found.start(), in_name)


def check_tags(tags: Iterable[tuple[str, str]]) -> None:
    """`check_tag` on each (name, value): the first unsafe one raises."""
    for name, value in tags:
        check_tag(name, value)


def _character_name(character: str) -> str:
    import unicodedata

    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" ({name})" if name else "")


def _escaped(text: str) -> str:
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def parse_players(value: str) -> tuple[str, ...]:
    return tuple(value.split())


def parse_variants(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


def parse_result(value: str) -> tuple[ResultEntry, ...] | None:
    """`Ann 41, Bob 38` or `Ann+Cat 50, Bob+Dan 44`; None for `*` (unfinished)."""
    if value.strip() == "*":
        return None
    entries = []
    offset = 0
    for part in value.split(","):
        match = _RESULT_ENTRY.match(part)
        if not match:
            lead = len(part) - len(part.lstrip())
            raise TagSyntaxError(
                f'expected "<id> <score>" (or "<id>+<id> <score>" for a team), found "{part.strip()}"',
                offset + lead,
            )
        entries.append(ResultEntry(tuple(match.group(1).split("+")), int(match.group(2))))
        offset += len(part) + 1
    return tuple(entries)


def format_result(entries: tuple[ResultEntry, ...] | None, players: tuple[str, ...] = ()) -> str:
    """Canonical: seat order of each side's first seated member, members in seat order."""
    if entries is None:
        return "*"
    seat = {name.casefold(): i for i, name in enumerate(players)}
    spelled = {name.casefold(): name for name in players}

    def member_key(name: str) -> int:
        return seat.get(name.casefold(), len(seat))

    ordered = []
    for entry in entries:
        members = sorted(entry.side, key=member_key)
        ordered.append((member_key(members[0]), [spelled.get(m.casefold(), m) for m in members], entry.score))
    ordered.sort(key=lambda item: item[0])
    return ", ".join(f"{'+'.join(members)} {score}" for _, members, score in ordered)
