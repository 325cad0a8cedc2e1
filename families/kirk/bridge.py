"""Kirk's bridge: the hands of a `kirk` record turned into the engine's moves.

A hand is `R<k> dealer <id>` (no pass count), up to four deal lines of 13
cards, and tricks `1.` to `13.` of four cards each, from the leader. Nothing
else of DGN belongs here (pass counts and lines, kitty, bids, `end`, `>id`,
`+`/`-`): each is an error at its token.

Who played each card follows from the cards alone: the dealer's left
neighbour leads trick 1 (K4), and each trick's winner, ties included (K5),
is found from the cards already won this hand (K6). So:

* With all four deal lines, the engine replays the hand card by card and
  every refusal is shown at its token (located from the error's data fields).
* A complete hand (13 tricks of 4 cards) with deal lines missing: each
  missing hand is the 13 cards its player played. The written deal lines
  are checked on their own first (13 cards of the pack, none twice), then
  every card played against them, in the order written: a player with a
  deal line plays only cards of it; a player without one plays no card of
  another's deal line. Then the engine replays the hand.
* An unfinished hand (the record's last) with deal lines missing: its hands
  are unknown, so it is checked as far as it can be without them (the same
  checks: the pack, cards twice, trick numbers and sizes, the deal lines
  written), a note says so, and the replay stops before it; or, where the
  replay is asked for a live table (`stand_in`), it is played on a stand-in
  deal drawn to fit those cards.

A hand that ends short (a trick missing at its end) is reported at its
header; a trick missing in the middle at the next trick's number. In the
record's last hand, tricks missing at the end mean the game is unfinished.
"""

from __future__ import annotations

from diamonds.core import Card, IllegalMove
from diamonds.core.errors import CardNotHeld, CardNotInDeck
from diamonds.notation.records import Play, Round
from diamonds.replay.bridge import Bridge
from diamonds.replay.validate import DealLines, Replayer, meant_card, names_text, whole_tricks

from .record import record_from_game
from .rules import CardPlayed, Deal, KirkConfig, Phase, PlayCard, State, first_leader, trick_winner
from .rules.fast import KirkTable

__all__ = ["BRIDGE", "KirkReplayer"]

#: What the pack is, for messages about a card of no deck (K2); in the engine's words.
PACK_TEXT = "Kirk's Diamonds uses the standard 52-card pack, 2-10, J, Q, K, A of each suit"




class KirkReplayer(Replayer):
    """Replays the hands of a Kirk record (K1-K8); see the module's docstring for what is inferred."""

    result_rule = "K7"
    length_rule = "K8"
    round_word = "hand"
    trick_rule = "K4"
    dealer_rule = "K2"
    config: KirkConfig

    @property
    def state(self) -> State:
        state = self.game.state
        assert isinstance(state, State)
        return state

    def where_it_stops(self) -> str:
        return f"the game stops in hand {self.game.state.round_no}"


    # ---------------------------------------------------------------- a hand

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Replay one hand; False when the replay stops here (an unfinished last hand)."""
        config = self.config
        self.check_notation(rnd)
        self.open_round(number, rnd, self.state.dealer)
        deals = self.lines_by_seat(rnd, "deal", "K2")
        n = config.player_count
        if len(deals) == n:
            self.push_deal(rnd, tuple(deals[seat].cards.cards for seat in range(n)))
            return self.play_tricks(number, rnd, last=last)
        self.check_deal_lines(rnd, self.deal_lines())  # the other hands are still to be inferred
        played, complete = self.check_tricks_without_hands(number, rnd, deals, last=last)
        if not complete and self.stand_in and last:
            # A stand-in deal (`Replayer.stand_in_hands`): a seat holds its deal line, else the cards it played
            # and any others; any card held may be played (K4), so no suit is barred from a hand.
            known = [set(deals[seat].cards.cards) if seat in deals else set(played[seat]) for seat in range(n)]
            drawn = self.stand_in_hands(number, known, [config.hand_size] * n, [None] * n)
            if drawn is not None:
                self.push_deal(rnd, drawn)
                return self.play_tricks(number, rnd, last=last)
        if not complete:
            missing = [config.players[seat] for seat in range(n) if seat not in deals]
            what = "deal lines" if not deals else f"deal line for {names_text(missing)}"
            against = "the pack and each other" + (", and against the deal lines written" if deals else "")
            self.out.notes.append(f"hand {number} is unfinished and has no {what}: its hands are unknown, "
                                  f"so its cards are checked only against {against}")
            return False
        dealt = tuple(deals[seat].cards.cards if seat in deals else tuple(played[seat]) for seat in range(n))
        self.push_deal(rnd, dealt)
        return self.play_tricks(number, rnd, last=last)

    def over_text(self) -> str:
        """Why no hand follows (K8)."""
        config, state = self.config, self.state
        if config.target is not None:
            reached = [config.players[seat] for seat, total in enumerate(state.totals) if total >= config.target]
            return (f"the game is over: {names_text(reached)} reached the target of {config.target} in hand "
                    f"{state.hand_no}, so no hand follows")
        hands = config.hands
        why = ("as the Hands tag says" if self.record.tag("Hands") is not None else
               f"without a Hands or Target tag, the game lasts {hands} hands")
        return f"the game is over after {hands} hand{'s' if hands != 1 else ''} ({why})"

    def check_notation(self, rnd: Round) -> None:
        """Items and marks of the other games' notation are errors here (DGN), at their tokens: K2 says
        what a hand is (a deal, nothing passed), K3 that a card's value is fixed (no victims, no high or
        low). Cards of no deck (`11D`, `Jo`) are refused where they are dealt or played."""
        self.refuse_foreign_items(rnd, pass_count=False, hand_kinds=frozenset(("deal",)), calls=False, end=False,
                                  rule="K2")
        self.refuse_every_mark(rnd, "K3")

    # ---------------------------------------------------------------- deal lines

    def deal_lines(self) -> DealLines:
        """What Kirk's deal lines are checked against on their own (K2): 13 cards of the pack each."""
        config = self.config
        return DealLines(frozenset(config.deck), PACK_TEXT, config.hand_size, "K2")

    def push_deal(self, rnd: Round, dealt: tuple[tuple[object, ...], ...]) -> None:
        """Deal; a refused deal is shown where the record shows the fault (`deal_refused`, K2)."""
        try:
            self.game.push(Deal(dealt))  # type: ignore[arg-type]
        except IllegalMove as error:
            self.deal_refused(error, rnd, self.hint(error))
        if self.history:
            self.out.origins.append(rnd)

    # ---------------------------------------------------------------- checks without the hands

    def not_in_deck(self, play: Play, seat: int) -> None:
        """A card of no pack (K2), where the hands are unknown: who cannot play it, and what was meant."""
        self.problem(play.pos, f"{self.config.players[seat]} cannot play {play.card}: it is not in the pack "
                     f"({PACK_TEXT}){meant_card(play.card)}", "card-not-in-deck", "K2", play.length)

    # ---------------------------------------------------------------- tricks through the engine

    def play_tricks(self, number: int, rnd: Round, *, last: bool) -> bool:
        """The hand's tricks through the engine: the written ones in one run where no history is kept
        (`play_written_tricks`), the rest card by card; False when the hand is unfinished."""
        start = (0, 0) if self.game.history else self.play_written_tricks(rnd)
        return self.play_by_card(number, rnd, last=last, start=start)

    def playing(self, number: int) -> bool:
        state = self.state
        return state.phase is Phase.PLAY and state.hand_no == number

    def play_written_tricks(self, rnd: Round) -> tuple[int, int]:
        """The check and export path: the tricks written as expected (numbered 1, 2, … each with its four
        cards) go to the table in one run (`KirkTable.play_run`), which stops before a card it would refuse.
        Returns how many tricks are done and, if it stopped inside the next, at which card; the
        card-by-card loop goes on from there and reports the refusal at its token."""
        table = self.game.table
        if not isinstance(table, KirkTable):
            return 0, 0
        per_trick = self.config.plays_per_trick
        tricks = rnd.tricks[: self.config.tricks_per_hand]
        count = whole_tricks(tricks, per_trick)
        cards = [card for trick in tricks[:count] for card in trick.plays.cards]
        played = self.game.note_run(lambda: table.play_run(cards, 0), lambda end: map(PlayCard, cards[:end]),
                                    CardPlayed)
        return divmod(played, per_trick)

    def refused_play(self, error: IllegalMove, rnd: Round, index: int, position: int) -> None:
        """A card the engine refuses, at its token; one played before names where (K4)."""
        play = rnd.tricks[index - 1].plays[position]
        if isinstance(error, CardNotHeld) and error.seat is not None:
            self.played_before(rnd, index, position, error.seat)
        self.problem(play.pos, error.reason + self.hint(error), error.code, error.rule, play.length)

    @staticmethod
    def hint(error: IllegalMove) -> str:
        """What a card of no deck was probably meant to be (from the error's `card`), if anything."""
        return meant_card(error.card) if isinstance(error, CardNotInDeck) else ""

    def seats_by_trick(self, rnd: Round, dealer: int, count: int) -> list[tuple[int, ...]]:
        """Who played each card of the first `count` tricks: the leaders follow from the cards (K4-K6)."""
        return self.seats_and_leader(rnd, dealer, count)[0]

    def seats_and_leader(self, rnd: Round, dealer: int, count: int) -> tuple[list[tuple[int, ...]], int]:
        """`seats_by_trick`, and who leads next: the winner of the last complete one of those tricks (K5)."""
        config = self.config
        n = config.player_count
        leader = first_leader(config, dealer)
        piles: list[list[Card]] = [[] for _ in range(n)]
        out = []
        for trick in rnd.tricks[:count]:
            cards = trick.plays.cards[: config.plays_per_trick]
            seats = tuple((leader + i) % n for i in range(len(cards)))
            out.append(seats)
            if len(cards) == config.plays_per_trick:
                leader, _ = trick_winner(tuple(zip(seats, cards)), piles)  # type: ignore[arg-type]
                piles[leader].extend(cards)  # type: ignore[arg-type]
        return out, leader



BRIDGE = Bridge(replayer=KirkReplayer, record_from_game=record_from_game)
