//! The command line's declarations: global options (accepted before or after the
//! command) and one subcommand per call, declared with clap's derive, and [`parse`],
//! which turns the arguments into an [`Invocation`]. Parsing touches no network.
//!
//! The parsers that turn each value's text into the library's types are in [`parsers`];
//! the scrubbing of every argument that may be a secret (an API key, a URL with a key in
//! its path) from clap's messages is in [`secrets`].

mod parsers;
mod secrets;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgGroup, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use near_rpc::client::Endpoint;
use near_rpc::tx::{NonceMode, SignedDelegateAction};
use near_rpc::types::{Finality, TxExecutionStatus};
use near_rpc::{AccountId, BlockId, CryptoHash, PublicKey};
use near_rpc_mock::Origin;

use parsers::{
    args_base64, block_id, block_time, call_method, decode_method, height, json, keep_blocks,
    nonce, nonce_index, parse_as, port, prefix_base64, retries, shard, signed_delegate, signed_tx,
    timeout,
};
use secrets::clap_error;

/// The environment variable `--url` falls back to.
pub const URL_ENV: &str = "NEAR_RPC_URL";
/// The environment variable `--api-key` falls back to.
pub const API_KEY_ENV: &str = "NEAR_RPC_API_KEY";

/// Printed after the option list of `near-rpc --help`.
const AFTER_HELP: &str = "\
Output:
  The typed result as pretty JSON on stdout (views add block_height and block_hash). A
  JSON-RPC error from the node is printed typed (name, cause, code, message, data) as
  JSON on stdout, with a one-line summary on stderr.

Exit status:
  0  success
  1  the output could not be written
  2  usage error: bad options, params JSON that doesn't parse or check, unknown method,
     bad hash or account, base64 that doesn't decode, unreadable FILE, a --key-file
     whose key is not an access key of its account, a delegate action that cannot be
     signed or relayed
  3  the node answered with a JSON-RPC error (also an error inside a `query` result),
     or a transaction sent by `send`, `transfer` or `relay` failed on chain
  4  the response could not be decoded (the message names the JSON path)
  5  the node could not be used: connection, TLS, timeout, HTTP error page, refused
     redirect, wrong response id, response too large, deadline, every endpoint failed;
     for `send`, `transfer` and `relay`, the transaction's outcome is unknown (it may still
     execute): {\"unresolved\": HASH, \"signed_tx_base64\": ...} is printed on stdout
  6  `verify`: the proof or block does not verify (the failed step on stderr)

Neither an API key nor a URL path is ever printed.";

/// A usage error: the message to print (pointing at `--help`), or clap's own rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Parsed {
    /// A command line to run.
    Run(Box<Invocation>),
    /// Text to print on stdout, then exit 0 (`--help`, `--version`).
    Print(String),
    /// A usage error, already scrubbed of secrets.
    Usage(String),
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// How to reach the node.
    pub options: Options,
    /// What to do.
    pub command: Command,
}

/// The command line as clap sees it.
#[derive(Parser, Debug)]
#[command(
    name = "near-rpc",
    about = "Typed calls to a NEAR Protocol JSON-RPC node, and offline response decoding.",
    after_help = AFTER_HELP,
    max_term_width = 100
)]
struct Cli {
    #[command(flatten)]
    options: Global,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The global options, as clap parses them.
#[derive(Args, Debug)]
struct Global {
    /// The node's URL; give it several times to fail over in order. An API key may be
    /// part of the path; it is never printed.
    #[arg(
        long = "url",
        value_name = "URL",
        global = true,
        env = URL_ENV,
        hide_env_values = true
    )]
    urls: Vec<String>,
    /// mainnet (https://rpc.mainnet.near.org, the default), testnet
    /// (https://rpc.testnet.near.org), or mock: the mock node in process, no network
    /// needed. Not together with --url.
    #[arg(
        long,
        value_enum,
        value_name = "NAME",
        global = true,
        ignore_case = true
    )]
    network: Option<Network>,
    /// Send the key in an `x-api-key` header to the first endpoint only (never to a
    /// failover URL, never after a redirect); it is never printed.
    #[arg(
        long,
        value_name = "KEY",
        global = true,
        env = API_KEY_ENV,
        hide_env_values = true
    )]
    api_key: Option<String>,
    /// An archival node's URL: a read of a block older than the nodes of --url keep
    /// goes to it; give it several times to fail over in order. Transactions never go
    /// to it.
    #[arg(long = "archival-url", value_name = "URL", global = true)]
    archival_urls: Vec<String>,
    /// POST to {URL}/{method} instead of the JSON-RPC POST to {URL}.
    #[arg(long, global = true)]
    method_in_path: bool,
    /// The time one attempt may take (default 30; fractions allowed).
    #[arg(
        long,
        value_name = "SECS",
        global = true,
        allow_negative_numbers = true,
        value_parser = timeout
    )]
    timeout: Option<Duration>,
    /// Retries of a failing read call (default 3; 0 disables them; at most 10).
    #[arg(
        long,
        value_name = "N",
        global = true,
        allow_negative_numbers = true,
        value_parser = retries
    )]
    retries: Option<u32>,
}

/// Which public network to use when no `--url` is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
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
    /// `--url` values (or `NEAR_RPC_URL`), in order; when empty, the network's URL.
    pub urls: Vec<String>,
    /// `--network`, when given.
    pub network: Option<Network>,
    /// `--api-key` (or `NEAR_RPC_API_KEY`).
    pub api_key: Option<String>,
    /// `--archival-url` values, in order.
    pub archival_urls: Vec<String>,
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
            self.network.unwrap_or_default().url().into_iter().collect()
        } else {
            self.urls.iter().map(String::as_str).collect()
        }
    }

    /// Whether the node is the default one: neither a URL nor a network was given.
    pub fn uses_default_endpoint(&self) -> bool {
        self.urls.is_empty() && self.network.is_none()
    }
}

/// A finality, by its wire name (case-insensitive on the command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FinalityArg {
    /// The latest block, maybe not final.
    Optimistic,
    /// A block with a final successor... or nearly.
    #[value(name = "near-final")]
    NearFinal,
    /// The latest final block.
    Final,
}

impl From<FinalityArg> for Finality {
    fn from(finality: FinalityArg) -> Self {
        match finality {
            FinalityArg::Optimistic => Finality::Optimistic,
            FinalityArg::NearFinal => Finality::NearFinal,
            FinalityArg::Final => Finality::Final,
        }
    }
}

/// How long a transaction call waits, by its wire name (case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WaitUntil {
    /// Don't wait.
    #[value(name = "NONE")]
    None,
    /// Included in a block.
    #[value(name = "INCLUDED")]
    Included,
    /// Executed, not necessarily final (the default).
    #[value(name = "EXECUTED_OPTIMISTIC")]
    ExecutedOptimistic,
    /// Included in a final block.
    #[value(name = "INCLUDED_FINAL")]
    IncludedFinal,
    /// Executed, in final blocks.
    #[value(name = "EXECUTED")]
    Executed,
    /// Executed, and every block of it final.
    #[value(name = "FINAL")]
    Final,
}

impl From<WaitUntil> for TxExecutionStatus {
    fn from(level: WaitUntil) -> Self {
        match level {
            WaitUntil::None => TxExecutionStatus::None,
            WaitUntil::Included => TxExecutionStatus::Included,
            WaitUntil::ExecutedOptimistic => TxExecutionStatus::ExecutedOptimistic,
            WaitUntil::IncludedFinal => TxExecutionStatus::IncludedFinal,
            WaitUntil::Executed => TxExecutionStatus::Executed,
            WaitUntil::Final => TxExecutionStatus::Final,
        }
    }
}

/// The block a view reads at: `--finality` or `--block` (latest final by default).
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct ViewAt {
    /// Read at the latest block of this finality (default: final).
    #[arg(long, value_enum, ignore_case = true, conflicts_with = "block")]
    pub finality: Option<FinalityArg>,
    /// Read at this block.
    #[arg(
        long,
        value_name = "HEIGHT_OR_HASH",
        allow_negative_numbers = true,
        value_parser = block_id
    )]
    pub block: Option<BlockId>,
}

/// Bytes given as base64 (one value, not a list of bytes to clap).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

/// How a transaction's nonce is given: with either option, the transaction is nearcore's
/// `TransactionV1`; with neither, the ordinary `TransactionV0`.
#[derive(Args, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NonceArgs {
    /// Sign with a gas key: the nonce index I (0 to 65535) of the gas key's nonce
    /// (a version-1 transaction with `GasKeyNonce { nonce, nonce_index: I }`).
    #[arg(long, value_name = "I", allow_negative_numbers = true, value_parser = nonce_index)]
    pub nonce_index: Option<u16>,
    /// How the node checks the nonce: monotonic (above the key's, the default) or strict
    /// (exactly one above). Given, the transaction is version 1.
    #[arg(long, value_enum, value_name = "MODE", ignore_case = true)]
    pub nonce_mode: Option<NonceModeArg>,
}

/// A nonce mode, by its name in nearcore's JSON (case-insensitive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NonceModeArg {
    /// Any nonce above the key's.
    Monotonic,
    /// Exactly one above the key's.
    Strict,
}

impl From<NonceModeArg> for NonceMode {
    fn from(mode: NonceModeArg) -> Self {
        match mode {
            NonceModeArg::Monotonic => NonceMode::Monotonic,
            NonceModeArg::Strict => NonceMode::Strict,
        }
    }
}

/// What to do.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// EXPERIMENTAL_tx_status: a transaction's status and outcome, with receipts.
    #[command(group(ArgGroup::new("tx").required(true).args(["hash", "signed_tx"])))]
    TxStatus {
        /// The transaction hash (with --sender).
        #[arg(long, value_parser = parse_as::<CryptoHash>, requires = "sender")]
        hash: Option<CryptoHash>,
        /// The account that signed it (with --hash).
        #[arg(long, value_name = "ACCOUNT", value_parser = parse_as::<AccountId>, requires = "hash")]
        sender: Option<AccountId>,
        /// The signed transaction, base64 of its borsh bytes (instead of --hash).
        #[arg(long, value_name = "BASE64", conflicts_with = "sender", value_parser = signed_tx)]
        signed_tx: Option<String>,
        /// How long to wait (default EXECUTED_OPTIMISTIC).
        #[arg(long, value_enum, value_name = "LEVEL", ignore_case = true)]
        wait_until: Option<WaitUntil>,
    },
    /// genesis_config: the chain's genesis configuration.
    GenesisConfig,
    /// EXPERIMENTAL_protocol_config, at `--finality final` unless told otherwise.
    #[command(group(ArgGroup::new("at").args(["finality", "block_id", "genesis"])))]
    ProtocolConfig {
        /// At the latest block of this finality.
        #[arg(long, value_enum, ignore_case = true)]
        finality: Option<FinalityArg>,
        /// At this block.
        #[arg(
            long,
            value_name = "HEIGHT_OR_HASH",
            allow_negative_numbers = true,
            value_parser = block_id
        )]
        block_id: Option<BlockId>,
        /// At genesis.
        #[arg(long)]
        genesis: bool,
    },
    /// Any method of the spec, by its JSON-RPC name, with checked params.
    ///
    /// PARAMS_JSON (default: none, for
    /// methods whose params are all optional) is checked against the method's typed
    /// request first: unknown fields and wrong types are refused, naming their JSON path.
    /// The positional arrays nearcore accepts (`gas_price [100]`, `tx [HASH, SENDER]`,
    /// ...) are sent in their named form.
    Call {
        /// The method's JSON-RPC name (e.g. block, query, EXPERIMENTAL_tx_status).
        #[arg(value_name = "METHOD", value_parser = call_method)]
        method: &'static str,
        /// The params, as JSON.
        #[arg(value_name = "PARAMS_JSON", allow_negative_numbers = true)]
        params: Option<String>,
    },
    /// Decode a response body of METHOD, offline.
    ///
    /// The body is read from FILE (or stdin, without FILE or with `-`) and decoded
    /// with the typed bindings. Errors name the JSON path of the bad value.
    Decode {
        /// The method's JSON-RPC name.
        #[arg(value_name = "METHOD", value_parser = decode_method)]
        method: &'static str,
        /// The response body (default: stdin).
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        /// Also list on stderr, with their JSON paths, the variants the bindings keep
        /// as unknown and the fields they ignore: where the node is ahead of them.
        #[arg(long)]
        report_unknown: bool,
    },
    /// Run the mock node on 127.0.0.1 in the foreground and print its URL; Ctrl-C stops
    /// it.
    ///
    /// It answers local clients only: a request whose Host is not 127.0.0.1:PORT,
    /// localhost:PORT or [::1]:PORT is refused (403), and so is one from a web page (an
    /// Origin header) unless --allow-origin names its origin. A request runs only once
    /// its whole body (exactly its content-length, up to 16 MiB; chunked bodies are
    /// refused) has arrived; the request head must arrive within 10 s, the body within
    /// 30 s. At most 256 connections are served at once (the next wait in the backlog);
    /// running out of file descriptors only pauses accepting. It keeps its last 1,000
    /// requests within 4 MiB, each body's first 64 KiB.
    Mock {
        /// The port (default: any free one).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = port)]
        port: u16,
        /// Answer from a recorded cassette (JSON lines) first.
        #[arg(long, value_name = "FILE")]
        replay: Option<PathBuf>,
        /// Write a near-cli credential file, DIR/mock/ACCOUNT.json, for every mock
        /// account with a full-access key, before printing the URL.
        ///
        /// Files are 0600 and named only after valid account ids; each replaces
        /// whatever is at its name (a link is replaced, not followed). DIR and DIR/mock
        /// are created 0700; an existing one writable by group or others, or owned by
        /// another user than you or root, is refused, not changed (chmod go-w DIR), and
        /// DIR/mock may not be a symbolic link.
        #[arg(long, value_name = "DIR")]
        credentials_dir: Option<PathBuf>,
        /// Start from the chain saved in FILE (by --save) instead of the default one.
        ///
        /// FILE may come from anyone: it is read up to 64 MiB, its account ids must be
        /// valid NEAR account ids, and its balances, nonces and gas within what the
        /// mock adds up without overflow; otherwise it is refused, naming the JSON path
        /// at fault and the limit.
        #[arg(long, value_name = "FILE")]
        load: Option<PathBuf>,
        /// Save the chain to FILE when stopped (Ctrl-C, SIGTERM).
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// How long a request that waits for a transaction waits before the next block
        /// is produced, in milliseconds (0: at once; the window in which other requests
        /// join the same block).
        #[arg(long, value_name = "MS", default_value_t = 5, allow_negative_numbers = true, value_parser = block_time)]
        block_time: u64,
        /// Accept requests from web pages of ORIGIN (SCHEME://HOST[:PORT], as browsers
        /// send it in Origin, e.g. http://localhost:5173); repeat for more. Requests with
        /// any other Origin are refused.
        #[arg(long, value_name = "ORIGIN", value_parser = parse_as::<Origin>)]
        allow_origin: Vec<Origin>,
        /// Keep only the last N blocks below the head, as a regular (not archival) node:
        /// reads of older blocks answer GARBAGE_COLLECTED_BLOCK or UNKNOWN_BLOCK.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = keep_blocks)]
        keep_blocks: Option<u64>,
    },
    /// Run a recording proxy to the node of --url/--network, for `mock --replay`.
    ///
    /// It listens on 127.0.0.1 and prints its URL; every exchange is appended to FILE (JSON lines, for `mock --replay`). URLs and
    /// keys are never written; keys a node echoes are masked.
    ///
    /// It holds your API key, so it forwards requests from local clients only: a request
    /// whose Host is not 127.0.0.1:PORT, localhost:PORT or [::1]:PORT (a web page that
    /// pointed its own name at 127.0.0.1) is refused (403) and never reaches the node,
    /// and so is one from a web page (an Origin header) unless --allow-origin names its
    /// origin. Only whole requests are forwarded, under the same limits as `mock`.
    Record {
        /// The cassette file to append to.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// The port (default: any free one).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = port)]
        port: u16,
        /// Forward requests from web pages of ORIGIN (SCHEME://HOST[:PORT], e.g.
        /// http://localhost:5173); repeat for more. Requests with any other Origin are
        /// refused.
        #[arg(long, value_name = "ORIGIN", value_parser = parse_as::<Origin>)]
        allow_origin: Vec<Origin>,
    },
    /// query view_account: an account's balance, locked stake, storage and code hash.
    Account {
        /// The account id.
        #[arg(value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        account: AccountId,
        #[command(flatten)]
        at: ViewAt,
    },
    /// query view_access_key: one access key's nonce and permission.
    AccessKey {
        /// The account id.
        #[arg(value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        account: AccountId,
        /// The public key (ed25519:... or secp256k1:...).
        #[arg(value_name = "PUBLIC_KEY", value_parser = parse_as::<PublicKey>)]
        public_key: PublicKey,
        #[command(flatten)]
        at: ViewAt,
    },
    /// query view_access_key_list: every access key of an account.
    AccessKeys {
        /// The account id.
        #[arg(value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        account: AccountId,
        #[command(flatten)]
        at: ViewAt,
    },
    /// query view_code: a contract's code (base64) and its hash.
    Code {
        /// The contract's account id.
        #[arg(value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        account: AccountId,
        #[command(flatten)]
        at: ViewAt,
    },
    /// query view_state: a contract's storage entries.
    ///
    /// Those whose key starts with the prefix; all of them by default.
    State {
        /// The contract's account id.
        #[arg(value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        account: AccountId,
        /// Only keys starting with this text.
        #[arg(long, value_name = "TEXT", conflicts_with = "prefix_base64")]
        prefix: Option<String>,
        /// Only keys starting with these bytes (base64).
        #[arg(long, value_name = "B64", value_parser = prefix_base64)]
        prefix_base64: Option<Bytes>,
        /// Include the trie proof of the entries.
        #[arg(long)]
        proof: bool,
        #[command(flatten)]
        at: ViewAt,
    },
    /// query call_function: call a contract's view method.
    ///
    /// The result is printed as JSON
    /// when it is JSON, as text otherwise; the contract's logs go to stderr.
    View {
        /// The contract's account id.
        #[arg(value_name = "CONTRACT", value_parser = parse_as::<AccountId>)]
        contract: AccountId,
        /// The method to call.
        #[arg(value_name = "METHOD")]
        method: String,
        /// The arguments, as JSON.
        #[arg(long, value_name = "JSON", conflicts_with = "args_base64", value_parser = json)]
        args: Option<serde_json::Value>,
        /// The arguments, as base64 of their bytes.
        #[arg(long, value_name = "B64", value_parser = args_base64)]
        args_base64: Option<Bytes>,
        #[command(flatten)]
        at: ViewAt,
    },
    /// block: a block by finality (default final), height or hash.
    #[command(group(ArgGroup::new("at").args(["finality", "height", "hash"])))]
    Block {
        /// The latest block of this finality.
        #[arg(long, value_enum, ignore_case = true)]
        finality: Option<FinalityArg>,
        /// The block at this height.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = height)]
        height: Option<u64>,
        /// The block with this hash.
        #[arg(long, value_name = "HASH", value_parser = parse_as::<CryptoHash>)]
        hash: Option<CryptoHash>,
    },
    /// chunk: by chunk hash, or by block and shard.
    #[command(group(ArgGroup::new("which").required(true).args(["chunk_hash", "block"])))]
    Chunk {
        /// The chunk's hash.
        #[arg(long, value_name = "HASH", value_parser = parse_as::<CryptoHash>)]
        chunk_hash: Option<CryptoHash>,
        /// The block (with --shard).
        #[arg(
            long,
            value_name = "HEIGHT_OR_HASH",
            allow_negative_numbers = true,
            value_parser = block_id,
            requires = "shard"
        )]
        block: Option<BlockId>,
        /// The shard (with --block).
        #[arg(
            long,
            value_name = "N",
            allow_negative_numbers = true,
            value_parser = shard,
            requires = "block"
        )]
        shard: Option<u64>,
    },
    /// gas_price: in yoctoNEAR per unit of gas, at a block or the latest one.
    GasPrice {
        /// At this block (default: the latest).
        #[arg(
            long,
            value_name = "HEIGHT_OR_HASH",
            allow_negative_numbers = true,
            value_parser = block_id
        )]
        block: Option<BlockId>,
    },
    /// status: the node's version, chain, sync state and validators.
    Status,
    /// validators: of the latest epoch (default), an epoch by id, or the epoch a block
    /// ends.
    Validators {
        /// The epoch with this id.
        #[arg(long, value_name = "HASH", value_parser = parse_as::<CryptoHash>, conflicts_with = "block")]
        epoch_id: Option<CryptoHash>,
        /// The epoch this block ends.
        #[arg(
            long,
            value_name = "HEIGHT_OR_HASH",
            allow_negative_numbers = true,
            value_parser = block_id
        )]
        block: Option<BlockId>,
    },
    /// send_tx: submit a signed transaction as it is and find out what became of it.
    ///
    /// Nothing is signed: the same bytes execute at most once however often they are
    /// sent, so this is how a transaction printed as unresolved is sent again. Success is
    /// only the outcome of its own hash at LEVEL or a stricter one; any other answer is
    /// resolved by asking for its status by hash. A refusal prints `{"rejected": HASH,
    /// "signed_tx_base64": ...}`, then the node's error, and exits 3; an outcome still
    /// unknown prints `{"unresolved": HASH, "signed_tx_base64": ...}` and exits 5 (so does
    /// Ctrl-C or SIGTERM while it is in flight).
    #[command(group(ArgGroup::new("tx").required(true).args(["base64", "file"])))]
    SendTx {
        /// The signed transaction, base64 of its borsh bytes.
        #[arg(long, value_name = "B64", value_parser = signed_tx)]
        base64: Option<String>,
        /// A file holding the signed transaction's borsh bytes.
        #[arg(long, value_name = "PATH")]
        file: Option<PathBuf>,
        /// How long to wait (default EXECUTED_OPTIMISTIC).
        #[arg(long, value_enum, value_name = "LEVEL", ignore_case = true)]
        wait_until: Option<WaitUntil>,
    },
    /// Sign a transaction offline; print `{"signed_tx_base64", "hash"}` as one JSON line.
    ///
    /// ACTIONS_JSON is a JSON array of actions in the spec's ActionView form, e.g.
    /// `["CreateAccount", {"Transfer": {"deposit": "1000"}}]` (amounts in yoctoNEAR;
    /// a deployment's `code` is the base64 of the Wasm). Nothing is sent. The transaction
    /// is nearcore's TransactionV0; with --nonce-index or --nonce-mode, TransactionV1.
    Sign {
        /// A near-cli credential file (`account_id`, `public_key`, `private_key`).
        #[arg(long, value_name = "FILE")]
        key_file: PathBuf,
        /// The access key's nonce + 1 (or any higher).
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = nonce)]
        nonce: u64,
        /// A recent block's hash.
        #[arg(long, value_name = "HASH", value_parser = parse_as::<CryptoHash>)]
        block_hash: CryptoHash,
        /// The account the actions apply to.
        #[arg(long, value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        receiver: AccountId,
        /// The signing account (default: the key file's `account_id`, which it must be).
        #[arg(long, value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        signer: Option<AccountId>,
        #[command(flatten)]
        version: NonceArgs,
        /// The actions, as a JSON array.
        #[arg(value_name = "ACTIONS_JSON")]
        actions: String,
    },
    /// Sign a delegate action (NEP-366) offline, for a relayer to submit; print
    /// `{"signed_delegate_action_base64", "hash"}` as one JSON line.
    ///
    /// The base64 is of the signed delegate action's borsh bytes (what `relay` takes);
    /// the hash is the one signed (NEP-461: sha256 of the prefix 2^30 + 366 and the
    /// delegate action's bytes). ACTIONS_JSON is as for `sign`, without a delegate action
    /// (one cannot hold another). Nothing is sent.
    SignDelegate {
        /// A near-cli credential file; its key signs (and is the delegate's `public_key`).
        #[arg(long, value_name = "FILE")]
        key_file: PathBuf,
        /// The access key's nonce + 1 (or any higher).
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = nonce)]
        nonce: u64,
        /// The last block height at which it may execute.
        #[arg(long, value_name = "H", allow_negative_numbers = true, value_parser = height)]
        max_block_height: u64,
        /// The account the actions apply to.
        #[arg(long, value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        receiver: AccountId,
        /// The sender (default: the key file's `account_id`, which it must be).
        #[arg(long, value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        signer: Option<AccountId>,
        /// The actions, as a JSON array.
        #[arg(value_name = "ACTIONS_JSON")]
        actions: String,
    },
    /// Submit a signed delegate action as the relayer; print the outcome as `send` does.
    ///
    /// The key file's account signs and pays for a transaction to the delegate action's
    /// sender holding it (one Delegate action), sent through the same write path as
    /// `send`, with the same output and exit status: `{"rejected"|"unresolved": HASH,
    /// "signed_tx_base64": ...}` on stdout when it fails, the outcome otherwise, exit 3
    /// when it fails on chain (the delegate's own actions included). A delegate action
    /// whose signature does not verify is refused (exit 2) before anything is sent.
    Relay {
        /// The relayer's near-cli credential file; its account signs and pays.
        #[arg(long, value_name = "FILE")]
        key_file: PathBuf,
        /// How long to wait (default EXECUTED_OPTIMISTIC).
        #[arg(long, value_enum, value_name = "LEVEL", ignore_case = true)]
        wait_until: Option<WaitUntil>,
        /// The signed delegate action, base64 of its borsh bytes (as `sign-delegate`
        /// prints it).
        #[arg(value_name = "SIGNED_DELEGATE_BASE64", value_parser = signed_delegate)]
        signed_delegate: Box<SignedDelegateAction>,
    },
    /// Sign ACTIONS_JSON with the key file's account and send it; print the outcome.
    ///
    /// The nonce and a recent block hash are read from the node. ACTIONS_JSON is as for
    /// `sign`. A key file whose key is not an access key of its account exits 2. A
    /// transaction that fails on chain exits 3: the outcome on stdout, the failure on
    /// stderr. Success is only the outcome of the transaction's own hash at LEVEL or a
    /// stricter one. When its outcome is unknown (it may have been sent and may still
    /// execute), `{"unresolved": HASH, "signed_tx_base64": ...}` is printed on stdout and
    /// the exit status is 5: look it up with `tx-status` or re-send those bytes with
    /// `send-tx` before sending anything again. Ctrl-C or SIGTERM once it was signed does
    /// the same. A transaction the node refused (and does not know) prints
    /// `{"rejected": HASH, "signed_tx_base64": ...}`, then the node's error, and exits 3.
    Send {
        /// A near-cli credential file; its account signs.
        #[arg(long, value_name = "FILE")]
        key_file: PathBuf,
        /// The account the actions apply to.
        #[arg(long, value_name = "ACCOUNT", value_parser = parse_as::<AccountId>)]
        receiver: AccountId,
        /// How long to wait (default EXECUTED_OPTIMISTIC).
        #[arg(long, value_enum, value_name = "LEVEL", ignore_case = true)]
        wait_until: Option<WaitUntil>,
        /// Send a version-1 transaction with this nonce mode: monotonic (above the key's)
        /// or strict (exactly one above). Without it, the ordinary version 0.
        #[arg(long, value_enum, value_name = "MODE", ignore_case = true)]
        nonce_mode: Option<NonceModeArg>,
        /// The actions, as a JSON array.
        #[arg(value_name = "ACTIONS_JSON")]
        actions: String,
    },
    /// Send NEAR from the key file's account to RECEIVER; print the outcome.
    ///
    /// The nonce and a recent block hash are read from the node. A key file whose key is
    /// not an access key of its account exits 2. A transfer that fails on chain exits 3:
    /// the outcome on stdout, the failure on stderr. Success is only the outcome of the
    /// transaction's own hash at LEVEL or a stricter one. When its outcome is unknown (it
    /// may have been sent and may still execute), `{"unresolved": HASH,
    /// "signed_tx_base64": ...}` is printed on stdout and the exit status is 5: look it up
    /// with `tx-status` or re-send those bytes with `send-tx` before sending anything
    /// again. Ctrl-C or SIGTERM once it was signed does the same. A transfer the node
    /// refused (and does not know) prints `{"rejected": HASH, "signed_tx_base64": ...}`,
    /// then the node's error, and exits 3.
    Transfer {
        /// A near-cli credential file; its account sends.
        #[arg(long, value_name = "FILE")]
        key_file: PathBuf,
        /// Who receives.
        #[arg(value_name = "RECEIVER", value_parser = parse_as::<AccountId>)]
        receiver: AccountId,
        /// How much, in NEAR (`1`, `1.5`, `0.001`; at most 24 decimals).
        #[arg(value_name = "AMOUNT_IN_NEAR", allow_negative_numbers = true)]
        amount: String,
        /// AMOUNT is in yoctoNEAR (10^-24 NEAR), a whole number.
        #[arg(long)]
        yocto: bool,
        /// How long to wait (default EXECUTED_OPTIMISTIC).
        #[arg(long, value_enum, value_name = "LEVEL", ignore_case = true)]
        wait_until: Option<WaitUntil>,
        /// Send a version-1 transaction with this nonce mode: monotonic (above the key's)
        /// or strict (exactly one above). Without it, the ordinary version 0.
        #[arg(long, value_enum, value_name = "MODE", ignore_case = true)]
        nonce_mode: Option<NonceModeArg>,
    },
    /// Check a node's answer, saved in a file, against what you trust; exit 6 if it fails.
    #[command(subcommand)]
    Verify(VerifyCommand),
    /// Print shell completions for SHELL on stdout.
    Completions {
        /// bash, elvish, fish, powershell or zsh.
        #[arg(value_enum, ignore_case = true)]
        shell: clap_complete::Shell,
    },
}

/// What `verify` checks.
#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum VerifyCommand {
    /// An execution proof (a `light_client_proof` answer: envelope or bare result)
    /// against a trusted block Merkle root; prints the verified outcome id and block.
    Proof {
        /// The proof.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The block Merkle root of the light-client head the proof was asked against.
        #[arg(long, value_name = "HASH", value_parser = parse_as::<CryptoHash>)]
        block_merkle_root: CryptoHash,
    },
    /// A light-client block (a `next_light_client_block` answer) as the successor of a
    /// trusted one: heights, epochs, approvals' signatures, stake, next producers.
    LightClientBlock {
        /// The block to check.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The trusted block (with its `next_bps`).
        #[arg(long, value_name = "HEAD_FILE")]
        trusted_head: PathBuf,
    },
}

/// `near-rpc 0.1.0 (nearcore OpenAPI spec 1.2.6)` without the name; a document derived
/// from nearcore's crates says so (`(OpenAPI spec nearcore-0.38.0, derived from nearcore
/// 0.38.0's crates)`).
fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let spec = near_rpc::SPEC_VERSION;
        let described = match spec.strip_prefix("nearcore-") {
            Some(release) => {
                format!("OpenAPI spec {spec}, derived from nearcore {release}'s crates")
            }
            None => format!("nearcore OpenAPI spec {spec}"),
        };
        format!("{} ({described})", env!("CARGO_PKG_VERSION"))
    })
}

/// The clap command, with its version.
pub fn command() -> clap::Command {
    Cli::command().version(version())
}

/// Parses the arguments (with the program name first).
pub fn parse<I, T>(args: I) -> Parsed
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let matches = match command().try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(error) => return clap_error(&error, &args),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return clap_error(&error, &args),
    };
    let Global {
        urls,
        network,
        api_key,
        archival_urls,
        method_in_path,
        timeout,
        retries,
    } = cli.options;
    let urls_from_env = matches!(matches.value_source("urls"), Some(ValueSource::EnvVariable));
    // An explicit --network wins over NEAR_RPC_URL, not over an explicit --url.
    let urls = match (network, urls_from_env) {
        (Some(_), true) => Vec::new(),
        (Some(_), false) if !urls.is_empty() => {
            return Parsed::Usage("give either --url or --network, not both".into())
        }
        _ => urls,
    };
    // Checked here, so that the message names where the URL came from; the endpoint's
    // message never repeats the URL.
    for url in &urls {
        if let Err(e) = url.parse::<Endpoint>() {
            let source = if urls_from_env {
                format!("the environment variable {URL_ENV}")
            } else {
                "--url".to_owned()
            };
            return Parsed::Usage(format!("{source}: {e}"));
        }
    }
    if let Some(e) = archival_urls
        .iter()
        .find_map(|u| u.parse::<Endpoint>().err())
    {
        return Parsed::Usage(format!("--archival-url: {e}"));
    }
    let Some(command) = cli.command else {
        return Parsed::Usage("no command given".into());
    };
    Parsed::Run(Box::new(Invocation {
        options: Options {
            urls,
            network,
            api_key,
            archival_urls,
            method_in_path,
            timeout,
            retries,
        },
        command,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn parse_str(args: &[&str]) -> Result<Invocation, String> {
        let args = std::iter::once("near-rpc").chain(args.iter().copied());
        match parse(args) {
            Parsed::Run(invocation) => Ok(*invocation),
            Parsed::Print(text) => Err(format!("printed: {text}")),
            Parsed::Usage(message) => Err(message),
        }
    }

    #[test]
    fn clap_definitions_are_consistent() {
        command().debug_assert();
    }

    #[test]
    fn networks_and_default() {
        let inv = parse_str(&["genesis-config"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["https://rpc.mainnet.near.org"]);
        assert!(inv.options.uses_default_endpoint());
        let inv = parse_str(&["--network", "testnet", "genesis-config"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["https://rpc.testnet.near.org"]);
        assert!(!inv.options.uses_default_endpoint());
        let inv = parse_str(&["genesis-config", "--network=MAINNET"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["https://rpc.mainnet.near.org"]);
        let inv = parse_str(&["--url", "http://a", "--url=http://b", "genesis-config"]).unwrap();
        assert_eq!(inv.options.endpoints(), ["http://a", "http://b"]);
        assert!(parse_str(&["--network", "devnet", "genesis-config"]).is_err());
        assert!(parse_str(&["--network", "testnet", "--url", "http://a", "status"]).is_err());
    }

    #[test]
    fn global_options_anywhere() {
        let inv = parse_str(&[
            "--api-key",
            "k",
            "--method-in-path",
            "genesis-config",
            "--timeout",
            "1.5",
            "--retries",
            "0",
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
        assert!(parse_str(&["--api-key", "a", "--api-key", "b", "status"]).is_err());
        assert!(parse_str(&["--method-in-path=yes", "genesis-config"]).is_err());
        assert!(parse_str(&["--url"]).is_err());
    }

    #[test]
    fn commands() {
        let inv = parse_str(&["protocol-config", "--finality=NEAR-FINAL"]).unwrap();
        assert_eq!(
            inv.command,
            Command::ProtocolConfig {
                finality: Some(FinalityArg::NearFinal),
                block_id: None,
                genesis: false
            }
        );
        assert!(parse_str(&["protocol-config", "--genesis", "--block-id", "1"]).is_err());
        let inv = parse_str(&["call", "gas_price", "--", "-1"]).unwrap();
        assert!(matches!(inv.command, Command::Call { .. }));
        let inv = parse_str(&["call", "gas_price", "-1"]).unwrap();
        assert!(matches!(inv.command, Command::Call { params: Some(p), .. } if p == "-1"));
        assert!(parse_str(&["genesis-config", "extra"]).is_err());
        assert!(parse_str(&["genesis-config", "--hash", "x"]).is_err());
        assert!(parse_str(&["call"]).is_err());
        assert!(parse_str(&["decode", "nope"]).is_err());
        assert!(parse_str(&[
            "state",
            "a.near",
            "--prefix",
            "x",
            "--prefix-base64",
            "eA=="
        ])
        .is_err());
        assert!(parse_str(&["view", "a.near", "m", "--args", "{"]).is_err());
        assert!(parse_str(&["chunk", "--block", "1"]).is_err());
        assert!(parse_str(&["chunk"]).is_err());
        assert!(parse_str(&["send-tx"]).is_err());
        assert!(parse_str(&["send-tx", "--base64", "not base64!"]).is_err());
        assert!(parse_str(&["block", "--height", "1", "--hash", HASH]).is_err());
        assert_eq!(
            parse_str(&["block", "--hash", HASH]).unwrap().command,
            Command::Block {
                finality: None,
                height: None,
                hash: Some(HASH.parse().unwrap())
            }
        );
        assert!(parse_str(&[]).unwrap_err().contains("no command"));
    }

    const HASH: &str = "11111111111111111111111111111111";

    #[test]
    fn tx_status_options() {
        let inv = parse_str(&[
            "tx-status",
            "--hash",
            HASH,
            "--sender",
            "alice.near",
            "--wait-until",
            "final",
        ])
        .unwrap();
        let Command::TxStatus { wait_until, .. } = inv.command else {
            panic!("not tx-status");
        };
        assert_eq!(
            wait_until.map(TxExecutionStatus::from),
            Some(TxExecutionStatus::Final)
        );
        let bad = [
            vec!["tx-status"],
            vec!["tx-status", "--hash", HASH],
            vec!["tx-status", "--sender", "alice.near"],
            vec!["tx-status", "--hash", "nope", "--sender", "alice.near"],
            vec!["tx-status", "--hash", HASH, "--sender", "Not Valid"],
            vec!["tx-status", "--signed-tx", "AA==", "--hash", HASH],
            vec!["tx-status", "--signed-tx", "AA==", "--wait-until", "SOON"],
        ];
        for args in bad {
            assert!(parse_str(&args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn version_names_the_spec() {
        let Parsed::Print(text) = parse(["near-rpc", "--version"]) else {
            panic!("--version did not print");
        };
        assert_eq!(text.trim(), format!("near-rpc {}", version()));
        assert!(text.contains(near_rpc::SPEC_VERSION), "{text}");
        if near_rpc::SPEC_VERSION == "1.2.6" {
            assert_eq!(
                text.trim(),
                format!(
                    "near-rpc {} (nearcore OpenAPI spec 1.2.6)",
                    env!("CARGO_PKG_VERSION")
                )
            );
        }
    }
}
