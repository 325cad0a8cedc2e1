"""The `diamonds` command: argument parsing and dispatch; each command is a small module."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys

from diamonds.io.errors import Interrupted
from diamonds.io.escape import visible

from .errors import CommandError

TYPE_CHECKING = False  # as typing's, without importing typing: `diamonds --version` needs none of it
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _version() -> str:
    """The version and the build: compiled with mypyc (`DIAMONDS_COMPILE=1`, docs/build.md) or pure Python."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from importlib.util import find_spec

    from diamonds import __version__  # not importlib.metadata, whose import alone costs ~15 ms

    # Whether the engine's modules are extension modules: diamonds.core's cards module, looked for in the
    # package's folder without importing the engine (its __init__ stays Python in both builds).
    spec = find_spec("diamonds.core")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    compiled = any(os.path.exists(os.path.join(folder, "cards" + suffix)) for folder in folders
                   for suffix in EXTENSION_SUFFIXES)
    return f"{__version__} ({'compiled with mypyc' if compiled else 'pure Python'})"


class _VersionAction(argparse._VersionAction):
    """argparse's --version, with the version looked up only when asked for (not at every start)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        self.version = f"%(prog)s {_version()}"
        super().__call__(parser, namespace, values, option_string)


def _command_word(argv: Sequence[str]) -> str | None:
    """The command named on the line: the top-level parser's options take no value, so it is the
    first word that does not start with a dash."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error exits 2 with one line, never a traceback, and says what a mistyped
    command, option or choice was probably meant to be."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}{_did_you_mean(self, message)}\n")


def _did_you_mean(parser: argparse.ArgumentParser, message: str) -> str:
    """`; did you mean validate?` for an unknown command or choice, `--format` for an unknown option:
    the closest of the known ones (difflib), if any is close enough."""
    import difflib
    import re

    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        known = [word.strip().strip("'") for word in choice.group(2).split(",")]
        typed = [choice.group(1)]
    elif message.startswith("unrecognized arguments: "):
        known = [option for action in parser._actions for option in action.option_strings]
        typed = [word.split("=", 1)[0] for word in message.split(": ", 1)[1].split() if word.startswith("-")]
    else:
        return ""
    found = [close[0] for word in typed if (close := difflib.get_close_matches(word, known, n=1, cutoff=0.6))]
    return f"; did you mean {' or '.join(dict.fromkeys(found))}?" if found else ""


def _subparser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The parser of `command` (the top level's when there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]  # type: ignore[no-any-return]
    return parser


MAX_EXACT_NODES = 200_000  # diamonds.bots.solver.MAX_NODES (not imported: the command starts without the bots)
ANALYSE_SAMPLES = 48  # diamonds.bots.analyse.DEFAULT_SAMPLES (likewise)
ANALYSE_MORE = 64  # diamonds.bots.analyse.MORE (likewise): the most worlds, in multiples of --samples


def _whole(text: str, least: int, meaning: str) -> int:
    """An option's whole number of at least `least`; argparse reports anything else as a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be {meaning}")
    return value


def _count(text: str) -> int:
    return _whole(text, 0, "0 or more")


def _positive(text: str) -> int:
    return _whole(text, 1, "at least 1")


def _points(text: str) -> float:
    """A threshold in points: a number above 0 (a loss no greater than 0 is no loss; NaN and infinity mark
    nothing meaningful)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of points above 0, not {text!r}")
    return value


def _player(text: str) -> str:
    """`--as PLAYER`: a player's id, never empty (an empty one would silently mean nobody, or the first seat)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("names no player: give a player's id")
    return text


def _command(commands: argparse._SubParsersAction, only: str | None, name: str, help: str,
             examples: str) -> argparse.ArgumentParser | None:
    """Add the command `name` (listed with its help); its parser, to give it its options, if it is `only`'s
    (None: every command's)."""
    parser = commands.add_parser(
        name, help=help, description=help[0].upper() + help[1:] + ".",
        epilog="examples:\n" + examples, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser if only in (None, name) else None


def _inputs(command: argparse.ArgumentParser, help: str, *, dest: str = "files") -> None:
    command.add_argument(dest, nargs="+", metavar="FILE", help=help)


def _encoding(command: argparse.ArgumentParser, help: str) -> None:
    from .inputs import DEFAULT_ENCODING, encoding_name

    command.add_argument("--encoding", type=encoding_name, default=DEFAULT_ENCODING, metavar="NAME", help=help)


def _jobs(command: argparse.ArgumentParser) -> None:
    command.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                         help="processes to use (default: every core, for inputs of 1 MB or more)")


def _scheduler(command: argparse.ArgumentParser) -> None:
    command.add_argument("--scheduler", metavar="ADDRESS",
                         help="run on a Dask distributed cluster (tcp://host:8786); needs the dask extra")


def _no_clobber(command: argparse.ArgumentParser) -> None:
    command.add_argument("--no-clobber", action="store_true",
                         help="refuse to replace an output that exists (exit 2; nothing is written)")


def _players(command: argparse.ArgumentParser, extra: str = "") -> None:
    from .players import HELP, METAVAR, players_option

    command.add_argument("--players", type=players_option, default=None, metavar=METAVAR, help=HELP + extra)


MIN_WIDTH = 20  # columns: narrower, a table or a board has no room to show anything


def _render_width(text: str) -> int:
    return _whole(text, MIN_WIDTH, f"at least {MIN_WIDTH} (columns)")


def _width(command: argparse.ArgumentParser) -> None:
    command.add_argument("--width", type=_render_width, default=None,
                         help=f"render width, at least {MIN_WIDTH} columns (default: the terminal's)")


def _printed_output(command: argparse.ArgumentParser) -> None:
    """-o for a command that prints its result: the same text, written to a file (replaced whole)."""
    command.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    _no_clobber(command)


#: The commands whose result is what they print: `-o FILE` writes that text to FILE instead.
PRINTED = ("stats", "ratings", "schema")


def _plot(command: argparse.ArgumentParser, what: str) -> None:
    """`stats` and `ratings` end alike: --plot draws `what` (the plot extra's charts), then --jobs and --width."""
    command.add_argument("--plot", metavar="FILE", help=f"also draw {what} (.png or .svg); needs the plot extra")
    _jobs(command)
    _width(command)


def _option_tags(command: argparse.ArgumentParser, of: str = "the game") -> None:
    """An option for each tag some rule set reads (e.g. Hands, Target), naming the rule sets that read it."""
    from diamonds.core import RULE_SETS, option_tags

    for tag in sorted(option_tags()):
        users = ", ".join(rules.id for rules in RULE_SETS.values() if tag in rules.option_tags)
        command.add_argument(f"--{tag.lower()}", dest=f"tag_{tag}", default=None, metavar="VALUE",
                             help=f"the {tag} tag of {of} ({users})")


def build_parser() -> argparse.ArgumentParser:
    return _build_parser()


def _build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `only`, every command is listed (with its help) but only that one gets its
    options: building all of them cost a one-game `validate` 10 ms, and the options of `record`,
    `simulate`, `arena` and `play` import `diamonds.core`."""
    parser = _Parser(
        prog="diamonds",
        description="Record, check, replay and analyse games of Diamonds written in DGN.",
        epilog="examples:\n  diamonds replay game.dgn\n  diamonds validate logs/*.dgn\n"
               "  diamonds convert game.dgn --to csv -o plays.csv\n\n"
               "Run `diamonds COMMAND --help` for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction, version="%(prog)s")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    if replay := _command(commands, only, "replay", "replay a game step by step",
                          "  diamonds replay game.dgn              # interactive on a terminal\n"
                          "  diamonds replay game.dgn --at R2.7    # the table after trick 7 of round 2\n"
                          "  diamonds replay games.dgn --game 3 --as Ann --steps\n"
                          "  diamonds replay game.dgn --at R4.end -o end.svg    # a picture of the table\n"
                          "  diamonds replay games.dgn -o games.html           # a page replaying every game\n"
                          "  diamonds replay logs/ -o archive/    # an index page and a page per file"):
        _inputs(replay, "a DGN file, or - for standard input; several (or a folder) with -o DIR/ (an archive)",
                dest="file")
        _encoding(replay, "the file's text encoding (default utf-8; latin-1 for older logs)")
        replay.add_argument("--game", type=int, default=None, metavar="N", help="which game of the file (default 1)")
        replay.add_argument("--at", metavar="POS", help="show one position and exit: R2.7 (after trick 7 of round 2), "
                            "R2.7.3 (its 3rd card), R2.0 (after the passes), R2.end (after the awards), start, end")
        replay.add_argument("--steps", action="store_true", help="print every step, one after another")
        replay.add_argument("--as", dest="as_player", type=_player, metavar="PLAYER",
                            help="show only this player's hand")
        replay.add_argument("--svg", metavar="FILE", help="save a picture of the table at the position (SVG)")
        replay.add_argument("--html", metavar="FILE",
                            help="save an interactive replay page of every game of the file (one self-contained HTML); "
                                 "a folder (DIR/) gets an index page and a page per file")
        replay.add_argument("--terminal-svg", metavar="FILE", help="save the terminal screen at the position as SVG")
        replay.add_argument("--terminal-html", metavar="FILE", help="save the terminal screen at the position as HTML")
        replay.add_argument("-o", "--output", metavar="OUT",
                            help="save to OUT, by its name: FILE.svg as --svg, FILE.html as --html, DIR/ an archive")
        _no_clobber(replay)
        _width(replay)

    if validate := _command(commands, only, "validate", "check games against the rules",
                            "  diamonds validate game.dgn\n  diamonds validate logs/*.dgn --format json\n"
                            "  cat game.dgn | diamonds validate -"):
        _inputs(validate, "DGN files, or - for standard input")
        _encoding(validate, "the files' text encoding (default utf-8; latin-1 for older logs)")
        validate.add_argument("--format", choices=("text", "json"), default="text",
                              help="how to print the problems: text (file:line:col) or json (default text)")
        validate.add_argument("--quiet", "-q", action="store_true", help="print only the summary line")
        _jobs(validate)
        _scheduler(validate)

    if convert := _command(commands, only, "convert", "convert games to Parquet tables, JSON, JSON Lines, CSV, "
                           "or (from JSON) DGN",
                           "  diamonds convert logs/*.dgn --to parquet -o tables/   # games, plays, events\n"
                           "  diamonds convert game.dgn --to json -o game.json\n"
                           "  diamonds convert archive.dgn --to jsonl -o games.jsonl\n"
                           "  diamonds convert archive.dgn --to csv -o plays.csv   # one row per card\n"
                           "  diamonds convert game.json --to dgn"):
        _inputs(convert, "a DGN, JSON or JSON Lines file, or - for standard input (--to parquet: several)")
        _encoding(convert, "the file's text encoding (default utf-8; latin-1 for older logs)")
        convert.add_argument("--to", required=True, choices=("parquet", "json", "jsonl", "csv", "dgn"),
                             help="the output format (required)")
        convert.add_argument("-o", "--output", metavar="OUT",
                             help="write here instead of standard output (--to parquet: the folder of the tables)")
        convert.add_argument("--full", action="store_true",
                             help="JSON: every field of every card, nulls included (default: the compact form)")
        convert.add_argument("--states", action="store_true", help="JSON: add the full state after every step")
        _jobs(convert)
        convert.add_argument("--from", dest="source_format", choices=("dgn", "json", "jsonl"),
                             help="input format (default: from the file name, else DGN)")
        _scheduler(convert)
        convert.add_argument("--force", action="store_true",
                             help="replace a read-only output file (its mode is kept)")
        _no_clobber(convert)
        convert.add_argument("--keep-partial", action="store_true",
                             help="--to parquet: if interrupted, keep the tables written so far, marked by a file "
                             "PARTIAL in the folder (default: the folder is left as it was)")

    if stats := _command(commands, only, "stats", "summarise many games: wins by seat, scores, Suit Actions, ties",
                         "  diamonds stats logs/*.dgn\n"
                         "  diamonds stats tables/            # the folder `convert --to parquet` wrote\n"
                         "  diamonds stats logs/*.dgn --format json\n"
                         "  diamonds stats logs/*.dgn --plot wins.svg\n"
                         "  diamonds stats logs/*.dgn --by player --format csv"):
        _inputs(stats, "DGN files (or -), or a folder of Parquet tables written by `convert --to parquet`")
        _encoding(stats, "the DGN files' text encoding (default utf-8)")
        stats.add_argument("--format", choices=("text", "json", "csv"), default="text",
                           help="how to print the summary (default text); csv only with --by player")
        stats.add_argument("--by", choices=("player",), default=None,
                           help="a league table: each player's games, wins, win rate, mean score and place "
                                "per rule set")
        _printed_output(stats)
        _plot(stats, "the charts to FILE")

    if ratings := _command(commands, only, "ratings", "rate the players game by game (openskill's Plackett-Luce)",
                           "  diamonds ratings logs/*.dgn\n"
                           "  diamonds ratings logs/*.dgn tables/ --alias names.txt --plot ratings.svg"):
        _inputs(ratings, "DGN files (or -), or folders of Parquet tables written by `convert --to parquet`")
        _encoding(ratings, "the DGN files' text encoding (default utf-8)")
        ratings.add_argument("--alias", metavar="FILE",
                             help="merge spellings of a name: lines `Canonical: alias1, alias2` (docs/stats.md)")
        ratings.add_argument("--format", choices=("text", "json", "csv"), default="text",
                             help="how to print the ratings (default text)")
        _printed_output(ratings)
        _plot(ratings, "each player's rating over the games")

    if record := _command(commands, only, "record", "record a game live at the table, checked card by card",
                          "  diamonds record tonight.dgn --rules 2e --players \"Ann Bob Cat\" --dealer Ann\n"
                          "  diamonds record tonight.dgn                 # resume an unfinished game\n"
                          "  diamonds record game.dgn --rules kirk --players \"A B C D\" < moves.txt"):
        from diamonds.core import RULE_SETS

        record.add_argument("file", metavar="FILE", help="the DGN file to write (an unfinished game in it is resumed)")
        record.add_argument("--rules", choices=list(RULE_SETS), default=None, help="the rule set (Rules tag)")
        _players(record, " (the Players tag)")
        record.add_argument("--dealer", metavar="NAME", help="who deals the first round")
        record.add_argument("--variant", action="append", default=[], metavar="V",
                            help="a Variant word of the rules (repeat or separate with commas)")
        _option_tags(record)
        for tag in ("Event", "Site", "Date", "Round"):
            record.add_argument(f"--{tag.lower()}", dest=f"tag_{tag}", default=None, metavar="TEXT",
                                help=f"the {tag} tag" + (" (default: today, YYYY.MM.DD; \"\" or none leaves "
                                                         "it out)" if tag == "Date" else ""))
        record.add_argument("--deal", action="store_true",
                            help="ask for every hand at each deal, so that every card is checked fully")
        _encoding(record, "the file's text encoding (default utf-8)")
        record.add_argument("--force", action="store_true", help="record into a read-only FILE (its mode is kept)")

    if serve := _command(commands, only, "serve", "the club night in the browser: organiser, scorers and watchers",
                         "  diamonds serve                       # ./diamonds-club, on 127.0.0.1:8000\n"
                         "  diamonds serve thursday --port 8080  # the same folder again carries on\n"
                         "  diamonds serve thursday --host 0.0.0.0   # phones on the club's network"):
        serve.add_argument("dir", nargs="?", default="./diamonds-club", metavar="DIR",
                           help="the night's folder: SQLite, one DGN file per table, organiser.token "
                           "(default ./diamonds-club)")
        serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
        serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
        serve.add_argument("--public-url", metavar="URL", help="the start of the links handed out (default: this "
                           "server's address on the network it listens on; never a request's Host header)")

    if schema := _command(commands, only, "schema", "print the JSON Schema of `convert --to json`",
                          "  diamonds schema -o diamonds-game.schema.json"):
        _printed_output(schema)

    if fmt := _command(commands, only, "fmt", "rewrite DGN files in canonical form",
                       "  diamonds fmt game.dgn\n  diamonds fmt --check logs/*.dgn"):
        _inputs(fmt, "DGN files, rewritten in place")
        _encoding(fmt, "the files' text encoding (default utf-8); a file is written back in it")
        fmt.add_argument("--check", action="store_true", help="only report files that are not canonical (exit 1)")
        fmt.add_argument("--force", action="store_true", help="rewrite read-only files too (their mode is kept)")

    if simulate := _command(commands, only, "simulate", "play random legal games and print them as DGN",
                            "  diamonds simulate --players 4\n"
                            "  diamonds simulate --players 4 --variant partnership --rules 1e --seed 7 --games 10\n"
                            "  diamonds simulate --players 3 --narrate\n"
                            "  diamonds simulate --rules kirk --target 500 --seed 1"):
        from diamonds.core import DEFAULT_RULES, FAMILIES, RULE_SETS

        _players(simulate, " (default: the rules' usual count: "
                 + ", ".join(f"{r.id} {r.default_players}" for r in RULE_SETS.values()) + ")")
        simulate.add_argument("--rules", choices=list(RULE_SETS), default=DEFAULT_RULES,
                              help="; ".join(f"{f.name}: {', '.join(f.rule_ids)}" for f in FAMILIES))
        simulate.add_argument("--variant", action="append", default=[], metavar="V",
                              help="a Variant word of the rules (repeat or separate with commas): "
                              + "; ".join(f"{r.id} {', '.join(r.variants)}" for r in RULE_SETS.values() if r.variants))
        _option_tags(simulate)
        simulate.add_argument("--seed", type=int, default=None, help="the same seed gives the same games")
        simulate.add_argument("--games", type=_positive, default=1, metavar="K", help="how many games (default 1)")
        simulate.add_argument("--no-deals", action="store_true", help="leave the deal lines out")
        simulate.add_argument("--narrate", action="store_true", help="tell the game in words instead of DGN")
        simulate.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
        simulate.add_argument("--force", action="store_true", help="replace a read-only output file (its mode is kept)")
        _no_clobber(simulate)

    if analyse := _command(commands, only, "analyse", "judge every decision from its player's own view (mc over "
                           "worlds drawn from that view) and mark the mistakes, with each player's accuracy",
                           "  diamonds analyse game.dgn -o annotated.dgn\n"
                           "  diamonds analyse game.dgn --format json\n"
                           "  diamonds analyse game.dgn --samples 48 --mistake 3 --blunder 8"):
        analyse.add_argument("file", metavar="FILE", help="a DGN file, or - for standard input")
        _encoding(analyse, "the file's text encoding (default utf-8; latin-1 for older logs)")
        analyse.add_argument("--game", type=_positive, default=None, metavar="N",
                             help="analyse only game N of the file (default: every game)")
        analyse.add_argument("-o", "--output", metavar="OUT",
                             help="the annotated DGN, or the JSON report (default: standard output)")
        analyse.add_argument("--format", choices=("dgn", "json"), default="dgn",
                             help="dgn: the game with its marks (the per-player table goes to standard error); "
                             "json: every judgement and the per-player table")
        analyse.add_argument("--samples", type=_positive, default=ANALYSE_SAMPLES,
                             help=f"worlds drawn from the player's view per decision (default {ANALYSE_SAMPLES}; up to "
                             f"{ANALYSE_MORE} times more where a mark is undecided)")
        analyse.add_argument("--max-samples", type=_positive, default=None, metavar="N",
                             help=f"the most worlds for one decision (default: {ANALYSE_MORE} times --samples)")
        analyse.add_argument("--seed", type=int, default=0, help="the same seed gives the same marks (default 0)")
        analyse.add_argument("--mistake", type=_points, default=None, metavar="POINTS",
                             help="a loss whose 95%% interval lies this far or more below the best move's value is "
                             "marked ? (default: the game's own, docs/bots.md; ?! at half of it)")
        analyse.add_argument("--blunder", type=_points, default=None, metavar="POINTS",
                             help="likewise for ?? (default: the game's own)")
        analyse.add_argument("--double-dummy", action="store_true",
                             help="judge a round's last four tricks seeing every hand (hindsight: the notes say "
                             "'double dummy')")
        analyse.add_argument("--exact-nodes", type=_count, default=MAX_EXACT_NODES, metavar="N",
                             help="the exact solver's budget per decision, where the player's view fixes every hand "
                             "(or with --double-dummy), in decisions searched, weighted by their cost; "
                             f"past it the sampled values stand (default {MAX_EXACT_NODES}; 0: never exact)")
        analyse.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                             help="processes that share a game's rounds out (default: every core; the marks do not "
                             "depend on it)")
        analyse.add_argument("--force", action="store_true", help="replace a read-only output file (its mode is kept)")
        _no_clobber(analyse)

    if arena := _command(commands, only, "arena", "play bots against each other, write the games as DGN, print standings",
                         "  diamonds arena --rules 2e --players 4 --bots mc,greedy,greedy,random --games 1000 "
                         "--seed 1 --jobs 4 -o arena.dgn\n"
                         "  diamonds arena --rules kirk --bots mc:32,greedy,greedy,greedy --hands 1 --games 50\n"
                         "  diamonds arena --rules kirk --bots ismcts,mc:8,mc:8,mc:8 --hands 1 --games 40 --duplicate"):
        from diamonds.core import DEFAULT_RULES, RULE_SETS

        arena.add_argument("--rules", choices=list(RULE_SETS), default=DEFAULT_RULES,
                           help="the rule set the bots play (Rules tag)")
        _players(arena, " (default: the rules' usual count)")
        arena.add_argument("--bots", required=True, metavar="B,B,...",
                           help="one bot per seat of the first game (random, greedy, mc, mc:N for N samples per decision, "
                           "ismcts, ismcts:N for N worlds per "
                           "decision); the seats rotate one place each game")
        arena.add_argument("--variant", action="append", default=[], metavar="V",
                           help="a Variant word of the rules (repeat or separate with commas)")
        _option_tags(arena, "the games")
        arena.add_argument("--games", type=_positive, default=100, metavar="K", help="how many games (default 100)")
        arena.add_argument("--duplicate", action="store_true",
                           help="duplicate deals, as in duplicate bridge: each deal is played once per rotation of the "
                           "bots (as many games in a row as seats), so every bot holds every seat's cards of it; "
                           "--games must then be a multiple of the seats")
        arena.add_argument("--seed", type=int, default=None, help="the same seed gives the same games and standings")
        arena.add_argument("--jobs", "-j", type=_positive, default=1, metavar="N",
                           help="processes to play in (the results do not depend on it)")
        arena.add_argument("-o", "--output", metavar="OUT", default=None,
                           help="write every game as DGN here (default: nowhere)")
        arena.add_argument("--force", action="store_true", help="replace a read-only output file (its mode is kept)")
        _no_clobber(arena)

    if play := _command(commands, only, "play", "play a game against the bots, one move typed at a time",
                        "  diamonds play --rules kirk --as Ann --bots mc\n"
                        "  diamonds play --rules 2e --players \"Ann Bob Cat\" --bots mc,greedy -o mine.dgn"):
        from diamonds.core import DEFAULT_RULES, RULE_SETS

        play.add_argument("--rules", choices=list(RULE_SETS), default=DEFAULT_RULES,
                          help="the rule set of the game (Rules tag)")
        _players(play, " (default: the rules' usual count)")
        play.add_argument("--as", dest="as_player", type=_player, metavar="PLAYER",
                          help="who you are (default: the first)")
        play.add_argument("--bots", default="mc", metavar="B,B,...",
                          help="the other seats' bots, in seat order, or one for all (default mc)")
        _option_tags(play)
        play.add_argument("--seed", type=int, default=None, help="the same seed gives the same deals and bots")
        play.add_argument("-o", "--output", metavar="OUT", help="save the game as DGN when it ends or stops")
        play.add_argument("--force", action="store_true", help="replace a read-only output file (its mode is kept)")
        _no_clobber(play)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == ["--version"]:  # what argparse would print first, without building every command's parser
        print(f"diamonds {_version()}")
        return EXIT_OK
    from diamonds.io.interrupt import install_handlers, reset_journal, restore_handlers

    parser = _build_parser(only=_command_word(words) or "")
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # reported by the command's own parser: its usage, not the top level's
        _subparser(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    previous = install_handlers()
    reset_journal()
    try:
        return _run(args)
    finally:
        restore_handlers(previous)


def _run(args: argparse.Namespace) -> int:
    from diamonds.io.interrupt import note_output, outputs_summary, remove_live

    output = getattr(args, "output", None)
    if output and output != "-":  # until it is replaced whole, an output is as it was (an early ^C too)
        note_output(output, "left as it was")
    try:
        from .extras import require_extras

        require_extras(args)
        _read_folders(args)
        if getattr(args, "no_clobber", False):
            from .outputs import refuse_existing

            refuse_existing(_outputs(args))
        if args.command == "replay":
            from .replay_cmd import run
        elif args.command == "validate":
            from .validate_cmd import run
        elif args.command == "convert":
            from .convert_cmd import run
        elif args.command == "schema":
            from .convert_cmd import run_schema as run
        elif args.command == "fmt":
            from .fmt_cmd import run
        elif args.command == "stats" and args.by == "player":
            from .league_cmd import run_league as run
        elif args.command == "stats":
            from .stats_cmd import run
        elif args.command == "ratings":
            from .ratings_cmd import run
        elif args.command == "record":
            from .record_run import run
        elif args.command == "serve":
            from .serve_cmd import run
        elif args.command == "arena":
            from .arena_cmd import run
        elif args.command == "analyse":
            from .analyse_cmd import run
        elif args.command == "play":
            from .play_cmd import run
        else:
            from .simulate_cmd import run
        try:
            return _printing_to_output(run, args)
        finally:
            if getattr(args, "scheduler", None):  # a Dask client this command opened
                from diamonds.io.parallel import close_clusters

                close_clusters()
    except CommandError as error:
        print(f"diamonds {args.command}: {visible(str(error))}", file=sys.stderr)
        if error.shown:
            print(error.shown, file=sys.stderr)
        return error.status
    except KeyboardInterrupt as error:
        # SIGINT, SIGTERM, SIGHUP (diamonds.io.interrupt): the `with` blocks have removed their temporary
        # files and folders; say what became of the outputs, exit 128 + the signal's number.
        remove_live()
        signum = error.signum if isinstance(error, Interrupted) else signal.SIGINT
        name = error.name if isinstance(error, Interrupted) else "SIGINT"
        print(f"diamonds {args.command}: interrupted ({name}): {visible(outputs_summary())}", file=sys.stderr)
        return 128 + int(signum)
    except BrokenPipeError:
        # The reader went away (`| head`): not our error, and what it read is all it wanted: exit 0,
        # quietly, as `head` expects (the policy of every command; docs/failures.md).
        _quiet_stdout()
        return EXIT_OK
    except OSError as error:  # a file that cannot be written (`--svg /no/such/dir/x.svg`, a full disk)
        where = f"{error.filename}: " if error.filename else ""
        print(f"diamonds {args.command}: {visible(where)}{error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:  # a bug of ours: say so in one line; the traceback only on request
        if _is_missing_part(error):  # a family without a part this command needs: the user's choice, not a bug
            print(f"diamonds {args.command}: {visible(str(error))}", file=sys.stderr)
            return EXIT_USAGE
        if os.environ.get("DIAMONDS_DEBUG"):
            raise
        print(f"diamonds {args.command}: internal error ({type(error).__name__}: {error}); this is a bug, "
              "please report it with the input (DIAMONDS_DEBUG=1 shows the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def _printing_to_output(run: Any, args: argparse.Namespace) -> int:
    """`run(args)`; for a command of PRINTED given `-o FILE`, what it prints goes to FILE, replaced
    when the command has finished (an interrupted or failed run leaves FILE as it was)."""
    if args.command not in PRINTED or args.output in (None, "-"):
        return run(args)  # type: ignore[no-any-return]
    import contextlib

    from .outputs import open_output

    with open_output(args.output) as out, contextlib.redirect_stdout(out):
        return run(args)  # type: ignore[no-any-return]


def _read_folders(args: argparse.Namespace) -> None:
    """A folder named as input is read for its *.dgn files (as ruff and pytest take folders), in every
    command that reads files; `stats` and `ratings` read a folder of Parquet tables whole."""
    from .inputs import expand_folders

    if args.command in ("validate", "convert", "fmt", "stats", "ratings"):
        args.files = expand_folders(args.files, tables=args.command in ("stats", "ratings"))
    elif args.command == "replay":
        args.file = expand_folders(args.file)
    elif args.command == "analyse":
        files = expand_folders([args.file])
        if len(files) != 1:
            raise CommandError(f"{args.file}: a folder of {len(files)} .dgn files; analyse takes one file")
        args.file = files[0]


def _outputs(args: argparse.Namespace) -> list[str]:
    """The outputs named on the command line (standard output, "-", is none)."""
    names = ("output", "svg", "html", "terminal_svg", "terminal_html", "plot")
    return [path for name in names if (path := getattr(args, name, None)) and path != "-"]


def _is_missing_part(error: BaseException) -> bool:
    """A `diamonds.core.MissingPart` (named, not imported: a command that never met a family imports no engine)."""
    core = sys.modules.get("diamonds.core.family")
    return core is not None and isinstance(error, core.MissingPart)


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit does not complain of a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass


if __name__ == "__main__":
    sys.exit(main())
