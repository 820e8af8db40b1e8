//! Time for the client on every target. Natively: std's clock and tokio's timers (so the
//! tests' paused clock drives every wait). On wasm32 there is neither a tokio runtime to
//! drive its timers nor a std clock (`std::time::Instant::now` panics there): the JS
//! host's `performance.now()` (through `web-time`) and `setTimeout` stand in, in a
//! browser and under Node alike. The rest of the client names only these paths.

/// The clock of [`RpcRequest::deadline`](super::transport::RpcRequest::deadline) (std's,
/// natively).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub(crate) use web_time::Instant;

/// The wall clock (std's, natively).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::{SystemTime, UNIX_EPOCH};
#[cfg(target_arch = "wasm32")]
pub(crate) use web_time::{SystemTime, UNIX_EPOCH};

/// Timers and the clock they read: tokio's, natively.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod time {
    pub(crate) use tokio::time::{sleep, sleep_until, timeout, Instant};
}

/// Timers over the JS host's `setTimeout`, with tokio's names and signatures.
#[cfg(target_arch = "wasm32")]
pub(crate) mod time {
    use std::future::{poll_fn, Future};
    use std::pin::pin;
    use std::task::Poll;
    use std::time::Duration;

    use wasm_bindgen::{JsCast as _, JsValue};

    pub(crate) use web_time::Instant;

    /// A timer that fired before the future it bounded finished.
    #[derive(Debug)]
    pub(crate) struct Elapsed;

    /// Waits `duration`: a promise resolved by the global `setTimeout` (a browser's
    /// window or worker, or Node, which all have one).
    pub(crate) async fn sleep(duration: Duration) {
        // setTimeout takes a 32-bit count of milliseconds; longer waits are cut there
        // (24 days), which no wait of the client comes near.
        let millis = duration.as_millis().min(i32::MAX as u128) as i32;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let set_timeout = js_sys::Reflect::get(&js_sys::global(), &"setTimeout".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            match set_timeout {
                Some(f) => {
                    let _ = f.call2(&JsValue::UNDEFINED, &resolve, &millis.into());
                }
                // A host without timers: do not wait rather than hang forever.
                None => {
                    let _ = resolve.call0(&JsValue::UNDEFINED);
                }
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }

    /// Waits until `deadline`.
    pub(crate) async fn sleep_until(deadline: Instant) {
        sleep(deadline.saturating_duration_since(Instant::now())).await
    }

    /// Runs `future` for at most `duration`.
    pub(crate) async fn timeout<F: Future>(
        duration: Duration,
        future: F,
    ) -> Result<F::Output, Elapsed> {
        let mut future = pin!(future);
        let mut timer = pin!(sleep(duration));
        poll_fn(|cx| {
            if let Poll::Ready(output) = future.as_mut().poll(cx) {
                return Poll::Ready(Ok(output));
            }
            timer.as_mut().poll(cx).map(|()| Err(Elapsed))
        })
        .await
    }
}
