//! Weights installed at run time (`Weights::install`): the Expert level and the hints use them
//! in preference to the embedded ones. A test binary of its own: installing is once per process.

use reversi_ai::pattern::{Weights, WeightsError, PER_STAGE, STAGES};
use reversi_ai::{hints, midgame_hints_in_discs, Expert, Limits, Scoring};
use reversi_core::Position;
use std::sync::atomic::AtomicBool;

/// Weights whose every position evaluates to `discs` for the side to move (only the constant
/// term is set).
fn constant(discs: f32) -> Weights {
    let mut w = Weights::zero();
    for s in 0..STAGES {
        let mut stage = vec![0.0; PER_STAGE];
        stage[PER_STAGE - 1] = discs;
        w.set_stage(s, &stage);
    }
    w
}

#[test]
fn installed_weights_drive_expert_and_hints_and_are_installed_once() {
    // Bytes as a host would hand them, read and checked first.
    let bytes = constant(3.0).to_bytes();
    let mut corrupt = bytes.clone();
    corrupt[20] ^= 0x40;
    assert!(matches!(
        Weights::from_bytes(&corrupt),
        Err(WeightsError::Checksum { .. })
    ));
    assert!(Weights::installed().is_none());

    let w = Weights::from_bytes(&bytes).unwrap();
    let installed = Weights::install(w.clone()).unwrap();
    assert_eq!(installed, &w);
    assert_eq!(Weights::installed(), Some(&w));
    assert_eq!(Weights::active().unwrap(), &w);
    assert!(midgame_hints_in_discs());

    // Expert engines made now evaluate with the installed weights: 3 discs everywhere.
    let pos = Position::initial();
    assert_eq!(Expert::new().evaluate(&pos), 3.0);
    // Hints search with them too: a 1-ply midgame score is minus the opponent's evaluation.
    let h = hints(
        &pos,
        &Limits::depth(1),
        Scoring::DiscDifference,
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(h.len(), 4);
    assert!(h.iter().all(|m| !m.exact && m.score == -3), "{h:?}");

    // The same weights again: fine. Other weights: refused, the first stay.
    assert!(Weights::install(w.clone()).is_ok());
    assert_eq!(
        Weights::install(constant(-5.0)),
        Err(WeightsError::AlreadyInstalled)
    );
    assert_eq!(Weights::active().unwrap(), &w);
    assert_eq!(Expert::new().evaluate(&pos), 3.0);
}
