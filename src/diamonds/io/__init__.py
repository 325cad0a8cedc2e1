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
