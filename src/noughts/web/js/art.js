// Small SVG pictures: one per game for the home page's cards (each game looks like
// itself), and a board in miniature for the "continue your game" list.

import { stones as isStones } from "./boards/common.js";
import { h } from "./dom.js";

const svg = (viewBox, label, ...children) =>
  h("svg", { viewBox, class: "art", role: "img", "aria-label": label, preserveAspectRatio: "xMidYMid meet" }, ...children);
const line = (x1, y1, x2, y2, cls = "art-line") => h("line", { x1, y1, x2, y2, class: cls });
const ex = (cx, cy, r, cls = "art-x") => h("path", { d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}`, class: cls });
const oh = (cx, cy, r, cls = "art-o") => h("circle", { cx, cy, r, class: cls });
const stone = (cx, cy, r, mark) => h("circle", { cx, cy, r, class: `art-stone art-stone-${mark}` });

function grid3(x, y, size, cls) {
  const s = size / 3;
  return [line(x + s, y, x + s, y + size, cls), line(x + 2 * s, y, x + 2 * s, y + size, cls), line(x, y + s, x + size, y + s, cls), line(x, y + 2 * s, x + size, y + 2 * s, cls)];
}

function figure(cx, bottom, size, mark) {
  const r = size / 2;
  return h("g", { class: `art-fig art-fig-${mark}` },
    h("path", { d: `M${cx - r} ${bottom} Q${cx - r} ${bottom - size * 1.2} ${cx} ${bottom - size * 1.2} Q${cx + r} ${bottom - size * 1.2} ${cx + r} ${bottom} Z` }),
    h("circle", { cx: cx - r * 0.35, cy: bottom - size * 0.75, r: size * 0.09, class: "art-eye" }),
    h("circle", { cx: cx + r * 0.35, cy: bottom - size * 0.75, r: size * 0.09, class: "art-eye" }));
}

function doll(cx, bottom, height, mark) {
  const w = height * 0.55;
  return h("g", { class: `art-fig art-fig-${mark}` },
    h("ellipse", { cx, cy: bottom - height * 0.36, rx: w / 2, ry: height * 0.36 }),
    h("circle", { cx, cy: bottom - height * 0.8, r: w * 0.36 }),
    h("circle", { cx, cy: bottom - height * 0.8, r: w * 0.2, class: "art-face" }));
}

/** The card picture of a game (by its key). */
export function gameArt(key) {
  switch (key) {
    case "classic":
      return svg("0 0 120 64", "a 3x3 board", ...grid3(36, 6, 52), ex(44.7, 14.7, 5), oh(62, 32, 6), ex(79.3, 49.3, 5), ex(62, 14.7, 5), oh(44.7, 49.3, 6));
    case "mnk": {
      const lines = [];
      for (let i = 0; i < 9; i++) lines.push(line(24 + i * 9, 4, 24 + i * 9, 76), line(24, 4 + i * 9, 96, 4 + i * 9));
      return svg("0 0 120 80", "a go-style board with five stones in a row", h("rect", { x: 18, y: -2, width: 84, height: 84, rx: 3, class: "art-wood" }), ...lines,
        ...[0, 1, 2, 3, 4].map((i) => stone(42 + i * 9, 13 + i * 9, 4, "x")), stone(60, 13, 4, "o"), stone(51, 49, 4, "o"), stone(87, 40, 4, "o"), stone(33, 58, 4, "o"));
    }
    case "ultimate":
    case "nine-board": {
      const parts = [h("rect", { x: 30, y: 2, width: 60, height: 60, rx: 3, class: "art-frame" })];
      for (let b = 0; b < 9; b++) parts.push(...grid3(32 + (b % 3) * 19, 4 + Math.floor(b / 3) * 19, 18, "art-line thin"));
      if (key === "ultimate") {
        parts.push(ex(41, 13, 7, "art-x big"), oh(60, 32, 7.5, "art-o big"), h("rect", { x: 70, y: 42, width: 18, height: 18, class: "art-open" }));
      } else {
        // one line of three in a small board ends the game
        parts.push(ex(54, 26, 2.2), ex(60, 32, 2.2), ex(66, 38, 2.2), line(52, 24, 68, 40, "art-win"), oh(41, 51, 2.5), oh(79, 13, 2.5), oh(73, 51, 2.5));
      }
      return svg("0 0 120 64", key === "ultimate" ? "nine small boards, two won" : "nine small boards, a line in one", ...parts);
    }
    case "qubic": {
      const layers = [];
      for (let l = 0; l < 4; l++) {
        const y = 6 + l * 14;
        layers.push(h("path", { d: `M30 ${y + 8}L60 ${y}L90 ${y + 8}L60 ${y + 16}Z`, class: "art-layer" }));
      }
      return svg("0 0 120 72", "four stacked layers", ...layers, ...[0, 1, 2, 3].map((l) => stone(60, 14 + l * 14, 2.8, "o")), line(60, 14, 60, 56, "art-win"));
    }
    case "gobblet":
      return svg("0 0 120 64", "a large figure gobbling a small one", ...grid3(30, 4, 56, "art-line"), figure(49, 36, 14, "o"), figure(68, 56, 16, "x"),
        h("path", { d: "M50 24 Q 60 8 70 32", class: "art-arrow" }), h("path", { d: "M66 28 L70 33 L72 27", class: "art-arrow" }));
    case "matryoshka":
      return svg("0 0 120 64", "nesting dolls in three sizes", doll(34, 60, 52, "x"), doll(66, 60, 38, "o"), doll(92, 60, 24, "x"));
    case "connect4": {
      // A standing frame, its holes, and a diagonal of four discs dropped in.
      const parts = [h("rect", { x: 28, y: 4, width: 64, height: 56, rx: 4, class: "art-frame" })];
      const filled = { "0,5": "x", "1,5": "o", "1,4": "x", "2,5": "o", "2,4": "o", "2,3": "x", "3,5": "x", "3,4": "o", "3,3": "o", "3,2": "x", "4,5": "o" };
      for (let c = 0; c < 7; c++) {
        for (let r = 0; r < 6; r++) parts.push(h("circle", { cx: 33 + c * 9, cy: 9 + r * 9, r: 3.4, class: `art-disc art-disc-${filled[`${c},${r}`] || "hole"}` }));
      }
      parts.push(line(33, 54, 60, 27, "art-win"));
      return svg("0 0 120 64", "a standing board with four discs in a diagonal", ...parts);
    }
    default:
      // A game this page has no picture for: a plain grid.
      return svg("0 0 120 64", "a board", ...grid3(36, 6, 52));
  }
}

/** A position in miniature, from the board the server sent (any kind): its lines and
 * its marks as dots, big enough to tell one saved game from another; `last`, the cell
 * of the last move, if given, ringed (the live games on the home page). */
export function miniBoard(board, last = null) {
  const parts = [];
  // Marks as the big boards draw them (a cross, a ring), stones on a go board.
  const stones = isStones(board);
  const mark = (cx, cy, r, m) => {
    if (stones) return h("circle", { cx, cy, r: r * 1.05, class: `mini-stone-${m}` });
    if (m === "o") return h("circle", { cx, cy, r: r * 0.78, class: "mini-ring", "stroke-width": Math.max(0.8, r * 0.34) });
    const d = r * 0.72;
    return h("path", { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: "mini-cross", "stroke-width": Math.max(0.8, r * 0.34) });
  };
  const dot = (x, y, size, m, i) => [
    i === last ? h("rect", { x: x + size * 0.04, y: y + size * 0.04, width: size * 0.92, height: size * 0.92, rx: size * 0.15, class: "mini-last" }) : null,
    m ? mark(x + size / 2, y + size / 2, size * 0.4, m) : null,
  ];
  const lines = (x, y, cols, rows, size, cls = "mini-line") => {
    for (let c = 1; c < cols; c++) parts.push(line(x + c * size, y, x + c * size, y + rows * size, cls));
    for (let r = 1; r < rows; r++) parts.push(line(x, y + r * size, x + cols * size, y + r * size, cls));
  };
  if (board.kind === "grid") {
    const size = 90 / Math.max(board.columns, board.rows);
    lines(0, 0, board.columns, board.rows, size);
    board.cells.forEach((m, i) => parts.push(...dot((i % board.columns) * size, Math.floor(i / board.columns) * size, size, m, i)));
  } else if (board.kind === "ultimate") {
    for (let b = 0; b < 9; b++) lines((b % 3) * 30 + 1.5, Math.floor(b / 3) * 30 + 1.5, 3, 3, 9, "mini-line faint");
    lines(0, 0, 3, 3, 30, "mini-line strong");
    board.cells.forEach((m, i) => {
      const b = Math.floor(i / 9), c = i % 9;
      parts.push(...dot((b % 3) * 30 + 1.5 + (c % 3) * 9, Math.floor(b / 3) * 30 + 1.5 + Math.floor(c / 3) * 9, 9, m, i));
    });
  } else if (board.kind === "qubic") {
    const n = board.n;
    const size = 42 / n;
    for (let layer = 0; layer < 4; layer++) parts.push(h("rect", { x: (layer % 2) * 48, y: Math.floor(layer / 2) * 48, width: 42, height: 42, class: "mini-layer" }));
    board.cells.forEach((m, i) => {
      const layer = Math.floor(i / (n * n)) % 4, k = i % (n * n);
      parts.push(...dot((layer % 2) * 48 + (k % n) * size, Math.floor(layer / 2) * 48 + Math.floor(k / n) * size, size, m, i));
    });
  } else if (board.kind === "gobblet") {
    lines(0, 0, 3, 3, 30);
    board.stacks.forEach((stack, i) => {
      const top = stack[stack.length - 1];
      if (i === last) parts.push(h("rect", { x: (i % 3) * 30 + 1.5, y: Math.floor(i / 3) * 30 + 1.5, width: 27, height: 27, rx: 4, class: "mini-last" }));
      if (top) parts.push(h("circle", { cx: (i % 3) * 30 + 15, cy: Math.floor(i / 3) * 30 + 15, r: 4 + top.size * 3.3, class: `mini-${top.player}` }));
    });
  }
  return h("svg", { viewBox: "-3 -3 96 96", class: "mini-board", "aria-hidden": "true" }, h("rect", { x: -3, y: -3, width: 96, height: 96, rx: 6, class: "mini-bg" }), ...parts);
}
