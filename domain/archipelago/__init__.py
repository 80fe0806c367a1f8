"""Archipelago (Boelinger, 2012) for Tradewinds; rules in docs/rules/archipelago.md."""

from domain.archipelago.rules import RULES, Archipelago

__all__ = ["RULES", "Archipelago"]
