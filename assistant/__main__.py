"""``python -m assistant`` is the ``hearth`` command."""

import sys

from assistant.console import main

sys.exit(main())
