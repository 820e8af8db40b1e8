//! The value parsers of the command line: each turns one argument's text into the
//! library's type (an account id, a hash, a block, a nonce, base64 bytes, a method name),
//! or into a message naming what was expected. Numbers are whole and in range, and a
//! negative one is named as such rather than taken for an option.

use std::str::FromStr;
use std::time::Duration;

use near_rpc::client::looks_like_secret;
use near_rpc::tx::SignedDelegateAction;
use near_rpc::{methods, AccountId, BlockId, NearToken};

use super::{Bytes, GasKeyArg, MessageNonce};

/// Text parsed as a `T` (an account id, hash, public key or block id).
pub(super) fn parse_as<T>(text: &str) -> Result<T, String>
where
    T: FromStr,
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

/// A retry count: 0 to the client's cap, refused above it rather than capped unsaid.
pub(super) fn retries(text: &str) -> Result<u32, String> {
    let max = near_rpc::client::layers::MAX_RETRIES;
    let error = || format!("expected a whole number of retries from 0 to {max}");
    if is_negative_number(text) {
        return Err(format!("a retry count cannot be negative ({})", error()));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(format!("more than the client's cap of {max} retries")),
        Err(_) => Err(error()),
    }
}

/// A timeout: a positive number of seconds, fractions allowed.
pub(super) fn timeout(text: &str) -> Result<Duration, String> {
    let error = || "expected a positive number of seconds".to_owned();
    if is_negative_number(text) {
        return Err(format!("a timeout cannot be negative ({})", error()));
    }
    let seconds: f64 = text.parse().map_err(|_| error())?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(error());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| error())
}

/// A nonce: a whole number, 0 to 2^64 - 1 (a negative one is named as such, not taken
/// for an option).
pub(super) fn nonce(text: &str) -> Result<u64, String> {
    whole(text, "a nonce", u64::MAX)
}

/// A gas key's nonce index: a whole number, 0 to 65535.
pub(super) fn nonce_index(text: &str) -> Result<u16, String> {
    let index = whole(text, "a nonce index", u16::MAX.into())?;
    // `whole` kept it within u16's range.
    u16::try_from(index).map_err(|e| e.to_string())
}

/// `mock --gas-key ACCOUNT[:NUM_NONCES[:BALANCE]]`: an account id (which holds no `:`),
/// its gas key's nonce indexes (1 to the mock's cap, default 8) and the NEAR moved to the
/// key (as `transfer` reads amounts, default 1).
pub(super) fn gas_key(text: &str) -> Result<GasKeyArg, String> {
    let mut parts = text.splitn(3, ':');
    let account = parts.next().unwrap_or_default();
    let account: AccountId = account
        .parse()
        .map_err(|e| format!("ACCOUNT `{account}`: {e}"))?;
    let max = near_rpc_mock::chain::MAX_GAS_KEY_NONCES;
    let num_nonces = match parts.next() {
        None => DEFAULT_GAS_KEY_NONCES,
        Some(n) => match whole(n, "a number of nonces", max.into())? {
            0 => return Err(format!("a gas key has 1 to {max} nonces, not 0")),
            // `whole` kept it within the cap, a u16.
            n => u16::try_from(n).map_err(|e| e.to_string())?,
        },
    };
    let balance = match parts.next() {
        None => DEFAULT_GAS_KEY_BALANCE,
        Some(text) => amount(text, false)
            .map_err(|e| e.replacen("AMOUNT", "BALANCE", 1))?
            .as_yoctonear(),
    };
    Ok(GasKeyArg {
        account,
        num_nonces,
        balance,
    })
}

/// `mock --gas-key`'s nonce indexes when not given.
const DEFAULT_GAS_KEY_NONCES: u16 = 8;

/// `mock --gas-key`'s balance when not given: 1 NEAR, gas for thousands of transfers.
const DEFAULT_GAS_KEY_BALANCE: u128 = YOCTO_PER_NEAR;

/// yoctoNEAR in one NEAR: 10^24.
const YOCTO_PER_NEAR: u128 = 1_000_000_000_000_000_000_000_000;

/// An amount of NEAR as written (`1`, `1.5`, `0.001`: at most 24 decimals), or of
/// yoctoNEAR with `yocto`. Exact: no floating point.
pub(crate) fn amount(text: &str, yocto: bool) -> Result<NearToken, String> {
    // Not repeated when it may be a key pasted in the wrong place.
    let shown = if looks_like_secret(text) || text.contains(':') {
        "AMOUNT".to_owned()
    } else {
        format!("AMOUNT `{text}`")
    };
    let bad = |why: &str| format!("{shown}: {why}");
    let text = text.trim();
    if text.starts_with('-') {
        return Err(bad("an amount cannot be negative"));
    }
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(bad(if yocto {
            "expected a whole number of yoctoNEAR"
        } else {
            "expected a number of NEAR such as 1, 1.5 or 0.001"
        }));
    }
    let too_large = || bad("too large: more than 2^128 yoctoNEAR");
    if yocto {
        if !fraction.is_empty() {
            return Err(bad("yoctoNEAR are whole"));
        }
        return whole
            .parse::<u128>()
            .map(NearToken::from_yoctonear)
            .map_err(|_| too_large());
    }
    if fraction.len() > 24 {
        return Err(bad("more than 24 decimals (a yoctoNEAR is 10^-24 NEAR)"));
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_large())?
    };
    let fraction: u128 = format!("{fraction:0<24}")
        .parse()
        .map_err(|_| too_large())?;
    whole
        .checked_mul(YOCTO_PER_NEAR)
        .and_then(|w| w.checked_add(fraction))
        .map(NearToken::from_yoctonear)
        .ok_or_else(too_large)
}

/// A NEP-413 nonce: standard base64 of exactly 32 bytes.
pub(super) fn message_nonce(text: &str) -> Result<MessageNonce, String> {
    near_rpc::tx::MessagePayload::nonce_from_base64(text)
        .map(MessageNonce)
        .map_err(|e| e.to_string())
}

/// A NEP-413 signature as wallets give it: standard base64 of its raw bytes, or NEAR's
/// `curve:base58` text; its length is checked against the public key's curve later.
pub(super) fn message_signature(text: &str) -> Result<String, String> {
    if text.contains(':') {
        text.parse::<near_rpc::Signature>()
            .map_err(|e| format!("not a signature: {e}"))?;
    } else {
        base64_bytes(text, "the signature")?;
    }
    Ok(text.to_owned())
}

/// JSON text, refused when a key is given twice in one object (serde_json would keep the
/// last without a word).
pub(super) fn json(text: &str) -> Result<serde_json::Value, String> {
    let value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    near_rpc::decode::check_unique_keys(text.as_bytes()).map_err(|e| e.to_string())?;
    Ok(value)
}

/// A block height: a whole number, 0 to 2^64 - 1.
pub(super) fn height(text: &str) -> Result<u64, String> {
    whole(text, "a block height", u64::MAX)
}

/// A shard id: a whole number, 0 to 2^64 - 1.
pub(super) fn shard(text: &str) -> Result<u64, String> {
    whole(text, "a shard id", u64::MAX)
}

/// The mock's block time in milliseconds, 0 to an hour.
pub(super) fn block_time(text: &str) -> Result<u64, String> {
    whole(text, "a block time in milliseconds", 3_600_000)
}

/// The mock's window of blocks kept below the head.
pub(super) fn keep_blocks(text: &str) -> Result<u64, String> {
    whole(text, "a number of blocks", u64::MAX)
}

/// A TCP port, 0 (any free one) to 65535.
pub(super) fn port(text: &str) -> Result<u16, String> {
    let port = whole(text, "a port", u16::MAX.into())?;
    // `whole` kept it within u16's range.
    u16::try_from(port).map_err(|e| e.to_string())
}

/// A whole number from 0 to `max`; `what` (`a block height`) names it in the errors, and
/// a negative number is refused as such (not taken for an option, as clap would).
fn whole(text: &str, what: &str, max: u64) -> Result<u64, String> {
    let range = format!("a whole number from 0 to {max}");
    if is_negative_number(text) {
        return Err(format!("{what} cannot be negative (expected {range})"));
    }
    match text.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("expected {what}: {range}")),
    }
}

/// `-` then a digit or `.`: a negative number (or a mistyped one), not an option.
fn is_negative_number(text: &str) -> bool {
    text.strip_prefix('-')
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| c.is_ascii_digit() || c == '.')
}

/// A block: its height (a whole number) or its hash; a negative height is named as such.
pub(super) fn block_id(text: &str) -> Result<BlockId, String> {
    if is_negative_number(text) {
        return Err("a block height cannot be negative (expected a height or a block hash)".into());
    }
    parse_as(text)
}

/// `--args-base64`: a view call's arguments.
pub(super) fn args_base64(text: &str) -> Result<Bytes, String> {
    base64_bytes(text, "the call's arguments")
}

/// `--prefix-base64`: the start of the storage keys to list.
pub(super) fn prefix_base64(text: &str) -> Result<Bytes, String> {
    base64_bytes(text, "the key prefix")
}

/// Standard padded base64, decoded; `what` names the value in the error (the library's
/// check says what is wrong with the text, under its own name for function-call args).
fn base64_bytes(text: &str, what: &str) -> Result<Bytes, String> {
    let bad = |e: &dyn std::fmt::Display| {
        let message = e.to_string();
        let why = message
            .split_once(" is not valid base64: ")
            .map_or(message.as_str(), |(_, why)| why);
        format!("not valid base64 for {what}: {why}")
    };
    let args: near_rpc::types::FunctionArgs = text.parse().map_err(|e| bad(&e))?;
    args.to_bytes().map(Bytes).map_err(|e| bad(&e))
}

/// A signed delegate action (NEP-366): base64 of its borsh bytes, all of them.
pub(super) fn signed_delegate(text: &str) -> Result<Box<SignedDelegateAction>, String> {
    if text.trim().is_empty() {
        return Err("needs the base64 of a signed delegate action".into());
    }
    let Bytes(bytes) = base64_bytes(text.trim(), "the signed delegate action")?;
    SignedDelegateAction::from_borsh(&bytes)
        .map(Box::new)
        .map_err(|e| format!("not a signed delegate action: {e}"))
}

pub(super) fn signed_tx(text: &str) -> Result<String, String> {
    if text.trim().is_empty() {
        return Err("needs the base64 of a signed transaction".into());
    }
    let tx: near_rpc::types::SignedTransaction = text.parse().map_err(|e| format!("{e}"))?;
    Ok(tx.0)
}

/// `call`'s METHOD.
pub(super) fn call_method(name: &str) -> Result<&'static str, String> {
    method_name(name, "call")
}

/// `decode`'s METHOD.
pub(super) fn decode_method(name: &str) -> Result<&'static str, String> {
    method_name(name, "decode")
}

/// The method named `name`, as its `'static` name in `methods::ALL`.
fn method_name(name: &str, command: &str) -> Result<&'static str, String> {
    methods::ALL
        .iter()
        .copied()
        .find(|m| *m == name)
        .ok_or_else(|| {
            format!(
                "unknown method; `near-rpc {command}` accepts these names:\n{}",
                wrap(methods::ALL, 88)
            )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_name() {
        let text = wrap(methods::ALL, 88);
        assert!(text.lines().all(|l| l.len() <= 88));
        for name in methods::ALL {
            assert!(text.contains(name));
        }
    }
}
