"""Invitations to private tables: the creator asks a member by name, the member takes the seat or declines."""
