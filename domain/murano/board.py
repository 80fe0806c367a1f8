"""Board geometry derived from the data module: spaces, adjacency, islands, gondola seats."""

from __future__ import annotations

from dataclasses import dataclass

from domain.murano import data


@dataclass(frozen=True)
class Geometry:
    islands: tuple[str, ...]  # buildable islands of this player count
    space_ids: tuple[str, ...]  # index -> "ISLAND:rXcY"
    space_index: dict[str, int]
    island_of: tuple[int, ...]  # space -> island index
    paved: tuple[bool, ...]  # space -> True for S, False for B
    neighbours: tuple[tuple[int, ...], ...]
    paved_spaces: tuple[int, ...]
    brown_spaces: tuple[int, ...]
    island_spaces: tuple[tuple[int, ...], ...]  # island index -> its spaces
    island_index: dict[str, int]

    @property
    def seat_count(self) -> int:
        return len(self.islands) * len(data.PLAYER_COLOURS)


def _build(players: int) -> Geometry:
    islands = tuple(i for i in data.ISLANDS if players >= 4 or i not in data.FOUR_PLAYER_ONLY_ISLANDS)
    ids: list[str] = []
    island_of: list[int] = []
    paved: list[bool] = []
    coords: dict[tuple[int, int, int], int] = {}
    for ii, name in enumerate(islands):
        for r, row in enumerate(data.ISLAND_GRIDS[name]):
            for c, ch in enumerate(row):
                if ch in "SB":
                    coords[(ii, r, c)] = len(ids)
                    ids.append(f"{name}:r{r}c{c}")
                    island_of.append(ii)
                    paved.append(ch == "S")
    neighbours: list[tuple[int, ...]] = [()] * len(ids)
    for (ii, r, c), idx in coords.items():
        nb = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            other = coords.get((ii, r + dr, c + dc))
            if other is not None:
                nb.append(other)
        neighbours[idx] = tuple(nb)
    return Geometry(
        islands=islands,
        space_ids=tuple(ids),
        space_index={s: i for i, s in enumerate(ids)},
        island_of=tuple(island_of),
        paved=tuple(paved),
        neighbours=tuple(neighbours),
        paved_spaces=tuple(i for i, p in enumerate(paved) if p),
        brown_spaces=tuple(i for i, p in enumerate(paved) if not p),
        island_spaces=tuple(tuple(i for i, x in enumerate(island_of) if x == ii) for ii in range(len(islands))),
        island_index={name: i for i, name in enumerate(islands)},
    )


SMALL = _build(3)
LARGE = _build(4)


def geometry(players: int) -> Geometry:
    return LARGE if players >= 4 else SMALL
