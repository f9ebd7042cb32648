"""Forms several packages share: a button's form (its CSRF token only)."""

from __future__ import annotations

from flask_wtf import FlaskForm


class ActionForm(FlaskForm):
    """A button that starts a job (its CSRF token only)."""
