// What the boards share: the legal moves by target cell, the forget-mode markers and
// the focus bookkeeping that lets a board be re-rendered without losing the keyboard.

import { h, patchChildren, restoreTabStop, tabStopOf } from "../dom.js";
import { t } from "../i18n.js";

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

/** Whether the board is drawn as a go board, with stones (m,n,k from 7x7: gomoku). */
export function stones(board) {
  return board.kind === "grid" && Math.min(board.columns, board.rows) >= 7;
}

/** A side's name as players of the game say it: stones are Black (X, first to move) and
 * White, as gomoku players name them; marks are X and O. */
export function sideName(board, mark) {
  if (stones(board)) return mark === "x" ? t("Black") : t("White");
  return mark.toUpperCase();
}

/** Which player's mark on `cell` vanishes next in Forget mode, with how soon. */
export function vanishing(view, cell) {
  if (!view.forget) return null;
  for (const player of ["x", "o"]) {
    if (view.forget.vanishing[player].includes(cell)) return { player, next: player === view.turn };
  }
  return null;
}

export function vanishTitle(board, mark, soon) {
  const who = sideName(board, mark);
  if (soon) return t("vanishes when {side} plays here next (Forget mode)", { side: who });
  return stones(board)
    ? t("{side}'s oldest stone: vanishes on {side}'s next move in this board", { side: who })
    : t("{side}'s oldest mark: vanishes on {side}'s next move in this board", { side: who });
}

/** Re-render `container` with `build()`, patching the elements in place (the analysis
 * board redraws while the engine deepens: a cell being clicked must stay), and keep the
 * keyboard where it was. */
export function rebuild(container, build) {
  const previous = tabStopOf(container);
  patchChildren(container, build().filter(Boolean));
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

/**
 * A reviewed move drawn over the board as lichess draws one: `marks` are
 * {move, kind: "best" | "played", glyph} (a move text, found by its cell's `data-move`).
 * Each marked cell gets a ring (green for the better move, red for the played one, with
 * its "??"), and an arrow runs from the played move to the better one: "here instead".
 * In `container`'s pixels; redrawn after every render of the board.
 */
export function drawMoveMarks(container, marks) {
  container.querySelector(":scope > .move-marks")?.remove();
  const box = container.getBoundingClientRect();
  const found = marks
    .map((mark) => ({ ...mark, el: container.querySelector(`[data-move="${CSS.escape(mark.move)}"]`) }))
    .filter((mark) => mark.el);
  if (!found.length || !box.width || !box.height) return;
  const svg = h("svg", { class: "move-marks", viewBox: `0 0 ${box.width} ${box.height}`, "aria-hidden": "true" });
  const at = {};
  for (const mark of found) {
    const r = mark.el.getBoundingClientRect();
    const centre = { x: r.left + r.width / 2 - box.left, y: r.top + r.height / 2 - box.top, radius: Math.min(r.width, r.height) * 0.44 };
    at[mark.kind] = centre;
    svg.append(h("circle", { cx: centre.x, cy: centre.y, r: centre.radius, class: `move-ring move-${mark.kind}`, "stroke-width": Math.max(2.5, centre.radius * 0.09), "data-mark": mark.kind, "data-move": mark.move }));
    if (mark.glyph) {
      // A small badge on the cell's top-right corner, as lichess puts "??" on a square.
      const badge = Math.max(8, centre.radius * 0.3);
      const x = centre.x + centre.radius * 0.95, y = centre.y - centre.radius * 0.95;
      svg.append(h("g", { class: `move-glyph move-${mark.kind}` }, h("circle", { cx: x, cy: y, r: badge }), h("text", { x, y, "font-size": badge * 1.1 }, mark.glyph)));
    }
  }
  const { best, played } = at;
  if (best && played && (best.x !== played.x || best.y !== played.y)) {
    const dx = best.x - played.x, dy = best.y - played.y, length = Math.hypot(dx, dy);
    const ux = dx / length, uy = dy / length;
    const head = Math.max(8, best.radius * 0.6);
    // From the played move's centre to inside the better move's ring, as lichess's
    // arrows run from square to square.
    const start = { x: played.x + ux * played.radius * 0.3, y: played.y + uy * played.radius * 0.3 };
    const tip = { x: best.x - ux * best.radius * 0.4, y: best.y - uy * best.radius * 0.4 };
    const base = { x: tip.x - ux * head, y: tip.y - uy * head };
    svg.append(
      h("g", { class: "move-arrow", "data-mark": "arrow" },
        h("line", { x1: start.x, y1: start.y, x2: base.x, y2: base.y, "stroke-width": head * 0.45 }),
        h("path", { d: `M${tip.x} ${tip.y}L${base.x - uy * head * 0.6} ${base.y + ux * head * 0.6}L${base.x + uy * head * 0.6} ${base.y - ux * head * 0.6}Z` })),
    );
  }
  container.append(svg);
}
