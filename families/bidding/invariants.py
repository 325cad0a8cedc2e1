"""What the three-handed bidding game (B1-B10) conserves, worked out from the rulings (never read from the
engine's constants): the family's `invariants` part, which the conformance suite
(tests/conformance/test_families.py) checks after every move of games played at random."""

from __future__ import annotations

from typing import Any

from diamonds.core.cards import Suit
from diamonds.core.family import FamilyInvariants

__all__ = ["INVARIANTS"]

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


INVARIANTS = FamilyInvariants(
    max_moves=_bidding_max_moves,
    state=_bidding_state,
    step=_bidding_step,
    final=_bidding_final,
)
