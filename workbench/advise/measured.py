"""What trying a to-do item on a copy of the file measured (``advise/proof.py``), and how it is said."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Measured:
    """An item's edits applied to a copy of the file and graded again, with the same questions, under the setup
    the verdict recommends, each question counted as the verdict counts it (``grade/refusal.counted_right``):
    question numbers are the rows of the questions file."""

    setup: str  # the recommended setup's display name
    clean_before: int
    clean_after: int
    fixed: list[int] = field(default_factory=list)  # not clean before (or a false answer), clean (refused) after
    worse: list[int] = field(default_factory=list)  # clean (or refused) before, not after
    handed: list[int] = field(default_factory=list)  # of ``fixed``, questions the file cannot answer, now refused

    def as_dict(self) -> dict:
        return {"setup": self.setup, "clean_before": self.clean_before, "clean_after": self.clean_after,
                "fixed": list(self.fixed), "worse": list(self.worse)}

    def sentence(self) -> str:
        said = f"measured on a copy of your file: {self.clean_before} → {self.clean_after} clean"
        clean = [n for n in self.fixed if n not in self.handed]
        if clean:
            said += f", fixes question{'s' if len(clean) > 1 else ''} {', '.join(map(str, clean))}"
        if self.handed:
            many = len(self.handed) > 1
            said += (f", and question{'s' if many else ''} {', '.join(map(str, self.handed))}, which your file cannot "
                     f"answer, {'are' if many else 'is'} now handed to a person")
        if self.worse:
            said += f", makes question{'s' if len(self.worse) > 1 else ''} {', '.join(map(str, self.worse))} worse"
        return said
