"""The one table model (fin_qa/answer/tables.py): one table search and one cache of tables, each table worked out
once for every reader — the cells' words and the frame kept with the table — over a real store (the sample report
ingested)."""
from __future__ import annotations

from fin_qa.answer.facts import FactSource
from fin_qa.bigrams import tokens
from fin_qa.answer.router import Router
from fin_qa.catalog import Catalog

CATALOG = Catalog.shipped()


def _router(store):
    return Router(FactSource(store), CATALOG)


def test_cells_frames_and_subsidiaries_read_one_table_model(sample_store):
    r = _router(sample_store)
    assert r.frames.tables is r.cells.tables
    assert r.subsidiaries.frames.tables is r.cells.tables
    assert r.cells.spell == r.cells.tables.spell   # (one spelling: questions, labels and headers alike)


def test_a_table_is_worked_out_once_for_every_reader(sample_store):
    r = _router(sample_store)
    tables = r.cells.tables
    rep = next(iter(r.source.by_key.values()))
    found = tables.find(rep.id, tokens("营业收入 前五名客户"), 40)   # (a search's words: its tokens)
    assert found, "the sample report prints tables of its revenue and customers"
    t = found[0]
    words, frame = tables.prepared(t, "cells"), r.frames.frame(t)
    assert words.table is t and frame.table is t
    # asked again, by either reader, the same objects: nothing worked out twice
    assert r.cells._prepared(t) is words and tables.prepared(t, "frame") is frame
    assert tables._held[t.id].made == {"cells": words, "frame": frame}


def test_one_search_kept_while_the_store_stays_the_same(sample_store):
    r = _router(sample_store)
    tables = r.cells.tables
    rep = next(iter(r.source.by_key.values()))
    words = tokens("合并资产负债表 货币资金 营业收入")
    first = tables.find(rep.id, words, 80)
    assert tables.find(rep.id, words, 80) is first   # (the router asks an ask as found, then as printed)
    # the statements are the lookup's: never among the tables found, unless asked for (a 释义 table's names)
    assert not any(tables.skipped(t) for t in first)
    with_skipped = tables.find(rep.id, words, 80, skipped=True)
    assert any(tables.skipped(t) for t in with_skipped), "the sample report prints its balance sheet"
    assert [t.id for t in with_skipped if not tables.skipped(t)] == [t.id for t in first]
    # the store changes: searched again (the same tables, found anew)
    sample_store.db.execute("INSERT OR REPLACE INTO meta VALUES('test_table_model', '1')")
    sample_store.db.commit()
    again = tables.find(rep.id, words, 80)
    assert again is not first and [t.id for t in again] == [t.id for t in first]
