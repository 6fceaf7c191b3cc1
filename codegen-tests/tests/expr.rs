//! Mask and score expressions (`compiler/src/expr`): parsing with spans, type errors with help,
//! the interpreter against the named masks' definitions, and the interval analysis of tiles —
//! sound for random expressions, exact for the named masks, and in agreement with the planner's
//! classification (`ir::mask::classify`).

use attnc_compiler::expr::eval::{Point, truth};
use attnc_compiler::expr::interval::{Tile, TileClass, brute, classify};
use attnc_compiler::expr::regions::{self, Cell, Regions};
use attnc_compiler::expr::score;
use attnc_compiler::expr::{BinOp, Context, Expr, ExprKind, MaskExpr, Type, Var, library, parse::parse};
use attnc_compiler::ir::{Interval, MaskClass, Problem, RowSet, mask};
use attnc_compiler::spec::Mask;
use proptest::prelude::*;

fn mask_of(text: &str) -> MaskExpr {
    MaskExpr::new(parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn parse_spans_and_precedence() {
    let e = parse("k <= q & q - k < 128").unwrap();
    let ExprKind::Binary(BinOp::And, a, b) = &e.kind else { panic!("{e:?}") };
    assert_eq!((a.span, b.span), ((0, 6), (9, 20)));
    assert!(matches!(b.kind, ExprKind::Binary(BinOp::Lt, _, _)));
    assert_eq!(e.type_of(Context::Mask), Ok(Type::Bool));
    let score = parse("min(s, 50.0 * tanh(s / 50.0)) - 0.5 * (q - k)").unwrap();
    assert_eq!(score.type_of(Context::Score), Ok(Type::Float));
    assert!(parse("doc(q) == doc(k) & !(k > q)").unwrap().reads(Var::DocK));
}

#[test]
fn syntax_and_type_errors_point_at_their_text_with_help() {
    // (text, where, span, message, help)
    type Case = (&'static str, Context, (usize, usize), &'static str, &'static str);
    let cases: [Case; 8] = [
        ("k <= q <= 5", Context::Mask, (7, 9), "comparisons do not chain", "join two comparisons with `&`"),
        ("k <= qq", Context::Mask, (5, 7), "unknown name `qq`", "did you mean `q`?"),
        ("k <= q &", Context::Mask, (8, 8), "the expression ends too early", "complete it"),
        ("doc(h) == doc(k)", Context::Mask, (4, 5), "`doc` takes `q` or `k`", "write `doc(q) == doc(k)`"),
        ("q / 0 == k / 0", Context::Mask, (4, 5), "`/` by 0", "divide by a positive constant"),
        ("s > 0", Context::Mask, (0, 1), "`s` (the score) is not known", "move score changes to `score = …`"),
        ("k <= q | 3", Context::Mask, (0, 10), "`|` joins conditions", "compare first"),
        ("k + q", Context::Mask, (0, 5), "a mask is a condition, not an integer", "compare positions"),
    ];
    for (text, context, span, message, help) in cases {
        let (got_span, got_message, got_help) = match parse(text) {
            Err(e) => (e.span, e.message, e.help),
            Ok(e) => match (e.type_of(context), context) {
                (Err(t), _) => (t.span, t.message, t.help),
                (Ok(_), Context::Mask) => match MaskExpr::new(e) {
                    Err(t) => (t.span, t.message, t.help),
                    Ok(_) => panic!("{text}: accepted"),
                },
                (Ok(_), Context::Score) => panic!("{text}: accepted"),
            },
        };
        assert_eq!(got_span, span, "{text}: {got_message}");
        assert!(got_message.contains(message), "{text}: {got_message}");
        assert!(got_help.as_deref().unwrap_or("").contains(help), "{text}: {got_help:?}");
    }
}

/// The named masks' definitions, pair by pair (positions within one sequence).
fn defined(mask: Mask, q: i64, k: i64) -> bool {
    let (window, chunk) = (mask.window(), mask.chunk());
    match mask {
        Mask::None | Mask::Padding => true,
        _ => k <= q && window.is_none_or(|w| q - k < w as i64) && chunk.is_none_or(|c| q / c as i64 == k / c as i64),
    }
}

fn named_masks() -> Vec<Mask> {
    let mut out = vec![Mask::None, Mask::CAUSAL];
    for (window, chunk) in [(Some(1), None), (Some(5), None), (None, Some(1)), (None, Some(4)), (Some(3), Some(8))] {
        out.push(Mask::Causal { window, chunk });
        out.push(Mask::PaddingCausal { window, chunk });
    }
    out
}

#[test]
fn library_masks_evaluate_as_defined() {
    for m in named_masks() {
        let Some(e) = library::expr(m) else {
            assert!(matches!(m, Mask::None | Mask::Padding));
            continue;
        };
        for q in 0..40 {
            for k in 0..40 {
                let at = Point { q, k, ..Point::default() };
                assert_eq!(truth(&e.0, &at).unwrap(), defined(m, q, k), "{m:?} q {q} k {k}");
            }
        }
    }
    // In documents: a pair across two sequences is never allowed.
    let e = library::expr_in_documents(Mask::CAUSAL);
    assert!(!truth(&e.0, &Point { q: 5, k: 1, doc_q: 1, doc_k: 0, ..Point::default() }).unwrap());
    assert!(truth(&e.0, &Point { q: 5, k: 1, doc_q: 1, doc_k: 1, ..Point::default() }).unwrap());
}

fn tile(q: (i64, i64), k: (i64, i64)) -> Tile {
    Tile { q, k, h: (0, 0), doc_q: (0, 0), doc_k: (0, 0) }
}

/// Every tile of every size on a 0..48 grid: the analysis equals counting pair by pair, and the
/// planner's classification of the same block (one sequence of 48 tokens).
#[test]
fn analysis_is_exact_for_named_masks_and_agrees_with_the_planner() {
    for m in named_masks().into_iter().filter(|m| !matches!(m, Mask::None | Mask::Padding)) {
        let e = library::expr(m).unwrap();
        let problem = Problem { causal: true, window: m.window(), chunk: m.chunk(), ..Problem::single(48, 1, 8) };
        for size in [1, 3, 4, 8, 16] {
            for q0 in (0..48).step_by(size) {
                for k0 in (0..48).step_by(size) {
                    let (q1, k1) = ((q0 + size).min(48) - 1, (k0 + size).min(48) - 1);
                    let t = tile((q0 as i64, q1 as i64), (k0 as i64, k1 as i64));
                    let got = classify(&e, &t);
                    assert_eq!(Some(got), brute(&e, &t), "{m:?} {t:?}");
                    let planner = mask::classify(
                        &problem,
                        &[Interval::new(q0 as u64, q1 as u64 + 1)],
                        &RowSet::range(k0 as u64, k1 as u64 + 1),
                    );
                    let planner = match planner {
                        None => TileClass::Empty,
                        Some(MaskClass::Full) => TileClass::Full,
                        Some(_) => TileClass::Partial,
                    };
                    assert_eq!(got, planner, "{m:?} {t:?}");
                }
            }
        }
    }
}

/// Random integer expressions over q, k and h, compared with constants and joined by & | !.
fn arb_int() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![Just(Var::Q), Just(Var::K), Just(Var::H),]
        .prop_map(|v| Expr::new(ExprKind::Var(v), (0, 0)))
        .boxed();
    let leaf = prop_oneof![leaf, (-20i64..40).prop_map(|i| Expr::new(ExprKind::Int(i), (0, 0)))];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), prop_oneof![Just(BinOp::Add), Just(BinOp::Sub), Just(BinOp::Mul)], inner.clone())
                .prop_map(|(a, op, b)| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), (0, 0))),
            (inner, prop_oneof![Just(BinOp::Div), Just(BinOp::Rem)], 1i64..9).prop_map(|(a, op, d)| {
                let d = Expr::new(ExprKind::Int(d), (0, 0));
                Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(d)), (0, 0))
            }),
        ]
    })
}

fn arb_mask() -> impl Strategy<Value = Expr> {
    let cmp = prop_oneof![
        Just(BinOp::Lt),
        Just(BinOp::Le),
        Just(BinOp::Gt),
        Just(BinOp::Ge),
        Just(BinOp::Eq),
        Just(BinOp::Ne)
    ];
    let atom = (arb_int(), cmp, arb_int())
        .prop_map(|(a, op, b)| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), (0, 0)));
    atom.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), prop_oneof![Just(BinOp::And), Just(BinOp::Or)], inner.clone())
                .prop_map(|(a, op, b)| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), (0, 0))),
            inner.prop_map(|a| Expr::new(ExprKind::Unary(attnc_compiler::expr::UnOp::Not, Box::new(a)), (0, 0))),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A tile called empty holds no allowed pair; one called full holds only allowed pairs.
    #[test]
    fn analysis_is_sound(e in arb_mask(), q0 in 0i64..30, k0 in 0i64..30, qn in 0i64..10, kn in 0i64..10, h in 0i64..3) {
        let m = MaskExpr::new(e).expect("generated masks type-check");
        let t = Tile { q: (q0, q0 + qn), k: (k0, k0 + kn), h: (0, h), doc_q: (0, 0), doc_k: (0, 0) };
        if let Some(truth) = brute(&m, &t) {
            match classify(&m, &t) {
                TileClass::Partial => {}
                got => prop_assert_eq!(got, truth, "{:?}", m.0),
            }
        }
    }
}

/// The masks the language is for, beyond the named ones (issue 30): prefix-LM, global tokens with
/// a window, a per-head window. Their tiles are classified exactly on a 0..40 grid, heads 0..3.
#[test]
fn new_masks_are_classified_exactly() {
    let masks = [
        "k <= q | k < 8",                               // prefix-LM: an 8-token bidirectional prefix
        "k < 4 | q < 4 | (k <= q & q - k < 8)",         // 4 global tokens and a window of 8
        "k <= q & q - k < 4 + 4 * h",                   // a window per head: 4, 8, 12
        "doc(q) == doc(k) & k <= q & (q - k) % 2 == 0", // documents, every other key
    ];
    for text in masks {
        let m = mask_of(text);
        for size in [1, 4, 5, 8] {
            for q0 in (0..40).step_by(size) {
                for k0 in (0..40).step_by(size) {
                    for (h, docs) in
                        [((0, 0), ((0, 0), (0, 0))), ((0, 2), ((0, 0), (0, 0))), ((1, 1), ((1, 1), (0, 1)))]
                    {
                        let t = Tile {
                            q: (q0 as i64, (q0 + size).min(40) as i64 - 1),
                            k: (k0 as i64, (k0 + size).min(40) as i64 - 1),
                            h,
                            doc_q: docs.0,
                            doc_k: docs.1,
                        };
                        assert_eq!(classify(&m, &t), brute(&m, &t).unwrap(), "{text} {t:?}");
                    }
                }
            }
        }
    }
}

/// The keys a rank's queries need, from the expression, equal the planner's `ir::needed` for the
/// named masks (one sequence of 64 tokens; zigzag, contiguous and scattered query sets).
#[test]
fn needed_keys_agree_with_the_planner() {
    use attnc_compiler::expr::interval::needed_keys;
    use attnc_compiler::ir::needed;
    let query_sets: [&[(u64, u64)]; 5] =
        [&[(0, 8), (56, 64)], &[(24, 32), (32, 40)], &[(40, 48)], &[(0, 1)], &[(5, 9), (20, 21), (60, 64)]];
    for m in named_masks().into_iter().filter(|m| !matches!(m, Mask::None | Mask::Padding)) {
        let e = library::expr(m).unwrap();
        let problem = Problem { causal: true, window: m.window(), chunk: m.chunk(), ..Problem::single(64, 1, 8) };
        for set in query_sets {
            let queries = RowSet::from_intervals(set.iter().map(|&(a, b)| Interval::new(a, b)).collect());
            let want: Vec<(i64, i64)> =
                needed::needed_keys(&problem, &queries).0.iter().map(|i| (i.start as i64, i.end as i64 - 1)).collect();
            let q: Vec<(i64, i64)> = set.iter().map(|&(a, b)| (a as i64, b as i64 - 1)).collect();
            let got = needed_keys(&e, &q, (0, 63), &tile((0, 0), (0, 0)));
            assert_eq!(got, want, "{m:?} {set:?}");
        }
    }
    // Beyond the named masks: prefix-LM's queries need the prefix and their causal keys.
    let prefix = mask_of("k <= q | k < 8");
    assert_eq!(needed_keys(&prefix, &[(20, 23)], (0, 63), &tile((0, 0), (0, 0))), vec![(0, 23)]);
    assert_eq!(needed_keys(&prefix, &[(2, 3)], (0, 63), &tile((0, 0), (0, 0))), vec![(0, 7)]);
}

/// The named mask an expression says (`named::mask`), or the start of why not.
fn named_of(text: &str) -> Result<Mask, String> {
    attnc_compiler::expr::named::mask(&mask_of(text)).map_err(|u| u.message)
}

#[test]
fn named_masks_read_back_from_their_library_expressions() {
    for m in named_masks() {
        let bshd = match m {
            Mask::Padding => Mask::None,
            Mask::PaddingCausal { window, chunk } => Mask::Causal { window, chunk },
            m => m,
        };
        let text = library::text(m).unwrap_or_else(|| "k >= 0".to_string());
        assert_eq!(named_of(&text), Ok(bshd), "{text}");
        let in_docs = library::expr_in_documents(m);
        assert_eq!(attnc_compiler::expr::named::mask(&in_docs).map_err(|u| u.message), Ok(bshd), "{:?}", in_docs.0);
    }
}

/// A mask is read by what it says, not how it is spelt; what is not a named mask says why.
#[test]
fn spellings_of_named_masks() {
    let causal = Ok(Mask::CAUSAL);
    let window = |w| Ok(Mask::Causal { window: Some(w), chunk: None });
    let cases: &[(&str, Result<Mask, String>)] = &[
        ("k <= q", causal.clone()),
        ("q >= k", causal.clone()),
        ("!(k > q)", causal.clone()),
        ("k < q + 1", causal.clone()),
        ("0 <= q - k", causal.clone()),
        ("k <= q & k >= 0 & doc(q) == doc(k)", causal.clone()),
        ("k <= q & k - q <= 0 & q - k > -1", causal.clone()),
        ("!(k > q | q - k >= 128)", window(128)),
        ("k <= q & 2 * q - 2 * k < 256", window(128)),
        ("k <= q & 2 * q - 2 * k <= 255", window(128)),
        ("k <= q & q - k <= 127", window(128)),
        ("k > q - 128 & q >= k", window(128)),
        ("k <= q & q - k < 100 & q - k < 50", window(50)),
        ("k <= q & q - k < 1", window(1)),
        ("q / 64 == k / 64 & k <= q", Ok(Mask::Causal { window: None, chunk: Some(64) })),
        ("k <= q & !(k / 8 != q / 8)", Ok(Mask::Causal { window: None, chunk: Some(8) })),
        ("k >= 0", Ok(Mask::None)),
        ("q >= 0 & 3 > -1", Ok(Mask::None)),
    ];
    for (text, want) in cases {
        assert_eq!(&named_of(text), want, "{text}");
    }
    let refused = [
        ("k <= q | k < 8", "union"),
        ("k <= q & h < 2", "the head `h`"),
        ("k < 0", "no pair"),
        ("q - k < 8", "no causal constraint"),
        ("k <= q & q % 2 == 0", "`%` of positions"),
        ("k <= q & q * k < 9", "a product of positions"),
        ("k <= q & q != k", "`!=` between positions"),
        ("k <= q & k < 100", "a constraint other than"),
        ("k <= q & q / 8 == k / 8 & q / 4 == k / 4", "two chunk sizes"),
        ("k <= q & doc(q) != doc(k)", "across packed sequences"),
    ];
    for (text, reason) in refused {
        let got = named_of(text);
        assert!(got.as_ref().is_err_and(|m| m.contains(reason)), "{text}: {got:?}");
    }
}

/// Random conjunctions of linear comparisons and chunk tests, with negations pushed around.
fn arb_conjunction() -> impl Strategy<Value = String> {
    let linear = (-2i64..=2, -2i64..=2, -6i64..=6).prop_map(|(a, b, c)| format!("{a} * q + {b} * k + {c}"));
    let cmp = prop_oneof![Just("<"), Just("<="), Just(">"), Just(">="), Just("==")];
    let atom = prop_oneof![
        4 => (linear.clone(), cmp, linear).prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        1 => (1u64..6).prop_map(|c| format!("(q / {c} == k / {c})")),
        2 => Just("(k <= q)".to_string()),
    ];
    let negated = (atom, any::<bool>()).prop_map(|(a, flip)| if flip { format!("!!{a}") } else { a });
    prop::collection::vec(negated, 1..4).prop_map(|atoms| atoms.join(" & "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Whenever an expression is read as a named mask, the two agree at every pair of a 0..40
    /// grid (the named mask by its library expression).
    #[test]
    fn named_reading_is_sound(text in arb_conjunction()) {
        let e = mask_of(&text);
        if let Ok(m) = attnc_compiler::expr::named::mask(&e) {
            let library = library::expr(m);
            for q in 0..40 {
                for k in 0..40 {
                    let at = Point { q, k, ..Point::default() };
                    let want = library.as_ref().is_none_or(|l| truth(&l.0, &at).unwrap());
                    prop_assert_eq!(truth(&e.0, &at).unwrap(), want, "{} as {:?} at q {} k {}", text, m, q, k);
                }
            }
        }
    }

    /// An expression printed back (`attnc fmt`) parses to one that prints the same and has the
    /// same value everywhere on a grid.
    #[test]
    fn printed_expressions_read_back(e in arb_mask()) {
        let printed = e.to_string();
        let back = parse(&printed).map_err(|err| TestCaseError::fail(format!("{printed}: {err}")))?;
        prop_assert_eq!(back.to_string(), printed.clone());
        for q in 0..12 {
            for k in 0..12 {
                for h in 0..2 {
                    let at = Point { q, k, h, ..Point::default() };
                    prop_assert_eq!(truth(&e, &at).ok(), truth(&back, &at).ok(), "{}", printed);
                }
            }
        }
    }
}

/// A layout whose mask is written as an expression plans exactly as the named spelling: the
/// same plan text, forward and backward (bshd and thd, p2p and a2a).
#[test]
fn expression_masks_plan_as_their_named_spelling() {
    use attnc_codegen_tests::{layout_of, small_spec};
    use attnc_compiler::ir::print;
    use attnc_compiler::passes::{self, PlanOptions};
    let cases = [
        ("causal", "q >= k", "seq = 4K\n  cp = 4\n  strategy = p2p"),
        ("causal { window = 300 }", "k <= q & q - k < 300", "seq = 4K\n  cp = 4\n  strategy = p2p"),
        ("causal { chunk = 512 }", "k <= q & q / 512 == k / 512", "seq = 4K\n  cp = 4\n  strategy = a2a"),
        ("none", "k >= 0", "seq = 4K\n  cp = 4\n  strategy = all_gather"),
        (
            "padding_causal { window = 64 }",
            "k <= q & q - k < 64",
            "format = thd { max_seqlen = 2K, max_tokens = 4K }\n  cp = 4\n  strategy = p2p",
        ),
    ];
    for (named, expression, fields) in cases {
        let plans = |mask: &str| {
            let layout = layout_of(&small_spec(4, 4, &format!("  {fields}\n  mask = {mask}")))
                .unwrap_or_else(|e| panic!("{mask}: {e}"));
            let thd = matches!(layout.format, attnc_compiler::spec::Format::Thd { .. });
            let options = PlanOptions {
                seqlens: thd.then(|| vec![700, 1300, 90]),
                backward: true,
                verify: true,
                ..Default::default()
            };
            let set = passes::compile(&layout, &options).unwrap_or_else(|e| panic!("{mask}: {e}"));
            (
                layout.layers.clone(),
                set.classes
                    .iter()
                    .flat_map(|c| std::iter::once(&c.forward).chain(&c.backward))
                    .map(|p| print::text(p, None))
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(plans(named), plans(expression), "{named} vs {expression}");
    }
}

/// A mask that is a named one region by region (`expr::regions`), its regions checked.
fn regions_of(text: &str) -> Regions {
    regions::of(&mask_of(text)).unwrap_or_else(|u| panic!("{text}: {}", u.message))
}

#[test]
fn regional_masks_read_as_cells() {
    use attnc_compiler::spec::Band;
    const FULL: Cell = Cell::FULL;
    const CAUSAL: Cell = Cell::CAUSAL;
    let band = |lo, end| Cell::Band(Band { lo, end });
    /// The text, its query cuts, key cuts and cells.
    type Case = (&'static str, &'static [u64], &'static [u64], Vec<Cell>);
    let cases: &[Case] = &[
        // Prefix-LM: keys below 300 are seen by every query, the rest causally.
        ("k <= q | k < 300", &[], &[300], vec![FULL, CAUSAL]),
        ("k < 300 | q >= k", &[], &[300], vec![FULL, CAUSAL]),
        // Global tokens: the first 4 keys and queries see everything, the rest a window.
        ("k < 4 | q < 4 | (k <= q & q - k < 256)", &[4], &[4], vec![FULL, FULL, FULL, Cell::window(256)]),
        // Causal for the first 10 queries, then a window of 5.
        ("k <= q & (q < 10 | q - k < 5)", &[10], &[], vec![CAUSAL, Cell::window(5)]),
        // Keys from 8 on are hidden from every query.
        ("k <= q & k < 8", &[], &[8], vec![CAUSAL, Cell::Empty]),
        ("k <= q & k <= 7", &[], &[8], vec![CAUSAL, Cell::Empty]),
        // Bands no name covers: a two-sided window (Longformer's), one region of its own.
        ("q - k < 5 & k - q < 5", &[], &[], vec![band(Some(-4), Some(5))]),
        // Keys strictly before the query.
        ("k < q", &[], &[], vec![band(Some(1), None)]),
        // Global keys and queries, a two-sided window elsewhere.
        ("k < 4 | q < 4 | (q - k < 3 & k - q < 3)", &[4], &[4], vec![FULL, FULL, FULL, band(Some(-2), Some(3))]),
        // A lone window where every key is before every query is the causal window it equals.
        (
            "(q >= 20 & k < 10 & q - k < 15) | (q < 20 & k <= q)",
            &[20],
            &[10],
            vec![CAUSAL, CAUSAL, Cell::window(15), Cell::Empty],
        ),
        // Keys from two after the query on, for all but the first 3 queries.
        ("k - q >= 2 | q < 3", &[3], &[], vec![FULL, band(None, Some(-1))]),
    ];
    for (text, q_cuts, k_cuts, cells) in cases {
        let r = regions_of(text);
        assert_eq!(
            (r.q_cuts.as_slice(), r.k_cuts.as_slice(), r.cells.as_slice()),
            (*q_cuts, *k_cuts, cells.as_slice()),
            "{text}"
        );
    }
    let refused = [("k <= q | k < h", "the head `h`"), ("k <= q | doc(q) < 2", "`doc(q)` or `doc(k)` outside")];
    for (text, reason) in refused {
        let got = regions::of(&mask_of(text));
        assert!(got.as_ref().is_err_and(|u| u.message.contains(reason)), "{text}: {got:?}");
    }
}

/// Plans spell a cell as its band (the named bands by name, others by their sides), an empty one
/// as `null`; each spelling reads back as the cell.
#[test]
fn cells_are_recorded_as_bands() {
    use attnc_compiler::spec::Band;
    let cases = [
        (Cell::Empty, "null"),
        (Cell::FULL, r#"{"kind":"none"}"#),
        (Cell::CAUSAL, r#"{"kind":"causal"}"#),
        (Cell::window(256), r#"{"kind":"window","window":256}"#),
        (Cell::Band(Band { lo: Some(-4), end: Some(5) }), r#"{"kind":"band","lo":-4,"end":5}"#),
        (Cell::Band(Band { lo: Some(1), end: None }), r#"{"kind":"band","lo":1}"#),
    ];
    for (cell, json) in cases {
        assert_eq!(serde_json::to_string(&cell).unwrap(), json);
        assert_eq!(serde_json::from_str::<Cell>(json).unwrap(), cell);
    }
    assert!(serde_json::from_str::<Cell>(r#"{"kind":"window","window":0}"#).is_err());
}

/// Random unions and intersections of comparisons of one position with a constant and of the
/// named masks' constraints, with negations.
fn arb_regional() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        (0u64..30).prop_map(|c| format!("q < {c}")),
        (0u64..30).prop_map(|c| format!("k < {c}")),
        (0u64..30).prop_map(|c| format!("k >= {c}")),
        (0u64..30).prop_map(|c| format!("2 * k <= {c}")),
        Just("k <= q".to_string()),
        (1u64..12).prop_map(|w| format!("(k <= q & q - k < {w})")),
        // Bands no name covers: one side alone, either way round, and two-sided windows.
        (-6i64..12).prop_map(|c| format!("q - k < {c}")),
        (-6i64..12).prop_map(|c| format!("k - q <= {c}")),
        (1u64..8, 1u64..8).prop_map(|(a, b)| format!("(q - k < {a} & k - q < {b})")),
        // No band: an anti-diagonal, a stride, a chunk test, keys other than the query.
        (0u64..60).prop_map(|c| format!("q + k >= {c}")),
        (2u64..4, 0u64..3).prop_map(|(m, r)| format!("(q - k) % {m} == {r}")),
        (2u64..9).prop_map(|c| format!("q / {c} == k / {c}")),
        Just("q != k".to_string()),
    ];
    atom.prop_recursive(3, 10, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} | {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} & {b})")),
            inner.prop_map(|a| format!("!({a})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Whenever a mask is read as regions, each region's rule equals the expression at every pair
    /// of a 0..40 grid; where some region is no band (`predicate`), each region's band holds
    /// every pair the expression allows, and the kernels' test of the mask (`score::of_masked`)
    /// equals the expression at every pair.
    #[test]
    fn regions_are_exact_or_hulls(text in arb_regional()) {
        let e = mask_of(&text);
        let Ok(r) = regions::of(&e) else { return Ok(()) };
        let test = r.predicate.then(|| score::of_masked(None, &e.0).unwrap());
        for q in 0..40u64 {
            for k in 0..40u64 {
                let at = Point { q: q as i64, k: k as i64, ..Point::default() };
                let want = truth(&e.0, &at).unwrap();
                match &test {
                    None => prop_assert_eq!(r.allows(q, k), want, "{} as {:?} at q {} k {}", text, r, q, k),
                    Some(test) => {
                        prop_assert!(r.allows(q, k) || !want, "{} as {:?} hides q {} k {}", text, r, q, k);
                        let (v, _) = score::eval(test, 0.5, (q as i64, k as i64), &[]);
                        prop_assert_eq!(v == 0.5, want, "{} tested {} at q {} k {}", text, v, q, k);
                    }
                }
            }
        }
    }

    /// The kernels' test of any mask of integer terms over q, k and h (`score::of_masked`): the
    /// score where the mask holds, −∞ and slope 0 where it does not, at every pair of a grid and
    /// both heads (tests of the head alone are per-head values).
    #[test]
    fn masked_scores_test_the_mask(e in arb_mask()) {
        let Ok(test) = score::of_masked(None, &e) else { return Ok(()) };
        for h in 0..2 {
            let heads = test.head_values(h as u32, 0, &[]);
            for q in 0..12 {
                for k in 0..12 {
                    let at = Point { q, k, h, ..Point::default() };
                    let Ok(want) = truth(&e, &at) else { continue };
                    let (v, d) = score::eval(&test, 0.75, (q, k), &heads);
                    let got = if want { (0.75, 1.0) } else { (f32::NEG_INFINITY, 0.0) };
                    prop_assert_eq!((v, d), got, "{} at q {} k {} h {}", e, q, k, h);
                }
            }
        }
    }
}

/// Masks that are no band in some region compile as hulls the planner follows and a test the
/// kernels apply: the hull of each region, and masks still refused.
#[test]
fn masks_that_are_no_band_are_hulls_and_tests() {
    /// The mask, its query cuts, key cuts and cells.
    type Hulls<'a> = &'a [(&'a str, &'a [u64], &'a [u64], &'a [Cell])];
    let cases: Hulls = &[
        ("k <= q & (q - k < 64 | q - k >= 4096)", &[], &[], &[Cell::CAUSAL]),
        ("k <= q & q - k < 4096 & (q - k) % 2 == 0", &[], &[], &[Cell::window(4096)]),
        ("k <= q & q + k >= 100", &[], &[], &[Cell::CAUSAL]),
        ("q + k < 64", &[], &[], &[Cell::FULL]),
        ("(k <= q & q / 8 == k / 8) | k < 4", &[], &[4], &[Cell::FULL, Cell::CAUSAL]),
        (
            "(q - k < 3 | k - q < 2 & q != k) & q - k < 9",
            &[],
            &[],
            &[Cell::Band(attnc_compiler::spec::Band { lo: None, end: Some(9) })],
        ),
    ];
    for (text, q_cuts, k_cuts, cells) in cases {
        let r = regions::of(&mask_of(text)).unwrap_or_else(|u| panic!("{text}: {u:?}"));
        assert!(r.predicate, "{text}");
        assert_eq!(
            (r.q_cuts.as_slice(), r.k_cuts.as_slice(), r.cells.as_slice()),
            (*q_cuts, *k_cuts, *cells),
            "{text}"
        );
    }
    // A mask that reads the head: the hull over every head (heads 0..3 every key of the causal
    // order, the others every other one).
    let r = regions::over_heads(&mask_of("k <= q & (h < 4 | (q - k) % 2 == 0)"), 8).unwrap();
    assert!(r.predicate && r.cells == [Cell::CAUSAL], "{r:?}");
    let test = score::of_masked(None, &parse("k <= q & (h < 4 | (q - k) % 2 == 0)").unwrap()).unwrap();
    for h in [0u32, 3, 4, 7] {
        let heads = test.head_values(h, 0, &[]);
        let (v, _) = score::eval(&test, 0.5, (9, 8), &heads);
        assert_eq!(v == 0.5, h < 4, "head {h}");
    }
    // Bands stay exact: no test in the kernels.
    assert!(!regions::of(&mask_of("k < 2 | (q - k < 4 & k - q < 3)")).unwrap().predicate);
    let refused = [
        ("k <= q & (k < 4 | doc(q) == doc(k))", "across packed sequences"),
        ("k <= q & doc(q) != doc(k)", "across packed sequences"),
        ("!(doc(q) == doc(k)) | k < 4", "across packed sequences"),
    ];
    for (text, reason) in refused {
        let got = regions::of(&mask_of(text));
        assert!(got.as_ref().is_err_and(|u| u.message.contains(reason)), "{text}: {got:?}");
        assert!(regions::across_docs(&mask_of(text)).is_some(), "{text}");
    }
    // What they are within one packed sequence (the help of E0043 quotes it).
    let within = |text: &str| regions::within_one_doc(&mask_of(text)).map(|e| e.to_string());
    assert_eq!(within("k <= q & (k < 4 | doc(q) == doc(k))"), Ok("k <= q".into()));
    assert_eq!(within("k <= q & doc(q) != doc(k)"), Err(false));
    assert_eq!(within("!(doc(q) == doc(k)) | k < 4"), Ok("k < 4".into()));
    assert_eq!(within("k <= q | doc(q) == doc(k)"), Err(true));
    assert_eq!(within("k <= q & (h < 2 | doc(q) == doc(k)) & q - k < 8"), Ok("k <= q & q - k < 8".into()));
    assert!(regions::across_docs(&mask_of("k <= q & doc(q) == doc(k)")).is_none());
}

/// The planner's counts (`ir::mask`) and needed keys (`ir::needed`) of regional masks, cell by
/// cell, against the expression pair by pair: packed sequences with padding, every interval pair
/// of rows and columns, queries as rows and keys as rows.
#[test]
fn regional_counts_and_needed_keys_match_the_expression() {
    use attnc_compiler::ir::mask::{MaskRule, Side, allowed};
    use attnc_compiler::ir::{Doc, needed};
    let docs = vec![Doc { start: 0, end: 14, len: 12 }, Doc { start: 14, end: 24, len: 10 }];
    for text in [
        "k <= q | k < 3",
        "k < 2 | q < 2 | (k <= q & q - k < 3)",
        "k <= q & (q < 5 | q - k < 2) & k < 9",
        // Bands no name covers: two-sided windows, keys strictly before, keys from 2 after on.
        "q - k < 3 & k - q < 4",
        "k < 2 | q < 2 | (q - k < 2 & k - q < 3)",
        "k < q | k < 2",
        "k - q >= 2 | q < 3",
    ] {
        let e = mask_of(text);
        let r = regions_of(text);
        let p = Problem {
            tokens: 24,
            docs: docs.clone(),
            causal: r.is_causal(),
            regions: Some(r),
            thd: true,
            ..Problem::single(24, 1, 8)
        };
        // Whether token x (query) sees token y (key): same sequence, both real, the expression at
        // their positions in it.
        let sees = |x: u64, y: u64| {
            let (dx, dy) = (p.doc_of(x), p.doc_of(y));
            dx == dy
                && x < dx.start + dx.len
                && y < dy.start + dy.len
                && truth(&e.0, &Point { q: (x - dx.start) as i64, k: (y - dy.start) as i64, ..Point::default() })
                    .unwrap()
        };
        let spans: Vec<(u64, u64)> =
            (0..24).step_by(3).flat_map(|a| (a + 1..=24).step_by(4).map(move |b| (a, b))).collect();
        for side in [Side::Q, Side::Kv] {
            for &(ra, rb) in &spans {
                for &(ca, cb) in &spans {
                    let got = allowed(&p, MaskRule::of(&p), side, &[Interval::new(ra, rb)], &RowSet::range(ca, cb));
                    let mut want = 0u128;
                    for x in ra..rb {
                        for y in ca..cb {
                            want += if side == Side::Q { sees(x, y) } else { sees(y, x) } as u128;
                        }
                    }
                    assert_eq!(got, want, "{text} {side:?} rows {ra}..{rb} cols {ca}..{cb}");
                }
            }
        }
        for &(a, b) in &spans {
            let got = needed::needed_keys(&p, &RowSet::range(a, b));
            let want: Vec<u64> = (0..24).filter(|&y| (a..b).any(|x| sees(x, y))).collect();
            let got: Vec<u64> = (0..24).filter(|&y| got.0.iter().any(|i| i.contains(y))).collect();
            assert_eq!(got, want, "{text} queries {a}..{b}");
        }
    }
}
