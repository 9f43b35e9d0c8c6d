"""Play by email: read orders from a mailbox, answer every message, keep deadlines, mail the
reports (docs/mail.md).

``config`` reads companion.toml; ``parse`` turns a raw message into text; ``identity`` matches a
message to a game and player; ``mailbox`` reads a Maildir or an IMAP folder; ``outbox`` builds,
records and sends outgoing mail (SMTP, or ``.eml`` files); ``deadlines`` keeps each game's
deadline; ``run`` is one pass of all of it; ``commands`` the ``companion mail`` commands.

Nothing here is imported by the quick commands of the command line: this package is loaded only
when a mail command (or ``orders submit`` with a whole message) runs, and ``identity`` (light:
hmac, base64) when the reports of a game with a player's address are built (their "Orders by
mail" section shows the player's code: companion.service.mail_codes).
"""
