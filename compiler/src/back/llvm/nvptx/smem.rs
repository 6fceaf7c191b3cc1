//! Shared memory: swizzled (sm_80) and core-matrix (sm_90a wgmma) tiles, `cp.async` loads of
//! K/V tiles, and `ldmatrix` fragments with their lane coordinates (PTX ISA 9.7.9.25 `ldmatrix`).

use super::*;

impl Gen {
    /// Byte offset of element (row, col) of a tile, col a multiple of 8.
    pub(super) fn offset(&mut self, tile: &Tile, row: &V, col: &V) -> V {
        let d = tile.width;
        let f = &mut self.f;
        if tile.core {
            // Core matrices of 8 rows × 16 bytes, contiguous; (row/8, col/8) in row-major order.
            let rb = f.bin("lshr", row, &i64c(3));
            let cb = f.bin("lshr", col, &i64c(3));
            let cm = f.bin("mul", &rb, &i64c(d / 8));
            let cm = f.bin("add", &cm, &cb);
            let cm = f.bin("mul", &cm, &i64c(128));
            let r8 = f.bin("and", row, &i64c(7));
            let r8 = f.bin("mul", &r8, &i64c(16));
            f.bin("add", &cm, &r8)
        } else {
            let rb = f.bin("mul", row, &i64c(2 * d));
            let ch = f.bin("lshr", col, &i64c(3));
            let sw = f.bin("and", row, &i64c(7));
            let ch = f.bin("xor", &ch, &sw);
            let ch = f.bin("mul", &ch, &i64c(16));
            f.bin("add", &rb, &ch)
        }
    }

    pub(super) fn smem_at(&mut self, tile: &Tile, off: &V) -> V {
        self.f.gep("i8", &tile.base, off)
    }

    /// Issues `cp.async` copies of `rows` rows (16-bit elements, `d` per row) starting at global
    /// row `start` (of `len` valid rows; the rest is zero-filled) into `tile`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_tile(&mut self, ids: &Ids, tile: &Tile, src: &V, row_stride: &V, start: &V, len: &V, rows: i64) {
        let d = tile.width;
        let per_thread = rows * d / 8 / THREADS as i64;
        for i in 0..per_thread {
            let c = self.f.bin("add", &ids.tid, &i64c(i * THREADS as i64));
            let row = self.f.bin("udiv", &c, &i64c(d / 8));
            let ch = self.f.bin("urem", &c, &i64c(d / 8));
            let col = self.f.bin("mul", &ch, &i64c(8));
            let off = self.offset(tile, &row, &col);
            let dst = self.smem_at(tile, &off);
            let f = &mut self.f;
            let r = f.bin("add", start, &row);
            let ok = f.icmp("slt", &r, len);
            let size = f.select(&ok, &i32c(16), &i32c(0));
            let r = f.select(&ok, &r, &i64c(0));
            let at = f.bin("mul", &r, row_stride);
            let at = f.bin("add", &at, &col);
            let s = f.gep("i16", src, &at);
            f.call_void("llvm.nvvm.cp.async.cg.shared.global.16.s", &[&dst, &s, &size]);
        }
    }

    pub(super) fn ldmatrix(&mut self, tile: &Tile, row: &V, col: &V, trans: bool) -> [V; 4] {
        let off = self.offset(tile, row, col);
        let p = self.smem_at(tile, &off);
        let name = if trans {
            "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.trans.b16.p3"
        } else {
            "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16.p3"
        };
        let ty = "{i32, i32, i32, i32}";
        let r = self.f.call(ty, name, &[&p]);
        [0, 1, 2, 3].map(|i| self.f.let_("i32", format!("extractvalue {} {}, {i}", ty, r.name)))
    }

    /// ldmatrix.x4 with lane addresses `row = row_sel·8 + lane % 8 + row0`, `col = col_sel·8 + col0`
    /// (`row_sel`, `col_sel`: one bit each of the lane's matrix index).
    pub(super) fn frag(&mut self, tile: &Tile, l: &Lanes, rows: (bool, &V), cols: (bool, &V), trans: bool) -> [V; 4] {
        let pick = |hi: bool| if hi { l.mi_hi.clone() } else { l.mi_lo.clone() };
        let r = self.f.bin("mul", &pick(rows.0), &i64c(8));
        let r = self.f.bin("add", &r, &l.mj);
        let r = self.f.bin("add", &r, rows.1);
        let c = self.f.bin("mul", &pick(cols.0), &i64c(8));
        let c = self.f.bin("add", &c, cols.1);
        self.ldmatrix(tile, &r, &c, trans)
    }

    /// A-operand fragments (16 rows × 16 columns at `row0`, `col0`) of a row-major tile.
    pub(super) fn frag_a(&mut self, tile: &Tile, l: &Lanes, row0: &V, col0: i64) -> [V; 4] {
        self.frag(tile, l, (false, row0), (true, &i64c(col0)), false)
    }

    /// B-operand fragments of two n-blocks from a row-major [n][k] tile (n rows at `n0`, k at `k0`).
    pub(super) fn frag_b_nk(&mut self, tile: &Tile, l: &Lanes, n0: i64, k0: i64) -> [V; 4] {
        self.frag(tile, l, (true, &i64c(n0)), (false, &i64c(k0)), false)
    }

    /// B-operand fragments of two n-blocks from a row-major [k][n] tile (ldmatrix.trans).
    pub(super) fn frag_b_kn(&mut self, tile: &Tile, l: &Lanes, k0: i64, n0: i64) -> [V; 4] {
        self.frag(tile, l, (false, &i64c(k0)), (true, &i64c(n0)), true)
    }

    /// A-operand fragments of the transpose of a row-major [k][m] tile: rows m at `m0`, k at `k0`.
    pub(super) fn frag_a_t(&mut self, tile: &Tile, l: &Lanes, m0: &V, k0: i64) -> [V; 4] {
        self.frag(tile, l, (true, &i64c(k0)), (false, m0), true)
    }

    pub(super) fn lanes(&mut self, ids: &Ids) -> Lanes {
        let mi = self.f.bin("lshr", &ids.lane, &i64c(3));
        let mj = self.f.bin("and", &ids.lane, &i64c(7));
        let mi_lo = self.f.bin("and", &mi, &i64c(1));
        let mi_hi = self.f.bin("lshr", &mi, &i64c(1));
        Lanes { mi_lo, mi_hi, mj }
    }
}
