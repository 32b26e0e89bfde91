"""``python -m assistant`` is the ``hearth`` command."""

import sys

from assistant.cli import main

sys.exit(main())
