"""The engines' frozen values (moves, events, states) pickle and copy through their constructor, in either build.

Compiled by mypyc, a frozen dataclass's default pickling makes the object without arguments and then sets its
fields one by one: the frozen guard refuses the first (`FrozenInstanceError`), and a class whose `__init__` is
written out (docs/build.md) refuses to be made without arguments. `pickle`, `copy.deepcopy` and so a process
pool then failed on every move, event and state of the compiled build. Registered here (`copyreg`), each is
rebuilt by calling its class with its fields, as `dataclasses.replace` does: the same value in either build.
"""

from __future__ import annotations

import copyreg
import dataclasses
from types import ModuleType
from typing import Any, Final

__all__ = ["keep_picklable", "by_constructor"]

#: Per class, the names of its fields its constructor takes, in order (read once a class).
_FIELDS: Final[dict[type, tuple[str, ...]]] = {}


def by_constructor(value: Any) -> tuple[type, tuple[Any, ...]]:
    """`value`'s reduction for pickle and copy: its class, and its fields in the constructor's order."""
    cls = type(value)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(field.name for field in dataclasses.fields(cls) if field.init)
    return cls, tuple([getattr(value, name) for name in names])


def keep_picklable(*modules: ModuleType) -> None:
    """Register `by_constructor` for every frozen dataclass each module defines (a family's rules package calls
    it on its modules; a class named again is registered again, to the same effect)."""
    for module in modules:
        for value in vars(module).values():
            if not (isinstance(value, type) and value.__module__ == module.__name__
                    and dataclasses.is_dataclass(value)) or "__reduce__" in vars(value):
                continue  # not a dataclass of its own, or one that says how it pickles (a card)
            params = getattr(value, "__dataclass_params__", None)
            if params is not None and params.frozen:
                copyreg.pickle(value, by_constructor)
