//! The cross-check of nearcore's two 1.2.6 documents, pinned in `docs/crosscheck-1.2.6.md`:
//! the report of `near-rpc-codegen crosscheck`, then what the recorded real bodies say
//! about each method: how many recorded results and params each document's schema
//! accepts, and the first rejection.
//!
//! To accept a change in the report: `UPDATE_CROSSCHECK=1 cargo test --test it crosscheck`.

use crate::common;
use crate::conformance::Validator;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use near_rpc_codegen::load::Spec;
use serde_json::{Map, Value};

const VERSION: &str = "1.2.6";
const REPORT: &str = "docs/crosscheck-1.2.6.md";

/// One document, normalized as the generator sees it, with a validator over its schemas
/// plus each method's params and result schema (`params.M`, `result.M`).
struct Document {
    spec: Spec,
    validator: Validator,
}

impl Document {
    fn new(mut spec: Spec, label: &str) -> Self {
        near_rpc_codegen::normalize::normalize(&mut spec).expect("normalizes");
        let mut schemas: Map<String, Value> = spec.schemas.clone();
        for (name, method) in &spec.methods {
            schemas.insert(format!("params.{name}"), method.params.clone());
            schemas.insert(format!("result.{name}"), method.result.clone());
        }
        let validator = Validator::new(&schemas, label);
        Document { spec, validator }
    }

    /// `None` when the document has no such method.
    fn check(&self, what: &str, method: &str, value: &Value) -> Option<Result<(), String>> {
        if !self.spec.methods.contains_key(method) {
            return None;
        }
        Some(self.validator.validate(&format!("{what}.{method}"), value))
    }
}

/// Per method and part (params, result): bodies checked, accepted by each document, and
/// the first rejection of each.
#[derive(Default)]
struct Tally {
    bodies: usize,
    accepted: [usize; 2],
    first_rejection: [Option<String>; 2],
}

fn verdicts(shared: &Path, documents: &[Document; 2]) -> BTreeMap<(String, &'static str), Tally> {
    let mut tallies: BTreeMap<(String, &'static str), Tally> = BTreeMap::new();
    for fixture in common::fixtures(shared) {
        let body: Value = match std::fs::read(&fixture.path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
        {
            Some(body) => body,
            None => continue,
        };
        let (part, value) = match fixture.kind.as_str() {
            "request" => ("params", body.get("params").cloned()),
            "response" => ("result", body.get("result").cloned()),
            "result" => ("result", Some(body)),
            _ => continue,
        };
        // Error responses: only the OpenAPI document describes errors.
        let Some(value) = value else { continue };
        let method = fixture.method.clone();
        let checks: Vec<Option<Result<(), String>>> = documents
            .iter()
            .map(|d| d.check(part, &method, &value))
            .collect();
        if checks.iter().any(Option::is_none) {
            continue;
        }
        let tally = tallies.entry((method, part)).or_default();
        tally.bodies += 1;
        for (i, check) in checks.into_iter().flatten().enumerate() {
            match check {
                Ok(()) => tally.accepted[i] += 1,
                Err(e) => {
                    let first = e.split(" | ").nth(1).unwrap_or(&e).trim().to_owned();
                    tally.first_rejection[i].get_or_insert(format!("{}: {first}", fixture.name));
                }
            }
        }
    }
    tallies
}

fn report(shared: &Path) -> String {
    let read = |name: String| std::fs::read(shared.join("spec").join(name)).expect("spec");
    let (openapi, openrpc) = (
        read(format!("openapi-{VERSION}.json")),
        read(format!("openrpc-{VERSION}.json")),
    );
    let (a, b) = near_rpc_codegen::apis_to_crosscheck(&openapi, &openrpc).expect("both load");
    let crosscheck = near_rpc_codegen::crosscheck::crosscheck(&a, &b);

    let documents = [
        Document::new(
            near_rpc_codegen::load::parse(&openapi).unwrap(),
            "openapi-1.2.6",
        ),
        Document::new(
            near_rpc_codegen::load::parse_all_as(&[&openrpc], Some(VERSION)).unwrap(),
            "openrpc-1.2.6",
        ),
    ];
    let tallies = verdicts(shared, &documents);

    let mut md = format!(
        "# nearcore's OpenAPI and OpenRPC documents of {VERSION}, cross-checked\n\n\
         Written by `tests/it/codegen_crosscheck.rs`, which pins it; to update it run\n\
         `UPDATE_CROSSCHECK=1 cargo test --test it crosscheck`. The first part is the\n\
         output of `cargo run -p near-rpc-codegen -- crosscheck \
         ../shared/spec/openapi-{VERSION}.json ../shared/spec/openrpc-{VERSION}.json \
         --format markdown`; the second checks every recorded real body in \
         `../shared/fixtures` against both documents.\n\n\
         The shipped {VERSION} bindings merge the two: methods from either (the OpenRPC \
         document adds two), schemas and error types from OpenAPI.\n\n\
         ## Differences, in terms of the generated API\n\n"
    );
    md.push_str(&crosscheck.to_markdown());
    let _ = write!(
        md,
        "\n## What recorded real bodies say\n\n\
         Each recorded request's `params` and each recorded response's `result` (error \
         responses are left out: only OpenAPI describes errors) is validated against the \
         method's schema in each document, both normalized the way the generator reads \
         them (our patches applied, unknown fields allowed). A method only one document \
         has is left out.\n\n\
         | method | part | bodies | OpenAPI accepts | OpenRPC accepts | first rejection |\n\
         |---|---|---|---|---|---|\n"
    );
    let mut disagreements = Vec::new();
    for ((method, part), t) in &tallies {
        let rejections: Vec<String> = ["OpenAPI", "OpenRPC"]
            .iter()
            .zip(&t.first_rejection)
            .filter_map(|(doc, r)| {
                r.as_ref()
                    .map(|r| format!("{doc}: {}", r.replace('|', "\\|")))
            })
            .collect();
        let _ = writeln!(
            md,
            "| `{method}` | {part} | {} | {} | {} | {} |",
            t.bodies,
            t.accepted[0],
            t.accepted[1],
            rejections.join("; ")
        );
        if t.accepted[0] != t.accepted[1] {
            let better = if t.accepted[0] > t.accepted[1] {
                "OpenAPI"
            } else {
                "OpenRPC"
            };
            // A recorded result is what a node answered; a recorded request is what a
            // client sent, which says how nodes are called, not that the call succeeded.
            let verdict = if *part == "result" {
                format!("**{better}** matches what real nodes answer")
            } else {
                format!("**{better}** fits what real clients send")
            };
            disagreements.push(format!(
                "- `{method}` {part}: {verdict} ({} of {} recorded bodies accepted by \
                 OpenAPI, {} by OpenRPC).",
                t.accepted[0], t.bodies, t.accepted[1]
            ));
        }
    }
    let _ = write!(
        md,
        "\n### Where the documents disagree on recorded bodies\n\n"
    );
    if disagreements.is_empty() {
        md.push_str("- None: both documents accept the same recorded bodies.\n");
    }
    for d in disagreements {
        let _ = writeln!(md, "{d}");
    }
    md
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn crosscheck_report_is_pinned() {
    let shared = common::shared_dir();
    let made = report(&shared);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(REPORT);
    if std::env::var_os("UPDATE_CROSSCHECK").is_some() {
        std::fs::write(&path, &made).expect("writes the report");
    }
    let pinned = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        pinned == made,
        "{REPORT} is stale; run `UPDATE_CROSSCHECK=1 cargo test --test it crosscheck`"
    );
    // The report says what it must: the constraint OpenRPC loses, the two methods it
    // adds, and a verdict from the recorded bodies.
    for needle in [
        "exactly one of {block_id} or {finality} or {sync_checkpoint}",
        "method `light_client_block_proof`: only in OpenRPC",
        "method `EXPERIMENTAL_client_config`: only in OpenRPC",
        "| `EXPERIMENTAL_tx_status` | result |",
    ] {
        assert!(made.contains(needle), "the report lacks {needle:?}");
    }
}

#[test]
#[cfg_attr(near_rpc_skip_shared, ignore = "needs the upstream data in ../shared")]
fn merged_bindings_only_add_to_the_openapi_ones() {
    // The semver diff from the OpenAPI-only bindings to the shipped (merged) ones shows
    // additions and doc changes only.
    let shared = common::shared_dir();
    let openapi = std::fs::read(common::spec_path(&shared, VERSION)).expect("spec");
    let before = near_rpc_codegen::api_from_bytes(&openapi).expect("OpenAPI alone");
    let after = common::shipped_api(&shared, VERSION);
    let diff = near_rpc_codegen::diff::diff(&before, &after);
    let (breaking, additive, _) = diff.counts();
    assert_eq!(breaking, 0, "{}", diff.to_text());
    assert!(
        additive >= 4,
        "two methods and their params: {}",
        diff.to_text()
    );
    for method in ["light_client_block_proof", "EXPERIMENTAL_client_config"] {
        assert!(after.methods.contains_key(method), "{method} is merged in");
        // Callable when this build compiled the 1.2.6 bindings.
        if near_rpc::SPEC_VERSION == VERSION {
            assert!(
                near_rpc::methods::ALL.contains(&method),
                "{method} is callable"
            );
        }
    }
}
