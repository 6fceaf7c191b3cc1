//! A kernel directory: what `attnc compile --target sm_80|sm_90a -o DIR` (or `attnc matrix
//! --compile-kernels DIR`) writes, one `.ptx` per kernel and `manifest.json` naming each kernel's
//! entry point, launch grid, block size and dynamic shared memory. Read by the CUDA device and by
//! the PTX-interpreter device alike, so it needs no CUDA: the interpreter's device builds without
//! the `cuda` feature.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use attnc_compiler::kernel::{KernelKind, KernelSpec};

/// Why a kernel directory cannot be used (it names the directory).
#[derive(Debug, thiserror::Error)]
#[error("kernel directory {dir}: {message}")]
pub struct KernelDirError {
    pub dir: String,
    pub message: String,
}

pub use attnc_compiler::back::manifest::{
    Launch as ManifestLaunch, MANIFEST_VERSION, Manifest, ManifestKernel, MapFields, TensorMapUse,
};

/// The kernels of one directory, by name.
#[derive(Debug)]
pub struct KernelDir {
    pub dir: PathBuf,
    pub target: String,
    kernels: HashMap<String, ManifestKernel>,
}

impl KernelDir {
    pub fn open(dir: &Path) -> Result<KernelDir, KernelDirError> {
        let err = |message: String| KernelDirError { dir: dir.display().to_string(), message };
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|e| err(format!("reading manifest.json: {e}")))?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| err(format!("manifest.json: {e}")))?;
        if manifest.version != MANIFEST_VERSION {
            return Err(err(format!(
                "manifest version {} (this runtime reads version {MANIFEST_VERSION}; compile the directory again)",
                manifest.version
            )));
        }
        if !matches!(manifest.target.as_str(), "sm_80" | "sm_90a" | "sm_90a-ws") {
            return Err(err(format!("kernels for {}, not a GPU target (sm_80, sm_90a, sm_90a-ws)", manifest.target)));
        }
        let kernels = manifest.kernels.into_iter().map(|k| (k.name.clone(), k)).collect();
        Ok(KernelDir { dir: dir.to_path_buf(), target: manifest.target, kernels })
    }

    /// The kernel named `name` with its PTX text, checked to launch over `grid` (the manifest's
    /// formulas; the runtime computes exactly these).
    pub fn get(&self, name: &str, grid: [&str; 3]) -> Result<(&ManifestKernel, String), KernelDirError> {
        let err = |message: String| KernelDirError { dir: self.dir.display().to_string(), message };
        let k = self.kernels.get(name).ok_or_else(|| {
            err(format!(
                "no kernel {name} (compile the kernels a run needs ahead of time: `attnc compile FILE --layout L \
                 --target {t} -o DIR`, or `attnc kernels --target {t} -o DIR`)",
                t = self.target
            ))
        })?;
        match &k.launch {
            Some(l) if l.grid.iter().zip(grid).all(|(a, b)| a == b) => {}
            other => return Err(err(format!("kernel {name}: launch {other:?} is not the grid this runtime computes"))),
        }
        let ptx = std::fs::read_to_string(self.dir.join(&k.file)).map_err(|e| err(format!("{}: {e}", k.file)))?;
        Ok((k, ptx))
    }

    /// An attention kernel (a forward or a backward of `spec`) with its PTX text and the rows of
    /// the longest run one CTA takes: its grid is `ceil(max_seqlen_q / N)` (forward) or
    /// `ceil(max_seqlen_kv / N)` (backward) by the query heads by the sequences.
    pub fn attention(&self, spec: &KernelSpec) -> Result<(&ManifestKernel, String, usize), KernelDirError> {
        let name = spec.name();
        let runs = match spec.kind {
            KernelKind::Forward => "max_seqlen_q",
            KernelKind::Backward => "max_seqlen_kv",
        };
        // The rows are the kernel's own (its formula's N); the rest of the grid is fixed.
        let rows = self.kernels.get(&name).and_then(|k| k.launch.as_ref()?.rows_per_cta()).unwrap_or(64);
        let first = format!("ceil({runs} / {rows})");
        let (k, ptx) = self.get(&name, [&first, "heads_q", "sequences"])?;
        Ok((k, ptx, rows))
    }

    pub fn len(&self) -> usize {
        self.kernels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kernels.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnc_compiler::kernel::KernelKind;

    fn write(dir: &Path, manifest: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    }

    #[test]
    fn kernel_directories_are_checked_before_any_device_call() {
        let base = std::env::temp_dir().join(format!("attnc-kdir-{}", std::process::id()));
        let missing = KernelDir::open(&base.join("nowhere")).unwrap_err().to_string();
        assert!(missing.contains("nowhere: reading manifest.json"), "{missing}");
        write(&base.join("host"), r#"{"version": 2, "target": "x86-64", "kernels": []}"#);
        let host = KernelDir::open(&base.join("host")).unwrap_err().to_string();
        assert!(host.ends_with("kernels for x86-64, not a GPU target (sm_80, sm_90a, sm_90a-ws)"), "{host}");
        write(&base.join("empty"), r#"{"version": 2, "target": "sm_90a", "kernels": []}"#);
        let dir = KernelDir::open(&base.join("empty")).unwrap();
        let spec = attnc_compiler::kernel::KernelSpec {
            kind: KernelKind::Forward,
            head_dim: 64,
            v_head_dim: None,
            dtype: attnc_compiler::spec::Dtype::Bf16,
            group: 1,
            mask: attnc_compiler::kernel::Band::CAUSAL,
            score: None,
            tile_q: attnc_compiler::kernel::TILE_Q,
            tile_kv: attnc_compiler::kernel::TILE_KV,
        };
        let e = dir.get(&spec.name(), ["ceil(max_seqlen_q / 64)", "heads_q", "sequences"]).unwrap_err().to_string();
        assert!(e.contains("no kernel attn_fwd_d64_causal_bf16_g1") && e.contains("--target sm_90a"), "{e}");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
