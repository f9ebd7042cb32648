"""Collections (J9, J10): the delinquency run and its demands (`demands`), the demand's
certified mailing (`mailing`), the Treasury's attachments and the CRIM's auctions
(`attachments`), a lessee's rent-deposit order (`deposit_orders`) and the payoff certificate
(`certificates`).
"""
