//! The pattern evaluation's weights file and the training pipeline.

use proptest::prelude::*;
use reversi_ai::pattern::{Weights, WeightsError, PER_STAGE, STAGES};
use reversi_ai::probcut::{Cut, ProbCut};
#[cfg(feature = "train")]
use reversi_ai::train::{check_weights, train, train_played_by, Reference, TrainConfig};

/// Weights with some non-zero values, so that a changed byte changes them.
fn sample_weights() -> Weights {
    let mut w = Weights::zero();
    for s in 0..STAGES {
        let v: Vec<f32> = (0..PER_STAGE)
            .map(|i| ((i * 7 + s) % 13) as f32 - 6.0)
            .collect();
        w.set_stage(s, &v);
    }
    w
}

#[test]
fn weights_round_trip_and_every_header_error_is_typed() {
    let w = sample_weights();
    let b = w.to_bytes();
    assert_eq!(Weights::from_bytes(&b).unwrap(), w);
    let mut bad = b.clone();
    bad[0] = b'X';
    assert!(matches!(
        Weights::from_bytes(&bad),
        Err(WeightsError::BadMagic { .. })
    ));
    let mut bad = b.clone();
    bad[4] = 5;
    assert_eq!(
        Weights::from_bytes(&bad),
        Err(WeightsError::Version {
            found: 5,
            expected: 4
        })
    );
    // A version 1 file said to be version 2 lacks the ProbCut section.
    let mut bad = b.clone();
    bad[4] = 2;
    assert!(matches!(
        Weights::from_bytes(&bad),
        Err(WeightsError::Truncated { .. })
    ));
    let mut bad = b.clone();
    bad[8] = 3;
    assert!(matches!(
        Weights::from_bytes(&bad),
        Err(WeightsError::Shape { stages: 3, .. })
    ));
    assert!(matches!(
        Weights::from_bytes(&b[..b.len() - 1]),
        Err(WeightsError::Truncated { .. })
    ));
    let mut long = b.clone();
    long.push(0);
    assert_eq!(
        Weights::from_bytes(&long),
        Err(WeightsError::TrailingBytes { extra: 1 })
    );
    let mut bad = b.clone();
    let mid = b.len() / 2;
    bad[mid] ^= 0x40;
    assert!(matches!(
        Weights::from_bytes(&bad),
        Err(WeightsError::Checksum { .. })
    ));
}

/// Re-signs a weights file after a change (its last 8 bytes are FNV-1a of the rest).
fn resign(b: &mut [u8]) {
    let n = b.len() - 8;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in &b[..n] {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    b[n..].copy_from_slice(&h.to_le_bytes());
}

#[test]
fn probcut_parameters_travel_with_the_weights_and_bad_ones_are_refused() {
    let pc = ProbCut::uniform(Cut {
        a: 1.1,
        b: -0.25,
        sigma: 3.5,
    });
    let w = sample_weights().with_probcut(Some(pc.clone()));
    let b = w.to_bytes();
    assert_eq!(u32::from_le_bytes([b[4], b[5], b[6], b[7]]), 3);
    let back = Weights::from_bytes(&b).unwrap();
    assert_eq!(back.probcut(), Some(&pc));
    assert_eq!(back, w);
    // Without them the file is version 1, as before.
    let v1 = sample_weights().to_bytes();
    assert_eq!(v1[4], 1);
    assert!(Weights::from_bytes(&v1).unwrap().probcut().is_none());
    // A NaN slope, a negative deviation: refused even with a valid checksum.
    let first_cut = b.len() - 8 - ProbCut::BYTES;
    for (offset, value) in [(0usize, f32::NAN), (8, -1.0), (0, 0.0)] {
        let mut bad = b.clone();
        bad[first_cut + offset..first_cut + offset + 4].copy_from_slice(&value.to_le_bytes());
        resign(&mut bad);
        assert_eq!(Weights::from_bytes(&bad), Err(WeightsError::ProbCut));
    }
    // A shallow depth of 0, or not below its depth: refused too.
    let pairs = b.len() - 8 - ProbCut::BYTES + ProbCut::LEGACY_BYTES;
    for (depth, shallow) in [(5usize, 0u8), (6, 6), (3, 9)] {
        let mut bad = b.clone();
        bad[pairs + depth] = shallow;
        resign(&mut bad);
        assert_eq!(Weights::from_bytes(&bad), Err(WeightsError::ProbCut));
    }
}

#[test]
fn endgame_cuts_make_a_version_4_file_that_reads_back() {
    use reversi_ai::probcut::EndSample;
    let samples: Vec<EndSample> = (0..600)
        .map(|i| {
            let x = (i % 50) as f32 - 25.0;
            EndSample {
                empties: 14 + (i % 3) * 4,
                shallow: x,
                exact: x + (i % 7) as f32 - 3.0,
            }
        })
        .collect();
    let pc = ProbCut::uniform(Cut {
        a: 1.0,
        b: 0.5,
        sigma: 3.0,
    })
    .with_end_fit(&samples)
    .unwrap();
    assert!(pc.has_end());
    let w = sample_weights().with_probcut(Some(pc.clone()));
    let b = w.to_bytes();
    assert_eq!(b[4], 4);
    let back = Weights::from_bytes(&b).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.probcut().unwrap().end(22), pc.end(22));
    // The measured empties keep their own fit; the others take the nearest one's slope.
    let c = pc.end(18).unwrap();
    assert!(
        (c.a - 1.0).abs() < 0.05 && (c.sigma - 2.0).abs() < 0.2,
        "{c:?}"
    );
    assert_eq!(pc.end(30).unwrap().a, pc.end(22).unwrap().a);
    // A negative deviation in the endgame's part is refused like one in the midgame's.
    let mut bad = b.clone();
    let at = b.len() - 8 - 12 + 8;
    bad[at..at + 4].copy_from_slice(&(-1.0f32).to_le_bytes());
    resign(&mut bad);
    assert_eq!(Weights::from_bytes(&bad), Err(WeightsError::ProbCut));
    // Cut short to version 3's length with version 4 in the header: refused.
    let mut short = b[..b.len() - 8 - (ProbCut::END_BYTES - ProbCut::BYTES)].to_vec();
    short.extend_from_slice(&[0; 8]);
    resign(&mut short);
    assert!(matches!(
        Weights::from_bytes(&short),
        Err(WeightsError::Truncated { .. })
    ));
}

#[test]
fn a_version_2_file_keeps_its_own_pairing_of_depths() {
    use reversi_ai::probcut::{legacy_shallow_depth, shallow_depth};
    let pc = ProbCut::uniform(Cut {
        a: 1.0,
        b: 0.5,
        sigma: 3.0,
    });
    let b = sample_weights().with_probcut(Some(pc.clone())).to_bytes();
    // The same file as version 2 wrote it: the parameters without the depths' pairing.
    let mut v2 = b[..b.len() - 8 - (ProbCut::BYTES - ProbCut::LEGACY_BYTES)].to_vec();
    v2[4] = 2;
    v2.extend_from_slice(&[0; 8]);
    resign(&mut v2);
    let back = Weights::from_bytes(&v2).unwrap();
    let read = back.probcut().unwrap();
    let mut differ = 0;
    for d in 0..=30 {
        assert_eq!(read.shallow(d), legacy_shallow_depth(d), "depth {d}");
        assert_eq!(pc.shallow(d), shallow_depth(d), "depth {d}");
        assert_eq!(read.cut(40, d), pc.cut(40, d));
        differ += usize::from(read.shallow(d) != pc.shallow(d));
    }
    assert!(differ >= 10, "{differ}");
    // Written again, it is version 3 and reads back the same.
    let again = back.to_bytes();
    assert_eq!(again[4], 3);
    assert_eq!(Weights::from_bytes(&again).unwrap(), back);
}

#[cfg(feature = "embedded-weights")]
#[test]
fn the_shipped_weights_load() {
    assert!(Weights::embedded().is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_bytes_give_an_error_not_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        prop_assert!(Weights::from_bytes(&bytes).is_err());
    }

    #[test]
    fn a_changed_byte_or_a_cut_is_detected(pos in 0usize..1_000_000, bit in 0u8..8, cut in any::<bool>()) {
        let b = Weights::zero().to_bytes();
        let i = pos % b.len();
        let mut bad = b.clone();
        if cut {
            bad.truncate(i);
        } else {
            bad[i] ^= 1 << bit;
        }
        prop_assert!(Weights::from_bytes(&bad).is_err());
    }
}

// With the feature `train` only (.ci/run tests it so).
#[cfg(feature = "train")]
#[test]
fn a_small_training_beats_the_zero_evaluation_on_held_back_positions() {
    let cfg = TrainConfig::new(5)
        .with_games(300)
        .with_solve_empties(10)
        .with_iterations(30);
    let out = train(&cfg, |_| {});
    assert_eq!(out.stages.len(), STAGES);
    // The exact-labelled endgame stages: the trained weights must predict the held-back
    // positions better than the zero evaluation.
    for r in &out.stages[1..3] {
        assert!(r.validation > 50, "{r:?}");
        assert!(r.mae < r.mae_zero * 0.8, "{r:?}");
    }
    let total: f64 = out.stages.iter().map(|r| r.mae).sum();
    let zero: f64 = out.stages.iter().map(|r| r.mae_zero).sum();
    assert!(total < zero, "trained {total}, zero {zero}");
    // Same seed, same weights.
    let again = train(&cfg, |_| {});
    assert_eq!(again.weights, out.weights);
    // Checked against exact scores of held-back positions beyond the exact labels (16 and 17
    // empties, labelled by searches on the trained stages), the weights still beat zero.
    let rows = check_weights(&out.weights, &cfg, 20, 17, 4);
    for r in rows.iter().filter(|r| r.reference == Reference::Exact) {
        assert!(r.positions >= 10, "{r:?}");
        assert!(r.mae < r.mae_zero * 0.8, "{r:?}");
    }
    assert!(rows.iter().any(|r| r.reference == Reference::Search(4)));
}

#[cfg(feature = "train")]
#[test]
fn a_bootstrapped_round_plays_its_games_with_the_weights_it_is_given() {
    let cfg = TrainConfig::new(6)
        .with_games(200)
        .with_solve_empties(10)
        .with_iterations(30);
    let first = train(&cfg, |_| {});
    assert_eq!(train_played_by(&cfg, None, |_| {}).weights, first.weights);
    let second = train_played_by(&cfg, Some(&first.weights), |_| {});
    // Other games: the held-back positions are not those of the Hard-played games.
    let key = |o: &reversi_ai::train::TrainOutput| -> Vec<(u32, u32)> {
        o.validation
            .iter()
            .map(|v| (v.empties, v.label.to_bits()))
            .collect()
    };
    assert_ne!(key(&second), key(&first));
    // Reproducible, and still a trained evaluation.
    let again = train_played_by(&cfg, Some(&first.weights), |_| {});
    assert_eq!(again.weights, second.weights);
    for r in &second.stages[1..3] {
        assert!(r.mae < r.mae_zero * 0.8, "{r:?}");
    }
}
