//! [`Credentials`]: an account and its secret key, from near-cli's credential files or
//! from the environment.
//!
//! A credential file is JSON: `{"account_id": "...", "public_key": "ed25519:...",
//! "private_key": "ed25519:..."}` (`secret_key` is read too, as nearcore's key files name
//! it), kept at `~/.near-credentials/<network>/<account>.json`. Errors name the file and
//! the field, never the key: a file is read as JSON values first, so that no parser's
//! message can quote it. A file giving a key twice is refused.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::value::RawValue;

use zeroize::Zeroizing;

use super::SecretKey;
use crate::primitives::PublicKey;
use near_account_id::AccountId;

/// The environment variable [`Credentials::from_env`] reads the account from.
pub const ACCOUNT_ID_ENV: &str = "NEAR_ACCOUNT_ID";
/// The environment variable [`Credentials::from_env`] reads the secret key from.
pub const SECRET_KEY_ENV: &str = "NEAR_PRIVATE_KEY";

/// The fields a credential file may have.
const FIELDS: [&str; 4] = ["account_id", "public_key", "private_key", "secret_key"];

/// The largest credential file read (they are a few hundred bytes).
const MAX_FILE_BYTES: u64 = 64 * 1024;

/// An account and the secret key it signs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The account.
    pub account_id: AccountId,
    /// Its key (Debug shows only the public key).
    pub secret_key: SecretKey,
}

/// Why credentials could not be read. Names the source and field; never the key.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CredentialsError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The source is not what it should be: not JSON, a field missing or of the wrong
    /// type, an invalid account id or key, a public key that is not the secret key's.
    Invalid {
        /// The file, or the environment variable.
        source: String,
        /// The field (`private_key`), when one is at fault.
        field: Option<&'static str>,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for CredentialsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, message } => {
                write!(f, "cannot read credentials {}: {message}", path.display())
            }
            Self::Invalid {
                source,
                field: Some(field),
                message,
            } => write!(f, "credentials {source}: `{field}`: {message}"),
            Self::Invalid {
                source,
                field: None,
                message,
            } => write!(f, "credentials {source}: {message}"),
        }
    }
}

impl std::error::Error for CredentialsError {}

impl Credentials {
    /// Credentials of `account_id` signing with `secret_key`.
    pub fn new(account_id: AccountId, secret_key: SecretKey) -> Self {
        Self {
            account_id,
            secret_key,
        }
    }

    /// The public key of the secret key.
    pub fn public_key(&self) -> PublicKey {
        self.secret_key.public_key()
    }

    /// Reads a near-cli credential file.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, CredentialsError> {
        let path = path.as_ref();
        let io = |e: std::io::Error| CredentialsError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // Room for the whole file up front: growing would free unwiped copies.
        let mut text = Zeroizing::new(String::with_capacity(MAX_FILE_BYTES as usize + 1));
        use std::io::Read as _;
        file.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(io)?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(CredentialsError::Invalid {
                source: path.display().to_string(),
                field: None,
                message: format!("larger than {MAX_FILE_BYTES} bytes: not a credential file"),
            });
        }
        Self::from_json(&text, &path.display().to_string())
    }

    /// The file near-cli keeps for `account_id` on `network` (`mainnet`, `testnet`, ...):
    /// `$HOME/.near-credentials/<network>/<account_id>.json` (`%USERPROFILE%` when `HOME`
    /// is not set). `None` when neither is set.
    pub fn near_cli_path(network: &str, account_id: &AccountId) -> Option<PathBuf> {
        let home = home_dir()?;
        Some(Self::near_cli_path_in(home, network, account_id))
    }

    /// The file near-cli keeps for `account_id` on `network` under the home directory
    /// `home`: `<home>/.near-credentials/<network>/<account_id>.json`.
    pub fn near_cli_path_in(
        home: impl AsRef<Path>,
        network: &str,
        account_id: &AccountId,
    ) -> PathBuf {
        home.as_ref()
            .join(".near-credentials")
            .join(network)
            .join(format!("{account_id}.json"))
    }

    /// Reads near-cli's credential file for `account_id` on `network` (see
    /// [`Credentials::near_cli_path`]), refusing a file that holds another account's key.
    pub fn from_near_cli(network: &str, account_id: &AccountId) -> Result<Self, CredentialsError> {
        let home = home_dir().ok_or_else(|| CredentialsError::Invalid {
            source: "~/.near-credentials".to_owned(),
            field: None,
            message: "neither HOME nor USERPROFILE is set".to_owned(),
        })?;
        Self::from_near_cli_in(home, network, account_id)
    }

    /// [`Credentials::from_near_cli`] with the home directory given rather than read from
    /// the environment.
    pub fn from_near_cli_in(
        home: impl AsRef<Path>,
        network: &str,
        account_id: &AccountId,
    ) -> Result<Self, CredentialsError> {
        let path = Self::near_cli_path_in(home, network, account_id);
        let credentials = Self::from_file(&path)?;
        if &credentials.account_id != account_id {
            return Err(CredentialsError::Invalid {
                source: path.display().to_string(),
                field: Some("account_id"),
                message: format!(
                    "the file is for {}, not {account_id}",
                    credentials.account_id
                ),
            });
        }
        Ok(credentials)
    }

    /// Credentials from the text of a credential file; `source` names it in errors.
    pub fn from_json(text: &str, source: &str) -> Result<Self, CredentialsError> {
        let invalid = |field: Option<&'static str>, message: String| CredentialsError::Invalid {
            source: source.to_owned(),
            field,
            message,
        };
        // Read as raw values borrowed from the text (which the caller keeps in
        // `Zeroizing`), so that no parser copy of the key outlives this call unwiped;
        // serde_json's syntax errors give a line and column, never the text.
        let map: BTreeMap<Cow<'_, str>, &RawValue> = serde_json::from_str(text).map_err(|e| {
            if e.is_data() {
                invalid(None, "not a JSON object".to_owned())
            } else {
                invalid(None, format!("not JSON: {e}"))
            }
        })?;
        // The map kept the last of a key given twice: which key was meant is unknown.
        // Only a field's name is repeated back (any other key may be a pasted secret).
        match crate::de::repeated_keys::repeated_key(text.as_bytes()) {
            Ok(None) => {}
            Ok(Some(repeated)) => {
                let field = FIELDS
                    .into_iter()
                    .find(|f| repeated.path.is_empty() && repeated.key == *f);
                return Err(match field {
                    Some(field) => invalid(Some(field), "given more than once".to_owned()),
                    None => invalid(None, "a key is given twice in one object".to_owned()),
                });
            }
            Err(_) => return Err(invalid(None, "not JSON".to_owned())),
        }
        let string = |field: &'static str| -> Result<Option<Zeroizing<String>>, CredentialsError> {
            let Some(raw) = map.get(field) else {
                return Ok(None);
            };
            match raw.get().trim_start().as_bytes().first() {
                Some(b'n') => Ok(None),
                Some(b'"') => serde_json::from_str::<Cow<'_, str>>(raw.get())
                    .map(|text| Some(Zeroizing::new(text.into_owned())))
                    .map_err(|_| invalid(Some(field), "not a valid JSON string".to_owned())),
                _ => Err(invalid(Some(field), "not a string".to_owned())),
            }
        };
        let account_id = string("account_id")?
            .ok_or_else(|| invalid(Some("account_id"), "missing".to_owned()))?
            .parse::<AccountId>()
            .map_err(|e| invalid(Some("account_id"), format!("not a valid account id: {e}")))?;
        let (field, key_text) = match (string("private_key")?, string("secret_key")?) {
            (Some(private), Some(secret)) if *private != *secret => {
                return Err(invalid(
                    Some("secret_key"),
                    "differs from `private_key`".to_owned(),
                ))
            }
            (Some(private), _) => ("private_key", private),
            (None, Some(secret)) => ("secret_key", secret),
            (None, None) => return Err(invalid(Some("private_key"), "missing".to_owned())),
        };
        let secret_key = key_text
            .parse::<SecretKey>()
            .map_err(|e| invalid(Some(field), e.to_string()))?;
        if let Some(public) = string("public_key")? {
            let public = public
                .parse::<PublicKey>()
                .map_err(|e| invalid(Some("public_key"), format!("not a valid key: {e}")))?;
            if public != secret_key.public_key() {
                return Err(invalid(
                    Some("public_key"),
                    format!(
                        "{public} is not the public key of `{field}` ({})",
                        secret_key.public_key()
                    ),
                ));
            }
        }
        Ok(Self {
            account_id,
            secret_key,
        })
    }

    /// Credentials from [`ACCOUNT_ID_ENV`] and [`SECRET_KEY_ENV`]. (The process's own
    /// copy of the environment is not wiped; a credential file keeps a key out of it.)
    pub fn from_env() -> Result<Self, CredentialsError> {
        Self::from_env_vars(ACCOUNT_ID_ENV, SECRET_KEY_ENV)
    }

    /// Credentials from the environment variables named.
    pub fn from_env_vars(account_var: &str, key_var: &str) -> Result<Self, CredentialsError> {
        let read = |name: &str| -> Result<Zeroizing<String>, CredentialsError> {
            std::env::var(name)
                .map(Zeroizing::new)
                .map_err(|e| CredentialsError::Invalid {
                    source: format!("environment variable {name}"),
                    field: None,
                    // Not the error's own text: for a value that is not UTF-8 it quotes
                    // the value.
                    message: match e {
                        std::env::VarError::NotPresent => "not set".to_owned(),
                        std::env::VarError::NotUnicode(_) => "not valid UTF-8".to_owned(),
                    },
                })
        };
        let account = read(account_var)?;
        let account_id =
            account
                .trim()
                .parse::<AccountId>()
                .map_err(|e| CredentialsError::Invalid {
                    source: format!("environment variable {account_var}"),
                    field: None,
                    message: format!("not a valid account id: {e}"),
                })?;
        let key = read(key_var)?;
        let secret_key =
            key.trim()
                .parse::<SecretKey>()
                .map_err(|e| CredentialsError::Invalid {
                    source: format!("environment variable {key_var}"),
                    field: None,
                    message: e.to_string(),
                })?;
        Ok(Self {
            account_id,
            secret_key,
        })
    }
}

/// The user's home directory: `HOME`, else `USERPROFILE` (Windows).
fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(PathBuf::from)
}
