//! `attnc plan --emit svg`: the picture of a plan's attention matrix, rendered to pixels (resvg)
//! and read back at tiles whose class and computing rank are known.

use attnc_codegen_tests::{layout_of, small_spec};
use attnc_compiler::ir::picture::{self, EMPTY, SHARED, partial_color, rank_color};
use attnc_compiler::passes::{self, PlanOptions};

/// The colour at the centre of tile (`i`, `j`) of a rendered picture of `tokens` tokens.
fn pixel(svg: &str, tokens: u64, i: u64, j: u64) -> [u8; 3] {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let (x, y) = picture::tile_origin(tokens, i, j);
    let half = picture::cell_px(tokens) / 2;
    let p = pixmap.pixel((x + half) as u32, (y + half) as u32).expect("inside the picture");
    [p.red(), p.green(), p.blue()]
}

fn picture_of(fields: &str) -> (String, u64) {
    let layout = layout_of(&small_spec(4, 4, fields)).unwrap();
    let set = passes::compile(&layout, &PlanOptions::default()).unwrap();
    let plan = &set.classes[0].forward;
    (picture::svg(plan), plan.problem.tokens)
}

#[test]
fn zigzag_ring_tiles_show_class_and_rank() {
    // 256 tokens at cp 2, zigzag chunks of 64: rank 0 holds 0..64 and 192..256, rank 1 64..192.
    // Tiles of 4 tokens (64 per axis).
    let (svg, n) = picture_of("  seq = 256\n  cp = 2\n  dp = 8\n  mask = causal\n  strategy = p2p");
    assert_eq!(picture::tile_tokens(n), 4);
    // Queries 200..204 × keys 0..4: below the diagonal, rank 0's queries.
    assert_eq!(pixel(&svg, n, 50, 0), rank_color(0));
    // Queries 100..104 × keys 0..4: rank 1's.
    assert_eq!(pixel(&svg, n, 25, 0), rank_color(1));
    // Queries 100..104 × keys 100..104: the diagonal, partial.
    assert_eq!(pixel(&svg, n, 25, 25), partial_color(rank_color(1)));
    // Queries 0..4 × keys 200..204: above the diagonal, empty.
    assert_eq!(pixel(&svg, n, 0, 50), EMPTY);
    // The key rows each rank receives: rank 1 reads rank 0's first chunk (0..64) below its rows.
    assert!(svg.contains(r#"data-rank="1" data-k="0..64""#), "{svg}");
    assert!(svg.contains(r#"data-rank="0" data-k="64..192""#), "{svg}");
}

#[test]
fn head_split_tiles_are_shared_and_windows_empty_far_tiles() {
    // Ulysses: every rank computes every tile for its heads.
    let (svg, n) = picture_of("  seq = 256\n  cp = 2\n  dp = 8\n  mask = causal\n  strategy = a2a");
    assert_eq!(pixel(&svg, n, 50, 0), SHARED);
    assert_eq!(pixel(&svg, n, 0, 50), EMPTY);
    // A window of 16: keys more than 16 behind are empty, the band is partial or full.
    let (svg, n) = picture_of("  seq = 256\n  cp = 2\n  dp = 8\n  mask = causal { window = 16 }\n  strategy = p2p");
    assert_eq!(pixel(&svg, n, 50, 0), EMPTY);
    assert_eq!(pixel(&svg, n, 50, 48), rank_color(0));
    assert_eq!(pixel(&svg, n, 50, 50), partial_color(rank_color(0)));
    // Every other key of that window, which the kernels test per pair: the same empty tiles (the
    // hull is the window), and no tile drawn full.
    let (svg, n) = picture_of(
        "  seq = 256\n  cp = 2\n  dp = 8\n  mask = k <= q & q - k < 16 & (q - k) % 2 == 0\n  strategy = p2p",
    );
    assert_eq!(pixel(&svg, n, 50, 0), EMPTY);
    assert_eq!(pixel(&svg, n, 50, 48), partial_color(rank_color(0)));
    assert!(!svg.contains(r#"data-class="full""#), "{svg}");
}
