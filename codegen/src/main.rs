//! `near-rpc-codegen`: generate the bindings from a spec, check that they are current, or
//! compare the generated API of two spec versions.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
usage: near-rpc-codegen generate (--spec FILE [--spec FILE] | --shipped SPEC_DIR) [--out DIR]
                                 [--version VERSION] [--check]
       near-rpc-codegen diff (OLD.json NEW.json | --shipped SPEC_DIR OLD_VERSION NEW_VERSION)
                             [--format text|json|markdown|changelog]
       near-rpc-codegen bump NEW.json [--previous OLD.json] [--commit SHA] [--root DIR]
       near-rpc-codegen crosscheck OPENAPI.json OPENRPC.json [--format text|markdown]
       near-rpc-codegen shipped

generate:
  --spec FILE         nearcore's OpenAPI (openapi.json) or OpenRPC (openrpc.json) document;
                      give both documents of one version to generate from them merged
  --shipped SPEC_DIR  every version spec/SOURCE.toml ships, from SPEC_DIR/openapi-X.Y.Z.json
                      (merged with SPEC_DIR/openrpc-X.Y.Z.json where one is pinned)
  --version VERSION   the nearcore version of an OpenRPC document given alone that
                      spec/SOURCE.toml does not pin (its info.version does not say)
  --out DIR           where the generated files go (default: generated/vX_Y_Z for the
                      spec's version; with --shipped, the directory holding vX_Y_Z/)
  --check             write nothing; exit 1 with a summary when a directory differs
diff:
  what changed in the generated Rust API from OLD to NEW, each change classified as
  breaking, additive or docs (default format: text; changelog is the collapsed block
  CHANGELOG.md holds for each shipped version, markdown the same as a section); with
  --shipped, between the bindings of two versions as shipped: each version's documents
  from SPEC_DIR, its OpenAPI one merged with the OpenRPC one spec/SOURCE.toml pins
bump:
  ship a new spec version: its bindings in generated/vX_Y_Z, its pin in
  spec/SOURCE.toml, its cargo feature (and `latest`), the diff against the previous
  version as shipped (read from --previous, or openapi-PREV.json beside NEW.json, merged
  with openrpc-PREV.json when one is pinned) added to CHANGELOG.md as the newest block
  of the unreleased release; prints the crate version the diff implies (--root: the
  repository, .)
crosscheck:
  every difference between the OpenAPI and the OpenRPC document of one version, in
  terms of the generated API, classed like diff with the OpenAPI bindings as the old
  API (docs/crosscheck-1.2.6.md is the report for 1.2.6)
shipped:
  every version spec/SOURCE.toml ships, one line each: the version and its cargo
  feature (scripts read the pins through this instead of parsing the file again)";

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
        Some("bump") => bump(args),
        Some("crosscheck") => crosscheck(args),
        Some("shipped") => match args.next() {
            None => {
                for line in shipped_lines()? {
                    println!("{line}");
                }
                Ok(ExitCode::SUCCESS)
            }
            Some(extra) => Err(format!("shipped takes no argument, not {extra:?}\n{USAGE}")),
        },
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(format!("expected a command\n{USAGE}")),
    }
}

fn diff(args: impl Iterator<Item = String>) -> Result<ExitCode, String> {
    let (mut specs, mut format, mut shipped) = (Vec::new(), "text".to_owned(), None);
    let mut args = args;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => {
                format = args
                    .next()
                    .ok_or("--format needs text, json, markdown or changelog")?
            }
            "--shipped" => {
                shipped = Some(PathBuf::from(
                    args.next().ok_or("--shipped needs a directory")?,
                ))
            }
            other if other.starts_with("--") => {
                return Err(format!("unknown argument {other:?}\n{USAGE}"))
            }
            _ => specs.push(arg),
        }
    }
    let [old, new] = specs.as_slice() else {
        return Err(format!("diff needs OLD and NEW\n{USAGE}"));
    };
    // A spec file, or with --shipped a version: the documents its bindings come from.
    let api = |spec: &String| {
        let paths = match &shipped {
            Some(dir) => near_rpc_codegen::load::shipped_documents(dir, spec),
            None => vec![PathBuf::from(spec)],
        };
        let paths: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        near_rpc_codegen::load::load(&paths, None)
            .and_then(near_rpc_codegen::api_from_spec)
            .map_err(|e| format!("{spec}: {e}"))
    };
    let diff = near_rpc_codegen::diff::diff(&api(old)?, &api(new)?);
    let text = match format.as_str() {
        "text" => diff.to_text(),
        "json" => diff.to_json(),
        "markdown" => diff.to_markdown(),
        "changelog" => diff.to_changelog(),
        other => {
            return Err(format!(
                "unknown format {other:?}: text, json, markdown or changelog"
            ))
        }
    };
    print!("{text}");
    if !text.ends_with('\n') {
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

fn crosscheck(args: impl Iterator<Item = String>) -> Result<ExitCode, String> {
    let (mut specs, mut format) = (Vec::new(), "text".to_owned());
    let mut args = args;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => format = args.next().ok_or("--format needs text or markdown")?,
            other if other.starts_with("--") => {
                return Err(format!("unknown argument {other:?}\n{USAGE}"))
            }
            _ => specs.push(PathBuf::from(arg)),
        }
    }
    let [openapi, openrpc] = specs.as_slice() else {
        return Err(format!(
            "crosscheck needs OPENAPI.json and OPENRPC.json\n{USAGE}"
        ));
    };
    let read = |path: &PathBuf| {
        std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let (a, b) = near_rpc_codegen::apis_to_crosscheck(&read(openapi)?, &read(openrpc)?)
        .map_err(|e| e.to_string())?;
    let report = near_rpc_codegen::crosscheck::crosscheck(&a, &b);
    let text = match format.as_str() {
        "text" => report.to_text(),
        "markdown" => report.to_markdown(),
        other => return Err(format!("unknown format {other:?}: text or markdown")),
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn bump(args: impl Iterator<Item = String>) -> Result<ExitCode, String> {
    let mut args = args;
    let (mut spec, mut previous, mut commit, mut root) = (None, None, None, PathBuf::from("."));
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--previous" => {
                previous = Some(PathBuf::from(args.next().ok_or("--previous needs a file")?))
            }
            "--commit" => commit = Some(args.next().ok_or("--commit needs a commit")?),
            "--root" => root = PathBuf::from(args.next().ok_or("--root needs a directory")?),
            other if other.starts_with("--") => {
                return Err(format!("unknown argument {other:?}\n{USAGE}"))
            }
            _ if spec.is_none() => spec = Some(PathBuf::from(arg)),
            _ => return Err(format!("bump takes one spec\n{USAGE}")),
        }
    }
    let spec = spec.ok_or_else(|| format!("bump needs NEW.json\n{USAGE}"))?;
    let bumped = near_rpc_codegen::bump::bump(&root, &spec, previous.as_deref(), commit.as_deref())
        .map_err(|e| e.to_string())?;
    println!("{}", bumped.report());
    Ok(ExitCode::SUCCESS)
}

fn generate(args: impl Iterator<Item = String>) -> Result<ExitCode, String> {
    let mut args = args;
    let (mut specs, mut shipped, mut out, mut check, mut version) =
        (Vec::new(), None, None, false, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--spec" => specs.push(PathBuf::from(args.next().ok_or("--spec needs a file")?)),
            "--shipped" => {
                shipped = Some(PathBuf::from(
                    args.next().ok_or("--shipped needs a directory")?,
                ))
            }
            "--out" => out = Some(PathBuf::from(args.next().ok_or("--out needs a directory")?)),
            "--version" => version = Some(args.next().ok_or("--version needs a version")?),
            "--check" => check = true,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    let jobs: Vec<(Vec<PathBuf>, PathBuf)> = match (specs.is_empty(), shipped) {
        (false, None) => vec![(specs, out.unwrap_or_default())],
        (true, Some(dir)) => {
            if version.is_some() {
                return Err("--version goes with --spec, not --shipped".into());
            }
            let root = out.unwrap_or_else(|| PathBuf::from("generated"));
            near_rpc_codegen::load::shipped()
                .iter()
                .map(|pin| {
                    let specs = near_rpc_codegen::load::shipped_documents(&dir, pin.version);
                    (specs, root.join(pin.module()))
                })
                .collect()
        }
        _ => return Err(format!("give --spec FILE or --shipped SPEC_DIR\n{USAGE}")),
    };
    let mut stale = false;
    for (specs, out) in &jobs {
        stale |= !generate_one(specs, out, check, version.as_deref())?;
    }
    Ok(if stale {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Generates `specs` into `out` (default: `generated/vX_Y_Z`), or checks it; false when
/// the check found drift.
fn generate_one(
    specs: &[PathBuf],
    out: &Path,
    check: bool,
    version: Option<&str>,
) -> Result<bool, String> {
    let named = specs
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    let paths: Vec<&Path> = specs.iter().map(PathBuf::as_path).collect();
    let spec =
        near_rpc_codegen::load::load(&paths, version).map_err(|e| format!("{named}: {e}"))?;
    let api = near_rpc_codegen::api_from_spec(spec).map_err(|e| format!("{named}: {e}"))?;
    let files = near_rpc_codegen::emit::emit(&api, &near_rpc_codegen::Options::default())
        .map_err(|e| format!("{named}: {e}"))?;
    let default_out;
    let out = if out.as_os_str().is_empty() {
        default_out =
            Path::new("generated").join(near_rpc_codegen::load::module_name(&api.version));
        &default_out
    } else {
        out
    };
    for gap in api.gaps() {
        eprintln!("note: {named}: {gap}");
    }
    if check {
        let drift = near_rpc_codegen::write::drift(out, &files).map_err(|e| e.to_string())?;
        if drift.is_empty() {
            println!("{} is up to date with {named}", out.display());
            return Ok(true);
        }
        eprint!("{} is stale:\n{drift}", out.display());
        let spec_args: Vec<String> = specs
            .iter()
            .map(|s| format!("--spec {}", s.display()))
            .collect();
        eprintln!(
            "regenerate with: near-rpc-codegen generate {} --out {}",
            spec_args.join(" "),
            out.display()
        );
        return Ok(false);
    }
    let written = near_rpc_codegen::write::write(out, &files).map_err(|e| e.to_string())?;
    println!(
        "{} files generated in {} from {} ({}), {} changed{}",
        files.len(),
        out.display(),
        named,
        near_rpc_codegen::load::formats(&api.documents),
        written.len(),
        if written.is_empty() {
            String::new()
        } else {
            format!(": {}", written.join(", "))
        }
    );
    Ok(true)
}

/// `shipped`'s lines: each shipped version and its cargo feature.
fn shipped_lines() -> Result<Vec<String>, String> {
    let pins = near_rpc_codegen::load::shipped();
    if pins.is_empty() {
        return Err("spec/SOURCE.toml ships no version".into());
    }
    Ok(pins
        .iter()
        .map(|pin| format!("{} {}", pin.version, pin.module()))
        .collect())
}

#[cfg(test)]
mod tests {
    /// Every shipped version once, with the feature name build.rs and Cargo.toml use.
    #[test]
    fn shipped_lists_each_version_with_its_feature() {
        let lines = super::shipped_lines().expect("versions");
        let cargo = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml"))
            .expect("the workspace's Cargo.toml");
        for line in &lines {
            let (version, feature) = line.split_once(' ').expect("two words");
            assert!(
                cargo.contains(&format!("\n{feature} = ")),
                "{version}: no feature {feature} in Cargo.toml"
            );
        }
        assert!(lines.iter().any(|l| l == "1.2.6 v1_2_6"), "{lines:?}");
        assert!(
            lines.iter().any(|l| l == "nearcore-0.38.0 nearcore_0_38_0"),
            "{lines:?}"
        );
    }
}
