"""The house's parts for a plain trick game (diamonds.core.trick): its records replayed, its stops, its data.

A family that plays with the plain trick game's moves and announces its events names these as its parts
(`Family(parts={"bridge": "diamonds.replay.plain:BRIDGE", ...})`) instead of writing its own:

- `BRIDGE`: a record's rounds pushed as moves, each refusal at its token with the family's own rulings
  (`Rules.rulings`); the hands of a finished round written without deal lines are the cards each seat
  played, who played what following from the family's `first_leader` and `trick_winner`;
- `MARKS` and `build_steps`: the replay's stops, over a `TrickTable` folded from the events;
- `EXPORT` and `TABLES`: the game as plain data (with its JSON Schema part) and as rows of the analysis tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from diamonds.core import Card, IllegalMove, SideResult, rules_for, sort_cards
from diamonds.core.errors import CardNotHeld, CardNotInDeck
from diamonds.core.sampling import shown_voids, void_refusals
from diamonds.core.trick import CardPlayed, CardsDealt, Deal, GameEnded, RoundScored, RoundStarted, TrickWon
from diamonds.core.trick import rulings_of as trick_rulings
from diamonds.notation.records import HandLine, Play, Round

from .bridge import Bridge
from .export import Export
from .steps import marks_of, steps_builder
from .tables import FamilyRows, Tables, family_columns
from .validate import DealLines, Replayer, meant_card, names_text, whole_tricks

__all__ = ["PlainReplayer", "BRIDGE", "TrickTable", "TrickFold", "MARKS", "build_steps", "EXPORT", "TABLES"]


# --------------------------------------------------------------------------- the bridge


class PlainReplayer(Replayer):
    """A plain trick game's rounds: `R<k> dealer <id>`, a deal line per player (or some or none, once the round
    is finished: a missing hand is the cards its player played), and tricks of one card from each player from
    the leader; other games' items are refused. Everything it cites or says of the game comes from the rule
    set (`diamonds.core.trick`): its `rulings`, who played what (`trick_seats`, or `first_leader` and
    `trick_winner`), its pack in words (`pack_text`), why no round follows (`over_text`), and whether a stand-in
    deal may be drawn for a live table (`follows_suit`)."""

    def __init__(self, replayed: Any, **options: bool) -> None:
        super().__init__(replayed, **options)
        rules = self.game.rules
        self.rulings = trick_rulings(rules)
        self.plain_rules: Any = rules  # a plain trick game's: it says who leads first and who wins a trick
        # The base class reads these rulings and words as class data; a plain trick game states them on its rule set.
        vars(self).update(result_rule=self.rulings.score, length_rule=self.rulings.length,
                          trick_rule=self.rulings.tricks, dealer_rule=self.rulings.deal, round_word=rules.rounds_word)

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        rulings, config = self.rulings, self.config
        self.refuse_foreign_items(rnd, pass_count=False, hand_kinds=frozenset(("deal",)), calls=False, end=False,
                                  rule=rulings.items or rulings.tricks)
        self.refuse_every_mark(rnd, rulings.play)
        self.open_round(number, rnd, config.dealer_of_round(number))
        deals = self.lines_by_seat(rnd, "deal", rulings.deal)
        seats = range(len(config.players))
        if len(deals) == len(seats):
            return self.deal_and_play(number, rnd, tuple(deals[seat].cards.cards for seat in seats), last=last)
        # Some hands to infer: the deal lines written are checked on their own, then the tricks without hands.
        self.check_deal_lines(rnd, DealLines(frozenset(config.deck), self.pack_text(), config.hand_size, rulings.deal))
        played, complete = self.check_tricks_without_hands(number, rnd, deals, last=last)
        if not complete and self.stand_in and last:
            drawn = self.stand_in_deal(number, rnd, deals, played)
            if drawn is not None:
                return self.deal_and_play(number, rnd, drawn, last=last)
        if not complete:
            missing = [config.players[seat] for seat in seats if seat not in deals]
            what = "deal lines" if not deals else f"deal line for {names_text(missing)}"
            against = "the pack and each other" + (", and against the deal lines written" if deals else "")
            self.out.notes.append(f"{self.round_word} {number} is unfinished and has no {what}: its hands are "
                                  f"unknown, so its cards are checked only against {against}")
            return False
        hands = tuple(tuple(deals[seat].cards.cards) if seat in deals else sort_cards(played[seat]) for seat in seats)
        return self.deal_and_play(number, rnd, hands, last=last)

    def stand_in_deal(self, number: int, rnd: Round, deals: Mapping[int, HandLine],
                      played: Mapping[int, Sequence[Any]]) -> tuple[tuple[Any, ...], ...] | None:
        """A stand-in deal for the unfinished last round (`Replayer.stand_in_hands`): a seat holds its deal line,
        else the cards it played and others, never one of a suit it has shown void in where players follow
        suit. None where the rule set does not say whether they do (`follows_suit`)."""
        config = self.config
        follows = getattr(self.plain_rules, "follows_suit", None)
        if follows is None:
            return None
        seats = range(len(config.players))
        refuses: list[Any] = [None] * len(seats)
        if follows:
            plays: list[tuple[int, Any, Any]] = []  # each card with its seat and the suit led (None: it leads)
            for trick, trick_seats in zip(rnd.tricks, self.trick_seats(rnd, len(rnd.tricks))):
                cards = trick.plays.cards
                led = cards[0].suit if cards and isinstance(cards[0], Card) else None
                plays += [(seat, card, led if position else None)
                          for position, (seat, card) in enumerate(zip(trick_seats, cards))]
            refuses = void_refusals([frozenset() if seat in deals else out
                                     for seat, out in enumerate(shown_voids(plays, len(seats)))])
        known = [set(deals[seat].cards.cards) if seat in deals else set(played[seat]) for seat in seats]
        return self.stand_in_hands(number, known, [config.hand_size] * len(seats), refuses)

    def deal_and_play(self, number: int, rnd: Round, hands: tuple[tuple[Any, ...], ...], *, last: bool) -> bool:
        """Deal `hands` (a refused deal shown where the record shows the fault), then play the round's tricks:
        where no history is kept and the family's table plays a run of cards (`play_run`), the tricks written as
        expected in one run, and card by card from where it stopped (every refusal at its token)."""
        try:
            self.game.push(Deal(hands))
        except IllegalMove as error:
            self.deal_refused(error, rnd, self.hint(error))
        if self.history:
            self.out.origins.append(rnd)
        start = (0, 0) if self.game.history else self.play_written_tricks(rnd)
        return self.play_by_card(number, rnd, last=last, start=start)

    def play_written_tricks(self, rnd: Round) -> tuple[int, int]:
        """The check and export path: the tricks written as expected (numbered 1, 2, … each with its cards) go
        to the table's `play_run` in one run, which stops before a card it would refuse. Returns how many tricks
        are done and, if it stopped inside the next, at which card (0, 0 where the table plays no runs)."""
        table: Any = self.game.table
        play_run = getattr(table, "play_run", None)
        if play_run is None:
            return 0, 0
        per_trick = self.config.plays_per_trick
        tricks = rnd.tricks[: self.tricks_per_round()]
        count = whole_tricks(tricks, per_trick)
        cards = [card for trick in tricks[:count] for card in trick.plays.cards]
        card_move = table.card_move  # the move a card is (`PlayCard`), and the event each such move opens with
        played = self.game.note_run(lambda: play_run(cards, 0), lambda end: map(card_move, cards[:end]),
                                    table.played_event)
        return divmod(played, per_trick)

    def seats_and_leader(self, rnd: Round, dealer: int, count: int) -> tuple[list[tuple[int, ...]], int] | None:
        config, plain = self.config, self.plain_rules
        if hasattr(plain, "trick_seats"):
            found: tuple[list[tuple[int, ...]], int] = plain.trick_seats(
                config, dealer, [trick.plays.cards for trick in rnd.tricks[:count]])
            return found
        leader: int = plain.first_leader(config, dealer)
        seats: list[tuple[int, ...]] = []
        for trick in rnd.tricks[:count]:
            cards = trick.plays.cards
            seats.append(tuple((leader + position) % len(config.players) for position in range(len(cards))))
            if len(cards) == config.plays_per_trick:
                leader = plain.trick_winner(config, leader, cards)
        return seats, leader

    def playing(self, number: int) -> bool:
        game = self.game
        return not game.is_over and not game.rules.is_chance(game.state) and game.state.round_no == number

    def refused_play(self, error: IllegalMove, rnd: Round, index: int, position: int) -> None:
        """A card the engine refuses, at its token; one its player played before names where."""
        play = rnd.tricks[index - 1].plays[position]
        if isinstance(error, CardNotHeld) and error.seat is not None:
            self.played_before(rnd, index, position, error.seat)
        self.problem(play.pos, error.reason + self.hint(error), error.code, error.rule, play.length)

    @staticmethod
    def hint(error: IllegalMove) -> str:
        """What a card of no deck was probably meant to be (from the error's `card`), if anything."""
        return meant_card(error.card) if isinstance(error, CardNotInDeck) else ""

    def not_in_deck(self, play: Play, seat: int) -> None:
        """A card of no pack, where the hands are unknown: who cannot play it, and what was meant."""
        self.problem(play.pos, f"{self.config.players[seat]} cannot play {play.card}: it is not in the pack "
                     f"({self.pack_text()}){meant_card(play.card)}", "card-not-in-deck", self.rulings.deal,
                     play.length)

    def pack_text(self) -> str:
        """The pack in words, as the rule set says it (`pack_text`), else its size and the game's title."""
        say = getattr(self.plain_rules, "pack_text", None)
        if say is not None:
            text: str = say(self.config)
            return text
        return f"{self.plain_rules.title} is played with {len(self.config.deck)} cards"

    def over_text(self) -> str:
        say = getattr(self.plain_rules, "over_text", None)
        if say is None:
            return super().over_text()
        text: str = say(self.config, self.game.state, {tag.name: tag.value for tag in self.record.tags})
        return text

    def where_it_stops(self) -> str:
        return f"the game stops in {self.round_word} {self.game.state.round_no}"


BRIDGE = Bridge(replayer=PlainReplayer)  # its records are written by the generic replay.record.trick_game_record


# --------------------------------------------------------------------------- the replay's stops


@dataclass(frozen=True, slots=True)
class TrickTable:
    """What lies on a plain trick game's table at a replay stop (the house's picture and view draw it)."""

    config: Any
    round_no: int
    dealer: int
    trick_no: int
    trick: tuple[tuple[int, Card], ...]
    trick_winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    won: tuple[int, ...]  # per seat, the tricks won this round
    totals: tuple[int, ...]
    standings: tuple[SideResult, ...] = ()


class TrickFold:
    """The table, fed the events in order."""

    def __init__(self, config: Any) -> None:
        self.config = config
        seats = len(config.players)
        self.round_no, self.dealer, self.trick_no = 1, config.first_dealer, 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_winner: int | None = None
        self.hands: list[set[Card]] = [set() for _ in range(seats)]
        self.won, self.totals = [0] * seats, [0] * seats
        self.standings: tuple[SideResult, ...] = ()

    def apply(self, event: Any) -> None:
        if isinstance(event, RoundStarted):
            self.round_no, self.dealer, self.trick_no, self.trick, self.trick_winner = \
                event.round_no, event.dealer, 0, [], None
            self.won = [0] * len(self.won)
        elif isinstance(event, CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
        elif isinstance(event, CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.trick_no = [], None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            self.trick_winner = event.winner
            self.won[event.winner] += 1
        elif isinstance(event, RoundScored):
            self.totals = list(event.totals)
        elif isinstance(event, GameEnded):
            self.standings = event.standings

    def freeze(self) -> TrickTable:
        return TrickTable(self.config, self.round_no, self.dealer, self.trick_no, tuple(self.trick),
                          self.trick_winner, tuple(sort_cards(hand) for hand in self.hands), tuple(self.won),
                          tuple(self.totals), self.standings)


MARKS = marks_of(RoundStarted, CardPlayed, RoundScored)
build_steps = steps_builder(TrickFold, MARKS)


# --------------------------------------------------------------------------- the export and the tables


def config_dict(config: Any) -> dict[str, Any]:
    return {"first_dealer": config.players[config.first_dealer], "rounds": config.rounds}


def state_dict(state: Any) -> dict[str, Any]:
    rules, names = rules_for(state.config.rules), state.config.players
    phase = "game over" if rules.is_over(state) else "deal" if rules.is_chance(state) else "play"
    return {"phase": phase, "round": state.round_no,
            "hands": {name: [str(c) for c in rules.hand(state, seat)] for seat, name in enumerate(names)},
            "trick": [str(c) for _, c in state.trick], "totals": dict(zip(names, state.totals))}


def add_replay(rounds: list[dict[str, Any]], replayed: Any, compact: bool = False) -> None:
    names = replayed.config.players
    rnd: dict[str, Any] | None = None
    trick: dict[str, Any] = {}
    order = 0  # the card's place in its trick
    for events in replayed.game.events:
        for event in events:
            if isinstance(event, RoundStarted):
                rnd = rounds[event.round_no - 1]
            elif rnd is None:
                continue
            elif isinstance(event, CardsDealt):
                rnd["deals"] = {names[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands)}
            elif isinstance(event, CardPlayed):
                trick = rnd["tricks"][event.trick_no - 1]
                if event.leads:
                    trick["leader"] = names[event.seat]
                    order = 0
                if not compact:
                    trick["plays"][order]["player"] = names[event.seat]
                order += 1
            elif isinstance(event, TrickWon):
                trick.update(winner=names[event.winner], winning_card=str(event.card))
            elif isinstance(event, RoundScored):
                rnd["totals"] = dict(zip(names, event.totals))


_PER_PLAYER = {"type": "object", "additionalProperties": {"type": "integer"}}
_CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}}

EXPORT = Export(
    config_dict=config_dict,
    add_replay=add_replay,
    state_dict=state_dict,
    schema_defs={
        "config": {"type": "object", "required": ["rules", "first_dealer", "rounds"], "additionalProperties": False,
                   "properties": {"rules": {"type": "string"}, "first_dealer": {"$ref": "#/$defs/player"},
                                  "rounds": {"type": "integer", "minimum": 1}}},
        "round": {"properties": {"totals": {**_PER_PLAYER, "description": "a plain trick game: the totals after "
                                            "the round"}}},
        "state": {"type": "object", "additionalProperties": False,
                  "required": ["phase", "round", "hands", "trick", "totals"],
                  "properties": {"phase": {"enum": ["deal", "play", "game over"]}, "round": {"type": "integer"},
                                 "hands": {"type": "object", "additionalProperties": _CARDS}, "trick": _CARDS,
                                 "totals": _PER_PLAYER}},
    },
)


def rows(replayed: Any) -> FamilyRows:
    """A row per card played, per trick won and per seat at each round's scoring."""
    names = replayed.config.players
    plays, events = family_columns(TABLES)
    round_no = start = seq = 0
    led = ""
    for move_events in replayed.game.events:
        for event in move_events:
            if isinstance(event, RoundStarted):
                round_no = event.round_no
            elif isinstance(event, CardPlayed):
                suit = event.card.suit.value
                if event.leads:
                    start, led = plays.count, suit
                plays.add_play(round_no, event.trick_no, plays.count - start + 1, event.seat, names[event.seat],
                               event.card, suit, led, suit == led)
            elif isinstance(event, TrickWon):
                plays.mark_winner(start, event.card)
                seq += 1
                events.add({"seq": seq, "round": round_no, "trick": event.trick_no, "kind": "trick won",
                            "seat": event.winner + 1, "player": names[event.winner], "side": names[event.winner],
                            "card": str(event.card)})
            elif isinstance(event, RoundScored):
                for seat, (points, total) in enumerate(zip(event.points, event.totals)):
                    seq += 1
                    events.add({"seq": seq, "round": round_no, "trick": None, "kind": "round scored",
                                "seat": seat + 1, "player": names[seat], "side": names[seat], "points": points,
                                "total": total})
    return FamilyRows(plays, events, {})


TABLES = Tables(columns={}, standing_fields=(), rows=rows)
