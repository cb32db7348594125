"""The floor every request is compared with: a logged-in request that writes one row and
renders a small template — the least a useful request does through the same middleware. The
move path POSTs to it, the page figures GET it (the same work either way).

Routed only inside a bench run (``benchmarks.urls``); the site's URLs never include it.
"""

from __future__ import annotations

from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.views.decorators.http import require_http_methods

# Compiled once, like a cached template loader would in production.
BASELINE_TEMPLATE = engines["django"].from_string(
    '<section id="bench-baseline"><p>{{ user.get_username }} wrote entry {{ entry.pk }}'
    " at {{ entry.action_time|date:'H:i:s' }}.</p>"
    "<ul>{% for n in numbers %}<li>{{ n }}</li>{% endfor %}</ul></section>"
)


@login_required
@require_http_methods(["GET", "POST"])
def bench_baseline(request: HttpRequest) -> HttpResponse:
    # The admin's log table is a plain existing table: one INSERT, no signals, no side effects.
    entry = LogEntry.objects.create(
        user_id=request.user.pk,
        action_flag=ADDITION,
        object_repr=(request.POST.get("note") or request.GET.get("note") or "bench")[:200],
    )
    html = BASELINE_TEMPLATE.render(
        {"user": request.user, "entry": entry, "numbers": range(5)}, request
    )
    return HttpResponse(html)
