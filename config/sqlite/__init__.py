"""Django's SQLite backend, with the process's writers taking turns in Python (see base.py)."""
