//! `--archival-url` end to end: the binary against two mock nodes over loopback, a
//! regular one (`near-rpc mock --keep-blocks N`, a subprocess) and an archival one (every
//! block, served from this process so that what it received can be checked).

mod support;

use near_rpc_mock::chain::INITIAL_HEAD;
use near_rpc_mock::MockNode;
use serde_json::{json, Value};
use support::{near_rpc, refused_url, Serving};

const KEEP: u64 = 5;

/// `(method, params)` of every request `node` received.
fn seen(node: &MockNode) -> Vec<(String, Value)> {
    node.requests()
        .iter()
        .map(|r| (r.method.clone(), r.params()))
        .collect()
}

#[test]
fn old_reads_and_only_they_go_to_the_archival_url() {
    let keep = KEEP.to_string();
    let regular = Serving::start(&[
        "mock",
        "--port",
        "0",
        "--keep-blocks",
        &keep,
        "--block-time",
        "0",
    ]);
    let archival = MockNode::new();
    let archival_server = archival.serve_in_background(0).unwrap();
    let both = |rest: &[&str]| {
        let mut args = vec![
            "--url",
            &regular.url,
            "--archival-url",
            archival_server.url(),
        ];
        args.extend_from_slice(rest);
        near_rpc(&args)
    };
    let old = INITIAL_HEAD - KEEP - 10;

    // Without --archival-url, the regular node's answer: the block is collected.
    let out = near_rpc(&[
        "--url",
        &regular.url,
        "account",
        "alice.mock",
        "--block",
        &old.to_string(),
    ]);
    assert_eq!(out.code, 3, "{out:?}");
    assert!(
        out.stderr.contains("GARBAGE_COLLECTED_BLOCK")
            || out.stdout.contains("GARBAGE_COLLECTED_BLOCK"),
        "{out:?}"
    );
    assert!(seen(&archival).is_empty());

    // With it, the archival node answers the old read.
    let out = both(&["account", "alice.mock", "--block", &old.to_string()]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["block_height"], old, "{out:?}");
    let out = both(&["block", "--height", &(old - 1).to_string()]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.json()["header"]["height"], old - 1, "{out:?}");

    // A recent read, a block above the head, and a call at the head stay regular.
    let out = both(&[
        "account",
        "alice.mock",
        "--block",
        &(INITIAL_HEAD - 1).to_string(),
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    let out = both(&["block", "--height", &(INITIAL_HEAD + 1_000).to_string()]);
    assert_eq!(out.code, 3, "{out:?}");
    let out = both(&["call", "status"]);
    assert_eq!(out.code, 0, "{out:?}");

    assert_eq!(
        seen(&archival),
        [
            (
                "query".to_owned(),
                json!({"request_type": "view_account", "account_id": "alice.mock", "block_id": old})
            ),
            ("block".to_owned(), json!({"block_id": old - 1})),
        ]
    );

    // An archival node that cannot be reached: the old read fails as a transport error.
    let down = refused_url();
    let out = near_rpc(&[
        "--url",
        &regular.url,
        "--archival-url",
        &down,
        "--retries",
        "0",
        "account",
        "alice.mock",
        "--block",
        &old.to_string(),
    ]);
    assert_eq!(out.code, 5, "{out:?}");

    // A bad archival URL is a usage error naming the option.
    let out = near_rpc(&[
        "--url",
        &regular.url,
        "--archival-url",
        "ftp://x",
        "call",
        "status",
    ]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("--archival-url"), "{out:?}");
}
