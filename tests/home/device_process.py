"""A process that is one Hearth's MQTT device and nothing else, so a test can kill it (-9).

``python -m tests.home.device_process URL ROOM``: connects, publishes ``standby``, prints
``connected`` once the broker has it, then waits until its standard input closes.
"""

from __future__ import annotations

import logging
import sys
import time

from assistant.home import DeviceState, MqttDevice
from config import MqttSettings


def main(url: str, room: str) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    settings = MqttSettings(url=url, room=room, reconnect_min_seconds=0.1,
                            reconnect_max_seconds=0.5)  # fmt: skip
    device = MqttDevice(settings)
    device.start()
    device.publish_state(DeviceState.STANDBY)
    while not device.connected:
        time.sleep(0.05)
    print("connected", flush=True)
    sys.stdin.read()
    device.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])
