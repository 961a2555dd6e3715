"""/metrics as a Prometheus user reads it: HELP and TYPE for every series, and the
process figures (CPU, memory, file descriptors, start time) of the live server."""

from __future__ import annotations

import time

import httpx

from tests.net.conftest import ServerProcess

PROCESS = (
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
    "process_virtual_memory_bytes",
    "process_open_fds",
    "process_max_fds",
    "process_start_time_seconds",
)


def test_every_series_has_help_and_type_and_the_process_figures_are_there(
    server: ServerProcess,
) -> None:
    text = httpx.get(server.url + "/metrics").text
    lines = text.splitlines()
    helped = {ln.split()[2] for ln in lines if ln.startswith("# HELP ")}
    typed = [ln.split()[2] for ln in lines if ln.startswith("# TYPE ")]
    assert typed and set(typed) <= helped, set(typed) - helped
    values = {ln.split()[0]: float(ln.split()[1]) for ln in lines if ln.startswith("process_")}
    assert set(values) == set(PROCESS)
    assert values["process_cpu_seconds_total"] > 0
    assert values["process_resident_memory_bytes"] > 10 * 2**20  # a Python server's RSS
    assert values["process_virtual_memory_bytes"] >= values["process_resident_memory_bytes"]
    assert 3 <= values["process_open_fds"] <= values["process_max_fds"]
    assert server.proc is not None
    # It started before this test and at most as long ago as the test module's server.
    assert time.time() - 600 < values["process_start_time_seconds"] < time.time()
