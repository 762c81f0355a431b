//! reversi-room: work in progress; see the workspace README.
#![deny(missing_docs)]
