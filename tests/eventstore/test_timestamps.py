"""The store's timestamps: ISO 8601 in UTC with microseconds and a ``Z``, whichever way they are made."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from unittest import mock

import pytest

from eventstore import _common
from eventstore._common import iso_utc, utc_now_iso

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


@pytest.mark.parametrize(
    "moment",
    [
        datetime(2026, 11, 29, 3, 55, 14, 877139, tzinfo=UTC),
        datetime(2026, 1, 1, 0, 0, 0, 0, tzinfo=UTC),  # no microseconds: still six digits
        datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    ],
)
def test_now_is_written_as_iso_utc_writes_it(moment: datetime) -> None:
    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[override]
            return moment.astimezone(tz)

    with mock.patch.object(_common, "datetime", Frozen):
        assert utc_now_iso() == iso_utc(moment)
    assert STAMP.match(iso_utc(moment))


def test_iso_utc_converts_other_zones_and_naive_times() -> None:
    east = datetime(2026, 11, 29, 5, 0, 0, 5, tzinfo=timezone(timedelta(hours=2)))
    assert iso_utc(east) == "2026-11-29T03:00:00.000005Z"
    assert iso_utc(datetime(2026, 11, 29, 3, 0)) == "2026-11-29T03:00:00.000000Z"


def test_now_is_now() -> None:
    before = iso_utc(datetime.now(UTC))
    stamp = utc_now_iso()
    after = iso_utc(datetime.now(UTC))
    assert STAMP.match(stamp) and before <= stamp <= after
