"""tests/generated_dataset.py: a second, generated dataset, valid in the documented format."""

from __future__ import annotations

from pathlib import Path

from db.dataset.files import dump_dataset, read_dataset
from db.dataset.schema import SHIPPED_DATASET
from db.dataset.writer import load_dataset
from db.session import Database
from tests.generated_dataset import GENERATED, generated_dataset, write_generated


def test_the_generated_dataset_is_the_same_every_time() -> None:
    assert dump_dataset(generated_dataset()) == dump_dataset(generated_dataset())


def test_the_written_file_reads_back_through_the_format_validation(tmp_path: Path) -> None:
    dataset = read_dataset(write_generated(tmp_path / "generated.json"))
    assert [incident.slug for incident in dataset.incidents] == sorted(story.slug for story in GENERATED)
    assert {chamber.country for chamber in dataset.chambers} == {"Ireland", "South Africa", "India"}


def test_it_shares_no_names_with_the_shipped_dataset() -> None:
    shipped = read_dataset(SHIPPED_DATASET)
    generated = generated_dataset()
    assert not {p.name for p in shipped.people} & {p.name for p in generated.people}
    assert not {i.slug for i in shipped.incidents} & {i.slug for i in generated.incidents}


def test_it_loads_into_a_fresh_database_through_the_real_loader(tmp_path: Path) -> None:
    database = Database("sqlite://")
    database.ensure_ready(seed=False)
    with database.session() as session:
        report = load_dataset(session, read_dataset(write_generated(tmp_path / "generated.json")))
        session.commit()
    database.dispose()
    assert report.incidents.added == len(GENERATED)
