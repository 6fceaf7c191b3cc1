//! `attnc compile --target sm_80|sm_90a|x86-64 -o DIR`: ahead-of-time compilation of a layout's
//! plans and every kernel they need through the LLVM backend, with a manifest.
//!
//! DIR gets `plan.json` (every class's plans, the plan file `attnc run --plan` reads), one `.ptx` (GPU) or `.o`
//! (host) per distinct kernel, and `manifest.json`: for each kernel its entry point, file, spec,
//! launch configuration (GPU: grid as formulas, block, dynamic shared memory, parameters) and,
//! where ptxas is found, the registers, spills and shared memory it reports.
//!
//! A hybrid-CP layout has no fixed plan (its groups depend on the batch), but its kernels do not
//! depend on the batch: they are those of the fixed-CP plans of every power-of-two group size up
//! to `dp_cp`, and DIR gets those kernels and a manifest without plans.

#[cfg(feature = "llvm")]
use std::path::Path;
use std::path::PathBuf;
#[cfg(feature = "llvm")]
use std::time::Instant;

use anyhow::Result;
#[cfg(feature = "llvm")]
use anyhow::{Context, bail};
#[cfg(feature = "llvm")]
use attnc_compiler::back::llvm::{self, Target, ptxas};
#[cfg(feature = "llvm")]
use attnc_compiler::back::manifest::{MANIFEST_VERSION, Manifest, ManifestKernel, ManifestPlan};
use attnc_compiler::driver;
use attnc_compiler::kernel::{self, KernelSpec};
use attnc_compiler::passes::{PlanOptions, PlanSet};
#[cfg(feature = "llvm")]
use attnc_compiler::spec::Cp;
use attnc_compiler::spec::Layout;
use clap::{Args as ClapArgs, ValueEnum};

use crate::Outcome;
use crate::device::TargetArg;
use crate::spec::LayoutCommand;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    input: LayoutCommand,
    /// `cpu`: Cranelift for this machine (JIT, nothing written); `sm_80`, `sm_90a`: PTX through
    /// LLVM; `x86-64`: AVX2 object files through LLVM.
    #[arg(long, value_enum, default_value_t = TargetArg::Cpu)]
    target: TargetArg,
    /// Output directory: plans, kernels (.ptx or .o), manifest.json.
    #[arg(short = 'o', long)]
    out: Option<PathBuf>,
    /// Print a stage of every kernel to stdout (LLVM targets).
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Assemble every PTX with ptxas and record registers, spills and shared memory.
    #[arg(long)]
    ptxas: bool,
    /// Print each kernel's compile time.
    #[arg(long)]
    timings: bool,
    /// Print the kernel IR of each kernel.
    #[arg(long)]
    emit_kernel_ir: bool,
}

pub fn run(args: Args) -> Result<Outcome> {
    let Args { mut input, target, out, emit, ptxas, timings, emit_kernel_ir } = args;
    // What the GPU kernels cannot run, or a GPU cannot hold, is an error at the spec's line.
    input.spec.gpu_kernels = target.is_gpu();
    input.with_layout(|l, options| {
        if target == TargetArg::Cpu {
            return cpu(l, &options, timings, emit_kernel_ir);
        }
        #[cfg(feature = "llvm")]
        {
            let target = Target::parse(target.name()).expect("clap's target names are the backend's");
            let request = Request { layout: l, target, options, out: out.as_deref(), emit, timings, ptxas };
            compile(&request)
        }
        #[cfg(not(feature = "llvm"))]
        {
            let _ = (out, emit, ptxas);
            anyhow::bail!("--target {}: this attnc was built without the LLVM backend (feature `llvm`)", target.name())
        }
    })
}

/// The plan sets whose kernels the layout needs (forward and backward) and those kernels; a
/// layout that does not plan is reported here.
fn kernel_plans(layout: &Layout, options: &PlanOptions) -> Result<(Vec<PlanSet>, Vec<KernelSpec>), Outcome> {
    let options = PlanOptions { backward: true, verify: false, ..options.clone() };
    match driver::kernel_plan_sets(layout, &options) {
        Ok(sets) => {
            let specs = kernel::specs_of_plans(sets.iter().flat_map(PlanSet::plans));
            Ok((sets, specs))
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(Outcome::InputErrors)
        }
    }
}

/// `attnc compile`: every kernel the layout's plans need, JIT-compiled.
fn cpu(layout: &Layout, options: &PlanOptions, timings: bool, emit_ir: bool) -> Result<Outcome> {
    let specs = match kernel_plans(layout, options) {
        Ok((_, specs)) => specs,
        Err(outcome) => return Ok(outcome),
    };
    let jit = attnc_compiler::back::cranelift::Jit::new();
    let mut total = 0.0;
    for spec in &specs {
        let compiled = jit.get(spec).map_err(|e| anyhow::anyhow!("{e}"))?;
        total += compiled.compile_time.as_secs_f64();
        if emit_ir {
            print!("{}", kernel::print(spec));
        }
        if timings {
            println!("{:<48} {:>8.1} ms", spec.name(), compiled.compile_time.as_secs_f64() * 1e3);
        }
    }
    println!("{} kernels compiled for the cpu in {:.1} ms", specs.len(), total * 1e3);
    Ok(Outcome::Clean)
}

/// `--emit`: a stage of every kernel.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// The kernel IR of each kernel.
    KernelIr,
    /// The LLVM IR as lowered.
    LlvmIr,
    /// The LLVM IR after optimisation.
    OptimizedIr,
    /// PTX (GPU targets).
    Ptx,
    /// x86 assembly (host target).
    Asm,
}

#[cfg(feature = "llvm")]
pub struct Request<'a> {
    pub layout: &'a Layout,
    pub target: Target,
    /// The THD batch (and `--for`), for fixed-CP thd layouts.
    pub options: PlanOptions,
    pub out: Option<&'a Path>,
    pub emit: Option<Emit>,
    pub timings: bool,
    /// Assemble each PTX with ptxas and record its resources in the manifest.
    pub ptxas: bool,
}

#[cfg(feature = "llvm")]
pub fn compile(r: &Request) -> Result<Outcome> {
    let wall = Instant::now();
    let planned =
        crate::progress::spin(format!("planning layout `{}`", r.layout.name), || kernel_plans(r.layout, &r.options));
    let (sets, specs) = match planned {
        Ok(planned) => planned,
        Err(outcome) => return Ok(outcome),
    };
    let plan_s = wall.elapsed().as_secs_f64();
    let outputs = crate::progress::spin(format!("compiling {} kernels for {}", specs.len(), r.target.name()), || {
        compile_kernels(&specs, r.target)
    })?;
    let compile_s = wall.elapsed().as_secs_f64();

    if let Some(emit) = r.emit {
        for (name, spec, out) in &outputs {
            let text = match emit {
                Emit::KernelIr => spec.map(|s| kernel::print(&s)).unwrap_or_else(|| format!("kernel {name} (merge)\n")),
                Emit::LlvmIr => out.llvm_ir.clone(),
                Emit::OptimizedIr => out.optimized_ir.clone(),
                Emit::Ptx if r.target.is_gpu() => out.asm.clone(),
                Emit::Asm if !r.target.is_gpu() => out.asm.clone(),
                Emit::Ptx | Emit::Asm => bail!("--emit: {} writes {}", r.target.name(), r.target.asm_ext()),
            };
            print!("{text}");
        }
    }

    let kernels = kernel_records(&outputs, r.target, r.ptxas, r.timings)?;
    if let Some(dir) = r.out {
        std::fs::create_dir_all(dir).with_context(|| format!("-o {}", dir.display()))?;
        let mut plans = Vec::new();
        // A hybrid layout's plans depend on the batch: only its kernels are written.
        let fixed = if matches!(r.layout.cp, Cp::Hybrid { .. }) { None } else { sets.first() };
        // One plan file, the format of `attnc plan --emit json`, which `attnc run --plan` reads.
        if let Some(set) = fixed {
            let file = "plan.json";
            std::fs::write(dir.join(file), serde_json::to_string_pretty(&set.file())?)
                .with_context(|| format!("writing {file}"))?;
            for (i, class) in set.classes.iter().enumerate() {
                for (which, plan) in
                    std::iter::once(("forward", &class.forward)).chain(class.backward.iter().map(|b| ("backward", b)))
                {
                    plans.push(ManifestPlan {
                        class: i,
                        layers: class.layers.clone(),
                        strategy: class.strategy.name().to_string(),
                        hierarchy: plan.header.hierarchy.clone(),
                        mask: attnc_compiler::passes::mask_name(class.mask),
                        pass: which.to_string(),
                        file: file.to_string(),
                    });
                }
            }
        }
        write_kernels(dir, &outputs, &kernels, r.target)?;
        let manifest = Manifest {
            version: MANIFEST_VERSION,
            target: r.target.name().to_string(),
            layout: Some(r.layout.name.clone()),
            plans,
            kernels,
        };
        std::fs::write(dir.join("manifest.json"), serde_json::to_string_pretty(&manifest)?)
            .context("writing manifest.json")?;
    }
    let total = wall.elapsed().as_secs_f64();
    if r.timings {
        println!(
            "plans {:.1} ms, kernels {:.1} ms, total wall {:.1} ms",
            plan_s * 1e3,
            (compile_s - plan_s) * 1e3,
            total * 1e3
        );
    }
    if r.emit.is_none() {
        println!(
            "{} kernels for {}{}",
            outputs.len(),
            r.target.name(),
            r.out.map(|d| format!(" in {}", d.display())).unwrap_or_default()
        );
    }
    Ok(Outcome::Clean)
}

/// A compiled kernel: its name, its spec (`None` for the merge kernel) and the backend's output.
#[cfg(feature = "llvm")]
pub type Compiled = (String, Option<KernelSpec>, llvm::Output);

/// Compiles `specs` (and, for GPU targets, the merge kernel of each value head dim and the strided add
/// kernel the device executor sums with) for `target`, each kernel in its own LLVM context, one
/// worker per core; results in order.
#[cfg(feature = "llvm")]
pub fn compile_kernels(specs: &[KernelSpec], target: Target) -> Result<Vec<Compiled>> {
    // (spec, head dim): a spec's kernel; (None, d > 0): the merge kernel of d; (None, 0): add2d.
    let mut jobs: Vec<(Option<KernelSpec>, u32)> = specs.iter().map(|s| (Some(*s), s.head_dim)).collect();
    if target.is_gpu() {
        // Merges fold partial outputs: rows of the value head dim.
        let mut dims: Vec<u32> = specs.iter().map(|s| s.dv()).collect();
        dims.sort();
        dims.dedup();
        jobs.extend(dims.into_iter().map(|d| (None, d)));
        jobs.push((None, 0));
    }
    use rayon::prelude::*;
    jobs.par_iter()
        .map(|&(spec, d)| {
            let out = match (spec, d) {
                (Some(s), _) => llvm::compile(&s, target),
                (None, 0) => llvm::compile_add2d(target),
                (None, d) => llvm::compile_merge(d, target),
            }?;
            Ok((out.entry.clone(), spec, out))
        })
        .collect()
}

/// The manifest's record of each kernel (assembled by ptxas for its resources when asked).
#[cfg(feature = "llvm")]
pub fn kernel_records(outputs: &[Compiled], target: Target, ptxas: bool, timings: bool) -> Result<Vec<ManifestKernel>> {
    let ptxas_path = if ptxas && target.is_gpu() {
        Some(ptxas::find().context("--ptxas: no ptxas (run scripts/setup, or set ATTNC_PTXAS)")?)
    } else {
        None
    };
    let mut kernels = Vec::new();
    for (name, spec, out) in outputs {
        let file = format!("{name}.{}", if target.is_gpu() { "ptx" } else { "o" });
        let resources = match &ptxas_path {
            Some(p) => Some(ptxas::assemble(p, &out.asm, target).with_context(|| format!("ptxas on {name}"))?),
            None => None,
        };
        kernels.push(ManifestKernel {
            name: name.clone(),
            entry: out.entry.clone(),
            file,
            spec: *spec,
            launch: out.launch.clone(),
            resources: resources.unwrap_or_default(),
            compile_s: Some(out.timings),
        });
        if timings {
            let t = out.timings;
            println!(
                "{name:<52} lower {:>6.2} ms  parse {:>6.2} ms  optimise {:>6.2} ms  codegen {:>6.2} ms",
                t.lower_s * 1e3,
                t.parse_s * 1e3,
                t.optimize_s * 1e3,
                t.codegen_s * 1e3
            );
        }
    }
    Ok(kernels)
}

/// Writes each kernel's PTX (or object) into `dir` under its record's file name.
#[cfg(feature = "llvm")]
pub fn write_kernels(dir: &Path, outputs: &[Compiled], records: &[ManifestKernel], target: Target) -> Result<()> {
    for ((_, _, out), k) in outputs.iter().zip(records) {
        let file = &k.file;
        match &out.object {
            Some(obj) if !target.is_gpu() => std::fs::write(dir.join(file), obj),
            _ => std::fs::write(dir.join(file), &out.asm),
        }
        .with_context(|| format!("writing {file}"))?;
    }
    Ok(())
}
