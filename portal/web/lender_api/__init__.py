"""The lenders' JSON API (J7): `/api/v1/`, Bearer tokens, RFC 9457 problem details."""
