//! The verifier: every generated plan passes (property test), and each check fires on the
//! mutation it exists for — a dropped ring step, a swapped zigzag chunk, a wrong peer, a KV
//! slot reused a step early, ungrouped sends, a missing event, a wrong mask class, a halo row no
//! query reads, a ring block cut short of a row a later holder reads.

use attnc_codegen_tests::{layout_of, small_spec};
use attnc_compiler::ir::{BufId, Dep, OpId, OpKind, Plan, Stream};
use attnc_compiler::passes::{self, PlanOptions};
use attnc_compiler::verify::{self, Stage};
use proptest::prelude::*;

fn plan(
    fields: &str,
    heads: u32,
    kv_heads: u32,
    seqlens: Option<Vec<u64>>,
    backward: bool,
) -> Result<Vec<Plan>, String> {
    let layout = layout_of(&small_spec(heads, kv_heads, fields))?;
    let options = PlanOptions { seqlens, backward, verify: true, ..Default::default() };
    let set = passes::compile(&layout, &options).map_err(|e| e.to_string())?;
    Ok(set
        .classes
        .into_iter()
        .flat_map(|c| std::iter::once(c.forward).chain(c.backward).map(|v| v.into_plan()))
        .collect())
}

/// The plan every mutation starts from: causal zigzag ring, cp 4, 64 tokens, forward or backward.
fn base(backward: bool) -> Plan {
    let fields = "  seq = 64\n  cp = 4\n  dp = 1\n  mask = causal\n  strategy = p2p";
    let mut plans = plan(fields, 4, 2, None, backward).unwrap();
    plans.pop().unwrap()
}

/// Applies `mutate` to the base plan; the verifier must fail with an error containing `expect`.
fn check_mutation(backward: bool, mutate: impl FnOnce(&mut Plan), expect: &str) {
    let mut p = base(backward);
    verify::verify(&p, Stage::Scheduled).expect("the base plan verifies");
    mutate(&mut p);
    let errors = verify::verify(&p, Stage::Scheduled).expect_err("the mutated plan must fail");
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert!(text.iter().any(|e| e.contains(expect)), "expected `{expect}` among:\n{}", text.join("\n"));
}

fn ops_where(p: &Plan, rank: u32, f: impl Fn(&OpKind) -> bool) -> Vec<OpId> {
    p.rank_ops(rank).filter(|&id| f(&p.op(id).kind)).collect()
}

/// Removes a block and the merge after it, then schedules again, as a lowering that forgot the
/// block would have.
fn drop_block(p: &mut Plan, rank: u32, block: OpId) {
    let compute = &p.programs[rank as usize][0];
    let merge = compute[compute.iter().position(|&o| o == block).unwrap() + 1];
    p.remove_op(block);
    p.remove_op(merge);
    for id in p.op_ids().collect::<Vec<_>>() {
        p.op_mut(id).waits.clear();
        p.op_mut(id).record = None;
    }
    p.n_events = 0;
    passes::schedule::run(p);
}

fn buffer(p: &Plan, rank: u32, name: &str) -> usize {
    p.buffers.iter().position(|b| b.rank == rank && b.name == name).unwrap()
}

#[test]
fn dropping_a_ring_steps_blocks_leaves_keys_uncovered() {
    check_mutation(
        false,
        |p| {
            let kv2 = buffer(p, 1, "kv.step2") as u32;
            for id in ops_where(p, 1, |k| matches!(k, OpKind::AttnFwd { kv, .. } if kv.0 == kv2)) {
                drop_block(p, 1, id);
            }
        },
        "rank 1, op %69 (store o <- out): query head 0 and 3 more head(s): query tokens 48..56: 292 of 420 allowed pairs with keys covered",
    );
    check_mutation(
        false,
        |p| {
            let block = ops_where(p, 2, |k| matches!(k, OpKind::AttnFwd { .. }))[2];
            drop_block(p, 2, block);
        },
        "allowed pairs with keys covered",
    );
}

#[test]
fn dropping_a_transfer_unmatches_its_peers() {
    check_mutation(
        false,
        |p| {
            let t = ops_where(p, 0, |k| matches!(k, OpKind::SendRecv { .. }))[1];
            p.remove_op(t);
        },
        "rank 0 sends 2 time(s) to rank 1, which receives 3 time(s) from rank 0",
    );
}

#[test]
fn a_swapped_zigzag_chunk_is_caught() {
    // Rank 0 loads its K/V chunks in the wrong order: the tokens no longer follow the partition.
    check_mutation(
        false,
        |p| {
            let load = ops_where(p, 0, |k| matches!(k, OpKind::Load { input: attnc_compiler::ir::Input::Kv, .. }))[0];
            if let OpKind::Load { runs, .. } = &mut p.op_mut(load).kind {
                runs.swap(0, 1);
            }
        },
        "loads tokens 56..64, 0..8 but the partition gives rank 0 tokens 0..8, 56..64",
    );
    // The partition itself gives chunk 1 to rank 0 as well as rank 1.
    check_mutation(
        false,
        |p| {
            p.partition[0].runs[0] = attnc_compiler::ir::Interval::new(8, 16);
        },
        "partition gives tokens 8..16, which another rank also holds",
    );
}

#[test]
fn rope_positions_must_follow_tokens() {
    check_mutation(
        false,
        |p| {
            let load = ops_where(p, 2, |k| matches!(k, OpKind::Load { .. }))[0];
            if let OpKind::Load { runs, .. } = &mut p.op_mut(load).kind {
                runs[1].position = 0;
            }
        },
        "RoPE positions 0.. for tokens 40..48, whose positions are 40..",
    );
}

#[test]
fn sending_to_the_wrong_peer_is_caught() {
    check_mutation(
        false,
        |p| {
            let t = ops_where(p, 0, |k| matches!(k, OpKind::SendRecv { .. }))[0];
            if let OpKind::SendRecv { sends, .. } = &mut p.op_mut(t).kind {
                sends[0].peer = 2;
            }
        },
        "rank 0 sends 1 time(s) to rank 2, which receives 0 time(s) from rank 0",
    );
}

#[test]
fn reusing_a_kv_slot_one_step_early_is_a_race() {
    check_mutation(
        false,
        |p| {
            let (s1, s2) = (buffer(p, 0, "kv.step1"), buffer(p, 0, "kv.step2"));
            p.buffers[s2].storage = p.buffers[s1].storage;
        },
        "writes storage kv.step1 while",
    );
    // Backward: the dK/dV accumulators rotate too.
    check_mutation(
        true,
        |p| {
            let (s1, s2) = (buffer(p, 1, "dkv.step1"), buffer(p, 1, "dkv.step2"));
            p.buffers[s2].storage = p.buffers[s1].storage;
        },
        "sends from and receives into storage dkv.step1 at once",
    );
}

/// Splits every grouped sendrecv into a send, then a recv: every rank sends first and blocks.
#[test]
fn ungrouped_ring_sends_deadlock() {
    check_mutation(
        false,
        |p| {
            for rank in 0..4 {
                for id in ops_where(p, rank, |k| matches!(k, OpKind::SendRecv { .. })) {
                    let OpKind::SendRecv { sends, recvs } = p.op(id).kind.clone() else { unreachable!() };
                    let (waits, record) = (p.op(id).waits.clone(), p.op(id).record);
                    let deps: Vec<(OpId, Dep)> = p.deps_of(id).collect();
                    let users: Vec<OpId> = p.op_ids().filter(|&o| p.deps_of(o).any(|(f, _)| f == id)).collect();
                    let send = p.push_op(rank, OpKind::SendRecv { sends, recvs: vec![] });
                    let recv = p.push_op(rank, OpKind::SendRecv { sends: vec![], recvs });
                    p.op_mut(send).waits = waits;
                    p.op_mut(recv).record = record;
                    for (from, dep) in deps {
                        p.add_dep(from, send, dep);
                    }
                    for u in users {
                        p.add_dep(recv, u, Dep::Data);
                    }
                    let cp = &mut p.programs[rank as usize][Stream::Cp.index()];
                    cp.retain(|&o| o != send && o != recv);
                    let at = cp.iter().position(|&o| o == id).unwrap();
                    cp.splice(at..=at, [send, recv]);
                    p.remove_op(id);
                }
            }
        },
        "deadlock: waits for rank 1 to receive",
    );
}

#[test]
fn a_barrier_entered_by_one_rank_hangs() {
    check_mutation(
        false,
        |p| {
            p.push_op(0, OpKind::Barrier { group: attnc_compiler::ir::GroupId(0) });
        },
        "rank 1: enters 0 collective(s) on group cp, rank 0 enters 1",
    );
}

#[test]
fn a_missing_event_is_a_race() {
    check_mutation(
        false,
        |p| {
            let block = ops_where(p, 0, |k| matches!(k, OpKind::AttnFwd { .. }))[2];
            p.op_mut(block).waits.clear();
        },
        "but no stream order or event makes it wait for it",
    );
}

#[test]
fn a_block_marked_full_across_the_diagonal_is_caught() {
    check_mutation(
        false,
        |p| {
            let block = ops_where(p, 0, |k| matches!(k, OpKind::AttnFwd { .. }))[0];
            if let OpKind::AttnFwd { class, .. } = &mut p.op_mut(block).kind {
                *class = attnc_compiler::ir::MaskClass::Full;
            }
        },
        "marked full, but its tokens need causal",
    );
}

#[test]
fn merging_the_wrong_rows_is_caught() {
    check_mutation(
        false,
        |p| {
            let merge = ops_where(p, 0, |k| matches!(k, OpKind::Merge { .. }))[0];
            if let OpKind::Merge { rows, .. } = &mut p.op_mut(merge).kind {
                *rows = attnc_compiler::ir::RowSet::range(0, 16);
            }
        },
        "merges rows 0..16, but the block wrote rows 0..8",
    );
}

/// A sliding window under p2p moves only halos (TransformerEngine rejects this combination): one
/// grouped sendrecv forward (each rank's 15 rows before each of its zigzag chunks that another
/// rank holds), two backward (the halos in, their dK/dV back to the owners, into the storage of
/// the cuts the owners sent).
#[test]
fn sliding_window_p2p_is_a_halo_exchange() {
    let fields = "  seq = 256\n  cp = 8\n  dp = 1\n  mask = causal { window = 16 }\n  strategy = p2p";
    for p in plan(fields, 4, 4, None, true).unwrap() {
        let transfers = ops_where(&p, 1, |k| matches!(k, OpKind::SendRecv { .. }));
        let want = if p.header.direction == attnc_compiler::ir::Direction::Forward { 1 } else { 2 };
        assert_eq!(transfers.len(), want, "{:?}", p.header.direction);
        let OpKind::SendRecv { recvs, .. } = &p.op(transfers[0]).kind else { unreachable!() };
        // Rank 1 holds chunks 1 and 14: the 15 rows before each live on ranks 0 and 2.
        let rows: Vec<(u32, u64)> = recvs.iter().map(|t| (t.peer, p.buf(t.buf).rows)).collect();
        assert_eq!(rows, [(0, 15), (2, 15)], "{:?}", p.header.direction);
        assert!(recvs.iter().all(|t| p.buf(t.buf).halo));
        if want == 2 {
            // The dK/dV each peer returns lands in the storage of the cut sent to it.
            let OpKind::SendRecv { sends, .. } = &p.op(transfers[0]).kind else { unreachable!() };
            let OpKind::SendRecv { recvs: back, .. } = &p.op(transfers[1]).kind else { unreachable!() };
            let storage = |t: &attnc_compiler::ir::Transfer| (t.peer, p.buf(t.buf).storage);
            assert_eq!(back.iter().map(storage).collect::<Vec<_>>(), sends.iter().map(storage).collect::<Vec<_>>());
        }
    }
}

fn strategy_of(choice: u8, cp: u32) -> Option<String> {
    match choice {
        0 => Some("p2p".into()),
        1 => Some("all_gather".into()),
        2 => Some("a2a".into()),
        _ => {
            let inner = (2..cp).find(|d| cp % d == 0)?;
            Some(format!("a2a+p2p {{ hierarchy = [{inner}, {}] }}", cp / inner))
        }
    }
}

fn mask_of(choice: u8, window: u64, thd: bool) -> String {
    match (choice, thd) {
        (0, false) => "none".into(),
        (0, true) => "padding".into(),
        (1, false) => "causal".into(),
        (1, true) => "padding_causal".into(),
        (_, false) => format!("causal {{ window = {window} }}"),
        (_, true) => format!("padding_causal {{ window = {window} }}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Every plan the pipeline generates verifies: coverage, matching, deadlock freedom, hazards.
    #[test]
    fn generated_plans_verify(
        cp in prop::sample::select(vec![1u32, 2, 3, 4, 8, 16]),
        strategy in 0u8..4,
        mask in 0u8..3,
        window in 1u64..300,
        chunks in 1u64..6,
        contiguous in any::<bool>(),
        kv_heads in prop::sample::select(vec![48u32, 16, 8, 4, 2, 1]),
        thd in any::<bool>(),
        seqlens in prop::collection::vec(1u64..120, 1..5),
    ) {
        let Some(strategy) = strategy_of(strategy, cp) else { return Ok(()) };
        let seq = 2 * cp as u64 * chunks * 4;
        let format = if thd {
            format!("  format = thd {{ max_tokens = {} }}", 2 * cp as u64 * 300)
        } else {
            let balance = if contiguous { "contiguous" } else { "zigzag" };
            format!("  seq = {seq}\n  balance = {balance}")
        };
        let fields = format!("{format}\n  cp = {cp}\n  dp = 1\n  mask = {}\n  strategy = {strategy}", mask_of(mask, window, thd));
        let layout = match layout_of(&small_spec(48, kv_heads, &fields)) {
            Ok(l) => l,
            // Combinations the checker rejects (heads that do not split, ...) are not plans.
            Err(_) => return Ok(()),
        };
        let options = PlanOptions { seqlens: thd.then(|| seqlens.clone()), backward: true, verify: true, ..Default::default() };
        let set = passes::compile(&layout, &options);
        prop_assert!(set.is_ok(), "{fields}\nseqlens {seqlens:?}: {}", set.err().map(|e| e.to_string()).unwrap_or_default());
    }
}

/// A halo plan (p2p under a window of 5, cp 4) is minimal, and the verifier proves it: rank 0
/// sends one more row of its shard than rank 1's queries read (sender's load, both buffers
/// grown to match), and the plan is rejected for it.
#[test]
fn a_halo_row_no_query_reads_is_rejected() {
    let fields = "  seq = 64\n  cp = 4\n  dp = 1\n  mask = causal { window = 5 }\n  strategy = p2p";
    for backward in [false, true] {
        let mut p = plan(fields, 4, 2, None, backward).unwrap().pop().unwrap();
        verify::verify(&p, Stage::Scheduled).expect("the halo plan verifies");
        let (to, from) = (buffer(&p, 0, "kv.halo.to1"), buffer(&p, 1, "kv.halo.from0"));
        assert!(p.buffers[from].halo, "a received halo is marked");
        // One token earlier: rank 0 holds it, rank 1's window does not reach it.
        let grow = |p: &mut Plan, b: usize| {
            let mut runs = p.buffers[b].tokens.runs.clone();
            runs[0].start -= 1;
            p.buffers[b].tokens = attnc_compiler::ir::TokenMap::new(runs);
            p.buffers[b].rows += 1;
        };
        // Rank 0 cuts the grown halo from its shard (`copy_rows` of the buffer's tokens).
        grow(&mut p, to);
        grow(&mut p, from);
        let errors = verify::verify(&p, Stage::Scheduled).expect_err("the grown halo must fail");
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let want = "into halo kv.halo.from0 that no query on rank 1 reads";
        assert!(text.iter().any(|e| e.contains(want)), "expected `{want}` among:\n{}", text.join("\n"));
    }
}

/// At the p2p level of `a2a+p2p` (cp 4 as [2, 2], a window of 5), the halo a rank sends is cut
/// from the KV block the all-to-all brought (`copy_rows`); cut from the rank's own input shard
/// instead — other heads, and not the tokens the neighbour's queries see — it is rejected.
#[test]
fn a_halo_cut_from_the_wrong_block_is_rejected() {
    let fields =
        "  seq = 64\n  cp = 4\n  dp = 1\n  mask = causal { window = 5 }\n  strategy = a2a+p2p { hierarchy = [2, 2] }";
    for backward in [false, true] {
        let mut p = plan(fields, 4, 2, None, backward).unwrap().pop().unwrap();
        verify::verify(&p, Stage::Scheduled).expect("the hierarchical halo plan verifies");
        let copies = ops_where(&p, 0, |k| matches!(k, OpKind::CopyRows { .. }));
        assert_eq!(copies.len(), 1, "rank 0 cuts one halo, for its outer neighbour");
        let own = BufId(buffer(&p, 0, "kv") as u32);
        if let OpKind::CopyRows { src, .. } = &mut p.op_mut(copies[0]).kind {
            *src = own;
        }
        let errors = verify::verify(&p, Stage::Scheduled).expect_err("the wrong cut must fail");
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        for want in ["copies rows into a buffer of another head count", "the source does not hold"] {
            assert!(text.iter().any(|e| e.contains(want)), "expected `{want}` among:\n{}", text.join("\n"));
        }
    }
}

/// Forward under a window the ring is trimmed (p2p with the ring exchange, cp 4, a window of 5):
/// a KV block carries only the rows its holder there or a later holder reads, cut by `copy_rows`
/// where that shrinks, and the plan verifies. Cut one row short — a row the last holder's window
/// reads — the keys it needs are missing and the plan is rejected. Backward carries whole blocks.
#[test]
fn a_ring_trimmed_past_a_row_a_later_holder_reads_is_rejected() {
    let fields = "  seq = 64\n  cp = 4\n  dp = 1\n  mask = causal { window = 5 }\n  strategy = p2p";
    let mut layout = layout_of(&small_spec(4, 2, fields)).unwrap();
    layout.layers.iter_mut().for_each(|l| l.exchange = attnc_compiler::spec::Exchange::Full);
    let options = PlanOptions { backward: true, verify: true, ..Default::default() };
    let class = passes::compile(&layout, &options).unwrap().classes.remove(0);
    // Backward carries whole blocks: no cuts, every step buffer a whole shard.
    let bwd = class.backward.unwrap();
    assert!(bwd.op_ids().all(|id| !matches!(bwd.op(id).kind, OpKind::CopyRows { .. })));
    let mut p = class.forward.into_plan();
    verify::verify(&p, Stage::Scheduled).expect("the trimmed ring verifies");
    let shard = p.buf(BufId(buffer(&p, 1, "kv") as u32)).rows;
    for rank in 0..4 {
        let steps: Vec<u64> = p.buffers.iter().filter(|b| b.rank == rank && b.rotating).map(|b| b.rows).collect();
        assert!(!steps.is_empty() && steps.iter().all(|&r| r < shard), "rank {rank}: {steps:?} of {shard} rows");
    }
    // Steps 0, 1 and 3 are kept (step 2 reads nothing). Rank 2 cuts its own block for rank 3
    // (chunk 2's tail and chunk 5's) and, before step 3, rank 1's for rank 0 (chunk 6's tail).
    let cuts = ops_where(&p, 2, |k| matches!(k, OpKind::CopyRows { .. }));
    assert_eq!(cuts.len(), 2, "{}", attnc_compiler::ir::print::text(&p, Some(2)));
    // Drop the first row of the last cut on both ends: a key of rank 0's window.
    let cut = buffer(&p, 2, "kv.trim3");
    let got = buffer(&p, 0, "kv.step3");
    for b in [cut, got] {
        let mut runs = p.buffers[b].tokens.runs.clone();
        runs[0].start += 1;
        p.buffers[b].tokens = attnc_compiler::ir::TokenMap::new(runs);
        p.buffers[b].rows -= 1;
    }
    // Rank 0's block against it reads the rows that remain (as a lowering that cut short would).
    for id in ops_where(&p, 0, |k| matches!(k, OpKind::AttnFwd { kv, .. } if kv.0 as usize == got)) {
        if let OpKind::AttnFwd { kv_rows, .. } = &mut p.op_mut(id).kind {
            *kv_rows = attnc_compiler::ir::RowSet::range(0, kv_rows.len() - 1);
        }
    }
    let errors = verify::verify(&p, Stage::Scheduled).expect_err("the short cut must fail");
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let want = "allowed pairs with";
    assert!(text.iter().any(|e| e.contains(want)), "expected `{want}` among:\n{}", text.join("\n"));
}
