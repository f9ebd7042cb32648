"""The payments blueprint (routes.py), its words (present.py), gateway (gateways.py), emails."""
