"""Building Diamonds positions by hand, for tests.

Hands and plays are written compactly, the way a person writes them down:

    game = new_game("Ann Bob Cat", dealer="Ann")
    start_round(game, ["9H 1D ...", "5H 6D ...", "7C 1C ..."])   # hands *after* passing
    events = play(game, "5H 7C >Ann 9H")                          # cards, and a Clubs victim

`start_round` deals, lets the dealer choose the pass count and makes every
pass, choosing the dealt hands so that each seat ends up holding exactly the
hand given. Unless `passes` says otherwise, one card is passed and the card a
seat *receives* is the first card written in its hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from diamonds.core import Card, Engine
from diamonds.families.fitzgerald.rules import (
    Area,
    AreaKind,
    ChoosePassCount,
    ChooseVictim,
    Deal,
    Event,
    GameConfig,
    PassCards,
    Phase,
    PlayCard,
    State,
    SuitAction,
    TrickWon,
    apply,
    initial_state,
)
from diamonds.families.fitzgerald.rules.config import TOTAL_POINTS
from diamonds.families.fitzgerald.rules.events import SUPPLY

__all__ = [
    "cards", "card", "new_game", "dealt_hands", "start_round", "play", "run", "actions", "of_type",
    "tricks", "showroom", "vault", "SUPPLY", "last_trick", "first_legal", "play_whole_round",
]


def cards(text: str) -> tuple[Card, ...]:
    """`cards("1D 12h 3♠")`: whitespace-separated cards."""
    return tuple(Card.parse(token) for token in text.split())


def card(text: str) -> Card:
    return Card.parse(text)


def new_game(players: str = "Ann Bob Cat", *, rules: str = "2e", variants: Iterable[str] = (),
             dealer: str | int = 0) -> Engine:
    return Engine.create(players.split(), rules=rules, variants=variants, dealer=dealer)


def showroom(side: int) -> Area:
    return Area(AreaKind.SHOWROOM, side)


def vault(side: int) -> Area:
    return Area(AreaKind.VAULT, side)


def dealt_hands(config: GameConfig, after: Sequence[str],
                passes: Sequence[str] | None = None) -> tuple[tuple[Card, ...], ...]:
    """The hands to deal so that, after the passes (R6), seat s holds `after[s]`."""
    n = config.player_count
    assert len(after) == n, f"{n} hands expected"
    after_cards = [cards(text) for text in after]
    given = _given(config, after, passes)
    received: list[list[Card]] = [[] for _ in range(n)]
    for giver in range(n):
        received[config.pass_target(giver)].extend(given[giver])
    hands = []
    for seat in range(n):
        missing = set(received[seat]) - set(after_cards[seat])
        assert not missing, f"seat {seat} receives {missing} but its hand does not show it"
        kept = [c for c in after_cards[seat] if c not in received[seat]]
        hands.append(tuple(kept) + given[seat])
    return tuple(hands)


def _given(config: GameConfig, after: Sequence[str], passes: Sequence[str] | None) -> list[tuple[Card, ...]]:
    """The cards each seat passes."""
    if passes is None:
        # Each seat receives the first card of its own hand: the giver passes that card.
        return [(cards(after[config.pass_target(giver)])[0],) for giver in range(config.player_count)]
    return [cards(text) for text in passes]


def start_round(game: Engine, after: Sequence[str], *, passes: Sequence[str] | None = None) -> list[Event]:
    """Deal, choose the pass count and pass, so that the hands after passing are `after`."""
    config = game.config
    dealt = dealt_hands(config, after, passes)
    giver_cards = _given(config, after, passes)
    events = list(game.push(Deal(dealt)))
    events += game.push(ChoosePassCount(len(giver_cards[0])))
    for _ in range(config.player_count):  # R6: in the engine's order, from the dealer's left
        seat = game.state.to_move
        events += game.push(PassCards(seat, giver_cards[seat]))
    # The helper's own check: the hands are the ones the test wrote down.
    assert game.state.hands == tuple(frozenset(cards(text)) for text in after)
    assert game.state.phase is Phase.PLAY
    return events


def _move(config: GameConfig, token: str):
    if token.startswith(">"):
        name = token[1:]
        if name == "-":
            return ChooseVictim(None)
        seat = config.seat_of(name)
        assert seat is not None, f"no player {name!r}"
        return ChooseVictim(seat)
    return PlayCard(Card.parse(token))


def play(game: Engine, moves: str) -> list[Event]:
    """Push moves written compactly: a card (`12H`) or a Clubs victim (`>Bob`, `>-` for none)."""
    events: list[Event] = []
    for token in moves.split():
        events.extend(game.push(_move(game.config, token)))
    return events


def run(state: State, moves: str) -> tuple[State, list[Event]]:
    """Like `play`, on a bare State (for positions built with `dataclasses.replace`)."""
    events: list[Event] = []
    for token in moves.split():
        state, step = apply(state, _move(state.config, token))
        events.extend(step)
    return state, events


def of_type(events: Iterable[Event], kind: type) -> list:
    return [event for event in events if isinstance(event, kind)]


def actions(events: Iterable[Event]) -> list[SuitAction]:
    return of_type(events, SuitAction)


def tricks(events: Iterable[Event]) -> list[TrickWon]:
    return of_type(events, TrickWon)


def last_trick(config: GameConfig, hands: Sequence[str], *, leader: int, dealer: int | None = None,
               taken: Sequence[tuple[int, int, int, int]] | None = None,
               tricks_won: Sequence[int] | None = None, showroom: Sequence[int] | None = None,
               vault: Sequence[int] | None = None, supply: int | None = None,
               thief: int | None = None, round_no: int = 1) -> State:
    """A position at the start of the round's last trick, built by hand.

    `hands` hold one card each (two with 2 players); `taken` and `tricks_won`
    are what the earlier tricks gave. The Supply keeps the total at 235 (R3)
    unless given.
    """
    start = initial_state(config)
    n = config.player_count
    showroom = tuple(showroom) if showroom is not None else start.showroom
    vault = tuple(vault) if vault is not None else start.vault
    if supply is None:
        supply = TOTAL_POINTS - sum(showroom) - sum(vault)
    dealer = config.first_dealer if dealer is None else dealer
    return replace(
        start,
        phase=Phase.PLAY,
        round_no=round_no,
        dealer=dealer,
        hands=tuple(frozenset(cards(text)) for text in hands),
        pass_count=1,
        passed=tuple(() for _ in range(n)),
        trick_no=config.tricks_per_round,
        leader=leader,
        taken=tuple(taken) if taken is not None else ((0, 0, 0, 0),) * config.side_count,
        tricks_won=tuple(tricks_won) if tricks_won is not None else (0,) * n,
        showroom=showroom,
        vault=vault,
        supply=supply,
        thief=thief if thief is not None else start.thief,
    )


def first_legal(game: Engine):
    """A deterministic legal move (not the deal): the first one the engine lists, passes made cheaply."""
    state = game.state
    if state.phase is Phase.PASSING:
        seat = state.to_move
        assert seat is not None and state.pass_count is not None
        return PassCards(seat, state.hand(seat)[: state.pass_count])
    return game.legal_moves()[0]


def play_whole_round(game: Engine, hands: tuple[tuple[Card, ...], ...]) -> list[Event]:
    """Deal `hands` and play the round out with `first_legal` moves."""
    events = list(game.push(Deal(hands)))
    round_no = game.state.round_no
    while game.state.phase is not Phase.GAME_OVER and not (
        game.state.phase is Phase.DEAL and game.state.round_no != round_no
    ):
        events += game.push(first_legal(game))
    return events


def allowed_variant_sets(players: int) -> list[tuple[str, ...]]:
    """The variant sets RULINGS allows: partnership with 4 or 6, perfect with 2-5, both with 4.

    Written out from the rulings (not asked of the engine), so that tests over
    every set-up also check which set-ups the engine accepts.
    """
    options: list[tuple[str, ...]] = [()]
    if players in (4, 6):
        options.append(("partnership",))
    if 2 <= players <= 5:
        options.append(("perfect",))
    if players == 4:
        options.append(("partnership", "perfect"))
    return options


SETUPS = [
    (rules, players, variants)
    for rules in ("1e", "2e", "bga")
    for players in range(2, 7)
    for variants in allowed_variant_sets(players)
]


def setup_id(rules: str, players: int, variants: tuple[str, ...]) -> str:
    return f"{rules}-{players}p" + "".join(f"-{v}" for v in variants)
