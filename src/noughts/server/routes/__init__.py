"""Every route of the web app, one module per area (`noughts.server.app` includes them):

- catalogue: what there is to play (/api/games) and /api/health;
- play, computer, study: games against the computer and their study, under /api;
- accounts, players, social, games, analysis, pairing, bots, tournaments, puzzles: online
  play, under /api/online (puzzles under /api/puzzles);
- sockets: online play's websockets (a game's, the lobby's, a tournament's, a player's own);
- pages: the site at / (and /online, sent there).
"""
