//! The machine code ptxas makes of the backend's PTX: disassembled by NVIDIA's `cuobjdump -sass`
//! (no GPU needed; `scripts/setup` installs it from PyPI's `nvidia-cuda-cuobjdump` and
//! `.cargo/config.toml` points `ATTNC_CUOBJDUMP` at it) and counted by mnemonic, for the SASS
//! gate: tensor-core instructions where the PTX asks for them (`HMMA`, `HGMMA`), `LDSM` for
//! `ldmatrix`, `LDGSTS` for `cp.async`, no local memory (`LDL`/`STL`) in forward kernels.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use super::ptxas::PtxasError;

/// `cuobjdump`: `ATTNC_CUOBJDUMP` if set and present, else on the PATH, else the copy
/// `scripts/setup` installs in this checkout.
pub fn find_cuobjdump() -> Option<PathBuf> {
    super::ptxas::find_tool("ATTNC_CUOBJDUMP", "cuobjdump", ".tools/cuda-sass-13.2.51/nvidia/cu13/bin/cuobjdump")
}

/// The SASS listing of a cubin (`cuobjdump -sass`).
pub fn disassemble(cuobjdump: &Path, cubin: &[u8]) -> Result<String, PtxasError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("attnc-sass-{}-{n}.cubin", std::process::id()));
    let run_err = |m: String| PtxasError::Run { path: cuobjdump.display().to_string(), message: m };
    std::fs::write(&file, cubin).map_err(|e| run_err(format!("writing {}: {e}", file.display())))?;
    let out = Command::new(cuobjdump).arg("-sass").arg(&file).output().map_err(|e| run_err(e.to_string()));
    let _ = std::fs::remove_file(&file);
    let out = out?;
    if !out.status.success() {
        return Err(run_err(String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Instructions per mnemonic (the opcode before its first `.`; a guard `@P0` skipped) in a SASS
/// listing: lines `/*0a70*/  @!P1 HMMA.16816.F32.BF16 R4, R8, R12, R4 ;`.
pub fn mix(sass: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for line in sass.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("/*") else { continue };
        let Some((addr, code)) = rest.split_once("*/") else { continue };
        if !addr.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let mut words = code.split_whitespace();
        let Some(mut op) = words.next() else { continue };
        if op.starts_with('@') {
            let Some(next) = words.next() else { continue };
            op = next;
        }
        let op = op.split('.').next().unwrap_or(op).trim_end_matches(';');
        if !op.is_empty() && op.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
            *out.entry(op.to_string()).or_default() += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_mnemonics_of_a_listing() {
        let listing = "\tcode for sm_80\n\
            \t\tFunction : k\n\
            \t.headerflags\t@\"EF_CUDA_SM80\"\n\
            \x20       /*0000*/                   MOV R1, c[0x0][0x28] ;   /* 0x00000a0000017a02 */\n\
            \x20                                                            /* 0x000fe40000000f00 */\n\
            \x20       /*0010*/              @!P0 HMMA.16816.F32.BF16 R4, R8, R12, R4 ;  /* 0x0 */\n\
            \x20       /*0020*/                   HMMA.16816.F32.BF16 R4, R8, R12, R4 ;  /* 0x0 */\n\
            \x20       /*0030*/                   EXIT ;  /* 0x0 */\n";
        let m = mix(listing);
        assert_eq!(m.get("HMMA"), Some(&2));
        assert_eq!(m.get("MOV"), Some(&1));
        assert_eq!(m.get("EXIT"), Some(&1));
        assert_eq!(m.len(), 3);
    }
}
