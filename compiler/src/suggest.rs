//! "Did you mean" suggestions: the nearest candidate by edit distance, if it is near enough.

/// The candidate nearest to `word`, if its edit distance is small for the word's length. A
/// candidate that extends the word (`h100` → `h100_sxm`) comes before any other, however near:
/// the user wrote its start.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (!(word.len() > 1 && c.starts_with(word)), strsim::damerau_levenshtein(word, c), c))
        .filter(|(_, d, c)| *d <= limit || (c.len() > 2 && (c.starts_with(word) || word.starts_with(*c))))
        .min_by_key(|(not_prefix, d, _)| (*not_prefix, *d))
        .map(|(_, _, c)| c)
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

#[cfg(test)]
mod tests {
    use super::nearest;

    #[test]
    fn prefixes_win_then_distance() {
        let gpus = ["h100_sxm", "h100_pcie", "h200", "h20", "b200"];
        assert_eq!(nearest("h100", gpus), Some("h100_sxm"));
        assert_eq!(nearest("h201", gpus), Some("h200"));
        assert_eq!(nearest("b20", gpus), Some("b200"));
        assert_eq!(nearest("zzzz", gpus), None);
    }
}
