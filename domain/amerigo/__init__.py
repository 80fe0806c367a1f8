"""Amerigo (Stefan Feld, 2013) for 2-4 players; rules in docs/rules/amerigo.md."""

from .rules import AmerigoRules

RULES = AmerigoRules()

__all__ = ["RULES", "AmerigoRules"]
