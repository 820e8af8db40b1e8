//! Tests that walk the clap command itself (every subcommand, every argument), so that
//! an option added later is held to the same rules: a negative number given to any
//! numeric option, and text that is not base64 given to any base64 option, is refused
//! by the binary with exit 2, nothing on stdout, and the option named on stderr.

// Only part of the shared support is used here.
#[allow(unused_imports)]
mod support;

// The CLI is a binary crate: its command line is compiled in here to be walked.
#[allow(dead_code, unused_imports)]
#[path = "../src/args/mod.rs"]
mod args;

use std::any::TypeId;
use std::time::Duration;

use near_rpc::BlockId;
use support::near_rpc;

/// One argument of the command: the subcommand path that reaches it, and the argument.
struct Found {
    path: Vec<String>,
    arg: clap::Arg,
}

impl Found {
    /// The command line giving it `value` (a positional as the subcommand's first).
    fn args(&self, value: &str) -> Vec<String> {
        let mut args = self.path.clone();
        match self.arg.get_long() {
            Some(long) => args.extend([format!("--{long}"), value.to_owned()]),
            None => args.push(value.to_owned()),
        }
        args
    }

    /// How clap names it in a message: `--height <N>`, or `<ACCOUNT>` for a positional.
    fn shown(&self) -> String {
        let value = self
            .arg
            .get_value_names()
            .and_then(|names| names.first().map(|n| n.to_string()))
            .unwrap_or_else(|| self.arg.get_id().as_str().to_uppercase());
        match self.arg.get_long() {
            Some(long) => format!("--{long} <{value}>"),
            None => format!("<{value}>"),
        }
    }
}

/// Every argument that takes a value, in every subcommand (the global ones at the top:
/// the command is not built, so they are not copied into each subcommand).
fn every_value_argument() -> Vec<Found> {
    fn walk(command: &clap::Command, path: &[String], found: &mut Vec<Found>) {
        for arg in command.get_arguments() {
            if arg.get_action().takes_values() {
                found.push(Found {
                    path: path.to_vec(),
                    arg: arg.clone(),
                });
            }
        }
        for sub in command.get_subcommands() {
            let mut path = path.to_vec();
            path.push(sub.get_name().to_owned());
            walk(sub, &path, found);
        }
    }
    let mut found = Vec::new();
    walk(&args::command(), &[], &mut found);
    found
}

/// Whether the argument's value parser makes a number (or a block, which may be a
/// height).
fn takes_a_number(arg: &clap::Arg) -> bool {
    let numeric = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<u128>(),
        TypeId::of::<usize>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<i128>(),
        TypeId::of::<isize>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
        TypeId::of::<Duration>(),
        TypeId::of::<BlockId>(),
    ];
    let made = arg.get_value_parser().type_id();
    numeric.iter().any(|id| made == *id)
}

/// `-1` for every numeric argument: exit 2, nothing on stdout, the argument named. None
/// is taken for an unknown option (clap's "unexpected argument '-1' found").
#[test]
fn every_numeric_option_names_itself_when_given_a_negative_number() {
    let numeric: Vec<Found> = every_value_argument()
        .into_iter()
        .filter(|f| takes_a_number(&f.arg))
        .collect();
    let listed: Vec<String> = numeric
        .iter()
        .map(|f| format!("{} {}", f.path.join(" "), f.shown()))
        .collect();
    // The walk found them all (a sample that must be there, not the whole list).
    for expected in [
        " --retries <N>",
        " --timeout <SECS>",
        "block --height <N>",
        "chunk --shard <N>",
        "chunk --block <HEIGHT_OR_HASH>",
        "account --block <HEIGHT_OR_HASH>",
        "view --block <HEIGHT_OR_HASH>",
        "gas-price --block <HEIGHT_OR_HASH>",
        "validators --block <HEIGHT_OR_HASH>",
        "protocol-config --block-id <HEIGHT_OR_HASH>",
        "sign --nonce <N>",
        "sign --nonce-index <I>",
        "sign-delegate --nonce <N>",
        "sign-delegate --max-block-height <H>",
        "mock --port <PORT>",
        "record --port <PORT>",
    ] {
        assert!(
            listed.iter().any(|l| l == expected),
            "{expected:?} not among {listed:?}"
        );
    }
    for found in &numeric {
        let args = found.args("-1");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = near_rpc(&args);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        let named = format!("invalid value '-1' for '{}'", found.shown());
        assert!(out.stderr.contains(&named), "{args:?}: {out:?}");
        assert!(out.stderr.contains("negative"), "{args:?}: {out:?}");
        assert!(
            !out.stderr.contains("unexpected argument"),
            "{args:?}: {out:?}"
        );
    }
}

/// Text that is not base64 for every base64 argument: exit 2, nothing on stdout, the
/// option named as it is (never masked as a possible key) and what it carries.
#[test]
fn every_base64_option_names_itself_when_the_text_is_not_base64() {
    let base64: Vec<Found> = every_value_argument()
        .into_iter()
        .filter(|f| {
            let names = f.arg.get_value_names().unwrap_or_default();
            names.iter().any(|n| n.as_str().contains("B64"))
                || names.iter().any(|n| n.as_str().contains("BASE64"))
                || f.arg.get_long().is_some_and(|l| l.contains("base64"))
        })
        .collect();
    let what = |long: &str| match long {
        "args-base64" => Some("not valid base64 for the call's arguments"),
        "prefix-base64" => Some("not valid base64 for the key prefix"),
        "signed-tx" | "base64" => Some("the signed transaction is not valid base64"),
        "signature" => Some("not valid base64 for the signature"),
        "nonce" => Some("the nonce is not base64"),
        _ => None,
    };
    // A positional is named by its value.
    let what_positional = |value: &str| match value {
        "SIGNED_DELEGATE_BASE64" => Some("for the signed delegate action"),
        _ => None,
    };
    let longs: Vec<&str> = base64.iter().filter_map(|f| f.arg.get_long()).collect();
    for expected in ["args-base64", "prefix-base64", "signed-tx", "base64"] {
        assert!(
            longs.contains(&expected),
            "--{expected} not among {longs:?}"
        );
    }
    let shown: Vec<String> = base64
        .iter()
        .map(|f| format!("{} {}", f.path.join(" "), f.shown()))
        .collect();
    assert!(
        shown.iter().any(|s| s == "relay <SIGNED_DELEGATE_BASE64>"),
        "relay's argument not among {shown:?}"
    );
    for found in &base64 {
        for bad in ["QUJD=", "not base64!", "QUJDRA=x"] {
            let args = found.args(bad);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = near_rpc(&args);
            assert_eq!(out.code, 2, "{args:?}: {out:?}");
            assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
            let named = format!("for '{}'", found.shown());
            assert!(out.stderr.contains(&named), "{args:?}: {out:?}");
            if let Some(what) = found.arg.get_long().and_then(what) {
                assert!(out.stderr.contains(what), "{args:?}: {out:?}");
            }
            let value = found.arg.get_value_names().and_then(|n| n.first().cloned());
            if let Some(what) = value.as_deref().and_then(what_positional) {
                assert!(out.stderr.contains(what), "{args:?}: {out:?}");
            }
        }
    }
}
