//! A spinner with the elapsed time on stderr, for the commands that work silently for seconds
//! (`keygen` of large keys, `kat`): only when stderr is a terminal, nothing at all when it is
//! piped or redirected, so that scripts and logs see the same output as before.

use std::io::IsTerminal;
use std::time::Duration;

/// A running spinner: `message (12s)`, redrawn ten times a second; cleared when dropped.
pub struct Spinner(indicatif::ProgressBar);

impl Spinner {
    /// Starts a spinner saying `message` if stderr is a terminal, else `None`. Ctrl-C clears
    /// its line before the process ends (exit 130), so that the shell prompt starts clean.
    pub fn start(message: impl Into<String>) -> Option<Spinner> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let pb = indicatif::ProgressBar::new_spinner();
        // The template is a constant: it parses, and the fallback is the default spinner.
        if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
            pb.set_style(style);
        }
        pb.set_message(message.into());
        pb.enable_steady_tick(Duration::from_millis(100));
        let on_interrupt = pb.clone();
        let _ = ctrlc::set_handler(move || {
            on_interrupt.finish_and_clear();
            eprintln!("rsatool: interrupted");
            std::process::exit(130);
        });
        Some(Spinner(pb))
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
