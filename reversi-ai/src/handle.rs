//! Searching on a background thread.

use crate::{AiError, Engine, Limits, SearchResult};
use reversi_core::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A search running on its own thread: poll it with [`SearchHandle::is_finished`], stop it
/// cooperatively with [`SearchHandle::stop`], and collect the engine and its result with
/// [`SearchHandle::join`]. A stopped search still returns a legal move, promptly.
///
/// # Examples
///
/// ```
/// use reversi_ai::{Level, Limits, SearchHandle};
/// use reversi_core::Position;
/// let handle = SearchHandle::spawn(Level::Hard.engine(0), Position::initial(), Limits::NONE);
/// handle.stop(); // the user wants a move now
/// let (_engine, result) = handle.join();
/// assert!(Position::initial().play(result.unwrap().best_move).is_ok());
/// ```
pub struct SearchHandle<E: Engine + 'static> {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<(E, Result<SearchResult, AiError>)>,
}

impl<E: Engine + 'static> std::fmt::Debug for SearchHandle<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchHandle")
            .field("stopped", &self.stop.load(Ordering::Relaxed))
            .field("finished", &self.thread.is_finished())
            .finish()
    }
}

impl<E: Engine + 'static> SearchHandle<E> {
    /// Starts `engine` on `pos` within `limits` on a new thread.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Level, Limits, SearchHandle};
    /// use reversi_core::Position;
    /// let h = SearchHandle::spawn(Level::Normal.engine(1), Position::initial(), Limits::NONE);
    /// let (_, r) = h.join();
    /// assert!(r.is_ok());
    /// ```
    #[must_use]
    pub fn spawn(mut engine: E, pos: Position, limits: Limits) -> SearchHandle<E> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let r = engine.choose(&pos, &limits, &flag);
            (engine, r)
        });
        SearchHandle { stop, thread }
    }

    /// Whether the search has finished (its result is ready for [`SearchHandle::join`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Level, Limits, SearchHandle};
    /// use reversi_core::Position;
    /// let h = SearchHandle::spawn(Level::Easy.engine(1), Position::initial(), Limits::NONE);
    /// while !h.is_finished() {
    ///     std::thread::yield_now(); // a UI would draw a frame here
    /// }
    /// assert!(h.join().1.is_ok());
    /// ```
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Asks the search to stop as soon as it can; it then returns its best move so far.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Level, Limits, SearchHandle};
    /// use reversi_core::Position;
    /// let h = SearchHandle::spawn(Level::Hard.engine(1), Position::initial(), Limits::NONE);
    /// h.stop();
    /// assert!(h.join().1.is_ok());
    /// ```
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Waits for the result and gives the engine back.
    ///
    /// The result is [`AiError::ThreadPanicked`] if the engine panicked (a bug); the engine is
    /// then lost, so this returns `None` for it.
    ///
    /// # Examples
    ///
    /// ```
    /// use reversi_ai::{Level, Limits, SearchHandle};
    /// use reversi_core::Position;
    /// let (engine, r) = SearchHandle::spawn(Level::Normal.engine(1), Position::initial(), Limits::NONE).join();
    /// assert!(engine.is_some() && r.is_ok());
    /// ```
    pub fn join(self) -> (Option<E>, Result<SearchResult, AiError>) {
        match self.thread.join() {
            Ok((e, r)) => (Some(e), r),
            Err(_) => (None, Err(AiError::ThreadPanicked)),
        }
    }
}
