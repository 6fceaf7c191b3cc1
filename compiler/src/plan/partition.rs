//! Token partitions: which global tokens each CP rank holds, in local order, and their RoPE
//! positions. One object feeds both, so a token split and a position split cannot disagree.
//!
//! - zigzag: 2·cp chunks, rank r holds chunks r and 2cp−1−r (Megatron-LM's
//!   `get_batch_on_this_cp_rank`);
//! - contiguous: chunk r of cp;
//! - THD: each sequence padded to a multiple of 2·cp (2·cp·tp with sequence parallelism)
//!   and split zigzag by itself (TransformerEngine's `thd_get_partitioned_indices`);
//!   tokens index the padded packed buffer, positions restart at 0 in each sequence.

use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum PartitionError {
    #[error("{len} tokens cannot be split into {parts} equal chunks")]
    NotDivisible { len: u64, parts: u64 },
    #[error("cp must be at least 1")]
    ZeroCp,
    #[error("the padded sequences take {padded} tokens, more than the buffer's max_tokens = {max_tokens}")]
    TooManyTokens { padded: u64, max_tokens: u64 },
    #[error("sequence {index} has length 0")]
    EmptySequence { index: usize },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RankTokens {
    pub rank: u32,
    /// Global token indices (THD: indices into the padded packed buffer), in local order.
    pub tokens: Vec<u64>,
    /// The RoPE position of each token.
    pub positions: Vec<u64>,
    /// Local indices of padding tokens (THD only; empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub padding: Vec<u64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Partition {
    pub cp: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cu_seqlens_padded: Option<Vec<u64>>,
    pub ranks: Vec<RankTokens>,
}

fn chunks(len: u64, parts: u64) -> Result<u64, PartitionError> {
    if parts == 0 {
        return Err(PartitionError::ZeroCp);
    }
    if len % parts != 0 {
        return Err(PartitionError::NotDivisible { len, parts });
    }
    Ok(len / parts)
}

/// Zigzag over one sequence of `seq` tokens.
pub fn zigzag(seq: u64, cp: u32) -> Result<Partition, PartitionError> {
    let chunk = chunks(seq, 2 * cp as u64)?;
    Ok(single_sequence(cp, |r| zigzag_chunks(0, chunk, cp, r).collect()))
}

/// The tokens of rank r's two zigzag chunks of a sequence starting at `start`.
fn zigzag_chunks(start: u64, chunk: u64, cp: u32, r: u32) -> impl Iterator<Item = u64> {
    let first = start + r as u64 * chunk;
    let second = start + (2 * cp as u64 - 1 - r as u64) * chunk;
    (first..first + chunk).chain(second..second + chunk)
}

/// Contiguous over one sequence of `seq` tokens.
pub fn contiguous(seq: u64, cp: u32) -> Result<Partition, PartitionError> {
    let chunk = chunks(seq, cp as u64)?;
    Ok(single_sequence(cp, |r| (r as u64 * chunk..(r as u64 + 1) * chunk).collect()))
}

/// A partition of one unpadded sequence, where positions are the token indices.
fn single_sequence(cp: u32, tokens_of: impl Fn(u32) -> Vec<u64>) -> Partition {
    let ranks = (0..cp)
        .map(|r| {
            let tokens = tokens_of(r);
            RankTokens { rank: r, positions: tokens.clone(), tokens, padding: Vec::new() }
        })
        .collect();
    Partition { cp, cu_seqlens_padded: None, ranks }
}

/// THD: every sequence padded to a multiple of `unit` (2·cp, times tp with SP) and split zigzag.
pub fn thd(seqlens: &[u64], cp: u32, unit: u64, max_tokens: Option<u64>) -> Result<Partition, PartitionError> {
    if cp == 0 {
        return Err(PartitionError::ZeroCp);
    }
    let mut cu = vec![0u64];
    for (index, &len) in seqlens.iter().enumerate() {
        if len == 0 {
            return Err(PartitionError::EmptySequence { index });
        }
        cu.push(cu[cu.len() - 1] + len.div_ceil(unit) * unit);
    }
    let padded = cu[cu.len() - 1];
    if let Some(max_tokens) = max_tokens.filter(|&m| padded > m) {
        return Err(PartitionError::TooManyTokens { padded, max_tokens });
    }
    let ranks = (0..cp)
        .map(|r| {
            let mut rank = RankTokens { rank: r, tokens: Vec::new(), positions: Vec::new(), padding: Vec::new() };
            for (i, &len) in seqlens.iter().enumerate() {
                let (start, end) = (cu[i], cu[i + 1]);
                let chunk = (end - start) / (2 * cp as u64);
                for token in zigzag_chunks(start, chunk, cp, r) {
                    let position = token - start;
                    if position >= len {
                        rank.padding.push(rank.tokens.len() as u64);
                    }
                    rank.tokens.push(token);
                    rank.positions.push(position);
                }
            }
            rank
        })
        .collect();
    Ok(Partition { cp, cu_seqlens_padded: Some(cu), ranks })
}
