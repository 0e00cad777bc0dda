//! `chaturanga tune`: the tuner's two steps on the command line.

use crate::cli::TuneCommand;
use crate::error::CliError;
use chaturanga_tuner::{FitSettings, GenerateSettings};
use std::io::{BufReader, BufWriter, Write};

/// Runs a tuning step, reporting to `out`.
pub fn run(command: TuneCommand, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        TuneCommand::Generate {
            variant,
            games,
            nodes,
            random_plies,
            max_plies,
            seed,
            options,
            out: path,
        } => {
            let settings = GenerateSettings {
                variant,
                rule_options: options,
                games,
                nodes,
                random_plies,
                max_plies,
                seed,
            };
            let file = std::fs::File::create(&path).map_err(|e| write_error(&path, e))?;
            let mut writer = BufWriter::new(file);
            let report = chaturanga_tuner::generate(&settings, &mut writer, &mut |game, r| {
                eprint!(
                    "\r{game}/{games} games, {} positions, W-D-L {}-{}-{} for the first player",
                    r.positions, r.wins, r.draws, r.losses
                );
            })?;
            eprintln!();
            writeln!(
                out,
                "{} games, {} positions written to {} (first player W-D-L {}-{}-{})",
                report.games,
                report.positions,
                path.display(),
                report.wins,
                report.draws,
                report.losses
            )?;
        }
        TuneCommand::Fit {
            variant,
            positions,
            iterations,
            keep_values,
            options,
            out: path,
        } => {
            let file = std::fs::File::open(&positions).map_err(|e| CliError::ReadFile {
                file: positions.display().to_string(),
                source: e,
            })?;
            let settings = FitSettings {
                variant: variant.clone(),
                rule_options: options,
                iterations,
                keep_values: keep_values.clone(),
            };
            let report = chaturanga_tuner::fit(&settings, &mut BufReader::new(file))?;
            let family = &report.before.family;
            let header = vec![
                format!(
                    "Evaluation weights of the {family} family (crates/variants/src/weights.rs)."
                ),
                format!(
                    "Fitted by `chaturanga tune fit {variant} {} --iterations {iterations}{}` to \
                     {} positions ({} held out, {} skipped as not quiet),",
                    positions.display(),
                    keep_values
                        .iter()
                        .map(|s| format!(" --keep-value {s}"))
                        .collect::<String>(),
                    report.samples,
                    report.held_out,
                    report.skipped
                ),
                format!(
                    "K = {:.3}; mean squared error {:.5} -> {:.5}, on the held-out positions \
                     {:.5} -> {:.5}.",
                    report.k,
                    report.error_before,
                    report.error_after,
                    report.held_out_before,
                    report.held_out_after
                ),
            ];
            let text = report.after.to_text(&header);
            match path {
                Some(path) => {
                    std::fs::write(&path, &text).map_err(|e| write_error(&path, e))?;
                    writeln!(out, "{}", header[1..].join("\n"))?;
                    writeln!(out, "weights written to {}", path.display())?;
                }
                None => write!(out, "{text}")?,
            }
        }
    }
    Ok(())
}

fn write_error(path: &std::path::Path, e: std::io::Error) -> CliError {
    CliError::WriteFile {
        file: path.display().to_string(),
        source: e,
    }
}
