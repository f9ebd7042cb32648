"""Collections (J9): the staff's pages (the delinquency run, the demands, their mailing and
return receipt, the court list) and the demand letter a payer or owner downloads."""
