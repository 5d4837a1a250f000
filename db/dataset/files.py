"""Dataset files: reading (validated), the canonical text, writing."""

from __future__ import annotations

import json
from pathlib import Path

from db.dataset.schema import Dataset, DatasetError, DatasetProblem, parse_dataset


def read_dataset(path: Path) -> Dataset:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DatasetError([DatasetProblem("", f"{path} is not valid JSON: {error}")]) from None
    return parse_dataset(data)


def dump_dataset(dataset: Dataset) -> str:
    """The canonical text of a dataset: two-space indents, UTF-8 as is, nulls left out."""
    data = dataset.model_dump(mode="json", exclude_none=True)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_dataset(dataset: Dataset, path: Path) -> None:
    path.write_text(dump_dataset(dataset), encoding="utf-8")
