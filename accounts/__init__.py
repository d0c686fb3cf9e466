"""Accounts and roles: Django's users, the role groups, login/logout pages, API tokens."""
