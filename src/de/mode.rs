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

thread_local! {
    static BUFFERED_FAILURE: std::cell::RefCell<Option<BufferedFailure>> =
        const { std::cell::RefCell::new(None) };
}

/// A failure inside a value that was buffered before decoding: serde_json did not see it
/// happen, so it places it by the container around the value (see `crate::de::locate`).
pub struct BufferedFailure {
    /// The error's message.
    pub message: String,
    /// The buffered value, to find it in the document.
    pub value: serde_json::Value,
}

/// Records such a failure, while paths are wanted (on a failure's second decode only).
/// The outermost one is recorded last.
pub fn note_buffered_failure(message: impl std::fmt::Display, value: &serde_json::Value) {
    if paths_wanted() {
        BUFFERED_FAILURE.with(|f| {
            *f.borrow_mut() = Some(BufferedFailure {
                message: message.to_string(),
                value: value.clone(),
            })
        });
    }
}

/// `error`, recorded by `note_buffered_failure` as a failure inside `value`.
pub fn noted_buffered_failure<E: std::fmt::Display>(error: E, value: &serde_json::Value) -> E {
    note_buffered_failure(&error, value);
    error
}

/// Takes the failure recorded by [`note_buffered_failure`].
pub fn take_buffered_failure() -> Option<BufferedFailure> {
    BUFFERED_FAILURE.with(|f| f.borrow_mut().take())
}

thread_local! {
    static KEPT: std::cell::RefCell<Option<Vec<serde_json::Value>>> =
        const { std::cell::RefCell::new(None) };
}

/// Records a value kept in a catch-all variant, when the decode on this thread was asked
/// to report them (see `collecting_unknown`); otherwise does nothing.
pub fn note_unknown(value: &serde_json::Value) {
    KEPT.with(|kept| {
        if let Some(kept) = kept.borrow_mut().as_mut() {
            kept.push(value.clone());
        }
    });
}

/// Runs `f`, returning with it every value it kept in a catch-all variant, in order.
pub fn collecting_unknown<T>(f: impl FnOnce() -> T) -> (T, Vec<serde_json::Value>) {
    struct Reset(Option<Vec<serde_json::Value>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let outer = self.0.take();
            KEPT.with(|kept| *kept.borrow_mut() = outer);
        }
    }
    let outer = KEPT.with(|kept| kept.borrow_mut().replace(Vec::new()));
    let reset = Reset(outer);
    let result = f();
    let collected = KEPT.with(|kept| kept.borrow_mut().replace(Vec::new()));
    drop(reset);
    (result, collected.unwrap_or_default())
}
