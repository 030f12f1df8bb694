// The analysis board: any position of any game, moves for both sides kept as a tree of
// variations, the engine's top lines deepening while you look, every move's exact
// value where the game is solved, and a game's review (graph, classes, the better move,
// retry from here). Its address holds the game and the tree, so a link shares it:
// #/analysis?spec=ultimate&tree=55,51(15,53)&at=55,15,53&review=1

import { api, online } from "../api.js";
import { drawMoveMarks, sideName, stones } from "../boards/common.js";
import { boardFor } from "../boards/index.js";
import { h, patchChildren } from "../dom.js";
import { t, tn } from "../i18n.js";
import { strongestLevel } from "../levels.js";
import { describeSpec } from "../spec.js";
import { boundTitle, moveValue, verdict, fallText } from "../values.js";
import { evaluationGraph } from "./graph.js";
import { ContinuePanel, LessonPanel } from "./learn.js";
import { Tree } from "./tree.js";

/** The engine thinks this long, in turn, while the position stays on the board. */
const DEEPENING = [0.3, 1, 2.5, 5];
const REVIEW_SECONDS = 0.5;
/** A review being computed is asked for again this often (milliseconds). */
const REVIEW_POLL = 700;
const CLASS_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** The review's classes of a move, in the page's language. */
const CLASS_NAMES = () => ({ best: t("best"), good: t("good"), inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") });

export class AnalysisPage {
  constructor(root, catalogue, params, { toast }) {
    this.root = root;
    this.toast = toast;
    this.catalogue = catalogue;
    this.analyst = strongestLevel(catalogue); // the engine lines, the review and "Retry from here"
    this.spec = params.get("spec") || "classic";
    this.start = params.get("start") || null;
    // An online game's id: its review is the stored one, asked for once for everyone.
    this.online = params.get("online") || null;
    this.views = new Map(); // path text -> the server's view of that position
    this.review = null; // the server's review of the main line, and the moves it covers
    this.reviewing = false;
    this.progress = null; // a review being computed: {done, total} positions
    this.closed = false;
    this.engineOn = true;
    this.engine = null; // the latest analysis of the current position
    this.engineToken = 0;
    this.better = null; // the reviewed move whose better move the board shows (before it)
    try {
      this.tree = Tree.parse(params.get("tree") || params.get("moves")?.replaceAll(" ", "") || "");
    } catch (e) {
      this.tree = new Tree();
      toast(t("The variations in the address cannot be read: {reason}", { reason: e.message }), "error");
    }
    const at = (params.get("at") || "").split(",").filter(Boolean);
    this.node = (at.length ? this.tree.find(at) : null) || this.endOfLine(this.tree.root);
    this.keys = (e) => this.onKey(e);
    document.addEventListener("keydown", this.keys);
    this.own = ["x", "o"].includes(params.get("side")) ? params.get("side") : null; // the side the player had
    this.lessonPanel = new LessonPanel(this);
    this.continuePanel = new ContinuePanel(this);
    this.layout();
    this.open(params.get("review") === "1");
  }

  get title() {
    // The game's name from the server once a position is in ("Gomoku"), else the family's;
    // a game with a name of its own needs no options after it.
    const name = this.view?.title || this.info?.title || this.spec;
    const options = name === this.info?.title ? describeSpec(this.spec, this.info) : "";
    return options ? t("Analysis · {game} ({options})", { game: name, options }) : t("Analysis · {game}", { game: name });
  }

  get key() {
    return this.spec.split(/[:\s]/)[0];
  }

  get info() {
    return this.catalogue.games.find((g) => g.key === this.key) || null;
  }

  destroy() {
    this.closed = true;
    this.engineToken++;
    document.removeEventListener("keydown", this.keys);
  }

  redraw() {
    if (this.board) this.render();
  }


  game(moves) {
    return { spec: this.spec, start: this.start, moves };
  }

  // -- layout ------------------------------------------------------------------------

  layout() {
    this.heading = h("h1", {}, this.title);
    // Which game: every game of the server's catalogue (the list the home page and the
    // lobby offer); another one opens its board, the one before a step back.
    this.picker = h(
      "select",
      { id: "analysis-game", onchange: (e) => (location.hash = `#/analysis?spec=${encodeURIComponent(e.target.value)}`) },
      this.catalogue.games.map((g) => h("option", { value: g.key, selected: g.key === this.key }, g.title)),
    );
    this.status = h("p", { class: "status", id: "status", "aria-live": "polite" });
    this.boardBox = h("div", { class: "board-box" });
    this.evalFill = h("div", { class: "eval-fill" });
    this.verdict = h("p", { class: "verdict", id: "verdict" });
    this.lines = h("ol", { class: "engine-lines", id: "engine-lines", "aria-label": t("the engine's best lines") });
    this.engineInfo = h("p", { class: "engine-info muted", id: "engine-info" });
    this.engineDetails = h("details", { class: "engine-details", hidden: true }, h("summary", {}, t("Details")), this.engineInfo);
    this.evalBox = h("div", { class: "eval-bar", id: "eval-bar", hidden: true }, this.evalFill);
    this.engineButton = h("button", { class: "button", type: "button", id: "engine-toggle", "aria-pressed": "true", onclick: () => this.toggleEngine() }, t("Engine on"));
    this.exact = h("section", { class: "tablebase", id: "tablebase", hidden: true, "aria-label": t("exact values") });
    this.reviewBox = h("section", { class: "review", id: "review", "aria-label": t("review") });
    this.tools = h("div", { class: "node-tools" });
    this.moveTree = h("ol", { class: "move-tree", id: "move-tree", "aria-label": t("moves and variations") });
    this.link = h("input", { id: "share-link", type: "text", readonly: true, "aria-label": t("link to this analysis"), onfocus: (e) => e.target.select() });
    this.loadText = h("textarea", { id: "load-text", rows: 4, spellcheck: "false", "aria-label": t("a position text or a game record"), placeholder: "x.o/.x./..o x  or a record: [Game \"classic\"] ..." });
    const nav = (id, label, title, action) => h("button", { class: "button", id, type: "button", title, "aria-label": title, onclick: action }, label);
    this.root.replaceChildren(
      h(
        "section",
        { class: `page game-page analysis-page game-${this.spec.split(/[:\s]/)[0]}` },
        h(
          "div",
          { class: "board-column" },
          h("div", { class: "game-head" }, this.heading, h("label", { class: "game-picker", for: "analysis-game" }, t("Game"), this.picker)),
          this.status,
          h("div", { class: "board-wrap" }, this.boardBox),
          h(
            "div",
            { class: "nav-bar" },
            nav("first", "«", t("to the start"), () => this.go(this.tree.root)),
            nav("back", "◀", t("one move back (←)"), () => this.node.parent && this.go(this.node.parent)),
            nav("forward", "▶", t("one move on (→)"), () => this.node.children[0] && this.go(this.node.children[0])),
            nav("last", "»", t("to the end of this line"), () => this.go(this.endOfLine(this.node))),
          ),
          this.evalBox,
          this.verdict,
        ),
        h(
          "section",
          { class: "panel", "aria-label": t("the analysis") },
          this.lessonPanel.box,
          h("section", { class: "engine", "aria-label": t("engine") }, h("div", { class: "section-head" }, h("h2", {}, t("Engine")), this.engineButton), this.lines, this.engineDetails),
          this.exact,
          this.reviewBox,
          h("section", { class: "moves", "aria-label": t("moves") }, h("h2", {}, t("Moves")), this.moveTree, this.tools),
          this.continuePanel.box,
          h(
            "details",
            { class: "load" },
            h("summary", {}, t("Load a position or a record")),
            this.loadText,
            h("button", { class: "button", type: "button", id: "load", onclick: () => this.load() }, t("Load")),
          ),
          h(
            "div",
            { class: "share" },
            h("label", { for: "share-link" }, t("Share")),
            this.link,
            h("button", { class: "button", type: "button", id: "copy-link", onclick: () => this.copyLink() }, t("Copy link")),
          ),
          h("a", { class: "button subtle", href: `#/play?spec=${encodeURIComponent(this.spec)}` }, t("Play this game")),
          (this.editLink = h("a", { class: "button subtle", id: "edit-position", href: "#/editor" }, "Board editor")),
        ),
      ),
    );
  }

  // -- positions ---------------------------------------------------------------------

  async open(startReview) {
    if (this.online && !this.tree.root.children.length) {
      // An online game by its id alone (the profile's list): its moves from the server.
      try {
        const game = await online.game(this.online);
        this.spec = game.spec;
        // A player of the game learns from their own mistakes (a spectator, from either side's).
        const { user } = await online.me().catch(() => ({ user: null }));
        if (user) this.own = ["x", "o"].find((side) => game[side]?.name === user.name) || this.own;
        this.tree = Tree.line(game.moves);
        this.node = this.endOfLine(this.tree.root);
        this.heading.textContent = this.title;
      } catch (e) {
        this.toast(e.message, "error");
      }
    }
    let view;
    try {
      view = await this.viewOf(this.node);
    } catch (e) {
      // The address may hold a line that is no longer legal (edited by hand): drop it.
      this.toast(t("This line cannot be played: {reason}", { reason: e.message }), "error");
      this.tree = new Tree();
      this.node = this.tree.root;
      try {
        view = await this.viewOf(this.node);
      } catch (again) {
        this.root.replaceChildren(h("section", { class: "page" }, h("h1", {}, t("This position cannot be analysed")), h("p", { class: "error", id: "error" }, again.message), h("a", { class: "button", href: "#/" }, t("Choose a game"))));
        return;
      }
    }
    this.spec = view.spec;
    const Board = boardFor(view.board.kind);
    this.board = new Board(this.boardBox, { onMove: (text) => this.play(text), onSelect: () => {} });
    this.go(this.node);
    if (this.online) await this.loadStoredReview();
    if (startReview) this.requestReview();
  }

  async loadStoredReview() {
    try {
      const { review, progress } = await online.analysis(this.online);
      if (review) this.review = { data: review, moves: this.tree.mainLine };
      else if (progress) this.requestReview(progress); // under way since the game ended: follow it
    } catch (e) {
      this.toast(e.message, "error");
    }
    this.render();
  }

  async viewOf(node) {
    const key = node.path.join(",");
    if (!this.views.has(key)) this.views.set(key, await api.newGame(this.spec, node.path, this.start));
    return this.views.get(key);
  }

  async play(text) {
    if (this.lessonPanel.takes(this.node)) return this.lessonPanel.attempt(text);
    const from = this.node;
    let next;
    try {
      next = await api.play(this.game(from.path), text);
    } catch (e) {
      this.toast(e.message, "error");
      return;
    }
    const node = from.child(next.moves[next.moves.length - 1]);
    this.views.set(node.path.join(","), next);
    this.go(node);
  }

  async go(node) {
    this.node = node;
    this.better = null;
    let view;
    try {
      view = await this.viewOf(node);
    } catch (e) {
      this.toast(e.message, "error");
      return;
    }
    if (this.node !== node) return; // another move was chosen meanwhile
    this.view = view;
    this.heading.textContent = this.title;
    this.engine = null;
    this.remember();
    this.render();
    this.think();
  }

  endOfLine(node) {
    while (node.children.length) node = node.children[0];
    return node;
  }

  /** The address holds the game, the tree and the position: reload and links keep them. */
  remember() {
    const params = new URLSearchParams({ spec: this.spec });
    if (this.start) params.set("start", this.start);
    if (this.online) params.set("online", this.online);
    const tree = this.tree.toText();
    if (tree) params.set("tree", tree);
    const at = this.node.path.join(",");
    if (at) params.set("at", at);
    const hash = `#/analysis?${params.toString()}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
    this.link.value = location.href;
  }

  async copyLink() {
    this.link.value = location.href;
    try {
      await navigator.clipboard.writeText(location.href);
      this.toast("The link is copied");
    } catch {
      this.link.focus();
      this.link.select();
      this.toast("Copy the selected link");
    }
  }

  async load() {
    const text = this.loadText.value.trim();
    if (!text) return;
    try {
      if (text.startsWith("[") || text.startsWith("{")) {
        const record = await api.record(text);
        this.spec = record.spec;
        this.start = record.start;
        this.tree = Tree.line(record.moves);
      } else {
        await api.position({ spec: this.spec, start: text, moves: [] });
        this.start = text;
        this.tree = new Tree();
      }
    } catch (e) {
      this.toast(e.message, "error");
      return;
    }
    this.views.clear();
    this.review = null;
    this.heading.textContent = this.title;
    this.node = this.endOfLine(this.tree.root);
    this.boardBox.replaceChildren();
    this.open(false);
  }

  // -- the engine --------------------------------------------------------------------

  toggleEngine() {
    this.engineOn = !this.engineOn;
    this.engineButton.textContent = this.engineOn ? t("Engine on") : t("Engine off");
    this.engineButton.setAttribute("aria-pressed", String(this.engineOn));
    this.engine = null;
    this.render();
    this.think();
  }

  /** Ask the engine again and again, longer each time, while the position stays. */
  async think() {
    const token = ++this.engineToken;
    if (!this.engineOn || this.view.status !== "ongoing") return;
    for (const seconds of DEEPENING) {
      let analysis;
      try {
        analysis = await api.analysis(this.game(this.node.path), this.analyst, seconds);
      } catch (e) {
        if (token === this.engineToken) this.engineInfo.textContent = t("The engine stopped: {reason}", { reason: e.message });
        return;
      }
      if (token !== this.engineToken) return;
      this.engine = analysis;
      this.render();
      if (analysis.moves.every((m) => m.value.exact)) return; // proven: nothing deeper to find
    }
  }

  playLine(moves) {
    this.playLineFrom(this.node, moves);
  }

  /** Play `moves` from `start` into the tree (a variation where they differ), and go there. */
  playLineFrom(start, moves) {
    let node = start;
    const play = async () => {
      for (const text of moves) {
        const next = await api.play(this.game(node.path), text);
        node = node.child(next.moves[next.moves.length - 1]);
        this.views.set(node.path.join(","), next);
      }
      this.go(node);
    };
    play().catch((e) => this.toast(e.message, "error"));
  }

  // -- the review --------------------------------------------------------------------

  /** Asks for the main line's review (an online game's: the stored one), then asks
   * again while it is computed, showing how far it has got; nothing waits on it.
   * `started`: the progress of one already under way, to follow. */
  async requestReview(started = null) {
    const moves = this.tree.mainLine;
    if (!moves.length || this.reviewing) return;
    this.reviewing = true;
    this.progress = null;
    this.render();
    try {
      let answer = started ?? (await (this.online ? online.requestAnalysis(this.online) : api.review(this.game(moves), this.analyst, REVIEW_SECONDS)));
      while (answer.status === "computing") {
        if (this.closed) return;
        this.progress = answer;
        this.drawReview();
        await new Promise((resolve) => setTimeout(resolve, REVIEW_POLL));
        answer = this.online ? await this.onlineProgress() : await api.reviewByKey(answer.key);
      }
      this.review = { data: answer, moves };
    } catch (e) {
      this.toast(e.status === 401 ? t("Sign in on the online page to ask for the analysis") : t("The review failed: {reason}", { reason: e.message }), "error");
    } finally {
      this.reviewing = false;
      this.progress = null;
      if (!this.closed) this.render();
    }
  }

  /** An online game's review, or its progress, as `api.review` answers them. */
  async onlineProgress() {
    const { review, progress } = await online.analysis(this.online);
    if (!review && !progress) throw new Error("the analysis stopped; ask again");
    return review || progress;
  }

  /** The review of the move that led to `node`, where the review covers it. */
  reviewed(node) {
    if (!this.review || !node.parent || !node.onMainLine) return null;
    const ply = node.ply;
    return ply <= this.review.moves.length && this.review.moves[ply - 1] === node.move ? this.review.data.moves[ply - 1] : null;
  }

  // -- drawing -----------------------------------------------------------------------

  render() {
    const view = this.view;
    if (!view) return;
    this.picker.value = this.key; // a record loaded may be of another game
    // The better move of a reviewed mistake is drawn as its own marks, not as the engine's hint.
    const learning = this.lessonPanel.active; // the engine would give the answer away
    this.root.querySelector(".game-page")?.classList.toggle("learning", learning);
    const hint = this.better || learning ? null : this.engineOn && this.engine ? this.engine.best : null;
    this.board.render(view, { interactive: view.status === "ongoing", hint });
    this.root.querySelector(".game-page")?.classList.toggle("stones", stones(view.board));
    const better = this.better;
    drawMoveMarks(this.boardBox, better ? [{ move: better.best, kind: "best" }, { move: better.move, kind: "played", glyph: CLASS_MARKS[better.class] }] : []);
    const turn = this.side(view.turn);
    this.status.textContent = view.status === "ongoing" ? t("{side} to move · move {n}", { side: turn, n: this.node.ply + 1 }) : view.status === "draw" ? t("Draw") : t("{side} wins", { side: this.side(view.status[0]) });
    this.status.dataset.turn = view.status === "ongoing" ? view.turn : "";
    this.drawEngine();
    this.drawReview();
    this.drawTree();
    this.continuePanel.draw();
    this.editLink.href = `#/editor?${new URLSearchParams({ spec: this.spec, position: view.position }).toString()}`;
  }

  /** "X" and "O", or "Black" and "White" on a board of stones. */
  side(mark) {
    return sideName(this.view.board, mark);
  }

  drawEngine() {
    const e = this.engineOn ? this.engine : null;
    const over = this.view.status !== "ongoing";
    // The bar shows the engine's judgment (exact where proven) or the result, and nothing
    // (not an even bar) while there is none.
    this.evalBox.hidden = !over && !e;
    this.evalBox.classList.toggle("stones", stones(this.view.board));
    this.evalBox.title = `${this.side("x")}'s chance to the left, ${this.side("o")}'s to the right`;
    this.evalFill.style.width = over ? (this.view.status === "draw" ? "50%" : this.view.status[0] === "x" ? "100%" : "0%") : `${50 + 50 * (e ? e.bar : 0)}%`;
    const said = e ? verdict(e.value, this.view.turn, (m) => this.side(m)) : "";
    const judged = e && !e.value.exact ? t("{verdict} · {source}", { verdict: said, source: t("the strongest level ({level})", { level: e.level }) }) : said;
    this.verdict.textContent = over ? t("The game is over") : !this.engineOn ? t("The engine is off") : e ? judged : t("The engine is thinking…");
    const solved = e && e.moves.every((m) => m.value.exact);
    // A proof-number or threat search proves a win without its shortest distance.
    const bounded = solved && e.moves.some((m) => m.value.bound);
    patchChildren(
      this.lines,
      (e ? e.moves.filter((m) => m.line.length) : []).map((m) =>
        h(
          "li",
          { class: "engine-line" },
          h("span", { class: ["line-value", m.value.exact && `value-${m.value.kind}`, m.value.bound && "value-bound"], title: boundTitle(m.value) }, moveValue(m.value)),
          " ",
          m.line.map((text, i) => h("button", { type: "button", class: "line-move", title: t("play the line up to here"), onclick: () => this.playLine(m.line.slice(0, i + 1)) }, text)),
        ),
      ),
    );
    this.engineDetails.hidden = !e;
    this.engineInfo.textContent = e ? `${e.player}${e.depth ? `, depth ${e.depth}` : ""}, ${e.nodes.toLocaleString("en")} nodes, ${e.time.toFixed(1)} s${solved ? (bounded ? " · proven" : " · exact") : ""}` : "";
    // Where every move's value is exact (a solved game, or a proven end), all of them,
    // as lichess's tablebase panel lists them.
    this.exact.hidden = !solved;
    if (solved) {
      const order = { win: 0, draw: 1, score: 2, unknown: 2, loss: 3 };
      const moves = [...e.moves].sort((a, b) => order[a.value.kind] - order[b.value.kind]);
      this.exact.replaceChildren(
        h("h2", {}, bounded ? t("Proven values") : t("Exact values")),
        h(
          "ul",
          { class: "exact-moves" },
          moves.map((m) =>
            h("li", {}, h("button", { type: "button", class: ["exact-move", `value-${m.value.kind}`, m.value.bound && "value-bound"], title: boundTitle(m.value), "data-move": m.text, onclick: () => this.play(m.text) }, h("code", {}, m.text), h("span", {}, moveValue(m.value)))),
          ),
        ),
      );
    }
  }

  drawReview() {
    const box = this.reviewBox;
    if (this.reviewing) {
      const { done = 0, total = this.tree.mainLine.length + 1 } = this.progress || {};
      box.replaceChildren(
        h("h2", {}, t("Review")),
        h("p", { class: "muted", id: "review-status" }, this.progress ? `Computing: ${done} of ${total} positions done…` : `Reviewing ${total} positions…`),
        h("progress", { id: "review-progress", max: total, value: done, "aria-label": t("review progress") }),
      );
      return;
    }
    if (!this.review) {
      const moves = this.tree.mainLine.length;
      box.replaceChildren(h("h2", {}, t("Review")), h("button", { class: "button", type: "button", id: "request-review", disabled: !moves, onclick: () => this.requestReview() }, !moves ? t("Play some moves to review them") : this.online ? t("Request the analysis") : t("Review the main line")));
      return;
    }
    const data = this.review.data;
    const sides = ["x", "o"].map((side) =>
      h(
        "div",
        { class: `review-side side-${side}` },
        h("strong", {}, data.accuracy[side] === null ? t("{side}: no moves", { side: this.side(side) }) : t("{side}: {percent}% accuracy", { side: this.side(side), percent: Math.round(data.accuracy[side]) })),
        h("span", { class: "muted" }, [
          tn("{n} inaccuracy", "{n} inaccuracies", data.classes[side].inaccuracy),
          tn("{n} mistake", "{n} mistakes", data.classes[side].mistake),
          tn("{n} blunder", "{n} blunders", data.classes[side].blunder),
        ].join(", ")),
      ),
    );
    const current = this.node.onMainLine && this.node.ply <= this.review.moves.length ? this.node.ply : null;
    const graph = evaluationGraph(data, current, (ply) => this.go(this.tree.find(this.review.moves.slice(0, ply)) || this.tree.root));
    // At the position before a mistake whose better move is shown, its note stays.
    const move = this.better ?? this.reviewed(this.node);
    let note = null;
    if (move && CLASS_MARKS[move.class]) {
      const mover = this.side(move.side);
      note = h(
        "div",
        { class: `review-note class-${move.class}`, id: "review-note" },
        h("p", {}, h("strong", {}, t("{side} {move}: {class}.", { side: mover, move: `${move.move}${CLASS_MARKS[move.class] || ""}`, class: CLASS_NAMES()[move.class] ?? move.class })), " ",
          move.value_before.text === move.value_after.text ? "" : `${moveValue(move.value_before)} → ${moveValue(move.value_after)}. `, t("Better: {move}", { move: move.best })),
        // Where the estimates around it could not tell, the move blamed for a proven fall says so.
        move.fell_to ? h("p", { class: "fell" }, fallText(move)) : null,
        h(
          "p",
          { class: "muted best-line" },
          t("Best line: "),
          move.line.map((text, i) => h("button", { type: "button", class: "line-move", title: t("play the line up to here, from the position before"), onclick: () => this.playLineFrom(this.before(move), move.line.slice(0, i + 1)) }, text)),
        ),
        h(
          "div",
          { class: "review-actions" },
          h("button", { class: "button", type: "button", id: "show-better", onclick: () => this.showBetter(move) }, t("Show the better move")),
          h("a", { class: "button", id: "retry", href: this.retryLink(move) }, t("Retry from here")),
        ),
      );
    }
    const keyboard = document.activeElement?.classList.contains("graph-key");
    const by = h("details", { class: "engine-details review-by" }, h("summary", {}, t("Details")), h("p", { class: "muted" }, t("Reviewed by {reviewer}", { reviewer: data.reviewer })));
    const learn = h("div", { class: "review-actions learn" }, this.lessonPanel.startButtons(data, this.own));
    box.replaceChildren(...[h("h2", {}, t("Review")), h("div", { class: "review-sides" }, sides), learn, graph, note, by].filter(Boolean));
    if (keyboard) box.querySelector(".graph-key.current")?.focus(); // keep the keyboard on the graph
  }

  /** Back to the position before the move, the better move marked on the board. */
  async showBetter(move) {
    await this.go(this.before(move));
    this.better = move;
    this.render();
  }

  /** The position before a reviewed move, found by the game's moves (not from the
   * current position: a click that is still being answered may have moved it). */
  before(move) {
    return this.tree.find(this.review.moves.slice(0, move.ply - 1)) || this.tree.root;
  }

  /** Play on against the computer from the position before the move, as its mover. */
  retryLink(move) {
    const params = new URLSearchParams({ spec: this.spec, mode: "computer", level: this.analyst, side: move.side, moves: this.review.moves.slice(0, move.ply - 1).join(",") });
    if (this.start) params.set("start", this.start);
    return `#/play?${params.toString()}`;
  }

  drawTree() {
    const items = [this.moveItem(this.tree.root, "start")];
    this.walk(this.tree.root, items, 0);
    patchChildren(this.moveTree, items);
    // Scroll the list, not the page: the board stays where the eye is.
    const current = this.moveTree.querySelector(".current");
    if (current) this.moveTree.scrollTop = current.offsetTop - this.moveTree.clientHeight / 2;
    const node = this.node;
    const side = node.parent && !node.onMainLine;
    this.tools.replaceChildren(
      ...[
        side ? h("button", { class: "button", type: "button", id: "promote", onclick: () => (this.tree.promote(node), this.remember(), this.render()) }, t("Make main line")) : null,
        node.parent ? h("button", { class: "button", type: "button", id: "delete", onclick: () => this.remove(node) }, t("Delete from here")) : null,
      ].filter(Boolean),
    );
  }

  remove(node) {
    const parent = node.parent;
    this.tree.remove(node);
    this.go(parent);
  }

  // The main line from `node` on, each move's alternatives after it: a variation is a
  // list inside an item of the list, so that a screen reader tells the levels.
  walk(node, items, depth) {
    while (node.children.length) {
      const [main, ...others] = node.children;
      items.push(this.moveItem(main, null, depth));
      for (const other of others) {
        const variation = [this.moveItem(other, null, depth + 1)];
        this.walk(other, variation, depth + 1);
        items.push(h("li", { class: "variation" }, h("ol", { "aria-label": `variation from ${other.move}` }, variation)));
      }
      node = main;
    }
  }

  moveItem(node, label, depth = 0) {
    const ply = node.ply;
    const turn = this.views.get("")?.turn || "x";
    const mover = ply === 0 ? null : (ply % 2 === 1) === (turn === "x") ? "x" : "o";
    const reviewed = this.reviewed(node);
    const name = mover && this.view ? this.side(mover) : mover?.toUpperCase();
    return h(
      "li",
      {},
      h(
        "button",
        {
          type: "button",
          class: ["tree-move", node === this.node && "current", mover && `ply-${mover}`, reviewed && `class-${reviewed.class}`, depth && "in-variation"],
          "data-path": node.path.join(","),
          "aria-current": node === this.node ? "true" : null,
          title: reviewed ? reviewed.class : null,
          onclick: () => this.go(node),
        },
        label ?? [h("span", { class: "num" }, `${ply}.`), ` ${name} ${node.move}${reviewed ? CLASS_MARKS[reviewed.class] || "" : ""}`],
      ),
    );
  }

  // -- keyboard ----------------------------------------------------------------------

  onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.("input, select, textarea, .board-box, .graph-box")) return;
    const actions = {
      ArrowLeft: () => this.node.parent && this.go(this.node.parent),
      ArrowRight: () => this.node.children[0] && this.go(this.node.children[0]),
      Home: () => this.go(this.tree.root),
      End: () => this.go(this.endOfLine(this.node)),
    };
    const action = actions[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  }
}
