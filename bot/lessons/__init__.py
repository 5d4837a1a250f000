"""Lesson sheets: an incident (its views from ``bot.answers.queries``) as a printable Markdown sheet in
which every fact cites its source. No Discord and no database here."""
