// The board of each kind the server names (`GameView.board.kind`).

import { GobbletBoard } from "./gobblet.js";
import { GridBoard } from "./grid.js";
import { QubicBoard } from "./qubic.js";
import { UltimateBoard } from "./ultimate.js";

export const BOARDS = { grid: GridBoard, ultimate: UltimateBoard, qubic: QubicBoard, gobblet: GobbletBoard };
