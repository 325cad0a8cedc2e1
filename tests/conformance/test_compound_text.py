"""One written item that holds several moves, through the family's own hook (`Rules.split_text`, `refuse_part`).

`Position.push_text` knows no game's words: a rule set says how one item splits into moves and what it says
when a later part is not due; the position pushes the parts in order, all or none. Fitzgerald writes a Clubs
victim on its card (`12C>Cat`, R14); a game without the hook reads one text as one move.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import diamonds
from diamonds.core import IllegalMove, NotationError, Rules, rules_for

PLAYERS = ["Ann", "Bob", "Cat"]


def _victim_due(pos: diamonds.Position) -> bool:
    """Whether the player to act names a Clubs victim now, read from the legal moves' own words (R14)."""
    return any(pos.text(move).startswith(">") for move in pos.legal_moves)


def _card_then(wanted: Callable[[diamonds.Position], bool]) -> tuple[diamonds.Position, str]:
    """A 1e position and a card legal in it after which `wanted` holds (the card not pushed), found by
    playing random games."""
    for seed in range(200):
        rng = random.Random(seed)
        pos = diamonds.Position("1e", PLAYERS)
        while not pos.is_over:
            if pos.is_chance:
                pos.deal(rng)
                continue
            for move in pos.legal_moves:
                text = pos.text(move)
                if " " in text or text.startswith(">"):  # a pass, a victim: not a card
                    break
                pos.push(move)
                found = wanted(pos)
                pos.pop()
                if found:
                    return pos, text
            pos.push(rng.choice(pos.legal_moves))
    pytest.fail("no such card in 200 games")


def test_r14_a_card_and_the_victim_written_on_it_are_two_moves() -> None:
    """R14: DGN writes the victim on the card that earned the Clubs action; the family splits the word."""
    pos = diamonds.Position("1e", PLAYERS)
    split = pos.rule_set.split_text
    assert split(pos.state, "12C>Cat") == ("12C", ">Cat")
    assert split(pos.state, "  15C>bob ") == ("15C", ">bob")
    assert split(pos.state, ">Cat") == (">Cat",)  # the victim alone: one move
    assert split(pos.state, "pass Ann 9D>x") == ("pass Ann 9D>x",)  # words apart: one item, one move
    assert split(pos.state, "9H") == ("9H",)


def test_r14_a_victim_due_after_its_card_is_pushed_with_it() -> None:
    """R14: where the card's Clubs action asks for a victim at once, the hook lets the victim through."""
    pos, card = _card_then(_victim_due)
    before = len(pos)
    pos.push_text(card)
    victim = next(move for move in pos.legal_moves if pos.text(move).startswith(">"))
    written = card + pos.text(victim)
    parts = pos.rule_set.split_text(pos.state, written)
    assert pos.rule_set.refuse_part(pos.state, written, parts, 1) is None
    pos.pop()
    assert pos.push_text(written) == list(pos.moves[before:]) and pos.moves[-1] == victim


def test_r14_a_victim_written_where_none_is_due_is_refused_at_its_arrow_and_nothing_is_pushed() -> None:
    """R14: a victim is named only when the Clubs action asks; else the card goes alone. The refusal is the
    family's, at the `>`, and the card pushed before it is taken back (same moves, same label)."""
    pos, card = _card_then(lambda after: not after.is_over and not _victim_due(after))
    moves, label, state = pos.moves, pos.label, pos.state
    for written, arrow in ((f"{card}>Bob", len(card) + 1), (f"  {card}>Bob", len(card) + 3)):
        with pytest.raises(NotationError) as caught:
            pos.push_text(written)
        error = caught.value
        assert (error.rule, error.column, error.expected, error.text) == ("R14", arrow, "the card alone", written)
        assert written[error.column - 1] == ">"
        assert error.reason == (f"no victim is chosen right after {card}: push the card, and the victim >Bob when "
                                "it is due (after the trick, for the winner's Clubs action)")
        assert str(error).endswith("(R14)")
        assert (pos.moves, pos.label, pos.state) == (moves, label, state)
    assert pos.push_text(card) == [pos.peek()]  # the card alone is taken


@pytest.mark.parametrize("victim", ["Nobody", "own"])
def test_a_refused_later_part_takes_back_every_part_pushed(victim: str) -> None:
    """All or none: a victim that names nobody (the words) or a player who may not be robbed (the rules, R14)
    leaves the position as it was before the card, with the part's own refusal."""
    pos, card = _card_then(_victim_due)
    moves, label, state = pos.moves, pos.label, pos.state
    pos.push_text(card)
    named = {pos.text(move) for move in pos.legal_moves}
    chooser = pos.to_move
    pos.pop()
    if victim == "own":
        assert f">{chooser}" not in named  # R14: the action takes from another side's Showroom
        with pytest.raises(IllegalMove):
            pos.push_text(f"{card}>{chooser}")
    else:
        with pytest.raises(NotationError) as caught:
            pos.push_text(f"{card}>Nobody")
        assert '"Nobody" is not a player' in caught.value.reason and caught.value.rule != "R14"
    assert (pos.moves, pos.label, pos.state) == (moves, label, state)


@pytest.mark.parametrize("rules", ["kirk", "bidding"])
def test_a_game_without_the_hook_reads_one_text_as_one_move(rules: str) -> None:
    """A rule set that does not split its items gets the default: the whole text is one move, read by the game's
    own words (no other game's ruling: a `>` is no victim here), and nothing is pushed when it is refused."""
    rule_set = rules_for(rules)
    hooks = {"split_text", "refuse_part"}
    assert not any(hooks & set(vars(cls)) for cls in rule_set.__mro__ if cls is not Rules)  # no hook of its own
    pos = diamonds.Position(rules)
    pos.deal(random.Random(1))
    first = pos.legal_moves[0]
    text = pos.text(first)
    assert rule_set.split_text(pos.state, f"{text}>Cat") == (f"{text}>Cat",)
    assert rule_set.refuse_part(pos.state, f"{text}>Cat", (text, ">Cat"), 1) is None
    moves, label = pos.moves, pos.label
    with pytest.raises(NotationError) as caught:
        pos.push_text(f"{text}>Cat")
    assert caught.value.rule != "R14" and "victim" not in str(caught.value)
    assert (pos.moves, pos.label) == (moves, label)
    assert pos.push_text(text) == [first] and pos.moves == (*moves, first)
