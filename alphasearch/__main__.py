"""``python -m alphasearch``: the command line (:mod:`alphasearch.cli.main`)."""
import sys

from .cli.main import main

sys.exit(main())
