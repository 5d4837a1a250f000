"""Quizzes (docs/QUIZ.md): questions generated from the database, and quiz state kept in it. No Discord."""
