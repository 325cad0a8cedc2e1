"""`diamonds stats`: figures checked against the engine, DGN and Parquet alike, the screen, JSON, plots, bad input.

Expected figures are recomputed here from the engine's own answers on
simulated games (`game.standings()` and the events of every move), never
written down by hand: the stats read the analysis tables, these tests read
the games.
"""

from __future__ import annotations

import io
import json
import statistics
import xml.etree.ElementTree as ElementTree
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from diamonds.cli.main import main
from diamonds.cli.stats_cmd import SummaryView
from diamonds.core import Engine, simulate
from diamonds.families.bidding.rules import HandScored
from diamonds.families.fitzgerald.rules import SuitAction
from diamonds.families.kirk.rules import TrickWon as KirkTrickWon
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game
from diamonds.replay.arrow import TableWriter, converted_batches
from diamonds.replay.stats import Distribution, StatsAccumulator

ROOT = Path(__file__).resolve().parents[2]

# (rules, players, variants, options): every family, teams and not, both Kirk lengths.
SETUPS = [
    ("1e", 3, (), None), ("2e", 4, ("partnership",), None), ("bga", 5, ("perfect",), None),
    ("2e", 2, (), None), ("kirk", 4, (), {"Hands": "2"}), ("kirk", 4, (), {"Target": "150"}),
    ("bidding", 3, (), None),
]
GAMES_PER_SETUP = 4


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Engine]]:
    """One DGN file of random complete games of every set-up, and the engine's games behind it."""
    games = []
    for rules, players, variants, options in SETUPS:
        for seed in range(GAMES_PER_SETUP):
            games.append(simulate(players, rules=rules, variants=variants, seed=seed, options=options))
    path = tmp_path_factory.mktemp("stats") / "games.dgn"
    path.write_text("\n".join(write_game(record_from_game(game)) for game in games), encoding="utf-8")
    return path, games


def stats_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    status = main(["stats", *args, "--format", "json"])
    out = capsys.readouterr()
    return status, (json.loads(out.out) if out.out else {}), out.err


def write_parquet(paths: list[str], folder: Path) -> None:
    """The tables as `convert --to parquet` writes them (the same writer)."""
    with TableWriter(str(folder)) as writer, converted_batches(paths, jobs=1) as batches:
        for _, converted in batches:
            assert not isinstance(converted, Exception)
            writer.write(converted.tables, converted.games)


def setup_of(game: Engine) -> tuple[str, int, tuple[str, ...]]:
    config = game.config
    variants = tuple(sorted(getattr(v, "value", v) for v in getattr(config, "variants", ())))
    return config.rules, config.player_count, variants


def events_of(game: Engine) -> list[Any]:
    return [event for move in game.events for event in move]


# --------------------------------------------------------------------------- figures against the engine


def test_groups_wins_scores_and_ties_equal_the_engines(simulated, capsys) -> None:
    path, games = simulated
    status, found, err = stats_json(capsys, str(path), "--jobs", "1")
    assert status == 0, err
    assert (found["games"], found["valid"], found["complete"]) == (len(games), len(games), len(games))
    by_setup: dict[tuple[str, int, tuple[str, ...]], list[Engine]] = defaultdict(list)
    for game in games:
        by_setup[setup_of(game)].append(game)
    groups = {(g["rules"], g["players"], tuple(g["variants"])): g for g in found["groups"]}
    assert set(groups) == set(by_setup)
    for key, played in by_setup.items():
        group = groups[key]
        assert group["games"] == group["complete"] == len(played)
        wins: Counter[int] = Counter()
        scores: list[int] = []
        tied = broken = shared = 0
        for game in played:
            standings = game.standings()
            scores += [s.score for s in standings]
            winners = [s.side for s in standings if s.winner]
            wins.update(side + 1 for side in winners)
            top = max(s.score for s in standings)
            at_top = sum(1 for s in standings if s.score == top)
            tied += at_top > 1
            broken += at_top > 1 and len(winners) < at_top  # R18: the larger Vault decides
            shared += len(winners) > 1  # R18, K8, B10: a further tie shares the win
        assert [w["wins"] for w in group["wins"]] == [wins[side] for side in range(1, len(group["wins"]) + 1)]
        assert [w["rate"] for w in group["wins"]] == [round(wins[w["side"]] / len(played), 4) for w in group["wins"]]
        sides = played[0].config.sides
        assert [w["seats"] for w in group["wins"]] == [[seat + 1 for seat in side] for side in sides]
        assert group["scores"]["mean"] == round(statistics.fmean(scores), 4)
        assert group["scores"]["stdev"] == round(statistics.pstdev(scores), 4)
        assert (group["scores"]["min"], group["scores"]["max"]) == (min(scores), max(scores))
        assert group["scores"]["median"] == statistics.median(scores)
        assert group["ties"] == {"top_tied": tied, "broken": broken, "shared": shared}


def breakdown(found: dict[str, Any], family: str, name: str) -> list[dict[str, Any]]:
    figures = next(f for f in found["families"] if f["family"] == family)
    return next(b for b in figures["breakdowns"] if b["name"] == name)["rows"]


def test_family_figures_equal_the_engines_events(simulated, capsys) -> None:
    path, games = simulated
    _, found, _ = stats_json(capsys, str(path), "--jobs", "1")
    reasons: Counter[tuple[str, str]] = Counter()
    reason_points: Counter[tuple[str, str]] = Counter()
    decided: Counter[tuple[str, int]] = Counter()
    finals: Counter[int] = Counter()
    made: Counter[int] = Counter()
    for game in games:
        for event in events_of(game):
            if isinstance(event, SuitAction):  # R9, R10, R16, R17
                reasons[game.config.rules, event.reason.value] += 1
                reason_points[game.config.rules, event.reason.value] += event.points
            elif isinstance(event, KirkTrickWon):  # K5
                decided[event.decided_by.value, event.depth] += 1
            elif isinstance(event, HandScored):  # B9
                for seat in event.seats:
                    finals[seat.final_bid] += 1
                    made[seat.final_bid] += seat.made
    rows = breakdown(found, "fitzgerald", "suit_actions_by_reason")
    assert {(r["rules"], r["reason"]): r["actions"] for r in rows} == dict(reasons)
    assert {(r["rules"], r["reason"]): r["points"] for r in rows} == dict(reason_points)
    rows = breakdown(found, "kirk", "tricks_by_decision")
    assert {(r["decided by"], r["depth"]): r["tricks"] for r in rows} == dict(decided)
    rows = breakdown(found, "bidding", "contracts_by_final_bid")
    assert {r["amount"]: r["final bids"] for r in rows if r["final bids"]} == dict(finals)
    assert {r["amount"]: r["made"] for r in rows if r["final bids"]} == {k: made[k] for k in finals}


def test_parquet_input_gives_the_same_summary(simulated, tmp_path, capsys) -> None:
    path, _ = simulated
    samples = sorted(str(p) for p in (ROOT / "samples").glob("*.dgn"))
    write_parquet([str(path), *samples], tmp_path / "tables")
    _, from_dgn, _ = stats_json(capsys, str(path), *samples, "--jobs", "1")
    status, from_parquet, err = stats_json(capsys, str(tmp_path / "tables"))
    assert status == 0, err
    assert from_parquet == from_dgn


def test_several_processes_count_the_same(simulated, capsys) -> None:
    path, _ = simulated
    _, one, _ = stats_json(capsys, str(path), "--jobs", "1")
    _, two, _ = stats_json(capsys, str(path), "--jobs", "2")
    assert one == two


def test_accumulators_merge_to_the_whole(simulated) -> None:
    """Counting games apart and merging (what batches and worker processes do) equals counting them together."""
    import pyarrow.compute as pc

    path, _ = simulated
    whole, halves = StatsAccumulator(), [StatsAccumulator(), StatsAccumulator()]
    with converted_batches([str(path)], jobs=1) as batches:
        for _, converted in batches:
            tables = converted.tables
            whole.add_tables(tables)
            for parity, half in enumerate(halves):
                games = tables["games"].filter(pc.equal(pc.bit_wise_and(tables["games"]["game"], 1), parity))
                events = tables["events"].filter(pc.is_in(tables["events"]["game"], games["game"]))
                half.add_tables({"games": games, "events": events})
    halves[0].merge(halves[1])
    assert halves[0].summary() == whole.summary()


@pytest.mark.parametrize("values", [[3], [1, 2], [5, 1, 4, 4], [-7, 0, 0, 9, 2], list(range(20))])
def test_distribution_figures(values: list[int]) -> None:
    d = Distribution.of(Counter(values))
    assert (d.count, d.low, d.high) == (len(values), min(values), max(values))
    assert d.mean == pytest.approx(statistics.fmean(values))
    assert d.stdev == pytest.approx(statistics.pstdev(values))
    assert d.median == statistics.median(values)


# --------------------------------------------------------------------------- what the user sees


def test_json_shape(simulated, capsys) -> None:
    path, _ = simulated
    _, found, _ = stats_json(capsys, str(path), "--jobs", "1")
    assert set(found) == {"version", "games", "valid", "invalid", "complete", "unreadable", "groups", "families"}
    assert found["version"] == 1
    for group in found["groups"]:
        assert set(group) == {"family", "rules", "players", "variants", "games", "valid", "complete", "wins",
                              "scores", "margins", "ties"}
        assert set(group["scores"]) == set(group["margins"]) == {"count", "mean", "stdev", "min", "median", "max"}
        for wins in group["wins"]:
            assert set(wins) == {"side", "seats", "wins", "rate"}
    assert [f["family"] for f in found["families"]] == ["fitzgerald", "kirk", "bidding"]
    for family in found["families"]:
        for table in family["breakdowns"]:
            assert set(table) == {"name", "title", "columns", "rows"}
            assert all(list(row) == table["columns"] for row in table["rows"])


def render(paths: list[str]) -> str:
    from rich.console import Console

    accumulator = StatsAccumulator()
    with converted_batches(paths, jobs=1) as batches:
        for _, converted in batches:
            accumulator.add_tables(converted.tables)
    console = Console(file=io.StringIO(), width=80)
    console.print(SummaryView(accumulator.summary()))
    return console.file.getvalue()


GOLDEN_KIRK = """\
3 games: 3 valid, 0 invalid, 3 complete and counted below

Games, and how often ties decided them (top tied: several sides had the best 
score; broken: the rules chose among them, R18's larger Vault; shared: a shared 
win)
set-up  ┃ games ┃ complete ┃ top tied ┃ broken ┃ shared
━━━━━━━━╇━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━╇━━━━━━━
kirk 4p │     3 │        3 │        0 │      0 │      0
"""


def test_golden_screen_of_a_bundled_sample() -> None:
    """The head of the screen for the Kirk samples, exactly; the rest is checked for content and width."""
    text = render(sorted(str(p) for p in (ROOT / "samples").glob("kirk-*.dgn")))
    assert text.startswith(GOLDEN_KIRK)
    assert "How tricks were decided (K5)" in text and "Tricks by the winning card's value (K3, K7)" in text
    assert "\x1b" not in text


def test_every_sample_fits_80_columns() -> None:
    text = render(sorted(str(p) for p in (ROOT / "samples").glob("*.dgn")))
    assert max(len(line) for line in text.splitlines()) <= 80
    for title in ("Suit Actions by reason (R9, R10, R16, R17)", "Bids and contracts made (B3, B5, B9)",
                  "How tricks were decided (K5)", "Win rate by side"):
        assert title in text


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_plot_writes_a_real_picture(tmp_path, capsys, suffix: str) -> None:
    picture = tmp_path / f"stats{suffix}"
    small = [str(ROOT / "samples" / name) for name in ("kirk-4p-hands.dgn", "bidding-3p-club.dgn", "2e-5p-perfect.dgn")]
    assert main(["stats", *small, "--jobs", "1", "--plot", str(picture)]) == 0
    capsys.readouterr()
    data = picture.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    else:
        root = ElementTree.fromstring(data)
        assert root.tag.endswith("svg")
        assert len(root) > 0


def test_plot_with_another_suffix_is_a_usage_error(simulated, tmp_path, capsys) -> None:
    path, _ = simulated
    assert main(["stats", str(path), "--plot", str(tmp_path / "chart.pdf")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".png or .svg" in err
    assert not (tmp_path / "chart.pdf").exists()


# --------------------------------------------------------------------------- bad input


def one_error_line(capsys: pytest.CaptureFixture[str], args: list[str], status: int) -> str:
    assert main(["stats", *args]) == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_missing_file(tmp_path, capsys) -> None:
    err = one_error_line(capsys, [str(tmp_path / "nothere.dgn")], 2)
    assert "nothere.dgn: no such file" in err


def test_folder_without_tables(tmp_path, capsys) -> None:
    err = one_error_line(capsys, [str(tmp_path)], 2)
    assert "no games.parquet" in err and "convert" in err


def test_unreadable_parquet(tmp_path, capsys) -> None:
    (tmp_path / "games.parquet").write_bytes(b"not parquet at all")
    err = one_error_line(capsys, [str(tmp_path)], 2)
    assert "games.parquet" in err and "not a Parquet table" in err


def test_undecodable_file(tmp_path, capsys) -> None:
    bad = tmp_path / "latin.dgn"
    bad.write_bytes('[Event "Caf\xe9"]\n'.encode("latin-1"))
    assert main(["stats", str(bad), "--format", "json"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"diamonds stats: {bad}:1:12: not UTF-8 (byte 0xE9); if the file is Latin-1, use "
                                "--encoding latin-1", '    [Event "Caf\ufffd', "    " + " " * 11 + "^"], err


def test_an_invalid_game_is_reported_and_left_out(simulated, tmp_path, capsys) -> None:
    """A revoke (R8) in one game: reported at its place with the ruling, status 1; the other games counted."""
    revoke = (ROOT / "samples" / "invalid" / "revoke.dgn").read_text(encoding="utf-8")
    path, games = simulated
    mixed = tmp_path / "mixed.dgn"
    mixed.write_text(path.read_text(encoding="utf-8") + "\n" + revoke, encoding="utf-8")
    status, found, err = stats_json(capsys, str(mixed), "--jobs", "1")
    assert status == 1
    assert f"{mixed}:" in err and "(R8)" in err and "^" in err
    assert (found["games"], found["valid"], found["complete"]) == (len(games) + 1, len(games), len(games))
    write_parquet([str(mixed)], tmp_path / "tables")
    status, again, err = stats_json(capsys, str(tmp_path / "tables"))
    assert status == 1 and err.count("\n") == 1 and "(R8)" in err and f"{mixed}:" in err
    assert again == found


_FIRST_USE_UNDER_ANOTHER_REGISTRY = r"""
import sys
sys.path.insert(0, sys.argv[1])
import toyfamily
from diamonds.core import registry
from diamonds.core.registry import register

shipped = registry._REGISTRY
registry._REGISTRY = registry._Registry()
register(toyfamily.FAMILY)
import diamonds.replay.export, diamonds.replay.players, diamonds.replay.stats, diamonds.replay.tables  # noqa: E401
from diamonds.cli.main import main
registry._REGISTRY = shipped  # put back, as a test's monkeypatch does
sys.exit(main(["stats", "--by", "player", sys.argv[2], "--format", "json"]))
"""


@pytest.mark.process
def test_stats_read_the_families_registered_when_they_run_not_when_imported(tmp_path: Path) -> None:
    """The statistics, the export and the tables ask the registry for its families each time. They used to
    take them once, at import: imported while a test's registry held the toy family, `diamonds stats`
    later failed with an internal error (KeyError: no family named 'toy') once the registry was put back."""
    import subprocess
    import sys

    tests = Path(__file__).resolve().parents[1]
    sample = tests.parent / "samples" / "club-night-2026-11-20.dgn"
    done = subprocess.run([sys.executable, "-c", _FIRST_USE_UNDER_ANOTHER_REGISTRY, str(tests), str(sample)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
    players = json.loads(done.stdout)["players"]
    assert players and not any(row["rules"] == "toy" for row in players)
