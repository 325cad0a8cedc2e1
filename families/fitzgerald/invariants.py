"""What Fitzgerald's games (R1-R18) conserves, worked out from the rulings (never read from the engine's constants): the
family's `invariants` part, which the conformance suite (tests/conformance/test_families.py) checks after every
move of games played at random."""

from __future__ import annotations

from typing import Any

from diamonds.core.family import FamilyInvariants

__all__ = ["INVARIANTS"]

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


INVARIANTS = FamilyInvariants(
    max_moves=_fitzgerald_max_moves,
    state=_fitzgerald_state,
    final=_fitzgerald_final,
)
