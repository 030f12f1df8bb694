// Learn from your mistakes: which moves a lesson goes through, and how it counts them
// (src/noughts/web/js/study/lesson.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Lesson, computerLink, mistakesOf } from "../../../src/noughts/web/js/study/lesson.js";

const review = {
  moves: [
    { ply: 1, side: "x", move: "5", class: "best" },
    { ply: 2, side: "o", move: "2", class: "blunder" },
    { ply: 3, side: "x", move: "1", class: "inaccuracy" },
    { ply: 4, side: "o", move: "9", class: "mistake" },
    { ply: 5, side: "x", move: "3", class: "mistake" },
  ],
};

test("a lesson goes through one side's mistakes and blunders, not its inaccuracies", () => {
  assert.deepEqual(mistakesOf(review, "o").map((m) => m.ply), [2, 4]);
  assert.deepEqual(mistakesOf(review, "x").map((m) => m.ply), [5]);
  assert.throws(() => new Lesson([]), /no mistake/);
});

test("a wrong try stays on the mistake; found, shown and skipped each move on, and are counted", () => {
  const lesson = new Lesson(mistakesOf(review, "o"));
  assert.equal(lesson.counter, "Mistake 1 of 2");
  assert.equal(lesson.attempt({ move: "1", accepted: false }), false);
  assert.deepEqual(lesson.tried, ["1"]);
  assert.equal(lesson.current.ply, 2);
  assert.equal(lesson.attempt({ move: "3", accepted: true }), true);
  assert.equal(lesson.current.ply, 4);
  assert.deepEqual(lesson.tried, []);
  lesson.show();
  assert.equal(lesson.done, true);
  assert.equal(lesson.current, null);
  lesson.skip(); // nothing left to skip
  assert.deepEqual(lesson.summary, { found: 1, shown: 1, skipped: 0, total: 2 });
  assert.equal(lesson.summaryText, "You found 1 of 2 better moves (1 shown, 0 skipped).");
  assert.throws(() => lesson.attempt({ move: "4", accepted: true }), /over/);
});

test("continue from here: the game page's address of the position, the side and the level", () => {
  assert.equal(computerLink({ spec: "classic", moves: ["5", "1"], side: "x", level: "hard" }), "#/play?spec=classic&mode=computer&level=hard&side=x&moves=5%2C1");
  const start = computerLink({ spec: "mnk:m=5:n=5:k=4", start: "x..../...../...../...../..... o", moves: [], side: "o", level: "easy" });
  const params = new URLSearchParams(start.split("?")[1]);
  assert.equal(params.get("start"), "x..../...../...../...../..... o");
  assert.equal(params.get("spec"), "mnk:m=5:n=5:k=4");
  assert.equal(params.has("moves"), false);
});
