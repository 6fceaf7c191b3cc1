use attnc_compiler::back::cranelift::Jit;
use attnc_compiler::kernel::*;
fn main() {
    let spec = KernelSpec {
        kind: KernelKind::Forward,
        head_dim: 16,
        dtype: attnc_compiler::sema::spec::Dtype::Fp32,
        group: 1,
        mask: KernelMask::None,
        tile_q: 2,
        tile_kv: 16,
    };
    println!("{}", Jit::disassembly(&spec).unwrap());
}
