"""The only code that writes play state: typed, keyword-only functions, one transaction each."""
