"""Top-level URLs: admin, accounts, language switch, health check, and the games app."""

from django.contrib import admin
from django.urls import include, path

from games.api import urls as api_urls
from games.forms.accounts import AdminLoginForm
from games.views import accounts, api_tokens, health, members

# The admin checks the same passwords as the site, so it is throttled the same way.
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    # The language switch also saves a member's choice in their profile.
    path("i18n/setlang/", accounts.set_language, name="set_language"),
    path("healthz", health.healthz, name="healthz"),
    # Ours first: log-in and password resets are limited (games/limits.py), the reset link is
    # the site's; the rest are Django's auth views with our templates.
    path("accounts/login/", accounts.login_view, name="login"),
    path("accounts/password_reset/", accounts.password_reset_view, name="password_reset"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/api-tokens/", api_tokens.api_tokens, name="api_tokens"),
    path(
        "accounts/api-tokens/<id:token_id>/revoke",
        api_tokens.api_token_revoke_view,
        name="api_token_revoke",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("members/", members.member_list, name="member_list"),
    path("members/<str:username>/", members.member_detail, name="member_detail"),
    path("api/", api_urls),
    path("", include("games.urls")),
]
