"""The terminal game: ``noughts play``, ``noughts replay`` and ``noughts analyze``.

An adapter around the core: `render` draws boards as rich Text (readable without
colour too), `session` runs a game at the prompt, `thinking` runs the computer on a
worker thread behind a spinner, `menu` asks what to play, `review` replays records and
prints analyses, and `commands` adds the subcommands to the ``noughts`` command.
"""
