// The player's own timing of their moves, sent with each move for the server's lag
// compensation (docs/online.md, "Clocks"): how long they took by this browser's clock,
// from the position's arrival to the move, and the network's one-way delay, half the
// round trip of the pings this page sends while a clock runs.

/** The pings whose pong is still awaited, at most: older ones are forgotten. */
const PENDING = 8;

export class MoveTimer {
  /** @param {() => number} now milliseconds, monotonic (performance.now in a page) */
  constructor(now = () => performance.now()) {
    this.now = now;
    /** @type {number | null} when the position the player moves in arrived */
    this.seenAt = null;
    /** @type {number | null} */
    this.ply = null;
    /** @type {number | null} the round trip's decaying mean, ms */
    this.rtt = null;
    /** @type {Map<number, number>} */
    this.pings = new Map();
  }

  /** A position arrived: `yours` when the player is to move in it, at `ply`. */
  seen(yours, ply) {
    if (!yours) {
      this.seenAt = this.ply = null;
    } else if (this.ply !== ply) {
      this.seenAt = this.now();
      this.ply = ply;
    }
  }

  /** The ping with frame id `id` is being sent. */
  pinged(id) {
    this.pings.set(id, this.now());
    if (this.pings.size > PENDING) this.pings.delete(this.pings.keys().next().value);
  }

  /** The pong answering frame `id` arrived. */
  ponged(id) {
    const sent = this.pings.get(id);
    if (sent === undefined) return;
    this.pings.delete(id);
    const rtt = this.now() - sent;
    this.rtt = this.rtt === null ? rtt : 0.8 * this.rtt + 0.2 * rtt;
  }

  /** The timing fields of a move sent now: `spent` and `lag`, where known. */
  timing() {
    /** @type {{spent?: number, lag?: number}} */
    const fields = {};
    if (this.seenAt !== null) fields.spent = Math.max(0, Math.round(this.now() - this.seenAt));
    if (this.rtt !== null) fields.lag = Math.min(60_000, Math.round(this.rtt / 2));
    return fields;
  }
}
