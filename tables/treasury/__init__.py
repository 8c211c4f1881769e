"""The treasurer's tools, staff only, in the admin's look: a club night's score sheet, settling up, statements,
corrections of in-person hands in one step, and the books' backups and checks. Builds on the ledger and play."""
