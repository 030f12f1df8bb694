// The page's words for the computer's values (src/noughts/web/js/values.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { boundTitle, fallText, moveValue, verdict } from "../../../src/noughts/web/js/values.js";

const name = (mark) => mark.toUpperCase();

test("a proven result counts the winner's own moves, never plies", () => {
  assert.equal(moveValue({ kind: "win", plies: 3 }), "win in 2 moves");
  assert.equal(moveValue({ kind: "win", plies: 1 }), "win in 1 move");
  assert.equal(moveValue({ kind: "loss", plies: 4, bound: true }), "loss in at most 2 moves");
  assert.equal(boundTitle({ kind: "loss", plies: 4, bound: true }), "proven; a quicker win may exist");
  assert.equal(boundTitle({ kind: "win", plies: 4 }), undefined);
});

test("an estimate is a chance, an exact draw its words", () => {
  assert.equal(moveValue({ kind: "estimate", chance: 0.634 }), "63%");
  assert.equal(moveValue({ kind: "draw", exact: true, chance: 0.5, text: "draw" }), "draw");
  assert.equal(moveValue({ kind: "estimate", chance: null, text: "?" }), "?");
});

test("a position's verdict names the side that wins, whoever is to move", () => {
  assert.equal(verdict({ kind: "win", plies: 5 }, "o", name), "O wins in 3 moves");
  assert.equal(verdict({ kind: "loss", plies: 2 }, "o", name), "X wins in 1 move");
  assert.equal(verdict({ kind: "draw" }, "x", name), "A draw with best play");
  assert.equal(verdict({ kind: "estimate", chance: 0.25 }, "x", name), "X to move: 25% (an estimate)");
  assert.equal(verdict({ kind: "estimate" }, "x", name), "Not evaluated");
});

test("a move blamed for a proven fall says what fell, and when", () => {
  const blamed = { value_before: { kind: "win", plies: 5 }, value_after: { kind: "estimate", chance: 0.5 }, fell_to: { kind: "loss", plies: 0 }, fell_at: 8 };
  assert.equal(fallText(blamed), "Proven before this move: win in 3 moves; lost by ply 8.");
  const drawn = { ...blamed, fell_to: { kind: "draw", exact: true, chance: 0.5, text: "draw" }, fell_at: 9 };
  assert.equal(fallText(drawn), "Proven before this move: win in 3 moves; by ply 9: draw.");
  assert.equal(fallText({ ...blamed, fell_to: null }), null);
});
