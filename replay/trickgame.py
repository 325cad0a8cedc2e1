"""The house's replay of a plain trick game's records (diamonds.core.trick): its `PlainReplayer` and `BRIDGE`.

A module of its own, apart from the rest of the house's parts for such a game (`diamonds.replay.plain`: stops,
export, tables), so that a family which replays its records here but keeps those parts of its own (Kirk's
game) imports only the replay: `validate` starts without the export's and the tables' modules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from diamonds.core import Card, IllegalMove, sort_cards
from diamonds.core.errors import CardNotHeld, CardNotInDeck
from diamonds.core.sampling import shown_voids, void_refusals
from diamonds.core.seating import names_text
from diamonds.core.trick import Deal, TrickRulings
from diamonds.core.trick import rulings_of as trick_rulings
from diamonds.notation.records import HandLine, Play, Round

from .bridge import Bridge
from .validate import DealLines, Replayer, Wording, meant_card, whole_tricks

__all__ = ["PlainReplayer", "BRIDGE"]

#: Each rule set's statements (`_stated`), read once a process, not once a game: they do not change.
_STATED: Final[dict[Any, tuple[TrickRulings, Wording]]] = {}


def _stated(rules: Any) -> tuple[TrickRulings, Wording]:
    """A plain trick game's rulings (`Rules.rulings`), and the replay's wording they give (what the base
    replayer's messages cite, and the game's word for a round), which a plain trick game states on its rule set."""
    found = _STATED.get(rules)
    if found is None:
        rulings = trick_rulings(rules)
        found = _STATED[rules] = (rulings, Wording(rulings.score, rulings.length, None, rulings.tricks, None,
                                                   rulings.deal, rules.rounds_word))
    return found


class PlainReplayer(Replayer):
    """A plain trick game's rounds: `R<k> dealer <id>`, a deal line per player (or some or none, once the round
    is finished: a missing hand is the cards its player played), and tricks of one card from each player from
    the leader; other games' items are refused. Everything it cites or says of the game comes from the rule
    set (`diamonds.core.trick`): its `rulings`, who played what (`trick_seats`, or `first_leader` and
    `trick_winner`), its pack in words (`pack_text`), why no round follows (`over_text`), and whether a stand-in
    deal may be drawn for a live table (`follows_suit`)."""

    def __init__(self, replayed: Any, *, history: bool = True, events: bool = True, stand_in: bool = False) -> None:
        super().__init__(replayed, history=history, events=events, stand_in=stand_in)
        self.plain_rules: Any = self.game.rules  # a plain trick game's: who leads first, who wins a trick, …
        self.rulings: TrickRulings = _stated(self.game.rules)[0]

    def stated_wording(self) -> Wording:
        """What the replay cites and says of the game, from the rule set's statements (`Rules.rulings`)."""
        return _stated(self.game.rules)[1]

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        rulings, config = self.rulings, self.config
        self.refuse_foreign_items(rnd, rulings.items or rulings.tricks)
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
            self.out.notes.append(f"{self.wording.round_word} {number} is unfinished and has no {what}: its hands are "
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
            for trick, seats_of_trick in zip(rnd.tricks, self.trick_seats(rnd, len(rnd.tricks))):
                cards = trick.plays.cards
                led = cards[0].suit if cards and isinstance(cards[0], Card) else None
                plays += [(seat, card, led if position else None)
                          for position, (seat, card) in enumerate(zip(seats_of_trick, cards))]
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
        if game.is_over:
            return False
        state = game.state  # a table's snapshot, made once
        return state.round_no == number and not game.rules.is_chance(state)

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
        return f"the game stops in {self.wording.round_word} {self.game.state.round_no}"


BRIDGE = Bridge(replayer=PlainReplayer)  # its records are written by the generic replay.record.trick_game_record
