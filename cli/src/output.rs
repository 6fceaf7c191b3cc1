//! Output forms several commands share: text or JSON, and JSON alone.

use clap::ValueEnum;

/// `--emit text|json`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextOrJson {
    Text,
    Json,
}

/// The output of commands that print only JSON (the flag is accepted for symmetry with `plan`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum JsonOnly {
    Json,
}

/// Text streamed to stdout through a buffer, ending in exactly one newline (trailing blank lines
/// are held back until more text follows). A closed pipe ends the output quietly.
pub struct Stdout {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    held_newlines: usize,
    failed: Option<std::io::Error>,
}

impl Stdout {
    pub fn new() -> Stdout {
        Stdout {
            out: std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock()),
            held_newlines: 0,
            failed: None,
        }
    }

    pub fn write_str(&mut self, text: &str) {
        let _ = std::fmt::Write::write_str(self, text);
    }

    /// Ends the text with one newline and flushes.
    pub fn finish(mut self) -> std::io::Result<()> {
        use std::io::Write as _;
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

impl std::fmt::Write for Stdout {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        use std::io::Write as _;
        if self.failed.is_some() {
            return Err(std::fmt::Error);
        }
        let body = text.trim_end_matches('\n');
        if !body.is_empty() {
            let newlines = std::mem::take(&mut self.held_newlines);
            let result = (0..newlines)
                .try_for_each(|_| self.out.write_all(b"\n"))
                .and_then(|()| self.out.write_all(body.as_bytes()));
            if let Err(e) = result {
                self.failed = Some(e);
                return Err(std::fmt::Error);
            }
        }
        self.held_newlines += text.len() - body.len();
        Ok(())
    }
}
