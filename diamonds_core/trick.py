"""A plain trick game as the house knows one: its moves, its events and its rulings, for a family to reuse.

A game that is dealt, then played a card at a time in tricks and scored at each round's end may play
with these moves and announce these events instead of declaring its own. The house then gives it what
every such game needs beyond its rules: the replay of its records (`diamonds.replay.plain`), its replay
stops, export and tables (the same module), its picture (`diamonds.svg.plain`) and its terminal view
(`diamonds.views.plain`), which the family names as its parts (tests/toyfamily does). Who may play what,
who wins a trick and what scores stay the family's own: its `Rules`, which also says

- `rulings`, a `TrickRulings`: the ids of its rulings by what each decides, cited by the house's replay
  and view;
- `first_leader(config, dealer)` and `trick_winner(config, leader, cards)`: who leads a round's first
  trick and who wins a trick, from the cards alone, so that the hands of a finished round written
  without deal lines follow from who played what; or, where a trick's winner rests on more than its
  cards (ties broken by the cards won before), `trick_seats(config, dealer, tricks)`, which says who
  played each card of a round's first tricks and who leads next;
- optionally `follows_suit` (True: a player who can follows the suit led, so a card of another suit
  shows a void; False: any card held may be played), which lets the replay draw a stand-in deal for an
  unfinished round written without deal lines (a live table: `diamonds record`, the club server);
  `pack_text(config)`, the pack in words for a card of no pack; and `over_text(config, state, tags)`,
  why no round follows once the game is over;

and whose configuration (a `Seating`) says `deck`, `hand_size`, `tricks_per_hand`, `plays_per_trick`
and `rounds`, and whose state says `round_no`, `dealer`, `trick` ((seat, card) in play order) and
`totals` (per seat, the rounds scored). Standard library and the rest of diamonds.core only.

The events made per card (`CardPlayed`, `TrickWon`) write their `__init__` out: compiled, they are native
(docs/build.md, the written `__init__`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import AnyCard, Card, format_cards, same_cards, sort_cards, spellings
from .family import CardPlayedEvent, CardsDealtEvent, Rules, SideResult, TrickWonEvent
from .movetext import card_of, deal_text, parse_deal, refuse, words

__all__ = [
    "Deal", "PlayCard", "RoundStarted", "CardsDealt", "CardPlayed", "TrickWon", "RoundScored", "GameEnded",
    "TrickRulings", "rulings_of", "move_text", "parse_move", "random_deal", "CARD_MOVES",
]


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True, eq=False)
class Deal:
    """The chance move: each seat's hand, in seat order."""

    hands: tuple[tuple[AnyCard, ...], ...]

    def __eq__(self, other: object) -> bool:
        """The same hands, each in any order: a hand is a set of cards, and its deal line's order is the
        writer's (`same_cards`)."""
        if not isinstance(other, Deal):
            return NotImplemented
        return len(self.hands) == len(other.hands) and all(map(same_cards, self.hands, other.hands))

    def __hash__(self) -> int:
        return hash(tuple([frozenset(hand) for hand in self.hands]))

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "deal"

    def __str__(self) -> str:
        return " / ".join(format_cards(hand) for hand in self.hands)


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: AnyCard

    @property
    def kind(self) -> str:
        """What the move is, to generic layers (`diamonds.core.family.move_kind`)."""
        return "card"

    def __str__(self) -> str:
        return str(self.card)


#: The one `PlayCard` of each card of any deck (cards are interned: a hundred or so), made once: a playout lists
#: a hand's moves at every decision, and a move is a value, so one object per card serves every game.
CARD_MOVES: dict[AnyCard, PlayCard] = {card: PlayCard(card) for card in spellings().values()}


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class RoundStarted:
    round_no: int
    dealer: int


@dataclass(frozen=True, slots=True)
class CardsDealt(CardsDealtEvent):
    round_no: int
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, init=False, slots=True)
class CardPlayed(CardPlayedEvent):
    seat: int
    card: Card
    trick_no: int
    leads: bool

    def __init__(self, seat: int, card: Card, trick_no: int, leads: bool) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "leads", leads)


@dataclass(frozen=True, init=False, slots=True)
class TrickWon(TrickWonEvent):
    trick_no: int
    winner: int
    card: Card
    cards: tuple[Card, ...]

    def __init__(self, trick_no: int, winner: int, card: Card, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class RoundScored:
    round_no: int
    points: tuple[int, ...]  # per seat, this round's
    totals: tuple[int, ...]  # per seat, after it


@dataclass(frozen=True, slots=True)
class GameEnded:
    standings: tuple[SideResult, ...]


# --------------------------------------------------------------------------- rulings, words and the deal


@dataclass(frozen=True, slots=True)
class TrickRulings:
    """A plain trick game's ruling ids by what each decides (its `Rules.rulings`): data, not code, so that
    the house's replay and view cite the game's own. Who is seated is `Rules.seats_rule`."""

    deal: str | None = None  # the pack, the deal and who deals (a second deal line, a wrong dealer)
    items: str | None = None  # what a round is made of, where not `tricks` (another game's items in it)
    tricks: str | None = None  # a round's tricks and a trick's cards (other games' items, a trick's shape)
    play: str | None = None  # which card may be played (other games' marks on a card)
    winner: str | None = None  # who wins a trick (the narration)
    score: str | None = None  # what a round scores (a wrong Result)
    length: str | None = None  # when the game ends (a round too many, an early Result)


def rulings_of(rules: type[Rules]) -> TrickRulings:
    """The rulings a plain trick game's rule set states (none known where it states none)."""
    found = getattr(rules, "rulings", None)
    return found if isinstance(found, TrickRulings) else TrickRulings()


def move_text(config: Any, move: Deal | PlayCard) -> str:
    """A move's DGN words: deal lines for a deal, else the card."""
    if isinstance(move, Deal):
        return deal_text(config.players, move.hands)
    return str(move.card)


def parse_move(config: Any, text: str, *, dealing: bool) -> Deal | PlayCard:
    """The move `text` means, as the reader reads it: deal lines (`dealing`: a deal is due), else one card."""
    found = words(text)
    if not found:
        raise refuse(text, None, "no move given", "deal lines" if dealing else "a card")
    if dealing or found[0].lower() == "deal":
        return Deal(parse_deal(text, config.players)[0])
    if len(found) > 1:
        raise refuse(text, found[1], "one card is one move", "one card")
    return PlayCard(card_of(text, found[0]))


def random_deal(config: Any, rng: random.Random) -> Deal:
    """The deck shuffled and dealt `hand_size` cards a seat, in seat order."""
    pack = list(config.deck)
    rng.shuffle(pack)
    size = config.hand_size
    return Deal(tuple(sort_cards(pack[seat * size:(seat + 1) * size]) for seat in range(len(config.players))))
