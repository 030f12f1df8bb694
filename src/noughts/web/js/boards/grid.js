// classic and mnk: a grid of cells, k in a row. From 7x7 the board is drawn as a go
// board (stones on the intersections of lines, star points on 15x15); every board
// whose notation names cells by letter and number shows those coordinates on its edges.

import { h, markSvg, rovingFocus } from "../dom.js";
import { t } from "../i18n.js";
import { animateIn, drawWinLine, movesByCell, rebuild, sideName, stones, vanishing, vanishTitle } from "./common.js";

/** 15x15 (gomoku, renju) star points: the centre and the four 4-4 points. */
const STARS = { "15x15": [[3, 3], [3, 11], [7, 7], [11, 3], [11, 11]] };

export class GridBoard {
  constructor(root, { onMove }) {
    this.onMove = onMove;
    this.el = h("div", { class: "grid-board", role: "group", "aria-label": t("board") });
    this.cols = h("div", { class: "coords coords-cols", "aria-hidden": "true" });
    this.rows = h("div", { class: "coords coords-rows", "aria-hidden": "true" });
    this.frame = h("div", { class: "grid-frame" }, this.cols, this.rows, this.el);
    root.append(this.frame);
    this.size = [3, 3];
    rovingFocus(this.el, () => this.size, (r, c) => this.el.querySelector(`[data-row="${r}"][data-col="${c}"]`));
  }

  render(view, { interactive, hint }) {
    const { columns, rows, cells } = view.board;
    const go = stones(view.board);
    const named = columns * rows > 9; // notation a1, b2, ... (else 1-9)
    this.size = [rows, columns];
    for (const el of [this.frame, this.el]) {
      el.style.setProperty("--cols", columns);
      el.style.setProperty("--rows", rows);
    }
    this.el.classList.toggle("small-cells", !go && columns * rows > 49);
    this.el.classList.toggle("go", go);
    this.frame.classList.toggle("go", go);
    this.frame.classList.toggle("with-coords", named);
    // Connect Four's moves are its columns, numbered 1 up: only those are labelled.
    const gravity = Boolean(view.board.gravity);
    if (named) {
      this.cols.replaceChildren(...[...Array(columns).keys()].map((c) => h("span", {}, gravity ? c + 1 : String.fromCharCode(97 + c))));
      this.rows.replaceChildren(...[...Array(rows).keys()].map((r) => h("span", {}, gravity ? "" : r + 1)));
    }
    this.cols.hidden = this.rows.hidden = !named;
    const legal = movesByCell(view);
    // With gravity (Connect Four) a move is a column: any empty cell of it plays there.
    const byColumn = view.board.gravity ? new Map([...legal].map(([cell, moves]) => [cell % columns, moves])) : null;
    const winning = new Set(view.winning_line);
    const last = view.last_move ? view.last_move.cell : null;
    rebuild(this.el, () => [
      go ? goLines(columns, rows) : null,
      ...cells.map((mark, i) => {
        const move = !interactive ? undefined : byColumn ? (mark ? undefined : byColumn.get(i % columns)?.[0]) : legal.get(i)?.[0];
        const fading = mark ? vanishing(view, i) : null;
        const label = move ? move.text : cellName(view, i);
        return h(
          "button",
          {
            class: ["cell", mark && `has-${mark}`, move && "playable", winning.has(i) && "win", last === i && "last",
              fading && "vanishing", fading?.next && "vanishing-next", hint && move?.text === hint && "hint"],
            "data-cell": i,
            "data-row": Math.floor(i / columns),
            "data-col": i % columns,
            "data-move": move ? move.text : null,
            tabindex: -1,
            "aria-label": mark ? t("{cell}: {side}", { cell: label, side: sideName(view.board, mark) }) : t("{cell}: empty", { cell: label }),
            title: fading ? vanishTitle(view.board, fading.player, fading.next) : label,
            "aria-disabled": move ? null : "true",
            onclick: () => move && this.onMove(move.text),
          },
          // Boards numbered 1-9 in notation show the number in a corner.
          named ? null : h("span", { class: "cell-name", "aria-hidden": "true" }, i + 1),
          mark ? (go ? h("span", { class: ["stone", `stone-${mark}`, last === i && "fresh"], "aria-hidden": "true" }) : markSvg(mark, last === i ? "fresh" : "")) : null,
        );
      }),
    ].filter(Boolean));
    const fresh = last === null ? null : this.el.querySelector(`[data-cell="${last}"] .stone, [data-cell="${last}"] .mark`);
    if (fresh) animateIn(fresh, this, view);
    drawWinLine(this.el, view.winning_line.map((i) => this.el.querySelector(`[data-cell="${i}"]`)));
  }
}

/** The lines of a go board through the cells' centres, and the star points. */
function goLines(columns, rows) {
  const lines = [];
  for (let c = 0; c < columns; c++) lines.push(h("line", { x1: c + 0.5, y1: 0.5, x2: c + 0.5, y2: rows - 0.5 }));
  for (let r = 0; r < rows; r++) lines.push(h("line", { x1: 0.5, y1: r + 0.5, x2: columns - 0.5, y2: r + 0.5 }));
  const stars = STARS[`${columns}x${rows}`] || (columns % 2 && rows % 2 ? [[(rows - 1) / 2, (columns - 1) / 2]] : []);
  return h(
    "svg",
    { class: "go-lines", viewBox: `0 0 ${columns} ${rows}`, preserveAspectRatio: "none", "aria-hidden": "true" },
    h("rect", { x: 0.5, y: 0.5, width: columns - 1, height: rows - 1, class: "go-edge" }),
    ...lines,
    ...stars.map(([r, c]) => h("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.12, class: "star" })),
  );
}

function cellName(view, i) {
  const { columns, rows, gravity } = view.board;
  if (gravity) return `column ${(i % columns) + 1}, row ${Math.floor(i / columns) + 1}`;
  if (columns * rows <= 9) return String(i + 1);
  return String.fromCharCode(97 + (i % columns)) + (Math.floor(i / columns) + 1);
}
