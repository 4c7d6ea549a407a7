"""The catalog: everything maintainers edit, loaded once into one object and passed explicitly.

One rules folder holds four folders (the repository's top level is one; a wheel ships a copy in
fin_qa/_data; `--rules DIR` / `$FIN_QA_RULES` names an edited copy):

    keyword_tables/  items.yaml (statement items + synonyms), profile.yaml, employees.yaml, sections.yaml,
                     glossary.yaml (definitions for open questions), disclosures.yaml (key disclosures),
                     cells.yaml (question words for table cells), teddy.yaml (`export --schema teddy`),
                     stand_ins.yaml (an item not printed alone and the printed item holding it)
    formulas/        *.yaml (formulas, templates, derived items)
    rules/           question_types.yaml, understanding.yaml, plan.yaml, answer_templates.yaml, search.yaml,
                     llm.yaml, report_names.yaml, periods.yaml, notes.yaml, drivers.yaml, lexicon.yaml, fewshot/keywords.yaml,
                     prompts/*.txt
    es_mappings/     chunks.json (the Elasticsearch index body)

`Catalog.load(root)` reads every file, keeps the file:line of every entry, and raises one CatalogError
listing every problem as `file:line: problem` (what `fin-qa rules check` prints); a file whose shape is
wrong (a list where a mapping belongs, a word where a list belongs) is such a problem too, never a
traceback. Nothing here reads the environment: the CLI resolves the folder (config.rules_root: --rules,
$FIN_QA_RULES, the shipped rules) and passes the Catalog down; `Catalog.shipped()` loads the rules
that come with fin-qa.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, TypeVar

from ..base import FinQAError
from ..config import RULE_FOLDERS, default_rules_root
from .fewshot import FewShot, load_fewshot
from .formulas import FormulaBook, load_formulas
from .lexicon import LexiconRules, load_lexicon_rules
from .items import ItemTable, employee_categories, load_item_table, load_table_file, normalize_label
from .llm_config import LLMConfig, load_llm_config
from .checks import CheckRules, load_checks
from .disclosures import Disclosure, load_disclosures
from .glossary import Glossary, load_glossary
from .cells import CellWords, load_cell_words
from .frames import FrameWords, load_frame_words
from .drivers import DriverRules, load_driver_rules
from .stand_ins import StandIn, load_stand_ins
from .notes import NoteRules, load_note_rules
from .periods import PeriodRules, load_period_rules
from .places import Places, load_places
from .glyphs import GlyphRepairs, load_glyph_repairs
from .plan_rules import PlanRules, load_plan_rules
from .prompts import load_prompts
from .question_rules import Rule, load_rules
from .report_names import ReportNames, load_report_names
from .search_config import SearchConfig, load_search_config
from .teddy import TeddySchema, load_teddy_schema
from .templates import load_templates
from .topics import TopicTable, load_topics
from .understanding import UnderstandingConfig, load_understanding_config
from .vocabulary import Vocabulary, build_vocabulary
from .yamlfile import RuleError, read_text

T = TypeVar("T")


class CatalogError(FinQAError):
    """The rules folder has problems; `problems` lists them as `file:line: problem`."""

    def __init__(self, problems: list[str], root: Path | None = None):
        self.problems = problems
        where = f" --rules {root}" if root else ""
        more = f" (and {len(problems) - 1} more problem(s): run `fin-qa rules check{where}`)" if len(problems) > 1 else ""
        super().__init__(problems[0] + more)


@dataclass
class Catalog:
    root: Path
    items: ItemTable
    profile: dict
    employees: dict
    categories: dict[str, tuple[str, str]]      # normalised 专业构成/教育程度 label → (category, block)
    vocabulary: Vocabulary
    formulas: FormulaBook
    topics: TopicTable
    question_rules: tuple[Rule, ...]
    understanding: UnderstandingConfig
    templates: dict[str, str]
    search: SearchConfig
    llm: LLMConfig
    fewshot: FewShot
    prompts: dict[str, str]
    report_names: ReportNames
    es_mappings: dict[str, dict]
    places: Places
    checks: CheckRules
    glossary: Glossary = field(default_factory=Glossary)
    disclosures: tuple[Disclosure, ...] = ()
    cells: CellWords = field(default_factory=CellWords)
    plan: PlanRules | None = None             # rules/plan.yaml: how a question is cut into asks
    glyphs: GlyphRepairs = field(default_factory=GlyphRepairs)   # keyword_tables/glyphs.yaml: broken font maps
    lexicon: LexiconRules = field(default_factory=LexiconRules)   # rules/lexicon.yaml: meaning vs filler words
    frames: FrameWords = field(default_factory=FrameWords)   # keyword_tables/ + rules/frames.yaml: table queries
    periods: PeriodRules = field(default_factory=PeriodRules)   # rules/periods.yaml: filings' periods, questions' period words
    teddy: TeddySchema = field(default_factory=TeddySchema)   # keyword_tables/teddy.yaml: `export --schema teddy`
    notes: NoteRules = field(default_factory=NoteRules)   # rules/notes.yaml: research notes read and asked
    drivers: DriverRules = field(default_factory=DriverRules)   # rules/drivers.yaml: a profit's change broken down
    stand_ins: tuple[StandIn, ...] = ()   # keyword_tables/stand_ins.yaml: an item not printed alone, and its holder

    def employee_category(self, label: str) -> str:
        """The canonical name of a 专业构成/教育程度 row label (the label itself when unknown): looked up as
        printed, then without a closing 学历 (大专学历, 研究生以上学历)."""
        key = normalize_label(label)
        hit = self.categories.get(key) or self.categories.get(_no_degree_word(key))
        return hit[0] if hit else label

    def above_category(self, label: str, printed: set[str]) -> str | None:
        """The category a 教育程度 row "X以上" holds when the same table prints a row X (its categories:
        `printed`): those above X (employees.yaml `above`: 本科以上 beside 本科 is 硕士及以上); None otherwise."""
        key = _no_degree_word(normalize_label(label))
        if not key.endswith("以上") or key.endswith("及以上") or len(key) <= 2:
            return None
        below = self.employee_category(key[:-2])
        up = (self.employees.get("above") or {}).get(below)
        return up[0] if up and below in printed else None

    @classmethod
    def load(cls, root: str | Path) -> "Catalog":
        """Every file of the rules folder `root`; CatalogError lists the problems."""
        catalog, problems, _ = _load(Path(root))
        if problems or catalog is None:
            raise CatalogError(problems or [f"{root}:1: the rules folder could not be loaded"], Path(root))
        return catalog

    @classmethod
    def shipped(cls) -> "Catalog":
        """The rules that come with fin-qa (the package's copy, or the repository's folders)."""
        return cls.load(default_rules_root())

    @staticmethod
    def check(root: str | Path) -> tuple[list[str], list[str]]:
        """(problems as file:line: problem, what was checked) — `fin-qa rules check`."""
        _, problems, checked = _load(Path(root))
        return problems, checked


def _load(root: Path) -> tuple[Catalog | None, list[str], list[str]]:
    problems: list[str] = []
    checked: list[str] = []
    missing = [d for d in RULE_FOLDERS if not (root / d).is_dir()]
    if missing:
        return None, [f"{root}:1: not a rules folder (missing {', '.join(d + '/' for d in missing)})"], checked
    kt, rd, fd = root / "keyword_tables", root / "rules", root / "formulas"

    def part(path: Path, fn: Callable[[], T], label: str | None = None) -> T | None:
        try:
            value = fn()
        except RuleError as exc:
            problems.append(str(exc))
            return None
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # a shape no check of the loader foresaw: still one line, never a traceback
            where = path if path.is_file() else path / "*"
            problems.append(f"{where}:1: unexpected structure ({type(exc).__name__}: {exc}): compare it with the "
                            f"shipped file")
            return None
        checked.append(label or str(path))
        return value

    items = part(kt / "items.yaml", lambda: load_item_table(kt / "items.yaml"))
    profile = part(kt / "profile.yaml", lambda: load_table_file(kt / "profile.yaml"))
    employees = part(kt / "employees.yaml", lambda: load_table_file(kt / "employees.yaml"))
    categories = None
    if employees is not None:
        emp = employees
        categories = part(kt / "employees.yaml", lambda: employee_categories(emp, kt / "employees.yaml"),
                          f"{kt / 'employees.yaml'} categories")
    places = part(kt / "places.yaml", lambda: load_places(kt / "places.yaml"))
    topics = part(kt / "sections.yaml", lambda: load_topics(kt / "sections.yaml"))
    if topics is not None:
        checked[-1] += f" ({len(topics.topics)} text topics)"
    disclosures = part(kt / "disclosures.yaml", lambda: load_disclosures(kt / "disclosures.yaml"))
    vocab = None
    formulas = None
    if items is not None and profile is not None and employees is not None and categories is not None \
            and disclosures is not None:
        it, pr, em, ca, di = items, profile, employees, categories, disclosures
        # (a disclosure read at a date — 普通股股东总数 at the period's end — has a 期初 as a balance has)
        items.point_in_time = items.point_in_time | {d.item for d in disclosures if d.at_a_date}
        items.roles = frozenset(d.item for d in disclosures if any(r.role for r in d.rules))
        vocab = part(kt, lambda: build_vocabulary(it, pr, em, ca, di), "vocabulary")
    if vocab is not None:
        voc = vocab
        formulas = part(fd, lambda: load_formulas(fd, voc), f"{fd}/*.yaml")
        if formulas is not None:
            n_tpl = len([f for f in formulas.formulas.values() if f.template])
            checked[-1] += f" ({len(formulas.formulas) - n_tpl} formulas, {n_tpl} from templates)"
    checks = None
    if vocab is not None:
        voc2 = vocab
        checks = part(rd / "checks.yaml", lambda: load_checks(rd / "checks.yaml", voc2))
    teddy = None
    if vocab is not None and formulas is not None:
        voc3, book = vocab, formulas
        teddy = part(kt / "teddy.yaml", lambda: load_teddy_schema(kt / "teddy.yaml", voc3, book))
    glossary = None
    if formulas is not None:
        formula_names = set(formulas.formulas)
        glossary = part(kt / "glossary.yaml", lambda: load_glossary(kt / "glossary.yaml", formula_names))
        if glossary is not None:
            checked[-1] += f" ({len(glossary.terms)} terms)"
    cells = part(kt / "cells.yaml", lambda: load_cell_words(kt / "cells.yaml"))
    rules = part(rd / "question_types.yaml", lambda: tuple(load_rules(rd / "question_types.yaml")))
    understanding = part(rd / "understanding.yaml", lambda: load_understanding_config(rd / "understanding.yaml"))
    plan = part(rd / "plan.yaml", lambda: load_plan_rules(rd / "plan.yaml"))
    glyphs = part(kt / "glyphs.yaml", lambda: load_glyph_repairs(kt / "glyphs.yaml"))
    lexicon = part(rd / "lexicon.yaml", lambda: load_lexicon_rules(rd / "lexicon.yaml"))
    frames = part(kt / "frames.yaml", lambda: load_frame_words(kt / "frames.yaml", rd / "frames.yaml"),
                  f"{kt / 'frames.yaml'} + {rd / 'frames.yaml'}")
    templates = part(rd / "answer_templates.yaml", lambda: load_templates(rd / "answer_templates.yaml"))
    search = part(rd / "search.yaml", lambda: load_search_config(rd / "search.yaml"))
    names = part(rd / "report_names.yaml", lambda: load_report_names(rd / "report_names.yaml"))
    periods = part(rd / "periods.yaml", lambda: load_period_rules(rd / "periods.yaml"))
    notes = part(rd / "notes.yaml", lambda: load_note_rules(rd / "notes.yaml"))
    drivers = None
    if items is not None:
        it2 = items
        drivers = part(rd / "drivers.yaml", lambda: load_driver_rules(rd / "drivers.yaml", it2))
    stand_ins = part(kt / "stand_ins.yaml", lambda: load_stand_ins(kt / "stand_ins.yaml", it2)) if items is not None else None
    llm = part(rd / "llm.yaml", lambda: load_llm_config(rd / "llm.yaml"))
    fewshot = part(rd / "fewshot" / "keywords.yaml", lambda: load_fewshot(rd / "fewshot" / "keywords.yaml"))
    prompts = part(rd / "prompts", lambda: load_prompts(rd / "prompts"), f"{rd / 'prompts'}/*.txt")
    mappings = part(root / "es_mappings", lambda: _load_mappings(root / "es_mappings"), f"{root / 'es_mappings'}/*.json")
    if cells is not None and lexicon is not None and understanding is not None and search is not None:
        # the one vocabulary (rules/lexicon.yaml) handed to the readers that use its lists
        cells = replace(cells, ask_words=lexicon.table_ask, neutral_words=lexicon.table_neutral, named_kinds=lexicon.table_named,
                        named_words=tuple(w for kind in lexicon.table_named for w in kind),
                        period_columns=dict(lexicon.table_periods), description_words=lexicon.description,
                        period_labels=frozenset(w for _, words in lexicon.period_words for w in words if "#" not in w))
        understanding.filler = list(lexicon.residue_filler)
        understanding.neutral = list(lexicon.left_neutral)
        understanding.neutral_spans = list(lexicon.left_neutral_spans)
        search.filler = list(lexicon.search_filler)
    if problems:
        return None, problems, checked
    assert (items and profile is not None and employees is not None and categories is not None and vocab and formulas
            and topics and rules and understanding and templates and search and names and llm and fewshot
            and prompts and mappings is not None and places is not None and checks is not None
            and glossary is not None and disclosures is not None and cells is not None and glyphs is not None
            and lexicon is not None and frames is not None and periods is not None and teddy is not None and notes is not None
            and drivers is not None and stand_ins is not None)
    return Catalog(root, items, profile, employees, categories, vocab, formulas, topics, rules, understanding,
                   templates, search, llm, fewshot, prompts, names, mappings, places, checks, glossary, disclosures,
                   cells, plan, glyphs, lexicon, frames, periods, teddy, notes, drivers, stand_ins), problems, checked


def _load_mappings(folder: Path) -> dict[str, Any]:
    """es_mappings/*.json: index name → body; chunks.json is required."""
    out: dict[str, Any] = {}
    for path in sorted(folder.glob("*.json")):
        text = read_text(path)
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RuleError(path, exc.lineno, f"JSON: {exc.msg}") from None
        if not isinstance(body, dict):
            raise RuleError(path, 1, "expected a JSON object (the index body)")
        out[path.stem] = body
    if "chunks" not in out:
        raise RuleError(folder / "chunks.json", 1, "missing: the chunks index body")
    return out


def _no_degree_word(label: str) -> str:
    """A 教育程度 label without a closing 学历 (研究生以上学历 → 研究生以上)."""
    return label[:-2] if label.endswith("学历") and len(label) > 2 else label
