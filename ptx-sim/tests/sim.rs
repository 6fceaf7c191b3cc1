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

/// `cvt.rn.bf16.f32` rounds to nearest even; `cvt.f32.bf16` is exact; `cvt.rmi.f32.f32` and
/// `cvt.rpi.f32.f32` round a float to an integer in the same type, toward −∞ and +∞ ("cvt":
/// rounding modifiers; the integer rounding of a float to a float).
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
    cvt.rmi.f32.f32 %f2, %f1;
    st.global.f32 [%rd1+12], %f2;
    cvt.rpi.f32.f32 %f2, %f1;
    st.global.f32 [%rd1+16], %f2;
    ret;
}
"#;
    let m = parse(src).unwrap();
    // 1 + 2⁻⁸ lies halfway between bf16's 1 and 1 + 2⁻⁷: ties go to the even one, 1. 1 + 3·2⁻⁸
    // is halfway between 1 + 2⁻⁷ and 1 + 2⁻⁶: the even one is 1 + 2⁻⁶.
    let cases = [(1.0 + 1.0 / 256.0, 1.0, 1), (1.0 + 3.0 / 256.0, 1.0 + 1.0 / 64.0, 1), (-2.7f32, -2.703125f32, -2i32)];
    for (x, bf16, int) in cases {
        let mut g = Global::new();
        let at = g.upload_f32(&[x, 0.0, 0.0, 0.0, 0.0]);
        run(&m, "conv", &launch(1, 1), &[Arg::U64(at)], &mut g).unwrap();
        let got = g.read(at, 20).unwrap();
        let f = |at: usize| f32::from_le_bytes(got[at..at + 4].try_into().unwrap());
        assert_eq!(f(4), bf16, "{x}");
        assert_eq!(i32::from_le_bytes(got[8..12].try_into().unwrap()), int, "{x}");
        assert_eq!((f(12), f(16)), (x.floor(), x.ceil()), "{x}");
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
    let m = parse(
        ".visible .entry k()\n{\n .reg .b32 %r<2>;\n tcgen05.mma.cta_group::1.kind::f16 %r1, %r1, %r1, %r1;\n ret;\n}",
    )
    .unwrap();
    let (_, _, message) = fault(run(&m, "k", &launch(1, 32), &[], &mut Global::new()).unwrap_err());
    assert!(message.contains("is not an instruction this interpreter knows"), "{message}");
}

/// bf16 bits of a value bf16 holds exactly.
fn bf16(x: f32) -> u32 {
    x.to_bits() >> 16
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32` against fragment layouts from an
/// independent source, CUTLASS's CuTe (`cute/atom/mma_traits_sm80.hpp`,
/// `SM80_16x8x16_F32BF16BF16F32_TN`): (thread, value) → element as
/// A `((4,8),(2,2,2)):((32,1),(16,8,128))` over M16×K16 (m + 16k),
/// B `((4,8),(2,2)):((16,1),(8,64))` over N8×K16 (n + 8k),
/// C and D `((4,8),(2,2)):((32,1),(16,8))` over M16×N8 (m + 16n).
/// The interpreter states them from the PTX ISA; the two must agree.
#[test]
fn mma_m16n8k16_fragments_match_cutlass_cute_layouts() {
    let src = r#"
.visible .entry mma(.param .u64 afrag, .param .u64 bfrag, .param .u64 cfrag, .param .u64 dfrag)
{
    .reg .b32 %r<8>;
    .reg .f32 %f<9>;
    .reg .b64 %rd<12>;
    mov.u32 %r0, %laneid;
    ld.param.u64 %rd0, [afrag];
    ld.param.u64 %rd1, [bfrag];
    ld.param.u64 %rd2, [cfrag];
    ld.param.u64 %rd3, [dfrag];
    mul.wide.u32 %rd4, %r0, 16;
    add.s64 %rd5, %rd0, %rd4;
    ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd5];
    mul.wide.u32 %rd6, %r0, 8;
    add.s64 %rd7, %rd1, %rd6;
    ld.global.v2.b32 {%r5, %r6}, [%rd7];
    add.s64 %rd8, %rd2, %rd4;
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8];
    mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f1, %f2, %f3, %f4};
    add.s64 %rd9, %rd3, %rd4;
    st.global.v4.f32 [%rd9], {%f5, %f6, %f7, %f8};
    ret;
}
"#;
    let a = |m: usize, k: usize| ((m * 7 + k * 3) % 7) as f32 - 3.0;
    let b = |k: usize, n: usize| ((k * 5 + n * 2) % 5) as f32 - 2.0;
    let c = |m: usize, n: usize| (m * 8 + n) as f32 * 0.25;
    // CuTe: thread t = t0 + 4·t1 with t0 = t % 4, t1 = t / 4.
    let (mut af, mut bf, mut cf) = (vec![0u32; 128], vec![0u32; 64], vec![0f32; 128]);
    for t in 0..32usize {
        let (t0, t1) = (t % 4, t / 4);
        for v in 0..8 {
            let i = 32 * t0 + t1 + 16 * (v % 2) + 8 * ((v / 2) % 2) + 128 * (v / 4);
            af[t * 4 + v / 2] |= bf16(a(i % 16, i / 16)) << (16 * (v % 2));
        }
        for v in 0..4 {
            let i = 16 * t0 + t1 + 8 * (v % 2) + 64 * (v / 2);
            bf[t * 2 + v / 2] |= bf16(b(i / 8, i % 8)) << (16 * (v % 2));
        }
        for v in 0..4 {
            let i = 32 * t0 + t1 + 16 * (v % 2) + 8 * (v / 2);
            cf[t * 4 + v] = c(i % 16, i / 16);
        }
    }
    let words = |v: &[u32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let mut g = Global::new();
    let (aa, ba, ca, da) = (g.upload(&words(&af)), g.upload(&words(&bf)), g.upload_f32(&cf), g.alloc(512));
    let m = parse(src).unwrap();
    run(&m, "mma", &launch(1, 32), &[Arg::U64(aa), Arg::U64(ba), Arg::U64(ca), Arg::U64(da)], &mut g).unwrap();
    let d = g.f32s(da, 128);
    for t in 0..32usize {
        for v in 0..4 {
            let i = 32 * (t % 4) + t / 4 + 16 * (v % 2) + 8 * (v / 2);
            let (row, col) = (i % 16, i / 16);
            let want = c(row, col) + (0..16).map(|k| a(row, k) * b(k, col)).sum::<f32>();
            assert_eq!(d[t * 4 + v], want, "lane {t} value {v}: D[{row}][{col}]");
        }
    }
}

/// `ldmatrix .x4` and `.x4.trans` ("ldmatrix"): lane t receives row t/4, columns 2(t%4) and
/// 2(t%4)+1 of each 8×8 matrix (of its transpose with `.trans`), lanes 8i…8i+7 giving matrix
/// i's row addresses.
#[test]
fn ldmatrix_distributes_rows_and_transposes() {
    let src = r#"
.visible .entry ldm(.param .u64 src, .param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 16 .b8 tile[512];
    mov.u32 %r0, %laneid;
    ld.param.u64 %rd0, [src];
    mul.wide.u32 %rd1, %r0, 16;
    add.s64 %rd2, %rd0, %rd1;
    ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd2];
    mov.u64 %rd3, tile;
    add.s64 %rd4, %rd3, %rd1;
    st.shared.v4.b32 [%rd4], {%r1, %r2, %r3, %r4};
    bar.sync 0;
    ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r5, %r6, %r7, %r8}, [%rd4];
    ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r9, %r10, %r11, %r1}, [%rd4];
    ld.param.u64 %rd5, [out];
    mul.wide.u32 %rd6, %r0, 32;
    add.s64 %rd7, %rd5, %rd6;
    st.global.v4.b32 [%rd7], {%r5, %r6, %r7, %r8};
    st.global.v4.b32 [%rd7+16], {%r9, %r10, %r11, %r1};
    ret;
}
"#;
    // Element c of row r of matrix i: 1000·i + 10·r + c.
    let value = |i: usize, r: usize, c: usize| (1000 * i + 10 * r + c) as u16;
    let data: Vec<u8> =
        (0..32).flat_map(|row| (0..8).flat_map(move |c| value(row / 8, row % 8, c).to_le_bytes())).collect();
    let mut g = Global::new();
    let (s, o) = (g.upload(&data), g.alloc(32 * 32));
    run(&parse(src).unwrap(), "ldm", &launch(1, 32), &[Arg::U64(s), Arg::U64(o)], &mut g).unwrap();
    let out = g.read(o, 1024).unwrap();
    let word = |t: usize, k: usize| u32::from_le_bytes(out[t * 32 + 4 * k..t * 32 + 4 * k + 4].try_into().unwrap());
    for t in 0..32 {
        let (g4, q) = (t / 4, t % 4);
        for i in 0..4 {
            let plain = value(i, g4, 2 * q) as u32 | (value(i, g4, 2 * q + 1) as u32) << 16;
            let trans = value(i, 2 * q, g4) as u32 | (value(i, 2 * q + 1, g4) as u32) << 16;
            assert_eq!(word(t, i), plain, "lane {t} matrix {i}");
            assert_eq!(word(t, 4 + i), trans, "lane {t} matrix {i} transposed");
        }
    }
}

/// `cp.async` lands at `cp.async.wait_group`; reading its destination before is an error
/// ("cp.async", "cp.async.wait_group").
#[test]
fn cp_async_lands_at_its_wait_and_not_before() {
    let src = r#"
.visible .entry cpa(.param .u64 src, .param .u64 out, .param .u32 early)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<8>;
    .shared .align 16 .b8 buf[512];
    mov.u32 %r0, %tid.x;
    ld.param.u64 %rd0, [src];
    mul.wide.u32 %rd1, %r0, 16;
    add.s64 %rd2, %rd0, %rd1;
    mov.u64 %rd3, buf;
    add.s64 %rd4, %rd3, %rd1;
    cp.async.cg.shared.global [%rd4], [%rd2], 16;
    cp.async.commit_group;
    ld.param.u32 %r1, [early];
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra $read;
    cp.async.wait_group 0;
$read:
    ld.shared.v4.b32 {%r2, %r3, %r4, %r5}, [%rd4];
    ld.param.u64 %rd5, [out];
    add.s64 %rd6, %rd5, %rd1;
    st.global.v4.b32 [%rd6], {%r2, %r3, %r4, %r5};
    ret;
}
"#;
    let m = parse(src).unwrap();
    let data: Vec<u8> = (0..512u32).map(|i| (i * 7) as u8).collect();
    let mut g = Global::new();
    let (s, o) = (g.upload(&data), g.alloc(512));
    run(&m, "cpa", &launch(1, 32), &[Arg::U64(s), Arg::U64(o), Arg::U32(0)], &mut g).unwrap();
    assert_eq!(g.read(o, 512).unwrap(), &data[..]);
    let (line, _, message) =
        fault(run(&m, "cpa", &launch(1, 32), &[Arg::U64(s), Arg::U64(o), Arg::U32(1)], &mut g).unwrap_err());
    assert_eq!(line, 21);
    assert!(message.contains("while a cp.async to it is in flight"), "{message}");
}

/// Every thread of two blocks adds its id + 1 to one float; `atom` returns the value before
/// ("atom": `.add.f32`, one whole update at a time).
#[test]
fn atomic_adds_are_whole() {
    let src = r#"
.visible .entry sum(.param .u64 acc, .param .u64 olds)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<6>;
    mov.u32 %r1, %tid.x;
    cvt.rn.f32.u32 %f1, %r1;
    add.f32 %f1, %f1, 0f3F800000;
    ld.param.u64 %rd1, [acc];
    atom.global.add.f32 %f2, [%rd1], %f1;
    red.global.add.f32 [%rd1+4], 1.0;
    ld.param.u64 %rd2, [olds];
    mov.u32 %r2, %ctaid.x;
    mad.lo.s32 %r3, %r2, 64, %r1;
    mul.wide.u32 %rd3, %r3, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.f32 [%rd4], %f2;
    ret;
}
"#;
    let src = src.replace("red.global.add.f32 [%rd1+4], 1.0;", "red.global.add.f32 [%rd1+4], 0f3F800000;");
    let mut g = Global::new();
    let (acc, olds) = (g.alloc(8), g.alloc(128 * 4));
    run(&parse(&src).unwrap(), "sum", &launch(2, 64), &[Arg::U64(acc), Arg::U64(olds)], &mut g).unwrap();
    assert_eq!(g.f32s(acc, 2), [2.0 * (1..=64).sum::<u32>() as f32, 128.0]);
    let mut seen = g.f32s(olds, 128);
    seen.sort_by(f32::total_cmp);
    seen.dedup();
    assert_eq!(seen.len(), 128, "every update saw a different value before it");
}

/// A kernel that never ends is stopped by the instruction budget, naming it — no hang.
#[test]
fn a_kernel_that_loops_forever_is_stopped() {
    let m = parse(".visible .entry spin()\n{\n$top:\n bra.uni $top;\n ret;\n}").unwrap();
    let e = run(&m, "spin", &launch(1, 32), &[], &mut Global::new()).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("kernel `spin`") && text.contains("no end after 16777216 warp steps"), "{text}");
}

/// Arguments that do not match the kernel's parameters are a launch error naming the parameter.
#[test]
fn arguments_that_do_not_match_the_parameters_are_errors() {
    let m = parse(SAXPY).unwrap();
    let e = run(&m, "saxpy", &launch(1, 32), &[Arg::U64(0)], &mut Global::new()).unwrap_err();
    assert!(e.to_string().contains("1 arguments for 4 parameters"), "{e}");
    let args = [Arg::U64(0), Arg::U64(0), Arg::F32(1.0), Arg::U64(3)];
    let e = run(&m, "saxpy", &launch(1, 32), &args, &mut Global::new()).unwrap_err();
    assert!(e.to_string().contains("parameter `n` is .u32 (4 bytes)"), "{e}");
    assert_eq!(
        run(&m, "nope", &launch(1, 32), &args, &mut Global::new()).unwrap_err(),
        SimError::NoKernel("nope".into())
    );
}

#[test]
fn a_shared_memory_race_without_a_barrier_is_an_error() {
    // One warp: lane t reads what lane 31 − t wrote. Without the bar.sync that is a race, even
    // though this interpreter, running a warp's lanes in lockstep, would give the right answer:
    // since Volta the lanes of a warp are not guaranteed to run in lockstep.
    let one_warp = REVERSE.replace("sub.s32 %r4, 63, %r1;", "sub.s32 %r4, 31, %r1;");
    let mut g = Global::new();
    let at = g.upload(&[0u8; 256]);
    run(&parse(&one_warp).unwrap(), "reverse", &launch(1, 32), &[Arg::U64(at)], &mut g).unwrap();
    let m = parse(&one_warp.replace("bar.sync 0;", "")).unwrap();
    let (line, thread, message) = fault(run(&m, "reverse", &launch(1, 32), &[Arg::U64(at)], &mut g).unwrap_err());
    assert_eq!((line, thread), (17, [0, 0, 0]));
    assert!(
        message.contains("shared-memory race") && message.contains("thread 0 reads what thread 31 wrote"),
        "{message}"
    );
    // Across warps, after the barrier: each thread overwrites its own slot, which a thread of the
    // other warp reads in the same epoch.
    let war =
        REVERSE.replace("st.global.u32 [%rd3], %r2;", "st.shared.u32 [%r3], %r2;\n    st.global.u32 [%rd3], %r2;");
    let m = parse(&war).unwrap();
    let (_, _, message) = fault(run(&m, "reverse", &launch(1, 64), &[Arg::U64(at)], &mut g).unwrap_err());
    assert!(message.contains("shared-memory race"), "{message}");
}

/// `wgmma.mma_async.m64n16k16` with A from registers and B from shared memory through a matrix
/// descriptor, 128 threads. The image of B is copied to shared memory, published to the async
/// proxy, and the product is computed with the accumulator.
const WGMMA: &str = r#"
.visible .entry wg(.param .u64 afrag, .param .u64 image, .param .u64 cfrag, .param .u64 dfrag, .param .u64 desc)
{
    .reg .b32 %r<12>;
    .reg .f32 %f<9>;
    .reg .b64 %rd<14>;
    .shared .align 16 .b8 smem[512];
    mov.u32 %r0, %tid.x;
    ld.param.u64 %rd0, [image];
    mul.wide.u32 %rd1, %r0, 4;
    add.s64 %rd2, %rd0, %rd1;
    ld.global.b32 %r1, [%rd2];
    mov.u32 %r2, smem;
    shl.b32 %r3, %r0, 2;
    add.s32 %r4, %r2, %r3;
    st.shared.b32 [%r4], %r1;
    fence.proxy.async.shared::cta;
    bar.sync 0;
    ld.param.u64 %rd3, [afrag];
    mul.wide.u32 %rd4, %r0, 16;
    add.s64 %rd5, %rd3, %rd4;
    ld.global.v4.b32 {%r5, %r6, %r7, %r8}, [%rd5];
    ld.param.u64 %rd6, [cfrag];
    mul.wide.u32 %rd7, %r0, 32;
    add.s64 %rd8, %rd6, %rd7;
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8];
    ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd8+16];
    ld.param.u64 %rd9, [desc];
    wgmma.fence.sync.aligned;
    wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r5, %r6, %r7, %r8}, %rd9, 1, 1, 1, TRANS;
    wgmma.commit_group.sync.aligned;
    wgmma.wait_group.sync.aligned 0;
    ld.param.u64 %rd10, [dfrag];
    add.s64 %rd11, %rd10, %rd7;
    st.global.v4.f32 [%rd11], {%f1, %f2, %f3, %f4};
    st.global.v4.f32 [%rd11+16], {%f5, %f6, %f7, %f8};
    ret;
}
"#;

/// A 64×16 · B 16×16 + C on the warpgroup. Expected fragments from CUTLASS's cute
/// (`mma_traits_sm90_gmma.hpp`): `ALayout_64x16 = CLayout_64x16 =
/// ((4,8,4),(2,2,2)):((128,1,16),(64,8,512))` over M64×K16 (m + 64k), and the accumulator of
/// m64n16 `((4,8,4),(2,2,2)):((128,1,16),(64,8,512))` over M64×N16 (m + 64n). The shared image
/// of B from the PTX ISA's canonical layouts (9.7.15.5.1.2.1.3): MN-major interleave, the ISA's
/// own bf16 example `((8,1,2),(8,2)):((1,8,64),(8,128))` with LBO = 256 and SBO = 128 bytes;
/// K-major interleave `((8,2),(8,2)):((8,64),(1,128))` with LBO = 256 and SBO = 128 bytes.
fn wgmma_case(src: &str, trans: u32, threads: u32) -> Result<Vec<f32>, SimError> {
    let mut image = vec![0u16; 256];
    for k in 0..16 {
        for n in 0..16 {
            let at = if trans == 1 {
                n % 8 + 64 * (n / 8) + 8 * (k % 8) + 128 * (k / 8)
            } else {
                8 * (n % 8) + 64 * (n / 8) + k % 8 + 128 * (k / 8)
            };
            image[at] = bf16(wgmma_b(k, n)) as u16;
        }
    }
    let desc: u64 = ((256u64 >> 4) << 16) | ((128u64 >> 4) << 32);
    wgmma_with(src, trans, threads, &image, desc)
}

/// The B operand of the wgmma cases.
fn wgmma_b(k: usize, n: usize) -> f32 {
    ((k * 5 + n * 2) % 5) as f32 - 2.0
}

/// A·B + C on the warpgroup with B's shared image and descriptor given, checked against the sum.
fn wgmma_with(src: &str, trans: u32, threads: u32, image: &[u16], desc: u64) -> Result<Vec<f32>, SimError> {
    let a = |m: usize, k: usize| ((m * 7 + k * 3) % 7) as f32 - 3.0;
    let b = wgmma_b;
    let c = |m: usize, n: usize| (m * 16 + n) as f32 * 0.25;
    let (mut af, mut cf) = (vec![0u32; 128 * 4], vec![0f32; 128 * 8]);
    for t in 0..128usize {
        let (t0, t1, t2) = (t % 4, (t / 4) % 8, t / 32);
        for v in 0..8 {
            let i = 128 * t0 + t1 + 16 * t2 + 64 * (v % 2) + 8 * ((v / 2) % 2) + 512 * (v / 4);
            af[t * 4 + v / 2] |= bf16(a(i % 64, i / 64)) << (16 * (v % 2));
            cf[t * 8 + v] = c(i % 64, i / 64);
        }
    }
    let words = |v: &[u32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let mut g = Global::new();
    let img: Vec<u8> = image.iter().flat_map(|x| x.to_le_bytes()).collect();
    let (aa, ia, ca, da) = (g.upload(&words(&af)), g.upload(&img), g.upload_f32(&cf), g.alloc(128 * 32));
    let m = parse(&src.replace("TRANS", &trans.to_string())).unwrap();
    let args = [Arg::U64(aa), Arg::U64(ia), Arg::U64(ca), Arg::U64(da), Arg::U64(desc)];
    run(&m, "wg", &launch(1, threads), &args, &mut g)?;
    let d = g.f32s(da, 128 * 8);
    for t in 0..128usize {
        let (t0, t1, t2) = (t % 4, (t / 4) % 8, t / 32);
        for v in 0..8 {
            let i = 128 * t0 + t1 + 16 * t2 + 64 * (v % 2) + 8 * ((v / 2) % 2) + 512 * (v / 4);
            let (row, col) = (i % 64, i / 64);
            let want = c(row, col) + (0..16).map(|k| a(row, k) * b(k, col)).sum::<f32>();
            assert_eq!(d[t * 8 + v], want, "trans {trans} thread {t} value {v}: D[{row}][{col}]");
        }
    }
    Ok(d)
}

#[test]
fn wgmma_fragments_and_descriptors_match_the_isa_and_cutlass() {
    for trans in [0, 1] {
        wgmma_case(WGMMA, trans, 128).unwrap();
    }
}

#[test]
fn wgmma_misuse_is_an_error() {
    let check = |src: &str, threads: u32, want: &str| {
        let e = wgmma_case(src, 1, threads).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(want), "want `{want}` in: {text}");
    };
    // Shared memory written through the generic proxy, read by wgmma with no proxy fence.
    check(&WGMMA.replace("fence.proxy.async.shared::cta;", ""), 128, "no fence.proxy.async");
    // The accumulator read before the wgmma completes.
    check(&WGMMA.replace("wgmma.wait_group.sync.aligned 0;", ""), 128, "in flight");
    // Written by other warps with no barrier between.
    check(&WGMMA.replace("bar.sync 0;", ""), 128, "shared-memory race");
    // Two warps of a warpgroup.
    check(WGMMA, 64, "part of warpgroup 0");
    // wgmma.fence (PTX ISA 9.7.15.7.1): before a warpgroup's first wgmma.mma_async, and between
    // another instruction's write of an accumulator or A-fragment register and the wgmma.
    check(&WGMMA.replace("wgmma.fence.sync.aligned;", ""), 128, "before any wgmma.fence of this warp");
    let after_fence =
        |write: &str| WGMMA.replace("wgmma.fence.sync.aligned;", &format!("wgmma.fence.sync.aligned;\n    {write}"));
    check(&after_fence("mov.f32 %f3, %f3;"), 128, "accumulator register %f3, written by another instruction since");
    check(&after_fence("mov.b32 %r7, %r7;"), 128, "A fragment register %r7, written by another instruction since");
    // A second fence after the writes orders them again.
    wgmma_case(&after_fence("mov.f32 %f3, %f3;\n    wgmma.fence.sync.aligned;"), 1, 128).unwrap();
    // A descriptor field this interpreter does not implement is named, not misread.
    check(
        &WGMMA.replace(
            "ld.param.u64 %rd9, [desc];",
            "ld.param.u64 %rd9, [desc];\n    or.b64 %rd9, %rd9, 562949953421312;",
        ),
        128,
        "base offset 1",
    );
}

/// The wgmma kernel with a 2 KiB operand image aligned to 1024 bytes, each thread copying 16
/// bytes of it.
fn wgmma_swizzled_kernel() -> String {
    WGMMA
        .replace(".shared .align 16 .b8 smem[512];", ".shared .align 1024 .b8 smem[2048];")
        .replace("mul.wide.u32 %rd1, %r0, 4;", "mul.wide.u32 %rd1, %r0, 16;")
        .replace("ld.global.b32 %r1, [%rd2];", "ld.global.v4.b32 {%r1, %r9, %r10, %r11}, [%rd2];")
        .replace("shl.b32 %r3, %r0, 2;", "shl.b32 %r3, %r0, 4;")
        .replace("st.shared.b32 [%r4], %r1;", "st.shared.v4.b32 [%r4], {%r1, %r9, %r10, %r11};")
}

/// Swizzled operands (PTX ISA 9.7.15.5.1.2.1.3; CuTe's `Layout_K_SW{32,64,128}_Atom_Bits` and
/// `Layout_MN_SW*_Atom_Bits`, `Swizzle<B,4,3>` on the byte address over 8 rows of S bytes): B
/// 16×16 bf16 K-major (rows of S bytes along k, 8 n-rows per SBO = 8·S) and MN-major (rows of S
/// bytes along n, 8 k-rows per SBO), each 16-byte chunk `j` of row `r` at chunk `j ^ (r % 2^B)`.
#[test]
fn wgmma_reads_swizzled_operands() {
    let kernel = wgmma_swizzled_kernel();
    for (mode, span, b_bits) in [(1u64, 128usize, 7usize), (2, 64, 3), (3, 32, 1)] {
        for trans in [0u32, 1] {
            let mut image = vec![0u16; 1024];
            for k in 0..16 {
                for n in 0..16 {
                    let byte = if trans == 1 {
                        2 * (n % (span / 2)) + span * (k % 8) + 8 * span * (k / 8)
                    } else {
                        span * (n % 8) + 8 * span * (n / 8) + 2 * k
                    };
                    // Chunk j of row r moves to chunk j ^ (r % 2^B).
                    let (row, chunk) = (byte / 128, (byte / 16) % 8);
                    let moved = byte - 16 * chunk + 16 * (chunk ^ (row & b_bits));
                    image[moved / 2] = bf16(wgmma_b(k, n)) as u16;
                }
            }
            let (lbo, sbo) = (if trans == 1 { 16 * span as u64 } else { 16 }, 8 * span as u64);
            let desc = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (mode << 62);
            wgmma_with(&kernel, trans, 128, &image, desc)
                .unwrap_or_else(|e| panic!("{span}-byte swizzle, trans {trans}: {e}"));
        }
    }
    // A K-major operand may start inside its pattern's first row: the K step of 16 elements at
    // 32 bytes into 128-byte rows (CUTLASS advances a descriptor so along K), the swizzle applied
    // to the whole address as TMA wrote it.
    let mut image = vec![0u16; 1024];
    for k in 0..16 {
        for n in 0..16 {
            let byte = 128 * (n % 8) + 1024 * (n / 8) + 2 * (k + 16);
            let (row, chunk) = (byte / 128, (byte / 16) % 8);
            image[(byte - 16 * chunk + 16 * (chunk ^ (row & 7))) / 2] = bf16(wgmma_b(k, n)) as u16;
        }
    }
    let desc = (1u64 << 62) | ((1024u64 >> 4) << 32) | ((16u64 >> 4) << 16) | (32 >> 4);
    wgmma_with(&kernel, 0, 128, &image, desc).unwrap_or_else(|e| panic!("a K step into the row: {e}"));
    // Past the row's end it is an error: 112 bytes in, K element 8 would be at byte 128.
    let desc = (1u64 << 62) | ((1024u64 >> 4) << 32) | (112 >> 4);
    let message = fault(wgmma_with(&kernel, 0, 128, &vec![0u16; 1024], desc).unwrap_err()).2;
    assert!(message.contains("past the 128-byte swizzled row"), "{message}");
    // A swizzled operand must start on its pattern's 8 rows.
    let desc = (1u64 << 62) | ((1024u64 >> 4) << 32) | (512 >> 4);
    let message = fault(wgmma_with(&kernel, 0, 128, &vec![0u16; 1024], desc).unwrap_err()).2;
    assert!(message.contains("not aligned to its 1024 bytes"), "{message}");
}

/// A producer warp and a consumer warp through an mbarrier (PTX ISA 9.7.13.15, "mbarrier"): thread
/// 0 initialises it for one arrival, a `bar.sync` makes that visible; warp 0 writes a tile and its
/// lane 0 arrives; warp 1 waits for phase 0 (`try_wait.parity` in a retry loop) and reads the
/// tile back to front.
const HANDOFF: &str = r#"
.visible .entry handoff(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .shared .align 8 .b8 bar[8];
    .shared .align 16 .b8 tile[128];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra $init_done;
    mbarrier.init.shared::cta.b64 [%r2], 1;
$init_done:
    bar.sync 0;
    shr.u32 %r3, %r1, 5;
    and.b32 %r4, %r1, 31;
    mov.u32 %r7, tile;
    setp.ne.u32 %p2, %r3, 0;
    @%p2 bra $consumer;
    mul.lo.u32 %r5, %r4, 3;
    shl.b32 %r6, %r4, 2;
    add.u32 %r8, %r7, %r6;
    st.shared.u32 [%r8], %r5;
    bar.warp.sync -1;
    setp.ne.u32 %p3, %r4, 0;
    @%p3 bra $done;
    mbarrier.arrive.shared::cta.b64 %rd1, [%r2];
    bra $done;
$consumer:
$wait:
    mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;
    @!%p3 bra $wait;
    sub.u32 %r9, 31, %r4;
    shl.b32 %r9, %r9, 2;
    add.u32 %r10, %r7, %r9;
    ld.shared.u32 %r11, [%r10];
    ld.param.u64 %rd2, [out];
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r11;
$done:
    ret;
}
"#;

fn u32s(g: &Global, at: u64, n: usize) -> Vec<u32> {
    g.read(at, n * 4).unwrap().chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

#[test]
fn an_mbarrier_hands_a_tile_from_one_warp_to_another() {
    let mut g = Global::new();
    let out = g.upload(&[0u8; 128]);
    let go = |text: &str, g: &mut Global| run(&parse(text).unwrap(), "handoff", &launch(1, 64), &[Arg::U64(out)], g);
    go(HANDOFF, &mut g).unwrap();
    assert_eq!(u32s(&g, out, 32), (0..32u32).map(|l| (31 - l) * 3).collect::<Vec<_>>());
    // Without the wait, or waiting on the other parity (the phase before the first, complete at
    // init), the consumer reads what the producer wrote with nothing ordering them.
    for broken in [
        HANDOFF
            .replace("    @!%p3 bra $wait;\n", "")
            .replace("mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;", ""),
        HANDOFF.replace("[%r2], 0;\n    @!%p3", "[%r2], 1;\n    @!%p3"),
    ] {
        // (The barrier's last warp runs on first, so the consumer even reads before the write.)
        let message = fault(go(&broken, &mut g).unwrap_err()).2;
        assert!(
            message.contains("reads what thread 31 wrote") || message.contains("that no thread has written"),
            "{message}"
        );
    }
    // A relaxed wait sees the phase complete but acquires nothing (PTX ISA: `.relaxed` orders no
    // memory): the consumer's read is unordered.
    let relaxed =
        HANDOFF.replace("mbarrier.try_wait.parity.shared::cta", "mbarrier.try_wait.parity.relaxed.cta.shared::cta");
    let message = fault(go(&relaxed, &mut g).unwrap_err()).2;
    assert!(
        message.contains("reads what thread 31 wrote") || message.contains("that no thread has written"),
        "{message}"
    );
    // Two arrivals expected, one made: the consumer waits forever, which is reported with every
    // warp's position.
    let message = fault(go(&HANDOFF.replace("[%r2], 1;\n$init_done", "[%r2], 2;\n$init_done"), &mut g).unwrap_err()).2;
    assert!(message.starts_with("deadlock: no warp can go on"), "{message}");
    assert!(message.contains("warp 0 has ended"), "{message}");
    assert!(message.contains("warp 1 waits for phase parity 0 of the mbarrier at shared 0x0"), "{message}");
    assert!(message.contains("1 of 2 arrivals pending"), "{message}");
    // Initialised by one warp and used by another with no barrier between.
    let message = fault(go(&HANDOFF.replace("    bar.sync 0;\n", ""), &mut g).unwrap_err()).2;
    assert!(message.contains("is used before its initialisation by warp 0 is visible"), "{message}");
    // A plain store to the mbarrier object.
    let message =
        fault(go(&HANDOFF.replace("st.shared.u32 [%r8], %r5;", "st.shared.u32 [%r2], %r5;"), &mut g).unwrap_err()).2;
    assert!(message.contains("touches the mbarrier object at 0x0"), "{message}");
}

/// A bulk copy tracked by an mbarrier's transaction count ("cp.async.bulk",
/// "mbarrier.arrive.expect_tx"): lane 0 of warp 0 expects the bytes and issues the copy; warp 1
/// waits for the phase and reads what landed.
const BULK: &str = r#"
.visible .entry bulk(.param .u64 src, .param .u64 out, .param .u32 expect)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    .shared .align 8 .b8 bar[8];
    .shared .align 128 .b8 tile[128];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    mov.u32 %r7, tile;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra $init_done;
    mbarrier.init.shared::cta.b64 [%r2], 1;
$init_done:
    bar.sync 0;
    shr.u32 %r3, %r1, 5;
    and.b32 %r4, %r1, 31;
    setp.ne.u32 %p2, %r3, 0;
    @%p2 bra $consumer;
    setp.ne.u32 %p3, %r4, 0;
    @%p3 bra $done;
    ld.param.u32 %r5, [expect];
    ld.param.u64 %rd5, [src];
    mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r2], %r5;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r7], [%rd5], 128, [%r2];
    bra $done;
$consumer:
$wait:
    mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r2], 0;
    @!%p3 bra $wait;
    shl.b32 %r9, %r4, 2;
    add.u32 %r10, %r7, %r9;
    ld.shared.u32 %r11, [%r10];
    ld.param.u64 %rd2, [out];
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r11;
$done:
    ret;
}
"#;

#[test]
fn bulk_copies_complete_an_mbarriers_transactions() {
    let mut g = Global::new();
    let words: Vec<u8> = (0..32u32).flat_map(|v| (v * 7 + 1).to_le_bytes()).collect();
    let (src, out) = (g.upload(&words), g.upload(&[0u8; 128]));
    let m = parse(BULK).unwrap();
    let go = |expect: u32, g: &mut Global| {
        run(&m, "bulk", &launch(1, 64), &[Arg::U64(src), Arg::U64(out), Arg::U32(expect)], g)
    };
    go(128, &mut g).unwrap();
    assert_eq!(u32s(&g, out, 32), (0..32u32).map(|v| v * 7 + 1).collect::<Vec<_>>());
    // A transaction count that does not match the bytes delivered: fewer expected than landed,
    // and more (the phase never completes).
    let message = fault(go(64, &mut g).unwrap_err()).2;
    assert!(message.contains("64 more than expected"), "{message}");
    let message = fault(go(256, &mut g).unwrap_err()).2;
    assert!(message.starts_with("deadlock") && message.contains("128 transaction bytes outstanding"), "{message}");
    // A second copy into the stage before the consumer released it: the producer cannot know the
    // first copy's bytes were read.
    let twice = BULK.replace(
        "    bra $done;\n$consumer:",
        "    mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r2], %r5;\n    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r7], [%rd5], 128, [%r2];\n    bra $done;\n$consumer:",
    );
    let m = parse(&twice).unwrap();
    let message =
        fault(run(&m, "bulk", &launch(1, 64), &[Arg::U64(src), Arg::U64(out), Arg::U32(128)], &mut g).unwrap_err()).2;
    assert!(message.contains("a cp.async.bulk overwrites what a cp.async.bulk wrote"), "{message}");
}

/// Two bulk copies on two mbarriers, the second issued after the first: a consumer that waited
/// only for the second has not seen the first's bytes (a thread's copies land in any order), and
/// reading them is a race; waiting for both orders them.
#[test]
fn a_bulk_copy_is_seen_only_through_its_own_mbarrier() {
    let mut g = Global::new();
    let words: Vec<u8> = (0..32u32).flat_map(|v| (v * 7 + 1).to_le_bytes()).collect();
    let (src, out) = (g.upload(&words), g.upload(&[0u8; 128]));
    // The first copy lands in `early` on `bar2`; the consumer reads `early`.
    let two = BULK
        .replace(".shared .align 8 .b8 bar[8];", ".shared .align 8 .b8 bar[8];\n    .shared .align 8 .b8 bar2[8];\n    .shared .align 128 .b8 early[128];")
        .replace(
            "    mbarrier.init.shared::cta.b64 [%r2], 1;",
            "    mbarrier.init.shared::cta.b64 [%r2], 1;\n    mov.u32 %r8, bar2;\n    mbarrier.init.shared::cta.b64 [%r8], 1;",
        )
        .replace(
            "    mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r2], %r5;",
            "    mov.u32 %r8, bar2;\n    mov.u32 %r6, early;\n    mbarrier.arrive.expect_tx.shared::cta.b64 %rd6, [%r8], 128;\n    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r6], [%rd5], 128, [%r8];\n    mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r2], %r5;",
        )
        .replace("    shl.b32 %r9, %r4, 2;\n    add.u32 %r10, %r7, %r9;", "    shl.b32 %r9, %r4, 2;\n    mov.u32 %r6, early;\n    add.u32 %r10, %r6, %r9;");
    let go = |src_text: &str, g: &mut Global| {
        let m = parse(src_text).unwrap();
        run(&m, "bulk", &launch(1, 64), &[Arg::U64(src), Arg::U64(out), Arg::U32(128)], g)
    };
    let message = fault(go(&two, &mut g).unwrap_err()).2;
    assert!(message.contains("reads what a cp.async.bulk wrote"), "{message}");
    let both = two.replace(
        "$wait:",
        "    mov.u32 %r8, bar2;\n$wait2:\n    mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r8], 0;\n    @!%p3 bra $wait2;\n$wait:",
    );
    go(&both, &mut g).unwrap();
    assert_eq!(u32s(&g, out, 32), (0..32u32).map(|v| v * 7 + 1).collect::<Vec<_>>());
}

/// A named barrier of 64 threads between warps 0 and 1 while warp 2 does other work ("bar.sync
/// a, b": barrier `a` completes when `b` threads have arrived), and `elect.sync`: the lowest lane
/// of the mask leads.
const NAMED: &str = r#"
.visible .entry named(.param .u64 out)
{
    .reg .pred %p<4>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .shared .align 4 .b8 tile[256];
    mov.u32 %r1, %tid.x;
    shr.u32 %r3, %r1, 5;
    ld.param.u64 %rd2, [out];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    setp.eq.u32 %p1, %r3, 2;
    @%p1 bra $third;
    shl.b32 %r4, %r1, 2;
    mul.lo.u32 %r5, %r1, 5;
    st.shared.u32 [%r4], %r5;
    bar.sync 1, 64;
    sub.u32 %r6, 63, %r1;
    shl.b32 %r6, %r6, 2;
    ld.shared.u32 %r7, [%r6];
    st.global.u32 [%rd4], %r7;
    ret;
$third:
    mov.u32 %r8, 0;
    and.b32 %r11, %r1, 31;
    setp.ge.u32 %p3, %r11, 4;
    @%p3 elect.sync %r8|%p2, 0xfffffff0;
    selp.u32 %r9, 100, 0, %p2;
    add.u32 %r10, %r8, %r9;
    st.global.u32 [%rd4], %r10;
    ret;
}
"#;

#[test]
fn named_barriers_count_their_threads_and_elect_picks_the_lowest_lane() {
    let mut g = Global::new();
    let out = g.upload(&[0u8; 96 * 4]);
    let m = parse(NAMED).unwrap();
    run(&m, "named", &launch(1, 96), &[Arg::U64(out)], &mut g).unwrap();
    let got = u32s(&g, out, 96);
    assert_eq!(got[..64], (0..64u32).map(|t| (63 - t) * 5).collect::<Vec<_>>()[..]);
    // Warp 2's lanes 4..31 run it, all in the mask: lane 4 leads (lanes 0..3 keep 0).
    let lanes: Vec<u32> = (0..32)
        .map(|l| {
            if l == 4 {
                104
            } else if l < 4 {
                0
            } else {
                4
            }
        })
        .collect();
    assert_eq!(got[64..96], lanes[..]);
    // Warp 2 arriving too: warps 0 and 1 complete barrier 1, warp 2 waits alone at its next use.
    let three = NAMED.replace("    @%p1 bra $third;\n", "    @%p1 bar.sync 1, 64;\n    @%p1 bra $third;\n");
    let message = fault(run(&parse(&three).unwrap(), "named", &launch(1, 96), &[Arg::U64(out)], &mut g).unwrap_err()).2;
    assert!(message.contains("warp 2 waits at barrier 1") && message.contains("32 of 64 threads arrived"), "{message}");
    // Lanes outside elect.sync's mask.
    let outside = NAMED.replace("0xfffffff0", "0x0000fff0");
    let message =
        fault(run(&parse(&outside).unwrap(), "named", &launch(1, 96), &[Arg::U64(out)], &mut g).unwrap_err()).2;
    assert!(message.contains("outside its membermask"), "{message}");
}

/// A tensor-map copy (PTX ISA "cp.async.bulk.tensor", tile mode; the tensor map as
/// `cuTensorMapEncodeTiled` describes it, encoded by `TensorMap::encode`): thread 0 expects the
/// box's bytes and copies the box at (c0, c1); every thread then writes 16 bytes of the tile out.
const TMA: &str = r#"
.visible .entry tma(.param .align 64 .b8 tmap[128], .param .u64 out, .param .u32 c0, .param .u32 c1, .param .u32 bytes)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    .shared .align 8 .b8 bar[8];
    .shared .align 1024 .b8 tile[2048];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    mov.u32 %r7, tile;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra $init_done;
    mbarrier.init.shared::cta.b64 [%r2], 1;
$init_done:
    bar.sync 0;
    @%p1 bra $wait;
    ld.param.u32 %r3, [c0];
    ld.param.u32 %r4, [c1];
    ld.param.u32 %r12, [bytes];
    mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r2], %r12;
    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r7], [tmap, {%r3, %r4}], [%r2];
$wait:
    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
    @!%p2 bra $wait;
    shl.b32 %r5, %r1, 4;
    add.u32 %r6, %r7, %r5;
    ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r6];
    ld.param.u64 %rd2, [out];
    cvt.u64.u32 %rd3, %r5;
    add.s64 %rd4, %rd2, %rd3;
    st.global.v4.u32 [%rd4], {%r8, %r9, %r10, %r11};
    ret;
}
"#;

#[test]
fn tensor_map_copies_place_boxes_swizzled_and_fill_outside() {
    use ptx_sim::{Swizzle, TensorMap};
    // A 20 × 100 tensor of 16-bit elements, element (row, col) = row * 1000 + col; rows 256 bytes
    // apart.
    let (rows, cols, pitch) = (20u64, 100u64, 256usize);
    let mut g = Global::new();
    let mut image = vec![0u8; rows as usize * pitch];
    for r in 0..rows as usize {
        for c in 0..cols as usize {
            image[r * pitch + 2 * c..r * pitch + 2 * c + 2].copy_from_slice(&((r * 1000 + c) as u16).to_le_bytes());
        }
    }
    let base = g.upload(&image);
    let m = parse(TMA).unwrap();
    // What a copy must give: the box row-major, then each byte offset o moved to
    // o ^ (((o >> 7) & mask) << 4) (CuTe's Swizzle<B, 4, 3>), zeros outside the tensor.
    let expect = |map: &TensorMap, (c0, c1): (i64, i64)| -> Vec<u16> {
        let (bw, bh) = (map.box_dims[0] as i64, map.box_dims[1] as i64);
        let mask = match map.swizzle {
            Swizzle::None => 0,
            Swizzle::B32 => 1,
            Swizzle::B64 => 3,
            Swizzle::B128 => 7,
        };
        let mut out = vec![0u16; (bw * bh) as usize];
        for y in 0..bh {
            for x in 0..bw {
                let (r, c) = (c1 + y, c0 + x);
                let v = if (0..rows as i64).contains(&r) && (0..cols as i64).contains(&c) {
                    (r * 1000 + c) as u16
                } else {
                    0
                };
                let o = ((y * bw + x) * 2) as usize;
                out[(o ^ (((o >> 7) & mask) << 4)) / 2] = v;
            }
        }
        out
    };
    for (swizzle, box_w, coords) in [
        (Swizzle::None, 32u32, (8i64, 3i64)),
        (Swizzle::B128, 64, (16, 2)),
        (Swizzle::B64, 32, (40, 5)),
        (Swizzle::B32, 16, (2, 9)),
        // Past both edges and before the first row: zeros.
        (Swizzle::B128, 64, (60, -3)),
    ] {
        let map = TensorMap {
            base,
            elem_bytes: 2,
            dims: vec![cols, rows],
            strides: vec![pitch as u64],
            box_dims: vec![box_w, 8],
            swizzle,
            oob_nan: false,
        };
        map.check().unwrap();
        let bytes = map.box_bytes();
        let threads = (bytes / 16) as u32;
        let out = g.upload(&vec![0u8; bytes]);
        let args = [
            Arg::TensorMap(map.encode()),
            Arg::U64(out),
            Arg::U32(coords.0 as i32 as u32),
            Arg::U32(coords.1 as i32 as u32),
            Arg::U32(bytes as u32),
        ];
        run(&m, "tma", &launch(1, threads), &args, &mut g).unwrap_or_else(|e| panic!("{swizzle:?} at {coords:?}: {e}"));
        let got: Vec<u16> =
            g.read(out, bytes).unwrap().chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(got, expect(&map, coords), "{swizzle:?} box {box_w} at {coords:?}");
    }
    // The driver's rules: an inner box wider than the swizzle, a stride that is not a multiple of
    // 16; and a copy whose expected bytes are fewer than the box.
    let wide = TensorMap {
        base,
        elem_bytes: 2,
        dims: vec![cols, rows],
        strides: vec![pitch as u64],
        box_dims: vec![128, 8],
        swizzle: Swizzle::B128,
        oob_nan: false,
    };
    assert_eq!(wide.check().unwrap_err(), "the box's inner dimension is 256 bytes, over the 128-byte swizzle");
    let odd = TensorMap { strides: vec![200], swizzle: Swizzle::None, box_dims: vec![8, 8], ..wide.clone() };
    assert_eq!(odd.check().unwrap_err(), "global stride 200: a multiple of 16 below 2^40");
    let map = TensorMap { box_dims: vec![32, 8], swizzle: Swizzle::None, ..wide };
    let out = g.upload(&vec![0u8; map.box_bytes()]);
    let args = [Arg::TensorMap(map.encode()), Arg::U64(out), Arg::U32(0), Arg::U32(0), Arg::U32(256)];
    let message = fault(run(&m, "tma", &launch(1, 32), &args, &mut g).unwrap_err()).2;
    assert!(message.contains("256 more than expected"), "{message}");
}

/// Warp specialisation's register moves ("setmaxnreg"): a producer warpgroup gives registers up,
/// two consumer warpgroups take them, within the SM's 64K registers.
const REGS: &str = r#"
.visible .entry regs(.param .u64 out)
.maxnreg 168
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    shr.u32 %r2, %r1, 7;
    setp.ne.u32 %p1, %r2, 0;
    @%p1 bra $consumer;
    setmaxnreg.dec.sync.aligned.u32 PRODUCER;
    bra $store;
$consumer:
    setmaxnreg.inc.sync.aligned.u32 CONSUMER;
$store:
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
"#;

#[test]
fn setmaxnreg_moves_registers_between_warpgroups_within_the_budget() {
    let mut g = Global::new();
    let out = g.upload(&[0u8; 384 * 4]);
    let go = |producer: &str, consumer: &str, g: &mut Global| {
        let text = REGS.replace("PRODUCER", producer).replace("CONSUMER", consumer);
        run(&parse(&text).unwrap(), "regs", &launch(1, 384), &[Arg::U64(out)], g)
    };
    // FlashAttention-3's split: 24 for the producer, 240 for each consumer (64512 registers).
    go("24", "240", &mut g).unwrap();
    assert_eq!(u32s(&g, out, 384)[128..132], [1, 1, 1, 1]);
    let message = fault(go("24", "256", &mut g).unwrap_err()).2;
    // (Found at the consumer warp that crosses it: 4·24 + 7·256 + 168 registers per lane.)
    assert!(message.contains("would hold 65792 registers, over the SM's 65536"), "{message}");
    let message = fault(go("200", "240", &mut g).unwrap_err()).2;
    assert!(message.contains("setmaxnreg.dec 200 would not lower the 168 registers"), "{message}");
    let message = fault(go("20", "240", &mut g).unwrap_err()).2;
    assert!(message.contains("a multiple of 8 in 24 ..= 256"), "{message}");
    // Warps of one warpgroup that disagree (warp 1 of the producer group takes another count).
    let split = REGS
        .replace("PRODUCER", "24")
        .replace("CONSUMER", "240")
        .replace("    setmaxnreg.dec.sync.aligned.u32 24;", "    shr.u32 %r3, %r1, 5;\n    setp.eq.u32 %p1, %r3, 1;\n    @%p1 bra $other;\n    setmaxnreg.dec.sync.aligned.u32 24;\n    bra $store;\n$other:\n    setmaxnreg.dec.sync.aligned.u32 32;");
    let message = fault(run(&parse(&split).unwrap(), "regs", &launch(1, 384), &[Arg::U64(out)], &mut g).unwrap_err()).2;
    assert!(message.contains("where warp 0 of its warpgroup set 24"), "{message}");
}

/// Bulk stores from shared memory ("cp.async.bulk" shared to global, "cp.async.bulk.tensor" in
/// tile mode, "cp.async.bulk.commit_group"/"wait_group.read"): every thread writes 16 bytes of a
/// tile, publishes them to the async proxy and meets the others at a barrier; thread 0 stores the
/// tile as a box of the tensor at (c0, c1) and waits until the tile has been read.
const STORE: &str = r#"
.visible .entry store(.param .align 64 .b8 tmap[128], .param .u32 c0, .param .u32 c1)
{
    .reg .pred %p<2>;
    .reg .b32 %r<16>;
    .shared .align 1024 .b8 tile[2048];
    mov.u32 %r1, %tid.x;
    mov.u32 %r7, tile;
    shl.b32 %r5, %r1, 4;
    add.u32 %r6, %r7, %r5;
    shl.b32 %r8, %r1, 3;
    add.u32 %r9, %r8, 1;
    add.u32 %r10, %r8, 2;
    add.u32 %r11, %r8, 3;
    st.shared.v4.u32 [%r6], {%r8, %r9, %r10, %r11};
    fence.proxy.async.shared::cta;
    bar.sync 0;
    setp.ne.u32 %p1, %r1, 0;
    @%p1 bra $done;
    ld.param.u32 %r3, [c0];
    ld.param.u32 %r4, [c1];
    cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {%r3, %r4}], [%r7];
    cp.async.bulk.commit_group;
    cp.async.bulk.wait_group.read 0;
$done:
    ret;
}
"#;

#[test]
fn bulk_stores_write_boxes_from_published_shared_memory() {
    use ptx_sim::{Swizzle, TensorMap};
    // A 12 × 40 tensor of 32-bit elements (rows 160 bytes apart), box 16 × 8 with the 64-byte
    // swizzle; thread t wrote the tile's words 4t .. 4t + 3 as 8t, 8t + 1, 8t + 2, 8t + 3.
    let (rows, cols, pitch) = (12u64, 40u64, 160u64);
    let mut g = Global::new();
    let base = g.upload(&vec![0xffu8; (rows * pitch) as usize]);
    let map = TensorMap {
        base,
        elem_bytes: 4,
        dims: vec![cols, rows],
        strides: vec![pitch],
        box_dims: vec![16, 8],
        swizzle: Swizzle::B64,
        oob_nan: false,
    };
    let m = parse(STORE).unwrap();
    let threads = (map.box_bytes() / 16) as u32;
    let args = |c0: i32, c1: i32| [Arg::TensorMap(map.encode()), Arg::U32(c0 as u32), Arg::U32(c1 as u32)];
    // The box at (30, 8): columns 30..46 and rows 8..16 overlap the tensor in 10 × 4.
    run(&m, "store", &launch(1, threads), &args(30, 8), &mut g).unwrap();
    let tile_word = |i: usize| 8 * (i / 4) as u32 + (i % 4) as u32;
    for r in 0..rows as usize {
        for c in 0..cols as usize {
            let got = u32::from_le_bytes(g.read(base + (r * 160 + c * 4) as u64, 4).unwrap().try_into().unwrap());
            let inside = (8..16).contains(&r) && (30..46).contains(&c);
            let want = if inside {
                // Box element (y, x) is at byte 4·(16y + x) of the box, swizzled in the tile.
                let o = 4 * (16 * (r - 8) + (c - 30));
                tile_word((o ^ (((o >> 7) & 3) << 4)) / 4)
            } else {
                u32::MAX
            };
            assert_eq!(got, want, "element ({r}, {c})");
        }
    }
    // Without the proxy fence, the async proxy reads what the generic proxy wrote unpublished.
    let unfenced = STORE.replace("    fence.proxy.async.shared::cta;\n", "");
    let message =
        fault(run(&parse(&unfenced).unwrap(), "store", &launch(1, threads), &args(0, 0), &mut g).unwrap_err()).2;
    assert!(message.contains("no fence.proxy.async since"), "{message}");
    // Rewriting the tile before the store has read it.
    let early = STORE.replace(
        "    cp.async.bulk.wait_group.read 0;\n",
        "    st.shared.u32 [%r7], %r8;\n    cp.async.bulk.wait_group.read 0;\n",
    );
    let message = fault(run(&parse(&early).unwrap(), "store", &launch(1, threads), &args(0, 0), &mut g).unwrap_err()).2;
    assert!(message.contains("an in-flight cp.async.bulk store reads"), "{message}");
}
