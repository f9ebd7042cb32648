"""The documents the portal issues, one module each: what a document says (its view data,
worded from the domains' results in the reader's language), its PDF (`portal.pdf`) and its
email (`portal.mail`). docs/DOCUMENTS.md lists them.

- `receipt`: the payment receipt: its view (page, PDF, email), its PDF, its email (sent once);
- `statement`: the statement of account (from the parcel page's values);
- `demand_letter`: the demand for payment (both languages) and the receipt of its mailing;
- `court_packet`: the statement, the demand and the receipt of mailing of a Rule 60 claim;
- `attachment_notice`: the notice of attachment (both languages) and the debts' summary;
- `exemption_certification`: the exemption certification's receipt and its emails;
- `payoff_certificate`: the payoff certificate as issued (worded by its domain);
- `assessment_notice`: the assessment notice on demand (worded by its domain).

Below the web layer and above the domains: no Flask, no `flask_babel`, no `portal.web`
(the language in force, the words and the formats come from `portal.i18n`), so a command
or a worker issues the same documents as a page; the web only wraps their bytes in a
response.
"""
