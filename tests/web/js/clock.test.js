// How the lists name a game's clock (src/noughts/web/js/clock.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText } from "../../../src/noughts/web/js/clock.js";

test("a clock in words", () => {
  assert.equal(clockText(null), "no clock");
  assert.equal(clockText({ days: 1 }), "1 day a move");
  assert.equal(clockText({ days: 3 }), "3 days a move");
  assert.equal(clockText({ minutes: 3, increment: 2 }), "3+2");
});
