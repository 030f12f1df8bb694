import assert from "node:assert/strict";
import { test } from "node:test";

import { MoveTimer } from "../../../src/noughts/web/js/online/timing.js";

function clock() {
  const c = { t: 1000, now: () => c.t };
  return c;
}

test("a move's spent time runs from its position's arrival, once per turn", () => {
  const c = clock();
  const timer = new MoveTimer(c.now);
  assert.deepEqual(timer.timing(), {});
  timer.seen(true, 4);
  c.t += 700;
  timer.seen(true, 4); // the same position again (a presence change): the turn goes on
  c.t += 300;
  assert.deepEqual(timer.timing(), { spent: 1000 });
  timer.seen(false, 5);
  assert.deepEqual(timer.timing(), {});
});

test("the lag is half the round trip's decaying mean; stray pongs are ignored", () => {
  const c = clock();
  const timer = new MoveTimer(c.now);
  timer.pinged(1);
  c.t += 100;
  timer.ponged(1);
  timer.ponged(1);
  timer.ponged(99);
  assert.equal(timer.timing().lag, 50);
  timer.pinged(2);
  c.t += 600;
  timer.ponged(2);
  assert.equal(timer.timing().lag, 100); // (0.8 * 100 + 0.2 * 600) / 2
  for (let id = 3; id < 20; id++) timer.pinged(id);
  assert.equal(timer.pings.size, 8);
});
