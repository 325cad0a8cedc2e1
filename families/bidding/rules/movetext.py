"""The bidding game's moves as words (`bid 4`, `take 9H point 7S`, `final 5`, `AH-`, `JoS+`, deal lines)."""

from __future__ import annotations

from diamonds.core.cards import AnyCard, CardParseError, format_cards
from diamonds.core.movetext import Word, card_of, count_of, deal_text, one_word, parse_deal, refuse, seat_named, words

from .moves import Bid, Deal, FinalBid, Move, PlayCard, TakeFromKitty
from .state import BiddingState, Phase

__all__ = ["move_text", "parse_move", "parse_card"]


def move_text(state: BiddingState, move: Move) -> str:
    if isinstance(move, Deal):
        return deal_text(state.config.players, move.hands, "kitty " + format_cards(move.kitty))
    if isinstance(move, (Bid, TakeFromKitty, FinalBid)):  # the DGN line, naming its player: `bid Ann 4` (B3-B5)
        word, rest = str(move).split(" ", 1)
        return f"{word} {state.config.players[move.seat]} {rest}"
    if isinstance(move, PlayCard):
        return str(move)
    raise TypeError(f"not a move of the bidding game: {move!r}")


def parse_card(config: object, text: str) -> AnyCard:
    """A card word of the bidding game: every card word of DGN, the Joker too (the pack is B2's answer)."""
    return card_of(text, one_word(text))


def parse_move(state: BiddingState, text: str) -> Move:
    found = words(text)
    if not found:
        raise refuse(text, None, "no move given", "a card")
    head = found[0].lower()
    players = state.config.players
    if state.phase is Phase.DEAL or head == "deal":
        hands, extra = parse_deal(text, players, ("kitty",))
        return Deal(hands, extra.get("kitty", ()))
    seat = state.to_move if state.to_move is not None else 0
    rest = found[1:]
    named = bool(rest) and not rest[0].lstrip("+-")[:1].isdigit() and state.config.seat_of(rest[0]) is not None
    if head in ("bid", "final", "take") and named:
        seat = seat_named(text, rest[0], players)  # the DGN form names the player: bid Ann 4
        rest = rest[1:]
    if head in ("bid", "final"):
        if len(rest) != 1:
            raise refuse(text, rest[1] if len(rest) > 1 else found[0], f"{head} takes one number", f"{head} <0-10>")
        amount = count_of(text, rest[0], "a number of tricks, 0 to 10")
        return Bid(seat, amount) if head == "bid" else FinalBid(seat, amount)
    if head == "take":
        if len(rest) != 3 or rest[1].lower() != "point":
            raise refuse(text, found[0], "a take names the card taken and the point card", "take <card> point <card>")
        return TakeFromKitty(seat, card_of(text, rest[0]), card_of(text, rest[2]))
    if len(found) > 1:
        raise refuse(text, found[1], "one card is one move", "one card")
    return _play(text, found[0])


def _play(text: str, word: Word) -> PlayCard:
    try:
        return PlayCard.parse(word.rstrip("!?"))
    except CardParseError:
        raise refuse(text, word, f'"{word}" is not a card of a trick', "a card such as 9H, AH+, AH- or JoS+") from None
