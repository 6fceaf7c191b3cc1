//! Tensor maps for `cp.async.bulk.tensor` (the Tensor Memory Accelerator, PTX ISA 9.7.9.25):
//! what the CUDA driver's `cuTensorMapEncodeTiled` takes — a global tensor of up to five
//! dimensions (sizes and byte strides), the element size, the box a copy moves, the shared-memory
//! swizzle and the fill of out-of-bounds elements — checked as the driver documents it, and
//! encoded in 128 bytes. The driver's `CUtensorMap` layout is opaque, so the interpreter uses its
//! own ([`TensorMap::encode`]); a kernel receives either as a 128-byte `.param` (a grid constant)
//! and only `cp.async.bulk.tensor` reads it.
//!
//! In tile mode a copy at coordinates `c` (innermost first) moves the box `c .. c + box` of the
//! tensor into shared memory row-major (the innermost dimension contiguous); elements outside the
//! tensor are filled with zeros (or a float NaN), and the whole box always counts as transaction
//! bytes. With a swizzle of 32, 64 or 128 bytes, the 16-byte chunk `j` of each 128-byte row `r`
//! lands at chunk `j ^ (r % 2, 4 or 8)` (CUTLASS CuTe's `Swizzle<1,4,3>`, `<2,4,3>`, `<3,4,3>`:
//! address bits 4.. XOR bits 7..), and the box's inner dimension spans at most the swizzle's bytes.

/// The shared-memory swizzle of a tensor map (`CU_TENSOR_MAP_SWIZZLE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    None,
    B32,
    B64,
    B128,
}

impl Swizzle {
    /// The swizzle's span in bytes (none: unbounded).
    pub fn bytes(self) -> Option<usize> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(32),
            Swizzle::B64 => Some(64),
            Swizzle::B128 => Some(128),
        }
    }

    /// Byte offset `o` of a box laid out row-major, as the swizzle places it.
    pub fn apply(self, o: usize) -> usize {
        let bits = match self {
            Swizzle::None => return o,
            Swizzle::B32 => 1,
            Swizzle::B64 => 3,
            Swizzle::B128 => 7,
        };
        o ^ (((o >> 7) & bits) << 4)
    }

    fn code(self) -> u8 {
        self as u8
    }

    fn of(code: u8) -> Option<Swizzle> {
        [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128].get(code as usize).copied()
    }
}

/// A tiled tensor map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The tensor's global address (16-byte aligned).
    pub base: u64,
    /// Element size in bytes (1, 2, 4 or 8).
    pub elem_bytes: u32,
    /// Sizes, innermost first (1 to 5 of them).
    pub dims: Vec<u64>,
    /// Byte strides of dimensions 1.. (dimension 0's elements are contiguous): multiples of 16.
    pub strides: Vec<u64>,
    /// The box a copy moves, innermost first (each 1 ..= 256).
    pub box_dims: Vec<u32>,
    pub swizzle: Swizzle,
    /// Out-of-bounds elements are NaN (floats) rather than zero.
    pub oob_nan: bool,
}

const MAGIC: &[u8; 4] = b"TMAP";

impl TensorMap {
    /// The checks `cuTensorMapEncodeTiled` makes (CUDA driver API documentation), as an error
    /// naming the field.
    pub fn check(&self) -> Result<(), String> {
        let rank = self.dims.len();
        if !(1..=5).contains(&rank) || self.box_dims.len() != rank || self.strides.len() + 1 != rank {
            return Err(format!(
                "a tensor map of {rank} dimensions needs as many box sizes and {} strides",
                rank.saturating_sub(1)
            ));
        }
        if !matches!(self.elem_bytes, 1 | 2 | 4 | 8) {
            return Err(format!("element size {}: 1, 2, 4 or 8 bytes", self.elem_bytes));
        }
        if self.base % 16 != 0 {
            return Err(format!("global address {:#x}: 16-byte aligned", self.base));
        }
        if let Some(s) = self.strides.iter().find(|&&s| s % 16 != 0 || s >= 1 << 40) {
            return Err(format!("global stride {s}: a multiple of 16 below 2^40"));
        }
        if let Some(b) = self.box_dims.iter().find(|&&b| b == 0 || b > 256) {
            return Err(format!("box size {b}: 1 ..= 256"));
        }
        let inner = self.box_dims[0] as usize * self.elem_bytes as usize;
        if inner % 16 != 0 {
            return Err(format!("the box's inner dimension is {inner} bytes: a multiple of 16"));
        }
        if let Some(span) = self.swizzle.bytes()
            && inner > span
        {
            return Err(format!("the box's inner dimension is {inner} bytes, over the {span}-byte swizzle"));
        }
        Ok(())
    }

    /// Bytes one copy moves (the whole box).
    pub fn box_bytes(&self) -> usize {
        self.box_dims.iter().map(|&b| b as usize).product::<usize>() * self.elem_bytes as usize
    }

    /// The 128 bytes a kernel receives.
    pub fn encode(&self) -> [u8; 128] {
        let mut out = [0u8; 128];
        out[..4].copy_from_slice(MAGIC);
        out[4] = self.dims.len() as u8;
        out[5] = self.elem_bytes as u8;
        out[6] = self.swizzle.code();
        out[7] = self.oob_nan as u8;
        out[8..16].copy_from_slice(&self.base.to_le_bytes());
        for (i, d) in self.dims.iter().enumerate() {
            out[16 + 8 * i..24 + 8 * i].copy_from_slice(&d.to_le_bytes());
        }
        for (i, s) in self.strides.iter().enumerate() {
            out[56 + 8 * i..64 + 8 * i].copy_from_slice(&s.to_le_bytes());
        }
        for (i, b) in self.box_dims.iter().enumerate() {
            out[88 + 4 * i..92 + 4 * i].copy_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// A tensor map from its 128 bytes ([`TensorMap::encode`]'s), checked.
    pub fn decode(bytes: &[u8]) -> Result<TensorMap, String> {
        if bytes.len() < 128 || &bytes[..4] != MAGIC {
            return Err("not a tensor map this interpreter encoded (TensorMap::encode)".to_string());
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let rank = bytes[4] as usize;
        if !(1..=5).contains(&rank) {
            return Err(format!("a tensor map of {rank} dimensions"));
        }
        let map = TensorMap {
            base: u64_at(8),
            elem_bytes: bytes[5] as u32,
            dims: (0..rank).map(|i| u64_at(16 + 8 * i)).collect(),
            strides: (0..rank - 1).map(|i| u64_at(56 + 8 * i)).collect(),
            box_dims: (0..rank)
                .map(|i| u32::from_le_bytes(bytes[88 + 4 * i..92 + 4 * i].try_into().expect("4 bytes")))
                .collect(),
            swizzle: Swizzle::of(bytes[6]).ok_or_else(|| format!("swizzle code {}", bytes[6]))?,
            oob_nan: bytes[7] != 0,
        };
        map.check()?;
        Ok(map)
    }

    /// The global address of the element at `coords` (innermost first), or `None` outside the
    /// tensor.
    pub fn address(&self, coords: &[i64]) -> Option<u64> {
        let mut at = self.base;
        for (k, (&c, &d)) in coords.iter().zip(&self.dims).enumerate() {
            if c < 0 || c as u64 >= d {
                return None;
            }
            let stride = if k == 0 { self.elem_bytes as u64 } else { self.strides[k - 1] };
            at += c as u64 * stride;
        }
        Some(at)
    }

    /// Each element of the box at `coords`: its byte offset in the box's shared-memory image
    /// (row-major, swizzled) and its global address (`None` outside the tensor).
    fn elements<'a>(&'a self, coords: &'a [i64]) -> impl Iterator<Item = (usize, Option<u64>)> + 'a {
        let e = self.elem_bytes as usize;
        let count = self.box_dims.iter().map(|&b| b as usize).product::<usize>();
        (0..count).map(move |linear| {
            let mut rest = linear;
            let index: Vec<i64> = self
                .box_dims
                .iter()
                .zip(coords)
                .map(|(&b, &c)| {
                    let i = c + (rest % b as usize) as i64;
                    rest /= b as usize;
                    i
                })
                .collect();
            (self.swizzle.apply(linear * e), self.address(&index))
        })
    }

    /// The bytes of the box at `coords` as they land in shared memory (swizzled), reading global
    /// memory through `read`.
    pub fn load_box(&self, coords: &[i64], read: impl Fn(u64, usize) -> Option<Vec<u8>>) -> Result<Vec<u8>, String> {
        let e = self.elem_bytes as usize;
        let mut out = vec![0u8; self.box_bytes()];
        let fill: Vec<u8> = match (self.oob_nan, e) {
            (true, 2) => 0x7fffu16.to_le_bytes().to_vec(),
            (true, 4) => f32::NAN.to_bits().to_le_bytes().to_vec(),
            (true, 8) => f64::NAN.to_bits().to_le_bytes().to_vec(),
            _ => vec![0; e],
        };
        for (at, global) in self.elements(coords) {
            let bytes = match global {
                Some(g) => {
                    read(g, e).ok_or_else(|| format!("the tensor map's element at {g:#x} is outside global memory"))?
                }
                None => fill.clone(),
            };
            out[at..at + e].copy_from_slice(&bytes);
        }
        Ok(out)
    }

    /// Writes the box at `coords` from its shared-memory image `data` (swizzled) into the
    /// tensor through `write`: elements outside the tensor are not written.
    pub fn store_box(
        &self,
        coords: &[i64],
        data: &[u8],
        mut write: impl FnMut(u64, &[u8]) -> Option<()>,
    ) -> Result<(), String> {
        let e = self.elem_bytes as usize;
        for (at, global) in self.elements(coords) {
            if let Some(g) = global {
                write(g, &data[at..at + e])
                    .ok_or_else(|| format!("the tensor map's element at {g:#x} is outside global memory"))?;
            }
        }
        Ok(())
    }
}
