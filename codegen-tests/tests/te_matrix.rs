//! TransformerEngine's verdict on the new-user specs of `dsl-examples/megatron/`, layer class by
//! layer class and version by version, as TE's source reads by hand (each case cites the lines).
//! `te_oracle.rs` sweeps the whole space against a second transcription; these are the settings
//! a Megatron user met, with the expected outcome written down rather than computed.

use attnc_codegen_tests::check_spec_file_with;
use attnc_compiler::compat::te::{self, Backend, Target};
use attnc_compiler::spec::Strategy;

/// What TE does with a layer class.
#[derive(Debug, PartialEq)]
enum Expect {
    /// Runs it on this backend.
    Runs(Backend),
    /// Refuses it: these assert ids fire, and (`no_backend`) no backend is left.
    Refused { asserts: &'static [&'static str], no_backend: bool },
}

use Expect::*;

struct Case {
    spec: &'static str,
    /// `--set` flags.
    sets: &'static [&'static str],
    /// A layer of the class checked.
    layer: usize,
    /// The strategy checked (for `auto` layouts, or to try another); the layer's own when `None`.
    strategy: Option<Strategy>,
    target: &'static str,
    expect: Expect,
}

fn verdict(case: &Case) -> Expect {
    let path = format!("dsl-examples/megatron/{}", case.spec);
    let sets: Vec<String> = case.sets.iter().map(|s| s.to_string()).collect();
    let (_, unit) = check_spec_file_with(&path, &sets, None);
    let spec = unit.spec.unwrap_or_else(|| panic!("{path} does not check"));
    let layout = &spec.layouts[0];
    let setting = &layout.layers[case.layer];
    let strategy = case.strategy.clone().unwrap_or_else(|| setting.strategy.clone());
    let target = Target::parse(case.target).unwrap();
    let v = te::evaluate(&te::Setting::of_layout(layout, &strategy, setting.mask), &target);
    if v.runs() {
        return Runs(v.selected.unwrap());
    }
    let mut ids: Vec<&'static str> = v.asserts.iter().map(|a| a.id).collect();
    ids.sort_unstable();
    Refused { asserts: Box::leak(ids.into_boxed_slice()), no_backend: v.selected.is_none() }
}

fn hier(a: u32, b: u32) -> Option<Strategy> {
    Some(Strategy::A2aP2p { hierarchy: vec![a, b] })
}

#[test]
fn new_user_specs_get_te_s_verdict() {
    let cases = [
        // Qwen3-235B, tp 4: one KV head per TP rank. Every a2a degree > 1 fails
        // "cp_comm_type='a2a' requires num_heads % cp_size == 0 for Q, K, V." (main
        // context_parallel.py:4247; a2a+p2p splits the same way, :466); p2p runs on
        // FusedAttention, preferred on Hopper (main utils.py:1648).
        Case {
            spec: "qwen3_235b.attn",
            sets: &[],
            layer: 0,
            strategy: hier(2, 4),
            target: "te",
            expect: Refused { asserts: &["a2a-heads"], no_backend: false },
        },
        Case {
            spec: "qwen3_235b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Refused { asserts: &["a2a-heads"], no_backend: false },
        },
        Case {
            spec: "qwen3_235b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::P2p),
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        Case {
            spec: "qwen3_235b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::AllGather),
            target: "te=1.12",
            expect: Runs(Backend::FusedAttention),
        },
        // DeepSeek-V3's MLA (192/128) under a2a+p2p. Before 2.5 FlashAttention "does not support
        // MLA" (v1.12 attention.py:475) and FusedAttention "does not support context parallelism
        // with MLA" (v2.4 utils.py:613): no backend.
        Case {
            spec: "deepseek_v3.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te=2.4",
            expect: Refused { asserts: &[], no_backend: true },
        },
        // 2.5 takes it on FusedAttention (cuDNN: 192/128 <= 256 on Hopper from 9.5, v2.5
        // fused_attn.cpp:235) and under p2p or a2a+p2p only (v2.5 context_parallel.py:3883).
        Case {
            spec: "deepseek_v3.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te=2.5",
            expect: Runs(Backend::FusedAttention),
        },
        Case {
            spec: "deepseek_v3.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::A2a),
            target: "te=2.10",
            expect: Refused { asserts: &["mla-comm"], no_backend: false },
        },
        // 2.15 drops that assert; cuDNN's MLA bug on Hopper spares (192, 128) (main
        // fused_attn.cpp:349).
        Case {
            spec: "deepseek_v3.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::A2a),
            target: "te=2.15",
            expect: Runs(Backend::FusedAttention),
        },
        Case {
            spec: "deepseek_v3.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        // ... but not (192, 160): both dims >= 128, not 192/128, cuDNN >= 9.11 (the newest).
        Case {
            spec: "deepseek_v3.attn",
            sets: &["deepseek_v3.v_head_dim=160"],
            layer: 0,
            strategy: None,
            target: "te=2.16",
            expect: Refused { asserts: &[], no_backend: true },
        },
        // From 2.17 FlashAttention 2 pads the smaller head dim (main utils.py:926): it runs
        // (192, 160) where FusedAttention does not.
        Case {
            spec: "deepseek_v3.attn",
            sets: &["deepseek_v3.v_head_dim=160"],
            layer: 0,
            strategy: None,
            target: "te",
            expect: Runs(Backend::FlashAttention2),
        },
        // gpt-oss-120b at tp 4 (2 KV heads per rank) over cp 4: sinks need a2a and FusedAttention
        // (main context_parallel.py:5066; utils.py:1150), a2a needs 4 | 2 (:4247).
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Refused { asserts: &["a2a-heads"], no_backend: false },
        },
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::AllGather),
            target: "te",
            expect: Refused { asserts: &["sinks-non-a2a"], no_backend: true },
        },
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::P2p),
            target: "te",
            expect: Refused { asserts: &["sinks-non-a2a", "window-p2p"], no_backend: true },
        },
        // tp 2 leaves 4 KV heads per rank: a2a runs on FusedAttention (sinks from cuDNN 9.13.1,
        // main fused_attn.cpp:470), window or not.
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &["long.tp=2"],
            layer: 0,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &["long.tp=2"],
            layer: 1,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        // TE 2.7 has no softmax_type (v2.8 dot_product_attention.py:313 first takes it).
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &["long.tp=2"],
            layer: 1,
            strategy: Some(Strategy::A2a),
            target: "te=2.7",
            expect: Refused { asserts: &["sinks-before-2.8"], no_backend: false },
        },
        // Odd heads under a2a disable only FusedAttention (main utils.py:1274); without sinks
        // FlashAttention 2 runs it (sbhd is transposed to bshd, backends.py:930); with sinks
        // nothing does.
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &[
                "long.tp=1",
                "gpt_oss_120b.heads=24",
                "gpt_oss_120b.kv_heads=12",
                "gpt_oss_120b.sinks=none",
                "long.cp=4",
                "long.format=sbhd",
            ],
            layer: 1,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &[
                "long.tp=4",
                "gpt_oss_120b.heads=24",
                "gpt_oss_120b.kv_heads=12",
                "gpt_oss_120b.sinks=none",
                "long.cp=3",
                "long.dp=1",
                "long.format=sbhd",
                "long.seq=96K",
            ],
            layer: 1,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Runs(Backend::FlashAttention2),
        },
        Case {
            spec: "gpt_oss_120b.attn",
            sets: &[
                "long.tp=4",
                "gpt_oss_120b.heads=24",
                "gpt_oss_120b.kv_heads=12",
                "long.cp=3",
                "long.dp=1",
                "long.format=sbhd",
                "long.seq=96K",
            ],
            layer: 1,
            strategy: Some(Strategy::A2a),
            target: "te",
            expect: Refused { asserts: &[], no_backend: true },
        },
        // Llama-4-Scout: TE has no chunked mask (main constants.py:127); the NoPE layers are
        // plain causal attention, which runs.
        Case {
            spec: "llama4_scout.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te",
            expect: Refused { asserts: &["chunk"], no_backend: false },
        },
        Case {
            spec: "llama4_scout.attn",
            sets: &[],
            layer: 3,
            strategy: None,
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        // THD under CP has padding between sequences: FlashAttention 2 never takes it (main
        // utils.py:1078), FusedAttention does on Hopper, with GQA from cuDNN 9.6 (main
        // fused_attn.cpp:417).
        Case {
            spec: "sft_te_padded.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te",
            expect: Runs(Backend::FusedAttention),
        },
        Case {
            spec: "sft_te_padded.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te,cudnn=9.5",
            expect: Refused { asserts: &[], no_backend: true },
        },
        Case {
            spec: "sft_te_padded.attn",
            sets: &["one_node.gpu=a100_80g"],
            layer: 0,
            strategy: None,
            target: "te",
            expect: Refused { asserts: &[], no_backend: true },
        },
        // FlashAttention 3 takes the padding from 2.16 (main utils.py:1083), on Hopper only.
        Case {
            spec: "sft_te_padded.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te,cudnn=9.5,fa3",
            expect: Runs(Backend::FlashAttention3),
        },
        Case {
            spec: "sft_te_padded.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::A2a),
            target: "te=2.9",
            expect: Refused { asserts: &["thd-a2a"], no_backend: false },
        },
        // Gemma-2: soft-capping is refused whatever the strategy; its windowed layers under a2a
        // would run (FusedAttention, window from cuDNN 9.2).
        Case {
            spec: "gemma2_9b.attn",
            sets: &[],
            layer: 0,
            strategy: None,
            target: "te",
            expect: Refused { asserts: &["softcap"], no_backend: false },
        },
        Case {
            spec: "gemma2_9b.attn",
            sets: &[],
            layer: 0,
            strategy: Some(Strategy::P2p),
            target: "te",
            expect: Refused { asserts: &["softcap", "window-p2p"], no_backend: false },
        },
        Case {
            spec: "gemma2_9b.attn",
            sets: &["gemma2_9b.softcap=50"],
            layer: 0,
            strategy: None,
            target: "te=1.13",
            expect: Refused { asserts: &["softcap"], no_backend: false },
        },
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = verdict(c);
            (got != c.expect).then(|| {
                format!(
                    "{} {:?} layer {} {:?} --for {}: expected {:?}, got {got:?}",
                    c.spec, c.sets, c.layer, c.strategy, c.target, c.expect
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
