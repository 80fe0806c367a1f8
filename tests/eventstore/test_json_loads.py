"""The stores read JSON with ``json_loads``: the value ``json.loads`` gives, for every text, faster."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eventstore._common import json_loads

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


def same(text: str | bytes) -> None:
    """``json_loads`` gives ``json.loads``'s value, types included (an int is no float)."""
    mine, theirs = json_loads(text), json.loads(text)
    assert json.dumps(mine) == json.dumps(theirs)
    assert type(mine) is type(theirs)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_any_document_reads_as_json_reads_it(document):
    same(json.dumps(document))
    same(json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


@pytest.mark.parametrize(
    "text",
    [
        "18446744073709551616",  # 2**64: orjson alone would give a float
        "-9223372036854775809",
        '{"seed": 123456789012345678901234567890}',
        "[1e400, -1e400]",  # beyond a double: infinity, as json reads it
        "NaN",
        '{"x": Infinity}',
        '"\\ud800"',  # a lone surrogate, escaped
        '"\\ud83d\\ude00"',
        '{"a": 1, "a": 2}',
        "0.1234567890123456789012",
        "[" * 900 + "]" * 900,
    ],
)
def test_texts_orjson_reads_otherwise_read_as_json_reads_them(text):
    same(text)  # NaN included: json.dumps writes it as NaN on both sides


@settings(max_examples=100, deadline=None)
@given(DOCUMENTS)
def test_utf8_bytes_read_as_json_reads_them(document):
    """PostgreSQL's json and jsonb values come as UTF-8 bytes."""
    same(json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass"))


def test_big_integers_stay_integers():
    assert json_loads('{"n": 18446744073709551616}') == {"n": 2**64}
    assert type(json_loads("[36893488147419103232]")[0]) is int
    assert json_loads(b'{"n": -9223372036854775809}') == {"n": -(2**63) - 1}


@pytest.mark.parametrize("text", ["", "{", "[1,]", '{"a" 1}', "1 2", '"\x01"'])
def test_bad_json_fails_as_json_fails(text):
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(json.JSONDecodeError):
        json_loads(text)
