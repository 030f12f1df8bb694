// The page's language: its texts are written in English where they are shown, through
// t("text {name}", { name }) and tn("{n} move", "{n} moves", n), and looked up in the
// catalogue the server makes of the language's .po file (GET /i18n/LANG.json). Plurals
// follow the language's CLDR rules (Intl.PluralRules), numbers its writing
// (Intl.NumberFormat); English needs no catalogue.

/** @typedef {Record<string, string | Record<string, string>>} Messages */

let language = "en";
/** @type {Messages} */
let messages = {};
/** @type {Record<string, string>} */
let offered = { en: "English" };
let plurals = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

/** Loads `wanted`'s catalogue (English when it is not offered or cannot be loaded) and
 * sets <html lang>; resolves to the language now spoken. */
export async function setLanguage(wanted) {
  let answer = null;
  try {
    const response = await fetch(`/i18n/${encodeURIComponent(wanted || "en")}.json`);
    if (response.ok) answer = await response.json();
    else answer = await (await fetch("/i18n/en.json")).json();
  } catch {
    answer = null;
  }
  if (answer) useCatalogue(answer);
  document.documentElement.lang = language;
  return language;
}

/** Speaks the language of a catalogue as the server sends it (also the node tests'). */
export function useCatalogue({ language: code, languages, messages: texts }) {
  language = code;
  messages = texts;
  offered = languages;
  // The pseudo-language (en-XA) counts as English.
  plurals = new Intl.PluralRules(code);
  numbers = new Intl.NumberFormat(code);
}

export const currentLanguage = () => language;
/** The languages offered, by code, each named in itself. */
export const languages = () => offered;

/** `value` written as the language writes numbers. */
export const formatNumber = (value) => numbers.format(value);

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/** `text` in the page's language, its {placeholders} filled from `params`. */
export function t(text, params = undefined) {
  const found = messages[text];
  return fill(typeof found === "string" ? found : text, params);
}

/** The form for `n` of a text with plurals, with `n` among its placeholders. */
export function tn(singular, plural, n, params = undefined) {
  const forms = messages[singular];
  const category = plurals.select(n);
  const text = forms && typeof forms === "object" ? (forms[category] ?? forms.other) : n === 1 ? singular : plural;
  return fill(text, { n, ...params });
}

/** A text with links (or other elements) in it, translated whole: each <a>…</a> of the
 * text, in order, becomes `makers[i](its words)`, so that a language places its links
 * where its sentence needs them. "No game: <a>create one</a>." -> ["No game: ", <a>, "."]. */
export function tl(text, makers, params = undefined) {
  const parts = t(text, params).split(/<a>(.*?)<\/a>/);
  return parts.map((part, i) => (i % 2 ? makers[(i - 1) / 2](part) : part)).filter((part) => part !== "");
}
