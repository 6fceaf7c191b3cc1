//! Coverage at a store: every row met exactly the columns the mask allows, each once.
//!
//! For O and dQ rows are query tokens and columns keys; for dK/dV the reverse (the transposed
//! mask). Rows are cut into elementary pieces where the set of contributing blocks is constant;
//! on each piece the allowed pairs of every contributing block's columns are summed in closed
//! form (`ir/mask.rs`) and compared with the allowed pairs of the whole sequence, and the
//! overlaps between blocks' columns must hold no allowed pair. Heads with the same contributors
//! are checked once. Cost grows with blocks and sequences, not tokens: a 1M-token plan is cheap.

use std::collections::HashMap;
use std::rc::Rc;

use super::Errors;
use super::simulate::{Content, Record};
use crate::ir::mask::{MaskRule, Side, allowed_piece, for_each_doc_piece};
use crate::ir::{Interval, OpId, Output, Plan, RowSet, display_intervals_of};

/// (KV head, query head).
type HeadPair = (u32, u32);

pub fn check_store(plan: &Plan, id: OpId, output: Output, content: &Content, errors: &mut Errors<'_>) {
    let p = &plan.problem;
    let rank = plan.op(id).rank;
    let owned = &plan.partition[rank as usize];
    if content.map != *owned {
        errors.at_op(
            id,
            format!(
                "stores tokens {}, but rank {rank} owns tokens {}",
                display_intervals_of(&content.map),
                display_intervals_of(owned)
            ),
        );
        return;
    }
    let n_heads = if output == Output::Dkv { p.kv_heads } else { p.heads };
    if content.heads != (0..n_heads).collect::<Vec<_>>() {
        errors.at_op(id, format!("stores heads {:?}, expected 0..{n_heads} in order", content.heads));
        return;
    }
    if output == Output::O && !content.normalized {
        errors.at_op(id, "stores an output that was never normalised");
    }
    let side = if output == Output::Dkv { Side::Kv } else { Side::Q };
    // Per (kv head, query head) key: which records contribute.
    let mut keys: HashMap<Vec<usize>, Vec<HeadPair>> = HashMap::new();
    let g = p.group_size();
    let pairs: Vec<HeadPair> = if side == Side::Q {
        content.heads.iter().map(|&h| (h / g, h)).collect()
    } else {
        content.heads.iter().flat_map(|&kv| (kv * g..(kv + 1) * g).map(move |h| (kv, h))).collect()
    };
    for (kv, h) in pairs {
        let contributors: Vec<usize> =
            content.records.iter().enumerate().filter(|(_, r)| r.q_heads.contains(&h)).map(|(i, _)| i).collect();
        keys.entry(contributors).or_default().push((kv, h));
    }
    let rows = content.map.token_set();
    let mut sorted: Vec<(Vec<usize>, Vec<HeadPair>)> = keys.into_iter().collect();
    sorted.sort_by_key(|(_, heads)| heads[0]);
    for (contributors, heads) in sorted {
        let records: Vec<&Rc<Record>> = contributors.iter().map(|&i| &content.records[i]).collect();
        if let Some(problem) = gaps(plan, side, &rows, &records) {
            let (kv, h) = heads[0];
            let who = match side {
                Side::Q => format!("query head {h}"),
                Side::Kv => format!("KV head {kv} (query head {h})"),
            };
            let more = if heads.len() > 1 { format!(" and {} more head(s)", heads.len() - 1) } else { String::new() };
            errors.at_op(id, format!("{who}{more}: {problem}"));
        }
    }
}

/// The first piece of `rows` whose allowed columns are not covered exactly once, described.
fn gaps(plan: &Plan, side: Side, rows: &RowSet, records: &[&Rc<Record>]) -> Option<String> {
    let p = &plan.problem;
    let rule = MaskRule::of(p);
    let noun = if side == Side::Q { ("query", "keys") } else { ("key", "queries") };
    let mut found = None;
    // Reused across pieces (a rank's rows are hundreds of pieces in a THD batch): the piece's
    // breakpoints; each record's rows inside the piece with the range of `record_cols` that holds
    // its columns inside the doc; the columns of the records that cover one elementary interval.
    let mut points: Vec<u64> = Vec::new();
    let mut spans: Vec<(Interval, std::ops::Range<usize>)> = Vec::new();
    let (mut record_cols, mut cols): (Vec<Interval>, Vec<Interval>) = (Vec::new(), Vec::new());
    for &interval in &rows.0 {
        for_each_doc_piece(p, interval, |doc, piece| {
            if found.is_some() {
                return;
            }
            let whole = Interval::new(doc.start, doc.end);
            points.clear();
            points.extend([piece.start, piece.end]);
            spans.clear();
            record_cols.clear();
            for r in records {
                let (r_rows, r_cols) = sides(r, side);
                let mut inside = r_rows.clipped(piece).peekable();
                if inside.peek().is_none() {
                    continue;
                }
                let first = record_cols.len();
                record_cols.extend(r_cols.clipped(whole));
                for i in inside {
                    points.extend([i.start, i.end]);
                    spans.push((i, first..record_cols.len()));
                }
            }
            points.sort_unstable();
            points.dedup();
            for w in points.windows(2) {
                let e = Interval::new(w[0], w[1]);
                cols.clear();
                // A record's rows inside the piece are disjoint: at most one span per record holds e.
                for (i, range) in &spans {
                    if i.start <= e.start && e.start < i.end {
                        cols.extend_from_slice(&record_cols[range.clone()]);
                    }
                }
                cols.sort_unstable();
                let expected = allowed_piece(doc, rule, side, e, whole);
                let mut total = 0u128;
                let mut twice = 0u128;
                let mut reach = 0u64;
                for c in cols.iter() {
                    total += allowed_piece(doc, rule, side, e, *c);
                    if c.start < reach {
                        twice += allowed_piece(doc, rule, side, e, Interval::new(c.start, c.end.min(reach)));
                    }
                    reach = reach.max(c.end);
                }
                let covered = total - twice;
                if covered != expected || twice > 0 {
                    let mut msg =
                        format!("{} tokens {e}: {covered} of {expected} allowed pairs with {} covered", noun.0, noun.1);
                    if twice > 0 {
                        msg.push_str(&format!(", and {twice} pair(s) more than once"));
                    }
                    found = Some(msg);
                    return;
                }
            }
        });
        if found.is_some() {
            break;
        }
    }
    found
}

/// (rows, columns) of a record for one side.
fn sides(r: &Record, side: Side) -> (&RowSet, &RowSet) {
    match side {
        Side::Q => (&r.q, &r.kv),
        Side::Kv => (&r.kv, &r.q),
    }
}
