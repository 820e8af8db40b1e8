//! Picks the spec version whose bindings the crate compiles, and where they are: the
//! checked-in `generated/vX_Y_Z/` of the version feature that is on (`v1_2_11`, ...;
//! none: `spec/SOURCE.toml`'s default), or, with the `codegen` feature and a spec at hand,
//! bindings regenerated from the spec into `OUT_DIR`. `src/lib.rs` includes the files
//! from `NEAR_RPC_GENERATED`. Two version features at once are a compile error naming
//! both (`src/lib.rs`), as in k8s-openapi: only the final binary should choose.
//!
//! The spec is taken from `NEAR_RPC_SPEC` (nearcore's OpenAPI or OpenRPC document) or
//! `spec/openapi.json`, merged with the OpenRPC document in `NEAR_RPC_OPENRPC` or
//! `spec/openrpc.json` when there is one. Both paths produce the same code for the same
//! documents (a test checks it), so the feature is for users who want their build to
//! follow a spec file, e.g. a newer one, without running the generator.

// The one parser of `spec/SOURCE.toml`, shared with the generator (no crate between);
// the build reads only part of what it parses.
#[allow(dead_code)]
#[path = "spec/source.rs"]
mod source;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(near_rpc_generated_in_out_dir)");
    println!("cargo::rustc-check-cfg=cfg(near_rpc_conflicting_versions)");
    println!("cargo::rustc-check-cfg=cfg(near_rpc_default_spec)");
    println!("cargo::rustc-check-cfg=cfg(near_rpc_skip_shared)");
    // std's, named only to hide it from the docs.rs badges (src/lib.rs).
    println!("cargo::rustc-check-cfg=cfg(no_global_oom_handling)");
    println!("cargo::rerun-if-env-changed=NEAR_RPC_SPEC");
    // The tests that need the upstream data (`../shared`) are ignored, and so counted
    // as such, instead of failing, when it was said explicitly that it is not there.
    println!("cargo::rerun-if-env-changed=NEAR_RPC_SKIP_SHARED");
    if std::env::var("NEAR_RPC_SKIP_SHARED").as_deref() == Ok("1") {
        println!("cargo::rustc-cfg=near_rpc_skip_shared");
    }
    println!("cargo::rerun-if-changed=build.rs");
    #[allow(unused_mut)]
    let mut generated = select_version();
    #[cfg(feature = "codegen")]
    if let Some(out) = regenerate() {
        generated = out;
    }
    println!(
        "cargo::rustc-env=NEAR_RPC_GENERATED={}",
        generated.display()
    );
}

/// The chosen version's checked-in bindings (`generated/vX_Y_Z`), with its cfgs and
/// version macros.
fn select_version() -> std::path::PathBuf {
    println!("cargo::rerun-if-changed=spec/SOURCE.toml");
    println!("cargo::rerun-if-changed=spec/source.rs");
    let text = std::fs::read_to_string("spec/SOURCE.toml").expect("spec/SOURCE.toml");
    let source = source::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let default = source.default.to_owned();
    let versions: Vec<String> = source
        .shipped
        .iter()
        .filter_map(|entry| source::Pin::of(entry).map(|pin| pin.version.to_owned()))
        .collect();
    let modules: Vec<String> = versions.iter().map(|v| module_name(v)).collect();
    let chosen: Vec<&String> = modules
        .iter()
        .filter(|m| std::env::var_os(format!("CARGO_FEATURE_{}", m.to_uppercase())).is_some())
        .collect();
    let module = match chosen.as_slice() {
        [] => module_name(&default),
        [one] => (*one).clone(),
        several => {
            let names: Vec<&str> = several.iter().map(|m| m.as_str()).collect();
            println!("cargo::rustc-cfg=near_rpc_conflicting_versions");
            println!(
                "cargo::rustc-env=NEAR_RPC_CONFLICTING_VERSIONS={}",
                names.join(", ")
            );
            (*several[0]).clone()
        }
    };
    // Tests tied to the default version's schemas (the conformance dispatch list) build
    // only there.
    if module == module_name(&default) {
        println!("cargo::rustc-cfg=near_rpc_default_spec");
    }
    let dir = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("generated")
        .join(&module);
    write_version_macros(&versions, &module);
    // `#[cfg(near_rpc_spec_ge = "nearcore_0_38_0")]`: the crate's own code that only
    // the newer bindings have (the macros above are for crates that depend on it).
    let quoted: Vec<String> = modules.iter().map(|m| format!("\"{m}\"")).collect();
    println!(
        "cargo::rustc-check-cfg=cfg(near_rpc_spec_ge, values({}))",
        quoted.join(", ")
    );
    let chosen_at = modules.iter().position(|m| *m == module).unwrap_or(0);
    for older in &modules[..=chosen_at] {
        println!("cargo::rustc-cfg=near_rpc_spec_ge=\"{older}\"");
    }
    dir
}

/// `if_spec_ge_1_2_8! { .. }` and `if_spec_lt_1_2_8! { .. }` for every shipped version
/// (`if_spec_ge_nearcore_0_38_0!` for a derived one): they keep their tokens or drop
/// them by the version this build chose, so code that depends on near-rpc can follow
/// the generated API across versions (k8s-openapi's `k8s_if_ge_1_xx!`).
fn write_version_macros(versions: &[String], chosen: &str) {
    let modules: Vec<String> = versions.iter().map(|v| module_name(v)).collect();
    let chosen_at = modules.iter().position(|x| x == chosen).unwrap_or(0);
    let mut out = String::new();
    for (at, (module, version)) in modules.iter().zip(versions).enumerate() {
        let suffix = module.strip_prefix('v').unwrap_or(module);
        for (kind, keep) in [("ge", chosen_at >= at), ("lt", chosen_at < at)] {
            let body = if keep { "$($tt)*" } else { "" };
            let relation = if kind == "ge" {
                "at least"
            } else {
                "older than"
            };
            out.push_str(&format!(
                "/// Keeps its tokens when the bindings' spec version is {relation} {version}.\n\
                 #[macro_export]\n\
                 macro_rules! if_spec_{kind}_{suffix} {{ ($($tt:tt)*) => {{ {body} }}; }}\n"
            ));
        }
    }
    let path = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("version_macros.rs");
    std::fs::write(&path, out).expect("write the version macros");
}

use source::module_name;

/// With the `codegen` feature and a spec at hand, the bindings regenerated from it into
/// `OUT_DIR`.
#[cfg(feature = "codegen")]
fn regenerate() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;

    println!("cargo::rerun-if-env-changed=NEAR_RPC_OPENRPC");
    let path = |var: &str, default: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(default))
    };
    let spec = path("NEAR_RPC_SPEC", "spec/openapi.json");
    let openrpc = path("NEAR_RPC_OPENRPC", "spec/openrpc.json");
    println!("cargo::rerun-if-changed={}", spec.display());
    println!("cargo::rerun-if-changed={}", openrpc.display());
    if !spec.exists() {
        println!(
            "cargo::warning=feature `codegen`: no spec at {} (set NEAR_RPC_SPEC); using the checked-in bindings",
            spec.display()
        );
        return None;
    }
    let mut specs = vec![spec.as_path()];
    if std::env::var_os("NEAR_RPC_OPENRPC").is_some() && !openrpc.exists() {
        panic!(
            "NEAR_RPC_OPENRPC names {}, which does not exist",
            openrpc.display()
        );
    }
    if openrpc.exists() && openrpc != spec {
        specs.push(openrpc.as_path());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let files = match near_rpc_codegen::generate_files(&specs, None) {
        Ok(files) => files,
        Err(e) => panic!("near-rpc-codegen failed on {specs:?}: {e}"),
    };
    if let Err(e) = near_rpc_codegen::write::write(&out, &files) {
        panic!("cannot write the generated bindings: {e}");
    }
    println!("cargo::rustc-cfg=near_rpc_generated_in_out_dir");
    Some(out)
}
