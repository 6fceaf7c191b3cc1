//! Tensors in and out: safetensors files, the layout formats (sbhd, bshd, thd), dtype rounding
//! and seeded random inputs.
//!
//! Inside the runtime every tensor is canonical: fp32 `[batch][tokens][heads][d]` over the
//! plan's padded token axis, and LSE `[batch][heads][tokens]`. This module converts between that
//! and the user's format; it knows nothing of plans beyond the problem's sizes.

use std::collections::BTreeMap;
use std::path::Path;

use attnc_compiler::ir::Problem;
use attnc_compiler::spec::Dtype;
use rand::{Rng, SeedableRng};
pub use safetensors::tensor::Dtype as StDtype;
use safetensors::tensor::TensorView;

use crate::RuntimeError;

/// One tensor of a file: its shape, the dtype it was stored in, and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct HostTensor {
    pub shape: Vec<usize>,
    pub dtype: StDtype,
    pub values: Values,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    Float(Vec<f32>),
    Int(Vec<i32>),
}

impl HostTensor {
    pub fn float(shape: Vec<usize>, dtype: StDtype, values: Vec<f32>) -> HostTensor {
        HostTensor { shape, dtype, values: Values::Float(values) }
    }

    pub fn int(shape: Vec<usize>, values: Vec<i32>) -> HostTensor {
        HostTensor { shape, dtype: StDtype::I32, values: Values::Int(values) }
    }
}

/// Rounds a value to the layout's input dtype (and back to f32).
pub fn round(dtype: Dtype, x: f32) -> f32 {
    match dtype {
        Dtype::Fp32 => x,
        Dtype::Bf16 => half::bf16::from_f32(x).to_f32(),
        Dtype::Fp16 => half::f16::from_f32(x).to_f32(),
    }
}

pub fn st_dtype(dtype: Dtype) -> StDtype {
    match dtype {
        Dtype::Fp32 => StDtype::F32,
        Dtype::Bf16 => StDtype::BF16,
        Dtype::Fp16 => StDtype::F16,
    }
}

pub fn read_file(path: &Path) -> Result<BTreeMap<String, HostTensor>, RuntimeError> {
    let io = |e: String| RuntimeError::Input { name: path.display().to_string(), message: e };
    let bytes = std::fs::read(path).map_err(|e| io(e.to_string()))?;
    let file = safetensors::SafeTensors::deserialize(&bytes).map_err(|e| io(format!("not a safetensors file: {e}")))?;
    let mut out = BTreeMap::new();
    for name in file.names() {
        let view = file.tensor(name).map_err(|e| io(e.to_string()))?;
        let data = view.data();
        let values = match view.dtype() {
            // Tensor data sits at any offset of the file: `pod_collect_to_vec` copies it aligned.
            StDtype::F32 => Values::Float(bytemuck::pod_collect_to_vec(data)),
            StDtype::BF16 => Values::Float(
                bytemuck::pod_collect_to_vec::<u8, u16>(data)
                    .into_iter()
                    .map(|b| half::bf16::from_bits(b).to_f32())
                    .collect(),
            ),
            StDtype::F16 => Values::Float(
                bytemuck::pod_collect_to_vec::<u8, u16>(data)
                    .into_iter()
                    .map(|b| half::f16::from_bits(b).to_f32())
                    .collect(),
            ),
            StDtype::I32 => Values::Int(bytemuck::pod_collect_to_vec(data)),
            StDtype::I64 => {
                Values::Int(bytemuck::pod_collect_to_vec::<u8, i64>(data).into_iter().map(|x| x as i32).collect())
            }
            other => {
                return Err(RuntimeError::Input {
                    name: name.to_string(),
                    message: format!("dtype {other:?} is not supported (use F32, BF16, F16 or I32)"),
                });
            }
        };
        out.insert(name.to_string(), HostTensor { shape: view.shape().to_vec(), dtype: view.dtype(), values });
    }
    Ok(out)
}

pub fn write_file(path: &Path, tensors: &BTreeMap<String, HostTensor>) -> Result<(), RuntimeError> {
    let mut encoded: Vec<(String, StDtype, Vec<usize>, Vec<u8>)> = Vec::new();
    for (name, t) in tensors {
        let bytes: Vec<u8> = match (&t.values, t.dtype) {
            (Values::Float(v), StDtype::BF16) => {
                let bits: Vec<u16> = v.iter().map(|&x| half::bf16::from_f32(x).to_bits()).collect();
                bytemuck::cast_slice(&bits).to_vec()
            }
            (Values::Float(v), StDtype::F16) => {
                let bits: Vec<u16> = v.iter().map(|&x| half::f16::from_f32(x).to_bits()).collect();
                bytemuck::cast_slice(&bits).to_vec()
            }
            (Values::Float(v), _) => bytemuck::cast_slice(v).to_vec(),
            (Values::Int(v), _) => bytemuck::cast_slice(v).to_vec(),
        };
        let dtype = if matches!(t.values, Values::Int(_)) { StDtype::I32 } else { t.dtype };
        encoded.push((name.clone(), dtype, t.shape.clone(), bytes));
    }
    let mut views = Vec::new();
    for (name, dtype, shape, bytes) in &encoded {
        let view = TensorView::new(*dtype, shape.clone(), bytes)
            .map_err(|e| RuntimeError::Output { name: name.clone(), message: e.to_string() })?;
        views.push((name.clone(), view));
    }
    let out = safetensors::serialize(views, None)
        .map_err(|e| RuntimeError::Output { name: path.display().to_string(), message: e.to_string() })?;
    std::fs::write(path, out)
        .map_err(|e| RuntimeError::Output { name: path.display().to_string(), message: e.to_string() })
}

/// How the user's tensors are laid out.
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    Sbhd,
    Bshd,
    /// Packed sequences; `cu_seqlens` are the real lengths' offsets in the user's tensors, and
    /// `padded` whether those tensors already carry the plan's per-sequence padding.
    Thd {
        cu_seqlens: Vec<u64>,
        padded: bool,
    },
}

/// The full problem's tensors in canonical form.
#[derive(Clone, Debug, PartialEq)]
pub struct Canonical {
    pub q: Vec<f32>,
    pub k: Vec<f32>,
    pub v: Vec<f32>,
    /// The output gradient, for backward.
    pub d_out: Option<Vec<f32>>,
    /// Learned sinks (fp32, `[heads]` of the slice), when the problem has them.
    pub sinks: Option<Vec<f32>>,
    /// The score's learned parameters (fp32, `[heads of the slice][params]`), when the model
    /// declares them.
    pub params: Option<Vec<f32>>,
    /// The model's query head of the slice's first head (tensor parallelism: the TP rank times
    /// the heads per rank), which a score that reads `h` counts from.
    pub head_offset: u32,
}

/// Sizes of the canonical tensors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dims {
    pub batch: usize,
    pub tokens: usize,
    pub heads: usize,
    pub kv_heads: usize,
    /// The last dimension of q, k, dq and dk.
    pub head_dim: usize,
    /// The last dimension of v, o, do and dv (MLA's differs from `head_dim`).
    pub v_head_dim: usize,
}

impl Dims {
    pub fn of(p: &Problem) -> Dims {
        Dims {
            batch: p.batch as usize,
            tokens: p.tokens as usize,
            heads: p.heads as usize,
            kv_heads: p.kv_heads as usize,
            head_dim: p.head_dim as usize,
            v_head_dim: p.v_dim() as usize,
        }
    }
}

/// The last dimension of the tensor `name`: `v_head_dim` for v, o, do and dv, `head_dim` for the
/// others.
pub fn width_of(problem: &Problem, name: &str) -> usize {
    match name {
        "v" | "o" | "do" | "dv" => problem.v_dim() as usize,
        _ => problem.head_dim as usize,
    }
}

/// For THD: the canonical (padded) row of each user row, or of each real token.
fn thd_rows(problem: &Problem, layout: &Layout) -> Vec<usize> {
    let Layout::Thd { padded, .. } = layout else { return Vec::new() };
    if *padded {
        return (0..problem.tokens as usize).collect();
    }
    problem.docs.iter().flat_map(|d| (d.start..d.start + d.len).map(|t| t as usize)).collect()
}

/// The user's shape of a `[.., heads, d]` tensor (`d` from [`width_of`]).
pub fn user_shape(problem: &Problem, layout: &Layout, heads: usize, d: usize) -> Vec<usize> {
    let (b, s) = (problem.batch as usize, problem.tokens as usize);
    match layout {
        Layout::Sbhd => vec![s, b, heads, d],
        Layout::Bshd => vec![b, s, heads, d],
        Layout::Thd { .. } => vec![thd_rows(problem, layout).len(), heads, d],
    }
}

/// The learned sinks of a run: fp32 (or any float), shape `[heads]` — the query heads of the
/// slice the run computes (all of the model's at tp = 1).
pub fn sinks_of(problem: &Problem, t: &HostTensor) -> Result<Vec<f32>, RuntimeError> {
    let input = |message: String| RuntimeError::Input { name: "sinks".to_string(), message };
    if !problem.sinks {
        return Err(input("is given, but the model has no learned sinks (add `sinks = learned` to it)".into()));
    }
    if t.shape != [problem.heads as usize] {
        return Err(input(format!(
            "has shape {:?}, the layout needs [{}] (one logit per query head)",
            t.shape, problem.heads
        )));
    }
    floats(t, input)
}

/// The learned score parameters of a run: fp32 (or any float), shape `[heads, params]` — the
/// query heads of the slice, the model's `params = [...]` in declaration order.
pub fn params_of(problem: &Problem, t: &HostTensor) -> Result<Vec<f32>, RuntimeError> {
    let input = |message: String| RuntimeError::Input { name: "params".to_string(), message };
    let Some(score) = problem.score.filter(|s| s.has_params()) else {
        return Err(input(
            "is given, but the model's score has no learned parameters (declare them: `params = [NAME]`, read as `NAME[h]`)"
                .into(),
        ));
    };
    let want = [problem.heads as usize, score.params.len()];
    if t.shape != want {
        return Err(input(format!(
            "has shape {:?}, the layout needs {want:?} (per query head: {})",
            t.shape,
            score.param_names.join(", ")
        )));
    }
    floats(t, input)
}

/// A float tensor's values (`input` names the tensor in the error of an integer one).
fn floats(t: &HostTensor, input: impl Fn(String) -> RuntimeError) -> Result<Vec<f32>, RuntimeError> {
    match &t.values {
        Values::Float(v) => Ok(v.clone()),
        Values::Int(_) => Err(input("is an integer tensor; expected floats".into())),
    }
}

/// Converts one user tensor to canonical order (padding rows zero).
pub fn to_canonical(
    problem: &Problem,
    layout: &Layout,
    name: &str,
    t: &HostTensor,
    heads: usize,
) -> Result<Vec<f32>, RuntimeError> {
    let d = width_of(problem, name);
    let want = user_shape(problem, layout, heads, d);
    if t.shape != want {
        return Err(RuntimeError::Input {
            name: name.to_string(),
            message: format!("has shape {:?}, the layout needs {:?}", t.shape, want),
        });
    }
    let Values::Float(values) = &t.values else {
        return Err(RuntimeError::Input {
            name: name.to_string(),
            message: "is an integer tensor; expected floats".into(),
        });
    };
    let (b, s) = (problem.batch as usize, problem.tokens as usize);
    let row = heads * d;
    let mut out = vec![0.0f32; b * s * row];
    match layout {
        Layout::Sbhd => {
            for si in 0..s {
                for bi in 0..b {
                    let src = (si * b + bi) * row;
                    out[(bi * s + si) * row..][..row].copy_from_slice(&values[src..src + row]);
                }
            }
        }
        Layout::Bshd => out.copy_from_slice(values),
        Layout::Thd { .. } => {
            for (user, canonical) in thd_rows(problem, layout).into_iter().enumerate() {
                out[canonical * row..][..row].copy_from_slice(&values[user * row..][..row]);
            }
        }
    }
    Ok(out)
}

/// Converts the canonical tensor `name` back to the user's layout (padding rows dropped when
/// unpadded).
pub fn from_canonical(
    problem: &Problem,
    layout: &Layout,
    name: &str,
    values: &[f32],
    heads: usize,
) -> (Vec<usize>, Vec<f32>) {
    let (b, s, d) = (problem.batch as usize, problem.tokens as usize, width_of(problem, name));
    let row = heads * d;
    let shape = user_shape(problem, layout, heads, d);
    let out = match layout {
        Layout::Sbhd => {
            let mut out = vec![0.0; values.len()];
            for si in 0..s {
                for bi in 0..b {
                    out[(si * b + bi) * row..][..row].copy_from_slice(&values[(bi * s + si) * row..][..row]);
                }
            }
            out
        }
        Layout::Bshd => values.to_vec(),
        Layout::Thd { .. } => {
            thd_rows(problem, layout).into_iter().flat_map(|c| values[c * row..][..row].to_vec()).collect()
        }
    };
    (shape, out)
}

/// LSE `[b][h][tokens]` in the user's form: `[b, h, s]`, or `[h, t]` for THD.
pub fn lse_from_canonical(problem: &Problem, layout: &Layout, lse: &[f32]) -> (Vec<usize>, Vec<f32>) {
    let (b, h, s) = (problem.batch as usize, problem.heads as usize, problem.tokens as usize);
    match layout {
        Layout::Thd { .. } => {
            let rows = thd_rows(problem, layout);
            let out = (0..h).flat_map(|hi| rows.iter().map(move |&t| lse[hi * s + t]).collect::<Vec<_>>()).collect();
            (vec![h, rows.len()], out)
        }
        _ => (vec![b, h, s], lse.to_vec()),
    }
}

/// Unit-normal inputs from a seed, rounded to the layout's dtype; padding rows are zero.
pub fn random(problem: &Problem, seed: u64, backward: bool) -> Canonical {
    let dims = Dims::of(problem);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut tensor = |heads: usize, d: usize| -> Vec<f32> {
        let mut out = Vec::with_capacity(dims.batch * dims.tokens * heads * d);
        for _ in 0..dims.batch {
            for t in 0..dims.tokens as u64 {
                let doc = problem.doc_of(t);
                let pad = t >= doc.start + doc.len;
                for _ in 0..heads * d {
                    let x: f32 = rng.sample(rand_distr::StandardNormal);
                    out.push(if pad { 0.0 } else { round(problem.dtype, x) });
                }
            }
        }
        out
    };
    let q = tensor(dims.heads, dims.head_dim);
    let k = tensor(dims.kv_heads, dims.head_dim);
    let v = tensor(dims.kv_heads, dims.v_head_dim);
    let d_out = backward.then(|| tensor(dims.heads, dims.v_head_dim));
    // Sinks of the order of the scores' LSE, so that they weigh in: N(1, 1).
    let sinks = problem
        .sinks
        .then(|| (0..dims.heads).map(|_| 1.0 + rng.sample::<f32, _>(rand_distr::StandardNormal)).collect());
    // Learned score parameters: N(0, 0.01²), of the order of a distance bias's slope or a
    // temperature's logarithm, so that scores stay of the order of the inputs' over a few
    // thousand tokens.
    let params = problem.score.filter(|s| s.has_params()).map(|s| {
        (0..dims.heads * s.params.len()).map(|_| 0.01 * rng.sample::<f32, _>(rand_distr::StandardNormal)).collect()
    });
    Canonical { q, k, v, d_out, sinks, params, head_offset: 0 }
}
