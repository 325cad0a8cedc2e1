"""Kirk's events in words: what a replay's log and a simulated game print.

Only presentation lives here: names come from the config, the facts (values,
winners, the cards revealed in a tie) from the engine's events.
"""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core import Card, Suit, sort_cards
from diamonds.core.seating import names_text as seating_names
from diamonds.views.ask import Ask, grouped, pick

from .rules import KirkConfig, card_value, events, first_leader
from .rules.moves import Move, PlayCard

__all__ = ["describe", "describe_tie", "hand_title", "names_text", "worth", "tie_step_text", "tie_outcome_text",
           "ask"]


def hand_title(config: KirkConfig, hand_no: int) -> str:
    """K8: `Hand 2/4` in a game of a number of hands, `Hand 2 (to 200 points)` in a game to a target."""
    if config.hands is not None:
        return f"Hand {hand_no}/{config.hands}"
    return f"Hand {hand_no} (to {config.target} points)"


def names_text(config: KirkConfig, seats: Sequence[int]) -> str:
    """`Ann`, `Ann and Cat`, `Ann, Bob and Cat`."""
    return seating_names([config.players[seat] for seat in seats])


def worth(card: Card) -> str:
    """K3: a Diamond is worth one more than its rank; said where the card is named, as ` (worth 11)`."""
    return f" (worth {card_value(card)})" if card.suit is Suit.DIAMONDS else ""


def tie_step_text(config: KirkConfig, step: events.TieStep, *, last: bool, tied: Sequence[int] = ()) -> str:
    """One step of a tie-break: `depth 1 Ann 9H, Cat 4D`, with who dropped out unless the step ends it.

    The players are named in `tied`'s order (play order), those without a
    card at this depth among them.
    """
    names = config.players
    if not step.revealed:
        return f"depth {step.depth} no card left"
    shown = [(seat, f"{names[seat]} {card}") for seat, card in step.revealed]
    shown += [(seat, f"{names[seat]} no card") for seat in step.no_card]
    order = list(tied)
    shown.sort(key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    text = f"depth {step.depth} " + ", ".join(words for _, words in shown)
    if not last and step.dropped:
        text += f" ({names_text(config, step.dropped)} out)"
    return text


def tie_outcome_text(config: KirkConfig, tie: events.TieBroken) -> str:
    """Who wins the tied trick, and why when it is not by the cards revealed."""
    winner = config.players[tie.winner]
    if tie.decided_by is events.DecidedBy.FIRST_PLAYED:
        return f"{winner} played first and wins the trick"
    return f"{winner} wins the trick"


def describe_tie(config: KirkConfig, tie: events.TieBroken, value: int | None = None) -> str:
    """K5 in words: `Tie on 12 between Ann and Cat: depth 1 Ann 9H, Cat 4D → Ann wins the trick`.

    The event names the tied players, not the value they played; a caller
    that knows the trick (the replay's log) passes `value`.
    """
    tied = names_text(config, tie.tied)
    head = f"Tie on {value} between {tied}: " if value is not None else f"Tie between {tied}: "
    if tie.decided_by is events.DecidedBy.FIRST_PLAYED and tie.depth == 1:
        return head + f"no cards in their piles → {tie_outcome_text(config, tie)}"
    last = len(tie.steps) - 1
    parts = [tie_step_text(config, step, last=i == last, tied=tie.tied) for i, step in enumerate(tie.steps)]
    return head + "; ".join(parts) + f" → {tie_outcome_text(config, tie)}"


def describe(config: KirkConfig, event: events.Event) -> str:
    """One event as a sentence a player would say at the table."""
    names = config.players
    match event:
        case events.HandStarted(hand_no, dealer):
            leader = names[first_leader(config, dealer)]
            return f"{hand_title(config, hand_no)}: {names[dealer]} deals, {leader} leads"
        case events.CardsDealt(_, hands):
            size = len(hands[0]) if hands else 0
            return f"Cards are dealt, {size} to each player"
        case events.CardPlayed(seat, card, _, leads, _):
            return f"{names[seat]} {'leads' if leads else 'plays'} {card}{worth(card)}"
        case events.TieBroken():
            return describe_tie(config, event)
        case events.TrickWon(trick_no, winner, card, _, _, _, _):
            return f"{names[winner]} wins trick {trick_no} with {card}"
        case events.HandScored(hand_no, points, totals):
            scores = ", ".join(f"{name} {p}" for name, p in zip(names, points))
            sums = ", ".join(f"{name} {t}" for name, t in zip(names, totals))
            return f"Hand {hand_no} scored: {scores} (totals {sums})"
        case events.GameEnded(standings):
            text = ", ".join(f"{names[s.side]} {s.score}{' (wins)' if s.winner else ''}" for s in standings)
            return f"Game over: {text}"
    raise TypeError(f"not an event of Kirk's Diamonds: {event!r}")


def ask(config: KirkConfig, moves: Sequence[Move]) -> Ask:
    """`diamonds play`'s question: a card, listed by suit (any card may be played: K4), by its name."""
    cards = {str(move.card): move for move in moves if isinstance(move, PlayCard)}
    held = sort_cards(card for move in cards.values() if isinstance(card := move.card, Card))
    return Ask("Your card?", grouped((card.suit.title, str(card)) for card in held),
               lambda text: pick(text, cards))
