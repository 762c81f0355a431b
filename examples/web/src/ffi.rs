//! The C interface of the WebAssembly module, for a JavaScript wrapper.
//!
//! To make a call, the wrapper asks for a buffer with [`rv_alloc`], writes the UTF-8 request into
//! the module's memory there, and calls [`rv_call`], which frees the buffer, answers, and returns
//! the answer's length in bytes; [`rv_answer`] gives where the answer starts. The answer stays
//! valid until the next call.
//!
//! ```
//! use reversi_web::ffi::{rv_alloc, rv_answer, rv_call};
//! let request = br#"{"type":"perft","depth":1}"#;
//! let ptr = rv_alloc(request.len());
//! // SAFETY: `ptr` has room for `request.len()` bytes.
//! unsafe { ptr.copy_from_nonoverlapping(request.as_ptr(), request.len()) };
//! // SAFETY: `ptr` came from `rv_alloc` with this length and holds the request.
//! let len = unsafe { rv_call(ptr, request.len()) };
//! // SAFETY: the answer is `len` bytes at `rv_answer()` until the next call.
//! let answer = unsafe { std::slice::from_raw_parts(rv_answer(), len) };
//! assert_eq!(answer, br#"{"count":4,"depth":1,"type":"perft"}"#);
//! ```

use std::cell::RefCell;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[link(wasm_import_module = "env")]
extern "C" {
    /// The host's monotonic clock in milliseconds (`performance.now()` in a worker).
    fn rv_now_ms() -> f64;
}

/// The host's monotonic clock, the search's time source in the module.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) fn now() -> std::time::Duration {
    // SAFETY: an import without arguments that returns a number.
    let ms = unsafe { rv_now_ms() };
    if ms.is_finite() && ms > 0.0 {
        std::time::Duration::from_micros((ms * 1000.0) as u64)
    } else {
        std::time::Duration::ZERO
    }
}

thread_local! {
    /// The answer of the last call.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for a request, to be handed to [`rv_call`].
///
/// # Examples
///
/// ```
/// let p = reversi_web::ffi::rv_alloc(16);
/// assert!(!p.is_null());
/// ```
#[no_mangle]
#[must_use]
pub extern "C" fn rv_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Answers the request of `len` bytes at `ptr` (see [`crate::call`]), frees its buffer, and
/// returns the length of the answer, which [`rv_answer`] points to. A request that is not UTF-8 is
/// answered with an error.
///
/// # Safety
///
/// `ptr` must come from [`rv_alloc`] called with `len`, hold `len` initialised bytes, and not be
/// used again.
///
/// # Examples
///
/// See the [module](self).
#[no_mangle]
pub unsafe extern "C" fn rv_call(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller gives a buffer of `rv_alloc(len)` whose first `len` bytes are written;
    // its capacity is `len.max(1)` as `rv_alloc` made it.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = match std::str::from_utf8(&request) {
        Ok(text) => crate::call(text),
        Err(e) => serde_json::json!({
            "type": "error",
            "code": "bad_request",
            "message": format!("the request is not UTF-8: {e}"),
        })
        .to_string(),
    };
    ANSWER.with(|a| {
        let mut a = a.borrow_mut();
        *a = answer.into_bytes();
        a.len()
    })
}

/// Installs the Expert level's weights from the file's `len` bytes at `ptr` (see
/// [`crate::install_weights`]), frees their buffer, and returns the length of the JSON answer,
/// which [`rv_answer`] points to.
///
/// # Safety
///
/// As for [`rv_call`]: `ptr` must come from [`rv_alloc`] called with `len`, hold `len`
/// initialised bytes, and not be used again.
///
/// # Examples
///
/// ```
/// use reversi_web::ffi::{rv_alloc, rv_answer, rv_weights};
/// let bytes = b"not weights";
/// let ptr = rv_alloc(bytes.len());
/// // SAFETY: `ptr` has room for `bytes.len()` bytes.
/// unsafe { ptr.copy_from_nonoverlapping(bytes.as_ptr(), bytes.len()) };
/// // SAFETY: `ptr` came from `rv_alloc` with this length and holds the bytes.
/// let len = unsafe { rv_weights(ptr, bytes.len()) };
/// // SAFETY: the answer is `len` bytes at `rv_answer()` until the next call.
/// let answer = unsafe { std::slice::from_raw_parts(rv_answer(), len) };
/// assert!(std::str::from_utf8(answer).unwrap().contains("bad_weights"));
/// ```
#[no_mangle]
pub unsafe extern "C" fn rv_weights(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: as in `rv_call`, a buffer of `rv_alloc(len)` with its first `len` bytes written.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = crate::install_weights(&bytes);
    drop(bytes);
    ANSWER.with(|a| {
        let mut a = a.borrow_mut();
        *a = answer.into_bytes();
        a.len()
    })
}

/// Where the answer of the last [`rv_call`] starts.
///
/// # Examples
///
/// See the [module](self).
#[no_mangle]
#[must_use]
pub extern "C" fn rv_answer() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}
