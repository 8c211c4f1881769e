"""The lobby: the home and lobby pages, the new-table form, the live list of tables, who is online, the lobby
socket. Uses `play` (its services, forms, push and socket base) and `quickplay` (the panel the lobby shows);
no feature uses it."""
