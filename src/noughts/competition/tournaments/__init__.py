"""Tournaments' rules, apart from the database and the web: how an arena scores and
pairs its waiting players (`arena`), how a Swiss pairs a round and ranks its players
(`swiss`), and the maximum matching a Swiss falls back on (`matching`). Plain functions
of plain values; `noughts.server.online.storage.tournaments` feeds them what the
database holds and writes back what they decide."""
