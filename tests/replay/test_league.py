"""Players across games: `stats --by player` (the league), `ratings`, the `rounds` table and the
documented season queries (docs/tables.md, docs/stats.md), on the bundled samples."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyarrow")

from diamonds.cli.main import main  # noqa: E402
from diamonds.replay.players import places, wilson  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(str(p) for p in (ROOT / "samples").glob("*.dgn"))


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    status = main(list(args))
    out = capsys.readouterr()
    return status, json.loads(out.out)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("league") / "tables"
    assert main(["convert", *SAMPLES, "--to", "parquet", "-o", str(out), "--jobs", "1"]) == 0
    return out


def test_wilson_interval_and_places() -> None:
    low, high = wilson(1, 1)  # type: ignore[misc]
    assert round(low, 4) == 0.2065 and high == 1.0
    low, high = wilson(5, 10)  # type: ignore[misc]
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 0) is None
    standings = [{"score": 10, "winner": True}, {"score": 10, "winner": True}, {"score": 4, "winner": False},
                 {"score": 4, "winner": False}, {"score": 2, "winner": False}]
    assert places(standings) == [1, 1, 3, 3, 5]
    # R18: the tie broken by the larger Vault: the other top score is second
    assert places([{"score": 9, "winner": False}, {"score": 9, "winner": True}]) == [2, 1]


def test_league_json_contract_and_partnerships(capsys: pytest.CaptureFixture[str]) -> None:
    status, found = run_json(capsys, "stats", *SAMPLES, "--by", "player", "--format", "json", "--jobs", "1")
    assert status == 0 and found["games"] == 18
    rows = found["players"]
    for row in rows:
        assert {"player", "rules", "games", "wins", "win_rate", "mean_score"} <= set(row)
        assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
    # 1e-4p-partnership: Camille-D and lbeaumont's side won with 50 (the tie broken, R18): both win
    first = {r["player"]: r for r in rows if r["rules"] == "1e"}
    assert first["Camille-D"]["wins"] == first["lbeaumont"]["wins"] == 1
    assert first["Joost"]["wins"] == first["Marit"]["wins"] == 0
    assert first["Joost"]["mean_place"] == 2
    # every side of every game is counted once per player
    games = sum(r["games"] for r in rows)
    assert games == sum(len(p) for p in _players_per_game())
    # a family of several rule sets also gets its totals
    assert {r["family"] for r in found["families"]} == {"fitzgerald"}


def _players_per_game() -> list[list[str]]:
    found = []
    for path in SAMPLES:
        found += [line.split('"')[1].split() for line in Path(path).read_text(encoding="utf-8").splitlines()
                  if line.startswith("[Players ")]
    return found


def test_a_shared_win_counts_as_a_fraction() -> None:
    import pyarrow as pa

    from diamonds.replay.players import LeagueAccumulator

    counts = LeagueAccumulator()
    standings = [{"side": "A", "seats": [1], "score": 5, "winner": True},
                 {"side": "B", "seats": [2], "score": 5, "winner": True},
                 {"side": "C", "seats": [3], "score": 1, "winner": False}]
    counts.add_games(pa.Table.from_pylist([{"file": "f", "game": 1, "family": "kirk", "rules": "kirk",
                                            "players": ["A", "B", "C"], "tags": [], "valid": True,
                                            "complete": True, "standings": standings}]))
    league = counts.league()
    wins = {row.player: row.wins for row in league.rows}
    assert wins == {"A": 0.5, "B": 0.5, "C": 0}


def test_csv_text_and_parquet_folders_agree(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    _, from_dgn = run_json(capsys, "stats", *SAMPLES, "--by", "player", "--format", "json", "--jobs", "1")
    _, from_parquet = run_json(capsys, "stats", str(folder), "--by", "player", "--format", "json")
    assert from_dgn == from_parquet
    assert main(["stats", str(folder), "--by", "player", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == len(from_dgn["players"]) + len(from_dgn["families"])
    assert main(["stats", str(folder), "--by", "player", "--width", "100"]) == 0
    text = capsys.readouterr().out
    assert "fitzgerald, rules 2e" in text and "Anneke" in text and "95% interval" in text


def test_names_are_never_markup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = Path(ROOT / "samples" / "bga-2p-online.dgn").read_text(encoding="utf-8")
    path = tmp_path / "odd.dgn"
    path.write_text(text.replace("Kofi", "[red]x").replace("Sofie_R", "[bold]"), encoding="utf-8")
    status = main(["stats", str(path), "--by", "player", "--width", "100"])
    out = capsys.readouterr()
    if status == 0:  # when the names are accepted by the notation, they show as written
        assert "[red]x" in out.out


def test_documented_season_queries_agree_with_the_league(folder: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    duckdb = pytest.importorskip("duckdb")
    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sql\n(.*?)```", text, re.S)
    season = next(b for b in blocks if "A season" in b or "2027.01.01" in b)
    improved = next(b for b in blocks if "improved_by" in b)
    _, league = run_json(capsys, "stats", str(folder), "--by", "player", "--format", "json")
    monkeypatch.chdir(folder.parent)
    rows = duckdb.sql(season).fetchall()
    dated_2026 = {(r["rules"], r["player"]): (r["games"], r["wins"], r["win_rate"], r["mean_score"])
                  for r in league["players"]}
    # every sample is dated 2026 (one only as 2026.??.??): the season is the whole league
    assert {(rules, player): (games, wins, rate, score) for rules, player, games, wins, rate, score in rows} == \
        dated_2026
    better = duckdb.sql(improved).fetchall()
    assert better and all(row[1] >= 2 for row in better)
    assert [row[-1] for row in better] == sorted((row[-1] for row in better), reverse=True)


def test_rounds_end_at_the_final_scores(folder: Path) -> None:
    import diamonds

    tables = diamonds.read_tables(str(folder))
    games, plays, events = tables  # three-way unpacking still works
    rounds = tables.rounds.to_pylist()
    assert rounds and {"round", "side", "score", "points", "vault", "showroom"} <= set(rounds[0])
    last: dict[tuple[str, int, str], dict[str, Any]] = {}
    for row in rounds:
        last[row["file"], row["game"], row["side"]] = row  # rounds come in order
    for game in games.to_pylist():
        assert game["date"] and game["event"] and game["site"]
        for side in game["standings"]:
            row = last[game["file"], game["game"], side["side"]]
            assert row["score"] == side["score"], (game["file"], side)
            if "vault" in side and side["vault"] is not None:
                assert (row["vault"], row["showroom"]) == (side["vault"], side["showroom"])
    # the sample's comment after R1: (Showroom/Vault) hwalsh 0/3, Ines_B 8/2, Kofi 0/4
    league = [r for r in rounds if r["file"].endswith("1e-3p-league.dgn") and r["round"] == 1]
    assert {r["side"]: (r["showroom"], r["vault"]) for r in league} == \
        {"hwalsh": (0, 3), "Ines_B": (8, 2), "Kofi": (0, 4)}
    frames = diamonds.to_pandas(tables)
    assert len(frames.rounds) == len(rounds)


def test_ratings_table_json_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    status, found = run_json(capsys, "ratings", *SAMPLES, "--format", "json", "--jobs", "1")
    assert status == 0 and found["games"] == 18 and "Plackett-Luce" in found["model"]
    rows = found["players"]
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    assert sum(r["games"] for r in rows) == sum(len(p) for p in _players_per_game())
    plot = tmp_path / "r.svg"
    assert main(["ratings", *SAMPLES, "--plot", str(plot), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "ordinal" in out and "Kofi" in out and plot.read_text().startswith("<?xml")


def test_ratings_aliases_merge_spellings(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    aliases = tmp_path / "names.txt"
    aliases.write_text("# the same person\nKofi Mensah: Kofi, kofi_m\n\n", encoding="utf-8")
    status, found = run_json(capsys, "ratings", *SAMPLES, "--alias", str(aliases), "--format", "json",
                             "--jobs", "1")
    names = {r["player"]: r["games"] for r in found["players"]}
    assert status == 0 and "Kofi" not in names and names["Kofi Mensah"] == 3
    aliases.write_text("Kofi\n", encoding="utf-8")
    assert main(["ratings", *SAMPLES, "--alias", str(aliases)]) == 2
    assert "names.txt:1: expected `Canonical: alias1, alias2`" in capsys.readouterr().err


def test_an_alias_file_of_another_encoding_is_placed_and_a_player_twice_is_named(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A Latin-1 byte gave a bare codec error naming neither the file nor the line; a game skipped because
    two spellings merged on one board did not say whose."""
    pytest.importorskip("openskill")
    aliases = tmp_path / "names.txt"
    aliases.write_bytes("Kofi: Ko\xefi\n".encode("latin-1"))
    assert main(["ratings", *SAMPLES, "--alias", str(aliases)]) == 1
    assert "names.txt:1:9: not UTF-8 (byte 0xEF)" in capsys.readouterr().err
    aliases.write_text("Kofi: Ines_B\n", encoding="utf-8")  # both sit at the league's first game
    assert main(["ratings", *SAMPLES, "--alias", str(aliases), "--jobs", "1"]) == 1  # a game not rated
    assert "Kofi is on the board twice after the aliases (played as Ines_B, Kofi); not rated" in \
        capsys.readouterr().err


def test_ratings_follow_the_date_order() -> None:
    pytest.importorskip("openskill")
    from diamonds.replay.players import PlayedGame
    from diamonds.replay.ratings import date_key, rate

    def game(order: int, date: str | None, winner: str, loser: str) -> PlayedGame:
        return PlayedGame("f", order + 1, order, date, "kirk", "kirk", ((winner,), (loser,)), (2, 1), (1, 2), 1)

    games = [game(0, "2026.05.01", "A", "B"), game(1, "2026.01.01", "B", "A"), game(2, None, "A", "B"),
             game(3, "2026.??.??", "B", "A")]
    assert [g.order for g in sorted(games, key=date_key)] == [1, 0, 2, 3]
    found = rate(games)
    assert [p.date for p in found.history["A"]] == ["2026.01.01", "2026.05.01", None, "2026.??.??"]


def test_a_missing_extra_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert main(["ratings", SAMPLES[0]]) == 2
    err = capsys.readouterr().err
    assert err == ('diamonds ratings: needs the ratings extra (openskill, which is not installed): '
                   'pip install "diamonds[ratings]"\n')


def test_stats_plot_counts_games_and_hatches_the_few(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    from diamonds.cli.stats_plot import FEW

    _, found = run_json(capsys, "stats", *SAMPLES, "--format", "json", "--jobs", "1")
    plot = tmp_path / "s.svg"
    assert main(["stats", *SAMPLES, "--plot", str(plot), "--jobs", "1"]) == 0
    svg = plot.read_text()
    for g in found["groups"]:  # each set-up's label carries its count of complete games
        assert f"n={g['complete']:,}" in svg
    assert any(g["complete"] < FEW for g in found["groups"])
    assert "<pattern" in svg  # the hatching that marks figures from fewer than FEW games (tests/cli/test_plots.py)
    league = tmp_path / "l.png"
    assert main(["stats", *SAMPLES, "--by", "player", "--plot", str(league), "--jobs", "1"]) == 0
    assert league.read_bytes()[:4] == b"\x89PNG"


def test_ratings_from_a_folder_are_the_ratings_from_dgn(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    pytest.importorskip("openskill")
    _, from_dgn = run_json(capsys, "ratings", *SAMPLES, "--format", "json", "--jobs", "1")
    _, from_folder = run_json(capsys, "ratings", str(folder), "--format", "json")
    assert from_dgn == from_folder


def test_csv_is_only_for_the_league(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", SAMPLES[0], "--format", "csv"]) == 2
    assert "--format csv is for the league table (--by player)" in capsys.readouterr().err


def test_students_t_points_match_the_table() -> None:
    """`t_point` (a bot's lead per deal, `bench/duel.py`; the strength test's bar) against the t table's
    two-sided 95% points, from the table's own (1 to 8 degrees of freedom) to the normal's."""
    from diamonds.replay.intervals import t_point

    for df, point in ((1, 12.706), (5, 2.571), (8, 2.306), (9, 2.262), (12, 2.179), (19, 2.093), (49, 2.010), (199, 1.972)):
        assert abs(t_point(df) - point) < 0.001 * point, (df, t_point(df))
    assert 1.95996 < t_point(100_000) < 1.9601
    with pytest.raises(ValueError):
        t_point(0)


@pytest.mark.parametrize(("lines", "words"), [
    ("Kofi: Ines_B\nInes_B: Kofi\n", "names.txt:2: 'Ines_B' is an alias of 'Kofi'"),  # a cycle swapped the two
    ("Kofi: Ines_B\nAnn: Kofi\n", "names.txt:2: 'Kofi' has aliases of its own"),
])
def test_ratings_refuse_an_alias_that_is_also_a_player(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       lines: str, words: str) -> None:
    pytest.importorskip("openskill")
    aliases = tmp_path / "names.txt"
    aliases.write_text(lines, encoding="utf-8")
    assert main(["ratings", *SAMPLES, "--alias", str(aliases)]) == 2
    assert words in capsys.readouterr().err
