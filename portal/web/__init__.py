"""The web layer: one blueprint package per area (routes.py thin, forms.py with Flask-WTF)."""
