"""``manage.py runclub``: the whole club on one machine with one command.

Applies migrations, installs the default rulesets, creates the demo club on first run, then
runs daphne (HTTP + WebSocket), a Celery worker and Celery beat as child processes until
Ctrl-C / SIGTERM, when it stops every child (and their own children) before exiting. If
runclub itself is killed, its children end too (games/management/processes.py).

The terminal shows what a person needs — the address, the demo logins, how to stop —; what
the processes say (Celery's banner, daphne's notices, warnings, runclub's own log) goes to
``var/log/`` (``runclub.log``, ``daphne.log``, ``worker.log``, ``beat.log``), and the
process ids to ``var/runclub.json``.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from games.management.processes import die_with_parent, port_holder

# How long children get to stop cleanly before they are killed.
STOP_GRACE_SECONDS = 10


class Command(BaseCommand):
    help = "Run the whole club on this machine: site, WebSockets, Celery worker and beat."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-demo", action="store_true", help="Do not create demo data.")
        parser.add_argument(
            "--worker-concurrency", type=int, default=2, help="Celery worker processes."
        )

    def handle(self, *args, host, port, no_demo, worker_concurrency, **options):
        log_dir = Path(settings.VAR_DIR) / "log"
        log_dir.mkdir(parents=True, exist_ok=True)
        _log_to(log_dir / "runclub.log")
        _port_check(host, port)
        self._prepare(no_demo=no_demo)
        children = self._start_children(host, port, worker_concurrency, log_dir)
        _pids_write(children)
        self._announce(host, port, log_dir, show_demo=not no_demo)
        exit_code = self._supervise(children, log_dir)
        if exit_code:
            raise CommandError(
                f"a child process stopped unexpectedly; everything was shut down (see {log_dir})"
            )

    # --- preparation ------------------------------------------------------------------------

    def _prepare(self, *, no_demo: bool) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        if "channels" in settings.DATABASES:
            call_command("migrate", database="channels", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        from games.services.rulesets import rulesets_install_defaults

        installed = rulesets_install_defaults()
        if installed:
            logging.getLogger(__name__).info("installed %s default ruleset(s)", len(installed))
        if not no_demo:
            from games.services.demo import demo_club_ensure, demo_organiser_ensure

            demo_club_ensure()
            demo_organiser_ensure()

    # --- children ---------------------------------------------------------------------------

    def _start_children(
        self, host: str, port: int, concurrency: int, log_dir: Path
    ) -> dict[str, subprocess.Popen]:
        python = sys.executable
        var_dir = Path(settings.VAR_DIR)
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ.get(
                "DJANGO_SETTINGS_MODULE", "napad_site.settings"
            ),
        }
        commands = {
            "daphne": [
                python,
                "-m",
                "daphne",
                "-b",
                host,
                "-p",
                str(port),
                "napad_site.asgi:application",
            ],
            "worker": [
                python,
                "-m",
                "celery",
                "-A",
                "napad_site",
                "worker",
                "--loglevel=INFO",
                f"--concurrency={concurrency}",
                "--hostname=napad@%h",
            ],
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "napad_site",
                "beat",
                "--loglevel=INFO",
                f"--schedule={var_dir / 'celerybeat-schedule'}",
            ],
        }
        children: dict[str, subprocess.Popen] = {}
        preexec = die_with_parent()
        for name, command in commands.items():
            # Each child leads its own process group, so stopping it also stops whatever it
            # forked (Celery's pool processes) and a terminal's Ctrl-C reaches only us; it
            # gets SIGTERM if we die without stopping it.
            with (log_dir / f"{name}.log").open("ab") as log:
                children[name] = subprocess.Popen(
                    command,
                    env=env,
                    start_new_session=True,
                    preexec_fn=preexec,  # safe: runclub starts no threads
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
        return children

    def _announce(self, host, port, log_dir: Path, *, show_demo: bool) -> None:
        shown_host = f"[{host}]" if ":" in host else host
        base = f"http://{shown_host}:{port}/"
        self.stdout.write(self.style.SUCCESS(f"Napad Club is running at {base}"))
        if show_demo:
            from games.services.demo import demo_logins, demo_organiser_login

            logins = demo_logins()
            if logins:
                self.stdout.write("Demo members (username / password):")
                for username, password in logins:
                    self.stdout.write(f"  {username} / {password}")
            organiser = demo_organiser_login()
            if organiser:
                self.stdout.write(f"Demo organiser, staff (the admin at {base}admin/):")
                self.stdout.write(f"  {organiser[0]} / {organiser[1]}")
        self.stdout.write(f"Logs: {log_dir}/")
        self.stdout.write("Press Ctrl-C to stop.")
        self.stdout.flush()

    def _supervise(self, children: dict[str, subprocess.Popen], log_dir: Path) -> int:
        stopping = False

        def request_stop(signum, frame):
            nonlocal stopping
            stopping = True

        previous = {
            sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        exit_code = 0
        try:
            while not stopping:
                for name, child in children.items():
                    if child.poll() is not None:
                        self.stderr.write(
                            f"{name} exited with code {child.returncode}; "
                            f"its log: {log_dir / f'{name}.log'}"
                        )
                        exit_code = 1
                        stopping = True
                        break
                time.sleep(0.2)
        finally:
            self.stdout.write("Stopping…")
            self._stop_children(children)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        self.stdout.write("Stopped.")
        return exit_code

    def _stop_children(self, children: dict[str, subprocess.Popen]) -> None:
        for child in children.values():
            # The leader only: Celery's worker then stops its own pool processes cleanly.
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in children.values():
            remaining = max(0.0, deadline - time.monotonic())
            try:
                child.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                pass
        for child in children.values():
            # Also sweeps up grandchildren that outlived their parent.
            _signal_group(child, signal.SIGKILL)
            child.wait()


def _signal_group(child: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(child.pid, sig)
    except ProcessLookupError:
        pass


def _log_to(path: Path) -> None:
    """This process's own log lines and warnings (kombu's, the ORM's) go to ``path``."""
    handler = logging.FileHandler(path)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        if isinstance(old, logging.StreamHandler) and not isinstance(old, logging.FileHandler):
            root.removeHandler(old)
    root.addHandler(handler)
    logging.captureWarnings(True)


def _port_check(host: str, port: int) -> None:
    """Refuse to start when the port is taken, saying who holds it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As daphne binds (Twisted sets SO_REUSEADDR): a port left in TIME_WAIT is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise CommandError(f"cannot listen on {host}:{port}: {error.strerror}") from None
            holder = port_holder(port)
            who = f"by {holder}" if holder else "by another program (this user cannot see it)"
            raise CommandError(
                f"port {port} on {host} is already in use {who}. Stop it, or start on "
                f"another port: manage.py runclub --port {port + 1}"
            ) from None


def _pids_write(children: dict[str, subprocess.Popen]) -> None:
    """Who runs the club, for scripts and for a person wondering what is still running."""
    data = {"runclub": os.getpid(), **{name: child.pid for name, child in children.items()}}
    (Path(settings.VAR_DIR) / "runclub.json").write_text(json.dumps(data))
