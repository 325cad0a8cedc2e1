"""From a game of Kirk's Diamonds on the engine to a DGN record: how simulated games are written down.

A hand is `R<k> dealer <id>` (no pass count), a deal line per player when
asked for (13 cards, in display order), and its tricks of four cards in play
order. Nothing about ties is written: the rules break them (K5). The tags
come from `game_tags`, which writes `Hands` or `Target` (K8) from the
configuration.
"""

from __future__ import annotations

from collections.abc import Iterable

from diamonds.core import Engine
from diamonds.notation.records import GameRecord, Play
from diamonds.replay.bridge import Bridge
from diamonds.replay.record import RoundsWriter
from diamonds.replay.trickgame import PlainReplayer

from .rules import Deal, KirkConfig, PlayCard

__all__ = ["BRIDGE", "record_from_game"]


def record_from_game(game: Engine, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    """The record of every move of `game`; with `deals=False` the deal lines are left out (DGN infers them).

    Reads only the moves, so it works on a game kept without history or events.
    """
    config = game.config
    assert isinstance(config, KirkConfig)
    writer = RoundsWriter(config.plays_per_trick)
    for move in game.moves:
        if isinstance(move, Deal):
            writer.deal_hands(config, move.hands, deals=deals)  # K2: the deal moves left
        elif isinstance(move, PlayCard):
            writer.play(Play(move.card))
        else:  # pragma: no cover - Kirk has no other moves
            raise TypeError(f"not a move of Kirk's Diamonds: {move!r}")
    return writer.record(game, tags)


#: Kirk's bridge (its `bridge` part): its records are replayed by the house's replayer of a plain trick game, which
#: reads what it needs of K1-K8 from the rule set (`Kirk.rulings`, `trick_seats`, `pack_text`, `over_text`), and
#: written by `record_from_game`, which needs no history.
BRIDGE = Bridge(replayer=PlainReplayer, record_from_game=record_from_game)
