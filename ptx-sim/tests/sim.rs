//! Hand-written PTX with known answers: arithmetic and guards, divergent loops, warp shuffles,
//! shared memory with barriers, conversions, and every check the interpreter makes. The
//! semantics each expectation rests on are the PTX ISA's (8.x), section named per test.

use ptx_sim::{Arg, Global, Launch, SimError, parse, run};

fn launch(grid: u32, block: u32) -> Launch {
    Launch { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared: 0 }
}

fn fault(e: SimError) -> (usize, [u32; 3], String) {
    match e {
        SimError::Fault { line, thread, message, .. } => (line, thread, message),
        other => panic!("expected a fault, got {other}"),
    }
}

/// `y[i] = a·x[i] + y[i]` for `i < n` ("fma", "setp", "ld", "st"; a guarded branch for the
/// partial last block).
const SAXPY: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.visible .entry saxpy(.param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)
.maxntid 128, 1, 1
{
    .reg .pred %p<2>;
    .reg .b32 %r<5>;
    .reg .f32 %f<5>;
    .reg .b64 %rd<6>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.s32 %r4, %r2, %r3, %r1;
    ld.param.u32 %r0, [n];
    setp.ge.u32 %p1, %r4, %r0;
    @%p1 bra $done;
    ld.param.u64 %rd1, [x];
    ld.param.u64 %rd2, [y];
    ld.param.f32 %f1, [a];
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd1, %rd3;
    add.s64 %rd5, %rd2, %rd3;
    ld.global.nc.f32 %f2, [%rd4];
    ld.global.f32 %f3, [%rd5];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    st.global.f32 [%rd5], %f4;
$done:
    ret;
}
"#;

#[test]
fn saxpy_with_a_partial_last_block() {
    let m = parse(SAXPY).unwrap();
    let n = 300;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - i as f32 * 0.5).collect();
    let mut g = Global::new();
    let (xa, ya) = (g.upload_f32(&x), g.upload_f32(&y));
    let args = [Arg::U64(xa), Arg::U64(ya), Arg::F32(2.0), Arg::U32(n as u32)];
    let stats = run(&m, "saxpy", &launch(3, 128), &args, &mut g).unwrap();
    let got = g.f32s(ya, n);
    for i in 0..n {
        assert_eq!(got[i], 2.0f32.mul_add(x[i], y[i]), "element {i}");
    }
    // 3 blocks × 4 warps; the last block's warps past n take the branch early.
    assert!(stats.warp_instructions > 0 && stats.thread_instructions > stats.warp_instructions);
}

/// Each thread loops `tid` times: lanes leave the loop at different steps and meet again at
/// its exit ("bra"; divergence and reconvergence).
const TRIANGLE: &str = r#"
.visible .entry triangle(.param .u64 out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, 0;
    mov.u32 %r3, 0;
$loop:
    setp.ge.u32 %p1, %r3, %r1;
    @%p1 bra $exit;
    add.s32 %r2, %r2, %r3;
    add.s32 %r3, %r3, 1;
    bra.uni $loop;
$exit:
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
"#;

#[test]
fn divergent_loops_reconverge() {
    let m = parse(TRIANGLE).unwrap();
    let mut g = Global::new();
    let out = g.alloc(40 * 4);
    run(&m, "triangle", &launch(1, 40), &[Arg::U64(out)], &mut g).unwrap();
    let got: Vec<u32> =
        g.read(out, 160).unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    for (t, v) in got.iter().enumerate() {
        assert_eq!(*v as usize, t * t.saturating_sub(1) / 2, "thread {t}");
    }
}

/// A butterfly reduction: after offsets 16, 8, 4, 2, 1 every lane holds the warp's sum
/// ("shfl.sync": `j = lane ^ b`, valid when `j <= maxLane`, c = 0x1f).
const REDUCE: &str = r#"
.visible .entry reduce(.param .u64 out)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %laneid;
    shfl.sync.bfly.b32 %r2, %r1, 16, 31, -1;
    add.s32 %r2, %r2, %r1;
    shfl.sync.bfly.b32 %r3, %r2, 8, 31, -1;
    add.s32 %r3, %r3, %r2;
    shfl.sync.bfly.b32 %r4, %r3, 4, 31, -1;
    add.s32 %r4, %r4, %r3;
    shfl.sync.bfly.b32 %r5, %r4, 2, 31, -1;
    add.s32 %r5, %r5, %r4;
    shfl.sync.bfly.b32 %r6, %r5, 1, 31, -1;
    add.s32 %r6, %r6, %r5;
    mov.u32 %r7, %tid.x;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r7, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r6;
    ret;
}
"#;

#[test]
fn butterfly_shuffles_reduce_a_warp() {
    let m = parse(REDUCE).unwrap();
    let mut g = Global::new();
    let out = g.alloc(64 * 4);
    run(&m, "reduce", &launch(1, 64), &[Arg::U64(out)], &mut g).unwrap();
    let got = g.read(out, 256).unwrap();
    for t in 0..64 {
        assert_eq!(u32::from_le_bytes(got[t * 4..t * 4 + 4].try_into().unwrap()), 496, "thread {t}");
    }
}

/// A block reverses its values through shared memory: every thread writes, a barrier, every
/// thread reads another warp's write ("bar.sync", ".shared").
const REVERSE: &str = r#"
.visible .entry reverse(.param .u64 data)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<5>;
    .shared .align 4 .b8 tile[256];
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [data];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r2, [%rd3];
    shl.b32 %r3, %r1, 2;
    st.shared.u32 [%r3], %r2;
    bar.sync 0;
    sub.s32 %r4, 63, %r1;
    shl.b32 %r5, %r4, 2;
    ld.shared.u32 %r2, [%r5];
    st.global.u32 [%rd3], %r2;
    ret;
}
"#;

#[test]
fn shared_memory_and_barriers_across_warps() {
    // Shared addresses are 32-bit registers, offsets in the block's shared memory.
    let m = parse(REVERSE).unwrap();
    let mut g = Global::new();
    let data: Vec<u8> = (0..64u32).flat_map(|v| (v * 10).to_le_bytes()).collect();
    let at = g.upload(&data);
    run(&m, "reverse", &launch(1, 64), &[Arg::U64(at)], &mut g).unwrap();
    let got = g.read(at, 256).unwrap();
    for t in 0..64u32 {
        assert_eq!(u32::from_le_bytes(got[t as usize * 4..t as usize * 4 + 4].try_into().unwrap()), (63 - t) * 10);
    }
}

/// `cvt.rn.bf16.f32` rounds to nearest even; `cvt.f32.bf16` is exact ("cvt": rounding modifiers).
#[test]
fn conversions_round_as_the_isa_says() {
    let src = r#"
.visible .entry conv(.param .u64 io)
{
    .reg .b16 %h<2>;
    .reg .f32 %f<3>;
    .reg .b32 %r<3>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [io];
    ld.global.f32 %f1, [%rd1];
    cvt.rn.bf16.f32 %h1, %f1;
    cvt.f32.bf16 %f2, %h1;
    st.global.f32 [%rd1+4], %f2;
    cvt.rzi.s32.f32 %r1, %f1;
    st.global.u32 [%rd1+8], %r1;
    ret;
}
"#;
    let m = parse(src).unwrap();
    // 1 + 2⁻⁸ lies halfway between bf16's 1 and 1 + 2⁻⁷: ties go to the even one, 1. 1 + 3·2⁻⁸
    // is halfway between 1 + 2⁻⁷ and 1 + 2⁻⁶: the even one is 1 + 2⁻⁶.
    let cases = [(1.0 + 1.0 / 256.0, 1.0, 1), (1.0 + 3.0 / 256.0, 1.0 + 1.0 / 64.0, 1), (-2.7f32, -2.703125f32, -2i32)];
    for (x, bf16, int) in cases {
        let mut g = Global::new();
        let at = g.upload_f32(&[x, 0.0, 0.0]);
        run(&m, "conv", &launch(1, 1), &[Arg::U64(at)], &mut g).unwrap();
        let got = g.read(at, 12).unwrap();
        assert_eq!(f32::from_le_bytes(got[4..8].try_into().unwrap()), bf16, "{x}");
        assert_eq!(i32::from_le_bytes(got[8..12].try_into().unwrap()), int, "{x}");
    }
}

#[test]
fn out_of_bounds_global_accesses_name_the_thread_line_and_address() {
    let m = parse(SAXPY).unwrap();
    let mut g = Global::new();
    let (xa, ya) = (g.upload_f32(&[0.0; 100]), g.upload_f32(&[0.0; 100]));
    // n = 101: thread 100 reads one element past x.
    let e = run(&m, "saxpy", &launch(1, 128), &[Arg::U64(xa), Arg::U64(ya), Arg::F32(1.0), Arg::U32(101)], &mut g)
        .unwrap_err();
    let text = e.to_string();
    let (line, thread, message) = fault(e);
    assert_eq!(line, 25, "{text}");
    assert_eq!(thread, [100, 0, 0], "{text}");
    assert!(message.contains("out-of-bounds global read of 4 bytes at"), "{text}");
    assert!(text.contains("kernel `saxpy`") && text.contains("ld.global.nc.f32"), "{text}");
}

#[test]
fn reads_of_unwritten_shared_memory_are_errors() {
    let m = parse(&REVERSE.replace("st.shared.u32 [%r3], %r2;", "")).unwrap();
    let mut g = Global::new();
    let at = g.upload(&[0u8; 256]);
    let (_, _, message) = fault(run(&m, "reverse", &launch(1, 64), &[Arg::U64(at)], &mut g).unwrap_err());
    assert!(message.contains("that no thread has written"), "{message}");
}

#[test]
fn a_barrier_in_a_divergent_branch_is_an_error() {
    let src = r#"
.visible .entry half_barrier()
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 16;
    @%p1 bra $skip;
    bar.sync 0;
$skip:
    ret;
}
"#;
    let m = parse(src).unwrap();
    let e = run(&m, "half_barrier", &launch(1, 32), &[], &mut Global::new()).unwrap_err();
    let (line, _, message) = fault(e);
    assert_eq!(line, 9);
    assert!(message.contains("reached by part of the warp"), "{message}");
}

#[test]
fn a_shuffle_from_outside_the_member_mask_is_an_error() {
    let m = parse(
        &REDUCE.replace("shfl.sync.bfly.b32 %r2, %r1, 16, 31, -1;", "shfl.sync.bfly.b32 %r2, %r1, 16, 31, 65535;"),
    )
    .unwrap();
    let mut g = Global::new();
    let out = g.alloc(32 * 4);
    let (line, _, message) = fault(run(&m, "reduce", &launch(1, 32), &[Arg::U64(out)], &mut g).unwrap_err());
    assert_eq!(line, 7);
    assert!(message.contains("membermask"), "{message}");
}

#[test]
fn an_unknown_instruction_is_an_error_naming_it() {
    let m = parse(".visible .entry k()\n{\n .reg .b32 %r<2>;\n frobnicate.u32 %r1, %r1;\n ret;\n}").unwrap();
    let (line, _, message) = fault(run(&m, "k", &launch(1, 1), &[], &mut Global::new()).unwrap_err());
    assert_eq!(line, 4);
    assert!(message.contains("`frobnicate.u32` is not an instruction this interpreter knows"), "{message}");
    let m = parse(".visible .entry k()\n{\n .reg .b32 %r<2>;\n mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 %r1, %r1, %r1, %r1;\n ret;\n}").unwrap();
    let (_, _, message) = fault(run(&m, "k", &launch(1, 32), &[], &mut Global::new()).unwrap_err());
    assert!(message.contains("is not an instruction this interpreter knows"), "{message}");
}
