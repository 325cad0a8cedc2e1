"""Fitzgerald's moves as words (`9H`, `>Cat`, `pass 2`, `pass Ann 9D 12H`, deal lines): the record's words.

The Clubs victim (R13, R14) is its own decision, `>Cat` (or `>-` for none where
naming one is optional), because the player who chooses it may not be the
one who played the card; DGN writes it on the card (`12C>Cat`): `split_text` reads
that one item as the two moves, and `refuse_part` refuses the victim when none is due.
"""

from __future__ import annotations

from typing import Final

from diamonds.core.cards import AnyCard, Card, card_text, format_cards, sort_cards, spellings
from diamonds.core.errors import NotationError
from diamonds.core.movetext import (
    Word,
    count_of,
    deal_text,
    one_word,
    parse_deal,
    refuse,
    seat_named,
    suited_card_of,
    words,
)

from .config import GameConfig
from .engine import legal_moves
from .moves import ChoosePassCount, ChooseVictim, Deal, Move, PassCards, PlayCard
from .state import Phase, State

__all__ = ["move_text", "parse_move", "parse_card", "split_text", "refuse_part", "not_in_deck_text"]


def move_text(state: State, move: Move) -> str:
    players = state.config.players
    if isinstance(move, PlayCard):
        return str(move.card)
    if isinstance(move, ChooseVictim):
        return ">-" if move.victim is None else f">{players[move.victim]}"
    if isinstance(move, ChoosePassCount):
        return f"pass {move.count}"
    if isinstance(move, PassCards):  # the DGN line, naming its player: `pass Ann 9D 12H` (R6)
        return f"pass {players[move.seat]} " + format_cards(sort_cards(move.cards))  # as the record writes it
    if isinstance(move, Deal):
        return deal_text(players, move.hands)
    raise TypeError(f"not a move of Fitzgerald's game: {move!r}")


def parse_card(config: GameConfig, text: str) -> Card:
    """A card word of Fitzgerald's games (R5): the Joker is the bidding game's word, in no Fitzgerald deck."""
    return _card(config, text, one_word(text))


def not_in_deck_text(config: GameConfig, card: AnyCard) -> str:
    """R5, in one wording wherever a card of no deck of this game is refused (a word read, a card written)."""
    return f"{card} is not in this game's deck (ranks 1-{max(each.rank for each in config.deck)})"


def _card(config: GameConfig, text: str, word: Word) -> Card:
    return suited_card_of(text, word, refusal=lambda card: not_in_deck_text(config, card), rule="R5",
                          game=config.rules)


def parse_move(state: State, text: str) -> Move:
    passed = _pass_line(state, text)
    if passed is not None:
        return passed
    found = words(text)
    if not found:
        raise refuse(text, None, "no move given", _expected(state))
    first = found[0]
    players = state.config.players
    if state.phase is Phase.DEAL or first.lower() == "deal":
        hands, _ = parse_deal(text, players, card_of=lambda text, word: _card(state.config, text, word))
        return Deal(hands)  # a card of no Fitzgerald deck (the Joker) is the rules' refusal (R5)
    if first.startswith(">"):
        if len(found) > 1:
            raise refuse(text, found[1], "a victim is one word", ">id")
        if first == ">-":
            return ChooseVictim(None)
        return ChooseVictim(seat_named(text, first, players))
    if first.lower() == "pass":
        rest = found[1:]
        if len(rest) == 1 and rest[0].lstrip("+-").isdigit():  # (count_of says why a count is no count)
            return ChoosePassCount(count_of(text, rest[0], "a pass count 1, 2 or 3"))
        # The DGN form names the player (`pass Ann 9D 12H`), as `move_text` writes it. A player's id may be
        # spelt like a card (`AH`, `Jo` are ids), so a word that names a player is the player.
        if rest and (state.config.seat_of(rest[0]) is not None
                     or (rest[0].lstrip(">").isidentifier() and not _is_card(rest[0]))):
            seat = seat_named(text, rest[0], players)
            rest = rest[1:]
        else:  # the short form: the player to move passes
            to_move = state.to_move
            seat = to_move if to_move is not None else 0
        config = state.config
        return PassCards(seat, tuple([_card(config, text, w) for w in rest]))
    if len(found) > 1:
        raise refuse(text, found[1], "one card is one move (a Clubs victim is the next move: >id)", "one card")
    if ">" in first:
        raise refuse(text, first, "the card and the Clubs victim are two moves", "the card, then >id")
    return PlayCard(_card(state.config, text, first))


def _pass_line(state: State, text: str) -> PassCards | None:
    """A pass line as DGN writes it (`pass Ann 9D 12H`, R6), read without words' columns; None for anything
    else, and for any doubt (an annotation, a word that is no card of this game), which the full reading below
    then reads or refuses at its column. A replay reads one such line per player per round."""
    parts = text.split()
    if len(parts) < 3 or parts[0].lower() != "pass":
        return None
    seat = state.config.seat_of(parts[1])
    if seat is None:
        return None
    suited = _SUITED_CARD_OF
    cards = []
    for part in parts[2:]:
        card = suited.get(part)
        if card is None:
            return None
        cards.append(card)
    return PassCards(seat, tuple(cards))


#: Every spelling of a suited card (the Joker is no Fitzgerald card, R5): `_pass_line` looks each word up once.
_SUITED_CARD_OF: Final[dict[str, Card]] = {word: card for word, card in spellings().items() if isinstance(card, Card)}


def split_text(state: State, text: str) -> tuple[str, ...]:
    """A card with its Clubs victim written on it, one word as DGN writes it (`12C>Cat`, R14), is two moves:
    the card, then the victim (`>Cat`). Anything else is one move."""
    stripped = text.strip()
    card, arrow, victim = stripped.partition(">")
    if arrow and card and " " not in stripped:
        return (card, arrow + victim)
    return (text,)


def refuse_part(state: State, text: str, parts: tuple[str, ...], index: int) -> NotationError | None:
    """R14: the victim written on a card is named only where the card's Clubs action asks for one right after
    it (an off-suit Club, a trick's last card when a Club won it); else the card goes alone, and the victim
    when it is due. Refused at the `>`, as the old `Position.push_text` did."""
    if state.phase is Phase.CHOOSE_VICTIM and any(isinstance(move, ChooseVictim) for move in legal_moves(state)):
        return None
    card, victim = parts[index - 1], parts[index].removeprefix(">")
    column = len(text) - len(text.lstrip()) + len(card) + 1
    return NotationError(f"no victim is chosen right after {card}: push the card, and the victim >{victim} when "
                         "it is due (after the trick, for the winner's Clubs action)", text=text, column=column,
                         expected="the card alone", rule="R14")


def _is_card(word: str) -> bool:
    return card_text(word) is not None


def _expected(state: State) -> str:
    return {Phase.DEAL: "deal lines", Phase.PASS_COUNT: "pass <n>", Phase.PASSING: "pass <cards>",
            Phase.CHOOSE_VICTIM: ">id"}.get(state.phase, "a card")
