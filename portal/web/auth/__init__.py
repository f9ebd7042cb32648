"""Accounts: sign-up with email confirmation, sign-in, sign-out, password reset."""
