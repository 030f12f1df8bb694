// Tic-tac-toe played in the browser when the server cannot be reached (the network
// dropped, the app opened from the home screen offline): the views the server's
// /api/new and /api/play answer, for the one game whose rules fit in a page. Every
// other game, and the computer's moves, need the server; the service worker (sw.js)
// keeps the page itself loadable offline.

/** The games this module plays without the server, by spec. */
export const OFFLINE_SPECS = new Set(["classic"]);

const EMPTY = ".../.../... x";

/** Whether the page plays `spec` from `start` (null or the empty board) without the server. */
export function playsOffline(spec, start) {
  return OFFLINE_SPECS.has(spec) && (!start || start === EMPTY);
}

// In the order the server looks for them (by their first cells), which names the same
// line when a last move makes two.
const LINES = [[0, 1, 2], [0, 3, 6], [0, 4, 8], [1, 4, 7], [2, 4, 6], [2, 5, 8], [3, 4, 5], [6, 7, 8]];
const cellMove = (cell) => ({ text: String(cell + 1), cell, size: null, source: null });

/** A refusal worded as the server's ({error, message, field}), for the page's toast. */
export class OfflineRuleError extends Error {
  constructor(message, field) {
    super(message);
    this.error = "illegal-move";
    this.field = field;
    this.status = 400;
  }
}

/** The view of tic-tac-toe after `moves` (the server's GameView, field for field). */
export function offlineView(spec, moves) {
  if (!OFFLINE_SPECS.has(spec)) throw new OfflineRuleError(`${spec} needs the server, which cannot be reached`, "spec");
  const cells = Array(9).fill(null);
  let winner = null;
  let line = [];
  moves.forEach((text, i) => {
    const field = `moves[${i}]`;
    const cell = /^[1-9]$/.test(String(text)) ? Number(text) - 1 : null;
    if (winner) throw new OfflineRuleError(`${field}: the game is over`, field);
    if (cell === null) throw new OfflineRuleError(`${field}: ${JSON.stringify(text)} is not a cell 1-9`, field);
    if (cells[cell]) throw new OfflineRuleError(`${field}: cell ${text} is taken`, field);
    cells[cell] = i % 2 ? "o" : "x";
    const won = LINES.find((l) => l.every((c) => cells[c] === cells[cell]));
    if (won) [winner, line] = [cells[cell], won];
  });
  const turn = moves.length % 2 ? "o" : "x";
  const full = cells.every(Boolean);
  const status = winner ? `${winner}-wins` : full ? "draw" : "ongoing";
  const rows = [0, 3, 6].map((r) => cells.slice(r, r + 3).map((m) => m || ".").join(""));
  return {
    spec, key: spec, title: "Tic-tac-toe", start: EMPTY, position: `${rows.join("/")} ${turn}`,
    moves: moves.map(String), ply: moves.length, turn, status,
    result: winner ? `${winner} wins` : full ? "draw" : null,
    legal: status === "ongoing" ? cells.flatMap((m, i) => (m ? [] : [cellMove(i)])) : [],
    last_move: moves.length ? cellMove(Number(moves[moves.length - 1]) - 1) : null,
    winning_line: line, winning_boards: [],
    board: { kind: "grid", columns: 3, rows: 3, k: 3, cells, gravity: false },
    forget: null,
  };
}
