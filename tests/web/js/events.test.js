// The socket client's logic (src/noughts/web/js/online/events.js): what each event
// does to the state the page holds, as the server's own tests expect
// (tests/server/online/people.py's `patched`).
import assert from "node:assert/strict";
import { test } from "node:test";

import { afterEvent, patched } from "../../../src/noughts/web/js/online/events.js";

const game = {
  id: "g",
  version: 4,
  ply: 2,
  moves: ["5", "1"],
  clock: null,
  offers: { draw: null },
  view: { ply: 2, moves: ["5", "1"], board: "o...x....", turn: "x" },
};

const move = (version, text, extra = {}) => ({
  type: "event",
  kind: "move",
  by: "x",
  move: text,
  version,
  ply: game.ply + 1,
  deadline: null,
  patch: { clock: null, offers: { draw: null }, view: { board: "o...x...x", turn: "o" } },
  game: null,
  ...extra,
});

test("a move's patch gives the state the server would send whole", () => {
  const after = patched(game, move(5, "9"));
  assert.deepEqual(after.moves, ["5", "1", "9"]);
  assert.deepEqual(after.view, { ply: 3, moves: ["5", "1", "9"], board: "o...x...x", turn: "o" });
  assert.equal(after.version, 5);
  assert.equal(after.id, "g");
  assert.deepEqual(game.moves, ["5", "1"]); // the state before is left as it was
});

test("an event already seen changes nothing", () => {
  assert.deepEqual(afterEvent(game, move(4, "9")), { game, seen: true });
  assert.deepEqual(afterEvent(game, move(3, "9")), { game, seen: true });
});

test("after a skipped version a patch waits for the whole state", () => {
  assert.deepEqual(afterEvent(game, move(6, "9")), { game, resync: true });
  assert.deepEqual(afterEvent(null, move(1, "9")), { game: null, resync: true });
});

test("a whole state is shown, and asked for again when a version was skipped", () => {
  const whole = { ...game, version: 7, state: "over" };
  const resigned = { ...move(7, null), kind: "resign", patch: null, game: whole };
  assert.deepEqual(afterEvent(game, resigned), { game: whole, resync: true });
  assert.deepEqual(afterEvent(game, { ...resigned, version: 5 }), { game: whole, resync: false });
});
