"""The web view behind the QR codes (issue 20, docs/web.md): ``companion serve``.

A Starlette application (:mod:`companion.web.app`) served by uvicorn
(:mod:`companion.web.server`): every player's report of every turn, rendered to HTML from the
same report document as the PDF and the text (:mod:`companion.render.report_html`), the order
form, and the moderator's page behind a password (:mod:`companion.web.config`).

Nothing here is imported by the quick commands of the command line.
"""
