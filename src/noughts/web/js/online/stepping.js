// Stepping through a live game's moves: which ply a key or a swipe leads to. `ply` is the
// position shown (0 the start, `total` the live one); the page asks the server for it.

/** How far a finger must travel sideways on the board to step a move (CSS pixels). */
export const SWIPE = 40;

/** The ply a key leads to from `ply`, or null when the key is not one of stepping's. */
export function plyAfterKey(key, ply, total) {
  const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: total, ArrowUp: 0, ArrowDown: total }[key];
  return to === undefined ? null : Math.max(0, Math.min(total, to));
}

/** The ply a swipe of `dx` by `dy` pixels leads to: right to left is a move on (as a
 * page turns), left to right a move back; a mostly vertical one scrolls, and steps nothing. */
export function plyAfterSwipe(dx, dy, ply, total) {
  if (Math.abs(dx) < SWIPE || Math.abs(dx) < Math.abs(dy) * 1.5) return null;
  return Math.max(0, Math.min(total, ply + (dx < 0 ? 1 : -1)));
}
