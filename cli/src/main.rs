//! `near-rpc`: the command-line tool of the `near-rpc` crate. It calls a NEAR JSON-RPC
//! node through the typed client, and decodes response bodies offline with the typed
//! bindings.
//!
//! ```text
//! near-rpc [--url URL | --network mainnet|testnet] [--api-key KEY] [--method-in-path]
//!          [--timeout SECS] [--retries N] <command>
//!   tx-status (--hash HASH --sender ACCOUNT | --signed-tx BASE64) [--wait-until LEVEL]
//!   genesis-config
//!   protocol-config [--finality final|optimistic|near-final | --block-id HEIGHT_OR_HASH
//!                   | --genesis]
//!   call METHOD [PARAMS_JSON]     any of the spec's methods; params are checked by the
//!                                 typed request (unknown fields and wrong types refused)
//!   decode METHOD [FILE]          decode a response body (stdin without FILE), offline
//! ```
//!
//! - `--network` defaults to mainnet (`https://rpc.mainnet.near.org`); `--url` may be
//!   given several times (failover, in order). `--api-key` sends `x-api-key`.
//! - `--wait-until` takes the wire names (`NONE`, `INCLUDED`, `EXECUTED_OPTIMISTIC`,
//!   `INCLUDED_FINAL`, `EXECUTED`, `FINAL`), decoded through serde; the default is the
//!   library's (`EXECUTED_OPTIMISTIC`).
//! - `protocol-config` is at `--finality final` unless told otherwise.
//!
//! The typed result is printed as pretty JSON on stdout. Exit status: 0 success; 1 the
//! output could not be written; 2 usage error; 3 the node returned a JSON-RPC error (the
//! typed error as JSON on stdout, a one-line summary on stderr); 4 the response could not
//! be decoded (the message names the JSON path); 5 transport or HTTP failure without a
//! JSON-RPC body. Neither an API key nor a URL path is ever printed: errors show the
//! library's redacted endpoints. `near-rpc --help` prints the full usage.

mod args;

use std::io::{Read, Write};
use std::process::ExitCode;

use near_rpc::client::transport::HttpTransport;
use near_rpc::client::{
    ApiKey, BoxTransport, Client, Error, InvalidEndpoint, PathStyle, RetryPolicy,
};
use near_rpc::decode::{self, DecodeError};
use near_rpc::{methods, ErrorWrapper, MethodVisitor, Response, RpcMethod};
use near_rpc_mock::{Cassette, MockNode, Recorder};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use tokio::runtime::Runtime;

use args::{Command, Input, Invocation, Options, UsageError};

/// Exit status: success.
const EXIT_OK: u8 = 0;
/// Exit status: stdout could not be written (or the runtime could not start).
const EXIT_IO: u8 = 1;
/// Exit status: usage error.
const EXIT_USAGE: u8 = 2;
/// Exit status: the node answered with a JSON-RPC error.
const EXIT_RPC: u8 = 3;
/// Exit status: the response could not be decoded.
const EXIT_DECODE: u8 = 4;
/// Exit status: transport or HTTP failure without a JSON-RPC body.
const EXIT_TRANSPORT: u8 = 5;

/// The longest one-line summary printed on stderr.
const SUMMARY_LIMIT: usize = 600;

/// Why the command failed: the exit status and the message for stderr.
#[derive(Debug)]
struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    fn new(code: u8, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    fn usage(message: impl Into<String>) -> Self {
        Self::new(EXIT_USAGE, message)
    }
}

impl From<UsageError> for Failure {
    fn from(UsageError(message): UsageError) -> Self {
        Self::usage(message)
    }
}

fn main() -> ExitCode {
    let result = args::parse(std::env::args_os().skip(1))
        .map_err(Failure::from)
        .and_then(run);
    match result {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(failure) => {
            let mut stderr = std::io::stderr().lock();
            // Nothing more can be done if stderr is gone.
            let _ = if failure.code == EXIT_USAGE {
                writeln!(
                    stderr,
                    "near-rpc: {}\nRun `near-rpc --help` for usage.",
                    failure.message
                )
            } else {
                writeln!(stderr, "near-rpc: {}", one_line(&failure.message))
            };
            ExitCode::from(failure.code)
        }
    }
}

/// Runs a parsed command line.
fn run(invocation: Invocation) -> Result<(), Failure> {
    let Invocation { options, command } = invocation;
    match command {
        Command::Help => write_stdout(args::USAGE),
        Command::Version => write_stdout(&format!(
            "near-rpc {} (NEAR JSON-RPC spec {})\n",
            env!("CARGO_PKG_VERSION"),
            near_rpc::SPEC_VERSION
        )),
        Command::Decode { method, input } => {
            let body = read_input(&input)?;
            methods::visit(method, DecodeBody { body }).unwrap_or_else(|| unknown(method))
        }
        Command::TxStatus { tx, wait_until } => {
            let (runtime, client) = connect(&options)?;
            report(runtime.block_on(client.tx_status(tx, wait_until)))
        }
        Command::GenesisConfig => {
            let (runtime, client) = connect(&options)?;
            report(runtime.block_on(client.genesis_config()))
        }
        Command::ProtocolConfig(block) => {
            let (runtime, client) = connect(&options)?;
            report(runtime.block_on(client.protocol_config_at(block)))
        }
        Command::Mock { port, replay } => serve_mock(port, replay.as_deref()),
        Command::Record { out, port } => record(&options, &out, port),
        Command::Call { method, params } => {
            let (runtime, client) = connect(&options)?;
            let call = CallMethod {
                runtime: &runtime,
                client: &client,
                params,
            };
            methods::visit(method, call).unwrap_or_else(|| unknown(method))
        }
    }
}

/// Parsing only accepts names of `methods::ALL`, which `methods::visit` knows; this
/// answers the impossible miss without panicking.
fn unknown(method: &str) -> Result<(), Failure> {
    Err(Failure::usage(format!("unknown method `{method}`")))
}

/// A current-thread runtime with timers and sockets.
fn runtime() -> Result<Runtime, Failure> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::new(EXIT_IO, format!("cannot start the async runtime: {e}")))
}

/// `mock`: serves the mock node until Ctrl-C, after printing its URL.
fn serve_mock(port: u16, replay: Option<&std::path::Path>) -> Result<(), Failure> {
    let node = match replay {
        None => MockNode::new(),
        Some(path) => {
            let cassette = Cassette::load(path).map_err(|e| {
                Failure::usage(format!("cannot read the cassette {}: {e}", path.display()))
            })?;
            MockNode::replaying(cassette)
        }
    };
    runtime()?.block_on(async {
        let server = node.serve(port).await.map_err(|e| {
            Failure::new(
                EXIT_TRANSPORT,
                format!("cannot listen on 127.0.0.1:{port}: {e}"),
            )
        })?;
        write_stdout(&format!("{}\n", server.url()))?;
        let _ = tokio::signal::ctrl_c().await;
        Ok(())
    })
}

/// `record`: a recording proxy to the first endpoint until Ctrl-C, after printing its URL.
fn record(options: &Options, out: &std::path::Path, port: u16) -> Result<(), Failure> {
    let upstream = upstream(options)?;
    runtime()?.block_on(async {
        let recorder = Recorder::start(upstream, out, port).await.map_err(|e| {
            Failure::new(EXIT_IO, format!("cannot record to {}: {e}", out.display()))
        })?;
        write_stdout(&format!("{}\n", recorder.url()))?;
        let _ = tokio::signal::ctrl_c().await;
        Ok(())
    })
}

/// The node `record` forwards to: the first endpoint (with the API key), or the mock.
fn upstream(options: &Options) -> Result<BoxTransport, Failure> {
    let Some(url) = options.endpoints().first().copied() else {
        return Ok(Arc::new(MockNode::new()));
    };
    // InvalidEndpoint's and InvalidApiKey's messages never repeat the URL or the key.
    let endpoint = url
        .parse()
        .map_err(|e: InvalidEndpoint| Failure::usage(e.to_string()))?;
    let mut transport =
        HttpTransport::new(endpoint).map_err(|e| Failure::new(EXIT_TRANSPORT, e.to_string()))?;
    if let Some(key) = &options.api_key {
        let key = ApiKey::x_api_key(key).map_err(|e| Failure::usage(e.to_string()))?;
        transport = transport.api_key(key);
    }
    Ok(Arc::new(transport))
}

/// Builds the runtime and the client from the options.
fn connect(options: &Options) -> Result<(Runtime, Client), Failure> {
    let mut builder = Client::builder();
    if options.endpoints().is_empty() {
        builder = builder.transport(MockNode::new());
    }
    for (i, url) in options.endpoints().into_iter().enumerate() {
        // InvalidEndpoint's message never repeats the URL.
        builder = builder
            .endpoint(url)
            .map_err(|e| Failure::usage(e.to_string()))?;
        // The key goes to the first endpoint only: a failover URL is someone else's.
        if let (0, Some(key)) = (i, &options.api_key) {
            // InvalidApiKey's message never repeats the key.
            let key = ApiKey::x_api_key(key).map_err(|e| Failure::usage(e.to_string()))?;
            builder = builder.api_key(key);
        }
    }
    if options.method_in_path {
        builder = builder.path_style(PathStyle::MethodInPath);
    }
    if let Some(timeout) = options.timeout {
        builder = builder.timeout(timeout);
    }
    if let Some(max_retries) = options.retries {
        builder = builder.retry(RetryPolicy {
            max_retries,
            ..RetryPolicy::default()
        });
    }
    let client = builder
        .build()
        .map_err(|e| Failure::new(EXIT_TRANSPORT, e.to_string()))?;
    Ok((runtime()?, client))
}

/// `call`: checks the params strictly against the method's typed request, then calls it.
struct CallMethod<'a> {
    runtime: &'a Runtime,
    client: &'a Client,
    params: Value,
}

impl MethodVisitor for CallMethod<'_> {
    type Output = Result<(), Failure>;

    fn visit<M: RpcMethod>(self) -> Self::Output {
        let params = decode::from_value_strict::<M::Params>(self.params).map_err(|e| {
            Failure::usage(format!(
                "the params do not match the typed request of `{}` {}",
                M::NAME,
                describe_decode_error(&e)
            ))
        })?;
        report(self.runtime.block_on(self.client.call::<M>(params)))
    }
}

/// `decode`: decodes a response body of the method with the typed bindings.
struct DecodeBody {
    body: Vec<u8>,
}

impl MethodVisitor for DecodeBody {
    type Output = Result<(), Failure>;

    fn visit<M: RpcMethod>(self) -> Self::Output {
        let response: Response<M::Result, ErrorWrapper<M::Error>> = decode::from_slice(&self.body)
            .map_err(|e| {
                Failure::new(
                    EXIT_DECODE,
                    format!(
                        "cannot decode the body as a response of `{}` {}",
                        M::NAME,
                        describe_decode_error(&e)
                    ),
                )
            })?;
        match response.payload {
            Ok(result) => print_json(&result),
            Err(error) => {
                print_json(&error)?;
                Err(Failure::new(
                    EXIT_RPC,
                    format!(
                        "the body is a JSON-RPC error of `{}`: {}",
                        M::NAME,
                        summarize(&error)
                    ),
                ))
            }
        }
    }
}

/// `at `path`: message`, or `at the top level: message` for the document root.
fn describe_decode_error(error: &DecodeError) -> String {
    if error.path().is_empty() {
        format!("at the top level: {}", error.message())
    } else {
        format!("at `{}`: {}", error.path(), error.message())
    }
}

/// Prints a call's typed result, or turns its error into a failure (printing the typed
/// JSON-RPC error first, when there is one). Every text in a client error went through
/// the client's redaction, so no key a server echoed reaches the terminal.
fn report<R: Serialize, E: Serialize + std::fmt::Debug>(
    result: Result<R, Error<E>>,
) -> Result<(), Failure> {
    let error = match result {
        Ok(result) => return print_json(&result),
        Err(error) => error,
    };
    Err(match error {
        Error::Rpc {
            method,
            endpoint,
            status,
            error,
            ..
        } => {
            print_json(&*error)?;
            Failure::new(
                EXIT_RPC,
                format!(
                    "`{method}` on {endpoint} failed (HTTP {status}): {}",
                    summarize(&error)
                ),
            )
        }
        Error::Decode {
            method,
            endpoint,
            status,
            error,
            ..
        } => Failure::new(
            EXIT_DECODE,
            format!(
                "cannot decode the response of `{method}` from {endpoint} (HTTP {status}) {}",
                describe_decode_error(&error)
            ),
        ),
        error if error.is_usage() => Failure::usage(one_line(&error.to_string())),
        // Transport failures, HTTP errors, refused redirects, wrong ids, deadlines, every
        // endpoint failing: the node could not be used.
        error => Failure::new(EXIT_TRANSPORT, one_line(&error.to_string())),
    })
}

/// One line about a JSON-RPC error: `NAME (CAUSE): message: data`.
fn summarize<E: Serialize>(error: &ErrorWrapper<E>) -> String {
    let mut text = match (error.name(), error.code) {
        ("", Some(code)) => format!("error {code}"),
        ("", None) => "error".to_owned(),
        (name, _) => name.to_owned(),
    };
    let cause = serde_json::to_value(error).ok().and_then(|v| {
        v.get("cause")
            .and_then(|c| c.get("name"))
            .and_then(Value::as_str)
            .map(str::to_owned)
    });
    if let Some(cause) = cause {
        text.push_str(&format!(" ({cause})"));
    }
    if let Some(message) = &error.message {
        text.push_str(": ");
        text.push_str(message);
    }
    match &error.data {
        None | Some(Value::Null) => {}
        Some(Value::String(data)) => {
            text.push_str(": ");
            text.push_str(data);
        }
        Some(other) => {
            text.push_str(": ");
            text.push_str(&other.to_string());
        }
    }
    text
}

/// The text on one line: control characters (newlines, escapes) become spaces, runs of
/// spaces shrink to one, and it is cut at [`SUMMARY_LIMIT`] characters.
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len().min(SUMMARY_LIMIT));
    let mut count = 0;
    for c in text.chars() {
        let c = if c.is_control() { ' ' } else { c };
        if c == ' ' && line.ends_with(' ') {
            continue;
        }
        if count == SUMMARY_LIMIT {
            line.push('…');
            break;
        }
        line.push(c);
        count += 1;
    }
    line.trim_end().to_owned()
}

/// Prints a value as pretty JSON on stdout.
fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| {
        Failure::new(
            EXIT_DECODE,
            format!("cannot encode the decoded value as JSON: {e}"),
        )
    })?;
    write_stdout(&format!("{text}\n"))
}

fn write_stdout(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::new(EXIT_IO, format!("cannot write the output: {e}")))
}

/// Reads the body to decode.
fn read_input(input: &Input) -> Result<Vec<u8>, Failure> {
    match input {
        Input::Stdin => {
            let mut body = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut body)
                .map_err(|e| Failure::usage(format!("cannot read stdin: {e}")))?;
            Ok(body)
        }
        Input::File(path) => std::fs::read(path)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use near_rpc::ErrorCause;

    #[test]
    fn one_line_flattens_and_caps() {
        assert_eq!(one_line("a\nb\r\n\tc \u{1b}[31m"), "a b c [31m");
        let long = "x".repeat(SUMMARY_LIMIT + 10);
        assert_eq!(one_line(&long).chars().count(), SUMMARY_LIMIT + 1);
    }

    #[test]
    fn summaries_name_the_error_and_cause() {
        let error: ErrorWrapper<Value> = ErrorWrapper {
            cause: ErrorCause::Handler(serde_json::json!({"name": "UNKNOWN_BLOCK"})),
            code: Some(-32000),
            message: Some("Server error".into()),
            data: Some(Value::String("no block".into())),
        };
        assert_eq!(
            summarize(&error),
            "HANDLER_ERROR (UNKNOWN_BLOCK): Server error: no block"
        );
        let legacy: ErrorWrapper<Value> = ErrorWrapper {
            cause: ErrorCause::Missing,
            code: Some(-32601),
            message: None,
            data: Some(serde_json::json!({"x": 1})),
        };
        assert_eq!(summarize(&legacy), "error -32601: {\"x\":1}");
    }

    #[test]
    fn client_errors_map_to_exit_codes() {
        let endpoint = "http://127.0.0.1:1/***".to_owned();
        let http: Error<Value> = Error::Http {
            method: "block",
            endpoint: endpoint.clone(),
            status: 503,
            body: "<html>\n<b>busy</b>\n</html>".into(),
            json: None,
            retry_after: None,
        };
        let failure = report::<Value, Value>(Err(http)).unwrap_err();
        assert_eq!(failure.code, EXIT_TRANSPORT);
        assert!(!failure.message.contains("SECRET"), "{}", failure.message);
        assert!(!failure.message.contains('\n'), "{}", failure.message);
        let large: Error<Value> = Error::TooLarge {
            method: "block",
            endpoint: endpoint.clone(),
            status: 200,
            limit: 10,
        };
        assert_eq!(report::<Value, Value>(Err(large)).unwrap_err().code, 5);
        let decode: Error<Value> = Error::Decode {
            method: "block",
            endpoint,
            status: 200,
            error: DecodeError::new("result.header.height", "invalid type"),
            body: String::new(),
        };
        let failure = report::<Value, Value>(Err(decode)).unwrap_err();
        assert_eq!(failure.code, EXIT_DECODE);
        assert!(failure.message.contains("`result.header.height`"));
        let encode: Error<Value> = Error::Encode {
            method: "block",
            message: "boom".into(),
        };
        assert_eq!(report::<Value, Value>(Err(encode)).unwrap_err().code, 2);
        let everywhere: Error<Value> = Error::AllEndpointsFailed {
            method: "block",
            failures: vec![Error::Deadline {
                method: "block",
                limit: std::time::Duration::from_secs(1),
            }],
        };
        assert_eq!(report::<Value, Value>(Err(everywhere)).unwrap_err().code, 5);
    }
}
