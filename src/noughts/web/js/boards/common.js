// What the boards share: the legal moves by target cell, the forget-mode markers and
// the focus bookkeeping that lets a board be re-rendered without losing the keyboard.

import { restoreTabStop, tabStopOf } from "../dom.js";

/** Legal moves keyed by the cell they land on (placements only: no source cell). */
export function movesByCell(view) {
  const byCell = new Map();
  for (const move of view.legal) {
    if (move.source === null || move.source === undefined) {
      if (!byCell.has(move.cell)) byCell.set(move.cell, []);
      byCell.get(move.cell).push(move);
    }
  }
  return byCell;
}

/** Which player's mark on `cell` vanishes next in Forget mode, with how soon. */
export function vanishing(view, cell) {
  if (!view.forget) return null;
  for (const player of ["x", "o"]) {
    if (view.forget.vanishing[player].includes(cell)) return { player, next: player === view.turn };
  }
  return null;
}

export function vanishTitle(mark, soon) {
  const who = mark.toUpperCase();
  return soon ? `vanishes when ${who} plays here next (Forget mode)` : `${who}'s oldest mark: vanishes on ${who}'s next move in this board`;
}

/** Re-render `container` with `build()` and keep the keyboard where it was. */
export function rebuild(container, build) {
  const previous = tabStopOf(container);
  container.replaceChildren(...build());
  const first = container.querySelector("[data-row]");
  const el = restoreTabStop(container, previous, first);
  if (previous && previous.focused && el) el.focus({ preventScroll: true });
}
