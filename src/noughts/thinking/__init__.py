"""The computer's thinking for the server: every move, analysis, review and puzzle
search it asks for is a job that waits in its lane, the most urgent first, and runs in
a worker process, never in the server's event loop.

* `noughts.thinking.jobs`: a request to think (`ThinkJob`) and what a worker runs;
* `noughts.thinking.lanes`: the lanes, who asks (`Asker`) and their quotas, and the
  `Thinking` interface the server calls;
* `noughts.thinking.pool`: `ThinkingPool`, `Thinking` in this server's own worker
  processes (the default);
* `noughts.thinking.queue`: `QueueThinking`, `Thinking` on ``noughts worker``
  processes through Dramatiq on Redis (``noughts serve --workers-on``);
* `noughts.thinking.worker`: the ``noughts worker`` process.

It needs no web, database or terminal: the server schedules the work and stores the
results; this package sees positions, games and the players.
"""
