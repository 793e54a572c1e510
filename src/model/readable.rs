//! isl's text with the program's own names, for reports.

/// Replace polyc's isl names (`p3`, `A_x`) by the program's.
pub fn readable(isl_text: &str, params: &[String]) -> String {
    let mut out = String::with_capacity(isl_text.len());
    let mut rest = isl_text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push_str(&rest[..start]);
        let word_len =
            rest[start..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len() - start);
        let word = &rest[start..start + word_len];
        let param = word.strip_prefix('p').and_then(|n| n.parse::<usize>().ok()).and_then(|k| params.get(k));
        match (param, word.strip_prefix("A_")) {
            (Some(name), _) => out.push_str(name),
            (None, Some(array)) => out.push_str(array),
            (None, None) => out.push_str(word),
        }
        rest = &rest[start + word_len..];
    }
    out.push_str(rest);
    out
}
