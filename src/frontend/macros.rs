//! C macro expansion for analysis, keeping track of what came from where.
//!
//! [`expand_text`] rewrites a stretch of source text with every macro
//! invocation replaced by its expansion, as the C preprocessor would
//! (Prosser's algorithm: hide sets, arguments expanded before
//! substitution, `#` and `##` on the unexpanded ones), except that an
//! argument used as is keeps its source text: it is copied from the
//! source and then processed the same way. The result comes with a
//! [`SourceMap`]: the stretches copied from the source
//! ([`Segment::copied`](super::source_map::Segment::copied)) and those a
//! macro body produced, each pointing at its invocation. The
//! front end analyses the expanded text and uses the map to keep the
//! user's spelling where a statement's iterators and accesses all lie in
//! copied text.
//!
//! Function-like macros take variadic arguments (`...` with `__VA_ARGS__`,
//! or GNU's `name...`); a macro polyc cannot expand keeps its SCoP as
//! written (`P0017`).

use super::source_map::SourceMap;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

/// A macro definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Macro {
    /// `None` for an object-like macro.
    pub params: Option<Vec<String>>,
    /// The last parameter is `...` (`__VA_ARGS__`) or GNU's `name...`.
    pub variadic: bool,
    pub body: String,
}

pub type Macros = HashMap<String, Macro>;

/// Parse the text of a `#define` directive (continuations already
/// joined or not): `(name, definition)`.
pub fn parse_define(directive: &str) -> Option<(String, Macro)> {
    let text = directive.replace("\\\r\n", " ").replace("\\\n", " ");
    let rest = text.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let name_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_len);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (params, variadic, body) = match after.strip_prefix('(') {
        Some(list) => {
            let close = list.find(')')?;
            let mut params: Vec<String> =
                list[..close].split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect();
            let variadic = params.last().is_some_and(|p| p.ends_with("..."));
            if let Some(last) = params.last_mut().filter(|_| variadic) {
                let named = last.trim_end_matches("...").trim().to_string();
                *last = if named.is_empty() { "__VA_ARGS__".to_string() } else { named };
            }
            (Some(params), variadic, &list[close + 1..])
        }
        None => (None, false, after),
    };
    Some((name.to_string(), Macro { params, variadic, body: strip_comments(body).trim().to_string() }))
}

/// A macro body as the preprocessor keeps it: comments and runs of
/// whitespace as one space.
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    for (range, kind) in lex(text, false) {
        match kind {
            Kind::Space if out.ends_with(' ') => {}
            Kind::Space => out.push(' '),
            _ => out.push_str(&text[range]),
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Number,
    Literal,
    Punct,
    /// Whitespace or a comment.
    Space,
    /// A preprocessor directive line, continuations included.
    Directive,
}

/// The tokens of `text`, whitespace and comments included, each with its
/// byte range; a `#` first on a line starts a directive if `directives`
/// (source text, not a macro body).
fn lex(text: &str, directives: bool) -> Vec<(Range<usize>, Kind)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    let mut line_start = true;
    while at < bytes.len() {
        let c = bytes[at];
        let start = at;
        let kind = if c == b'\\' && bytes.get(at + 1) == Some(&b'\n') {
            at += 2;
            Kind::Space
        } else if c.is_ascii_whitespace() {
            at += 1;
            Kind::Space
        } else if text[at..].starts_with("//") {
            at += text[at..].find('\n').unwrap_or(text.len() - at);
            Kind::Space
        } else if text[at..].starts_with("/*") {
            at += text[at + 2..].find("*/").map_or(text.len() - at, |p| p + 4);
            Kind::Space
        } else if c == b'#' && line_start && directives {
            at = directive_end(text, at);
            Kind::Directive
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_' || bytes[at] >= 0x80) {
                at += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)) {
            at += 1;
            while at < bytes.len() {
                let d = bytes[at];
                let exponent_sign = matches!(d, b'+' | b'-') && matches!(bytes[at - 1], b'e' | b'E' | b'p' | b'P');
                if !(exponent_sign || d.is_ascii_alphanumeric() || d == b'_' || d == b'.' || d == b'\'') {
                    break;
                }
                at += 1;
            }
            Kind::Number
        } else if c == b'"' || c == b'\'' {
            at += 1;
            while at < bytes.len() && bytes[at] != c && bytes[at] != b'\n' {
                at += if bytes[at] == b'\\' { 2 } else { 1 };
            }
            at = (at + 1).min(bytes.len());
            Kind::Literal
        } else {
            at += punct_len(&text[at..]);
            Kind::Punct
        };
        if kind != Kind::Space {
            line_start = false;
        } else if text[start..at].contains('\n') {
            line_start = true;
        }
        out.push((start..at, kind));
    }
    out
}

/// The end of the directive line starting at `at` (before its newline).
fn directive_end(text: &str, at: usize) -> usize {
    let mut end = at;
    loop {
        let line_end = text[end..].find('\n').map_or(text.len(), |p| end + p);
        if text[..line_end].ends_with('\\') {
            end = line_end + 1;
        } else {
            return line_end;
        }
    }
}

fn punct_len(s: &str) -> usize {
    const LONG: [&str; 22] = [
        "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=",
        "-=", "&=", "^=", "|=",
    ];
    if s.starts_with("##") {
        return 2;
    }
    LONG.iter().find(|p| s.starts_with(**p)).map_or_else(|| s.chars().next().map_or(1, char::len_utf8), |p| p.len())
}

/// A token during expansion.
#[derive(Clone, Debug)]
struct Tok {
    text: String,
    kind: Kind,
    /// Macros that must not expand this token again.
    hide: BTreeSet<String>,
    /// An argument of the outermost invocation, standing for its source
    /// text.
    arg: Option<usize>,
    /// Whitespace came before it.
    space: bool,
}

impl Tok {
    fn new(text: &str, kind: Kind) -> Tok {
        Tok { text: text.to_string(), kind, hide: BTreeSet::new(), arg: None, space: false }
    }
}

fn tokens(text: &str) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
    let mut space = false;
    for (r, kind) in lex(text, false) {
        if kind == Kind::Space {
            space = true;
        } else {
            out.push(Tok { space, ..Tok::new(&text[r], kind) });
            space = false;
        }
    }
    out
}

/// `tokens` with the first one's spacing set to `space`.
fn spaced(mut tokens: Vec<Tok>, space: bool) -> Vec<Tok> {
    if let Some(first) = tokens.first_mut() {
        first.space = space;
    }
    tokens
}

/// Why a stretch of text could not be expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpandError {
    /// The invocation, in the text given to [`expand_text`].
    pub span: Range<usize>,
    pub reason: String,
}

/// Expansion steps allowed for one invocation: a recursive definition
/// blows up long before.
const STEP_LIMIT: usize = 100_000;

struct Expander<'m> {
    macros: &'m Macros,
    steps: usize,
    /// The outermost invocation's arguments, as source text.
    args: Vec<String>,
}

impl<'m> Expander<'m> {
    fn step(&mut self) -> Result<(), String> {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return Err("the expansion does not end".to_string());
        }
        Ok(())
    }

    /// Expand `input` completely; tokens needed after its end are an error.
    fn expand(&mut self, mut input: Vec<Tok>) -> Result<Vec<Tok>, String> {
        input.reverse();
        let mut out = Vec::new();
        while let Some(tok) = input.pop() {
            self.step()?;
            let Some(m) = self.expandable(&tok) else {
                out.push(tok);
                continue;
            };
            let hide: BTreeSet<String> = tok.hide.iter().cloned().chain([tok.text.clone()]).collect();
            let replacement = match &m.params {
                None => self.substitute(m, &[], &hide)?,
                Some(_) if input.last().is_some_and(|t| t.text == "(" && t.arg.is_none()) => {
                    let (args, close) = take_args(&mut input)?;
                    let hide: BTreeSet<String> =
                        tok.hide.intersection(&close.hide).cloned().chain([tok.text]).collect();
                    let args = group_args(m, args)
                        .ok_or_else(|| format!("wrong number of arguments to `{}`", hide_name(&hide)))?;
                    self.substitute(m, &args, &hide)?
                }
                Some(_) if input.is_empty() => {
                    return Err(format!("`{}` takes its arguments from beyond the expansion", tok.text));
                }
                Some(_) => {
                    out.push(tok);
                    continue;
                }
            };
            input.extend(replacement.into_iter().rev());
        }
        Ok(out)
    }

    fn expandable(&self, tok: &Tok) -> Option<&'m Macro> {
        if tok.kind != Kind::Ident || tok.arg.is_some() || tok.hide.contains(&tok.text) {
            return None;
        }
        self.macros.get(&tok.text)
    }

    /// The body of `m` with its parameters replaced by `args`, every
    /// token hidden from `hide`.
    fn substitute(&mut self, m: &Macro, args: &[Vec<Tok>], hide: &BTreeSet<String>) -> Result<Vec<Tok>, String> {
        let params = m.params.clone().unwrap_or_default();
        let body = tokens(&m.body);
        let param_of = |t: &Tok| (t.kind == Kind::Ident).then(|| params.iter().position(|p| *p == t.text)).flatten();
        let mut out: Vec<Tok> = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            let pasted_before = k > 0 && body[k - 1].text == "##";
            let pasted_after = body.get(k + 1).is_some_and(|n| n.text == "##");
            if t.text == "#" && m.params.is_some() {
                if let Some(p) = body.get(k + 1).and_then(param_of) {
                    out.push(Tok { space: t.space, ..Tok::new(&stringify(&self.spelled(&args[p])), Kind::Literal) });
                    k += 2;
                    continue;
                }
            }
            match param_of(t) {
                Some(p) if pasted_before || pasted_after => out.extend(spaced(self.raw(&args[p]), t.space)),
                Some(p) => out.extend(spaced(self.expand(args[p].clone())?, t.space)),
                None => out.push(t.clone()),
            }
            k += 1;
        }
        let mut out = paste(out)?;
        for t in &mut out {
            t.hide.extend(hide.iter().cloned());
        }
        Ok(out)
    }

    /// An argument's tokens as written: an outermost argument stands for
    /// its source text.
    fn raw(&self, arg: &[Tok]) -> Vec<Tok> {
        arg.iter().flat_map(|t| t.arg.map_or_else(|| vec![t.clone()], |a| tokens(&self.args[a]))).collect()
    }

    fn spelled(&self, arg: &[Tok]) -> String {
        let mut text = String::new();
        for t in self.raw(arg) {
            if t.space && !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&t.text);
        }
        text
    }
}

fn hide_name(hide: &BTreeSet<String>) -> String {
    hide.iter().last().cloned().unwrap_or_default()
}

/// The arguments after a function-like macro's name (`input` is
/// reversed, its last token the `(`), and the closing parenthesis.
fn take_args(input: &mut Vec<Tok>) -> Result<(Vec<Vec<Tok>>, Tok), String> {
    input.pop();
    let mut args = vec![Vec::new()];
    let mut depth = 0;
    while let Some(t) = input.pop() {
        match t.text.as_str() {
            "(" if t.arg.is_none() => depth += 1,
            ")" if t.arg.is_none() && depth == 0 => return Ok((args, t)),
            ")" if t.arg.is_none() => depth -= 1,
            "," if t.arg.is_none() && depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut().expect("one argument at least").push(t);
    }
    Err("a macro's arguments run past the expansion".to_string())
}

/// `args` as the parameters of `m`: variadic arguments joined, `()` as
/// no argument for a macro of none.
fn group_args(m: &Macro, mut args: Vec<Vec<Tok>>) -> Option<Vec<Vec<Tok>>> {
    let n = m.params.as_ref().map_or(0, Vec::len);
    if n == 0 && args.len() == 1 && args[0].is_empty() {
        return Some(Vec::new());
    }
    if m.variadic && args.len() >= n {
        let rest: Vec<Vec<Tok>> = args.split_off(n - 1);
        let mut joined = Vec::new();
        for (k, a) in rest.into_iter().enumerate() {
            if k > 0 {
                joined.push(Tok::new(",", Kind::Punct));
            }
            joined.extend(a);
        }
        args.push(joined);
    } else if m.variadic && args.len() == n - 1 {
        args.push(Vec::new());
    }
    (args.len() == n).then_some(args)
}

fn stringify(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Apply `##`: the tokens on each side become one.
fn paste(tokens: Vec<Tok>) -> Result<Vec<Tok>, String> {
    let mut out: Vec<Tok> = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(t) = iter.next() {
        if t.text != "##" || t.arg.is_some() {
            out.push(t);
            continue;
        }
        let Some(right) = iter.next() else { continue };
        match out.pop() {
            Some(left) => {
                let text = format!("{}{}", left.text, right.text);
                let mut joined = tokens_exact(&text)?;
                joined.hide = left.hide;
                out.push(joined);
            }
            None => out.push(right),
        }
    }
    Ok(out)
}

fn tokens_exact(text: &str) -> Result<Tok, String> {
    match &tokens(text)[..] {
        [one] => Ok(one.clone()),
        _ => Err(format!("`##` does not make one token of `{text}`")),
    }
}

/// `text` (at byte `offset` of its file) with every macro invocation
/// expanded, and where each byte came from (source positions include
/// `offset`). Directive lines are copied as they are.
pub fn expand_text(text: &str, offset: usize, macros: &Macros) -> Result<(String, SourceMap), ExpandError> {
    let mut out = String::new();
    let mut map = SourceMap::default();
    expand_into(text, offset, macros, &mut out, &mut map)?;
    Ok((out, map))
}

fn expand_into(
    text: &str,
    offset: usize,
    macros: &Macros,
    out: &mut String,
    map: &mut SourceMap,
) -> Result<(), ExpandError> {
    let lexed = lex(text, true);
    let mut k = 0;
    while k < lexed.len() {
        let (range, kind) = lexed[k].clone();
        let invocation = match macros.get(&text[range.clone()]).filter(|_| kind == Kind::Ident) {
            Some(m) => invocation(text, &lexed, k, m),
            None => None,
        };
        let Some((end_token, args)) = invocation else {
            copy(out, map, &text[range.clone()], range.start + offset);
            k += 1;
            continue;
        };
        let mut args = join_variadic(variadic_arity(macros, &text[range.clone()]), args);
        // `F()` passes no argument to a macro without parameters.
        let no_params = macros[&text[range.clone()]].params.as_ref().is_some_and(Vec::is_empty);
        if no_params && args.len() == 1 && text[args[0].clone()].trim().is_empty() {
            args.clear();
        }
        let span = range.start..lexed[end_token].0.end;
        let fail = |reason: String| ExpandError { span: span.start + offset..span.end + offset, reason };
        let name = &text[range.clone()];
        let mut expander =
            Expander { macros, steps: 0, args: args.iter().map(|a| text[a.clone()].to_string()).collect() };
        let placeholders: Vec<Vec<Tok>> =
            (0..args.len()).map(|a| vec![Tok { arg: Some(a), space: false, ..Tok::new("", Kind::Ident) }]).collect();
        let m = &macros[name];
        let hide: BTreeSet<String> = [name.to_string()].into();
        let grouped =
            group_args(m, placeholders).ok_or_else(|| fail(format!("wrong number of arguments to `{name}`")))?;
        let body = expander.substitute(m, &grouped, &hide).map_err(&fail)?;
        let expanded = expander.expand(body).map_err(&fail)?;
        if let Some(next) = lexed[end_token + 1..].iter().find(|(_, k)| *k != Kind::Space) {
            let ends_in_function_macro = expanded.last().is_some_and(|t| {
                t.kind == Kind::Ident && t.arg.is_none() && macros.get(&t.text).is_some_and(|m| m.params.is_some())
            });
            if ends_in_function_macro && &text[next.0.clone()] == "(" {
                return Err(fail(format!("`{name}` expands to a macro that takes its arguments from after it")));
            }
        }
        let source = span.start + offset..span.end + offset;
        let mut previous: Option<String> = None;
        for tok in expanded {
            match tok.arg {
                Some(a) => {
                    separate(out, map, previous.as_deref(), tok.space, &text[args[a].clone()], &source);
                    expand_into(&text[args[a].clone()], args[a].start + offset, macros, out, map)?;
                    previous = Some(text[args[a].clone()].to_string());
                }
                None => {
                    separate(out, map, previous.as_deref(), tok.space, &tok.text, &source);
                    let start = out.len();
                    out.push_str(&tok.text);
                    map.push(start..out.len(), source.clone(), false);
                    previous = Some(tok.text);
                }
            }
        }
        k = end_token + 1;
    }
    Ok(())
}

fn copy(out: &mut String, map: &mut SourceMap, piece: &str, source_start: usize) {
    let start = out.len();
    out.push_str(piece);
    map.push(start..out.len(), source_start..source_start + piece.len(), true);
}

/// A space between two pieces of an expansion where the definition had
/// one, or where they would otherwise run together into another token.
fn separate(
    out: &mut String,
    map: &mut SourceMap,
    previous: Option<&str>,
    space: bool,
    next: &str,
    source: &Range<usize>,
) {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let glue = |c: char| "+-<>=&|*/%^!#:.".contains(c);
    let (Some(a), Some(b)) = (previous.and_then(|p| p.chars().last()), next.chars().next()) else { return };
    if space || (word(a) && word(b)) || (glue(a) && glue(b)) {
        let start = out.len();
        out.push(' ');
        map.push(start..out.len(), source.clone(), false);
    }
}

/// The invocation of macro `m` whose name is token `k`: the index of its
/// last token and its arguments' source ranges; `None` for a
/// function-like macro's name without arguments.
fn invocation(text: &str, lexed: &[(Range<usize>, Kind)], k: usize, m: &Macro) -> Option<(usize, Vec<Range<usize>>)> {
    if m.params.is_none() {
        return Some((k, Vec::new()));
    }
    let open = (k + 1..lexed.len()).find(|&j| lexed[j].1 != Kind::Space)?;
    if &text[lexed[open].0.clone()] != "(" {
        return None;
    }
    let mut args = Vec::new();
    let mut depth = 0;
    let mut arg_start = lexed[open].0.end;
    for (j, (range, kind)) in lexed.iter().enumerate().skip(open + 1) {
        if *kind != Kind::Punct {
            continue;
        }
        match &text[range.clone()] {
            "(" => depth += 1,
            ")" if depth > 0 => depth -= 1,
            ")" => {
                args.push(arg_start..range.start);
                return Some((j, trim_args(text, args)));
            }
            "," if depth == 0 => {
                args.push(arg_start..range.start);
                arg_start = range.end;
            }
            _ => {}
        }
    }
    None
}

fn variadic_arity(macros: &Macros, name: &str) -> Option<usize> {
    macros.get(name).filter(|m| m.variadic).and_then(|m| m.params.as_ref()).map(Vec::len)
}

/// The source ranges of a variadic macro's arguments with the variadic
/// ones as one (commas included), so that they keep their source text.
fn join_variadic(variadic_params: Option<usize>, mut args: Vec<Range<usize>>) -> Vec<Range<usize>> {
    if let Some(n) = variadic_params.filter(|&n| n >= 1 && args.len() > n) {
        let end = args[args.len() - 1].end;
        args.truncate(n);
        args[n - 1].end = end;
    }
    args
}

/// Arguments without their surrounding whitespace.
fn trim_args(text: &str, args: Vec<Range<usize>>) -> Vec<Range<usize>> {
    args.into_iter()
        .map(|r| {
            let piece = &text[r.clone()];
            let start = r.start + (piece.len() - piece.trim_start().len());
            start..start + piece.trim().len()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn macros(defs: &[&str]) -> Macros {
        defs.iter().map(|d| parse_define(d).expect("a definition")).collect()
    }

    fn expand(text: &str, defs: &[&str]) -> String {
        expand_text(text, 0, &macros(defs)).expect("expands").0
    }

    #[test]
    fn object_and_function_like_macros_expand_through_each_other() {
        let defs = ["#define _PB_N POLYBENCH_LOOP_BOUND(N,n)", "#define POLYBENCH_LOOP_BOUND(x,y) y", "#define N 40"];
        assert_eq!(expand("for (i = 0; i < _PB_N; i++)", &defs), "for (i = 0; i < n; i++)");
        let defs = ["#define SCALAR_VAL(x) x", "#define SQRT_FUN(x) sqrt(x)"];
        assert_eq!(expand("a[i] = SQRT_FUN(SCALAR_VAL(0.2) * b[i]);", &defs), "a[i] = sqrt(0.2 * b[i]);");
    }

    #[test]
    fn arguments_keep_their_source_text_and_positions() {
        let defs = ["#define SQ(x) ((x) * (x))"];
        let text = "y = SQ(a[ i ]);";
        let (out, map) = expand_text(text, 100, &macros(&defs)).unwrap();
        assert_eq!(out, "y = ((a[ i ]) * (a[ i ]));");
        let second = out.rfind("a[ i ]").unwrap();
        assert!(map.is_copied(&(second..second + 6)));
        assert_eq!(map.source_range(&(second..second + 6)), 107..113);
        let star = out.find('*').unwrap();
        assert!(!map.is_copied(&(star..star + 1)));
        assert_eq!(map.source_range(&(0..out.len())), 100..115);
    }

    #[test]
    fn hide_sets_stop_recursion_and_stringify_and_paste_work() {
        assert_eq!(expand("f(x)", &["#define f(a) f(a + 1)"]), "f(x + 1)");
        assert_eq!(expand("S(a b)", &["#define S(a) #a"]), "\"a b\"");
        assert_eq!(expand("CAT(x, 1) = 0;", &["#define CAT(a, b) a ## b"]), "x1 = 0;");
        assert_eq!(expand("V(1, 2, 3)", &["#define V(f, ...) f + g(__VA_ARGS__)"]), "1 + g(2, 3)");
    }

    #[test]
    fn empty_parentheses_call_a_macro_without_parameters() {
        assert_eq!(expand("START(); x = 1;", &["#define START() ((void)0)"]), "((void)0); x = 1;");
    }

    #[test]
    fn a_name_without_arguments_and_directives_stay() {
        let defs = ["#define max(a, b) ((a) > (b) ? (a) : (b))"];
        assert_eq!(expand("p = max;\n#define Q max(1, 2)\n", &defs), "p = max;\n#define Q max(1, 2)\n");
    }

    #[test]
    fn an_expansion_needing_text_after_it_is_refused() {
        let defs = ["#define F G", "#define G(x) x"];
        let err = expand_text("y = F(2);", 0, &macros(&defs)).unwrap_err();
        assert_eq!(err.span, 4..5);
    }
}
