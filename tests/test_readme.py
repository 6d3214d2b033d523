"""The README's example output is what the command line prints, and the benchmarks' imports are installable."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions

from .conftest import ROOT, bench_module


def load_examples():
    return bench_module("readme_examples")


def test_readme_examples_are_pasted_from_the_real_command_line():
    examples = load_examples()
    text = examples.README.read_text(encoding="utf-8")
    blocks = examples.BLOCK.findall(text)
    assert blocks, "the README shows no command-line example"
    assert examples.rendered(text) == text, "run python bench/readme_examples.py and commit README.md"


def test_an_edited_example_is_caught():
    examples = load_examples()
    text = examples.README.read_text(encoding="utf-8")
    edited = text.replace(", 0 false answers", "", 1)
    assert edited != text and examples.rendered(edited) != edited


def requirement_names() -> set[str]:
    names = set()
    for file in ("requirements.txt", "requirements-dev.txt"):
        for line in (ROOT / file).read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line and not line.startswith("-r"):
                names.add(re.split(r"[=<>\[; ]", line, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def test_every_package_the_benchmarks_import_is_in_a_requirements_file():
    required = requirement_names()
    distributions = packages_distributions()
    missing = []
    scripts = sorted((ROOT / "bench").glob("*.py"))
    siblings = {script.stem for script in scripts}  # bench scripts import each other by name
    for script in scripts:
        for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            )
            for module in modules:
                top = module.split(".")[0]
                local = (ROOT / top).is_dir()  # the project's own packages (tests)
                if top in sys.stdlib_module_names or top == "workbench" or top in siblings or local:
                    continue
                dists = {d.lower().replace("_", "-") for d in distributions.get(top, [top])}
                if not dists & required:
                    missing.append(f"{script.name}: {top}")
    assert missing == []


def test_every_name_a_benchmark_imports_from_the_workbench_exists():
    """A benchmark is run by hand, so a name it imports that the code no longer has (the defaults' old lists) goes
    unseen until someone runs it. Its imports, and those of the code it runs in a child process (a string), are
    looked up here."""
    import importlib

    def imports(tree):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("workbench"):
                yield node.module, [alias.name for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "from workbench" in node.value:
                try:
                    yield from imports(ast.parse(node.value))
                except SyntaxError:
                    continue

    def submodule(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # its parent is a module, not a package
            return False

    missing = []
    for path in sorted((ROOT / "bench").glob("*.py")):
        for module, names in imports(ast.parse(path.read_text(encoding="utf-8"))):
            loaded = importlib.import_module(module)
            missing += [f"{path.name}: {module}.{name}" for name in names
                        if not hasattr(loaded, name) and not submodule(f"{module}.{name}")]
    assert not missing, missing
