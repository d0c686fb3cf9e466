"""No tables of its own: users are ``django.contrib.auth`` users, roles are its groups."""
