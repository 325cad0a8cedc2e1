"""Fitzgerald's bridge: the rounds of a `1e`, `2e` or `bga` record turned into the engine's moves.

It infers missing deals and passes of complete rounds (DGN), feeds the Clubs
victims the record names while the engine waits for them (R14), and keeps the
family's fast check path: the tricks written as expected go to the engine in
one run (`play_cards`), and the card-by-card loop only takes over to report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from diamonds.core import AnyCard, Card, IllegalMove, Suit
from diamonds.core.sampling import shown_voids, void_refusals
from diamonds.notation.records import Choice, HandLine, Play, Plays, Round
from diamonds.replay.bridge import Bridge
from diamonds.replay.validate import ReplayedGame, Replayer, Stop, whole_tricks

from .record import record_from_game
from .rules import (
    PASS_COUNTS,
    CardNotHeld,
    ChooseVictim,
    Deal,
    Event,
    GameConfig,
    PassCards,
    Phase,
    Reason,
    Table,
    first_leader,
    play_cards,
    trick_seats,
    trick_winner,
)
from .rules.movetext import not_in_deck_text

__all__ = ["BRIDGE", "FitzgeraldReplayer"]


def engine_cards(cards: Sequence[AnyCard]) -> tuple[Card, ...]:
    """A record's cards as the engine takes them. Nothing is filtered: a card of no Fitzgerald deck
    (`JD`, `Jo`) is refused by the engine itself (R5), in the deal or as a card no hand holds.
    On the check path's hot lines the record's cards are handed over as they are, without this
    call, with a `type: ignore` that points here."""
    return cast("tuple[Card, ...]", cards if type(cards) is tuple else tuple(cards))


class FitzgeraldReplayer(Replayer):
    result_rule = "R18"
    length_rule = "R4"
    dealer_rule = "R4"
    sides_rule = "R2"
    trick_rule = "R8"  # a trick: one card from each player
    round_rule = "R11"  # a round: as many tricks as it has
    config: GameConfig

    def where_it_stops(self) -> str:
        return f"the game stops in round {self.table.round_no} of {self.config.rounds}"

    def __init__(self, replayed: ReplayedGame, *, history: bool = True, events: bool = True,
                 stand_in: bool = False) -> None:
        super().__init__(replayed, history=history, events=events, stand_in=stand_in)
        self.table: Table = self.game.table  # type: ignore[assignment]  # Fitzgerald.table makes a Table
        self.passing_state: Any = None  # the state pass lines are read in (`do_passes`)
        self.victim_left_due = False  # the record ends at a card whose victim is still due (`leave_victim_due`)
        self.victims_named: set[int] = set()  # the cards of the trick being played whose `>id` named a victim

    def resume_from(self, state: Any) -> None:
        super().resume_from(state)
        self.table = self.game.table  # type: ignore[assignment]  # the table this bridge keeps at hand

    def choose(self, origin: Play | Round, choice: Choice | None) -> tuple[Event, ...]:
        if choice is None:
            pos = origin.pos if isinstance(origin, Play) else origin.header.pos
            length = getattr(origin, "length", 2)
            return self.push(self.read_move(">-", pos, length), origin, pos, length)
        seat = self.seat(choice.player, choice.pos, "victim")
        length = len(choice.player) + 1
        return self.push(self.read_move(f">{self.config.players[seat]}", choice.pos, length), choice, choice.pos, length)

    # ---------------------------------------------------------------- rounds

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Replay one round; False when the replay stops here (unfinished)."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        header = rnd.header
        self.check_notation(rnd, last=last)
        self.open_round(number, rnd, self.table.dealer)
        dealer = self.table.dealer
        for play in (card for line in rnd.hand_lines if not line.cards.plain for card in line.cards):
            self.refuse_marks(play, choice=True, sign=False, rule="R5")  # `AH-`, `JoS+`: another game's marks
            if play.choice is not None:
                self.problem(play.choice.pos, "a >id choice stands only on a card played in a trick, "
                             "not in a deal or pass line", "choice-not-allowed", "R14", len(play.choice.player) + 1)
        deals, passes = self.deal_and_pass_lines(rnd)
        written = len(deals) == len(passes) == config.player_count
        # Who played what is needed only to infer a missing deal or pass line.
        seats_of_plays = (self.seats_of_plays(rnd, dealer) if not written and self.round_is_complete(rnd)
                          else None)
        dealt = self.deal_for(number, rnd, deals, passes, seats_of_plays)
        if dealt is None:  # unfinished, and its hands unknown: the replay cannot go past it
            for trick in rnd.tricks:  # but another game's marks need no hands to be refused (R5)
                if not trick.plays.plain:
                    for play in trick.plays:
                        self.refuse_marks(play, choice=True, sign=False, rule="R5")
            if not last:  # so a round after it would go unchecked (R11: every round has all its tricks)
                self.problem(header.pos, f"round {number} has {len(rnd.tricks)} trick"
                             f"{'s' if len(rnd.tricks) != 1 else ''}; it needs {config.tricks_per_round}",
                             "round-too-short", "R11", len(f"R{number}"))
            return self.round_unfinished(rnd)  # an `end` line in it stands too early, hands or none (R11)
        self.push_deal(dealt, rnd)
        if header.pass_count is None:  # check_notation: the last round, stopped before the dealer's count (R6)
            self.out.notes.append(f"round {number} is unfinished: the dealer's pass count is still due (R6)")
            return False
        length = len(str(header.pass_count))
        self.push(self.read_move(f"pass {header.pass_count}", header.count_pos, length), rnd, header.count_pos, length)
        if not self.do_passes(number, rnd, deals, passes, dealt, seats_of_plays, header):
            return False
        return self.play_tricks(number, rnd, last=last)

    def over_text(self) -> str:
        return f"the game is over: {self.config.player_count} players play {self.config.rounds} rounds"

    def check_notation(self, rnd: Round, *, last: bool = False) -> None:
        """Items and marks of the other games' notation are errors here (DGN), at their tokens.

        Cards of no Fitzgerald deck (`JD`, `Jo`) need no look here: the deal refuses them, and a
        trick's card that is in no hand is reported by `refused_play`. Marks on cards (`AH-`) are
        refused where lines and tricks with marks are looked at anyway (play_round, check_choices_used), and
        in an unfinished round whose hands are unknown, which is not replayed."""
        self.refuse_foreign_items(rnd, "R6", last=last)

    def not_in_deck(self, play: Play, seat: int | None = None) -> None:
        """A card of no deck of this game (R5), wherever it is written (a trick, a pass line)."""
        if play.card not in self.config.deck:
            self.problem(play.pos, not_in_deck_text(self.config, play.card), "invalid-deal", "R5", play.length)

    def deal_and_pass_lines(self, rnd: Round) -> tuple[dict[int, HandLine], dict[int, HandLine]]:
        """`lines_by_seat` of the deal lines and of the pass lines, in one look where each names a player
        exactly as the Players tag does and no seat has two of a kind (else `lines_by_seat` reports)."""
        deals: dict[int, HandLine] = {}
        passes: dict[int, HandLine] = {}
        seats = self.seats
        for line in rnd.hand_lines:
            kind = line.kind
            found = deals if kind == "deal" else passes if kind == "pass" else None
            if found is None:
                continue
            seat = seats.get(line.player)
            if seat is None or seat in found:
                break
            found[seat] = line
        else:
            return deals, passes
        return self.lines_by_seat(rnd, "deal", "R5"), self.lines_by_seat(rnd, "pass", "R6")

    def round_is_complete(self, rnd: Round) -> bool:
        config = self.config
        assert config is not None
        return len(rnd.tricks) == config.tricks_per_round and all(
            len(t.plays.cards) == config.plays_per_trick for t in rnd.tricks
        )

    def seats_of_plays(self, rnd: Round, dealer: int) -> dict[int, list[AnyCard]]:
        """Who played what in a complete round: the leaders follow from the cards alone (R7, R8, R10)."""
        config = self.config
        assert config is not None
        played: dict[int, list[AnyCard]] = {seat: [] for seat in range(config.player_count)}
        for trick, seats in zip(rnd.tricks, self.seats_by_trick(rnd, dealer, len(rnd.tricks))):
            for seat, card in zip(seats, trick.plays.cards):
                played[seat].append(card)
        return played

    def deal_for(self, number: int, rnd: Round, deals: dict[int, HandLine], passes: dict[int, HandLine],
                 played: dict[int, list[AnyCard]] | None) -> tuple[tuple[Card, ...], ...] | None:
        """The cards dealt to each seat: written, or inferred from passes and plays (DGN.md)."""
        config = self.config
        assert config is not None
        n = config.player_count
        if len(deals) == n:
            return tuple(deals[seat].cards.cards for seat in range(n))  # type: ignore[misc]  # see engine_cards
        hands: list[tuple[Card, ...]] = []
        source = {config.pass_target(seat): seat for seat in range(n)}
        inferring = False
        for seat in range(n):
            if seat in deals:
                hands.append(deals[seat].cards.cards)  # type: ignore[arg-type]  # see engine_cards
                continue
            if played is None:
                self.check_without_hands(number, rnd)
                if self.stand_in and rnd is self.record.rounds[-1]:
                    drawn = self.draw_stand_in(number, rnd, deals, passes)
                    if drawn is not None:
                        return drawn
                self.out.notes.append(
                    f"round {number} is unfinished and has no deal line for {config.players[seat]}: "
                    "its hands are unknown, so its cards are checked only against each other"
                )
                return None
            if not inferring:
                self.check_inference_inputs(number, rnd)
                inferring = True
            giver = source[seat]
            missing = self.pass_line_missing(number, seat, passes)
            if missing is not None:
                self.problem(rnd.header.pos, missing, "missing-deal", "R6", len(f"R{number}"))
            received = set(passes[giver].cards.cards)
            given = list(passes[seat].cards.cards)
            hands.append(engine_cards([c for c in played[seat] if c not in received] + given))
        return tuple(hands)

    def draw_stand_in(self, number: int, rnd: Round, deals: dict[int, HandLine],
                      passes: dict[int, HandLine]) -> tuple[tuple[Card, ...], ...] | None:
        """The round's stand-in deal (`Replayer.stand_in_hands`): each seat holds what its deal line says, else
        what it passed (R6) and what it played that was not passed to it, and no card of a suit it did not
        follow (R8). None while a pass line is missing under written tricks: who was passed which card
        played is unknown then.

        A card the pass lines give to one seat and another seat passes or plays too would be drawn twice;
        it is refused at the later token in the pass's words (`refuse_passed_card`), not the deal's."""
        config = self.config
        n = config.player_count
        if rnd.tricks:
            # Pass lines come before the first trick (DGN), and a round without its deal lines is inferred from
            # them: one still missing under written tricks can never come, so the round could never be checked
            # when complete. The recorder refuses its first card, where it would otherwise take every card up
            # to the round's last and refuse that one (R6).
            for step in range(1, n + 1):  # from the dealer's left, the order in which the recorder asks for them
                seat = (self.table.dealer + step) % n
                missing = None if seat in deals else self.pass_line_missing(number, seat, passes)
                if missing is not None:
                    first = rnd.tricks[0].plays
                    where = first[0] if first else rnd.tricks[0]
                    self.problem(where.pos, f"{missing}; pass lines come before a round's first trick",
                                 "missing-deal", "R6", getattr(where, "length", 1))
        known: list[set[AnyCard]] = [set() for _ in range(n)]
        received: list[set[AnyCard]] = [set() for _ in range(n)]
        passer: dict[AnyCard, int] = {}
        for seat, line in sorted(passes.items(), key=lambda item: item[1].pos):  # the later line is refused
            for position, card in enumerate(line.cards.cards):
                if passer.setdefault(card, seat) != seat:
                    self.refuse_passed_card(line.cards[position], seat, passer[card], passing=True)
            known[seat].update(line.cards.cards)
            received[config.pass_target(seat)].update(line.cards.cards)
        plays: list[tuple[int, AnyCard, Suit | None]] = []  # R8: a seat that did not follow held none of the led suit
        for trick, seats in zip(rnd.tricks, self.seats_by_trick(rnd, self.table.dealer, len(rnd.tricks))):
            cards = trick.plays.cards
            led = cards[0].suit if cards and isinstance(cards[0], Card) else None
            for position, (seat, card) in enumerate(zip(seats, cards)):
                if card not in received[seat]:
                    if passer.get(card, seat) != seat:  # passed to a third seat (R6): not this one's to play
                        self.refuse_passed_card(trick.plays[position], seat, passer[card], passing=False)
                    known[seat].add(card)
                plays.append((seat, card, led))
        for seat, line in deals.items():
            known[seat] = set(line.cards.cards)
        refuses = void_refusals([frozenset() if seat in deals else out
                                 for seat, out in enumerate(shown_voids(plays, n))])
        return self.stand_in_hands(number, known, [config.hand_size] * n, refuses)  # type: ignore[return-value]

    def pass_line_missing(self, number: int, seat: int, passes: dict[int, HandLine]) -> str | None:
        """Why the deal of `seat`, which has no deal line, cannot be inferred (DGN.md: from the passes and the
        plays): its own or its giver's pass line is missing. None when both are written."""
        config = self.config
        giver = next(giver for giver in range(config.player_count) if config.pass_target(giver) == seat)
        if seat in passes and giver in passes:
            return None
        missing = config.players[seat if seat not in passes else giver]
        return (f"round {number} has no deal line for {config.players[seat]}, "
                f"and without {missing}'s pass line the deal cannot be inferred")

    def refuse_passed_card(self, play: Play, seat: int, giver: int, *, passing: bool) -> None:
        """`seat` passes or plays `play`'s card, which `giver`'s pass line already hands to another seat (R6)."""
        names, to = self.config.players, self.config.pass_target(giver)
        card, target = play.card, names[to]
        if passing and to == seat:
            message = f"{target} cannot pass {card}: {names[giver]} passes it to {target} (a card received is not " \
                      "passed on)"
        elif passing:
            message = f"{names[seat]} cannot pass {card}: {names[giver]} passes it to {target}"
        else:
            message = f"{names[seat]} does not hold {card}: {names[giver]} passed it to {target}"
        self.problem(play.pos, message, "card-not-held", "R6", play.length)

    def check_without_hands(self, number: int, rnd: Round) -> None:
        """An unfinished round with unknown hands: what can still be checked without them (the pass count, the
        pass lines' cards, then what an inferred deal is checked on)."""
        header = rnd.header
        if header.pass_count is not None and header.pass_count not in PASS_COUNTS:  # None: still due (check_notation)
            self.problem(header.count_pos, f"the dealer passes 1, 2 or 3 cards, not {header.pass_count}",
                         "wrong-pass-count", "R6", len(str(header.pass_count)))
        for line in rnd.lines("pass"):
            for play in line.cards:
                self.not_in_deck(play)
        self.check_inference_inputs(number, rnd)

    def check_pass_lines(self, rnd: Round) -> None:
        """Each pass line holds as many cards as the dealer chose (R6)."""
        config = self.config
        count = rnd.header.pass_count
        for line in rnd.lines("pass"):
            if count in PASS_COUNTS and len(line.cards) != count:
                seat = config.seat_of(line.player)
                name = config.players[seat] if seat is not None else line.player
                self.problem(line.pos, f"{name} passes {len(line.cards)} card{'s' if len(line.cards) != 1 else ''}, "
                             f"but the dealer chose {count}", "wrong-pass-count", "R6", len(line.kind))

    def check_inference_inputs(self, number: int, rnd: Round) -> None:
        """Mistakes that would otherwise surface as a strange inferred deal: say what they are, where (the
        tricks as a replay on the hands would; passes move cards, so no card is checked against a deal line)."""
        self.check_pass_lines(rnd)
        self.check_tricks_without_hands(number, rnd, {}, last=True)

    def push_deal(self, dealt: tuple[tuple[Card, ...], ...], rnd: Round) -> None:
        """Deal; a refused deal is shown where the record shows the fault (`deal_refused`, R5)."""
        try:
            self.game.push(Deal(dealt))
        except IllegalMove as error:
            self.deal_refused(error, rnd)
        if self.history:
            self.out.origins.append(rnd)

    def do_passes(self, number: int, rnd: Round, deals: dict[int, HandLine], passes: dict[int, HandLine],
                  dealt: tuple[tuple[Card, ...], ...], played: dict[int, list[AnyCard]] | None,
                  header) -> bool:  # type: ignore[no-untyped-def]
        config = self.config
        assert config is not None
        # R6: the passes are made at once, written in any order; the engine takes them in seat order from
        # the dealer's left (its `to_move`), so each move of the game is legal in the position before it.
        n = config.player_count
        dealer = cast(Table, self.game.table).dealer  # the family's own table (`Fitzgerald.table`)
        # Said at once, the written lines are read at once, in written order (`passes` is), by the game's own
        # words, in one state: a passing state of this set-up, frozen once a game (a line names its player, so its
        # words read alike at every round's passes).
        state = self.passing_state
        if state is None or state.config is not config:
            state = self.passing_state = self.words_state()
        moves = {seat: self.line_move(line, "invalid-deal", state)  # a card of no deck: R5, as the deal says
                 for seat, line in passes.items()}
        for seat in (*range(dealer + 1, n), *range(dealer + 1)):  # as `Table.passing_seat` takes them
            line = passes.get(seat)
            if line is not None:
                self.push_pass(moves[seat], line)
                continue
            if played is None:
                missing = next(s for s in range(config.player_count) if s not in passes)
                self.out.notes.append(
                    f"round {number} is unfinished and has no pass line for {config.players[missing]}: "
                    "the replay stops before its passes; its cards are checked against what the known "
                    "cards prove"
                )
                self.check_known_cards(rnd, dealt, passes)
                return False
            kept = set(played[seat])
            given = tuple(card for card in dealt[seat] if card not in kept)  # passed cards cannot come back (R6)
            self.push(PassCards(seat, given), rnd, header.pos, len(f"R{number}"))
        return True

    def check_known_cards(self, rnd: Round, dealt: tuple[tuple[Card, ...], ...],
                          passes: dict[int, HandLine]) -> None:
        """Deal lines complete, a pass line missing: refuse what the known cards already prove (R6, R8)."""
        config = self.config
        assert config is not None
        n = config.player_count
        count = rnd.header.pass_count if rnd.header.pass_count in PASS_COUNTS else 0
        source = {config.pass_target(seat): seat for seat in range(n)}
        sure: list[set[AnyCard]] = []  # surely held when the play starts
        maybe: list[set[AnyCard]] = []  # possibly held
        unknown_pass = [seat not in passes for seat in range(n)]
        own_left: list[dict[Suit, int]] = []  # of a seat whose pass is unknown: her dealt cards per suit, unplayed
        for seat in range(n):
            own: set[AnyCard] = set(dealt[seat])
            giver = source[seat]
            sure_set: set[AnyCard]
            maybe_set: set[AnyCard]
            if unknown_pass[seat]:
                sure_set, maybe_set = set(), set(own)
            else:
                given = set(passes[seat].cards.cards)
                sure_set, maybe_set = own - given, own - given
            if giver in passes:
                received = set(passes[giver].cards.cards)
                sure_set |= received
                maybe_set |= received
            else:
                maybe_set |= set(dealt[giver])
            sure.append(sure_set)
            maybe.append(maybe_set)
            counts: dict[Suit, int] = {}
            for dealt_card in own:
                if isinstance(dealt_card, Card):
                    counts[dealt_card.suit] = counts.get(dealt_card.suit, 0) + 1
            own_left.append(counts)
        dealer = self.table.dealer
        for trick, seats in zip(rnd.tricks, self.seats_by_trick(rnd, dealer, len(rnd.tricks))):
            led: Suit | None = None
            for seat, play in zip(seats, trick.plays):
                played, name = play.card, config.players[seat]
                if not isinstance(played, Card):
                    return  # not of this deck: check_without_hands says so
                card = played
                if card not in maybe[seat]:
                    self.problem(play.pos, f"{name} does not hold {card} (the deal and pass lines give it to "
                                 "another player)", "card-not-held", "R8", play.length)
                if led is None:
                    led = card.suit
                elif card.suit is not led:
                    held = sorted((c for c in sure[seat] if isinstance(c, Card) and c.suit is led),
                                  key=lambda c: c.rank)
                    surely = unknown_pass[seat] and own_left[seat].get(led, 0) > count
                    if held or surely:
                        what = (f"holds {' '.join(map(str, held))}" if held else
                                f"keeps at least {own_left[seat][led] - count} of the "
                                f"{own_left[seat][led]} dealt to her, passing only {count}")
                        self.problem(play.pos, f"{name} must follow {led.title} ({what})", "must-follow-suit",
                                     "R8", play.length)
                sure[seat].discard(card)
                maybe[seat].discard(card)
                if card in dealt[seat] and unknown_pass[seat]:
                    own_left[seat][card.suit] -= 1
                for other in range(n):  # a card played is nobody's any more
                    if other != seat:
                        maybe[other].discard(card)
                        sure[other].discard(card)

    def push_pass(self, move: PassCards, line: HandLine) -> None:
        """A written pass line's move (`line_move`) pushed; a card the rules refuse (not held, passed twice)
        is reported at its token (R6)."""
        try:
            self.game.push(move)
        except IllegalMove as error:
            pos, length = line.pos, len(line.kind)
            for play in line.cards:  # point at the card at fault (not held, passed twice), if one is
                if error.card is not None and play.card == error.card:
                    pos, length = play.pos, play.length
                    break
            self.problem(pos, error.reason, error.code, error.rule, length)
        if self.history:
            self.out.origins.append(line)

    # ---------------------------------------------------------------- tricks

    def play_tricks(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Card by card (`play_by_card`), after the tricks the check path has already played; `Play` items
        are made only for a choice, an origin (full replay) or a problem. A card of no deck is in no hand:
        the engine refuses it (R5)."""
        start = (0, 0) if self.history else self.play_written_tricks(rnd)
        self.victims_named = set()
        if not self.play_by_card(number, rnd, last=last, start=start):
            return False
        self.end_of_round(number, rnd)
        return True

    def playing(self, number: int) -> bool:
        return (self.table.phase is Phase.PLAY or self.victim_left_due) and self.table.round_no == number

    def tricks_per_round(self) -> int:
        return self.config.tricks_per_round  # type: ignore[no-any-return]

    def after_card(self, plays: Plays, position: int) -> None:
        if self.table.phase is Phase.CHOOSE_VICTIM:
            self.choices(plays, position, self.victims_named)

    def after_trick(self, plays: Plays) -> None:
        self.check_choices_used(plays, self.victims_named)
        self.victims_named = set()

    def play_written_tricks(self, rnd: Round) -> tuple[int, int]:
        """The check path: the tricks written as expected (numbered 1, 2, … each with all its
        cards) go to the engine in one call, which takes the victims they name (R14) and stops
        only where one is refused or is due at the end of the round. Returns how many tricks are
        done and, if it stopped inside the next (at a card the engine refuses), at which card."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        per_trick = config.plays_per_trick
        tricks = rnd.tricks[: config.tricks_per_round]
        count = whole_tricks(tricks, per_trick)
        cards: list[AnyCard] = []
        marked = []  # the tricks with a mark (`>id`, an annotation, …)
        for index, trick in enumerate(tricks[:count]):
            plays = trick.plays
            cards += plays.cards
            if not plays.plain:
                marked.append(index)
        # Where a trick's marks are not all victims the run may take (`named_victims`), the run stops at
        # each of its victims for `choices` to name, and the trick ends a run, so that what is wrong is
        # reported before any later trick is played, as the card-by-card loop would. Under the Thief
        # (R13) no victim is named: the run takes none.
        victims: list[int | None] | None = None if config.uses_thief else [None] * len(cards)
        ends = []
        taken = set()  # the tricks whose every id names a victim the run takes (or refuses: then reported)
        for index in marked:
            seats = self.named_victims(tricks[index].plays) if victims is not None else None
            if seats is None:
                ends.append((index + 1) * per_trick)
                if victims is not None:  # the run stops at each victim of this trick (-1: no seat's)
                    victims[index * per_trick:(index + 1) * per_trick] = [-1] * per_trick
            else:
                victims[index * per_trick:(index + 1) * per_trick] = seats  # type: ignore[index]
                taken.add(index)
        if not ends or ends[-1] != len(cards):
            ends.append(len(cards))
        table = self.table
        used: dict[int, set[int]] = {}
        start = 0
        for end in ends:
            run = cards if end == len(cards) else cards[:end]
            while start < end:
                try:
                    start = play_cards(game, run, start, victims)  # type: ignore[arg-type]  # see engine_cards
                except IllegalMove:  # the card-by-card loop plays it again and reports it at its token
                    return table.trick_no - 1, len(table.trick)
                if table.phase is not Phase.CHOOSE_VICTIM:
                    break
                index, position = divmod(start - 1, per_trick)
                if index not in used:
                    used[index] = set(range(per_trick)) if index in taken else set()
                self.choices(tricks[index].plays, position, used[index])
                if table.phase is Phase.CHOOSE_VICTIM:
                    break  # the end-of-round award, named on the `end` line
            if start < end:
                break
            last = end // per_trick - 1
            if end and last not in taken:  # a trick the run took every victim of used every id
                self.check_choices_used(tricks[last].plays, used.get(last, set()))
        return divmod(start, per_trick)

    def named_victims(self, plays: Plays) -> list[int | None] | None:
        """Per card of a whole trick, the seat its `>id` names (-1: no player's), for the check path's
        run to take (R14); None where the trick is left to the card-by-card loop: a card with a sign or
        a given suit (another game's marks), or an id on a card that earns no Clubs action, which the
        cards alone say: an off-suit Clubs card (R9) and the winner of a Clubs trick (R10)."""
        names = plays.choice_names()
        if names is None:
            return None
        cards = plays.cards
        lead = cards[0]
        if type(lead) is not Card:
            return None  # a card of no Fitzgerald deck: the engine refuses it
        clubs = Suit.CLUBS
        seats_by_id = self.seats
        winner = -1
        seats: list[int | None] = []
        for position, name in enumerate(names):
            if name is None:
                seats.append(None)
                continue
            card = cards[position]
            if type(card) is not Card or card.suit is not clubs:
                return None
            if card.suit is lead.suit:  # a Clubs trick: its winner's
                if winner < 0:
                    try:
                        winner = trick_winner(list(enumerate(cards)))[0]  # type: ignore[arg-type]
                    except AttributeError:
                        return None  # a card of no suit (`Jo`): the engine refuses it
                if position != winner:
                    return None
            seat = seats_by_id.get(name)
            if seat is None:
                seat = self.config.seat_of(name)  # written in another case, or no player's
            seats.append(-1 if seat is None else seat)
        return seats

    def check_choices_used(self, plays: Plays, used: set[int]) -> None:
        """A `>id` on a card that earned no Clubs action to name a victim for (R13, R14); a mark of
        another game's notation (checked here, where every trick that carries marks passes)."""
        if plays.plain:
            return
        names = plays.choice_names()
        if names is not None and all(name is None or position in used for position, name in enumerate(names)):
            return  # no sign or given suit, and every id named a victim: nothing to report
        config = self.config
        assert config is not None
        for position, play in enumerate(plays):
            self.refuse_marks(play, choice=True, sign=False, rule="R5")  # `AH-`, `JoS+`: another game's marks
            if play.choice is not None and position not in used:
                self.problem(play.choice.pos, self.unused_choice_message(play, position, plays),
                             "choice-not-allowed", "R13" if config.uses_thief else "R14",
                             len(play.choice.player) + 1)

    def round_unfinished(self, rnd: Round) -> bool:
        if rnd.end is not None:
            self.problem(rnd.end.pos, "`end` stands after the last trick of a finished round", "early-end",
                         "R11", 3)
        if rnd.tricks and len(rnd.tricks[-1].plays) < self.config.plays_per_trick:
            self.check_early_choices(rnd)
        return False

    def check_early_choices(self, rnd: Round) -> None:
        """The `>id`s of a trick the record ends inside (R13, R14): those no card still to come can make right are
        refused now, as the whole trick's check would refuse them (`check_choices_used`): a name no player has,
        any under the Thief, one on a card that earns no Clubs action, and one on a Club that can no longer win
        the Clubs trick it follows, or one that names the card's own player or side. An off-suit Club names the
        victim of its own action."""
        plays = rnd.tricks[-1].plays
        if plays.plain:
            return
        config = self.config
        cards = plays.cards
        seats = self.seats_by_trick(rnd, self.table.dealer, len(rnd.tricks))[-1]
        for position, play in enumerate(plays):
            choice = play.choice
            if choice is None or position in self.victims_named:  # (none where the hands are unknown)
                continue
            victim = self.seat(choice.player, choice.pos, "victim")
            card, lead = play.card, cards[0]
            clubs = isinstance(card, Card) and card.suit is Suit.CLUBS
            led_clubs = isinstance(lead, Card) and lead.suit is Suit.CLUBS
            beaten = clubs and led_clubs and trick_winner(list(enumerate(cards)))[0] != position  # type: ignore[arg-type]
            if config.uses_thief or not clubs or beaten:  # (an off-suit Club names its own victim)
                self.problem(choice.pos, self.unused_choice_message(play, position, plays), "choice-not-allowed",
                             "R13" if config.uses_thief else "R14", len(choice.player) + 1)
            actor = seats[position]
            if config.side_of[victim] == config.side_of[actor]:
                who = "themselves" if victim == actor else f"their own side ({config.side_name(config.side_of[actor])})"
                self.problem(choice.pos, f"{config.players[actor]} cannot take from {who} with Clubs",
                             "victim-not-allowed", "R14", len(choice.player) + 1)

    def choices(self, plays: Sequence[Play], position: int, used: set[int]) -> None:
        """Feed the victims the record names (R14) while the engine waits for them."""
        game = self.game
        assert game is not None
        # The check path reads the victims' ids without making the trick's items, unless one is refused.
        names = plays.choice_names() if not self.history and isinstance(plays, Plays) else None
        while self.table.phase is Phase.CHOOSE_VICTIM:
            pending = self.table.pending
            assert pending is not None
            if pending.reason is Reason.OFF_SUIT:
                source = position
            elif pending.reason is Reason.TRICK_WON:
                source, _ = trick_winner(list(enumerate(plays.cards)))  # type: ignore[attr-defined]
            else:
                return  # the end-of-round Clubs award: `end >id`
            if names is None or not self.choose_quietly(names[source]):
                if plays[source].choice is not None or not self.at_records_end(plays, position):
                    self.choose(plays[source], plays[source].choice)
                elif not self.choose_quietly(None):  # (">-" where there is no victim to name)
                    self.leave_victim_due(plays[source])
                    return
            used.add(source)

    def at_records_end(self, plays: Sequence[Play], position: int) -> bool:
        """Whether this card (`position` of `plays`) is the record's last item: a victim due after it and not
        named is still due (`leave_victim_due`), not missing."""
        rnd = self.record.rounds[-1]
        return rnd.end is None and bool(rnd.tricks) and plays is rnd.tricks[-1].plays and position == len(plays) - 1

    def leave_victim_due(self, origin: Play) -> None:
        """The record ends before the Clubs victim of `origin`'s action is named (R14): it is unfinished there, as
        one that ends before a round's pass count is (a note, `ReplayedGame.still_due`), not wrong. The problem
        kept is the one a card after it would meet (`choose`)."""
        try:
            self.choose(origin, None)
        except Stop:
            due = self.out.problems.pop()
            self.out.still_due = due
            self.out.notes.append(f"the record ends before a Clubs victim is named: {due.message} ({due.rule})")
            self.victim_left_due = True

    def choose_quietly(self, name: str | None) -> bool:
        """`choose` for the check path, from the id alone: False (nothing changed) where `choose` would
        report a problem, which it then does."""
        seat = None
        if name is not None:
            seat = self.config.seat_of(name)
            if seat is None:
                return False
        try:
            self.game.push(ChooseVictim(seat))
        except IllegalMove:
            return False
        return True

    def refused_play(self, error: IllegalMove, rnd: Round, index: int, position: int) -> None:
        """A refused card; one written twice in a round names where it was first played (R8)."""
        play = rnd.tricks[index - 1].plays[position]
        self.not_in_deck(play)
        if isinstance(error, CardNotHeld):
            mover = self.seats_by_trick(rnd, self.table.dealer, index)[-1][position]
            self.played_before(rnd, index, position, mover)
        self.problem(play.pos, error.reason, error.code, error.rule, play.length)

    def seats_by_trick(self, rnd: Round, dealer: int, count: int) -> list[tuple[int, ...]]:
        """Who played each card of the first `count` tricks: the leaders follow from the cards (R7, R8, R10)."""
        return self.seats_and_leader(rnd, dealer, count)[0]

    def seats_and_leader(self, rnd: Round, dealer: int, count: int) -> tuple[list[tuple[int, ...]], int]:
        """`seats_by_trick`, and who leads next: the winner of the last of those tricks (R10)."""
        config = self.config
        assert config is not None
        leader = first_leader(config, dealer)
        seats_list = []
        for trick in rnd.tricks[:count]:
            cards = trick.plays.cards
            seats = trick_seats(config, leader, len(cards))
            seats_list.append(seats)
            if cards:
                leader, _ = trick_winner(list(zip(seats, engine_cards(cards))))
        return seats_list, leader

    def unused_choice_message(self, play: Play, position: int, plays: Sequence[Play]) -> str:
        config = self.config
        assert config is not None
        if config.uses_thief:
            return f"{play.card} names a victim, but under {config.rules} the Thief decides whom Clubs robs"
        def clubs(card: AnyCard) -> bool:
            return isinstance(card, Card) and card.suit is Suit.CLUBS

        if not clubs(play.card) and not clubs(plays[0].card):
            return f"{play.card} earns no Clubs action, so it names no victim"
        return f"{play.card} does not win this Clubs trick, so it earns no Clubs action to name a victim for"

    def end_of_round(self, number: int, rnd: Round) -> None:
        game, config = self.game, self.config
        assert game is not None and config is not None
        choices = rnd.end.choices if rnd.end is not None else ()
        chose = self.table.phase is Phase.CHOOSE_VICTIM
        if chose and self.victim_left_due:
            return  # the record ends before the last trick's own victim (`leave_victim_due`)
        if chose:
            plays = rnd.tricks[-1].plays
            if choices:
                self.choose(rnd, choices[0])
            elif not self.at_records_end(plays, len(plays) - 1):
                self.choose(plays[-1], None)
            elif not self.choose_quietly(None):
                self.leave_victim_due(plays[-1])  # the end-of-round award's victim, due on an `end` line
                return
            choices = choices[1:]
        for extra in choices:
            if chose:
                why, rule = "the Clubs award has only one victim", "R16"
            elif config.uses_thief:
                why, rule = f"under {config.rules} the Thief decides whom Clubs robs", "R13"
            else:
                why, rule = "no side took the most Clubs", "R16"
            self.problem(extra.pos, f"no Clubs victim to name at the end of round {number}: {why}",
                         "choice-not-allowed", rule, len(extra.player) + 1)


BRIDGE = Bridge(replayer=FitzgeraldReplayer, record_from_game=record_from_game)
