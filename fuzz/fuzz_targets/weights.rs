//! Pattern weights files (`RVPW`, version, shape, little-endian `i16`s, FNV-1a checksum): never a
//! panic, a `WeightsError` for anything but a whole, well-formed file, and `to_bytes` of what
//! reads gives back the same bytes.
//!
//! A whole file is about 200 kB with a checksum over it, which random bytes never reach: the
//! first byte chooses between the bytes as they are and the bytes written over a zero file
//! (at an offset from the next two bytes) with the checksum then made right, so that the weights
//! are read and used.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::ai::pattern::{Weights, WeightsError};
use reversi::core::Position;
use reversi_fuzz::Bytes;

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, from the state `h`.
fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The zero weights file, and the checksum state at every `CHUNK` bytes of it: a patched file's
/// checksum is then made right from the chunk of the patch on, not from the start.
const CHUNK: usize = 1 << 14;
static ZERO: std::sync::LazyLock<(Vec<u8>, Vec<u64>)> = std::sync::LazyLock::new(|| {
    let file = Weights::zero().to_bytes();
    let body = &file[..file.len() - 8];
    let mut states = vec![FNV_START];
    for c in body.chunks(CHUNK) {
        let last = *states.last().unwrap();
        states.push(fnv1a(last, c));
    }
    (file, states)
});

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes::new(data);
    let bytes = match input.byte() % 4 {
        0 => data[1.min(data.len())..].to_vec(),
        mode => {
            let (zero, states) = &*ZERO;
            let mut file = zero.clone();
            let body_end = file.len() - 8;
            // Mode 1 patches the header and the first weights, the others anywhere.
            let at = if mode == 1 {
                usize::from(input.byte() % 32)
            } else {
                usize::from(input.u16()) * (body_end / 65_536 + 1) % body_end
            };
            let patch = input.rest();
            let patch = &patch[..patch.len().min(body_end - at)];
            file[at..at + patch.len()].copy_from_slice(patch);
            let from = at / CHUNK * CHUNK;
            let h = fnv1a(states[at / CHUNK], &file[from..body_end]);
            file[body_end..].copy_from_slice(&h.to_le_bytes());
            if mode == 3 && !patch.is_empty() {
                // Truncated or lengthened by the patch's first byte.
                let n = usize::from(patch[0]);
                if n % 2 == 0 {
                    file.truncate(file.len().saturating_sub(n));
                } else {
                    file.extend(std::iter::repeat_n(0, n));
                }
            }
            file
        }
    };
    match Weights::from_bytes(&bytes) {
        Ok(w) => {
            assert_eq!(w.to_bytes(), bytes);
            let pos = Position::initial();
            let _ = w.eval(pos.player().0, pos.opponent().0);
            let (p, o) = (0x0000_0018_1c00_0000, 0x0000_2020_0000_0000);
            let _ = w.eval(p, o);
            let _ = w.eval(o, p);
            let _ = w.eval(0, 0);
            let _ = w.eval(!0, 0);
        }
        Err(e) => {
            assert!(
                !matches!(
                    e,
                    WeightsError::NotEmbedded | WeightsError::AlreadyInstalled
                ),
                "{e:?}"
            );
            let _ = e.to_string();
        }
    }
});
