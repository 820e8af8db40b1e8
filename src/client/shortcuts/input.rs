//! What the shortcuts accept for account ids, public keys and hashes: the value itself, a
//! reference to one, or text parsed as one. Text that does not parse is a usage error
//! ([`ErrorKind::Encode`](super::super::ErrorKind::Encode)) naming the parameter; nothing is
//! sent.

use std::str::FromStr;

use crate::client::looks_like_secret;
use crate::primitives::CryptoHash;
use crate::primitives::PublicKey;
use crate::replaced::root::AccountId;

/// A value a shortcut accepts where it needs a `T`: a `T`, a `&T`, or a `&str`/`String`
/// parsed as one.
pub trait Input<T> {
    /// The value, or why the text is not a `T` (`what` names the parameter).
    fn into_value(self, what: &str) -> Result<T, String>;
}

fn parse<T: FromStr>(text: &str, what: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e| {
        // Never repeat what might be a key pasted into the wrong place.
        if looks_like_secret(text) {
            format!("{what} is not valid: {e}")
        } else {
            format!("{what} `{text}` is not valid: {e}")
        }
    })
}

macro_rules! inputs {
    ($($t:ty),*) => {$(
        impl Input<$t> for $t {
            fn into_value(self, _: &str) -> Result<$t, String> {
                Ok(self)
            }
        }
        impl Input<$t> for &$t {
            fn into_value(self, _: &str) -> Result<$t, String> {
                Ok(self.clone())
            }
        }
        impl Input<$t> for &str {
            fn into_value(self, what: &str) -> Result<$t, String> {
                parse(self, what)
            }
        }
        impl Input<$t> for String {
            fn into_value(self, what: &str) -> Result<$t, String> {
                parse(&self, what)
            }
        }
        impl Input<$t> for &String {
            fn into_value(self, what: &str) -> Result<$t, String> {
                parse(self, what)
            }
        }
    )*};
}

inputs!(AccountId, PublicKey, CryptoHash);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_parsed_and_bad_text_is_named() {
        let id: AccountId = "alice.near".into_value("the account").unwrap();
        assert_eq!(id, "alice.near");
        let err = Input::<AccountId>::into_value("Alice Near", "the account").unwrap_err();
        assert!(
            err.starts_with("the account `Alice Near` is not valid"),
            "{err}"
        );
        let key = "ed25519:H9k5eiU4xXS3M4z8HzKJSLaZdqGdGwBG49o7orNC4eZW";
        let parsed: PublicKey = key.into_value("the public key").unwrap();
        assert_eq!(parsed.to_string(), key);
        // Something that looks like an API key is not repeated.
        let secret = "sk_live_9f8e7d6c5b4a39281706";
        let err = Input::<CryptoHash>::into_value(secret, "the block hash").unwrap_err();
        assert!(!err.contains(secret), "{err}");
    }
}
