"""Plotly figures of an evaluation. Builders return a figure; the app places it."""

from __future__ import annotations

import math
import unicodedata

import plotly.graph_objects as go
import regex
from plotly.subplots import make_subplots

from workbench.core.model import Chunk
from workbench.core.results import Evaluation
from workbench.cut import STRATEGIES
from workbench.output.colours import GRADE_COLOURS, GRADE_LABELS, LINE_COLOURS, line_colour
from workbench.output.highlight import isolated
from workbench.run.names import reranker_name, strategy_name

LEGEND_ON_TOP = dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0)


# Scripts written without spaces between words (Thai, Lao, Khmer, Myanmar, kana, Han) and Hangul: a question in them
# is one "word" as long as the question, which no line of a label held (below).
UNSPACED = regex.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")


def columns(text: str) -> int:
    """How wide ``text`` is drawn, in Latin letters: a wide (East Asian) character two, a combining mark none."""
    return sum(0 if unicodedata.category(char).startswith("M") else
               2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def wrap(text: str, width: int) -> str:
    """Break a label into lines of about ``width`` characters, so a chart never clips it.

    A word of a script written without spaces is broken between its characters (whole letters with their marks)
    where a line is full: a Japanese or Thai question was one line as wide as itself, and on a phone it left the grid
    of grades beside it a sliver."""
    lines, line = [], ""
    for word in text.split():
        if UNSPACED.search(word) and columns(word) > width:  # cut between its letters, from the line so far
            line = f"{line} " if line else ""
            for letter in regex.findall(r"\X", word):
                if line.strip() and columns(line) + columns(letter) > width:
                    lines.append(line.rstrip())
                    line = ""
                line += letter
        elif line and columns(line) + 1 + columns(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "<br>".join([*lines, line]) if line or lines else ""


def question_label(row: int, question: str, width: int = 36) -> str:
    """A question's label in the grid, "2. How much is …", wrapped; each line of a right-to-left question a bidi
    isolate, so its question mark ends the Hebrew or Arabic line (at its left) instead of following the row number's
    left-to-right order to its right ("2. כמה עולה נר ריחני לבנדר?" showed its "?" beside "2.")."""
    prefix = f"{row}. "
    lines = wrap(prefix + question, width).split("<br>")
    if not lines[0].startswith(prefix):  # the number on a line of its own: the question's first word is too long
        return "<br>".join([lines[0], *isolated(*lines[1:])])
    lines[0] = lines[0][len(prefix):]
    return prefix + "<br>".join(isolated(*lines))


TITLE_WIDTH = 22  # characters a line of a chart's title may hold and fit a phone


def _name(evaluation: Evaluation, strategy: str) -> str:
    return strategy_name(strategy, evaluation.settings.size)


def grades_bars(evaluation: Evaluation, retriever: str) -> go.Figure:
    """Stacked clean / mixed / missed / refused / false answers per strategy, one panel per re-check.

    Bars lie flat, so each strategy's name reads whole on its own line, on a phone as on paper.
    """
    runs = evaluation.runs_under(retriever)
    rerankers = list(dict.fromkeys(run.reranker for run in runs))
    # Wrapped: a title is centred over the bars, which a phone leaves about 220 pixels ("Re-checked word by word
    # for meaning" ran off both sides at 390 pixels).
    titles = [wrap(reranker_name(r), TITLE_WIDTH) for r in rerankers]
    strategies = len({run.strategy for run in runs})
    extra = max(title.count("<br>") for title in titles)  # a wrapped title's lines need room above their bars
    figure = make_subplots(rows=len(rerankers), cols=1, shared_xaxes=True, subplot_titles=titles,
                           vertical_spacing=min(0.12 + 0.05 * extra, (0.3 + 0.1 * extra) / max(1, len(rerankers))))
    for row, reranker in enumerate(rerankers, start=1):
        panel = [run for run in runs if run.reranker == reranker]
        for grade, colour in GRADE_COLOURS.items():
            figure.add_trace(
                go.Bar(
                    name=GRADE_LABELS[grade],
                    y=[wrap(_name(evaluation, run.strategy), 24) for run in panel],
                    x=[run.counts[grade] for run in panel],
                    orientation="h",
                    marker_color=colour,
                    legendgroup=grade,
                    showlegend=row == 1,
                    customdata=[[run.strategy] for run in panel],
                    hovertemplate="%{y}: %{x} " + GRADE_LABELS[grade] + " (id: %{customdata[0]})<extra></extra>",
                ),
                row=row,
                col=1,
            )
    # Each bar gets room for its label's lines: a wrapped name ("Cut at headings, / with their path") needs two.
    lines = sum(wrap(_name(evaluation, s), 24).count("<br>") + 1 for s in dict.fromkeys(r.strategy for r in runs))
    figure.update_layout(barmode="stack", height=150 + len(rerankers) * (40 + 14 * strategies + 16 * lines + 18 * extra),
                         margin=dict(t=125, b=10, l=10, r=10),  # room for the legend wrapped on a phone
                         legend=dict(LEGEND_ON_TOP, yanchor="top", y=0.995, yref="container"),
                         legend_title_text="")  # the grades name themselves; a title costs a line on a phone
    figure.update_yaxes(automargin=True, autorange="reversed", tickfont_size=11)
    figure.update_xaxes(automargin=True, title_text="questions", row=len(rerankers), col=1)
    return figure


def hit_curve(evaluation: Evaluation, retriever: str, reranker: str) -> go.Figure:
    """Hit rate at k for k = 1..10: how often the answer is somewhere in the top k pieces."""
    return _hit_rate_lines(evaluation, retriever, reranker, lambda run: list(range(1, 11)), "k (pieces handed to the bot)")


def budget_curve(evaluation: Evaluation, retriever: str, reranker: str) -> go.Figure:
    """Hit rate against the characters handed to the bot, k = 1..10: a fair fight at equal budget."""
    return _hit_rate_lines(
        evaluation, retriever, reranker, lambda run: run.context_curve, "characters handed to the bot<br>(average per question)"
    )


def _hit_rate_lines(evaluation: Evaluation, retriever: str, reranker: str, x, x_title: str) -> go.Figure:
    figure = go.Figure()
    runs = evaluation.runs_under(retriever, reranker)
    for index, run in enumerate(runs):
        name = _name(evaluation, run.strategy)
        figure.add_trace(
            go.Scatter(
                x=x(run),
                y=run.hit_curve,
                mode="lines+markers",
                name=name,
                line=dict(color=line_colour(index), width=2, dash="solid" if index < len(LINE_COLOURS) else "dash"),
                marker=dict(color=line_colour(index)),
                customdata=[[k, chars] for k, chars in zip(range(1, 11), run.context_curve)],
                hovertemplate="%{customdata[0]} pieces, %{customdata[1]:.0f} characters: answer found %{y:.2f} (0: never, 1: every question)"
                f"<extra>{name} ({run.strategy})</extra>",
            )
        )
    figure.update_layout(height=420, margin=dict(t=10, b=10, l=10, r=10), xaxis_title=x_title,
                         yaxis_title="answer found in the pieces handed over",
                         yaxis_range=[0, 1.05], legend=dict(LEGEND_ON_TOP, y=1.02),
                         legend_title_text="")
    figure.update_xaxes(automargin=True)
    figure.update_yaxes(automargin=True)
    return figure


GRID_UPRIGHT = 3  # the most columns whose wrapped names sit side by side on a phone without touching


def grade_grid(evaluation: Evaluation, retriever: str, reranker: str) -> go.Figure:
    """Question x strategy, each cell coloured by its grade, so a failing question is easy to point at."""
    runs = evaluation.runs_under(retriever, reranker)
    grades = list(GRADE_COLOURS)
    if not runs:
        return go.Figure()
    # Whole questions, wrapped onto lines, so none is cut off.
    # 36 characters a line: on a phone (390 px) longer labels leave the grid itself a sliver.
    labels = [question_label(r.question.row or i + 1, r.question.question) for i, r in enumerate(runs[0].per_question)]
    z = [[grades.index(run.per_question[q].grade) for run in runs] for q in range(len(labels))]
    text = [
        [GRADE_LABELS[run.per_question[q].grade] + (f" ({run.per_question[q].reason})" if run.per_question[q].reason else "")
         for run in runs]
        for q in range(len(labels))
    ]
    upright = len(runs) <= GRID_UPRIGHT
    n = len(grades)
    scale = []
    for index, grade in enumerate(grades):  # a stepped colour scale: one flat band per grade
        scale += [(index / n, GRADE_COLOURS[grade]), ((index + 1) / n, GRADE_COLOURS[grade])]
    figure = go.Figure(
        go.Heatmap(
            z=z,
            # Upright and wrapped for a few columns; with more, one line each turned on its side, so that on
            # a phone's width each label takes only its line's height and none runs into its neighbour.
            x=[wrap(_name(evaluation, run.strategy), 11) if upright else _name(evaluation, run.strategy) for run in runs],
            y=labels,
            text=text,
            customdata=text,
            hovertemplate="%{y}<br>%{x}: %{customdata}<extra></extra>",
            colorscale=scale,
            zmin=-0.5,
            zmax=n - 0.5,
            showscale=False,
            xgap=2,
            ygap=2,
        )
    )
    rows = sum(label.count("<br>") + 1 for label in labels)
    # Names on their side need their length in height above the grid (about 6 pixels a character at 11 px):
    # plotly's automargin alone left them cut at the top on a phone.
    top = 10 if upright else 12 + 6 * max(len(_name(evaluation, run.strategy)) for run in runs)
    figure.update_layout(height=max(260, 16 * rows + 8 * len(labels) + 110 + top), margin=dict(t=top, b=10, l=10, r=10),
                         yaxis_autorange="reversed")
    figure.update_xaxes(automargin=True, side="top", tickangle=0 if upright else -90, tickfont_size=11)
    figure.update_yaxes(automargin=True, tickfont_size=11)
    return figure


def size_histogram(chunks: list[Chunk], strategy: str, size: int | None = None) -> go.Figure:
    sizes = [chunk.size for chunk in chunks]
    low, high = (min(sizes), max(sizes)) if sizes else (0, 0)
    # Whole characters per bar (at most 20 bars): left to itself, plotly gives pieces all 300 characters
    # long one bar on an axis from 299.6 to 300.4, fractions of a character no piece can have.
    width = max(1, math.ceil((high - low + 1) / 20))
    figure = go.Figure(go.Histogram(
        x=sizes, xbins=dict(start=low - 0.5, end=high + 0.5, size=width), marker_color="#3b82f6",
    ))
    # Wrapped: in a quarter of a 1366-pixel page "LangChain common (1,000 / 200): piece sizes" ran off the chart.
    title = wrap(f"{strategy_name(strategy, size)}: piece sizes", 30)
    lines = title.count("<br>") + 1
    figure.update_layout(
        height=180 + 14 * (lines - 1), margin=dict(t=10 + 14 * lines, b=0, l=0, r=0), title_text=title,
        title_font_size=12,
        xaxis_title="characters", yaxis_title="pieces", bargap=0.05,
    )
    if high - low < 20:  # nearly equal sizes: show a span of whole characters around them
        middle = (low + high) / 2
        figure.update_xaxes(range=[middle - 15, middle + 15], dtick=5)
    return figure


def history_chart(series: list[dict], retriever: str, reranker: str) -> go.Figure:
    """Clean answers per saved run, one line per strategy; a red ring marks a run where the score dropped.

    Runs are categories ("run 3"), never a number axis, so no tick falls between two runs. A run whose
    questions differ from the run before it is not comparable with it: the line breaks there and a grey
    square marks "questions changed" instead of a drop. A dotted line marks where the file itself
    changed, so the runs before and after a new version stand apart. The app passes only runs with the
    same questions and settings (``stamp.comparable_runs``).
    """
    figure = go.Figure()
    rows = [row for row in series if row["retriever"] == retriever and row["reranker"] == reranker]
    order = list(dict.fromkeys(row["run"] for row in rows))
    label = {run: f"run {number}" for number, run in enumerate(order, start=1)}
    version: dict = {}
    for row in rows:
        version.setdefault(row["run"], row.get("content_hash") or "")
    versions = list(dict.fromkeys(version[run] for run in order))
    for index, strategy in enumerate(dict.fromkeys(row["strategy"] for row in rows)):
        points = [row for row in rows if row["strategy"] == strategy]
        name = strategy_name(strategy) if strategy in STRATEGIES.ids() else strategy
        pairs = list(zip(points, points[1:]))
        changed = [b for a, b in pairs if a.get("questions_hash") != b.get("questions_hash")]
        xs: list = []
        ys: list = []
        hover: list = []
        for point in points:
            if point in changed:
                xs.append(None)  # a gap: the line never joins runs of different questions
                ys.append(None)
                hover.append(["", ""])
            xs.append(label[point["run"]])
            ys.append(point["clean"])
            hover.append([f"version {versions.index(version[point['run']]) + 1} of the file", point.get("at", "")])
        figure.add_trace(
            go.Scatter(x=xs, y=ys, mode="lines+markers", name=name, customdata=hover,
                       line=dict(color=line_colour(index)), marker=dict(color=line_colour(index)),
                       hovertemplate="%{x}: %{y} clean<br>%{customdata[0]}, %{customdata[1]}"
                       + f"<extra>{name} ({strategy})</extra>")
        )
        drops = [b for a, b in pairs if b["clean"] < a["clean"] and b not in changed]
        if drops:
            figure.add_trace(
                go.Scatter(
                    x=[label[d["run"]] for d in drops],
                    y=[d["clean"] for d in drops],
                    mode="markers",
                    marker=dict(size=16, color="rgba(0,0,0,0)", line=dict(color="#dc2626", width=3)),
                    name=f"{name}: score dropped",
                )
            )
        if changed:
            figure.add_trace(
                go.Scatter(
                    x=[label[c["run"]] for c in changed],
                    y=[c["clean"] for c in changed],
                    mode="markers",
                    marker=dict(size=16, symbol="square-open", color="#6b7280", line=dict(width=2)),
                    name=f"{name}: questions changed (not comparable)",
                )
            )
    for before, after in zip(order, order[1:]):
        if version[before] != version[after]:
            figure.add_vline(x=order.index(after) - 0.5, line=dict(color="#6b7280", dash="dot"))
            figure.add_annotation(x=order.index(after) - 0.5, y=1, yref="paper", text="new version of the file",
                                  showarrow=False, xanchor="left", yanchor="bottom", font=dict(size=11))
    figure.update_layout(height=340, margin=dict(t=30, b=10, l=10, r=10), xaxis_title="run",
                         yaxis_title="clean answers", legend=LEGEND_ON_TOP)
    figure.update_xaxes(automargin=True, type="category", categoryorder="array",
                        categoryarray=[label[run] for run in order])
    return figure
