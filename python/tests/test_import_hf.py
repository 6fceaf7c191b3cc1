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


# Family, config class, the JSON fields the spec cannot carry yet (warned about).
FAMILIES = [
    ("gpt-oss-120b", "GptOssConfig", {"$.rope_scaling"}),
    ("DeepSeek-V3", "DeepseekV3Config", {"$.rope_interleave"}),
    ("Llama-4-Scout", "Llama4TextConfig", {"$.attn_temperature_tuning", "$.attn_scale", "$.floor_scale"}),
    ("Gemma-3-27B", "Gemma3TextConfig", {"$.rope_local_base_freq"}),
    ("Qwen3-Next-80B", "Qwen3NextConfig", {"$.layer_types"}),
    ("GLM-4.5", "Glm4MoeConfig", set()),
]
#: Values the released checkpoints' config.json set where the class default differs.
RELEASED = {"Glm4MoeConfig": {"head_dim": 128}}


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
    layout = attnc.load(path).layout("pretrain")
    assert layout.strategy(0) != "auto"  # the tuner chose


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
