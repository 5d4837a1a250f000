"""A pickle whose arrays are mapped from its file when loaded (``bot.search.mapped``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.search import mapped
from bot.search.columns import Strings

HEADER = b'{"a header": "kept"}\n'


def saved(path: Path, obj: object) -> Path:
    with path.open("wb") as file:
        file.write(HEADER)
        mapped.dump(obj, file)
    return path


def test_an_object_dumped_after_a_header_loads_back_with_its_arrays_and_the_header_left_as_it_was(
    tmp_path: Path,
) -> None:
    rows = np.arange(1000, dtype=np.int32).reshape(500, 2)
    column = Strings(["Québec", None, "Singh"])
    path = saved(tmp_path / "saved", {"rows": rows, "column": column, "words": ["new", "zealand"]})
    with path.open("rb") as file:
        assert file.readline() == HEADER
        loaded = mapped.load(file)
    assert isinstance(loaded, dict)
    assert np.array_equal(loaded["rows"], rows)
    assert loaded["rows"].dtype == np.int32
    assert [loaded["column"][n] for n in range(3)] == ["Québec", None, "Singh"]
    assert loaded["words"] == ["new", "zealand"]


def test_arrays_loaded_are_views_of_the_file_each_at_an_aligned_offset(tmp_path: Path) -> None:
    arrays = [np.arange(n, dtype=np.int64) for n in (3, 17, 1000)]
    with saved(tmp_path / "saved", arrays).open("rb") as file:
        loaded = mapped.load(file)
    assert isinstance(loaded, list)
    for array in loaded:
        assert array.base is not None  # not a copy of its own
        assert array.__array_interface__["data"][0] % 64 == 0


def test_writing_to_a_loaded_array_changes_this_copy_and_not_the_file(tmp_path: Path) -> None:
    path = saved(tmp_path / "saved", np.zeros(100, np.int32))
    with path.open("rb") as file:
        loaded = mapped.load(file)
    assert isinstance(loaded, np.ndarray)
    before = path.read_bytes()
    loaded[:] = 7
    assert path.read_bytes() == before
    with path.open("rb") as file:
        assert not np.asarray(mapped.load(file)).any()


@pytest.mark.parametrize("keep", [0, 10, 200, -1, -30])
def test_a_file_cut_short_is_refused_with_a_value_error(tmp_path: Path, keep: int) -> None:
    path = saved(tmp_path / "saved", [np.arange(50), "text"])
    path.write_bytes(path.read_bytes()[:keep])
    with path.open("rb") as file, pytest.raises(ValueError, match="mapped pickle"):
        mapped.load(file)
