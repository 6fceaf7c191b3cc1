//! `mma.sync.aligned.m16n8k16` (PTX ISA 9.7.13.4): the warp-level matrix products of the sm_80
//! forward and of the backward on both targets, and packing f32 pairs into 16-bit A fragments.

use std::ops::Range;

use super::*;

impl Gen {
    /// c += a·b (16×8×16), a and b as packed 16-bit pairs.
    pub(super) fn mma(&mut self, a: &[V; 4], b: [&V; 2], c: &[V]) -> Vec<V> {
        let ty = "{float, float, float, float}";
        let r = if self.spec.dtype == Dtype::Fp16 {
            let h: Vec<V> = a.iter().chain(b).map(|x| self.f.cast("bitcast", x, "<2 x half>")).collect();
            let args: Vec<&V> = h.iter().chain(c.iter()).collect();
            self.f.call(ty, "llvm.nvvm.mma.m16n8k16.row.col.f32.f32", &args)
        } else {
            let args: Vec<&V> = a.iter().chain(b).chain(c.iter()).collect();
            self.f.call(ty, "llvm.nvvm.mma.m16n8k16.row.col.bf16", &args)
        };
        (0..4).map(|i| self.f.let_("float", format!("extractvalue {ty} {}, {i}", r.name))).collect()
    }

    /// Two f32 into one packed pair of the input type.
    pub(super) fn pack(&mut self, lo: &V, hi: &V) -> V {
        let (ht, vt) = if self.spec.dtype == Dtype::Fp16 { ("half", "<2 x half>") } else { ("bfloat", "<2 x bfloat>") };
        let f = &mut self.f;
        let a = f.cast("fptrunc", lo, ht);
        let b = f.cast("fptrunc", hi, ht);
        let v0 = f.let_(vt, format!("insertelement {vt} poison, {}, i32 0", a.t()));
        let v1 = f.let_(vt, format!("insertelement {vt} {}, {}, i32 1", v0.name, b.t()));
        f.cast("bitcast", &v1, "i32")
    }

    /// C fragments (nb n-blocks × 4 floats) of `a` (16 × 16·ka) times B from a [n][k] tile.
    pub(super) fn gemm_nk(&mut self, a: &[[V; 4]], b: &Tile, l: &Lanes, nb: usize, c: &mut [V]) {
        for (kk, a) in a.iter().enumerate() {
            for pair in 0..nb / 2 {
                let f = self.frag_b_nk(b, l, pair as i64 * 16, kk as i64 * 16);
                for h in 0..2 {
                    let n = pair * 2 + h;
                    let r = self.mma(a, [&f[2 * h], &f[2 * h + 1]], &c[n * 4..n * 4 + 4]);
                    c[n * 4..n * 4 + 4].clone_from_slice(&r);
                }
            }
        }
    }

    /// Packs C fragments (16 rows × 16·k columns) into A operands.
    pub(super) fn pack_a(&mut self, c: &[V]) -> Vec<[V; 4]> {
        (0..c.len() / 8)
            .map(|kk| {
                [
                    self.pack(&c[(2 * kk) * 4], &c[(2 * kk) * 4 + 1]),
                    self.pack(&c[(2 * kk) * 4 + 2], &c[(2 * kk) * 4 + 3]),
                    self.pack(&c[(2 * kk + 1) * 4], &c[(2 * kk + 1) * 4 + 1]),
                    self.pack(&c[(2 * kk + 1) * 4 + 2], &c[(2 * kk + 1) * 4 + 3]),
                ]
            })
            .collect()
    }

    /// acc (registers, n/8 n-blocks, n the tile's width) += A (16 × 16·ka) times B from a [k][n]
    /// tile.
    pub(super) fn gemm_kn_acc(&mut self, a: &[[V; 4]], b: &Tile, l: &Lanes, acc: &V) {
        self.gemm_kn_acc_cols(a, b, l, acc, 0..b.width);
    }

    /// As `gemm_kn_acc`, over columns `cols` of the tile only (multiples of 16); `acc` holds
    /// those columns' n-blocks from its index 0.
    pub(super) fn gemm_kn_acc_cols(&mut self, a: &[[V; 4]], b: &Tile, l: &Lanes, acc: &V, cols: Range<i64>) {
        let first = (cols.start / 16) as usize;
        for (kk, a) in a.iter().enumerate() {
            for pair in first..(cols.end / 16) as usize {
                let f = self.frag_b_kn(b, l, kk as i64 * 16, pair as i64 * 16);
                for h in 0..2 {
                    let n = (pair - first) * 2 + h;
                    let c: Vec<V> = (0..4).map(|e| self.get(acc, n * 4 + e)).collect();
                    let r = self.mma(a, [&f[2 * h], &f[2 * h + 1]], &c);
                    for (e, x) in r.iter().enumerate() {
                        self.set(acc, n * 4 + e, x);
                    }
                }
            }
        }
    }
}
