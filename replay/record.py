"""From an engine game to a DGN record, for every family: the tags here, the rounds by the family's bridge."""

from __future__ import annotations

from typing import Any, Iterable

from diamonds.core import Game, family_of
from diamonds.notation.records import GameRecord, ResultEntry, Tag
from diamonds.notation.tags import format_result

__all__ = ["record_from_game", "game_tags"]


def game_tags(game: Game, extra: Iterable[tuple[str, str]] = ()) -> tuple[Tag, ...]:
    """Rules, Variant, Players, Dealer, the rule set's own tags, and Result, after any `extra` ones."""
    config: Any = game.config
    tags = [Tag(name, value) for name, value in extra]
    tags.append(Tag("Rules", config.rules))
    variants = getattr(config, "variant_text", "")
    if variants:
        tags.append(Tag("Variant", variants))
    tags.append(Tag("Players", " ".join(config.players)))
    tags.append(Tag("Dealer", config.players[config.first_dealer]))
    for name, value in getattr(config, "option_values", lambda: ())():
        tags.append(Tag(name, value))
    if game.is_over:
        entries = tuple(
            ResultEntry(tuple(config.players[s] for s in config.sides[r.side]), r.score) for r in game.standings()
        )
        tags.append(Tag("Result", format_result(entries, config.players)))
    else:
        tags.append(Tag("Result", "*"))
    return tuple(tags)


def record_from_game(game: Game, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    """The record of every move of `game` (deal lines optional), whatever its family."""
    bridge = family_of(game.config.rules).part("bridge")
    record: GameRecord = bridge.record_from_game(game, tags=tags, deals=deals)
    return record
