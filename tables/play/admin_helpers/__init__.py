"""What every feature's admin shares: read-only admins, declared lookups only, actions that ask for a reason.
Uses Django's admin and play's services; imports no feature's admin module."""
