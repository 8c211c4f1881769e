"""Chat: a chat per table (its players and spectators) and one in the lobby, over the existing sockets.

Play may not import chat: chat plugs into play's sockets (tables.play.sockets: `on_message`, `on_event`,
`on_connect`), its table page (tables.play.page_parts) and its `round_finished` signal, all in `TablesConfig.ready`.
"""
