//! Builds the bindings from the checked-in `generated/` directory, or, with the `codegen`
//! feature and a spec at hand, regenerates them from the spec into `OUT_DIR`.
//!
//! The spec is taken from `NEAR_RPC_SPEC` or `spec/openapi.json`. Both paths produce the
//! same code for the same spec (a test checks it), so the feature is for users who want
//! their build to follow a spec file, e.g. a newer one, without running the generator.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(near_rpc_generated_in_out_dir)");
    println!("cargo::rustc-check-cfg=cfg(near_rpc_skip_shared)");
    println!("cargo::rerun-if-env-changed=NEAR_RPC_SPEC");
    // The tests that need the upstream data (`../shared`) are ignored, and so counted
    // as such, instead of failing, when it was said explicitly that it is not there.
    println!("cargo::rerun-if-env-changed=NEAR_RPC_SKIP_SHARED");
    if std::env::var("NEAR_RPC_SKIP_SHARED").as_deref() == Ok("1") {
        println!("cargo::rustc-cfg=near_rpc_skip_shared");
    }
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "codegen")]
    regenerate();
}

#[cfg(feature = "codegen")]
fn regenerate() {
    use std::path::PathBuf;

    let spec = std::env::var_os("NEAR_RPC_SPEC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("spec/openapi.json"));
    println!("cargo::rerun-if-changed={}", spec.display());
    if !spec.exists() {
        println!(
            "cargo::warning=feature `codegen`: no spec at {} (set NEAR_RPC_SPEC); using the checked-in bindings",
            spec.display()
        );
        return;
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let files = match near_rpc_codegen::generate(&spec) {
        Ok(files) => files,
        Err(e) => panic!("near-rpc-codegen failed on {}: {e}", spec.display()),
    };
    if let Err(e) = near_rpc_codegen::write::write(&out, &files) {
        panic!("cannot write the generated bindings: {e}");
    }
    println!("cargo::rustc-cfg=near_rpc_generated_in_out_dir");
}
