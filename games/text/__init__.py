"""Words in and out: what the site says in the reader's language and how it reads what people
type. ``wording`` turns the engines' phrases, action labels and stored notifications into
words; ``bots`` names the bot levels people choose (easy, medium, hard) over the engines' bot
names; ``parsing`` reads whole numbers as ASCII digits only (``strict_int``);
``django_messages`` marks Django's own account messages again for the club's catalogues. This
package sits just above the engines and below the models (a notification says itself through
``wording``, a league's rules check their numbers with ``parsing``), so nothing here imports a
model, a selector or a service.
"""
