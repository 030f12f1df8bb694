"""The m,n,k-game (tic-tac-toe, gomoku, any board): its rules (`rules`) and what the
computer knows of it (`threats`, `knowledge`)."""
