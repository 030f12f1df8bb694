"""What a text other people read may hold: a chat line, a report's reason, the name of a
tournament, an account or a bot. One rule for all of them, so that no name takes what
chat refuses."""

from __future__ import annotations

import unicodedata

__all__ = ["text_fault"]

#: Characters that change how the text around them is drawn (Unicode's bidirectional
#: formatting characters: embeddings, overrides, isolates and marks): a line or a name
#: could make another player's name read backwards.
_BIDI = frozenset({"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))})
#: Control characters (newlines among them), lone surrogates, line and paragraph separators.
_REFUSED = frozenset({"Cc", "Cs", "Zl", "Zp"})


def text_fault(text: str) -> str | None:
    """What is wrong with `text` (trimmed) as a text others read, said to follow its
    subject ("a chat line ..."), or None when nothing is.

    >>> text_fault("gg"), text_fault("a\\u202eb"), text_fault("\\u200b")
    (None, 'may not hold control characters, line breaks or bidirectional overrides', 'is empty')
    """
    if any(unicodedata.category(ch) in _REFUSED or ch in _BIDI for ch in text):
        return "may not hold control characters, line breaks or bidirectional overrides"
    # Nothing that shows: blanks and invisible format characters (a lone zero-width space).
    if all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text):
        return "is empty"
    return None
