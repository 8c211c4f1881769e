"""The four games as a pure engine: state in, state out.

Nothing here imports Django, Channels or any other part of the project, so every rule can be
tested, benchmarked and replayed on its own, and the web layer can only ask questions of it.
"""
