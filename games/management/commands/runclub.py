"""``manage.py runclub``: the whole club on one machine with one command.

Applies migrations, installs the default rulesets, creates the demo club on first run, then
runs daphne (HTTP + WebSocket), a Celery worker and Celery beat as child processes until
Ctrl-C / SIGTERM, when it stops every child (and their own children) before exiting.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

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
        self._prepare(no_demo=no_demo)
        children = self._start_children(host, port, worker_concurrency)
        self._announce(host, port, children, show_demo=not no_demo)
        exit_code = self._supervise(children)
        if exit_code:
            raise CommandError("a child process stopped unexpectedly; everything was shut down")

    # --- preparation ------------------------------------------------------------------------

    def _prepare(self, *, no_demo: bool) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        if "channels" in settings.DATABASES:
            call_command("migrate", database="channels", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        from games.services.rulesets import rulesets_install_defaults

        installed = rulesets_install_defaults()
        if installed:
            self.stdout.write(f"Installed {len(installed)} default ruleset(s).")
        if not no_demo:
            from games.services.demo import demo_club_ensure

            demo_club_ensure()

    # --- children ---------------------------------------------------------------------------

    def _start_children(
        self, host: str, port: int, concurrency: int
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
        for name, command in commands.items():
            # Each child leads its own process group, so stopping it also stops whatever it
            # forked (Celery's pool processes) and a terminal's Ctrl-C reaches only us.
            children[name] = subprocess.Popen(command, env=env, start_new_session=True)
        return children

    def _announce(self, host, port, children, *, show_demo: bool) -> None:
        shown_host = f"[{host}]" if ":" in host else host
        self.stdout.write(
            self.style.SUCCESS(f"Napad Club is running at http://{shown_host}:{port}/")
        )
        for name, child in children.items():
            self.stdout.write(f"  {name} pid {child.pid}")
        if show_demo:
            from games.services.demo import demo_logins

            logins = demo_logins()
            if logins:
                self.stdout.write("Demo members (username / password):")
                for username, password in logins:
                    self.stdout.write(f"  {username} / {password}")
        self.stdout.write("Press Ctrl-C to stop.")
        self.stdout.flush()

    def _supervise(self, children: dict[str, subprocess.Popen]) -> int:
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
                        self.stderr.write(f"{name} exited with code {child.returncode}")
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
