//! The JSON-RPC envelope's decoding, written once: [`Decode`] for [`Response`], its
//! [`Id`], nearcore's error object ([`ErrorWrapper`]) and [`UntypedCause`] (their serde
//! `Deserialize` through it is in `crate::de::via_native`, beside the generated types').
//! The retry layer's classification reads bodies with the same rules ([`classify`]).

use std::borrow::Cow;

use serde_json::Value;

use super::{Decode, Error, Next, Reader};
use crate::envelope::{ErrorCause, HANDLER_ERROR, INTERNAL_ERROR, REQUEST_VALIDATION_ERROR};
use crate::envelope::{ErrorWrapper, Id, Response, UntypedCause};

impl Decode for Id {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        const EXPECTED: &str = "a JSON-RPC id (non-negative integer or string)";
        match r.peek()? {
            Next::String => Ok(Id::String(r.string()?.into_owned())),
            Next::Number => r.u64(EXPECTED).map(Id::Number),
            _ => Err(r.invalid_type(EXPECTED)),
        }
    }
}

/// `"jsonrpc": "2.0"` (requests read it too, `crate::de::request`).
pub(crate) fn version(r: &mut Reader<'_>) -> Result<(), Error> {
    const EXPECTED: &str = "the JSON-RPC version string \"2.0\"";
    let start = r.position();
    let text = r.string().map_err(|_| {
        r.rewind(start);
        r.invalid_type(EXPECTED)
    })?;
    if text == crate::envelope::version::VERSION {
        return Ok(());
    }
    let message = format!("invalid value: string {text:?}, expected {EXPECTED}");
    r.rewind(start);
    r.peek()?;
    Err(r.data_error(message))
}

/// The members of a response object. Not generic: `result` and `error` are handed to
/// the callers' decoders, so each method compiles only those two calls.
fn response_members(
    r: &mut Reader<'_>,
    result: &mut dyn FnMut(&mut Reader<'_>) -> Result<(), Error>,
    error: &mut dyn FnMut(&mut Reader<'_>) -> Result<(), Error>,
) -> Result<Option<Id>, Error> {
    r.begin_object("a JSON-RPC 2.0 response object")?;
    let mut first = true;
    let (mut version_seen, mut id_seen, mut result_seen, mut error_seen) =
        (false, false, false, false);
    let mut id = None;
    let duplicate = |r: &Reader<'_>, name: &str| r.data_error(format!("duplicate field `{name}`"));
    while let Some(key) = r.next_key(&mut first)? {
        let (seen, name) = match &*key {
            "jsonrpc" => (&mut version_seen, "jsonrpc"),
            "id" => (&mut id_seen, "id"),
            "result" => (&mut result_seen, "result"),
            "error" => (&mut error_seen, "error"),
            _ => {
                r.skip()?;
                continue;
            }
        };
        if *seen {
            return Err(duplicate(r, name));
        }
        *seen = true;
        match name {
            "jsonrpc" => version(r),
            "id" => Option::<Id>::decode(r).map(|decoded| id = Some(decoded)),
            "result" => result(r),
            _ => error(r),
        }
        .map_err(|e| e.in_key(name))?;
    }
    if !version_seen {
        return Err(r.data_error("response is missing `jsonrpc` (expected \"2.0\")"));
    }
    super::required(r, id, "id")
}

impl<R: Decode, E: Decode> Decode for Response<R, E> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        let (mut result, mut error) = (None, None);
        let id = response_members(
            r,
            &mut |r| R::decode(r).map(|decoded| result = Some(decoded)),
            // `"error": null` counts as absent: an error object is never null.
            &mut |r| Option::<E>::decode(r).map(|decoded| error = decoded),
        )?;
        let payload = match (result, error) {
            (Some(result), None) => Ok(result),
            (None, Some(error)) => Err(error),
            (Some(_), Some(_)) => {
                return Err(r.data_error("response has both `result` and `error`"))
            }
            (None, None) => return Err(r.data_error("response has neither `result` nor `error`")),
        };
        Ok(Response { id, payload })
    }
}

/// A member of the error object that must be `null`, absent, or what `read` reads
/// (`None` when the value is of another kind).
fn member<T>(
    r: &mut Reader<'_>,
    key: &str,
    expected: &str,
    read: fn(&mut Reader<'_>) -> Option<T>,
) -> Result<Option<T>, Error> {
    if r.null()? {
        return Ok(None);
    }
    let start = r.position();
    if let Some(value) = read(r) {
        return Ok(Some(value));
    }
    r.rewind(start);
    let other = r.value()?;
    r.rewind(start);
    r.peek()?;
    Err(r
        .data_error(format!("expected {expected}, got {other}"))
        .in_key(key))
}

fn integer(r: &mut Reader<'_>) -> Option<i64> {
    (r.peek().ok()? == Next::Number)
        .then(|| r.i64("i64").ok())
        .flatten()
}

fn string(r: &mut Reader<'_>) -> Option<String> {
    (r.peek().ok()? == Next::String)
        .then(|| r.string().ok().map(Cow::into_owned))
        .flatten()
}

/// What an error object holds besides its cause, and where the cause is.
struct ErrorMembers {
    code: Option<i64>,
    message: Option<String>,
    data: Option<Value>,
    name: Option<String>,
    cause_at: Option<usize>,
    end: usize,
}

/// The members of an error object, its cause skipped. Not generic.
fn error_members(r: &mut Reader<'_>) -> Result<ErrorMembers, Error> {
    r.begin_object("a JSON-RPC error object")?;
    let mut first = true;
    let mut seen: Vec<String> = Vec::new();
    let mut members = ErrorMembers {
        code: None,
        message: None,
        data: None,
        name: None,
        cause_at: None,
        end: 0,
    };
    while let Some(key) = r.next_key(&mut first)? {
        if seen.iter().any(|k| *k == key) {
            return Err(r.data_error(format!("duplicate key `{key}` in error object")));
        }
        seen.push(key.clone().into_owned());
        match &*key {
            "code" => members.code = member(r, "code", "an integer error code", integer)?,
            "message" => members.message = member(r, "message", "a string", string)?,
            "name" => members.name = member(r, "name", "a string", string)?,
            "data" => members.data = Some(r.value()?),
            "cause" => {
                r.peek()?;
                members.cause_at = Some(r.position());
                r.skip()?;
            }
            _ => r.skip()?,
        }
    }
    members.end = r.position();
    match (&members.name, members.cause_at) {
        (None, Some(_)) => Err(r.data_error("error object has a `cause` but no `name`")),
        (Some(name), None)
            if matches!(
                name.as_str(),
                REQUEST_VALIDATION_ERROR | HANDLER_ERROR | INTERNAL_ERROR
            ) =>
        {
            Err(r.data_error(format!("error object named {name} has no `cause`")))
        }
        _ => Ok(members),
    }
}

impl<E: Decode, V: Decode, I: Decode> Decode for ErrorWrapper<E, V, I> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        let members = error_members(r)?;
        let in_cause = |e: Error| e.in_key("cause");
        let cause = match (members.name, members.cause_at) {
            (None, _) => ErrorCause::Missing,
            (Some(name), None) => ErrorCause::Unknown {
                name,
                cause: Value::Null,
            },
            (Some(name), Some(at)) => {
                r.rewind(at);
                let cause = match name.as_str() {
                    REQUEST_VALIDATION_ERROR => {
                        ErrorCause::RequestValidation(V::decode(r).map_err(in_cause)?)
                    }
                    HANDLER_ERROR => ErrorCause::Handler(E::decode(r).map_err(in_cause)?),
                    INTERNAL_ERROR => ErrorCause::Internal(I::decode(r).map_err(in_cause)?),
                    _ => {
                        let cause = r.value()?;
                        r.keep_unknown(&cause);
                        ErrorCause::Unknown { name, cause }
                    }
                };
                r.rewind(members.end);
                cause
            }
        };
        Ok(ErrorWrapper {
            cause,
            code: members.code,
            message: members.message,
            data: members.data,
        })
    }
}

impl Decode for UntypedCause {
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error> {
        r.value().map(UntypedCause)
    }
}

/// What the retry layer needs of a body (`client::layers::classify`): whether it is a
/// JSON-RPC response, and if it is an error, its `name` and its cause's `name`. The
/// error object is read by the decoder's own rules (`error_members`); anything those
/// refuse is not JSON-RPC.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Peek {
    /// Not a JSON-RPC response object (an HTML page, a gateway's JSON, a broken body).
    NotJsonRpc,
    /// A response without an error (its `result` is not read).
    Result,
    /// An error response.
    Error {
        /// The error's `name` (`HANDLER_ERROR`, ...).
        name: Option<String>,
        /// Its cause's `name` (`TIMEOUT_ERROR`, ...).
        cause: Option<String>,
    },
}

/// Reads what [`Peek`] says of `body`, skipping `result` without building it.
pub fn peek(body: &[u8]) -> Peek {
    let mut r = Reader::new(body);
    peek_members(&mut r)
        .and_then(|peeked| r.end().map(|()| peeked))
        .unwrap_or(Peek::NotJsonRpc)
}

fn peek_members(r: &mut Reader<'_>) -> Result<Peek, Error> {
    r.begin_object("a JSON-RPC 2.0 response object")?;
    let mut first = true;
    let (mut version_seen, mut error_seen) = (false, false);
    let mut error = None;
    let duplicate = |r: &Reader<'_>, name: &str| r.data_error(format!("duplicate field `{name}`"));
    while let Some(key) = r.next_key(&mut first)? {
        match &*key {
            "jsonrpc" if version_seen => return Err(duplicate(r, "jsonrpc")),
            "jsonrpc" => {
                version_seen = true;
                r.skip()?;
            }
            "error" if error_seen => return Err(duplicate(r, "error")),
            "error" => {
                error_seen = true;
                // `"error": null` counts as absent, as when decoding.
                if !r.null()? {
                    error = Some(error_names(r)?);
                }
            }
            _ => r.skip()?,
        }
    }
    Ok(match error {
        Some((name, cause)) => Peek::Error { name, cause },
        None if version_seen => Peek::Result,
        None => Peek::NotJsonRpc,
    })
}

/// An error object's `name` and its cause's `name`.
fn error_names(r: &mut Reader<'_>) -> Result<(Option<String>, Option<String>), Error> {
    let members = error_members(r)?;
    let cause = match members.cause_at {
        Some(at) => {
            r.rewind(at);
            let name = cause_name(r)?;
            r.rewind(members.end);
            name
        }
        None => None,
    };
    Ok((members.name, cause))
}

/// The `name` of a cause object (which must be an object, its `name` a string if any).
fn cause_name(r: &mut Reader<'_>) -> Result<Option<String>, Error> {
    r.begin_object("an error cause object")?;
    let mut first = true;
    let mut name = None;
    while let Some(key) = r.next_key(&mut first)? {
        match &*key {
            "name" => name = member(r, "name", "a string", string)?,
            _ => r.skip()?,
        }
    }
    Ok(name)
}
