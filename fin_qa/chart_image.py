"""A chart (answer/chart.py's `chart` of an answer) drawn as an image, with matplotlib: 800×500 pixels, its title,
axes, units and company names in Chinese with the font the package carries (fin_qa/fonts/: Noto Sans CJK SC cut to
GBK, SIL Open Font License), never a font of the machine. A line for a series, bars for companies or rows compared,
a pie for parts of a whole, a table for many columns — each point labelled with its value as drawn.

    draw(chart, "result/B1002_1.jpg")      # .jpg, .png (by the suffix)

matplotlib is imported on the first drawing only (answering never pays for it), and used through its object API:
no pyplot, no backend chosen, the font and the minus sign set for each drawing only (rc_context) — a notebook using
the Python API keeps its own settings.
"""
from __future__ import annotations

import io
import threading
import textwrap
from pathlib import Path
from typing import Any

from .base import FinQAError

FONT = Path(__file__).resolve().parent / "fonts" / "NotoSansCJKsc-Regular-GBK.otf"
SIZE = (800, 500)   # pixels
_DPI = 100
# what one image may hold (a chart sent to the API is drawn within these: a bigger one is refused, not drawn slowly)
MAX_LABELS, MAX_DATASETS, MAX_ROWS, MAX_COLUMNS, MAX_TEXT = 60, 8, 60, 8, 200
_lock = threading.Lock()   # (matplotlib's font cache and text layout are shared by the process)
_family: str | None = None


def _font() -> str:
    """The package's font registered with matplotlib once; its family name (no setting of the process changed)."""
    global _family
    if _family is None:
        from matplotlib import font_manager

        if not FONT.is_file():
            raise FinQAError(f"the charts' font is missing from the package ({FONT}): reinstall fin-qa")
        font_manager.fontManager.addfont(str(FONT))
        _family = font_manager.FontProperties(fname=str(FONT)).get_name()
    return _family


def check(chart: Any) -> dict[str, Any]:
    """The chart if it can be drawn, else FinQAError saying what is wrong with it (its shape, its size)."""
    if not isinstance(chart, dict):
        raise FinQAError("a chart is an object (an answer's `chart`)")
    kind = chart.get("kind")
    if kind not in ("line", "bar", "pie", "table"):
        raise FinQAError(f"a chart of kind {str(kind)[:20]!r} cannot be drawn (line, bar, pie or table)")
    if not isinstance(chart.get("title", ""), str) or len(chart.get("title", "")) > MAX_TEXT:
        raise FinQAError(f"a chart's title is text of at most {MAX_TEXT} characters")
    if kind == "table":
        columns, rows = chart.get("columns", []), chart.get("rows")
        if not isinstance(columns, list) or not isinstance(rows, list) or not rows \
                or not all(isinstance(r, list) and len(r) == len(columns or r) for r in rows):
            raise FinQAError("a table chart has rows, each a list of as many cells as it has columns")
        if len(rows) > MAX_ROWS or len(rows[0]) > MAX_COLUMNS:
            raise FinQAError(f"a table chart has at most {MAX_ROWS} rows and {MAX_COLUMNS} columns")
        return chart
    labels, sets = chart.get("labels"), chart.get("datasets")
    if not isinstance(labels, list) or not labels or not isinstance(sets, list) or not sets:
        raise FinQAError("a chart has labels and datasets (each {\"label\", \"data\"})")
    if len(labels) > MAX_LABELS or len(sets) > MAX_DATASETS:
        raise FinQAError(f"a chart has at most {MAX_LABELS} labels and {MAX_DATASETS} datasets")
    for d in sets:
        data = d.get("data") if isinstance(d, dict) else None
        if not isinstance(data, list) or len(data) != len(labels) \
                or not all(v is None or isinstance(v, (int, float)) and not isinstance(v, bool) for v in data):
            raise FinQAError("each dataset of a chart has a number (or null) for each of its labels")
    return chart


def _wrap(text: str, width: int = 34) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def _label(v: float) -> str:
    return f"{v:,.2f}" if abs(v) < 1e6 else f"{v:,.0f}"


def draw(chart: dict[str, Any], path: str | Path) -> Path:
    """The chart drawn to `path` (.jpg or .png); the folder made if missing. FinQAError for a chart it cannot draw."""
    path = Path(path)
    if path.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        raise FinQAError(f"{path}: a chart is written as .jpg or .png")
    data = render(chart, "jpg" if path.suffix.lower() in (".jpg", ".jpeg") else "png")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def render(chart: Any, fmt: str = "png") -> bytes:
    """The chart drawn as the bytes of a .png or .jpg image. FinQAError for a chart it cannot draw. Drawn on a figure
    of its own (matplotlib's object API: no pyplot, no backend chosen, no setting of the process changed)."""
    if fmt not in ("png", "jpg"):
        raise FinQAError(f"a chart is drawn as png or jpg, not {fmt[:20]}")
    check(chart)
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    out = io.BytesIO()
    with _lock:
        family = _font()
        with matplotlib.rc_context({"font.family": [family, "DejaVu Sans"], "axes.unicode_minus": False}):
            fig = Figure(figsize=(SIZE[0] / _DPI, SIZE[1] / _DPI), dpi=_DPI)
            FigureCanvasAgg(fig)
            ax = fig.add_subplot()
            try:
                {"line": _line, "bar": _bar, "pie": _pie, "table": _table}[chart["kind"]](ax, chart)
                ax.set_title(_wrap(str(chart.get("title", ""))), fontsize=13)
                fig.tight_layout()
                if fmt == "jpg":
                    fig.savefig(out, format=fmt, dpi=_DPI, facecolor="white", pil_kwargs={"quality": 92})
                else:
                    fig.savefig(out, format=fmt, dpi=_DPI, facecolor="white")
            except (TypeError, ValueError, KeyError) as e:   # (numbers that are none, a malformed chart)
                raise FinQAError(f"the chart cannot be drawn: {e}") from None
    return out.getvalue()


def _points(chart: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]], str]:
    labels = [str(x) for x in chart.get("labels", [])]
    sets = [d for d in chart.get("datasets", []) if len(d.get("data", [])) == len(labels)]
    if not labels or not sets:
        raise FinQAError("a chart with no points cannot be drawn")
    return labels, sets, str(chart.get("unit") or "")


def _line(ax: Any, chart: dict[str, Any]) -> None:
    labels, sets, unit = _points(chart)
    x = list(range(len(labels)))
    for d in sets:
        pts = [(i, v) for i, v in zip(x, d["data"]) if v is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", linewidth=2, label=d.get("label", ""))
        for i, v in pts:
            ax.annotate(_label(v), (i, v), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=9)
    _axes(ax, labels, unit, len(sets) > 1)


def _bar(ax: Any, chart: dict[str, Any]) -> None:
    labels, sets, unit = _points(chart)
    width = 0.8 / len(sets)
    for k, d in enumerate(sets):
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(labels))]
        vs = [v if v is not None else 0.0 for v in d["data"]]
        bars = ax.bar(xs, vs, width=width * 0.9, label=d.get("label", ""))
        for b, v in zip(bars, d["data"]):
            if v is not None:
                ax.annotate(_label(v), (b.get_x() + b.get_width() / 2, v), textcoords="offset points",
                            xytext=(0, 3 if v >= 0 else -12), ha="center", fontsize=9)
    ax.axhline(0, color="#888888", linewidth=0.8)
    _axes(ax, labels, unit, len(sets) > 1)


def _axes(ax: Any, labels: list[str], unit: str, legend: bool) -> None:
    ax.set_xticks(list(range(len(labels))))
    ax.set_xticklabels(labels, rotation=30 if sum(len(s) for s in labels) > 40 else 0,
                       ha="right" if sum(len(s) for s in labels) > 40 else "center", fontsize=10)
    if unit:
        ax.set_ylabel(f"单位：{unit}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.margins(y=0.15)
    if legend:
        ax.legend(fontsize=9)


def _pie(ax: Any, chart: dict[str, Any]) -> None:
    labels, sets, unit = _points(chart)
    values = [v or 0.0 for v in sets[0]["data"]]
    if any(v <= 0 for v in values):
        raise FinQAError("a pie is drawn of positive parts only")
    ax.pie(values, labels=labels, autopct="%1.1f%%", startangle=90, counterclock=False,
           textprops={"fontsize": 10})
    ax.axis("equal")
    if unit:
        ax.text(0, -1.35, f"（单位：{unit}；合计{_label(sum(values))}）", ha="center", fontsize=9)


def _table(ax: Any, chart: dict[str, Any]) -> None:
    columns = [str(c) for c in chart.get("columns", [])]
    rows = [[str(c) for c in r] for r in chart.get("rows", [])]
    if not rows:
        raise FinQAError("a table with no rows cannot be drawn")
    ax.axis("off")
    table = ax.table(cellText=rows, colLabels=columns or None, loc="center", cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(10 if len(rows) <= 12 else 8)
    table.scale(1, 1.4)
