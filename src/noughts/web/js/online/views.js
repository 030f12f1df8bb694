// Small pieces the online pages share: the link and button to a game's analysis, the
// position of an ended game, the mark of a bot's name.

import { online } from "../api.js";
import { t } from "../i18n.js";

/** A finished game on the analysis board, with its stored review (or the button that asks for it). */
export function analysisLink(id, spec) {
  return `#/analysis?${new URLSearchParams({ spec, online: id }).toString()}`;
}

/** A "Request analysis" button: starts the game's review (stored for everyone; the
 * server answers at once), then opens the analysis board, which follows it. */
export function analysisButton(h, game, toast) {
  const button = h("button", { class: "button", type: "button", "data-analysis": game.id }, t("Request analysis"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    button.textContent = t("Analysing…");
    try {
      await online.requestAnalysis(game.id);
      location.hash = analysisLink(game.id, game.spec);
    } catch (e) {
      button.disabled = false;
      button.textContent = t("Request analysis");
      toast(e.status === 401 ? t("Log in or play as a guest to ask for the analysis") : e.message, "error");
    }
  });
  return button;
}

/** The position to draw once the game has ended by resignation, time, agreement or
 * abandonment: the rules still see a game going on there, so its local boards would
 * stay framed as playable (ultimate, nine-board); an ended game has no move to make. */
export function ended(view) {
  return view.board.playable ? { ...view, board: { ...view.board, playable: [] } } : view;
}

/** The mark a bot's name carries everywhere it is shown, as lichess marks bot accounts. */
export function botMark(h, isBot) {
  return isBot ? h("span", { class: "bot-mark", title: t("a computer player") }, "BOT") : null;
}
