"""People who sign in to the portal."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, CheckConstraint, String
from sqlalchemy.orm import Mapped, mapped_column

from portal.models.base import Base, UTCDateTime, created_at

LANGUAGES = ("es", "en")
#: What a staff member may do (docs/STAFF.md): administrator (everything: budgets, the roll,
#: roles, two-step resets), reviewer (reviews: reads every staff page and records no money),
#: cashier (the payments office and refunds), read_only (sees, changes nothing).
STAFF_ROLES = ("administrator", "reviewer", "cashier", "read_only")


class User(Base):
    """A sign-in. Duck-types Flask-Login's user (`is_active`, `get_id`, ...) without Flask."""

    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("language IN ('es', 'en')", name="language"),
        CheckConstraint("email = lower(email)", name="email_lowercase"),
        CheckConstraint("staff_role IS NULL OR staff_role IN ('administrator', 'reviewer', "
                        "'cashier', 'read_only')", name="staff_role"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="Surrogate key")
    email: Mapped[str] = mapped_column(String(254), unique=True,
                                       comment="Sign-in email, lower case, unique")
    password_hash: Mapped[str] = mapped_column(String(255),
                                               comment="Password hash (scrypt, via werkzeug)")
    name: Mapped[str] = mapped_column(String(200), default="",
                                      comment="Name the person gave")
    language: Mapped[str] = mapped_column(String(2), default="es",
                                          comment="Preferred locale: 'es' or 'en'")
    is_staff: Mapped[bool] = mapped_column(Boolean, default=False,
                                           comment="Staff of the Authority's Board")
    staff_role: Mapped[str | None] = mapped_column(
        String(13), comment="Staff's role: administrator, reviewer, cashier or read_only "
                            "(null: none set, an administrator; see docs/STAFF.md)")
    email_confirmed_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the email address was confirmed (UTC)")
    totp_secret: Mapped[str | None] = mapped_column(
        String(64), comment="Base32 TOTP secret when two-factor sign-in is on")
    totp_enabled_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When two-factor sign-in was confirmed (null: not enrolled)")
    totp_last_step: Mapped[int | None] = mapped_column(
        BigInteger, comment="Time step of the last authenticator code accepted (null: none yet)")
    disabled_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When staff disabled the sign-in; null while active")
    phone: Mapped[str | None] = mapped_column(
        String(16), comment="Telephone in E.164 (null: none given)")
    last_sign_in_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="Last successful sign-in (UTC)")
    notice_emails_off_at: Mapped[datetime | None] = mapped_column(
        UTCDateTime(), comment="When the person stopped the notices emailed in bulk (one-click "
                               "unsubscribe or the account page); null: they are emailed")
    created_at: Mapped[datetime] = created_at()

    # Flask-Login's protocol, without importing Flask into the data layer.
    is_authenticated = True
    is_anonymous = False

    @property
    def is_active(self) -> bool:
        return self.disabled_at is None

    def get_id(self) -> str:
        return str(self.id)

    @property
    def role(self) -> str | None:
        """The staff role in force (None for someone who is not staff); staff without one
        set (made before roles, or by a script that only sets `is_staff`) are administrators."""
        if not self.is_staff:
            return None
        return self.staff_role or "administrator"

    @property
    def email_confirmed(self) -> bool:
        return self.email_confirmed_at is not None

    @property
    def lender_ids(self) -> tuple[int, ...]:
        """Lenders this user works for (filled by the users service when it loads the user)."""
        return tuple(self.__dict__.get("_lender_ids", ()))

    @property
    def is_lender(self) -> bool:
        return bool(self.lender_ids)

    def __repr__(self) -> str:
        return f"<User {self.id} {self.email}>"
