//! A picture of a plan's attention matrix, as SVG (`attnc plan --emit svg`): queries down, keys
//! across, in tiles of equal size; each tile full, partial or empty under the mask as the
//! analysis sees it (`mask::classify`, the classes the planner and the verifier use), coloured by
//! the rank whose blocks compute it; under the matrix, one strip per rank marking the key rows it
//! reads but does not hold (what it receives). A mask is easier to check by eye than by reading.
//! Under a mask the kernels test at each pair (`Regions::predicate`) the analysis sees its hull:
//! a tile outside it is empty, and every other tile is drawn partial, since the test runs there.
//!
//! Each tile is one `<rect>` with its tokens, class and ranks in `data-` attributes, so the file
//! can be checked by a program as well as by eye.

use std::fmt::Write as _;

use super::mask::classify;
use super::{Interval, MaskClass, OpKind, Plan, RowSet};

/// `text` as XML character data: `&`, `<` and `>` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Tiles per axis at most; the tile size is the smallest that keeps to it.
pub const MAX_TILES: u64 = 64;

/// The fill of an empty tile.
pub const EMPTY: [u8; 3] = [0xf2, 0xf2, 0xf2];
/// The fill of a tile computed by more than one rank (heads split across ranks under a2a, or a
/// tile straddling two ranks' rows).
pub const SHARED: [u8; 3] = [0x55, 0x55, 0x55];

/// Rank colours (cycled past ten ranks), fully saturated for a full tile.
const PALETTE: [[u8; 3]; 10] = [
    [0x1f, 0x77, 0xb4],
    [0xff, 0x7f, 0x0e],
    [0x2c, 0xa0, 0x2c],
    [0xd6, 0x27, 0x28],
    [0x94, 0x67, 0xbd],
    [0x8c, 0x56, 0x4b],
    [0xe3, 0x77, 0xc2],
    [0x7f, 0x7f, 0x7f],
    [0xbc, 0xbd, 0x22],
    [0x17, 0xbe, 0xcf],
];

/// The colour of `rank`'s full tiles.
pub fn rank_color(rank: u32) -> [u8; 3] {
    PALETTE[rank as usize % PALETTE.len()]
}

/// A partial tile's colour: the full colour halfway to white.
pub fn partial_color(full: [u8; 3]) -> [u8; 3] {
    full.map(|c| c + (255 - c) / 2)
}

/// Pixels per tile and around the matrix.
const CELL_MAX: u64 = 12;
const MATRIX_PX: u64 = 640;
const MARGIN: u64 = 48;
const STRIP: u64 = 10;

/// The tile size (tokens per tile side) of a picture of `tokens` tokens.
pub fn tile_tokens(tokens: u64) -> u64 {
    tokens.div_ceil(MAX_TILES).max(1)
}

/// Pixels per tile side.
pub fn cell_px(tokens: u64) -> u64 {
    let tiles = tokens.div_ceil(tile_tokens(tokens));
    (MATRIX_PX / tiles.max(1)).clamp(1, CELL_MAX)
}

/// Where tile (row `i`, column `j`) is drawn: its top-left pixel.
pub fn tile_origin(tokens: u64, i: u64, j: u64) -> (u64, u64) {
    let c = cell_px(tokens);
    (MARGIN + j * c, MARGIN + i * c)
}

/// Per rank: the query tokens × key tokens of each block it computes.
fn blocks(plan: &Plan) -> Vec<(u32, RowSet, RowSet)> {
    let mut out = Vec::new();
    for id in plan.op_ids() {
        let op = plan.op(id);
        let (q, q_rows, kv, kv_rows) = match &op.kind {
            OpKind::AttnFwd { q, q_rows, kv, kv_rows, .. } | OpKind::AttnBwd { q, q_rows, kv, kv_rows, .. } => {
                (q, q_rows, kv, kv_rows)
            }
            _ => continue,
        };
        let q_tokens = RowSet::from_intervals(plan.buf(*q).tokens.tokens_of(q_rows));
        let kv_tokens = RowSet::from_intervals(plan.buf(*kv).tokens.tokens_of(kv_rows));
        out.push((op.rank, q_tokens, kv_tokens));
    }
    out
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The plan's attention matrix as an SVG document.
pub fn svg(plan: &Plan) -> String {
    let p = &plan.problem;
    let n = p.tokens;
    let t = tile_tokens(n);
    let tiles = n.div_ceil(t);
    let c = cell_px(n);
    let cp = plan.header.cp;
    let blocks = blocks(plan);
    // Per tile, the ranks whose blocks hold an allowed pair of it: each block visits only the
    // tiles its rows and keys touch (a ring at cp 1024 has millions of blocks).
    let tiles_of = |set: &RowSet| -> Vec<u64> {
        let mut out: Vec<u64> = set.0.iter().flat_map(|iv| iv.start / t..iv.end.div_ceil(t)).collect();
        out.dedup();
        out
    };
    let mut computed: Vec<Vec<u32>> = vec![Vec::new(); (tiles * tiles) as usize];
    for (rank, q, kv) in &blocks {
        for i in tiles_of(q) {
            let rows = Interval::new(i * t, ((i + 1) * t).min(n));
            let q_in: Vec<Interval> = q.clipped(rows).collect();
            for j in tiles_of(kv) {
                let slot = &mut computed[(i * tiles + j) as usize];
                if slot.contains(rank) {
                    continue;
                }
                let cols = Interval::new(j * t, ((j + 1) * t).min(n));
                if classify(p, &q_in, &RowSet::from_intervals(kv.clipped(cols).collect())).is_some() {
                    slot.push(*rank);
                    slot.sort_unstable();
                }
            }
        }
    }
    let side = tiles * c;
    let legend = (2 * (cp as u64).min(PALETTE.len() as u64) + 2) * 14;
    let (width, height) = (MARGIN * 2 + side + 240, MARGIN * 2 + (side + (cp as u64 + 1) * STRIP + 20).max(legend));
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
    );
    let h = &plan.header;
    // Names and masks as XML text (an expression mask holds `<` and `&`).
    let (layout, strategy, mask) = (escape(&h.layout), escape(&h.strategy), escape(&h.mask));
    let _ = writeln!(
        s,
        "<title>layout {layout} layers {}: {strategy} {:?}, mask {mask}, cp {cp}, {n} tokens, tiles of {t}</title>",
        super::display_layers(&h.layers),
        h.direction,
    );
    let _ = writeln!(s, r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{MARGIN}" y="{}">keys → (tiles of {t} tokens; {strategy} {:?}, mask {mask})</text>"#,
        MARGIN - 20,
        h.direction,
    );
    let _ =
        writeln!(s, r#"<text x="12" y="{y}" transform="rotate(-90 12 {y})">queries ↓</text>"#, y = MARGIN + side / 2);
    let tested = p.regions.as_ref().is_some_and(|r| r.predicate);
    for i in 0..tiles {
        let rows = Interval::new(i * t, ((i + 1) * t).min(n));
        for j in 0..tiles {
            let cols = Interval::new(j * t, ((j + 1) * t).min(n));
            // Some: whether every pair of the tile is allowed (never known under a tested mask).
            let full =
                classify(p, &[rows], &RowSet::range(cols.start, cols.end)).map(|c| c == MaskClass::Full && !tested);
            let ranks = &computed[(i * tiles + j) as usize];
            let (name, fill) = match (full, ranks.as_slice()) {
                (None, _) => ("empty", EMPTY),
                (Some(_), []) => ("uncomputed", [0xff, 0x00, 0xff]),
                (Some(true), [r]) => ("full", rank_color(*r)),
                (Some(false), [r]) => ("partial", partial_color(rank_color(*r))),
                (Some(full), _) => (if full { "full" } else { "partial" }, SHARED),
            };
            let (x, y) = tile_origin(n, i, j);
            let who = ranks.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{}" data-q="{rows}" data-k="{cols}" data-class="{name}" data-ranks="{who}"/>"#,
                hex(fill)
            );
        }
    }
    // Per rank, the key tokens its blocks read that its shard does not hold.
    let strips = MARGIN + side + 8;
    for rank in 0..cp {
        let owned = plan.partition.get(rank as usize).map(|m| m.token_set()).unwrap_or_default();
        let mut read = RowSet::default();
        for (_, _, kv) in blocks.iter().filter(|(r, _, _)| *r == rank) {
            read = read.union(kv);
        }
        let received = read.minus(&owned);
        let y = strips + rank as u64 * STRIP;
        let _ = writeln!(s, r#"<text x="{}" y="{}">rank {rank} receives</text>"#, MARGIN + side + 8, y + STRIP - 2);
        for iv in &received.0 {
            let x0 = MARGIN + iv.start * side / n.max(1);
            let x1 = (MARGIN + iv.end * side / n.max(1)).max(x0 + 1);
            let _ = writeln!(
                s,
                r#"<rect x="{x0}" y="{y}" width="{}" height="{}" fill="{}" data-rank="{rank}" data-k="{iv}"/>"#,
                x1 - x0,
                STRIP - 2,
                hex(rank_color(rank))
            );
        }
    }
    // The legend: each rank's full and partial colour, and the other fills.
    let lx = MARGIN + side + 120;
    let mut ly = MARGIN;
    let mut key = |s: &mut String, fill: [u8; 3], text: &str| {
        let _ = writeln!(s, r#"<rect x="{lx}" y="{ly}" width="10" height="10" fill="{}"/>"#, hex(fill));
        let _ = writeln!(s, r#"<text x="{}" y="{}">{text}</text>"#, lx + 14, ly + 9);
        ly += 14;
    };
    for rank in 0..cp.min(PALETTE.len() as u32) {
        key(&mut s, rank_color(rank), &format!("rank {rank} full"));
        key(&mut s, partial_color(rank_color(rank)), &format!("rank {rank} partial"));
    }
    key(&mut s, SHARED, "several ranks");
    key(&mut s, EMPTY, "empty");
    s.push_str("</svg>\n");
    s
}
