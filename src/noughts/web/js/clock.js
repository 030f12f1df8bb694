// How the lists (home page, lobby, tournaments) name a game's clock.

import { t, tn } from "./i18n.js";

/** `clock` as the online API gives it ({days} or {minutes, increment}, or null):
 * "3 days a move", "3+2" or "no clock". */
export function clockText(clock) {
  if (!clock) return t("no clock");
  if (clock.days) return tn("{n} day a move", "{n} days a move", clock.days);
  return `${clock.minutes}+${clock.increment}`;
}
