// A move queued while the opponent thinks (lichess's premove), and a correspondence move
// held until it is confirmed: what the live page keeps of each, with no page in it, so
// that the rules of when one is sent, kept or dropped are tested under node.

/** The boards whose moves name only their cell, the same for either side, so a move
 * chosen on the opponent's turn means the same on one's own. Ultimate's moves depend on
 * where the opponent sends you, gobblet's on your hand: neither is queued. */
export const PREMOVE_KINDS = new Set(["grid", "qubic"]);

/**
 * Whether `side` may queue a move in `game` now: a live game of a board above, going on,
 * the opponent to move.
 * @param {any} game the game's state as the server sends it
 * @param {string | null} side "x", "o", or null for a spectator
 */
export function canPremove(game, side) {
  return Boolean(
    side && game?.state === "playing" && game.view.status === "ongoing" && game.view.turn !== side &&
      PREMOVE_KINDS.has(game.view.board.kind) && !game.clock?.days_per_move,
  );
}

/** The one queued move: chosen, changed, taken back, then sent or dropped. */
export class Premove {
  constructor() {
    /** @type {string | null} */
    this.move = null;
  }

  /** A click on a cell: queues its move, or takes it back when it is the one queued. */
  toggle(text) {
    this.move = this.move === text ? null : text;
    return this.move;
  }

  cancel() {
    const had = this.move !== null;
    this.move = null;
    return had;
  }

  /**
   * The queued move to send now that `game` has come, if it is `side`'s turn and the
   * move is legal there; a move no longer legal is dropped, as lichess drops it. It is
   * forgotten either way once the player's turn has come (or the game has ended).
   * @returns {{ send: string | null, dropped: string | null }}
   */
  resolve(game, side) {
    const move = this.move;
    if (move === null) return { send: null, dropped: null };
    const playing = game.state === "playing" && game.view.status === "ongoing";
    if (playing && game.view.turn !== side) return { send: null, dropped: null };
    this.move = null;
    const legal = playing && game.view.legal.some((m) => m.text === move);
    return legal ? { send: move, dropped: null } : { send: null, dropped: move };
  }
}

/** Correspondence games are confirmed move by move when the player asks for it (a
 * preference, on by default as lichess's "confirm correspondence moves"). */
export function confirmsMoves(game, wanted) {
  return Boolean(wanted && game?.clock?.days_per_move);
}
