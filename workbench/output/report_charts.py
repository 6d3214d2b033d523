"""The report's charts as plain HTML and inline SVG: no chart library, so the file stays small and prints.

The app draws the same figures with plotly (``charts.py``); a report built on plotly carried its 4.8 MB
script inline to open without a network. These are drawn from the same runs, colours and words.
Every text in them is escaped; a mark's details are in its ``title``, which a browser shows on hover.
"""

from __future__ import annotations

from html import escape

from workbench.core.results import Evaluation
from workbench.grade.grading import why_missed
from workbench.output.colours import GRADE_COLOURS, GRADE_LABELS, LINE_COLOURS, line_colour
from workbench.run.names import reranker_name, strategy_name

# A segment's count is written in it only where the bar is wide enough for its digits: each number carries the
# narrowest bar width (of BAR_WIDTHS, in pixels) it fits in, and a container query hides it in a narrower bar, where
# the counts are written out in words under the bar instead. So no two numbers run into each other on a phone.
BAR_WIDTHS = (200, 260, 320, 400, 480, 560, 640, 720, 800, 900, 1000, 1200)
DIGIT_PX, PAD_PX = 8, 6  # a digit at .75rem, and the room either side of a number


def _fit_rules() -> str:
    return "\n".join(f"@container bar (max-width: {width - 0.02}px) {{ .bar span.n{width} {{ font-size: 0; }} "
                     f".counts.n{width} {{ display: block; }} }}" for width in BAR_WIDTHS)


CHART_STYLE = """
<style>
.bars { margin: .4rem 0 1rem; } .bars h3 { font-size: 1rem; margin: .8rem 0 .3rem; }
.bar-row { display: grid; grid-template-columns: minmax(9rem, 16rem) 1fr; gap: .6rem; align-items: center;
           margin: 3px 0; font-size: .85rem; }
.bar-box { container: bar / inline-size; min-width: 0; }
.bar { display: flex; height: 1.3rem; background: #f3f4f6; border-radius: 3px; overflow: hidden; }
.bar span { display: block; height: 100%; color: #fff; font-size: .75rem; text-align: center; line-height: 1.3rem;
            overflow: hidden; white-space: nowrap; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.bar span.n0 { font-size: 0; }
.counts { display: none; font-size: .8rem; color: #374151; margin-top: 1px; }
.counts.n0 { display: block; }
""" + _fit_rules() + """
.legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; font-size: .85rem; margin: .3rem 0; }
.legend i { display: inline-block; width: .9rem; height: .9rem; border-radius: 2px; margin-right: .3rem;
            vertical-align: -2px; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
table.grid td.cell { text-align: center; color: #fff; font-size: .75rem; print-color-adjust: exact;
                     -webkit-print-color-adjust: exact; }
svg.curve { max-width: 860px; display: block; } svg.curve text { font: 12px system-ui, sans-serif; fill: #374151; }
@media print { .bars, svg.curve, table.grid { break-inside: avoid; } }
/* On a phone the grid, a column per strategy, scrolled in its own box: each question becomes a block, its
   grades wrapping under it, each named by its strategy. A bar goes under its name, the page's width for its
   numbers, and the curve's words are drawn larger, the chart being drawn at half its size. */
@media screen and (max-width: 640px) {
  table.grid { display: block; overflow: visible; }
  table.grid tbody, table.grid tr, table.grid td { display: block; }
  table.grid tr.head { display: none; }
  table.grid tr { margin: 0 0 .6rem; }
  table.grid td.cell { display: inline-block; margin: 2px 4px 2px 0; padding: 2px 6px; border-radius: 3px; }
  table.grid td.cell::before { content: attr(data-strategy) ": "; }
  .bar-row { grid-template-columns: 1fr; gap: 2px; margin: 2px 0 10px; }
  svg.curve text { font-size: 18px; }
}
</style>
"""


def _legend(items: list[tuple[str, str]]) -> str:
    return "<div class='legend'>" + "".join(
        f"<span><i style='background:{colour}'></i>{escape(label)}</span>" for label, colour in items) + "</div>"


def fits_from(count: int, total: int) -> int:
    """The narrowest bar (of ``BAR_WIDTHS``, in pixels) whose segment for ``count`` of ``total`` holds its digits;
    0 for none, such a count being said only under the bar."""
    need = (DIGIT_PX * len(str(count)) + PAD_PX) * total / count
    return next((width for width in BAR_WIDTHS if width >= need), 0)


def grade_bars(evaluation: Evaluation, retriever: str) -> str:
    """Clean / mixed / missed / refused / false answers per strategy, stacked, one block per re-check. A count is
    written in its segment where it fits (``fits_from``); in a narrower bar every count is said under it."""
    size = evaluation.settings.size
    runs = evaluation.runs_under(retriever)
    grades = [grade for grade in GRADE_COLOURS if any(run.counts[grade] for run in runs)] or ["clean"]
    parts = [_legend([(GRADE_LABELS[g], GRADE_COLOURS[g]) for g in grades])]
    for reranker in dict.fromkeys(run.reranker for run in runs):
        parts.append(f"<div class='bars'><h3>{escape(reranker_name(reranker))}</h3>")
        for run in (r for r in runs if r.reranker == reranker):
            total = max(sum(run.counts[g] for g in GRADE_COLOURS), 1)
            name = strategy_name(run.strategy, size)
            shown = [g for g in grades if run.counts[g]]
            fits = {g: fits_from(run.counts[g], total) for g in shown}
            spans = "".join(
                f"<span class='n{fits[g]}' style='width:{100 * run.counts[g] / total:.2f}%;background:{GRADE_COLOURS[g]}' "
                f"title='{escape(name)}: {run.counts[g]} {GRADE_LABELS[g]}'>{run.counts[g]}</span>"
                for g in shown
            )
            # The counts in words show wherever a number is hidden: below the widest bar a number needs, always
            # when one never fits.
            needs = 0 if 0 in fits.values() else max(fits.values(), default=0) or 0
            counts = " · ".join(f"{run.counts[g]} {GRADE_LABELS[g]}" for g in shown)
            parts.append(f"<div class='bar-row'><span>{escape(name)}</span><div class='bar-box'>"
                         f"<div class='bar'>{spans}</div><div class='counts n{needs}'>{escape(counts)}</div></div></div>")
        parts.append("</div>")
    return "".join(parts)


def hit_curve(evaluation: Evaluation, retriever: str, reranker: str) -> str:
    """Hit rate at k = 1..10, one line per strategy, as an inline SVG with its legend."""
    runs = evaluation.runs_under(retriever, reranker)
    width, height, left, right, top, bottom = 720, 300, 48, 16, 12, 40

    def x(k: int) -> float:
        return left + (k - 1) * (width - left - right) / 9

    def y(rate: float) -> float:
        return top + (1 - rate) * (height - top - bottom)

    marks = [f"<svg class='curve' viewBox='0 0 {width} {height}' width='100%' role='img' "
             f"aria-label='Hit rate at k for each strategy'>"]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        marks.append(f"<line x1='{left}' x2='{width - right}' y1='{y(tick):.1f}' y2='{y(tick):.1f}' stroke='#e5e7eb'/>"
                     f"<text x='{left - 6}' y='{y(tick) + 4:.1f}' text-anchor='end'>{tick:g}</text>")
    for k in range(1, 11):
        marks.append(f"<text x='{x(k):.1f}' y='{height - bottom + 16}' text-anchor='middle'>{k}</text>")
    marks.append(f"<text x='{(left + width - right) / 2:.0f}' y='{height - 4}' text-anchor='middle'>"
                 "k (pieces handed to the bot)</text>")
    size = evaluation.settings.size
    for index, run in enumerate(runs):
        colour, name = line_colour(index), strategy_name(run.strategy, size)
        dash = "" if index < len(LINE_COLOURS) else " stroke-dasharray='6 4'"
        points = " ".join(f"{x(k):.1f},{y(rate):.1f}" for k, rate in enumerate(run.hit_curve[:10], start=1))
        marks.append(f"<polyline class='line' fill='none' stroke='{colour}' stroke-width='2'{dash} points='{points}'>"
                     f"<title>{escape(name)}</title></polyline>")
        marks += [f"<circle cx='{x(k):.1f}' cy='{y(rate):.1f}' r='3' fill='{colour}'><title>{escape(name)}, k={k}: "
                  f"hit rate {rate:.2f}</title></circle>" for k, rate in enumerate(run.hit_curve[:10], start=1)]
    marks.append("</svg>")
    return _legend([(strategy_name(run.strategy, size), line_colour(i)) for i, run in enumerate(runs)]) + "".join(marks)


def grade_grid(evaluation: Evaluation, retriever: str, reranker: str) -> str:
    """Question by strategy, each cell coloured and named by its grade, the reason on hover."""
    runs = evaluation.runs_under(retriever, reranker)
    if not runs:
        return ""
    size = evaluation.settings.size
    head = "".join(f"<th>{escape(strategy_name(run.strategy, size))}</th>" for run in runs)
    rows = []
    for number, first in enumerate(runs[0].per_question):
        cells = []
        for run in runs:
            result = run.per_question[number]
            reason = why_missed(result.reason)
            cells.append(f"<td class='cell' data-strategy='{escape(strategy_name(run.strategy, size))}' "
                         f"style='background:{GRADE_COLOURS[result.grade]}' "
                         f"title='{escape(GRADE_LABELS[result.grade] + reason)}'>{escape(GRADE_LABELS[result.grade])}</td>")
        label = f"{first.question.row or number + 1}. {first.question.question}"
        rows.append(f"<tr><td>{escape(label)}</td>{''.join(cells)}</tr>")
    return f"<table class='grid'><tr class='head'><th>Question</th>{head}</tr>{''.join(rows)}</table>"
