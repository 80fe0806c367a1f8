"""Murano (Inka & Markus Brand, 2014) for 2-4 players; rules: docs/rules/murano.md."""

from domain.murano.rules import RULES, MuranoRules

__all__ = ["RULES", "MuranoRules"]
