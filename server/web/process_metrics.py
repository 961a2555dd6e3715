"""The process figures every Prometheus user expects (the `process_*` names of the
official clients): CPU seconds, resident and virtual memory, open and maximum file
descriptors, start time.

Read from /proc only when /metrics is asked for, so the hot path pays nothing; our own
few lines rather than prometheus_client's ProcessCollector, which reads the same files
(tests/bench/bench_metrics.py compares the two). Without /proc (not Linux) CPU time
comes from getrusage and the memory and descriptor lines are left out.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

PROC = Path("/proc/self")
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = resource.getpagesize()
STARTED = time.time()  # the fallback start time: when the server imported this module

HELP = {
    "process_cpu_seconds_total": ("counter", "Total user and system CPU time spent in seconds."),
    "process_resident_memory_bytes": ("gauge", "Resident memory size in bytes."),
    "process_virtual_memory_bytes": ("gauge", "Virtual memory size in bytes."),
    "process_open_fds": ("gauge", "Number of open file descriptors."),
    "process_max_fds": ("gauge", "Maximum number of open file descriptors."),
    "process_start_time_seconds": (
        "gauge",
        "Start time of the process since unix epoch in seconds.",
    ),
}


def boot_time() -> float:
    """When the machine booted (seconds since the epoch), from /proc/stat."""
    for line in (PROC.parent / "stat").read_text().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    raise OSError("no btime in /proc/stat")


def values() -> dict[str, float]:
    """The figures now, by metric name."""
    try:
        # Fields after the command name (which may hold spaces, hence the rpartition).
        fields = (PROC / "stat").read_text().rpartition(")")[2].split()
    except OSError:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "process_cpu_seconds_total": usage.ru_utime + usage.ru_stime,
            "process_start_time_seconds": STARTED,
        }
    # man 5 proc: utime=14, stime=15, starttime=22, vsize=23, rss=24 (1-based, from pid).
    utime, stime, start = int(fields[11]), int(fields[12]), int(fields[19])
    return {
        "process_cpu_seconds_total": (utime + stime) / TICKS,
        "process_resident_memory_bytes": float(int(fields[21]) * PAGE),
        "process_virtual_memory_bytes": float(int(fields[20])),
        "process_open_fds": float(len(os.listdir(PROC / "fd"))),
        "process_max_fds": float(resource.getrlimit(resource.RLIMIT_NOFILE)[0]),
        "process_start_time_seconds": boot_time() + start / TICKS,
    }


def lines() -> list[str]:
    """Prometheus lines (HELP, TYPE, value) for each figure."""
    out = []
    for name, value in values().items():
        kind, text = HELP[name]
        out += [f"# HELP {name} {text}", f"# TYPE {name} {kind}", f"{name} {float(value)!r}"]
    return out
