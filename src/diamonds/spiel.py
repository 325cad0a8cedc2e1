"""The games in OpenSpiel: every rule set registered as a pyspiel game (the `spiel` extra, docs/spiel.md).

    >>> import pyspiel, diamonds.spiel
    >>> game = pyspiel.load_game("diamonds_kirk(hands=1)")

Importing the module registers `diamonds_<rules>` for every rule set of every
installed family (`diamonds_1e`, `diamonds_2e`, `diamonds_bga`,
`diamonds_kirk`, `diamonds_bidding`). A state wraps a `diamonds.Position`
and uses only its public API: the deal is dealt one card at a time as
explicit chance nodes (the card drawn uniformly from those left), decisions
are the family's action ids (the PettingZoo environment's: a move of several
ids, a Fitzgerald pass or a bidding take, is chosen one id at a time by the
same player), the tensors are the environment's observation built from the
player's `View`, and `resample_from_infostate` redraws the hidden cards with
the family's own `determinise`.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyspiel

import diamonds
from diamonds.bots import family_bot, table_of
from diamonds.bots.observe import Choices, Codec, Layout, PublicRecord, choices, codec, describe, observation_vector, record_of
from diamonds.core import DEFAULT_RULES, rules_for
from diamonds.core.simulate import default_names

__all__ = ["GAMES", "PREFIX", "DiamondsGame", "DiamondsState", "resample"]

PREFIX = "diamonds_"
#: A game whose length the rules do not bound (Kirk's `Target`, the bidding game's B10) is bounded here, for
#: OpenSpiel's `max_game_length`, as if it ended within this many rounds (random play ends in about ten).
ROUND_CAP = 100
#: Bound on |utility| given to OpenSpiel (`min_utility`, `max_utility`): no score difference of these games
#: nears it (a whole Fitzgerald game is worth the Supply, 235 points; Kirk's and the bidding game's far less).
UTILITY_BOUND = 10_000.0


def _game_names() -> dict[str, str]:
    return {PREFIX + rules: rules for ids in diamonds.rule_sets().values() for rules in ids}


#: The registered OpenSpiel names and the Rules tag value each plays.
GAMES: dict[str, str] = _game_names()


def _parameters(rules: str) -> dict[str, Any]:
    """`players`, the first `dealer`'s seat, `variants` (words separated by spaces or commas), and one int per
    option tag of the rule set, lower-cased (Kirk's `hands`, `target`), 0 leaving the tag out."""
    rule_set = rules_for(rules)
    params: dict[str, Any] = {"players": rule_set.default_players, "dealer": 0, "variants": ""}
    params.update({tag.lower(): 0 for tag in rule_set.option_tags})
    return params


def _game_type(name: str, rules: str) -> pyspiel.GameType:
    rule_set = rules_for(rules)
    return pyspiel.GameType(
        short_name=name,
        long_name=f"Diamonds: {rule_set.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(rule_set.player_counts),
        min_num_players=min(rule_set.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(rules),
    )


class DiamondsGame(pyspiel.Game):
    """One rule set with its parameters; `new_position()` is the `diamonds.Position` a new state wraps."""

    RULES = DEFAULT_RULES  # each registered subclass names its rule set

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = self.RULES
        spec = _parameters(rules)
        values = {**spec, **(params or {})}
        self.rules = rules
        self.players = int(values["players"])
        self.dealer = int(values["dealer"])
        self.variants = tuple(word for word in str(values["variants"]).replace(",", " ").split() if word)
        self.options = {tag: str(values[tag.lower()]) for tag in rules_for(rules).option_tags if values[tag.lower()]}
        config = self.new_position().config
        self.codec: Codec = codec(rules)
        self.deck = tuple(config.deck)
        self.layout = Layout(config, self.codec)
        self.obs_size = self.layout.size
        self.deal_shape: tuple[tuple[str, tuple[int, ...]], ...] | None = None  # see _deal_shape
        rounds = getattr(config, "rounds", None) or getattr(config, "hands", None) or ROUND_CAP
        d, n = len(config.deck), config.player_count
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.action_count(config),
            max_chance_outcomes=d,
            num_players=n,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            utility_sum=0.0,
            max_game_length=rounds * (2 * d + 8 * n + 8),  # per round: every card twice (passes), bids, takes...
        )
        super().__init__(_game_type(PREFIX + rules, rules), info, {**spec, **(params or {})})

    def new_position(self) -> Any:
        return diamonds.Position(self.rules, default_names(self.players), dealer=self.dealer, variants=self.variants,
                                 options=self.options or None)

    def new_initial_state(self) -> DiamondsState:
        return DiamondsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            raise ValueError("only a player's own observation is offered: their private cards and the public facts")
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(self, perfect_recall=perfect_recall)


class _Table:
    """What a state holds: the position, the cards of a deal in progress, the ids of a move in progress.
    Copied cheaply (the position's frozen states are shared), which is how pyspiel clones a Python state."""

    __slots__ = ("position", "drawn", "prefix", "record", "choices", "seen")

    def __init__(self, position: Any, drawn: list[int], prefix: list[int], record: PublicRecord | None = None,
                 seen: list[list[str]] | None = None) -> None:
        self.position, self.drawn, self.prefix = position, drawn, prefix
        self.record = record if record is not None else record_of(position)  # kept up to date by push
        self.choices: tuple[int, Choices] | None = None  # (ply, the legal moves by their ids)
        self.seen = seen  # per player, the moves as they saw them (`View.public_moves`, as text); None: not yet

    def push(self, move: Any) -> None:
        """Make a move, and note it in the public record and in each player's sight of the moves."""
        position = self.position
        lines = _seen_lines(position, move) if self.seen is not None else None
        self.record.update(position.push(move))
        if self.seen is not None and lines is not None:
            for seat, line in enumerate(lines(position)):
                self.seen[seat].append(line)

    def moves_seen(self, player: int) -> list[str]:
        """The moves so far as `player` saw them, one line each (`Bob: 9H`, `Cat: ?`, their own deal)."""
        if self.seen is None:
            self.seen = [[_seen_line(who, text) for who, text in self.position.view(seat).public_moves]
                         for seat in range(len(self.position.players))]
        return self.seen[player]

    def moves_by_ids(self, fam: Codec) -> Choices:
        ply = len(self.position)
        if self.choices is None or self.choices[0] != ply:
            self.choices = (ply, choices(self.position, fam))
        return self.choices[1]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        seen = None if self.seen is None else [list(lines) for lines in self.seen]
        return _Table(self.position.copy(), list(self.drawn), list(self.prefix), self.record.copy(), seen)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (pyspiel's serialisation of a Python state) as the set-up and the moves, replayed on load."""
        position = self.position
        config = position.config
        setup = {"rules": position.rules, "players": list(position.players), "dealer": config.first_dealer,
                 "variants": [getattr(v, "value", v) for v in getattr(config, "variants", ())],
                 "options": _options_of(config)}
        return {"setup": setup, "moves": list(position.moves), "drawn": list(self.drawn), "prefix": list(self.prefix)}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        setup = saved["setup"]
        position = diamonds.Position(setup["rules"], setup["players"], dealer=setup["dealer"],
                                     variants=setup["variants"], options=setup["options"])
        for move in saved["moves"]:
            position.push(move)
        self.position, self.drawn, self.prefix = position, saved["drawn"], saved["prefix"]
        self.record = record_of(position)
        self.choices = None
        self.seen = None


def _seen_line(who: str | None, text: str | None) -> str:
    return f"{who or '-'}: {'?' if text is None else text}"


def _seen_lines(position: Any, move: Any) -> Any:
    """Before `move` is made: a function of the position after it giving each player's line for it, as
    `View.public_moves` shows a move (a deal: the viewer's own hand; a private move of another: hidden)."""
    rules, state, players = position.rule_set, position.state, position.players
    text = rules.move_text(state, move)
    if rules.is_chance(state):
        word = text.split()[0]
        return lambda after: [_seen_line(None, f"{word} {players[seat]} "
                                               + " ".join(str(card) for card in rules.hand(after.state, seat)))
                              for seat in range(len(players))]
    actor = rules.to_move(state)
    private = actor is not None and rules.is_private(state, move)
    who = None if actor is None else players[actor]
    return lambda after: [_seen_line(who, None if private and seat != actor else text) for seat in range(len(players))]


def _options_of(config: Any) -> dict[str, str] | None:
    """The option tags a set-up was made with (read back from its config by the tag's lower-cased name)."""
    options = {tag: str(value) for tag in rules_for(config.rules).option_tags
               if (value := getattr(config, tag.lower(), None)) is not None}
    return options or None


class DiamondsState(pyspiel.State):
    """A game in progress (see the module)."""

    def __init__(self, game: DiamondsGame, position: Any = None, record: PublicRecord | None = None) -> None:
        super().__init__(game)
        self.table = _Table(position if position is not None else game.new_position(), [], [], record)

    # ---------------------------------------------------------------- the game
    @property
    def position(self) -> Any:
        return self.table.position

    def _game(self) -> DiamondsGame:
        game = self.get_game()
        assert isinstance(game, DiamondsGame)
        return game

    def current_player(self) -> int:
        position = self.table.position
        if position.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if position.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return int(position.to_move_seat)

    def is_terminal(self) -> bool:
        return bool(self.table.position.is_over)

    def _legal_actions(self, player: int) -> list[int]:
        following = self.table.moves_by_ids(self._game().codec)[1].get(tuple(self.table.prefix), [])
        return sorted(set(following))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        drawn = set(self.table.drawn)
        left = [card for card in range(len(self._game().deck)) if card not in drawn]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.position.is_chance:  # a card of the deck not yet drawn (`chance_outcomes`), else refused at once
            if not 0 <= action < len(self._game().deck) or action in table.drawn:
                raise pyspiel.SpielError(f"chance action {action} is not a card left to deal "
                                         f"(0 to {len(self._game().deck) - 1}, none drawn twice)")
            table.drawn.append(int(action))
            shape = _deal_shape(self._game(), table.position)
            if len(table.drawn) == sum(sum(sizes) for _, sizes in shape):
                table.push(_deal_of(self._game(), table.position, table.drawn))
                table.drawn = []
            return
        ids = (*table.prefix, int(action))
        complete, following = table.moves_by_ids(self._game().codec)
        move = complete.get(ids)
        if move is not None:
            table.push(move)
            table.prefix = []
        elif ids in following:
            table.prefix = list(ids)
        else:
            raise pyspiel.SpielError(f"action {action} is not legal here")

    def _action_to_string(self, player: int, action: int) -> str:
        game = self._game()
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {game.deck[action]}"
        return describe(self.table.position, self.table.prefix, action, game.codec, self.table.moves_by_ids(game.codec))

    def returns(self) -> list[float]:
        position = self.table.position
        if not position.is_over:
            return [0.0] * len(position.players)
        return utilities(position)

    def __str__(self) -> str:
        table = self.table
        extra = f" (dealt {len(table.drawn)})" if table.drawn else ""
        if table.prefix:
            extra += f" (chosen {' '.join(map(str, table.prefix))})"
        return repr(table.position) + extra

    # ---------------------------------------------------------------- imperfect information
    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> DiamondsState:
        """A state `player_id` cannot tell from this one: the same moves as they saw them, the cards hidden
        from them redrawn by the family's `determinise` (OpenSpiel's ISMCTS calls this)."""
        seed = int(probability_sampler() * 2**31) if probability_sampler is not None else None
        world = resample(self.table.position, player_id, random.Random(seed))
        state = DiamondsState(self._game(), world, self.table.record.copy())  # the same public facts
        state.table.drawn = list(self.table.drawn)
        state.table.prefix = list(self.table.prefix)
        return state


def _deal_shape(game: DiamondsGame, position: Any) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The fields of the family's deal and how many cards each holds, in the order the cards are dealt: a
    field of hands (a tuple of tuples: the sizes per seat) or of cards (a kitty: one size)."""
    if game.deal_shape is None:
        template = position.chance_move(random.Random(0))
        shape: list[tuple[str, tuple[int, ...]]] = []
        for field in dataclasses.fields(template):
            value = getattr(template, field.name)
            if isinstance(value, tuple) and value and all(isinstance(part, tuple) for part in value):
                shape.append((field.name, tuple(len(part) for part in value)))
            elif isinstance(value, tuple):
                shape.append((field.name, (len(value),) if value else (0,)))
        game.deal_shape = tuple(shape)
    return game.deal_shape


def _deal_of(game: DiamondsGame, position: Any, drawn: Sequence[int]) -> Any:
    """The family's deal move giving the drawn cards out in order: seat by seat, then the rest (a kitty)."""
    template = position.chance_move(random.Random(0))
    place = {card: i for i, card in enumerate(game.deck)}
    cards = iter(game.deck[i] for i in drawn)
    changes: dict[str, Any] = {}
    for name, sizes in _deal_shape(game, position):
        value = getattr(template, name)
        parts = tuple(tuple(sorted((next(cards) for _ in range(size)), key=place.__getitem__)) for size in sizes)
        nested = bool(value) and isinstance(value[0], tuple)
        changes[name] = parts if nested else (parts[0] if parts else ())
    return dataclasses.replace(template, **changes)


def utilities(position: Any) -> list[float]:
    """Each player's side's score less the mean of every player's side's score: zero-sum, and for players
    who play alone their score less the mean of all scores (the environment's `reward="score"`)."""
    standings = position.standings
    by_name = {name: float(standing.score) for standing in standings for name in standing.players}
    scores = [by_name[name] for name in position.players]
    mean = sum(scores) / len(scores)
    return [score - mean for score in scores]


# ---------------------------------------------------------------- resampling hidden cards
def resample(position: Any, seat: int, rng: random.Random, *, tries: int = 20) -> Any:
    """A position with the same moves as `seat` saw them and the cards hidden from `seat` redrawn.

    The family's `determinise` redraws the hidden cards of the state now; the cards it moved are then swapped
    throughout the round (its deal and every move naming them, such as a pass `seat` did not see), so the
    position's history leads to that world: a card the true history had in a hidden place is replaced by the
    card `determinise` put in that place."""
    view = position.view(seat)
    table = table_of(view)
    fam = family_bot(position.rules)
    start = len(position.moves) - len(table.moves)  # the round's moves begin after its deal
    for _ in range(tries):
        world = fam.determinise(table, rng)
        if world is None:
            raise pyspiel.SpielError(
                f"the {position.family.name} family's determinise does not sample at {position.label}")
        swap = _swap(position.state, world, set(position.config.deck))
        moves = position.moves
        copy = position.copy()
        for _ in range(len(moves) - (start - 1)):
            copy.pop()
        try:
            for move in moves[start - 1:]:
                copy.push(_mapped(move, swap))
        except diamonds.IllegalMove:  # pragma: no cover - determinise keeps to what the viewer saw
            continue
        return copy
    raise pyspiel.SpielError(f"no consistent world found for seat {seat} at {position.label}")


def _swap(true: Any, world: Any, deck: set[Any]) -> dict[Any, Any]:
    """Card by card, what the world holds where the true state held another card (see `resample`)."""
    swap: dict[Any, Any] = {}
    for field in dataclasses.fields(true):
        for mine, theirs in _places(getattr(true, field.name), getattr(world, field.name), deck):
            gone = sorted(mine - theirs, key=str)
            came = sorted(theirs - mine, key=str)
            swap.update(zip(gone, came))
    return swap


def _places(true: Any, world: Any, deck: set[Any]) -> Iterator[tuple[set[Any], set[Any]]]:
    """The places holding cards in a state's field (a card, a collection of cards, or a tuple of either per
    seat), as pairs of card sets (true, world)."""
    if true == world:
        return
    if _is_card(true, deck) or _is_card(world, deck):
        yield ({true} if _is_card(true, deck) else set()), ({world} if _is_card(world, deck) else set())
    elif isinstance(true, (frozenset, set)) or (isinstance(true, tuple) and true and _is_card(true[0], deck)):
        yield set(true), set(world)
    elif isinstance(true, tuple) and isinstance(world, tuple) and len(true) == len(world):
        for mine, theirs in zip(true, world):
            yield from _places(mine, theirs, deck)


def _is_card(value: Any, deck: set[Any]) -> bool:
    try:
        return value in deck
    except TypeError:
        return False


def _mapped(value: Any, swap: dict[Any, Any]) -> Any:
    """`value` with every card the swap names replaced (moves are frozen dataclasses of cards and tuples)."""
    try:
        if value in swap:  # a card (cards are dataclasses too: look them up before taking one apart)
            return swap[value]
    except TypeError:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {field.name: _mapped(getattr(value, field.name), swap) for field in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(_mapped(part, swap) for part in value)
    if isinstance(value, frozenset):
        return frozenset(_mapped(part, swap) for part in value)
    return value


# ---------------------------------------------------------------- what a player observes
class Observer:
    """OpenSpiel's observer of a state for one player: the environment's observation vector (docs/bots.md),
    and for the information state (perfect recall) also the order in which the round's cards were played."""

    def __init__(self, game: DiamondsGame, *, perfect_recall: bool) -> None:
        d = len(game.deck)
        self.perfect_recall = perfect_recall
        pieces = [("observation", game.obs_size)]
        if perfect_recall:
            pieces.append(("play_order", d * d))
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size
        if perfect_recall:
            self.dict["play_order"] = self.dict["play_order"].reshape(d, d)

    def set_from(self, state: DiamondsState, player: int) -> None:
        table = state.table
        position = table.position
        game = state._game()
        view = position.view(player)
        record = table.record
        prefix = table.prefix if position.to_move_seat == player else ()
        observation_vector(view, record, prefix, fam=game.codec, layout=game.layout, out=self.dict["observation"])
        for card in _dealt_to(game, position, table.drawn, player):
            self.dict["observation"][card] = 1.0  # the player's cards of a deal in progress (own hand block)
        if self.perfect_recall:
            order = self.dict["play_order"]
            order.fill(0.0)
            for step, card in enumerate(record.order):
                order[step, card] = 1.0

    def string_from(self, state: DiamondsState, player: int) -> str:
        table = state.table
        position = table.position
        game = state._game()
        view = position.view(player)
        lines = [f"seat {player}", f"at {position.label}"]
        if self.perfect_recall:
            lines += table.moves_seen(player)
        else:
            record = table.record
            lines.append(f"round {record.round_no}")
            played = record.order
            lines.append("played " + " ".join(str(game.deck[card]) for card in played))
        for seat, known in enumerate(view.sight.hands):
            lines.append(f"knows {seat}: " + " ".join(sorted(map(str, known))))
        lines.append("scores " + " ".join("?" if s.score is None else str(s.score) for s in view.standings))
        dealt = _dealt_to(game, position, table.drawn, player)
        if dealt:
            lines.append("dealt " + " ".join(str(game.deck[card]) for card in dealt))
        if table.prefix and position.to_move_seat == player:
            lines.append("chosen " + " ".join(map(str, table.prefix)))
        return "\n".join(lines)


def _dealt_to(game: DiamondsGame, position: Any, drawn: Sequence[int], player: int) -> list[int]:
    """The cards of a deal in progress that go to `player`'s hand (the first field of the deal: the hands)."""
    if not drawn:
        return []
    _, sizes = _deal_shape(game, position)[0]
    start = sum(sizes[:player])
    return list(drawn[start:start + sizes[player]])


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name, rules in GAMES.items():
        if name in registered:
            continue
        # One subclass per rule set: pyspiel calls the registered class with the parameters alone.
        game_class = type(f"DiamondsGame_{rules}", (DiamondsGame,), {"RULES": rules, "__doc__": DiamondsGame.__doc__})
        pyspiel.register_game(_game_type(name, rules), game_class)


_register()
