"""Writes: inviting, answering, withdrawing and expiring invitations (tables.invitations.services.invitations)."""
