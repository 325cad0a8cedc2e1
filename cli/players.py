"""`--players`, one meaning in every command that has it: a count ("4": the seats named Ann, Bob, …) or
the names in seat order ("Ann Bob Cat Dan", or with commas)."""

from __future__ import annotations

import argparse

from diamonds.core.movetext import is_digits

from .errors import CommandError

__all__ = ["players_option", "seat_names", "METAVAR", "HELP"]

METAVAR = "N|NAMES"
HELP = 'how many players (named Ann, Bob, …), or their names in seat order: 4, or "Ann Bob Cat Dan"'


def players_option(text: str) -> str:
    """argparse's check of the option: a whole count of at least 1, or at least one name."""
    if not text.replace(",", " ").split():
        raise argparse.ArgumentTypeError('a count (4) or names in seat order ("Ann Bob Cat")')
    if is_digits(text.strip().lstrip("+-")) and int(text) < 1:
        raise argparse.ArgumentTypeError(f"a count of at least 1, not {text.strip()}")
    return text


def seat_names(value: str | None, rules: str | None = None) -> tuple[str, ...]:
    """The players in seat order: `value` as a count or as names; None gives the usual count of the rule
    set `rules`."""
    from diamonds.core import ConfigError, rules_for, with_rule
    from diamonds.core.seating import players_wanted
    from diamonds.core.simulate import DEFAULT_NAMES, default_names

    if value is not None and is_digits(value.strip()) and int(value) > len(DEFAULT_NAMES) and rules is not None:
        rule_set = rules_for(rules)  # more players than names: the rule set's own count, not the names', is the limit
        if int(value) not in rule_set.player_counts:
            raise CommandError(with_rule(f"--players {value.strip()}: {rule_set.title} is for "
                                         f"{players_wanted(rule_set.player_counts)} players", rule_set.seats_rule))
    if value is None or is_digits(value.strip()):
        try:
            return default_names(int(value) if value is not None else rules_for(rules or "").default_players)
        except ConfigError as error:
            raise CommandError(f"--players {value}: {error}") from None
    return tuple(value.replace(",", " ").split())
