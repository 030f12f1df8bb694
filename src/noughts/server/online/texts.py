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
#: Characters drawn as nothing that are neither blanks nor format characters (Cf):
#: Unicode's other default-ignorable ones (the Hangul fillers, variation selectors, the
#: combining grapheme joiner, Khmer's inherent vowels, Mongolian's selectors) and the
#: blank Braille pattern. A name of only these looks like no name at all.
_SHOWS_NOTHING = frozenset(
    {"\u034f", "\u115f", "\u1160", "\u17b4", "\u17b5", "\u2800", "\u3164", "\uffa0"}
    | {chr(code) for codes in (range(0x180B, 0x1810), range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0)) for code in codes}
)


def text_fault(text: str) -> str | None:
    """What is wrong with `text` (trimmed) as a text others read, said to follow its
    subject ("a chat line ..."), or None when nothing is.

    >>> text_fault("gg"), text_fault("a\\u202eb"), text_fault("\\u200b"), text_fault("\\u3164")
    (None, 'may not hold control characters, line breaks or bidirectional overrides', 'is empty', 'is empty')
    """
    if any(unicodedata.category(ch) in _REFUSED or ch in _BIDI for ch in text):
        return "may not hold control characters, line breaks or bidirectional overrides"
    # Nothing that shows: blanks, invisible format characters (a lone zero-width space)
    # and the other characters drawn as nothing (a Hangul filler).
    if all(ch.isspace() or ch in _SHOWS_NOTHING or unicodedata.category(ch) == "Cf" for ch in text):
        return "is empty"
    return None
