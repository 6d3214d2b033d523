"""``python -m workbench``: the command line."""

from workbench.output.cli import main

raise SystemExit(main())
