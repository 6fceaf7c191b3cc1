//! PTX text to kernels: entry points with their parameters, register and shared-memory
//! declarations, labels, and instructions with their guard predicate and operands.
//!
//! The grammar follows the PTX ISA (chapter 4, "Syntax"; chapter 5, "State Spaces, Types, and
//! Variables"): statements end with `;`, labels with `:`, `//` and `/* */` are comments, a
//! `.reg .T %r<N>` declaration names `%r0` … `%r{N-1}`. Registers are interned to indices when
//! parsed, so the interpreter never looks a name up.

use std::collections::HashMap;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1, hex_digit1, multispace0};
use nom::combinator::{all_consuming, map, map_res, opt, recognize};
use nom::multi::separated_list1;
use nom::sequence::{delimited, pair, preceded};
use nom::{IResult, Parser};

/// A parse error, with the line of the PTX text it is on.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("PTX line {line}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// A parsed PTX module: its kernels (`.entry`).
#[derive(Debug, Clone)]
pub struct Module {
    pub kernels: Vec<Kernel>,
}

impl Module {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// A kernel parameter: its name and type (`u64`, `f32`, …) and byte size.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: String,
    pub bytes: usize,
}

/// A `.shared` variable: its name, byte offset in the block's shared memory, and size.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedVar {
    pub name: String,
    pub offset: usize,
    pub bytes: usize,
}

#[derive(Debug, Clone)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Param>,
    /// Register names by index.
    pub regs: Vec<String>,
    pub shared: Vec<SharedVar>,
    /// Bytes of statically declared shared memory.
    pub shared_bytes: usize,
    /// Where the dynamic shared memory (`.extern .shared`) starts.
    pub dynamic_shared_at: usize,
    pub body: Vec<Inst>,
    /// `.maxntid`, if declared.
    pub max_threads: Option<[u32; 3]>,
    /// `.maxnreg`, if declared: registers per thread at launch (what `setmaxnreg` changes).
    pub max_regs: Option<u32>,
}

/// An operand of an instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Reg(u32),
    /// A special register: `%tid.x`, `%ctaid.y`, `%ntid.x`, `%laneid`, …
    Special(String),
    /// An integer immediate (bits).
    Int(i64),
    /// A float immediate, as the bits of its type (`0f…` f32, `0d…` f64).
    F32(u32),
    F64(u64),
    /// `[base + offset]`.
    Addr(Base, i64),
    /// `{a, b, …}`.
    Vector(Vec<Operand>),
    /// `[tensorMap, {c0, c1, …}]`: a tensor map (a parameter, or a register holding its address)
    /// and a box's coordinates (`cp.async.bulk.tensor`).
    Tensor(Base, Vec<Operand>),
    /// A label (branch target) or a variable name (parameter, shared variable).
    Name(String),
    /// `_`: a sink.
    Sink,
}

/// The base of an address operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Base {
    Reg(u32),
    /// A parameter or shared variable.
    Name(String),
}

/// One instruction.
#[derive(Debug, Clone)]
pub struct Inst {
    /// The PTX line it is on (1-based).
    pub line: usize,
    /// `@%p` (false) or `@!%p` (true).
    pub guard: Option<(u32, bool)>,
    /// The opcode's dot-separated parts: `ld.global.nc.f32` is `["ld", "global", "nc", "f32"]`.
    pub op: Vec<String>,
    pub args: Vec<Operand>,
    /// For `bra`: the index of the target instruction (resolved after parsing).
    pub target: Option<usize>,
    /// The statement as written, for error messages.
    pub text: String,
}

impl Inst {
    pub fn has(&self, part: &str) -> bool {
        self.op.iter().skip(1).any(|p| p == part)
    }
}

/// A statement of a body, with the line it starts on.
struct Statement {
    line: usize,
    text: String,
}

/// Removes comments, keeping line breaks (so line numbers stay right).
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn error(line: usize, message: impl Into<String>) -> ParseError {
    ParseError { line, message: message.into() }
}

/// Parses a module.
pub fn parse(src: &str) -> Result<Module, ParseError> {
    let text = strip_comments(src);
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut kernels = Vec::new();
    let mut at = 0;
    while let Some(found) = text[at..].find(".entry") {
        let start = at + found + ".entry".len();
        let open =
            text[start..].find('(').map(|i| start + i).ok_or_else(|| error(line_of(start), "`.entry` without `(`"))?;
        let name = text[start..open].trim().to_string();
        let close =
            text[open..].find(')').map(|i| open + i).ok_or_else(|| error(line_of(open), "unclosed parameter list"))?;
        let params = parse_params(&text[open + 1..close], line_of(open))?;
        let body_open =
            text[close..].find('{').map(|i| close + i).ok_or_else(|| error(line_of(close), "kernel without a body"))?;
        let max_threads = parse_maxntid(&text[close..body_open]);
        let max_regs = parse_maxnreg(&text[close..body_open]);
        // The body ends at the brace that closes the first one.
        let mut depth = 0;
        let mut body_close = None;
        for (i, c) in text[body_open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        body_close = Some(body_open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let body_close = body_close.ok_or_else(|| error(line_of(body_open), "unclosed kernel body"))?;
        let statements = statements(&text[body_open + 1..body_close], line_of(body_open));
        let mut k = kernel(name, params, max_threads, statements)?;
        k.max_regs = max_regs;
        kernels.push(k);
        at = body_close + 1;
    }
    // Module-level `.extern .shared .align A .b8 name[]`: the dynamic shared memory, after each
    // kernel's static variables.
    let externs =
        text.split(';').filter_map(|d| d.find(".extern").map(|i| d[i..].trim())).filter(|d| d.contains(".shared"));
    for decl in externs {
        let words: Vec<&str> = decl.split_whitespace().collect();
        let align = words.iter().position(|w| *w == ".align").and_then(|i| words.get(i + 1)?.parse::<usize>().ok());
        let Some(name) = words.last().map(|w| w.trim_end_matches("[]")) else { continue };
        for k in &mut kernels {
            let align = align.unwrap_or(1).max(1);
            let offset = k.shared_bytes.div_ceil(align) * align;
            k.shared.push(SharedVar { name: name.to_string(), offset, bytes: 0 });
            k.dynamic_shared_at = offset;
        }
    }
    Ok(Module { kernels })
}

fn parse_maxnreg(directives: &str) -> Option<u32> {
    let rest = &directives[directives.find(".maxnreg")? + ".maxnreg".len()..];
    rest.trim().chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

fn parse_maxntid(directives: &str) -> Option<[u32; 3]> {
    let rest = &directives[directives.find(".maxntid")? + ".maxntid".len()..];
    let mut dims = [1u32; 3];
    for (i, v) in rest.split(',').take(3).enumerate() {
        let digits: String = v.trim().chars().take_while(char::is_ascii_digit).collect();
        dims[i] = digits.parse().ok()?;
    }
    Some(dims)
}

fn type_bytes(ty: &str) -> Option<usize> {
    Some(match ty {
        "u8" | "s8" | "b8" => 1,
        "u16" | "s16" | "b16" | "f16" | "bf16" => 2,
        "u32" | "s32" | "b32" | "f32" | "f16x2" | "bf16x2" => 4,
        "u64" | "s64" | "b64" | "f64" => 8,
        _ => return None,
    })
}

fn parse_params(list: &str, line: usize) -> Result<Vec<Param>, ParseError> {
    let mut params = Vec::new();
    for p in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let words: Vec<&str> = p.split_whitespace().collect();
        // `.param .u64 name`, or `.param .align A .b8 name[N]`.
        let ty = words.iter().rev().find(|w| w.starts_with('.') && type_bytes(&w[1..]).is_some());
        let (Some(ty), Some(name)) = (ty, words.last()) else {
            return Err(error(line, format!("parameter `{p}`")));
        };
        let ty = &ty[1..];
        let (name, count) = match name.split_once('[') {
            Some((n, c)) => {
                (n, c.trim_end_matches(']').parse::<usize>().map_err(|_| error(line, format!("parameter `{p}`")))?)
            }
            None => (*name, 1),
        };
        params.push(Param { name: name.to_string(), ty: ty.to_string(), bytes: type_bytes(ty).unwrap_or(1) * count });
    }
    Ok(params)
}

/// Splits a body into statements (`…;`) and labels (`name:`), with their lines.
fn statements(body: &str, first_line: usize) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut line = first_line;
    let mut current = String::new();
    let mut start_line = line;
    for c in body.chars() {
        match c {
            '\n' => {
                line += 1;
                current.push(' ');
            }
            ';' => {
                if !current.trim().is_empty() {
                    out.push(Statement { line: start_line, text: current.trim().to_string() });
                }
                current.clear();
            }
            ':' if current.trim().starts_with('$') || is_label(current.trim()) => {
                out.push(Statement { line: start_line, text: format!("{}:", current.trim()) });
                current.clear();
            }
            '{' | '}' if current.trim().is_empty() => {}
            _ => {
                if current.trim().is_empty() && !c.is_whitespace() {
                    start_line = line;
                }
                current.push(c);
            }
        }
    }
    out
}

/// A label's identifier ("Identifiers": letters, digits, `_`, `$`; no `.`, so that the `::` of
/// `fence.proxy.async.shared::cta` is not taken for one).
fn is_label(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn kernel(
    name: String,
    params: Vec<Param>,
    max_threads: Option<[u32; 3]>,
    statements: Vec<Statement>,
) -> Result<Kernel, ParseError> {
    let mut k = Kernel {
        name,
        params,
        regs: Vec::new(),
        shared: Vec::new(),
        shared_bytes: 0,
        dynamic_shared_at: 0,
        body: Vec::new(),
        max_threads,
        max_regs: None,
    };
    let mut index: HashMap<String, u32> = HashMap::new();
    let mut labels: HashMap<String, usize> = HashMap::new();
    for s in statements {
        let t = s.text.as_str();
        if let Some(label) = t.strip_suffix(':') {
            labels.insert(label.to_string(), k.body.len());
        } else if let Some(rest) = t.strip_prefix(".reg") {
            // `.reg .b32 %r<6>` or `.reg .b32 %a, %b`.
            let rest = rest.trim();
            let names = rest.split_once(char::is_whitespace).map(|(_, n)| n).unwrap_or("");
            for n in names.split(',').map(str::trim) {
                match n.split_once('<') {
                    Some((base, count)) => {
                        let count: u32 =
                            count.trim_end_matches('>').parse().map_err(|_| error(s.line, format!("`{t}`")))?;
                        for i in 0..count {
                            intern(&mut k.regs, &mut index, format!("{base}{i}"));
                        }
                    }
                    None => {
                        intern(&mut k.regs, &mut index, n.to_string());
                    }
                }
            }
        } else if let Some(rest) = t.strip_prefix(".shared") {
            // `.shared .align 16 .b8 name[N]`.
            let words: Vec<&str> = rest.split_whitespace().collect();
            let align = words.iter().position(|w| *w == ".align").and_then(|i| words.get(i + 1)?.parse::<usize>().ok());
            let ty = words.iter().find_map(|w| w.strip_prefix('.').and_then(type_bytes)).unwrap_or(1);
            let last = words.last().ok_or_else(|| error(s.line, format!("`{t}`")))?;
            let (name, count) = match last.split_once('[') {
                Some((n, c)) => {
                    (n, c.trim_end_matches(']').parse::<usize>().map_err(|_| error(s.line, format!("`{t}`")))?)
                }
                None => (*last, 1),
            };
            let align = align.unwrap_or(ty).max(1);
            let offset = k.shared_bytes.div_ceil(align) * align;
            k.shared.push(SharedVar { name: name.to_string(), offset, bytes: ty * count });
            k.shared_bytes = offset + ty * count;
            k.dynamic_shared_at = k.shared_bytes;
        } else if t.starts_with('.') {
            // Other directives (`.loc`, `.pragma`, …) carry no semantics here.
            continue;
        } else {
            k.body.push(instruction(s.line, t, &index)?);
        }
    }
    for inst in &mut k.body {
        if inst.op[0] == "bra" {
            let Some(Operand::Name(label)) = inst.args.first() else {
                return Err(error(inst.line, format!("`{}`: a branch needs a label", inst.text)));
            };
            inst.target = Some(
                *labels.get(label).ok_or_else(|| error(inst.line, format!("`{}`: no label `{label}`", inst.text)))?,
            );
        }
    }
    Ok(k)
}

fn intern(regs: &mut Vec<String>, index: &mut HashMap<String, u32>, name: String) -> u32 {
    if let Some(&i) = index.get(&name) {
        return i;
    }
    let i = regs.len() as u32;
    index.insert(name.clone(), i);
    regs.push(name);
    i
}

fn instruction(line: usize, text: &str, index: &HashMap<String, u32>) -> Result<Inst, ParseError> {
    let mut rest = text.trim();
    let mut guard = None;
    if let Some(g) = rest.strip_prefix('@') {
        let (pred, after) = g.split_once(char::is_whitespace).ok_or_else(|| error(line, format!("`{text}`")))?;
        let (negate, name) = match pred.strip_prefix('!') {
            Some(n) => (true, n),
            None => (false, pred),
        };
        let reg = *index.get(name).ok_or_else(|| error(line, format!("`{text}`: undeclared register `{name}`")))?;
        guard = Some((reg, negate));
        rest = after.trim();
    }
    let (opcode, operands) = match rest.split_once(char::is_whitespace) {
        Some((o, a)) => (o, a.trim()),
        None => (rest, ""),
    };
    let op: Vec<String> = opcode.split('.').map(str::to_string).collect();
    let mut args = Vec::new();
    if !operands.is_empty() {
        let (_, raw) =
            all_consuming(operand_list).parse(operands).map_err(|e| error(line, format!("`{text}`: {e}")))?;
        for r in raw {
            args.push(resolve(r, line, text, index)?);
        }
    }
    Ok(Inst { line, guard, op, args, target: None, text: text.to_string() })
}

/// An operand before its names are resolved.
#[derive(Debug, Clone, PartialEq)]
enum Raw {
    Percent(String),
    Int(i64),
    F32(u32),
    F64(u64),
    Addr(String, i64),
    Vector(Vec<Raw>),
    Tensor(String, Vec<Raw>),
    Name(String),
}

fn resolve(raw: Raw, line: usize, text: &str, index: &HashMap<String, u32>) -> Result<Operand, ParseError> {
    let reg = |n: &str| -> Result<Operand, ParseError> {
        match index.get(n) {
            Some(&i) => Ok(Operand::Reg(i)),
            None if is_special(n) => Ok(Operand::Special(n.to_string())),
            None => Err(error(line, format!("`{text}`: undeclared register `{n}`"))),
        }
    };
    Ok(match raw {
        Raw::Percent(n) => reg(&n)?,
        Raw::Int(v) => Operand::Int(v),
        Raw::F32(b) => Operand::F32(b),
        Raw::F64(b) => Operand::F64(b),
        Raw::Addr(base, off) => match index.get(&base) {
            Some(&i) => Operand::Addr(Base::Reg(i), off),
            None if base.starts_with('%') => {
                return Err(error(line, format!("`{text}`: undeclared register `{base}`")));
            }
            None => Operand::Addr(Base::Name(base), off),
        },
        Raw::Vector(items) => {
            Operand::Vector(items.into_iter().map(|r| resolve(r, line, text, index)).collect::<Result<_, _>>()?)
        }
        Raw::Tensor(base, items) => {
            let coords = items.into_iter().map(|r| resolve(r, line, text, index)).collect::<Result<_, _>>()?;
            match index.get(&base) {
                Some(&i) => Operand::Tensor(Base::Reg(i), coords),
                None if base.starts_with('%') => {
                    return Err(error(line, format!("`{text}`: undeclared register `{base}`")));
                }
                None => Operand::Tensor(Base::Name(base), coords),
            }
        }
        Raw::Name(n) if n == "_" => Operand::Sink,
        Raw::Name(n) => Operand::Name(n),
    })
}

fn is_special(name: &str) -> bool {
    let base = name.split('.').next().unwrap_or(name);
    matches!(base, "%tid" | "%ntid" | "%ctaid" | "%nctaid" | "%laneid" | "%warpid" | "%nwarpid" | "%warpsize")
}

fn ident(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.' || c == '%')(i)
}

fn int(i: &str) -> IResult<&str, i64> {
    let (i, neg) = opt(char('-')).parse(i)?;
    let (i, v) = alt((
        map_res(preceded(alt((tag("0x"), tag("0X"))), hex_digit1), |h: &str| {
            u64::from_str_radix(h, 16).map(|v| v as i64)
        }),
        map_res(digit1, |d: &str| d.parse::<u64>().map(|v| v as i64)),
    ))
    .parse(i)?;
    let (i, _) = opt(char('U')).parse(i)?;
    Ok((i, if neg.is_some() { v.wrapping_neg() } else { v }))
}

fn raw_operand(i: &str) -> IResult<&str, Raw> {
    let (i, _) = multispace0(i)?;
    let (i, r) = alt((
        map_res(preceded(alt((tag("0f"), tag("0F"))), hex_digit1), |h: &str| u32::from_str_radix(h, 16).map(Raw::F32)),
        map_res(preceded(alt((tag("0d"), tag("0D"))), hex_digit1), |h: &str| u64::from_str_radix(h, 16).map(Raw::F64)),
        map(int, Raw::Int),
        map(
            delimited(
                char('['),
                pair(delimited(multispace0, ident, multispace0), opt(preceded(pair(char('+'), multispace0), int))),
                preceded(multispace0, char(']')),
            ),
            |(base, off): (&str, Option<i64>)| Raw::Addr(base.to_string(), off.unwrap_or(0)),
        ),
        map(
            delimited(
                char('['),
                pair(
                    delimited(multispace0, ident, multispace0),
                    preceded(
                        pair(char(','), multispace0),
                        delimited(char('{'), separated_list1(char(','), raw_operand), preceded(multispace0, char('}'))),
                    ),
                ),
                preceded(multispace0, char(']')),
            ),
            |(base, coords): (&str, Vec<Raw>)| Raw::Tensor(base.to_string(), coords),
        ),
        map(
            delimited(char('{'), separated_list1(char(','), raw_operand), preceded(multispace0, char('}'))),
            Raw::Vector,
        ),
        map(recognize(preceded(char('%'), ident)), |n: &str| Raw::Percent(n.to_string())),
        map(ident, |n: &str| Raw::Name(n.to_string())),
    ))
    .parse(i)?;
    let (i, _) = multispace0(i)?;
    Ok((i, r))
}

/// An operand, or `d|p`: a value and a predicate one instruction writes together (`shfl.sync`,
/// `elect.sync`), as a pair.
fn paired_operand(i: &str) -> IResult<&str, Raw> {
    map(pair(raw_operand, opt(preceded(char('|'), raw_operand))), |(a, b)| match b {
        Some(b) => Raw::Vector(vec![a, b]),
        None => a,
    })
    .parse(i)
}

fn operand_list(i: &str) -> IResult<&str, Vec<Raw>> {
    separated_list1(char(','), paired_operand).parse(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
.version 7.5
.target sm_80
.address_size 64
// a comment
.visible .entry add_one(
	.param .u64 add_one_param_0,
	.param .u32 add_one_param_1
)
.maxntid 64, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<4>;
	.shared .align 16 .b8 tile[256];

	ld.param.u64 	%rd1, [add_one_param_0];
	mov.u32 	%r1, %tid.x;
	setp.ge.u32 	%p1, %r1, 10;
	@%p1 bra 	$L__BB0_2;
	ld.global.f32 	%r2, [%rd1+-4];
	st.shared.v2.f32 	[tile+8], {%r2, %r3};
$L__BB0_2:
	ret;
}
"#;

    #[test]
    fn a_kernel_with_its_declarations_labels_and_operands() {
        let m = parse(SMALL).unwrap();
        let k = m.kernel("add_one").unwrap();
        assert_eq!(k.params.len(), 2);
        assert_eq!(k.params[1], Param { name: "add_one_param_1".into(), ty: "u32".into(), bytes: 4 });
        assert_eq!(k.max_threads, Some([64, 1, 1]));
        assert_eq!(k.regs.len(), 2 + 4 + 4);
        assert_eq!(k.shared, [SharedVar { name: "tile".into(), offset: 0, bytes: 256 }]);
        assert_eq!(k.body.len(), 7);
        let bra = &k.body[3];
        assert_eq!(bra.guard, Some((1, false)));
        assert_eq!(bra.target, Some(6));
        assert_eq!(bra.line, 20);
        assert_eq!(k.body[1].args[1], Operand::Special("%tid.x".into()));
        assert_eq!(k.body[4].args[1], Operand::Addr(Base::Reg(2 + 4 + 1), -4));
        assert_eq!(k.body[5].op, ["st", "shared", "v2", "f32"]);
        assert!(matches!(&k.body[5].args[1], Operand::Vector(v) if v.len() == 2));
        assert_eq!(k.body[5].args[0], Operand::Addr(Base::Name("tile".into()), 8));
    }

    #[test]
    fn immediates_in_every_form() {
        let m = parse(
            ".entry k() { .reg .f32 %f<2>; .reg .b64 %rd<2>; mov.f32 %f1, 0f3FB8AA3B; and.b64 %rd1, %rd1, -4294967296; mov.b64 %rd1, 0x10; }",
        )
        .unwrap();
        let k = &m.kernels[0];
        assert_eq!(k.body[0].args[1], Operand::F32(0x3FB8AA3B));
        assert_eq!(k.body[1].args[2], Operand::Int(-4294967296));
        assert_eq!(k.body[2].args[1], Operand::Int(16));
    }

    #[test]
    fn undeclared_registers_and_labels_are_errors_with_their_line() {
        let e = parse(".entry k()\n{\n .reg .b32 %r<2>;\n mov.u32 %r1, %q7;\n}").unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("undeclared register `%q7`"), "{e}");
        let e = parse(".entry k()\n{\n bra $nowhere;\n}").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("no label `$nowhere`"), "{e}");
    }
}
