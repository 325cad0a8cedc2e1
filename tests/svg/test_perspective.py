"""`diamonds replay --as PLAYER`: the terminal shows what that player may know, and everything at the end.

What is secret, by the rules (docs/rulings.md; the rules texts in our words):
- every family: the other players' hands;
- Fitzgerald's games: another side's Vault, and so its score (the rules keep
  the Vault's crystals secret; a partnership shares one Vault, R2, so a
  partner's is one's own), and the Supply's count, which with the public
  Showrooms would give the Vaults' total away (R3); the log keeps the Suit
  Actions, which are taken in front of everyone;
- the bidding game: the kitty, dealt face down (B2), another player's take
  from it and their point card, laid face down until the hand is scored (B4,
  B9);
- Kirk's game: nothing more. A scoring pile is made of tricks everyone saw
  played (K6) and is shown when a tie is broken (K5); the rulings keep none
  of it secret.
Each check is made on the rendered text, golden-free, mid-game and at the end;
each "hidden" check is paired with the same screen without `--as`, where the
thing is shown, so that it can fail.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import pytest
from rich.console import Console

from diamonds.core import Card, simulate
from diamonds.families.fitzgerald.render import crystals
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.steps import Step, find_position, steps_of
from diamonds.views import view_for

WIDTH = 80


@cache
def game(rules: str, players: int | None = None, variants: tuple[str, ...] = (), seed: int = 5) -> list[Step]:
    replayed = replay_record(record_from_game(simulate(players, rules=rules, variants=variants, seed=seed)))
    assert replayed.valid and replayed.complete
    return steps_of(replayed)


def render(steps: list[Step], position: str, as_player: int | None, width: int = WIDTH) -> str:
    index = find_position(steps, position)
    screen = view_for(steps[index].table.config.rules).screen(steps[index], index, len(steps), as_player, "")
    out = io.StringIO()
    Console(file=out, width=width, height=40, color_system=None, force_terminal=False).print(screen)
    return out.getvalue()


def log(steps: list[Step], position: str, as_player: int | None) -> str:
    step = steps[find_position(steps, position)]
    return "\n".join(view_for(step.table.config.rules).step_lines(step, as_player))


def row(text: str, name: str) -> list[str]:
    """The cells of a player's row in the players' table, after the name."""
    for line in text.split("\n"):
        words = line.split()
        if name in words[:2]:
            return words[words.index(name) + 1:]
    raise AssertionError(f"no row for {name} in\n{text}")


def table_at(steps: list[Step], position: str) -> Any:
    return steps[find_position(steps, position)].table


def cards_in(words: list[str]) -> set[Card]:
    found = set()
    for word in words:
        try:
            found.add(Card.parse(word))
        except ValueError:
            pass
    return found


# --------------------------------------------------------------------------- Fitzgerald's games

FITZGERALD = [("1e", 3, ()), ("2e", 5, ()), ("bga", 2, ()), ("2e", 4, ("partnership",)), ("1e", 6, ("partnership",))]


@pytest.mark.parametrize("rules, players, variants", FITZGERALD, ids=lambda v: str(v))
def test_fitzgerald_hides_other_vaults_scores_and_the_supply(rules: str, players: int,
                                                             variants: tuple[str, ...]) -> None:
    steps = game(rules, players, variants)
    position = "R2.5"
    table = table_at(steps, position)
    config = table.config
    seat = 0
    mine = config.side_of[seat]
    assert any(table.vault[side] for side in range(config.side_count) if side != mine)  # something to hide
    everyone, as_me = render(steps, position, None), render(steps, position, seat)
    # The Supply is a heap on the table anyone may count (the picture shows it too).
    assert f"Supply {table.supply} " in everyone and f"Supply {table.supply} " in as_me
    skip = 1 if config.partnership else 0  # the team number
    shown: set[int] = set()
    for other, name in enumerate(config.players):
        side = config.side_of[other]
        if side in shown:  # a partner's row repeats the team's: 〃
            assert row(as_me, name)[skip:skip + 3] == ["〃"] * 3
            continue
        shown.add(side)
        cells = row(everyone, name)[skip:]
        assert cells[:3] == [str(table.showroom[side]), str(table.vault[side]), str(table.score(side))]
        cells = row(as_me, name)[skip:]
        if side == mine:  # one's own Vault (the team's, R2) and score
            assert cells[:3] == [str(table.showroom[side]), str(table.vault[side]), str(table.score(side))]
        else:  # the Showroom is in front of everyone; the Vault is not
            assert cells[:3] == [str(table.showroom[side]), "?", "?"]


def test_fitzgerald_wide_draws_no_crystals_for_a_hidden_vault() -> None:
    steps = game("1e", 3)
    table = table_at(steps, "R3.4")
    others = [side for side in (1, 2) if table.vault[side]]
    assert others
    everyone, as_me = render(steps, "R3.4", None, width=120), render(steps, "R3.4", 0, width=120)
    for side in others:
        name = table.config.players[side]
        showroom = [crystals(table.showroom[side]), str(table.showroom[side])] if table.showroom[side] else ["0"]
        vault = [crystals(table.vault[side]), str(table.vault[side])]
        assert row(everyone, name)[:len(showroom) + 2] == showroom + vault  # R3: 5s and 1s
        assert row(as_me, name)[:len(showroom) + 2] == showroom + ["?", "?"]


@pytest.mark.parametrize("rules, players, variants", FITZGERALD, ids=lambda v: str(v))
def test_fitzgerald_shows_everything_again_at_the_end(rules: str, players: int, variants: tuple[str, ...]) -> None:
    steps = game(rules, players, variants)
    table = steps[-1].table
    assert table.results
    text = render(steps, "end", 0)
    assert "?" not in text.split("\n", 1)[1].split("Trick")[0]  # no cell of the players' table is hidden
    assert f"Supply {table.supply} " in text
    for result in table.results:
        assert f"{table.config.side_name(result.side)} {result.score}" in text  # the log's last line
        name = table.config.players[table.config.sides[result.side][0]]
        cells = row(text, name)[1 if table.config.partnership else 0:]
        assert cells[1:3] == [str(table.vault[result.side]), str(result.score)]


def test_fitzgerald_hides_other_hands_until_they_are_played() -> None:
    steps = game("2e", 4)
    table = table_at(steps, "R1.3")
    text = render(steps, "R1.3", 2)
    for seat, hand in enumerate(table.hands):
        cells = cards_in(row(text, table.config.players[seat]))
        if seat == 2:
            assert set(hand) <= cells
        else:
            assert not cells & set(hand) and f"{len(hand)} cards" in " ".join(row(text, table.config.players[seat]))


def test_fitzgerald_step_log_keeps_others_passes_secret_and_the_actions_public() -> None:
    steps = game("2e", 4, seed=11)
    everyone, as_bob = log(steps, "R1.0", None), log(steps, "R1.0", 1)
    assert "Cat passes 15D to Dan" in everyone and "Cat passes 1 card to Dan" in as_bob
    assert "15D" not in as_bob
    action = next(p for p in ("R1.1", "R1.2", "R1.3", "R1.4") if "action" in log(steps, p, 1))
    assert log(steps, action, 1) == log(steps, action, None)  # a Suit Action is taken in front of everyone


# --------------------------------------------------------------------------- Kirk's game


def test_kirk_hides_only_the_other_hands() -> None:
    steps = game("kirk")
    table = table_at(steps, "R2.5")
    config = table.config
    everyone, as_ann = render(steps, "R2.5", None), render(steps, "R2.5", 0)
    for seat, name in enumerate(config.players):
        mine, theirs = row(as_ann, name), row(everyone, name)
        hand = set(table.hands[seat])
        assert hand and hand <= cards_in(theirs)
        if seat == 0:
            assert mine == theirs
        else:  # K6: the piles, their top card and points, and the totals are in sight; the hand is not
            assert mine[:5] == theirs[:5] and not hand & cards_in(mine)
            assert " ".join(mine[5:]) == f"{len(hand)} cards"
    assert log(steps, "R2.5", 0) == log(steps, "R2.5", None)  # nothing in Kirk's log is secret


def test_kirk_end_is_the_same_for_everyone() -> None:
    steps = game("kirk")
    assert steps[-1].table.standings
    assert render(steps, "end", 2) == render(steps, "end", None)


# --------------------------------------------------------------------------- the bidding game


def test_bidding_deal_hides_the_kitty_and_the_others_takes() -> None:
    steps = game("bidding")
    table = table_at(steps, "R1.0")
    config = table.config
    seat = 1
    everyone, as_me = render(steps, "R1.0", None), render(steps, "R1.0", seat)
    kitty = [line for line in as_me.split("\n") if line.startswith("Kitty")][0]
    assert "3 cards face down" in kitty  # B2
    assert set(table.kitty) <= cards_in(everyone.replace(",", " ").split()) and not set(table.kitty) - \
        {table.taken[seat]} & cards_in(kitty.replace(",", " ").split())
    for other, name in enumerate(config.players):
        point = table.point_cards[other]
        if other == seat:
            assert str(point) in row(as_me, name)  # one's own point card
            assert str(table.taken[other]) in kitty
        else:
            assert str(point) in row(everyone, name) and "laid" in row(as_me, name)  # B4: face down
            assert f"{name} a card" in kitty
    assert "takes a card from the kitty and lays a point card" in log(steps, "R1.0", seat)
    assert "takes a card from the kitty" not in log(steps, "R1.0", None)


def test_bidding_hand_end_shows_the_point_cards() -> None:
    """B9: scoring shows each point card; from the hand's end on nobody's is hidden."""
    steps = game("bidding")
    table = table_at(steps, "R1.end")
    assert table.scored
    text = render(steps, "R1.end", 0)
    for seat, name in enumerate(table.config.players):
        assert str(table.point_cards[seat]) in row(text, name)
    assert render(steps, "end", 0) == render(steps, "end", None)
