"""Lenders (J7): the portfolio (`portfolio`), certifications filed in bulk (`batches`),
intents to pay (`intents`), acquisitions (`acquisitions`) and the organisation's users and API
tokens (`tokens`).
"""
