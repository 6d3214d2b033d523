"""Plotly figures of an evaluation. Builders return a figure; the app places it."""

from __future__ import annotations

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .evaluate import Evaluation, Run
from .model import Chunk

GRADE_COLOURS = {
    "clean": "#16a34a",
    "mixed": "#f59e0b",
    "missed": "#dc2626",
    "refused": "#6b7280",
    "false-answer": "#7c3aed",
}
GRADE_LABELS = {
    "clean": "clean",
    "mixed": "mixed",
    "missed": "missed",
    "refused": "refused",
    "false-answer": "false answer",
}


def _pick(evaluation: Evaluation, retriever: str) -> list[Run]:
    return [run for run in evaluation.runs if run.retriever == retriever]


def grades_bars(evaluation: Evaluation, retriever: str) -> go.Figure:
    """Stacked clean / mixed / missed / refused per strategy, one panel per reranker side by side."""
    runs = _pick(evaluation, retriever)
    rerankers = list(dict.fromkeys(run.reranker for run in runs))
    titles = [("no reranking" if r == "none" else f"reranked: {r}") for r in rerankers]
    figure = make_subplots(rows=1, cols=len(rerankers), shared_yaxes=True, subplot_titles=titles)
    for column, reranker in enumerate(rerankers, start=1):
        panel = [run for run in runs if run.reranker == reranker]
        for grade, colour in GRADE_COLOURS.items():
            figure.add_trace(
                go.Bar(
                    name=GRADE_LABELS[grade],
                    x=[run.strategy for run in panel],
                    y=[run.counts[grade] for run in panel],
                    marker_color=colour,
                    legendgroup=grade,
                    showlegend=column == 1,
                    hovertemplate="%{x}: %{y} " + GRADE_LABELS[grade] + "<extra></extra>",
                ),
                row=1,
                col=column,
            )
    figure.update_layout(barmode="stack", height=380, margin=dict(t=40, b=10), legend_title_text="answer")
    figure.update_yaxes(title_text="questions", row=1, col=1)
    return figure


def hit_curve(evaluation: Evaluation, retriever: str, reranker: str) -> go.Figure:
    """Hit rate at k for k = 1..10: how often the answer is somewhere in the top k pieces."""
    return _hit_rate_lines(evaluation, retriever, reranker, lambda run: list(range(1, 11)), "k (pieces handed to the bot)")


def budget_curve(evaluation: Evaluation, retriever: str, reranker: str) -> go.Figure:
    """Hit rate against the characters handed to the bot, k = 1..10: a fair fight at equal budget."""
    return _hit_rate_lines(
        evaluation, retriever, reranker, lambda run: run.context_curve, "characters handed to the bot (average per question)"
    )


def _hit_rate_lines(evaluation: Evaluation, retriever: str, reranker: str, x, x_title: str) -> go.Figure:
    figure = go.Figure()
    for run in evaluation.runs:
        if run.retriever == retriever and run.reranker == reranker:
            figure.add_trace(
                go.Scatter(
                    x=x(run),
                    y=run.hit_curve,
                    mode="lines+markers",
                    name=run.strategy,
                    customdata=[[k, chars] for k, chars in zip(range(1, 11), run.context_curve)],
                    hovertemplate="k=%{customdata[0]}: %{customdata[1]:.0f} characters, hit rate %{y:.2f}"
                    "<extra>" + run.strategy + "</extra>",
                )
            )
    figure.update_layout(height=340, margin=dict(t=20, b=10), xaxis_title=x_title, yaxis_title="hit rate",
                         yaxis_range=[0, 1.05])
    return figure


def grade_grid(evaluation: Evaluation, retriever: str, reranker: str) -> go.Figure:
    """Question x strategy, each cell coloured by its grade, so a failing question is easy to point at."""
    runs = [run for run in evaluation.runs if run.retriever == retriever and run.reranker == reranker]
    grades = list(GRADE_COLOURS)
    if not runs:
        return go.Figure()
    labels = [f"{r.question.row or i + 1}. {r.question.question[:60]}" for i, r in enumerate(runs[0].per_question)]
    z = [[grades.index(run.per_question[q].grade) for run in runs] for q in range(len(labels))]
    text = [
        [GRADE_LABELS[run.per_question[q].grade] + (f" ({run.per_question[q].reason})" if run.per_question[q].reason else "")
         for run in runs]
        for q in range(len(labels))
    ]
    n = len(grades)
    scale = []
    for index, grade in enumerate(grades):  # a stepped colour scale: one flat band per grade
        scale += [(index / n, GRADE_COLOURS[grade]), ((index + 1) / n, GRADE_COLOURS[grade])]
    figure = go.Figure(
        go.Heatmap(
            z=z,
            x=[run.strategy for run in runs],
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
    figure.update_layout(height=max(260, 24 * len(labels) + 80), margin=dict(t=20, b=10), yaxis_autorange="reversed")
    return figure


def size_histogram(chunks: list[Chunk], strategy: str) -> go.Figure:
    figure = go.Figure(go.Histogram(x=[chunk.size for chunk in chunks], nbinsx=20, marker_color="#3b82f6"))
    figure.update_layout(
        height=180, margin=dict(t=24, b=0, l=0, r=0), title_text=f"{strategy}: piece sizes", title_font_size=12,
        xaxis_title="characters", yaxis_title="pieces", bargap=0.05,
    )
    return figure


def history_chart(series: list[dict], retriever: str, reranker: str) -> go.Figure:
    """Clean answers per saved run, one line per strategy; a red ring marks a run where the score dropped."""
    figure = go.Figure()
    rows = [row for row in series if row["retriever"] == retriever and row["reranker"] == reranker]
    for strategy in dict.fromkeys(row["strategy"] for row in rows):
        points = [row for row in rows if row["strategy"] == strategy]
        figure.add_trace(
            go.Scatter(x=[p["run"] for p in points], y=[p["clean"] for p in points], mode="lines+markers", name=strategy)
        )
        drops = [b for a, b in zip(points, points[1:]) if b["clean"] < a["clean"]]
        if drops:
            figure.add_trace(
                go.Scatter(
                    x=[d["run"] for d in drops],
                    y=[d["clean"] for d in drops],
                    mode="markers",
                    marker=dict(size=16, color="rgba(0,0,0,0)", line=dict(color="#dc2626", width=3)),
                    name=f"{strategy}: score dropped",
                )
            )
    figure.update_layout(height=320, margin=dict(t=20, b=10), xaxis_title="run", yaxis_title="clean answers")
    return figure
