"""Every route of the portal by who may use it (DESIGN.md 6): tests/web/test_access.py fails
`test_every_route_is_classified` until a new route is added here, and walks each class as
every role; other tests walk a class (the staff pages with the password only, say)."""

from __future__ import annotations

PUBLIC_GET = {"accounts.home", "people.sign_up", "people.sign_in", "people.check_email",
              "people.forgot", "people.confirm", "people.reset", "static",
              "collections.certificates_verify"}
PUBLIC_POST = {"accounts.language", "people.sign_up", "people.sign_in", "people.resend",
               "people.forgot", "people.reset", "collections.certificates_verify"}
SIGNED_IN = {"accounts.dashboard", "accounts.claim", "accounts.leases", "people.sign_out",
             "people.sign_out_others", "people.change_password",
             "payments.choose", "payments.review", "payments.confirm", "payments.sandbox",
             "payments.sandbox_bank",
             "exemptions.changes_confirmation",  # per report: tests/web/test_exemption_changes.py
             # a report's documents: tests/web/test_exemption_revocation.py
             "exemptions.changes_upload", "exemptions.changes_evidence_file"}
PARCEL = {"accounts.parcel", "accounts.statement_pdf", "accounts.grant", "accounts.revoke",
          "accounts.revoke_email",
          "collections.certificates_index", "collections.certificates_issue",
          "collections.certificates_pdf",  # owner or staff only
          "accounts.access_page", "payments.history",
          "collections.letter_pdf",  # per demand: staff, payer, owner (test_collections.py)
          "exemptions.changes_new",
          "collections.attachments_notice_pdf",  # staff and the debtor only
          # (test_attachment_pages.py)
          "roll.assessment_notice_pdf",  # its payers and staff (test_roll_notices_web.py)
          "exemptions.start_page", "exemptions.start"}  # J5; per certification below
#: Per certification (J5): its owner, the parcel's delegates, its lender and staff see it;
#: anyone else 404 (tests/web/test_exemption.py walks them as another owner).
EXEMPTION = {"exemptions.step", "exemptions.upload", "exemptions.remove_evidence",
             "exemptions.evidence_file", "exemptions.withdraw", "exemptions.receipt",
             "exemptions.receipt_pdf"}
CHECKOUT = {"payments.success", "payments.cancel", "payments.receipt", "payments.receipt_pdf",
            "payments.payment_receipt", "payments.payment_receipt_pdf"}
LENDER = {"exemptions.lender_list", "lenders.loans", "exemptions.changes_lender_list",
          "exemptions.changes_forward"}
LENDER |= {"lenders.export", "lenders.pay_filtered", "lenders.pay_file", "lenders.loan"}  # J7
LENDER |= {"lenders.organisation", "lenders.invite", "lenders.withdraw", "lenders.remove",  # J7
           "lenders.set_role", "lenders.create_token", "lenders.revoke_token"}
LENDER |= {"lenders.batches", "lenders.batch_upload", "lenders.batch_template",  # J7: bulk
           "lenders.batch_guide", "lenders.batch", "lenders.batch_report", "lenders.batch_failed"}
LENDER |= {"lenders.certification_one", "lenders.certification_one_file"}  # one by form
LENDER |= {"lenders.webhooks_page", "lenders.add_webhook",  # the webhooks
           "lenders.remove_webhook",  # (tests/web/test_lender_webhooks.py)
           "lenders.resend_webhook"}
LENDER |= {"lenders.report_acquisition", "lenders.mark_intents",  # J7, R-B10 (iii)
           "lenders.withdraw_intent"}  # (walked per role in tests/web/test_lender_intents.py)
LENDER |= {"lenders.portfolio_files", "lenders.portfolio_change",  # the portfolio
           "lenders.portfolio_upload", "lenders.portfolio_template", "lenders.portfolio_file",
           "lenders.portfolio_report",  # kept by the bank (tests/web/test_lender_portfolio_web.py)
           "lenders.bills", "lenders.bill_make", "lenders.bill", "lenders.bill_csv",
           "lenders.bill_pay", "lenders.bill_payment", "lenders.bill_exceptions_csv",
           "lenders.bill_payment_confirm"}
LENDER |= {"lenders.bill_job"}  # a large file or payment made by a job (test_lender_bill_jobs)
# J7: only the invited email's user (tests/web/test_lender_api.py)
SIGNED_IN |= {"lenders.invitation"}
#: J7: the lenders' API, by Bearer token only (never the session: tests/web/test_lender_api.py)
TOKEN_API = {"lenders_api.loans", "lenders_api.loan"}
TOKEN_API |= {"lenders_api.submit_loan_changes", "lenders_api.loan_changes_list",
              "lenders_api.loan_change", "lenders_api.bill_lines",  # test_lender_api_portfolio
              "lenders_api.make_bill_file", "lenders_api.bill_file"}
TOKEN_API |= {"lenders_api.submit_batch", "lenders_api.batch", "lenders_api.batch_rows",  # J7
              "lenders_api.report_acquisition"}  # tests/web/test_lender_api_batches.py
TOKEN_API |= {"lenders_api.list_batches",  # tests/web/test_lender_api_complete.py
              "lenders_api.parcel_certifications", "lenders_api.webhook_deliveries"}
#: R-B16: the CRIM's file by a staff token only (tests/web/test_plan_file.py)
TOKEN_API |= {"crim_api.plan_payments"}
PUBLIC_GET |= {"lenders_api.openapi", "lenders_api.reference"}  # the API's description
STAFF = {"accounts.lookup", "people.person", "payments.office", "payments.refund",
         "roll.roll_page", "jobs.job", "roll.compute_roll", "roll.publish_roll",
         "roll.roll_review", "roll.roll_review_differences",  # J8: any staff role reads
         "roll.roll_review_differences_csv",
         "roll.roll_imports", "roll.roll_import_upload", "roll.roll_import",
         "roll.roll_import_changes", "roll.roll_import_report_csv", "roll.roll_import_start",
         "roll.roll_import_template", "roll.roll_import_guide",
         "roll.roll_notices", "roll.send_roll_notices",  # J8: the notices (any staff reads;
         "roll.roll_notice_pdf", "roll.roll_notice_file",  # tests/web/test_roll_notices_web.py)
         "people.reset_two_factor",
         "collections.index", "collections.start_run", "collections.court",  # J9
         "collections.demand", "collections.record_mailing", "collections.record_receipt",
         "collections.record_claim", "collections.packet_pdf", "collections.record_mailings",
         "collections.correct_mailing",
         "collections.print_file",  # R-A17: the owners' copies to print (any staff role)
         "roll.budgets_page", "roll.budget_new", "roll.budget_version", "roll.budget_edit",
         "roll.budget_adopt", "roll.budget_amend", "roll.budget_compare", "people.set_role",
         "roll.budget_discard", "roll.budget_adoption_date",
         "roll.parameters_page", "roll.parameter_edit",  # J8: the Board's parameters
         "exemptions.changes_staff_list", "exemptions.changes_acknowledge",
         # R-B4: the cooperatives' elections, corrected by reviewers and administrators
         "exemptions.coop_elections", "exemptions.coop_election",
         "exemptions.coop_election_correct",
         "exemptions.queue", "exemptions.review_page", "exemptions.take_up",  # J5
         "exemptions.approve", "exemptions.return_to_owner",
         "exemptions.record_plan_entry",  # R-B16: what the CRIM reports of a plan
         "exemptions.plan_file", "exemptions.plan_file_upload",  # the CRIM's file
         "exemptions.plan_file_template", "exemptions.plan_defaults_list",
         "collections.attachments_index", "collections.attachments_parcel",  # R-C, R-A14
         "collections.attachments_record_notice", "collections.attachments_record_auction",
         "collections.attachments_record_result", "collections.attachments_record_paid",
         "collections.attachments_record_deposit_order",
         "collections.attachments_lift_deposit_order",
         "collections.attachments_record_accrual"}
#: The second step of signing in and one's own two-factor settings (tests/web/test_two_factor.py)
TWO_FACTOR = {"people.verify", "people.two_factor_enrol", "people.two_factor",
              "people.two_factor_codes", "people.two_factor_disable"}
SIGNED_WEBHOOK = {"payments.webhook"}  # public, but only a signed provider event is accepted
#: The operator's routes (docs/OPERATIONS.md): no session, no sign-in; /metrics may be limited
#: by METRICS_ALLOW (tests/web/test_operations.py).
PUBLIC_GET |= {"ops.healthz", "ops.readyz", "ops.metrics_page"}
#: The audit log's page and export (tests/web/test_audit_page.py).
STAFF |= {"people.audit_page", "people.audit_export"}
#: The mail queue's page and its retry (tests/web/test_mail_queue_page.py).
STAFF |= {"jobs.mail_queue_page", "jobs.mail_retry"}
#: The help pages, for anyone; the new email's link (signed: the account it names, once).
PUBLIC_GET |= {"accounts.help_contact", "accounts.help_faq", "accounts.help_privacy",
               "accounts.help_accessibility", "accounts.account_email_confirm"}
#: One's own account page and its year's payments (tests/web/test_account_page.py).
SIGNED_IN |= {"accounts.account", "accounts.account_email", "accounts.account_phone",
              "accounts.account_language", "accounts.account_payments_csv",
              "accounts.account_payments_pdf"}
#: Paying without an account (tests/web/test_guest_pay.py): the code form
#: and the notice's signed link answer anyone; the pay pages and the receipt only the guest
#: session they opened (403 without one, 404 for a checkout it did not start); the sandbox's
#: test checkout takes that session too (SIGNED_IN above: anyone else signs in).
PUBLIC_GET |= {"payments.guest_start", "payments.guest_link", "payments.guest_choose",
               "payments.guest_review", "payments.guest_confirm", "payments.guest_success",
               "payments.guest_cancel", "payments.guest_receipt", "payments.guest_receipt_pdf"}
PUBLIC_POST |= {"payments.guest_start", "payments.guest_end", "payments.guest_review",
                "payments.guest_confirm"}
#: Paperless notices, one's own (tests/web/test_paperless.py); a parcel's
#: issued notice, its payers' and staff's (PARCEL).
SIGNED_IN |= {"accounts.paperless_page"}
PARCEL |= {"roll.issued_notice_pdf"}
#: Autopay (tests/payments/test_autopay_web.py walks them): one's own saved
#: methods and setups (another person's: 404), a parcel's autopay page (its payers enrol;
#: anyone who sees the parcel reads it), the staff's list.
SIGNED_IN |= {"payments.saved_methods", "payments.remove_method", "payments.setup_return",
              "payments.sandbox_setup"}
PARCEL |= {"payments.autopay", "payments.autopay_cancel", "payments.autopay_add_method"}
STAFF |= {"payments.autopay_staff"}
#: the staff search, the reports and exports, the exemptions' bulk review
#: (tests/web/test_backoffice_search.py, test_backoffice_reports.py, test_bulk_review.py).
STAFF |= {"backoffice.search", "backoffice.reports", "backoffice.report",
          "backoffice.report_csv", "backoffice.report_refresh", "exemptions.bulk_queue",
          "exemptions.bulk_decide"}
#: Reminders and the calendar (tests/web/test_reminders_pages.py): the one-click
#: unsubscribe, a relative's confirmation and the account's feed answer their secret link only.
PUBLIC_GET |= {"reminders.unsubscribe_page", "reminders.confirm_page", "reminders.feed"}
PUBLIC_POST |= {"reminders.unsubscribe", "reminders.confirm"}
SIGNED_IN |= {"reminders.settings", "reminders.save", "reminders.reset_calendar"}
PARCEL |= {"reminders.parcel_ics", "reminders.add_relative", "reminders.remove_relative"}
#: Emailed notices (tests/web/test_notice_unsubscribe.py): the one-click unsubscribe answers
#: its signed link only; the account page's switch acts on one's own account.
PUBLIC_GET |= {"accounts.notices_unsubscribe"}
PUBLIC_POST |= {"accounts.notices_unsubscribe"}
SIGNED_IN |= {"accounts.notice_emails_switch"}
