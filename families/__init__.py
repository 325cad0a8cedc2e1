"""The games called Diamonds that ship with the toolkit, one folder each (see docs/architecture.md).

Each folder registers itself (entry-point group `diamonds.families`); nothing
here lists them, and no generic layer names them.
"""
