//! Megatron-LM's command-line arguments for a layout: the complete attention and parallelism
//! argument set that reproduces it, what Megatron cannot express, and what the spec does not say
//! that Megatron requires.
//!
//! The flag names are checked against [`known_flags`], the list `scripts/megatron-args.py` read
//! from Megatron-LM's `megatron/training/arguments.py` and its `ArgumentGroupFactory` dataclasses
//! (the commit is in the file's header), and every argument set passes the checks of
//! Megatron's `validate_args` that concern it ([`validate`], `validate.rs`). This module builds
//! arguments; it does not run Megatron, and it says nothing about data, optimiser or checkpoint
//! flags.

mod validate;

pub use validate::{Violation, validate};

use crate::spec::{Cp, Dtype, Format, LayerKind, Layout, Mask, Rope, RopeScaling, Strategy};

/// Megatron-LM's flags, one per line after a `#` header.
pub const KNOWN_FLAGS_TEXT: &str = include_str!("megatron-args.txt");

/// Every flag Megatron-LM's parser accepts.
pub fn known_flags() -> impl Iterator<Item = &'static str> {
    KNOWN_FLAGS_TEXT.lines().filter(|l| l.starts_with("--"))
}

/// One argument: a flag and its values (none for a switch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub flag: &'static str,
    pub values: Vec<String>,
}

/// The arguments for a layout and what they leave out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Arguments {
    pub args: Vec<Arg>,
    /// Settings Megatron's command line cannot express, one sentence each.
    pub unexpressed: Vec<String>,
    /// Values Megatron requires that the spec does not say, one sentence each naming the field to
    /// add: the arguments are incomplete while any remain.
    pub missing: Vec<String>,
}

impl Arguments {
    fn push(&mut self, flag: &'static str, values: impl IntoIterator<Item = String>) {
        self.args.push(Arg { flag, values: values.into_iter().collect() });
    }

    fn switch(&mut self, flag: &'static str) {
        self.push(flag, []);
    }

    /// One shell line: values quoted where the shell would split or expand them.
    pub fn shell(&self) -> String {
        let quote = |v: &str| {
            if v.chars().all(|c| c.is_ascii_alphanumeric() || "+-_.,=/:".contains(c)) {
                v.to_string()
            } else {
                format!("'{v}'")
            }
        };
        let mut parts = Vec::new();
        for arg in &self.args {
            parts.push(arg.flag.to_string());
            parts.extend(arg.values.iter().map(|v| quote(v)));
        }
        parts.join(" ")
    }
}

/// Megatron's `--window-attn-skip-freq` for the windowed layers: nothing when every layer is
/// windowed, `N` when exactly the layers whose 1-based number is a multiple of N are not, else the
/// list pattern (1 = windowed), as `is_layer_window_attention` reads them.
fn skip_freq(windowed: &[bool]) -> Option<String> {
    (!windowed.iter().all(|&w| w)).then(|| freq_or_pattern(windowed, false))
}

/// Megatron's `--no-rope-freq` for NoPE layers: nothing when every layer rotates, `N` when exactly
/// the layers whose 1-based number is a multiple of N do not (Llama 4: 4), else the list pattern
/// (1 = no RoPE).
fn no_rope_freq(nope: &[bool]) -> Option<String> {
    nope.iter().any(|&n| n).then(|| freq_or_pattern(nope, true))
}

/// `--rotary-percent` for `dims` of `head_dim`: Megatron rotates `int(kv_channels ·
/// rotary_percent)` dims, so the printed fraction is the smallest double whose product truncates
/// to `dims` (64/192 printed as 0.3333333333333333 would give 63).
fn rotary_percent(dims: u32, head_dim: u32) -> String {
    let mut p = dims as f64 / head_dim as f64;
    while ((head_dim as f64) * p).trunc() < dims as f64 {
        p = p.next_up();
    }
    format!("{p}")
}

/// A per-layer flag in Megatron's two spellings: `N` when the flag is set exactly on the layers
/// whose 1-based number is a multiple of N (`on_multiples`) or exactly off them, else the 0/1 list.
fn freq_or_pattern(set: &[bool], on_multiples: bool) -> String {
    let n_layers = set.len();
    for n in 2..=n_layers {
        if (1..=n_layers).all(|number| set[number - 1] == ((number % n == 0) == on_multiples)) {
            return n.to_string();
        }
    }
    let pattern: Vec<&str> = set.iter().map(|&w| if w { "1" } else { "0" }).collect();
    format!("[{}]", pattern.join(","))
}

/// RoPE's arguments: the embedding type, base, rotated share, NoPE layers and the scaling, each
/// where Megatron-LM has the flag (arguments.py, argument_utils.py's YaRN settings), a note where
/// it has none.
fn rope_arguments(out: &mut Arguments, layout: &Layout, rope: &Rope, mla: bool) {
    let m = &layout.model;
    let yarn = matches!(rope.scaling, Some(RopeScaling::Yarn { .. }));
    if mla {
        // MLATransformerConfig.rope_type defaults to yarn: say which.
        out.push("--position-embedding-type", ["rope".to_string()]);
        out.push("--rope-type", [if yarn { "yarn" } else { "rope" }.to_string()]);
    } else {
        out.push("--position-embedding-type", [if yarn { "yarn" } else { "rope" }.to_string()]);
    }
    if rope.dims < m.head_dim && !mla {
        out.push("--rotary-percent", [rotary_percent(rope.dims, m.head_dim)]);
        if rope.offset != 0 {
            out.unexpressed.push(format!(
                "rope dims = {}: Megatron's --rotary-percent rotates the first {} dims of each head, the spec the last (MLA's decoupled RoPE; `fraction = F` rotates the first); the same model when trained from scratch, but a checkpoint moves between them with the q/k projection columns permuted",
                rope.dims, rope.dims
            ));
        }
    }
    let nope: Vec<bool> = layout.layers.iter().map(|l| l.kind.is_attention() && !l.rope).collect();
    if let Some(freq) = no_rope_freq(&nope) {
        out.push("--no-rope-freq", [freq]);
    }
    if rope.theta.fract() == 0.0 && rope.theta >= 1.0 {
        out.push("--rotary-base", [format!("{}", rope.theta as u64)]);
    } else {
        out.unexpressed
            .push(format!("rope theta = {} is not whole; Megatron's --rotary-base takes an integer", rope.theta));
    }
    let number = |x: f64| format!("{x}");
    match &rope.scaling {
        None => {}
        Some(RopeScaling::Linear { factor }) => {
            if factor.fract() == 0.0 {
                out.push("--rotary-seq-len-interpolation-factor", [format!("{}", *factor as u64)]);
            } else {
                out.unexpressed.push(format!(
                    "scaling = linear {{ factor = {factor} }}: Megatron's --rotary-seq-len-interpolation-factor takes an integer"
                ));
            }
        }
        &Some(RopeScaling::Llama3 { factor, original, low_freq_factor, high_freq_factor }) => {
            // RotaryEmbedding._apply_scaling fixes the band: low 1, high 4, original 8192.
            if (low_freq_factor, high_freq_factor, original) == (1.0, 4.0, 8192) {
                out.switch("--use-rope-scaling");
                out.push("--rope-scaling-factor", [number(factor)]);
            } else {
                out.unexpressed.push(format!(
                    "scaling = llama3 {{ factor = {factor}, original = {original}, low_freq_factor = {low_freq_factor}, high_freq_factor = {high_freq_factor} }}: Megatron's --use-rope-scaling applies Llama 3.1's band (original 8192, low_freq_factor 1, high_freq_factor 4) with only the factor configurable (--rope-scaling-factor); these frequencies differ, so no scaling flag is printed — set RotaryEmbedding's _apply_scaling arguments in the model provider"
                ));
            }
        }
        &Some(RopeScaling::Yarn {
            factor,
            original,
            beta_fast,
            beta_slow,
            attention_factor,
            mscale,
            mscale_all_dim,
            truncate,
        }) => {
            out.push("--rotary-scaling-factor", [number(factor)]);
            if let Some(ms) = mscale {
                out.push("--mscale", [number(ms)]);
            }
            if let Some(all) = mscale_all_dim {
                out.push("--mscale-all-dim", [number(all)]);
            }
            if mla {
                // MLATransformerConfig's original_max_position_embeddings, beta_fast and beta_slow
                // have no flags (defaults 4096, 32, 1).
                if (original, beta_fast, beta_slow) != (4096, 32.0, 1.0) {
                    out.unexpressed.push(format!(
                        "yarn {{ original = {original}, beta_fast = {beta_fast}, beta_slow = {beta_slow} }} with MLA: MLATransformerConfig's original_max_position_embeddings, beta_fast and beta_slow have no flags (defaults 4096, 32, 1); set them in the model provider"
                    ));
                }
            } else {
                out.push("--yarn-original-max-position-embeddings", [original.to_string()]);
                out.push("--yarn-beta-fast", [number(beta_fast)]);
                out.push("--yarn-beta-slow", [number(beta_slow)]);
            }
            if !truncate {
                out.switch("--no-yarn-correction-range-round-to-int");
            }
            if let Some(a) = attention_factor {
                out.unexpressed.push(format!(
                    "yarn attention_factor = {a}: Megatron derives the factor multiplying cos and sin from --rotary-scaling-factor, --mscale and --mscale-all-dim (_yarn_get_concentration_factor) and takes no value of its own"
                ));
            }
        }
    }
}

/// A softmax scale other than 1/√head_dim: Megatron-LM has no flag (TransformerConfig.softmax_scale
/// is set in code); MLA with YaRN computes DeepSeek's mscale² scale itself.
fn softmax_scale_note(out: &mut Arguments, m: &crate::spec::Model, mla: bool) {
    let Some(scale) = m.softmax_scale else { return };
    if let (true, Some(Rope { scaling: Some(RopeScaling::Yarn { factor, mscale_all_dim: Some(all), .. }), .. })) =
        (mla, &m.rope)
    {
        let ms = crate::rope::yarn_mscale(*factor, *all);
        if (scale - ms * ms / (m.head_dim as f64).sqrt()).abs() <= 1e-9 * scale {
            return;
        }
    }
    out.unexpressed.push(format!(
        "softmax_scale = {scale} (1/sqrt(head_dim) is {}): Megatron-LM has no flag for it; set TransformerConfig.softmax_scale = {scale} in the model provider",
        1.0 / (m.head_dim as f64).sqrt()
    ));
}

/// The model's `layer` blocks Megatron's GPT arguments cannot say: a RoPE of their own, and kinds
/// other than attention (Megatron-LM's hybrid model builds those, `--hybrid-layer-pattern`).
fn layer_block_notes(out: &mut Arguments, layout: &Layout) {
    let m = &layout.model;
    for b in m.layer_blocks.iter().filter(|b| b.rope.is_some()) {
        let rope = b.rope.as_ref().expect("filtered");
        let scaling =
            rope.scaling.as_ref().map(|s| format!(", {} scaling x{}", s.name(), s.factor())).unwrap_or_default();
        out.unexpressed.push(format!(
            "layers {}..{} step {} rotate with RoPE of their own (theta {}{scaling}): Megatron-LM's GPT model has one RotaryEmbedding for every layer; the arguments give the model's",
            b.start, b.end, b.step, rope.theta
        ));
    }
    if layout.layers.iter().any(|l| !l.kind.is_attention()) {
        let mlp = if m.moe.is_some() { 'E' } else { '-' };
        let pattern: String = layout
            .layers
            .iter()
            .flat_map(|l| {
                let symbol = match l.kind {
                    LayerKind::Attention => '*',
                    LayerKind::LinearAttention => 'G',
                    LayerKind::Mamba => 'M',
                    LayerKind::IndexedAttention => 'D',
                };
                [symbol, mlp]
            })
            .collect();
        let kinds: Vec<String> = crate::ir::artifact::not_planned(layout)
            .iter()
            .map(|n| format!("{} on layers {}", n.kind, crate::ir::display_layers(&n.layers)))
            .collect();
        out.unexpressed.push(format!(
            "{}: Megatron-LM's GPT model has attention in every layer; its hybrid model takes the layer kinds as --hybrid-layer-pattern (G gated DeltaNet, M Mamba, D DeepSeek sparse attention, * attention, each followed by its MLP): {pattern}",
            kinds.join("; ")
        ));
    }
}

/// The arguments that give Megatron-LM `layout` with each layer's strategy (`strategies[l]`,
/// concrete: `auto` resolved).
pub fn arguments(layout: &Layout, strategies: &[Strategy]) -> Arguments {
    let mut out = Arguments::default();
    let m = &layout.model;
    out.push("--num-layers", [m.layers.to_string()]);
    match m.hidden {
        Some(hidden) => out.push("--hidden-size", [hidden.to_string()]),
        None => out.missing.push(format!(
            "--hidden-size: model `{}` does not say its hidden size; add `hidden = N` to it (heads × head_dim = {} is not every model's hidden size: Qwen3-235B has 64 × 128 heads and a hidden size of 4096)",
            m.name,
            m.heads as u64 * m.head_dim as u64
        )),
    }
    match m.ffn_hidden {
        Some(ffn) => out.push("--ffn-hidden-size", [ffn.to_string()]),
        None => out.unexpressed.push(format!(
            "--ffn-hidden-size: model `{}` does not say its MLP size (`ffn_hidden = N`); Megatron then takes 4 × hidden, or (8/3) × hidden rounded down to a multiple of 64 with --swiglu (arguments.py:1320)",
            m.name
        )),
    }
    out.push("--num-attention-heads", [m.heads.to_string()]);
    let mla_shape = m.v_head_dim.is_some() && m.rope.as_ref().is_some_and(|r| r.dims < m.head_dim);
    if m.kv_heads != m.heads {
        if mla_shape {
            out.unexpressed.push(format!(
                "kv_heads = {} with MLA: Megatron-LM's --multi-latent-attention excludes --group-query-attention (arguments.py:1974); the arguments describe {} KV heads",
                m.kv_heads, m.heads
            ));
        } else {
            out.switch("--group-query-attention");
            out.push("--num-query-groups", [m.kv_heads.to_string()]);
        }
    }
    // MLA (a value head dim of its own): Megatron's --multi-latent-attention takes the query/key
    // head as a part without RoPE (--qk-head-dim) and a rotated part after it
    // (--qk-pos-emb-head-dim), the same last dims attnc's `rope { dims }` rotates.
    let mla = match (m.v_head_dim, &m.rope) {
        (Some(v), Some(rope)) if rope.dims < m.head_dim => {
            out.switch("--multi-latent-attention");
            out.push("--qk-head-dim", [(m.head_dim - rope.dims).to_string()]);
            out.push("--qk-pos-emb-head-dim", [rope.dims.to_string()]);
            out.push("--v-head-dim", [v.to_string()]);
            out.unexpressed.push(
                "MLA's low-rank projections (--q-lora-rank, --kv-lora-rank) act before attention and are not part of the spec; add the model's values"
                    .to_string(),
            );
            true
        }
        (Some(v), _) => {
            out.push("--kv-channels", [m.head_dim.to_string()]);
            out.unexpressed.push(format!(
                "v_head_dim = {v} with RoPE on every dim (or none): Megatron-LM takes a value head dim of its own only with --multi-latent-attention, whose RoPE rotates a separate part of the head (`rope {{ dims = D }}`)"
            ));
            false
        }
        (None, _) => {
            out.push("--kv-channels", [m.head_dim.to_string()]);
            false
        }
    };
    match &m.rope {
        Some(rope) => rope_arguments(&mut out, layout, rope, mla),
        None => out.push("--position-embedding-type", ["none".to_string()]),
    }
    softmax_scale_note(&mut out, m, mla);
    layer_block_notes(&mut out, layout);
    if m.sinks {
        // gpt-oss's learned sinks: Megatron's `softmax_type` passed to TransformerEngine ≥ 2.8.
        out.push("--softmax-type", ["learnable".to_string()]);
        let mut others: Vec<&str> = strategies.iter().filter(|s| **s != Strategy::A2a).map(|s| s.name()).collect();
        others.sort_unstable();
        others.dedup();
        if !others.is_empty() {
            out.unexpressed.push(format!(
                "learned sinks under CP: TransformerEngine runs a non-vanilla softmax only with cp_comm_type=a2a (context_parallel.py asserts it); attnc runs the chosen {} itself",
                others.join(", ")
            ));
        }
    }
    out.push("--seq-length", [layout.seq.to_string()]);
    out.push("--max-position-embeddings", [layout.seq.to_string()]);
    if let Format::Thd { max_seqlen, .. } = layout.format {
        out.unexpressed.push(format!(
            "packed THD batches (sequences up to {max_seqlen} tokens in a buffer of {}) come from the dataset as `cu_seqlens`/`cu_seqlens_padded` (PackedSeqParams), not from a flag; --seq-length is the buffer",
            layout.seq
        ));
    }
    out.push("--micro-batch-size", [layout.batch.to_string()]);
    match layout.dtype {
        Dtype::Bf16 => out.switch("--bf16"),
        Dtype::Fp16 => out.switch("--fp16"),
        Dtype::Fp32 => {}
    }
    // attnc's attention has no dropout, and TransformerEngine's FusedAttention takes sliding
    // windows only without it (utils.py:1357 at TE main); Megatron's default is 0.1.
    out.push("--attention-dropout", ["0.0".to_string()]);
    out.push("--tensor-model-parallel-size", [layout.tp.to_string()]);
    if layout.sequence_parallel && layout.tp > 1 {
        out.switch("--sequence-parallel");
    }
    out.push("--pipeline-model-parallel-size", [layout.pp.to_string()]);
    if layout.pp > 1 && m.layers % layout.pp != 0 {
        // Megatron asserts num_layers % pp == 0 unless uneven stages are given
        // (arguments.py:985-998): the last stage takes the remainder, the others floor(L/pp).
        let per = m.layers / layout.pp;
        if per == 0 {
            out.missing.push(format!(
                "--pipeline-model-parallel-size {}: more stages than the model's {} layers; lower `pp`",
                layout.pp, m.layers
            ));
        } else {
            let last = m.layers - per * (layout.pp - 1);
            out.push("--decoder-last-pipeline-num-layers", [last.to_string()]);
            out.unexpressed.push(format!(
                "{} layers over pp = {}: the first {} stages take {per} layers each and the last {last} (--decoder-last-pipeline-num-layers); move layers with --decoder-first-pipeline-num-layers to balance embedding and loss",
                m.layers,
                layout.pp,
                layout.pp - 1
            ));
        }
    }
    match layout.cp {
        Cp::Fixed { size } => out.push("--context-parallel-size", [size.to_string()]),
        Cp::Hybrid { max_seqlen_per_rank, .. } => {
            out.switch("--hybrid-context-parallel");
            out.push("--max-seqlen-per-dp-cp-rank", [max_seqlen_per_rank.to_string()]);
            // Hybrid CP must be used with per-token loss (arguments.py:1449).
            out.switch("--calculate-per-token-loss");
        }
    }
    match (&m.moe, layout.ep) {
        (Some(moe), ep) => {
            out.push("--num-experts", [moe.experts.to_string()]);
            out.push("--moe-router-topk", [moe.topk.to_string()]);
            if let Some(ffn) = moe.ffn_hidden {
                out.push("--moe-ffn-hidden-size", [ffn.to_string()]);
            }
            if ep > 1 {
                out.push("--expert-model-parallel-size", [ep.to_string()]);
            }
        }
        (None, ep) if ep > 1 => out.missing.push(format!(
            "--expert-model-parallel-size {ep}: model `{}` has no experts; add `moe {{ experts = N, topk = K }}` to it",
            m.name
        )),
        (None, _) => {}
    }
    let names: Vec<&str> = strategies.iter().map(Strategy::name).collect();
    if names.windows(2).all(|w| w[0] == w[1]) {
        out.push("--cp-comm-type", [names.first().copied().unwrap_or("p2p").to_string()]);
    } else {
        out.push("--cp-comm-type", names.iter().map(|n| n.to_string()));
    }
    let hierarchies: Vec<&Vec<u32>> = strategies
        .iter()
        .filter_map(|s| match s {
            Strategy::A2aP2p { hierarchy } => Some(hierarchy),
            _ => None,
        })
        .collect();
    if let Some(first) = hierarchies.first() {
        out.push("--hierarchical-context-parallel-sizes", first.iter().map(u32::to_string));
        if hierarchies.iter().any(|h| h != first) {
            out.unexpressed.push(format!(
                "layers use different a2a+p2p hierarchies; Megatron takes one (--hierarchical-context-parallel-sizes {})",
                first.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
            ));
        }
    }
    let masks: Vec<Mask> = layout.layers.iter().map(|l| l.mask).collect();
    let windows: Vec<Option<u64>> = masks.iter().map(|m| m.window()).collect();
    if let Some(w) = windows.iter().flatten().next().copied() {
        // attnc's window W sees keys i-W+1 ..= i: FlashAttention's and Megatron's (W-1, 0).
        out.push("--window-size", [format!("{},0", w - 1)]);
        let windowed: Vec<bool> = windows.iter().map(Option::is_some).collect();
        if let Some(freq) = skip_freq(&windowed) {
            out.push("--window-attn-skip-freq", [freq]);
        }
        if windows.iter().flatten().any(|&other| other != w) {
            out.unexpressed.push(format!(
                "layers use different window sizes; Megatron takes one --window-size (printed: {w} keys)"
            ));
        }
    }
    // Local masks under a strategy with a point-to-point level: attnc may exchange halos there.
    let halo: Vec<u64> = (0..)
        .zip(masks.iter().zip(strategies))
        .filter(|(_, (m, s))| {
            m.is_local() && matches!(s, Strategy::P2p | Strategy::AllGather | Strategy::A2aP2p { .. })
        })
        .map(|(i, _)| i)
        .collect();
    if !halo.is_empty() {
        out.unexpressed.push(format!(
            "layers {} (a window, chunks or regions under {}): attnc moves only the KV rows the mask reads (a halo exchange) where the cost model finds it faster (`attnc tune` prints both), and trims its forward ring to the rows later ranks read; Megatron-LM's cp_comm_type moves whole shards there",
            crate::ir::layer_ranges(&halo).join(", "),
            strategies[halo[0] as usize].name()
        ));
    }
    match layout.balance {
        crate::spec::Balance::Zigzag => {}
        crate::spec::Balance::Contiguous => out.unexpressed.push(
            "balance = contiguous: Megatron-LM splits context parallelism zigzag only (get_batch_on_this_cp_rank, 2·cp chunks); a contiguous split needs your own data loader".to_string(),
        ),
        crate::spec::Balance::Auto => out.unexpressed.push(
            "balance = auto: Megatron-LM splits zigzag only; `attnc tune` says which split attnc chooses".to_string(),
        ),
    }
    if let Some(score) = m.score {
        out.unexpressed.push(match crate::expr::score::cap_of(score) {
            Some(cap) => format!(
                "softcap = {cap}: Megatron-LM's arguments have no attention logit soft-capping flag; a Megatron run of this model needs the cap in its own attention module"
            ),
            None if crate::expr::score::alibi_of(score).is_some() => format!(
                "score = {}: ALiBi, which Megatron-LM has no --position-embedding-type for; a Megatron run of this model needs the bias in its own attention module",
                score.text
            ),
            None => format!(
                "score = {}: Megatron-LM's arguments have no score modification; a Megatron run of this model needs it in its own attention module",
                score.text
            ),
        });
    }
    if let Some(c) = masks.iter().find_map(|m| m.chunk()) {
        let plain: Vec<u64> = (0..).zip(&masks).filter(|(_, m)| m.chunk().is_none()).map(|(i, _)| i).collect();
        let which = match plain.is_empty() {
            true => "every layer".to_string(),
            false => format!("every layer but {}", crate::ir::layer_ranges(&plain).join(", ")),
        };
        out.unexpressed.push(format!(
            "chunked attention (chunk = {c}, {which}): Megatron-LM has no chunked-attention argument and TransformerEngine no chunked attn_mask_type; those layers run as plain causal there (each chunk could be fed as its own THD sequence, with RoPE positions kept per sequence)"
        ));
    }
    if let Some(r) = masks.iter().find_map(|m| m.regions()) {
        out.unexpressed.push(format!(
            "`mask = {}`: a mask that differs by region (a bidirectional prefix, global tokens), is a band other than causal windows (a two-sided window) or is no band at all (a stride, an anti-diagonal) has no Megatron-LM argument, and attnc maps it onto no TransformerEngine attn_mask_type under context parallelism; a Megatron run needs its own attention for it",
            r.text
        ));
    }
    if let Some(h) = masks.iter().find_map(|m| m.heads()) {
        out.unexpressed.push(format!(
            "`mask = {}`: a mask that differs by head has no Megatron-LM argument (`--window-size` is one per layer) and no TransformerEngine attn_mask_type under context parallelism; a Megatron run needs its own attention for it",
            h.text
        ));
    }
    if masks.iter().any(|m| matches!(m, Mask::None)) {
        out.unexpressed.push(
            "`mask = none` layers: Megatron's GPT layers are causal; bidirectional attention needs a model spec of your own"
                .to_string(),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_freq_finds_the_period_or_lists_the_pattern() {
        assert_eq!(skip_freq(&[true, true, true]), None);
        // Gemma-2: even layers (0-based) windowed, so 1-based numbers 2, 4, ... are full.
        assert_eq!(skip_freq(&[true, false, true, false]), Some("2".to_string()));
        assert_eq!(skip_freq(&[true, true, true, false, true, true, true, false]), Some("4".to_string()));
        assert_eq!(skip_freq(&[false, true, true]), Some("[0,1,1]".to_string()));
    }

    #[test]
    fn rotary_percent_truncates_to_the_dims() {
        for (dims, head_dim) in [(64u32, 192u32), (32, 128), (64, 96), (2, 256), (48, 144)] {
            let p: f64 = rotary_percent(dims, head_dim).parse().unwrap();
            assert_eq!((head_dim as f64 * p) as u32, dims, "{dims}/{head_dim}: {p}");
        }
    }

    #[test]
    fn no_rope_freq_is_megatrons_ratio_or_pattern() {
        assert_eq!(no_rope_freq(&[false, false, false]), None);
        // Llama 4: every fourth layer (1-based 4, 8, ...) without RoPE is `--no-rope-freq 4`.
        assert_eq!(no_rope_freq(&[false, false, false, true, false, false, false, true]), Some("4".to_string()));
        assert_eq!(no_rope_freq(&[true, false, false]), Some("[1,0,0]".to_string()));
    }

    #[test]
    fn the_flag_list_is_megatrons() {
        let flags: Vec<&str> = known_flags().collect();
        assert!(flags.len() > 500, "{}", flags.len());
        for flag in
            ["--context-parallel-size", "--cp-comm-type", "--hierarchical-context-parallel-sizes", "--window-size"]
        {
            assert!(flags.contains(&flag), "{flag}");
        }
    }
}
