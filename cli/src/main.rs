//! `near-rpc`: the command-line tool of the `near-rpc` crate. It calls a NEAR JSON-RPC
//! node through the typed client (one subcommand per common call, each a thin layer over
//! a `Client` shortcut, and `call` for any method), and decodes response bodies offline
//! with the typed bindings.
//!
//! ```text
//! near-rpc [--url URL]... [--network mainnet|testnet|mock] [--api-key KEY]
//!          [--method-in-path] [--timeout SECS] [--retries N] [--archival-url URL]...
//!          <COMMAND>
//!   account ACCOUNT                       query view_account
//!   access-key ACCOUNT PUBLIC_KEY         query view_access_key
//!   access-keys ACCOUNT                   query view_access_key_list
//!   gas-key-nonces ACCOUNT PUBLIC_KEY     query view_gas_key_nonces
//!   code ACCOUNT                          query view_code
//!   state ACCOUNT [--prefix TEXT | --prefix-base64 B64] [--proof]
//!   view CONTRACT METHOD [--args JSON | --args-base64 B64]    query call_function
//!                 (views also take [--finality F | --block HEIGHT_OR_HASH])
//!   block [--finality F | --height N | --hash H]             (default: final)
//!   chunk (--chunk-hash H | --block HEIGHT_OR_HASH --shard N)
//!   gas-price [--block HEIGHT_OR_HASH]    in yoctoNEAR per gas
//!   status
//!   validators [--epoch-id H | --block HEIGHT_OR_HASH]       (default: latest)
//!   send-tx (--base64 B64 | --file PATH) [--wait-until LEVEL]
//!   sign --key-file FILE --nonce N --block-hash HASH --receiver ACCOUNT [--signer ACCOUNT]
//!        [--nonce-index I] [--nonce-mode MODE] ACTIONS_JSON
//!                                     sign offline: {"signed_tx_base64", "hash"}
//!   send --key-file FILE --receiver ACCOUNT [--wait-until LEVEL] [--nonce-index I]
//!        [--nonce-mode MODE] ACTIONS_JSON
//!   transfer --key-file FILE RECEIVER AMOUNT_IN_NEAR [--yocto] [--wait-until LEVEL]
//!        [--nonce-index I] [--nonce-mode MODE]
//!   sign-delegate --key-file FILE --nonce N --max-block-height H --receiver ACCOUNT
//!        [--signer ACCOUNT] ACTIONS_JSON
//!                     sign a delegate action: {"signed_delegate_action_base64", "hash"}
//!   relay --key-file RELAYER_FILE [--wait-until LEVEL] SIGNED_DELEGATE_BASE64
//!                     submit it as the relayer (as `send` does)
//!   sign-message --key-file FILE --recipient R --nonce NONCE_BASE64 [--callback-url URL]
//!        MESSAGE      sign a NEP-413 message: {"account_id", "public_key", "signature"}
//!   verify-message (--signed JSON | --account-id A --public-key PK --signature SIG)
//!        --recipient R --nonce NONCE_BASE64 [--callback-url URL] [--check-key] MESSAGE
//!                     check one: {"valid": true|false}, exit 6 when false
//!   verify proof FILE --block-merkle-root HASH          check an execution proof
//!   verify light-client-block FILE --trusted-head HEAD_FILE   check a successor block
//!   tx-status (--hash HASH --sender ACCOUNT | --signed-tx BASE64) [--wait-until LEVEL]
//!   genesis-config
//!   protocol-config [--finality F | --block-id HEIGHT_OR_HASH | --genesis]
//!   call METHOD [PARAMS_JSON]     any of the spec's methods; params are checked by the
//!                                 typed request (unknown fields and wrong types refused)
//!   decode [--report-unknown] METHOD [FILE]   decode a response body (stdin without FILE),
//!                                 offline; --report-unknown lists what the bindings don't know
//!   mock [--port N] [--replay FILE] [--credentials-dir DIR] [--load FILE] [--save FILE]
//!        [--keep-blocks N] [--gas-key ACCOUNT[:NUM_NONCES[:BALANCE]]]...
//!                                          serve the mock node
//!   record --out FILE [--port N]          a recording proxy to the node
//!   completions SHELL             shell completions (bash, zsh, fish, ...)
//! ```
//!
//! - The command line is declared with clap ([`args`]); global options go before or after
//!   the command; `--help` works on every subcommand; `--version` names the spec version.
//! - `--network` defaults to mainnet (`https://rpc.mainnet.near.org`); `--url` may be
//!   given several times (failover, in order), or come from `NEAR_RPC_URL`. `--api-key`
//!   (or `NEAR_RPC_API_KEY`) sends `x-api-key` to the first endpoint only.
//! - Enum values are case-insensitive: `--wait-until final`, `--finality FINAL`. The
//!   default `wait_until` is the library's (`EXECUTED_OPTIMISTIC`).
//! - `call METHOD` without params sends what the typed request reads from `null` or `{}`
//!   (`gas_price`, `status`, `health`...); the positional arrays nearcore accepts
//!   (`gas_price [100]`, `tx [HASH, SENDER]`...) are sent in their named form, others are
//!   refused with an example of the named form.
//!
//! Typed results are printed as pretty JSON on stdout ([`output`]); views add the block's
//! `block_height` and `block_hash`. Exit status: 0 success; 1 the output could not be
//! written; 2 usage error; 3 the node returned a JSON-RPC error (also one inside a
//! `query` result, or a transaction `send`/`transfer`/`relay` sent that failed on chain;
//! the typed error as JSON on stdout, a one-line summary on stderr); 4 the response could
//! not be decoded (the message names the JSON path); 5 transport or HTTP failure without
//! a JSON-RPC body (with a hint when the node was the default one), or a transaction of
//! `send`/`transfer`/`relay` whose outcome is unknown (`{"unresolved": HASH,
//! "signed_tx_base64": ...}` on stdout); 6 `verify` found the proof or block does not
//! verify, or `verify-message` found the message not valid. The write commands never print a secret key: their failures go through the
//! client's redaction of the key file's key and of any key in their input.
//! Neither an API key nor a URL path is ever printed: errors show the library's
//! redacted endpoints, and clap's messages are scrubbed of every argument that may be a
//! secret.

mod args;
mod commands;
mod message;
mod output;
mod verify;
mod write;

use std::process::ExitCode;

use args::Parsed;
use output::{transport_hint, write_stdout, Failure, EXIT_OK};

fn main() -> ExitCode {
    let invocation = match args::parse(std::env::args_os()) {
        Parsed::Run(invocation) => invocation,
        Parsed::Print(text) => {
            return match write_stdout(&text) {
                Ok(()) => ExitCode::from(EXIT_OK),
                Err(failure) => exit(failure),
            }
        }
        Parsed::Usage(message) => return exit(Failure::usage(message)),
    };
    let default_endpoint = invocation.options.uses_default_endpoint();
    match commands::run(*invocation) {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(mut failure) => {
            failure.hint = transport_hint(failure.code, default_endpoint);
            exit(failure)
        }
    }
}

/// Prints the failure and exits with its status.
fn exit(failure: Failure) -> ExitCode {
    failure.print();
    ExitCode::from(failure.code)
}
