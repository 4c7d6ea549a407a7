"""Keyword search over chunks: one analysis (fin_qa/bigrams.py), two backends (SQLite FTS5, Elasticsearch)."""
