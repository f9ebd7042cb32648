"""The back office's reports and their CSV exports (docs/REPORTS.md): each is
computed in SQL or streamed, so memory stays flat at 1.5 million parcels. A sibling of
`portal.lenders`: it reads the roll, collections, exemptions and payments."""
