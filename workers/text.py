"""What a name or a free-text label may hold, for the API's schemas and the command line alike."""

from __future__ import annotations

import re

# Characters no name or label may hold: control characters, and the invisible ones that change how the text
# around them is shown (the zero-width space, direction marks, embeddings, overrides and isolates, line and
# paragraph separators, the word joiner, the byte-order mark): a name written "\u202eAnn" would turn the next
# player's name around in a list. The zero-width joiner and non-joiner stay: Persian, Indic scripts and emoji
# sequences need them.
HIDDEN = r"\x00-\x1f\x7f-\x9f\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff"
TEXT = rf"^[^{HIDDEN}]*[^\s{HIDDEN}][^{HIDDEN}]*$"  # a name or label: something visible, nothing of HIDDEN
REASON = rf"^[^{HIDDEN}]*$"  # a free-text reason: may be empty


def name_problem(name: str, longest: int = 100) -> str | None:
    """Why ``name`` is no good as a name (``TEXT``, 1 to ``longest`` characters), or None."""
    if not 1 <= len(name) <= longest:
        return f"a name has 1 to {longest} characters"
    if not re.match(TEXT, name):
        return "a name holds something visible, and no control, direction or zero-width characters"
    return None
