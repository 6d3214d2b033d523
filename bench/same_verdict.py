"""The command line, the app and the benchmark on one file each: the same status and recommended setup?

    python bench/same_verdict.py                      # the sample (Markdown and CSV) and every file with questions
    python bench/same_verdict.py --list               # the files it would check, one a line
    python bench/same_verdict.py vendure_mock_products.csv

For each file with a question set (``sample_data/``, ``../shared/real-data`` with ``bench/questions``, and the
project's own files in other languages, ``tests/data/real`` and ``tests/data/written``): the plain
``python -m workbench evaluate FILE --questions Q`` (no setup flags, its JSON), the app's Results (its settings on a
first visit and its engine call, ``ui.running.run_evaluation``, through Streamlit's AppTest) and
``bench/default_setup.py``'s own run in its own process. One JSON line a file; "agree" is whether the three match.
The model's setups make the first run of a file slow (minutes on the larger files); the embedding cache makes the
next ones take seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL_DATA = ROOT.parent / "shared" / "real-data"


def pairs() -> list[tuple[Path, Path]]:
    from workbench.read.loaders import SUPPORTED  # every format the app reads (.xlsx too), from its one registry

    sample = ROOT / "sample_data"
    found = [(sample / "breezy_home_price_list.md", sample / "breezy_home_questions.csv"),
             (sample / "breezy_home_price_list.csv", sample / "breezy_home_questions.csv")]
    if REAL_DATA.is_dir():
        found += [(path, ROOT / "bench" / "questions" / f"{path.stem}.questions.csv") for path in sorted(REAL_DATA.iterdir())
                  if (ROOT / "bench" / "questions" / f"{path.stem}.questions.csv").is_file()]
    for folder in (ROOT / "tests" / "data" / "real", ROOT / "tests" / "data" / "written"):  # other languages
        found += [(path, path.with_name(f"{path.stem}.questions.csv")) for path in sorted(folder.iterdir())
                  if path.suffix.lower() in SUPPORTED and not path.name.endswith(".questions.csv")
                  and path.with_name(f"{path.stem}.questions.csv").is_file()]
    return found


def main() -> int:
    sys.path.insert(0, str(ROOT))
    folder = tempfile.mkdtemp(prefix="same-verdict-")  # the app as on a first visit: no saved settings, no history
    os.environ["WORKBENCH_WORKSPACE_DB"] = os.path.join(folder, "workspace.sqlite")
    os.environ["WORKBENCH_HISTORY_DB"] = os.path.join(folder, "history.sqlite")
    from tests.test_defaults import app_verdict, bench_verdict  # the test's own three ways in

    only = sys.argv[1:]
    if only == ["--list"]:
        print("\n".join(str(path.relative_to(ROOT.parent) if ROOT.parent in path.parents else path) for path, _ in pairs()))
        return 0
    agreed = True
    for path, questions in pairs():
        if only and path.name not in only:
            continue
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "workbench", "evaluate", str(path), "--questions", str(questions),
                               "--no-history", "--format", "json"], cwd=ROOT, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"evaluate {path.name} failed:\n{done.stderr}")
        verdict = json.loads(done.stdout)["verdict"]
        setup = verdict["setup"]
        cli = [verdict["status"], setup["strategy"], setup["retriever"], setup["reranker"]]
        seconds = time.perf_counter() - started
        app, bench = list(app_verdict(path, questions)), list(bench_verdict(path, questions))
        agreed &= cli == app == bench
        print(json.dumps({"file": path.name, "cli": cli, "app": app, "bench": bench, "agree": cli == app == bench,
                          "clean": f"{verdict['clean']}/{verdict['answerable']}", "cli_seconds": round(seconds, 1)}),
              flush=True)
    return 0 if agreed else 1


if __name__ == "__main__":
    sys.exit(main())
