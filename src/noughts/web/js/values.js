// Values as the server sends them (exact, chance; see noughts.ai.base.win_chance), in
// words for the page.

/** A move's value for its mover: proven results in words, estimates as a chance. */
export function moveValue(value) {
  if (value.exact || value.chance === null) return value.text;
  return `${Math.round(100 * value.chance)}%`;
}

/** What "at most" means on a proven value whose plies are a bound, for a tooltip. */
export function boundTitle(value) {
  return value.bound ? "proven; the plies are an upper bound, a quicker win may exist" : undefined;
}
