//! Endpoints and credentials, with redaction: an API key in a URL path, query or
//! user-info, or in a header, never reaches Display, Debug or an error message.

use std::fmt;
use std::sync::Arc;

use reqwest::header::{HeaderName, HeaderValue};
use reqwest::Url;

use super::redact::{looks_like_secret, show_url};

/// A node's base URL. It may carry an API key in its path (`https://rpc.example.org/<KEY>`), so it
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

    /// The full URL, credentials included: never print it.
    pub(crate) fn url(&self) -> &Url {
        &self.url
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

    /// Parses and checks an endpoint URL: http or https followed literally by `//`, a
    /// real host (a domain with a dot, `localhost` or an IP address; not a key pasted
    /// where the host goes), no fragment, no backslash or control character. The error
    /// never repeats the URL.
    fn from_str(s: &str) -> Result<Self, InvalidEndpoint> {
        let invalid = |why: &str| InvalidEndpoint(why.to_owned());
        if s.trim() != s {
            return Err(invalid("it has spaces around it"));
        }
        // The URL standard drops tabs and newlines anywhere and reads `\` as `/` in http(s)
        // URLs: what was typed would not be what is used, so neither is taken.
        if s.chars().any(char::is_control) {
            return Err(invalid(
                "it has a control character (a tab, a newline) in it",
            ));
        }
        if s.contains('\\') {
            return Err(invalid(
                "it has a backslash in it (write a slash, or %5C in a path)",
            ));
        }
        if let Some(why) = scheme_problem(s) {
            return Err(invalid(why));
        }
        // `https:///KEY` parses with the key as its host: refuse an empty authority.
        if s.split_once("://")
            .is_some_and(|(_, rest)| rest.starts_with('/'))
        {
            return Err(invalid("no host"));
        }
        // url's messages name the problem, never the input.
        let url = Url::parse(s).map_err(|e| InvalidEndpoint(e.to_string()))?;
        match url.scheme() {
            "http" | "https" => {}
            _ => return Err(invalid("the scheme is not http or https")),
        }
        if url.cannot_be_a_base() || url.host().is_none() {
            return Err(invalid("no host"));
        }
        if let Some(domain) = url.domain() {
            // A service name (`node`, `validator1`) is a fine host; a long run of letters
            // and digits with no dot is a key pasted where the host goes.
            let single_label = !domain.trim_end_matches('.').contains('.');
            let key_like = domain.len() >= 16 && looks_like_secret(domain);
            if single_label && key_like {
                return Err(invalid(
                    "the host looks like an API key; put the key in the path or a header",
                ));
            }
        }
        if url.fragment().is_some() {
            return Err(invalid("a URL fragment is never sent to a server"));
        }
        Ok(Self { url: Arc::new(url) })
    }
}

/// What is wrong with the scheme of `s`, if it has one: it must be http or https, then
/// `//` literally. The URL standard tolerates `https:KEY@host` and `https:KEY/path` (no
/// slashes) for http(s), reading the text after the colon as the host or user-info, so
/// a key there would be taken for a host and shown; such a URL is refused, never
/// repaired. Text without a scheme is left to the URL parser, which refuses it.
fn scheme_problem(s: &str) -> Option<&'static str> {
    let (scheme, rest) = s.split_once(':')?;
    let mut chars = scheme.chars();
    let is_scheme = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !is_scheme {
        return None;
    }
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return Some("the scheme is not http or https");
    }
    if !rest.starts_with("//") {
        return Some("the scheme must be followed by //");
    }
    None
}

impl TryFrom<&str> for Endpoint {
    type Error = InvalidEndpoint;

    fn try_from(s: &str) -> Result<Self, InvalidEndpoint> {
        s.parse()
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&show_url(&self.url))
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

    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn apply(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        request.header(self.name.clone(), self.value.clone())
    }

    /// The header's name and value (the wasm32 transport sets them on the host's
    /// `fetch`).
    #[cfg(target_arch = "wasm32")]
    pub(crate) fn header_pair(&self) -> (&HeaderName, &HeaderValue) {
        (&self.name, &self.value)
    }

    /// The values to redact: the whole header value, and the token after a scheme
    /// (`Bearer <token>`).
    pub(crate) fn secret_values(&self) -> Vec<String> {
        let value = String::from_utf8_lossy(self.value.as_bytes()).into_owned();
        let mut values = vec![value.clone()];
        if let Some((_, token)) = value.split_once(' ') {
            values.push(token.trim().to_owned());
        }
        values
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
            ("https://h.io/?apiKey=KEY123", "https://h.io/***"),
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
        for bad in [
            "ftp://h.io/KEY123",
            "https:///KEY123",
            "https://3f9a2c1e8b7d4a6f9e0c1b2a3d4e5f60/v1",
            "file:///etc/KEY123",
            "data:text/plain,KEY123",
            " https://h.io/KEY123",
            "https://h.io/KEY123#KEY123",
            "https://h.io:99999/KEY123",
            "mailto:KEY123@h.io",
        ] {
            let err = bad.parse::<Endpoint>().unwrap_err();
            assert!(!err.to_string().contains("KEY123"), "{bad}: {err}");
            assert!(!err.to_string().contains("3f9a2c"), "{bad}: {err}");
        }
        for good in [
            "http://localhost:3030",
            "http://node:3030",
            "http://[::1]:3030/",
        ] {
            assert!(good.parse::<Endpoint>().is_ok(), "{good}");
        }
        for good in ["HTTPS://h.io/KEY123", "http://user:KEY123@h.io:3030/x"] {
            assert!(good.parse::<Endpoint>().is_ok(), "{good}");
        }
        let err = ApiKey::x_api_key("KEY\n123").unwrap_err();
        assert!(!err.to_string().contains("KEY"), "{err}");
        let key = ApiKey::bearer("KEY123").unwrap();
        assert!(!format!("{key:?}").contains("KEY123"));
    }

    /// A URL whose scheme is not literally followed by `//` (the URL standard reads what
    /// follows as the host or user-info) or that has a backslash (read as `/`) or a
    /// control character (dropped) is refused, and the error names what is wrong without
    /// any part of the URL.
    #[test]
    fn a_scheme_not_followed_by_two_slashes_is_refused_without_the_url() {
        let cases = [
            (
                "https:apikey123@host.io",
                "the scheme must be followed by //",
            ),
            (
                "https:SECRETKEY123/path",
                "the scheme must be followed by //",
            ),
            (
                "HTTP:SECRETKEY123/path",
                "the scheme must be followed by //",
            ),
            (
                "https:/SECRETKEY123@h.io",
                "the scheme must be followed by //",
            ),
            ("http:SECRETKEY123", "the scheme must be followed by //"),
            ("https:\\\\SECRETKEY123.io/x", "backslash"),
            ("https:\\SECRETKEY123", "backslash"),
            ("https:/\\SECRETKEY123.io", "backslash"),
            ("https://\\SECRETKEY123.io", "backslash"),
            ("https://h.io\\SECRETKEY123", "backslash"),
            ("https:\t//SECRETKEY123.io", "control character"),
            ("https://h.io/SECRET\nKEY123", "control character"),
            ("ftp:SECRETKEY123@h.io", "the scheme is not http or https"),
        ];
        for (url, why) in cases {
            // Each is otherwise a URL the url crate takes (so the check is what refuses).
            let lenient = url.replace(['\t', '\n'], "");
            if !url.starts_with("ftp") {
                assert!(Url::parse(&lenient).is_ok(), "{url:?}");
            }
            let err = url.parse::<Endpoint>().unwrap_err().to_string();
            assert!(err.contains(why), "{url:?}: {err}");
            for part in ["apikey", "SECRET", "secret", "KEY123", "key123", ".io"] {
                assert!(!err.contains(part), "{url:?}: {err}");
            }
            let built = crate::client::Client::builder().endpoint(url).unwrap_err();
            assert_eq!(built.to_string(), err);
            assert!(!format!("{built:?}").contains("KEY123"), "{built:?}");
        }
    }
}
