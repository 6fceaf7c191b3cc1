//! `include "PATH"`: reading the files a spec includes, relative to the including file.
//!
//! Reads files (and nothing else) and parses them; it does not check what they hold. Every file
//! is read once even when included along several paths; a cycle is an error at the `include`
//! that closes it, naming the chain. The including file's own tree is left as parsed.

use std::path::{Path, PathBuf};

use super::ast::{Include, SourceFile};
use super::parse_file;
use crate::diag::{Code, Diagnostic};
use crate::span::Sources;

/// The trees of every file `root` includes, directly or not (root excluded), in the order they
/// were first reached, and the diagnostics of reading and parsing them. File names in `sources`
/// are paths relative to `base` (the working directory when empty); included files are named
/// the same way.
pub fn resolve(sources: &mut Sources, root: &SourceFile, base: &Path) -> (Vec<SourceFile>, Vec<Diagnostic>) {
    let mut state = State { base: base.to_path_buf(), loaded: Vec::new(), trees: Vec::new(), diags: Vec::new() };
    let root_path = PathBuf::from(sources.name(root.file));
    let root_key = key(&base.join(&root_path));
    state.loaded.push(root_key.clone());
    let mut chain = vec![(root_key, root_path.display().to_string())];
    state.visit(sources, &root_path, &root.includes, &mut chain);
    (state.trees, state.diags)
}

struct State {
    base: PathBuf,
    /// Canonical paths of the files read so far (the root first).
    loaded: Vec<PathBuf>,
    trees: Vec<SourceFile>,
    diags: Vec<Diagnostic>,
}

/// A path that names a file however it was spelt, when it exists.
fn key(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl State {
    fn visit(&mut self, sources: &mut Sources, from: &Path, includes: &[Include], chain: &mut Vec<(PathBuf, String)>) {
        let dir = from.parent().map(Path::to_path_buf).unwrap_or_default();
        for include in includes {
            let path = dir.join(&include.path.node);
            let shown = path.display().to_string();
            let real = self.base.join(&path);
            let real_key = key(&real);
            if let Some(at) = chain.iter().position(|(k, _)| *k == real_key) {
                let names: Vec<&str> =
                    chain[at..].iter().map(|(_, name)| name.as_str()).chain([shown.as_str()]).collect();
                self.diags.push(
                    Diagnostic::new(
                        Code::Include,
                        format!("include cycle: {}", names.join(" -> ")),
                        include.path.span,
                        "this include closes the cycle",
                    )
                    .with_help("move the shared items into a file that includes nothing, and include it from both"),
                );
                continue;
            }
            if self.loaded.contains(&real_key) {
                continue;
            }
            let text = match std::fs::read_to_string(&real) {
                Ok(text) => text,
                Err(error) => {
                    self.diags.push(
                        Diagnostic::new(
                            Code::Include,
                            format!("cannot read `{shown}`: {error}"),
                            include.path.span,
                            "included here",
                        )
                        .with_help(format!(
                            "the path is relative to the directory of this file (`{}`)",
                            if dir.as_os_str().is_empty() { ".".to_string() } else { dir.display().to_string() }
                        )),
                    );
                    continue;
                }
            };
            let file = sources.add(shown.clone(), text);
            let (tree, diags) = parse_file(file, sources.text(file));
            self.diags.extend(diags);
            self.loaded.push(real_key.clone());
            chain.push((real_key, shown));
            let nested = tree.includes.clone();
            self.trees.push(tree);
            self.visit(sources, &path, &nested, chain);
            chain.pop();
        }
    }
}
