"""What each family conserves: the per-family half of the conformance suite (`test_families.py`).

The suite plays every registered rule set at random and, after every step,
calls the checks registered here under the family's name. A family with no
entry fails the suite (`test_family_has_invariants`), so whoever registers a
family (entry-point group `diamonds.families`, as the shipped games and the
toy plug-in of tests/toyfamily do) adds its entry here too.

An entry says:

* `max_moves(config)`: an upper bound on the moves of a whole game (deals
  included), so that "the game ends" is checked, not hoped for;
* `state(state)`: what holds in every state (conserved quantities);
* `step(before, move, after, events)`: what holds across one move;
* `final(state, standings)`: who wins, by the family's own tie rule;
* `extra_options`: set-ups the suite plays besides player counts × variants,
  as the option tags' text (e.g. Kirk's `Hands`, `Target`).

Expected numbers are worked out from the rulings here (R3: 235 points; K7:
179 points a hand), never read from the engine's constants.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from diamonds.core.cards import Card, Suit

__all__ = ["FamilyInvariants", "INVARIANTS"]


def _nothing(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class FamilyInvariants:
    max_moves: Callable[[Any], int]
    state: Callable[[Any], None] = _nothing
    step: Callable[[Any, Any, Any, tuple[Any, ...]], None] = _nothing
    final: Callable[[Any, tuple[Any, ...]], None] = _nothing
    extra_options: tuple[Mapping[str, str], ...] = field(default=())


# --------------------------------------------------------------------------- Fitzgerald (R1-R18)

#: R3: 110 one-point and 25 five-point crystals.
FITZGERALD_POINTS = 110 * 1 + 25 * 5


def _fitzgerald_max_moves(config: Any) -> int:
    # Per round: the deal, the pass count, one pass per player, every card, and at most one Clubs
    # victim per card (R9), per trick (R10) and per suit majority (R16).
    n = config.player_count
    cards = config.tricks_per_round * config.plays_per_trick
    return config.rounds * (2 + n + 2 * cards + config.tricks_per_round + 4)


def _fitzgerald_state(state: Any) -> None:
    from diamonds.families.fitzgerald.rules import Phase

    config = state.config
    # R3: the crystals only move between the Supply, the Showrooms and the Vaults.
    total = state.supply + sum(state.showroom) + sum(state.vault)
    assert total == FITZGERALD_POINTS, (
        f"R3: supply {state.supply} + showrooms {state.showroom} + vaults {state.vault} = {total}, "
        f"not {FITZGERALD_POINTS}"
    )
    assert state.supply >= 0 and min(state.showroom) >= 0 and min(state.vault) >= 0, "R3: an area below 0"
    assert len(state.showroom) == len(state.vault) == config.side_count
    # R5, R8: while cards are being played, every dealt card is in a hand, the trick, or a won trick.
    if state.phase in (Phase.PLAY, Phase.CHOOSE_VICTIM):
        held = [card for hand in state.hands for card in hand]
        on_table = [card for _, card in state.trick]
        won = sum(sum(row) for row in state.taken)
        dealt = config.hand_size * config.player_count
        assert len(held) + len(on_table) + won == dealt, (
            f"R5: {len(held)} held + {len(on_table)} on the table + {won} won != {dealt} dealt"
        )
        live = held + on_table
        assert len(set(live)) == len(live), "a card is in two places"
        assert set(live) <= set(config.deck), "a card of no deck of this game"


def _fitzgerald_final(state: Any, standings: tuple[Any, ...]) -> None:
    # R18: 2 × Vault + Showroom; ties go to the most in the Vault; a further tie shares the win.
    scores = [2 * vault + showroom for vault, showroom in zip(state.vault, state.showroom)]
    assert [s.score for s in standings] == scores, "R18: score = 2 × Vault + Showroom"
    best = max(scores)
    best_vault = max(vault for vault, score in zip(state.vault, scores) if score == best)
    expected = [score == best and vault == best_vault for score, vault in zip(scores, state.vault)]
    assert [s.winner for s in standings] == expected, "R18: the winners"


# --------------------------------------------------------------------------- Kirk (K1-K8)

#: K2: the standard pack.
KIRK_DECK_SIZE = 52
KIRK_HAND = 13
#: K7, worked out: each other suit 9 × 1 + 3 × 5 + 10 = 34; Diamonds 9 × 3 + 3 × 10 + 20 = 77.
KIRK_HAND_POINTS = 3 * 34 + 77


def _kirk_points(card: Card) -> int:
    """K7, written out again here (not the engine's `card_points`)."""
    base = 1 if card.rank <= 10 else 5 if card.rank <= 13 else 10
    if card.suit is Suit.DIAMONDS:
        return 3 if base == 1 else 2 * base
    return base


def _kirk_max_moves(config: Any) -> int:
    per_hand = 1 + KIRK_DECK_SIZE  # the deal and every card
    if config.hands is not None:
        return config.hands * per_hand
    # K8 with a target: 179 points a hand among four players, so the leader gains at least 179 / 4.
    return (config.target * 4 // KIRK_HAND_POINTS + 2) * per_hand


def _kirk_state(state: Any) -> None:
    from diamonds.families.kirk.rules import Phase

    config = state.config
    deck = set(config.deck)
    assert len(deck) == KIRK_DECK_SIZE, "K2: the standard 52-card pack"
    held = [card for hand in state.hands for card in hand]
    on_table = [card for _, card in state.trick]
    piled = [card for pile in state.piles for card in pile]
    if state.phase is Phase.PLAY:
        # K2, K4, K6: every card of the pack is in a hand, on the table, or in a scoring pile.
        every = held + on_table + piled
        assert len(every) == KIRK_DECK_SIZE and set(every) == deck, (
            f"K2: {len(held)} held + {len(on_table)} on the table + {len(piled)} in piles, "
            f"{len(set(every))} distinct, not the 52 cards of the pack"
        )
        hands_done = state.hand_no - 1
    elif state.phase is Phase.GAME_OVER:
        # The last hand's piles stay for show: all 52 cards, worth 179 (K7).
        assert not held and not on_table
        assert len(piled) == KIRK_DECK_SIZE and set(piled) == deck, "K6: the last hand's piles hold the pack"
        assert sum(_kirk_points(card) for card in piled) == KIRK_HAND_POINTS, "K7: a hand's piles score 179"
        hands_done = state.hand_no
    else:
        assert not held and not on_table and not piled, "K2: nothing in play before the deal"
        hands_done = state.hand_no - 1
    # K7: each finished hand added exactly 179 points to the totals.
    assert sum(state.totals) == KIRK_HAND_POINTS * hands_done, (
        f"K7: totals {state.totals} after {hands_done} hands, not {KIRK_HAND_POINTS} a hand"
    )


def _kirk_step(before: Any, move: Any, after: Any, events: tuple[Any, ...]) -> None:
    from diamonds.families.kirk.rules import Deal, Phase

    if isinstance(move, Deal):
        # K2: 13 distinct cards each, the 52 cards of the pack between them.
        assert [len(hand) for hand in after.hands] == [KIRK_HAND] * 4, "K2: thirteen cards each"
        assert set().union(*after.hands) == set(after.config.deck), "K2: the whole pack is dealt"
    if before.phase is Phase.PLAY and (after.phase is not Phase.PLAY or after.hand_no != before.hand_no):
        # The hand just ended: its piles scored 179 in all (K7).
        gained = sum(after.totals) - sum(before.totals)
        assert gained == KIRK_HAND_POINTS, f"K7: a hand scores {KIRK_HAND_POINTS}, this one {gained}"
        assert all(now >= then for now, then in zip(after.totals, before.totals)), "K7: totals never fall"


def _kirk_final(state: Any, standings: tuple[Any, ...]) -> None:
    # K8: the highest total wins; players tied on it share the win.
    best = max(state.totals)
    assert [s.score for s in standings] == list(state.totals)
    assert [s.winner for s in standings] == [total == best for total in state.totals], "K8: the winners"
    config = state.config
    if config.target is not None:
        assert best >= config.target, "K8: a target game ends once someone reaches the target"
    else:
        assert state.hand_no == config.hands, "K8: the game lasts its number of hands"


# --------------------------------------------------------------------------- three-handed bidding (B1-B10)

#: B2: 7, 8, 9, 10, J, Q, K, A of each suit, and one Joker (33 cards), written as DGN writes them.
BIDDING_PACK = frozenset(
    [f"{rank}{suit}" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A") for suit in "DHSC"] + ["Jo"]
)
BIDDING_HAND = 10  # B2
BIDDING_KITTY = 3  # B2
BIDDING_TRICKS = 10  # B6
#: A hand's moves: the deal, three bids (B3), three takes (B4), three final bids (B5), 30 cards (B6).
BIDDING_HAND_MOVES = 1 + 3 + 3 + 3 + 3 * BIDDING_TRICKS
#: B10 does not bound a game: a total can swing up and down for ever. The random player's games are
#: short (a missed bid loses 7 to 20 points, and with final bids never totalling 10 somebody misses
#: every hand): about 10 hands, at most 16 in a thousand seeds. This is that bound with a wide margin.
BIDDING_MAX_HANDS = 100


def _bidding_value(card: Any) -> int:
    """B9, written out again here: 7-10 their number, J 11, Q 12, K 13, A 15, Joker 20."""
    text = str(card)
    if text == "Jo":
        return 20
    rank = text[:-1]
    return {"J": 11, "Q": 12, "K": 13, "A": 15}.get(rank) or int(rank)


def _bidding_strength(card: Any, high: bool | None) -> int:
    """B8, within a suit from low to high: a low Joker, a low ace, 7 ... K, a high ace."""
    text = str(card)
    if text == "Jo":
        return 0
    rank = text[:-1]
    if rank == "A":
        return 14 if high else 1
    return {"J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)


def _bidding_trick_winner(plays: list[tuple[int, Any, bool | None, Any]]) -> int:
    """B8 worked out from (seat, card, high, suit counted as): the winning seat."""
    for seat, card, high, _ in plays:
        if str(card) == "Jo" and high:
            return seat  # a high Joker wins
    trumps = [p for p in plays if p[3] is Suit.DIAMONDS]
    led = plays[0][3]
    candidates = trumps or [p for p in plays if p[3] is led]
    return max(candidates, key=lambda p: _bidding_strength(p[1], p[2]))[0]


def _bidding_max_moves(config: Any) -> int:
    return BIDDING_MAX_HANDS * BIDDING_HAND_MOVES


def _bidding_over(scores: Any) -> bool:
    """B10: a total of 100 or more, or -100 or less."""
    return any(score >= 100 or score <= -100 for score in scores)


def _bidding_state(state: Any) -> None:
    from diamonds.families.bidding.rules import Phase

    config = state.config
    n = config.player_count
    assert n == 3, "B1: exactly three players"
    assert len(set(map(str, config.deck))) == len(config.deck) and set(map(str, config.deck)) == BIDDING_PACK, (
        "B2: the 33-card pack"
    )
    phase = state.phase
    held = [card for hand in state.hands for card in hand]
    kitty = list(state.kitty)
    points = [card for card in state.point_cards if card is not None]
    on_table = [played.card for played in state.trick]
    done = sum(state.tricks_won)  # tricks finished in this hand
    # B10: the game ends exactly when some total reaches 100 or -100.
    if phase is Phase.GAME_OVER:
        assert _bidding_over(state.scores), f"B10: over with totals {state.scores}"
    else:
        assert not _bidding_over(state.scores), f"B10: totals {state.scores} should have ended the game"
    if phase is Phase.DEAL:
        assert not held and not kitty and not points and not on_table and done == 0, "B2: nothing before the deal"
        assert all(v is None for v in (*state.bids, *state.taken, *state.final_bids)), "a fresh hand"
        return
    # B2, B4, B6: the hands, the kitty, the point cards, the trick and the finished tricks hold the 33 cards.
    live = [str(card) for card in held + kitty + points + on_table]
    assert len(set(live)) == len(live), f"a card is in two places: {sorted(live)}"
    assert set(live) <= BIDDING_PACK, f"cards of no bidding pack: {sorted(set(live) - BIDDING_PACK)}"
    assert len(live) + 3 * done == len(BIDDING_PACK), (
        f"B2: {len(held)} held + {len(kitty)} in the kitty + {len(points)} point cards + {len(on_table)} on the "
        f"table + 3 × {done} tricks won != 33"
    )
    # B3, B5: bids within 0..10, final bids within one of the bid; the dealer never makes either total 10.
    for seat in range(n):
        bid, final = state.bids[seat], state.final_bids[seat]
        assert bid is None or 0 <= bid <= 10, f"B3: a bid of {bid}"
        assert final is None or (bid is not None and 0 <= final <= 10 and abs(final - bid) <= 1), (
            f"B5: a final bid of {final} after a bid of {bid}"
        )
        assert (state.taken[seat] is None) == (state.point_cards[seat] is None), "B4: a take lays a point card"
    if None not in state.bids:
        assert sum(state.bids) != 10, f"B3: the bids {state.bids} total 10"
    if None not in state.final_bids:
        assert sum(state.final_bids) != 10, f"B5: the final bids {state.final_bids} total 10"
    if phase is not Phase.BID:
        assert None not in state.bids, "B3: every player bids before the kitty"
    if phase in (Phase.FINAL, Phase.PLAY, Phase.GAME_OVER):
        assert None not in state.point_cards and not kitty, "B4: every player takes, and the kitty is empty"
    if phase in (Phase.PLAY, Phase.GAME_OVER):
        assert None not in state.final_bids, "B5: every final bid before play"
    # B4: ten cards each after the takes, one fewer for each card played since.
    in_trick = {played.seat for played in state.trick}
    expected = [0] * n if phase is Phase.GAME_OVER else [
        BIDDING_HAND - done - (seat in in_trick) for seat in range(n)]
    assert [len(hand) for hand in state.hands] == expected, (
        f"B4, B6: hands of {[len(hand) for hand in state.hands]} cards, not {expected}"
    )
    if phase is Phase.PLAY:
        assert done == state.trick_no - 1 and len(state.trick) < 3, "B6: ten tricks of three cards"
    if phase is Phase.GAME_OVER:
        assert done == BIDDING_TRICKS, "B6: the last hand was played out"


def _bidding_step(before: Any, move: Any, after: Any, events: tuple[Any, ...]) -> None:
    from diamonds.families.bidding.rules import Deal, Phase, PlayCard

    n = before.config.player_count
    if isinstance(move, Deal):
        # B2: ten distinct cards each and three to the kitty: the whole pack.
        assert [len(hand) for hand in after.hands] == [BIDDING_HAND] * n, "B2: ten cards each"
        assert len(after.kitty) == BIDDING_KITTY, "B2: three cards to the kitty"
        dealt = [str(card) for hand in after.hands for card in hand] + [str(card) for card in after.kitty]
        assert len(dealt) == len(set(dealt)) and set(dealt) == BIDDING_PACK, "B2: the whole pack is dealt"
    trick_ends = (before.phase is Phase.PLAY and isinstance(move, PlayCard)
                  and len(before.trick) == before.config.plays_per_trick - 1)
    hand_ends = trick_ends and before.trick_no == BIDDING_TRICKS
    if not hand_ends:
        assert after.scores == before.scores, "B9: totals change only when a hand is scored"
        assert after.phase is not Phase.GAME_OVER, "B10: the game ends only after a hand"
    if not trick_ends:
        return
    # B7, B8: the trick's winner, worked out again.
    card = move.card
    counted = move.suit if str(card) == "Jo" else card.suit
    plays = [(p.seat, p.card, p.high, p.suit) for p in before.trick] + [(before.to_move, card, move.high, counted)]
    winner = _bidding_trick_winner(plays)
    if not hand_ends:
        assert after.leader == winner, f"B6, B8: {winner} won trick {before.trick_no}; {after.leader} leads"
        assert after.tricks_won[winner] == before.tricks_won[winner] + 1, "B8: the trick is the winner's"
        return
    # B9: each player's total moves by exactly their point card's value: up for exactly their final bid.
    tricks = [won + (seat == winner) for seat, won in enumerate(before.tricks_won)]
    assert sum(tricks) == BIDDING_TRICKS
    made = [tricks[seat] == before.final_bids[seat] for seat in range(n)]
    for seat in range(n):
        value = _bidding_value(before.point_cards[seat])
        change = after.scores[seat] - before.scores[seat]
        assert change == (value if made[seat] else -value), (
            f"B9: seat {seat} won {tricks[seat]} tricks on a final bid of {before.final_bids[seat]} with point "
            f"card {before.point_cards[seat]} (worth {value}), and its total moved by {change}"
        )
    assert not all(made), "B5: the final bids never total 10, so somebody misses"
    # B10: the game ends exactly when a total reaches 100 or -100; else the deal moves left (B2).
    if _bidding_over(after.scores):
        assert after.phase is Phase.GAME_OVER, f"B10: totals {after.scores} end the game"
    else:
        assert after.phase is Phase.DEAL and after.hand_no == before.hand_no + 1, "B10: the next hand"
        assert after.dealer == (before.dealer + 1) % n, "B2: the deal moves one seat left"


def _bidding_final(state: Any, standings: tuple[Any, ...]) -> None:
    # B10: the highest total wins; players tied on it share the win; totals may be negative.
    assert _bidding_over(state.scores), f"B10: the game ended with totals {state.scores}"
    best = max(state.scores)
    assert [s.score for s in standings] == list(state.scores)
    assert [s.winner for s in standings] == [score == best for score in state.scores], "B10: the winners"


# --------------------------------------------------------------------------- the toy family (T1-T7), tests/toyfamily

#: T2: the 1, 2 and 3 of each suit; T3: six tricks of two cards a round; T6: a point a trick; T7: two rounds.
TOY_DECK = frozenset(f"{rank}{suit}" for rank in (1, 2, 3) for suit in "DHSC")
TOY_TRICKS = 6
TOY_ROUNDS = 2


def _toy_max_moves(config: Any) -> int:
    return TOY_ROUNDS * (1 + len(TOY_DECK))  # the deal and every card, each round


def _toy_state(state: Any) -> None:
    held = [str(card) for hand in state.hands for card in hand]
    on_table = [str(card) for _, card in state.trick]
    assert len(set(held + on_table)) == len(held + on_table) and set(held + on_table) <= TOY_DECK, "T2: the pack"
    done = sum(state.won)  # tricks finished this round
    if state.phase.value == "play":
        # T2, T3: twelve cards dealt, two a trick played since.
        assert len(held) + len(on_table) + 2 * done == len(TOY_DECK), f"T2: {held} {on_table} after {done} tricks"
        assert sum(state.totals) == TOY_TRICKS * (state.round_no - 1), "T6: a point a trick of each round before"
    elif state.phase.value == "game over":
        assert not held and sum(state.totals) == TOY_TRICKS * TOY_ROUNDS, "T6, T7: two rounds of six points"


def _toy_step(before: Any, move: Any, after: Any, events: tuple[Any, ...]) -> None:
    if before.phase.value == "play" and len(before.trick) == 1:
        # T5, worked out again: the higher card of the led suit wins, and leads next.
        (leader, led), (_, card) = before.trick[0], (before.to_move, move.card)
        winner = leader if card.suit is not led.suit or card.rank < led.rank else before.to_move
        if after.phase.value == "play" and after.round_no == before.round_no:
            assert after.leader == winner and after.won[winner] == before.won[winner] + 1, "T5: the winner leads"
        else:  # the round's last trick: its six points go to the totals (T6)
            gained = [now - then for now, then in zip(after.totals, before.totals)]
            assert gained == [won + (seat == winner) for seat, won in enumerate(before.won)], "T6: the round scored"


def _toy_final(state: Any, standings: tuple[Any, ...]) -> None:
    best = max(state.totals)
    assert [s.score for s in standings] == list(state.totals)
    assert [s.winner for s in standings] == [total == best for total in state.totals], "T7: the winners"


# --------------------------------------------------------------------------- the registry

INVARIANTS: dict[str, FamilyInvariants] = {
    "fitzgerald": FamilyInvariants(
        max_moves=_fitzgerald_max_moves,
        state=_fitzgerald_state,
        final=_fitzgerald_final,
    ),
    "kirk": FamilyInvariants(
        max_moves=_kirk_max_moves,
        state=_kirk_state,
        step=_kirk_step,
        final=_kirk_final,
        extra_options=({"Hands": "1"}, {"Target": "200"}),
    ),
    "bidding": FamilyInvariants(
        max_moves=_bidding_max_moves,
        state=_bidding_state,
        step=_bidding_step,
        final=_bidding_final,
    ),
    # The toy family is registered only by tests/families/toy (a plug-in that lives in tests/toyfamily).
    "toy": FamilyInvariants(
        max_moves=_toy_max_moves,
        state=_toy_state,
        step=_toy_step,
        final=_toy_final,
    ),
}
