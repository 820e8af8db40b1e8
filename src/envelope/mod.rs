//! The JSON-RPC 2.0 envelope: ids, requests, responses and nearcore's error object.

mod error;
mod id;
mod request;
mod response;
mod untyped_cause;
pub(crate) mod version;

pub use error::{
    ErrorCause, ErrorWrapper, HANDLER_ERROR, INTERNAL_ERROR, REQUEST_VALIDATION_ERROR,
};
pub use id::Id;
pub use request::Request;
pub use response::Response;
pub use untyped_cause::UntypedCause;
