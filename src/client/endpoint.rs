//! Endpoints and credentials, with redaction: an API key in a URL path, query or
//! user-info, or in a header, never reaches Display, Debug or an error message.

use std::fmt;
use std::sync::Arc;

use reqwest::header::{HeaderName, HeaderValue};
use reqwest::Url;

/// A node's base URL. It may carry an API key in its path (`https://host/<KEY>`), so it
/// displays only as scheme, host and port, with `/***` when there is more.
///
/// ```
/// use near_rpc::client::Endpoint;
///
/// let endpoint: Endpoint = "https://rpc.example.org/s3cr3t-key".parse().unwrap();
/// assert_eq!(endpoint.to_string(), "https://rpc.example.org/***");
/// assert!(!format!("{endpoint:?}").contains("s3cr3t"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    // Shared: errors carry the endpoint, and cloning it must stay cheap.
    url: Arc<Url>,
}

impl Endpoint {
    /// The URL requests go to: the base URL, or `{base}/{method}` when the method goes in
    /// the path.
    pub(crate) fn url_for(&self, method: Option<&str>) -> Url {
        let mut url = Url::clone(&self.url);
        if let Some(method) = method {
            if let Ok(mut segments) = url.path_segments_mut() {
                segments.pop_if_empty().push(method);
            }
        }
        url
    }

    /// Whether anything beyond scheme, host and port would be hidden.
    fn has_secret_parts(&self) -> bool {
        let path = self.url.path();
        !(path.is_empty() || path == "/")
            || self.url.query().is_some()
            || self.url.fragment().is_some()
            || !self.url.username().is_empty()
            || self.url.password().is_some()
    }
}

/// Why a string is not an endpoint. Its message never repeats the URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidEndpoint(String);

impl fmt::Display for InvalidEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid endpoint URL: {}", self.0)
    }
}

impl std::error::Error for InvalidEndpoint {}

impl std::str::FromStr for Endpoint {
    type Err = InvalidEndpoint;

    fn from_str(s: &str) -> Result<Self, InvalidEndpoint> {
        let url = Url::parse(s).map_err(|e| InvalidEndpoint(e.to_string()))?;
        match url.scheme() {
            "http" | "https" => {}
            other => return Err(InvalidEndpoint(format!("scheme {other:?} is not http(s)"))),
        }
        if url.cannot_be_a_base() || url.host().is_none() {
            return Err(InvalidEndpoint("no host".into()));
        }
        Ok(Self { url: Arc::new(url) })
    }
}

impl TryFrom<&str> for Endpoint {
    type Error = InvalidEndpoint;

    fn try_from(s: &str) -> Result<Self, InvalidEndpoint> {
        s.parse()
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://", self.url.scheme())?;
        if let Some(host) = self.url.host_str() {
            f.write_str(host)?;
        }
        if let Some(port) = self.url.port() {
            write!(f, ":{port}")?;
        }
        if self.has_secret_parts() {
            f.write_str("/***")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Endpoint({self})")
    }
}

/// An API key sent in a header: `x-api-key: KEY` or `Authorization: Bearer KEY`.
#[derive(Clone)]
pub struct ApiKey {
    name: HeaderName,
    value: HeaderValue,
}

impl ApiKey {
    /// `x-api-key: <key>`.
    pub fn x_api_key(key: &str) -> Result<Self, InvalidApiKey> {
        Self::header("x-api-key", key)
    }

    /// `Authorization: Bearer <token>`.
    pub fn bearer(token: &str) -> Result<Self, InvalidApiKey> {
        Self::header("authorization", &format!("Bearer {token}"))
    }

    /// Any header carrying a secret.
    pub fn header(name: &str, value: &str) -> Result<Self, InvalidApiKey> {
        let name =
            HeaderName::from_bytes(name.as_bytes()).map_err(|_| InvalidApiKey("header name"))?;
        let mut value = HeaderValue::from_str(value).map_err(|_| InvalidApiKey("header value"))?;
        // Keeps it out of reqwest's and hyper's own Debug output too.
        value.set_sensitive(true);
        Ok(Self { name, value })
    }

    pub(crate) fn apply(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        request.header(self.name.clone(), self.value.clone())
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({}: ***)", self.name)
    }
}

/// An API key that can't be sent as a header (it has characters HTTP headers can't
/// carry). The message names the part, never the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidApiKey(&'static str);

impl fmt::Display for InvalidApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid API key: not a valid {}", self.0)
    }
}

impl std::error::Error for InvalidApiKey {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_hide_everything_but_the_origin() {
        let cases = [
            (
                "https://rpc.mainnet.near.org",
                "https://rpc.mainnet.near.org",
            ),
            (
                "https://rpc.mainnet.near.org/",
                "https://rpc.mainnet.near.org",
            ),
            ("https://h.io/KEY123", "https://h.io/***"),
            (
                "http://127.0.0.1:3030/v1/KEY123?x=KEY123",
                "http://127.0.0.1:3030/***",
            ),
            ("https://user:KEY123@h.io", "https://h.io/***"),
        ];
        for (url, shown) in cases {
            let endpoint: Endpoint = url.parse().unwrap();
            assert_eq!(endpoint.to_string(), shown);
            assert!(!format!("{endpoint:?}").contains("KEY123"));
        }
    }

    #[test]
    fn method_goes_after_the_base_path() {
        let endpoint: Endpoint = "https://h.io/KEY".parse().unwrap();
        assert_eq!(
            endpoint.url_for(Some("block")).as_str(),
            "https://h.io/KEY/block"
        );
        assert_eq!(endpoint.url_for(None).as_str(), "https://h.io/KEY");
        let endpoint: Endpoint = "https://h.io/".parse().unwrap();
        assert_eq!(
            endpoint.url_for(Some("status")).as_str(),
            "https://h.io/status"
        );
    }

    #[test]
    fn bad_endpoints_and_keys_are_errors_without_the_secret() {
        let err = "ftp://h.io/KEY123".parse::<Endpoint>().unwrap_err();
        assert!(!err.to_string().contains("KEY123"), "{err}");
        assert!("not a url".parse::<Endpoint>().is_err());
        let err = ApiKey::x_api_key("KEY\n123").unwrap_err();
        assert!(!err.to_string().contains("KEY"), "{err}");
        let key = ApiKey::bearer("KEY123").unwrap();
        assert!(!format!("{key:?}").contains("KEY123"));
    }
}
