//! Letting the host breathe during long units of work. In a browser the page installs a pause that
//! yields to the event loop (a `setTimeout(0)` promise); natively there is none and
//! [`pause`] is a no-op. The core calls it between evaluation chunks and probe samples, so that no
//! single piece of work holds the main thread for long.

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

/// A function returning a future that yields to the host once.
pub type PauseFn = fn() -> Pin<Box<dyn Future<Output = ()>>>;

static PAUSE: OnceLock<PauseFn> = OnceLock::new();

/// Installs the host's pause (once; later calls are ignored).
pub fn install(f: PauseFn) {
    let _ = PAUSE.set(f);
}

/// Yields to the host if it installed a pause.
pub async fn pause() {
    if let Some(f) = PAUSE.get() {
        f().await;
    }
}

/// Ends a turn: the task returns to whoever polls it (once) and is woken at once. Between training
/// steps, so that a host polling several tasks in turns ([`crate::local`]) runs one step of each;
/// a host running one task alone (a Web Worker, a job of the paper grid) polls it again at once.
pub async fn turn() {
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        if yielded {
            std::task::Poll::Ready(())
        } else {
            yielded = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    })
    .await
}
