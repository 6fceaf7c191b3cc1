//! Progress on stderr for steps that can pass two seconds: a bar over counted items, or a spinner
//! that appears once a step has run a second. Neither draws when stderr is not a terminal, so
//! logs and tests see only the command's own output.

use std::io::IsTerminal as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `len` items (`{pos}/{len} {what}`), hidden off a terminal.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), draw_target());
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn draw_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() }
}

/// A spinner with a message, drawn from its first second on until [`Spinner::finish`].
pub struct Spinner {
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Spinner {
    pub fn start(message: impl Into<String>) -> Spinner {
        let done = Arc::new(AtomicBool::new(false));
        let message = message.into();
        let handle = std::io::stderr().is_terminal().then(|| {
            let done = done.clone();
            std::thread::spawn(move || {
                let start = Instant::now();
                let mut spinner: Option<ProgressBar> = None;
                while !done.load(Ordering::Relaxed) {
                    if spinner.is_none() && start.elapsed() > Duration::from_secs(1) {
                        let s = ProgressBar::new_spinner().with_elapsed(start.elapsed());
                        s.set_style(
                            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                        );
                        s.set_message(message.clone());
                        s.enable_steady_tick(Duration::from_millis(100));
                        spinner = Some(s);
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                if let Some(s) = spinner {
                    s.finish_and_clear();
                }
            })
        });
        Spinner { done, handle }
    }

    pub fn finish(self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle {
            let _ = h.join();
        }
    }
}

/// Runs `f` with a spinner showing `message` when it takes more than a second.
pub fn spin<T>(message: impl Into<String>, f: impl FnOnce() -> T) -> T {
    let spinner = Spinner::start(message);
    let out = f();
    spinner.finish();
    out
}
