//! The stable text form of plans (snapshot-tested), one-line op descriptions, and DOT output.
//!
//! Text lists, per rank, the buffers and each stream's ops in issue order with the events they
//! record and wait on. Op ids are graph node indices (`%12`), stable for a given plan. DOT comes
//! from petgraph's `Dot` over the dependency graph, one cluster colour per stream.

use std::fmt::Write as _;

use petgraph::dot::{Config, Dot};
use petgraph::visit::NodeFiltered;

use super::{
    A2aDir, BufId, Dep, GroupId, Op, OpId, OpKind, Plan, Stream, Transfer, display_intervals_of, display_layers,
};

fn buf_name(plan: &Plan, id: BufId) -> String {
    plan.buffers.get(id.0 as usize).map_or_else(|| format!("b{}?", id.0), |b| b.name.clone())
}

fn group_name(plan: &Plan, group: GroupId) -> &str {
    plan.groups.get(group.0 as usize).map_or("?", |g| g.name.as_str())
}

fn runs(runs: &[super::Run]) -> String {
    runs.iter()
        .map(|r| {
            if r.position == r.token {
                format!("{}..{}", r.token, r.token + r.len)
            } else {
                format!("{}..{}@{}", r.token, r.token + r.len, r.position)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn transfers(plan: &Plan, parts: &[Transfer], arrow: &str) -> String {
    parts.iter().map(|t| format!("{} {arrow} {}", buf_name(plan, t.buf), t.peer)).collect::<Vec<_>>().join(", ")
}

/// One line saying what an op does, e.g. `attn_fwd full q[0..4096] x kv.step1[0..2048] -> o.part`.
pub fn describe(plan: &Plan, id: OpId) -> String {
    let Some(op) = plan.graph.node_weight(id.0) else {
        return format!("{id} (removed)");
    };
    let n = |b: BufId| buf_name(plan, b);
    let body = match &op.kind {
        OpKind::Load { input, dst, runs: r } => {
            format!("load {} <- {:?} tokens {}", n(*dst), input, runs(r)).to_lowercase()
        }
        OpKind::Zero { dst, like } => format!("zero {} like {}", n(*dst), n(*like)),
        OpKind::SendRecv { sends, recvs } => {
            let mut parts = Vec::new();
            if !sends.is_empty() {
                parts.push(format!("send {}", transfers(plan, sends, "->")));
            }
            if !recvs.is_empty() {
                parts.push(format!("recv {}", transfers(plan, recvs, "<-")));
            }
            format!("sendrecv {}", parts.join("; "))
        }
        OpKind::AllGather { group, src, dst, natural } => format!(
            "all_gather {} -> {} over {}{}",
            n(*src),
            n(*dst),
            group_name(plan, *group),
            if *natural { " (sequence order)" } else { "" }
        ),
        OpKind::ReduceScatter { group, src, dst, like } => {
            format!("reduce_scatter {} -> {} like {} over {}", n(*src), n(*dst), n(*like), group_name(plan, *group))
        }
        OpKind::AllToAll { group, src, dst, dir } => {
            let how = match dir {
                A2aDir::SeqToHeads { natural } => {
                    format!("seq->heads{}", if *natural { " (sequence order)" } else { "" })
                }
                A2aDir::HeadsToSeq { like } => format!("heads->seq like {}", n(*like)),
            };
            let group = group_name(plan, *group);
            format!("all_to_all {} -> {} {how} over {group}", n(*src), n(*dst))
        }
        OpKind::RepeatKv { src, dst, factor } => format!("repeat_kv {} -> {} x{factor}", n(*src), n(*dst)),
        OpKind::AddRows { src, dst } => format!("add_rows {} += {}", n(*dst), n(*src)),
        OpKind::CopyRows { src, dst } => {
            format!("copy_rows {} -> {} tokens {}", n(*src), n(*dst), display_intervals_of(&plan.buf(*dst).tokens))
        }
        OpKind::SumHeads { src, dst, factor } => format!("sum_heads {} -> {} /{factor}", n(*src), n(*dst)),
        OpKind::AttnFwd { q, q_rows, kv, kv_rows, part, class } => {
            format!("attn_fwd {} {}[{q_rows}] x {}[{kv_rows}] -> {}", class.name(), n(*q), n(*kv), n(*part))
        }
        OpKind::Merge { acc, part, rows } => format!("merge {}[{rows}] += {}", n(*acc), n(*part)),
        OpKind::Normalize { acc, dst } => format!("normalize {} -> {}", n(*acc), n(*dst)),
        OpKind::AttnBwd { q, q_rows, kv, kv_rows, dq, dkv, class } => {
            format!("attn_bwd {} {}[{q_rows}] x {}[{kv_rows}] -> {}, {}", class.name(), n(*q), n(*kv), n(*dq), n(*dkv))
        }
        OpKind::Barrier { group } => {
            format!("barrier over {}", group_name(plan, *group))
        }
        OpKind::Store { output, src, sink } => {
            format!("store {:?} <- {}{}", output, n(*src), if *sink { " +sink" } else { "" }).to_lowercase()
        }
    };
    format!("{id} {body}")
}

fn sync(op: &Op) -> String {
    let mut s = String::new();
    for w in &op.waits {
        let _ = write!(s, "  wait e{}", w.0);
    }
    if let Some(r) = op.record {
        let _ = write!(s, "  record e{}", r.0);
    }
    s
}

fn human_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1024.0 * 1024.0 * 1024.0 {
        format!("{:.2} GiB", b / (1024.0 * 1024.0 * 1024.0))
    } else if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KiB", b / 1024.0)
    }
}

/// The header line of a plan.
pub fn title(plan: &Plan) -> String {
    let h = &plan.header;
    let hierarchy = if h.hierarchy.is_empty() {
        String::new()
    } else {
        format!(" {:?}", h.hierarchy).replace(' ', "").replacen('[', " [", 1)
    };
    // Under a window, chunks or regions, whether KV moves as halos (`lower_halo`).
    let halo = if plan.buffers.iter().any(|b| b.halo) { " with halo exchange" } else { "" };
    format!(
        "plan `{}` layers {}: {}{}{halo}, mask {}, cp {}, {:?}",
        h.layout,
        display_layers(&h.layers),
        h.strategy,
        hierarchy,
        h.mask,
        h.cp,
        h.direction
    )
    .replace("Forward", "forward")
    .replace("Backward", "backward")
}

/// The text form of a plan: every rank, or only `rank`.
pub fn text(plan: &Plan, rank: Option<u32>) -> String {
    let mut out = String::new();
    write_text(&mut out, plan, rank);
    out
}

/// [`text`] written into `out` as it is formed (a plan over a thousand ranks prints hundreds of
/// megabytes: the CLI streams it).
pub fn write_text(out: &mut impl std::fmt::Write, plan: &Plan, rank: Option<u32>) {
    let p = &plan.problem;
    let _ = writeln!(out, "{}", title(plan));
    let _ = writeln!(
        out,
        "  problem: {} tokens in {} sequence(s), heads {} kv_heads {} head_dim {}{} batch {} {:?}, {}{}{}{}",
        p.tokens,
        p.docs.len(),
        p.heads,
        p.kv_heads,
        p.head_dim,
        p.v_head_dim.map(|v| format!(" v_head_dim {v}")).unwrap_or_default(),
        p.batch,
        p.dtype,
        match &p.rope {
            None => "no RoPE".to_string(),
            Some(rope) => {
                let r = p.rope_range();
                let dims = if r.len() == p.head_dim as usize {
                    String::new()
                } else {
                    format!(" on dims {}..{}", r.start, r.end)
                };
                let scaling =
                    rope.scaling.as_ref().map(|s| format!(", {} x{}", s.name(), s.factor())).unwrap_or_default();
                format!("RoPE theta {}{dims}{scaling}", rope.theta)
            }
        },
        p.softmax_scale.map(|s| format!(", softmax scale {s}")).unwrap_or_default(),
        if p.sinks { ", learned sinks" } else { "" },
        p.score
            .map(|s| match (&s.mask, s.text.as_str()) {
                (None, text) => format!(", score = {text}"),
                (Some(_), "s") => ", the mask tested at each pair in the kernels".to_string(),
                (Some(_), text) => format!(", score = {text}, the mask tested at each pair in the kernels"),
            })
            .unwrap_or_default()
    );
    if let Some(h) = &p.head_masks {
        // A mask that reads the head: each class's own band (the plan follows their hull).
        let class = |c: &crate::spec::HeadClass| {
            let mask = match c.band.named() {
                Some((false, _)) => "every pair".to_string(),
                Some((true, None)) => "causal".to_string(),
                Some((true, Some(w))) => format!("window {w}"),
                None => format!("band {}", c.band.inequality()),
            };
            format!("{}..{} {mask}", c.first, c.end)
        };
        let classes: Vec<String> = h.classes.iter().map(class).collect();
        let _ = writeln!(out, "  heads by mask: {} (planned by their hull)", classes.join(", "));
    }
    for g in &plan.groups {
        let _ = writeln!(out, "  group {}: cp ranks {:?} (global {:?})", g.name, g.members, g.global);
    }
    // Buffers by rank, once: a ring over n ranks has n buffers on each of them.
    let mut by_rank: Vec<Vec<usize>> = vec![Vec::new(); plan.header.cp as usize];
    for (i, b) in plan.buffers.iter().enumerate() {
        if let Some(list) = by_rank.get_mut(b.rank as usize) {
            list.push(i);
        }
    }
    for r in 0..plan.header.cp {
        if rank.is_some_and(|want| want != r) {
            continue;
        }
        let _ = writeln!(out, "rank {r}");
        for (i, b) in by_rank[r as usize].iter().map(|&i| (i, &plan.buffers[i])) {
            let shares = if b.storage as usize != i {
                format!("  in storage of {}", plan.buffers[b.storage as usize].name)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  buffer {:<12} {:<8} rows {:>8} heads {:>3}  {}{shares}",
                b.name,
                b.kind.name(),
                b.rows,
                b.heads,
                human_bytes(plan.bytes_of(BufId(i as u32)))
            );
        }
        for stream in Stream::ALL {
            let program = &plan.programs[r as usize][stream.index()];
            if program.is_empty() {
                continue;
            }
            let _ = writeln!(out, "  stream {}", stream.name());
            for &id in program {
                let _ = writeln!(out, "    {}{}", describe(plan, id), sync(plan.op(id)));
            }
        }
    }
}

/// Graphviz DOT of the dependency graph (every rank, or only `rank`), from petgraph.
pub fn dot(plan: &Plan, rank: Option<u32>) -> String {
    let filtered = NodeFiltered::from_fn(&plan.graph, |n| rank.is_none_or(|r| plan.graph[n].rank == r));
    let node_attr = |_, (index, op): (petgraph::stable_graph::NodeIndex, &Op)| {
        let label = format!("r{} {}", op.rank, describe(plan, OpId(index))).replace('"', "'");
        let colour = if op.stream == Stream::Cp { "lightblue" } else { "lightyellow" };
        format!("label=\"{label}\" shape=box style=filled fillcolor={colour}")
    };
    let edge_attr = |_, e: petgraph::stable_graph::EdgeReference<'_, Dep>| match e.weight() {
        Dep::Data => String::new(),
        Dep::Reuse => "style=dashed label=reuse".to_string(),
    };
    format!(
        "{:?}",
        Dot::with_attr_getters(&filtered, &[Config::EdgeNoLabel, Config::NodeNoLabel], &edge_attr, &node_attr)
    )
}
