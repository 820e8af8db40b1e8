//! End-to-end tests of the `near-rpc` binary: each runs the built binary as a subprocess
//! against a real HTTP server on loopback (`support`), and checks the request the server
//! saw, the exit status, stdout and stderr.

mod support;

use std::time::{Duration, Instant};

use base64::Engine as _;

use serde_json::{json, Value};
use support::{
    near_rpc, near_rpc_with_env, near_rpc_with_stdin, refused_url, Reply, Server, Serving,
};

/// A key sent with `--api-key`; it must never be printed.
const HEADER_KEY: &str = "HeAdEr-KeY-7f3a";
/// A key in the URL path; it must never be printed either.
const PATH_KEY: &str = "PaTh-KeY-91c2";

const HASH: &str = "11111111111111111111111111111111";

const TX_INCLUDED: &str =
    r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"INCLUDED"}}"#;
const PROTOCOL_CONFIG: &str = r#"{"jsonrpc":"2.0","id":"1","result":{"protocol_version":73}}"#;
const GENESIS_CONFIG: &str = r#"{"jsonrpc":"2.0","id":"1","result":{
    "protocol_version":73,"genesis_time":"2020-07-21T16:55:51.591948Z","chain_id":"localnet",
    "genesis_height":0,"num_block_producer_seats":100,"dynamic_resharding":false,
    "epoch_length":600,"gas_limit":1000000000000000,"min_gas_price":"1000000000",
    "max_gas_price":"10000000000000000000000","block_producer_kickout_threshold":90,
    "chunk_producer_kickout_threshold":90,"gas_price_adjustment_rate":[1,100],
    "validators":[],"transaction_validity_period":86400,"protocol_reward_rate":[1,10],
    "max_inflation_rate":[1,20],"total_supply":"1000000000000000000000000000000000",
    "num_blocks_per_year":31536000,"protocol_treasury_account":"treasury.near",
    "fishermen_threshold":"10000000000000000000000000"}}"#;
/// A handler error as nearcore sends it (HTTP 500), with a newline in `data`.
const UNKNOWN_TRANSACTION: &str = r#"{"jsonrpc":"2.0","id":"1","error":{
    "name":"HANDLER_ERROR",
    "cause":{"name":"UNKNOWN_TRANSACTION","info":{"requested_transaction_hash":"11111111111111111111111111111111"}},
    "code":-32000,"message":"Server error",
    "data":"Transaction 11111111111111111111111111111111 doesn't exist\nsecond line"}}"#;
/// A protocol config whose nested field has the wrong type.
const BAD_PROTOCOL_CONFIG: &str = r#"{"jsonrpc":"2.0","id":"1","result":{"protocol_version":73,"runtime_config":{"storage_amount_per_byte":true}}}"#;
const BAD_PATH: &str = "result.runtime_config.storage_amount_per_byte";
const HTML_503: &str =
    "<html>\n<head><title>503 Service Unavailable</title></head>\n<body>busy</body>\n</html>";

/// `--url URL --retries 0`, so that failures come back at once.
fn at(url: &str) -> Vec<String> {
    vec!["--url".into(), url.into(), "--retries".into(), "0".into()]
}

/// `transfer` of 1 NEAR to bob.mock with the key file, against the node at `url`.
fn transfer_args(url: &str, key_file: &std::path::Path) -> Vec<String> {
    let mut args = at(url);
    args.extend(
        [
            "transfer",
            "--key-file",
            &key_file.to_string_lossy(),
            "bob.mock",
            "1",
        ]
        .map(String::from),
    );
    args
}

fn as_strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn run(prefix: &[String], rest: &[&str]) -> support::Run {
    let args: Vec<&str> = prefix
        .iter()
        .map(String::as_str)
        .chain(rest.iter().copied())
        .collect();
    near_rpc(&args)
}

fn assert_exit(run: &support::Run, code: i32) {
    assert_eq!(run.code, code, "unexpected exit status: {run:?}");
}

/// Stderr is exactly one non-empty line.
fn assert_one_line(stderr: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr is not one line: {stderr:?}");
    assert!(!lines[0].trim().is_empty());
}

#[test]
fn tx_status_by_hash_posts_the_request_and_prints_the_result() {
    let server = Server::start(vec![Reply::json(TX_INCLUDED)]);
    let out = run(
        &at(&server.url("")),
        &["tx-status", "--hash", HASH, "--sender", "alice.near"],
    );
    assert_exit(&out, 0);
    assert_eq!(out.json(), json!({"final_execution_status": "INCLUDED"}));
    assert!(out.stderr.is_empty(), "{out:?}");

    let request = server.only_request();
    assert_eq!(
        (request.http_method.as_str(), request.path.as_str()),
        ("POST", "/")
    );
    assert_eq!(request.header("content-type"), Some("application/json"));
    let body = request.json();
    assert_eq!(body["jsonrpc"], "2.0");
    assert_eq!(body["method"], "EXPERIMENTAL_tx_status");
    assert_eq!(
        body["params"],
        json!({"tx_hash": HASH, "sender_account_id": "alice.near", "wait_until": "EXECUTED_OPTIMISTIC"})
    );
}

#[test]
fn tx_status_wait_until_and_signed_transaction() {
    let server = Server::start(vec![Reply::json(TX_INCLUDED)]);
    let out = run(
        &at(&server.url("")),
        &[
            "tx-status",
            "--hash",
            HASH,
            "--sender",
            "bob.testnet",
            "--wait-until",
            "FINAL",
        ],
    );
    assert_exit(&out, 0);
    let out = run(
        &at(&server.url("")),
        &[
            "tx-status",
            "--signed-tx",
            "AAAA",
            "--wait-until=INCLUDED_FINAL",
        ],
    );
    assert_exit(&out, 0);
    let seen = server.seen();
    assert_eq!(
        seen[0].json()["params"],
        json!({"tx_hash": HASH, "sender_account_id": "bob.testnet", "wait_until": "FINAL"})
    );
    assert_eq!(
        seen[1].json()["params"],
        json!({"signed_tx_base64": "AAAA", "wait_until": "INCLUDED_FINAL"})
    );
}

#[test]
fn tx_status_refuses_bad_input_without_sending() {
    let server = Server::start(vec![Reply::json(TX_INCLUDED)]);
    let prefix = at(&server.url(""));
    let cases: [&[&str]; 6] = [
        &[
            "tx-status",
            "--hash",
            "not-a-hash",
            "--sender",
            "alice.near",
        ],
        &["tx-status", "--hash", HASH, "--sender", "Not An Account"],
        &[
            "tx-status",
            "--hash",
            HASH,
            "--sender",
            "alice.near",
            "--wait-until",
            "SOON",
        ],
        &["tx-status", "--hash", HASH],
        &[
            "tx-status",
            "--signed-tx",
            "AAAA",
            "--hash",
            HASH,
            "--sender",
            "a.near",
        ],
        &["tx-status"],
    ];
    for args in cases {
        let out = run(&prefix, args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
    }
    assert!(server.seen().is_empty());
}

#[test]
fn protocol_config_at_finality_block_or_genesis() {
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let prefix = at(&server.url(""));
    let cases: [(&[&str], Value); 6] = [
        (&[], json!({"finality": "final"})),
        (
            &["--finality", "optimistic"],
            json!({"finality": "optimistic"}),
        ),
        (
            &["--finality", "near-final"],
            json!({"finality": "near-final"}),
        ),
        (&["--block-id", "123456789"], json!({"block_id": 123456789})),
        (&["--block-id", HASH], json!({"block_id": HASH})),
        (&["--genesis"], json!({"sync_checkpoint": "genesis"})),
    ];
    for (i, (options, params)) in cases.iter().enumerate() {
        let args: Vec<&str> = ["protocol-config"]
            .iter()
            .chain(options.iter())
            .copied()
            .collect();
        let out = run(&prefix, &args);
        assert_exit(&out, 0);
        assert_eq!(out.json(), json!({"protocol_version": 73}));
        let body = server.seen()[i].json();
        assert_eq!(body["method"], "EXPERIMENTAL_protocol_config");
        assert_eq!(&body["params"], params, "{options:?}");
    }
    for bad in [
        &["protocol-config", "--finality", "soon"][..],
        &["protocol-config", "--block-id", "not-a-block"],
        &["protocol-config", "--genesis", "--finality", "final"],
        &["protocol-config", "--genesis=yes"],
    ] {
        assert_exit(&run(&prefix, bad), 2);
    }
    assert_eq!(server.seen().len(), cases.len());
}

#[test]
fn genesis_config_sends_null_params() {
    let server = Server::start(vec![Reply::json(GENESIS_CONFIG)]);
    let out = run(&at(&server.url("")), &["genesis-config"]);
    assert_exit(&out, 0);
    let result = out.json();
    assert_eq!(result["chain_id"], "localnet");
    assert_eq!(result["protocol_treasury_account"], "treasury.near");
    let body = server.only_request().json();
    assert_eq!(body["method"], "genesis_config");
    assert_eq!(body["params"], Value::Null);
    assert!(body.as_object().is_some_and(|o| o.contains_key("params")));
}

#[test]
fn call_sends_checked_params() {
    let server = Server::start(vec![
        Reply::json(r#"{"jsonrpc":"2.0","id":"1","result":{"gas_price":"100000000"}}"#),
        Reply::json(r#"{"jsonrpc":"2.0","id":"1","result":null}"#),
    ]);
    let prefix = at(&server.url(""));
    let out = run(&prefix, &["call", "gas_price", r#"{"block_id": 100}"#]);
    assert_exit(&out, 0);
    assert_eq!(out.json(), json!({"gas_price": "100000000"}));
    // Without PARAMS_JSON the params are null.
    let out = run(&prefix, &["call", "health"]);
    assert_exit(&out, 0);
    assert_eq!(out.json(), Value::Null);

    let seen = server.seen();
    assert_eq!(seen[0].json()["method"], "gas_price");
    assert_eq!(seen[0].json()["params"], json!({"block_id": 100}));
    assert_eq!(seen[1].json()["method"], "health");
    assert_eq!(seen[1].json()["params"], Value::Null);
}

#[test]
fn call_refuses_params_that_do_not_check() {
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let prefix = at(&server.url(""));

    let out = run(
        &prefix,
        &["call", "gas_price", r#"{"block_id": 1, "blok": 2}"#],
    );
    assert_exit(&out, 2);
    assert!(out.stderr.contains("`blok`"), "{out:?}");
    assert!(out.stderr.contains("unknown field"), "{out:?}");

    let out = run(
        &prefix,
        &[
            "call",
            "EXPERIMENTAL_tx_status",
            &format!(
                r#"{{"tx_hash": "{HASH}", "sender_account_id": "alice.near", "wait_until": 3}}"#
            ),
        ],
    );
    assert_exit(&out, 2);
    assert!(out.stderr.contains("`wait_until`"), "{out:?}");

    let out = run(&prefix, &["call", "gas_price", r#"{"block_id": true}"#]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains("`block_id`"), "{out:?}");

    // Base64 that does not decode is refused at its path, before anything is sent.
    let out = run(
        &prefix,
        &["call", "send_tx", r#"{"signed_tx_base64": "not base64!"}"#],
    );
    assert_exit(&out, 2);
    assert!(out.stderr.contains("`signed_tx_base64`"), "{out:?}");
    assert!(out.stderr.contains("not valid base64"), "{out:?}");
    assert!(server.seen().is_empty());
}

#[test]
fn call_refuses_invalid_json_and_unknown_methods() {
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let prefix = at(&server.url(""));

    let out = run(&prefix, &["call", "gas_price", r#"{"block_id": 1"#]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains("not valid JSON"), "{out:?}");

    let out = run(&prefix, &["call", "no_such_method", "{}"]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains("`near-rpc call` accepts"), "{out:?}");
    for name in near_rpc::methods::ALL {
        assert!(out.stderr.contains(name), "{name} is not listed: {out:?}");
    }
    assert!(server.seen().is_empty());
}

#[test]
fn json_rpc_error_exits_3_with_the_typed_error() {
    let server = Server::start(vec![Reply::status(500, UNKNOWN_TRANSACTION)]);
    let out = run(
        &at(&server.url("")),
        &["tx-status", "--hash", HASH, "--sender", "alice.near"],
    );
    assert_exit(&out, 3);
    let error = out.json();
    assert_eq!(error["name"], "HANDLER_ERROR");
    assert_eq!(error["cause"]["name"], "UNKNOWN_TRANSACTION");
    assert_eq!(error["cause"]["info"]["requested_transaction_hash"], HASH);
    assert_eq!(error["code"], -32000);
    assert_one_line(&out.stderr);
    assert!(out.stderr.contains("HTTP 500"), "{out:?}");
    assert!(out.stderr.contains("UNKNOWN_TRANSACTION"), "{out:?}");
}

#[test]
fn undecodable_response_exits_4_naming_the_path() {
    let server = Server::start(vec![Reply::json(BAD_PROTOCOL_CONFIG)]);
    let out = run(&at(&server.url("")), &["protocol-config"]);
    assert_exit(&out, 4);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains(&format!("`{BAD_PATH}`")), "{out:?}");
    assert_one_line(&out.stderr);
}

#[test]
fn connection_refused_exits_5() {
    let out = run(&at(&refused_url()), &["genesis-config"]);
    assert_exit(&out, 5);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains("connect"), "{out:?}");
    assert_one_line(&out.stderr);
}

#[test]
fn http_503_html_exits_5() {
    let server = Server::start(vec![Reply::html(503, HTML_503)]);
    let out = run(&at(&server.url("")), &["genesis-config"]);
    assert_exit(&out, 5);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains("HTTP 503"), "{out:?}");
    assert_one_line(&out.stderr);
}

#[test]
fn timeout_exits_5() {
    let server = Server::start(vec![
        Reply::json(PROTOCOL_CONFIG).delayed(Duration::from_secs(5))
    ]);
    let started = Instant::now();
    let mut args = at(&server.url(""));
    args.extend(["--timeout".into(), "0.3".into()]);
    let out = run(&args, &["protocol-config"]);
    assert_exit(&out, 5);
    assert!(out.stderr.contains("timeout"), "{out:?}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "--timeout was not applied"
    );
}

#[test]
fn secrets_are_never_printed() {
    let failures = [
        (Reply::status(500, UNKNOWN_TRANSACTION), 3),
        (
            Reply::json(r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":7}}"#),
            4,
        ),
        (Reply::html(503, HTML_503), 5),
    ];
    for (reply, code) in failures {
        let server = Server::start(vec![reply]);
        let url = server.url(&format!("/{PATH_KEY}"));
        for transport in [&[][..], &["--method-in-path"]] {
            let mut args = vec!["--api-key", HEADER_KEY, "--url", &url, "--retries", "0"];
            args.extend_from_slice(transport);
            args.extend(["tx-status", "--hash", HASH, "--sender", "alice.near"]);
            let out = near_rpc(&args);
            assert_exit(&out, code);
            out.assert_hides(HEADER_KEY);
            out.assert_hides(PATH_KEY);
            assert!(
                out.stderr.contains("/***"),
                "the endpoint is not shown redacted: {out:?}"
            );
        }
        // The secrets did reach the server.
        for request in server.seen() {
            assert_eq!(request.header("x-api-key"), Some(HEADER_KEY));
            assert!(
                request.path.starts_with(&format!("/{PATH_KEY}")),
                "{request:?}"
            );
        }
    }

    // Connection refused, through the retries and both endpoints.
    let refused = format!("{}/{PATH_KEY}", refused_url());
    let out = near_rpc(&[
        "--url",
        &refused,
        "--url",
        &refused,
        "--api-key",
        HEADER_KEY,
        "--retries",
        "1",
        "genesis-config",
    ]);
    assert_exit(&out, 5);
    out.assert_hides(HEADER_KEY);
    out.assert_hides(PATH_KEY);

    // Usage errors: a bad URL, a bad key, params that don't check, a mistyped option.
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let url = server.url(&format!("/{PATH_KEY}"));
    let bad_url = format!("ftp://host/{PATH_KEY}");
    let bad_key = format!("{HEADER_KEY}\n");
    let usage: [Vec<&str>; 5] = [
        vec!["--url", &bad_url, "genesis-config"],
        vec!["--url", &url, "--api-key", &bad_key, "genesis-config"],
        vec![
            "--url",
            &url,
            "--api-key",
            HEADER_KEY,
            "call",
            "gas_price",
            "{\"x\":1}",
        ],
        vec!["--api-kee", HEADER_KEY, "--url", &url, "genesis-config"],
        vec![&url, "genesis-config"],
    ];
    for args in usage {
        let out = near_rpc(&args);
        assert_exit(&out, 2);
        out.assert_hides(HEADER_KEY);
        out.assert_hides(PATH_KEY);
    }
    assert!(server.seen().is_empty());

    // An API key pasted where the URL's host goes, as a label of it: masked in every
    // output, failures of the node (the name never resolves: `.invalid` is reserved)
    // and usage errors alike.
    const HOST_KEY: &str = "3f9a2c1e8b7d4a6f9e0c1b2a3d4e5f60";
    let host_url = format!("https://{HOST_KEY}.rpc.example.invalid");
    let ftp_url = format!("ftp://{HOST_KEY}.rpc.example.invalid");
    let url_option = format!("--url={host_url}");
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let at_host = ["--url", &host_url, "--retries", "0", "--timeout", "10"];
    let cases: [(Vec<&str>, i32); 9] = [
        ([&at_host[..], &["status"]].concat(), 5),
        (
            [
                &at_host[..],
                &["tx-status", "--hash", HASH, "--sender", "alice.near"],
            ]
            .concat(),
            5,
        ),
        (
            [
                &at_host[..],
                &["transfer", "--key-file", file, "bob.near", "1"],
            ]
            .concat(),
            5,
        ),
        (
            [&at_host[..], &["--api-key", HEADER_KEY, "status"]].concat(),
            5,
        ),
        (vec!["--urll", &host_url, "status"], 2),
        (vec![&url_option, "--api-key", "bad\nkey", "status"], 2),
        (vec!["--url", &host_url, "block", "--height", "-1"], 2),
        (
            vec!["--url", &host_url, "--network", "testnet", "status"],
            2,
        ),
        (vec!["--url", &ftp_url, "status"], 2),
    ];
    for (args, code) in cases {
        let out = near_rpc(&args);
        assert_exit(&out, code);
        out.assert_hides(HOST_KEY);
        out.assert_hides(HEADER_KEY);
        assert_hides_key(&out, &secret);
        if code == 5 {
            // The endpoint is still named, its other labels shown.
            assert!(
                out.stderr.contains("https://***.rpc.example.invalid"),
                "{args:?}: {out:?}"
            );
        }
    }
}

#[test]
fn method_in_path_posts_to_the_method() {
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let out = near_rpc(&[
        "--method-in-path",
        "--url",
        &server.url(""),
        "protocol-config",
        "--genesis",
    ]);
    assert_exit(&out, 0);
    let out = near_rpc(&[
        "--url",
        &server.url(&format!("/{PATH_KEY}")),
        "protocol-config",
        "--method-in-path",
    ]);
    assert_exit(&out, 0);
    let seen = server.seen();
    assert_eq!(seen[0].path, "/EXPERIMENTAL_protocol_config");
    assert_eq!(seen[0].json()["method"], "EXPERIMENTAL_protocol_config");
    assert_eq!(
        seen[1].path,
        format!("/{PATH_KEY}/EXPERIMENTAL_protocol_config")
    );
}

#[test]
fn retries_and_failover() {
    // Two 503s then a result: --retries 2 gets through, with three requests.
    let busy = Reply::html(503, HTML_503).header("retry-after", "0");
    let server = Server::start(vec![busy.clone(), busy, Reply::json(PROTOCOL_CONFIG)]);
    let out = near_rpc(&[
        "--url",
        &server.url(""),
        "--retries",
        "2",
        "protocol-config",
    ]);
    assert_exit(&out, 0);
    assert_eq!(server.seen().len(), 3);

    // With --retries 0 the first 503 is final.
    let server = Server::start(vec![
        Reply::html(503, HTML_503),
        Reply::json(PROTOCOL_CONFIG),
    ]);
    let out = near_rpc(&[
        "--url",
        &server.url(""),
        "--retries",
        "0",
        "protocol-config",
    ]);
    assert_exit(&out, 5);
    assert_eq!(server.seen().len(), 1);

    // The first --url refuses; the retry goes to the second.
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let out = near_rpc(&[
        "--url",
        &refused_url(),
        "--url",
        &server.url(""),
        "--retries",
        "1",
        "protocol-config",
    ]);
    assert_exit(&out, 0);
    assert_eq!(server.seen().len(), 1);
}

#[test]
fn decode_from_a_file_and_from_stdin() {
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temp dir");
    let good = dir.join("good.json");
    let bad = dir.join("bad.json");
    std::fs::write(&good, PROTOCOL_CONFIG).expect("write");
    std::fs::write(&bad, BAD_PROTOCOL_CONFIG).expect("write");
    let path = |p: &std::path::Path| p.to_str().expect("UTF-8 temp path").to_owned();

    let out = near_rpc(&["decode", "EXPERIMENTAL_protocol_config", &path(&good)]);
    assert_exit(&out, 0);
    assert_eq!(out.json(), json!({"protocol_version": 73}));

    let out = near_rpc(&["decode", "EXPERIMENTAL_protocol_config", &path(&bad)]);
    assert_exit(&out, 4);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains(&format!("`{BAD_PATH}`")), "{out:?}");
    assert!(out.stderr.contains("invalid type: boolean"), "{out:?}");

    let out = near_rpc(&[
        "decode",
        "EXPERIMENTAL_protocol_config",
        &path(&dir.join("missing")),
    ]);
    assert_exit(&out, 2);
    std::fs::remove_dir_all(&dir).ok();

    let out = near_rpc_with_stdin(
        &["decode", "EXPERIMENTAL_tx_status"],
        TX_INCLUDED.as_bytes(),
    );
    assert_exit(&out, 0);
    assert_eq!(out.json(), json!({"final_execution_status": "INCLUDED"}));

    let body = r#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":"FINAL","status":{"SuccessValue":5}}}"#;
    let out = near_rpc_with_stdin(&["decode", "tx", "-"], body.as_bytes());
    assert_exit(&out, 4);
    assert!(
        out.stderr.contains("`result.status.SuccessValue`"),
        "{out:?}"
    );

    // A JSON-RPC error body decodes to the typed error, with exit 3.
    let out = near_rpc_with_stdin(&["decode", "tx"], UNKNOWN_TRANSACTION.as_bytes());
    assert_exit(&out, 3);
    assert_eq!(out.json()["cause"]["name"], "UNKNOWN_TRANSACTION");
    assert_one_line(&out.stderr);

    // Not JSON at all: exit 4, at the top level.
    let out = near_rpc_with_stdin(&["decode", "status"], b"<html>busy</html>");
    assert_exit(&out, 4);
    assert!(out.stderr.contains("top level"), "{out:?}");

    let out = near_rpc_with_stdin(&["decode", "no_such_method"], b"{}");
    assert_exit(&out, 2);
}

/// `decode --report-unknown` lists what a newer node sent that the bindings do not know,
/// with JSON paths, and says so when there is nothing.
#[test]
fn decode_reports_what_the_bindings_do_not_know() {
    let grown = r#"{"jsonrpc":"2.0","id":1,"result":{"final_execution_status":{"SOFT_FINAL":{"at":3}},"shard_hint":7}}"#;
    let out = near_rpc_with_stdin(&["decode", "--report-unknown", "tx"], grown.as_bytes());
    assert_exit(&out, 0);
    assert_eq!(
        out.json()["final_execution_status"],
        json!({"SOFT_FINAL": {"at": 3}})
    );
    assert!(
        out.stderr
            .contains("unknown variant at result.final_execution_status"),
        "{out:?}"
    );
    assert!(
        out.stderr.contains("ignored field at result.shard_hint"),
        "{out:?}"
    );

    let out = near_rpc_with_stdin(
        &["decode", "--report-unknown", "tx"],
        TX_INCLUDED.as_bytes(),
    );
    assert_exit(&out, 0);
    assert!(
        out.stderr.contains("know every variant and field"),
        "{out:?}"
    );
    // Without the flag, nothing is said.
    let out = near_rpc_with_stdin(&["decode", "tx"], grown.as_bytes());
    assert_exit(&out, 0);
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    let out = near_rpc(&[]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains("no command"), "{out:?}");
    assert!(out.stderr.contains("--help"), "{out:?}");

    for args in [
        &["--frobnicate", "genesis-config"][..],
        &["genesis-config", "--frobnicate"],
        &["frobnicate"],
        &["genesis-config", "extra"],
        &["--retries", "many", "genesis-config"],
        &["--timeout", "0", "genesis-config"],
        &["--network", "devnet", "genesis-config"],
        &[
            "--network",
            "testnet",
            "--url",
            "http://127.0.0.1:1",
            "genesis-config",
        ],
        &["--url"],
        &["call"],
        &["decode"],
    ] {
        let out = near_rpc(args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.starts_with("near-rpc: "), "{out:?}");
    }

    let out = near_rpc(&["--help"]);
    assert_exit(&out, 0);
    for needle in [
        "tx-status",
        "protocol-config",
        // clap lists the commands by name, each with its summary.
        "call",
        "decode",
        "account",
        "completions",
        "Exit status",
    ] {
        assert!(out.stdout.contains(needle), "{needle}: {out:?}");
    }
    assert_exit(&near_rpc(&["help"]), 0);
    let out = near_rpc(&["--version"]);
    assert_exit(&out, 0);
    assert!(out.stdout.starts_with("near-rpc "), "{out:?}");
}

#[test]
fn keys_a_server_echoes_are_masked_in_every_output() {
    let echoes = [
        (
            Reply::html(401, &format!("<p>bad key {HEADER_KEY} for /{PATH_KEY}</p>")),
            5,
        ),
        (
            Reply::status(
                200,
                &format!(
                    r#"{{"jsonrpc":"2.0","id":"1","error":{{"name":"HANDLER_ERROR","cause":{{"name":"UNKNOWN_TRANSACTION","info":{{"requested_transaction_hash":"{HASH}"}}}},"code":-32000,"message":"key {HEADER_KEY}","data":"path {PATH_KEY}"}}}}"#
                ),
            ),
            3,
        ),
        (
            Reply::json(&format!(
                r#"{{"jsonrpc":"2.0","id":"1","result":{{"final_execution_status":"FINAL","echo":"{HEADER_KEY}"}}}}"#
            ))
            .header("x-echo", HEADER_KEY),
            // Unknown fields are not printed at all.
            0,
        ),
        (
            Reply::json(&format!(
                r#"{{"jsonrpc":"2.0","id":"1","result":{{"final_execution_status":"{PATH_KEY}"}}}}"#
            )),
            0,
        ),
    ];
    for (reply, code) in echoes {
        let server = Server::start(vec![reply]);
        let url = server.url(&format!("/{PATH_KEY}"));
        let out = near_rpc(&[
            "--api-key",
            HEADER_KEY,
            "--url",
            &url,
            "--retries",
            "0",
            "tx-status",
            "--hash",
            HASH,
            "--sender",
            "alice.near",
        ]);
        assert_exit(&out, code);
        out.assert_hides(HEADER_KEY);
        out.assert_hides(PATH_KEY);
        let shown_masked = out.stdout.contains("***") || out.stderr.contains("***");
        let echo_is_printed = !out.stdout.contains("\"FINAL\"");
        assert_eq!(shown_masked, echo_is_printed, "{out:?}");
    }
}

#[test]
fn the_api_key_goes_to_the_first_endpoint_only() {
    let first = Server::start(vec![Reply::html(503, HTML_503)]);
    let second = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let out = near_rpc(&[
        "--url",
        &first.url(""),
        "--url",
        &second.url(""),
        "--api-key",
        HEADER_KEY,
        "--retries",
        "0",
        "protocol-config",
    ]);
    assert_exit(&out, 0);
    assert_eq!(first.only_request().header("x-api-key"), Some(HEADER_KEY));
    assert_eq!(second.only_request().header("x-api-key"), None);
}

#[test]
fn network_mock_answers_in_process() {
    let out = near_rpc(&[
        "--network",
        "mock",
        "protocol-config",
        "--finality",
        "final",
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["protocol_version"], 73);
    assert_eq!(out.json()["chain_id"], "mock");

    let transfer = near_rpc_mock::Chain::new().genesis_transfer().to_string();
    let out = near_rpc(&[
        "--network",
        "mock",
        "tx-status",
        "--hash",
        &transfer,
        "--sender",
        "alice.mock",
        "--wait-until",
        "FINAL",
    ]);
    assert_exit(&out, 0);
    assert_eq!(
        out.json()["status"],
        serde_json::json!({"SuccessValue": ""})
    );

    let out = near_rpc(&[
        "--network",
        "mock",
        "call",
        "query",
        r#"{"request_type": "view_account", "account_id": "nobody.mock", "finality": "final"}"#,
    ]);
    assert_exit(&out, 3);
    assert!(out.stderr.contains("UNKNOWN_ACCOUNT"), "{out:?}");
}

#[test]
fn mock_serves_over_http_and_replays_a_cassette() {
    let mock = Serving::start(&["mock", "--port", "0"]);
    let out = near_rpc(&["--url", &mock.url, "call", "status"]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["chain_id"], "mock");
    drop(mock);

    let dir = std::env::temp_dir().join(format!("near-rpc-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cassette = dir.join("replay.jsonl");
    std::fs::write(
        &cassette,
        r#"{"method":"EXPERIMENTAL_protocol_config","params":{"finality":"final"},"status":200,"response":{"jsonrpc":"2.0","id":"0","result":{"protocol_version":80}}}"#,
    )
    .unwrap();
    let mock = Serving::start(&["mock", "--replay", cassette.to_str().unwrap()]);
    let out = near_rpc(&["--url", &mock.url, "protocol-config"]);
    assert_exit(&out, 0);
    assert_eq!(
        out.json()["protocol_version"],
        80,
        "the cassette, not the chain"
    );
    drop(mock);

    std::fs::write(&cassette, "not a cassette\n").unwrap();
    let out = near_rpc(&["mock", "--replay", cassette.to_str().unwrap()]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains("line 1"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn record_writes_what_passes_and_no_key() {
    let upstream = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let dir = std::env::temp_dir().join(format!("near-rpc-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("cassette.jsonl");
    let url = upstream.url(&format!("/{PATH_KEY}"));
    let recorder = Serving::start(&[
        "--url",
        &url,
        "--api-key",
        HEADER_KEY,
        "record",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let out = near_rpc(&["--url", &recorder.url, "protocol-config"]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["protocol_version"], 73);
    drop(recorder);
    assert_eq!(
        upstream.only_request().header("x-api-key"),
        Some(HEADER_KEY)
    );
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        !text.contains(HEADER_KEY) && !text.contains(PATH_KEY),
        "{text}"
    );
    let cassette = near_rpc_mock::Cassette::load(&out_file).unwrap();
    assert_eq!(cassette.exchanges.len(), 1);
    assert_eq!(cassette.exchanges[0].method, "EXPERIMENTAL_protocol_config");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A raw HTTP/1.1 POST of a `status` request to `url`'s server, with `host` and the
/// `extra` headers (each ending in `\r\n`); the answer, read until the server closes.
fn raw_post(url: &str, host: &str, extra: &str) -> String {
    use std::io::{Read, Write};
    let address = url.trim_start_matches("http://");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"status","params":[]}"#;
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let request = format!(
        "POST / HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n{extra}content-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = Vec::new();
    // A reset after the answer is a close too.
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn mock_and_record_answer_local_clients_and_allowed_origins_only() {
    let mock = Serving::start(&["mock", "--allow-origin", "http://localhost:5173"]);
    let here = mock.url.trim_start_matches("http://").to_owned();
    let allowed = raw_post(&mock.url, &here, "origin: http://localhost:5173\r\n");
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
    let page = raw_post(&mock.url, &here, "origin: http://evil.example\r\n");
    assert!(page.starts_with("HTTP/1.1 403"), "{page}");
    let rebound = raw_post(&mock.url, "evil.example", "");
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
    drop(mock);

    // The recording proxy holds the key: what it refuses never reaches the node.
    let upstream = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let dir = std::env::temp_dir().join(format!("near-rpc-record-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("cassette.jsonl");
    let recorder = Serving::start(&[
        "--url",
        &upstream.url("/"),
        "--api-key",
        HEADER_KEY,
        "record",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let here = recorder.url.trim_start_matches("http://").to_owned();
    let page = raw_post(&recorder.url, &here, "origin: http://localhost:5173\r\n");
    assert!(
        page.starts_with("HTTP/1.1 403"),
        "no origin allowed: {page}"
    );
    let rebound = raw_post(&recorder.url, &format!("evil.example:{}", &here[10..]), "");
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
    assert!(upstream.seen().is_empty(), "{:?}", upstream.seen());
    let local = raw_post(&recorder.url, &here, "");
    assert!(local.starts_with("HTTP/1.1 200"), "{local}");
    assert_eq!(upstream.seen().len(), 1);
    drop(recorder);
    std::fs::remove_dir_all(&dir).unwrap();

    for command in [&["mock"][..], &["record", "--out", "unused.jsonl"]] {
        for (origin, why) in [
            ("*", "every web page"),
            ("http://localhost:5173/", "no path"),
        ] {
            let args: Vec<&str> = command
                .iter()
                .copied()
                .chain(["--allow-origin", origin])
                .collect();
            let out = near_rpc(&args);
            assert_exit(&out, 2);
            assert!(
                out.stderr.contains("--allow-origin") && out.stderr.contains(why),
                "{args:?}: {out:?}"
            );
        }
    }
}

/// The shared upstream data (`NEAR_RPC_SHARED`, default `../shared` beside the repo).
fn shared_dir() -> std::path::PathBuf {
    std::env::var_os("NEAR_RPC_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"))
}

/// A recorded response body from the shared fixtures (`query/...json`).
fn fixture(path: &str) -> String {
    let path = shared_dir().join("fixtures").join(path);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set NEAR_RPC_SHARED)", path.display()))
}

const PUBLIC_KEY: &str = "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW";

/// A subcommand answered by a recorded response: what it sent, and what it printed.
fn against_recorded(file: &str, args: &[&str]) -> (support::Run, Value) {
    // The scripted server puts the request's id into the body (the fixtures say
    // "dontcare"), as nodes echo it.
    let server = Server::start(vec![Reply::json(&fixture(file))]);
    let out = run(&at(&server.url("")), args);
    let request = server.only_request().json();
    (out, request)
}

#[test]
fn subcommands_read_recorded_responses() {
    let (out, request) = against_recorded(
        "query/nearapiex-accounts-view_account-success.json",
        &["account", "example.testnet"],
    );
    assert_exit(&out, 0);
    assert_eq!(request["method"], "query");
    assert_eq!(
        request["params"],
        json!({"request_type": "view_account", "account_id": "example.testnet", "finality": "final"})
    );
    assert_eq!(out.json()["amount"], "149694984123794289100000000");
    assert_eq!(out.json()["block_height"], 76786607);
    assert_eq!(
        out.json()["block_hash"],
        "CUh3AaxckGsUdPv5Xj9Z224nMJENZ3YwsvSsx6Nzafqh"
    );

    let (out, request) = against_recorded(
        "query/nearapiex-access_keys-view_access_key-success.json",
        &["access-key", "a.testnet", PUBLIC_KEY, "--block", "76786602"],
    );
    assert_exit(&out, 0);
    assert_eq!(
        request["params"],
        json!({"request_type": "view_access_key", "account_id": "a.testnet", "public_key": PUBLIC_KEY, "block_id": 76786602})
    );
    assert_eq!(out.json()["nonce"], 157);
    assert_eq!(out.json()["block_height"], 76786602);

    let (out, request) = against_recorded(
        "query/nearapiex-access_keys-view_access_key_list-success.json",
        &["access-keys", "a.testnet", "--finality", "OPTIMISTIC"],
    );
    assert_exit(&out, 0);
    assert_eq!(request["params"]["request_type"], "view_access_key_list");
    assert_eq!(request["params"]["finality"], "optimistic");
    assert!(out.json()["keys"].as_array().is_some_and(|k| k.len() >= 2));

    let (out, request) = against_recorded(
        "query/nearapiex-contracts-view_code-success.json",
        &["code", "c.testnet"],
    );
    assert_exit(&out, 0);
    assert_eq!(request["params"]["request_type"], "view_code");
    assert!(out.json()["code_base64"]
        .as_str()
        .is_some_and(|c| c.starts_with("AGFzbQ")));

    let (out, request) = against_recorded(
        "query/nearapiex-contracts-view_state-success.json",
        &["state", "c.testnet", "--prefix", "STATE"],
    );
    assert_exit(&out, 0);
    assert_eq!(request["params"]["request_type"], "view_state");
    assert_eq!(request["params"]["prefix_base64"], "U1RBVEU=");
    assert_eq!(out.json()["values"][0]["key"], "U1RBVEU=");

    let (out, request) = against_recorded(
        "query/nearapiex-contracts-call_function-success_getter.json",
        &["view", "c.testnet", "hello", "--args", r#"{"a":1}"#],
    );
    assert_exit(&out, 0);
    assert_eq!(request["params"]["request_type"], "call_function");
    assert_eq!(request["params"]["method_name"], "hello");
    assert_eq!(request["params"]["args_base64"], "eyJhIjoxfQ==");
    assert_eq!(out.json()["result"], "hello world");
    assert_eq!(out.json()["block_height"], 77261947);

    let (out, request) = against_recorded(
        "gas_price/neardocs-1.json",
        &["gas-price", "--block", "17824600"],
    );
    assert_exit(&out, 0);
    assert_eq!(request["params"], json!({"block_id": 17824600}));
    assert_eq!(
        out.json(),
        json!({"gas_price": "100000000", "unit": "yoctoNEAR/gas"})
    );

    let (out, request) =
        against_recorded("block/neardocs-1.json", &["block", "--height", "17821130"]);
    assert_exit(&out, 0);
    assert_eq!(request["params"], json!({"block_id": 17821130}));
    assert_eq!(out.json()["header"]["height"], 17821130);

    let chunk = "EBM2qg5cGr47EjMPtH88uvmXHDHqmWPzKaQadbWhdw22";
    let (out, request) =
        against_recorded("chunk/neardocs-1.json", &["chunk", "--chunk-hash", chunk]);
    assert_exit(&out, 0);
    assert_eq!(request["params"], json!({"chunk_id": chunk}));
    assert_eq!(out.json()["header"]["chunk_hash"], chunk);

    let (out, request) = against_recorded("status/neardocs2025-3.json", &["status"]);
    assert_exit(&out, 0);
    assert_eq!(request["method"], "status");
    assert_eq!(out.json()["chain_id"], "testnet");

    let (out, request) = against_recorded(
        "validators/nearapiex-network-validators-success.json",
        &["validators"],
    );
    assert_exit(&out, 0);
    assert_eq!(request["method"], "validators");
    assert!(out.json()["current_validators"]
        .as_array()
        .is_some_and(|v| !v.is_empty()));

    let signed: Value = serde_json::from_str(&fixture("send_tx/neardocs-1-request.json")).unwrap();
    let signed = signed["params"]["signed_tx_base64"]
        .as_str()
        .unwrap()
        .to_owned();
    // The method alone (`call`): the docs' recorded answer is of another transaction
    // than their recorded request, which `send-tx` (the write path) would not take as
    // this one's outcome.
    let params = json!({"signed_tx_base64": signed, "wait_until": "FINAL"}).to_string();
    let (out, request) = against_recorded("send_tx/neardocs-1.json", &["call", "send_tx", &params]);
    assert_exit(&out, 0);
    assert_eq!(
        request["params"],
        json!({"signed_tx_base64": signed, "wait_until": "FINAL"})
    );
    assert_eq!(out.json()["final_execution_status"], "FINAL");
}

#[test]
fn a_query_error_inside_a_result_exits_3() {
    let (out, _) = against_recorded(
        "query/nearapiex-access_keys-view_access_key-error.json",
        &["access-key", "a.testnet", PUBLIC_KEY],
    );
    assert_exit(&out, 3);
    assert!(out.stderr.contains("UNKNOWN_ACCESS_KEY"), "{out:?}");
    assert_one_line(&out.stderr);
    assert_eq!(out.json()["cause"]["name"], "UNKNOWN_ACCESS_KEY");
}

fn mock(args: &[&str]) -> support::Run {
    let args: Vec<&str> = ["--network", "mock"].iter().chain(args).copied().collect();
    near_rpc(&args)
}

#[test]
fn views_against_the_mock_node() {
    let out = mock(&["account", "alice.mock"]);
    assert_exit(&out, 0);
    // The account record (100 bytes) and its two keys (82 and 134), as nearcore counts.
    assert_eq!(out.json()["storage_usage"], 316);
    assert!(out.json()["block_height"].as_u64().is_some(), "{out:?}");
    assert!(out.json()["block_hash"].is_string(), "{out:?}");

    let out = mock(&["account", "nobody.mock", "--finality", "near-final"]);
    assert_exit(&out, 3);
    assert!(out.stderr.contains("UNKNOWN_ACCOUNT"), "{out:?}");

    let out = mock(&["access-keys", "alice.mock"]);
    assert_exit(&out, 0);
    let key = out.json()["keys"][0]["public_key"]
        .as_str()
        .expect("a key")
        .to_owned();
    let out = mock(&["access-key", "alice.mock", &key, "--block", "110"]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["block_height"], 110);
    assert!(out.json()["nonce"].as_u64().is_some(), "{out:?}");

    let out = mock(&["code", "contract.mock"]);
    assert_exit(&out, 0);
    let code = near_rpc_mock::contract::status_message().code();
    assert_eq!(
        out.json()["code_base64"],
        base64::engine::general_purpose::STANDARD.encode(code)
    );
    let out = mock(&["code", "alice.mock"]);
    assert_exit(&out, 3);
    assert!(out.stderr.contains("NO_CONTRACT_CODE"), "{out:?}");

    let out = mock(&["state", "contract.mock"]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["values"].as_array().map(Vec::len), Some(2));
    // The status bob.mock set, by text or base64 of a prefix of its key.
    for prefix in [&["--prefix", "bob"][..], &["--prefix-base64", "Ym9i"]] {
        let args: Vec<&str> = ["state", "contract.mock", "--proof"]
            .iter()
            .chain(prefix)
            .copied()
            .collect();
        let out = mock(&args);
        assert_exit(&out, 0);
        assert_eq!(out.json()["values"].as_array().map(Vec::len), Some(1));
        assert_eq!(out.json()["values"][0]["key"], "Ym9iLm1vY2s=");
    }
    for prefix in [&["--prefix", "alice"][..], &["--prefix-base64", "YWxpY2U="]] {
        let args: Vec<&str> = ["state", "contract.mock"]
            .iter()
            .chain(prefix)
            .copied()
            .collect();
        assert_eq!(mock(&args).json()["values"], json!([]));
    }

    // The status-message contract: a JSON string, or null, and a log.
    let out = mock(&[
        "view",
        "contract.mock",
        "get_status",
        "--args",
        r#"{"account_id": "bob.mock"}"#,
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["result"], "hello from bob");
    assert_eq!(out.stderr, "log: get_status for account_id bob.mock\n");
    let args = base64::engine::general_purpose::STANDARD.encode(r#"{"account_id":"alice.mock"}"#);
    let out = mock(&[
        "view",
        "contract.mock",
        "get_status",
        "--args-base64",
        &args,
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["result"], json!(null));
    // A method that panics: a contract error, exit 3.
    let out = mock(&["view", "contract.mock", "get_status"]);
    assert_exit(&out, 3);
    assert!(out.stderr.contains("Smart contract panicked"), "{out:?}");
    let out = mock(&["view", "contract.mock", "no_such_method"]);
    assert_exit(&out, 3);
}

/// A 1 yoctoNEAR transfer from bob.mock to alice.mock, signed as a client would for the
/// mock chain as it starts.
fn mock_transfer() -> near_rpc::tx::SignedTransaction {
    let transfer = near_rpc::tx::Action::transfer(near_rpc::NearToken::from_yoctonear(1));
    near_rpc_mock::Chain::new().sign("bob.mock", "alice.mock", vec![transfer])
}

#[test]
fn calls_against_the_mock_node() {
    let out = mock(&["block"]);
    assert_exit(&out, 0);
    let head = out.json()["header"]["height"].as_u64().expect("a height");
    let hash = out.json()["header"]["hash"].as_str().unwrap().to_owned();
    let out = mock(&["block", "--hash", &hash]);
    assert_eq!(out.json()["header"]["height"], head);
    let out = mock(&["block", "--height", "110", "--finality", "final"]);
    assert_exit(&out, 2);

    let out = mock(&["chunk", "--block", "110", "--shard", "0"]);
    assert_exit(&out, 0);
    let chunk = out.json()["header"]["chunk_hash"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = mock(&["chunk", "--chunk-hash", &chunk]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["header"]["chunk_hash"], chunk.as_str());

    let out = mock(&["gas-price"]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["unit"], "yoctoNEAR/gas");
    assert!(out.json()["gas_price"].is_string(), "{out:?}");

    let out = mock(&["status"]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["chain_id"], "mock");

    let out = mock(&["validators"]);
    assert_exit(&out, 0);
    assert!(out.json()["current_validators"].is_array(), "{out:?}");

    let out = mock(&[
        "send-tx",
        "--base64",
        &mock_transfer().to_base64(),
        "--wait-until",
        "Included_Final",
    ]);
    assert_exit(&out, 0);
    // The level reached, at least the one asked for: its receipt ran before its block
    // was final.
    assert_eq!(out.json()["final_execution_status"], "EXECUTED", "{out:?}");
    let dir = std::env::temp_dir().join(format!("near-rpc-send-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tx.borsh");
    std::fs::write(&file, mock_transfer().to_borsh()).unwrap();
    let out = mock(&["send-tx", "--file", file.to_str().unwrap()]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["status"], json!({"SuccessValue": ""}), "{out:?}");
    // Bytes that are no transaction: refused before anything is sent, naming the option.
    std::fs::write(&file, [0u8, 1, 2, 3]).unwrap();
    let out = mock(&["send-tx", "--file", file.to_str().unwrap()]);
    assert_exit(&out, 2);
    assert!(
        out.stderr.contains("--file: not a signed transaction"),
        "{out:?}"
    );
    // Sent as the method alone, they are the node's to refuse: its parse error.
    let params =
        json!({"signed_tx_base64": near_rpc::types::SignedTransaction::from(vec![0u8, 1, 2, 3]).0})
            .to_string();
    let out = mock(&["call", "send_tx", &params]);
    assert_exit(&out, 3);
    assert!(out.stderr.contains("PARSE_ERROR"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
    assert_exit(&mock(&["send-tx", "--base64", "not base64!"]), 2);
    assert_exit(&mock(&["send-tx", "--file", "/nonexistent/tx"]), 2);
}

#[test]
fn every_subcommand_has_help_and_the_version_names_the_spec() {
    for command in [
        "tx-status",
        "genesis-config",
        "protocol-config",
        "call",
        "decode",
        "mock",
        "record",
        "account",
        "access-key",
        "access-keys",
        "gas-key-nonces",
        "code",
        "state",
        "view",
        "block",
        "chunk",
        "gas-price",
        "status",
        "validators",
        "send-tx",
        "sign",
        "sign-delegate",
        "relay",
        "sign-message",
        "verify-message",
        "send",
        "transfer",
        "verify",
        "completions",
    ] {
        let out = near_rpc(&[command, "--help"]);
        assert_exit(&out, 0);
        assert!(out.stdout.contains("Usage: near-rpc"), "{command}: {out:?}");
        assert!(out.stdout.contains(command), "{command}: {out:?}");
    }
    let out = near_rpc(&["--version"]);
    assert_exit(&out, 0);
    // The wording for each kind of document, written out (not rebuilt the way the CLI
    // builds it).
    let described = match near_rpc::SPEC_VERSION {
        "1.2.6" => "nearcore OpenAPI spec 1.2.6".to_owned(),
        "nearcore-0.38.0" => {
            "OpenAPI spec nearcore-0.38.0, derived from nearcore 0.38.0's crates".to_owned()
        }
        // The other published documents (scripts/all-versions.sh) read like 1.2.6.
        other => {
            assert!(
                other.starts_with("1."),
                "no expected wording for spec {other}"
            );
            format!("nearcore OpenAPI spec {other}")
        }
    };
    assert_eq!(
        out.stdout.trim(),
        format!("near-rpc {} ({described})", env!("CARGO_PKG_VERSION"))
    );
    let out = near_rpc(&["completions", "bash"]);
    assert_exit(&out, 0);
    assert!(out.stdout.contains("near-rpc"), "{out:?}");
    assert!(out.stdout.contains("gas-price"), "{out:?}");
    assert_exit(&near_rpc(&["completions", "ZSH"]), 0);
    assert_exit(&near_rpc(&["completions", "cmd"]), 2);
}

#[test]
fn environment_variables_give_the_url_and_the_key() {
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let url = server.url(&format!("/{PATH_KEY}"));
    let env = [
        ("NEAR_RPC_URL", url.as_str()),
        ("NEAR_RPC_API_KEY", HEADER_KEY),
    ];
    let out = near_rpc_with_env(&["protocol-config"], &env, b"");
    assert_exit(&out, 0);
    let request = server.only_request();
    assert_eq!(request.header("x-api-key"), Some(HEADER_KEY));
    assert!(request.path.starts_with(&format!("/{PATH_KEY}")));

    // Neither value is shown in --help.
    let out = near_rpc_with_env(&["--help"], &env, b"");
    assert_exit(&out, 0);
    assert!(out.stdout.contains("NEAR_RPC_API_KEY"), "{out:?}");
    assert!(out.stdout.contains("NEAR_RPC_URL"), "{out:?}");
    out.assert_hides(HEADER_KEY);
    out.assert_hides(PATH_KEY);

    // --network wins over NEAR_RPC_URL; --url replaces it.
    let out = near_rpc_with_env(&["--network", "mock", "status"], &env, b"");
    assert_exit(&out, 0);
    assert_eq!(out.json()["chain_id"], "mock");
    let other = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let out = near_rpc_with_env(&["--url", &other.url(""), "protocol-config"], &env, b"");
    assert_exit(&out, 0);
    assert_eq!(other.only_request().header("x-api-key"), Some(HEADER_KEY));
    assert_eq!(server.seen().len(), 1);

    // The key from the environment goes to the first URL only.
    let first = Server::start(vec![Reply::html(503, HTML_503)]);
    let second = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let out = near_rpc_with_env(
        &[
            "--url",
            &first.url(""),
            "--url",
            &second.url(""),
            "--retries",
            "0",
            "protocol-config",
        ],
        &[("NEAR_RPC_API_KEY", HEADER_KEY)],
        b"",
    );
    assert_exit(&out, 0);
    assert_eq!(first.only_request().header("x-api-key"), Some(HEADER_KEY));
    assert_eq!(second.only_request().header("x-api-key"), None);

    // A key from the environment is not echoed by a usage error either.
    let out = near_rpc_with_env(&["status", HEADER_KEY], &env, b"");
    assert_exit(&out, 2);
    out.assert_hides(HEADER_KEY);
    out.assert_hides(PATH_KEY);
}

#[test]
fn clap_errors_never_echo_a_key() {
    let key = "a1b2c3d4e5f60718a1b2";
    let cases: [&[&str]; 8] = [
        &["--api-kee", key, "status"],
        &["--token", key, "status"],
        &["--token=a1b2c3d4e5f60718a1b2", "status"],
        &["statsu", key],
        &["acount", key, "--api-key", HEADER_KEY],
        &["--api-key", HEADER_KEY, "--api-key", HEADER_KEY, "status"],
        &["--api-key", HEADER_KEY, "status", HEADER_KEY],
        &[
            "--url",
            &format!("http://h.io/{PATH_KEY}"),
            "status",
            "--url",
        ],
    ];
    for args in cases {
        let out = near_rpc(args);
        assert_exit(&out, 2);
        assert!(out.stderr.starts_with("near-rpc: "), "{out:?}");
        assert!(out.stderr.contains("--help"), "{out:?}");
        out.assert_hides(key);
        out.assert_hides(HEADER_KEY);
        out.assert_hides(PATH_KEY);
    }
}

/// A URL whose scheme is not literally followed by `//` (`https:KEY@host`, which the URL
/// standard reads as a host), or that has a backslash, is refused before anything is
/// sent, by every command that reaches a node (`record`'s upstream too): exit 2, the
/// option or variable named, no part of the URL printed.
#[test]
fn urls_without_two_slashes_are_refused_naming_the_option() {
    const KEY: &str = "ApIkEy0123secret";
    let out_file = std::env::temp_dir().join(format!("near-rpc-cli-{}.jsonl", std::process::id()));
    let out_file = out_file.to_str().unwrap();
    let urls = [
        (
            format!("https:{KEY}@rpc.example.org"),
            "the scheme must be followed by //",
        ),
        (
            format!("https:{KEY}/v1"),
            "the scheme must be followed by //",
        ),
        (format!("http:/{KEY}"), "the scheme must be followed by //"),
        (format!("https:\\\\{KEY}.example.org/"), "backslash"),
        (format!("https://rpc.example.org\\{KEY}"), "backslash"),
    ];
    let commands: [&[&str]; 3] = [&["status"], &["record", "--out", out_file], &["gas-price"]];
    for (url, why) in &urls {
        for command in commands {
            let args = [&["--url", url.as_str()][..], command].concat();
            let out = near_rpc(&args);
            assert_exit(&out, 2);
            assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
            assert!(out.stderr.contains("--url: "), "{args:?}: {out:?}");
            assert!(out.stderr.contains(why), "{args:?}: {out:?}");
            out.assert_hides(KEY);
            out.assert_hides(&KEY.to_lowercase());
            out.assert_hides("example");
        }
        let out = near_rpc_with_env(&["status"], &[("NEAR_RPC_URL", url)], b"");
        assert_exit(&out, 2);
        assert!(
            out.stderr
                .contains("the environment variable NEAR_RPC_URL: "),
            "{out:?}"
        );
        assert!(out.stderr.contains(why), "{out:?}");
        out.assert_hides(KEY);
        out.assert_hides(&KEY.to_lowercase());
    }
    assert!(!std::path::Path::new(out_file).exists());
}

#[test]
fn enum_values_are_case_insensitive() {
    let server = Server::start(vec![Reply::json(TX_INCLUDED)]);
    let prefix = at(&server.url(""));
    for (level, wire) in [
        ("final", "FINAL"),
        ("Executed_Optimistic", "EXECUTED_OPTIMISTIC"),
    ] {
        let out = run(
            &prefix,
            &["tx-status", "--signed-tx", "AAAA", "--wait-until", level],
        );
        assert_exit(&out, 0);
        assert_eq!(
            server.seen().last().unwrap().json()["params"]["wait_until"],
            wire
        );
    }
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let out = run(
        &at(&server.url("")),
        &["protocol-config", "--finality", "FINAL"],
    );
    assert_exit(&out, 0);
    assert_eq!(
        server.only_request().json()["params"],
        json!({"finality": "final"})
    );
}

#[test]
fn transport_failures_hint_only_for_the_default_endpoint() {
    let out = near_rpc(&["--url", &refused_url(), "--retries", "0", "status"]);
    assert_exit(&out, 5);
    assert!(!out.stderr.contains("hint:"), "{out:?}");
    assert_one_line(&out.stderr);
}

#[test]
fn call_without_params_and_with_positional_params() {
    let server = Server::start(vec![Reply::json(
        r#"{"jsonrpc":"2.0","id":"1","result":{"gas_price":"100000000"}}"#,
    )]);
    let prefix = at(&server.url(""));
    let out = run(&prefix, &["call", "gas_price"]);
    assert_exit(&out, 0);
    assert_eq!(out.json(), json!({"gas_price": "100000000"}));
    let out = run(&prefix, &["call", "gas_price", "[17824600]"]);
    assert_exit(&out, 0);
    let out = run(&prefix, &["call", "gas_price", "[null]"]);
    assert_exit(&out, 0);
    let seen = server.seen();
    assert_eq!(seen[0].json()["params"], json!({}));
    assert_eq!(seen[1].json()["params"], json!({"block_id": 17824600}));
    assert_eq!(seen[2].json()["params"], json!({}));

    let out = run(&prefix, &["call", "query", r#"["account/alice.near", ""]"#]);
    assert_exit(&out, 2);
    assert!(
        out.stderr.contains(r#"{"request_type": "view_account""#),
        "the object form is shown: {out:?}"
    );
    let out = run(&prefix, &["call", "gas_price", "[1, 2]"]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains(r#"{"block_id": "#), "{out:?}");
    assert_eq!(server.seen().len(), 3);

    // Methods without params: status, health, network_info (and `[]`).
    for method in ["status", "network_info"] {
        assert_exit(&mock(&["call", method]), 0);
    }
    assert_exit(&mock(&["call", "health", "[]"]), 0);
    let out = mock(&["call", "tx", &format!(r#"["{HASH}", "alice.mock"]"#)]);
    assert!(
        out.code == 0 || out.code == 3,
        "read as its typed request: {out:?}"
    );
}

// --- writes: sign, send, transfer ---------------------------------------------------

/// A near-cli credential file for `account` with the mock's key of `key_of`, in a fresh
/// directory; returns its path and the secret key's text (which must never be printed).
fn key_file(account: &str, key_of: &str) -> (std::path::PathBuf, String) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "near-rpc-cli-keys-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let key = near_rpc_mock::chain::secret_key(key_of);
    let secret = key.to_secret_string().to_string();
    let path = dir.join(format!("{account}.json"));
    let body = json!({"account_id": account, "public_key": key.public_key().to_string(), "private_key": secret});
    std::fs::write(&path, body.to_string()).unwrap();
    (path, secret)
}

/// The parts of a secret key's text that must never appear: its data, and a long run
/// of it.
fn assert_hides_key(out: &support::Run, secret: &str) {
    let data = secret.split_once(':').unwrap().1;
    out.assert_hides(data);
    out.assert_hides(&data[..24]);
    out.assert_hides(&data[data.len() - 24..]);
}

#[test]
fn sign_prints_the_signed_transaction_and_its_hash() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let out = near_rpc(&[
        "sign",
        "--key-file",
        file,
        "--nonce",
        "8",
        "--block-hash",
        HASH,
        "--receiver",
        "bob.mock",
        r#"["CreateAccount", {"Transfer": {"deposit": "1000"}}]"#,
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.stdout.lines().count(), 1, "{out:?}");
    let printed = out.json();
    let signed =
        near_rpc::tx::SignedTransaction::from_base64(printed["signed_tx_base64"].as_str().unwrap())
            .unwrap();
    assert!(signed.verify());
    assert_eq!(printed["hash"], signed.hash().to_string());
    // The fields in the order the issue gives: the transaction, then its hash.
    assert_eq!(
        out.stdout,
        format!(
            "{{\"signed_tx_base64\":\"{}\",\"hash\":\"{}\"}}\n",
            signed.to_base64(),
            signed.hash()
        )
    );
    let tx = signed.transaction();
    assert_eq!(tx.signer_id(), "alice.mock");
    assert_eq!(tx.receiver_id(), "bob.mock");
    assert_eq!(tx.nonce(), 8);
    assert_eq!(tx.block_hash().to_string(), HASH);
    assert_eq!(
        tx.actions(),
        &[
            near_rpc::tx::Action::CreateAccount,
            near_rpc::tx::Action::transfer(near_rpc::NearToken::from_yoctonear(1000))
        ]
    );
    assert!(out.stderr.is_empty(), "{out:?}");
    assert_hides_key(&out, &secret);
    // --signer may name the key file's account, and nothing else.
    let same = near_rpc(&[
        "sign",
        "--key-file",
        file,
        "--nonce",
        "8",
        "--block-hash",
        HASH,
        "--receiver",
        "bob.mock",
        "--signer",
        "alice.mock",
        r#"["CreateAccount"]"#,
    ]);
    assert_exit(&same, 0);
}

/// Borsh of an account id (its u32 length, then its bytes), written out by hand so that
/// the layouts below do not lean on the library's encoder.
fn borsh_str(text: &str) -> Vec<u8> {
    let mut bytes = (text.len() as u32).to_le_bytes().to_vec();
    bytes.extend_from_slice(text.as_bytes());
    bytes
}

/// Borsh of an ed25519 public key: the key type 0, then its 32 bytes.
fn borsh_ed25519(key: &near_rpc::PublicKey) -> Vec<u8> {
    let mut bytes = vec![0];
    bytes.extend_from_slice(key.as_bytes());
    bytes
}

/// `--nonce-index` and `--nonce-mode` make nearcore's `TransactionV1` (the index as a
/// `GasKeyNonce`, the mode monotonic unless told); neither makes `TransactionV0`. Each
/// is read back with the library's decoder field by field, and its bytes are compared
/// with the layout of nearcore's `core/primitives/src/transaction.rs` written out here
/// (the tag 1, `TransactionNonce` as tag 0 `Nonce { nonce }` or tag 1 `GasKeyNonce
/// { nonce, nonce_index: u16 }`, `nonce_mode` last, 0 monotonic and 1 strict): no
/// public suite has vectors for version 1.
#[test]
fn sign_with_a_nonce_index_or_mode_signs_a_version_1_transaction() {
    use near_rpc::tx::{NonceMode, Transaction, TransactionNonce};
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let public = near_rpc_mock::chain::secret_key("alice.mock").public_key();
    // The options, and the version-1 nonce and mode they make (none: version 0).
    type Expected = Option<(TransactionNonce, NonceMode)>;
    let cases: [(&[&str], Expected); 6] = [
        (&[], None),
        (
            &["--nonce-index", "3"],
            Some((
                TransactionNonce::GasKeyNonce {
                    nonce: 8,
                    nonce_index: 3,
                },
                NonceMode::Monotonic,
            )),
        ),
        (
            &["--nonce-index", "65535", "--nonce-mode", "strict"],
            Some((
                TransactionNonce::GasKeyNonce {
                    nonce: 8,
                    nonce_index: 65535,
                },
                NonceMode::Strict,
            )),
        ),
        (
            &["--nonce-mode", "STRICT"],
            Some((TransactionNonce::Nonce { nonce: 8 }, NonceMode::Strict)),
        ),
        (
            &["--nonce-mode", "monotonic"],
            Some((TransactionNonce::Nonce { nonce: 8 }, NonceMode::Monotonic)),
        ),
        (
            &["--nonce-index", "0", "--nonce-mode", "monotonic"],
            Some((
                TransactionNonce::GasKeyNonce {
                    nonce: 8,
                    nonce_index: 0,
                },
                NonceMode::Monotonic,
            )),
        ),
    ];
    for (options, expected) in cases {
        let mut args = vec![
            "sign",
            "--key-file",
            file,
            "--nonce",
            "8",
            "--block-hash",
            HASH,
            "--receiver",
            "bob.mock",
        ];
        args.extend_from_slice(options);
        args.push(r#"[{"Transfer": {"deposit": "1000"}}]"#);
        let out = near_rpc(&args);
        assert_exit(&out, 0);
        assert!(out.stderr.is_empty(), "{out:?}");
        assert_hides_key(&out, &secret);
        let printed = out.json();
        let text = printed["signed_tx_base64"].as_str().unwrap();
        let signed = near_rpc::tx::SignedTransaction::from_base64(text).unwrap();
        assert!(signed.verify(), "{options:?}");
        assert_eq!(printed["hash"], signed.hash().to_string());
        let transfer = near_rpc::tx::Action::transfer(near_rpc::NearToken::from_yoctonear(1000));
        // The layout, by hand: the transfer is tag 3 and a u128.
        let mut action = vec![1, 0, 0, 0, 3];
        action.extend_from_slice(&1000u128.to_le_bytes());
        let mut layout = Vec::new();
        match (signed.transaction(), expected) {
            (Transaction::V0(tx), None) => {
                assert_eq!(tx.signer_id, "alice.mock");
                assert_eq!(tx.public_key, public);
                assert_eq!(tx.nonce, 8);
                assert_eq!(tx.receiver_id, "bob.mock");
                assert_eq!(tx.block_hash.to_string(), HASH);
                assert_eq!(tx.actions, [transfer]);
                layout.extend(borsh_str("alice.mock"));
                layout.extend(borsh_ed25519(&public));
                layout.extend(8u64.to_le_bytes());
                layout.extend(borsh_str("bob.mock"));
                layout.extend([0; 32]);
                layout.extend(&action);
            }
            (Transaction::V1(tx), Some((nonce, mode))) => {
                assert_eq!(tx.signer_id, "alice.mock");
                assert_eq!(tx.public_key, public);
                assert_eq!(tx.nonce, nonce, "{options:?}");
                assert_eq!(tx.receiver_id, "bob.mock");
                assert_eq!(tx.block_hash.to_string(), HASH);
                assert_eq!(tx.actions, [transfer]);
                assert_eq!(tx.nonce_mode, mode, "{options:?}");
                layout.push(1);
                layout.extend(borsh_str("alice.mock"));
                layout.extend(borsh_ed25519(&public));
                match nonce {
                    TransactionNonce::Nonce { nonce } => {
                        layout.push(0);
                        layout.extend(nonce.to_le_bytes());
                    }
                    TransactionNonce::GasKeyNonce { nonce, nonce_index } => {
                        layout.push(1);
                        layout.extend(nonce.to_le_bytes());
                        layout.extend(nonce_index.to_le_bytes());
                    }
                }
                layout.extend(borsh_str("bob.mock"));
                layout.extend([0; 32]);
                layout.extend(&action);
                layout.push(match mode {
                    NonceMode::Monotonic => 0,
                    NonceMode::Strict => 1,
                });
            }
            (tx, expected) => panic!("{options:?}: {tx:?}, expected {expected:?}"),
        }
        // The signed bytes: the transaction, then the ed25519 signature (type 0, 64 bytes).
        let bytes = signed.to_borsh();
        assert_eq!(bytes.len(), layout.len() + 65, "{options:?}");
        assert_eq!(&bytes[..layout.len()], &layout[..], "{options:?}");
        assert_eq!(bytes[layout.len()], 0, "an ed25519 signature");
        assert_eq!(
            signed.hash(),
            near_rpc::CryptoHash::hash_bytes(&layout),
            "the hash is sha256 of the transaction's bytes"
        );
    }
}

/// A nonce index over 65535, negative or not a number, and a nonce mode nearcore does
/// not have: exit 2, nothing on stdout, the option named.
#[test]
fn sign_refuses_bad_nonce_indexes_and_modes() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["--nonce-index", "65536"],
            "invalid value '65536' for '--nonce-index <I>'",
        ),
        (&["--nonce-index", "-1"], "a nonce index cannot be negative"),
        (&["--nonce-index", "1.5"], "expected a nonce index"),
        (&["--nonce-index", "x"], "for '--nonce-index <I>'"),
        (
            &["--nonce-mode", "lax"],
            "invalid value 'lax' for '--nonce-mode <MODE>'",
        ),
        (&["--nonce-mode", ""], "--nonce-mode"),
    ];
    for (options, expected) in cases {
        let mut args = vec![
            "sign",
            "--key-file",
            file,
            "--nonce",
            "8",
            "--block-hash",
            HASH,
            "--receiver",
            "bob.mock",
        ];
        args.extend_from_slice(options);
        args.push(r#"["CreateAccount"]"#);
        let out = near_rpc(&args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains(expected), "{expected}: {out:?}");
        assert_hides_key(&out, &secret);
    }
}

/// The key of near-api-js's "test sign delegate action" (test/unit/transactions/
/// serialize.test.ts at 652c3c31f44d27e0354612ce6cf37282675b1ffc).
const NEAR_API_JS_DELEGATE_KEY: &str = "ed25519:3FyRtUUMxiNT1g2ST6mbj7W1CN7KfQBbomawC7YG4A1zwHmw2TRsn1Wc8NaFcBCoJDu3zt3znJDSwKQ31oRaKXH7";

/// A credential file for `account` holding `secret`, in a fresh directory.
fn key_file_with(account: &str, secret: &str) -> std::path::PathBuf {
    let key: near_rpc::tx::SecretKey = secret.parse().unwrap();
    let dir =
        std::env::temp_dir().join(format!("near-rpc-cli-key-{}-{account}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{account}.json"));
    let body = json!({"account_id": account, "public_key": key.public_key().to_string(), "private_key": secret});
    std::fs::write(&path, body.to_string()).unwrap();
    path
}

/// `sign-delegate` prints `{"signed_delegate_action_base64", "hash"}`: the borsh of the
/// `SignedDelegateAction`, read back field by field with the library's decoder and
/// compared with nearcore's layout (`core/primitives/src/action/delegate.rs`: sender,
/// receiver, actions, nonce, max_block_height, public_key, then the signature), and the
/// NEP-461 hash that was signed (sha256 of the u32 2^30 + 366 and the delegate action's
/// bytes), which the signature verifies over.
#[test]
fn sign_delegate_prints_the_signed_delegate_action_and_the_hash_signed() {
    use near_rpc::tx::{Action, SignedDelegateAction};
    let file = key_file_with("sender.testnet", NEAR_API_JS_DELEGATE_KEY);
    let file = file.to_str().unwrap();
    let key: near_rpc::tx::SecretKey = NEAR_API_JS_DELEGATE_KEY.parse().unwrap();
    let out = near_rpc(&[
        "sign-delegate",
        "--key-file",
        file,
        "--nonce",
        "1",
        "--max-block-height",
        "1848319858",
        "--receiver",
        "receiver.testnet",
        r#"[{"Transfer": {"deposit": "1000"}}]"#,
    ]);
    assert_exit(&out, 0);
    assert!(out.stderr.is_empty(), "{out:?}");
    out.assert_hides(NEAR_API_JS_DELEGATE_KEY.split_once(':').unwrap().1);
    let printed = out.json();
    let text = printed["signed_delegate_action_base64"].as_str().unwrap();
    // One line, the two members in the issue's order.
    assert_eq!(
        out.stdout,
        format!(
            "{{\"signed_delegate_action_base64\":\"{text}\",\"hash\":\"{}\"}}\n",
            printed["hash"].as_str().unwrap()
        )
    );
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap();
    let signed = SignedDelegateAction::from_borsh(&bytes).unwrap();
    let action = &signed.delegate_action;
    assert_eq!(action.sender_id, "sender.testnet");
    assert_eq!(action.receiver_id, "receiver.testnet");
    let [inner] = &action.actions[..] else {
        panic!("{action:?}")
    };
    assert_eq!(
        inner.action(),
        &Action::transfer(near_rpc::NearToken::from_yoctonear(1000))
    );
    assert_eq!(action.nonce, 1);
    assert_eq!(action.max_block_height, 1_848_319_858);
    assert_eq!(action.public_key, key.public_key());
    assert!(signed.verify());
    // The layout by hand, and the hash signed.
    let mut layout = borsh_str("sender.testnet");
    layout.extend(borsh_str("receiver.testnet"));
    layout.extend([1, 0, 0, 0, 3]);
    layout.extend(1000u128.to_le_bytes());
    layout.extend(1u64.to_le_bytes());
    layout.extend(1_848_319_858u64.to_le_bytes());
    layout.extend(borsh_ed25519(&key.public_key()));
    assert_eq!(&bytes[..layout.len()], &layout[..]);
    assert_eq!(bytes.len(), layout.len() + 65);
    let mut signable = ((1u32 << 30) + 366).to_le_bytes().to_vec();
    signable.extend(&layout);
    let hash = near_rpc::CryptoHash::hash_bytes(&signable);
    assert_eq!(printed["hash"], hash.to_string());
    assert_eq!(action.signable_hash(), hash);
    assert!(near_rpc::tx::verify(
        &key.public_key(),
        &hash.0,
        &signed.signature
    ));
    // With no actions the delegate action is near-api-js's published one: the hash is
    // the test's. ACTIONS_JSON needs one action, so the library signs it here.
    let empty = near_rpc::tx::DelegateAction {
        actions: vec![],
        ..action.clone()
    };
    let published = "6d35575b3566fddf04f79317c3e574eb89c5bc228c5e755f2a3179e164dbb36b";
    let published: Vec<u8> = (0..published.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&published[i..i + 2], 16).unwrap())
        .collect();
    assert_eq!(empty.signable_hash().0.to_vec(), published);
}

/// `sign-delegate` refuses a delegate action among the actions (one cannot hold
/// another), a `--signer` that is not the key file's account, and bad numbers: exit 2,
/// nothing on stdout.
#[test]
fn sign_delegate_refuses_a_nested_delegate_action_and_bad_input() {
    use near_rpc::tx::{Action, DelegateAction, NonDelegateAction};
    let (file, secret) = key_file("bob.mock", "bob.mock");
    let file = file.to_str().unwrap();
    let carol = near_rpc_mock::chain::secret_key("carol.mock");
    let nested = DelegateAction {
        sender_id: "carol.mock".parse().unwrap(),
        receiver_id: "app.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
        nonce: 1,
        max_block_height: 100,
        public_key: carol.public_key(),
    }
    .sign(&carol);
    let view = near_rpc::types::ActionView::from(&Action::Delegate(Box::new(nested)));
    let nested = json!(["CreateAccount", view]).to_string();
    let sign = |extra: &[&str], actions: &str| {
        let mut args = vec![
            "sign-delegate",
            "--key-file",
            file,
            "--nonce",
            "1",
            "--max-block-height",
            "1000",
            "--receiver",
            "alice.mock",
        ];
        args.extend_from_slice(extra);
        args.push(actions);
        near_rpc(&args)
    };
    let cases = [
        (
            sign(&[], &nested),
            "ACTIONS_JSON: [1]: a delegate action cannot contain another delegate action",
        ),
        (
            sign(&["--signer", "alice.mock"], r#"["CreateAccount"]"#),
            "--signer alice.mock: the key file is for bob.mock",
        ),
        (sign(&[], "[]"), "ACTIONS_JSON: no actions"),
    ];
    for (out, expected) in cases {
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains(expected), "{expected}: {out:?}");
        assert_hides_key(&out, &secret);
    }
    let out = near_rpc(&[
        "sign-delegate",
        "--key-file",
        file,
        "--nonce",
        "1",
        "--max-block-height",
        "-5",
        "--receiver",
        "alice.mock",
        r#"["CreateAccount"]"#,
    ]);
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains("--max-block-height <H>"), "{out:?}");
}

/// The nonce of `account`'s mock key, as `access-key` reads it from the node at `url`.
fn key_nonce(url: &str, account: &str) -> u64 {
    let public = near_rpc_mock::chain::secret_key(account)
        .public_key()
        .to_string();
    let out = near_rpc(&["--url", url, "access-key", account, &public]);
    assert_exit(&out, 0);
    out.json()["nonce"].as_u64().unwrap()
}

/// The balance of `account` on the node at `url`, in yoctoNEAR.
fn balance(url: &str, account: &str) -> u128 {
    let out = near_rpc(&["--url", url, "account", account]);
    assert_exit(&out, 0);
    out.json()["amount"].as_str().unwrap().parse().unwrap()
}

/// `relay` sends what `sign-delegate` printed, as the relayer: one transaction from the
/// relayer to the delegate's sender holding exactly that delegate action, through the
/// write path; the mock executes it (bob's transfer reaches the contract, the relayer
/// pays for it) and the outcome is printed as `send` prints it. Relayed again, the spent nonce
/// fails on chain: exit 3, the outcome on stdout, the failure on stderr.
#[test]
fn relay_submits_a_signed_delegate_action_as_the_relayer() {
    use near_rpc::tx::{Action, SignedDelegateAction};
    let (bob_file, bob_secret) = key_file("bob.mock", "bob.mock");
    let (relayer_file, relayer_secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    let url = server.url();
    let nonce = key_nonce(url, "bob.mock") + 1;
    let out = near_rpc(&[
        "sign-delegate",
        "--key-file",
        bob_file.to_str().unwrap(),
        "--nonce",
        &nonce.to_string(),
        "--max-block-height",
        "100000",
        "--receiver",
        "contract.mock",
        r#"[{"Transfer": {"deposit": "1000"}}]"#,
    ]);
    assert_exit(&out, 0);
    let delegate = out.json()["signed_delegate_action_base64"]
        .as_str()
        .unwrap()
        .to_owned();
    let (bob, contract) = (balance(url, "bob.mock"), balance(url, "contract.mock"));
    let relay = || {
        near_rpc(&[
            "--url",
            url,
            "--retries",
            "0",
            "relay",
            "--key-file",
            relayer_file.to_str().unwrap(),
            "--wait-until",
            "final",
            &delegate,
        ])
    };
    let out = relay();
    assert_exit(&out, 0);
    assert_hides_key(&out, &relayer_secret);
    assert_hides_key(&out, &bob_secret);
    let outcome = out.json();
    assert_eq!(outcome["final_execution_status"], "FINAL");
    assert_eq!(outcome["transaction"]["signer_id"], "alice.mock");
    assert_eq!(outcome["transaction"]["receiver_id"], "bob.mock");
    // The node got one transaction: the relayer's, holding the delegate action as signed.
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    assert!(sent.verify());
    let tx = sent.transaction();
    assert_eq!(tx.signer_id(), "alice.mock");
    assert_eq!(tx.receiver_id(), "bob.mock");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&delegate)
        .unwrap();
    let signed = SignedDelegateAction::from_borsh(&bytes).unwrap();
    assert_eq!(tx.actions(), &[Action::Delegate(Box::new(signed))]);
    // Executed: the 1000 yoctoNEAR reached the contract, and bob paid nothing: the
    // relayer's transaction pays the delegate's deposits and the gas (nearcore counts a
    // delegate action's inner deposits in its transaction's cost).
    assert_eq!(balance(url, "contract.mock"), contract + 1000);
    assert_eq!(balance(url, "bob.mock"), bob);
    assert_eq!(key_nonce(url, "bob.mock"), nonce);
    // Again: the delegate's nonce is spent, so it fails on chain.
    let out = relay();
    assert_exit(&out, 3);
    assert!(out.stderr.contains("DelegateActionInvalidNonce"), "{out:?}");
    assert_eq!(out.json()["transaction"]["receiver_id"], "bob.mock");
    assert_one_line(&out.stderr);
    assert_eq!(sent_transactions(&node).len(), 2);
}

/// `relay` refuses, before anything is sent, a delegate action whose signature does not
/// verify, and text that is not one: exit 2, nothing on stdout, the node never asked.
#[test]
fn relay_refuses_what_it_would_pay_for_in_vain() {
    use near_rpc::tx::{Action, DelegateAction, NonDelegateAction, SignedDelegateAction};
    let (relayer_file, relayer_secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    let bob = near_rpc_mock::chain::secret_key("bob.mock");
    let signed = DelegateAction {
        sender_id: "bob.mock".parse().unwrap(),
        receiver_id: "contract.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
        nonce: 5,
        max_block_height: 100_000,
        public_key: bob.public_key(),
    }
    .sign(&bob);
    // Signed for a nonce of 5, claiming 6.
    let mut forged = signed.clone();
    forged.delegate_action.nonce = 6;
    let b64 = |signed: &SignedDelegateAction| {
        base64::engine::general_purpose::STANDARD.encode(signed.to_borsh())
    };
    let relay = |text: &str| {
        near_rpc(&[
            "--url",
            server.url(),
            "relay",
            "--key-file",
            relayer_file.to_str().unwrap(),
            text,
        ])
    };
    let mut trailing = signed.to_borsh();
    trailing.push(0);
    let trailing = base64::engine::general_purpose::STANDARD.encode(trailing);
    let cases = [
        (
            relay(&b64(&forged)),
            "SIGNED_DELEGATE_BASE64: the signature is not",
        ),
        (relay("AAAA"), "not a signed delegate action"),
        (relay(&trailing), "not a signed delegate action"),
        (
            relay("not base64!"),
            "not valid base64 for the signed delegate action",
        ),
        (relay(" "), "needs the base64 of a signed delegate action"),
    ];
    for (out, expected) in cases {
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains(expected), "{expected}: {out:?}");
        assert_hides_key(&out, &relayer_secret);
    }
    assert!(node.requests().is_empty(), "{:?}", node.requests());
}

/// A delegate action past its `max_block_height` fails on chain after the relayer paid
/// for its transaction: `relay` refuses it before signing (exit 2, nothing on stdout),
/// naming both heights, and the node gets no transaction.
#[test]
fn relay_refuses_an_expired_delegate_action_before_signing() {
    use near_rpc::tx::{Action, DelegateAction, NonDelegateAction};
    let (relayer_file, relayer_secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    let bob = near_rpc_mock::chain::secret_key("bob.mock");
    let signed = DelegateAction {
        sender_id: "bob.mock".parse().unwrap(),
        receiver_id: "contract.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
        nonce: key_nonce(server.url(), "bob.mock") + 1,
        // Below the mock chain's head (its genesis is at height 100).
        max_block_height: 101,
        public_key: bob.public_key(),
    }
    .sign(&bob);
    let out = near_rpc(&[
        "--url",
        server.url(),
        "relay",
        "--key-file",
        relayer_file.to_str().unwrap(),
        &base64::engine::general_purpose::STANDARD.encode(signed.to_borsh()),
    ]);
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr.contains("valid up to block 101") && out.stderr.contains("has expired"),
        "{out:?}"
    );
    assert_hides_key(&out, &relayer_secret);
    assert!(sent_transactions(&node).is_empty(), "{:?}", node.requests());
}

/// A key given twice in one object of any JSON the user gives (ACTIONS_JSON, --args,
/// PARAMS_JSON, a file to verify, the key file) is refused before anything is sent or
/// signed: exit 2, nothing on stdout, the key and its object's path named.
#[test]
fn repeated_json_keys_are_refused_naming_the_key_and_its_path() {
    let server = Server::start(vec![Reply::json(PROTOCOL_CONFIG)]);
    let url = server.url("");
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let key_file_path = file.to_str().unwrap();
    let sign = |actions: &str| {
        near_rpc(&[
            "sign",
            "--key-file",
            key_file_path,
            "--nonce",
            "8",
            "--block-hash",
            HASH,
            "--receiver",
            "bob.mock",
            actions,
        ])
    };
    let proof =
        std::env::temp_dir().join(format!("near-rpc-cli-proof-{}.json", std::process::id()));
    std::fs::write(&proof, r#"{"outcome_proof": {"id": "x", "id": "y"}}"#).unwrap();
    let proof = proof.to_str().unwrap();
    let cases: Vec<(support::Run, &str)> = vec![
        (
            sign(r#"["CreateAccount", {"Transfer": {"deposit": "1", "deposit": "1000"}}]"#),
            r#"ACTIONS_JSON: at [1].Transfer: key "deposit" repeated"#,
        ),
        (
            sign(r#"[{"Transfer": {"deposit": "1"}, "Transfer": {"deposit": "2"}}]"#),
            r#"ACTIONS_JSON: at [0]: key "Transfer" repeated"#,
        ),
        (
            near_rpc(&[
                "--url",
                &url,
                "view",
                "c.near",
                "m",
                "--args",
                r#"{"a": {"b": 1, "b": 2}}"#,
            ]),
            r#"at a: key "b" repeated"#,
        ),
        (
            near_rpc(&[
                "--url",
                &url,
                "call",
                "gas_price",
                r#"{"block_id": 1, "block_id": 2}"#,
            ]),
            r#"PARAMS_JSON: key "block_id" repeated"#,
        ),
        (
            near_rpc(&["verify", "proof", proof, "--block-merkle-root", HASH]),
            r#"at outcome_proof: key "id" repeated"#,
        ),
    ];
    for (out, expected) in cases {
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        assert!(out.stderr.contains(expected), "{expected}: {out:?}");
        assert_hides_key(&out, &secret);
    }
    assert!(server.seen().is_empty());
    // The key file too: the field is named, the key never shown.
    let twice = format!(
        r#"{{"account_id": "alice.mock", "private_key": "{secret}", "private_key": "{secret}"}}"#
    );
    std::fs::write(&file, twice).unwrap();
    let out = sign(r#"["CreateAccount"]"#);
    assert_exit(&out, 2);
    assert!(
        out.stderr.contains("`private_key`: given more than once"),
        "{out:?}"
    );
    assert_hides_key(&out, &secret);
}

/// A delegate action whose ed25519 signature nearcore's borsh decoding refuses (a top
/// bit of its last byte set) is refused by `sign` naming the action: no node could
/// decode the transaction. The same action properly signed is signed.
#[test]
fn sign_refuses_a_delegate_action_no_node_could_read() {
    use near_rpc::tx::{Action, DelegateAction, NonDelegateAction, SignedDelegateAction};
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let sender = near_rpc_mock::chain::secret_key("carol.mock");
    let signed = DelegateAction {
        sender_id: "carol.mock".parse().unwrap(),
        receiver_id: "app.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::CreateAccount).unwrap()],
        nonce: 1,
        max_block_height: 100,
        public_key: sender.public_key(),
    }
    .sign(&sender);
    let mut bytes: [u8; 64] = signed.signature.as_bytes().try_into().unwrap();
    bytes[63] |= 0b1000_0000;
    let unreadable = SignedDelegateAction {
        signature: near_rpc::Signature::ed25519(bytes),
        ..signed.clone()
    };
    let actions_json = |signed: SignedDelegateAction| {
        let view = near_rpc::types::ActionView::from(&Action::Delegate(Box::new(signed)));
        json!(["CreateAccount", view]).to_string()
    };
    let sign = |actions: &str| {
        near_rpc(&[
            "sign",
            "--key-file",
            file,
            "--nonce",
            "8",
            "--block-hash",
            HASH,
            "--receiver",
            "relayer.mock",
            actions,
        ])
    };
    let out = sign(&actions_json(unreadable));
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr
            .contains("ACTIONS_JSON: [1]: action.Delegate.signature: "),
        "{out:?}"
    );
    assert!(out.stderr.contains("nearcore refuses to read"), "{out:?}");
    assert_hides_key(&out, &secret);
    let out = sign(&actions_json(signed));
    assert_exit(&out, 0);
}

/// Every kind of bad input to `sign`: exit 2, nothing on stdout, the key never shown.
#[test]
fn sign_refuses_bad_input_naming_it() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let dir = std::path::Path::new(file).parent().unwrap();
    // A key file whose key is mangled, one for another account, one that is not JSON.
    let mangled = dir.join("mangled.json");
    let data = secret.split_once(':').unwrap().1;
    let bad_key = format!("ed25519:0{}", &data[1..]);
    std::fs::write(
        &mangled,
        json!({"account_id": "alice.mock", "private_key": bad_key}).to_string(),
    )
    .unwrap();
    let not_json = dir.join("not-json.json");
    std::fs::write(
        &not_json,
        format!("account_id=alice.mock private_key={secret}"),
    )
    .unwrap();
    let transfer = r#"[{"Transfer": {"deposit": "1"}}]"#;
    // Secret keys pasted into ACTIONS_JSON: the key file's own, and another account's
    // (strict decoding would quote them back: "unknown variant `ed25519:...`").
    let other = near_rpc_mock::chain::secret_key("bob.mock")
        .to_secret_string()
        .to_string();
    let other_data = other.split_once(':').unwrap().1;
    // A secp256k1 key, and the same mistyped (a character dropped: no longer a key).
    let secp = near_rpc::tx::SecretKey::secp256k1_from_bytes(&[7; 32])
        .unwrap()
        .to_secret_string()
        .to_string();
    let secp_mistyped = secp[..secp.len() - 1].to_owned();
    let pasted: Vec<(String, &str)> = [
        secret.as_str(),
        other.as_str(),
        other_data,
        secp.as_str(),
        secp_mistyped.as_str(),
    ]
    .into_iter()
    .flat_map(|key| {
        [
            (format!(r#"["{key}"]"#), "unknown variant `***`"),
            (format!(r#"[{{"{key}": {{}}}}]"#), "unknown variant `***`"),
            (
                format!(r#"[{{"Transfer": {{"deposit": "{key}"}}}}]"#),
                "deposit",
            ),
            (
                format!(r#"[{{"DeleteKey": {{"public_key": "{key}"}}}}]"#),
                "public_key",
            ),
            (format!(r#"["CreateAccount", {key}]"#), "not valid JSON"),
        ]
    })
    .collect();
    let mut cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            vec!["--key-file", file],
            "[{",
            "ACTIONS_JSON: not valid JSON",
        ),
        (
            vec!["--key-file", file],
            r#"{"Transfer": {"deposit": "1"}}"#,
            "not a JSON array",
        ),
        (vec!["--key-file", file], "[]", "no actions"),
        (
            vec!["--key-file", file],
            r#"[{"Launch": {}}]"#,
            "ACTIONS_JSON: [0]",
        ),
        (vec!["--key-file", file], r#"["Launch"]"#, "Launch"),
        (
            vec!["--key-file", file],
            r#"[{"Transfer": {"deposit": "-1"}}]"#,
            "deposit",
        ),
        (
            vec!["--key-file", file],
            r#"[{"Transfer": {"deposit": "340282366920938463463374607431768211456"}}]"#,
            "deposit",
        ),
        (
            vec!["--key-file", file],
            r#"[{"Transfer": {"deposit": "1", "memo": "x"}}]"#,
            "memo",
        ),
        (
            vec!["--key-file", file],
            r#"[{"DeployContract": {"code": "not base64!"}}]"#,
            "code",
        ),
        (
            vec!["--key-file", mangled.to_str().unwrap()],
            transfer,
            "`private_key`: bad base58",
        ),
        (
            vec!["--key-file", not_json.to_str().unwrap()],
            transfer,
            "not JSON",
        ),
        (
            vec!["--key-file", "/nonexistent/key.json"],
            transfer,
            "cannot read credentials /nonexistent/key.json",
        ),
        (vec!["--key-file", &secret], transfer, "not a key"),
        (
            vec!["--key-file", file, "--signer", "bob.mock"],
            transfer,
            "--signer bob.mock: the key file is for alice.mock",
        ),
    ];
    for (actions, expected) in &pasted {
        cases.push((vec!["--key-file", file], actions, expected));
    }
    for (options, actions, expected) in cases {
        let mut args = vec![
            "sign",
            "--nonce",
            "8",
            "--block-hash",
            HASH,
            "--receiver",
            "bob.mock",
        ];
        args.extend(options);
        args.push(actions);
        let out = near_rpc(&args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        assert!(
            out.stderr.contains(expected),
            "{args:?}: expected {expected:?}: {out:?}"
        );
        assert_hides_key(&out, &secret);
        assert_hides_key(&out, &other);
        out.assert_hides(&bad_key[8..]);
        out.assert_hides(&secp_mistyped["secp256k1:".len()..]);
    }
    // A negative or non-numeric nonce, a bad hash: clap's usage errors.
    for (option, value) in [
        ("--nonce", "-1"),
        ("--nonce", "x"),
        ("--nonce", "18446744073709551616"),
        ("--block-hash", "nothash"),
    ] {
        let mut args = vec![
            "sign",
            "--key-file",
            file,
            "--nonce",
            "8",
            "--block-hash",
            HASH,
            "--receiver",
            "bob.mock",
            transfer,
        ];
        let at = args.iter().position(|a| *a == option).unwrap();
        args[at + 1] = value;
        let out = near_rpc(&args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{out:?}");
        // The option is named; a long value may be masked as a possible key.
        assert!(
            out.stderr.contains("invalid value '")
                && out.stderr.contains(&format!("' for '{option}")),
            "{args:?}: {out:?}"
        );
        assert_hides_key(&out, &secret);
    }
}

#[test]
fn transfer_and_send_against_the_mock_node() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    for (amount, yocto, expected) in [
        ("1.5", false, "1500000000000000000000000"),
        ("0.001", false, "1000000000000000000000"),
        ("2", false, "2000000000000000000000000"),
        (".5", false, "500000000000000000000000"),
        ("17", true, "17"),
    ] {
        let mut args = vec!["transfer", "--key-file", file, "bob.mock", amount];
        if yocto {
            args.push("--yocto");
        }
        let out = mock(&args);
        assert_exit(&out, 0);
        let outcome = out.json();
        assert_eq!(
            outcome["transaction"]["actions"][0]["Transfer"]["deposit"], expected,
            "{amount}"
        );
        assert_eq!(outcome["transaction"]["signer_id"], "alice.mock");
        assert_eq!(outcome["transaction"]["receiver_id"], "bob.mock");
        // The mock's key for alice.mock had nonce 9 (its two genesis transactions).
        assert_eq!(outcome["transaction"]["nonce"], 10);
        assert_hides_key(&out, &secret);
    }
    let out = mock(&[
        "send",
        "--key-file",
        file,
        "--receiver",
        "contract.mock",
        "--wait-until",
        "final",
        r#"[{"FunctionCall": {"method_name": "set_status", "args": "eyJtZXNzYWdlIjoiaGkifQ==", "gas": 30000000000000, "deposit": "0"}}]"#,
    ]);
    assert_exit(&out, 0);
    let outcome = out.json();
    assert_eq!(outcome["final_execution_status"], "FINAL");
    assert_eq!(
        outcome["transaction"]["actions"][0]["FunctionCall"]["method_name"],
        "set_status"
    );
    assert_eq!(
        outcome["transaction_outcome"]["id"],
        outcome["transaction"]["hash"]
    );
    // NONE: the node answers before execution, with no outcome.
    let out = mock(&[
        "transfer",
        "--key-file",
        file,
        "bob.mock",
        "1",
        "--wait-until",
        "none",
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.json(), json!({"final_execution_status": "NONE"}));
}

#[test]
fn transfer_refuses_bad_amounts_and_sends_nothing() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let file = file.to_str().unwrap();
    let server = Server::start(vec![Reply::json(TX_INCLUDED)]);
    for (amount, yocto, expected) in [
        ("-1", false, "cannot be negative"),
        ("-0.5", false, "cannot be negative"),
        ("1.2.3", false, "expected a number of NEAR"),
        ("1e3", false, "expected a number of NEAR"),
        ("abc", false, "expected a number of NEAR"),
        ("", false, "expected a number of NEAR"),
        (
            "0.0000000000000000000000001",
            false,
            "more than 24 decimals",
        ),
        (
            "340282366920938463463374607431768211456",
            false,
            "too large",
        ),
        ("340282366920938463463374607431768211456", true, "too large"),
        ("1.5", true, "whole"),
        // A key pasted where the amount goes: refused, and not repeated.
        (secret.as_str(), false, "AMOUNT: expected a number of NEAR"),
    ] {
        let mut args = at(&server.url(""));
        args.extend(["transfer", "--key-file", file, "bob.near", amount].map(String::from));
        if yocto {
            args.push("--yocto".into());
        }
        let out = run(&[], &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{amount}: {out:?}");
        assert!(
            out.stderr.contains(expected),
            "{amount}: expected {expected:?}: {out:?}"
        );
        assert_hides_key(&out, &secret);
    }
    assert!(server.seen().is_empty(), "nothing was sent");
}

/// A transaction that fails on chain: the outcome on stdout, the failure on stderr,
/// exit 3. The mock executes it: a transfer to an account that does not exist.
#[test]
fn a_transaction_failing_on_chain_exits_3() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let out = mock(&[
        "transfer",
        "--key-file",
        file.to_str().unwrap(),
        "nobody.mock",
        "1",
    ]);
    assert_exit(&out, 3);
    let outcome = out.json();
    assert_eq!(outcome["transaction"]["receiver_id"], "nobody.mock");
    assert_eq!(
        outcome["status"]["Failure"]["ActionError"]["kind"],
        json!({"AccountDoesNotExist": {"account_id": "nobody.mock"}})
    );
    assert_one_line(&out.stderr);
    assert!(
        out.stderr.contains("failed on chain") && out.stderr.contains("AccountDoesNotExist"),
        "{out:?}"
    );
    assert_hides_key(&out, &secret);
}

/// A key file whose key is not an access key of its account (alice.mock's key for
/// bob.mock, or for an account that does not exist): a usage error naming --key-file,
/// the key and the account; nothing on stdout, nothing signed.
#[test]
fn a_key_file_whose_key_is_not_the_accounts_exits_2() {
    let public_key = near_rpc_mock::chain::public_key("alice.mock").to_string();
    for (account, why) in [
        ("bob.mock", ""),
        ("nobody.mock", ": the account does not exist"),
    ] {
        let (file, secret) = key_file(account, "alice.mock");
        let file = file.to_str().unwrap();
        let commands: [Vec<&str>; 2] = [
            vec!["transfer", "--key-file", file, "alice.mock", "1"],
            vec![
                "send",
                "--key-file",
                file,
                "--receiver",
                "alice.mock",
                r#"["CreateAccount"]"#,
            ],
        ];
        for args in commands {
            let out = mock(&args);
            assert_exit(&out, 2);
            assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
            let expected = format!(
                "near-rpc: --key-file: {public_key} is not an access key of {account}{why}\n"
            );
            assert!(out.stderr.starts_with(&expected), "{args:?}: {out:?}");
            assert_hides_key(&out, &secret);
        }
    }
}

/// What `send` and `transfer` do when a transaction's outcome is unknown is in their
/// help: the JSON on stdout and exit 5.
#[test]
fn send_and_transfer_help_tell_of_the_unresolved_outcome() {
    for command in ["send", "transfer"] {
        let out = near_rpc(&[command, "--help"]);
        assert_exit(&out, 0);
        let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(r#"`{"unresolved": HASH, "signed_tx_base64": ...}` is printed on stdout and the exit status is 5"#),
            "{command}: {help}"
        );
    }
    let out = near_rpc(&["--help"]);
    let help = out.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains(r#"{"unresolved": HASH"#), "{help}");
}

/// A mock node for the write tests, serving from a thread of its own and producing
/// blocks at once.
fn write_node() -> (near_rpc_mock::MockNode, near_rpc_mock::BackgroundServer) {
    let node = near_rpc_mock::MockNode::new();
    node.set_block_time(Duration::ZERO);
    let server = node.serve_in_background(0).expect("listen on loopback");
    (node, server)
}

/// The signed transaction in a `send_tx` request's params.
fn sent_transaction(params: &Value) -> near_rpc::tx::SignedTransaction {
    let text = params["signed_tx_base64"]
        .as_str()
        .expect("signed_tx_base64");
    near_rpc::tx::SignedTransaction::from_base64(text).expect("a signed transaction")
}

/// The transactions a node was sent, in order.
fn sent_transactions(node: &near_rpc_mock::MockNode) -> Vec<near_rpc::tx::SignedTransaction> {
    node.requests_for("send_tx")
        .iter()
        .map(|r| sent_transaction(&r.params()))
        .collect()
}

/// Stdout's first line, the transaction a failed write is about (`{STATE: HASH,
/// "signed_tx_base64": ...}`, exactly those two members), checked against `expected`;
/// returns the rest of stdout.
fn assert_transaction_line<'a>(
    out: &'a support::Run,
    state: &str,
    expected: &near_rpc::tx::SignedTransaction,
) -> &'a str {
    let (first, rest) = out.stdout.split_once('\n').unwrap_or((&out.stdout, ""));
    // One line, the state first, as the help shows it.
    assert!(
        first.starts_with(&format!(r#"{{"{state}":"#)),
        "stdout's first line is not `{{\"{state}\": ...`: {out:?}"
    );
    let line: Value = serde_json::from_str(first)
        .unwrap_or_else(|e| panic!("stdout's first line is not JSON ({e}): {out:?}"));
    let hash = expected.hash().to_string();
    let members: Vec<&String> = line
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(members.len(), 2, "{out:?}");
    assert_eq!(line[state], hash, "{out:?}");
    let bytes = line["signed_tx_base64"].as_str().expect("signed_tx_base64");
    let signed = near_rpc::tx::SignedTransaction::from_base64(bytes).expect("its bytes decode");
    assert_eq!(
        signed.hash().to_string(),
        hash,
        "the bytes are the transaction named"
    );
    assert_eq!(
        signed.to_borsh(),
        expected.to_borsh(),
        "the bytes the node received"
    );
    rest
}

/// `send` and `transfer` with `--nonce-mode` send a version-1 transaction with a plain
/// nonce in that mode: the key's nonce + 1 and a final block hash as the write path
/// reads them, the outcome printed as for version 0. A refusal prints the `rejected`
/// line with the version-1 bytes, exit 3, and nothing is signed again.
#[test]
fn send_and_transfer_with_a_nonce_mode_send_a_version_1_transaction() {
    use near_rpc::tx::{NonceMode, Transaction, TransactionNonce};
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    let url = server.url();
    let nonce = key_nonce(url, "alice.mock");
    let mut transfer = transfer_args(url, &file);
    transfer.extend(["--nonce-mode".to_owned(), "strict".to_owned()]);
    let send = [
        "send",
        "--key-file",
        file.to_str().unwrap(),
        "--receiver",
        "contract.mock",
        "--nonce-mode",
        "Monotonic",
        r#"[{"FunctionCall": {"method_name": "set_status", "args": "eyJtZXNzYWdlIjoiaGkifQ==", "gas": 30000000000000, "deposit": "0"}}]"#,
    ];
    let runs = [
        (run(&[], &as_strs(&transfer)), NonceMode::Strict, "bob.mock"),
        (run(&at(url), &send), NonceMode::Monotonic, "contract.mock"),
    ];
    let sent = sent_transactions(&node);
    assert_eq!(sent.len(), 2, "{:?}", node.requests());
    for (i, ((out, mode, receiver), sent)) in runs.iter().zip(&sent).enumerate() {
        assert_exit(out, 0);
        assert_hides_key(out, &secret);
        let outcome = out.json();
        assert_eq!(outcome["transaction"]["hash"], sent.hash().to_string());
        assert!(sent.verify());
        let Transaction::V1(tx) = sent.transaction() else {
            panic!("not version 1: {sent:?}")
        };
        assert_eq!(tx.signer_id, "alice.mock");
        assert_eq!(tx.receiver_id, *receiver);
        assert_eq!(
            tx.nonce,
            TransactionNonce::Nonce {
                nonce: nonce + 1 + i as u64
            }
        );
        assert_eq!(tx.nonce_mode, *mode);
    }
    assert_eq!(key_nonce(url, "alice.mock"), nonce + 2);
    // Refused: the rejected line carries the version-1 bytes; one send_tx, no re-sign.
    node.on("send_tx", |_| {
        near_rpc_mock::Reply::Error(near_rpc_mock::RpcError {
            status: 200,
            error: json!({
                "name": "HANDLER_ERROR",
                "cause": {"name": "INVALID_TRANSACTION", "info": {"InvalidSignerId": {"signer_id": "alice.mock"}}},
                "code": -32000,
                "message": "Server error",
                "data": {"TxExecutionError": {"InvalidTxError": {"InvalidSignerId": {"signer_id": "alice.mock"}}}}
            }),
        })
    });
    let out = run(&[], &as_strs(&transfer));
    assert_exit(&out, 3);
    let sent = sent_transactions(&node);
    assert_eq!(sent.len(), 3, "{:?}", node.requests());
    assert!(
        matches!(sent[2].transaction(), Transaction::V1(tx) if tx.nonce_mode == NonceMode::Strict)
    );
    assert_transaction_line(&out, "rejected", &sent[2]);
    assert_hides_key(&out, &secret);
    // An unknown mode is a usage error: nothing sent.
    let mut bad = transfer_args(url, &file);
    bad.extend(["--nonce-mode".to_owned(), "lax".to_owned()]);
    let out = run(&[], &as_strs(&bad));
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(sent_transactions(&node).len(), 3);
}

/// A transfer the node refuses for the transaction's own bytes (`InvalidSignerId`):
/// final without a lookup. Exit 3; stdout is the `rejected` line, then the node's error
/// as for any call; the node got one `send_tx` and no status query.
#[test]
fn a_refused_transfer_prints_the_rejected_transaction_then_the_error_and_exits_3() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    node.on("send_tx", |_| {
        near_rpc_mock::Reply::Error(near_rpc_mock::RpcError {
            status: 200,
            error: json!({
                "name": "HANDLER_ERROR",
                "cause": {"name": "INVALID_TRANSACTION", "info": {"InvalidSignerId": {"signer_id": "alice.mock"}}},
                "code": -32000,
                "message": "Server error",
                "data": {"TxExecutionError": {"InvalidTxError": {"InvalidSignerId": {"signer_id": "alice.mock"}}}}
            }),
        })
    });
    let out = run(&[], &as_strs(&transfer_args(server.url(), &file)));
    assert_exit(&out, 3);
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    let rest = assert_transaction_line(&out, "rejected", sent);
    let error: Value = serde_json::from_str(rest)
        .unwrap_or_else(|e| panic!("the rest of stdout is not the error ({e}): {out:?}"));
    assert_eq!(error["cause"]["name"], "INVALID_TRANSACTION", "{out:?}");
    assert_eq!(
        error["cause"]["info"]["InvalidSignerId"]["signer_id"],
        "alice.mock"
    );
    assert!(
        node.requests_for("EXPERIMENTAL_tx_status").is_empty(),
        "no lookup"
    );
    assert!(node.requests_for("tx").is_empty(), "no lookup");
    assert_one_line(&out.stderr);
    assert!(out.stderr.contains("InvalidSignerId"), "{out:?}");
    assert_hides_key(&out, &secret);
}

/// A node that executes the transfer, then drops the connection on every `send_tx` and
/// every status query: exit 5, stdout the `unresolved` line naming the transaction the
/// node executed, with its bytes. (The client's five lookups wait 1 + 2 + 4 + 8 s on the
/// wall clock: the binary cannot be given a paused one.)
#[test]
fn a_transfer_whose_answers_are_all_lost_prints_the_unresolved_transaction_and_exits_5() {
    use near_rpc_mock::{Fault, FaultRule};
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    node.inject(FaultRule::new(Fault::DropConnection).for_method("send_tx"));
    node.inject(FaultRule::new(Fault::DropConnection).for_method("EXPERIMENTAL_tx_status"));
    let out = run(&[], &as_strs(&transfer_args(server.url(), &file)));
    assert_exit(&out, 5);
    let sent = sent_transactions(&node);
    let first = sent.first().expect("a send_tx");
    // Only ever the same bytes.
    assert!(
        sent.iter().all(|s| s.to_borsh() == first.to_borsh()),
        "{sent:?}"
    );
    let rest = assert_transaction_line(&out, "unresolved", first);
    assert!(rest.trim().is_empty(), "{out:?}");
    // It is the one the node executed, and the only one.
    let executed: Vec<String> = node.with_chain(|chain| {
        chain
            .transactions
            .iter()
            .filter(|t| t.signed_view["nonce"] == 10)
            .map(|t| t.hash.to_string())
            .collect()
    });
    assert_eq!(executed, [first.hash().to_string()]);
    assert!(
        !node.requests_for("EXPERIMENTAL_tx_status").is_empty(),
        "looked up"
    );
    assert!(out.stderr.contains(&first.hash().to_string()), "{out:?}");
    assert_hides_key(&out, &secret);
}

/// A send answered with the level alone (`{"final_execution_status": ...}`, no outcome)
/// is no success: the transfer is looked up by hash and the real outcome printed, exit
/// 0.
#[test]
fn a_send_answered_without_an_outcome_is_resolved_by_hash_and_prints_the_outcome() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let (node, server) = write_node();
    let chain = node.clone();
    node.on("send_tx", move |params| {
        // Executed, then answered with the level alone.
        let signed = sent_transaction(params);
        chain.with_chain(|chain| {
            let hash = chain.submit(&signed.to_borsh()).expect("the mock takes it");
            assert!(chain.wait_for(&hash, near_rpc_mock::chain::Level::ExecutedOptimistic));
        });
        near_rpc_mock::Reply::Result(json!({"final_execution_status": "EXECUTED_OPTIMISTIC"}))
    });
    let out = run(&[], &as_strs(&transfer_args(server.url(), &file)));
    assert_exit(&out, 0);
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    let outcome = out.json();
    let hash = sent.hash().to_string();
    assert_eq!(outcome["transaction"]["hash"], hash, "{out:?}");
    assert_eq!(outcome["transaction_outcome"]["id"], hash, "{out:?}");
    assert_eq!(outcome["status"], json!({"SuccessValue": ""}), "{out:?}");
    assert!(
        !outcome["receipts_outcome"].as_array().unwrap().is_empty(),
        "{out:?}"
    );
    let lookups = node.requests_for("EXPERIMENTAL_tx_status");
    assert!(!lookups.is_empty(), "resolved by hash");
    assert!(
        lookups.iter().all(|r| r.params()["tx_hash"] == hash),
        "{lookups:?}"
    );
    assert_hides_key(&out, &secret);
}

/// SIGTERM while the node holds the `send_tx`: exit 5, stdout the `unresolved` line
/// with the transaction the node received.
#[cfg(unix)]
#[test]
fn sigterm_while_the_send_is_held_prints_the_unresolved_transaction_and_exits_5() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let (node, server, arrived) = holding_node();
    let running = support::Running::start(&as_strs(&transfer_args(server.url(), &file)));
    arrived
        .recv_timeout(Duration::from_secs(60))
        .expect("the node receives the send_tx");
    let out = running.terminate();
    assert_exit(&out, 5);
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    let rest = assert_transaction_line(&out, "unresolved", sent);
    assert!(rest.trim().is_empty(), "{out:?}");
    assert!(out.stderr.contains("stopped while transaction"), "{out:?}");
    assert_hides_key(&out, &secret);
}

/// A node that holds every `send_tx` for an hour, telling `arrived` when one comes.
fn holding_node() -> (
    near_rpc_mock::MockNode,
    near_rpc_mock::BackgroundServer,
    std::sync::mpsc::Receiver<()>,
) {
    let (node, server) = write_node();
    let (received, arrived) = std::sync::mpsc::channel::<()>();
    let received = std::sync::Mutex::new(received);
    node.on("send_tx", move |_| {
        let _ = received.lock().unwrap().send(());
        near_rpc_mock::Reply::Http(
            Reply::json(r#"{"jsonrpc":"2.0","id":"1","result":{"final_execution_status":"NONE"}}"#)
                .delayed(Duration::from_secs(3600)),
        )
    });
    (node, server, arrived)
}

/// bob.mock's delegate action of one transfer to contract.mock, signed, as base64.
fn bobs_delegate_action() -> String {
    use near_rpc::tx::{Action, DelegateAction, NonDelegateAction};
    let bob = near_rpc_mock::chain::secret_key("bob.mock");
    let signed = DelegateAction {
        sender_id: "bob.mock".parse().unwrap(),
        receiver_id: "contract.mock".parse().unwrap(),
        actions: vec![NonDelegateAction::try_from(Action::transfer(
            near_rpc::NearToken::from_yoctonear(1000),
        ))
        .unwrap()],
        nonce: 2,
        max_block_height: 100_000,
        public_key: bob.public_key(),
    }
    .sign(&bob);
    base64::engine::general_purpose::STANDARD.encode(signed.to_borsh())
}

/// `relay` fails as `send` does: a refusal prints the `rejected` line with the relayer's
/// transaction, then the node's error (exit 3); SIGTERM while the node holds it prints
/// the `unresolved` line (exit 5).
#[cfg(unix)]
#[test]
fn relay_failures_print_the_relayers_transaction_as_send_does() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let delegate = bobs_delegate_action();
    let relay = |url: &str| {
        let mut args = at(url);
        args.extend(["relay", "--key-file", file.to_str().unwrap(), &delegate].map(String::from));
        args
    };
    let (node, server) = write_node();
    node.on("send_tx", |_| {
        near_rpc_mock::Reply::Error(near_rpc_mock::RpcError {
            status: 200,
            error: json!({
                "name": "HANDLER_ERROR",
                "cause": {"name": "INVALID_TRANSACTION", "info": {"InvalidSignerId": {"signer_id": "alice.mock"}}},
                "code": -32000,
                "message": "Server error",
                "data": {"TxExecutionError": {"InvalidTxError": {"InvalidSignerId": {"signer_id": "alice.mock"}}}}
            }),
        })
    });
    let out = run(&[], &as_strs(&relay(server.url())));
    assert_exit(&out, 3);
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    assert_eq!(sent.transaction().receiver_id(), "bob.mock");
    assert!(matches!(
        sent.transaction().actions(),
        [near_rpc::tx::Action::Delegate(_)]
    ));
    let rest = assert_transaction_line(&out, "rejected", sent);
    let error: Value = serde_json::from_str(rest)
        .unwrap_or_else(|e| panic!("the rest of stdout is not the error ({e}): {out:?}"));
    assert_eq!(error["cause"]["name"], "INVALID_TRANSACTION", "{out:?}");
    assert_hides_key(&out, &secret);

    let (node, server, arrived) = holding_node();
    let running = support::Running::start(&as_strs(&relay(server.url())));
    arrived
        .recv_timeout(Duration::from_secs(60))
        .expect("the node receives the send_tx");
    let out = running.terminate();
    assert_exit(&out, 5);
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    let rest = assert_transaction_line(&out, "unresolved", sent);
    assert!(rest.trim().is_empty(), "{out:?}");
    assert!(out.stderr.contains("stopped while transaction"), "{out:?}");
    assert_hides_key(&out, &secret);
}

/// SIGTERM while the node holds a `transfer --nonce-mode strict`: the version-1
/// transaction was kept before it was sent, and is printed as unresolved (exit 5).
#[cfg(unix)]
#[test]
fn sigterm_while_a_version_1_send_is_held_prints_it_unresolved() {
    let (file, secret) = key_file("alice.mock", "alice.mock");
    let (node, server, arrived) = holding_node();
    let mut args = transfer_args(server.url(), &file);
    args.extend(["--nonce-mode".to_owned(), "strict".to_owned()]);
    let running = support::Running::start(&as_strs(&args));
    arrived
        .recv_timeout(Duration::from_secs(60))
        .expect("the node receives the send_tx");
    let out = running.terminate();
    assert_exit(&out, 5);
    let [sent] = &sent_transactions(&node)[..] else {
        panic!("one send_tx: {:?}", node.requests())
    };
    assert!(matches!(
        sent.transaction(),
        near_rpc::tx::Transaction::V1(tx) if tx.nonce_mode == near_rpc::tx::NonceMode::Strict
    ));
    assert_transaction_line(&out, "unresolved", sent);
    assert_hides_key(&out, &secret);
}

// --- verify --------------------------------------------------------------------------

#[test]
fn verify_proof_exits_0_when_it_verifies_and_6_naming_the_step_when_not() {
    let file =
        shared_dir().join("fixtures/EXPERIMENTAL_light_client_proof/nearcore-proof_example-1.json");
    let file = file.to_str().unwrap();
    let root = "BWwZdhAhjAgKxZ5ycqn1CvXads5DjPMfj4kRdc1rWit8";
    let out = near_rpc(&["verify", "proof", file, "--block-merkle-root", root]);
    assert_exit(&out, 0);
    assert_eq!(out.stdout.lines().count(), 1);
    let line = out.json();
    assert_eq!(
        line["block_hash"],
        "HqZHDTHSqH6Az22SZgFUjodGFDtfC2qSt4v9uYFpLuFC"
    );
    assert_eq!(
        line["outcome_id"],
        "BonLrZ2H6KXnp8nwk2k8oCkcYhAFCU4bA8kWsXVv7pSs"
    );
    // Another root: the block proof step fails.
    let out = near_rpc(&["verify", "proof", file, "--block-merkle-root", HASH]);
    assert_exit(&out, 6);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr.contains("block proof does not verify"),
        "{out:?}"
    );
    // nearcore's invalid proof: the outcome root proof step.
    let invalid =
        shared_dir().join("fixtures/EXPERIMENTAL_light_client_proof/nearcore-invalid_proof-2.json");
    let out = near_rpc(&[
        "verify",
        "proof",
        invalid.to_str().unwrap(),
        "--block-merkle-root",
        root,
    ]);
    assert_exit(&out, 6);
    assert!(
        out.stderr.contains("outcome root proof does not verify"),
        "{out:?}"
    );
    // Unreadable (2) and undecodable (4) input.
    let out = near_rpc(&[
        "verify",
        "proof",
        "/nonexistent/proof.json",
        "--block-merkle-root",
        root,
    ]);
    assert_exit(&out, 2);
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let not_json = dir.join("not.json");
    std::fs::write(&not_json, "{").unwrap();
    assert_exit(
        &near_rpc(&[
            "verify",
            "proof",
            not_json.to_str().unwrap(),
            "--block-merkle-root",
            root,
        ]),
        2,
    );
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, r#"{"outcome_proof": 1}"#).unwrap();
    let out = near_rpc(&[
        "verify",
        "proof",
        wrong.to_str().unwrap(),
        "--block-merkle-root",
        root,
    ]);
    assert_exit(&out, 4);
    assert!(out.stderr.contains("at `outcome_proof`"), "{out:?}");
    assert_exit(
        &near_rpc(&["verify", "proof", file, "--block-merkle-root", "nothash"]),
        2,
    );
}

#[test]
fn verify_light_client_block_exits_0_for_a_successor_and_6_otherwise() {
    let chain = std::fs::read_to_string(
        shared_dir().join("light-client/next_light_client_block/nearlightclient-mainnet.jsonl"),
    )
    .unwrap();
    let lines: Vec<&str> = chain.lines().collect();
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-lcb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let head = write("head.json", lines[0]);
    // The envelope form is read too.
    let next = write(
        "next.json",
        &format!(r#"{{"jsonrpc":"2.0","id":"1","result":{}}}"#, lines[1]),
    );
    let out = near_rpc(&[
        "verify",
        "light-client-block",
        &next,
        "--trusted-head",
        &head,
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["height"], 86673092);
    // Not a successor: the head itself (height), a block two epochs on (epoch).
    let out = near_rpc(&[
        "verify",
        "light-client-block",
        &head,
        "--trusted-head",
        &head,
    ]);
    assert_exit(&out, 6);
    assert!(out.stderr.contains("height check failed"), "{out:?}");
    let later = write("later.json", lines[2]);
    let out = near_rpc(&[
        "verify",
        "light-client-block",
        &later,
        "--trusted-head",
        &head,
    ]);
    assert_exit(&out, 6);
    assert!(out.stderr.contains("epoch check failed"), "{out:?}");
    // A forged approval: another producer's signature in its place.
    let mut forged: Value = serde_json::from_str(lines[1]).unwrap();
    let present: Vec<usize> = forged["approvals_after_next"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.is_null())
        .map(|(i, _)| i)
        .collect();
    forged["approvals_after_next"][present[0]] = forged["approvals_after_next"][present[1]].clone();
    let forged = write("forged.json", &forged.to_string());
    let out = near_rpc(&[
        "verify",
        "light-client-block",
        &forged,
        "--trusted-head",
        &head,
    ]);
    assert_exit(&out, 6);
    assert!(out.stderr.contains("approval signature"), "{out:?}");
}

/// Usage errors name the option at fault, even for a negative number (which clap would
/// take for an option) or a count over the client's cap (refused, not capped unsaid).
#[test]
fn bad_option_values_name_the_option() {
    for (args, expected) in [
        (
            &["--retries", "-1", "status"][..],
            "invalid value '-1' for '--retries <N>': a retry count cannot be negative",
        ),
        (
            &["--retries", "11", "status"][..],
            "invalid value '11' for '--retries <N>': more than the client's cap of 10 retries",
        ),
        (
            &["--timeout", "-1", "status"][..],
            "invalid value '-1' for '--timeout <SECS>'",
        ),
        (
            &["tx-status", "--signed-tx", "not base64!"][..],
            "for '--signed-tx <BASE64>': the signed transaction is not valid base64",
        ),
        (
            &["send-tx", "--base64", "not base64!"][..],
            "for '--base64 <B64>': the signed transaction is not valid base64",
        ),
    ] {
        let out = near_rpc(args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        assert!(
            out.stderr.contains(expected),
            "{args:?}: expected {expected:?}: {out:?}"
        );
    }
    assert_exit(
        &near_rpc(&["--retries", "10", "--network", "mock", "status"]),
        0,
    );
}

/// Text that is not JSON is a syntax error where it breaks, not a type error.
#[test]
fn decode_reports_text_that_is_not_json_as_such() {
    for (body, expected) in [
        ("not json", "expected `null` at line 1 column 1"),
        ("[1,", "EOF while parsing a value"),
        (
            r#"{"jsonrpc":"2.0","id":1,"result":{"header": }"#,
            "expected value at line 1 column 45",
        ),
    ] {
        let out = near_rpc_with_stdin(&["decode", "block"], body.as_bytes());
        assert_exit(&out, 4);
        assert!(out.stderr.contains(expected), "{body}: {out:?}");
        assert!(!out.stderr.contains("invalid type"), "{body}: {out:?}");
    }
}

/// The write flow of `cli/README.md`: `near-rpc mock` writes key files for its accounts; a
/// `transfer` and a `send` with them move balances by exactly the amount, and the
/// sender pays the fees its outcome states.
#[test]
fn a_write_flow_against_near_rpc_mock_moves_exactly_the_amount() {
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-mock-keys-{}", std::process::id()));
    let dir_text = dir.to_str().unwrap().to_owned();
    let mock = Serving::start(&[
        "mock",
        "--port",
        "0",
        "--block-time",
        "0",
        "--credentials-dir",
        &dir_text,
    ]);
    let key_file = dir.join("mock").join("alice.mock.json");
    let key_file = key_file.to_str().unwrap();
    let amount = |account: &str| -> u128 {
        let out = near_rpc(&["--url", &mock.url, "account", account]);
        assert_exit(&out, 0);
        out.json()["amount"].as_str().unwrap().parse().unwrap()
    };
    let burnt = |outcome: &Value| -> u128 {
        std::iter::once(&outcome["transaction_outcome"])
            .chain(outcome["receipts_outcome"].as_array().unwrap())
            .map(|o| {
                o["outcome"]["tokens_burnt"]
                    .as_str()
                    .unwrap()
                    .parse::<u128>()
                    .unwrap()
            })
            .sum()
    };
    let (alice, bob) = (amount("alice.mock"), amount("bob.mock"));
    let out = near_rpc(&[
        "--url",
        &mock.url,
        "transfer",
        "--key-file",
        key_file,
        "bob.mock",
        "1.5",
        "--wait-until",
        "final",
    ]);
    assert_exit(&out, 0);
    let outcome = out.json();
    assert_eq!(outcome["final_execution_status"], "FINAL");
    let near = 1_000_000_000_000_000_000_000_000u128;
    assert_eq!(amount("bob.mock"), bob + near * 3 / 2);
    assert_eq!(amount("alice.mock"), alice - near * 3 / 2 - burnt(&outcome));

    // A change method through `send`: the status it stores is what a view reads.
    let alice = amount("alice.mock");
    let out = near_rpc(&[
        "--url",
        &mock.url,
        "send",
        "--key-file",
        key_file,
        "--receiver",
        "contract.mock",
        r#"[{"FunctionCall": {"method_name": "set_status", "args": "eyJtZXNzYWdlIjoiaGkifQ==", "gas": 30000000000000, "deposit": "0"}}]"#,
    ]);
    assert_exit(&out, 0);
    assert_eq!(
        amount("alice.mock"),
        alice - burnt(&out.json()),
        "unused gas refunded"
    );
    let out = near_rpc(&[
        "--url",
        &mock.url,
        "view",
        "contract.mock",
        "get_status",
        "--args",
        r#"{"account_id": "alice.mock"}"#,
    ]);
    assert_exit(&out, 0);
    assert_eq!(out.json()["result"], "hi");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `near-rpc mock --save FILE` writes the chain when stopped (Ctrl-C or SIGTERM);
/// `--load FILE` starts from it, with what was done before.
#[cfg(unix)]
#[test]
fn the_mock_saves_its_chain_and_starts_from_it() {
    let dir = std::env::temp_dir().join(format!("near-rpc-cli-mock-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("chain.json");
    let state = state.to_str().unwrap();
    let (key_file, _) = key_file("alice.mock", "alice.mock");
    // Sends `near` NEAR from alice to bob; bob's balance after.
    let transfer = |mock: &Serving, near: &str| {
        let key_file = key_file.to_str().unwrap();
        let out = near_rpc(&[
            "--url",
            &mock.url,
            "transfer",
            "--key-file",
            key_file,
            "bob.mock",
            near,
        ]);
        assert_exit(&out, 0);
        near_rpc(&["--url", &mock.url, "account", "bob.mock"]).json()["amount"].clone()
    };
    let mock = Serving::start(&["mock", "--port", "0", "--block-time", "0", "--save", state]);
    let bob = transfer(&mock, "2");
    assert_eq!(mock.interrupt(), Some(0));

    // Stopped by SIGTERM instead, it saves too (started from the saved chain, it saves
    // it again after one more transfer).
    let mock = Serving::start(&[
        "mock",
        "--port",
        "0",
        "--block-time",
        "0",
        "--load",
        state,
        "--save",
        state,
    ]);
    let bob_after = transfer(&mock, "1");
    assert_ne!(bob_after, bob);
    assert_eq!(mock.terminate(), Some(0));
    let bob = bob_after;
    // Stopped as soon as its URL is read, it has heard the signal already: it saves.
    for stop in [Serving::interrupt, Serving::terminate] {
        let quick = dir.join("quick.json");
        let _ = std::fs::remove_file(&quick);
        let mock = Serving::start(&["mock", "--port", "0", "--save", quick.to_str().unwrap()]);
        assert_eq!(stop(mock), Some(0));
        assert!(quick.exists(), "saved at once");
    }

    let mock = Serving::start(&["mock", "--port", "0", "--load", state]);
    let out = near_rpc(&["--url", &mock.url, "account", "bob.mock"]);
    assert_eq!(
        out.json()["amount"],
        bob,
        "the transfer is in the saved chain"
    );
    drop(mock);
    std::fs::write(dir.join("chain.json"), "{}").unwrap();
    let out = near_rpc(&["mock", "--port", "0", "--load", state]);
    assert_exit(&out, 2);
    assert!(out.stderr.contains("not a mock chain"), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `near-rpc mock` with files from someone else: a saved chain whose account id could
/// name a path is refused at `--load`, naming where; a `--credentials-dir` others may
/// write to is refused and left as it was; `mock --help` states the real size limit.
/// Unix only: the folder's permissions are Unix ones.
#[cfg(unix)]
#[test]
fn the_mock_refuses_hostile_chains_to_load_and_credentials_folders_others_can_write() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir =
        std::env::temp_dir().join(format!("near-rpc-cli-mock-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut state = near_rpc_mock::Chain::new().to_state_json();
    state["accounts"][1]["id"] = json!("../../etc/x");
    let chain = dir.join("chain.json");
    std::fs::write(&chain, state.to_string()).unwrap();
    let out = near_rpc(&["mock", "--port", "0", "--load", chain.to_str().unwrap()]);
    assert_exit(&out, 2);
    assert!(
        out.stderr
            .contains(r#"accounts[1].id: "../../etc/x" is not a NEAR account id"#),
        "{out:?}"
    );

    let shared = dir.join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
    let out = near_rpc(&[
        "mock",
        "--port",
        "0",
        "--credentials-dir",
        shared.to_str().unwrap(),
    ]);
    assert_exit(&out, 1);
    assert!(
        out.stderr.contains("cannot write credentials to")
            && out.stderr.contains("writable by its group and others")
            && out.stderr.contains("chmod go-w"),
        "{out:?}"
    );
    assert!(!shared.join("mock").exists(), "nothing written");
    let mode = std::fs::metadata(&shared).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o777, "left as it was");

    let out = near_rpc(&["mock", "--help"]);
    let limit = near_rpc_mock::state_file::MAX_FILE_BYTES;
    assert_eq!(limit % (1 << 20), 0);
    assert!(
        out.stdout
            .contains(&format!("it is read up to {} MiB", limit >> 20)),
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
