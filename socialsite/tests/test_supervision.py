"""What ``serve`` does with a process that dies (``socialsite.supervision``): it restarts it, later each time while
it keeps dying (0.5 s doubling to 30 s, 0.5 s again after a minute up), and logs how it died. Real child
processes; only the clock is the test's, so the delays are checked without waiting them out."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

from socialsite import supervision


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _delay(message: str) -> float:
    found = re.search(r"restarting it in ([0-9.]+) s", message)
    assert found, message
    return float(found[1])


def test_a_process_that_keeps_dying_is_restarted_ever_later_and_soon_again_after_a_minute_up():
    clock, log = Clock(), []
    child = supervision.ChildProcess("failing job", lambda: subprocess.Popen([sys.executable, "-c", "exit(3)"]))
    supervisor = supervision.Supervisor([child], log=log.append, clock=clock)
    supervisor.start()
    delays = []
    for _ in range(8):
        child.process.wait()
        supervisor.check()
        assert "exited with code 3; restarting it in" in log[-1]
        delays.append(_delay(log[-1]))
        supervisor.check()
        assert "Restarted" not in log[-1]  # not before its delay
        clock.now += delays[-1]
        supervisor.check()
        assert log[-1].startswith("Restarted the failing job (pid ")
    assert delays == [0.5, 1, 2, 4, 8, 16, 30, 30]

    clock.now += supervision.STABLE_SECONDS  # it ran a minute: the next death is restarted at once again
    child.process.wait()
    supervisor.check()
    assert _delay(log[-1]) == 0.5
    supervisor.stop(timeout=5)


def test_a_process_killed_by_a_signal_is_logged_with_the_signal_and_stopped_on_stop():
    clock, log = Clock(), []
    child = supervision.ChildProcess(
        "sleeper", lambda: subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    )
    supervisor = supervision.Supervisor([child], log=log.append, clock=clock)
    supervisor.start()
    first = child.pid
    os.kill(first, signal.SIGKILL)
    child.process.wait()
    supervisor.check()
    assert log == [f"The sleeper (pid {first}) was killed by signal SIGKILL; restarting it in 0.5 s."]
    clock.now += 0.5
    supervisor.check()
    second = child.process
    assert second.pid != first and second.poll() is None
    supervisor.stop(timeout=5)
    assert second.returncode == -signal.SIGTERM
