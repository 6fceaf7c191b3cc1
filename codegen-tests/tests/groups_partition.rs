//! Partitions and process groups against tables taken from Megatron-Core's and
//! TransformerEngine's published code and docstrings (written out by hand here, not
//! produced by our own code).

use attnc_compiler::plan::groups::{self, GroupSizes, hierarchical_levels, hybrid_subgroups};
use attnc_compiler::plan::partition::{self, PartitionError, ThdBatch, ThdLimits};

/// attnc's THD split with attnc's padding to the next multiple of `unit`.
fn thd(lens: &[u64], cp: u32, unit: u64, max_tokens: Option<u64>) -> Result<partition::Partition, PartitionError> {
    let limits = ThdLimits { unit, max_seqlen: None, max_tokens };
    partition::thd(&ThdBatch::lengths(lens.to_vec()), cp, &limits)
}

/// TransformerEngine's `thd_partition_indices_kernel` (common/fused_attn/context_parallel.cu),
/// transcribed as TE computes it — one local token at a time, a binary search over
/// `cu_seqlens_padded / cp` for its sequence, then the dual-chunk offset — so that it shares no
/// code or structure with attnc's chunk-by-chunk split.
fn te_partitioned_indices(cu_seqlens_padded: &[u64], cp: u64, rank: u64) -> Vec<u64> {
    let cu_s: Vec<u64> = cu_seqlens_padded.iter().map(|&c| c / cp).collect();
    // TE's binary_search: the last i in [0, len-2] with array[i] <= target (over positions 1..).
    let search = |target: u64| {
        let (mut left, mut right) = (1usize, cu_s.len() - 1);
        while left < right {
            let mid = (left + right) / 2;
            if cu_s[mid] <= target { left = mid + 1 } else { right = mid }
        }
        left - 1
    };
    let total = cu_seqlens_padded[cu_seqlens_padded.len() - 1];
    (0..total / cp)
        .map(|token| {
            let seq = search(token);
            let seq_len = cu_s[seq + 1] - cu_s[seq];
            let index = token - cu_s[seq];
            let offset = if index < seq_len / 2 { rank } else { (cp - 1) * 2 - rank };
            index + cu_s[seq] * cp + seq_len / 2 * offset
        })
        .collect()
}

fn sizes(world: u32, tp: u32, cp: u32, pp: u32, order: &str) -> GroupSizes {
    GroupSizes { world, tp, cp, pp, ep: 1, order: order.into(), hierarchy: None, hybrid: false }
}

/// `initialize_model_parallel`'s docstring: 16 GPUs, tp = 2, pp = 4.
#[test]
fn megatron_docstring_tp2_pp4() {
    let g = groups::build(&sizes(16, 2, 1, 4, "tp-cp-ep-dp-pp")).unwrap();
    assert_eq!(
        g.groups["tp"],
        vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7], vec![8, 9], vec![10, 11], vec![12, 13], vec![14, 15]]
    );
    assert_eq!(
        g.groups["dp"],
        vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7], vec![8, 10], vec![9, 11], vec![12, 14], vec![13, 15]]
    );
    assert_eq!(g.groups["pp"], vec![vec![0, 4, 8, 12], vec![1, 5, 9, 13], vec![2, 6, 10, 14], vec![3, 7, 11, 15]]);
}

/// Order tp-cp-ep-dp-pp with world 16, tp 2, cp 2, pp 2: dp = 2. CP is adjacent to TP.
#[test]
fn cp_next_to_tp() {
    let g = groups::build(&sizes(16, 2, 2, 2, "tp-cp-ep-dp-pp")).unwrap();
    assert_eq!(
        g.groups["cp"],
        vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7], vec![8, 10], vec![9, 11], vec![12, 14], vec![13, 15]]
    );
    assert_eq!(
        g.groups["dp"],
        vec![vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7], vec![8, 12], vec![9, 13], vec![10, 14], vec![11, 15]]
    );
    assert_eq!(g.groups["dp-cp"], vec![vec![0, 2, 4, 6], vec![1, 3, 5, 7], vec![8, 10, 12, 14], vec![9, 11, 13, 15]]);
    assert_eq!(g.groups["tp-cp"], vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9, 10, 11], vec![12, 13, 14, 15]]);
    assert_eq!(g.groups["pp"], (0..8).map(|r| vec![r, r + 8]).collect::<Vec<_>>());
}

/// `create_hierarchical_groups`' docstring: 16 GPUs, sizes [2, 2, 4].
#[test]
fn megatron_docstring_hierarchy_2_2_4() {
    let ranks: Vec<u32> = (0..16).collect();
    let levels = hierarchical_levels(&ranks, &[2, 2, 4]);
    assert_eq!(
        levels[0],
        vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7], vec![8, 9], vec![10, 11], vec![12, 13], vec![14, 15]]
    );
    assert_eq!(
        levels[1],
        vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7], vec![8, 10], vec![9, 11], vec![12, 14], vec![13, 15]]
    );
    assert_eq!(levels[2], vec![vec![0, 4, 8, 12], vec![1, 5, 9, 13], vec![2, 6, 10, 14], vec![3, 7, 11, 15]]);
}

/// `create_hybrid_dp_cp_groups`: sizes 2 .. len/2, contiguous.
#[test]
fn hybrid_power_of_two_subgroups() {
    let ranks: Vec<u32> = (0..8).collect();
    let sub = hybrid_subgroups(&ranks);
    assert_eq!(sub.keys().copied().collect::<Vec<_>>(), vec![2, 4]);
    assert_eq!(sub[&2], vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]);
    assert_eq!(sub[&4], vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
    let mut s = sizes(8, 1, 8, 1, "tp-cp-ep-dp-pp");
    s.hybrid = true;
    assert!(groups::build(&s).unwrap().hybrid.is_some());
    s.world = 12;
    s.cp = 12;
    assert!(matches!(groups::build(&s), Err(groups::GroupsError::HybridSize { size: 12 })));
}

#[test]
fn order_errors_name_the_flag() {
    let e = groups::build(&sizes(16, 2, 2, 1, "tp-dp-pp")).unwrap_err();
    assert_eq!(e.to_string(), "--order `tp-dp-pp` leaves out `cp`, whose size is 2; add it to the order");
    let e = groups::build(&sizes(16, 2, 1, 1, "tp-xp-dp")).unwrap_err();
    assert!(e.to_string().contains("`xp` is not a parallelism"), "{e}");
    let e = groups::build(&sizes(12, 8, 1, 1, "tp-cp-ep-dp-pp")).unwrap_err();
    assert_eq!(e.to_string(), "--world 12 is not a multiple of tp*cp*pp = 8");
}

/// Megatron's `get_batch_on_this_cp_rank`: seq 16, cp 4, chunks of 2, rank r holds chunks r and 7-r.
#[test]
fn zigzag_matches_megatron() {
    let p = partition::zigzag(16, 4).unwrap();
    let tokens: Vec<Vec<u64>> = p.ranks.iter().map(|r| r.tokens.clone()).collect();
    assert_eq!(tokens, vec![vec![0, 1, 14, 15], vec![2, 3, 12, 13], vec![4, 5, 10, 11], vec![6, 7, 8, 9]]);
    assert!(p.ranks.iter().all(|r| r.positions == r.tokens));
    assert_eq!(partition::zigzag(10, 2), Err(PartitionError::NotDivisible { len: 10, parts: 4 }));
    let c = partition::contiguous(8, 2).unwrap();
    assert_eq!(c.ranks[1].tokens, vec![4, 5, 6, 7]);
}

/// TransformerEngine's `thd_get_partitioned_indices` on padded lengths [4, 8], cp = 2:
/// each sequence in 4 chunks, rank r takes chunks r and 3-r of each.
#[test]
fn thd_matches_transformer_engine() {
    let p = thd(&[4, 8], 2, 4, None).unwrap();
    assert_eq!(p.cu_seqlens_padded, Some(vec![0, 4, 12]));
    assert_eq!(p.ranks[0].tokens, vec![0, 3, 4, 5, 10, 11]);
    assert_eq!(p.ranks[1].tokens, vec![1, 2, 6, 7, 8, 9]);
    assert_eq!(p.ranks[0].positions, vec![0, 3, 0, 1, 6, 7]);
    // Lengths 1 and 5 pad to 4 and 8: the padding tokens are marked by local index.
    let p = thd(&[1, 5], 2, 4, None).unwrap();
    assert_eq!(p.ranks[0].tokens, vec![0, 3, 4, 5, 10, 11]);
    assert_eq!(p.ranks[0].padding, vec![1, 4, 5]);
    assert_eq!(p.ranks[1].padding, vec![0, 1, 5]);
    assert_eq!(thd(&[100], 2, 4, Some(64)), Err(PartitionError::TooManyTokens { padded: 100, max_tokens: 64 }));
}

/// Every token of the sequence is held by exactly one rank, for many sizes.
#[test]
fn partitions_cover_every_token_once() {
    for cp in [1u32, 2, 3, 4, 8, 16] {
        for seq in [2 * cp as u64, 64 * cp as u64, 6 * cp as u64 * 7] {
            for p in [partition::zigzag(seq, cp).unwrap(), partition::contiguous(seq, cp).unwrap()] {
                let mut all: Vec<u64> = p.ranks.iter().flat_map(|r| r.tokens.clone()).collect();
                all.sort();
                assert_eq!(all, (0..seq).collect::<Vec<_>>(), "cp {cp} seq {seq}");
            }
        }
        let lens = [1u64, 37, 100, 2 * cp as u64, 4000];
        let p = thd(&lens, cp, 2 * cp as u64, None).unwrap();
        let total = *p.cu_seqlens_padded.as_ref().unwrap().last().unwrap();
        let mut all: Vec<u64> = p.ranks.iter().flat_map(|r| r.tokens.clone()).collect();
        all.sort();
        assert_eq!(all, (0..total).collect::<Vec<_>>(), "thd cp {cp}");
    }
}

/// Held-out TE-padded batches (data pipelines pad every sequence to a multiple of 64 or 128, and
/// pack zero-length sequences as repeated `cu_seqlens` entries): attnc's partition is exactly
/// TransformerEngine's `thd_get_partitioned_indices` of the same `cu_seqlens_padded`, on every
/// rank, and padding rows are the positions at or past each sequence's length.
#[test]
fn te_padded_batches_partition_as_transformer_engine_does() {
    let batches: &[(&[u64], u64, u32)] = &[
        (&[100, 256, 120], 64, 2),
        (&[100, 0, 256, 1, 0, 127], 128, 4),
        (&[0, 64, 63], 64, 8),
        (&[3000, 17, 0, 512], 128, 2),
    ];
    for &(lens, multiple, cp) in batches {
        let padded: Vec<u64> = lens.iter().map(|&l| l.div_ceil(multiple).max(1) * multiple).collect();
        let batch = ThdBatch { seqlens: lens.to_vec(), padded: Some(padded.clone()) };
        let p = partition::thd(&batch, cp, &ThdLimits::unit(2 * cp as u64)).unwrap();
        let cu: Vec<u64> = std::iter::once(0)
            .chain(padded.iter().scan(0, |s, &x| {
                *s += x;
                Some(*s)
            }))
            .collect();
        assert_eq!(p.cu_seqlens_padded.as_deref(), Some(&cu[..]), "{lens:?}");
        for r in &p.ranks {
            assert_eq!(r.tokens, te_partitioned_indices(&cu, cp as u64, r.rank as u64), "{lens:?} rank {}", r.rank);
            for (local, (&token, &position)) in r.tokens.iter().zip(&r.positions).enumerate() {
                let seq = (0..lens.len()).find(|&i| cu[i] <= token && token < cu[i + 1]).unwrap();
                assert_eq!(position, token - cu[seq]);
                assert_eq!(r.padding.contains(&(local as u64)), position >= lens[seq], "{lens:?} token {token}");
            }
        }
    }
}

/// Zero-length sequences own nothing (or only their padding); bad padded lengths and sequences
/// over `max_seqlen` are errors naming the sequence.
#[test]
fn thd_zero_length_and_padding_errors() {
    let p = thd(&[4, 0, 8], 2, 4, None).unwrap();
    assert_eq!(p.cu_seqlens_padded, Some(vec![0, 4, 4, 12]));
    assert_eq!(p.ranks[0].tokens, vec![0, 3, 4, 5, 10, 11]);
    let check = |lens: &[u64], padded: Option<&[u64]>, max_seqlen: Option<u64>| {
        let batch = ThdBatch { seqlens: lens.to_vec(), padded: padded.map(<[u64]>::to_vec) };
        partition::thd(&batch, 2, &ThdLimits { unit: 4, max_seqlen, max_tokens: None })
    };
    assert_eq!(check(&[5, 3], Some(&[8, 2]), None), Err(PartitionError::PaddedShorter { index: 1, len: 3, padded: 2 }));
    assert_eq!(
        check(&[5, 3], Some(&[8, 6]), None),
        Err(PartitionError::PaddedNotMultiple { index: 1, padded: 6, unit: 4 })
    );
    assert_eq!(check(&[5, 3], Some(&[8]), None), Err(PartitionError::PaddedCount { real: 2, padded: 1 }));
    assert_eq!(check(&[5, 300], None, Some(256)), Err(PartitionError::TooLong { index: 1, len: 300, max_seqlen: 256 }));
    // A zero-length sequence padded by the pipeline is all padding, split like any other.
    let p = check(&[0, 3], Some(&[4, 4]), None).unwrap();
    assert_eq!(p.ranks[0].tokens, vec![0, 3, 4, 7]);
    assert_eq!(p.ranks[0].padding, vec![0, 1, 3]);
    let help = PartitionError::PaddedNotMultiple { index: 1, padded: 6, unit: 4 }.to_string();
    assert!(help.contains("pad it to 8"), "{help}");
}
