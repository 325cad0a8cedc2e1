"""The games called Diamonds that ship with the toolkit, one folder each (see docs/architecture.md).

Each folder registers itself (entry-point group `diamonds.families`); nothing
here lists them, and no generic layer names them.

`diamonds.families()` is the front door's list of the registered families. As
this package is also `diamonds.families`, the package itself answers that
call, so the name means the same whichever Python found first.
"""

import sys
import types


class _FamiliesPackage(types.ModuleType):
    def __call__(self) -> "dict[str, tuple[str, ...]]":
        """The registered families and their rule sets: {"fitzgerald": ("1e", "2e", "bga"), …}."""
        from diamonds.core import families as registered

        return {family.name: family.rule_ids for family in registered()}


sys.modules[__name__].__class__ = _FamiliesPackage
