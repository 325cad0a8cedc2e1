"""The games called Diamonds that ship with the toolkit, one folder each (see docs/architecture.md).

Each folder registers itself (entry-point group `diamonds.families`); nothing
here lists them, and no generic layer names them. The registered families and
their rule sets, plug-ins included, are `diamonds.rule_sets()`.
"""
