//! What the tool prints and how it exits: the exit statuses, the failure type, the
//! mapping of client errors to them, and stdout/stderr writing.

use std::io::Write;

use near_rpc::client::{Error, ErrorKind};
use near_rpc::decode::DecodeError;
use near_rpc::types::SpecErrorWrapper;
use near_rpc::ErrorReport;
use serde::Serialize;

/// Exit status: success.
pub const EXIT_OK: u8 = 0;
/// Exit status: stdout could not be written (or the runtime could not start).
pub const EXIT_IO: u8 = 1;
/// Exit status: usage error.
pub const EXIT_USAGE: u8 = 2;
/// Exit status: the node answered with a JSON-RPC error.
pub const EXIT_RPC: u8 = 3;
/// Exit status: the response could not be decoded.
pub const EXIT_DECODE: u8 = 4;
/// Exit status: transport or HTTP failure without a JSON-RPC body.
pub const EXIT_TRANSPORT: u8 = 5;
/// Exit status: `verify` found the answer does not verify.
pub const EXIT_UNVERIFIED: u8 = 6;

/// The longest one-line summary printed on stderr.
const SUMMARY_LIMIT: usize = 600;

/// Why the command failed: the exit status, the message for stderr, and maybe a hint.
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub code: u8,
    /// The message (one line, except for usage errors).
    pub message: String,
    /// A line of advice printed after the message.
    pub hint: Option<&'static str>,
}

impl Failure {
    /// A failure with this exit status.
    pub fn new(code: u8, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            hint: None,
        }
    }

    /// A usage error (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(EXIT_USAGE, message)
    }

    /// Prints the failure on stderr.
    pub fn print(&self) {
        let mut stderr = std::io::stderr().lock();
        // Nothing more can be done if stderr is gone.
        let _ = if self.code == EXIT_USAGE {
            writeln!(
                stderr,
                "near-rpc: {}\nRun `near-rpc --help` for usage.",
                self.message.trim_end()
            )
        } else {
            writeln!(stderr, "near-rpc: {}", one_line(&self.message))
        };
        if let Some(hint) = self.hint {
            let _ = writeln!(stderr, "{hint}");
        }
    }
}

/// The advice for a transport failure (exit 5) when the node was the default one,
/// chosen without `--url` or `--network`.
pub fn transport_hint(code: u8, default_endpoint: bool) -> Option<&'static str> {
    (code == EXIT_TRANSPORT && default_endpoint).then_some(
        "hint: the default endpoint is https://rpc.mainnet.near.org; \
         pass --url URL or --network testnet|mock",
    )
}

/// `at `path`: message`, or `at the top level: message` for the document root.
pub fn describe_decode_error(error: &DecodeError) -> String {
    if error.path().is_empty() {
        format!("at the top level: {}", error.message())
    } else {
        format!("at `{}`: {}", error.path(), error.message())
    }
}

/// Prints a call's typed result, or turns its error into a failure.
pub fn report<R: Serialize, E: Serialize + std::fmt::Debug>(
    result: Result<R, Error<E>>,
) -> Result<(), Failure> {
    result
        .map_err(failure)
        .and_then(|result| print_json(&result))
}

/// The failure for a client error, after printing the typed JSON-RPC error on stdout
/// when there is one. Every text in a client error went through the client's
/// redaction, so no key a server echoed reaches the terminal.
pub fn failure<E: Serialize + std::fmt::Debug>(error: Error<E>) -> Failure {
    let method = error.method();
    let endpoint = error.endpoint().unwrap_or("the node").to_owned();
    match error.kind() {
        ErrorKind::Rpc { status, error, .. } => {
            if let Err(failure) = print_json(&**error) {
                return failure;
            }
            Failure::new(
                EXIT_RPC,
                format!("`{method}` on {endpoint} failed (HTTP {status}): {error}"),
            )
        }
        ErrorKind::Decode { status, error, .. } => Failure::new(
            EXIT_DECODE,
            format!(
                "cannot decode the response of `{method}` from {endpoint} (HTTP {status}) {}",
                describe_decode_error(error)
            ),
        ),
        _ if error.is_usage() => Failure::usage(describe(&error)),
        // Transport failures, HTTP errors, refused redirects, wrong ids, deadlines, every
        // endpoint failing: the node could not be used.
        _ => Failure::new(EXIT_TRANSPORT, describe(&error)),
    }
}

/// One line about a JSON-RPC error (the error's own `NAME: the node's words`).
pub fn summarize<E: Serialize + std::fmt::Debug>(error: &SpecErrorWrapper<E>) -> String {
    one_line(&error.to_string())
}

/// An error and each of its causes, once each, on one line (capped as [`one_line`]).
pub fn describe(error: &dyn std::error::Error) -> String {
    one_line(&ErrorReport(error).to_string())
}

/// The text on one line: control characters (newlines, escapes) become spaces, runs of
/// spaces shrink to one, and it is cut at [`SUMMARY_LIMIT`] characters.
pub fn one_line(text: &str) -> String {
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
pub fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| {
        Failure::new(
            EXIT_DECODE,
            format!("cannot encode the decoded value as JSON: {e}"),
        )
    })?;
    write_stdout(&format!("{text}\n"))
}

/// Writes `text` on stdout.
pub fn write_stdout(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::new(EXIT_IO, format!("cannot write the output: {e}")))
}

/// Writes one line on stderr (contract logs); a closed stderr is ignored.
pub fn note(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use near_rpc::client::transport::{TransportError, TransportErrorKind};
    use near_rpc::envelope::{ErrorCause, ErrorWrapper};
    use serde_json::Value;

    #[test]
    fn one_line_flattens_and_caps() {
        assert_eq!(one_line("a\nb\r\n\tc \u{1b}[31m"), "a b c [31m");
        let long = "x".repeat(SUMMARY_LIMIT + 10);
        assert_eq!(one_line(&long).chars().count(), SUMMARY_LIMIT + 1);
    }

    #[test]
    fn summaries_name_the_cause_once() {
        let error: SpecErrorWrapper<Value> = ErrorWrapper {
            cause: ErrorCause::Handler(serde_json::json!({"name": "UNKNOWN_BLOCK"})),
            code: Some(-32000),
            message: Some("Server error".into()),
            data: Some(Value::String("no block".into())),
        };
        let text = summarize(&error);
        assert!(text.starts_with("UNKNOWN_BLOCK"), "{text}");
        assert!(text.ends_with("no block"), "{text}");
        assert_eq!(text.matches("UNKNOWN_BLOCK").count(), 1, "{text}");
        let legacy: SpecErrorWrapper<Value> = ErrorWrapper {
            cause: ErrorCause::Missing,
            code: Some(-32601),
            message: None,
            data: Some(serde_json::json!({"x": 1})),
        };
        assert_eq!(summarize(&legacy), "error -32601: {\"x\":1}");
    }

    #[test]
    fn the_hint_is_for_transport_failures_on_the_default_endpoint() {
        let hint = transport_hint(EXIT_TRANSPORT, true).unwrap();
        assert!(hint.contains("https://rpc.mainnet.near.org"), "{hint}");
        assert!(hint.contains("--url URL"), "{hint}");
        assert_eq!(transport_hint(EXIT_TRANSPORT, false), None);
        assert_eq!(transport_hint(EXIT_RPC, true), None);
        assert_eq!(transport_hint(EXIT_USAGE, true), None);
    }

    #[test]
    fn client_errors_map_to_exit_codes() {
        let endpoint = "http://127.0.0.1:1/***".to_owned();
        let error = |kind| Error::<Value>::new("block", Some(endpoint.clone()), kind);
        let http = error(ErrorKind::Http {
            status: 503,
            body: "<html>\n<b>busy</b>\n</html>".into(),
            json: None,
            retry_after: None,
        });
        let failure = report::<Value, Value>(Err(http)).unwrap_err();
        assert_eq!(failure.code, EXIT_TRANSPORT);
        assert!(!failure.message.contains('\n'), "{}", failure.message);
        let transport = |kind| {
            error(ErrorKind::Transport(TransportError::new(
                endpoint.as_str(),
                kind,
                "",
            )))
        };
        let large = transport(TransportErrorKind::TooLarge {
            status: 200,
            limit: 10,
        });
        assert_eq!(report::<Value, Value>(Err(large)).unwrap_err().code, 5);
        let decode = error(ErrorKind::Decode {
            status: 200,
            error: DecodeError::new("result.header.height", "invalid type"),
            body: String::new(),
        });
        let failure = report::<Value, Value>(Err(decode)).unwrap_err();
        assert_eq!(failure.code, EXIT_DECODE);
        assert!(failure.message.contains("`result.header.height`"));
        let encode = Error::<Value>::new(
            "block",
            None,
            ErrorKind::Encode {
                message: "boom".into(),
            },
        );
        assert_eq!(report::<Value, Value>(Err(encode)).unwrap_err().code, 2);
        let too_big = transport(TransportErrorKind::RequestTooLarge {
            size: 11,
            limit: 10,
        });
        assert_eq!(report::<Value, Value>(Err(too_big)).unwrap_err().code, 2);
        let deadline = transport(TransportErrorKind::Deadline {
            limit: std::time::Duration::from_secs(1),
        });
        let everywhere =
            Error::<Value>::new("block", None, ErrorKind::AllEndpointsFailed(vec![deadline]));
        assert_eq!(report::<Value, Value>(Err(everywhere)).unwrap_err().code, 5);
    }
}
