"""RoPE and the softmax scale of imported specs against what ``transformers`` computes for the same
config, run here (not copied): each layer's inverse frequencies and attention factor
(``modeling_rope_utils.ROPE_INIT_FUNCTIONS``: default, linear, llama3, yarn) to 1e-6, the cos and
sin its rotary embedding applies to q and k, and the attention module's softmax scale (Gemma's
``query_pre_attn_scalar``, DeepSeek's YaRN mscale²).

attnc computes in fp64, transformers in fp32: frequencies agree to fp32's rounding (relative 1e-6)."""

from __future__ import annotations

import copy
import json
import math

import pytest
import torch
import transformers
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

import attnc
from attnc import _native

LLAMA3 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
# Family, config class, values of the released config.json where the class default differs.
CASES = [
    ("gpt-oss-120b (yarn 32, no truncation)", "GptOssConfig", {}),
    (
        "DeepSeek-V3 (MLA, yarn 40 with mscale)",
        "DeepseekV3Config",
        {
            "max_position_embeddings": 163840,
            "rope_scaling": {
                "type": "yarn",
                "factor": 40.0,
                "original_max_position_embeddings": 4096,
                "beta_fast": 32,
                "beta_slow": 1,
                "mscale": 1.0,
                "mscale_all_dim": 1.0,
            }
        },
    ),
    ("Llama-3.1-8B (llama3 8)", "LlamaConfig", {"rope_theta": 500000.0, "rope_scaling": LLAMA3}),
    (
        "Llama-4-Scout (llama3 16, NoPE layers)",
        "Llama4TextConfig",
        {"rope_scaling": {**LLAMA3, "factor": 16.0, "high_freq_factor": 1.0}},
    ),
    (
        "Gemma-3-27B (two bases, linear 8 on full layers)",
        "Gemma3TextConfig",
        {"head_dim": 128, "query_pre_attn_scalar": 168, "rope_scaling": {"rope_type": "linear", "factor": 8.0}},
    ),
    ("Qwen3-Next-80B (fraction 0.25, linear attention)", "Qwen3NextConfig", {}),
    ("GLM-4.5 (fraction 0.5)", "Glm4MoeConfig", {"head_dim": 128}),
]


def _transformers_rope(config, layer: int):
    """(inv_freq, attention_factor, first, end) of ``layer`` as transformers' model rotates it, or
    None for a layer without RoPE or attention."""
    types = getattr(config, "layer_types", None)
    kind = types[layer] if types else "full_attention"
    if kind not in ("full_attention", "sliding_attention", "chunked_attention"):
        return None
    no_rope = getattr(config, "no_rope_layers", None)
    if no_rope and not no_rope[layer]:
        return None
    c = config
    if getattr(config, "rope_local_base_freq", None) and kind == "sliding_attention":
        # Gemma-3's `rotary_emb_local`: the local base, no scaling.
        c = copy.deepcopy(config)
        c.rope_theta, c.rope_scaling = config.rope_local_base_freq, {"rope_type": "default"}
    rope_type = (c.rope_scaling or {}).get("rope_type", (c.rope_scaling or {}).get("type", "default"))
    inv_freq, factor = ROPE_INIT_FUNCTIONS[rope_type](c, "cpu")
    rotated = 2 * inv_freq.numel()
    if getattr(config, "qk_rope_head_dim", None):  # MLA: the last dims rotate
        first = config.qk_nope_head_dim
        return inv_freq.double(), factor, first, first + rotated
    return inv_freq.double(), factor, 0, rotated


@pytest.mark.parametrize("family,cls,released", CASES, ids=[c[0] for c in CASES])
def test_frequencies_and_attention_factor_match_transformers(tmp_path, family, cls, released):
    config = getattr(transformers, cls)(**released)
    spec = attnc.import_hf(config, cluster="1x8:h100_sxm", seq=32768)
    layout = attnc.load(spec.save(tmp_path / "imported.attn")).layout("pretrain")
    compared = 0
    for layer in range(config.num_hidden_layers):
        theirs, ours = _transformers_rope(config, layer), layout.rope(layer)
        assert (theirs is None) == (ours is None), (layer, spec.text)
        if theirs is None:
            continue
        inv_freq, factor, first, end = theirs
        our_freqs, our_factor, our_first, our_end = ours
        assert (our_first, our_end) == (first, end), layer
        assert len(our_freqs) == inv_freq.numel()
        torch.testing.assert_close(torch.tensor(our_freqs, dtype=torch.float64), inv_freq, rtol=1e-6, atol=0)
        assert math.isclose(our_factor, factor, rel_tol=1e-6), (layer, our_factor, factor)
        compared += 1
    assert compared > 0


def test_yarn_actually_scales():
    """Not vacuous: gpt-oss's YaRN frequencies differ from the unscaled ones, and its factor is not 1."""
    config = transformers.GptOssConfig()
    scaled, factor = ROPE_INIT_FUNCTIONS["yarn"](config, "cpu")
    plain, _ = ROPE_INIT_FUNCTIONS["default"](config, "cpu")
    assert (scaled < plain * 0.5).any() and factor > 1.3


@pytest.mark.parametrize(
    "cls,released",
    [("GptOssConfig", {}), ("LlamaConfig", {"rope_theta": 500000.0, "rope_scaling": LLAMA3, "num_hidden_layers": 2})],
)
def test_rotated_q_and_k_match_transformers_rotary_embedding(tmp_path, cls, released):
    """transformers' rotary embedding module (its cos and sin, attention factor included) and
    ``apply_rotary_pos_emb`` against the rotation by attnc's frequencies, at positions past the
    original context."""
    config = getattr(transformers, cls)(**released)
    spec = attnc.import_hf(config, cluster="1x8:h100_sxm", seq=32768)
    freqs, factor, first, end = attnc.load(spec.save(tmp_path / "s.attn")).layout("pretrain").rope(0)
    module = getattr(transformers.models, config.model_type)
    modeling = getattr(module, f"modeling_{config.model_type}")
    rotary = next(getattr(modeling, n) for n in dir(modeling) if n.endswith("RotaryEmbedding"))(config=config)
    positions = torch.tensor([[0, 1, 4095, 4096, 20000, 131071]])
    d = end - first
    q = torch.randn(1, 2, positions.shape[1], d, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    cos, sin = rotary(q.float(), positions)
    q_theirs, _ = modeling.apply_rotary_pos_emb(q.float(), q.float(), cos, sin)
    # attnc's rotation (rotate-half within the rotated dims, cos and sin times the factor).
    angles = positions[0].double()[:, None] * torch.tensor(freqs, dtype=torch.float64)[None, :]
    c, s = torch.cos(angles) * factor, torch.sin(angles) * factor
    a, b = q[..., : d // 2], q[..., d // 2 :]
    q_ours = torch.cat([a * c - b * s, b * c + a * s], dim=-1)
    # transformers forms position × frequency in fp32: at position p the angle is off by up to
    # about an ulp of p (2^-24·p relative), which moves q by that much times its magnitude.
    bound = 1e-5 + 2.0 * positions[0].double() * 2.0**-24 * q.abs().max() * factor
    error = (q_ours - q_theirs.double()).abs().amax(dim=(0, 1, 3))
    assert (error <= bound).all(), (error, bound)
    # Where the angle is small the agreement is fp32's.
    torch.testing.assert_close(q_ours[:, :, :2].float(), q_theirs[:, :, :2], rtol=1e-5, atol=1e-5)


def test_softmax_scale_is_the_attention_modules(tmp_path):
    """Gemma-3-27B's query_pre_attn_scalar and DeepSeek-V3's YaRN mscale² against the scale the
    attention modules of transformers multiply q·k by (shrunk projections: the scale depends only
    on the head dims and RoPE settings)."""
    gemma = transformers.Gemma3TextConfig(
        head_dim=128, query_pre_attn_scalar=168, hidden_size=64, num_attention_heads=2, num_key_value_heads=1
    )
    deepseek = transformers.DeepseekV3Config(
        hidden_size=64,
        num_attention_heads=2,
        num_key_value_heads=2,
        q_lora_rank=16,
        kv_lora_rank=16,
        rope_scaling=CASES[1][2]["rope_scaling"],
    )
    for config, attention in [
        (gemma, transformers.models.gemma3.modeling_gemma3.Gemma3Attention),
        (deepseek, transformers.models.deepseek_v3.modeling_deepseek_v3.DeepseekV3Attention),
    ]:
        spec = attnc.import_hf(config)
        path = spec.save(tmp_path / f"{config.model_type}.attn")
        model = json.loads(_native.spec_json(path))["models"][0]
        expected = attention(config, layer_idx=0).scaling
        assert math.isclose(model["softmax_scale"], expected, rel_tol=1e-12), (model["softmax_scale"], expected)
