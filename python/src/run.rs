//! Long calls: run off the GIL on a worker thread while the calling thread watches for Ctrl-C
//! and for a `StopToken`, and tells the work to stop through an `AtomicBool`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// A flag that stops a running search, solve or count from any thread.
///
/// Pass it as ``stop=`` to a long call, then call :meth:`stop` from another thread (or a
/// signal handler, or a UI callback); the call ends soon after with :class:`SearchStopped`
/// (a level's move choice returns its best move so far instead). A token stays set until
/// :meth:`reset`; a call given a set token stops at once.
#[pyclass(module = "reversi", frozen)]
#[derive(Default)]
pub struct StopToken {
    flag: Arc<AtomicBool>,
}

#[pymethods]
impl StopToken {
    #[new]
    fn new() -> Self {
        StopToken::default()
    }

    /// Asks every call holding this token to stop.
    fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Clears the token so that it can be used again.
    fn reset(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }

    /// Whether :meth:`stop` was called since the last :meth:`reset`.
    #[getter]
    fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        format!(
            "StopToken(is_set={})",
            if self.is_set() { "True" } else { "False" }
        )
    }
}

/// How often the waiting thread looks at Ctrl-C and the token.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a worker thread with the GIL released, handing it a stop flag that is set
/// when `token` is set or when Python has a pending signal (Ctrl-C): then `work` is expected to
/// return soon, and the signal's exception (KeyboardInterrupt) is raised rather than its result.
pub fn blocking<T, F>(py: Python<'_>, token: Option<&StopToken>, work: F) -> PyResult<T>
where
    T: Send,
    F: FnOnce(&AtomicBool) -> T + Send,
{
    let user = token.map(|t| Arc::clone(&t.flag));
    let flag = AtomicBool::new(user.as_ref().is_some_and(|u| u.load(Ordering::Relaxed)));
    let (joined, signal) = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = channel::<()>();
            let flag = &flag;
            let worker = s.spawn(move || {
                let r = work(flag);
                let _ = tx.send(());
                r
            });
            let mut signal = None;
            loop {
                match rx.recv_timeout(POLL) {
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
                    Err(RecvTimeoutError::Timeout) => {
                        if user.as_ref().is_some_and(|u| u.load(Ordering::Relaxed)) {
                            flag.store(true, Ordering::Relaxed);
                        }
                        if signal.is_none() {
                            // Signal handlers run on the main thread only; elsewhere this is Ok.
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                flag.store(true, Ordering::Relaxed);
                                signal = Some(e);
                            }
                        }
                    }
                }
            }
            (worker.join(), signal)
        })
    });
    if let Some(e) = signal {
        return Err(e);
    }
    joined.map_err(|_| PyRuntimeError::new_err("the search thread panicked (a bug in reversi)"))
}
