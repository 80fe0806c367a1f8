"""What a name or a free-text label may hold, for the API's schemas and the command line alike."""

from __future__ import annotations

import re

# Characters no name or label may hold: control characters, and the invisible ones that change how the text
# around them is shown (the zero-width space, direction marks, embeddings, overrides and isolates, line and
# paragraph separators, the word joiner, the byte-order mark): a name written "\u202eAnn" would turn the next
# player's name around in a list. The zero-width joiner and non-joiner stay: Persian, Indic scripts and emoji
# sequences need them.
# (The soft hyphen and the Arabic letter mark are invisible format characters too, as are the deprecated format
# characters U+206A-206F, the interlinear annotation marks U+FFF9-FFFB, the musical format characters U+1D173-1D17A
# and the tag characters U+E0000-E007F. The Mongolian vowel separator is not refused: traditional Mongolian spells
# with it.)
HIDDEN_BMP = r"\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
HIDDEN = HIDDEN_BMP + r"\U0001d173-\U0001d17a\U000e0000-\U000e007f"
# Tag characters have one use in text: after the black flag, they spell a subdivision's flag (England, Scotland,
# Wales), ended by the cancel tag. Only there are they taken.
FLAG = r"\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f"
# Combining marks: they belong on a letter (an accent, a vowel sign), never alone, and a few at most on one letter:
# a run of many piles up over the lines around it. Only the generic combining blocks are listed: a script's own
# marks (Arabic, Hebrew, Thai, Indic vowel signs) are not checked here.
COMBINING = r"\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
MOST_MARKS = 8
# What may stand in a name but shows nothing by itself: spaces, the joiners, variation selectors, combining marks,
# and the blank letters (the Hangul fillers, the blank Braille pattern).
BLANK = rf"\s\u115f\u1160\u200c\u200d\u2800\u3164\uffa0\ufe00-\ufe0f{COMBINING}"
# a name or label: something visible, nothing of HIDDEN but in a subdivision's flag, no pile of marks (the
# repetition is possessive: a black flag that starts no FLAG is read once, as a character, never tried again)
TEXT = rf"^(?!.*[{COMBINING}]{{{MOST_MARKS + 1}}})(?=.*[^{HIDDEN}{BLANK}])(?:{FLAG}|[^{HIDDEN}])*+$"
REASON = rf"^[^{HIDDEN}]*$"  # a free-text reason: may be empty
# What the OpenAPI document publishes for them (its patterns are ECMA-262, read by clients' validators and
# generators): the same rules within the Basic Multilingual Plane, with no possessive repetition and no astral
# escapes. A text they pass that TEXT or REASON refuses holds an invisible astral character (a tag outside a flag,
# a musical format character): the server answers 400.
TEXT_PUBLISHED = rf"^(?!.*[{COMBINING}]{{{MOST_MARKS + 1}}})[^{HIDDEN_BMP}]*[^{HIDDEN_BMP}{BLANK}][^{HIDDEN_BMP}]*$"
REASON_PUBLISHED = rf"^[^{HIDDEN_BMP}]*$"


def name_problem(name: str, longest: int = 100) -> str | None:
    """Why ``name`` is no good as a name (``TEXT``, 1 to ``longest`` characters), or None."""
    if not 1 <= len(name) <= longest:
        return f"a name has 1 to {longest} characters"
    if not re.fullmatch(TEXT, name):
        return (
            "a name holds something visible, and no control, direction or zero-width characters, nor more than "
            f"{MOST_MARKS} combining marks in a row"
        )
    return None
