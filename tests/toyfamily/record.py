"""From a toy game on the engine to a DGN record: `R<k> dealer <id>`, deal lines, tricks of two cards."""

from __future__ import annotations

from collections.abc import Iterable

from diamonds.core import Engine, sort_cards
from diamonds.notation.records import GameRecord, HandLine, Play, Plays, RoundHeader
from diamonds.replay.record import RoundsWriter

from .rules import Deal, PlayCard


def record_from_game(game: Engine, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    config = game.config
    writer = RoundsWriter(config.plays_per_trick)
    for move in game.moves:
        if isinstance(move, Deal):
            number = writer.next_number
            header = RoundHeader(number, config.players[config.dealer_of_round(number)], None)  # T2
            writer.deal(header, tuple(HandLine("deal", config.players[seat], Plays([Play(c) for c in sort_cards(hand)]))
                                      for seat, hand in enumerate(move.hands)) if deals else ())
        elif isinstance(move, PlayCard):
            writer.play(Play(move.card))
    return writer.record(game, tags)
