"""Specs from Hugging Face configs: ``attnc.import_hf(config)`` is ``attnc import hf`` in process.

The Rust importer (``attnc_compiler::import::hf``) writes the ``.attn`` text; this module only
turns the config into JSON and the warnings into Python warnings.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass
from typing import Any, Optional, Union

from . import _native

__all__ = ["ImportedSpec", "import_hf"]


@dataclass(frozen=True)
class ImportedSpec:
    """The generated spec text and what it does not carry: ``(json_path, line, message)``."""

    text: str
    warnings: list[tuple[str, int, str]]

    def save(self, path: Union[str, os.PathLike]) -> str:
        """Writes the text to ``path``; returns the path (for ``attnc.load``)."""
        with open(path, "w") as f:
            f.write(self.text)
        return str(path)


def import_hf(
    config: Any,
    *,
    name: Optional[str] = None,
    cluster: Optional[str] = None,
    seq: Optional[int] = None,
) -> ImportedSpec:
    """A Hugging Face config as a ``.attn`` spec: ``config`` is a ``transformers`` config object
    (``model.config``, ``GptOssConfig()``), a dict, or the path of a ``config.json``. With
    ``cluster`` (``"NODESxGPUS[:GPU]"``) and ``seq`` the spec has a layout with ``strategy =
    auto``. Each fact the spec cannot carry is a ``UserWarning`` naming its JSON field; a config
    that is not one raises ``ValueError`` naming the JSON path."""
    if isinstance(config, (str, os.PathLike)):
        file = str(config)
        with open(config) as f:
            text = f.read()
    elif isinstance(config, dict):
        file, text = "config", json.dumps(config)
    elif hasattr(config, "to_dict"):
        file, text = type(config).__name__, json.dumps(_saved_fields(config), default=str)
    else:
        raise ValueError(
            f"argument `config`: a {type(config).__name__}; give a transformers config, a dict or a config.json path"
        )
    spec, notes = _native.import_hf(text, file, name=name, cluster=cluster, seq=seq)
    for field, line, message in notes:
        warnings.warn(f"{file}: {field}: {message} (line {line} of the spec)", UserWarning, stacklevel=2)
    return ImportedSpec(spec, notes)


def _saved_fields(config) -> dict:
    """A transformers config as its config.json would hold it: without the generic
    ``PretrainedConfig`` fields left at their defaults (generation, tokenizer and export settings)."""
    fields = config.to_dict()
    try:
        from transformers import PretrainedConfig

        base = PretrainedConfig().to_dict()
    except ImportError:
        return fields
    return {k: v for k, v in fields.items() if k == "model_type" or k not in base or base[k] != v}
