//! Per-thread decoding modes: strict (user input: unknown variants are errors) and
//! path tracking (inside enums serde buffers). serde passes no context to `Deserialize`
//! impls, so the entry points in [`crate::decode`] set these for the duration of a call.

/// Per-thread decoding modes. serde passes no context to `Deserialize` impls, so the
/// entry points in [`crate::decode`] set these for the duration of their call.
#[derive(Clone, Copy)]
enum Mode {
    /// Reject what isn't known (input a user wrote) rather than keep it (what a node sent).
    Strict,
    /// Track JSON paths inside flattened enums too (the caller wants error paths).
    Paths,
}

thread_local! {
    static STRICT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static PATHS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn cell(mode: Mode) -> &'static std::thread::LocalKey<std::cell::Cell<bool>> {
    match mode {
        Mode::Strict => &STRICT,
        Mode::Paths => &PATHS,
    }
}

/// Runs `f` with `mode` on for this thread.
fn with_mode<T>(mode: Mode, f: impl FnOnce() -> T) -> T {
    struct Reset(Mode, bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            cell(self.0).with(|c| c.set(self.1));
        }
    }
    let _reset = Reset(mode, cell(mode).with(|c| c.replace(true)));
    f()
}

/// Whether the decode running on this thread is strict (see `strictly`).
pub fn is_strict() -> bool {
    STRICT.with(std::cell::Cell::get)
}

/// Runs `f` with strict decoding on this thread: unknown variants are errors.
pub fn strictly<T>(f: impl FnOnce() -> T) -> T {
    with_mode(Mode::Strict, f)
}

/// Whether the caller asked for error paths (see `with_paths`).
pub fn paths_wanted() -> bool {
    PATHS.with(std::cell::Cell::get)
}

/// Runs `f` with path tracking inside enums that serde buffers (flattened ones), which
/// costs time on every variant and so is only done when asked.
pub fn with_paths<T>(f: impl FnOnce() -> T) -> T {
    with_mode(Mode::Paths, f)
}
