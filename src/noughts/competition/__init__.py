"""The rules of competitive play that need no database and no web: game clocks
(`clock`), Glicko-2 ratings (`ratings`), and the tournaments' scoring and pairing
(`tournaments`: arena, Swiss). Plain functions of plain values, as scalachess keeps its
`Clock` and lila's rating code keeps Glicko apart from the server: the online service
(`noughts.server.online`) feeds them what its database holds and stores what they
decide."""
