# SPDX-License-Identifier: GPL-2.0-only
"""Disjoint sets: things that share something end in one set.

Used twice: files that share a tasklet header form one group (convert),
groups that share a driver form one patch (series).
"""

from __future__ import annotations

from typing import Callable, Generic, Hashable, Iterable, TypeVar

T = TypeVar("T", bound=Hashable)
U = TypeVar("U")


class UnionFind(Generic[T]):
    def __init__(self, items: Iterable[T] = ()) -> None:
        self.parent: dict[T, T] = {}
        for x in items:
            self.find(x)

    def find(self, x: T) -> T:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: T, b: T) -> None:
        self.parent[self.find(a)] = self.find(b)

    def sets(self, items: Iterable[U], key: Callable[[U], T]) -> list[list[U]]:
        """items by the set of key(item), in the order given; the sets in
        the order of their first item."""
        out: dict[T, list[U]] = {}
        for x in items:
            out.setdefault(self.find(key(x)), []).append(x)
        return list(out.values())
