//! Token partitions: which global tokens each CP rank holds, in local order, and their RoPE
//! positions. One object feeds both, so a token split and a position split cannot disagree.
//!
//! - zigzag: 2·cp chunks, rank r holds chunks r and 2cp−1−r (Megatron-LM's
//!   `get_batch_on_this_cp_rank`);
//! - contiguous: chunk r of cp;
//! - THD: each sequence padded to a multiple of 2·cp (2·cp·tp with sequence parallelism), to the
//!   next multiple or to the padded lengths the data pipeline chose (TransformerEngine's
//!   `cu_seqlens_padded`), and split zigzag by itself (TransformerEngine's
//!   `thd_get_partitioned_indices`); tokens index the padded packed buffer, positions restart at 0
//!   in each sequence. A sequence of length 0 (a repeated `cu_seqlens` entry) owns only its padding.

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum PartitionError {
    #[error("{len} tokens cannot be split into {parts} equal chunks")]
    NotDivisible { len: u64, parts: u64 },
    #[error("cp must be at least 1")]
    ZeroCp,
    #[error("the padded sequences take {padded} tokens, more than the buffer's max_tokens = {max_tokens}")]
    TooManyTokens { padded: u64, max_tokens: u64 },
    #[error(
        "sequence {index} has {len} tokens, more than max_seqlen = {max_seqlen}\n  help: raise `max_seqlen` in the layout's `format = thd {{ ... }}`, or split the sequence"
    )]
    TooLong { index: usize, len: u64, max_seqlen: u64 },
    #[error("cu_seqlens_padded describes {padded} sequences but cu_seqlens {real}")]
    PaddedCount { real: usize, padded: usize },
    #[error(
        "sequence {index} has {len} tokens but is padded to {padded}\n  help: each padded length (cu_seqlens_padded[i+1] - cu_seqlens_padded[i]) must be at least the sequence's own"
    )]
    PaddedShorter { index: usize, len: u64, padded: u64 },
    #[error(
        "sequence {index} is padded to {padded} tokens, not a multiple of {unit}\n  help: TransformerEngine splits every padded sequence into 2*cp chunks (times tp with sequence parallelism): pad it to {}",
        padded.div_ceil(*unit) * unit
    )]
    PaddedNotMultiple { index: usize, padded: u64, unit: u64 },
}

/// A packed THD batch: each sequence's length and, when the data pipeline padded them itself
/// (TransformerEngine's `cu_seqlens_padded`), each sequence's padded length.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThdBatch {
    pub seqlens: Vec<u64>,
    /// Padded lengths, one per sequence; `None` pads each to the next multiple of the unit.
    pub padded: Option<Vec<u64>>,
}

impl ThdBatch {
    /// Sequences padded by attnc to the next multiple of the unit.
    pub fn lengths(seqlens: Vec<u64>) -> ThdBatch {
        ThdBatch { seqlens, padded: None }
    }
}

/// What a THD split must respect: the unit every padded length is a multiple of (2·cp, times tp
/// with sequence parallelism), and the layout's `max_seqlen` and `max_tokens`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThdLimits {
    pub unit: u64,
    pub max_seqlen: Option<u64>,
    pub max_tokens: Option<u64>,
}

impl ThdLimits {
    pub fn unit(unit: u64) -> ThdLimits {
        ThdLimits { unit, max_seqlen: None, max_tokens: None }
    }
}

/// The padded end offsets `[0, e1, e2, ...]` of a batch: given padded lengths checked against
/// the limits, or each length rounded up to the unit.
pub fn padded_offsets(batch: &ThdBatch, limits: &ThdLimits) -> Result<Vec<u64>, PartitionError> {
    let unit = limits.unit.max(1);
    if let Some(padded) = &batch.padded {
        if padded.len() != batch.seqlens.len() {
            return Err(PartitionError::PaddedCount { real: batch.seqlens.len(), padded: padded.len() });
        }
    }
    let mut cu = vec![0u64];
    for (index, &len) in batch.seqlens.iter().enumerate() {
        if let Some(max_seqlen) = limits.max_seqlen.filter(|&m| len > m) {
            return Err(PartitionError::TooLong { index, len, max_seqlen });
        }
        let padded = match &batch.padded {
            Some(padded) => {
                let p = padded[index];
                if p < len {
                    return Err(PartitionError::PaddedShorter { index, len, padded: p });
                }
                if p % unit != 0 {
                    return Err(PartitionError::PaddedNotMultiple { index, padded: p, unit });
                }
                p
            }
            None => len.div_ceil(unit) * unit,
        };
        cu.push(cu[cu.len() - 1] + padded);
    }
    let total = cu[cu.len() - 1];
    if let Some(max_tokens) = limits.max_tokens.filter(|&m| total > m) {
        return Err(PartitionError::TooManyTokens { padded: total, max_tokens });
    }
    Ok(cu)
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RankTokens {
    pub rank: u32,
    /// Global token indices (THD: indices into the padded packed buffer), in local order.
    pub tokens: Vec<u64>,
    /// The RoPE position of each token.
    pub positions: Vec<u64>,
    /// Local indices of padding tokens (THD only; always present, empty without padding).
    pub padding: Vec<u64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
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

/// THD: every sequence padded (see [`padded_offsets`]) and split zigzag by itself, as
/// TransformerEngine's `thd_get_partitioned_indices` splits `cu_seqlens_padded`.
pub fn thd(batch: &ThdBatch, cp: u32, limits: &ThdLimits) -> Result<Partition, PartitionError> {
    if cp == 0 {
        return Err(PartitionError::ZeroCp);
    }
    let cu = padded_offsets(batch, limits)?;
    let ranks = (0..cp)
        .map(|r| {
            let mut rank = RankTokens { rank: r, tokens: Vec::new(), positions: Vec::new(), padding: Vec::new() };
            for (i, &len) in batch.seqlens.iter().enumerate() {
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
