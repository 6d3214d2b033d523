"""The colours and words of the grades and of the strategies' lines, shared by the app's charts and the report."""

GRADE_COLOURS = {
    "clean": "#16a34a",
    "mixed": "#f59e0b",
    "missed": "#dc2626",
    "refused": "#6b7280",
    "false-answer": "#7c3aed",
}
# One colour per line, told apart in print and by most colour-blind readers (Okabe-Ito, then Tableau).
LINE_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000", "#b8860b",
                "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd", "#e377c2"]
GRADE_LABELS = {
    "clean": "clean",
    "mixed": "mixed",
    "missed": "missed",
    "refused": "refused",
    "false-answer": "false answer",
}


def line_colour(index: int) -> str:
    return LINE_COLOURS[index % len(LINE_COLOURS)]
