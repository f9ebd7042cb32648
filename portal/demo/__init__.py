"""The demo District (`portal demo`): `district.load` builds it through the domains'
services and bulk writes. Above every domain; nothing imports it but the command line and the
tests.
"""
