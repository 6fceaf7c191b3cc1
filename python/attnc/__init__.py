"""attnc: context-parallel attention from verified plans, inside a PyTorch training loop.

``attnc.torch.attention`` and ``attnc.torch.DotProductAttention`` take the local shards and the
process groups Megatron-LM and TransformerEngine hand over; ``attnc.load`` runs what a ``.attn``
spec describes (``attnc.import_hf`` writes one from a Hugging Face config); ``attnc.shard`` / ``attnc.unshard`` split and join sequences as Megatron and TE do.
The planner, the verifier, the kernels and the executor are attnc's Rust crates (``attnc._native``);
this package checks arguments and moves tensors.
"""

from attnc._native import __version__, cached_plans, kernel_sets
from attnc.hf import ImportedSpec, import_hf
from attnc.shard import shard, shard_indices, unshard
from attnc.spec import Layout, Spec, load

__all__ = ["ImportedSpec", "Layout", "Spec", "__version__", "cached_plans", "import_hf", "kernel_sets", "load", "shard", "shard_indices", "unshard"]
