"""fin-qa rules check: load every file maintainers edit and report `file:line: problem` for each."""
from __future__ import annotations

import re
from pathlib import Path

from . import FinQAError
from .config import formulas_dir, keyword_tables_dir, rules_dir


def _with_line(exc: FinQAError, default: Path) -> str:
    """The error as file:line: problem (a message without a line gets the line of the label it quotes)."""
    msg = str(exc)
    if re.match(r"^.+?:\d+: ", msg):
        return msg
    path = default
    m = re.match(r"^(.+?\.(?:ya?ml|csv)): (.*)$", msg)
    if m:
        path, msg = Path(m.group(1)), m.group(2)
    line = 1
    quoted = re.findall(r"'([^']+)'", msg)
    if quoted and path.is_file():
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if quoted[0] in text:
                line = n
                break
    return f"{path}:{line}: {msg}"


def check_all() -> tuple[list[str], list[str]]:
    """(problems, what was checked)."""
    from .answer.compose import load_templates
    from .answer.formulas import load_formulas
    from .items import employee_categories, load_item_table, load_yaml_table
    from .understand.classify import load_rules
    from .understand.keywords import default_vocabulary
    from .understand.question import load_understanding_config

    problems: list[str] = []
    checked: list[str] = []
    kt = keyword_tables_dir()

    def run(label: str, default: Path, fn):
        try:
            result = fn()
        except FinQAError as exc:
            problems.append(_with_line(exc, default))
            return None
        checked.append(label)
        return result

    run(f"{kt / 'items.yaml'}", kt / "items.yaml", load_item_table)
    for name in ("profile.yaml", "employees.yaml"):
        run(str(kt / name), kt / name, lambda n=name: load_yaml_table(n))
    run(f"{kt / 'employees.yaml'} categories", kt / "employees.yaml", employee_categories)
    from .search.retrieve import load_search_config
    from .search.topics import load_topics

    topics = run(str(kt / "sections.yaml"), kt / "sections.yaml", load_topics)
    if topics is not None:
        checked[-1] += f" ({len(topics.topics)} text topics)"
    vocab = None
    if not problems:
        default_vocabulary.cache_clear()
        vocab = run("vocabulary", kt / "items.yaml", default_vocabulary)
    fd = formulas_dir()
    if vocab is not None:
        book = run(f"{fd}/*.yaml", fd, lambda: load_formulas(fd, vocab))
        if book is not None:
            checked[-1] += f" ({len([f for f in book.formulas.values() if not f.template])} formulas, " \
                           f"{len([f for f in book.formulas.values() if f.template])} from templates)"
    rd = rules_dir()
    run(str(rd / "question_types.yaml"), rd / "question_types.yaml", load_rules)
    run(str(rd / "understanding.yaml"), rd / "understanding.yaml", load_understanding_config)
    run(str(rd / "answer_templates.yaml"), rd / "answer_templates.yaml", load_templates)
    run(str(rd / "search.yaml"), rd / "search.yaml", load_search_config)
    from .answer.prose import load_prompts
    from .llm.config import load_llm_config
    from .understand.llm_keywords import load_fewshot

    run(str(rd / "llm.yaml"), rd / "llm.yaml", load_llm_config)
    run(str(rd / "fewshot" / "keywords.yaml"), rd / "fewshot" / "keywords.yaml", load_fewshot)
    run(f"{rd / 'prompts'}/*.txt", rd / "prompts", load_prompts)
    return problems, checked
