// The board editor (lichess's): any position of any game set up by clicking, the side to
// move chosen (and ultimate's board to play in), checked by the game's own parser on the
// server (POST /api/position) after every change, then opened on the analysis board or
// played against the computer. Forget mode's ages follow the order the marks are put
// down in, shown on each mark. The text and its edits are editor-model.js's.
// #/editor?spec=qubic&position=..../...

import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { computerLink } from "./lesson.js";
import { cellName, cleared, palette, put, readPosition, topOf, writePosition } from "./editor-model.js";

/** The pieces' names, in the page's language when drawn. */
const PIECE_NAMES = () => ({ x: "X", o: "O", erase: t("Erase"), S: t("X small"), M: t("X medium"), L: t("X large"), s: t("O small"), m: t("O medium"), l: t("O large") });

export class EditorPage {
  constructor(root, catalogue, params, { toast }) {
    this.root = root;
    this.toast = toast;
    this.catalogue = catalogue;
    this.spec = params.get("spec") || "classic";
    this.given = params.get("position");
    this.title = t("Board editor");
    this.piece = "x";
    this.checked = null; // {text, error} of the last check
    this.token = 0;
    this.open();
  }

  destroy() {
    this.token++;
  }

  get key() {
    return this.spec.split(/[:\s]/)[0];
  }

  async open() {
    let initial;
    try {
      initial = await api.newGame(this.spec);
    } catch (e) {
      this.root.replaceChildren(h("section", { class: "page" }, h("h1", {}, this.title), h("p", { class: "error", id: "error" }, e.message), h("a", { class: "button", href: "#/editor" }, "Tic-tac-toe")));
      return;
    }
    this.spec = initial.spec;
    this.gameTitle = initial.title;
    this.initial = readPosition(initial.position);
    try {
      this.model = this.given ? readPosition(this.given) : this.initial;
    } catch (e) {
      this.toast(t("The position in the address cannot be read: {error}", { error: e.message }), "error");
      this.model = this.initial;
    }
    this.layout();
    this.draw();
  }

  layout() {
    this.picker = h(
      "select",
      { id: "editor-game", onchange: (e) => (location.hash = `#/editor?spec=${encodeURIComponent(e.target.value)}`) },
      this.catalogue.games.map((g) => h("option", { value: g.key, selected: g.key === this.key }, g.title)),
    );
    const large = this.model.dims.rows * this.model.dims.cols > 16;
    this.boardBox = h("div", { class: ["editor-board", `editor-shape-${this.model.shape}`, large && "editor-grid-large"], id: "editor-board" });
    this.pieces = h("div", { class: "editor-palette", role: "group", "aria-label": t("the piece to put down") });
    this.turn = h("select", { id: "editor-turn", onchange: (e) => this.change({ ...this.model, turn: e.target.value }) }, ["x", "o"].map((s) => h("option", { value: s }, s.toUpperCase())));
    this.forced = h(
      "select",
      { id: "editor-forced", onchange: (e) => this.change({ ...this.model, forced: e.target.value }) },
      h("option", { value: "-" }, t("any")),
      Array.from({ length: 9 }, (_, i) => h("option", { value: String(i + 1) }, t("board {n}", { n: i + 1 }))),
    );
    this.text = h("input", { id: "editor-text", type: "text", spellcheck: "false", "aria-label": t("the position as text"), onchange: (e) => this.typed(e.target.value) });
    this.verdict = h("p", { class: "editor-verdict", id: "editor-verdict", role: "status" });
    this.level = h("select", { id: "editor-level", onchange: () => this.drawLinks() }, this.catalogue.levels.map((l) => h("option", { value: l.name, title: l.description, selected: l.name === this.catalogue.default_level }, l.name)));
    this.analyse = h("a", { class: "button", id: "editor-analyse", href: "#/analysis" }, t("Analyse"));
    this.play = h("a", { class: "button", id: "editor-play", href: "#/play" }, t("Play against the computer"));
    const button = (id, label, action) => h("button", { class: "button", type: "button", id, onclick: action }, label);
    this.root.replaceChildren(
      h(
        "section",
        { class: `page game-page editor-page game-${this.key}` },
        h(
          "div",
          { class: "board-column" },
          h("div", { class: "game-head" }, h("h1", {}, `${this.title} · ${this.gameTitle}`), h("label", { class: "game-picker", for: "editor-game" }, t("Game"), this.picker)),
          this.boardBox,
        ),
        h(
          "section",
          { class: "panel", "aria-label": t("the position") },
          h("h2", {}, t("Put down")),
          this.pieces,
          h(
            "div",
            { class: "editor-choices" },
            h("label", { for: "editor-turn" }, t("To move"), this.turn),
            this.model.shape === "nine" ? h("label", { for: "editor-forced" }, t("Board to play in"), this.forced) : null,
          ),
          this.model.ages ? h("p", { class: "muted" }, t("Forget mode: each mark's number is its age, 1 the oldest (the first to vanish); marks are as old as the order you put them down in.")) : null,
          h("div", { class: "review-actions" }, button("editor-clear", t("Clear the board"), () => this.change(cleared(this.model))), button("editor-initial", t("Starting position"), () => this.change(this.initial))),
          h("label", { class: "editor-text", for: "editor-text" }, t("Position"), this.text),
          this.verdict,
          h("h2", {}, t("Then")),
          h("div", { class: "editor-choices" }, h("label", { for: "editor-level" }, t("Level"), this.level)),
          h("div", { class: "review-actions" }, this.analyse, this.play),
        ),
      ),
    );
  }

  typed(text) {
    try {
      this.change(readPosition(text));
    } catch (e) {
      this.verdict.textContent = e.message;
      this.verdict.className = "editor-verdict error";
    }
  }

  click(index) {
    try {
      this.change(put(this.model, index, this.piece));
    } catch (e) {
      this.toast(e.message, "error");
    }
  }

  change(model) {
    this.model = model;
    this.draw();
  }

  draw() {
    const text = writePosition(this.model);
    this.text.value = text;
    this.turn.value = this.model.turn;
    if (this.model.forced !== null) this.forced.value = this.model.forced;
    history.replaceState(null, "", `#/editor?${new URLSearchParams({ spec: this.spec, position: text }).toString()}`);
    this.pieces.replaceChildren(
      ...palette(this.model).map(({ piece, side }) =>
        h("button", { type: "button", class: ["button", "editor-piece", side && `piece-${side}`], id: `piece-${piece}`, "aria-pressed": String(piece === this.piece), onclick: () => ((this.piece = piece), this.draw()) }, PIECE_NAMES()[piece]),
      ),
    );
    this.drawBoard();
    if (text !== this.asked) this.check(text); // a piece chosen changes no position
  }

  drawBoard() {
    const { shape, dims, cells, ages } = this.model;
    const age = (i) => {
      if (!ages) return null;
      const list = cells[i] === "x" ? ages.x : cells[i] === "o" ? ages.o : [];
      const order = shape === "nine" ? list.filter((j) => Math.floor(j / 9) === Math.floor(i / 9)) : list;
      return order.includes(i) ? order.indexOf(i) + 1 : null;
    };
    const cell = (i) => {
      const value = cells[i];
      const top = shape === "stacks" ? topOf(value) : value === "." ? "" : value;
      const side = top ? (shape === "stacks" ? (top === top.toUpperCase() ? "x" : "o") : top) : null;
      const shown = side ? side.toUpperCase() : "";
      const said = shape === "stacks" ? (value === "." ? t("empty") : t("{pieces} (bottom to top)", { pieces: [...value].map((f) => PIECE_NAMES()[f]).join(", ") })) : side ? side.toUpperCase() : t("empty");
      const old = age(i);
      return h(
        "button",
        { type: "button", class: ["editor-cell", side && `has-${side}`, shape === "stacks" && top && `size-${top.toUpperCase()}`], "data-cell": i, "aria-label": old ? t("{cell}: {piece}, age {age}", { cell: cellName(this.model, i), piece: said, age: old }) : t("{cell}: {piece}", { cell: cellName(this.model, i), piece: said }), onclick: () => this.click(i) },
        shown,
        shape === "stacks" && value.length > 1 ? h("small", {}, value.slice(0, -1).toUpperCase()) : null,
        old ? h("small", { class: "editor-age" }, String(old)) : null,
      );
    };
    const grid = (start, rows, cols, label) => h("div", { class: "editor-grid", style: { gridTemplateColumns: `repeat(${cols}, 1fr)` }, role: "group", "aria-label": label }, Array.from({ length: rows * cols }, (_, k) => cell(start + k)));
    if (shape === "layers") {
      const size = dims.rows * dims.cols;
      this.boardBox.replaceChildren(...Array.from({ length: dims.layers }, (_, l) => h("div", { class: "editor-layer" }, h("p", { class: "muted" }, t("Layer {n}", { n: l + 1 })), grid(l * size, dims.rows, dims.cols, t("Layer {n}", { n: l + 1 })))));
    } else if (shape === "nine") {
      this.boardBox.replaceChildren(h("div", { class: "editor-nine" }, Array.from({ length: 9 }, (_, b) => grid(b * 9, 3, 3, t("board {n}", { n: b + 1 })))));
    } else this.boardBox.replaceChildren(grid(0, dims.rows, dims.cols, t("the board")));
  }

  /** The game's own parser says whether the position is one: its message, or the links. */
  async check(text) {
    this.asked = text;
    const token = ++this.token;
    let error = null;
    let view = null;
    try {
      view = await api.position({ spec: this.spec, start: text, moves: [] });
    } catch (e) {
      error = e.message;
    }
    if (token !== this.token) return;
    this.checked = { text, error, view };
    const over = view && view.status !== "ongoing";
    this.verdict.className = ["editor-verdict", error && "error"].filter(Boolean).join(" ");
    this.verdict.textContent = error ? t("Not a position: {error}", { error }) : over ? t("A finished game: the game is over in this position.") : t("A legal position, {side} to move.", { side: this.model.turn.toUpperCase() });
    this.drawLinks();
  }

  drawLinks() {
    const ok = this.checked && !this.checked.error;
    const playable = ok && this.checked.view?.status === "ongoing";
    const text = this.checked?.text;
    const start = text === writePosition(this.initial) ? null : text;
    for (const [link, href, usable] of [
      [this.analyse, `#/analysis?${new URLSearchParams({ spec: this.spec, ...(start ? { start } : {}) }).toString()}`, ok],
      [this.play, computerLink({ spec: this.spec, start, moves: [], side: this.model.turn, level: this.level.value }), playable],
    ]) {
      link.href = usable ? href : "#/editor";
      link.classList.toggle("disabled", !usable);
      link.setAttribute("aria-disabled", String(!usable));
      if (!usable) link.removeAttribute("href");
    }
  }
}
