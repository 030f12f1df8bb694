// The analysis board's "Learn from your mistakes" and "Continue from here" panels. The
// lesson's bookkeeping is lesson.js's; the page (analysis.js) owns the board and the tree.

import { api } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { moveValue } from "../values.js";
import { Lesson, computerLink, mistakesOf } from "./lesson.js";

/** A move tried in a lesson is judged by the strongest level thinking this long. */
const ATTEMPT_SECONDS = 1;
/** The result of a mistake and a move's class, in the page's language. */
const RESULT_WORDS = () => ({ found: t("found"), shown: t("shown"), skipped: t("skipped") });
const CLASS_WORDS = () => ({ best: t("best"), good: t("good"), inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") });

export class LessonPanel {
  /** `page`: the AnalysisPage (its review, tree, board and `go`). */
  constructor(page) {
    this.page = page;
    this.lesson = null;
    this.feedback = null; // {kind: "good" | "bad" | "info" | "error", text}
    this.waiting = false; // a tried move being judged
    this.between = false; // a mistake done, its result shown until "Next"
    this.box = h("section", { class: "lesson", id: "lesson", hidden: true, "aria-label": t("Learn from your mistakes") });
  }

  /** While a mistake waits for a better move (the engine is out of sight meanwhile). */
  get active() {
    return Boolean(this.lesson && !this.lesson.done && !this.between);
  }

  /** Whether a move played at `node` is the lesson's: at the position before the
   * mistake; elsewhere (gone there with the arrows) it is an ordinary move of the tree. */
  takes(node) {
    return this.active && node === this.page.before(this.lesson.current);
  }

  /** The buttons that start a lesson: one per side with mistakes, `own` (the side the
   * player had, where the page knows it) alone when it has some. */
  startButtons(review, own) {
    const sides = (own ? [own] : ["x", "o"]).filter((side) => mistakesOf(review, side).length);
    return sides.map((side) => {
      const count = mistakesOf(review, side).length;
      const label = own ? t("Learn from your mistakes ({n})", { n: count }) : t("Learn from {side}'s mistakes ({n})", { side: this.page.side(side), n: count });
      return h("button", { class: "button", type: "button", id: `learn-${side}`, onclick: () => this.start(side) }, label);
    });
  }

  start(side) {
    this.lesson = new Lesson(mistakesOf(this.page.review.data, side));
    this.side = side;
    this.between = false;
    this.feedback = null;
    this.box.hidden = false;
    this.toCurrent();
  }

  close() {
    this.lesson = null;
    this.box.hidden = true;
    this.box.replaceChildren();
    this.page.render();
  }

  async toCurrent() {
    this.between = false;
    const move = this.lesson.current;
    if (move) await this.page.go(this.page.before(move));
    this.draw();
  }

  /** A move played on the board at the current mistake: judged by the server as the
   * review judges a move; a good one is played into the tree, a bad one is not. */
  async attempt(text) {
    if (this.waiting) return;
    const move = this.lesson.current;
    const before = this.page.before(move);
    this.waiting = true;
    this.feedback = { kind: "info", text: t("Checking {move}…", { move: text }) };
    this.draw();
    let judged;
    try {
      judged = await api.attempt(this.page.game(before.path), text, this.page.analyst, ATTEMPT_SECONDS);
    } catch (e) {
      this.feedback = { kind: "error", text: e.message };
      return;
    } finally {
      this.waiting = false;
      this.draw();
    }
    if (this.lesson.current !== move) return; // skipped while it was judged
    if (this.lesson.attempt(judged)) {
      this.between = true;
      const params = { move: judged.move, best: move.best, value: moveValue(judged.value) };
      const text = judged.move === move.best ? t("Well done: {move} is the best move ({value}).", params) : t("Well done: {move} is as good as the best, {best} ({value}).", params);
      this.feedback = { kind: "good", text };
      this.page.playLineFrom(before, [judged.move]);
    } else {
      this.feedback = { kind: "bad", text: t("{move} is no better ({value}: {class}). Try another move.", { move: judged.move, value: moveValue(judged.value), class: CLASS_WORDS()[judged.class] ?? judged.class }) };
    }
    this.draw();
  }

  async show() {
    const move = this.lesson.current;
    this.lesson.show();
    this.between = true;
    this.feedback = { kind: "info", text: t("The better move was {move} ({value}).", { move: move.best, value: moveValue(move.value_before) }) };
    await this.page.showBetter(move);
    this.draw();
  }

  skip() {
    this.lesson.skip();
    this.feedback = null;
    this.toCurrent();
  }

  draw() {
    const lesson = this.lesson;
    if (!lesson) return;
    const button = (id, label, action, disabled = false) => h("button", { class: "button", type: "button", id, disabled, onclick: action }, label);
    const feedback = this.feedback ? h("p", { class: `lesson-feedback lesson-${this.feedback.kind}`, id: "lesson-feedback", role: "status" }, this.feedback.text) : null;
    if (lesson.done && !this.between) {
      this.box.replaceChildren(
        h("h2", {}, t("Learn from your mistakes")),
        h("p", { id: "lesson-summary" }, lesson.summaryText),
        h(
          "ol",
          { class: "lesson-results" },
          lesson.moves.map((m, i) => h("li", { class: `lesson-${lesson.results[i]}` }, t("{ply}. {side} {move} ({class}): {result}, better {best}", { ply: m.ply, side: this.page.side(m.side), move: m.move, class: CLASS_WORDS()[m.class] ?? m.class, result: RESULT_WORDS()[lesson.results[i]], best: m.best }))),
        ),
        h("div", { class: "review-actions" }, button("lesson-again", t("Again"), () => this.start(this.side)), button("lesson-close", t("Close"), () => this.close())),
      );
      return;
    }
    const shown = this.between ? lesson.moves[lesson.index - 1] : lesson.current;
    const mover = this.page.side(shown.side);
    const actions = this.between
      ? [button("lesson-next", lesson.done ? t("See the summary") : t("Next mistake"), () => this.toCurrent())]
      : [button("lesson-show", t("Show me"), () => this.show(), this.waiting), button("lesson-skip", t("Skip"), () => this.skip())];
    this.box.replaceChildren(
      ...[
        h("div", { class: "section-head" }, h("h2", {}, t("Learn from your mistakes")), button("lesson-close", t("Close"), () => this.close())),
        h("p", { class: "muted", id: "lesson-counter" }, this.between ? t("Mistake {n} of {total} done", { n: lesson.index, total: lesson.moves.length }) : lesson.counter),
        h("p", { id: "lesson-task" }, (shown.class === "blunder" ? t("{side} played {move}, a blunder. Find a better move for {side}.", { side: mover, move: shown.move }) : t("{side} played {move}, a mistake. Find a better move for {side}.", { side: mover, move: shown.move }))),
        feedback,
        h("div", { class: "review-actions" }, actions),
      ].filter(Boolean),
    );
  }
}

/** "Continue from here": the position on the board played on against the computer, at
 * a level chosen, as the side chosen. */
export class ContinuePanel {
  constructor(page) {
    this.page = page;
    const levels = page.catalogue.levels;
    this.level = h("select", { id: "continue-level" }, levels.map((l) => h("option", { value: l.name, title: l.description, selected: l.name === page.catalogue.default_level }, l.name)));
    this.sideChoice = h("select", { id: "continue-side" });
    this.link = h("a", { class: "button", id: "continue-computer", href: "#/play" }, t("Play against the computer"));
    this.picked = null; // the side chosen; until then, the side to move
    this.level.addEventListener("change", () => this.draw());
    this.sideChoice.addEventListener("change", () => ((this.picked = this.sideChoice.value), this.draw()));
    this.box = h(
      "details",
      { class: "continue", id: "continue" },
      h("summary", {}, t("Continue from here")),
      h("div", { class: "continue-choices" }, h("label", { for: "continue-level" }, t("Level"), this.level), h("label", { for: "continue-side" }, t("Play as"), this.sideChoice)),
      this.link,
    );
  }

  draw() {
    const page = this.page;
    const view = page.view;
    const over = view.status !== "ongoing";
    this.box.hidden = over;
    if (over) return;
    const chosen = this.picked || view.turn;
    const options = ["x", "o"].map((s) => h("option", { value: s, selected: s === chosen }, s === view.turn ? t("{side} (to move)", { side: page.side(s) }) : page.side(s)));
    this.sideChoice.replaceChildren(...options);
    this.link.href = computerLink({ spec: page.spec, start: page.start, moves: page.node.path, side: this.sideChoice.value, level: this.level.value });
  }
}
