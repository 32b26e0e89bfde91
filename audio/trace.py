"""Wall-clock marks for latency work, off unless ``HEARTH_TRACE`` is set (to anything but 0).

``bench.turn`` sets it to see where the time goes between the end of a request and the first audio
of its reply. A mark is one more event in the stream, ``{"t", "event": "trace", "mark", "at"}``
(and a few fields of its own), ``at`` being ``time.monotonic()`` seconds: one clock for every
process on the machine, so a mark made in the voice process and one made in the supervisor can be
subtracted. Off, a mark costs the test of one module constant.
"""

from __future__ import annotations

import os

ENABLED = os.environ.get("HEARTH_TRACE", "") not in ("", "0")
"""Read once at import: the spawned voice process inherits the variable with the environment."""
