"""The I/O layer shared by the command, the analysis and the recorder (standard library only).

- `write`: THE writer (`replacing`, `write_text`): a file replaced whole or not at all, its mode
  kept, a symlink written through, a read-only file refused without `force`.
- `folder`: `StagedFolder`, an output folder swapped into place whole.
- `lock`: `FileLock`, one recorder (or server) per file; `Snapshot`, "is the file still mine?".
- `interrupt`: SIGINT/SIGTERM/SIGHUP as exceptions, the registry of live temporary paths.
- `escape`: `visible`, input text made safe to print on a terminal.
- `text`: the strict text opener (`open_text`); `parallel`: the ordered parallel map.
- `errors`: the failures, as classes with data fields.
"""

TYPE_CHECKING = False  # as typing's, without importing typing
if TYPE_CHECKING:
    from .errors import ChangedBehind, DiskFull, Interrupted, Locked, NotWritable, ReadOnlyFile, UserError
    from .escape import visible, visible_lines
    from .folder import PARTIAL_MARKER, StagedFolder, is_partial
    from .interrupt import install_handlers, note_output, outputs_summary, remove_live
    from .lock import FileLock, Snapshot
    from .write import leftovers, replacing, write_text

__all__ = [
    "UserError", "NotWritable", "ReadOnlyFile", "DiskFull", "Locked", "ChangedBehind", "Interrupted",
    "visible", "visible_lines", "StagedFolder", "PARTIAL_MARKER", "is_partial", "install_handlers", "note_output",
    "outputs_summary", "remove_live", "FileLock", "Snapshot", "leftovers", "replacing", "write_text",
]

# Each name is imported from its module on first use (PEP 562): `diamonds --version` and the error
# classes need none of the writers, whose imports (dataclasses, shutil, threading) cost most of a start.
_HOME = {
    **dict.fromkeys(("UserError", "NotWritable", "ReadOnlyFile", "DiskFull", "Locked", "ChangedBehind",
                     "Interrupted"), "errors"),
    **dict.fromkeys(("visible", "visible_lines"), "escape"),
    **dict.fromkeys(("StagedFolder", "PARTIAL_MARKER", "is_partial"), "folder"),
    **dict.fromkeys(("install_handlers", "note_output", "outputs_summary", "remove_live"), "interrupt"),
    **dict.fromkeys(("FileLock", "Snapshot"), "lock"),
    **dict.fromkeys(("leftovers", "replacing", "write_text"), "write"),
}


def __getattr__(name: str) -> object:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'diamonds.io' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value
