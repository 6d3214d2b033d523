"""``python -m workbench``: the command line."""

from .cli import main

raise SystemExit(main())
