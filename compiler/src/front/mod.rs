//! The front end: source text to syntax tree, with spans, comments and collected syntax errors.
//!
//! It knows the grammar and nothing of what fields mean (`sema`) or of the
//! plan IR: no petgraph type appears here.

pub mod ast;
pub mod include;
pub mod overrides;
pub mod parser;
pub mod printer;

pub use parser::parse_file;
pub use printer::print_file;
