"""People: sign-ins (`users`), two-factor (`two_factor`), which passwords may be chosen
(`password_policy`) and the staff's roles (`staff_roles`).
"""
