// The board editor's model: each shape of position text read and written back, and the
// edits (src/noughts/web/js/study/editor-model.js). The texts are the games' own
// (noughts.games' to_text), as GET /api/new gives them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cellName, cleared, put, readPosition, writePosition } from "../../../src/noughts/web/js/study/editor-model.js";

const TEXTS = [
  "oox/.x./.x. o",
  "oox/.x./.x. o x=3,5,8 o=2,1",
  "..x.x/x..../o..../....o/..... o",
  "........./...xx...x/........./........./.o......./........./........./........./.o....... o 4",
  "........./...xx...x/........./........./.o......./........./........./........./.o....... o - x=24,25,29 o=52,92",
  "..../..../..../....|.x../..../..../....|..../.o../..../....|..x./.o../x.../.... o",
  ".,.,s/.,.,SL/s,.,. o",
  "......./......./......./......x/......o/.x..o.x o",
];

test("every shape of position text is read and written back as it was", () => {
  for (const text of TEXTS) assert.equal(writePosition(readPosition(text)), text, text);
  assert.deepEqual(readPosition(TEXTS[1]).ages, { x: [2, 4, 7], o: [1, 0] });
  assert.equal(readPosition(TEXTS[3]).shape, "nine");
  assert.equal(readPosition(TEXTS[5]).dims.layers, 4);
  assert.throws(() => readPosition("x.o"), /not a position/);
});

test("a mark put down is the newest of its side's ages; put again, or erased, it goes", () => {
  let model = readPosition(".../.../... x x=- o=-");
  model = put(model, 4, "x");
  model = put(model, 0, "o");
  model = put(model, 8, "x");
  assert.equal(writePosition(model), "o../.x./..x x x=5,9 o=1");
  model = put(model, 4, "o"); // over x's: now o's, and o's newest
  assert.equal(writePosition(model), "o../.o./..x x x=9 o=1,5");
  model = put(put(model, 8, "x"), 0, "erase");
  assert.equal(writePosition(model), ".../.o./... x x=- o=5");
  assert.equal(writePosition(cleared(put(model, 1, "x"))), ".../.../... x x=- o=-");
  assert.equal(cellName(readPosition(TEXTS[2]), 7), "c2");
});

test("ultimate lists its ages board by board; figures stack over smaller ones only", () => {
  let nine = readPosition("........./........./........./........./........./........./........./........./......... x - x=- o=-");
  nine = put(put(nine, 40, "x"), 2, "x"); // 55 then 13
  assert.match(writePosition(nine), / x - x=13,55 o=-$/);
  let stacks = readPosition(".,.,./.,.,./.,.,. x");
  stacks = put(put(stacks, 0, "s"), 0, "M");
  assert.equal(writePosition(stacks), "sM,.,./.,.,./.,.,. x");
  assert.throws(() => put(stacks, 0, "m"), /over a smaller one/);
  assert.equal(writePosition(put(stacks, 0, "erase")), "s,.,./.,.,./.,.,. x");
});
