"""The scale-out backend: Elasticsearch (client and server of the same major version, 9.x).

The index body is es_mappings/chunks.json: `heading` and `body` hold the tokens of fin_qa/bigrams.py and use
the built-in whitespace analyzer, so no analysis plugin (IK) is needed and the tokens are the ones the
embedded backend indexes. One shard, so BM25's document frequencies are index-wide, as in FTS5.
The query has the same clauses as the embedded one: report filter; should = text tokens (body, heading
boosted), keyword phrases, section-title aliases against the heading.
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from .base import ChunkDoc, Filters, Hit, SearchError, SearchQuery
from ..bigrams import analyze, tokens

DEFAULT_URL = "http://127.0.0.1:9200"
DEFAULT_INDEX = "fin-qa-chunks"
NOTES_SUFFIX = "-notes"


class ElasticsearchBackend:
    name = "elasticsearch"

    def __init__(self, mapping: dict, url: str | None = None, index: str | None = None, heading_weight: float = 4.0,
                 phrase_boost: float = 2.0, title_boost: float = 6.0, batch: int = 500, retries: int = 5):
        try:
            from elasticsearch import Elasticsearch
        except ImportError:
            raise SearchError("the Elasticsearch backend needs the `elasticsearch` package: pip install 'fin-qa[es]' (from a clone: pip install -e '.[es]')") from None
        self.url = url or DEFAULT_URL
        self.index_name = index or DEFAULT_INDEX
        self.heading_weight, self.phrase_boost, self.title_boost = heading_weight, phrase_boost, title_boost
        self.batch, self.retries = batch, retries
        self.mapping = mapping  # the index body (es_mappings/chunks.json, from the catalog)
        self.es = Elasticsearch(self.url, request_timeout=30, retry_on_timeout=True, max_retries=3)

    # ---------------------------------------------------------------------------------- errors

    def _fail(self, exc: Exception, doing: str) -> SearchError:
        from elasticsearch import ApiError, NotFoundError, TransportError

        if isinstance(exc, NotFoundError):
            return self._missing()
        if isinstance(exc, TransportError):  # connection refused, timeout, DNS
            return SearchError(f"Elasticsearch at {self.url} is unreachable while {doing} ({type(exc).__name__}); "
                               f"start a local node with scripts/start-elasticsearch.sh or set FIN_QA_ES_URL")
        if isinstance(exc, ApiError):
            return SearchError(f"Elasticsearch at {self.url} refused {doing}: {exc.meta.status} {exc.message}")
        return SearchError(f"Elasticsearch at {self.url} failed while {doing}: {exc}")

    def _call(self, doing: str, fn, *args, **kw):
        from elasticsearch import ApiError, TransportError

        try:
            return fn(*args, **kw)
        except (ApiError, TransportError) as exc:
            raise self._fail(exc, doing) from None

    # ---------------------------------------------------------------------------------- index

    def for_notes(self) -> "ElasticsearchBackend":
        """The same node's index of research notes' chunks (`<index>-notes`: report_key note:<id>), apart from the
        filings' so that no filing's search ever returns a note."""
        return ElasticsearchBackend(self.mapping, self.url, self.index_name + NOTES_SUFFIX, self.heading_weight,
                                    self.phrase_boost, self.title_boost, self.batch, self.retries)

    def _missing(self) -> SearchError:
        return SearchError(f"Elasticsearch index {self.index_name!r} does not exist at {self.url}: "
                           f"build it with `fin-qa index --search elasticsearch`")

    def check(self) -> None:
        if not self._call("checking the index", self.es.indices.exists, index=self.index_name):
            raise self._missing()

    def ensure_index(self, recreate: bool = False) -> None:
        exists = self._call("checking the index", self.es.indices.exists, index=self.index_name)
        if exists and recreate:
            self._call("deleting the index", self.es.indices.delete, index=self.index_name)
            exists = False
        if not exists:
            body = self.mapping
            self._call("creating the index", self.es.indices.create, index=self.index_name, **body)

    def delete(self, report_keys: list[str]) -> None:
        """Remove these reports' chunks: their ids by a scroll, then bulk deletes (delete-by-query lives
        in the reindex module, which a minimal distribution does not ship)."""
        if not report_keys:
            return
        from elasticsearch import ApiError, TransportError, helpers

        try:
            ids = [h["_id"] for h in helpers.scan(self.es, index=self.index_name, _source=False, size=2000,
                                                   query={"query": {"terms": {"report_key": report_keys}}})]
            if ids:
                for _ in helpers.streaming_bulk(self.es, ({"_op_type": "delete", "_index": self.index_name, "_id": i}
                                                          for i in ids), chunk_size=self.batch,
                                                max_retries=self.retries, raise_on_error=False):
                    pass
                self.es.indices.refresh(index=self.index_name)
        except (ApiError, TransportError) as exc:
            raise self._fail(exc, "deleting old chunks") from None

    def _actions(self, chunks: Iterable[ChunkDoc]) -> Iterator[dict]:
        for c in chunks:
            yield {
                "_index": self.index_name,
                "_id": f"{c.report_key}/{c.chunk_id}",
                "_source": {
                    "chunk_id": c.chunk_id, "report_key": c.report_key, "stock_code": c.stock_code, "year": c.year,
                    "section_id": c.section_id, "heading": analyze(" ".join(c.path)), "body": analyze(c.text),
                    "path": c.path, "text": c.text, "page_start": c.page_start, "page_end": c.page_end,
                },
            }

    def index(self, chunks: Iterable[ChunkDoc]) -> int:
        """Bulk-index in batches; a batch the node rejects for load (429) is retried with back-off."""
        from elasticsearch import ApiError, TransportError, helpers

        self.ensure_index()
        n = 0
        failed: list[dict[str, Any]] = []   # streaming_bulk's item: {op type: response}
        try:
            for ok, item in helpers.streaming_bulk(self.es, self._actions(chunks), chunk_size=self.batch,
                                                   max_retries=self.retries, initial_backoff=1, max_backoff=30,
                                                   raise_on_error=False, raise_on_exception=True):
                if ok:
                    n += 1
                else:
                    failed.append(item)
        except (ApiError, TransportError) as exc:
            raise self._fail(exc, "bulk indexing") from None
        if failed:
            first: dict[str, Any] = next(iter(failed[0].values()), {})
            raise SearchError(f"Elasticsearch rejected {len(failed)} chunk(s) of {n + len(failed)}: "
                              f"{json.dumps(first.get('error'), ensure_ascii=False)[:300]}")
        self._call("refreshing the index", self.es.indices.refresh, index=self.index_name)
        return n

    def count(self) -> int:
        return int(self._call("counting", self.es.count, index=self.index_name)["count"])

    # ---------------------------------------------------------------------------------- search

    def build_query(self, query: SearchQuery, filters: Filters) -> dict | None:
        text = " ".join(dict.fromkeys(tokens(query.text)))
        should: list[dict] = []
        if text:
            should.append({"match": {"body": {"query": text}}})
            should.append({"match": {"heading": {"query": text, "boost": self.heading_weight}}})
        for p in dict.fromkeys(query.phrases):
            pt = analyze(p)
            if pt:
                should.append({"match_phrase": {"body": {"query": pt, "boost": self.phrase_boost}}})
                should.append({"match_phrase": {"heading": {"query": pt, "boost": self.phrase_boost * self.heading_weight}}})
        for t in dict.fromkeys(query.titles):
            tt = analyze(t)
            if tt:
                should.append({"match_phrase": {"heading": {"query": tt, "boost": self.title_boost}}})
        if not should:
            return None
        q: dict = {"bool": {"should": should, "minimum_should_match": 1}}
        if filters.report_keys is not None:
            q["bool"]["filter"] = [{"terms": {"report_key": filters.report_keys}}]
        return q

    def search(self, query: SearchQuery, filters: Filters, size: int = 20) -> list[Hit]:
        q = self.build_query(query, filters)
        if q is None or filters.report_keys == []:
            return []
        res = self._call("searching", self.es.search, index=self.index_name, query=q, size=size,
                         source_excludes=["heading", "body"])
        out = []
        for h in res["hits"]["hits"]:
            s = h["_source"]
            out.append(Hit(s["chunk_id"], s["report_key"], s.get("section_id"), s.get("path") or [], s.get("text") or "",
                           s.get("page_start"), s.get("page_end"), float(h["_score"])))
        return out
