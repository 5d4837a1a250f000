"""Classrooms (docs/CLASSROOM.md): guild settings for a class, teachers' collections of incidents, and
the warm-ups (a random incident, anniversaries, a timeline). No Discord here."""
