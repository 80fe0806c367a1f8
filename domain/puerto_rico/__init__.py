"""Puerto Rico (Andreas Seyfarth, 2002), base game for 3-5 players plus the official 2-player variant; rules in
docs/rules/puerto_rico.md."""

from .rules import RULES, PuertoRicoRules

__all__ = ["RULES", "PuertoRicoRules"]
