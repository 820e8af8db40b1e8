//! Reads `spec/SOURCE.toml`, the pins of the shipped spec documents: the one parser of
//! that file, included by the crate's build script (`build.rs`) and by the generator
//! (`codegen/src/load`), which share no crate. The file is TOML of one shape: string
//! values and arrays of strings, comments; anything else is an error naming its line.

/// The pins, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Source<'a> {
    /// The version built without a version feature.
    pub default: &'a str,
    /// `shipped`: one entry per version, oldest first:
    /// `"VERSION COMMIT SHA256 [FOLDER]"`.
    pub shipped: Vec<&'a str>,
    /// `openrpc`: the pinned OpenRPC documents, `"VERSION COMMIT SHA256"`.
    pub openrpc: Vec<&'a str>,
    /// Every other `key = "value"` (`repository`, `path`).
    pub other: Vec<(&'a str, &'a str)>,
}

/// One `shipped` or `openrpc` entry, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pin<'a> {
    /// `info.version` (`1.2.6`, `nearcore-0.38.0`).
    pub version: &'a str,
    /// The nearcore commit it comes from (for a derived document, the crates').
    pub commit: &'a str,
    /// sha256 of its exact bytes.
    pub sha256: &'a str,
    /// Where the document lives beside the spec directory, when not in it
    /// (`spec-derived`: a document nearcore did not publish, derived from its crates).
    pub folder: Option<&'a str>,
}

impl<'a> Pin<'a> {
    /// Reads `"VERSION COMMIT SHA256 [FOLDER]"`; `None` when a word is missing.
    pub fn of(entry: &'a str) -> Option<Self> {
        let mut parts = entry.split_whitespace();
        Some(Pin {
            version: parts.next()?,
            commit: parts.next()?,
            sha256: parts.next()?,
            folder: parts.next(),
        })
    }

    /// The directory under `generated/` and the cargo feature: `v1_2_6`,
    /// `nearcore_0_38_0`.
    pub fn module(&self) -> String {
        module_name(self.version)
    }
}

/// Parses the file; an error names the line and what is wrong there.
pub fn parse(text: &str) -> Result<Source<'_>, String> {
    let mut source = Source::default();
    let mut seen: Vec<&str> = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        let line = strip_comment(line).trim();
        if line.is_empty() {
            continue;
        }
        let where_ = |at: usize, what: &str| format!("spec/SOURCE.toml line {}: {what}", at + 1);
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| where_(at, "expected `key = value`"))?;
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(where_(at, &format!("`{key}` is not a bare key")));
        }
        if seen.contains(&key) {
            return Err(where_(at, &format!("`{key}` is set twice")));
        }
        seen.push(key);
        let array = key == "shipped" || key == "openrpc";
        let values = match value.strip_prefix('[') {
            Some(rest) if array => {
                // Items separated by commas, over this line and the following ones, each
                // line's comment left out, up to the closing `]`.
                let mut items = Vec::new();
                let (mut part, mut part_at) = (rest.trim(), at);
                loop {
                    let (body, closed) = match part.strip_suffix(']') {
                        Some(body) => (body.trim_end(), true),
                        None => (part, false),
                    };
                    let pieces: Vec<&str> = body.split(',').map(str::trim).collect();
                    for (i, piece) in pieces.iter().enumerate() {
                        // Only the last piece of a line may be empty (a trailing comma).
                        if piece.is_empty() && i + 1 < pieces.len() {
                            return Err(where_(part_at, &format!("`{key}`: an empty item")));
                        }
                        if !piece.is_empty() {
                            items.push(string(piece).ok_or_else(|| {
                                where_(part_at, &format!("`{key}`: {piece} is not a string"))
                            })?);
                        }
                    }
                    if closed {
                        break;
                    }
                    let (next_at, next) = lines
                        .next()
                        .ok_or_else(|| where_(at, &format!("the array `{key}` is not closed")))?;
                    part = strip_comment(next).trim();
                    part_at = next_at;
                }
                items
            }
            _ if array => return Err(where_(at, &format!("`{key}` is an array of strings"))),
            _ => vec![string(value).ok_or_else(|| where_(at, &format!("`{key}`: not a string")))?],
        };
        match key {
            "default" => source.default = values[0],
            "shipped" => source.shipped = values,
            "openrpc" => source.openrpc = values,
            other => source.other.push((other, values[0])),
        }
    }
    if source.default.is_empty() {
        return Err("spec/SOURCE.toml names no `default` version".to_owned());
    }
    Ok(source)
}

/// The line without its comment (no value of this file holds a `#`).
fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(before, _)| before)
}

/// The contents of a basic string `"..."` (no escapes are used).
fn string(quoted: &str) -> Option<&str> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains(['"', '\\'])).then_some(inner)
}

/// `1.2.6` → `v1_2_6`; a document derived from a nearcore release, `nearcore-0.38.0` →
/// `nearcore_0_38_0`: the directory under `generated/` and the cargo feature.
pub fn module_name(version: &str) -> String {
    match version.strip_prefix("nearcore-") {
        Some(release) => format!("nearcore_{}", release.replace('.', "_")),
        None => format!("v{}", version.replace('.', "_")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pins_parse_and_mistakes_are_named() {
        let text = include_str!("SOURCE.toml");
        let source = parse(text).unwrap();
        assert_eq!(source.default, "1.2.6");
        assert!(source.shipped.len() >= 7, "{source:?}");
        assert!(source.shipped[0].starts_with("1.2.6 "));
        assert_eq!(source.openrpc.len(), 1);
        assert!(source
            .other
            .contains(&("repository", "https://github.com/near/nearcore")));

        let inline = "default = \"x\" # the default\nshipped = [\"a b c\", \"d e f\"] # two\n";
        assert_eq!(parse(inline).unwrap().shipped, ["a b c", "d e f"]);
        let commented = "default = \"x\"\nshipped = [ # oldest first\n  \"a\", # one\n  # a note\n  \"b\"\n] # done\n";
        assert_eq!(parse(commented).unwrap().shipped, ["a", "b"]);
        let cases = [
            (
                "default = \"1.2.6\"\nshipped = [\"a\"]\nshipped = [\"b\"]\n",
                "line 3: `shipped` is set twice",
            ),
            ("default = \"1.2.6\"\nshipped = [\n  \"a\",\n", "not closed"),
            ("default = 1.2.6\n", "line 1: `default`: not a string"),
            ("shipped = []\n", "no `default`"),
            ("default = [\"x\"]\n", "`default`: not a string"),
            (
                "default = \"x\"\nshipped = \"a\"\n",
                "`shipped` is an array of strings",
            ),
            (
                "default = \"x\"\nshipped = [\"a\",,\"b\"]\n",
                "an empty item",
            ),
            ("default = \"x\"\nshipped = [\"a\"]]\n", "is not a string"),
            ("a b = \"x\"\n", "not a bare key"),
        ];
        for (text, expected) in cases {
            let error = parse(text).unwrap_err();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn module_names() {
        assert_eq!(module_name("1.2.6"), "v1_2_6");
        assert_eq!(module_name("nearcore-0.38.0"), "nearcore_0_38_0");
    }
}
