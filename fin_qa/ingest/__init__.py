"""Turning report files into facts and chunks: see fin_qa.ingest.pipeline."""
