// A game's spec in words (src/noughts/web/js/spec.js) and the levels the catalogue
// gives (src/noughts/web/js/levels.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { chosenLevel, strongestLevel } from "../../../src/noughts/web/js/levels.js";
import { describeSpec, specOptions, specWith } from "../../../src/noughts/web/js/spec.js";

test("a spec's options are read as written, a bare name is true", () => {
  assert.deepEqual(specOptions("classic:forget=true:keep=4"), { forget: "true", keep: "4" });
  assert.deepEqual(specOptions("ultimate"), {});
  assert.deepEqual(specOptions("qubic:d"), { d: "true" });
});

test("a spec in words, its defaults from the catalogue", () => {
  const mnk = { options: [{ name: "m", default: 3 }, { name: "n", default: 3 }, { name: "k", default: 3 }] };
  assert.equal(describeSpec("mnk:m=15:n=15:k=5", mnk), "15×15, 5 in a row");
  assert.equal(describeSpec("mnk:k=4", mnk), "3×3, 4 in a row");
  const classic = { options: [{ name: "keep", default: 3 }] };
  assert.equal(describeSpec("classic:forget=true", classic), "Forget mode, 3 marks");
  assert.equal(describeSpec("classic", classic), "");
  assert.equal(describeSpec("ultimate:tiebreak=boards", { options: [] }), "tie-break: boards");
});

test("a level the catalogue does not have falls back to its default", () => {
  const catalogue = { levels: [{ name: "easy" }, { name: "medium" }, { name: "max" }], default_level: "medium" };
  assert.equal(chosenLevel(catalogue, "max"), "max");
  assert.equal(chosenLevel(catalogue, "impossible"), "medium");
  assert.equal(strongestLevel(catalogue), "max");
});

test("a spec is written from the options chosen, defaults left out", () => {
  const mnk = { key: "mnk", options: [{ name: "m", type: "int", default: 3 }, { name: "n", type: "int", default: 3 }, { name: "k", type: "int", default: 3 }] };
  assert.equal(specWith(mnk, { m: 15, n: 15, k: 5 }), "mnk:m=15:n=15:k=5");
  assert.equal(specWith(mnk, { m: 3, k: "" }), "mnk");
  const classic = { key: "classic", options: [{ name: "forget", type: "bool", default: false }, { name: "keep", type: "int", default: 3 }] };
  assert.equal(specWith(classic, { forget: true, keep: 4 }), "classic:forget:keep=4");
  assert.equal(specWith(classic, { forget: false, keep: 4 }), "classic");
  assert.equal(specOptions(specWith(classic, { forget: true })).forget, "true");
});
