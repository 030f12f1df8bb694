"""The arena: round-robins between computer players (ours, programs speaking the engine
protocol, OpenSpiel's bots), Elo ratings with intervals, records and charts — and the
tuning of evaluation weights by self-play.

The core never imports this package; ``noughts arena`` and ``noughts tune`` do."""
