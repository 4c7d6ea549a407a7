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


def test_a_table_of_a_narrower_group_ranks_none_of_the_wider_one(sample_store):
    # the words asking each kind's rows (keyword_tables/frames.yaml) tell a narrower group: the third row of
    # 前十名无限售条件股东 is the third by unrestricted shares, no 第三大股东 — a table titled with both groups
    # ranks the top shareholders; a question saying the narrower group asks that table
    tables = _router(sample_store).cells.tables
    assert tables.narrower("前10名无限售条件股东持股情况", "股东", "第3大股东持股数量")
    assert tables.narrower("截至报告期末前10名优先股股东持股情况表", "股东", "第2大股东是谁")
    assert not tables.narrower("截至报告期末前10名股东和前10名无限售条件股东的持股情况", "股东", "第2大股东是谁")
    assert not tables.narrower("前10名无限售条件股东持股情况", "股东", "第1大无限售条件股东是谁")
    assert not tables.narrower("公司前5名客户情况", "客户", "第1大客户销售额")
    assert tables.narrower("前10名无限售流通股股东持股情况", "股东", "第2大股东是谁")
    assert tables.narrower("前10名有限售条件股东持股数量及限售条件", "股东", "第2大股东是谁")


def test_no_rank_of_the_top_shareholders_read_from_the_unrestricted_table(sample_store):
    from fin_qa.store.models import TableRecord
    cells = _router(sample_store).cells
    rows = [["孔维", "104,260,584", "人民币普通股"], ["魏学宁", "27,134,692", "人民币普通股"],
            ["余盛", "10,290,000", "人民币普通股"]]
    header = ["股东名称", "持有无限售条件流通股的数量", "股份种类"]
    unrestricted = TableRecord(1, 1, None, ["前十名股东持股情况"], "前十名无限售条件股东持股情况", "股", 86, 86,
                               header, rows, [86] * 3)
    top = TableRecord(2, 1, None, ["前十名股东持股情况"], "前十名股东持股情况", "股", 85, 85,
                      ["股东名称", "期末持股数量", "比例(%)"], rows, [85] * 3)
    q = "|第3大股东持股数量|"
    assert cells._rank_row(unrestricted, q, "") is None
    assert cells._rank_row(top, q, "") == (2, "第3大股东")
    said = cells._rank_row(unrestricted, "|第3大无限售条件股东持股数量|", "")   # (the narrower group said)
    assert said is not None and said[0] == 2


def test_one_state_of_the_store_read_for_a_whole_answer(sample_store):
    # Store.pinned: every "has the store changed" probe inside sees the state read when it was pinned (nested
    # pins keep the outer one); a read that must be consistent (steady) still checks the live state
    from fin_qa.store.fts_rank import db_state

    db = sample_store.db
    with sample_store.pinned():
        pinned = sample_store.state()
        db.execute("INSERT OR REPLACE INTO meta VALUES('test_pinned', '1')")
        db.commit()
        with sample_store.pinned():
            assert sample_store.state() == pinned          # (the outer pin holds)
        assert db_state(db, live=True) != pinned          # (the live state moved on)
    assert sample_store.state() == db_state(db, live=True) != pinned   # (unpinned: live again)
