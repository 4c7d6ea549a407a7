"""Keyword search over chunks: one analysis (tokenize.py), two backends (SQLite FTS5, Elasticsearch)."""
