//! `near-rpc-codegen`: generate the bindings from a spec, or check that they are current.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: near-rpc-codegen generate --spec FILE [--out DIR] [--check]

  --spec FILE   nearcore's OpenAPI document (openapi.json)
  --out DIR     where the generated files go (default: generated)
  --check       write nothing; exit 1 with a summary when DIR differs";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("near-rpc-codegen: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<ExitCode, String> {
    let mut args = args.into_iter();
    match args.next().as_deref() {
        Some("generate") => {}
        Some("-h" | "--help") => {
            println!("{USAGE}");
            return Ok(ExitCode::SUCCESS);
        }
        _ => return Err(format!("expected a command\n{USAGE}")),
    }
    let (mut spec, mut out, mut check) = (None, PathBuf::from("generated"), false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--spec" => spec = Some(PathBuf::from(args.next().ok_or("--spec needs a file")?)),
            "--out" => out = PathBuf::from(args.next().ok_or("--out needs a directory")?),
            "--check" => check = true,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let spec = spec.ok_or_else(|| format!("--spec is required\n{USAGE}"))?;
    let files = near_rpc_codegen::generate(&spec).map_err(|e| e.to_string())?;
    if check {
        let drift = near_rpc_codegen::write::drift(&out, &files).map_err(|e| e.to_string())?;
        if drift.is_empty() {
            println!("{} is up to date with {}", out.display(), spec.display());
            return Ok(ExitCode::SUCCESS);
        }
        eprint!("{} is stale:\n{drift}", out.display());
        eprintln!(
            "regenerate with: near-rpc-codegen generate --spec {} --out {}",
            spec.display(),
            out.display()
        );
        return Ok(ExitCode::from(1));
    }
    let written = near_rpc_codegen::write::write(&out, &files).map_err(|e| e.to_string())?;
    println!(
        "{} files generated in {}, {} changed{}",
        files.len(),
        out.display(),
        written.len(),
        if written.is_empty() {
            String::new()
        } else {
            format!(": {}", written.join(", "))
        }
    );
    Ok(ExitCode::SUCCESS)
}
