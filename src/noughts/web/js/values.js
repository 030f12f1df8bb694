// Values as the server sends them (kind, plies, exact, bound, chance; see
// noughts.ai.base.win_chance), in words for players: a proven result counts the
// winner's own moves, as players count them ("wins in 2 moves"), never plies. Each
// sentence is whole in the catalogue, with its plural forms: a language orders it.

import { t, tn } from "./i18n.js";

/** A proven result's distance in the winner's own moves: a win in 3 plies is 2 moves. */
const movesToEnd = (value) => Math.ceil((value.plies ?? 0) / 2);

const proven = (value) => value.kind === "win" || value.kind === "loss";

/** A move's value for its mover: proven results in words, estimates as a chance. */
export function moveValue(value) {
  if (proven(value)) {
    const n = movesToEnd(value);
    if (value.kind === "win") return value.bound ? tn("win in at most {n} move", "win in at most {n} moves", n) : tn("win in {n} move", "win in {n} moves", n);
    return value.bound ? tn("loss in at most {n} move", "loss in at most {n} moves", n) : tn("loss in {n} move", "loss in {n} moves", n);
  }
  if (value.exact || value.chance === null) return value.text;
  return `${Math.round(100 * value.chance)}%`;
}

/** What "at most" means on a proven value whose distance is a bound, for a tooltip. */
export function boundTitle(value) {
  return value.bound ? t("proven; a quicker win may exist") : undefined;
}

/** A position's value, which belongs to `turn` (the side to move), in words for both
 * sides; `name(mark)` names a side ("X", "Black"). */
export function verdict(value, turn, name) {
  if (proven(value)) {
    const winner = value.kind === "win" ? turn : turn === "x" ? "o" : "x";
    const n = movesToEnd(value);
    const side = name(winner);
    return value.bound ? tn("{side} wins in at most {n} move", "{side} wins in at most {n} moves", n, { side }) : tn("{side} wins in {n} move", "{side} wins in {n} moves", n, { side });
  }
  if (value.kind === "draw") return t("A draw with best play");
  if (value.chance === null || value.chance === undefined) return t("Not evaluated");
  return t("{side} to move: {percent}% (an estimate)", { side: name(turn), percent: Math.round(100 * value.chance) });
}

/**
 * What a reviewed move gave away where the estimates around it could not tell (the
 * review blames the mover's first move after a proof that later fell): null for any
 * other move.
 */
export function fallText(move) {
  if (!move.fell_to) return null;
  const before = moveValue(move.value_before);
  if (move.fell_to.kind === "loss" && !move.fell_to.plies) return t("Proven before this move: {before}; lost by ply {ply}.", { before, ply: move.fell_at });
  return t("Proven before this move: {before}; by ply {ply}: {after}.", { before, after: moveValue(move.fell_to), ply: move.fell_at });
}
