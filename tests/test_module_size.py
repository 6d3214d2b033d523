"""The project's rule "no module over 400 lines", checked on every module of the engine, the app and its pages."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 400


def test_no_module_is_over_400_lines():
    modules = [path for folder in ("workbench", "ui", "pages") for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(modules) > 50  # the folders were found: the engine alone has more
    long = {str(path.relative_to(ROOT)): lines for path in modules
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert long == {}, f"split these by concern: {long}"
