"""Values stated in sentences (evidence kind `passage`, the value first): a value question that no fact
and no table cell answers is looked for in the sentences of the report sections keyword search finds —
"注册资本为 10,000 万元", "储蓄代理费总额为人民币788.05亿元，综合费率为1.32%", "每 10 股派送人民币 1.8 元",
"以124,676,400股为基数".

Each ask of the question (cut as the cell answerer cuts them, keyword_tables/cells.yaml) is met by a number
of a sentence when:
- the ask's head — its last words, less value words such as 金额/现金/共计 — stands in the number's own
  clause, right before it with nothing but connecting words between (为, 是, 达, 计, 约, 人民币, ：) or
  right after it ("…股为基数"): "净利润同比下降7.49%" does not state 净利润;
- the rest of the ask (the subsidiary, the related party: "金宇保灵生物药品有限公司", "邮政集团") is held,
  75% of its characters, by the sentence, the paragraph it opens or the section's heading;
- its unit fits the ask: a rate (率, 比例, 占比 …) takes a %, an amount never does.
Every ask must be met, or the question is left to the other paths; the answer gives each value with its
unit as printed (converted when a unit is asked) and quotes the sentence with its page.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..numbers import UNIT_FACTORS, parse_number, to_yuan
from ..store import Report
from ..understand.question import Understanding
from .cells import CellAnswerer
from .tables import FLOW, content, cover, norm, pairs
from .compose import format_scaled, render
from .extract import Unit, units
from .model import Answer, PassageEvidence
from .text import TextAnswerer

_NUMBER = re.compile(r"(?P<num>[-−]?\d[\d,]*(?:\.\d+)?)(?P<unit>百万元|千万元|亿元|万元|千元|元|%|万股|亿股|股|万人|人|家|个|倍)?")
_CLAUSE = re.compile(r"[，。；;,（(）)、]")
# what may stand between an ask's head and its number ("净利润为人民币", "总额计", "费率为")
_CONNECT = re.compile(r"^(?:总额|金额|数额|总数|为|是|达到|达|计|共计|合计|总计|约为|约|共|人民币|折合|：|:"
                      r"|送|发|派发|发放|现金红利|现金股利|红利|股利|股息|现金)*$")
# an ask's last words that name no thing of their own ("现金股利共计" → 现金股利, "派多少现金" → 派)
_VALUE_WORDS = ("数额", "总额", "金额", "数量", "共计", "合计", "总计", "现金", "多少", "一共")
_RATE = re.compile(r"率|比例|比重|占比|百分")
_YEAR = re.compile(r"((?:19|20)\d\d)年")
_PUNCTUATION = re.compile(r"[，。；：]")
# a date as an ask or in a sentence: "年12月", "12月26日" (a number followed by 年/月/日 is part of one)
_DATE = re.compile(r"(?:年|\d{2,4}年)?\d{1,2}月(?:\d{1,2}日)?(?:份|末|底|初)?")
_MONTH = re.compile(r"(?<![\d个])(\d{1,2})\s*月(?!份?(?:以来|内))")
_DATE_PART = re.compile(r"\s*(?:年|月|日)")
_ORGANISATION = re.compile(r"[\u4e00-\u9fff]{4,}(?:有限责任公司|股份有限公司|有限公司|集团)")
HEAD = 2              # characters of an ask's head that must stand in the number's clause …
SUFFIX = 3            # … and this many of its last ones, in a row, right before it (all of a shorter head)
CONTEXT_UNITS = 3     # sentences before a number's that may name what it is about
PASSAGES = 5          # sections searched
EXPLAINED = 0.75


# the parts of speech of a noun narrowing the item a clause states (个人住房贷款余额), and the subjects a clause opens
# with that narrow nothing (本行个人存款余额)
_NOUNS = frozenset({"n", "nz", "vn", "b", "an", "ns", "nt", "nr", "ng"})
_ORG_WORDS = frozenset({"有限公司", "有限责任公司", "股份有限公司", "股份公司", "集团公司", "公司", "集团"})
_TIME_WORD = re.compile(r"(?:本|上|当|全|整)?年度?|年[末初底内]|(?:本|当)?期[末初内]?|报告期内?|同期|上半年|下半年")
_SUBJECTS = frozenset({"本行", "我行", "全行", "本公司", "公司", "本集团", "集团", "本期", "本年", "报告期", "年末", "期末"})
# the words that make an item another one (其他业务收入 is not 主营业务收入): a clause stating the item's value
# says them
_QUALIFIER = re.compile(r"其他|主营|非主营|境内|境外|国内|国外|海外|母公司|扣非|扣除非经常性损益")
# the whole an ask looks in, of the same kind as what it asks ("定期存款中个人存款余额": 存款 of 存款)
_WITHIN = re.compile(r"(?P<whole>.{2,}?)(?:当中|之中|中|里)(?P<rest>.{2,})")
# the parties and ranked rows a clause's value may be of (前五名客户销售额 is no company's 销售额): the ask says them too
_PARTY = re.compile(r"前[一二三四五六七八九十\d]+(?:名|大)|第[一二三四五六七八九十\d]+(?:名|大)|客户|供应商|关联方|子公司|参股公司")
# the words an organisation's name ends its 公司 with (有限公司, 股份公司, 子公司 …): its 公司 names no kind of business
_ORG_END = re.compile(r"(?:有限|股份|集团|[分子总母])$")
# what may stand right before a kind of business said plainly: no word, the bank itself, a connecting word, a heading's
# enumerator
_KIND_OPENS = re.compile(r"(?:^|[^\u4e00-\u9fff]|本行|本集团|本公司|其中|[的及和与对为中一二三四五六七八九十])$")
_INTERIM = re.compile(r"中期|半年度|季度")   # a sentence of an interim period's figures …
_PERIOD_WORD = re.compile(r"中期|半年度|季度|年度(?!股东)|年末")   # … or of the year's


@dataclass
class Stated:
    ask: str
    value: str
    unit: str
    unit_shown: str
    unit_page: Unit
    score: tuple
    context: set[str]       # the character pairs of its sentence, the ones before it and its heading


class StatedAnswerer:
    def __init__(self, cells: CellAnswerer, text: TextAnswerer,
                 cut: Callable[[str], list[tuple[str, str]]] | None = None):
        self.cells = cells
        self.text = text
        self.cut = cut   # (the lexicon's words of a text, with their parts of speech: where a word begins)
        self.v = cells.v
        self.t = cells.t

    def answer(self, u: Understanding) -> Answer | None:
        """The values the question asks, as the report's sentences state them, or None."""
        if not u.companies or len(u.years.explicit) > 1:
            return None
        rep, name, year, note = self.v.report(u)
        if rep is None or note or rep.year != year or not self.v.source.has_text(rep):
            return None
        q = self.cells.question_text(u, spelled=False)
        cut = [a for a in self.cells.asks(q) if not all(self.cells.neutral_marks(a))]
        # a date the question names ("2012年12月…") asks no value: it tells the sentence meant, not a number
        asks = [a for a in cut if not _DATE.fullmatch(a)]
        if not asks:
            return None
        found = self._find(u, rep, asks, "".join(cut))
        if found is None or not self.cells.unused_held(u, set().union(*(s.context for s in found))):
            return None
        parts, evidence = [], []
        for s in found:
            shown = s.value + s.unit_shown
            if u.unit is not None and s.unit in UNIT_FACTORS and s.unit != f"{u.unit}元":
                amount = parse_number(s.value)
                if amount is not None:
                    shown = format_scaled(to_yuan(amount, s.unit), u.unit, u.decimals, self.v.style) + f"（原文为{shown}）"
            parts.append(f"{self._words(s.ask)}：{shown}")
            evidence.append(PassageEvidence(s.unit_page.page, " > ".join(s.unit_page.path), s.unit_page.text, 0.0,
                                            rep.key))
        quotes = "；".join(dict.fromkeys(f"“{e.text}”（第{e.page}页）" if e.page else f"“{e.text}”" for e in evidence))
        section = evidence[0].heading.split(" > ")[-1] if evidence[0].heading else "正文"
        text = render(self.t, "stated_answer", company=name, year=year, section=section, values="，".join(parts),
                      quotes=quotes)
        unique = list({(e.page, e.text): e for e in evidence}.values())
        return Answer(u.question, text, u.finglm_type(), "stated", list(unique))

    def _words(self, ask: str) -> str:
        """An ask's words less neutral ones and value words (净利润万元 → 净利润): a one-character neutral
        word only at the ask's ends (the 股 of 每10股派 stays)."""
        marks = self.cells.neutral_marks(ask)
        for i, ch in enumerate(ask):
            if marks[i] and (i == 0 or not marks[i - 1]) and (i + 1 == len(ask) or not marks[i + 1]) \
                    and 0 < i < len(ask) - 1:
                marks[i] = False   # a one-character word inside the ask is part of a word
        return _head("".join(ch for ch, n in zip(ask, marks) if not n)) or ask

    def _find(self, u: Understanding, rep: Report, asks: list[str], whole: str) -> list[Stated] | None:
        """A stated value for each ask; an ask with none must name what the others' sentences are about
        ("全资子公司金宇保灵生物药品有限公司" beside "净利润多少万元"). `whole`: every word the question asks with
        (a date too), which ranks the sentences."""
        _, _, passages = self.text.passages(u, rep, n=PASSAGES)
        found: dict[str, Stated] = {}
        contexts: list[set[str]] = []
        # the passages' sentences, split and normalised once for every ask (a table's row run together, no
        # sentence in it, is left out: its cells are the cells)
        read = []
        for rank, p in enumerate(passages):
            us = units(p)
            heading = content(norm(" ".join(p.path)))
            for i, unit in enumerate(us):
                if _PUNCTUATION.search(unit.text):
                    text = norm(unit.text)
                    read.append((rank, heading, unit, us[max(0, i - CONTEXT_UNITS):i], text, content(text)))
        # the months the question names ("2012年12月…申请的信托借款"): a sentence naming other months is
        # about another event ("2012 年 2 月，…申请信托借款人民币 10 亿元")
        months = {int(m) for m in _MONTH.findall(u.norm)}
        balance = u.frame.period in ("closing", "opening")   # (a balance at a date asked: 年末, 期初)
        for ask in asks:
            best: Stated | None = None
            best_key: tuple = ()
            best_context: set[str] = set()
            head = self._words(ask)
            if len(head) < HEAD:
                continue
            for rank, heading, unit, before, text, chars in read:
                if head[-HEAD:] not in chars:
                    continue   # the head's last characters stand nowhere in the sentence: no number of it is
                if months and not _of_months(months, text, before):
                    continue
                for s in self._stated(ask, head, unit, text, before, heading, rank, rep.year, balance, u.norm):
                    # the sentence whose context holds most of the whole question (the subsidiary the other
                    # ask names) first
                    key = (sum(cover(whole, s.context)), s.score)
                    if best is None or key > best_key:
                        best, best_key, best_context = s, key, _context(unit, before, heading)
            if best is not None:
                found[ask] = best
                contexts.append(best_context)
        if not found:
            return None
        read_for = [(id(st.unit_page), st.value) for st in found.values()]
        if len(set(read_for)) < len(read_for):
            return None   # one number of a sentence read for two asks (每10股派 and 合计派发: 239.57 twice)
        around = set().union(*contexts)
        for ask in asks:
            if ask not in found:
                held = sum(1 for a, b in zip(cover(ask, around), self.cells.neutral_marks(ask)) if a or b)
                if held < EXPLAINED * len(ask):
                    return None
        return [found[a] for a in asks if a in found]

    def _whole_words(self, head: str, lead: str, asked: str) -> bool:
        """Whether the words a clause prints right before its number are the ask's own, whole: the part of the ask's
        head the clause ends with begins where a word of the head begins ("存款余额" is no "贷款余额": 款余额 is no
        word's end of 个人定期存款余额), and the nouns the clause prints right before it are the question's (`asked`:
        "本行个人住房贷款余额" states no 西南地区's 贷款余额 — 个人住房 narrows it to another item; "中邮消费金融实现净利润"
        is the subsidiary's the question names) — the subject aside (本行, 公司)."""
        if self.cut is None:
            return True
        common = 0   # (`lead`: up to the head's last characters, as _ends_with_head found them)
        while common < len(head) and common < len(lead) and head[-1 - common] == lead[-1 - common]:
            common += 1
        starts, at, tags = set(), 0, {}
        for w, pos in self.cut(head):
            starts.add(at)
            tags[at] = pos
            at += len(w)
        if common and common < len(head) and len(head) - common not in starts:
            return False
        if any(pos not in _NOUNS for a, pos in tags.items() if a >= len(head) - common):
            return True   # (the words matched hold a verb — "…规定计算资本充足率" —: what stands before is another phrase's)
        before = lead[:len(lead) - common] if common else lead
        for w, pos in reversed(self.cut(before) if before else []):
            if w in _ORG_WORDS:
                continue   # (an organisation's legal form: its name before it decides — 中邮消费金融有限公司总资产)
            if pos not in _NOUNS or w in _SUBJECTS or _TIME_WORD.fullmatch(w):
                break   # (the subject, a time — 2012年度现金股利 —: what narrows nothing)
            if w not in asked:
                return False
        return True

    def _stated(self, ask: str, head: str, unit: Unit, text: str, before: list[Unit], heading: str, rank: int,
                year: int, balance: bool = False, question: str = "") -> list[Stated]:
        """The values the sentence `unit` (`text`: normalised) states for the ask (`head`: its words, less
        value words)."""
        # the year the sentence is about: its own, else the nearest one the sentences before it name
        years: set[int] = set()
        for t in [text] + [norm(b.text) for b in reversed(before)]:
            years = {int(y) for y in _YEAR.findall(t)}
            if years:
                break
        if years and year not in years:
            return []   # "2011年度分红派息方案为：…每10股派现金人民币1.3元": another year's value
        named_year = year in {int(y) for y in _YEAR.findall(text)}
        interim_asked = bool(_INTERIM.search(ask))
        earlier = [norm(b.text) for b in reversed(before)]
        rate = bool(_RATE.search(ask))
        context: set[str] | None = None
        looks = _WITHIN.fullmatch(ask)
        within = looks.group("whole") if looks and looks.group("whole")[-2:] in looks.group("rest") else ""
        out = []
        for m in _NUMBER.finditer(text):
            num, unit_word = m.group("num"), m.group("unit") or ""
            if parse_number(num.replace("−", "-")) is None or (rate != (unit_word == "%")):
                continue
            if not interim_asked and _of_interim(text[:m.start()], earlier):
                continue   # "《2025年中期利润分配方案》…每10股派239.57元": an interim period's, not the year's
            if not unit_word and _DATE_PART.match(text, m.end()):
                continue   # a part of a date (2012年12月26日) states no value
            if not unit_word and not rate and "." in num and not text[m.end():].strip():
                continue   # the sentence cut after its amount ("合计派发现金红利 300.01" / "亿元" on the next line)
            start = max((c.end() for c in _CLAUSE.finditer(text, 0, m.start())), default=0)
            lead = content(text[start:m.start()])
            if balance and FLOW.search(lead):
                continue   # "本期计提坏账准备604,885.31元": the year's flow, never a balance at its end asked
            end = _CLAUSE.search(text, m.end())
            tail = content(text[m.end():end.start() if end else len(text)])
            # the head right before the number (only connecting words between), or right after it
            at = _ends_with_head(lead, head)
            after = tail.startswith(("为", "作为")) and content(tail).lstrip("为作").startswith(head[-HEAD:])
            if at is None and not after:
                continue
            if at is not None and not after and not self._whole_words(head, lead[:at + HEAD], question or ask):
                continue
            if any(w not in lead + tail for w in _QUALIFIER.findall(ask)):
                continue   # "其他业务收入" is no "主营业务收入 156,732万元": a qualifier of the ask the clause lacks
            if within and within not in content(text):
                continue   # "其中，个人存款余额10,890.28亿元" is no 定期存款中个人存款余额: the whole the ask looks in, of
                # its own kind, is the sentence's own words (not the paragraph's: the 个人存款 of all deposits)
            if any(w not in ask for w in _PARTY.findall(lead)):
                continue   # "前五名客户销售额 32,932.48万元" states no 销售额 of the company: a party the ask lacks
            clause = text[start:end.start() if end else len(text)]
            asked = [kind for kind in self.cells.w.named_kinds if any(w in ask for w in kind)]
            if any(_names_kind(clause[:m.start() - start], w) for kind in self.cells.w.named_kinds if kind not in asked
                   for w in kind) or any(not any(_names_kind(clause, w, plain=True) for w in kind) for kind in asked):
                continue   # a bank's kind of business (rules/lexicon.yaml table_named), said whole by the clause, no other
                # kind before the number: "个人银行业务营业收入" is no 公司银行业务's (公司业务 is), "公司贷款占比" no
                # 公司存款's, "公司重组减值贷款余额" no 公司贷款's, "个人贷款余额" no 贷款's, "借记卡存款余额" under
                # 个人银行业务 no 个人存款's ("…有限公司的贷款余额" names none)
            # the rest of the ask: held by the sentence, the lines before it in its paragraph, the heading
            if context is None:
                context = _context(unit, before, heading)
            marks = cover(ask, pairs(lead + tail) | context)
            neutral = self.cells.neutral_marks(ask)
            held = sum(1 for a, b in zip(marks, neutral) if a or b)
            if held < EXPLAINED * len(ask):
                continue
            value = num.replace("−", "-")
            # (then the number whose own clause says most of the ask: "合计拟派发现金红利35,032,568,759.73元",
            # not the "每股派发现金红利27.993元" before it in the sentence)
            said = sum(cover(ask, pairs(lead)))
            out.append(Stated(ask, value, unit_word, unit_word, unit, (round(held / len(ask), 3), said, named_year, -rank,
                                                                     len(head), -unit.order), context | pairs(lead + tail)))
        return out


def _of_interim(lead: str, earlier: list[str]) -> bool:
    """Whether the period word nearest before a number (in its sentence before it, else the nearest sentence
    before naming one) is an interim period's (中期, 半年度, 季度), not the year's (年度, 年末)."""
    for t in [lead, *earlier]:
        said = _PERIOD_WORD.findall(t)
        if said:
            return _INTERIM.fullmatch(said[-1]) is not None
    return False


def _of_months(months: set[int], text: str, before: list[Unit]) -> bool:
    """Whether a sentence is about the months asked: the months it names, else the nearest sentence before it
    naming any, hold one of them (one naming no month is about the year: "2019年12月的营业收入" is not the
    year's 营业收入)."""
    for t in [text] + [norm(b.text) for b in reversed(before)]:
        said = {int(m) for m in _MONTH.findall(t)}
        if said:
            return bool(said & months)
    return False


def _names_kind(text: str, word: str, plain: bool = False) -> bool:
    """Whether a text says a kind of business (公司贷款) as a word of its own — not the end of an organisation's name
    before another word ("…有限公司的贷款", "子公司存款"); `plain`: nor a part of it another word before narrows
    ("小微个人存款" is no bank's 个人存款; "本行个人存款", "（二）个人银行业务" are)."""
    s = text.replace(" ", "")
    at = s.find(word)
    while at >= 0:
        if not _ORG_END.search(s[:at]) and (not plain or _KIND_OPENS.search(s[:at])):
            return True
        at = s.find(word, at + 1)
    return False


def _context(unit: Unit, before: list[Unit], heading: str) -> set[str]:
    """The character pairs of a sentence, the sentences before it in its paragraph (unless it names an
    organisation of its own: "（3）辽宁益康生物股份有限公司为公司控股子公司…注册资本为11,500万元" is not about
    the company the sentence before names) and its heading."""
    own = pairs(content(norm(unit.text))) | pairs(heading)
    if _ORGANISATION.search(norm(unit.text)):
        return own
    return own | set().union(*(pairs(content(norm(b.text))) for b in before))


def _head(ask: str) -> str:
    """The ask without its trailing value words ("现金股利共计" → 现金股利, "每10股派现金" → 每10股派)."""
    changed = True
    while changed:
        changed = False
        for w in _VALUE_WORDS:
            if ask.endswith(w) and len(ask) - len(w) >= HEAD:
                ask, changed = ask[:-len(w)], True
    return ask


def _ends_with_head(lead: str, head: str) -> int | None:
    """Where the head stands in the clause before a number, with only connecting words after it: its last
    SUFFIX characters at least (all of a shorter head) — "营业利润 33,864" states no 净利润; None when it
    does not."""
    need = min(SUFFIX, len(head))
    tail = head[-HEAD:]
    k = lead.rfind(tail)
    while k >= 0:
        end = k + len(tail)
        if _CONNECT.match(lead[end:]):
            common = 0
            while common < len(head) and common < end and head[-1 - common] == lead[end - 1 - common]:
                common += 1
            if common >= need:
                return k
        k = lead.rfind(tail, 0, k)
    return None
