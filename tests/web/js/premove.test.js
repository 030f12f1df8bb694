// When a premove is sent, kept or dropped, and where stepping through the moves leads
// (src/noughts/web/js/online/premove.js, stepping.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Premove, canPremove, confirmsMoves } from "../../../src/noughts/web/js/online/premove.js";
import { plyAfterKey, plyAfterSwipe } from "../../../src/noughts/web/js/online/stepping.js";

const game = (turn, legal = ["1", "2", "3"], extra = {}) => ({
  state: "playing",
  view: { turn, status: "ongoing", board: { kind: "grid" }, legal: legal.map((text) => ({ text })) },
  ...extra,
});

test("a premove is queued only on the opponent's turn of a live placement game", () => {
  assert.equal(canPremove(game("o"), "x"), true);
  assert.equal(canPremove(game("x"), "x"), false);
  assert.equal(canPremove(game("o"), null), false);
  assert.equal(canPremove({ ...game("o"), view: { ...game("o").view, board: { kind: "ultimate" } } }, "x"), false);
  assert.equal(canPremove(game("o", [], { clock: { days_per_move: 2 } }), "x"), false);
  assert.equal(canPremove({ ...game("o"), state: "over" }, "x"), false);
});

test("a click queues, a second click on it takes it back, another cell replaces it", () => {
  const premove = new Premove();
  assert.equal(premove.toggle("5"), "5");
  assert.equal(premove.toggle("7"), "7");
  assert.equal(premove.toggle("7"), null);
  premove.toggle("2");
  assert.equal(premove.cancel(), true);
  assert.equal(premove.cancel(), false);
});

test("it waits while the opponent is to move, then is sent if legal or dropped", () => {
  const premove = new Premove();
  premove.toggle("2");
  assert.deepEqual(premove.resolve(game("o"), "x"), { send: null, dropped: null });
  assert.equal(premove.move, "2");
  assert.deepEqual(premove.resolve(game("x", ["2", "3"]), "x"), { send: "2", dropped: null });
  assert.equal(premove.move, null);
  premove.toggle("1");
  assert.deepEqual(premove.resolve(game("x", ["2", "3"]), "x"), { send: null, dropped: "1" });
  premove.toggle("3");
  assert.deepEqual(premove.resolve({ ...game("x"), state: "over" }, "x"), { send: null, dropped: "3" });
  assert.deepEqual(premove.resolve(game("x"), "x"), { send: null, dropped: null });
});

test("only correspondence moves are confirmed, and only when asked", () => {
  assert.equal(confirmsMoves({ clock: { days_per_move: 1 } }, true), true);
  assert.equal(confirmsMoves({ clock: { days_per_move: 1 } }, false), false);
  assert.equal(confirmsMoves({ clock: { initial_ms: 1, increment_ms: 0 } }, true), false);
});

test("keys and swipes step within the game", () => {
  assert.equal(plyAfterKey("ArrowLeft", 3, 5), 2);
  assert.equal(plyAfterKey("ArrowLeft", 0, 5), 0);
  assert.equal(plyAfterKey("ArrowRight", 5, 5), 5);
  assert.equal(plyAfterKey("Home", 3, 5), 0);
  assert.equal(plyAfterKey("End", 1, 5), 5);
  assert.equal(plyAfterKey("a", 1, 5), null);
  assert.equal(plyAfterSwipe(80, 5, 3, 5), 2);
  assert.equal(plyAfterSwipe(-80, 5, 3, 5), 4);
  assert.equal(plyAfterSwipe(20, 0, 3, 5), null);
  assert.equal(plyAfterSwipe(60, 90, 3, 5), null);
});
