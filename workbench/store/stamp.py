"""What a result was computed from, so a page never shows an old result as the current one."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace

from workbench.core.model import Settings

# Settings that change every configuration's numbers; the lists of strategies, searches and
# second looks only choose which configurations are run, so runs that differ there still compare.
SCORING = ("top_k", "size", "overlap", "threshold", "depth", "reranker_model")


# One file of what a result was computed from: its name, the bytes, the sheet and name column (None: as found).
Reading = tuple[str, bytes, str | None, str | None]


@dataclass(frozen=True)
class Stamp:
    document: str  # the file name; a knowledge base's files' names joined by " + "
    content: str  # sha256 of the file's bytes; of a base, of every file's hash and name in order
    sheet: str | None
    name_column: str | None
    questions: str  # sha256 of the questions as CSV
    question_count: int
    settings: str  # the Settings, as JSON
    files: tuple[tuple[str, str, str | None, str | None], ...] = ()  # a base: (name, sha256, sheet, column) per file

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

    @classmethod
    def of_files(cls, files: list[Reading], questions_csv: str, question_count: int, settings: Settings) -> Stamp:
        """The stamp of one file (``of``), or of a knowledge base: bound to every file's bytes, reading and place."""
        if len(files) == 1:
            return cls.of(*files[0], questions_csv, question_count, settings)
        from workbench.store.workspace import BASE_SEPARATOR, base_key

        own = tuple((name, hashlib.sha256(data).hexdigest(), sheet, column) for name, data, sheet, column in files)
        single = cls.of(BASE_SEPARATOR.join(name for name, *_ in own), b"", None, None, questions_csv, question_count,
                        settings)
        return replace(single, content=base_key([(name, data) for name, data, *_ in files]), files=own)

    def describe(self) -> str:
        """'price_list.csv (sheet Products) with 24 questions', for the screen."""
        sheet = f" (sheet {self.sheet})" if self.sheet else ""
        return f"{self.document}{sheet} with {self.question_count} question{'' if self.question_count == 1 else 's'}"

    def changes(self, now: Stamp) -> list[str]:
        """What differs between the inputs of this result and ``now``, in plain words; empty when it is current."""
        said = []
        if self.files and now.files:  # two knowledge bases: which file was added, removed or replaced
            said += _file_changes(self.files, now.files)
            if self.questions != now.questions:
                said.append("the questions were edited" if {f[0] for f in self.files} == {f[0] for f in now.files}
                            else "the questions are the other files' own")
            if self.settings != now.settings:
                said.append("the settings were changed")
            return said
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


# Each setting in the words of the Results page's settings panel.
SETTING_WORDS = {"strategies": "ways of cutting", "retrievers": "searches", "rerankers": "re-checks",
                 "top_k": "pieces handed to the bot (k)", "size": "window size", "overlap": "window overlap",
                 "threshold": "refusal threshold", "depth": "shortlist", "reranker_model": "cross-encoder model"}


def same_inputs(one: Stamp, other: Stamp) -> bool:
    """Whether two results were computed from the same file(s), reading and questions (settings aside)."""
    return replace(one, settings="") == replace(other, settings="")


def settings_changed(old: Stamp, now: Stamp) -> list[str]:
    """Which settings differ between two results, in the settings panel's words ("pieces handed to the bot (k)")."""
    before, after = json.loads(old.settings or "{}"), json.loads(now.settings or "{}")
    return [SETTING_WORDS.get(name, name) for name in after if before.get(name) != after.get(name)]


def _file_changes(old: tuple, new: tuple) -> list[str]:
    """What differs between two knowledge bases, file by file, in plain words."""
    said = []
    before, after = {f[0]: f for f in old}, {f[0]: f for f in new}
    added = [name for name in after if name not in before]
    removed = [name for name in before if name not in after]
    if added:
        said.append(f"{', '.join(added)} {'was' if len(added) == 1 else 'were'} added")
    if removed:
        said.append(f"{', '.join(removed)} {'was' if len(removed) == 1 else 'were'} removed")
    for name in after:
        if name in before and before[name][1] != after[name][1]:
            said.append(f"{name} has been replaced by another version")
        elif name in before and before[name][2:] != after[name][2:]:
            said.append(f"the sheet or the product-name column of {name} was changed")
    if not said and [f[0] for f in old] != [f[0] for f in new]:
        said.append("the files are in another order")
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
