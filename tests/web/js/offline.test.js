// Tic-tac-toe's rules in the page, for play offline (src/noughts/web/js/offline.js);
// tests/web/test_offline.py checks them against the server's answers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { offlineView, playsOffline } from "../../../src/noughts/web/js/offline.js";

test("only tic-tac-toe from its empty board is played offline", () => {
  assert.equal(playsOffline("classic", null), true);
  assert.equal(playsOffline("classic", ".../.../... x"), true);
  assert.equal(playsOffline("classic", "x../.../... o"), false);
  assert.equal(playsOffline("ultimate", null), false);
  assert.throws(() => offlineView("gomoku", []), /needs the server/);
});

test("a line wins, a full board draws, and the legal moves are the empty cells", () => {
  const start = offlineView("classic", []);
  assert.equal(start.legal.length, 9);
  assert.equal(start.turn, "x");
  const won = offlineView("classic", ["5", "2", "1", "3", "9"]);
  assert.deepEqual([won.status, won.result, won.winning_line, won.legal], ["x-wins", "x wins", [0, 4, 8], []]);
  assert.equal(won.position, "xoo/.x./..x o");
  const drawn = offlineView("classic", ["5", "1", "9", "2", "3", "7", "4", "6", "8"]);
  assert.deepEqual([drawn.status, drawn.result], ["draw", "draw"]);
});

test("a taken cell, a cell off the board and a move after the end are refused, as the server words it", () => {
  assert.throws(() => offlineView("classic", ["5", "5"]), { message: "moves[1]: cell 5 is taken", field: "moves[1]" });
  assert.throws(() => offlineView("classic", ["0"]), /not a cell 1-9/);
  assert.throws(() => offlineView("classic", ["1", "4", "2", "5", "3", "6"]), /the game is over/);
});
