// The puzzle dashboard's numbers in words (src/noughts/web/js/study/dashboard.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { PUZZLE_MODES, signed, solvedShare } from "../../../src/noughts/web/js/study/dashboard.js";

test("a share solved and a rating change, in words", () => {
  assert.equal(solvedShare({ attempts: 4, solved: 3 }), "3 of 4 (75%)");
  assert.equal(solvedShare({ attempts: 3, solved: 2 }), "2 of 3 (67%)");
  assert.equal(solvedShare({ attempts: 0, solved: 0 }), "none tried");
  assert.deepEqual([signed(12), signed(-8), signed(0)], ["+12", "−8", "0"]);
  assert.deepEqual(PUZZLE_MODES.map(([mode]) => mode), ["rated", "daily", "streak", "dashboard"]);
});
