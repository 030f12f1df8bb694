// How the lists (home page, lobby, tournaments) name a game's clock.

/** `clock` as the online API gives it ({days} or {minutes, increment}, or null):
 * "3 days a move", "3+2" or "no clock". */
export function clockText(clock) {
  if (!clock) return "no clock";
  if (clock.days) return `${clock.days} ${clock.days === 1 ? "day" : "days"} a move`;
  return `${clock.minutes}+${clock.increment}`;
}
