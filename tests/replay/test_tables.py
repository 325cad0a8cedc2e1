"""The analysis tables' rows (replay/tables.py and the families' parts), checked against the engine.

Each game here is simulated by the engine, written as DGN and replayed from
its text; the rows must say what the engine's own game says: the cards in
the order they were played, one winner per finished trick (R10, K5, B8),
every scoring event, and points per side that add up to the engine's
standings (R18, K7, B9). Problems: an invalid game keeps its rows up to the
problem, an unreadable one has its games row only. The columns of
docs/tables.md are the tables' columns.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from diamonds.core import Engine, simulate
from diamonds.families.fitzgerald.rules import CardPlayed as FitzgeraldCardPlayed
from diamonds.families.fitzgerald.rules import Reason, SuitAction
from diamonds.notation import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.tables import TABLE_NAMES, Kind, TableBuffer, columns, game_rows, standing_fields

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

#: One game per family and a few set-ups: (rules, players, variants, options, seed).
GAMES = [
    ("2e", 4, (), None, 11),
    ("2e", 3, (), None, 12),  # the Thief (R13)
    ("1e", 5, ("perfect",), None, 18),
    ("bga", 4, ("partnership",), None, 13),  # teams: a side of two seats (R2)
    ("2e", 2, ("perfect",), None, 14),
    ("kirk", 4, (), None, 15),
    ("kirk", 4, (), {"Target": "250"}, 16),
    ("bidding", 3, (), None, 17),
]


def replayed_from_text(game: Engine) -> Any:
    """The engine's game written as DGN and replayed from the text, as a conversion does."""
    text = write_game(record_from_game(game))
    return replay_record(parse_game(text), history=False)


def engine_cards(game: Engine) -> list[tuple[int, str]]:
    """(seat, card) of every card the engine saw played, in order."""
    return [(event.seat, str(event.card)) for events in game.events for event in events
            if type(event).__name__ == "CardPlayed"]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{g[0]}-{g[1]}p-{'-'.join(g[2]) or (g[3] and 'target') or 'plain'}"
                                                    for g in GAMES])
def simulated(request: pytest.FixtureRequest) -> tuple[Engine, dict[str, list[dict[str, Any]]]]:
    rules, players, variants, options, seed = request.param
    game = simulate(players, rules=rules, variants=variants, seed=seed, options=options)
    return game, game_rows(replayed_from_text(game), "sim.dgn", 3)


def test_plays_are_the_engines_cards_in_order(simulated: Any) -> None:
    game, rows = simulated
    plays = rows["plays"]
    assert [(row["seat"] - 1, row["card"]) for row in plays] == engine_cards(game)
    assert rows["games"][0]["plays"] == len(plays)
    assert all(row["file"] == "sim.dgn" and row["game"] == 3 for table in TABLE_NAMES for row in rows[table])
    names = game.config.players
    assert all(names[row["seat"] - 1] == row["player"] for row in plays)


def test_each_finished_trick_has_one_winner_who_led_the_next(simulated: Any) -> None:
    game, rows = simulated
    tricks: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows["plays"]:
        tricks[row["round"], row["trick"]].append(row)
    assert tricks
    keys = sorted(tricks)
    per_trick = game.config.plays_per_trick
    for index, key in enumerate(keys):
        trick = tricks[key]
        assert [row["order"] for row in trick] == list(range(1, per_trick + 1))
        assert all(row["led_suit"] == trick[0]["suit"] for row in trick)
        assert trick[0]["followed"] is True
        winners = [row for row in trick if row["won_trick"]]
        assert len(winners) == 1, key
        following = keys[index + 1] if index + 1 < len(keys) else None
        if following is not None and following[0] == key[0]:  # within a round the winner leads next (R10, K5, B8)
            assert tricks[following][0]["seat"] == winners[0]["seat"]


def test_games_row_has_the_engines_standings_and_winners(simulated: Any) -> None:
    game, rows = simulated
    row = rows["games"][0]
    config = game.config
    assert row["valid"] is True and row["complete"] is True and row["problem_line"] is None
    assert row["rules"] == config.rules and row["players"] == list(config.players)
    standings = game.standings()
    assert [(s["side"], s["score"], s["winner"]) for s in row["standings"]] == [
        (config.side_name(s.side), s.score, s.winner) for s in standings]
    assert [s["seats"] for s in row["standings"]] == [[seat + 1 for seat in config.sides[s.side]] for s in standings]
    assert row["winners"] == [config.side_name(s.side) for s in standings if s.winner]


def side_points_from_events(rows: dict[str, list[dict[str, Any]]]) -> Counter[str]:
    """Each side's score as the events add it up, family by family."""
    points: Counter[str] = Counter()
    family = rows["games"][0]["family"]
    for event in rows["events"]:
        if family == "fitzgerald":  # R18: 2 x Vault + Showroom, each the points moved in minus those moved out
            worth = {"vault": 2, "showroom": 1}
            if event["to_side"] is not None:
                points[event["to_side"]] += worth[event["to_area"]] * event["points"]
            if event["from_side"] is not None:
                points[event["from_side"]] -= worth[event["from_area"]] * event["points"]
        elif event["kind"] == "hand scored":  # K7, B9
            points[event["side"]] += event["points"]
    return points


def test_events_add_up_to_each_sides_score(simulated: Any) -> None:
    game, rows = simulated
    config = game.config
    expected = {config.side_name(s.side): s.score for s in game.standings()}
    found = side_points_from_events(rows)
    assert {side: found[side] for side in expected} == expected
    for standing in rows["games"][0]["standings"]:  # Fitzgerald's own fields: R18's Vault and Showroom
        if "vault" in standing:
            assert standing["score"] == 2 * standing["vault"] + standing["showroom"]


def test_fitzgerald_suit_actions_are_the_engines() -> None:
    game = simulate(3, rules="2e", seed=21)
    rows = game_rows(replayed_from_text(game), "f.dgn", 1)
    assert game.config.uses_thief
    actions = [e for events in game.events for e in events if isinstance(e, SuitAction)]
    starts = rows["events"][:3]  # R2/R3: each side starts with 3 points per member in its Showroom
    assert [(r["kind"], r["side"], r["points"], r["to_area"]) for r in starts] == [
        ("start", name, 3, "showroom") for name in game.config.players]
    suit_actions = rows["events"][3:]
    assert [(r["kind"], r["suit"], r["reason"], r["points"]) for r in suit_actions] == [
        ("suit action", a.suit.value, a.reason.value, a.points) for a in actions]
    assert [r["seq"] for r in rows["events"]] == list(range(1, len(actions) + 4))
    assert any(r["thief_before"] != r["thief_after"] for r in suit_actions)  # 3 players, 2e: the Thief moves (R13)
    # A card's action_points are those of the off-suit action it earned (R9) and, on the winning card,
    # of the trick-won action (R10): together every trick-time point.
    trick_time = sum(a.points for a in actions if a.reason in (Reason.OFF_SUIT, Reason.TRICK_WON))
    assert sum(r["action_points"] or 0 for r in rows["plays"]) == trick_time
    off_suit = [r for r in rows["plays"] if not r["followed"]]
    assert off_suit and all(r["action_points"] is not None for r in off_suit)
    cards = [e for events in game.events for e in events if isinstance(e, FitzgeraldCardPlayed)]
    assert [r["followed"] for r in rows["plays"]] == [c.followed for c in cards]


def test_kirk_trick_points_make_the_hand_scores() -> None:
    game = simulate(4, rules="kirk", seed=31)
    rows = game_rows(replayed_from_text(game), "k.dgn", 1)
    tricks: Counter[tuple[int, str]] = Counter()
    hands: dict[tuple[int, str], int] = {}
    for event in rows["events"]:
        if event["kind"] == "trick won":  # K6/K7: the trick's cards go to the winner's pile
            tricks[event["round"], event["side"]] += event["points"]
            assert event["decided_by"] in ("highest", "piles", "first played")
            assert event["player"] in event["tied"]
        elif event["kind"] == "hand scored":
            hands[event["round"], event["side"]] = event["points"]
    assert hands and all(hands[key] == tricks[key] for key in hands)
    assert all(row["value"] == row["rank"] + (row["suit"] == "D") for row in rows["plays"])  # K3


def test_bidding_rows_have_bids_kitty_and_made_contracts() -> None:
    game = simulate(3, rules="bidding", seed=41)
    rows = game_rows(replayed_from_text(game), "b.dgn", 1)
    kinds = Counter(e["kind"] for e in rows["events"])
    hands = rows["games"][0]["rounds"]
    assert kinds["bid"] == kinds["kitty take"] == kinds["final bid"] == 3 * hands  # B3, B4, B5
    assert kinds["trick won"] == len(rows["plays"]) // 3
    for event in rows["events"]:
        if event["kind"] == "hand scored":  # B9: made exactly when the tricks equal the final bid
            assert event["made"] == (event["tricks"] == event["final_bid"])
            assert (event["points"] > 0) == event["made"] or event["points"] == 0
    jokers = [row for row in rows["plays"] if row["card"] == "Jo"]
    assert all(row["rank"] is None and row["suit"] in "DHSC" and row["high"] is not None for row in jokers)


def test_an_invalid_game_keeps_its_plays_up_to_the_problem() -> None:
    text = (SAMPLES / "invalid" / "revoke.dgn").read_text(encoding="utf-8")
    replayed = replay_record(parse_game(text), history=False)
    rows = game_rows(replayed, "revoke.dgn", 1)
    row = rows["games"][0]
    assert (row["valid"], row["complete"]) == (False, False)
    assert (row["problem_line"], row["problem_column"], row["problem_rule"], row["problem_code"]) == (
        38, 11, "R8", replayed.problems[0].code)
    assert "must follow Hearts" in row["problem_message"]
    assert row["winners"] == [] and all(s["winner"] is False for s in row["standings"])
    # The plays are those the replay accepted: up to the revoke at 38:11, not the card refused there.
    accepted = sum(1 for events in replayed.game.events for e in events if type(e).__name__ == "CardPlayed")
    assert len(rows["plays"]) == row["plays"] == accepted > 0
    last = rows["plays"][-1]
    assert (last["round"], last["trick"]) == (2, 2) and last["won_trick"] is None  # an unfinished trick


def test_an_unreadable_game_has_its_games_row_only() -> None:
    text = (SAMPLES / "invalid" / "unclosed-tag-value.dgn").read_text(encoding="utf-8")
    rows = game_rows(replay_record(parse_game(text), history=False), "bad.dgn", 1)
    row = rows["games"][0]
    assert (row["valid"], row["family"], row["standings"]) == (False, None, [])
    assert (row["problem_line"], row["problem_column"]) == (2, 7)
    assert rows["plays"] == [] and rows["events"] == []


def test_buffer_columns_match_game_rows() -> None:
    """The column buffer a conversion uses holds what game_rows says, null where a family has no column."""
    buffer = TableBuffer()
    expected: dict[str, list[dict[str, Any]]] = {name: [] for name in TABLE_NAMES}
    for index, (rules, players) in enumerate((("2e", 4), ("kirk", 4), ("bidding", 3)), 1):
        replayed = replayed_from_text(simulate(players, rules=rules, seed=index))
        buffer.add(replayed, "mix.dgn", index)
        for name, rows in game_rows(replayed, "mix.dgn", index).items():
            expected[name] += rows
    assert buffer.games == 3
    for name in TABLE_NAMES:
        names = [c.name for c in columns(name)]
        data = buffer.data[name]
        assert list(data) == names and {len(values) for values in data.values()} == {len(expected[name])}
        for position, row in enumerate(expected[name]):
            assert {key: data[key][position] for key in names} == {key: row.get(key) for key in names}


@pytest.mark.parametrize("kept", [("games",), ("games", "events"), ("plays",), ("events", "rounds")])
def test_a_buffer_of_some_tables_holds_exactly_their_rows(kept: tuple[str, ...]) -> None:
    """`stats` asks for the games and events only: the tables asked for (and the games, always) hold what
    the full buffer holds, the games row still counts every card played, and the others are not built."""
    full, some = TableBuffer(), TableBuffer(kept)
    for index, (rules, players) in enumerate((("2e", 4), ("2e", 3), ("kirk", 4), ("bidding", 3)), 1):
        replayed = replayed_from_text(simulate(players, rules=rules, seed=20 + index))
        full.add(replayed, "mix.dgn", index)
        some.add(replayed, "mix.dgn", index)
    assert list(some.data) == [name for name in TABLE_NAMES if name in {"games", *kept}]
    for name, data in some.data.items():
        assert data == full.data[name]
    assert sum(some.data["games"]["plays"]) == len(full.data["plays"]["card"]) > 0


def test_a_buffer_refuses_a_table_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="no such table: moves"):
        TableBuffer(("games", "moves"))


def test_every_table_starts_with_the_join_keys_and_names_each_column_once() -> None:
    for name in TABLE_NAMES:
        names = [c.name for c in columns(name)]
        assert names[:2] == ["file", "game"] and len(names) == len(set(names))
    assert [c.name for c in standing_fields()][:4] == ["side", "seats", "score", "winner"]


def _documented(text: str, table: str) -> list[tuple[str, str]]:
    block = text.split(f"<!-- columns:{table} -->", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \|", block, re.M)


def test_docs_list_every_column_with_its_type() -> None:
    pytest.importorskip("pyarrow")
    from diamonds.replay.arrow import schema

    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    for name in TABLE_NAMES:
        documented = _documented(text, name)
        assert [n for n, _ in documented] == [c.name for c in columns(name)], name
        for (column, kind), field in zip(documented, schema(name)):
            written = kind.strip()
            if written.startswith("list<struct"):
                assert written == next(c for c in columns(name) if c.name == column).kind.value
                continue
            actual = str(field.type).replace("dictionary<values=string, indices=int32, ordered=0>",
                                             "dictionary<string>").replace("item: ", "").replace("element: ", "")
            assert written == actual, (name, column)
    assert [n for n, _ in _documented(text, "standings")] == [c.name for c in standing_fields()]
    assert {c.kind for name in TABLE_NAMES for c in columns(name)} <= set(Kind)
