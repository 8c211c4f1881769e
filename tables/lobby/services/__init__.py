"""The lobby's writes: who is online (a row per open lobby socket). Uses the models and play's push only."""
