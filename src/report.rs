//! [`ErrorReport`]: an error and its chain of causes in one line, for people.
//!
//! Every error of this crate says only its own level's failure in `Display` and hands
//! its cause out through [`source`](std::error::Error::source), so printing one with
//! `{}` shows that level alone, and a reporter that walks the chain shows each cause
//! once. This is that reporter.

use std::error::Error;
use std::fmt;

/// Displays an error followed by each of its causes (the chain of
/// [`source`](Error::source)), joined by `": "`, on one line.
///
/// ```
/// use near_rpc::{CryptoHash, ErrorReport};
///
/// #[derive(Debug)]
/// struct ReadFailed(near_rpc::ParseCryptoHashError);
/// impl std::fmt::Display for ReadFailed {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         f.write_str("reading the block hash failed")
///     }
/// }
/// impl std::error::Error for ReadFailed {
///     fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
///         Some(&self.0)
///     }
/// }
///
/// let cause = "not a hash".parse::<CryptoHash>().unwrap_err();
/// let error = ReadFailed(cause.clone());
/// // The error alone says its own level; the report adds each cause once.
/// assert_eq!(error.to_string(), "reading the block hash failed");
/// assert_eq!(
///     ErrorReport(&error).to_string(),
///     format!("reading the block hash failed: {cause}")
/// );
/// ```
///
/// A program prints what it could not do this way:
///
/// ```no_run
/// # async fn run() {
/// use near_rpc::{Client, ErrorReport};
///
/// let client = Client::new("https://rpc.mainnet.near.org").unwrap();
/// if let Err(error) = client.view_account("alice.near").await {
///     eprintln!("error: {}", ErrorReport(&error));
/// }
/// # }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ErrorReport<'a>(pub &'a dyn Error);

impl fmt::Display for ErrorReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(error) = cause {
            write!(f, ": {error}")?;
            cause = error.source();
        }
        Ok(())
    }
}
