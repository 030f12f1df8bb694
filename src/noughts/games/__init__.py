"""The games: a module or a folder a family. A folder holds a game's rules (`rules`)
and beside them what the computer knows of it (`games.mnk`: its threat search and its
knowledge for the searches; `games.connect4`: its knowledge, solver and book). What
several games share: `geometry` (lines and symmetries), `marks` (marks on cells),
`forget` (Forget mode), `knowledge` (the searches' plug-in and its lookup)."""
