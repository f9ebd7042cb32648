"""The taxpayer self-service portal for Puerto Rico property charges.

Importing this package imports nothing from the web stack: the calculation core
(`portal.core`) stays usable on its own. The Flask application lives in `portal.app`.
"""

__version__ = "0.1.0"
