"""`python -m app` runs the `doppel` command line."""

import sys

from app.cli.compare import main

sys.exit(main())
