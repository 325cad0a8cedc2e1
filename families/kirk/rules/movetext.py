"""Kirk's moves as words (`9H`, deal lines). Every card played is public, every hand private (K3, K4)."""

from __future__ import annotations

from diamonds.core.cards import AnyCard, Card
from diamonds.core.movetext import Word, deal_text, one_word, parse_deal, refuse, suited_card_of, words

from .config import KirkConfig
from .engine import deck_text
from .moves import Deal, Move, PlayCard
from .state import Phase, State

__all__ = ["move_text", "parse_move", "parse_card"]


def move_text(state: State, move: Move) -> str:
    if isinstance(move, PlayCard):
        return str(move.card)
    if isinstance(move, Deal):
        return deal_text(state.config.players, move.hands)
    raise TypeError(f"not a move of Kirk's game: {move!r}")


def parse_card(config: KirkConfig, text: str) -> Card:
    """A card word of Kirk's game (K2): the Joker is the bidding game's word, in no standard pack."""
    return _card(config, text, one_word(text))


def _card(config: KirkConfig, text: str, word: Word) -> Card:
    def refusal(card: AnyCard) -> str:
        return f"{card} is not in the pack ({deck_text(config)})"

    return suited_card_of(text, word, refusal=refusal, rule="K2")


def parse_move(state: State, text: str) -> Move:
    found = words(text)
    if not found:
        raise refuse(text, None, "no move given", "deal lines" if state.phase is Phase.DEAL else "a card")
    if state.phase is Phase.DEAL or found[0].lower() == "deal":
        hands, _ = parse_deal(text, state.config.players, card_of=lambda text, word: _card(state.config, text, word))
        return Deal(hands)
    if len(found) > 1:
        raise refuse(text, found[1], "one card is one move", "one card")
    return PlayCard(_card(state.config, text, found[0]))
