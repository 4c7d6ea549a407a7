#!/usr/bin/env python3
"""Make the font fin-qa draws its charts with (fin_qa/fonts/): Noto Sans CJK SC Regular (SIL Open Font License 1.1),
cut to the characters of GBK (21,886: every simplified and traditional character a company's name, an item or a
title is written in) plus ASCII, so that the package carries 5 MB rather than 16.

    python scripts/make_chart_font.py NotoSansCJKsc-Regular.otf

The source font: Debian's fonts-noto-cjk (/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc holds it as one
face of a collection) or PyPI's mplfonts wheel (mplfonts/fonts/NotoSansCJKsc-Regular.otf, version 1.004, the one
fin_qa/fonts/ was made from). Needs fontTools (`pip install fonttools`). Its glyphs are unchanged; the license
travels beside it (fin_qa/fonts/OFL.txt).
"""
from __future__ import annotations

import argparse
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "fin_qa" / "fonts" / "NotoSansCJKsc-Regular-GBK.otf"


def gbk() -> str:
    chars = {chr(c) for c in range(0x20, 0x7F)}
    for hi in range(0x81, 0xFF):
        for lo in range(0x40, 0xFF):
            try:
                chars.add(bytes([hi, lo]).decode("gbk"))
            except UnicodeDecodeError:
                pass
    return "".join(sorted(chars))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("-o", "--out", type=Path, default=OUT)
    args = ap.parse_args()
    from fontTools import subset

    opts = subset.Options()
    opts.layout_features = []     # (no shaping is asked of a chart's labels)
    opts.hinting = False
    opts.name_IDs = ["*"]         # (its copyright, license and names kept)
    opts.notdef_outline = True
    font = subset.load_font(str(args.source), opts)
    sub = subset.Subsetter(opts)
    sub.populate(text=gbk())
    sub.subset(font)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    subset.save_font(font, str(args.out), opts)
    print(f"{args.out}: {args.out.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
