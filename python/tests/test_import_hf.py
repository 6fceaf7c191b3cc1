"""``attnc.import_hf`` on the configs ``transformers`` ships with the released models' values
(``GptOssConfig()``, ``DeepseekV3Config()``, ...): the spec checks clean with a cluster and a length,
its resolved model fields (``attnc check --emit json``) are the config's, and what attnc does not
model yet is a warning naming the field."""

from __future__ import annotations

import json
import warnings

import pytest
import transformers  # scripts/setup installs it (pinned)

import attnc
from attnc import _native


def _head_dim(c) -> int:
    if getattr(c, "qk_nope_head_dim", None):
        return c.qk_nope_head_dim + c.qk_rope_head_dim
    return getattr(c, "head_dim", None) or c.hidden_size // c.num_attention_heads


# Family, config class, the JSON fields the spec cannot carry (warned about).
FAMILIES = [
    ("gpt-oss-120b", "GptOssConfig", set()),
    ("DeepSeek-V3", "DeepseekV3Config", {"$.rope_interleave"}),
    ("Llama-4-Scout", "Llama4TextConfig", {"$.attn_temperature_tuning", "$.attn_scale", "$.floor_scale"}),
    ("Gemma-3-27B", "Gemma3TextConfig", set()),
    ("Qwen3-Next-80B", "Qwen3NextConfig", set()),
    ("GLM-4.5", "Glm4MoeConfig", set()),
]
#: Values the released checkpoints' config.json set where the class default differs.
RELEASED = {
    "Glm4MoeConfig": {"head_dim": 128},
    "Gemma3TextConfig": {"head_dim": 128, "query_pre_attn_scalar": 168, "rope_scaling": {"rope_type": "linear", "factor": 8.0}},
}


def _rope_fields(config) -> dict:
    """The config's RoPE as the resolved spec's model fields say it (``check --emit json``)."""
    scaling = dict(getattr(config, "rope_scaling", None) or {})
    kind = scaling.get("rope_type", scaling.get("type", "default"))
    out = {"theta": float(config.rope_theta)}
    if getattr(config, "qk_rope_head_dim", None):
        out["dims"] = config.qk_rope_head_dim
    elif (getattr(config, "partial_rotary_factor", None) or 1.0) < 1.0:
        out["fraction"] = config.partial_rotary_factor
    if kind != "default":
        out["scaling"] = {"kind": kind, "factor": scaling["factor"]}
    return out


@pytest.mark.parametrize("family,cls,warned", FAMILIES, ids=[f[0] for f in FAMILIES])
def test_transformers_configs_import_and_check_clean(tmp_path, family, cls, warned):
    config = getattr(transformers, cls)(**RELEASED.get(cls, {}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = attnc.import_hf(config, cluster="2x8:h100_sxm", seq=32768)
    fields = {field for field, _, _ in spec.warnings}
    # Exactly the attention facts the language lacks: nothing outside attention, nothing dropped.
    assert fields == warned, (fields, spec.text)
    assert len(caught) == len(spec.warnings)
    path = spec.save(tmp_path / "imported.attn")
    model = json.loads(_native.spec_json(path))["models"][0]  # raises ValueError on any error
    assert model["layers"] == config.num_hidden_layers
    assert model["heads"] == config.num_attention_heads
    assert model["kv_heads"] == (config.num_key_value_heads or config.num_attention_heads)
    assert model["head_dim"] == _head_dim(config)
    assert model["hidden"] == config.hidden_size
    # RoPE: the base, the rotated share and the scaling (Gemma-3's full layers in a `layer` block).
    expected = _rope_fields(config)
    rope = model["rope"]
    if getattr(config, "rope_local_base_freq", None):
        assert rope["theta"] == config.rope_local_base_freq and "scaling" not in rope
        rope = next(b["rope"] for b in model["layer_blocks"] if "rope" in b)
    for key, value in expected.items():
        got = rope[key] if key != "scaling" else {k: rope["scaling"][k] for k in value}
        assert got == value, (key, got, value)
    scalar = getattr(config, "query_pre_attn_scalar", None)
    if scalar and scalar != _head_dim(config):
        assert model["softmax_scale"] == scalar**-0.5
    types = getattr(config, "layer_types", None) or []
    linear = [i for i, t in enumerate(types) if t == "linear_attention"]
    blocks = [b for b in model.get("layer_blocks", []) if b.get("kind") == "linear_attention"]
    assert sum(len(range(b["start"], b["end"], b["step"])) for b in blocks) == len(linear)
    layout = attnc.load(path).layout("pretrain")
    first = next(i for i in range(config.num_hidden_layers) if i not in linear)
    assert layout.strategy(first) != "auto"  # the tuner chose
    if linear:
        with pytest.raises(ValueError, match=r"argument `layer`: layer 0 .* is linear_attention, which attnc does not plan"):
            layout.strategy(linear[0])


def test_glm_class_default_head_dim_is_derived_as_transformers_does_and_refused(tmp_path):
    """``Glm4MoeConfig()`` has no head_dim (GLM-4.5's config.json says 128): transformers' attention
    then takes hidden_size // heads = 4096 // 96 = 42, and so does the import; attnc's kernels do
    not take 42, and the check says so at the generated line."""
    spec = attnc.import_hf(transformers.Glm4MoeConfig(), cluster="2x8", seq=32768)
    assert "  head_dim   = 42\n" in spec.text
    with pytest.raises(ValueError, match=r"(?s)E0017.*head_dim = 42 is not supported"):
        _native.spec_json(spec.save(tmp_path / "glm.attn"))


def test_bad_configs_name_the_argument_and_the_json_path():
    with pytest.raises(ValueError, match=r"argument `config`: \$.num_attention_heads: invalid type"):
        attnc.import_hf({"num_hidden_layers": 2, "num_attention_heads": "eight"})
    with pytest.raises(ValueError, match="argument `cluster`"):
        attnc.import_hf({"num_hidden_layers": 2, "num_attention_heads": 8, "head_dim": 64}, cluster="8", seq=4096)
    with pytest.raises(ValueError, match="argument `config`: a int"):
        attnc.import_hf(3)
