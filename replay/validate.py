"""Replaying a DGN record through the rules engine: the generic driver of every family.

This is where the notation meets the rules. The driver reads the tags every
game has (Players, Rules, Variant, Dealer, and the tags a rule set declares),
builds the game, hands the rounds to the family's bridge (which turns record
items into moves), and checks the Result. Every refusal becomes a problem at
the exact token that broke a rule, with the ruling's id. It never names a
family: the registry says which bridge a game's `Rules` tag calls for.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, KeysView, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

try:  # the compiled build's: its subclasses (each family's replayer) stay Python
    from mypy_extensions import mypyc_attr
except ImportError:  # the pure build: an annotation only
    def mypyc_attr(*_args: Any, **_kwargs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls

from diamonds.core import (
    AnyCard,
    Card,
    CardTwice,
    ConfigError,
    Engine,
    IllegalMove,
    NotationError,
    Rules,
    Seating,
    family_of,
    option_tags,
    rules_for,
)
from diamonds.core.cards import spellings
from diamonds.core.registry import DEFAULT_RULES, registry_version
from diamonds.core.sampling import deal_unknown
from diamonds.core.seating import PLAYER_ID
from diamonds.notation.records import (
    Choice,
    GameRecord,
    HandLine,
    Play,
    Plays,
    Pos,
    Problem,
    Round,
    RoundHeader,
    Tag,
    Take,
)
from diamonds.notation.tags import TagSyntaxError, parse_players, parse_result, parse_variants
from diamonds.notation.words import Shape, Words, vocabulary

from .record import result_value

__all__ = ["ReplayedGame", "replay_record", "validate_record", "Origin", "Replayer", "Wording", "OwnItems",
           "own_items", "Stop", "whole_tricks", "meant_card"]

Origin = Any  # the record item a move came from: a Play, a line, a call, a Choice or a Round


@dataclass
class ReplayedGame:
    """A record replayed as far as it is valid.

    `game` holds every state and event (push/pop); `origins[i]` is the record
    item behind move i. `problems` is empty for a valid game; `notes` say
    what was not checked and why (an unfinished round without deal lines).
    """

    record: GameRecord
    config: Any = None  # the family's configuration (a `Seating`)
    game: Engine | None = None
    origins: list[Origin] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The round played on a stand-in deal (`replay_record(stand_in=True)`): unfinished, written without deal
    #: lines, its hands drawn at random consistent with what the record proves. Its hands are not known, so
    #: nothing may show them; what it makes public (the trick, who won, the scores, who is due) is the record's.
    drawn_round: int | None = None
    #: What the record's last card leaves due (its Clubs victim, R14), as the problem it would be were a card to
    #: follow: the record is unfinished there, as one that ends before a round's pass count (a note, no
    #: problem), so that a game written from a position whose victim is due reads back as that position. The
    #: recorder, which writes each card with its choices, asks for it (`Recorder`).
    still_due: Problem | None = None

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def complete(self) -> bool:
        return self.game is not None and self.game.is_over

    @property
    def family(self) -> str | None:
        return family_of(self.config.rules).name if self.config is not None else None


class Stop(Exception):
    """The replay cannot go on past a problem."""


def replay_record(record: GameRecord, *, history: bool = True, events: bool = True,
                  stand_in: bool = False) -> ReplayedGame:
    """Replay `record`; never raises for bad input.

    With the defaults the game keeps every state and event and `origins`;
    `validate_record` turns all that off, for checking many games fast.
    `stand_in`: an unfinished last round written without deal lines is played on a stand-in deal
    (`ReplayedGame.drawn_round`) where its family can draw one, so the table is live at every item (the
    recorder and the server); without it the replay stops at that round's start, as `validate` does.
    """
    replayed = ReplayedGame(record)
    if record.problems:
        replayed.problems.extend(record.problems)
        return replayed
    try:
        config = _Setup(replayed).configure()
        replayed.config = config
        bridge = family_of(config.rules).part("bridge")
        bridge.replayer(replayed, history=history, events=events, stand_in=stand_in).run()
    except Stop:
        pass
    return replayed


def validate_record(record: GameRecord) -> ReplayedGame:
    """Only whether the record is valid (problems, notes, complete): no history, events or origins."""
    return replay_record(record, history=False, events=False)


@mypyc_attr(allow_interpreted_subclasses=True)
class Reporter:
    """Problems at a place in the text: what the set-up and every bridge report with."""

    def __init__(self, replayed: ReplayedGame) -> None:
        self.out = replayed
        self.record = replayed.record

    def problem(self, pos: Pos, message: str, code: str, rule: str | None = None, length: int = 1,
                stop: bool = True) -> None:
        self.out.problems.append(Problem(pos, message, code, rule, length))
        if stop:
            raise Stop

    def tag_problem(self, tag: Tag | None, message: str, code: str, rule: str | None = None,
                    offset: int = 0, length: int | None = None) -> None:
        if tag is None:
            self.problem(Pos(self.record.first_line, 1), message, code, rule)
            return
        pos = Pos(tag.value_pos.line, tag.value_pos.column + 1 + offset)
        if length is None:
            length = len(tag.value) - offset
        self.problem(pos, message, code, rule, max(1, length))


class _Setup(Reporter):
    """The tags every game has, and those its rule set declares, read into a configuration."""

    def configure(self) -> Seating:
        """The game's configuration; the same tags as a game before it that set up without a problem
        give that game's (a corpus's games mostly share their set-up) while the same families are registered."""
        version = registry_version()
        known = option_tags()
        key = tuple((tag.name, tag.value) for tag in self.record.tags if tag.name in _SET_UP_TAGS or tag.name in known)
        found = _CONFIGS.get(key)
        if found is not None and found[0] == version:
            return found[1]
        config = self.read_config()
        if len(_CONFIGS) >= 256:
            _CONFIGS.clear()
        _CONFIGS[key] = (version, config)
        return config

    def read_config(self) -> Seating:
        record = self.record
        players_tag = record.tag("Players")
        rules_tag = record.tag("Rules")
        rule_id = rules_tag.value.strip() if rules_tag else DEFAULT_RULES
        if players_tag is None:
            self.tag_problem(None, 'the game has no [Players "..."] tag', "missing-players", seats_rule(rule_id))
        assert players_tag is not None
        players = parse_players(players_tag.value)
        offset = 0
        for name in players:
            offset = players_tag.value.index(name, offset)
            if not PLAYER_ID.match(name):
                self.tag_problem(players_tag, f'"{name}" is not a player id (a letter, then up to 15 '
                                 "letters, digits, _ or -)", "bad-player-id", offset=offset)
            offset += len(name)
        try:
            rules = rules_for(rule_id)
        except ConfigError as error:
            self.tag_problem(rules_tag, str(error), "unknown-rules")
            raise AssertionError("unreachable") from None  # pragma: no cover
        variant_tag = record.tag("Variant")
        variants = parse_variants(variant_tag.value) if variant_tag else ()
        options: dict[str, str] = {}
        for tag in record.tags:
            if tag.name in rules.option_tags:
                options[tag.name] = tag.value.strip()
            elif tag.name in option_tags():
                self.tag_problem(tag, f"the {tag.name} tag has no meaning in a {rule_id} game", "tag-not-allowed")
        dealer_tag = record.tag("Dealer")
        tags = {"Players": players_tag, "Variant": variant_tag, "Rules": rules_tag, "Dealer": dealer_tag}
        try:
            base = rules.configure(players, options=options)
        except ConfigError as error:
            at = record.tag(error.tag) if error.tag else players_tag
            self.tag_problem(at or players_tag, str(error), "bad-players" if error.tag is None else "bad-tag",
                             error.rule or (rules.seats_rule if error.tag is None else None))
            raise AssertionError("unreachable") from None  # pragma: no cover
        try:
            config = rules.configure(players, variants=variants, options=options)
        except ConfigError as error:
            at = tags.get(error.tag or "Variant") or record.tag(error.tag or "") or variant_tag or players_tag
            self.tag_problem(at, str(error), "bad-variant", error.rule)
            raise AssertionError("unreachable") from None  # pragma: no cover
        if dealer_tag is not None:
            dealer = base.seat_of(dealer_tag.value.strip())
            if dealer is None:
                self.tag_problem(dealer_tag, f"the dealer \"{dealer_tag.value}\" is not one of the players",
                                 "unknown-player", rules.seats_rule)
            config = rules.configure(players, variants=variants, dealer=dealer, options=options)
        return config


def foreign_cards(rules: type[Rules], config: Any) -> dict[AnyCard, NotationError]:
    """The card words DGN's reader knows that are not `rules`' own (`Rules.parse_card` refuses them), with
    each refusal: computed once per set-up (a deck's note may name its size)."""
    key = (rules, config)
    try:
        found, kept = _FOREIGN.get(key), True
    except TypeError:  # a set-up that does not hash (a plug-in's may not): read again each time
        found, kept = None, False
    if found is None:
        found = {}
        for card in dict.fromkeys(spellings().values()):
            try:
                rules.parse_card(config, str(card))
            except NotationError as error:
                found[card] = error
        if kept:
            if len(_FOREIGN) >= 256:
                _FOREIGN.clear()
            _FOREIGN[key] = found
    return found


_FOREIGN: Final[dict[tuple[type[Rules], Any], dict[AnyCard, NotationError]]] = {}


def _holds_any(rnd: Round, cards: KeysView[AnyCard]) -> bool:
    """Whether a round's lines or tricks may hold any of `cards` (a take: looked at by the caller): one look per
    line, stopping at the first (plain loops: most rounds hold none, and every round of every game is looked at)."""
    clear = cards.isdisjoint
    for line in rnd.hand_lines:
        if not clear(line.cards.cards):
            return True
    for trick in rnd.tricks:
        if not clear(trick.plays.cards):
            return True
    return any(isinstance(call, Take) for call in rnd.calls)


_WORD_AT: Final = re.compile(r"\S+")


def seats_rule(rule_id: str) -> str | None:
    """The ruling that seats a game's players (R1, K1, B1: its family's), None for rules no family plays."""
    try:
        return rules_for(rule_id).seats_rule
    except ConfigError:
        return None


_SET_UP_TAGS: Final = frozenset(("Players", "Rules", "Variant", "Dealer"))
_CONFIGS: Final[dict[tuple[tuple[str, str], ...], tuple[tuple[object, int], Seating]]] = {}  # _Setup.configure's


@dataclass(frozen=True, slots=True)
class Place:
    """A place a round's cards are dealt to besides the players' hands (the kitty), written as a line of its own."""

    kind: str  # the line's keyword: `kitty`
    name: str  # the place in messages: "the kitty"
    holds: str  # a card there, in messages: "is in the kitty"
    size: int  # how many cards it is dealt


@dataclass(frozen=True, slots=True)
class DealLines:
    """What a game's deal lines are checked against on their own (`Replayer.check_deal_lines`): the family's
    pack (and its words for it), a hand's size, the ruling that says so, and any places besides the hands."""

    deck: frozenset[Any]
    pack_text: str  # what the pack is, for a card of no pack
    hand_size: int
    rule: str | None
    places: tuple[Place, ...] = ()


#: The moves the replay has read with a game's words (`Replayer.card_move`, `read_move`), shared by the games of
#: a process: by rule set and card or card word, or by rule set, players and an item's text. A replay of many
#: games reads each card word, pass count, bid or victim once. Emptied when it holds `_READ_MOVES_HELD`.
_READ_MOVES: dict[tuple[object, ...], Any] = {}  # not Final: a test swaps in an empty one
_READ_MOVES_HELD: Final = 8192


def _remember(key: tuple[object, ...], move: Any) -> None:
    if len(_READ_MOVES) >= _READ_MOVES_HELD:
        _READ_MOVES.clear()
    _READ_MOVES[key] = move


@dataclass(frozen=True, slots=True)
class OwnItems:
    """The items a game's records may hold besides its tricks, by their words, from its family's `words` part:
    its round header's count word (None: its headers have none), the words of its lines (deal, pass, kitty),
    of its calls and exchanges (bid, take), and of its end lines."""

    count_word: str | None
    lines: frozenset[str]
    calls: frozenset[str]
    ends: frozenset[str]


#: Each rule set's own items (`own_items`), with the registry they were read from.
_OWN_ITEMS: Final[dict[Any, tuple[object, OwnItems]]] = {}


def own_items(rules: type[Rules]) -> OwnItems:
    """A rule set's own items, read from its family's words (none where it declares none: its records write
    only headers and tricks); read once while the registry stays as it is."""
    version = registry_version()
    known = _OWN_ITEMS.get(rules)
    if known is not None and known[0] == version:
        return known[1]
    words = family_of(rules.id).part("words", None) or Words()
    found = OwnItems(
        words.header_count,
        frozenset(item.word for item in words.items if item.shape in (Shape.HAND, Shape.CARDS)),
        frozenset(item.word for item in words.items if item.shape in (Shape.CALL, Shape.EXCHANGE)),
        frozenset(item.word for item in words.items if item.shape is Shape.END))
    _OWN_ITEMS[rules] = (version, found)
    return found


@dataclass(frozen=True, slots=True)
class Wording:
    """What a replay cites and says of its game, as data: the rulings of how the result is scored, when the game
    ends, who the sides are, a trick's shape, a round's tricks and who deals, and its word for a round. A family's
    replayer states them as class data (`Replayer.result_rule`, …); one that reads them from its rule set (the
    house's replayer of a plain trick game) gives its own (`Replayer.stated_wording`)."""

    result_rule: str | None
    length_rule: str | None
    sides_rule: str | None
    trick_rule: str | None
    round_rule: str | None
    dealer_rule: str | None
    round_word: str


#: Each replayer class's wording, made once (`Replayer.stated_wording`).
_WORDINGS: Final[dict[type, Wording]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)
class Replayer(Reporter):
    """A family's bridge subclasses this: `play_rounds` turns the record's rounds into moves.

    The generic part: pushing moves with their origins, refusals as problems,
    player ids, items a game does not have, and the Result tag.
    """

    #: The ruling that says how the result is scored (R18, K7…), cited when Result is wrong.
    result_rule: ClassVar[str | None] = None
    #: The ruling that says when the game ends (R4, K8…), cited when an unfinished game has scores.
    length_rule: ClassVar[str | None] = None
    #: The ruling that says who the sides are (R2), cited when Result names something else.
    sides_rule: ClassVar[str | None] = None
    #: The ruling that sets a hand's tricks and a trick's cards (K4, B6), cited for the shape of a hand.
    trick_rule: ClassVar[str | None] = None
    #: The ruling that sets how many tricks a round has, where it is not `trick_rule` (R11 beside R8).
    round_rule: ClassVar[str | None] = None
    #: The ruling that says who deals (R4, K2, B2), cited for a wrong dealer.
    dealer_rule: ClassVar[str | None] = None
    #: Words for the game's rounds in messages ("round", or "hand").
    round_word: ClassVar[str] = "round"

    def __init__(self, replayed: ReplayedGame, *, history: bool = True, events: bool = True,
                 stand_in: bool = False) -> None:
        super().__init__(replayed)
        self.history = history
        self.events = events
        #: May an unfinished last round without deal lines be played on a stand-in deal (`draw_stand_in`)?
        self.stand_in = stand_in
        self.config: Any = replayed.config
        self.game = Engine(self.config, history=history, events=events)
        replayed.game = self.game
        #: Each seat by its player's id exactly as the Players tag writes it: the fast paths' lookup (an id
        #: written otherwise goes through `seat`, which matches it ignoring case or reports it).
        players: tuple[str, ...] = self.config.players
        self.seats = {name: seat for seat, name in reversed(list(enumerate(players)))}
        #: What the replay cites and says of the game (its rulings, its word for a round): read by every message.
        self.wording = self.stated_wording()
        #: The items the game's records may hold besides tricks (`refuse_foreign_items`), by its family's words.
        self.own_items = own_items(self.game.rules)
        #: Another game's card words, refused before a round is played (`read_round`): looked up once a replay.
        self.foreign: Mapping[AnyCard, NotationError] | None = None

    def stated_wording(self) -> Wording:
        """The replayer's wording: its class data (`result_rule`, …), made once a class."""
        cls = type(self)
        found = _WORDINGS.get(cls)
        if found is None:
            found = _WORDINGS[cls] = Wording(cls.result_rule, cls.length_rule, cls.sides_rule, cls.trick_rule,
                                             cls.round_rule, cls.dealer_rule, cls.round_word)
        return found

    def run(self) -> None:
        self.play_rounds()
        self.check_result()

    def play_rounds(self) -> None:
        """Every round of the record in turn, until one cannot be finished."""
        rounds = self.record.rounds
        for number, rnd in enumerate(rounds, 1):
            if not self.read_round(number, rnd, last=number == len(rounds)):
                break  # unfinished: a Result with scores is still checked (it must be "*")

    def read_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        """One round read as the game's own words (`refuse_foreign_cards`), then played (`play_round`): every
        replay of a round goes through here (a whole record, or the recorder's round being written), so that no
        bridge is handed another game's card."""
        foreign = self.foreign
        if foreign is None:
            foreign = self.foreign = foreign_cards(self.game.rules, self.config)
        if foreign:
            self.refuse_foreign_cards(rnd, foreign)
        return self.play_round(number, rnd, last=last)

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        """The family's part: replay one round (a hand, in some games) of the record, reporting every refusal
        at its token; False when the replay cannot go on past it (an unfinished round). `last`: no round
        follows it in the record."""
        raise NotImplementedError

    def refuse_foreign_cards(self, rnd: Round, foreign: Mapping[AnyCard, NotationError]) -> None:
        """A card word of another game (the Joker in a game without one), refused at its token with this
        game's ruling, before the family's bridge sees the round: a bridge gets only its game's words."""
        if not _holds_any(rnd, foreign.keys()):
            return
        groups = [line.cards for line in rnd.hand_lines] + [trick.plays for trick in rnd.tricks]
        found = [play for plays in groups if not foreign.keys().isdisjoint(plays.cards)
                 for play in plays if play.card in foreign]
        found += [play for call in rnd.calls if isinstance(call, Take) for play in (call.card, call.point)
                  if play.card in foreign]
        if found:
            play = min(found, key=lambda play: play.pos)
            error = foreign[play.card]
            self.problem(play.pos, error.reason, "card-not-in-deck", error.rule, play.length)

    def seats_and_leader(self, rnd: Round, dealer: int, count: int) -> tuple[list[tuple[int, ...]], int] | None:
        """Who played each card of the first `count` tricks, and who leads the trick after them, from seat
        order and the cards alone (the family's own trick-winner rule): the recorder shows whose turn it is
        without hands. None: the family cannot tell (the recorder then asks the engine)."""
        return None

    def stand_in_hands(self, number: int, known: Sequence[Collection[Any]], sizes: Sequence[int],
                       refuses: Sequence[Callable[[Any], bool] | None]) -> tuple[tuple[Any, ...], ...] | None:
        """A stand-in deal for round `number`, unfinished and written without deal lines (`stand_in`): seat i
        gets the cards `known[i]` the record proves it was dealt (played, passed) and `sizes[i]` cards in all,
        the rest drawn from the cards nobody is known to hold, never one `refuses[i]` says no to (a suit it
        has shown void in). The draw is seeded by the round, so the same record draws the same deal. Every
        deal that fits the record plays its items alike (a card's legality rests on what the record proves),
        so any one will do; `ReplayedGame.drawn_round` says its hands are not known. None: no such deal
        (the record breaks a rule, which a replay with hands would report)."""
        deck = self.config.deck
        placed = set().union(*known)
        room = [size - len(cards) for size, cards in zip(sizes, known)]
        if any(free < 0 for free in room):
            return None
        pool = [card for card in deck if card not in placed]
        try:
            drawn = deal_unknown(pool, room, refuses, random.Random(f"stand-in deal {number}"))
        except ValueError:
            return None
        self.out.drawn_round = number
        order = {card: index for index, card in enumerate(deck)}
        return tuple(tuple(sorted({*cards, *extra}, key=lambda card: order.get(card, -1)))
                     for cards, extra in zip(known, drawn))

    def resume_from(self, state: Any) -> None:
        """Go on from a saved engine state (the recorder checks only the round being recorded): the game
        plays on a fresh table of it. A bridge that keeps the table at hand extends this."""
        self.game.table = self.game.rules.table(state, record=self.events)

    def push(self, move: Any, origin: Origin, pos: Pos, length: int = 1) -> tuple[Any, ...]:
        try:
            events = self.game.push(move)
        except IllegalMove as error:
            self.problem(pos, error.reason, error.code, error.rule, length)
            raise AssertionError("unreachable") from None  # pragma: no cover
        if self.history:
            self.out.origins.append(origin)
        return events

    def seat(self, name: str, pos: Pos, what: str = "player") -> int:
        seat = self.config.seat_of(name)
        if seat is None:
            self.problem(pos, f"unknown {what} \"{name}\" (players: {' '.join(self.config.players)})",
                         "unknown-player", self.game.rules.seats_rule, len(name))
        return seat  # type: ignore[no-any-return]

    def lines_by_seat(self, rnd: Round, kind: str, rule: str | None) -> dict[int, HandLine]:
        """A round's `kind` lines (`deal`, `pass`) by seat; a second one for a seat is refused at it (`rule`: the
        family's ruling of that line)."""
        found: dict[int, HandLine] = {}
        for line in rnd.hand_lines:
            if line.kind != kind:
                continue
            seat = self.seat(line.player, line.player_pos)
            if seat in found:
                self.problem(line.pos, f"a second {kind} line for {self.config.players[seat]} in "
                             f"{self.wording.round_word} {rnd.header.number}", f"duplicate-{kind}", rule, len(kind))
            found[seat] = line
        return found

    def check_deal_lines(self, rnd: Round, spec: DealLines) -> tuple[dict[int, HandLine], dict[str, HandLine]]:
        """A round's deal lines (and its other places' lines, `spec.places`) checked on their own, in the order
        written (`spec.rule`): one line per seat or place, cards of the pack, none twice, each line its size.
        What the engine checks of a whole deal; checked here because the places left out may still have to be
        inferred. Messages as the engines word them. Returns the deal lines by seat and the places' by kind."""
        names = self.config.players
        rule = spec.rule
        deck = spec.deck
        places = {place.kind: place for place in spec.places}
        deals: dict[int, HandLine] = {}
        others: dict[str, HandLine] = {}
        placed: dict[Any, int | Place] = {}  # card -> seat, or the place it is dealt to

        def name(where: int | Place) -> str:
            return where.name if isinstance(where, Place) else names[where]

        for line in rnd.hand_lines:
            where: int | Place
            place = places.get(line.kind)
            if place is not None:
                if line.kind in others:
                    self.problem(line.pos, f"a second {line.kind} line in {self.wording.round_word} "
                                 f"{rnd.header.number}", "duplicate-deal", rule, len(line.kind))
                others[line.kind] = line
                where = place
            elif line.kind == "deal":
                seat = self.seats.get(line.player)
                if seat is None:
                    seat = self.seat(line.player, line.player_pos)  # reported there, or matched ignoring case
                if seat in deals:
                    self.problem(line.pos, f"a second deal line for {names[seat]} in {self.wording.round_word} "
                                 f"{rnd.header.number}", "duplicate-deal", rule, len(line.kind))
                deals[seat] = line
                where = seat
            else:
                continue  # another game's line: the family's `refuse_foreign_items` reports it
            plays = line.cards
            plain = plays.plain
            cards = plays.cards
            if plain and deck.issuperset(cards) and placed.keys().isdisjoint(cards) and len(set(cards)) == len(cards):
                placed.update(dict.fromkeys(cards, where))  # what the loop below finds nothing wrong with
                cards = ()
            for index, card in enumerate(cards):
                if not plain:
                    self.refuse_line_marks(plays[index], line.kind)
                if card not in deck:
                    holds = where.holds if isinstance(where, Place) else f"is dealt to {names[where]}"
                    self.problem(plays[index].pos, f"{card} {holds}, but it is not in the pack ({spec.pack_text})"
                                 f"{meant_card(card)}", "card-not-in-deck", rule, plays[index].length)
                if card in placed:
                    first = placed[card]
                    twice = f"twice to {name(where)}" if first == where else f"to {name(first)} and to {name(where)}"
                    self.problem(plays[index].pos, f"{card} is dealt {twice}", "card-twice", rule, plays[index].length)
                placed[card] = where
            size = where.size if isinstance(where, Place) else spec.hand_size
            if len(plays.cards) != size:
                self.problem(line.pos, f"{name(where)} is dealt {len(plays.cards)} cards, not {size}", "invalid-deal",
                             rule, len(line.kind))
        return deals, others

    def refuse_line_marks(self, play: Play, kind: str) -> None:
        """`check_deal_lines`' hook for a card of a `kind` line written with marks: what the family refuses of
        them there (nothing, where its `check_notation` has refused every mark already)."""

    def open_round(self, number: int, rnd: Round, dealer: int) -> None:
        """A round header's checks, in every game: no round after the game's end (`over_text`, cited with the
        length ruling), rounds numbered from 1 in order, and the dealer the rules say (`dealer`)."""
        header = rnd.header
        at_header = len(f"R{header.number}")
        if self.game.is_over:
            self.problem(header.pos, self.over_text(), "too-many-rounds", self.wording.length_rule, at_header)
        if header.number != number:
            word = self.wording.round_word
            self.problem(header.pos, f"expected {word} R{number}, found R{header.number} ({word}s are numbered "
                         "from 1, in order)", "round-number", None, at_header)
        self.check_dealer(header, number, dealer)

    def over_text(self) -> str:
        """Why no round follows: the game is over (the family may say more)."""
        return f"the game is over after {self.config.rounds} {self.wording.round_word}s"

    def check_dealer(self, header: RoundHeader, number: int, expected: int) -> None:
        """The dealer a round header names is the one the rules say (the first from the Dealer tag)."""
        dealer = self.seat(header.dealer, header.dealer_pos)
        if dealer == expected:
            return
        if number == 1:
            why = ("as the Dealer tag says" if self.record.tag("Dealer") else
                   "with no Dealer tag, the first player deals")
        else:
            why = f"the deal moves one seat left each {self.wording.round_word}"
        self.problem(header.dealer_pos, f"{self.wording.round_word} {number} is dealt by "
                     f"{self.config.players[expected]}, not {header.dealer} ({why})", "wrong-dealer",
                     self.wording.dealer_rule, len(header.dealer))

    # ---------------------------------------------------------------- items a game does not have

    def refuse_foreign_items(self, rnd: Round, rule: str | None, *, last: bool = False) -> None:
        """An item of another game's notation, reported at its token with the game's ruling (`rule`): a round
        header's count where the game has none, or none where it has one (unless the count is still due:
        `count_due`), and a line, a call or an end line whose word is none of the game's (`own_items`: the
        words its family declares, DGN's items as it has them; a family that declares none writes only its
        headers and tricks)."""
        own = self.own_items
        rules = self.config.rules
        header = rnd.header
        if own.count_word is not None and header.pass_count is None and not self.count_due(rnd, last=last):
            self.problem(header.pos, f"a {rules} round header says its {own.count_word} count: R{header.number} "
                         f"dealer {header.dealer} {own.count_word} <n>", f"missing-{own.count_word}-count", rule,
                         len(f"R{header.number}"))
        if own.count_word is None and header.pass_count is not None:
            word = header.count_word or next(iter(vocabulary().header_counts), "")
            self.problem(header.pass_pos, f"a {rules} {self.wording.round_word} has no {word} count: write "
                         f"R{header.number} dealer {header.dealer}", "item-not-allowed", rule, len(word))
        for line in rnd.hand_lines:
            if line.kind not in own.lines:
                self.problem(line.pos, f"a {rules} game has no `{line.kind}` lines", "item-not-allowed", rule,
                             len(line.kind))
        for call in rnd.calls:
            if not own.calls or (call.kind and call.kind not in own.calls):
                self.problem(call.pos, f"a {rules} game has no `{call.kind}` lines", "item-not-allowed", rule,
                             len(call.kind))
        end = rnd.end
        if end is not None and (not own.ends or (end.kind and end.kind not in own.ends)):
            word = end.kind or next(iter(vocabulary().words(Shape.END)), "")
            self.problem(end.pos, f"a {rules} game has no `{word}` line", "item-not-allowed", rule, len(word))

    @staticmethod
    def count_due(rnd: Round, *, last: bool) -> bool:
        """Whether a round header without its count is a game stopped before the dealer chose it: the record's
        last round, holding nothing but deal lines (`Position.game()` writes a game cut there so)."""
        return (last and rnd.header.pass_count is None and not rnd.tricks and not rnd.calls and rnd.end is None
                and all(line.kind == "deal" for line in rnd.hand_lines))

    def refuse_every_mark(self, rnd: Round, rule: str | None) -> None:
        """`refuse_marks` on every card of a round's lines and tricks, for a game whose cards carry no choice
        (no victim, no high or low, no given suit)."""
        for plays in [line.cards for line in rnd.hand_lines] + [trick.plays for trick in rnd.tricks]:
            if not plays.plain:
                for play in plays:
                    self.refuse_marks(play, choice=False, sign=False, rule=rule)

    def refuse_marks(self, play: Play, *, choice: bool, sign: bool, rule: str | None) -> None:
        """`>id`, `+`/`-` or a Joker's suit on a card where this game has no such choice."""
        rules = self.config.rules
        if not choice and play.choice is not None:
            self.problem(play.choice.pos, f"a {rules} game has no Clubs victims: `>{play.choice.player}` names "
                         "nothing", "choice-not-allowed", rule, len(play.choice.player) + 1)
        if not sign and (play.sign is not None or play.suit is not None):
            mark = (play.suit.value if play.suit is not None else "") + (play.sign or "")
            self.problem(Pos(play.pos.line, play.pos.column + len(str(play.card))),
                         f"`{mark}` after {play.card}: a {rules} game has no high, low or given suits",
                         "choice-not-allowed", rule, len(mark))

    # ---------------------------------------------------------------- the shape of a hand
    # For families whose config says `plays_per_trick` (one card per player) and whose rounds have
    # `tricks_per_round` tricks.

    def tricks_per_round(self) -> int:
        """How many tricks a round has (the config's `tricks_per_hand`, unless the family says otherwise)."""
        count: int = self.config.tricks_per_hand
        return count

    def check_trick_number(self, number: int, index: int, written: int, pos: Pos, *, beyond: bool) -> None:
        length = len(f"{written}.")
        if beyond:
            self.problem(pos, f"{self.wording.round_word} {number} has only {self.tricks_per_round()} tricks",
                         "too-many-tricks", self.wording.round_rule or self.wording.trick_rule, length)
        if written != index:
            missing = f"trick {index} is missing: " if written > index else ""
            self.problem(pos, f"{missing}expected trick {index}., found {written}.", "trick-number", None, length)

    def trick_too_long(self, index: int, pos: Pos, length: int) -> None:
        per_trick = self.config.plays_per_trick
        self.problem(pos, f"trick {index} already has its {per_trick} cards, one from each player",
                     "trick-too-long", self.wording.trick_rule, length)

    def trick_too_short(self, index: int, count: int, pos: Pos, length: int) -> None:
        per_trick = self.config.plays_per_trick
        self.problem(pos, f"trick {index} has {count} card{'s' if count != 1 else ''}; it needs {per_trick}, "
                     "one from each player", "trick-too-short", self.wording.trick_rule, length)

    def playing(self, number: int) -> bool:
        """Whether hand `number`'s tricks are still being played (its play phase)."""
        raise NotImplementedError

    def card_move(self, plays: Plays, position: int) -> Any:
        """A trick's card as the game's move, read by the game's own words (`Rules.parse_move`): its card word
        (`Play.card_word`: the card with the suit given and the sign, which a game reads as part of the move);
        a `>id` and an annotation are read apart. While tricks are played a card's words mean one move in every
        game of the rule set (`Rules.words_read_alike`), so each is read once a process (`_READ_MOVES`). A word
        the game refuses is reported at its token."""
        rules = self.game.rules
        card: object = None
        if plays.plain:  # the card alone: its word is the card's own
            card = plays.cards[position]
            move = _READ_MOVES.get((rules, card))
            if move is not None:
                return move
            word = str(card)
        else:
            word = plays[position].card_word
        move = self._read((rules, word), word, lambda: (plays[position].pos, plays[position].length),
                          "card-not-in-deck")
        if card is not None and rules.words_read_alike:
            _remember((rules, card), move)
        return move

    def read_move(self, text: str, pos: Pos, length: int) -> Any:
        """An item's move read by the game's own words (`Rules.parse_move`) from the item's text (a bid, a take,
        a Clubs victim, a pass count). Such an item names its player, so its words mean one move in every game
        of the rule set with those players: each text is read once a process (`_READ_MOVES`). A refusal of the
        words is reported at the item, with the game's ruling."""
        return self._read((self.game.rules, self.config.players, text), text, lambda: (pos, length), "not-a-move")

    def _read(self, key: tuple[object, ...], text: str, place: Callable[[], tuple[Pos, int]], code: str) -> Any:
        """`parse_move` of `text`, remembered under `key`; a refusal reported at `place()` with `code`."""
        move = _READ_MOVES.get(key)
        if move is None:
            rules = self.game.rules
            try:
                move = rules.parse_move(self.words_state(), text)
            except NotationError as error:
                pos, length = place()
                within = error.column - 1  # where in the words the fault is, if they are the token's own length
                if 0 < within < length and len(text) == length:
                    pos, length = Pos(pos.line, pos.column + within), length - within
                self.problem(pos, error.reason, error.code or code, error.rule, length)
            if rules.words_read_alike:  # the family's promise (`Rules.words_read_alike`); else read each time
                _remember(key, move)
        return move

    def line_move(self, line: HandLine, code: str, state: Any = None) -> Any:
        """A hand line that is one move (Fitzgerald's pass line, `pass Ann 9D 12H`: R6), read by the game's own
        words (`Rules.parse_move`) in `state` (by default `words_state()`): the line as written where the reader
        kept it, else its words (its word, its player's id, its cards). A refusal is reported at the word at
        fault, with `code` and the game's ruling. Each line is read afresh: unlike a card, a line is seldom
        written twice, so remembering it would only crowd out the cards."""
        plays = line.cards
        source = plays.source_line()
        if source is not None:
            text, line_no = source
            spans = None
        else:  # each word with its place: the line's word, its player's id, its cards
            spans = [(line.kind, line.pos, len(line.kind)), (line.player, line.player_pos, len(line.player)),
                     *((str(play.card) if plays.plain else play.card_word, play.pos, play.length) for play in plays)]
            text = " ".join(word for word, _, _ in spans)
        try:
            return self.game.rules.parse_move(self.words_state() if state is None else state, text)
        except NotationError as error:
            if spans is None:  # the line as written: the column is the file's
                found = _WORD_AT.match(text, error.column - 1)
                pos, length = Pos(line_no, error.column), len(found.group()) if found else 1
            else:  # the word the column falls in
                start, (_, pos, length) = 1, spans[0]
                for word, place, size in spans:
                    if start > error.column:
                        break
                    pos, length = place, size
                    start += len(word) + 1
            self.problem(pos, error.reason, code, error.rule, length)

    def words_state(self) -> Any:
        """The state a card's words are read in (`card_move`): the game's, unless the family plays a hand on
        a state of its own."""
        return self.game.state

    def play_by_card(self, number: int, rnd: Round, *, last: bool, start: tuple[int, int],
                     move_of: Callable[[Plays, int], Any] | None = None,
                     push: Callable[[Any, Plays, int], None] | None = None) -> bool:
        """Hand `number`'s tricks card by card from `start` (the tricks done and the card to resume at, after
        a check path's run): each card's move (`move_of(plays, position)`, by default the game's own words:
        `card_move`) pushed (`push(move, plays, position)`, by default `push_card`), a refusal reported by the
        family's `refused_play`, then the family's `after_card` and, once a trick is whole, its `after_trick`;
        False when the hand is unfinished (`round_unfinished`)."""
        move_of = move_of or self.card_move
        push = push or self.push_card
        per_trick = self.config.plays_per_trick
        tricks = rnd.tricks
        done, resume = start
        for index, trick in enumerate(tricks[done:], done + 1):
            self.check_trick_number(number, index, trick.number, trick.pos, beyond=not self.playing(number))
            plays = trick.plays
            cards = plays.cards
            for position in range(resume if index == done + 1 else 0, len(cards)):
                if position >= per_trick:
                    self.trick_too_long(index, plays[position].pos, plays[position].length)
                move = move_of(plays, position)
                try:
                    push(move, plays, position)
                except IllegalMove as error:
                    self.refused_play(error, rnd, index, position)
                self.after_card(plays, position)
            if len(cards) < per_trick:
                if index < len(tricks) or not last:
                    self.trick_too_short(index, len(cards), trick.pos, len(f"{trick.number}."))
                return self.round_unfinished(rnd)
            self.after_trick(plays)
        if self.playing(number):
            if not last:
                self.hand_too_short(number, len(tricks), rnd)
            return self.round_unfinished(rnd)
        return True

    def after_card(self, plays: Plays, position: int) -> None:
        """After a card of `plays` is pushed: what the family's game asks next (a victim it names), if anything."""

    def after_trick(self, plays: Plays) -> None:
        """After a whole trick: what the family checks of it (the marks no move used), if anything."""

    def round_unfinished(self, rnd: Round) -> bool:
        """`play_by_card`'s answer for a round it stops in, unfinished (False); the family may report what
        cannot stand in an unfinished round first."""
        return False

    def push_card(self, move: Any, plays: Plays, position: int) -> None:
        """`play_by_card`'s usual `push`: the move, with its token as its origin where the history is kept."""
        self.game.push(move)
        if self.history:
            self.out.origins.append(plays[position])

    def refused_play(self, error: IllegalMove, rnd: Round, index: int, position: int) -> None:
        """A card the engine refuses: reported at its token (the family says how)."""
        raise NotImplementedError

    def deal_refused(self, error: IllegalMove, rnd: Round, hint: str = "") -> None:
        """A deal the engine refuses (written, inferred or both), reported where the record shows the fault, in
        every game alike: the card the error names in the deal line of the seat it names (the later, if that line
        has it twice); else the card's first token in the round (its deal lines, its other lines, its tricks), or
        its second where the error says it is dealt twice (a hand inferred from what its player played); else the
        seat's deal line; else, with no seat named, the first deal line; else the round's header. `hint`: what the
        family adds to the engine's words (what a card of no deck was meant to be)."""
        header = rnd.header
        deal_lines = rnd.lines("deal")
        seat, card = error.seat, error.card
        own = next((line for line in deal_lines if self.config.seat_of(line.player) == seat), None) \
            if seat is not None else None
        pos, length = header.pos, len(f"R{header.number}")
        named: list[Play] = []
        if card is not None and own is not None:
            named = [play for play in own.cards if play.card is card]
        if named:
            pos, length = named[-1].pos, named[-1].length
        elif card is not None and (named := [
                play for plays in ([line.cards for line in deal_lines]
                                   + [line.cards for line in rnd.hand_lines if line.kind != "deal"]
                                   + [trick.plays for trick in rnd.tricks])
                for play in plays if play.card is card]):
            twice = isinstance(error, CardTwice) or len(error.cards) > 1
            play = named[1] if twice and len(named) > 1 else named[0]
            pos, length = play.pos, play.length
        elif own is not None:
            pos, length = own.pos, len(own.kind)
        elif seat is None and deal_lines:
            pos, length = deal_lines[0].pos, len(deal_lines[0].kind)
        self.problem(pos, error.reason + hint, error.code, error.rule, length)

    def check_tricks_without_hands(self, number: int, rnd: Round, deals: Mapping[int, HandLine], *,
                                   last: bool) -> tuple[dict[int, list[Any]], bool]:
        """A round's tricks checked card by card, in the order written, where some hands are unknown (so not on
        the engine): who played each card follows from the cards (the family's `trick_seats`), so everything
        that needs no hands is checked as a replay on the hands would: trick numbers and sizes, a card of no
        deck (the family's `not_in_deck`), a card played again (`played_before`), a card against the deal
        lines written (`deals`: a seat with one plays only its cards, a seat without none of another's), and a
        round that ends short when another follows. Returns the cards each seat played, and whether the round
        is complete."""
        config = self.config
        names, per_trick = config.players, config.plays_per_trick
        deck = frozenset(config.deck)
        holder_of = {card: seat for seat, line in deals.items() for card in line.cards.cards}
        tricks = rnd.tricks
        seats_by_trick = self.trick_seats(rnd, len(tricks))
        played: dict[int, list[Any]] = {seat: [] for seat in range(config.player_count)}
        seen: set[object] = set()
        for index, trick in enumerate(tricks, 1):
            self.check_trick_number(number, index, trick.number, trick.pos, beyond=index > self.tricks_per_round())
            plays = trick.plays
            cards = plays.cards
            for position, card in enumerate(cards):
                if position >= per_trick:
                    self.trick_too_long(index, plays[position].pos, plays[position].length)
                seat = seats_by_trick[index - 1][position]
                if card not in deck:
                    self.not_in_deck(plays[position], seat)
                elif card in seen:
                    self.played_before(rnd, index, position, seat)
                elif deals:
                    name, holder = names[seat], holder_of.get(card)
                    why = None
                    if seat in deals and holder != seat:
                        where = (f"it is dealt to {names[holder]}" if holder is not None else
                                 f"it is not in {name}'s deal line")
                        why = f"{name} does not hold {card} ({where})"
                    elif seat not in deals and holder is not None:
                        why = f"{name} cannot play {card}: it is dealt to {names[holder]}"
                    if why is not None:
                        self.problem(plays[position].pos, why, "card-not-held", self.wording.trick_rule,
                                     plays[position].length)
                seen.add(card)
                played[seat].append(card)
            if len(cards) < per_trick:
                if index < len(tricks) or not last:
                    self.trick_too_short(index, len(cards), trick.pos, len(f"{trick.number}."))
                return played, False
        if len(tricks) < self.tricks_per_round():
            if not last:
                self.hand_too_short(number, len(tricks), rnd)
            return played, False
        return played, True

    def not_in_deck(self, play: Play, seat: int) -> None:
        """A card of no deck of this game, played by `seat` where the hands are unknown: the family's words."""
        self.problem(play.pos, f"{play.card} is not in this game's deck", "card-not-in-deck", self.wording.trick_rule,
                     play.length)

    def trick_seats(self, rnd: Round, count: int) -> list[tuple[int, ...]]:
        """Who played each card of the round's first `count` tricks, as far as the cards tell (the family's
        `seats_and_leader`, from the round's dealer); a family that cannot tell from the cards says so."""
        found = self.seats_and_leader(rnd, self.config.dealer_of_round(rnd.header.number), count)
        return found[0] if found is not None else []

    def played_before(self, rnd: Round, index: int, position: int, mover: int) -> None:
        """A card its player no longer holds, refused at card `position` of trick `index`: if it was played
        earlier in the round, say where and by whom (the family's trick ruling), in every game alike."""
        players, per_trick = self.config.players, self.config.plays_per_trick
        play = rnd.tricks[index - 1].plays[position]
        seats = self.trick_seats(rnd, index)
        for t, earlier in enumerate(rnd.tricks[: min(index, len(seats))]):
            cards = earlier.plays.cards[: position if t == index - 1 else per_trick]
            if play.card in cards:
                first = players[seats[t][cards.index(play.card)]]
                self.problem(play.pos, f"{players[mover]} cannot play {play.card}: it was already played in trick "
                             f"{t + 1} (by {first})", "card-not-held", self.wording.trick_rule, play.length)

    def hand_too_short(self, number: int, count: int, rnd: Round) -> None:
        """A hand that ends short while another follows: reported at its header (DGN allows it there)."""
        needs = self.tricks_per_round()
        wording = self.wording
        self.problem(rnd.header.pos, f"{wording.round_word} {number} has {count} trick{'s' if count != 1 else ''}; "
                     f"it needs {needs}", "round-too-short", wording.round_rule or wording.trick_rule,
                     len(f"R{rnd.header.number}"))

    # ---------------------------------------------------------------- result

    def where_it_stops(self) -> str:
        """Where an unfinished game stops, in words."""
        return "the game is not over"

    def check_result(self) -> None:
        game, config = self.game, self.config
        tag = self.record.tag("Result")
        if tag is None:
            return
        if game.is_over and tag.value == result_value(config, game.standings()):
            return  # as the writer writes it, and right: nothing below would find a problem
        try:
            entries = parse_result(tag.value)
        except TagSyntaxError as error:
            self.tag_problem(tag, str(error), "bad-result", offset=error.offset)
            return
        if entries is None:
            return
        if not game.is_over:
            self.tag_problem(tag, f'{self.where_it_stops()}, so its Result is "*"', "result-unfinished",
                             self.wording.length_rule)
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
                    self.tag_problem(tag, f"unknown player \"{name}\" in Result", "unknown-player", self.game.rules.seats_rule,
                                     side_at, side_len)
                seats.append(seat)
            sides = {config.side_of[s] for s in seats}
            side = sides.pop()
            if sides or tuple(sorted(seats)) != tuple(sorted(config.sides[side])):
                self.tag_problem(tag, f"\"{'+'.join(entry.side)}\" is not a side of this game "
                                 f"(sides: {', '.join(config.side_name(s) for s in range(config.side_count))})",
                                 "bad-result", self.wording.sides_rule, side_at, side_len)
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
            self.tag_problem(tag, "the replay scores " + "; ".join(wrong), "wrong-result", self.wording.result_rule,
                             *first_wrong)


def meant_card(card: object) -> str:
    """For a numbered card of Fitzgerald's deck that a scorer wrote for a court card or an ace (`11D`
    for JD, `1H` for AH), the card they probably meant, as a hint after a "not in the pack" message."""
    if isinstance(card, Card) and not card.court and (card.rank == 1 or 11 <= card.rank <= 14):
        letter = "A" if card.rank == 1 else "JQKA"[card.rank - 11]
        return f"; did you mean {letter}{card.suit.letter}?"
    return ""


def whole_tricks(tricks: Sequence[Any], per_trick: int) -> int:
    """How many of `tricks`, from the first, are written as expected: numbered 1, 2, … each with
    `per_trick` cards (what a check path may play in one run)."""
    count = 0
    for trick in tricks:
        if trick.number != count + 1 or len(trick.plays.cards) != per_trick:
            break
        count += 1
    return count


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


__all__ += ["Reporter", "Choice", "HandLine", "DealLines", "Place"]
