//! Command-line parsing, by hand: global options may come before or after the command,
//! command options after it, `--name=value` works like `--name value`, and `--` ends the
//! options. Nothing here touches the network or echoes a URL or an API key.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use near_rpc::client::TxRef;
use near_rpc::types::{BlockReference, Finality, SyncCheckpoint, TxExecutionStatus};
use near_rpc::{methods, AccountId, BlockId, CryptoHash};
use serde_json::Value;

/// The `--help` text.
pub const USAGE: &str = "\
near-rpc: typed calls to a NEAR Protocol JSON-RPC node, and offline response decoding.

Usage:
  near-rpc [OPTIONS] <COMMAND>

Options:
  --url URL          The node's URL; give it several times to fail over in order.
                     An API key may be part of the path; it is never printed.
  --network NAME     mainnet (https://rpc.mainnet.near.org, the default), testnet
                     (https://rpc.testnet.near.org), or mock: the mock node in process,
                     no network needed. Not together with --url.
  --api-key KEY      Send the key in an `x-api-key` header to the first endpoint only
                     (never to a failover URL, never after a redirect); it is never
                     printed.
  --method-in-path   POST to {URL}/{method} instead of the JSON-RPC POST to {URL}.
  --timeout SECS     The time one attempt may take (default 30; fractions allowed).
  --retries N        Retries of a failing read call (default 3; 0 disables them).
  -h, --help         Print this text.
  --version          Print the version and the spec version of the bindings.

Commands:
  tx-status (--hash HASH --sender ACCOUNT | --signed-tx BASE64) [--wait-until LEVEL]
      EXPERIMENTAL_tx_status. LEVEL is a wire name: NONE, INCLUDED,
      EXECUTED_OPTIMISTIC (the default), INCLUDED_FINAL, EXECUTED or FINAL.
  genesis-config
      genesis_config.
  protocol-config [--finality final|optimistic|near-final | --block-id HEIGHT_OR_HASH
                  | --genesis]
      EXPERIMENTAL_protocol_config; at `--finality final` unless told otherwise.
  call METHOD [PARAMS_JSON]
      Any method of the spec, by its JSON-RPC name. PARAMS_JSON (default `null`) is
      checked against the method's typed request first: unknown fields and wrong
      types are refused, naming their JSON path.
  decode METHOD [FILE]
      Decode a response body of METHOD from FILE (or stdin, without FILE or with `-`)
      with the typed bindings, offline. Errors name the JSON path of the bad value.
  mock [--port N] [--replay FILE]
      Run the mock node on 127.0.0.1 (port N, or any free port) in the foreground and
      print its URL; with --replay, answer from a recorded cassette first. Ctrl-C
      stops it.
  record --out FILE [--port N]
      Run a recording proxy on 127.0.0.1 to the node of --url/--network and print its
      URL; every request and response is appended to FILE (JSON lines, for `mock
      --replay`). URLs and keys are never written; keys a node echoes are masked.

Output:
  The typed result as pretty JSON on stdout. A JSON-RPC error from the node is printed
  typed (name, cause, code, message, data) as JSON on stdout, with a one-line summary
  on stderr.

Exit status:
  0  success
  1  the output could not be written
  2  usage error: bad options, params JSON that doesn't parse or check, unknown method,
     bad hash or account, base64 that doesn't decode, unreadable FILE
  3  the node answered with a JSON-RPC error
  4  the response could not be decoded (the message names the JSON path)
  5  the node could not be used: connection, TLS, timeout, HTTP error page, refused
     redirect, wrong response id, response too large, deadline, every endpoint failed
";

/// A usage error: the message to print before pointing at `--help`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl UsageError {
    fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

/// Which public network to use when no `--url` is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Network {
    /// NEAR mainnet.
    #[default]
    Mainnet,
    /// NEAR testnet.
    Testnet,
    /// The mock node, in process.
    Mock,
}

impl Network {
    /// The public RPC URL of the network (none for the mock).
    pub fn url(self) -> Option<&'static str> {
        match self {
            Self::Mainnet => Some("https://rpc.mainnet.near.org"),
            Self::Testnet => Some("https://rpc.testnet.near.org"),
            Self::Mock => None,
        }
    }
}

/// How to reach the node.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// `--url` values, in order; when empty, the network's URL.
    pub urls: Vec<String>,
    /// `--network`.
    pub network: Network,
    /// `--api-key`.
    pub api_key: Option<String>,
    /// `--method-in-path`.
    pub method_in_path: bool,
    /// `--timeout`.
    pub timeout: Option<Duration>,
    /// `--retries`.
    pub retries: Option<u32>,
}

impl Options {
    /// The endpoints to use, in failover order (none: the mock node, in process).
    pub fn endpoints(&self) -> Vec<&str> {
        if self.urls.is_empty() {
            self.network.url().into_iter().collect()
        } else {
            self.urls.iter().map(String::as_str).collect()
        }
    }
}

/// Where `decode` reads the body from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

/// What to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Print the usage text.
    Help,
    /// Print the version.
    Version,
    /// `tx-status`.
    TxStatus {
        /// The transaction.
        tx: TxRef,
        /// `--wait-until`; `None` leaves the library's default.
        wait_until: Option<TxExecutionStatus>,
    },
    /// `genesis-config`.
    GenesisConfig,
    /// `protocol-config` at this block.
    ProtocolConfig(BlockReference),
    /// `call`: the method (one of `methods::ALL`) and its unchecked params.
    Call {
        /// The method's JSON-RPC name.
        method: &'static str,
        /// The params as given.
        params: Value,
    },
    /// `decode`: the method (one of `methods::ALL`) and where the body is.
    Decode {
        /// The method's JSON-RPC name.
        method: &'static str,
        /// Where the body is.
        input: Input,
    },
    /// `mock`: serve the mock node in the foreground.
    Mock {
        /// The port (0: any free one).
        port: u16,
        /// A cassette to answer from.
        replay: Option<PathBuf>,
    },
    /// `record`: a recording proxy in the foreground.
    Record {
        /// The cassette file to write.
        out: PathBuf,
        /// The port (0: any free one).
        port: u16,
    },
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// The global options.
    pub options: Options,
    /// The command.
    pub command: Command,
}

/// Whether a command option takes a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arity {
    Flag,
    Value,
}

/// The options each command accepts.
fn command_options(command: &str) -> &'static [(&'static str, Arity)] {
    match command {
        "tx-status" => &[
            ("--hash", Arity::Value),
            ("--sender", Arity::Value),
            ("--signed-tx", Arity::Value),
            ("--wait-until", Arity::Value),
        ],
        "protocol-config" => &[
            ("--finality", Arity::Value),
            ("--block-id", Arity::Value),
            ("--genesis", Arity::Flag),
        ],
        "mock" => &[("--port", Arity::Value), ("--replay", Arity::Value)],
        "record" => &[("--out", Arity::Value), ("--port", Arity::Value)],
        _ => &[],
    }
}

/// An option given to a command, with its value when it takes one.
struct Given {
    name: &'static str,
    value: Option<String>,
}

/// Parses the arguments (without the program name).
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Invocation, UsageError> {
    let args: Vec<OsString> = args.into_iter().collect();
    let help = args
        .iter()
        .take_while(|a| a.to_str() != Some("--"))
        .any(|a| matches!(a.to_str(), Some("-h" | "--help")));
    if help {
        return Ok(Invocation {
            options: Options::default(),
            command: Command::Help,
        });
    }

    let mut options = Options::default();
    let mut network_given = false;
    let mut version = false;
    let mut positionals: Vec<OsString> = Vec::new();
    let mut given: Vec<Given> = Vec::new();
    let mut args = args.into_iter();
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        let text = arg.to_str();
        let is_option = !options_ended
            && text.is_some_and(|t| t.starts_with('-') && t != "-" && !is_negative_number(t));
        if !is_option {
            positionals.push(arg);
            continue;
        }
        let text = text.unwrap_or_default();
        if text == "--" {
            options_ended = true;
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (text, None),
        };
        let mut value = |what: &str| -> Result<String, UsageError> {
            if let Some(value) = inline.clone() {
                return Ok(value);
            }
            match args.next().map(OsString::into_string) {
                Some(Ok(value)) => Ok(value),
                Some(Err(_)) => Err(UsageError::new(format!(
                    "the value of {name} is not valid UTF-8"
                ))),
                None => Err(UsageError::new(format!("{name} needs a value ({what})"))),
            }
        };
        let no_value = |inline: &Option<String>| match inline {
            Some(_) => Err(UsageError::new(format!("{name} takes no value"))),
            None => Ok(()),
        };
        match name {
            "--url" => options.urls.push(value("URL")?),
            "--network" => {
                if network_given {
                    return Err(UsageError::new("--network is given twice"));
                }
                network_given = true;
                options.network = match value("mainnet, testnet or mock")?.as_str() {
                    "mainnet" => Network::Mainnet,
                    "testnet" => Network::Testnet,
                    "mock" => Network::Mock,
                    other => {
                        return Err(UsageError::new(format!(
                            "unknown network {}: expected mainnet, testnet or mock",
                            shown(other)
                        )))
                    }
                };
            }
            "--api-key" => {
                if options.api_key.is_some() {
                    return Err(UsageError::new("--api-key is given twice"));
                }
                options.api_key = Some(value("KEY")?);
            }
            "--method-in-path" => {
                no_value(&inline)?;
                options.method_in_path = true;
            }
            "--timeout" => {
                if options.timeout.is_some() {
                    return Err(UsageError::new("--timeout is given twice"));
                }
                options.timeout = Some(parse_timeout(&value("SECS")?)?);
            }
            "--retries" => {
                if options.retries.is_some() {
                    return Err(UsageError::new("--retries is given twice"));
                }
                let n = value("N")?;
                options.retries = Some(n.parse().map_err(|_| {
                    UsageError::new(format!(
                        "--retries takes a whole number from 0 to {}, not {}",
                        u32::MAX,
                        shown(&n)
                    ))
                })?);
            }
            "--version" => {
                no_value(&inline)?;
                version = true;
            }
            _ => {
                let command = positionals.first().and_then(|c| c.to_str()).unwrap_or("");
                let known = command_options(command).iter().find(|(n, _)| *n == name);
                let Some(&(name, arity)) = known else {
                    return Err(unknown_option(name, command));
                };
                let value = match arity {
                    Arity::Flag => {
                        no_value(&inline)?;
                        None
                    }
                    Arity::Value => Some(value("a value")?),
                };
                if given.iter().any(|g| g.name == name) {
                    return Err(UsageError::new(format!("{name} is given twice")));
                }
                given.push(Given { name, value });
            }
        }
    }
    if network_given && !options.urls.is_empty() {
        return Err(UsageError::new("give either --url or --network, not both"));
    }
    if version {
        return Ok(Invocation {
            options,
            command: Command::Version,
        });
    }

    let mut positionals = positionals.into_iter();
    let Some(command) = positionals.next() else {
        return Err(UsageError::new("no command given"));
    };
    let command = command
        .into_string()
        .map_err(|_| UsageError::new("the command is not valid UTF-8"))?;
    let rest: Vec<OsString> = positionals.collect();
    let command = match command.as_str() {
        "help" => {
            no_arguments(&command, &rest)?;
            Command::Help
        }
        "tx-status" => {
            no_arguments(&command, &rest)?;
            tx_status(given)?
        }
        "genesis-config" => {
            no_arguments(&command, &rest)?;
            Command::GenesisConfig
        }
        "protocol-config" => {
            no_arguments(&command, &rest)?;
            Command::ProtocolConfig(protocol_config(given)?)
        }
        "mock" => {
            no_arguments(&command, &rest)?;
            let port = port(take(&mut given, "--port"))?;
            let replay = take(&mut given, "--replay").map(PathBuf::from);
            Command::Mock { port, replay }
        }
        "record" => {
            no_arguments(&command, &rest)?;
            let port = port(take(&mut given, "--port"))?;
            let out = take(&mut given, "--out")
                .map(PathBuf::from)
                .ok_or_else(|| UsageError::new("record needs --out FILE"))?;
            Command::Record { out, port }
        }
        "call" => call(rest)?,
        "decode" => decode(rest)?,
        other => {
            return Err(UsageError::new(format!(
                "unknown command {}: expected tx-status, genesis-config, protocol-config, \
                 call, decode, mock or record",
                shown(other)
            )))
        }
    };
    Ok(Invocation { options, command })
}

/// A `--port` value: 0 to 65535 (0: any free port).
fn port(text: Option<String>) -> Result<u16, UsageError> {
    match text {
        None => Ok(0),
        Some(text) => text.parse().map_err(|_| {
            UsageError::new(format!(
                "--port takes a number from 0 to 65535, not {}",
                shown(&text)
            ))
        }),
    }
}

/// `-5` or `-1.5` is a value (a params document), not an option.
fn is_negative_number(arg: &str) -> bool {
    arg.len() > 1 && arg[1..].starts_with(|c: char| c.is_ascii_digit())
}

fn unknown_option(name: &str, command: &str) -> UsageError {
    let accepted = command_options(command);
    let mut message = format!("unknown option {}", shown(name));
    if !accepted.is_empty() {
        let names: Vec<&str> = accepted.iter().map(|(n, _)| *n).collect();
        message.push_str(&format!(
            " ({command} accepts {}, besides the global options)",
            names.join(", ")
        ));
    }
    UsageError(message)
}

fn no_arguments(command: &str, rest: &[OsString]) -> Result<(), UsageError> {
    match rest.first() {
        None => Ok(()),
        Some(arg) => Err(UsageError::new(format!(
            "{command} takes no argument, got {}",
            shown(arg.to_str().unwrap_or(""))
        ))),
    }
}

/// An argument as it may be shown back: short plain words only, so that a URL or a key
/// given in the wrong place is never printed.
fn shown(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg.len() <= 48
        && !near_rpc::client::looks_like_secret(arg.trim_start_matches('-'))
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if plain {
        format!("`{arg}`")
    } else {
        "(an argument not shown)".to_owned()
    }
}

fn parse_timeout(text: &str) -> Result<Duration, UsageError> {
    let error = || {
        UsageError::new(format!(
            "--timeout takes a positive number of seconds, not {}",
            shown(text)
        ))
    };
    let seconds: f64 = text.parse().map_err(|_| error())?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(error());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| error())
}

/// Decodes an enum from its wire name through serde, the same way a response would be.
fn wire_name<T: serde::de::DeserializeOwned>(
    option: &str,
    text: &str,
    is_unknown: impl Fn(&T) -> bool,
) -> Result<T, UsageError> {
    let unknown = || {
        UsageError::new(format!(
            "{option}: {} is not one of the accepted names (see --help)",
            shown(text)
        ))
    };
    let value: T = serde_json::from_value(Value::String(text.to_owned())).map_err(|_| unknown())?;
    if is_unknown(&value) {
        return Err(unknown());
    }
    Ok(value)
}

fn take(given: &mut Vec<Given>, name: &str) -> Option<String> {
    let index = given.iter().position(|g| g.name == name)?;
    // A flag (no value) reads as an empty string.
    Some(given.remove(index).value.unwrap_or_default())
}

fn tx_status(mut given: Vec<Given>) -> Result<Command, UsageError> {
    let hash = take(&mut given, "--hash");
    let sender = take(&mut given, "--sender");
    let signed = take(&mut given, "--signed-tx");
    let wait_until = take(&mut given, "--wait-until")
        .map(|level| {
            wire_name("--wait-until", &level, |s: &TxExecutionStatus| {
                matches!(s, TxExecutionStatus::Unknown(_))
            })
        })
        .transpose()?;
    let tx = match (hash, sender, signed) {
        (Some(hash), Some(sender), None) => {
            let tx_hash: CryptoHash = hash
                .parse()
                .map_err(|e| UsageError::new(format!("--hash is not a transaction hash: {e}")))?;
            let sender_account_id: AccountId = sender
                .parse()
                .map_err(|e| UsageError::new(format!("--sender is not an account id: {e}")))?;
            TxRef::Hash {
                tx_hash,
                sender_account_id,
            }
        }
        (None, None, Some(signed)) if !signed.trim().is_empty() => TxRef::Signed(signed),
        (None, None, Some(_)) => {
            return Err(UsageError::new(
                "--signed-tx needs the base64 of a signed transaction",
            ))
        }
        (_, _, Some(_)) => {
            return Err(UsageError::new(
                "give either --hash and --sender, or --signed-tx, not both",
            ))
        }
        (Some(_), None, None) => return Err(UsageError::new("--hash needs --sender too")),
        (None, Some(_), None) => return Err(UsageError::new("--sender needs --hash too")),
        (None, None, None) => {
            return Err(UsageError::new(
                "tx-status needs --hash and --sender, or --signed-tx",
            ))
        }
    };
    Ok(Command::TxStatus { tx, wait_until })
}

fn protocol_config(mut given: Vec<Given>) -> Result<BlockReference, UsageError> {
    let finality = take(&mut given, "--finality");
    let block_id = take(&mut given, "--block-id");
    let genesis = take(&mut given, "--genesis").is_some();
    match (finality, block_id, genesis) {
        (None, None, false) => Ok(Finality::Final.into()),
        (Some(finality), None, false) => {
            let finality = wire_name("--finality", &finality, |f: &Finality| {
                matches!(f, Finality::Unknown(_))
            })?;
            Ok(finality.into())
        }
        (None, Some(block_id), false) => {
            let block_id: BlockId = block_id
                .parse()
                .map_err(|e| UsageError::new(format!("--block-id: {e}")))?;
            Ok(block_id.into())
        }
        (None, None, true) => Ok(SyncCheckpoint::Genesis.into()),
        _ => Err(UsageError::new(
            "give at most one of --finality, --block-id and --genesis",
        )),
    }
}

/// The method named `name`, as its `'static` name in `methods::ALL`.
fn method(name: Option<&OsString>, command: &str) -> Result<&'static str, UsageError> {
    let Some(name) = name else {
        return Err(UsageError::new(format!("{command} needs a METHOD")));
    };
    let name = name.to_str().unwrap_or("");
    methods::ALL
        .iter()
        .copied()
        .find(|m| *m == name)
        .ok_or_else(|| {
            UsageError(format!(
                "unknown method {}; `near-rpc {command}` accepts these names:\n{}",
                shown(name),
                wrap(methods::ALL, 88)
            ))
        })
}

/// The names, comma-separated, in indented lines of at most `width` characters.
fn wrap(names: &[&str], width: usize) -> String {
    let mut lines = vec![String::from("  ")];
    for (i, name) in names.iter().enumerate() {
        let piece = if i + 1 < names.len() {
            format!("{name},")
        } else {
            (*name).to_owned()
        };
        let line = lines.last_mut().map(|l| (l.len(), l));
        match line {
            Some((len, line)) if len + piece.len() < width || len <= 2 => {
                if len > 2 {
                    line.push(' ');
                }
                line.push_str(&piece);
            }
            _ => lines.push(format!("  {piece}")),
        }
    }
    lines.join("\n")
}

fn call(rest: Vec<OsString>) -> Result<Command, UsageError> {
    let method = method(rest.first(), "call")?;
    let params = match rest.get(1) {
        None => Value::Null,
        Some(text) => {
            let text = text
                .to_str()
                .ok_or_else(|| UsageError::new("PARAMS_JSON is not valid UTF-8"))?;
            serde_json::from_str(text)
                .map_err(|e| UsageError::new(format!("PARAMS_JSON is not valid JSON: {e}")))?
        }
    };
    if rest.len() > 2 {
        return Err(UsageError::new(
            "call takes METHOD and at most one PARAMS_JSON (quote the JSON)",
        ));
    }
    Ok(Command::Call { method, params })
}

fn decode(rest: Vec<OsString>) -> Result<Command, UsageError> {
    let method = method(rest.first(), "decode")?;
    let input = match rest.get(1) {
        None => Input::Stdin,
        Some(path) if path == "-" => Input::Stdin,
        Some(path) => Input::File(PathBuf::from(path)),
    };
    if rest.len() > 2 {
        return Err(UsageError::new("decode takes METHOD and at most one FILE"));
    }
    Ok(Command::Decode { method, input })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(args: &[&str]) -> Result<Invocation, UsageError> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn networks_and_default() {
        let inv = parse_str(&["genesis-config"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["https://rpc.mainnet.near.org"]);
        let inv = parse_str(&["--network", "testnet", "genesis-config"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["https://rpc.testnet.near.org"]);
        let inv = parse_str(&["genesis-config", "--network=mainnet"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["https://rpc.mainnet.near.org"]);
        let inv = parse_str(&["--url", "http://a", "--url=http://b", "genesis-config"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["http://a", "http://b"]);
        assert!(parse_str(&["--network", "devnet", "genesis-config"]).is_err());
        assert!(parse_str(&["--network", "testnet", "--url", "http://a", "status"]).is_err());
    }

    #[test]
    fn global_options() {
        let inv = parse_str(&[
            "--api-key",
            "k",
            "--method-in-path",
            "--timeout",
            "1.5",
            "--retries",
            "0",
            "genesis-config",
        ])
        .unwrap();
        assert_eq!(inv.options.api_key.as_deref(), Some("k"));
        assert!(inv.options.method_in_path);
        assert_eq!(inv.options.timeout, Some(Duration::from_millis(1500)));
        assert_eq!(inv.options.retries, Some(0));
        for bad in ["0", "-1", "NaN", "inf", "x", "1e30"] {
            assert!(
                parse_str(&["--timeout", bad, "genesis-config"]).is_err(),
                "{bad}"
            );
        }
        assert!(parse_str(&["--retries", "-1", "genesis-config"]).is_err());
        assert!(parse_str(&["--retries", "1", "--retries", "2", "genesis-config"]).is_err());
        assert!(parse_str(&["--method-in-path=yes", "genesis-config"]).is_err());
        assert!(parse_str(&["--url"]).is_err());
    }

    #[test]
    fn commands() {
        let inv = parse_str(&["protocol-config"]).unwrap();
        assert_eq!(inv.command, Command::ProtocolConfig(Finality::Final.into()));
        let inv = parse_str(&["protocol-config", "--block-id", "7"]).unwrap();
        assert_eq!(
            inv.command,
            Command::ProtocolConfig(BlockId::Height(7).into())
        );
        let inv = parse_str(&["protocol-config", "--finality=near-final"]).unwrap();
        assert_eq!(
            inv.command,
            Command::ProtocolConfig(Finality::NearFinal.into())
        );
        assert!(parse_str(&["protocol-config", "--finality", "Final"]).is_err());
        assert!(parse_str(&["protocol-config", "--genesis", "--block-id", "1"]).is_err());
        let inv = parse_str(&["call", "block", "{\"finality\":\"final\"}"]).unwrap();
        assert_eq!(
            inv.command,
            Command::Call {
                method: "block",
                params: serde_json::json!({"finality": "final"})
            }
        );
        let inv = parse_str(&["call", "health"]).unwrap();
        assert_eq!(
            inv.command,
            Command::Call {
                method: "health",
                params: Value::Null
            }
        );
        let inv = parse_str(&["call", "gas_price", "--", "-1"]).unwrap();
        assert!(matches!(inv.command, Command::Call { .. }));
        let inv = parse_str(&["decode", "status", "-"]).unwrap();
        assert_eq!(
            inv.command,
            Command::Decode {
                method: "status",
                input: Input::Stdin
            }
        );
        assert!(parse_str(&["genesis-config", "extra"]).is_err());
        assert!(parse_str(&["genesis-config", "--hash", "x"]).is_err());
        assert!(parse_str(&["call"]).is_err());
        assert!(parse_str(&["decode", "nope"]).is_err());
        assert_eq!(parse_str(&["x", "--help"]).unwrap().command, Command::Help);
        assert_eq!(parse_str(&["--version"]).unwrap().command, Command::Version);
    }

    #[test]
    fn tx_status_options() {
        let hash = "11111111111111111111111111111111";
        let inv = parse_str(&[
            "tx-status",
            "--hash",
            hash,
            "--sender",
            "alice.near",
            "--wait-until",
            "FINAL",
        ])
        .unwrap();
        let Command::TxStatus { tx, wait_until } = inv.command else {
            panic!("not tx-status");
        };
        assert_eq!(wait_until, Some(TxExecutionStatus::Final));
        assert!(matches!(tx, TxRef::Hash { .. }));
        let bad = [
            vec!["tx-status"],
            vec!["tx-status", "--hash", hash],
            vec!["tx-status", "--sender", "alice.near"],
            vec!["tx-status", "--hash", "nope", "--sender", "alice.near"],
            vec!["tx-status", "--hash", hash, "--sender", "Not Valid"],
            vec!["tx-status", "--signed-tx", "AA==", "--hash", hash],
            vec!["tx-status", "--signed-tx", "AA==", "--wait-until", "SOON"],
            vec!["tx-status", "--signed-tx", "AA==", "--wait-until", "final"],
        ];
        for args in bad {
            assert!(parse_str(&args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn secrets_are_not_echoed() {
        let cases = [
            vec!["--api-kee", "SECRET", "status"],
            vec!["--urll=https://h.io/SECRET", "status"],
            vec!["https://h.io/SECRET", "status"],
            vec!["--network", "https://h.io/SECRET", "status"],
            vec!["--api-kee", "a1b2c3d4e5f60718", "status"],
            vec!["a1b2c3d4e5f60718"],
            vec!["--network", "a1b2c3d4e5f60718", "status"],
            vec!["--a1b2c3d4e5f60718", "status"],
            vec!["genesis-config", "a1b2c3d4e5f60718"],
            vec!["--retries", "a1b2c3d4e5f60718", "status"],
            vec!["--timeout", "a1b2c3d4e5f60718", "status"],
            vec![
                "tx-status",
                "--signed-tx",
                "AA==",
                "--wait-until",
                "a1b2c3d4e5f60718",
            ],
            vec!["call", "a1b2c3d4e5f60718"],
            vec!["decode", "a1b2c3d4e5f60718"],
        ];
        for args in cases {
            let UsageError(message) = parse_str(&args).unwrap_err();
            assert!(!message.contains("SECRET"), "{message}");
            assert!(!message.contains("a1b2c3d4e5f60718"), "{args:?}: {message}");
        }
    }

    #[test]
    fn wrapping_keeps_every_name() {
        let text = wrap(methods::ALL, 88);
        assert!(text.lines().all(|l| l.len() <= 88));
        for name in methods::ALL {
            assert!(text.contains(name));
        }
    }
}
