"""`diamonds convert FILES --to parquet -o DIR`, read back with DuckDB and pandas, against the engine.

Games of every family and set-up are simulated by the engine, written as
DGN (two files), converted by the command as a user runs it, and read back
by DuckDB: the cards played per game, each side's points and the winners
must be the engine's (`game.standings()`). Also: the columns' types, the
joins on (file, game), an invalid game (reported with its ruling, kept up
to the problem, exit 1), a file that is not UTF-8, the output identical
whatever --jobs, the documented queries of docs/tables.md, and the notebook
surface (`diamonds.read_tables`, `diamonds.to_pandas`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from diamonds.cli.main import main  # noqa: E402
from diamonds.core import ConfigError, Engine, simulate  # noqa: E402
from diamonds.core.registry import FAMILIES  # noqa: E402
from diamonds.notation.writer import write_game  # noqa: E402
from diamonds.replay import record_from_game  # noqa: E402
from diamonds.replay.tables import TABLE_NAMES  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REVOKE = ROOT / "samples" / "invalid" / "revoke.dgn"


def every_setup() -> list[tuple[str, int, tuple[str, ...], dict[str, str] | None]]:
    """Every rule set of every family, with every player count and variant set it allows; Kirk with a
    number of hands and with a target (K8)."""
    setups = []
    for family in FAMILIES:
        for rules in family.rule_sets:
            variant_sets = [combo for n in range(len(rules.variants) + 1) for combo in combinations(rules.variants, n)]
            for players in rules.player_counts:
                for variants in variant_sets:
                    try:
                        rules.configure([f"P{i}" for i in range(players)], variants=variants)
                    except ConfigError:
                        continue
                    setups.append((rules.id, players, variants, None))
            if "Target" in rules.option_tags:
                setups.append((rules.id, rules.default_players, (), {"Target": "200"}))
    return setups


SETUPS = every_setup()


def engine_cards(game: Engine) -> int:
    return sum(1 for events in game.events for event in events if type(event).__name__ == "CardPlayed")


class Converted:
    """The simulated games, their files, and the folder the command wrote."""

    def __init__(self, folder: Path) -> None:
        self.games: dict[tuple[str, int], Engine] = {}
        self.files = [folder / "fitzgerald.dgn", folder / "others.dgn"]
        texts: dict[Path, list[str]] = {path: [] for path in self.files}
        for seed, (rules, players, variants, options) in enumerate(SETUPS):
            game = simulate(players, rules=rules, variants=variants, seed=seed, options=options)
            path = self.files[0] if game.config.rules in ("1e", "2e", "bga") else self.files[1]
            texts[path].append(write_game(record_from_game(game, tags=[("Event", f"setup {seed}"),
                                                                     ("Date", f"2026.{1 + seed % 12:02d}.{1 + seed % 28:02d}")])))
            self.games[str(path), len(texts[path])] = game
        self.bad = folder / "bad.dgn"
        self.bad.write_text(REVOKE.read_text(encoding="utf-8"), encoding="utf-8")
        for path, games in texts.items():
            path.write_text("\n".join(games), encoding="utf-8")
        self.out = folder / "tables"
        self.inputs = [str(path) for path in self.files] + [str(self.bad)]

    def table(self, name: str) -> str:
        return f"'{self.out / (name + '.parquet')}'"


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Converted:
    done = Converted(tmp_path_factory.mktemp("parquet"))
    status = main(["convert", *done.inputs, "--to", "parquet", "-o", str(done.out), "--jobs", "1"])
    assert status == 1  # the revoke
    return done


def test_plays_points_and_winners_are_the_engines(converted: Converted) -> None:
    """For every family and set-up, DuckDB reads what the engine played and scored."""
    cards = dict(((f, g), n) for f, g, n in duckdb.sql(
        f"SELECT file, game, count(*) FROM {converted.table('plays')} GROUP BY ALL").fetchall())
    sides = duckdb.sql(
        f"SELECT file, game, s.side, s.score, s.winner FROM "
        f"(SELECT file, game, unnest(standings) AS s FROM {converted.table('games')})").fetchall()
    by_game: dict[tuple[str, int], list[tuple[str, int, bool]]] = {}
    for file, game, side, score, winner in sides:
        by_game.setdefault((file, game), []).append((side, score, winner))
    winners = dict(((f, g), w) for f, g, w in duckdb.sql(
        f"SELECT file, game, winners FROM {converted.table('games')}").fetchall())
    families = set()
    for key, game in converted.games.items():
        config = game.config
        families.add(config.rules)
        assert cards[key] == engine_cards(game), key
        assert by_game[key] == [(config.side_name(s.side), s.score, s.winner) for s in game.standings()], key
        assert winners[key] == [config.side_name(s.side) for s in game.standings() if s.winner]
    assert families == {rules.id for family in FAMILIES for rules in family.rule_sets}
    assert len(SETUPS) > 30  # every edition x player count x variants, Kirk twice, bidding


def test_kirk_and_bidding_hand_scores_add_up_to_the_standings(converted: Converted) -> None:
    """Points per side, a second way: the `hand scored` events (K7, B9) sum to each final score."""
    rows = duckdb.sql(f"""
        SELECT e.file, e.game, e.side, sum(e.points) AS points, any_value(s.score) AS score
        FROM {converted.table('events')} AS e
        JOIN (SELECT file, game, unnest(standings) AS s FROM {converted.table('games')}) AS g
          ON e.file = g.file AND e.game = g.game AND e.side = g.s.side
        , (SELECT g.s.score AS score) AS s
        WHERE e.kind = 'hand scored' GROUP BY ALL""").fetchall()
    assert rows and all(points == score for *_, points, score in rows)


def test_fitzgerald_vault_and_showroom_are_the_sums_of_the_events(converted: Converted) -> None:
    """R18: each side's Vault and Showroom are the points the events moved in, less those moved out."""
    moved = duckdb.sql(f"""
        WITH moves AS (
            SELECT file, game, to_side AS side, to_area AS area, points FROM {converted.table('events')}
            WHERE to_side IS NOT NULL
            UNION ALL
            SELECT file, game, from_side, from_area, -points FROM {converted.table('events')}
            WHERE from_side IS NOT NULL)
        SELECT file, game, side, sum(points) FILTER (area = 'vault') AS vault,
               sum(points) FILTER (area = 'showroom') AS showroom
        FROM moves GROUP BY ALL""").fetchall()
    found = {(f, g, side): (vault or 0, showroom or 0) for f, g, side, vault, showroom in moved}
    checked = 0
    for key, game in converted.games.items():
        if game.config.rules not in ("1e", "2e", "bga"):
            continue
        for standing in game.standings():
            side = game.config.side_name(standing.side)
            assert found[(*key, side)] == (standing.vault, standing.showroom), (key, side)  # type: ignore[attr-defined]
            checked += 1
    assert checked > 100


def test_columns_have_proper_types(converted: Converted) -> None:
    plays = pq.read_table(converted.out / "plays.parquet")
    assert pa.types.is_dictionary(plays.schema.field("card").type)
    assert plays.schema.field("rank").type == pa.int8() and plays.schema.field("followed").type == pa.bool_()
    games = pq.read_table(converted.out / "games.parquet")
    standings = games.schema.field("standings").type
    assert pa.types.is_list(standings) and pa.types.is_struct(standings.value_type)
    assert {standings.value_type.field(i).name for i in range(standings.value_type.num_fields)} >= {
        "side", "score", "winner", "vault", "showroom", "seats"}
    described = dict((name, kind) for name, kind, *_ in duckdb.sql(
        f"DESCRIBE SELECT * FROM {converted.table('events')}").fetchall())
    assert described["points"] == "SMALLINT" and described["tied"] == "VARCHAR[]" and described["made"] == "BOOLEAN"
    frame = plays.to_pandas()
    assert str(frame["player"].dtype) == "category" and str(frame["trick"].dtype) == "int16"
    for name in TABLE_NAMES:  # no packed strings: no value holds a separator of several facts
        table = pq.read_table(converted.out / f"{name}.parquet")
        assert table.schema.names[:2] == ["file", "game"]


def test_tables_join_on_file_and_game(converted: Converted) -> None:
    orphans = duckdb.sql(f"""
        SELECT count(*) FROM {converted.table('plays')} AS p
        ANTI JOIN {converted.table('games')} AS g USING (file, game)""").fetchall()[0]
    assert orphans == (0,)
    files = {row[0] for row in duckdb.sql(f"SELECT DISTINCT file FROM {converted.table('games')}").fetchall()}
    assert files == set(converted.inputs)
    mismatched = duckdb.sql(f"""
        SELECT g.file, g.game FROM {converted.table('games')} AS g
        LEFT JOIN {converted.table('plays')} AS p USING (file, game)
        GROUP BY g.file, g.game, g.plays HAVING count(p.card) != g.plays""").fetchall()
    assert mismatched == []


def test_an_invalid_game_is_reported_and_kept_up_to_the_problem(converted: Converted,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    row = duckdb.sql(f"""SELECT valid, complete, problem_line, problem_column, problem_rule, plays
        FROM {converted.table('games')} WHERE file = '{converted.bad}'""").fetchall()[0]
    assert row == (False, False, 38, 11, "R8", 35)
    last = duckdb.sql(f"""SELECT round, trick, max("order") FROM {converted.table('plays')}
        WHERE file = '{converted.bad}' GROUP BY ALL ORDER BY round DESC, trick DESC LIMIT 1""").fetchall()[0]
    assert last == (2, 2, 2)  # the revoke at 38:11 is the third card of trick 2.: not kept


def test_stderr_names_the_ruling_with_a_caret(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.dgn"
    good.write_text(write_game(record_from_game(simulate(3, rules="bidding", seed=3))), encoding="utf-8")
    status = main(["convert", str(REVOKE), str(good), "--to", "parquet", "-o", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert status == 1
    assert f"{REVOKE}:38:11: Anneke must follow Hearts (holds 5H 12H) (R8)\n    2. 2H 15H 4S\n              ^^" in err
    assert "Traceback" not in err
    assert duckdb.sql(f"SELECT count(*) FROM '{tmp_path / 't' / 'games.parquet'}' WHERE valid").fetchall()[0] == (1,)


def test_a_file_not_utf8_is_reported_and_the_others_converted(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.dgn"
    good.write_text(write_game(record_from_game(simulate(4, rules="kirk", seed=5))), encoding="utf-8")
    latin = tmp_path / "latin.dgn"
    latin.write_bytes(b'[Event "Caf\xe9"]\n')
    status = main(["convert", str(latin), str(good), "--to", "parquet", "-o", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert status == 1 and f"{latin}:1:12: not UTF-8 (byte 0xE9)" in err and "Traceback" not in err
    assert duckdb.sql(f"SELECT file FROM '{tmp_path / 't' / 'games.parquet'}'").fetchall() == [(str(good),)]


def test_usage_errors_name_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["convert", str(REVOKE), "--to", "parquet"]) == 2
    assert "name it with -o DIR" in capsys.readouterr().err
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    assert main(["convert", str(REVOKE), "--to", "parquet", "-o", str(afile)]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "missing.dgn"), "--to", "parquet", "-o", str(tmp_path / "t")]) == 2
    assert "no such file" in capsys.readouterr().err and not (tmp_path / "t").exists()
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if the parquet extra were not installed
    assert main(["convert", str(REVOKE), "--to", "parquet", "-o", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert err == ('diamonds convert: needs the parquet extra (pyarrow, which is not installed): '
                   'pip install "diamonds[parquet]"\n')


def test_output_is_identical_whatever_jobs(converted: Converted, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Small batches and row groups, so that batches cross row groups; then 1 process against 2."""
    from diamonds.cli import parallel
    from diamonds.replay import arrow

    monkeypatch.setattr(parallel, "BATCH_GAMES", 4)
    monkeypatch.setattr(arrow, "ROW_GROUP_GAMES", 7)
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        assert main(["convert", *converted.inputs, "--to", "parquet", "-o", str(out), "--jobs", jobs]) == 1
        outputs.append({name: (out / f"{name}.parquet").read_bytes() for name in TABLE_NAMES})
    assert outputs[0] == outputs[1]
    assert pq.ParquetFile(tmp_path / "jobs1" / "games.parquet").metadata.num_row_groups > 2
    one_group = pq.read_table(converted.out / "plays.parquet").to_pydict()
    assert pq.read_table(tmp_path / "jobs1" / "plays.parquet").to_pydict() == one_group


def _doc_blocks(language: str) -> list[str]:
    text = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


@pytest.fixture()
def in_tables(converted: Converted, monkeypatch: pytest.MonkeyPatch) -> Converted:
    """The working directory holds the tables as `tables/`, as the documented queries read them."""
    monkeypatch.chdir(converted.out.parent)
    return converted


def test_documented_duckdb_queries(in_tables: Converted) -> None:
    queries = _doc_blocks("sql")
    assert len(queries) >= 6
    results = [duckdb.sql(query) for query in queries]
    for query, result in zip(queries, results):
        assert result.fetchall(), query
    per_game = results[0].fetchall()
    assert len(per_game) == len(in_tables.games) + 1 and all(row[-1] == row[-2] for row in per_game)
    invalid = results[-1].fetchall()
    assert [row[:5] for row in invalid] == [(str(in_tables.bad), 1, 38, 11, "R8")]
    win_rates = results[1].fetchall()
    assert all(0 <= rate <= 1 for *_, rate, _ in win_rates)


def test_documented_pandas_queries(in_tables: Converted) -> None:
    blocks = _doc_blocks("python")
    notebook, queries = blocks[0], blocks[1:]
    assert len(queries) >= 3
    for block in queries:
        namespace: dict[str, Any] = {}
        exec(block, namespace)
        assert len(namespace["result"]) > 0, block
    namespace = {}
    exec(queries[1], namespace)  # the sides' scores: the engine's
    sides = namespace["result"]
    for (file, game), engine_game in in_tables.games.items():
        mine = sides[(sides.file == file) & (sides.game == game)]
        assert list(mine.score) == [s.score for s in engine_game.standings()]
    assert "diamonds.to_pandas(" in notebook


def test_notebook_surface_in_three_lines(converted: Converted) -> None:
    import diamonds

    games, plays, events = diamonds.to_pandas(str(converted.files[1]))
    assert set(games.rules) == {"kirk", "bidding"} and games.valid.all()
    key = (str(converted.files[1]), 1)
    assert (plays.game == 1).sum() == engine_cards(converted.games[key])
    from_folder = diamonds.read_tables(str(converted.out))
    assert from_folder.games.num_rows == len(converted.games) + 1
    assert from_folder.plays.schema.equals(plays_schema := pq.read_schema(converted.out / "plays.parquet"))
    assert plays_schema.names == list(plays.columns)


def test_importing_diamonds_imports_nothing_heavy() -> None:
    code = ("import sys, diamonds; heavy = [m for m in ('pyarrow', 'pandas', 'duckdb', 'lark', 'rich', 'json') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.stdout.strip() == "[]"


@pytest.mark.process
@pytest.mark.parametrize("command", [["convert", "{dgn}", "--to", "parquet", "-o", "{out}", "--jobs", "1"],
                                     ["stats", "{dgn}", "--jobs", "1"]])
def test_a_conversion_to_arrow_never_imports_pandas(converted: Converted, tmp_path: Path, command: list[str]) -> None:
    """pyarrow imports pandas to tell its objects from a list (0.2-0.3 s): the commands that convert lists
    leave it unimported, in a process of their own as a user runs them."""
    pytest.importorskip("pandas")
    args = [arg.format(dgn=converted.files[0], out=tmp_path / "tables") for arg in command]
    code = ("import sys; from diamonds.cli.main import main; status = main(sys.argv[1:]); "
            "print('pandas' in sys.modules, status, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    assert done.stderr.strip().splitlines()[-1] == "False 0"


@pytest.mark.process
def test_pandas_is_there_again_after_a_conversion_in_the_same_process(tmp_path: Path) -> None:
    """After the conversion's block, pyarrow's own pandas integration works (it looks again) and pandas
    imports: a notebook that converts first and asks for pandas next loses nothing."""
    pytest.importorskip("pandas")
    code = ("import sys\n"
            "from diamonds.replay.arrow import pandas_not_looked_up\n"
            "import pyarrow as pa\n"
            "with pandas_not_looked_up():\n"
            "    table = pa.table({'card': pa.array(['9H', None, 'QS'])})\n"
            "    try:\n"
            "        import pandas\n"
            "    except ImportError:\n"
            "        print('refused inside')\n"
            "frame = table.to_pandas()\n"
            "import pandas\n"
            "print(list(frame['card'].fillna('-')), type(frame).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.splitlines() == ["refused inside", "['9H', '-', 'QS'] DataFrame"]


def test_the_no_trick_bonus_query_rebuilds_the_engines_scores(in_tables: Converted) -> None:
    """The documented R17 what-if rebuilds each side's score from the events (R18: 2 x Vault +
    Showroom): with every action counted, its scores and leaders must be the engine's."""
    query = next(block for block in _doc_blocks("sql") if "without_bonus" in block)
    rebuilt = query[:query.rindex("SELECT count(*)")] + "SELECT file, game, side, score FROM sides"
    scores = {(file, game, side): score for file, game, side, score in duckdb.sql(rebuilt).fetchall()}
    checked = 0
    for (file, game_no), game in in_tables.games.items():
        if game.config.rules not in ("1e", "2e", "bga"):
            continue
        for standing in game.standings():
            side = game.config.side_name(standing.side)
            assert scores[file, game_no, side] == standing.score, (file, game_no, side)
            checked += 1
    assert checked > 10
    [(decided, games)] = duckdb.sql(query).fetchall()
    fitzgerald_games = sum(1 for game in in_tables.games.values() if game.config.rules in ("1e", "2e", "bga"))
    assert 0 <= decided <= games == fitzgerald_games


@pytest.mark.parametrize("at", ["open", "close"])
def test_an_interrupt_while_the_tables_are_opened_or_closed_leaves_every_table_readable(tmp_path, monkeypatch, at):
    """SIGINT (a KeyboardInterrupt) while `TableWriter` opens its tables, or closes them: it is raised once every
    table is opened and closed whole, so that a folder kept partial (`--keep-partial`) never holds a table of
    0 bytes or without its footer (the race a loaded CI machine met)."""
    from diamonds.replay.arrow import TableWriter
    from diamonds.replay.tables import TABLE_NAMES

    real = pq.ParquetWriter
    interrupts = {"left": 1}

    class Interrupted(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            if at == "open" and len(os.listdir(tmp_path / "t")) == 2 and interrupts["left"]:
                interrupts["left"] -= 1
                raise KeyboardInterrupt
            super().__init__(*args, **kwargs)

        def close(self) -> None:
            if at == "close" and interrupts["left"]:
                interrupts["left"] -= 1
                raise KeyboardInterrupt
            super().close()

    monkeypatch.setattr(pq, "ParquetWriter", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        with TableWriter(str(tmp_path / "t")):
            if at == "open":
                pytest.fail("an interrupt while opening is raised from the constructor")
    assert interrupts["left"] == 0  # the interrupt came
    for name in TABLE_NAMES:
        assert pq.read_table(tmp_path / "t" / f"{name}.parquet").num_rows == 0, name
