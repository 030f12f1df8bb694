// classic and mnk: a grid of cells, k in a row.

import { h, markSvg, rovingFocus } from "../dom.js";
import { movesByCell, rebuild, vanishing, vanishTitle } from "./common.js";

export class GridBoard {
  constructor(root, { onMove }) {
    this.onMove = onMove;
    this.el = h("div", { class: "grid-board", role: "grid", "aria-label": "board" });
    root.append(this.el);
    this.size = [3, 3];
    rovingFocus(this.el, () => this.size, (r, c) => this.el.querySelector(`[data-row="${r}"][data-col="${c}"]`));
  }

  render(view, { interactive, hint }) {
    const { columns, rows, cells } = view.board;
    this.size = [rows, columns];
    this.el.style.setProperty("--cols", columns);
    this.el.style.setProperty("--rows", rows);
    this.el.classList.toggle("small-cells", columns * rows > 49);
    const legal = movesByCell(view);
    const winning = new Set(view.winning_line);
    const last = view.last_move ? view.last_move.cell : null;
    rebuild(this.el, () =>
      cells.map((mark, i) => {
        const move = interactive ? legal.get(i)?.[0] : undefined;
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
            "aria-label": `${label}: ${mark ? mark.toUpperCase() : "empty"}`,
            title: fading ? vanishTitle(fading.player, fading.next) : label,
            "aria-disabled": move ? null : "true",
            onclick: () => move && this.onMove(move.text),
          },
          mark ? markSvg(mark, last === i ? "fresh" : "") : null,
        );
      }),
    );
  }
}

function cellName(view, i) {
  const { columns, rows } = view.board;
  if (columns * rows <= 9) return String(i + 1);
  return String.fromCharCode(97 + (i % columns)) + (Math.floor(i / columns) + 1);
}
