//! The subscripts of a statement's text, and those of them that are
//! affine expressions read as such: what lets the printer print a
//! subscript from its value (`A[i][j]`) rather than from its spelling
//! with the iterators replaced (`A[(i + 1) - 1][j]`).
//!
//! A subscript is the text between a `[` and its `]`, outside string and
//! character literals and comments: in a C expression, an integer that
//! picks an element, so that only its value matters. One is read as an
//! affine expression only if it is made of nothing but names the caller
//! gives an affine value (iterators, parameters), plain decimal literals,
//! `+`, `-`, `*` by a constant, and parentheses: then the expression and
//! the text agree on every value for which the text has one (integer
//! arithmetic is exact there, or both wrap alike). Anything else (a
//! cast, a call, a division, a macro, a suffixed literal) is not read.

use crate::model::affine::LinExpr;
use std::ops::Range;

/// The bytes between each `[` of `text` and its `]`, in the order of
/// the `[` (an enclosing subscript before those inside it).
pub(super) fn subscript_ranges(text: &str) -> Vec<Range<usize>> {
    let mut open = Vec::new();
    let mut ranges = Vec::new();
    for token in tokens(text) {
        match token.kind {
            Kind::Punct('[') => open.push(token.range.end),
            Kind::Punct(']') => {
                if let Some(start) = open.pop() {
                    ranges.push(start..token.range.start);
                }
            }
            _ => {}
        }
    }
    ranges.sort_by_key(|r| r.start);
    ranges
}

/// The bytes `range` of `text` as an affine expression, each name (by
/// its byte range in `text`) standing for `value(range)`; `None` if the
/// text is anything else (see the module's doc).
pub(super) fn read_affine(
    text: &str,
    range: Range<usize>,
    value: &dyn Fn(Range<usize>) -> Option<LinExpr>,
) -> Option<LinExpr> {
    let tokens: Vec<Token> = tokens(&text[range.clone()])
        .into_iter()
        .map(|t| Token { range: t.range.start + range.start..t.range.end + range.start, ..t })
        .collect();
    let mut reader = Reader { text, tokens: &tokens, at: 0, value, depth: 0 };
    let e = reader.sum()?;
    (reader.at == tokens.len()).then_some(e)
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Name,
    Number,
    Punct(char),
    /// A literal or comment: nothing a subscript read here may hold.
    Opaque,
}

struct Token {
    range: Range<usize>,
    kind: Kind,
}

/// The tokens of `text`, string and character literals and comments
/// each one opaque token.
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let after = start + c.len_utf8();
        let (kind, end) = match c {
            _ if c.is_whitespace() => continue,
            '"' | '\'' => (Kind::Opaque, literal_end(text, start, c)),
            '/' if text[after..].starts_with(['*', '/']) => {
                let close = if text[after..].starts_with('*') { "*/" } else { "\n" };
                (Kind::Opaque, text[after + 1..].find(close).map_or(text.len(), |at| after + 1 + at + close.len()))
            }
            _ if c.is_ascii_alphabetic() || c == '_' => (Kind::Name, word_end(text, after)),
            _ if c.is_ascii_digit() => (Kind::Number, word_end(text, after)),
            _ => (Kind::Punct(c), after),
        };
        while chars.next_if(|(at, _)| *at < end).is_some() {}
        out.push(Token { range: start..end, kind });
    }
    out
}

/// The end of the name or number going on at `from`.
fn word_end(text: &str, from: usize) -> usize {
    text[from..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).map_or(text.len(), |at| from + at)
}

/// One past the closing `quote` of the literal opening at `start`.
fn literal_end(text: &str, start: usize, quote: char) -> usize {
    let mut escaped = false;
    for (at, c) in text[start + 1..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if c == quote => return start + 1 + at + 1,
            _ => {}
        }
    }
    text.len()
}

/// Parentheses nested deeper than this are not read (no recursion
/// without a bound).
const MAX_NESTING: usize = 64;

/// Literals up to this magnitude are read: sums and products of them
/// stay far from `i64`'s range.
const MAX_LITERAL: i64 = 1 << 31;

/// A recursive-descent reader of `sum := product (('+' | '-') product)*`,
/// `product := unary ('*' unary)*` (one factor at most not a constant),
/// `unary := ('-' | '+') unary | name | number | '(' sum ')'`.
struct Reader<'a> {
    text: &'a str,
    tokens: &'a [Token],
    at: usize,
    value: &'a dyn Fn(Range<usize>) -> Option<LinExpr>,
    depth: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<Kind> {
        self.tokens.get(self.at).map(|t| t.kind)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek() == Some(Kind::Punct(c));
        self.at += usize::from(found);
        found
    }

    fn sum(&mut self) -> Option<LinExpr> {
        let mut e = self.product()?;
        loop {
            if self.eat('+') {
                e = e.add(&self.product()?);
            } else if self.eat('-') {
                e = e.sub(&self.product()?);
            } else {
                return Some(e);
            }
        }
    }

    fn product(&mut self) -> Option<LinExpr> {
        let mut e = self.unary()?;
        while self.eat('*') {
            let factor = self.unary()?;
            e = match (e.is_constant(), factor.is_constant()) {
                (true, _) => factor.scale(small(e.constant)?),
                (false, true) => e.scale(small(factor.constant)?),
                (false, false) => return None,
            };
        }
        Some(e)
    }

    fn unary(&mut self) -> Option<LinExpr> {
        if self.eat('-') {
            return Some(self.unary()?.scale(-1));
        }
        if self.eat('+') {
            return self.unary();
        }
        let token = self.tokens.get(self.at)?;
        self.at += 1;
        match token.kind {
            Kind::Name => (self.value)(token.range.clone()),
            Kind::Number => number(&self.text[token.range.clone()]),
            Kind::Punct('(') if self.depth < MAX_NESTING => {
                self.depth += 1;
                let e = self.sum()?;
                self.depth -= 1;
                self.eat(')').then_some(e)
            }
            _ => None,
        }
    }
}

/// A plain decimal literal (`0`, or no leading zero: octal is not read),
/// small enough.
fn number(text: &str) -> Option<LinExpr> {
    let plain = text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    let k: i64 = text.parse().ok().filter(|_| plain)?;
    Some(LinExpr::constant(small(k)?))
}

fn small(k: i64) -> Option<i64> {
    (k.abs() <= MAX_LITERAL).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::affine::Term;

    fn subscripts(text: &str) -> Vec<&str> {
        subscript_ranges(text).into_iter().map(|r| &text[r]).collect()
    }

    /// `text` read with `i` as dimension 0 and `N` as parameter 0.
    fn read(text: &str) -> Option<LinExpr> {
        let value = |r: Range<usize>| match &text[r] {
            "i" => Some(LinExpr::dim(0)),
            "N" => {
                let mut e = LinExpr::default();
                e.add_term(Term::Param(0), 1);
                Some(e)
            }
            _ => None,
        };
        read_affine(text, 0..text.len(), &value)
    }

    #[test]
    fn subscripts_are_found_outermost_first_outside_literals_and_comments() {
        assert_eq!(subscripts("A[B[i]][j] = s[\"[x]\"[0]] /* [c] */;"), ["B[i]", "i", "j", "\"[x]\"[0]", "0"]);
    }

    #[test]
    fn affine_text_is_read_and_anything_else_is_not() {
        let i = LinExpr::dim(0);
        assert_eq!(read("(i + 1) - 1"), Some(i.clone()));
        assert_eq!(read("2 * (i - 1) + 2"), Some(i.scale(2)));
        assert_eq!(read("-(N - i)*3").map(|e| e.coeff_of_dim(0)), Some(3));
        for other in ["i * N", "i / 2", "(long)i", "1u + i", "010 + i", "f(i)", "i + j", "(i", "", "i 1"] {
            assert_eq!(read(other), None, "{other}");
        }
    }
}
