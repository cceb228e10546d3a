"""`python -m app` runs the `doppel` command line."""

import sys

from app.cli import main

sys.exit(main())
