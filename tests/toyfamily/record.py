"""From a toy game on the engine to a DGN record: `R<k> dealer <id>`, deal lines, tricks of two cards."""

from __future__ import annotations

from typing import Iterable

from diamonds.core import Game, sort_cards
from diamonds.notation.records import GameRecord, HandLine, Play, Plays, Round, RoundHeader, Trick
from diamonds.replay.record import game_tags

from .rules import Deal, PlayCard


def record_from_game(game: Game, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    config = game.config
    rounds: list[Round] = []
    header: RoundHeader | None = None
    lines: tuple[HandLine, ...] = ()
    tricks: list[list[Play]] = []

    def close() -> None:
        if header is not None:
            rounds.append(Round(header, lines, tuple(Trick(i, Plays(p)) for i, p in enumerate(tricks, 1))))

    for move in game.moves:
        if isinstance(move, Deal):
            close()
            number = len(rounds) + 1
            header = RoundHeader(number, config.players[config.dealer_of_round(number)], None)  # T2
            lines = tuple(HandLine("deal", config.players[seat], Plays([Play(c) for c in sort_cards(hand)]))
                          for seat, hand in enumerate(move.hands)) if deals else ()
            tricks = []
        elif isinstance(move, PlayCard):
            if not tricks or len(tricks[-1]) == config.plays_per_trick:
                tricks.append([])
            tricks[-1].append(Play(move.card))
    close()
    return GameRecord(game_tags(game, tags), tuple(rounds))
