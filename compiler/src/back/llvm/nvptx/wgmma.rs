//! `wgmma.mma_async.m64nNk16` on the warpgroup (sm_90a, PTX ISA 9.7.15): shared-memory matrix
//! descriptors and the S = QKᵀ and O += PV products of the Hopper forward.
//!
//! Each batch of `wgmma.mma_async` is one inline-asm block that starts with its `wgmma.fence`
//! (`batch`): the ISA (9.7.15.7.1) asks for the fence between any other access to an accumulator
//! or A-fragment register and the `wgmma` that uses it, and a fence of its own would let LLVM
//! place the fragments' `ldmatrix`, the accumulators' zeroing and the copies of tied operands
//! after it. As operands of the block they are all written before it.

use super::*;

/// The forward's K steps per batch of S = QKᵀ: an async wgmma keeps its A registers until it
/// completes, so above head_dim 128 each slab is its own batch, waited for before the next (at
/// 256 one batch would hold all 16 slabs of Q fragments, 64 registers); up to 128 one batch.
pub(super) fn scores_batch(d: i64) -> i64 {
    if d > 128 { 1 } else { d / 16 }
}

impl Gen {
    /// S = Q Kᵀ on the warpgroup with `wgmma.mma_async.m64n{bn}k16`: Q fragments from registers
    /// (ldmatrix, as on sm_80), Kᵀ from shared memory through a matrix descriptor (K-major, no
    /// swizzle: core matrices of 8 keys × 16 bytes, 128 bytes apart along the head, d·16 bytes
    /// apart along the keys). Any A·Bᵀ of 64 rows of `q` by `bn` rows of `kt` over their common
    /// width: the backward's Sᵀ = K Qᵀ and dPᵀ = V dOᵀ too.
    /// `per_batch` K steps form one batch (their A fragments live together), waited for before
    /// the next: [`scores_batch`] in the forward.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn wgmma_scores(
        &mut self,
        q: &Tile,
        kt: &Tile,
        ids: &Ids,
        l: &Lanes,
        bn: i64,
        per_batch: i64,
    ) -> Vec<V> {
        let d = q.width;
        let n_out = (bn / 2) as usize; // bn·64 / 128 floats per thread.
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let mut acc: Vec<V> = vec![f32c(0.0); n_out];
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        let op = format!("wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{dt}.{dt}");
        for first in (0..d / 16).step_by(per_batch as usize) {
            let mut steps = Vec::new();
            for kk in first..first + per_batch {
                let a = self.frag_a(q, l, &warp_row, kk * 16);
                // Descriptor of the 16-column slab kk of Kᵀ: start, LBO (along K) 128 B, SBO (along N).
                let off = self.offset(kt, &i64c(0), &i64c(kk * 16));
                let p = self.smem_at(kt, &off);
                let desc = self.descriptor(&p, 128, d * 16);
                steps.push(Wgmma { a: WgA::Regs(a), desc, accumulate: kk > 0, trans_b: false });
            }
            acc = self.batch(&op, &steps, &acc);
            if per_batch < d / 16 {
                self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
                self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
            }
        }
        self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
        self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
        acc
    }

    /// O += P V on the warpgroup: P packed from the score registers, V (keys × value head, the
    /// head contiguous: MN-major, transposed B) through a descriptor; N is the value head dim.
    /// Any C += P·B of 64 rows of P (accumulator layout) by `bn` rows of `vt`: the backward's
    /// dV += Pᵀ dO and dK += dSᵀ Q too.
    pub(super) fn wgmma_pv(&mut self, p: &[V], vt: &Tile, acc: &V, bn: i64) {
        let d = vt.width;
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        let n_acc = (d / 2) as usize;
        let c: Vec<V> = (0..n_acc).map(|i| self.get(acc, i)).collect();
        let mut steps = Vec::new();
        for kk in 0..(bn / 16) as usize {
            let a = self.pack_pv(p, kk);
            let off = self.offset(vt, &i64c(kk as i64 * 16), &i64c(0));
            let ptr = self.smem_at(vt, &off);
            // Along K (keys) core matrices are d·16 bytes apart; along N (head) 128 bytes.
            let desc = self.descriptor(&ptr, d * 16, 128);
            steps.push(Wgmma { a: WgA::Regs(a), desc, accumulate: true, trans_b: true });
        }
        let c = self.batch(&format!("wgmma.mma_async.sync.aligned.m64n{d}k16.f32.{dt}.{dt}"), &steps, &c);
        self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
        self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
        for (i, x) in c.iter().enumerate() {
            self.set(acc, i, x);
        }
    }

    /// The A fragments of P·V's K step `kk` (keys 16·kk..): P's score registers packed in pairs.
    pub(super) fn pack_pv(&mut self, p: &[V], kk: usize) -> [V; 4] {
        [
            self.pack(&p[(2 * kk) * 4], &p[(2 * kk) * 4 + 1]),
            self.pack(&p[(2 * kk) * 4 + 2], &p[(2 * kk) * 4 + 3]),
            self.pack(&p[(2 * kk + 1) * 4], &p[(2 * kk + 1) * 4 + 1]),
            self.pack(&p[(2 * kk + 1) * 4 + 2], &p[(2 * kk + 1) * 4 + 3]),
        ]
    }

    /// A shared-memory matrix descriptor: address, leading and stride byte offsets (no swizzle).
    pub(super) fn descriptor(&mut self, p: &V, lbo: i64, sbo: i64) -> V {
        let f = &mut self.f;
        let a = f.cast("ptrtoint", p, "i64");
        let a = f.bin("and", &a, &i64c(0x3FFFF));
        let a = f.bin("lshr", &a, &i64c(4));
        let hi = ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
        f.bin("or", &a, &i64c(hi))
    }

    /// A batch: `wgmma.fence`, then one `wgmma.mma_async` `op` per step (A from registers, 4
    /// packed pairs, or by descriptor; B by descriptor) into the accumulators `c`, in one
    /// inline-asm block whose operands are every step's A and B and the accumulators (tied).
    pub(super) fn batch(&mut self, op: &str, steps: &[Wgmma], c: &[V]) -> Vec<V> {
        let n = c.len();
        let outs: Vec<String> = (0..n).map(|i| format!("${i}")).collect();
        let mut text = String::from("wgmma.fence.sync.aligned;");
        let mut constraints: Vec<String> = (0..n).map(|_| "=f".to_string()).collect();
        let mut args: Vec<String> = Vec::new();
        for step in steps {
            let first = n + args.len();
            let (a, scale_and_trans_a) = match &step.a {
                WgA::Regs(a) => {
                    constraints.extend((0..4).map(|_| "r".to_string()));
                    args.extend(a.iter().map(|x| x.t()));
                    let regs: Vec<String> = (0..4).map(|j| format!("${}", first + j)).collect();
                    (format!("{{{}}}", regs.join(", ")), "1, 1")
                }
                WgA::Desc(d) => {
                    constraints.push("l".into());
                    args.push(d.t());
                    (format!("${first}"), "1, 1, 0")
                }
            };
            text.push_str(&format!(
                "\n\t{op} {{{}}}, {a}, ${}, {}, {scale_and_trans_a}, {};",
                outs.join(", "),
                n + args.len(),
                step.accumulate as u8,
                step.trans_b as u8
            ));
            constraints.push("l".into());
            args.push(step.desc.t());
        }
        constraints.extend((0..n).map(|i| i.to_string()));
        args.extend(c.iter().map(|x| x.t()));
        let ty = format!("{{{}}}", vec!["float"; n].join(", "));
        let r = self.f.let_(
            &ty,
            format!(
                "call {ty} asm sideeffect \"{text}\", \"{},~{{memory}}\"({})",
                constraints.join(","),
                args.join(", ")
            ),
        );
        (0..n).map(|i| self.f.let_("float", format!("extractvalue {ty} {}, {i}", r.name))).collect()
    }
}

/// A `wgmma.mma_async`'s A operand: fragments in registers (4 packed pairs) or a shared-memory
/// matrix descriptor (K-major).
pub(super) enum WgA {
    Regs([V; 4]),
    Desc(V),
}

/// One `wgmma.mma_async` of a batch: its A operand, B's descriptor, whether it
/// adds to the accumulators (scale-d) and whether B is transposed (MN-major).
pub(super) struct Wgmma {
    pub a: WgA,
    pub desc: V,
    pub accumulate: bool,
    pub trans_b: bool,
}
