// Values as the server sends them (kind, plies, exact, bound, chance; see
// noughts.ai.base.win_chance), in words for players: a proven result counts the
// winner's own moves, as players count them ("wins in 2 moves"), never plies.

/** A proven result's distance in the winner's own moves: a win in 3 plies is 2 moves. */
function movesToEnd(value) {
  const n = Math.ceil((value.plies ?? 0) / 2);
  return `${value.bound ? "at most " : ""}${n} ${n === 1 ? "move" : "moves"}`;
}

const proven = (value) => value.kind === "win" || value.kind === "loss";

/** A move's value for its mover: proven results in words, estimates as a chance. */
export function moveValue(value) {
  if (proven(value)) return `${value.kind} in ${movesToEnd(value)}`;
  if (value.exact || value.chance === null) return value.text;
  return `${Math.round(100 * value.chance)}%`;
}

/** What "at most" means on a proven value whose distance is a bound, for a tooltip. */
export function boundTitle(value) {
  return value.bound ? "proven; a quicker win may exist" : undefined;
}

/** A position's value, which belongs to `turn` (the side to move), in words for both
 * sides; `name(mark)` names a side ("X", "Black"). */
export function verdict(value, turn, name) {
  if (proven(value)) {
    const winner = value.kind === "win" ? turn : turn === "x" ? "o" : "x";
    return `${name(winner)} wins in ${movesToEnd(value)}`;
  }
  if (value.kind === "draw") return "A draw with best play";
  if (value.chance === null || value.chance === undefined) return "Not evaluated";
  return `${name(turn)} to move: ${Math.round(100 * value.chance)}% (an estimate)`;
}
