//! NVIDIA's ptxas as the assembler of the PTX the backend writes: finding it, running it with
//! `-v`, and reading its resource report (registers, spills, stack, shared memory) per function.
//!
//! ptxas runs without a GPU; `scripts/setup` installs it from PyPI (`nvidia-cuda-nvcc-cu12`) and
//! `.cargo/config.toml` points `ATTNC_PTXAS` at it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use super::Target;

#[derive(Debug, thiserror::Error)]
pub enum PtxasError {
    #[error("cannot run {path}: {message}")]
    Run { path: String, message: String },
    #[error("ptxas rejected the PTX for {arch}:\n{stderr}")]
    Rejected { arch: String, stderr: String },
}

/// What ptxas reports for one entry function (the manifest's record).
pub use crate::back::manifest::Resources;

/// ptxas: `ATTNC_PTXAS` if set and present, else `ptxas` on the PATH, else the copy
/// `scripts/setup` installs in this checkout.
pub fn find() -> Option<PathBuf> {
    find_tool("ATTNC_PTXAS", "ptxas", ".tools/cuda-nvcc-12.9.86/nvidia/cuda_nvcc/bin/ptxas")
}

/// A CUDA tool: the file `$env` names if present, else `name` on the PATH, else `local` (relative
/// to the checkout, where `scripts/setup` installs it).
pub(super) fn find_tool(env: &str, name: &str, local: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env).map(PathBuf::from)
        && p.is_file()
    {
        return Some(p);
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(local);
    local.is_file().then_some(local)
}

/// ptxas's version line.
pub fn version(ptxas: &Path) -> Result<String, PtxasError> {
    let out = Command::new(ptxas)
        .arg("--version")
        .output()
        .map_err(|e| PtxasError::Run { path: ptxas.display().to_string(), message: e.to_string() })?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().last().unwrap_or_default().to_string())
}

/// Assembles `ptx` for `target` (`-arch=sm_80|sm_90a -v`) and returns each entry's resources.
pub fn assemble(ptxas: &Path, ptx: &str, target: Target) -> Result<Vec<Resources>, PtxasError> {
    Ok(assemble_cubin(ptxas, ptx, target)?.resources)
}

/// What one ptxas run gave: the resources, ptxas's warnings (lines of its report that say
/// `warning`, and those where it repairs a wgmma pipeline: a `warpgroup.arrive` it injected
/// because registers a `wgmma` uses were touched after the last `wgmma.fence` (C7519), or
/// `wgmma.mma_async` instructions it serialized), and the cubin.
#[derive(Debug)]
pub struct Assembled {
    pub resources: Vec<Resources>,
    pub warnings: Vec<String>,
    pub cubin: Vec<u8>,
}

/// Assembles `ptx` for `target` and keeps the cubin (for `sass::disassemble`).
pub fn assemble_cubin(ptxas: &Path, ptx: &str, target: Target) -> Result<Assembled, PtxasError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let stem = format!("attnc-ptxas-{}-{n}", std::process::id());
    let (src, cubin) = (dir.join(format!("{stem}.ptx")), dir.join(format!("{stem}.cubin")));
    let run_err = |m: String| PtxasError::Run { path: ptxas.display().to_string(), message: m };
    std::fs::write(&src, ptx).map_err(|e| run_err(format!("writing {}: {e}", src.display())))?;
    let out = Command::new(ptxas)
        .arg(format!("-arch={}", target.arch()))
        .arg("-v")
        .arg("-o")
        .arg(&cubin)
        .arg(&src)
        .output()
        .map_err(|e| run_err(e.to_string()));
    let _ = std::fs::remove_file(&src);
    let bytes = std::fs::read(&cubin);
    let _ = std::fs::remove_file(&cubin);
    let out = out?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(PtxasError::Rejected { arch: target.arch().into(), stderr });
    }
    let cubin = bytes.map_err(|e| run_err(format!("reading {}: {e}", cubin.display())))?;
    let warnings = stderr.lines().filter(|l| is_warning(l)).map(str::to_string).collect();
    Ok(Assembled { resources: parse(&stderr), warnings, cubin })
}

/// Whether a line of ptxas's report is a warning or a repair of a wgmma pipeline.
fn is_warning(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains("warning") || lower.contains("warpgroup.arrive is injected") || lower.contains("are serialized")
}

/// Reads ptxas's `-v` report.
pub fn parse(report: &str) -> Vec<Resources> {
    let mut out: Vec<Resources> = Vec::new();
    let number_before = |line: &str, unit: &str| -> Option<u32> {
        let at = line.find(unit)?;
        line[..at].split_whitespace().last()?.parse().ok()
    };
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or_default();
            out.push(Resources { function: name.to_string(), ..Resources::default() });
            continue;
        }
        let Some(r) = out.last_mut() else { continue };
        if line.contains("bytes stack frame") {
            r.stack_bytes = number_before(line, "bytes stack frame").unwrap_or(0);
            r.spill_stores = number_before(line, "bytes spill stores").unwrap_or(0);
            r.spill_loads = number_before(line, "bytes spill loads").unwrap_or(0);
        }
        if line.contains("Used") && line.contains("registers") {
            r.registers = number_before(line, "registers").unwrap_or(0);
            r.barriers = number_before(line, "barriers").unwrap_or(0);
            r.shared_bytes = number_before(line, "bytes smem").unwrap_or(0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wgmma_pipeline_repairs_are_warnings() {
        assert!(is_warning(
            "ptxas info    : (C7519) warpgroup.arrive is injected in around line 800 by compiler to allow use of registers in GMMA in function 'f'"
        ));
        assert!(is_warning("ptxas /tmp/x.ptx, line 5; warning : Instruction 'shfl' without '.sync'"));
        assert!(!is_warning("ptxas info    : Used 233 registers, used 1 barriers"));
    }

    #[test]
    fn reads_a_resource_report() {
        let report = "ptxas info    : 0 bytes gmem\n\
            ptxas info    : Compiling entry function 'attn_fwd' for 'sm_80'\n\
            ptxas info    : Function properties for attn_fwd\n    \
            8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n\
            ptxas info    : Used 168 registers, used 1 barriers, 18432 bytes smem, 440 bytes cmem[0]\n";
        let r = parse(report);
        assert_eq!(
            r,
            vec![Resources {
                function: "attn_fwd".into(),
                registers: 168,
                spill_stores: 4,
                spill_loads: 12,
                stack_bytes: 8,
                shared_bytes: 18432,
                barriers: 1
            }]
        );
    }
}
