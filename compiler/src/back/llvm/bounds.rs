//! The kernel IR's mask bounds (`kernel::kv_bounds`, `q_bounds`, `needs_mask`) written as LLVM IR,
//! shared by the host and GPU lowerings so that every backend visits the same tiles.

use super::text::{Fn, V, i64c, round_down, round_up};
use crate::kernel::KernelMask;

/// `kernel::kv_bounds` in IR.
pub fn kv_bounds(f: &mut Fn, mask: KernelMask, q_lo: &V, q_hi: &V, kv_pos: &V, n_kv: &V) -> (V, V) {
    let zero = i64c(0);
    match mask {
        KernelMask::None => (zero, n_kv.clone()),
        KernelMask::Causal | KernelMask::Window { .. } => {
            let h = f.bin("add", q_hi, &i64c(1));
            let h = f.bin("sub", &h, kv_pos);
            let hi = f.clamp_i64(&h, &zero, n_kv);
            let lo = match mask {
                KernelMask::Window { window } => {
                    let l = f.bin("add", q_lo, &i64c(1 - window as i64));
                    let l = f.bin("sub", &l, kv_pos);
                    f.clamp_i64(&l, &zero, n_kv)
                }
                _ => zero,
            };
            (lo, hi)
        }
    }
}

/// `kernel::q_bounds` in IR.
pub fn q_bounds(f: &mut Fn, mask: KernelMask, k_lo: &V, k_hi: &V, q_pos: &V, n_q: &V, tile: i64) -> (V, V) {
    let zero = i64c(0);
    let lo = match mask {
        KernelMask::None => zero.clone(),
        _ => {
            let l = f.bin("sub", k_lo, q_pos);
            f.clamp_i64(&l, &zero, n_q)
        }
    };
    let hi = match mask {
        KernelMask::Window { window } => {
            let h = f.bin("add", k_hi, &i64c(window as i64));
            let h = f.bin("sub", &h, q_pos);
            f.clamp_i64(&h, &zero, n_q)
        }
        _ => n_q.clone(),
    };
    (round_down(f, &lo, tile), round_up(f, &hi, tile))
}

/// `kernel::needs_mask` in IR.
pub fn needs_mask(f: &mut Fn, mask: KernelMask, q_lo: &V, q_hi: &V, k_lo: &V, k_hi: &V, partial: &V) -> V {
    match mask {
        KernelMask::None => partial.clone(),
        KernelMask::Causal => {
            let c = f.icmp("sgt", k_hi, q_lo);
            f.bin("or", partial, &c)
        }
        KernelMask::Window { window } => {
            let c = f.icmp("sgt", k_hi, q_lo);
            let span = f.bin("sub", q_hi, k_lo);
            let w = f.icmp("sge", &span, &i64c(window as i64));
            let a = f.bin("or", partial, &c);
            f.bin("or", &a, &w)
        }
    }
}
