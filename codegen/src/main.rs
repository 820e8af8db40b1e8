//! `near-rpc-codegen`: generate the bindings from a spec, check that they are current, or
//! compare the generated API of two spec versions.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: near-rpc-codegen generate --spec FILE [--out DIR] [--check]
       near-rpc-codegen diff OLD.json NEW.json [--format text|json|markdown]

generate:
  --spec FILE   nearcore's OpenAPI document (openapi.json)
  --out DIR     where the generated files go (default: generated)
  --check       write nothing; exit 1 with a summary when DIR differs
diff:
  what changed in the generated Rust API from OLD to NEW, each change classified as
  breaking, additive or docs (default format: text; markdown suits a CHANGELOG)";

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
        Some("generate") => generate(args),
        Some("diff") => diff(args),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(format!("expected a command\n{USAGE}")),
    }
}

fn diff(args: impl Iterator<Item = String>) -> Result<ExitCode, String> {
    let (mut specs, mut format) = (Vec::new(), "text".to_owned());
    let mut args = args;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => format = args.next().ok_or("--format needs text, json or markdown")?,
            other if other.starts_with("--") => {
                return Err(format!("unknown argument {other:?}\n{USAGE}"))
            }
            _ => specs.push(PathBuf::from(arg)),
        }
    }
    let [old, new] = specs.as_slice() else {
        return Err(format!("diff needs OLD.json and NEW.json\n{USAGE}"));
    };
    let api = |path: &PathBuf| {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        near_rpc_codegen::api_from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    let diff = near_rpc_codegen::diff::diff(&api(old)?, &api(new)?);
    let text = match format.as_str() {
        "text" => diff.to_text(),
        "json" => diff.to_json(),
        "markdown" => diff.to_markdown(),
        other => return Err(format!("unknown format {other:?}: text, json or markdown")),
    };
    print!("{text}");
    if !text.ends_with('\n') {
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

fn generate(args: impl Iterator<Item = String>) -> Result<ExitCode, String> {
    let mut args = args;
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
