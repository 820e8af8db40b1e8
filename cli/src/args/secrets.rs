//! Secrets on the command line: clap's usage messages are printed only after every
//! argument that may be a secret (an API key, a URL with a key in its path, anything
//! that reads like a key) is masked, and help and version are told from usage errors.

use std::collections::HashSet;
use std::ffi::OsString;
use std::sync::OnceLock;

use near_rpc::client::{looks_like_secret, Secrets, MASK};

use super::{command, Parsed, API_KEY_ENV, URL_ENV};

/// Help and version go to stdout; every other clap error is a usage error, scrubbed.
pub(super) fn clap_error(error: &clap::Error, args: &[OsString]) -> Parsed {
    use clap::error::ErrorKind;
    let text = error.render().to_string();
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Parsed::Print(text),
        _ => {
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            // The caller points at --help itself.
            let text: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with("For more information"))
                .collect();
            Parsed::Usage(scrub(text.join("\n").trim_end(), args))
        }
    }
}

/// `text` with every argument that might be a secret replaced by `***`: key-looking
/// arguments, URLs and anything else that is not a short plain word, the values of
/// `--api-key`, and the values of `NEAR_RPC_API_KEY` and `NEAR_RPC_URL`.
pub fn scrub(text: &str, args: &[OsString]) -> String {
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut secrets: Vec<String> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        if !is_plain(arg) {
            secrets.push(arg.clone());
        }
        if let Some((name, value)) = arg.split_once('=') {
            secrets.extend(
                [name, value]
                    .into_iter()
                    .filter(|p| !is_plain(p))
                    .map(str::to_owned),
            );
        }
        if arg == "--api-key" {
            keys.extend(args.get(i + 1).cloned());
        } else if let Some(key) = arg.strip_prefix("--api-key=") {
            keys.push(key.to_owned());
        }
    }
    for name in [API_KEY_ENV, URL_ENV] {
        if let Some(value) = std::env::var_os(name) {
            keys.push(value.to_string_lossy().into_owned());
        }
    }
    // A key too short for the client's redaction to look for in free text (it would
    // mask ordinary words) is masked where clap quotes it; everything else goes through
    // the client's redaction, the one every other message of the CLI passes.
    let mut text = text.to_owned();
    for key in keys.iter().filter(|k| !k.is_empty()) {
        text = text.replace(&format!("'{key}'"), &format!("'{MASK}'"));
    }
    secrets.extend(keys);
    Secrets::new(secrets).scrub(&text).into_owned()
}

/// A short plain word (letters, digits, `-`, `_`, `.`) that does not look like a key,
/// or one of the command's own names: safe to show back.
fn is_plain(arg: &str) -> bool {
    own_names().contains(arg)
        || !arg.is_empty()
            && arg.len() <= 48
            && !looks_like_secret(arg.trim_start_matches('-'))
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The command's own names, in every subcommand: its options' long names (with and
/// without `--`) and its subcommands' names. Never masked: `--args-base64` looks like a
/// key to [`looks_like_secret`], yet it is the option a message is about.
fn own_names() -> &'static HashSet<String> {
    fn collect(command: &clap::Command, names: &mut HashSet<String>) {
        names.insert(command.get_name().to_owned());
        names.extend(command.get_all_aliases().map(str::to_owned));
        for arg in command.get_arguments() {
            let longs = arg.get_long().into_iter();
            for long in longs.chain(arg.get_all_aliases().unwrap_or_default()) {
                names.insert(long.to_owned());
                names.insert(format!("--{long}"));
            }
        }
        for sub in command.get_subcommands() {
            collect(sub, names);
        }
    }
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = HashSet::new();
        collect(&command(), &mut names);
        names
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::parse_str;

    #[test]
    fn secrets_are_not_echoed() {
        let cases = [
            vec!["--api-kee", "SECRET", "status"],
            vec!["--urll=https://h.io/SECRET", "status"],
            vec!["https://h.io/SECRET", "status"],
            vec!["--network", "https://h.io/SECRET", "status"],
            vec!["--api-kee", "a1b2c3d4e5f60718", "status"],
            vec!["a1b2c3d4e5f60718"],
            vec!["statsu", "a1b2c3d4e5f60718"],
            vec!["--network", "a1b2c3d4e5f60718", "status"],
            vec!["--a1b2c3d4e5f60718", "status"],
            vec!["--a1b2c3d4e5f60718=SECRET", "status"],
            vec!["genesis-config", "a1b2c3d4e5f60718"],
            vec!["--retries", "a1b2c3d4e5f60718", "status"],
            vec!["--timeout", "a1b2c3d4e5f60718", "status"],
            vec!["--api-key", "SECRET", "--api-key", "SECRET", "status"],
            vec!["--api-key", "SECRET", "status", "SECRET"],
            vec![
                "tx-status",
                "--signed-tx",
                "AA==",
                "--wait-until",
                "a1b2c3d4e5f60718",
            ],
            vec!["call", "a1b2c3d4e5f60718"],
            vec!["decode", "a1b2c3d4e5f60718"],
            vec!["account", "a1b2c3d4e5f60718SECRET"],
        ];
        for args in cases {
            let message = parse_str(&args).unwrap_err();
            assert!(!message.contains("SECRET"), "{args:?}: {message}");
            assert!(!message.contains("a1b2c3d4e5f60718"), "{args:?}: {message}");
        }
    }
}
