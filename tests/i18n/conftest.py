"""The German tests read the compiled catalogue: tests/conftest.py compiles it when the .po is newer."""
