//! The canonical printer behind `attnc fmt`: one layout of the tree, comments kept.
//!
//! Items are separated by one empty line; entries sit one per line, indented by
//! two spaces, with `=` aligned within a block and trailing comments aligned
//! after the longest commented line. Argument blocks of values
//! (`causal { window = 4096 }`) and small nested blocks without comments print
//! on one line. Numbers print as written, with one space before a unit.
//! Printing then parsing gives back the same tree (spans aside).

use super::ast::*;

const INDENT: &str = "  ";

pub fn print_file(file: &SourceFile) -> String {
    let mut out = String::new();
    for include in &file.includes {
        for comment in &include.leading_comments {
            out.push_str(&format!("#{comment}\n"));
        }
        out.push_str(&format!("include \"{}\"\n", include.path.node));
    }
    for (i, item) in file.items.iter().enumerate() {
        if i > 0 || !file.includes.is_empty() {
            out.push('\n');
        }
        for comment in &item.leading_comments {
            out.push_str(&format!("#{comment}\n"));
        }
        out.push_str(&format!("{} {} ", item.kind.node.keyword(), item.name.node));
        print_block_multiline(&item.body, 0, &mut out);
        out.push('\n');
    }
    if !file.trailing_comments.is_empty() {
        if !file.items.is_empty() || !file.includes.is_empty() {
            out.push('\n');
        }
        for comment in &file.trailing_comments {
            out.push_str(&format!("#{comment}\n"));
        }
    }
    out
}

fn print_block_multiline(block: &Block, depth: usize, out: &mut String) {
    let indent = INDENT.repeat(depth + 1);
    let key_width = block
        .entries
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Field { key, .. } => Some(key.node.len()),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let lines: Vec<String> = block.entries.iter().map(|e| entry_text(e, key_width, depth + 1)).collect();
    // Trailing comments line up within each run of consecutive commented one-line entries.
    let commented: Vec<bool> = block
        .entries
        .iter()
        .zip(&lines)
        .map(|(e, line)| e.trailing_comment.is_some() && !line.contains('\n'))
        .collect();
    let mut comment_column = vec![0; lines.len()];
    let mut run_start = 0;
    for i in 0..=lines.len() {
        let breaks = i == lines.len()
            || !commented[i]
            || block.entries[i].blank_before
            || !block.entries[i].leading_comments.is_empty();
        if breaks {
            let width = (run_start..i).map(|j| lines[j].len()).max().unwrap_or(0);
            comment_column[run_start..i].iter_mut().for_each(|c| *c = width);
            run_start = if i < lines.len() && commented[i] { i } else { i + 1 };
        }
    }
    out.push_str("{\n");
    for ((entry, line), column) in block.entries.iter().zip(&lines).zip(&comment_column) {
        if entry.blank_before {
            out.push('\n');
        }
        for comment in &entry.leading_comments {
            out.push_str(&format!("{indent}#{comment}\n"));
        }
        out.push_str(&indent);
        out.push_str(line);
        if let Some(comment) = &entry.trailing_comment {
            let pad = if line.contains('\n') { 2 } else { column - line.len() + 2 };
            out.push_str(&" ".repeat(pad));
            out.push_str(&format!("#{comment}"));
        }
        out.push('\n');
    }
    for comment in &block.trailing_comments {
        out.push_str(&format!("{indent}#{comment}\n"));
    }
    out.push_str(&INDENT.repeat(depth));
    out.push('}');
}

fn has_comments(block: &Block) -> bool {
    !block.trailing_comments.is_empty()
        || block.entries.iter().any(|e| {
            !e.leading_comments.is_empty()
                || e.trailing_comment.is_some()
                || match &e.kind {
                    EntryKind::Field { value, .. } => value_has_comments(value),
                    EntryKind::Nested { body, .. } | EntryKind::Layer { body, .. } => has_comments(body),
                }
        })
}

fn value_has_comments(value: &Value) -> bool {
    match &value.kind {
        ValueKind::Number(_) | ValueKind::Expr(_) => false,
        ValueKind::Word { args, .. } => args.as_ref().is_some_and(has_comments),
        ValueKind::List(values) => values.iter().any(value_has_comments),
    }
}

/// A block on one line when it has no comments and no nested blocks of its own.
fn print_block(block: &Block, depth: usize, out: &mut String) {
    let simple = !has_comments(block)
        && block.entries.iter().all(|e| !e.blank_before)
        && block.entries.iter().all(|e| matches!(e.kind, EntryKind::Field { .. }));
    if !simple {
        print_block_multiline(block, depth, out);
        return;
    }
    if block.entries.is_empty() {
        out.push_str("{}");
        return;
    }
    let parts: Vec<String> = block.entries.iter().map(|e| entry_text(e, 0, depth)).collect();
    out.push_str(&format!("{{ {} }}", parts.join(", ")));
}

fn entry_text(entry: &Entry, key_width: usize, depth: usize) -> String {
    let mut out = String::new();
    match &entry.kind {
        EntryKind::Field { key, value } => {
            out.push_str(&format!("{:width$} = ", key.node, width = key_width));
            print_value(value, depth, &mut out);
        }
        EntryKind::Nested { key, body } => {
            out.push_str(&format!("{} ", key.node));
            print_block(body, depth, &mut out);
        }
        EntryKind::Layer { range, body } => {
            out.push_str(&format!("layer {}..{}", range.start.text, range.end.text));
            if let Some(step) = &range.step {
                out.push_str(&format!(" step {}", step.text));
            }
            out.push(' ');
            print_block(body, depth, &mut out);
        }
    }
    out
}

fn print_value(value: &Value, depth: usize, out: &mut String) {
    match &value.kind {
        ValueKind::Number(number) => {
            out.push_str(&number.text);
            if let Some(unit) = &number.unit {
                out.push(' ');
                out.push_str(&unit.node);
            }
        }
        ValueKind::Word { name, args } => {
            out.push_str(&name.node);
            if let Some(args) = args {
                out.push(' ');
                print_block(args, depth, out);
            }
        }
        ValueKind::List(values) => {
            out.push('[');
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                print_value(v, depth, out);
            }
            out.push(']');
        }
        ValueKind::Expr(e) => out.push_str(&e.to_string()),
    }
}
