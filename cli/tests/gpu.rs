//! The GPU commands on a machine without a GPU (CI): what runs without a device runs here —
//! NCCL's version from the library scripts/setup installs, the no-driver errors, `attnc launch`,
//! the matrix through the emulated GPU ABI, ahead-of-time kernel directories, and
//! scripts/gpu-check.sh end to end on the emulated GPU ABI.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn attnc_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_attnc"));
    c.args(args).current_dir(root());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("attnc runs")
}

fn check_env(args: &[&str], env: &[(&str, &str)], code: i32, stdout_has: &[&str], stderr_has: &str) -> String {
    let out = attnc_env(args, env);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(code), "attnc {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    for s in stdout_has {
        assert!(stdout.contains(s), "attnc {args:?}: stdout lacks {s:?}:\n{stdout}");
    }
    assert!(stderr.contains(stderr_has), "attnc {args:?}: stderr lacks {stderr_has:?}:\n{stderr}");
    stdout.to_string()
}

fn check(args: &[&str], code: i32, stdout_has: &[&str], stderr_has: &str) -> String {
    check_env(args, &[], code, stdout_has, stderr_has)
}

/// The lib directory of the NCCL that scripts/setup installs under .tools/.
fn nccl_lib() -> PathBuf {
    let tools = root().join(".tools");
    let dir = std::fs::read_dir(&tools)
        .ok()
        .and_then(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("nccl-")))
        })
        .unwrap_or_else(|| panic!("no NCCL under {}: run scripts/setup", tools.display()));
    dir.join("nvidia/nccl/lib")
}

fn no_driver() -> bool {
    !Path::new("/dev/nvidiactl").exists()
}

#[test]
fn devices_reports_the_driver_and_nccls_version() {
    let lib = nccl_lib();
    let stdout = check_env(&["devices"], &[("LD_LIBRARY_PATH", lib.to_str().unwrap())], 0, &["CUDA driver: "], "");
    assert!(stdout.lines().any(|l| l.starts_with("NCCL: 2.")), "{stdout}");
    if no_driver() {
        assert!(stdout.contains("CUDA driver: none (no CUDA driver found: libcuda.so could not be loaded"), "{stdout}");
        check_env(
            &["devices", "--nccl-test"],
            &[("LD_LIBRARY_PATH", lib.to_str().unwrap())],
            2,
            &[],
            "error: --nccl-test needs a CUDA driver",
        );
    }
}

#[test]
fn cuda_runs_without_a_driver_are_clear_errors() {
    if !no_driver() {
        return;
    }
    let run = [
        "run",
        "dsl-examples/llama3_8b_128k.attn",
        "--layout",
        "pretrain",
        "--set",
        "pretrain.seq=512",
        "--set",
        "llama3_8b.head_dim=64",
        "--device",
        "cuda",
    ];
    check(&run, 2, &[], "error: --device cuda: no CUDA driver found: ");
    let mut kernels_only = run.to_vec();
    let n = kernels_only.len();
    kernels_only[n - 2..].copy_from_slice(&["--kernels", "cuda"]);
    check(&kernels_only, 2, &[], "error: --kernels cuda: no CUDA driver found: ");
    // Every strategy runs with all ranks on one GPU; without a driver that is the error.
    let mut a2a = run.to_vec();
    a2a.extend(["--set", "pretrain.strategy=a2a"]);
    check(&a2a, 2, &[], "error: --device cuda: no CUDA driver found: ");
    check(&["bench", "kernels", "--kernels", "cuda"], 2, &[], "error: --kernels cuda: no CUDA driver found: ");
    check(&["matrix", "--kernels", "cuda"], 2, &[], "no CUDA driver found: ");
}

#[test]
fn launch_starts_ranks_with_torchruns_environment() {
    let script = "echo rank=$RANK local=$LOCAL_RANK world=$WORLD_SIZE master=$MASTER_ADDR:$MASTER_PORT";
    let stdout = check(
        &[
            "launch",
            "--nproc-per-node",
            "2",
            "--nnodes",
            "2",
            "--node-rank",
            "1",
            "--master-port",
            "29611",
            "--",
            "sh",
            "-c",
            script,
        ],
        0,
        &[],
        "",
    );
    let mut lines: Vec<&str> = stdout.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        ["rank=2 local=0 world=4 master=127.0.0.1:29611", "rank=3 local=1 world=4 master=127.0.0.1:29611"]
    );
    // Ranks that print at once print whole lines: a line written in two parts by each of two ranks
    // comes out as two lines, never as one interleaved line (the CI failure of stop 26).
    let halves = "printf \"rank $RANK begins \"; sleep 0.3; echo \"and ends\"; printf \"err $RANK \" >&2; sleep 0.3; echo \"done\" >&2";
    let out = attnc_env(&["launch", "--nproc-per-node", "2", "--", "sh", "-c", halves], &[]);
    assert_eq!(out.status.code(), Some(0));
    let sorted = |b: &[u8]| {
        let mut lines: Vec<String> = String::from_utf8_lossy(b).lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&out.stdout), ["rank 0 begins and ends", "rank 1 begins and ends"]);
    assert_eq!(sorted(&out.stderr), ["err 0 done", "err 1 done"]);
    check(
        &["launch", "--nproc-per-node", "3", "--", "sh", "-c", "exit $((RANK == 1))"],
        1,
        &[],
        "error: rank 1 failed",
    );
    check(&["launch", "--nproc-per-node", "1", "--", "/nonexistent/program"], 2, &[], "starting rank 0");
    // `attnc launch` of `attnc run --device cuda` on a cp = 2 ring (or a2a) plan.
    let launched = |n: &str, port: &str, extra: &[&str], code: i32, stderr_has: &str| {
        let mut args = vec!["launch", "--nproc-per-node", n, "--master-port", port, "--", env!("CARGO_BIN_EXE_attnc")];
        args.extend(["run", "dsl-examples/llama3_8b_128k.attn", "--layout", "pretrain", "--device", "cuda"]);
        args.extend(["--set", "pretrain.seq=512", "--set", "pretrain.cp=2"]);
        args.extend(extra);
        check(&args, code, &[], stderr_has);
    };
    // A job whose size is not the plan's CP size is refused by every rank before any device call.
    launched("3", "29612", &[], 1, "error: WORLD_SIZE is 3, but the plan has cp = 2: start one process per CP rank");
    // Under launch, each rank needs its GPU (LOCAL_RANK): without a driver, every rank says so.
    launched("2", "29614", &["--set", "pretrain.strategy=a2a"], 1, "error: --device cuda: no CUDA driver found: ");
}

#[test]
fn matrix_through_the_emulated_gpu_abi() {
    check(
        &["matrix", "--kernels", "gpu-emulated", "--filter", "cp2 a2a"],
        0,
        &[
            "ok    cp2 a2a causal bshd",
            "ok    cp2 a2a causal { chunk = 6 } bshd",
            "fp16 sinks softcap 2",
            "ok    cp2 a2a padding_causal { window = 6 } thd h8/1 d8/v16",
            "ok    cp2 a2a k <= q | k < 5 bshd",
            // A band no named mask is, in the cells of a regional mask.
            "ok    cp2 a2a k < 2 | (q - k < 4 & k - q < 3) sbhd",
            // A mask that is no band, tested per pair in the score code.
            "ok    cp2 a2a k <= q & q - k < 7 & q + k >= 5 & (q - k < 3 | (q - k) % 3 != 1) thd",
            // Learned score parameters: their values per head, their gradients (`dparams`).
            "ok    cp2 a2a causal { window = 7 } bshd h8/8 d8 bf16 sinks score s * exp(temp[h]) - slope[h] * (q - k)",
            "17 passed, 0 failed",
        ],
        "",
    );
    check(&["matrix", "--kernels", "reference", "--filter", "cp3 p2p"], 0, &["fp32", "12 passed, 0 failed"], "");
    // A generated host kernel set goes through the same executor on the host device.
    check(&["matrix", "--kernels", "cranelift", "--filter", "cp2 a2a"], 0, &["fp32", "17 passed, 0 failed"], "");
    // Every strategy.
    check(
        &["matrix", "--kernels", "gpu-emulated", "--filter", "cp4 "],
        0,
        &[
            "ok    cp4 p2p padding_causal thd",
            "ok    cp4 a2a+p2p { hierarchy = [2, 2] } none sbhd",
            "68 passed, 0 failed in",
        ],
        "",
    );
}

/// `attnc kernels` writes every kernel the GPU matrix needs; the runtime's reader accepts the
/// directory and finds each of them.
#[test]
fn ahead_of_time_kernels_for_the_gpu_matrix() {
    let dir = std::env::temp_dir().join(format!("attnc-gpu-kernels-{}", std::process::id()));
    let out = dir.to_str().unwrap();
    check(&["kernels", "--target", "sm_80", "-o", out, "--bench-head-dims", "128"], 0, &["kernels for sm_80 in"], "");
    let kdir = attnc_runtime::kernel_dir::KernelDir::open(&dir).unwrap();
    assert!(kdir.len() >= 20, "{} kernels", kdir.len());
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    for k in manifest["kernels"].as_array().unwrap() {
        let name = k["name"].as_str().unwrap();
        let ptx = std::fs::read_to_string(dir.join(k["file"].as_str().unwrap())).unwrap();
        assert!(ptx.contains(&format!(".entry {name}")), "{name}");
        let grid: Vec<&str> = k["launch"]["grid"].as_array().unwrap().iter().map(|g| g.as_str().unwrap()).collect();
        kdir.get(name, [grid[0], grid[1], grid[2]]).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// scripts/gpu-check.sh end to end without a GPU (`GPU_CHECK_EMULATE=1`): every step but NCCL's
/// runs, on the emulated GPU kernel ABI on the host device, and the summary
/// table names each; a missing binary is a clear error.
#[test]
fn gpu_check_script_runs_end_to_end_emulated() {
    let out_dir = std::env::temp_dir().join(format!("attnc-gpu-check-{}", std::process::id()));
    let run = |bin: &str| {
        Command::new("bash")
            .arg("scripts/gpu-check.sh")
            .current_dir(root())
            .env("GPU_CHECK_EMULATE", "1")
            .env("GPU_CHECK_FILTER", "cp2 a2a")
            .env("ATTNC_BIN", bin)
            .env("OUT", &out_dir)
            .output()
            .expect("bash runs")
    };
    let out = run(env!("CARGO_BIN_EXE_attnc"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let summary = std::fs::read_to_string(out_dir.join("summary.txt")).unwrap();
    let rows: Vec<(&str, &str)> = summary
        .lines()
        .map(|l| (l.split_whitespace().next().unwrap_or(""), l.split_whitespace().nth(1).unwrap_or("")))
        .collect();
    assert_eq!(
        rows,
        [
            ("devices", "ok"),
            ("nccl", "skipped"),
            ("matrix", "ok"),
            ("ring", "ok"),
            ("bench", "ok"),
            ("ws-matrix", "skipped"),
            ("ws-bench", "skipped"),
            ("sdpa", "ok")
        ],
        "{summary}"
    );
    assert!(summary.contains("17 passed, 0 failed"), "{summary}");
    for step in ["devices", "matrix", "ring", "bench"] {
        assert!(out_dir.join(format!("{step}.log")).exists(), "no {step}.log");
    }
    assert!(stdout.contains("fwd      gpu-emulated"), "{stdout}");
    // PyTorch's SDPA on the CPU in emulation, in the table of `bench kernels --kernels cuda`.
    let sdpa = std::fs::read_to_string(out_dir.join("sdpa.log")).unwrap();
    assert!(sdpa.contains("fwd       256   64      1    true") && sdpa.contains("torch-sdpa"), "{sdpa}");
    let missing = run("/nonexistent/attnc");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/attnc is missing"));
    std::fs::remove_dir_all(&out_dir).unwrap();
}

/// A deliberate fault written into a kernel's PTX.
type Fault = fn(&str) -> String;

/// `--kernels ptx-sim`: the kernels `attnc kernels` writes for sm_80 and for sm_90a (wgmma) run
/// the GPU numerics matrix on the PTX interpreter (every mask and format, fp16 and bf16, GQA 1, 4
/// and 8 at cp 2, head dim 64; causal, window and chunk at head dim 128), through the same executor
/// and launches a GPU run makes; and a kernel directory with one deliberate fault — a `bar.sync`
/// deleted, an `ldmatrix .trans` made plain, a `cp.async.wait_group` removed (sm_80), the
/// `fence.proxy.async` before wgmma removed, the `wgmma.fence` of each batch removed (sm_90a) —
/// fails.
#[test]
fn ptx_sim_runs_the_gpu_matrix_and_catches_faulty_kernels() {
    let base = std::env::temp_dir().join(format!("attnc-ptx-sim-{}", std::process::id()));
    let matrix = |kdir: &str, head_dim: &str, filter: &str, code: i32, has: &[&str]| {
        check(
            &["matrix", "--kernels", "ptx-sim", "--kernel-dir", kdir, "--head-dim", head_dim, "--filter", filter],
            code,
            has,
            "",
        )
    };
    for target in ["sm_80", "sm_90a", "sm_90a-ws"] {
        for d in ["64", "128"] {
            // sm_90a-ws differs in its forward kernels only: the head dim 64 half of the matrix
            // (and the models: head ranges move its tensor maps' bases) runs them.
            if target == "sm_90a-ws" && d == "128" {
                continue;
            }
            let dir = base.with_extension(format!("{target}-d{d}"));
            let out = dir.to_str().unwrap();
            check(
                &["kernels", "--target", target, "-o", out, "--matrix-head-dim", d, "--bench-head-dims", d],
                0,
                &[&format!("kernels for {target} in")],
                "",
            );
            if d == "64" {
                // An imported model's softmax scale (Gemma-3-27B's 168^-1/2) and both its RoPEs (10K
                // on the sliding layers, 1M with linear scaling on the full ones) through this PTX.
                let gemma = "dsl-examples/imported/gemma3_27b.attn";
                let sets = [
                    "pretrain.seq=256",
                    "pretrain.cp=2",
                    "pretrain.mask=causal { window = 48 }",
                    "gemma3_27b.heads=2",
                    "gemma3_27b.kv_heads=1",
                    "gemma3_27b.head_dim=64",
                ];
                let gemma_dir = dir.with_extension("gemma");
                let gemma_out = gemma_dir.to_str().unwrap();
                let mut compile = vec!["compile", gemma, "--layout", "pretrain", "--target", target, "-o", gemma_out];
                let mut run = vec!["run", gemma, "--layout", "pretrain", "--backward", "--check", "--rope", "apply"];
                run.extend(["--kernels", "ptx-sim", "--kernel-dir", gemma_out]);
                for set in sets {
                    compile.extend(["--set", set]);
                    run.extend(["--set", set]);
                }
                check(&compile, 0, &[], "");
                let checked = check(&run, 0, &["check against fp64"], "");
                assert!(!checked.contains("FAIL") && checked.matches("  o  ").count() == 2, "{target}:\n{checked}");
                // A mask that reads the head under Ulysses: each rank's heads split into a
                // two-sided and a windowed class (heads 4..7 on rank 1: 4, 5 see `-7 <= q - k <
                // 40`, 6, 7 a causal window of 40), each launched over its own heads.
                let per_head = "dsl-examples/per_head_window.attn";
                let sets = [
                    "ulysses.seq=256",
                    "ulysses.cp=2",
                    "ulysses.mask=(h < 6 | k <= q) & q - k < 40 & k - q < 8",
                    "local_global.heads=8",
                    "local_global.kv_heads=4",
                    "local_global.head_dim=64",
                ];
                let heads_dir = dir.with_extension("heads");
                let heads_out = heads_dir.to_str().unwrap();
                let mut compile = vec!["compile", per_head, "--layout", "ulysses", "--target", target, "-o", heads_out];
                let mut run = vec!["run", per_head, "--layout", "ulysses", "--backward", "--check"];
                run.extend(["--kernels", "ptx-sim", "--kernel-dir", heads_out]);
                for set in sets {
                    compile.extend(["--set", set]);
                    run.extend(["--set", set]);
                }
                check(&compile, 0, &[], "");
                let checked = check(&run, 0, &["check against fp64"], "");
                assert!(!checked.contains("FAIL") && checked.contains("  dv  "), "{target} per-head:\n{checked}");
                for d in [gemma_dir, heads_dir] {
                    std::fs::remove_dir_all(d).unwrap();
                }
                matrix(
                    out,
                    d,
                    "cp2 p2p",
                    0,
                    &[
                        "ok    cp2 p2p padding_causal { window = 6 } thd",
                        "ok    cp2 p2p padding_causal { chunk = 5 } thd",
                        "ok    cp2 p2p k <= q | k < 5 bshd",
                        "ok    cp2 p2p k < 3 | q < 2 | (k <= q & q - k < 5) thd",
                        "ok    cp2 p2p k < 2 | (q - k < 4 & k - q < 3) sbhd",
                        // A mask that is no band, tested in the kernels' score code (rows that see
                        // nothing: the backward's −∞ LSE guard).
                        "ok    cp2 p2p k <= q & q - k < 7 & q + k >= 5 & (q - k < 3 | (q - k) % 3 != 1) thd",
                        "sinks softcap 2",
                        // Learned score parameters: the warp sums and atomics of their gradients.
                        "sinks score s * exp(temp[h]) - slope[h] * (q - k)",
                        // The long case: the kernels' rings of stages reloaded.
                        "ok    cp2 p2p causal sbhd h2/1 d64 bf16 long",
                        "18 passed, 0 failed",
                    ],
                );
                // `bench kernels --kernels ptx-sim`: the interpreter's instructions per second.
                let args = ["bench", "kernels", "--kernels", "ptx-sim", "--kernel-dir", out, "--head-dim", d];
                let more = ["--seq", "128", "--heads", "1", "--causal", "true", "--json"];
                let json = check(&[&args[..], &more[..]].concat(), 0, &[], "");
                let rows: Vec<serde_json::Value> = json.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
                assert_eq!(rows.len(), 2, "{json}");
                for (row, kernel) in rows.iter().zip(["fwd", "bwd"]) {
                    assert_eq!(row["kernel"], kernel, "{json}");
                    assert!(row["instructions"].as_u64().unwrap() > 100_000, "{json}");
                    assert!(row["minstr_per_s"].as_f64().unwrap() > 0.0, "{json}");
                }
            } else {
                matrix(
                    out,
                    d,
                    "cp2 p2p causal",
                    0,
                    &[
                        "ok    cp2 p2p causal { window = 5 } sbhd",
                        "ok    cp2 p2p causal { chunk = 6 } bshd",
                        // The score expression's PTX (tanh, exp, a division by an expression, positions).
                        " score 2 * tanh(s / 2) + s / 4 - exp(s / 3 - 2) / (1 + s * s / 8) + log(1 + s * s / 8) / 4 - alibi(h, 8) * (q - k) - log(1 + q - k) / 8 + k / 64",
                        "sinks score s * exp(temp[h]) - slope[h] * (q - k)",
                        "ok    cp2 p2p causal sbhd h2/1 d128 bf16 long",
                        "7 passed, 0 failed",
                    ],
                );
            }
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    // Each fault in every forward kernel of a directory, caught by the matrix's cases: a short
    // one, or the long one where only a ring of stages reloaded shows the fault.
    let (short, long) = ("cp2 p2p none sbhd", "cp2 p2p causal sbhd h2/1 d64 bf16 long");
    let faults: [(&str, &str, &str, Fault); 12] = [
        // The barrier between the tile loads (each thread's cp.async) and the reads of the whole
        // tile (ldmatrix): the last bar.sync of the kernel's loop.
        ("sm_80", "bar.sync deleted", short, |ptx: &str| match ptx.rfind("bar.sync \t0;") {
            Some(i) => format!("{}{}", &ptx[..i], &ptx[i + "bar.sync \t0;".len()..]),
            None => ptx.to_string(),
        }),
        // The end-of-loop barrier (the first in the text): between a stage's last read and its
        // next load, which only a loop longer than the ring reaches.
        ("sm_80", "end-of-loop bar.sync deleted", long, |ptx: &str| ptx.replacen("bar.sync \t0;", "", 1)),
        ("sm_80", "ldmatrix .trans made plain", short, |ptx: &str| {
            ptx.replace(".x4.trans.shared.b16", ".x4.shared.b16")
        }),
        ("sm_80", "cp.async.wait_group removed", short, |ptx: &str| ptx.replacen("cp.async.wait_group 0;", "", 1)),
        // The tiles cp.async wrote reach wgmma (the async proxy) only through this fence.
        ("sm_90a", "fence.proxy.async removed", short, |ptx: &str| ptx.replace("fence.proxy.async.shared::cta;", "")),
        // The register ordering before each batch of wgmma.mma_async (PTX ISA 9.7.15.7.1).
        ("sm_90a", "wgmma.fence removed", short, |ptx: &str| ptx.replace("wgmma.fence.sync.aligned;", "")),
        // The warp-specialized forward: the producer not waiting for an empty stage (its TMA
        // overwrites a stage the consumers still read), a consumer not waiting for a full one,
        // and a stage's transactions not expected.
        ("sm_90a-ws", "empty-stage wait skipped", long, |ptx: &str| skip_wait(ptx, 0)),
        ("sm_90a-ws", "full-stage wait skipped", short, |ptx: &str| skip_wait(ptx, 2)),
        ("sm_90a-ws", "full-stage wait in the loop skipped", long, |ptx: &str| skip_wait(ptx, 3)),
        ("sm_90a-ws", "expect_tx made a plain arrival", short, plain_arrivals),
        // O's boxes in shared memory reach the TMA store (the async proxy) only through each
        // writer's fence and the consumer's named barrier; whole 64-row halves, the long case.
        ("sm_90a-ws", "O-box fence.proxy.async removed", long, |ptx: &str| {
            ptx.replace("fence.proxy.async.shared::cta;", "")
        }),
        ("sm_90a-ws", "O-box barrier removed", long, |ptx: &str| {
            let kept = ptx.lines().filter(|l| !(l.contains("bar.sync") && l.trim_end().ends_with(", 128;")));
            kept.collect::<Vec<_>>().join("\n")
        }),
    ];
    for (target, what, filter, fault) in faults {
        let dir = base.with_extension(target);
        if !dir.exists() {
            let out = dir.to_str().unwrap();
            check(&["kernels", "--target", target, "-o", out, "--bench-head-dims", "64"], 0, &["kernels for"], "");
        }
        let faulty = base.with_extension(what.split_whitespace().next().unwrap());
        std::fs::create_dir_all(&faulty).unwrap();
        let mut changed = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let new = if name.starts_with("attn_fwd") { fault(&text) } else { text.clone() };
            changed += (new != text) as usize;
            std::fs::write(faulty.join(&name), new).unwrap();
        }
        assert!(changed > 0, "{what}: no kernel changed");
        let stdout = matrix(faulty.to_str().unwrap(), "64", filter, 1, &["0 passed, 1 failed"]);
        assert!(stdout.contains("FAIL"), "{what}: {stdout}");
        if target == "sm_90a" {
            // Caught by the interpreter's proxy and register-order checks, not by a wrong number.
            let caught = if what.starts_with("wgmma") { "before any wgmma.fence" } else { "no fence.proxy.async" };
            assert!(stdout.contains(caught), "{what}: {stdout}");
        }
        if target == "sm_90a-ws" {
            // Caught by the race model across the async proxy and the transaction count.
            let caught = match what {
                w if w.starts_with("empty-stage") => "a cp.async.bulk overwrites",
                w if w.starts_with("full-stage") || w == "O-box barrier removed" => "shared-memory race",
                "O-box fence.proxy.async removed" => "a cp.async.bulk store reads shared memory",
                _ => "more than expected",
            };
            assert!(stdout.contains(caught), "{what}: {stdout}");
        }
        std::fs::remove_dir_all(&faulty).unwrap();
    }
    for target in ["sm_80", "sm_90a", "sm_90a-ws"] {
        let _ = std::fs::remove_dir_all(base.with_extension(target));
    }
}

/// The PTX of a warp-specialized forward with every `mbarrier.arrive.expect_tx` a plain arrival:
/// the copies then deliver bytes no phase expects.
fn plain_arrivals(ptx: &str) -> String {
    let from = "mbarrier.arrive.expect_tx.shared::cta.b64 _, ";
    let mut out = String::new();
    let mut rest = ptx;
    while let Some(at) = rest.find(from) {
        let end = at + rest[at..].find(';').unwrap();
        let bar = &rest[at + from.len()..end];
        out.push_str(&rest[..at]);
        out.push_str(&format!("mbarrier.arrive.shared::cta.b64 _, {}", &bar[..bar.find(']').unwrap() + 1]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The PTX of a warp-specialized forward with its `i`-th mbarrier wait (0: the producer's for an
/// empty stage, 1: the consumers' for Q, 2: for the first tile's full stage, 3: for the later
/// tiles') made "done" at once: the
/// `try_wait.parity` itself removed, since it would acquire the phase whenever it happened to be
/// complete.
fn skip_wait(ptx: &str, i: usize) -> String {
    let wait = "{ .reg .pred %attnc_p; mbarrier.try_wait.parity";
    let Some((at, _)) = ptx.match_indices(wait).nth(i) else { return ptx.to_string() };
    let end = at + ptx[at..].find('}').unwrap() + 1;
    let selp = at + ptx[at..end].find("selp.b32 ").unwrap() + "selp.b32 ".len();
    let done = &ptx[selp..selp + ptx[selp..].find(',').unwrap()];
    format!("{}mov.u32 {done}, 1;{}", &ptx[..at], &ptx[end..])
}

/// Pipelines under the PTX interpreter: the matrix's blocks are one KV tile long, so a stage of
/// the kernels' rings of stages is never reloaded there. A run at 1024 tokens over cp 2 (zigzag
/// chunks of 256 rows: a forward CTA's KV loop and a backward CTA's query loop pass four tiles
/// of 64, past sm_90a-ws's three stages) passes on sm_80, sm_90a and sm_90a-ws, forward and backward; with the sm_80
/// forward's end-of-loop `bar.sync` deleted (the first in its text: the barrier between a stage's
/// last read and its next load), or sm_90a-ws's producer not waiting for an empty stage, the same
/// run fails with the interpreter's shared-memory race.
#[test]
fn ptx_sim_runs_pipelines_and_catches_a_missing_loop_barrier() {
    let base = std::env::temp_dir().join(format!("attnc-ptx-pipeline-{}", std::process::id()));
    let spec = "dsl-examples/llama3_8b_128k.attn";
    let sets = [
        "pretrain.seq=1024",
        "pretrain.cp=2",
        "pretrain.strategy=p2p",
        "llama3_8b.heads=2",
        "llama3_8b.kv_heads=1",
        "llama3_8b.head_dim=64",
    ];
    fn with_sets<'a>(mut args: Vec<&'a str>, sets: &[&'a str]) -> Vec<&'a str> {
        for set in sets {
            args.extend(["--set", set]);
        }
        args
    }
    for target in ["sm_80", "sm_90a", "sm_90a-ws"] {
        let dir = base.with_extension(target);
        let out = dir.to_str().unwrap();
        let compile = with_sets(vec!["compile", spec, "--layout", "pretrain", "--target", target, "-o", out], &sets);
        check(&compile, 0, &[&format!("kernels for {target} in")], "");
        let run = vec!["run", spec, "--layout", "pretrain", "--backward", "--check", "--kernels", "ptx-sim"];
        let run = with_sets(run, &sets);
        let run = [&run[..], &["--kernel-dir", out][..]].concat();
        let checked = check(&run, 0, &["check against fp64"], "");
        assert!(!checked.contains("FAIL") && checked.contains("  dq  "), "{target}:\n{checked}");
        if target == "sm_80" {
            let faulty = base.with_extension("sm_80-faulty");
            std::fs::create_dir_all(&faulty).unwrap();
            let mut changed = 0;
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_str().unwrap().to_string();
                let mut text = std::fs::read_to_string(&path).unwrap();
                if name.starts_with("attn_fwd")
                    && let Some(i) = text.find("bar.sync \t0;")
                {
                    text.replace_range(i..i + "bar.sync \t0;".len(), "");
                    changed += 1;
                }
                std::fs::write(faulty.join(&name), text).unwrap();
            }
            assert!(changed > 0, "no forward kernel has a bar.sync");
            let faulty_dir = faulty.to_str().unwrap();
            let run = [&run[..run.len() - 1], &[faulty_dir][..]].concat();
            check(&run, 1, &[], "shared-memory race");
            std::fs::remove_dir_all(&faulty).unwrap();
        }
        if target == "sm_90a-ws" {
            // The producer's wait for an empty stage (the first mbarrier wait in the text) made
            // "done": its TMA overwrites a stage the consumers still read.
            let faulty = base.with_extension("ws-faulty");
            std::fs::create_dir_all(&faulty).unwrap();
            let wait = "{ .reg .pred %attnc_p; mbarrier.try_wait.parity";
            let mut changed = 0;
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_str().unwrap().to_string();
                let mut text = std::fs::read_to_string(&path).unwrap();
                if let Some(at) = text.find(wait) {
                    let end = at + text[at..].find('}').unwrap() + 1;
                    let selp = at + text[at..end].find("selp.b32 ").unwrap() + "selp.b32 ".len();
                    let done = text[selp..selp + text[selp..].find(',').unwrap()].to_string();
                    text.replace_range(at..end, &format!("mov.u32 {done}, 1;"));
                    changed += 1;
                }
                std::fs::write(faulty.join(&name), text).unwrap();
            }
            assert!(changed > 0, "no warp-specialized forward kernel");
            let faulty_dir = faulty.to_str().unwrap();
            let run = [&run[..run.len() - 1], &[faulty_dir][..]].concat();
            check(&run, 1, &[], "a cp.async.bulk overwrites");
            std::fs::remove_dir_all(&faulty).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Without a GPU, `attnc run --device cuda` says so before it plans anything: every example fails
/// at once with the driver error and its help, however large its plans (DeepSeek-V3's used to
/// plan for minutes first). The time it takes is in docs/perf.md.
#[test]
fn a_missing_driver_is_reported_before_planning() {
    if !no_driver() {
        return;
    }
    let mut examples: Vec<String> = std::fs::read_dir(root().join("dsl-examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "attn"))
        .map(|p| format!("dsl-examples/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    examples.sort();
    for file in &examples {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for layout in text.split("\nlayout ").skip(1).map(|item| item.split_whitespace().next().unwrap()) {
            // No --seqlens even for THD layouts: the device comes first.
            let out = check(&["run", file, "--layout", layout, "--device", "cuda"], 2, &[], "no CUDA driver found");
            assert!(out.is_empty(), "{file} {layout}: printed before failing:\n{out}");
        }
    }
}
