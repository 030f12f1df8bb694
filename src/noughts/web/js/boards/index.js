// The board of each kind the server names (`GameView.board.kind`).

import { GobbletBoard } from "./gobblet.js";
import { GridBoard } from "./grid.js";
import { QubicBoard } from "./qubic.js";
import { TextBoard } from "./text.js";
import { UltimateBoard } from "./ultimate.js";

export const BOARDS = { grid: GridBoard, ultimate: UltimateBoard, qubic: QubicBoard, gobblet: GobbletBoard, text: TextBoard };

/** The board that draws a board of `kind`; the text board for a kind this page does not know. */
export function boardFor(kind) {
  return BOARDS[kind] ?? TextBoard;
}
