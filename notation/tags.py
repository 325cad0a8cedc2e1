"""The tags DGN gives a meaning to, read into values (still without rules).

`Result` and `Players` have a small syntax of their own; reading them here
keeps the writer (which puts `Result` in seat order) and the validator in
agreement.
"""

from __future__ import annotations

import re

from .records import ResultEntry

__all__ = ["TagSyntaxError", "parse_players", "parse_result", "format_result", "parse_variants"]

_RESULT_ENTRY = re.compile(r"\s*([A-Za-z][A-Za-z0-9_-]*(?:\+[A-Za-z][A-Za-z0-9_-]*)*)\s+(-?[0-9]{1,9})\s*\Z")


class TagSyntaxError(ValueError):
    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset  # of the trouble within the value


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
