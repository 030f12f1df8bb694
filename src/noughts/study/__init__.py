"""Study: what a finished game teaches. Beside `noughts.ai`, seeing only states, records
and players, and returning plain data that the terminal, the API and the browser render.

* `review`: every move of a game valued and classed (best, good, inaccuracy, mistake,
  blunder), with the better move and its line, an accuracy per player and the graph.
* `verdict`: a value in words for both sides, on the one scale of `win_chance`.
"""

from noughts.study.review import (
    THRESHOLDS,
    Judgement,
    MoveReview,
    Review,
    judge_move,
    move_accuracy,
    review_from_analyses,
    review_game,
    review_record,
)
from noughts.study.verdicts import verdict

__all__ = [
    "THRESHOLDS",
    "Judgement",
    "MoveReview",
    "Review",
    "judge_move",
    "move_accuracy",
    "review_from_analyses",
    "review_game",
    "review_record",
    "verdict",
]
