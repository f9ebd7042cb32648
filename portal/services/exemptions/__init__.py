"""The residential exemption (J5, RULES.md section B): property-tax facts, the owner's
certification (a resumable draft, the one-dwelling check, the payment plan, evidence, the
filing), the staff's review and what the other pages read (`status.exemption_status`).

Plain functions taking a `UnitOfWork` first; every read goes through `services.access`; every
state change writes an audit record and an `ExemptionEvent`. See docs/EXEMPTION.md.
"""
