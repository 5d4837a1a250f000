"""The incidents a guild's quizzes draw on: every incident it sees, as the answers show them."""

from __future__ import annotations

from sqlmodel import Session, col, select

from bot.answers.queries import incident_detail
from bot.quiz.questions import Pooled
from db.dataset.rows import GuildView
from db.models import SHARED_GUILD, Chamber, Incident


def pool(session: Session, *, guild_id: int | None) -> list[Pooled]:
    """Every incident the guild sees (its own first, else the shared ones), in date order."""
    view = GuildView(session, guild_id or SHARED_GUILD)
    chambers = {row_id: slug for slug, row_id in view.ids(Chamber).items()}
    rows = session.exec(select(Incident).where(col(Incident.id).in_(set(view.ids(Incident).values())))).all()
    pooled = []
    for row in sorted(rows, key=lambda r: (r.date, r.slug)):
        detail = incident_detail(session, slug=row.slug, guild_id=guild_id)
        if detail is not None:
            pooled.append(Pooled(chambers.get(row.chamber_id, ""), detail))
    return pooled
