//! "Did you mean" suggestions: the nearest candidate by edit distance, if it is near enough.

/// The candidate nearest to `word`, if its edit distance is small for the word's length.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, c)| *d <= limit || (c.len() > 2 && (c.starts_with(word) || word.starts_with(*c))))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// "`a`, `b` or `c`", for messages that list the allowed names.
pub fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.len() {
        0 => String::new(),
        1 => quoted[0].clone(),
        n => format!("{} or {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}
