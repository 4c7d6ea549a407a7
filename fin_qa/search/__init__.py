"""Keyword search over chunks: one analysis (fin_qa/tokenize.py), two backends (SQLite FTS5, Elasticsearch)."""
