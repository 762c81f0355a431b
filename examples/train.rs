//! Trains the pattern evaluation of the Expert level and writes its weights file.
//!
//! ```text
//! cargo run --release --features train --example train -- --seed 1 --games 100000 \
//!     --label-depth 6 --solve-empties 16 --threads 2 \
//!     --out reversi-ai/weights/expert.bin --plot docs/eval-validation.png
//! ```
//!
//! Options: `--seed N`, `--games N`, `--solve-empties N` (exact labels up to N empties),
//! `--label-depth N`, `--random-moves N`, `--iterations N`, `--lambda X`, `--threads N`,
//! `--out PATH` (weights), `--plot PATH` (PNG of predicted against exact scores on held-back
//! endgame positions), `--csv PATH` (every held-back position: empties, label, prediction,
//! exact). It prints the validation error (mean absolute error in discs) per stage.
//! The games are played by two-ply searches on the Hard evaluation, or on the weights file
//! `--play-weights PATH` (a bootstrapped round: positions that a trained evaluation reaches);
//! `--rounds N` (default 1) trains N times in a row, each round after the first on games
//! played by the weights of the round before. `--label-cuts WEIGHTS` makes the labelling
//! search selective with the Multi-ProbCut parameters of the weights file `WEIGHTS`;
//! `--solve-weights WEIGHTS` orders the exact solves' moves with that file's weights (and its
//! endgame cuts, a selective presearch first): the same labels, sooner.
//! `--replot CSV --plot PATH` draws the plot again from such a CSV file without training.
//! `--checkpoint PATH` saves the run's state to `PATH` after every stage and, when `PATH`
//! exists, goes on from the state in it (the same options needed; `train::train_from`): a
//! run of many hours can be stopped and resumed, with the same result. With `--label-batch N`
//! a stage's positions are labelled N at a time and the state is saved after each batch too, so
//! that a stage of hours (exact labels up to 20 empties) resumes within.
//!
//! `--check WEIGHTS` measures the weights file `WEIGHTS` on the held-back games of the training
//! configuration given (`--seed`, `--games`, `--threads`): `--positions N` positions (default
//! 100) of each number of empties from 16 to `--exact-max E` (default 24) against their exact
//! scores, and of each group of four empties above against a full-width search `--check-depth D`
//! plies deep (default 10); it prints a table of mean absolute errors in discs
//! (`train::check_weights`).
//!
//! `--calibrate WEIGHTS` moves the constant of each stage of the weights file `WEIGHTS` so
//! that the evaluation's mean over positions of that stage is that of exact scores (up to
//! `--exact-max E` empties, default 24) or, above, of the mean of a `--depth D`-ply and a
//! `D - 1`-ply search (default 8), stage after stage from the end (`train::calibrate`; options
//! `--seed`, `--threads`, `--positions N` a stage, default 200); it writes the weights without
//! cut parameters to `--out PATH`, so the cut fits below come after it.
//!
//! `--fit-probcut WEIGHTS` fits the Multi-ProbCut parameters of the Expert level's selective
//! search for the weights file `WEIGHTS` and writes the weights with them to `--out PATH`
//! (options `--seed`, `--threads`, `--positions N`, `--max-depth N`, `--csv PATH` to keep the
//! measured pairs, `--from-csv PATH` to fit again from them without searching); it prints the
//! fitted parameters per stage and depth:
//!
//! ```text
//! cargo run --release --features train --example train -- --fit-probcut \
//!     reversi-ai/weights/expert.bin --positions 3000 --max-depth 12 --threads 2 \
//!     --out reversi-ai/weights/expert.bin
//! ```
//!
//! `--fit-endcut WEIGHTS` then fits the endgame's cuts (of the selective endgame search that
//! precedes an exact solve) for the weights file `WEIGHTS`, whose Multi-ProbCut parameters it
//! keeps, and writes the weights with them to `--out PATH` (options `--seed`, `--threads`,
//! `--per-empties N`, positions solved at each number of empties from 12 to 22, default 150);
//! it prints the fitted cut per number of empties. `--fit-probcut` writes parameters without
//! endgame cuts, so it comes first:
//!
//! ```text
//! cargo run --release --features train --example train -- --fit-endcut \
//!     reversi-ai/weights/expert.bin --threads 2 --out reversi-ai/weights/expert.bin
//! ```

use reversi::ai::pattern::Weights;
use reversi::ai::probcut;
use reversi::ai::train::{
    calibrate, check_weights, fit_end_probcut, fit_probcut, train_from, CalibrateConfig,
    EndCutConfig, ProbCutConfig, Progress, Reference, TrainConfig, TrainState, Validation,
};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::FAILURE
        }
    }
}

fn value<T: std::str::FromStr>(
    args: &mut impl Iterator<Item = String>,
    flag: &str,
) -> Result<T, String> {
    let v = args.next().ok_or(format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag}: {v:?} is not a valid value"))
}

fn run() -> Result<(), String> {
    let mut cfg = TrainConfig::new(1);
    let mut out = None;
    let mut plot = None;
    let mut csv = None;
    let mut replot = None;
    let mut fit_pc: Option<String> = None;
    let mut fit_end: Option<String> = None;
    let mut end_cfg = EndCutConfig::new(1);
    let mut from_csv: Option<String> = None;
    let mut pc = ProbCutConfig::new(1);
    let mut check: Option<String> = None;
    let mut check_positions = None;
    let mut exact_max = 24;
    let mut check_depth = 10;
    let mut play_weights: Option<String> = None;
    let mut rounds = 1u32;
    let mut calibrate_from: Option<String> = None;
    let mut calibrate_depth = 8;
    let mut checkpoint: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seed" => cfg.seed = value(&mut args, &a)?,
            "--games" => cfg = cfg.with_games(value(&mut args, &a)?),
            "--solve-empties" => cfg = cfg.with_solve_empties(value(&mut args, &a)?),
            "--label-depth" => cfg = cfg.with_label_depth(value(&mut args, &a)?),
            "--random-moves" => cfg.random_moves = value(&mut args, &a)?,
            "--iterations" => cfg = cfg.with_iterations(value(&mut args, &a)?),
            "--lambda" => cfg.lambda = value(&mut args, &a)?,
            "--threads" => cfg = cfg.with_threads(value(&mut args, &a)?),
            "--out" => out = Some(value::<String>(&mut args, &a)?),
            "--plot" => plot = Some(value::<String>(&mut args, &a)?),
            "--csv" => csv = Some(value::<String>(&mut args, &a)?),
            "--replot" => replot = Some(value::<String>(&mut args, &a)?),
            "--fit-probcut" => fit_pc = Some(value::<String>(&mut args, &a)?),
            "--fit-endcut" => fit_end = Some(value::<String>(&mut args, &a)?),
            "--per-empties" => end_cfg.per_empties = value(&mut args, &a)?,
            "--positions" => {
                let n = value(&mut args, &a)?;
                pc.positions = n;
                check_positions = Some(n);
            }
            "--check" => check = Some(value::<String>(&mut args, &a)?),
            "--exact-max" => exact_max = value(&mut args, &a)?,
            "--check-depth" => check_depth = value(&mut args, &a)?,
            "--max-depth" => pc.max_depth = value(&mut args, &a)?,
            "--from-csv" => from_csv = Some(value::<String>(&mut args, &a)?),
            "--play-weights" => play_weights = Some(value::<String>(&mut args, &a)?),
            "--label-cuts" => {
                let path = value::<String>(&mut args, &a)?;
                let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
                let w = Weights::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
                let cuts = w.probcut().cloned().ok_or_else(|| {
                    format!("{path}: the weights carry no Multi-ProbCut parameters")
                })?;
                cfg = cfg.with_label_cuts(Some(cuts));
            }
            "--solve-weights" => {
                let path = value::<String>(&mut args, &a)?;
                let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
                let w = Weights::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
                cfg = cfg.with_solve_weights(Some(w));
            }
            "--label-batch" => cfg = cfg.with_label_batch(value(&mut args, &a)?),
            "--rounds" => rounds = value(&mut args, &a)?,
            "--calibrate" => calibrate_from = Some(value::<String>(&mut args, &a)?),
            "--depth" => calibrate_depth = value(&mut args, &a)?,
            "--checkpoint" => checkpoint = Some(value::<String>(&mut args, &a)?),
            _ => {
                return Err(format!(
                    "unknown option {a:?} (see the comment at the top of examples/train.rs)"
                ))
            }
        }
    }
    if let Some(from) = calibrate_from {
        let mut c = CalibrateConfig::new(cfg.seed);
        c.threads = cfg.threads;
        c.positions = check_positions.unwrap_or(c.positions);
        c.exact_max = exact_max;
        c.depth = calibrate_depth;
        return calibrate_command(&from, &c, out.as_deref());
    }
    if let Some(from) = fit_end {
        end_cfg.seed = cfg.seed;
        end_cfg.threads = cfg.threads;
        return endcut_command(&from, &end_cfg, out.as_deref());
    }
    if let Some(from) = fit_pc {
        pc.seed = cfg.seed;
        pc.threads = cfg.threads;
        return probcut_command(
            &from,
            &pc,
            out.as_deref(),
            csv.as_deref(),
            from_csv.as_deref(),
        );
    }
    if let Some(from) = check {
        let bytes = std::fs::read(&from).map_err(|e| format!("{from}: {e}"))?;
        let w = Weights::from_bytes(&bytes).map_err(|e| format!("{from}: {e}"))?;
        if !(16..=30).contains(&exact_max) || !(1..=20).contains(&check_depth) {
            return Err("--exact-max must be 16 to 30 and --check-depth 1 to 20".into());
        }
        let n = check_positions.unwrap_or(100);
        println!("config: {cfg:?}; {n} positions a row, exact up to {exact_max} empties, search depth {check_depth}");
        let start = Instant::now();
        println!("| empties | positions | against | MAE (discs) | zero eval |");
        println!("|---|---:|---|---:|---:|");
        for r in check_weights(&w, &cfg, n, exact_max, check_depth) {
            let against = match r.reference {
                Reference::Exact => "exact score".to_string(),
                Reference::Search(d) => format!("{d}-ply search"),
            };
            let (lo, hi) = r.empties;
            let empties = if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo}-{hi}")
            };
            println!(
                "| {empties} | {} | {against} | {:.2} | {:.2} |",
                r.positions, r.mae, r.mae_zero
            );
        }
        println!("checked in {:.0} s", start.elapsed().as_secs_f64());
        return Ok(());
    }
    if let Some(from) = replot {
        let path = plot.ok_or("--replot needs --plot PATH")?;
        let text = std::fs::read_to_string(&from).map_err(|e| format!("{from}: {e}"))?;
        let mut points = Vec::new();
        for (i, line) in text.lines().enumerate().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let bad = || {
                format!(
                    "{from}: line {}: expected empties,label,predicted,exact",
                    i + 1
                )
            };
            if f.len() != 4 {
                return Err(bad());
            }
            points.push(Validation::new(
                f[0].parse().map_err(|_| bad())?,
                f[1].parse().map_err(|_| bad())?,
                f[2].parse().map_err(|_| bad())?,
                f[3].parse().map_err(|_| bad())?,
            ));
        }
        let exact: Vec<&Validation> = points.iter().filter(|v| v.exact && v.empties > 0).collect();
        std::fs::write(&path, scatter_png(&exact)).map_err(|e| format!("{path}: {e}"))?;
        println!(
            "plot of {} held-back exact positions written to {path}",
            exact.len()
        );
        return Ok(());
    }
    if !(1..=10).contains(&rounds) {
        return Err("--rounds must be 1 to 10".into());
    }
    if checkpoint.is_some() && rounds > 1 {
        return Err("--checkpoint takes one round".into());
    }
    // A checkpoint file that exists is the state to go on from.
    let mut resume = match &checkpoint {
        Some(path) if std::path::Path::new(path).exists() => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            let state = TrainState::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
            println!(
                "resuming from {path}: {} of the stages done, {} positions of the next labelled",
                state.stages.len(),
                state.labelled()
            );
            Some(state)
        }
        _ => None,
    };
    let player = match &play_weights {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            Some(Weights::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?)
        }
        None => None,
    };
    // The cut table is long: the configuration says only whether there is one.
    let shown = cfg.clone().with_label_cuts(None);
    let cuts = if cfg.label_cuts.is_some() {
        "selective"
    } else {
        "full width"
    };
    println!("config: {shown:?}; labelling search {cuts}");
    let start = Instant::now();
    let mut round = |round: u32, player: Option<&Weights>| -> Result<_, String> {
        let games = match &play_weights {
            _ if round > 1 => "the weights of the round before".to_string(),
            Some(path) => path.clone(),
            None => "the Hard evaluation".to_string(),
        };
        println!("round {round}: games played by two-ply searches on {games}");
        let out = train_from(&cfg, player, resume.take(), |p, state| {
            let what = match p {
                Progress::Stage(r) => {
                    println!(
                        "stage {:2} (empties {:2}-{:2}): {:7} train, {:6} validation, {:7} exact; validation MAE {:6.2} discs (zero eval {:6.2}) [{:.0} s]",
                        r.stage,
                        4 * r.stage,
                        4 * r.stage + 3,
                        r.train,
                        r.validation,
                        r.exact,
                        r.mae,
                        r.mae_zero,
                        start.elapsed().as_secs_f64()
                    );
                    format!("stage {}", r.stage)
                }
                Progress::Labelled {
                    stage,
                    done,
                    positions,
                } => {
                    println!(
                        "stage {stage:2}: {done} of {positions} positions labelled [{:.0} s]",
                        start.elapsed().as_secs_f64()
                    );
                    format!("{done} labels of stage {stage}")
                }
                _ => return,
            };
            if let Some(path) = &checkpoint {
                // Written aside, then renamed: a run killed while writing keeps the last one.
                // A state that cannot be saved is said, and the run goes on: its result is
                // worth more than the checkpoint.
                let tmp = format!("{path}.tmp");
                if let Err(e) = std::fs::write(&tmp, state.to_bytes())
                    .and_then(|()| std::fs::rename(&tmp, path))
                {
                    eprintln!("train: the state after {what} was not saved to {path}: {e}");
                }
            }
        });
        out.map_err(|e| format!("{}: {e}", checkpoint.as_deref().unwrap_or("")))
    };
    // Each round after the first plays its games with the weights of the round before.
    let mut result = round(1, player.as_ref())?;
    for n in 2..=rounds {
        result = round(n, Some(&result.weights))?;
    }
    println!("trained in {:.0} s", start.elapsed().as_secs_f64());
    if let Some(path) = out {
        std::fs::write(&path, result.weights.to_bytes()).map_err(|e| format!("{path}: {e}"))?;
        println!("weights written to {path}");
    }
    if let Some(path) = csv {
        let mut s = String::from("empties,label,predicted,exact\n");
        for v in &result.validation {
            s += &format!("{},{},{},{}\n", v.empties, v.label, v.predicted, v.exact);
        }
        std::fs::write(&path, s).map_err(|e| format!("{path}: {e}"))?;
    }
    if let Some(path) = plot {
        let exact: Vec<&Validation> = result
            .validation
            .iter()
            .filter(|v| v.exact && v.empties > 0)
            .collect();
        std::fs::write(&path, scatter_png(&exact)).map_err(|e| format!("{path}: {e}"))?;
        println!(
            "plot of {} held-back exact positions written to {path}",
            exact.len()
        );
    }
    Ok(())
}

/// `--fit-probcut`: fits the cut parameters for the weights in `from`, prints them, writes
/// the weights with them to `out`.
fn probcut_command(
    from: &str,
    cfg: &ProbCutConfig,
    out: Option<&str>,
    csv: Option<&str>,
    from_csv: Option<&str>,
) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("{from}: {e}"))?;
    let w = Weights::from_bytes(&bytes).map_err(|e| format!("{from}: {e}"))?;
    if cfg.max_depth < probcut::MIN_DEPTH || cfg.max_depth > probcut::MAX_DEPTH {
        return Err(format!(
            "--max-depth must be {} to {}",
            probcut::MIN_DEPTH,
            probcut::MAX_DEPTH
        ));
    }
    println!("config: {cfg:?}");
    let start = Instant::now();
    let (fitted, samples) = match from_csv {
        Some(path) => {
            let samples = read_samples(path)?;
            let fitted = probcut::ProbCut::fit(&samples).ok_or("too few samples to fit")?;
            (fitted, samples)
        }
        None => fit_probcut(&w, cfg).ok_or("too few positions to fit")?,
    };
    if let Some(path) = csv {
        let mut text = String::from("empties,depth,shallow,deep\n");
        for x in &samples {
            text += &format!("{},{},{},{}\n", x.empties, x.depth, x.shallow, x.deep);
        }
        std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
    }
    println!(
        "{} samples measured in {:.0} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    println!("stage (empties) depth shallow: a b sigma [samples]");
    for s in 0..probcut::STAGES {
        for d in probcut::MIN_DEPTH..=cfg.max_depth + 2 {
            let n = samples
                .iter()
                .filter(|x| probcut::stage(x.empties) == s && x.depth == d)
                .count();
            let c = fitted.cut(10 * s as u32 + 5, d);
            println!(
                "{s} ({:2}-{:2}) {d:2} {:2}: {:.3} {:+.2} {:.2} [{n}]",
                10 * s + 1,
                10 * s + 10,
                fitted.shallow(d),
                c.a,
                c.b,
                c.sigma
            );
        }
    }
    write_with_cuts(w, fitted, out, "cut parameters")
}

/// `--calibrate`: calibrates the stages' constants of the weights in `from`, prints how much
/// each moved, writes the weights (without cut parameters) to `out`.
fn calibrate_command(from: &str, cfg: &CalibrateConfig, out: Option<&str>) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("{from}: {e}"))?;
    let w = Weights::from_bytes(&bytes).map_err(|e| format!("{from}: {e}"))?;
    if !(6..=12).contains(&cfg.depth) {
        return Err("--depth must be 6 to 12".into());
    }
    println!("config: {cfg:?}");
    let start = Instant::now();
    let (fixed, rows) = calibrate(&w, cfg);
    println!("| empties | positions | against | shift (discs) | MAE after |");
    println!("|---|---:|---|---:|---:|");
    for r in &rows {
        let against = if r.exact {
            "exact score".to_string()
        } else {
            format!("{}- and {}-ply searches", cfg.depth, cfg.depth - 1)
        };
        println!(
            "| {}-{} | {} | {against} | {:+.2} | {:.2} |",
            4 * r.stage,
            4 * r.stage + 3,
            r.positions,
            r.shift,
            r.mae
        );
    }
    println!("calibrated in {:.0} s", start.elapsed().as_secs_f64());
    let path = out.ok_or("--calibrate needs --out PATH")?;
    std::fs::write(path, fixed.to_bytes()).map_err(|e| format!("{path}: {e}"))?;
    println!("weights written to {path} (without cut parameters: fit them again)");
    Ok(())
}

/// `--fit-endcut`: fits the endgame's cuts for the weights in `from`, prints them, writes the
/// weights with them to `out`.
fn endcut_command(from: &str, cfg: &EndCutConfig, out: Option<&str>) -> Result<(), String> {
    let bytes = std::fs::read(from).map_err(|e| format!("{from}: {e}"))?;
    let w = Weights::from_bytes(&bytes).map_err(|e| format!("{from}: {e}"))?;
    if w.probcut().is_none() {
        return Err(format!(
            "{from} has no Multi-ProbCut parameters: run --fit-probcut first"
        ));
    }
    println!("config: {cfg:?}");
    let start = Instant::now();
    let (fitted, samples) = fit_end_probcut(&w, cfg).ok_or("too few positions to fit")?;
    println!(
        "{} positions solved in {:.0} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    println!("empties shallow: a b sigma [samples]");
    for e in cfg.min_empties.min(probcut::END_MIN_EMPTIES)..=30 {
        let n = samples.iter().filter(|x| x.empties == e).count();
        if let Some(c) = fitted.end(e) {
            println!(
                "{e:2} {}: {:.3} {:+.2} {:.2} [{n}]",
                probcut::end_shallow_depth(e),
                c.a,
                c.b,
                c.sigma
            );
        }
    }
    write_with_cuts(w, fitted, out, "endgame cuts")
}

/// Writes `w` with the cut parameters `fitted` to `out`, if given, and says so.
fn write_with_cuts(
    w: Weights,
    fitted: probcut::ProbCut,
    out: Option<&str>,
    what: &str,
) -> Result<(), String> {
    if let Some(path) = out {
        let w = w.with_probcut(Some(fitted));
        std::fs::write(path, w.to_bytes()).map_err(|e| format!("{path}: {e}"))?;
        println!("weights with the {what} written to {path}");
    }
    Ok(())
}

/// The measured pairs written by `--fit-probcut ... --csv PATH`.
fn read_samples(path: &str) -> Result<Vec<probcut::Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let bad = || {
            format!(
                "{path}: line {}: expected empties,depth,shallow,deep",
                i + 1
            )
        };
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 4 {
            return Err(bad());
        }
        out.push(probcut::Sample {
            empties: f[0].parse().map_err(|_| bad())?,
            depth: f[1].parse().map_err(|_| bad())?,
            shallow: f[2].parse().map_err(|_| bad())?,
            deep: f[3].parse().map_err(|_| bad())?,
        });
    }
    Ok(out)
}

/// A 400x400 scatter plot: exact score (x) against predicted score (y), both -64..64 discs, with
/// the axes and the diagonal y = x.
fn scatter_png(points: &[&Validation]) -> Vec<u8> {
    const N: usize = 400;
    let mut img = vec![[255u8; 3]; N * N];
    let to_px =
        |v: f32| (((v.clamp(-64.0, 64.0) + 64.0) / 128.0) * (N as f32 - 1.0)).round() as usize;
    for i in 0..N {
        img[(N / 2) * N + i] = [200, 200, 200];
        img[i * N + N / 2] = [200, 200, 200];
        img[(N - 1 - i) * N + i] = [120, 120, 120];
    }
    for v in points {
        let x = to_px(v.label);
        let y = N - 1 - to_px(v.predicted);
        // A 3x3 dot, darker where points pile up.
        for yy in y.saturating_sub(1)..=(y + 1).min(N - 1) {
            for xx in x.saturating_sub(1)..=(x + 1).min(N - 1) {
                let px = &mut img[yy * N + xx];
                *px = [
                    px[0].saturating_sub(25),
                    px[1].saturating_sub(25),
                    px[2].saturating_sub(5),
                ];
            }
        }
    }
    let mut raw = Vec::with_capacity(N * (3 * N + 1));
    for r in 0..N {
        raw.push(0);
        for c in 0..N {
            raw.extend_from_slice(&img[r * N + c]);
        }
    }
    png(N as u32, N as u32, &raw)
}

fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &b in data {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A PNG (8-bit RGB) whose image data is a zlib stream of stored (uncompressed) blocks.
fn png(w: u32, h: u32, raw: &[u8]) -> Vec<u8> {
    let mut z = vec![0x78, 0x01];
    let mut chunks = raw.chunks(65535).peekable();
    while let Some(c) = chunks.next() {
        z.push(u8::from(chunks.peek().is_none()));
        let len = c.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(c);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &x in raw {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &z);
    chunk(b"IEND", &[]);
    out
}
