"""The bidding game's events in words: what a replay's log and a simulated game print.

Only presentation lives here: names come from the config, the facts (the
choices of a play, why a trick was won, what a hand scored) from the
engine's events. A play is written as DGN writes it, with its choice (B7):
`AH-` a low ace, `AH+` a high one (DGN's canonical form is plain `AH`; the
sign is spelt out on the screen so the choice is always seen), `JoS+` the
Joker given Spades and played high.
"""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core import AnyCard, Card

from .rules import BiddingConfig, events

__all__ = [
    "describe", "describe_won", "describe_take", "choice_suffix", "play_text", "choice_words", "why_text",
    "seat_result", "signed",
]

#: B8 in a few words: why the trick's winning card won.
WHY = {events.WinReason.HIGH_JOKER: "high Joker", events.WinReason.TRUMP: "trump", events.WinReason.LED_SUIT: "led suit"}


def why_text(why: events.WinReason) -> str:
    return WHY[why]


def signed(number: int) -> str:
    """`+12`, `-20`, `0`."""
    return f"{number:+d}" if number else "0"


def choice_suffix(play: events.CardPlayed) -> str:
    """B7: what follows the card's name: `S+` for the Joker given Spades high, `-` for a low ace, else nothing."""
    card = play.card
    if not isinstance(card, Card):
        return play.suit.letter + ("+" if play.high else "-")
    if play.high is None:
        return ""
    return "+" if play.high else "-"


def play_text(play: events.CardPlayed) -> str:
    """`9H`, `AH-`, `AH+`, `JoS+`."""
    return f"{play.card}{choice_suffix(play)}"


def choice_words(play: events.CardPlayed) -> str:
    """` (the Joker, Spades, high)`, ` (low)` for an ace, nothing for another card."""
    high = "high" if play.high else "low"
    if not isinstance(play.card, Card):
        return f" (the Joker, {play.suit.title}, {high})"
    if play.high is None:
        return ""
    return f" ({high})"


def _card_words(card: AnyCard) -> str:
    return str(card) if isinstance(card, Card) else "the Joker"


def describe_take(config: BiddingConfig, event: events.CardTaken, *, hidden: bool = False) -> str:
    """B4: `Cat takes 9H from the kitty and lays QS as point card`; `hidden`: the cards are not said."""
    name = config.players[event.seat]
    if hidden:
        return f"{name} takes a card from the kitty and lays a point card"
    if event.point == event.card:
        return f"{name} takes {event.card} from the kitty and lays it as point card"
    return f"{name} takes {event.card} from the kitty and lays {event.point} as point card"


def describe_won(config: BiddingConfig, event: events.TrickWon, play: events.CardPlayed | None = None) -> str:
    """`Cat wins trick 4 with JoS+ (high Joker)`; without the winning `play`, the card is named bare."""
    card = play_text(play) if play is not None else _card_words(event.card)
    return f"{config.players[event.winner]} wins trick {event.trick_no} with {card} ({why_text(event.why)})"


def seat_result(config: BiddingConfig, score: events.SeatScore) -> str:
    """B9: `Ann made 3 (+12, total 40)`, `Bob missed (-20, total -7)`."""
    name = config.players[score.seat]
    did = f"made {score.final_bid}" if score.made else "missed"
    return f"{name} {did} ({signed(score.points)}, total {score.total})"


def _hand_scored(config: BiddingConfig, seats: Sequence[events.SeatScore], hand_no: int) -> str:
    return f"Hand {hand_no} scored: " + ", ".join(seat_result(config, score) for score in seats)


def describe(config: BiddingConfig, event: events.Event) -> str:
    """One event as a sentence a player would say at the table."""
    names = config.players
    match event:
        case events.HandStarted(hand_no, dealer):
            leader = names[(dealer + 1) % config.player_count]
            return f"Hand {hand_no}: {names[dealer]} deals, {leader} bids first and leads"
        case events.CardsDealt(_, hands, kitty):
            size = len(hands[0]) if hands else 0
            return f"Cards are dealt, {size} to each player and {len(kitty)} to the kitty"
        case events.BidMade(seat, amount):
            return f"{names[seat]} bids {amount}"
        case events.CardTaken():
            return describe_take(config, event)
        case events.FinalBidMade(seat, amount, change):
            how = {1: "up 1", -1: "down 1"}.get(change, "kept")
            return f"{names[seat]}'s final bid: {amount} ({how})"
        case events.CardPlayed(seat, _, _, leads):
            return f"{names[seat]} {'leads' if leads else 'plays'} {play_text(event)}{choice_words(event)}"
        case events.TrickWon():
            return describe_won(config, event)
        case events.HandScored(hand_no, seats):
            return _hand_scored(config, seats, hand_no)
        case events.GameEnded(standings):
            text = ", ".join(f"{names[s.side]} {s.score}{' (wins)' if s.winner else ''}" for s in standings)
            return f"Game over: {text}"
    raise TypeError(f"not an event of three-handed bidding Diamonds: {event!r}")
