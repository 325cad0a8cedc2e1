"""From a game of three-handed bidding Diamonds on the engine to a DGN record: how simulated games are written.

A hand is `R<k> dealer <id>` (no pass count); when asked for, a deal line
per player (10 cards, in display order) and the `kitty` line (3 cards, in
the order dealt); then the bids, the takes and the final bids, each in turn
order (B3-B5; a final bid is written even when unchanged); then its tricks
of three cards in play order. In a trick an ace played low is written `AH-`
and one played high plain `AH` (the canonical form; the reader takes `AH+`
as well), and the Joker always with the suit its player gave it and its
sign, `JoS+` or `JoD-` (B7). The tags come from `game_tags`.
"""

from __future__ import annotations

from collections.abc import Iterable

from diamonds.core import Card, Engine
from diamonds.notation.records import Call, GameRecord, HandLine, Play, Plays, Take
from diamonds.replay.record import RoundsWriter

from .rules import Bid, BiddingConfig, Deal, FinalBid, PlayCard, TakeFromKitty
from .words import WORDS

__all__ = ["record_from_game", "play_of"]


def play_of(move: PlayCard) -> Play:
    """A card as DGN writes it in a trick: `AH-` for a low ace, `AH` for a high one, `JoS+` (B7)."""
    card = move.card
    if isinstance(card, Card):
        return Play(card, sign="-" if card.is_ace and move.high is False else None)
    return Play(card, sign="+" if move.high else "-", suit=move.suit)


def record_from_game(game: Engine, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    """The record of every move of `game`; with `deals=False` the deal and kitty lines are left out
    (DGN infers them from a complete hand).

    Reads only the moves, so it works on a game kept without history or events.
    """
    config = game.config
    assert isinstance(config, BiddingConfig)
    names = config.players
    writer = RoundsWriter(config.plays_per_trick)
    for move in game.moves:
        if isinstance(move, Deal):
            kitty = HandLine("kitty", "", Plays(tuple(Play(card) for card in move.kitty)))  # in the order dealt
            writer.deal_hands(config, move.hands, deals=deals, more=(kitty,))  # B2: the deal moves left
        elif isinstance(move, PlayCard):
            writer.play(play_of(move))
        elif isinstance(move, Bid):
            writer.calls.append(Call("bid", names[move.seat], move.amount))
        elif isinstance(move, TakeFromKitty):
            writer.calls.append(Take(names[move.seat], Play(move.card), Play(move.point), kind=TAKE.word,
                                     second=TAKE.second))
        elif isinstance(move, FinalBid):
            writer.calls.append(Call("final", names[move.seat], move.amount))
        else:  # pragma: no cover - the bidding game has no other moves
            raise TypeError(f"not a move of three-handed bidding Diamonds: {move!r}")
    return writer.record(game, tags)

TAKE = next(item for item in WORDS.items if item.second)  # take <id> <card> point <card> (B4)
