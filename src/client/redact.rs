//! Secrets and their redaction: every credential the client is given (API-key headers,
//! key-looking parts of endpoint URLs) is collected into [`Secrets`], and every text the
//! client shows or returns passes through [`Secrets::scrub`], so that a key a server
//! echoes back (in an HTML page, a JSON-RPC message, a header) is printed as `***`.

use std::borrow::Cow;
use std::sync::Arc;

/// What a redacted secret is shown as.
pub const MASK: &str = "***";

/// Secrets shorter than this are not looked for in free text: a short value (`v1`,
/// `rpc`) would mask ordinary words, and no provider issues keys that short. Endpoint
/// displays hide everything after the origin anyway.
const MIN_SCRUBBED_LEN: usize = 6;

/// Secrets at least this long are matched in any ASCII case: a server may echo a key in
/// another case (and URL parsing lowercases a key pasted as a host label), and a value
/// this long and random does not turn up by chance in a payload. Shorter ones (a
/// user name) are matched exactly, so a case-sensitive payload (base64, base58) that
/// differs from them only in case is left alone.
const ANY_CASE_LEN: usize = 16;

/// The set of secret strings to mask. Cheap to clone.
///
/// Values of 16 bytes or more match in any ASCII case (lowercasing 64 KiB of a body at a
/// time), shorter ones exactly; a body that holds no secret is never copied whole.
#[derive(Clone, Default)]
pub struct Secrets(Arc<[Secret]>);

/// One value to mask.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Secret {
    /// Lowercased when `any_case`.
    text: String,
    any_case: bool,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets({} values)", self.0.len())
    }
}

impl Secrets {
    /// A set of secrets; values too short to scrub safely are dropped, longer ones are
    /// looked for first (so a key that contains another is masked whole).
    pub fn new(values: impl IntoIterator<Item = String>) -> Self {
        Self::of(values.into_iter().map(|text| {
            let any_case = text.len() >= ANY_CASE_LEN;
            Secret {
                text: if any_case {
                    text.to_ascii_lowercase()
                } else {
                    text
                },
                any_case,
            }
        }))
    }

    fn of(values: impl Iterator<Item = Secret>) -> Self {
        let mut values: Vec<Secret> = values
            .filter(|v| v.text.len() >= MIN_SCRUBBED_LEN)
            .collect();
        values.sort_by(|a, b| b.text.len().cmp(&a.text.len()).then_with(|| a.cmp(b)));
        values.dedup();
        Self(values.into())
    }

    /// Whether there is nothing to mask.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every secret replaced by [`MASK`].
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.masked(text.as_bytes()) {
            // A match starts and ends on character boundaries (secrets are UTF-8, and
            // ASCII lowercasing leaves other bytes alone), so the result is UTF-8.
            Some(bytes) => Cow::Owned(
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ),
            None => Cow::Borrowed(text),
        }
    }

    /// Masks every secret in `bytes` in place (a response body). Bytes are compared, so
    /// a body that is not UTF-8 is scrubbed too.
    pub fn scrub_bytes(&self, bytes: &mut Vec<u8>) {
        if let Some(masked) = self.masked(bytes) {
            *bytes = masked;
        }
    }

    /// `bytes` with every secret masked, or `None` when none is there.
    fn masked(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let mut current: Option<Vec<u8>> = None;
        for secret in self.0.iter() {
            let source = current.as_deref().unwrap_or(bytes);
            let needle = secret.text.as_bytes();
            // The output is built as occurrences are found (none kept aside), and only
            // once there is one.
            let mut out: Option<Vec<u8>> = None;
            let mut at = 0;
            let mut mask = |start: usize| {
                let out = out.get_or_insert_with(|| Vec::with_capacity(source.len()));
                out.extend_from_slice(&source[at..start]);
                out.extend_from_slice(MASK.as_bytes());
                at = start + needle.len();
            };
            if secret.any_case {
                for_each_any_case(source, needle, &mut mask);
            } else {
                // memchr's SIMD search keeps this cheap on bodies without the secret.
                memchr::memmem::find_iter(source, needle).for_each(&mut mask);
            }
            if let Some(mut out) = out {
                out.extend_from_slice(&source[at..]);
                current = Some(out);
            }
        }
        current
    }

    /// Masks every secret in a `String` in place.
    pub fn scrub_string(&self, text: &mut String) {
        if let Cow::Owned(scrubbed) = self.scrub(text) {
            *text = scrubbed;
        }
    }

    /// This set and `other` together.
    pub fn union(&self, other: &Secrets) -> Secrets {
        Secrets::of(self.0.iter().chain(other.0.iter()).cloned())
    }
}

/// Calls `found` with the start of each non-overlapping occurrence of `needle`
/// (lowercase, not empty) in `hay`, in any ASCII case, left to right. `hay` is lowercased
/// a window at a time (windows overlap by the needle's length, so no occurrence is
/// split), never copied whole: a 32 MiB body costs one buffer of 64 KiB and the needle,
/// and time linear in its length.
fn for_each_any_case(hay: &[u8], needle: &[u8], found: &mut impl FnMut(usize)) {
    const WINDOW: usize = 64 * 1024;
    if needle.is_empty() {
        return;
    }
    let finder = memchr::memmem::Finder::new(needle);
    let mut window = Vec::with_capacity(hay.len().min(WINDOW + needle.len()));
    // Where the next occurrence may start (after the last one, which it may not overlap).
    let mut next = 0;
    let mut start = 0;
    while start < hay.len() {
        let end = (start + WINDOW + needle.len()).min(hay.len());
        window.clear();
        window.extend(hay[start..end].iter().map(u8::to_ascii_lowercase));
        while let Some(at) = finder.find(&window[next.max(start) - start..]) {
            let at = next.max(start) + at;
            found(at);
            next = at + needle.len();
        }
        if end == hay.len() {
            break;
        }
        start += WINDOW;
    }
}

/// Whether `text` looks like a credential rather than a word: long, or mixing letters
/// with digits. Used to decide which URL parts are secrets and what a usage error may
/// repeat back.
///
/// ```
/// use near_rpc::client::looks_like_secret;
///
/// assert!(looks_like_secret("3f9a2c1e8b7d4a6f9e0c1b2a3d4e5f60"));
/// assert!(looks_like_secret("k3yK3y99"));
/// assert!(!looks_like_secret("mainnet"));
/// assert!(!looks_like_secret("v1"));
/// ```
pub fn looks_like_secret(text: &str) -> bool {
    let letters = text.chars().filter(char::is_ascii_alphabetic).count();
    let digits = text.chars().filter(char::is_ascii_digit).count();
    text.len() >= 20 || (text.len() >= 8 && letters > 0 && digits > 0)
}

/// Names of URL query parameters that carry credentials, whatever their value looks like.
const KEY_PARAMS: [&str; 7] = [
    "apikey",
    "api_key",
    "api-key",
    "key",
    "token",
    "access_token",
    "auth",
];

/// The secret parts of a URL: user-info (also in its Basic-auth encoding), key-like
/// labels of the host, key-looking path segments, and query values
/// that look like keys or sit under a key-like parameter name. Each is also returned
/// percent-decoded, as a server may echo either form.
pub(crate) fn url_secrets(url: &reqwest::Url) -> Vec<String> {
    let mut found = Vec::new();
    if !url.username().is_empty() {
        found.push(url.username().to_owned());
    }
    if let Some(password) = url.password() {
        found.push(password.to_owned());
    }
    if !url.username().is_empty() || url.password().is_some() {
        // The HTTP client sends user-info as `Authorization: Basic base64(user:password)`
        // (both percent-decoded): a server echoing that header echoes the key encoded.
        use base64::Engine as _;
        let decoded = |v: &str| percent_decode(v).unwrap_or_else(|| v.to_owned());
        let pair = format!(
            "{}:{}",
            decoded(url.username()),
            url.password().map(decoded).unwrap_or_default()
        );
        found.push(base64::engine::general_purpose::STANDARD.encode(pair));
    }
    if let Some(host) = url.host_str() {
        // Lowercased by URL parsing; at least `ANY_CASE_LEN` long, so matched in any case.
        found.extend(
            host.split('.')
                .filter(|l| key_like_label(l))
                .map(str::to_owned),
        );
    }
    if let Some(segments) = url.path_segments() {
        found.extend(segments.filter(|s| looks_like_secret(s)).map(str::to_owned));
    }
    if let Some(query) = url.query() {
        for pair in query.split('&') {
            let (name, value) = pair.split_once('=').unwrap_or(("", pair));
            let keyish = KEY_PARAMS.contains(&name.to_ascii_lowercase().as_str());
            if keyish || looks_like_secret(value) {
                found.push(value.to_owned());
            }
        }
    }
    let decoded: Vec<String> = found
        .iter()
        .filter_map(|v| percent_decode(v))
        .filter(|d| !found.contains(d))
        .collect();
    found.extend(decoded);
    found
}

/// Whether a label of a host name looks like a key: long, and key-like as a whole.
fn key_like_label(label: &str) -> bool {
    // At least `ANY_CASE_LEN`: URL parsing lowercased it, so it must match in any case.
    label.len() >= ANY_CASE_LEN && looks_like_secret(label)
}

/// `%XX` sequences decoded, when there are any and the result is UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h)? * 16 + hex(l)?) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A URL as it may be shown: scheme, host and port, then `/***` when anything else
/// (path, query, user-info) is there.
pub(crate) fn show_url(url: &reqwest::Url) -> String {
    let mut shown = format!("{}://", url.scheme());
    if let Some(host) = url.host_str() {
        // A key pasted as a label of the host (`https://KEY.rpc.example/`) is masked
        // there too; the host's other labels still say where the call went.
        let labels: Vec<&str> = host
            .split('.')
            .map(|label| if key_like_label(label) { "***" } else { label })
            .collect();
        shown.push_str(&labels.join("."));
    }
    if let Some(port) = url.port() {
        shown.push_str(&format!(":{port}"));
    }
    let path = url.path();
    let more = !(path.is_empty() || path == "/")
        || url.query().is_some()
        || url.fragment().is_some()
        || !url.username().is_empty()
        || url.password().is_some();
    if more {
        shown.push_str("/***");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrubs_every_occurrence_longest_first() {
        let secrets = Secrets::new(["abcdef123".to_owned(), "abcdef123456".to_owned()]);
        assert_eq!(
            secrets.scrub("k=abcdef123456 and abcdef123 again abcdef123456"),
            "k=*** and *** again ***"
        );
        let mut body = b"{\"message\":\"bad key abcdef123456\"}".to_vec();
        secrets.scrub_bytes(&mut body);
        assert_eq!(body, b"{\"message\":\"bad key ***\"}");
        assert!(matches!(secrets.scrub("clean"), Cow::Borrowed(_)));
    }

    #[test]
    fn secrets_are_masked_in_any_ascii_case() {
        // A host label comes out of URL parsing lowercased; the key may come back as
        // given, or in upper case.
        let url: reqwest::Url = "http://Sk1LiveQmX4tR7zW2pL8v.invalid:1/".parse().unwrap();
        let secrets = Secrets::new(url_secrets(&url));
        assert_eq!(
            secrets
                .scrub("a Sk1LiveQmX4tR7zW2pL8v b sk1liveqmx4tr7zw2pl8v c SK1LIVEQMX4TR7ZW2PL8V"),
            "a *** b *** c ***"
        );
        let mut body = "é Sk1LiveQmX4tR7zW2pL8v é".as_bytes().to_vec();
        secrets.scrub_bytes(&mut body);
        assert_eq!(body, "é *** é".as_bytes());
    }

    #[test]
    fn short_secrets_match_exactly_long_ones_in_any_case() {
        let secrets = Secrets::new(["AbCdEf123".to_owned(), "Sk1LiveQmX4tR7zW2pL8v".to_owned()]);
        assert_eq!(
            secrets.scrub("AbCdEf123 abcdef123 SK1LIVEQMX4TR7ZW2PL8V sk1liveqmx4tr7zw2pl8v"),
            "*** abcdef123 *** ***"
        );
        // Without a secret in it, a text is not copied.
        assert!(matches!(secrets.scrub("clean body"), Cow::Borrowed(_)));
    }

    fn find_any_case(hay: &[u8], needle: &[u8]) -> Vec<usize> {
        let mut found = Vec::new();
        for_each_any_case(hay, needle, &mut |at| found.push(at));
        found
    }

    #[test]
    fn any_case_search_finds_occurrences_across_windows_without_overlap() {
        let needle = b"qmx4tr7zw2pl8vn3";
        for at in [
            0,
            1,
            65_535 - 8,
            65_536 - 16,
            65_536 - 1,
            65_536,
            131_072 + 3,
        ] {
            let mut hay = vec![b'.'; 200_000];
            hay[at..at + needle.len()].copy_from_slice(b"QmX4tR7zW2pL8vN3");
            assert_eq!(find_any_case(&hay, needle), vec![at], "at {at}");
        }
        // Overlapping candidates: left to right, none overlapping the one before.
        let needle = b"aaaaaaaaaaaaaaaa";
        let hay = vec![b'A'; 65_536 + 40];
        let found = find_any_case(&hay, needle);
        assert_eq!(found.len(), hay.len() / needle.len());
        assert!(
            found.windows(2).all(|w| w[1] == w[0] + needle.len()),
            "{found:?}"
        );
        assert!(find_any_case(b"short", needle).is_empty());
        assert!(find_any_case(b"anything", b"").is_empty());
        // A needle longer than a window.
        let long = vec![b'k'; 70_000];
        let mut hay = vec![b'.'; 3];
        hay.extend(std::iter::repeat_n(b'K', 70_000));
        assert_eq!(find_any_case(&hay, &long), vec![3]);
    }

    #[test]
    fn user_info_is_a_secret_in_its_basic_auth_encoding_too() {
        use base64::Engine as _;
        let url: reqwest::Url = "http://user:k%2By9QmX4tR7@h.io/".parse().unwrap();
        let basic = base64::engine::general_purpose::STANDARD.encode("user:k+y9QmX4tR7");
        let found = url_secrets(&url);
        assert!(found.contains(&basic), "{found:?}");
        let secrets = Secrets::new(found);
        assert_eq!(
            secrets.scrub(&format!("Authorization: Basic {basic}")),
            "Authorization: Basic ***"
        );
        // A URL without user-info has no such value.
        let url: reqwest::Url = "http://h.io/".parse().unwrap();
        assert!(url_secrets(&url).is_empty());
    }

    #[test]
    fn short_values_are_not_scrubbed() {
        let secrets = Secrets::new(["v1".to_owned(), "rpc".to_owned()]);
        assert!(secrets.is_empty());
        assert_eq!(secrets.scrub("v1 rpc"), "v1 rpc");
    }

    #[test]
    fn a_key_as_a_host_label_is_masked_and_redacted() {
        let key = "a8f7e6d5c4b3a2918070f6e5d4c3b2a1";
        let url: reqwest::Url = format!("https://{key}.rpc.example.org/").parse().unwrap();
        assert_eq!(show_url(&url), "https://***.rpc.example.org");
        assert_eq!(
            Secrets::new(url_secrets(&url)).scrub(&key.to_uppercase()),
            MASK
        );
        // An endpoint's Display and Debug go through it.
        let endpoint: crate::client::Endpoint =
            format!("https://{key}.rpc.example.org/").parse().unwrap();
        for shown in [endpoint.to_string(), format!("{endpoint:?}")] {
            assert!(
                !shown.contains(key) && shown.contains("***.rpc.example.org"),
                "{shown}"
            );
        }
        // Ordinary hosts are shown whole.
        let url: reqwest::Url = "https://rpc.mainnet.near.org/".parse().unwrap();
        assert_eq!(show_url(&url), "https://rpc.mainnet.near.org");
        assert!(url_secrets(&url).is_empty());
    }

    #[test]
    fn url_secrets_find_keys_in_every_place() {
        let url: reqwest::Url =
            "https://user:pa55word99@h.io/v1/mainnet/3f9a2c1e8b7d4a6f?apiKey=k%2Bey&x=1"
                .parse()
                .unwrap();
        let found = url_secrets(&url);
        for expected in ["user", "pa55word99", "3f9a2c1e8b7d4a6f", "k%2Bey", "k+ey"] {
            assert!(found.iter().any(|f| f == expected), "{expected}: {found:?}");
        }
        for not_secret in ["v1", "mainnet", "1"] {
            assert!(!found.iter().any(|f| f == not_secret), "{not_secret}");
        }
        assert_eq!(show_url(&url), "https://h.io/***");
        let plain: reqwest::Url = "http://127.0.0.1:3030/".parse().unwrap();
        assert_eq!(show_url(&plain), "http://127.0.0.1:3030");
    }
}
