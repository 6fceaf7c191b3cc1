//! Process groups as Megatron-Core builds them: `RankGenerator` over an order string,
//! hierarchical CP groups (`create_hierarchical_groups`) and hybrid DP×CP power-of-two
//! subgroups (`create_hybrid_dp_cp_groups`). Pure arithmetic; no communicator is created.

use std::collections::BTreeMap;

use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum GroupsError {
    #[error("--order `{order}`: `{token}` is not a parallelism (expected tp, cp, ep, dp, pp)")]
    UnknownToken { order: String, token: String },
    #[error("--order `{order}`: `{token}` appears twice")]
    DuplicateToken { order: String, token: String },
    #[error("--order `{order}` leaves out `{token}`, whose size is {size}; add it to the order")]
    MissingToken { order: String, token: String, size: u32 },
    #[error("--world {world} is not a multiple of {what} = {product}")]
    NotDivisible { world: u32, what: String, product: u64 },
    #[error("--hierarchy {sizes:?} multiplies to {product}, but cp = {cp}")]
    Hierarchy { sizes: Vec<u32>, product: u64, cp: u32 },
    #[error("--hybrid needs a power-of-two DP×CP group; dp*cp = {size}")]
    HybridSize { size: u32 },
    #[error("{what} must be at least 1")]
    Zero { what: &'static str },
}

/// The sizes the groups are built from.
#[derive(Clone, Debug)]
pub struct GroupSizes {
    pub world: u32,
    pub tp: u32,
    pub cp: u32,
    pub pp: u32,
    pub ep: u32,
    /// Megatron's order string, e.g. `tp-cp-ep-dp-pp`.
    pub order: String,
    pub hierarchy: Option<Vec<u32>>,
    pub hybrid: bool,
}

/// Every group, rank for rank. Keys of `groups` are Megatron's `get_ranks` tokens.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Groups {
    pub world: u32,
    pub order: String,
    pub groups: BTreeMap<String, Vec<Vec<u32>>>,
    /// Per level of the CP hierarchy, the groups of that level over every CP group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hierarchical: Option<Vec<Vec<Vec<u32>>>>,
    /// Per power-of-two size, the contiguous subgroups of every DP×CP group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hybrid: Option<BTreeMap<u32, Vec<Vec<u32>>>>,
}

const TOKENS: [&str; 5] = ["tp", "cp", "ep", "dp", "pp"];

/// Megatron-Core's `RankGenerator`: an order of named sizes whose product is the world.
struct RankGenerator {
    order: Vec<String>,
    sizes: Vec<u32>,
    world: u32,
}

impl RankGenerator {
    fn new(world: u32, sizes: [(&str, u32); 5], order: &str) -> Result<Self, GroupsError> {
        let mut tokens: Vec<String> = order.to_lowercase().split('-').map(str::to_string).collect();
        for (i, token) in tokens.iter().enumerate() {
            if !TOKENS.contains(&token.as_str()) {
                return Err(GroupsError::UnknownToken { order: order.into(), token: token.clone() });
            }
            if tokens[..i].contains(token) {
                return Err(GroupsError::DuplicateToken { order: order.into(), token: token.clone() });
            }
        }
        for (name, size) in sizes {
            if !tokens.iter().any(|t| t == name) {
                if size != 1 {
                    return Err(GroupsError::MissingToken { order: order.into(), token: name.into(), size });
                }
                tokens.push(name.to_string());
            }
        }
        let size_of = |t: &str| sizes.iter().find(|(n, _)| *n == t).map_or(1, |(_, s)| *s);
        let ordered = tokens.iter().map(|t| size_of(t)).collect();
        Ok(RankGenerator { order: tokens, sizes: ordered, world })
    }

    /// `get_ranks(token)`: the groups varying along the dimensions named by `token` (e.g. `dp-cp`).
    fn ranks(&self, token: &str) -> Vec<Vec<u32>> {
        let wanted: Vec<&str> = token.split('-').collect();
        let mask: Vec<bool> = self.order.iter().map(|t| wanted.contains(&t.as_str())).collect();
        masked_orthogonal_groups(self.world, &self.sizes, &mask)
    }
}

fn prefix_product(values: &[u32]) -> Vec<u64> {
    let mut out = vec![1u64];
    for &v in values {
        out.push(out[out.len() - 1] * v as u64);
    }
    out
}

fn decompose(index: u64, shape: &[u32]) -> Vec<u64> {
    let stride = prefix_product(shape);
    shape.iter().zip(&stride).map(|(&s, &d)| (index / d) % s as u64).collect()
}

/// Megatron-Core's `generate_masked_orthogonal_rank_groups`.
fn masked_orthogonal_groups(world: u32, sizes: &[u32], mask: &[bool]) -> Vec<Vec<u32>> {
    let pick = |want: bool| -> (Vec<u32>, Vec<u64>) {
        let stride = prefix_product(sizes);
        let shape = sizes.iter().zip(mask).filter(|(_, m)| **m == want).map(|(s, _)| *s).collect();
        let strides = stride.iter().zip(mask).filter(|(_, m)| **m == want).map(|(d, _)| *d).collect();
        (shape, strides)
    };
    let (masked_shape, masked_stride) = pick(true);
    let (unmasked_shape, unmasked_stride) = pick(false);
    let group_size = prefix_product(&masked_shape)[masked_shape.len()];
    let n_groups = world as u64 / group_size;
    let dot = |a: &[u64], b: &[u64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<u64>();
    (0..n_groups)
        .map(|group| {
            let group_idx = decompose(group, &unmasked_shape);
            (0..group_size)
                .map(|r| (dot(&decompose(r, &masked_shape), &masked_stride) + dot(&group_idx, &unmasked_stride)) as u32)
                .collect()
        })
        .collect()
}

/// Megatron-Core's `create_hierarchical_groups`, for one CP group: level 0 contiguous,
/// each further level strided by the product of the levels below.
pub fn hierarchical_levels(ranks: &[u32], sizes: &[u32]) -> Vec<Vec<Vec<u32>>> {
    let mut levels = Vec::new();
    let mut accumulated = 1usize;
    let mut processed = 1usize;
    for &size in sizes {
        let size = size as usize;
        accumulated *= size;
        let mut level = Vec::new();
        for k in 0..ranks.len() / accumulated {
            for j in 0..processed {
                level.push((0..size).map(|i| ranks[j + i * processed + k * accumulated]).collect());
            }
        }
        levels.push(level);
        processed *= size;
    }
    levels
}

/// Megatron-Core's `create_hybrid_dp_cp_groups`, for one DP×CP group: contiguous subgroups of
/// every power-of-two size from 2 to half the group.
pub fn hybrid_subgroups(ranks: &[u32]) -> BTreeMap<u32, Vec<Vec<u32>>> {
    let mut out = BTreeMap::new();
    let mut size = 2usize;
    while size < ranks.len() {
        out.insert(size as u32, ranks.chunks(size).map(<[u32]>::to_vec).collect());
        size *= 2;
    }
    out
}

/// A generator over tp, cp, ep, dp and pp whose dp fills the world; `split` names the
/// dimension besides tp and pp (`cp` for the decoder, `ep` for expert layers).
fn generator(sizes: &GroupSizes, split: &str, cp: u32, ep: u32) -> Result<(RankGenerator, u32), GroupsError> {
    let model = sizes.tp as u64 * cp as u64 * ep as u64 * sizes.pp as u64;
    if sizes.world as u64 % model != 0 {
        return Err(GroupsError::NotDivisible { world: sizes.world, what: format!("tp*{split}*pp"), product: model });
    }
    let dp = (sizes.world as u64 / model) as u32;
    let order = [("tp", sizes.tp), ("cp", cp), ("ep", ep), ("dp", dp), ("pp", sizes.pp)];
    Ok((RankGenerator::new(sizes.world, order, &sizes.order)?, dp))
}

pub fn build(sizes: &GroupSizes) -> Result<Groups, GroupsError> {
    for (what, v) in
        [("--world", sizes.world), ("--tp", sizes.tp), ("--cp", sizes.cp), ("--pp", sizes.pp), ("--ep", sizes.ep)]
    {
        if v == 0 {
            return Err(GroupsError::Zero { what });
        }
    }
    let (decoder, dp) = generator(sizes, "cp", sizes.cp, 1)?;
    let mut groups = BTreeMap::new();
    for token in ["tp", "cp", "dp", "pp", "dp-cp", "tp-cp", "tp-dp", "tp-dp-cp", "tp-pp"] {
        groups.insert(token.to_string(), decoder.ranks(token));
    }
    // Expert layers use their own generator: expert tp = tp, cp = 1, expert dp = world/(tp*ep*pp).
    let (expert, _) = generator(sizes, "ep", 1, sizes.ep)?;
    groups.insert("ep".to_string(), expert.ranks("ep"));
    groups.insert("tp-ep".to_string(), expert.ranks("tp-ep"));

    let hierarchical = match &sizes.hierarchy {
        None => None,
        Some(levels) => {
            let product: u64 = levels.iter().map(|&l| l as u64).product();
            if product != sizes.cp as u64 || levels.contains(&0) {
                return Err(GroupsError::Hierarchy { sizes: levels.clone(), product, cp: sizes.cp });
            }
            let mut out: Vec<Vec<Vec<u32>>> = vec![Vec::new(); levels.len()];
            for cp_group in &groups["cp"] {
                for (level, level_groups) in hierarchical_levels(cp_group, levels).into_iter().enumerate() {
                    out[level].extend(level_groups);
                }
            }
            Some(out)
        }
    };
    let hybrid = if sizes.hybrid {
        let size = dp * sizes.cp;
        if !size.is_power_of_two() {
            return Err(GroupsError::HybridSize { size });
        }
        let mut out: BTreeMap<u32, Vec<Vec<u32>>> = BTreeMap::new();
        for dp_cp in &groups["dp-cp"] {
            for (size, subgroups) in hybrid_subgroups(dp_cp) {
                out.entry(size).or_default().extend(subgroups);
            }
        }
        Some(out)
    } else {
        None
    };
    Ok(Groups { world: sizes.world, order: decoder.order.join("-"), groups, hierarchical, hybrid })
}
