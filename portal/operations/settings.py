"""The settings checked when the portal starts (a typed pydantic-settings object).

Development (the default, `PORTAL_ENV` unset or `development`) keeps the zero-configuration
defaults of `portal.config` (SQLite in the instance folder, a generated key, files in the
instance folder). Production (`PORTAL_ENV=production`) refuses to start, with one line per
problem, when any of these is wrong (docs/OPERATIONS.md):

- `SECRET_KEY` unset or shorter than 32 characters (every host must sign with the same key);
- `DATABASE_URL` unset or SQLite (one database shared by every host: PostgreSQL);
- `PORTAL_BASE_URL` unset or not https;
- `STORAGE_S3_BUCKET` unset (a folder store is seen by one host only);
- `PORTAL_TODAY` set (the demo's pinned day);
- the schema not at the migrations' head (`portal db upgrade` first): `schema_problems`.

In either mode a malformed value (`TRUSTED_PROXIES=abc`) refuses to start.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class ConfigurationError(RuntimeError):
    """The portal must not start: `problems` holds one line per problem."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("the portal will not start:\n" + "\n".join(
            f"  - {p}" for p in problems))


class PortalSettings(BaseSettings):
    """The environment variables that decide how the portal runs (typed)."""

    model_config = SettingsConfigDict(case_sensitive=True, extra="ignore", env_ignore_empty=True)

    PORTAL_ENV: Literal["development", "production"] = "development"
    SECRET_KEY: str = ""
    DATABASE_URL: str = ""
    PORTAL_BASE_URL: str = ""
    STORAGE_S3_BUCKET: str = ""
    PORTAL_TODAY: str = ""
    REDIS_URL: str = ""
    #: How many proxies in front append to X-Forwarded-For (werkzeug's ProxyFix); 0: none.
    TRUSTED_PROXIES: int = Field(default=0, ge=0, le=10)
    #: Addresses or networks allowed to read /metrics ("10.0.0.0/8,127.0.0.1"); empty: all.
    METRICS_ALLOW: str = ""
    SENTRY_DSN: str = ""
    LOG_FORMAT: Literal["", "json", "text"] = ""
    #: Days a notices' print file (plain-text access codes) is kept; 0: kept (unset: 60).
    RETENTION_PRINT_FILE_DAYS: int | None = Field(default=None, ge=0, le=36500)
    #: Days after the decision that a removed evidence file is kept; 0: kept (unset: 90).
    RETENTION_REMOVED_EVIDENCE_DAYS: int | None = Field(default=None, ge=0, le=36500)

    @field_validator("METRICS_ALLOW")
    @classmethod
    def _networks(cls, value: str) -> str:
        for item in value.split(","):
            if item.strip():
                try:
                    ipaddress.ip_network(item.strip(), strict=False)
                except ValueError:
                    raise ValueError(f"{item.strip()!r} is not an address or a network "
                                     "(10.0.0.0/8)") from None
        return value

    @property
    def production(self) -> bool:
        return self.PORTAL_ENV == "production"

    def production_problems(self) -> list[str]:
        """What production refuses (empty in development), one line each."""
        if not self.production:
            return []
        problems = []
        if len(self.SECRET_KEY) < 32:
            problems.append("SECRET_KEY: required, at least 32 characters, the same on "
                            "every host")
        url = self.DATABASE_URL.strip()
        if not url:
            problems.append("DATABASE_URL: required (PostgreSQL: "
                            "postgresql+psycopg://user@host/db)")
        elif url.startswith("sqlite"):
            problems.append("DATABASE_URL: SQLite is for development; production uses "
                            "PostgreSQL")
        base = urlsplit(self.PORTAL_BASE_URL.strip())
        if base.scheme != "https" or not base.hostname:
            problems.append("PORTAL_BASE_URL: required, an https:// address "
                            "(https://portal.example.pr)")
        if not self.STORAGE_S3_BUCKET.strip():
            problems.append("STORAGE_S3_BUCKET: required; a folder store is seen by one "
                            "host only (S3-compatible object storage)")
        if self.PORTAL_TODAY.strip():
            problems.append("PORTAL_TODAY: must not be set in production (it pins the "
                            "date for the demo)")
        return problems


def load(env: Mapping[str, str] | None = None) -> PortalSettings:
    """The settings from `env` (default: the process environment); a malformed value
    raises `ConfigurationError` with one line per variable."""
    try:
        if env is None:
            return PortalSettings()
        return PortalSettings.model_validate({k: v for k, v in env.items()
                                              if k in PortalSettings.model_fields and v.strip()})
    except ValidationError as exc:
        raise ConfigurationError([
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
            for err in exc.errors()]) from None


def check(env: Mapping[str, str] | None = None) -> PortalSettings:
    """The settings, or `ConfigurationError` listing every problem production refuses."""
    loaded = load(env)
    problems = loaded.production_problems()
    if problems:
        raise ConfigurationError(problems)
    return loaded
