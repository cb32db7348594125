"""Authentication: Django's ``ModelBackend``, reading a member's ``Player`` with their user.

Every request of a member — a page, a fragment, a move, a socket's handshake — loads the user
from the session, and then almost always their ``Player`` (the seat they hold, their language
and time zone, the bell). ``select_related`` reads both in the one query Django makes anyway.
A user without a profile (an admin made with ``createsuperuser``) still loads: asking for
``user.player`` then raises ``DoesNotExist``, as without this backend.

Django's own ``ModelBackend`` stays listed after this one in ``AUTHENTICATION_BACKENDS``: a
session opened before this backend names Django's, and Django loads a session's user with the
backend the session names — so nobody is logged out by the change.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied


class PlayerModelBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            # Refused here is refused: without this, Django would ask the ModelBackend listed
            # next, which checks the same password again (a second slow hash per wrong try).
            raise PermissionDenied
        return user

    def get_user(self, user_id):
        users = get_user_model().objects.select_related("player")
        try:
            user = users.get(pk=user_id)
        except get_user_model().DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
