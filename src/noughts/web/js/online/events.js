// What a game's socket's events do to the state a page holds: the socket client's
// logic, apart from the page (node's test runner checks it: tests/web/js/).

/**
 * The game after a move event's patch: the same state the server would send whole.
 * @param {Record<string, any>} game the state of the version before
 * @param {import("./protocol").Event} event
 * @returns {Record<string, any>}
 */
export function patched(game, event) {
  const { patch } = event;
  return {
    ...game,
    ...patch,
    ply: event.ply,
    version: event.version,
    moves: [...game.moves, event.move],
    view: { ...game.view, ...patch.view, ply: event.ply, moves: [...game.view.moves, event.move] },
  };
}

/**
 * What `event` does to `game` (null before the first state): `seen` when it holds
 * nothing new, `resync` when a version was skipped (the whole state must be asked
 * for; a patch is not applied until it comes), and the game to show.
 * @param {Record<string, any> | null} game
 * @param {import("./protocol").Event} event
 * @returns {{ game: Record<string, any> | null, seen?: boolean, resync?: boolean }}
 */
export function afterEvent(game, event) {
  if (game && event.version <= game.version) return { game, seen: true };
  const gap = Boolean(game) && event.version > game.version + 1;
  if (event.patch) return !game || gap ? { game, resync: true } : { game: patched(game, event) };
  return { game: event.game, resync: gap };
}
