// "Learn from your mistakes" (lichess's): a reviewed game's mistakes and blunders of one
// side, one at a time; for each the player finds a better move, asks to be shown it, or
// skips it, and a summary closes the lesson. No DOM here: the analysis board draws it.

import { t, tn } from "../i18n.js";

/** The classes a lesson goes through: the review's mistakes and blunders. */
export const LESSON_CLASSES = ["mistake", "blunder"];

/** The reviewed moves of `side` ("x" or "o") that are mistakes or blunders, in order. */
export function mistakesOf(review, side) {
  return review.moves.filter((m) => m.side === side && LESSON_CLASSES.includes(m.class));
}

/** A lesson over `moves` (a `mistakesOf`): where it is, and how each mistake went. */
export class Lesson {
  constructor(moves) {
    if (!moves.length) throw new Error("there is no mistake to learn from");
    this.moves = moves;
    this.index = 0;
    /** Per mistake, once it is done: "found" (a better move), "shown" or "skipped". */
    this.results = [];
    /** The moves tried at the current mistake that were not good enough. */
    this.tried = [];
  }

  get current() {
    return this.done ? null : this.moves[this.index];
  }

  get done() {
    return this.index >= this.moves.length;
  }

  /** "Mistake 2 of 3". */
  get counter() {
    return t("Mistake {n} of {total}", { n: Math.min(this.index + 1, this.moves.length), total: this.moves.length });
  }

  /** A move tried at the current mistake, as `POST /api/review-attempt` judged it: an
   * accepted one ends the mistake as found (the caller moves on), another is kept. */
  attempt(judged) {
    if (this.done) throw new Error("the lesson is over");
    if (judged.accepted) {
      this.finish("found");
      return true;
    }
    this.tried.push(judged.move);
    return false;
  }

  /** The better move shown: the mistake counts as shown, even if it is then played. */
  show() {
    if (!this.done) this.finish("shown");
  }

  skip() {
    if (!this.done) this.finish("skipped");
  }

  finish(result) {
    this.results.push(result);
    this.index += 1;
    this.tried = [];
  }

  /** The counts at the end: {found, shown, skipped, total}. */
  get summary() {
    const count = (r) => this.results.filter((x) => x === r).length;
    return { found: count("found"), shown: count("shown"), skipped: count("skipped"), total: this.moves.length };
  }

  /** The summary in words: "You found 2 of 3 better moves (1 shown, 0 skipped)." */
  get summaryText() {
    const { found, shown, skipped, total } = this.summary;
    return tn("You found {found} of {n} better move ({shown} shown, {skipped} skipped).", "You found {found} of {n} better moves ({shown} shown, {skipped} skipped).", total, { found, shown, skipped });
  }
}

/** The game page's address that plays on from a position against the computer:
 * `moves` from `start` (null: the game's first position), as `side` at `level`. */
export function computerLink({ spec, start = null, moves, side, level }) {
  const params = new URLSearchParams({ spec, mode: "computer", level, side });
  if (moves.length) params.set("moves", moves.join(","));
  if (start) params.set("start", start);
  return `#/play?${params.toString()}`;
}
