//! What catches the failures that are not `Err`: a heap counter with a hard cap, the panic
//! hook, an abort handler that saves the input in flight, and the process's RSS.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::CString;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The system allocator, counting live heap bytes and failing allocations past a cap (a
/// failed allocation aborts the process, and the abort handler saves the input).
pub struct CountingAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

impl CountingAlloc {
    fn grow(size: usize) -> bool {
        let now = LIVE.fetch_add(size, Relaxed) + size;
        if now > CAP.load(Relaxed) {
            LIVE.fetch_sub(size, Relaxed);
            return false;
        }
        PEAK.fetch_max(now, Relaxed);
        true
    }
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Self::grow(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc(layout);
        if p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Self::grow(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !Self::grow(new_size - old) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            if new_size > old {
                LIVE.fetch_sub(new_size - old, Relaxed);
            }
        } else if new_size < old {
            LIVE.fetch_sub(old - new_size, Relaxed);
        }
        p
    }
}

/// Sets the heap cap, in bytes.
pub fn set_heap_cap(bytes: usize) {
    CAP.store(bytes, Relaxed);
}

/// Live heap bytes now.
pub fn heap_live() -> usize {
    LIVE.load(Relaxed)
}

/// Starts measuring the heap high-water mark from now.
pub fn heap_reset_peak() -> usize {
    let live = LIVE.load(Relaxed);
    PEAK.store(live, Relaxed);
    live
}

/// The heap high-water mark since the last reset.
pub fn heap_peak() -> usize {
    PEAK.load(Relaxed)
}

/// When the decode call in flight started (nanoseconds since [`epoch`], plus one), or 0.
static CALL_SINCE: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_nanos() -> u64 {
    epoch().elapsed().as_nanos() as u64
}

/// Marks the start of a decode call for the watchdog, and starts measuring its heap
/// high-water mark. Returns the live heap.
pub fn call_started() -> usize {
    CALL_SINCE.store(now_nanos() + 1, Relaxed);
    heap_reset_peak()
}

/// Marks the end of the decode call; returns its heap high-water mark.
pub fn call_finished() -> usize {
    CALL_SINCE.store(0, Relaxed);
    heap_peak()
}

/// How long the decode call in flight has been running, if one is.
pub fn call_running_for() -> Option<Duration> {
    match CALL_SINCE.load(Relaxed) {
        0 => None,
        since => Some(Duration::from_nanos(now_nanos().saturating_sub(since - 1))),
    }
}

/// The last panic's message, location and backtrace, as the hook recorded it.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the default hook (which prints) with one that records.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let backtrace = std::backtrace::Backtrace::force_capture();
        let text = format!("{info}\n{backtrace}");
        if let Ok(mut slot) = LAST_PANIC.lock() {
            *slot = Some(text);
        }
    }));
}

pub fn take_panic() -> String {
    LAST_PANIC
        .lock()
        .ok()
        .and_then(|mut slot| slot.take())
        .unwrap_or_else(|| "(no panic message recorded)".to_owned())
}

/// The input being decoded, for the abort handler (pointer and length) and the watchdog.
static IN_FLIGHT_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static IN_FLIGHT_LEN: AtomicUsize = AtomicUsize::new(0);
static ABORT_PATH: OnceLock<CString> = OnceLock::new();

/// Records the input about to be decoded. It must stay alive and unmoved until the next
/// call (or [`clear_in_flight`]).
pub fn set_in_flight(input: &[u8]) {
    IN_FLIGHT_LEN.store(0, Relaxed);
    IN_FLIGHT_PTR.store(input.as_ptr() as *mut u8, Relaxed);
    IN_FLIGHT_LEN.store(input.len(), Relaxed);
}

pub fn clear_in_flight() {
    IN_FLIGHT_LEN.store(0, Relaxed);
    IN_FLIGHT_PTR.store(std::ptr::null_mut(), Relaxed);
}

/// A copy of the input in flight (for the watchdog, while the worker is stuck in it).
pub fn in_flight_copy() -> Vec<u8> {
    let ptr = IN_FLIGHT_PTR.load(Relaxed);
    let len = IN_FLIGHT_LEN.load(Relaxed);
    if ptr.is_null() {
        return Vec::new();
    }
    // SAFETY: the worker keeps the input alive while it is in flight, and is stuck in it.
    unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec()
}

/// On SIGABRT (stack overflow, failed allocation, panic while panicking), writes the input
/// in flight to `path`, then lets the abort proceed.
pub fn install_abort_handler(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let path = CString::new(path.as_os_str().as_bytes()).expect("path without NUL");
    let _ = ABORT_PATH.set(path);
    // SAFETY: a plain sigaction call with a handler that only makes async-signal-safe calls.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_abort as *const () as usize;
        action.sa_flags = libc::SA_RESETHAND;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGABRT, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_abort(_signal: libc::c_int) {
    let ptr = IN_FLIGHT_PTR.load(Relaxed);
    let len = IN_FLIGHT_LEN.load(Relaxed);
    if let (Some(path), false) = (ABORT_PATH.get(), ptr.is_null()) {
        // SAFETY: open/write/close are async-signal-safe; the buffer is the live input.
        unsafe {
            let fd = libc::open(
                path.as_ptr(),
                libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
                0o644,
            );
            if fd >= 0 {
                let _ = libc::write(fd, ptr as *const libc::c_void, len);
                libc::close(fd);
            }
            let msg = b"near-rpc-fuzz: aborted; the input in flight was saved\n";
            let _ = libc::write(2, msg.as_ptr() as *const libc::c_void, msg.len());
        }
    }
    // SA_RESETHAND restored the default action; abort() raises SIGABRT again.
}

/// A field of /proc/self/status, in KiB (`VmRSS`, `VmHWM`).
pub fn proc_status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let rest = line.strip_prefix(field)?.strip_prefix(':')?;
        rest.trim().trim_end_matches("kB").trim().parse().ok()
    })
}
