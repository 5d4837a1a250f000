"""The excerpt folder (``../shared/sources``, or ``PARLBOT_SOURCES``) for the tests that check the dataset
against it.

``excerpt_folder()`` gives the folder. When it is missing a test skips, saying why, unless
``PARLBOT_REQUIRE_SOURCES`` is set (``.ci/run`` sets it): then it fails, so CI never passes by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from db.dataset.provenance import SHARED_SOURCES

REQUIRE_SOURCES_ENV = "PARLBOT_REQUIRE_SOURCES"
SOURCES_ENV = "PARLBOT_SOURCES"  # where the folder is, when not beside the repository (.ci/run sets it)


def excerpt_folder() -> Path:
    """``PARLBOT_SOURCES`` or ``../shared/sources``; skips the test when it is missing, or fails it when
    sources are required."""
    folder = Path(os.environ.get(SOURCES_ENV) or SHARED_SOURCES)
    if folder.is_dir():
        return folder
    reason = f"the excerpt folder {folder} is not checked out next to the repository"
    if os.environ.get(REQUIRE_SOURCES_ENV):
        pytest.fail(f"{reason}, and {REQUIRE_SOURCES_ENV} is set: the provenance tests must run")
    pytest.skip(reason)


HUFFPOST = "https://www.huffingtonpost.ca/entry/jagmeet-singh-bloc-racist-apology_ca_5eea7eb8c5b6751f269e9b2e"


def holding_document() -> dict[str, Any]:
    """A small dataset that holds against the excerpts: one incident, one source, one quote."""
    return {
        "format": "parlbot-dataset",
        "version": 1,
        "dataset_version": "test",
        "chambers": [
            {
                "slug": "ca-house-of-commons",
                "name": "House of Commons of Canada",
                "legislature": "Parliament of Canada",
                "country": "Canada",
            }
        ],
        "parties": [],
        "people": [
            {"slug": "carol-hughes", "name": "Carol Hughes", "aliases": ["Hughes"]},
            {"slug": "jagmeet-singh", "name": "Jagmeet Singh", "aliases": ["Singh"]},
        ],
        "sources": [
            {"key": "huffpost", "url": HUFFPOST, "publisher": "HuffPost Canada", "excerpt": "singh-2020.txt"}
        ],
        "incidents": [
            {
                "slug": "singh-2020",
                "title": "Singh ordered out of the Commons",
                "date": "2020-06-17",
                "chamber": "ca-house-of-commons",
                "kind": "refusal_to_withdraw",
                "summary": "Singh's motion “did not receive unanimous consent”, and he refused to apologize.",
                "sources": ["huffpost"],
                "participants": [
                    {"person": "jagmeet-singh", "role": "NDP Leader"},
                    {"person": "carol-hughes", "role": "Assistant Deputy Speaker (in the chair)"},
                ],
                "quotes": [
                    {
                        "speaker": "jagmeet-singh",
                        "speaker_label": "Jagmeet Singh",
                        "text": "I will not",
                        "said_to": "Carol Hughes, in the chair",
                        "delivery": "verbatim",
                        "source": "huffpost",
                    }
                ],
            }
        ],
    }
