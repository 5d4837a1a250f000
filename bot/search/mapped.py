"""A pickle whose buffers (the data of numpy arrays) follow it in its file, so that loading maps them
instead of reading and copying them.

The search index is mostly arrays: postings, the columns of its documents (``bot.search.columns``).
Pickled in the ordinary way, a load reads every byte of them and copies it into new memory (at 100k
incidents, hundreds of megabytes and most of a second of the restart). Here each array's data is
written after the pickle, at an offset aligned for any dtype, and ``load`` maps the file copy-on-write:
the arrays are views of the mapping, read from disk (or the page cache) as queries touch them, and a
write to one changes this process's copy only, never the file.

Layout: the pickle (protocol 5, its buffers out of band), then each buffer, then a table of each
buffer's offset and length, then ``_TRAILER``: where the pickle starts, its length, the count of
buffers and a mark. Offsets are from the start of the file: whatever comes before the pickle (a header)
stays.
"""

from __future__ import annotations

import mmap
import os
import pickle
import struct
from typing import BinaryIO

import numpy as np

__all__ = ["dump", "load"]

_ALIGN = 64  # every buffer starts at a multiple of this: aligned for any dtype and a cache line
_TRAILER = struct.Struct("<qqq8s")  # the pickle's offset and length, how many buffers follow it, _MARK
_MARK = b"mapped:1"  # the file's last bytes: a file cut short ends otherwise
_PLACE = np.dtype("<i8")  # a buffer's offset and length in the table


def dump(obj: object, file: BinaryIO) -> None:
    """Write ``obj`` to ``file`` from its current position, in the layout ``load`` maps."""
    buffers: list[pickle.PickleBuffer] = []
    start = file.tell()
    pickle.dump(obj, file, protocol=5, buffer_callback=buffers.append)
    length = file.tell() - start
    places: list[int] = []
    for buffer in buffers:
        raw = buffer.raw()
        file.write(bytes(-file.tell() % _ALIGN))
        places += [file.tell(), raw.nbytes]
        file.write(raw)
    file.write(np.array(places, _PLACE).tobytes())
    file.write(_TRAILER.pack(start, length, len(buffers), _MARK))


def load(file: BinaryIO) -> object:
    """The object ``dump`` wrote to ``file``, its arrays views of the file mapped copy-on-write.

    Raises ValueError for a file that is not in that layout (truncated, say)."""
    if os.fstat(file.fileno()).st_size < _TRAILER.size:  # (an empty file cannot even be mapped)
        raise ValueError("not a mapped pickle: too short to hold one")
    view = memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY))
    if view[-len(_MARK) :] != _MARK:
        raise ValueError("not a mapped pickle: no trailer (a file cut short?)")
    start, length, count, _ = _TRAILER.unpack(view[-_TRAILER.size :])
    table_at = len(view) - _TRAILER.size - count * 2 * _PLACE.itemsize
    if min(start, length, count) < 0 or start + length > table_at:
        raise ValueError("not a mapped pickle: its trailer does not describe the file")
    places = np.frombuffer(view, _PLACE, 2 * count, table_at).reshape(count, 2)
    offsets, lengths = places[:, 0], places[:, 1]
    if count and (
        offsets.min() < start + length or (offsets + lengths).max() > table_at or lengths.min() < 0
    ):
        raise ValueError("not a mapped pickle: a buffer lies outside the file")
    buffers = [view[offset : offset + size] for offset, size in places.tolist()]
    return pickle.loads(view[start : start + length], buffers=buffers)  # noqa: S301  (the caller's own file)
