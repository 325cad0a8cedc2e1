"""The frozen dataclasses that write their `__init__` out (docs/build.md: native under mypyc) set every field.

A field added to such a class but not to its `__init__` would leave it unset, or set from the wrong parameter.
Every state, event and legal move met in random games of every rule set is rebuilt through its class's
`__init__` (`dataclasses.replace`, which passes each field by name) and must equal the original, field by
field; where the signature can be read (the pure build), its parameters are the fields, in order, with the
fields' defaults.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import random
from typing import Any

import pytest

import diamonds
from diamonds.core.simulate import default_names

#: Rule sets whose games meet every such class (the three families; 1e has Clubs victims, bga the Thief).
TABLES = [("1e", 3), ("2e", 4), ("bga", 4), ("kirk", 4), ("bidding", 3)]


def _written(value: Any) -> bool:
    cls = type(value)
    params = getattr(cls, "__dataclass_params__", None)
    return params is not None and params.frozen and not params.init


def _met(rules: str, players: int, seed: int) -> list[Any]:
    """Every state, event and legal move of one random game, and each value held in their fields."""
    rng, found = random.Random(seed), []
    pos = diamonds.Position(rules, default_names(players), dealer=0)
    while not pos.is_over:
        found.append(pos.state)
        if pos.is_chance:
            pos.deal(rng)
            continue
        moves = pos.legal_moves
        found += moves
        found += pos.push(rng.choice(moves))
    found.append(pos.state)
    inner = [getattr(value, field.name) for value in found if dataclasses.is_dataclass(value)
             for field in dataclasses.fields(value)]
    return found + [value for value in inner if dataclasses.is_dataclass(value)]


def _another(value: Any) -> Any:
    """A different value of the same type, or None where there is no obvious one (or nothing to take from)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, enum.Enum):
        members = list(type(value))
        return members[(members.index(value) + 1) % len(members)] if len(members) > 1 else None
    if isinstance(value, (tuple, frozenset)) and value:
        return type(value)(list(value)[1:])
    return None


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_each_written_init_sets_every_field_from_its_own_parameter(rules: str, players: int) -> None:
    """Each field of an object is given a different value (`_another`): the object rebuilt through its
    `__init__` holds that value in that field, and the original's in every other."""
    met = {type(value): value for value in _met(rules, players, seed=7) if _written(value)}
    assert met, "no class with a written __init__ was met: the test checks nothing"
    changed = 0
    for cls, value in met.items():
        assert dataclasses.replace(value) == value
        for field in dataclasses.fields(cls):
            new = _another(getattr(value, field.name))
            if new is None:
                continue
            try:
                rebuilt = dataclasses.replace(value, **{field.name: new})
            except TypeError:
                continue  # the compiled build checks a fixed-length tuple's length: no such value is possible
            for each in dataclasses.fields(cls):
                expected = new if each.name == field.name else getattr(value, each.name)
                assert getattr(rebuilt, each.name) == expected, (cls.__name__, field.name, each.name)
            changed += 1
    assert changed, "no field could be changed: the test checks nothing"


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_each_written_init_takes_the_fields_in_order_with_their_defaults(rules: str, players: int) -> None:
    classes = {type(value) for value in _met(rules, players, seed=8) if _written(value)}
    for cls in classes:
        parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
        if any(p.kind is p.VAR_POSITIONAL for p in parameters):
            pytest.skip("the compiled build's __init__ shows no signature (the first test covers it)")
        fields = dataclasses.fields(cls)
        assert [p.name for p in parameters] == [f.name for f in fields], cls.__name__
        for parameter, field in zip(parameters, fields):
            default = field.default if field.default is not dataclasses.MISSING else inspect.Parameter.empty
            assert parameter.default == default, (cls.__name__, field.name)


def test_a_written_init_keeps_the_class_frozen() -> None:
    pos = diamonds.Position("kirk", default_names(4), dealer=0)
    pos.deal(random.Random(1))
    state = pos.state
    assert _written(state)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.leader = 3  # type: ignore[misc]


@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_a_states_with_method_is_replace_of_the_fields_it_names(rules: str, players: int) -> None:
    """A state's `with_…` methods (the bots' redrawn worlds, Kirk's card) build a state through the written
    `__init__` from the fields they name, the rest kept: each is `dataclasses.replace` of those fields. Every
    parameter is given a different value, each in its own call, and the others the state's own."""
    states = [value for value in _met(rules, players, seed=9) if _written(value) and hasattr(value, "round_no")]
    cls = type(states[0])
    methods = [name for name in dir(cls) if name.startswith("with_")]
    assert methods, f"{cls.__name__} has no with_ method: the test checks nothing"
    checked = 0
    for name in methods:
        parameters = list(inspect.signature(getattr(cls, name)).parameters)[1:]
        for state in states[::7]:
            own = {parameter: getattr(state, parameter) for parameter in parameters}
            for parameter in parameters:
                new = _another(own[parameter])
                if new is None:
                    continue
                made = getattr(state, name)(**{**own, parameter: new})
                assert made == dataclasses.replace(state, **{parameter: new}), (name, parameter)
                checked += 1
    assert checked, "no parameter could be changed: the test checks nothing"
