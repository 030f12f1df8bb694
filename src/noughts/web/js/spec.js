// A game's spec text ("mnk:m=15:n=15:k=5", "classic:forget=true:keep=4") in words for
// people: the chip beside the title and the "continue your game" list use it.

import { t } from "./i18n.js";

/** The options written in a spec, as {name: text}. */
export function specOptions(spec) {
  const out = {};
  for (const part of spec.split(":").slice(1)) {
    const [name, value] = part.split("=");
    out[name] = value === undefined ? "true" : value;
  }
  return out;
}

/** "Forget mode, 3 marks", "15×15, 5 in a row", "tie-break: boards" or "" (the plain game). */
export function describeSpec(spec, info) {
  const key = spec.split(":")[0];
  const options = specOptions(spec);
  const value = (name) => options[name] ?? String(info?.options.find((o) => o.name === name)?.default ?? "");
  const parts = [];
  if (key === "mnk") parts.push(t("{m}×{n}, {k} in a row", { m: value("m"), n: value("n"), k: value("k") }));
  if (key === "qubic" && (options.n || options.d)) parts.push(value("d") === "2" ? `${value("n")}×${value("n")}` : `${value("n")}×${value("n")}×${value("n")}`);
  if (options.forget === "true") parts.push(t("Forget mode, {keep} marks", { keep: value("keep") }));
  if (options.tiebreak && options.tiebreak !== "none") parts.push(t("tie-break: {rule}", { rule: options.tiebreak }));
  return parts.join(" · ");
}

/** The spec of `game` (a catalogue entry) with the option `values` chosen: those at
 * their default left out, a switch by its bare name, "keep" only with Forget mode. */
export function specWith(game, values) {
  const parts = [game.key];
  for (const opt of game.options) {
    const value = values[opt.name];
    if (value === undefined || value === null || value === "" || value === opt.default) continue;
    if (opt.name === "keep" && values.forget !== true) continue;
    if (opt.type === "bool") {
      if (value === true) parts.push(opt.name);
    } else parts.push(`${opt.name}=${value}`);
  }
  return parts.join(":");
}
