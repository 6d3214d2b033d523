"""What a result was computed from, so a page never shows an old result as the current one."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from workbench.core.model import Settings

# Settings that change every configuration's numbers; the lists of strategies, searches and
# second looks only choose which configurations are run, so runs that differ there still compare.
SCORING = ("top_k", "size", "overlap", "threshold", "depth", "reranker_model")


@dataclass(frozen=True)
class Stamp:
    document: str  # the file name
    content: str  # sha256 of the file's bytes
    sheet: str | None
    name_column: str | None
    questions: str  # sha256 of the questions as CSV
    question_count: int
    settings: str  # the Settings, as JSON

    @classmethod
    def of(cls, name: str, data: bytes, sheet: str | None, name_column: str | None, questions_csv: str,
           question_count: int, settings: Settings) -> Stamp:
        return cls(
            document=name,
            content=hashlib.sha256(data).hexdigest(),
            sheet=sheet,
            name_column=name_column,
            questions=hashlib.sha256(questions_csv.encode("utf-8")).hexdigest(),
            question_count=question_count,
            settings=json.dumps(asdict(settings), sort_keys=True, default=str),
        )

    def describe(self) -> str:
        """'price_list.csv (sheet Products) with 24 questions', for the screen."""
        sheet = f" (sheet {self.sheet})" if self.sheet else ""
        return f"{self.document}{sheet} with {self.question_count} question{'' if self.question_count == 1 else 's'}"

    def changes(self, now: Stamp) -> list[str]:
        """What differs between the inputs of this result and ``now``, in plain words; empty when it is current."""
        said = []
        if self.document != now.document:
            said.append(f"the document is now {now.document}")
        elif self.content != now.content:
            said.append(f"{now.document} has been replaced by another version")
        if (self.sheet, self.name_column) != (now.sheet, now.name_column) and self.content == now.content:
            said.append("the sheet or the product-name column was changed")
        if self.questions != now.questions and self.document == now.document:
            said.append("the questions were edited")  # another file comes with its own: "edited" would be untrue
        if self.settings != now.settings:
            said.append("the settings were changed")
        return said


def scoring_settings(settings: dict | str) -> dict:
    """The part of saved settings that decides the numbers (see ``SCORING``)."""
    values = json.loads(settings) if isinstance(settings, str) else settings
    return {key: values.get(key) for key in SCORING}


def comparable_runs(series: list[dict], questions_hash: str, settings: dict | str) -> list[dict]:
    """The history rows that can sit on one chart with a result: same questions, same scoring settings.

    A run with other questions or another threshold would show a false rise or drop.
    """
    wanted = scoring_settings(settings)
    return [
        row for row in series
        if row.get("questions_hash") == questions_hash and scoring_settings(row.get("settings") or "{}") == wanted
    ]
