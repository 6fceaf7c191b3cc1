//! TransformerEngine's context-parallel attention, transcribed a second time as straight-line
//! code in the shape of TE's own (`get_attention_backend`, `nvte_get_fused_attn_backend`,
//! `attn_forward_func_with_cp`), independently of `compat/te`'s tables, and the two compared over
//! strategy × format × mask × heads × head dims × sinks × dtype × GPU × cuDNN × TE version.
//!
//! Each branch cites the TE lines it transcribes (tag and path as in TE's repository; `main` is
//! d0067d0da). This is the regression net for the tables: a table entry with the wrong versions,
//! condition or message shows up here as a setting where the two disagree. The six settings of
//! the new-user specs (`dsl-examples/te/`) are checked again by hand in `te_matrix.rs`.

use attnc_compiler::compat::te::{self, Backend, Cudnn, Target, TeVersion};
use attnc_compiler::spec::{Cp, Dtype, Format, Mask, Strategy};

type V = (u32, u32);

/// What the oracle reads of a setting.
#[derive(Clone, Debug)]
struct Params {
    version: V,
    cudnn: Option<u32>,
    fa3_installed: bool,
    sm: u32,
    dtype: Dtype,
    thd: bool,
    window: bool,
    chunk: bool,
    comm: &'static str,
    cp: u32,
    seq: u64,
    heads: u32,
    kv: u32,
    d_qk: u32,
    d_v: u32,
    sinks: bool,
    softcap: bool,
}

#[derive(Debug, PartialEq)]
struct Outcome {
    fa2: bool,
    fa3: bool,
    fused: bool,
    selected: Option<&'static str>,
    /// TE's assert messages (and missing features), sorted.
    asserts: Vec<&'static str>,
}

/// A cuDNN condition `cudnn_runtime_version >= x`; the newest cuDNN when none is named.
fn cudnn_ge(p: &Params, x: u32) -> bool {
    p.cudnn.is_none_or(|c| c >= x)
}

/// `get_attention_backend` under context parallelism (`use_unfused_attention` is always off
/// there), then the cuDNN backend of FusedAttention, then the preference.
fn backends(p: &Params) -> (bool, bool, bool) {
    let ver = p.version;
    let mla = p.d_qk != p.d_v;
    let fp32 = p.dtype == Dtype::Fp32;
    let pad_between_seqs = p.thd; // always under CP (cu_seqlens_padded are required)
    let mut fa = true; // `use_flash_attention` (FlashAttention 2 and 3 before 2.2)
    let mut fa2 = true;
    let mut fa3 = true;
    let mut fused = true;
    // Filter: Compute capability. v1.12 attention.py:423-433; v2.2 utils.py:360-372.
    if p.sm < 80 {
        fa2 = false;
        fused = false;
    }
    if ver < (2, 2) {
        if p.sm < 90 {
            fa3 = false;
        }
    } else if p.sm != 90 {
        fa3 = false;
    }
    // Filter: Data type. v1.12 attention.py:436-456 (FlashAttention as one); v2.2 utils.py:374-402.
    if fp32 {
        fa2 = false;
        fa3 = false;
        fused = false;
    }
    // Filter: Head dimension.
    if ver < (2, 8) {
        // v1.12 attention.py:473 "Disabling FlashAttention as it does not support MLA."
        if mla {
            fa = false;
        }
    } else if ver < (2, 17) && mla {
        // v2.8 utils.py:535 "Disabling FlashAttention 2 as it does not support MLA."
        fa2 = false;
    }
    let big: &[u32] = if ver < (2, 1) { &[80, 90] } else { &[80, 90, 100, 120] };
    let d = if ver >= (2, 17) { p.d_qk.max(p.d_v) } else { p.d_qk };
    if d > 256 || d % 8 != 0 || (d > 192 && !big.contains(&p.sm)) {
        // Before 2.2 the rule is FlashAttention's as a whole (v1.12 attention.py:477-492).
        if ver < (2, 2) {
            fa = false;
        } else {
            fa2 = false;
        }
    }
    if ((2, 2)..(2, 8)).contains(&ver) && (p.d_qk > 128 || p.d_v > 128) {
        fa3 = false; // v2.2 utils.py:498-501
    }
    if ver >= (2, 8) {
        // v2.8 utils.py:558-585 _is_fa3_supported
        let supported = if p.d_qk > 256 || p.heads % p.kv != 0 {
            false
        } else if mla {
            let c1 = 128 < p.d_qk && p.d_qk <= 192;
            let c2 = 96 < p.d_v && p.d_v <= 128;
            let c3 = p.d_qk <= 64 && p.d_v <= 512;
            (c1 && c2) || c3
        } else {
            true
        };
        if !supported {
            fa3 = false;
        }
    }
    if ver < (2, 5) && mla {
        // FusedAttention's CP filter, v1.12 attention.py:600-603 ... v2.4 utils.py:611-614.
        fused = false;
    }
    // Filter: QKV layout. v1.12 attention.py:507-512; v2.16 utils.py:880-893.
    if pad_between_seqs {
        if ver < (2, 16) {
            fa = false;
        } else {
            fa2 = false;
        }
    }
    // Filter: Sliding window. FA3 v1.12 attention.py:724-729 (until 2.2). FusedAttention
    // v1.12 attention.py:700-716 (thd, padding masks; until 2.0).
    if p.window {
        if ver < (2, 2) {
            fa3 = false;
        }
        if ver < (2, 0) && p.thd {
            fused = false;
        }
    }
    // Filter: Softmax type (2.8). v2.8 utils.py:628-664; v2.12 utils.py:724-738.
    if ver >= (2, 8) && p.sinks {
        fa = false;
        if p.thd && (ver < (2, 12) || !cudnn_ge(p, 91800)) {
            fused = false;
        }
        if p.comm != "a2a" {
            fused = false;
        }
    }
    // Filter: Context parallelism, FusedAttention (2.15). v2.15 utils.py:1040-1052.
    if ver >= (2, 15) {
        // An elif chain in TE: either disables FusedAttention.
        let window_ring = p.window && (p.comm == "p2p" || p.comm == "a2a+p2p");
        let odd_a2a = (p.comm == "a2a" || p.comm == "a2a+p2p") && (p.heads % 2 != 0 || p.kv % 2 != 0);
        if window_ring || odd_a2a {
            fused = false;
        }
    }
    // nvte_get_fused_attn_backend (fused_attn.cpp).
    if fused {
        fused = cudnn_f16_arbitrary(p);
    }
    let fa2 = fa && fa2;
    let fa3 = fa && fa3 && p.fa3_installed;
    (fa2, fa3, fused)
}

/// The F16_arbitrary_seqlen condition of `nvte_get_fused_attn_backend` (training).
fn cudnn_f16_arbitrary(p: &Params) -> bool {
    let ver = p.version;
    let (qk, v, sm) = (p.d_qk, p.d_v, p.sm);
    // architecture: v2.5 fused_attn.cpp:219-222 (sm100 needs cuDNN 9.7); before, any sm80+.
    if ver >= (2, 5) && sm >= 100 && !cudnn_ge(p, 90700) {
        return false;
    }
    // v2.0 fused_attn.cpp:156 (special conditions for blackwell), until 2.5.
    if ((2, 0)..(2, 5)).contains(&ver) && sm >= 100 && (qk > 128 || v > 128) {
        return false;
    }
    // head dimension
    if ver < (2, 5) {
        // v1.12 fused_attn.cpp:133-138
        let ok = (qk <= 128 && qk % 8 == 0 && v <= 128 && v % 8 == 0)
            || (sm >= 90 && cudnn_ge(p, 90000) && qk <= 256 && qk % 8 == 0 && v <= 256 && v % 8 == 0);
        if !ok {
            return false;
        }
    } else {
        // v2.5 fused_attn.cpp:229-252; v2.18 adds 9.23 (d 256 on SM10x, vanilla softmax).
        let mut ok = qk % 8 == 0 && v % 8 == 0;
        ok = ok
            && ((qk <= 128 && v <= 128)
                || (qk <= 256 && v <= 256 && sm == 90 && cudnn_ge(p, 90500))
                || (qk == 192 && v == 128 && sm >= 100 && cudnn_ge(p, 91100))
                || (ver >= (2, 18)
                    && qk == 256
                    && v == 256
                    && (100..110).contains(&sm)
                    && cudnn_ge(p, if p.thd { 92500 } else { 92300 })
                    && !p.sinks));
        // the MLA bug on Hopper: v2.6 fused_attn.cpp:254 (9.11, 9.12), v2.7 (9.13 added),
        // v2.8 fused_attn.cpp:257 (9.11 and later).
        let bug_shape = sm == 90 && qk >= 128 && v >= 128 && !(qk == 192 && v == 128) && qk != v;
        let bug_cudnn = match ver {
            (2, 5) => false,
            (2, 6) => p.cudnn.is_some_and(|c| (91100..91300).contains(&c)),
            (2, 7) => p.cudnn.is_some_and(|c| (91100..91400).contains(&c)),
            _ => cudnn_ge(p, 91100),
        };
        if bug_shape && bug_cudnn {
            ok = false;
        }
        if !ok {
            return false;
        }
    }
    // qkv format: v1.12 fused_attn.cpp:170-173 (thd: sm90, cuDNN 9.1, MHA only);
    // v1.13 fused_attn.cpp:184-188 (cuDNN 9.6 for GQA).
    if p.thd {
        let mha = p.heads == p.kv;
        let ok = sm >= 90
            && if ver < (1, 13) {
                cudnn_ge(p, 90100) && mha
            } else {
                (cudnn_ge(p, 90100) && mha) || cudnn_ge(p, 90600)
            };
        if !ok {
            return false;
        }
    }
    // sliding window: v1.12 fused_attn.cpp:175-186 (9.2, bshd/sbhd, causal);
    // v2.0 fused_attn.cpp:220-250 (9.6 adds thd and padding masks).
    if p.window {
        let ok = if p.thd { ver >= (2, 0) && cudnn_ge(p, 90600) } else { cudnn_ge(p, 90200) };
        if !ok {
            return false;
        }
    }
    // softmax type: v2.8 fused_attn.cpp:370-374 (9.13.1 for learnable).
    if p.sinks && ver >= (2, 8) && !cudnn_ge(p, 91301) {
        return false;
    }
    true
}

/// The whole of it: backends, selection, asserts.
fn oracle(p: &Params) -> Outcome {
    let ver = p.version;
    let mut asserts: Vec<&'static str> = Vec::new();
    // Missing features, before and without context parallelism.
    if p.chunk {
        asserts.push("chunk");
    }
    if p.softcap {
        asserts.push("softcap");
    }
    if p.sinks && ver < (2, 8) {
        asserts.push("sinks-before-2.8");
    }
    if p.cp == 1 {
        asserts.sort_unstable();
        return Outcome { fa2: false, fa3: false, fused: false, selected: Some("unfused"), asserts };
    }
    let (fa2, fa3, fused) = backends(p);
    let flash = fa2 || fa3;
    // Select FusedAttention for performance: v1.12 attention.py:924-936 (sm90), v2.0 (>= sm90).
    let prefer = if ver < (2, 0) { p.sm == 90 } else { p.sm >= 90 };
    let selected = if fused && (!flash || prefer) {
        Some("fused")
    } else if fa3 {
        Some("fa3")
    } else if fa2 {
        Some("fa2")
    } else {
        None
    };
    let use_fused = selected == Some("fused");
    // attn_forward_func_with_cp: v1.12 attention.py:4280-4330; main context_parallel.py:5021-5073.
    if p.window {
        let allowed = if ver < (2, 0) {
            p.comm == "a2a" || (p.comm == "all_gather" && !use_fused)
        } else {
            p.comm == "a2a" || p.comm == "all_gather"
        };
        if !allowed {
            asserts.push(if ver < (2, 0) && p.comm == "all_gather" { "window-all-gather-fused" } else { "window-p2p" });
        }
    }
    if ver >= (2, 8) && p.sinks {
        if p.comm != "a2a" {
            asserts.push("sinks-non-a2a");
        }
        if p.thd && (ver < (2, 12) || !cudnn_ge(p, 91800)) {
            asserts.push("sinks-thd");
        }
    }
    // MLA: v2.5 context_parallel.py:3879-3883; v2.8 :3747-3751; gone in 2.15.
    if ((2, 5)..(2, 15)).contains(&ver) && p.d_qk != p.d_v && !(p.comm == "p2p" || p.comm == "a2a+p2p") {
        asserts.push("mla-comm");
    }
    // The implementations' asserts.
    if p.thd {
        if p.comm == "a2a" && ver < (2, 10) {
            asserts.push("thd-a2a");
        }
        if p.comm == "all_gather" && ver < (2, 18) {
            asserts.push("thd-all-gather");
        }
        if p.comm == "a2a+p2p" && ver < (2, 19) {
            asserts.push("thd-a2a+p2p");
        }
    } else if p.seq % (2 * p.cp as u64) != 0 {
        asserts.push("seq-per-rank-even");
    }
    let degree = match p.comm {
        "a2a" => Some(p.cp),
        "a2a+p2p" => Some(2),
        _ => None,
    };
    if let Some(d) = degree
        && (p.heads % d != 0 || p.kv % d != 0)
    {
        asserts.push("a2a-heads");
    }
    asserts.sort_unstable();
    Outcome { fa2, fa3, fused, selected, asserts }
}

fn attnc(p: &Params) -> Outcome {
    let strategy = match p.comm {
        "p2p" => Strategy::P2p,
        "all_gather" => Strategy::AllGather,
        "a2a" => Strategy::A2a,
        _ => Strategy::A2aP2p { hierarchy: vec![2, p.cp / 2] },
    };
    let window = p.window.then_some(128);
    let chunk = p.chunk.then_some(128);
    let mask = if p.thd { Mask::PaddingCausal { window, chunk } } else { Mask::Causal { window, chunk } };
    let setting = te::Setting {
        strategy,
        cp: Cp::Fixed { size: p.cp },
        mask,
        format: if p.thd { Format::Thd { max_seqlen: p.seq, max_tokens: p.seq } } else { Format::Bshd },
        dtype: p.dtype,
        sm: Some(p.sm),
        gpu: format!("sm{}", p.sm),
        head_dim: p.d_qk,
        v_head_dim: p.d_v,
        heads: p.heads,
        kv_heads: p.kv,
        sinks: p.sinks,
        score: p.softcap.then(|| attnc_compiler::expr::score::softcap(30.0)),
        seq: p.seq,
        zigzag: true,
    };
    let target = Target {
        version: TeVersion::new(p.version.0, p.version.1),
        cudnn: p.cudnn.map(Cudnn),
        flash_attn_3: p.fa3_installed,
    };
    let verdict = te::evaluate(&setting, &target);
    let available = |b: Backend| verdict.backends.iter().any(|(x, r)| *x == b && r.is_ok());
    let mut asserts: Vec<&'static str> = verdict.asserts.iter().map(|a| a.id).collect();
    asserts.sort_unstable();
    Outcome {
        fa2: available(Backend::FlashAttention2),
        fa3: available(Backend::FlashAttention3),
        fused: available(Backend::FusedAttention),
        selected: verdict.selected.map(|b| match b {
            Backend::FlashAttention2 => "fa2",
            Backend::FlashAttention3 => "fa3",
            Backend::FusedAttention => "fused",
            Backend::Unfused => "unfused",
        }),
        asserts,
    }
}

const VERSIONS: &[V] = &[
    (1, 12),
    (1, 13),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 4),
    (2, 5),
    (2, 6),
    (2, 7),
    (2, 8),
    (2, 9),
    (2, 10),
    (2, 11),
    (2, 12),
    (2, 14),
    (2, 15),
    (2, 16),
    (2, 17),
    (2, 18),
    (2, 19),
    (2, 20),
];

#[test]
fn the_tables_agree_with_te_transcribed_as_code() {
    let mut cases = 0u64;
    let mut mismatches = Vec::new();
    let heads_kv: &[(u32, u32)] = &[(16, 16), (16, 4), (6, 2), (5, 5), (4, 1)];
    let dims: &[(u32, u32)] = &[(128, 128), (64, 64), (192, 128), (256, 256), (256, 128), (96, 96), (64, 512)];
    let cudnns: &[Option<u32>] = &[None, Some(90100), Some(90500), Some(91200), Some(91800)];
    for &version in VERSIONS {
        for sm in [80, 89, 90, 100] {
            for comm in ["p2p", "all_gather", "a2a", "a2a+p2p"] {
                for thd in [false, true] {
                    for (window, chunk) in [(false, false), (true, false), (false, true)] {
                        for &(heads, kv) in heads_kv {
                            for &(d_qk, d_v) in dims {
                                for sinks in [false, true] {
                                    for &cudnn in cudnns {
                                        for fa3_installed in [false, true] {
                                            let p = Params {
                                                version,
                                                cudnn,
                                                fa3_installed,
                                                sm,
                                                dtype: if d_qk == 96 && sinks { Dtype::Fp32 } else { Dtype::Bf16 },
                                                thd,
                                                window,
                                                chunk,
                                                comm,
                                                cp: 4,
                                                seq: if heads == 6 { 4100 } else { 4096 },
                                                heads,
                                                kv,
                                                d_qk,
                                                d_v,
                                                sinks,
                                                softcap: heads == 4 && d_qk == 64,
                                            };
                                            cases += 1;
                                            let (want, got) = (oracle(&p), attnc(&p));
                                            if want != got && mismatches.len() < 20 {
                                                mismatches.push(format!("{p:?}\n  TE:    {want:?}\n  attnc: {got:?}"));
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    // cp = 1: only the missing features.
    for &version in VERSIONS {
        for (chunk, softcap, sinks) in [(false, false, false), (true, false, false), (false, true, true)] {
            let p = Params {
                version,
                cudnn: None,
                fa3_installed: false,
                sm: 90,
                dtype: Dtype::Fp32,
                thd: false,
                window: false,
                chunk,
                comm: "p2p",
                cp: 1,
                seq: 4096,
                heads: 8,
                kv: 8,
                d_qk: 128,
                d_v: 128,
                sinks,
                softcap,
            };
            cases += 1;
            let (want, got) = (oracle(&p), attnc(&p));
            if want != got {
                mismatches.push(format!("{p:?}\n  TE:    {want:?}\n  attnc: {got:?}"));
            }
        }
    }
    assert!(cases > 1_000_000, "{cases}");
    assert!(mismatches.is_empty(), "{} cases; first mismatches:\n{}", cases, mismatches.join("\n"));
}
