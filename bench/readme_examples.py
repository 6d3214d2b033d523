"""Write the README's example outputs from the real command line, so they are pasted, never edited.

    python bench/readme_examples.py          # rewrite the examples in README.md
    python bench/readme_examples.py --check  # exit 1 when an example differs (tests/test_readme.py)

An example is a ```text block whose first line starts with "$ python -m workbench"; the command
(with its "\\" continuation lines) is run from the project folder with no history, and everything
after it in the block is replaced by what it prints.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BLOCK = re.compile(r"```text\n(\$ python -m workbench .*?)```", re.DOTALL)


def command_of(block: str) -> tuple[str, list[str]]:
    """The command lines as written, and its arguments."""
    lines = block.split("\n")
    taken = [lines[0]]
    while taken[-1].endswith("\\"):
        taken.append(lines[len(taken)])
    words = shlex.split(" ".join(line.rstrip("\\") for line in taken)[2:])
    return "\n".join(taken), words


def output_of(words: list[str]) -> str:
    arguments = words[3:]  # after "python -m workbench"
    if arguments and arguments[0] == "evaluate" and "--no-history" not in arguments:
        arguments.append("--no-history")  # an example must not depend on (or write) anyone's history
    done = subprocess.run([sys.executable, "-m", "workbench", *arguments], cwd=ROOT, capture_output=True, text=True)
    return done.stdout


def rendered(text: str) -> str:
    def replace(match: re.Match) -> str:
        shown, words = command_of(match.group(1))
        return f"```text\n{shown}\n{output_of(words)}```"

    return BLOCK.sub(replace, text)


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = rendered(text)
    if "--check" in sys.argv:
        if new != text:
            print("README.md examples differ from what the command line prints: run python bench/readme_examples.py")
            return 1
        return 0
    README.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
