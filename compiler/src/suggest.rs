//! "Did you mean" suggestions: the nearest candidate by edit distance, if it is near enough.

/// The candidate nearest to `word`, if its edit distance is small for the word's length. A
/// candidate that extends the word (`h100` → `h100_sxm`) comes first, however near: the user
/// wrote its start; then a candidate the word extends (`h200_sxm` → `h200`: the family the user
/// named, with a suffix the presets do not use); then the nearest by distance. A known synonym
/// (`bfloat16` → `bf16`, `ulysses` → `a2a`) wins over all of them.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    if let Some(s) = synonym(word)
        && let Some(c) = candidates.iter().find(|c| **c == s)
    {
        return Some(c);
    }
    let limit = (word.chars().count() / 3).max(1);
    let lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            let tier = if word.len() > 1 && c.starts_with(word) {
                0
            } else if c.len() > 2 && word.starts_with(c) && word[c.len()..].starts_with(['_', '-']) {
                1
            } else if c.eq_ignore_ascii_case(word) {
                2
            } else {
                3
            };
            // Case-blind distance first; the distance as written breaks ties (`Gbps` is nearer
            // `Gb/s` than `GB/s`).
            let blind = strsim::damerau_levenshtein(&lower, &c.to_ascii_lowercase());
            (tier, blind, strsim::damerau_levenshtein(word, c), c)
        })
        .filter(|(tier, d, _, _)| *tier < 3 || *d <= limit)
        .min_by_key(|(tier, d, exact, _)| (*tier, *d, *exact))
        .map(|(_, _, _, c)| c)
}

/// What other systems call the values attnc names differently: PyTorch's dtypes, the
/// context-parallel strategies' common names, TransformerEngine's spellings.
fn synonym(word: &str) -> Option<&'static str> {
    const SYNONYMS: &[(&str, &str)] = &[
        ("bfloat16", "bf16"),
        ("float16", "fp16"),
        ("half", "fp16"),
        ("float32", "fp32"),
        ("float", "fp32"),
        ("ring", "p2p"),
        ("ring_attention", "p2p"),
        ("ulysses", "a2a"),
        ("alltoall", "a2a"),
        ("all2all", "a2a"),
        ("allgather", "all_gather"),
        ("a2a_p2p", "a2a+p2p"),
        ("hierarchical", "a2a+p2p"),
        ("no_mask", "none"),
        ("learnable", "learned"),
        ("dual_chunk_swap", "zigzag"),
        ("load_balanced", "zigzag"),
    ];
    let lower = word.to_ascii_lowercase();
    SYNONYMS.iter().find(|(from, _)| *from == lower).map(|(_, to)| *to)
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
        // The family the user wrote, not the nearest spelling of another.
        assert_eq!(nearest("h200_sxm", gpus), Some("h200"));
        assert_eq!(nearest("b200_sxm", gpus), Some("b200"));
        assert_eq!(nearest("H200", gpus), Some("h200"));
        assert_eq!(nearest("bfloat16", ["fp32", "bf16", "fp16"]), Some("bf16"));
        assert_eq!(nearest("ulysses", ["p2p", "all_gather", "a2a"]), Some("a2a"));
        assert_eq!(nearest("Gbps", ["GB/s", "Gb/s"]), Some("Gb/s"));
        assert_eq!(nearest("GBps", ["GB/s", "Gb/s"]), Some("GB/s"));
    }
}
