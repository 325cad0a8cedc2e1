"""Replaying a DGN record through the rules engine: validation and step-by-step state.

This is the one place that knows both the notation and the rules: it turns
record items into engine moves, keeps which item caused each move, and turns
the engine's refusals into problems at the exact token that broke a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from diamonds.core import (
    Card, CardNotHeld, ChoosePassCount, ChooseVictim, ConfigError, Deal, Event, Game, GameConfig, IllegalMove,
    Move, PassCards, Phase, PlayCard, Reason, first_leader, rule_set, trick_seats,
    trick_winner,
)
from diamonds.core.config import PASS_COUNTS, PLAYER_ID
from diamonds.notation.records import Choice, GameRecord, HandLine, Play, Plays, Pos, Problem, Round, Tag
from diamonds.notation.tags import TagSyntaxError, parse_players, parse_result, parse_variants

__all__ = ["ReplayedGame", "replay_record", "Origin"]

Origin = Play | HandLine | Choice | Round | None  # the record item a move came from


@dataclass
class ReplayedGame:
    """A record replayed as far as it is valid.

    `game` holds every state and event (push/pop); `origins[i]` is the record
    item behind move i. `problems` is empty for a valid game; `notes` say
    what was not checked and why (an unfinished round without deal lines).
    """

    record: GameRecord
    config: GameConfig | None = None
    game: Game | None = None
    origins: list[Origin] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def complete(self) -> bool:
        return self.game is not None and self.game.is_over


class _Stop(Exception):
    """The replay cannot go on past a problem."""


def replay_record(record: GameRecord, *, history: bool = True, events: bool = True) -> ReplayedGame:
    """Replay `record`; never raises for bad input.

    With the defaults the game keeps every state and event and `origins`;
    `validate_record` turns all that off, for checking many games fast.
    """
    replayed = ReplayedGame(record)
    if record.problems:
        replayed.problems.extend(record.problems)
        return replayed
    try:
        _Replayer(replayed, history=history, events=events).run()
    except _Stop:
        pass
    return replayed


def validate_record(record: GameRecord) -> ReplayedGame:
    """Only whether the record is valid (problems, notes, complete): no history, events or origins."""
    return replay_record(record, history=False, events=False)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


class _Replayer:
    def __init__(self, replayed: ReplayedGame, *, history: bool = True, events: bool = True) -> None:
        self.out = replayed
        self.record = replayed.record
        self.history = history
        self.events = events

    # ---------------------------------------------------------------- reporting

    def problem(self, pos: Pos, message: str, code: str, rule: str | None = None, length: int = 1,
                stop: bool = True) -> None:
        self.out.problems.append(Problem(pos, message, code, rule, length))
        if stop:
            raise _Stop

    def push(self, move: Move, origin: Origin, pos: Pos, length: int = 1) -> tuple[Event, ...]:
        assert self.game is not None
        try:
            events = self.game.push(move)
        except IllegalMove as error:
            self.problem(pos, error.reason, error.code, error.rule, length)
            raise AssertionError("unreachable")  # pragma: no cover
        if self.history:
            self.out.origins.append(origin)
        return events

    def seat(self, name: str, pos: Pos, what: str = "player") -> int:
        assert self.config is not None
        seat = self.config.seat_of(name)
        if seat is None:
            self.problem(pos, f"unknown {what} \"{name}\" (players: {' '.join(self.config.players)})",
                         "unknown-player", "R1", len(name))
        return seat  # type: ignore[return-value]

    # ---------------------------------------------------------------- set-up

    def run(self) -> None:
        self.config = self.configure()
        self.out.config = self.config
        self.game = Game(self.config, history=self.history, events=self.events)
        self.out.game = self.game
        rounds = self.record.rounds
        for number, rnd in enumerate(rounds, 1):
            if not self.play_round(number, rnd, last=number == len(rounds)):
                break  # unfinished: a Result with scores is still checked (it must be "*")
        self.check_result()

    def tag_problem(self, tag: Tag | None, message: str, code: str, rule: str | None = None,
                    offset: int = 0, length: int | None = None) -> None:
        if tag is None:
            self.problem(Pos(self.record.first_line, 1), message, code, rule)
        pos = Pos(tag.value_pos.line, tag.value_pos.column + 1 + offset)  # type: ignore[union-attr]
        if length is None:
            length = len(tag.value) - offset  # type: ignore[union-attr]
        self.problem(pos, message, code, rule, max(1, length))

    def configure(self) -> GameConfig:
        record = self.record
        players_tag = record.tag("Players")
        if players_tag is None:
            self.tag_problem(None, 'the game has no [Players "..."] tag', "missing-players", "R1")
        assert players_tag is not None
        players = parse_players(players_tag.value)
        offset = 0
        for name in players:
            offset = players_tag.value.index(name, offset)
            if not PLAYER_ID.match(name):
                self.tag_problem(players_tag, f'"{name}" is not a player id (a letter, then up to 15 '
                                 "letters, digits, _ or -)", "bad-player-id", offset=offset)
            offset += len(name)
        rules_tag = record.tag("Rules")
        rules = rules_tag.value.strip() if rules_tag else "2e"
        try:
            ruleset = rule_set(rules)
        except ConfigError as error:
            self.tag_problem(rules_tag, str(error), "unknown-rules")
        variant_tag = record.tag("Variant")
        variants = parse_variants(variant_tag.value) if variant_tag else ()
        dealer_tag = record.tag("Dealer")
        try:
            base = ruleset.configure(players)
        except ConfigError as error:
            self.tag_problem(players_tag, str(error), "bad-players", "R1")
        try:
            config = ruleset.configure(players, variants=variants)
        except ConfigError as error:
            self.tag_problem(variant_tag or players_tag, str(error), "bad-variant")
        if dealer_tag is not None:
            dealer = base.seat_of(dealer_tag.value.strip())
            if dealer is None:
                self.tag_problem(dealer_tag, f"the dealer \"{dealer_tag.value}\" is not one of the players",
                                 "unknown-player", "R1")
            config = ruleset.configure(players, variants=variants, dealer=dealer)
        return config

    # ---------------------------------------------------------------- rounds

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Replay one round; False when the replay stops here (unfinished)."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        header = rnd.header
        if game.is_over:
            self.problem(header.pos, f"the game is over: {config.player_count} players play {config.rounds} "
                         f"rounds", "too-many-rounds", "R4", len(f"R{header.number}"))
        if header.number != number:
            self.problem(header.pos, f"expected round R{number}, found R{header.number} (rounds are numbered "
                         "from 1, in order)", "round-number", None, len(f"R{header.number}"))
        dealer = self.seat(header.dealer, header.dealer_pos)
        if dealer != game.dealer:
            expected = config.players[game.dealer]
            if number == 1:
                why = ("as the Dealer tag says" if self.record.tag("Dealer") else
                       "with no Dealer tag, the first player deals")
            else:
                why = "the deal moves one seat left each round"
            self.problem(header.dealer_pos, f"round {number} is dealt by {expected}, not {header.dealer} ({why})",
                         "wrong-dealer", "R4", len(header.dealer))
        for play in (card for line in rnd.hand_lines if not line.cards.plain for card in line.cards):
            if play.choice is not None:
                self.problem(play.choice.pos, "a >id choice stands only on a card played in a trick, "
                             "not in a deal or pass line", "choice-not-allowed", "R14", len(play.choice.player) + 1)
        deals = self.lines_by_seat(rnd, "deal")
        passes = self.lines_by_seat(rnd, "pass")
        written = len(deals) == len(passes) == config.player_count
        # Who played what is needed only to infer a missing deal or pass line.
        seats_of_plays = (self.seats_of_plays(rnd, dealer) if not written and self.round_is_complete(rnd)
                          else None)
        dealt = self.deal_for(number, rnd, deals, passes, seats_of_plays)
        if dealt is None:
            return False
        self.push_deal(dealt, rnd)
        self.push(ChoosePassCount(header.pass_count), rnd, header.count_pos, len(str(header.pass_count)))
        if not self.do_passes(number, rnd, deals, passes, dealt, seats_of_plays, header):
            return False
        return self.play_tricks(number, rnd, last=last)

    def lines_by_seat(self, rnd: Round, kind: str) -> dict[int, HandLine]:
        found: dict[int, HandLine] = {}
        for line in rnd.hand_lines:
            if line.kind != kind:
                continue
            seat = self.seat(line.player, line.player_pos)
            if seat in found:
                self.problem(line.pos, f"a second {kind} line for {line.player} in round {rnd.header.number}",
                             f"duplicate-{kind}", "R5" if kind == "deal" else "R6", len(kind))
            found[seat] = line
        return found

    def round_is_complete(self, rnd: Round) -> bool:
        config = self.config
        assert config is not None
        return len(rnd.tricks) == config.tricks_per_round and all(
            len(t.plays.cards) == config.plays_per_trick for t in rnd.tricks
        )

    def seats_of_plays(self, rnd: Round, dealer: int) -> dict[int, list[Card]]:
        """Who played what in a complete round: the leaders follow from the cards alone (R7, R8, R10)."""
        config = self.config
        assert config is not None
        played: dict[int, list[Card]] = {seat: [] for seat in range(config.player_count)}
        for trick, seats in zip(rnd.tricks, self.seats_by_trick(rnd, dealer, len(rnd.tricks))):
            for seat, card in zip(seats, trick.plays.cards):
                played[seat].append(card)
        return played

    def deal_for(self, number: int, rnd: Round, deals: dict[int, HandLine], passes: dict[int, HandLine],
                 played: dict[int, list[Card]] | None) -> tuple[tuple[Card, ...], ...] | None:
        """The cards dealt to each seat: written, or inferred from passes and plays (DGN.md)."""
        config = self.config
        assert config is not None
        n = config.player_count
        hands: list[tuple[Card, ...]] = []
        source = {config.pass_target(seat): seat for seat in range(n)}
        inferring = False
        for seat in range(n):
            if seat in deals:
                hands.append(deals[seat].cards.cards)
                continue
            if played is None:
                self.check_without_hands(number, rnd)
                self.out.notes.append(
                    f"round {number} is unfinished and has no deal line for {config.players[seat]}: "
                    "its hands are unknown, so its cards are checked only against each other"
                )
                return None
            if not inferring:
                self.check_inference_inputs(number, rnd)
                inferring = True
            giver = source[seat]
            if seat not in passes or giver not in passes:
                missing = config.players[seat if seat not in passes else giver]
                self.problem(rnd.header.pos, f"round {number} has no deal line for {config.players[seat]}, "
                             f"and without {missing}'s pass line the deal cannot be inferred",
                             "missing-deal", "R6", len(f"R{number}"))
            received = set(passes[giver].cards.cards)
            given = list(passes[seat].cards.cards)
            hands.append(tuple([c for c in played[seat] if c not in received] + given))
        return tuple(hands)

    def check_without_hands(self, number: int, rnd: Round) -> None:
        """An unfinished round with unknown hands: what can still be checked without them."""
        config = self.config
        assert config is not None
        header = rnd.header
        if header.pass_count not in PASS_COUNTS:
            self.problem(header.count_pos, f"the dealer passes 1, 2 or 3 cards, not {header.pass_count}",
                         "wrong-pass-count", "R6", len(str(header.pass_count)))
        deck = set(config.deck)
        for item in (*rnd.passes, *rnd.tricks):
            plays = item.cards if isinstance(item, HandLine) else item.plays
            for position, card in enumerate(plays.cards):
                if card not in deck:
                    play = plays[position]
                    top = max(c.rank for c in config.deck)
                    self.problem(play.pos, f"{card} is not in this game's deck (ranks 1-{top})", "invalid-deal",
                                 "R5", play.length)
        for index, trick in enumerate(rnd.tricks, 1):
            if trick.number != index:
                self.problem(trick.pos, f"expected trick {index}., found {trick.number}.", "trick-number", None,
                             len(f"{trick.number}."))
            if index > config.tricks_per_round:
                self.problem(trick.pos, f"round {number} has only {config.tricks_per_round} tricks",
                             "too-many-tricks", "R11", len(f"{trick.number}."))
            if len(trick.plays) > config.plays_per_trick:
                play = trick.plays[config.plays_per_trick]
                self.problem(play.pos, f"trick {index} already has its {config.plays_per_trick} cards",
                             "trick-too-long", "R8", play.length)
            if len(trick.plays) < config.plays_per_trick and index < len(rnd.tricks):
                self.problem(trick.pos, f"trick {index} has {len(trick.plays)} cards; it needs "
                             f"{config.plays_per_trick}", "trick-too-short", "R8", len(f"{trick.number}."))
        self.check_inference_inputs(number, rnd)

    def check_inference_inputs(self, number: int, rnd: Round) -> None:
        """Mistakes that would otherwise surface as a strange inferred deal: say what they are, where."""
        config = self.config
        assert config is not None
        count = rnd.header.pass_count
        for line in rnd.passes:
            if count in PASS_COUNTS and len(line.cards) != count:
                name = config.players[config.seat_of(line.player)]  # type: ignore[index]
                self.problem(line.pos, f"{name} passes {len(line.cards)} card{'s' if len(line.cards) != 1 else ''}, "
                             f"but the dealer chose {count}", "wrong-pass-count", "R6", len(line.kind))
        seen: dict[Card, int] = {}
        for trick in rnd.tricks:
            for play in trick.plays:
                if play.card in seen:
                    self.problem(play.pos, f"{play.card} was already played in trick {seen[play.card]} of round "
                                 f"{number}", "card-not-held", "R8", play.length)
                seen[play.card] = trick.number

    def push_deal(self, dealt: tuple[tuple[Card, ...], ...], rnd: Round) -> None:
        """Deal; a refused deal is shown at the card or the deal line the engine names (R5)."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        try:
            game.push(Deal(dealt))
        except IllegalMove as error:
            first = rnd.deals[0] if rnd.deals else None
            pos, length = (first.pos, len(first.kind)) if first else (rnd.header.pos, len(f"R{rnd.header.number}"))
            words = error.reason.split()
            lines = (*rnd.deals, *rnd.passes)
            plays = [play for line in lines for play in line.cards] + [p for t in rnd.tricks for p in t.plays]
            named = [play for play in plays if str(play.card) == words[0]]
            if named:  # "5H is dealt twice": the second one written; "9S is not in this game's deck": the first
                play = named[1] if len(named) > 1 and "twice" in error.reason else named[0]
                pos, length = play.pos, play.length
            else:
                for line in rnd.deals:
                    if config.seat_of(line.player) == config.seat_of(words[0]):
                        pos, length = line.pos, len(line.kind)
            self.problem(pos, error.reason, error.code, error.rule, length)
        if self.history:
            self.out.origins.append(rnd)

    def do_passes(self, number: int, rnd: Round, deals: dict[int, HandLine], passes: dict[int, HandLine],
                  dealt: tuple[tuple[Card, ...], ...], played: dict[int, list[Card]] | None,
                  header) -> bool:  # type: ignore[no-untyped-def]
        config = self.config
        assert config is not None
        for line in rnd.passes:
            seat = config.seat_of(line.player)
            assert seat is not None
            self.push_pass(seat, line.cards.cards, line)
        for seat in range(config.player_count):
            if seat in passes:
                continue
            if played is None:
                self.out.notes.append(
                    f"round {number} is unfinished and has no pass line for {config.players[seat]}: "
                    "the replay stops before its passes"
                )
                return False
            kept = set(played[seat])
            given = tuple(card for card in dealt[seat] if card not in kept)  # passed cards cannot come back (R6)
            self.push(PassCards(seat, given), rnd, header.pos, len(f"R{number}"))
        return True

    def push_pass(self, seat: int, cards: tuple[Card, ...], line: HandLine) -> None:
        assert self.game is not None
        try:
            self.game.push(PassCards(seat, cards))
        except IllegalMove as error:
            pos, length = line.pos, len(line.kind)
            for play in line.cards:  # point at the card that is not held, if that is the trouble
                if str(play.card) in error.reason.split(":")[0].split():
                    pos, length = play.pos, play.length
                    break
            self.problem(pos, error.reason, error.code, error.rule, length)
        if self.history:
            self.out.origins.append(line)

    # ---------------------------------------------------------------- tricks

    def play_tricks(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Card by card, after the tricks the check path has already played; `Play` items are
        made only for a choice, an origin (full replay) or a problem."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        tricks = rnd.tricks
        per_trick = config.plays_per_trick
        push = game.push
        history = self.history
        origins = self.out.origins
        play_move = PlayCard.of
        done, resume = (0, 0) if history else self.play_written_tricks(rnd)
        for index in range(done + 1, len(tricks) + 1):
            trick = tricks[index - 1]
            if game.phase is not Phase.PLAY or game.round_no != number:
                self.problem(trick.pos, f"round {number} has only {config.tricks_per_round} tricks",
                             "too-many-tricks", "R11", len(f"{trick.number}."))
            if trick.number != index:
                missing = f"trick {index} is missing: " if trick.number > index else ""
                self.problem(trick.pos, f"{missing}expected trick {index}., found {trick.number}.", "trick-number",
                             None, len(f"{trick.number}."))
            plays = trick.plays
            cards = plays.cards
            used: set[int] = set()
            for position in range(resume if index == done + 1 else 0, len(cards)):
                card = cards[position]
                if position >= per_trick:
                    play = plays[position]
                    self.problem(play.pos, f"trick {index} already has its {per_trick} cards",
                                 "trick-too-long", "R8", play.length)
                try:
                    push(play_move(card))
                except IllegalMove as error:
                    self.refused_play(error, rnd, index, position)
                if history:
                    origins.append(plays[position])
                if game.phase is Phase.CHOOSE_VICTIM:
                    self.choices(plays, position, used)
            if len(cards) < per_trick:
                if index < len(tricks) or not last:
                    self.problem(trick.pos, f"trick {index} has {len(cards)} card"
                                 f"{'s' if len(cards) != 1 else ''}; it needs {per_trick}",
                                 "trick-too-short", "R8", len(f"{trick.number}."))
                return self.unfinished(rnd)
            self.check_choices_used(plays, used)
        if game.round_no == number and game.phase is Phase.PLAY:
            if not last:
                self.problem(rnd.header.pos, f"round {number} has {len(tricks)} trick"
                             f"{'s' if len(tricks) != 1 else ''}; it needs {config.tricks_per_round}",
                             "round-too-short", "R11", len(f"R{number}"))
            return self.unfinished(rnd)
        self.end_of_round(number, rnd)
        return True

    def play_written_tricks(self, rnd: Round) -> tuple[int, int]:
        """The check path: the tricks written as expected (numbered 1, 2, … each with all its
        cards) go to the engine in one call, which stops only where a victim is to be named.
        Returns how many tricks are done and, if it stopped inside the next (at a card the
        engine refuses), at which card."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        per_trick = config.plays_per_trick
        tricks = rnd.tricks[: config.tricks_per_round]
        count = 0
        for trick in tricks:
            if trick.number != count + 1 or len(trick.plays.cards) != per_trick:
                break
            count += 1
        cards = [card for trick in tricks[:count] for card in trick.plays.cards]
        # A trick whose cards name victims ends a run, so that its unused names are reported
        # before any later trick is played, as the card-by-card loop would.
        ends = [(index + 1) * per_trick for index in range(count) if not tricks[index].plays.plain]
        if not ends or ends[-1] != len(cards):
            ends.append(len(cards))
        used: dict[int, set[int]] = {}
        start = 0
        for end in ends:
            run = cards if end == len(cards) else cards[:end]
            while start < end:
                before = len(game)
                try:
                    start = game.play_cards(run, start)
                except IllegalMove:  # the card-by-card loop plays it again and reports it at its token
                    return divmod(start + len(game) - before, per_trick)
                if game.phase is not Phase.CHOOSE_VICTIM:
                    break
                index, position = divmod(start - 1, per_trick)
                self.choices(tricks[index].plays, position, used.setdefault(index, set()))
                if game.phase is Phase.CHOOSE_VICTIM:
                    break  # the end-of-round award, named on the `end` line
            if start < end:
                break
            if end:
                last = end // per_trick - 1
                self.check_choices_used(tricks[last].plays, used.get(last, set()))
        return divmod(start, per_trick)

    def check_choices_used(self, plays: Plays, used: set[int]) -> None:
        """A `>id` on a card that earned no Clubs action to name a victim for (R13, R14)."""
        if plays.plain:
            return
        config = self.config
        assert config is not None
        for position, play in enumerate(plays):
            if play.choice is not None and position not in used:
                self.problem(play.choice.pos, self.unused_choice_message(play, position, plays),
                             "choice-not-allowed", "R13" if config.uses_thief else "R14",
                             len(play.choice.player) + 1)

    def unfinished(self, rnd: Round) -> bool:
        if rnd.end is not None:
            self.problem(rnd.end.pos, "`end` stands after the last trick of a finished round", "early-end",
                         "R11", 3)
        return False

    def choices(self, plays: Sequence[Play], position: int, used: set[int]) -> None:
        """Feed the victims the record names (R14) while the engine waits for them."""
        game = self.game
        assert game is not None
        while game.phase is Phase.CHOOSE_VICTIM:
            pending = game.pending
            assert pending is not None
            if pending.reason is Reason.OFF_SUIT:
                source = position
            elif pending.reason is Reason.TRICK_WON:
                source, _ = trick_winner(list(enumerate(plays.cards)))  # type: ignore[attr-defined]
            else:
                return  # the end-of-round Clubs award: `end >id`
            self.choose(plays[source], plays[source].choice)
            used.add(source)

    def refused_play(self, error: IllegalMove, rnd: Round, index: int, position: int) -> None:
        """A refused card; one written twice in a round names where it was first played (R8)."""
        game, config = self.game, self.config
        assert game is not None and config is not None
        play = rnd.tricks[index - 1].plays[position]
        if isinstance(error, CardNotHeld):
            seats = self.seats_by_trick(rnd, game.dealer, index)
            for t, earlier in enumerate(rnd.tricks[:index]):
                cards = earlier.plays.cards[: position if t == index - 1 else None]
                if play.card in cards:
                    mover = config.players[seats[index - 1][position]]
                    first = config.players[seats[t][cards.index(play.card)]]
                    self.problem(play.pos, f"{mover} cannot play {play.card}: it was already played in trick "
                                 f"{earlier.number} (by {first})", "card-not-held", "R8", play.length)
        self.problem(play.pos, error.reason, error.code, error.rule, play.length)

    def seats_by_trick(self, rnd: Round, dealer: int, count: int) -> list[tuple[int, ...]]:
        """Who played each card of the first `count` tricks: the leaders follow from the cards (R7, R8, R10)."""
        config = self.config
        assert config is not None
        leader = first_leader(config, dealer)
        seats_list = []
        for trick in rnd.tricks[:count]:
            cards = trick.plays.cards
            seats = trick_seats(config, leader, len(cards))
            seats_list.append(seats)
            if cards:
                leader, _ = trick_winner(list(zip(seats, cards)))
        return seats_list

    def choose(self, origin: Play | Round, choice: Choice | None) -> tuple[Event, ...]:
        if choice is None:
            pos = origin.pos if isinstance(origin, Play) else origin.header.pos
            return self.push(ChooseVictim(None), origin, pos, getattr(origin, "length", 2))
        seat = self.seat(choice.player, choice.pos, "victim")
        return self.push(ChooseVictim(seat), choice, choice.pos, len(choice.player) + 1)

    def unused_choice_message(self, play: Play, position: int, plays: Sequence[Play]) -> str:
        config = self.config
        assert config is not None
        if config.uses_thief:
            return f"{play.card} names a victim, but under {config.rules} the Thief decides whom Clubs robs"
        if play.card.suit.value != "C" and plays[0].card.suit.value != "C":
            return f"{play.card} earns no Clubs action, so it names no victim"
        return f"{play.card} does not win this Clubs trick, so it earns no Clubs action to name a victim for"

    def end_of_round(self, number: int, rnd: Round) -> None:
        game, config = self.game, self.config
        assert game is not None and config is not None
        choices = rnd.end.choices if rnd.end is not None else ()
        chose = game.phase is Phase.CHOOSE_VICTIM
        if chose:
            if choices:
                self.choose(rnd, choices[0])
            else:
                self.choose(rnd.tricks[-1].plays[-1], None)
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

    # ---------------------------------------------------------------- result

    def check_result(self) -> None:
        game, config = self.game, self.config
        assert game is not None and config is not None
        tag = self.record.tag("Result")
        if tag is None:
            return
        try:
            entries = parse_result(tag.value)
        except TagSyntaxError as error:
            self.tag_problem(tag, str(error), "bad-result", offset=error.offset)
            return
        if entries is None:
            return
        if not game.is_over:
            self.tag_problem(tag, f'the game stops in round {game.round_no} of {config.rounds}, so its Result is "*"',
                             "result-unfinished", "R4")
        standings = game.standings()
        actual = {r.side: r.score for r in standings}
        seen: set[int] = set()
        wrong = []
        first_wrong: tuple[int, int] | None = None
        for entry, (side_at, side_len, score_at, score_len) in zip(entries, _result_spans(tag.value)):
            seats = []
            for name in entry.side:
                seat = config.seat_of(name)
                if seat is None:
                    self.tag_problem(tag, f"unknown player \"{name}\" in Result", "unknown-player", "R1",
                                     side_at, side_len)
                seats.append(seat)
            sides = {config.side_of[s] for s in seats}  # type: ignore[index]
            side = sides.pop()
            if sides or tuple(sorted(seats)) != tuple(sorted(config.sides[side])):  # type: ignore[type-var]
                self.tag_problem(tag, f"\"{'+'.join(entry.side)}\" is not a side of this game "
                                 f"(sides: {', '.join(config.side_name(s) for s in range(config.side_count))})",
                                 "bad-result", "R2", side_at, side_len)
            if side in seen:
                self.tag_problem(tag, f"{config.side_name(side)} appears twice in Result", "bad-result", None,
                                 side_at, side_len)
            seen.add(side)
            if entry.score != actual[side]:
                wrong.append(f"{config.side_name(side)} {actual[side]}, not {entry.score}")
                first_wrong = first_wrong or (score_at, score_len)
        missing = [config.side_name(s) for s in range(config.side_count) if s not in seen]
        if missing:
            self.tag_problem(tag, f"Result leaves out {', '.join(missing)}", "bad-result")
        if wrong:
            assert first_wrong is not None
            self.tag_problem(tag, "the replay scores " + "; ".join(wrong), "wrong-result", "R18", *first_wrong)


def _result_spans(value: str) -> list[tuple[int, int, int, int]]:
    """Per entry of a readable Result value: offset and length of its side, then of its score."""
    spans = []
    start = 0
    for part in value.split(","):
        lead = len(part) - len(part.lstrip())
        body = part.strip()
        side, score = body.rsplit(None, 1)
        spans.append((start + lead, len(side), start + lead + len(body) - len(score), len(score)))
        start += len(part) + 1
    return spans
