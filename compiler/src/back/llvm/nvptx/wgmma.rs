//! `wgmma.mma_async.m64nNk16` on the warpgroup (sm_90a, PTX ISA 9.7.15): shared-memory matrix
//! descriptors and the S = QKᵀ and O += PV products of the Hopper forward.

use super::*;

impl Gen {
    /// S = Q Kᵀ on the warpgroup with `wgmma.mma_async.m64n{bn}k16`: Q fragments from registers
    /// (ldmatrix, as on sm_80), Kᵀ from shared memory through a matrix descriptor (K-major, no
    /// swizzle: core matrices of 8 keys × 16 bytes, 128 bytes apart along the head, d·16 bytes
    /// apart along the keys).
    pub(super) fn wgmma_scores(&mut self, q: &Tile, kt: &Tile, ids: &Ids, l: &Lanes, bn: i64) -> Vec<V> {
        let d = self.d;
        let n_out = (bn / 2) as usize; // bn·64 / 128 floats per thread.
        let warp_row = self.f.bin("mul", &ids.warp, &i64c(16));
        let mut acc: Vec<V> = vec![f32c(0.0); n_out];
        self.f.op("call void asm sideeffect \"wgmma.fence.sync.aligned;\", \"~{memory}\"()");
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        for kk in 0..d / 16 {
            let a = self.frag_a(q, l, &warp_row, kk * 16);
            // Descriptor of the 16-column slab kk of Kᵀ: start, LBO (along K) 128 B, SBO (along N).
            let off = self.offset(kt, &i64c(0), &i64c(kk * 16));
            let p = self.smem_at(kt, &off);
            let desc = self.descriptor(&p, 128, d * 16);
            acc = self.wgmma(
                &format!("wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{dt}.{dt}"),
                &a,
                &desc,
                &acc,
                kk > 0,
                false,
            );
            if d > 128 {
                // An async wgmma keeps its A registers until it completes: at head_dim 256 waiting
                // only at the end would hold all 16 slabs of Q fragments (64 registers).
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
    pub(super) fn wgmma_pv(&mut self, p: &[V], vt: &Tile, acc: &V, bn: i64) {
        let d = vt.width;
        let dt = if self.spec.dtype == Dtype::Fp16 { "f16" } else { "bf16" };
        let n_acc = (d / 2) as usize;
        let mut c: Vec<V> = (0..n_acc).map(|i| self.get(acc, i)).collect();
        self.f.op("call void asm sideeffect \"wgmma.fence.sync.aligned;\", \"~{memory}\"()");
        for kk in 0..(bn / 16) as usize {
            let a = [
                self.pack(&p[(2 * kk) * 4], &p[(2 * kk) * 4 + 1]),
                self.pack(&p[(2 * kk) * 4 + 2], &p[(2 * kk) * 4 + 3]),
                self.pack(&p[(2 * kk + 1) * 4], &p[(2 * kk + 1) * 4 + 1]),
                self.pack(&p[(2 * kk + 1) * 4 + 2], &p[(2 * kk + 1) * 4 + 3]),
            ];
            let off = self.offset(vt, &i64c(kk as i64 * 16), &i64c(0));
            let ptr = self.smem_at(vt, &off);
            // Along K (keys) core matrices are d·16 bytes apart; along N (head) 128 bytes.
            let desc = self.descriptor(&ptr, d * 16, 128);
            c = self.wgmma(
                &format!("wgmma.mma_async.sync.aligned.m64n{d}k16.f32.{dt}.{dt}"),
                &a,
                &desc,
                &c,
                true,
                true,
            );
        }
        self.f.op("call void asm sideeffect \"wgmma.commit_group.sync.aligned;\", \"~{memory}\"()");
        self.f.op("call void asm sideeffect \"wgmma.wait_group.sync.aligned 0;\", \"~{memory}\"()");
        for (i, x) in c.iter().enumerate() {
            self.set(acc, i, x);
        }
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

    /// One `wgmma` with A from registers (4 packed pairs), B by descriptor, `c` accumulated.
    pub(super) fn wgmma(&mut self, op: &str, a: &[V; 4], desc: &V, c: &[V], accumulate: bool, trans_b: bool) -> Vec<V> {
        let n = c.len();
        let outs: Vec<String> = (0..n).map(|i| format!("${i}")).collect();
        let ins_a: Vec<String> = (0..4).map(|i| format!("${}", n + i)).collect();
        let scale_d = if accumulate { 1 } else { 0 };
        let text = format!(
            "{op} {{{}}}, {{{}}}, ${}, {scale_d}, 1, 1, {};",
            outs.join(", "),
            ins_a.join(", "),
            n + 4,
            if trans_b { 1 } else { 0 }
        );
        let mut constraints: Vec<String> = (0..n).map(|_| "=f".to_string()).collect();
        constraints.extend((0..4).map(|_| "r".to_string()));
        constraints.push("l".into());
        constraints.extend((0..n).map(|i| i.to_string()));
        let ty = format!("{{{}}}", vec!["float"; n].join(", "));
        let mut args: Vec<String> = a.iter().map(|x| x.t()).collect();
        args.push(desc.t());
        args.extend(c.iter().map(|x| x.t()));
        let r = self.f.let_(
            &ty,
            format!("call {ty} asm sideeffect \"{text}\", \"{}\"({})", constraints.join(","), args.join(", ")),
        );
        (0..n).map(|i| self.f.let_("float", format!("extractvalue {ty} {}, {i}", r.name))).collect()
    }
}
