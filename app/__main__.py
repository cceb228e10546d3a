"""`python -m app` is the `doppel` command."""

import sys

from app.launcher import main

sys.exit(main())
