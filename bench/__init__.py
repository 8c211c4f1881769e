"""Load generator, bare baseline server and runner that measure how many live tables the club's site holds.

Kept outside the site's apps: nothing here is imported by the site, and the site runs without it.
See bench/README.md for the commands.
"""
