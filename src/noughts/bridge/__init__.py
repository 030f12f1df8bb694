"""``noughts bot``: a program that speaks the engine protocol (`noughts.engine`'s, as
``noughts engine`` and any other engine do), online as a bot account on a Noughts
server, as lichess-bot connects UCI engines to lichess.

* `noughts.bridge.client`: the bridge, the server's client over its HTTP API and game
  sockets, which plays the bot's games with the program;
* `noughts.bridge.commands`: the ``noughts bot`` command.

An adapter beside the engine protocol and the server, which it imports neither of: it
reaches a server by its address only, and runs the program through
`noughts.arena.external`.
"""
