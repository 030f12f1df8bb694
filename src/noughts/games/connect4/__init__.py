"""Connect Four: its rules (`rules`) and what the computer knows of it (`knowledge`,
`solver`, the opening book)."""
