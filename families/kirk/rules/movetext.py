"""Kirk's moves as words (`9H`, deal lines). Every card played is public, every hand private (K3, K4)."""

from __future__ import annotations

from diamonds.core.movetext import card_of, deal_text, parse_deal, refuse, words

from .moves import Deal, Move, PlayCard
from .state import Phase, State

__all__ = ["move_text", "parse_move"]


def move_text(state: State, move: Move) -> str:
    if isinstance(move, PlayCard):
        return str(move.card)
    if isinstance(move, Deal):
        return deal_text(state.config.players, move.hands)
    raise TypeError(f"not a move of Kirk's game: {move!r}")


def parse_move(state: State, text: str) -> Move:
    found = words(text)
    if not found:
        raise refuse(text, None, "no move given", "deal lines" if state.phase is Phase.DEAL else "a card")
    if state.phase is Phase.DEAL or found[0].lower() == "deal":
        hands, _ = parse_deal(text, state.config.players)
        return Deal(hands)
    if len(found) > 1:
        raise refuse(text, found[1], "one card is one move", "one card")
    return PlayCard(card_of(text, found[0]))
