// qubic: the layers side by side (one grid per layer, top layer first) and the cube in
// 3-D beside them; both take clicks.

import { h, markSvg, rovingFocus } from "../dom.js";
import { t } from "../i18n.js";
import { animateIn, drawWinLine, movesByCell, rebuild } from "./common.js";
import { Cube } from "./cube3d.js";

export class QubicBoard {
  constructor(root, { onMove }) {
    this.onMove = onMove;
    this.layers = h("div", { class: "qubic-layers", role: "group", "aria-label": t("layers") });
    this.cubeBox = h("div", { class: "qubic-cube" });
    root.append(h("div", { class: "qubic-board" }, this.layers, this.cubeBox));
    this.cube = new Cube(this.cubeBox, { onPick: (cell) => this.pick(cell) });
    this.size = [4, 16];
    rovingFocus(this.layers, () => this.size, (r, c) => this.layers.querySelector(`[data-row="${r}"][data-col="${c}"]`));
    this.legal = new Map();
  }

  pick(cell) {
    const move = this.legal.get(cell)?.[0];
    if (move) this.onMove(move.text);
  }

  render(view, { interactive, hint }) {
    const { n, d, cells } = view.board;
    const slices = n ** (d - 2);
    this.size = [n, n * slices];
    this.layers.style.setProperty("--n", n);
    this.legal = interactive ? movesByCell(view) : new Map();
    const winning = new Set(view.winning_line);
    const last = view.last_move ? view.last_move.cell : null;
    rebuild(this.layers, () =>
      [...Array(slices).keys()].map((s) =>
        h(
          "div",
          { class: "layer", "data-layer": s, role: "group", "aria-label": sliceName(s, n, d) },
          h("div", { class: "layer-label", "aria-hidden": "true" }, sliceName(s, n, d)),
          // The notation is layer, row, column: rows and columns are numbered on the
          // plane's edges, inside its perspective.
          h(
            "div",
            { class: "layer-plane" },
            h("div", { class: "coords layer-cols", "aria-hidden": "true" }, [...Array(n).keys()].map((c) => h("span", {}, c + 1))),
            h("div", { class: "coords layer-rows", "aria-hidden": "true" }, [...Array(n).keys()].map((r) => h("span", {}, r + 1))),
          h(
            "div",
            { class: "layer-grid" },
            [...Array(n * n).keys()].map((k) => {
              const i = s * n * n + k;
              const mark = cells[i];
              const move = this.legal.get(i)?.[0];
              const text = move ? move.text : cellText(i, n, d);
              return h(
                "button",
                {
                  class: ["cell", mark && `has-${mark}`, move && "playable", winning.has(i) && "win", last === i && "last",
                    hint && move?.text === hint && "hint"],
                  "data-cell": i,
                  "data-row": Math.floor(k / n),
                  "data-col": s * n + (k % n),
                  "data-move": move ? move.text : null,
                  tabindex: -1,
                  "aria-label": mark ? t("{cell}: {side}", { cell: text, side: mark.toUpperCase() }) : t("{cell}: empty", { cell: text }),
                  title: text,
                  "aria-disabled": move ? null : "true",
                  onclick: () => move && this.onMove(move.text),
                  onpointerenter: () => this.cube.highlight(i),
                  onpointerleave: () => this.cube.highlight(null),
                  onfocus: () => this.cube.highlight(i),
                },
                mark ? markSvg(mark, last === i ? "fresh" : "") : null,
              );
            }),
          ),
          ),
        ),
      ),
    );
    const fresh = last === null ? null : this.layers.querySelector(`[data-cell="${last}"] .mark`);
    if (fresh) animateIn(fresh, this, view);
    // A line within one layer is stroked there; one through the layers shows in the cube.
    const layersOfLine = new Set(view.winning_line.map((i) => Math.floor(i / (n * n))));
    if (layersOfLine.size === 1) {
      const grid = this.layers.querySelector(`[data-layer="${[...layersOfLine][0]}"] .layer-grid`);
      grid.style.position = "relative";
      drawWinLine(grid, view.winning_line.map((i) => grid.querySelector(`[data-cell="${i}"]`)));
    }
    this.cubeBox.hidden = d !== 3;
    if (d === 3) this.cube.update({ n, cells, winning: view.winning_line, last, playable: new Set(this.legal.keys()), hint: hint ? [...this.legal.entries()].find(([, m]) => m[0].text === hint)?.[0] : null });
  }
}

function sliceName(s, n, d) {
  if (d === 2) return t("board");
  if (d === 3) return t("layer {n}", { n: s + 1 });
  return t("block {block}, layer {layer}", { block: Math.floor(s / n) + 1, layer: (s % n) + 1 });
}

function cellText(i, n, d) {
  const digits = [];
  for (let a = 0; a < d; a++) {
    digits.unshift((i % n) + 1);
    i = Math.floor(i / n);
  }
  return digits.join("");
}
