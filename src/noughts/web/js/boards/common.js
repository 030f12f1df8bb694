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

/** True when the player asked for less motion: no slides, no pop-ins. */
export function reducedMotion() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The newly placed mark pops in, once per position of `board` (a repaint of the same
 * position, for a hint or a theme, stays still). */
export function animateIn(el, board, view) {
  const key = `${view.moves.length}:${view.moves[view.moves.length - 1] ?? ""}`;
  if (board.entered === key) return;
  board.entered = key;
  if (!reducedMotion()) el.classList.add("enter");
}

/**
 * The winning line as a stroke over `container`, from the first to the last of `cells`
 * (elements inside it, in the order of the line). Percentages of the container, so the
 * stroke follows the board when it is resized.
 */
export function drawWinLine(container, cells) {
  container.querySelector(":scope > .win-line")?.remove();
  const ends = cells.filter(Boolean);
  if (ends.length < 2) return;
  const box = container.getBoundingClientRect();
  if (!box.width || !box.height) return;
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return [((r.left + r.width / 2 - box.left) / box.width) * 100, ((r.top + r.height / 2 - box.top) / box.height) * 100];
  };
  const [x1, y1] = centre(ends[0]);
  const [x2, y2] = centre(ends[ends.length - 1]);
  // Run a little past the end cells' centres, as a pen would.
  const dx = x2 - x1, dy = y2 - y1, length = Math.hypot(dx, dy) || 1;
  const over = Math.min(4, 40 / ends.length);
  const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
  for (const [name, value] of Object.entries({ x1: x1 - (dx / length) * over, y1: y1 - (dy / length) * over, x2: x2 + (dx / length) * over, y2: y2 + (dy / length) * over })) line.setAttribute(name, `${value}%`);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "win-line");
  svg.setAttribute("aria-hidden", "true");
  svg.append(line);
  container.append(svg);
}
