"""The character-card formula language of rules §13.2: a tokenizer, a recursive-descent parser and a compiler to
Python closures. A compiled formula is called as ``f(env, q)`` where ``env`` maps the count symbols to integers
(plus ``GF_of`` / ``SH_of`` per-seat lists and ``OPPONENTS``) and ``q`` is the bound opponent (or None).

Section (§) and ruling (D, Q) numbers are those of docs/rules/murano.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

SYMBOLS = frozenset("GF GF_own GF_opp SH SH_own SH_opp PA CR SB BLD OWN OPP ST ST_NONE CU FREE_S FREE_B TYPES".split())
INDEXED = frozenset({"SH", "CU"})
PER_PLAYER = frozenset({"GF_of", "SH_of"})
COLOURS = frozenset({"red", "grey", "blue"})
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z_]*)|(==|!=|<=|>=|[<>+\-*()\[\],:]))")

Formula = Callable[[dict[str, Any], Any], int]


class FormulaError(ValueError):
    pass


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise FormulaError(f"cannot read formula at {text[pos:]!r}")
        out.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.quantified = 0  # depth of ANY/ALL: NAME(q) is only allowed inside one

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise FormulaError(f"expected {expected or 'a token'}, found {tok!r}")
        self.i += 1
        return tok

    def parse(self) -> Formula:
        f = self.sum()
        if self.peek() is not None:
            raise FormulaError(f"unexpected {self.peek()!r}")
        return f

    def sum(self) -> Formula:
        f = self.prod()
        while self.peek() in ("+", "-"):
            op = self.take()
            g = self.prod()
            f = (
                (lambda a, b: lambda e, q: a(e, q) + b(e, q))(f, g)
                if op == "+"
                else (lambda a, b: lambda e, q: a(e, q) - b(e, q))(f, g)
            )
        return f

    def prod(self) -> Formula:
        f = self.atom()
        while self.peek() == "*":
            self.take()
            g = self.atom()
            f = (lambda a, b: lambda e, q: a(e, q) * b(e, q))(f, g)
        return f

    def atom(self) -> Formula:
        tok = self.take()
        if tok.isdigit():
            value = int(tok)
            return lambda e, q: value
        if tok == "(":
            f = self.sum()
            self.take(")")
            return f
        if tok == "IF":
            self.take("(")
            c = self.cond()
            self.take(",")
            f = self.sum()
            self.take(")")
            return lambda e, q: f(e, q) if c(e, q) else 0
        if tok in PER_PLAYER:
            if not self.quantified:
                raise FormulaError(f"{tok}(q) is only allowed inside ANY(...) or ALL(...)")
            self.take("(")
            self.take("q")
            self.take(")")
            return lambda e, q: e[tok][q]
        if tok in SYMBOLS:
            if self.peek() == "[":
                if tok not in INDEXED:
                    raise FormulaError(f"{tok} takes no colour")
                self.take("[")
                colour = self.take()
                if colour not in COLOURS:
                    raise FormulaError(f"unknown colour {colour!r}")
                self.take("]")
                key = f"{tok}[{colour}]"
                return lambda e, q: e[key]
            return lambda e, q: e[tok]
        raise FormulaError(f"unknown symbol {tok!r}")

    def cond(self) -> Formula:
        f = self.conj()
        while self.peek() == "or":
            self.take()
            g = self.conj()
            f = (lambda a, b: lambda e, q: a(e, q) or b(e, q))(f, g)
        return f

    def conj(self) -> Formula:
        f = self.comp()
        while self.peek() == "and":
            self.take()
            g = self.comp()
            f = (lambda a, b: lambda e, q: a(e, q) and b(e, q))(f, g)
        return f

    def comp(self) -> Formula:
        if self.peek() in ("ANY", "ALL"):
            quant = self.take()
            self.take("(")
            self.take("q")
            self.take("in")
            self.take("OPPONENTS")
            self.take(":")
            self.quantified += 1
            c = self.cond()
            self.quantified -= 1
            self.take(")")
            if quant == "ANY":
                return lambda e, q: any(c(e, o) for o in e["OPPONENTS"])
            return lambda e, q: all(c(e, o) for o in e["OPPONENTS"])
        a = self.sum()
        op = self.take()
        b = self.sum()
        ops: dict[str, Callable[[int, int], bool]] = {
            "==": lambda x, y: x == y,
            "!=": lambda x, y: x != y,
            "<": lambda x, y: x < y,
            "<=": lambda x, y: x <= y,
            ">": lambda x, y: x > y,
            ">=": lambda x, y: x >= y,
        }
        if op not in ops:
            raise FormulaError(f"expected a comparison, found {op!r}")
        cmp = ops[op]
        return lambda e, q: cmp(a(e, q), b(e, q))


def compile_formula(text: str) -> Formula:
    """Compile one formula of §13.2; raises FormulaError on anything outside the grammar."""
    return _Parser(text).parse()
