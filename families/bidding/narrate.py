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

from diamonds.core import AnyCard, Card, sort_cards
from diamonds.views.ask import Ask, NotAnAnswer, answer_words, grouped, one_of, pick

from .rules import BiddingConfig, events
from .rules.moves import Bid, FinalBid, Move, PlayCard, TakeFromKitty

__all__ = [
    "describe", "describe_won", "describe_take", "choice_suffix", "play_text", "choice_words", "why_text",
    "seat_result", "signed", "ask",
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


def ask(config: BiddingConfig, moves: Sequence[Move]) -> Ask:
    """`diamonds play`'s question for one seat's legal moves: a bid (B3) or a final bid (B5) by its number,
    the kitty card taken and then the point card laid by their names (B4), or a card to play, listed by
    suit with an ace's and the Joker's choices spelt out (B7: `AH+` high, `AH-` low, `JoS+`)."""
    first = moves[0]
    if isinstance(first, (Bid, FinalBid)):
        amounts = {str(move.amount): move for move in moves if isinstance(move, (Bid, FinalBid))}
        what = "bid (B3): how many tricks will you win" if isinstance(first, Bid) else "final bid (B5)"
        head = "bid" if isinstance(first, Bid) else "final"
        return Ask(f"Your {what}? {one_of(list(amounts))}", (one_of(list(amounts)),),
                   lambda text: pick(" ".join(answer_words(text, head)), amounts))
    if isinstance(first, TakeFromKitty):
        return _ask_take([move for move in moves if isinstance(move, TakeFromKitty)])
    plays = {str(move): move for move in moves if isinstance(move, PlayCard)}
    spelt = {f"{move.card}{choice_suffix_of(move)}": move for move in plays.values()}

    def answer(text: str) -> Move:
        try:
            return pick(text, spelt)
        except NotAnAnswer:
            return pick(text, plays)  # DGN's canonical form too: a bare ace is high (`AH`)

    return Ask("Your card?", grouped((_suit_group(move), word) for word, move in spelt.items()), answer)


def choice_suffix_of(move: PlayCard) -> str:
    """B7 on a move not yet played: `S+` for the Joker given Spades high, `-` for a low ace, `+` a high one."""
    if not isinstance(move.card, Card):
        return (move.suit.letter if move.suit is not None else "") + ("+" if move.high else "-")
    if move.high is None:
        return ""
    return "+" if move.high else "-"


def _suit_group(move: PlayCard) -> str:
    return move.card.suit.title if isinstance(move.card, Card) else "the Joker"


def _ask_take(takes: Sequence[TakeFromKitty]) -> Ask:
    """B4, two questions: the kitty card taken, then the card of the hand laid face down as point card."""
    kitty = {str(card): card for card in sort_cards({move.card for move in takes})}

    def point_card(taken: AnyCard) -> Ask:
        lays = {str(move.point): move for move in takes if move.card == taken}
        held = sort_cards(move.point for move in lays.values())
        return Ask(f"You take {taken}. Which card do you lay face down as your point card (B4)?",
                   grouped((card.suit.title if isinstance(card, Card) else "the Joker", str(card)) for card in held),
                   lambda text: pick(text, lays))

    def answer(text: str) -> Ask | Move:
        words = answer_words(text, "take")
        if len(words) == 3 and words[1].lower() == "point":  # the whole DGN move: take 9H point 7S
            words = [words[0], words[2]]
        taken = pick(words[0] if words else text, kitty)
        if len(words) == 2:
            return point_card(taken).answer(words[1])
        return point_card(taken)

    return Ask(f"Take a card from the kitty (B4): {one_of(list(kitty))}?", (one_of(list(kitty)),), answer)
