"""The shapes of the web API's requests and answers (they are also its OpenAPI schema).

Every request that concerns a game carries the whole game: the spec, the start position
(None for the usual one) and the moves played, all in the notation of the README. The
answer describes the position for drawing: the board in a shape per family, the legal
moves with the cells they touch, the last move, the winning line.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from noughts.ai.base import MIN_TIME
from noughts.ai.levels import Level
from noughts.records import MAX_RECORD_SIZE
from noughts.registry import GAMES, parse_spec
from noughts.server.guards import MAX_BODY

Mark = Literal["x", "o"]

#: Far more than any game of the family lasts (15x15 has 225 cells; forget-mode games
#: end by threefold repetition), so only abuse hits it.
MAX_MOVES = 5000
MAX_THINK_SECONDS = 10.0
#: The least a request may ask the computer to think: a millisecond (the core's own
#: floor, `noughts.ai.base.MIN_TIME`, is lower still).
MIN_THINK_SECONDS = max(0.001, MIN_TIME)
#: Seeds are whole numbers up to the largest a JavaScript number (and a JSON Schema
#: bound, written as a float) holds exactly.
MAX_SEED = 2**53 - 1
#: A review thinks this long at most per position (a whole game of ultimate: minutes).
MAX_REVIEW_SECONDS = 5.0
#: A review request waits this long at most for a review being computed (a script that
#: would rather wait than poll); the page never waits.
MAX_REVIEW_WAIT = 30.0

Spec = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        examples=["ultimate", "classic:forget", "mnk:m=4:n=4:k=4"],
        description="a game spec: a game's key, then its options as name=value (a bare name is name=true), "
        "separated by colons or spaces; GET /api/games lists the keys and their options. "
        "A spec the registry does not know is refused with 400 invalid-spec.",
    ),
]


def _move_examples() -> list[str]:
    """A first move of every game, in its notation (the games say how: `Variant.notation`)."""
    moves = (parse_spec(key).initial().legal_move_texts() for key in GAMES)
    return list(dict.fromkeys(texts[len(texts) // 2] for texts in moves if texts))


MoveText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=16,
        examples=_move_examples(),
        description="a move in the game's notation, which GET /api/games gives for each game (`notation`)",
    ),
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RequestBody(_Model):
    """A request's body, read strictly: each field of the JSON type the schema names
    (`"solved": 0`, `"rated": 1`, `"increment": false` and `"3"` for a number are
    mistakes, not guesses), unknown fields refused. Its integers take `WHOLE`."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _whole(value: object) -> object:
    """13.0 is the integer 13, as JSON Schema counts it (13.5 stays a float, refused)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: The last item of an integer field's `Annotated` (after its `Field`, which it would
#: otherwise hide from the JSON schema): an int, or a float with nothing after the point.
WHOLE = BeforeValidator(_whole)


# -- requests ----------------------------------------------------------------------


class GameRequest(RequestBody):
    """A game as the browser holds it."""

    spec: Spec
    start: Annotated[str | None, Field(max_length=4000, description="start position text; null: the initial one")] = (
        None
    )
    moves: Annotated[list[MoveText], Field(max_length=MAX_MOVES, examples=[["55", "51"]])] = []


class PlayRequest(GameRequest):
    move: MoveText


class ThinkRequest(GameRequest):
    """Ask a computer level about the position after `moves`."""

    level: Level = "max"
    time: Annotated[
        float | None,
        Field(ge=MIN_THINK_SECONDS, le=MAX_THINK_SECONDS, description="seconds to think; null: the level's own limit"),
    ] = None
    seed: Annotated[
        int | None, Field(ge=0, le=MAX_SEED, description="the same seed, the same choice; null: any"), WHOLE
    ] = None


class ReviewRequest(GameRequest):
    """Review the game: every move valued and classed by a computer level."""

    level: Level = "max"
    time: Annotated[
        float,
        Field(ge=MIN_THINK_SECONDS, le=MAX_REVIEW_SECONDS, description="seconds of thought per position of the game"),
    ] = 0.5
    wait: Annotated[
        float,
        Field(
            ge=0,
            le=MAX_REVIEW_WAIT,
            description="seconds to wait for a review being computed before answering its progress (202)",
        ),
    ] = 0.0


class RecordRequest(RequestBody):
    """A game record as text: the PGN-like form or its JSON (README, "Notation")."""

    text: Annotated[str, Field(min_length=1, max_length=MAX_RECORD_SIZE)]


class RecordView(_Model):
    """A record read and checked: the game to replay, and its headers."""

    spec: str
    start: str | None
    moves: list[str]
    x: str
    o: str
    result: str
    termination: str


# -- answers: the board ------------------------------------------------------------


class GridBoard(_Model):
    """classic, mnk and Connect Four: `columns` x `rows` cells in reading order, `k` in a
    row wins."""

    kind: Literal["grid"] = "grid"
    columns: int
    rows: int
    k: int
    cells: list[Mark | None]
    gravity: bool = Field(
        default=False,
        description="a mark drops to the lowest empty cell of its column: a click anywhere in a column plays there",
    )


class UltimateBoard(_Model):
    """Nine local boards of nine cells; cell index = board * 9 + cell."""

    kind: Literal["ultimate"] = "ultimate"
    rule: Literal["ultimate", "nine-board"]
    cells: list[Mark | None]
    #: Per local board: who won it, "draw" for a full board without a line, or null.
    boards: list[Literal["x", "o", "draw"] | None]
    #: The boards the player to move may play in.
    playable: list[int]


class QubicBoard(_Model):
    """A cube of side n in d dimensions, cells in row-major order (last axis fastest)."""

    kind: Literal["qubic"] = "qubic"
    n: int
    d: int
    cells: list[Mark | None]


class Figure(_Model):
    player: Mark
    size: Annotated[int, Field(ge=1, le=3, description="1 small, 2 medium, 3 large")]


class GobbletBoard(_Model):
    """3x3 cells, each a stack of figures from the bottom up; what each player has in hand."""

    kind: Literal["gobblet"] = "gobblet"
    shifts: bool = Field(description="whether figures on the board may move (gobblet) or not (matryoshka)")
    stacks: list[list[Figure]]
    #: Figures in hand per player, counted by size: [small, medium, large].
    hands: dict[Mark, list[int]]


class TextBoard(_Model):
    """A game whose board kind the server draws in no other way: the position's
    plain-text diagram, and its moves to choose from (`GameView.legal`)."""

    kind: Literal["text"] = "text"
    diagram: str


Board = Annotated[GridBoard | UltimateBoard | QubicBoard | GobbletBoard | TextBoard, Field(discriminator="kind")]


class Forget(_Model):
    """Forget mode: each player's marks, oldest first, and the marks that vanish when
    that player places the next one."""

    keep: int
    ages: dict[Mark, list[int]]
    vanishing: dict[Mark, list[int]]


class MoveRef(_Model):
    """A move with the cells it touches: `cell` is where a mark or figure lands (null on
    a text board, where moves are chosen by their text), `size` the figure placed from
    hand, `source` the cell a figure leaves (gobblet)."""

    text: str
    cell: int | None
    size: int | None = None
    source: int | None = None


class GameView(_Model):
    """A position as the page draws it."""

    spec: str
    key: str
    #: What players call the game (`noughts.registry.name`): "Gomoku" for gomoku's spec.
    title: str
    start: str
    position: str
    moves: list[str]
    ply: int
    turn: Mark
    status: Literal["ongoing", "x-wins", "o-wins", "draw"]
    #: For people: "x wins", "draw by threefold repetition"; null while the game goes on.
    result: str | None
    legal: list[MoveRef]
    last_move: MoveRef | None
    #: The winner's line: cells of `board` (for ultimate, the won boards' cells are in
    #: `winning_boards`).
    winning_line: list[int]
    winning_boards: list[int]
    board: Board
    forget: Forget | None


# -- answers: analysis and catalogue ----------------------------------------------

_BOUND = (
    "win and loss only: true when `plies` is an upper bound (proven by a proof-number or threat search, a shipped"
    " proof or MCTS-Solver: the game ends within that many plies, a quicker win may exist), false when it is the"
    " exact distance with best play on both sides (solved tables, full-width searches)"
)


class ValueView(_Model):
    """A value for the player it belongs to (the side to move, or the mover of a move)."""

    kind: Literal["win", "loss", "draw", "score", "unknown"]
    #: "win in 7", "win in at most 64" (a bound), "draw", "+0.35": noughts.ai.base.Value.text.
    text: str
    plies: int | None
    #: win, loss and draw are proven (by search or a solved table); a score is an estimate.
    exact: bool
    bound: bool = Field(description=_BOUND)
    #: The expected result for that player, 0 a loss to 1 a win, a draw half; an estimate
    #: through its evaluator's scale (noughts.ai.base.win_chance). null: not evaluated.
    chance: float | None


class MoveAnalysis(_Model):
    text: str
    value: ValueView
    visits: int | None
    #: The rules player's rule for this move ("fork"); null for the other players.
    note: str | None
    #: How many of the opponent's replies lose against it, where a perfect player counted them
    #: (among moves of equal value, it plays the one with the most); null where not counted.
    traps: int | None = None
    #: The line this move starts (this move first), for the best few moves; else empty.
    line: list[str]


class AnalysisView(_Model):
    """A computer level's view of the position, values for the player to move."""

    level: Level
    player: str
    best: str
    value: ValueView
    #: The position's value in words for both sides, in the winner's own moves: "X wins in
    #: 4 moves", "X wins, proven, in at most 32 moves" (a bound), "a draw with best play",
    #: "O to move: 64% (an estimate)".
    verdict: str
    #: x's chance in [-1, 1] (2 * chance - 1): 1 x wins, -1 o wins, 0 even or a draw.
    bar: float
    moves: list[MoveAnalysis]
    pv: list[str]
    depth: int | None
    nodes: int
    time: float


class ReviewedValue(_Model):
    """A value for the player it belongs to, and its chance: the expected result from 0
    (a loss) to 1 (a win), a draw counting half."""

    kind: Literal["win", "loss", "draw", "score"]
    plies: int | None
    #: Reviews stored before the field was added hold exact distances only.
    bound: bool = Field(default=False, description=_BOUND)
    score: float
    text: str
    chance: float


class ReviewedMove(_Model):
    ply: int
    side: Mark
    move: str
    judgement: Annotated[
        Literal["best", "good", "inaccuracy", "mistake", "blunder"], Field(alias="class", description="the class")
    ]
    best: str
    line: list[str]
    value_before: ReviewedValue
    value_after: ReviewedValue
    #: Reviews stored before these fields were added name no fall.
    fell_to: ReviewedValue | None = Field(
        default=None,
        description="where the move is blamed for a proven fall: the mover's proven value later in the game, "
        "worse than its proven value before the move (its first move after the proof)",
    )
    fell_at: int | None = Field(default=None, description="the ply where fell_to was proven")
    loss: float


class ReviewView(_Model):
    """A reviewed game: each move with its class and values for its mover; `graph`, x's
    chance in every position (start, then after each move); accuracy in percent."""

    spec: str
    start: str | None
    reviewer: str
    moves: list[ReviewedMove]
    graph: list[float]
    accuracy: dict[Mark, float | None]
    classes: dict[Mark, dict[str, int]]


class ReviewProgress(_Model):
    """A review being computed: `done` of the game's `total` positions analysed so far.
    Asked again (`GET /api/review/{key}` for a game sent by a page, the game's analysis
    for an online game) it answers the review once it is there."""

    status: Literal["computing"] = "computing"
    key: str
    done: int
    total: int


class ComputerMove(_Model):
    move: str
    analysis: AnalysisView
    game: GameView


class OptionInfo(_Model):
    name: str
    label: str
    type: Literal["bool", "int", "choice"]
    default: bool | int | str
    minimum: int | None = None
    maximum: int | None = None
    choices: list[str] | None = None
    help: str


class GameAbilities(_Model):
    """What the game with its default options can do (`noughts.ai.capabilities`)."""

    table: Literal["first use", "command"] | None = Field(
        description="an exact table of every position: built on first use, or once by `noughts solve`"
    )
    exact_search: bool = Field(description="the perfect player searches it to the end instead")
    book: bool = Field(description="a shipped opening book of exact values")
    proof: bool = Field(description="a shipped proof of the first player's win, which max plays")
    compiled: bool = Field(description="the compiled kernels play it")
    puzzles: bool = Field(description="an exact prover makes and judges its puzzles")
    text: str = Field(description="the same, in words")


class GameInfo(_Model):
    key: str
    title: str
    summary: str
    options: list[OptionInfo]
    rules: list[str] = Field(description="the rules, one paragraph per item, then what each option adds")
    notation: str = Field(description="how a move is written, in a sentence")
    board: str = Field(
        description="the kind of board it is drawn on: grid, ultimate, qubic or gobblet; a page that knows no "
        "board of this kind draws `GameView.board.diagram` (kind text)"
    )
    traits: list[str] = Field(
        description="what kind of game it is: placement, gravity, local-boards, nesting, shifts (noughts.variant.Trait)"
    )
    abilities: GameAbilities


class LevelInfo(_Model):
    name: Level
    description: str


class Catalogue(_Model):
    games: list[GameInfo]
    levels: list[LevelInfo] = Field(
        description="the computer's levels, weakest first: the last is the strongest, the one that gives hints, "
        "analyses and reviews"
    )
    default_level: Level = Field(description="the level a game against the computer starts at unless one is chosen")


class ErrorBody(_Model):
    """Every 4xx/5xx answer: `error` is a stable word, `field` the part of the request at
    fault (``spec``, ``start``, ``moves[3]``, ``move``, ``level``...)."""

    error: str
    message: str
    field: str | None = None


def error_answers(*statuses: int) -> dict[int | str, dict[str, object]]:
    """A router's or an operation's declared error answers: each status an ErrorBody."""
    return {status: {"model": ErrorBody} for status in statuses}


#: What the guards in front of the app (`noughts.server.guards`) may answer a request
#: that changes something: declared on each such operation.
GUARDED: dict[int | str, dict[str, object]] = {
    403: {"model": ErrorBody, "description": "cross-origin: sent from another site's page"},
    413: {"model": ErrorBody, "description": f"too-large: a body over {MAX_BODY // 1024} KB"},
    415: {"model": ErrorBody, "description": "unsupported-media-type: a body that is not application/json"},
}
