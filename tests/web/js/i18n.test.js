// The page's look-ups (src/noughts/web/js/i18n.js): a catalogue as the server sends it,
// plurals by the language's CLDR categories, numbers in its writing, links kept in place.
import assert from "node:assert/strict";
import { test } from "node:test";

import { t, tl, tn, useCatalogue } from "../../../src/noughts/web/js/i18n.js";

const languages = { en: "English" };

test("English is the texts as written, with plurals and numbers", () => {
  useCatalogue({ language: "en", languages, messages: {} });
  assert.equal(t("Player {number}", { number: 2 }), "Player 2");
  assert.equal(tn("{n} player", "{n} players", 1), "1 player");
  assert.equal(tn("{n} player", "{n} players", 12345), "12,345 players");
  assert.equal(t("{x} and {unknown}", { x: "X" }), "X and {unknown}");
});

test("a language's plural forms are chosen by Intl.PluralRules' category", () => {
  const forms = { one: "{n} игрок", few: "{n} игрока", many: "{n} игроков", other: "{n} игрока" };
  useCatalogue({ language: "ru", languages, messages: { "{n} player": forms } });
  assert.equal(tn("{n} player", "{n} players", 1), "1 игрок");
  assert.equal(tn("{n} player", "{n} players", 3), "3 игрока");
  assert.equal(tn("{n} player", "{n} players", 11), "11 игроков");
  assert.equal(tn("{n} player", "{n} players", 21), "21 игрок");
  // Russian groups thousands with a (narrow) no-break space.
  assert.match(tn("{n} player", "{n} players", 5000), /^5\s000 игроков$/u);
  useCatalogue({ language: "zh", languages, messages: { "{n} player": { other: "{n} 位棋手" } } });
  assert.equal(tn("{n} player", "{n} players", 1), "1 位棋手");
  assert.equal(t("Undo"), "Undo");
});

test("links stay where the language puts them", () => {
  useCatalogue({ language: "zh", languages, messages: { "No game: <a>create one</a>.": "没有对局：<a>创建一个</a>吧。" } });
  const made = tl("No game: <a>create one</a>.", [(words) => ({ link: words })]);
  assert.deepEqual(made, ["没有对局：", { link: "创建一个" }, "吧。"]);
});
