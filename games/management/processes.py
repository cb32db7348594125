"""Process plumbing for ``manage.py runclub``: children that end with their parent, and the
name of whoever holds a port.

Children die with runclub whatever killed it. On a normal stop runclub stops them itself; if
runclub is killed outright (``kill -9``, an OOM kill, a closed terminal) Linux sends each
child SIGTERM (``PR_SET_PDEATHSIG``, set between fork and exec), and each stops the way it
does on SIGTERM (Celery's worker stops its own pool). Elsewhere (not Linux) only the normal
stop applies.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

PR_SET_PDEATHSIG = 1


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child receive SIGTERM when this process dies (Linux),
    or ``None`` where the kernel offers no such thing."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    parent = os.getpid()

    def preexec() -> None:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        # The parent may have died between fork and prctl: then nobody will signal us.
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


def _listening_inodes(port: int) -> set[str]:
    """Socket inodes listening on TCP ``port`` (any address), from /proc/net."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            # State 0A is LISTEN; the local address ends with the port in hex.
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:
                inodes.add(inode)
    return inodes


def port_holder(port: int) -> str | None:
    """Who listens on ``port``: "pid 1234 (python -m daphne …)", or ``None`` if nobody this
    user may see (another user's process, or not Linux)."""
    inodes = _listening_inodes(port)
    if not inodes:
        return None
    wanted = {f"socket:[{inode}]" for inode in inodes}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = {os.readlink(fd) for fd in (entry / "fd").iterdir()}
        except OSError:
            continue
        if links & wanted:
            try:
                raw = (entry / "cmdline").read_bytes()
                command = raw.replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                command = ""
            return f"pid {entry.name} ({command[:120] or 'unknown command'})"
    return None
