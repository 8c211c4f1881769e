"""Reads of the treasurer's pages, one module per page (settling, statements)."""
