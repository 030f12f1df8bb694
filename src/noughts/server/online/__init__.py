"""Online play: accounts, rooms, live games over websockets, spectators and ratings,
stored with SQLAlchemy (SQLite by default, PostgreSQL) and fanned out in-process or
through Redis. `noughts.server.app.create_app` adds it to the web app."""
