"""Web Push (issue 17): "your turn", the reminder ladder and table notices on a phone's lock
screen, through the same rules as the bell and the email (presence, quiet hours, once).

- ``devices``: the browsers a member turned push on in (subscribe, list, remove).
- ``outbox``: the hooks that *owe* a push — a row written in the transaction that caused it.
- ``sending``: claims owed pushes, holds back what must wait or no longer matters, encrypts
  (RFC 8291) and signs (VAPID, RFC 8292) what goes out; a device gone (404/410) is deleted.

Import the submodules directly: ``outbox`` is imported by the play, notification and reminder
services, and ``sending`` imports what they import.
"""
