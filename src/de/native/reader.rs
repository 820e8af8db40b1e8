//! The one concrete JSON reader the generated decoders read from: a cursor over the
//! response bytes, with methods for each JSON value kind. Nothing here is generic, so it
//! is compiled once, and a type's decoder is a plain function calling these.

use std::borrow::Cow;

use super::error::Error;

/// How a decode treats what the types do not know: chosen by whoever starts the decode
/// and carried by its [`Reader`], so that one decode never sees what another chose.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Input a user wrote: a variant an open enum does not know is an error, where a
    /// response from a node (not strict) keeps it whole in the catch-all variant.
    pub strict: bool,
    /// Keep a copy of every value put in a catch-all variant, in document order (see
    /// [`Reader::take_unknown`]): how `decode::from_slice_reporting` lists them.
    pub collect_unknown: bool,
}

/// A cursor over one JSON document.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// The named fields of the struct a flattened enum is read from, again (see
    /// [`Reader::flattened_beside`]).
    siblings: &'static [&'static str],
    options: Options,
    /// The values kept in catch-all variants, when `options.collect_unknown`.
    unknown: Vec<serde_json::Value>,
}

/// What kind of value comes next, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// `null`
    Null,
    /// `true` or `false`
    Bool,
    /// A number
    Number,
    /// A string
    String,
    /// An array
    Array,
    /// An object
    Object,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`, with the default [`Options`] (a node's response:
    /// unknown variants kept, nothing collected).
    pub fn new(bytes: &'a [u8]) -> Self {
        Self::with_options(bytes, Options::default())
    }

    /// A reader at the start of `bytes` that decodes as `options` say.
    pub fn with_options(bytes: &'a [u8], options: Options) -> Self {
        Reader {
            bytes,
            pos: 0,
            siblings: &[],
            options,
            unknown: Vec::new(),
        }
    }

    /// Whether a variant the types do not know is an error (see [`Options::strict`]).
    pub fn is_strict(&self) -> bool {
        self.options.strict
    }

    /// Notes `value`, just kept in a catch-all variant, if the decode collects them.
    pub fn keep_unknown(&mut self, value: &serde_json::Value) {
        if self.options.collect_unknown {
            self.unknown.push(value.clone());
        }
    }

    /// The values noted by [`Reader::keep_unknown`], in document order.
    pub fn take_unknown(&mut self) -> Vec<serde_json::Value> {
        std::mem::take(&mut self.unknown)
    }

    /// Says that the next value is an object read again for a flattened enum, beside
    /// the struct's own fields `siblings`: the enum's variant finder skips those keys
    /// (as serde's `flatten` hands the enum only the keys the struct did not take).
    pub fn flattened_beside(&mut self, siblings: &'static [&'static str]) {
        self.siblings = siblings;
    }

    /// The struct fields to skip (see [`Reader::flattened_beside`]), for the next value
    /// only: nested values never see them.
    pub fn take_siblings(&mut self) -> &'static [&'static str] {
        std::mem::take(&mut self.siblings)
    }

    /// Where the reader is: a byte offset to come back to with [`Reader::rewind`].
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Goes back (or forth) to a position [`Reader::position`] returned.
    pub fn rewind(&mut self, pos: usize) {
        self.pos = pos;
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// A syntax error at the current position: the text is not JSON.
    #[cold]
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::syntax(message.into(), self.pos)
    }

    /// A value that is JSON but not what the type wants, at the current position.
    #[cold]
    pub fn data_error(&self, message: impl Into<String>) -> Error {
        Error::new(message.into(), self.pos)
    }

    /// The kind of the next value (after whitespace), or an error at the end of input.
    #[inline]
    pub fn peek(&mut self) -> Result<Next, Error> {
        self.skip_whitespace();
        match self.bytes.get(self.pos) {
            Some(b'n') => Ok(Next::Null),
            Some(b't' | b'f') => Ok(Next::Bool),
            Some(b'-' | b'0'..=b'9') => Ok(Next::Number),
            Some(b'"') => Ok(Next::String),
            Some(b'[') => Ok(Next::Array),
            Some(b'{') => Ok(Next::Object),
            Some(_) => Err(self.no_value()),
            None => Err(self.no_value()),
        }
    }

    /// Kept out of line, so that `peek`, called for every value, stays small.
    #[cold]
    #[inline(never)]
    fn no_value(&self) -> Error {
        match self.bytes.get(self.pos) {
            Some(_) => self.error("expected value"),
            None => self.error("EOF while parsing a value"),
        }
    }

    /// After the document: only whitespace may follow.
    pub fn end(&mut self) -> Result<(), Error> {
        self.skip_whitespace();
        if self.pos < self.bytes.len() {
            return Err(self.error("trailing characters"));
        }
        Ok(())
    }

    fn literal(&mut self, word: &'static [u8]) -> Result<(), Error> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.error(format!(
                "expected `{}`",
                std::str::from_utf8(word).unwrap_or("")
            )))
        }
    }

    /// Reads `null` if it comes next; says whether it did.
    #[inline]
    pub fn null(&mut self) -> Result<bool, Error> {
        if self.peek()? == Next::Null {
            self.literal(b"null")?;
            return Ok(true);
        }
        Ok(false)
    }

    /// The error for a value of the wrong kind, naming it as serde does
    /// (`invalid type: integer `7`, expected a string`).
    pub fn invalid_type(&mut self, expected: &str) -> Error {
        let start = self.position();
        let found = match self.peek() {
            // Checked whole: `nope` is no JSON at all, a syntax error, not a null.
            Ok(Next::Null) => match self.literal(b"null") {
                Ok(()) => "null".to_owned(),
                Err(e) => return e,
            },
            Ok(Next::Bool) => match self.bool() {
                Ok(b) => format!("boolean `{b}`"),
                Err(e) => return e,
            },
            Ok(Next::Number) => match self.number_text() {
                // Written as serde_json writes it (`1e+20`, `1.5`).
                Ok(text) if !json_integer(text) => format!(
                    "floating point `{}`",
                    serde_json::to_string(&text.parse::<f64>().unwrap_or(f64::NAN))
                        .unwrap_or_default()
                ),
                Ok(text) => format!("integer `{text}`"),
                Err(e) => return e,
            },
            Ok(Next::String) => match self.string() {
                Ok(s) => format!("string {s:?}"),
                Err(e) => return e,
            },
            Ok(Next::Array) => "sequence".to_owned(),
            Ok(Next::Object) => "map".to_owned(),
            Err(e) => return e,
        };
        self.rewind(start);
        self.skip_whitespace();
        self.data_error(format!("invalid type: {found}, expected {expected}"))
    }

    /// A boolean.
    pub fn bool(&mut self) -> Result<bool, Error> {
        match self.peek()? {
            Next::Bool if self.bytes[self.pos] == b't' => self.literal(b"true").map(|()| true),
            Next::Bool => self.literal(b"false").map(|()| false),
            _ => Err(self.invalid_type("a boolean")),
        }
    }

    /// The text of the number that comes next, checked against JSON's grammar.
    fn number_text(&mut self) -> Result<&'a str, Error> {
        self.skip_whitespace();
        let start = self.pos;
        self.skip_number()?;
        // ASCII digits and signs only.
        Ok(std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or_default())
    }

    /// Moves past the number that comes next, checking it against JSON's grammar.
    fn skip_number(&mut self) -> Result<(), Error> {
        let bytes = self.bytes;
        let mut pos = self.pos;
        if bytes.get(pos) == Some(&b'-') {
            pos += 1;
        }
        let digits = |pos: &mut usize| {
            let from = *pos;
            loop {
                let (_, count) = digits19(bytes, *pos);
                *pos += count;
                if count < 19 {
                    return *pos - from;
                }
            }
        };
        let int_start = pos;
        let int_digits = digits(&mut pos);
        if int_digits == 0 || (int_digits > 1 && bytes[int_start] == b'0') {
            self.pos = pos;
            return Err(self.error("invalid number"));
        }
        if bytes.get(pos) == Some(&b'.') {
            pos += 1;
            if digits(&mut pos) == 0 {
                self.pos = pos;
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = bytes.get(pos) {
            pos += 1;
            if let Some(b'+' | b'-') = bytes.get(pos) {
                pos += 1;
            }
            if digits(&mut pos) == 0 {
                self.pos = pos;
                return Err(self.error("invalid number"));
            }
        }
        self.pos = pos;
        Ok(())
    }

    /// An unsigned integer that fits 64 bits; `what` names the Rust type in errors.
    #[inline]
    pub fn u64(&mut self, what: &str) -> Result<u64, Error> {
        self.skip_whitespace();
        // The common case, a plain non-negative integer, in one pass: nineteen digits
        // always fit a u64, only a twentieth needs checking.
        let start = self.pos;
        let (mut value, count) = digits19(self.bytes, start);
        let mut pos = start + count;
        if let Some(&digit @ b'0'..=b'9') = self.bytes.get(pos) {
            if let Some(v) = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(digit - b'0')))
            {
                value = v;
                pos += 1;
            }
        }
        let plain = pos > start
            && (pos == start + 1 || self.bytes[start] != b'0')
            && !matches!(self.bytes.get(pos), Some(b'.' | b'e' | b'E' | b'0'..=b'9'));
        if plain {
            self.pos = pos;
            return Ok(value);
        }
        Err(self.not_a(what))
    }

    /// A signed integer that fits 64 bits.
    pub fn i64(&mut self, what: &str) -> Result<i64, Error> {
        if self.peek()? != Next::Number {
            return Err(self.invalid_type(what));
        }
        let start = self.pos;
        if self.bytes[start] != b'-' {
            return match self.u64(what).map(i64::try_from) {
                Ok(Ok(n)) => Ok(n),
                Ok(Err(_)) => {
                    self.rewind(start);
                    Err(self.not_a(what))
                }
                Err(e) => Err(e),
            };
        }
        let text = self.number_text()?;
        match text.parse::<i64>() {
            // `-0` is a float to serde_json (and so refused).
            Ok(n) if n < 0 => Ok(n),
            _ => {
                self.rewind(start);
                Err(self.not_a(what))
            }
        }
    }

    /// The error for a value that is not an integer of type `what`.
    fn not_a(&mut self, what: &str) -> Error {
        let start = self.pos;
        if !matches!(self.peek(), Ok(Next::Number)) {
            return self.invalid_type(what);
        }
        match self.number_text() {
            Ok(text) if !json_integer(text) => {
                self.rewind(start);
                self.invalid_type(what)
            }
            Ok(text) => {
                self.rewind(start);
                self.skip_whitespace();
                self.data_error(format!("invalid value: integer `{text}`, expected {what}"))
            }
            Err(e) => e,
        }
    }

    /// A number as `f64`, read as serde_json reads it.
    pub fn f64(&mut self) -> Result<f64, Error> {
        if self.peek()? != Next::Number {
            return Err(self.invalid_type("f64"));
        }
        let start = self.pos;
        let text = self.number_text()?;
        // serde_json's own float parsing, so that both decoders agree to the last bit.
        serde_json::from_str::<f64>(text).map_err(|e| {
            self.rewind(start);
            self.data_error(super::error::without_position(&e.to_string()))
        })
    }

    /// The digits of a string such as `"12345"`, as a number up to `max`, read whole;
    /// `None` (and nothing read) for anything else, which the caller then reads the slow
    /// way. Amounts (deposits, stakes, balances) are sent this way.
    #[inline]
    pub fn digits_in_string(&mut self, max: u128) -> Option<u128> {
        self.skip_whitespace();
        let bytes = self.bytes.get(self.pos..)?;
        if bytes.first() != Some(&b'"') {
            return None;
        }
        // Nineteen digits at a time in a u64, which they always fit, then into the u128:
        // one wide multiplication per nineteen digits rather than one per digit.
        let mut value: u128 = 0;
        let mut len = 1;
        loop {
            let (part, count) = digits19(bytes, len);
            len += count;
            value = value
                .checked_mul(10u128.pow(count as u32))?
                .checked_add(u128::from(part))?;
            if count < 19 {
                break;
            }
        }
        // At least one digit, no leading zero (unless alone), then the closing quote.
        if len == 1 || (len > 2 && bytes[1] == b'0') || bytes.get(len) != Some(&b'"') || value > max
        {
            return None;
        }
        self.pos += len + 1;
        Some(value)
    }

    /// A string, borrowed from the input unless it has escapes.
    #[inline]
    pub fn string(&mut self) -> Result<Cow<'a, str>, Error> {
        if self.peek()? != Next::String {
            return Err(self.invalid_type("a string"));
        }
        self.string_at_quote()
    }

    /// The string whose opening quote is at the current position (after a `peek`). The
    /// common case, an ASCII string without escapes, is inlined; the rest is not.
    #[inline(always)]
    pub(super) fn string_at_quote(&mut self) -> Result<Cow<'a, str>, Error> {
        let start = self.pos + 1;
        let (end, plain) = scan_plain(self.bytes, start);
        if let Some(text) = plain {
            self.pos = end + 1;
            return Ok(Cow::Borrowed(text));
        }
        self.string_from_stop(start, end)
    }

    /// A string from `start`, its first quote, backslash or control character at `end`,
    /// that is not plain ASCII: one with other UTF-8, escapes, or broken.
    #[inline(never)]
    fn string_from_stop(&mut self, start: usize, end: usize) -> Result<Cow<'a, str>, Error> {
        match self.bytes.get(end) {
            Some(b'"') => {
                let text = std::str::from_utf8(&self.bytes[start..end])
                    .map_err(|_| Error::syntax("invalid unicode code point".to_owned(), start))?;
                self.pos = end + 1;
                Ok(Cow::Borrowed(text))
            }
            Some(b'\\') => self.escaped_string(start, end).map(Cow::Owned),
            Some(_) => {
                self.pos = end;
                Err(self.error("control character (\\u0000-\\u001F) found while parsing a string"))
            }
            None => {
                self.pos = end;
                Err(self.error("EOF while parsing a string"))
            }
        }
    }

    /// The rest of a string from its first escape at `pos`.
    fn escaped_string(&mut self, start: usize, mut pos: usize) -> Result<String, Error> {
        let mut out: Vec<u8> = self.bytes[start..pos].to_vec();
        loop {
            match self.bytes.get(pos) {
                Some(b'"') => {
                    self.pos = pos + 1;
                    return String::from_utf8(out).map_err(|_| {
                        Error::syntax("invalid unicode code point".to_owned(), start)
                    });
                }
                Some(b'\\') => {
                    let escape = self.bytes.get(pos + 1).copied();
                    pos += 2;
                    let byte = match escape {
                        Some(b'"') => b'"',
                        Some(b'\\') => b'\\',
                        Some(b'/') => b'/',
                        Some(b'b') => 0x08,
                        Some(b'f') => 0x0c,
                        Some(b'n') => b'\n',
                        Some(b'r') => b'\r',
                        Some(b't') => b'\t',
                        Some(b'u') => {
                            let c = self.unicode_escape(&mut pos)?;
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                            continue;
                        }
                        _ => {
                            self.pos = pos - 1;
                            return Err(self.error("invalid escape"));
                        }
                    };
                    out.push(byte);
                }
                Some(0..=0x1f) => {
                    self.pos = pos;
                    return Err(self.error(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                    ));
                }
                Some(&b) => {
                    out.push(b);
                    pos += 1;
                }
                None => {
                    self.pos = pos;
                    return Err(self.error("EOF while parsing a string"));
                }
            }
        }
    }

    /// The character of a `\uXXXX` escape (two for a surrogate pair), `pos` just after
    /// the `u`.
    fn unicode_escape(&mut self, pos: &mut usize) -> Result<char, Error> {
        let first = self.hex4(pos)?;
        let code = match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(*pos..*pos + 2) != Some(b"\\u") {
                    self.pos = *pos;
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                *pos += 2;
                let second = self.hex4(pos)?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    self.pos = *pos;
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => {
                self.pos = *pos;
                return Err(self.error("lone leading surrogate in hex escape"));
            }
            code => code,
        };
        char::from_u32(code).ok_or_else(|| {
            self.pos = *pos;
            self.error("invalid unicode code point")
        })
    }

    fn hex4(&mut self, pos: &mut usize) -> Result<u32, Error> {
        let digits = self.bytes.get(*pos..*pos + 4).and_then(|d| {
            let text = std::str::from_utf8(d).ok()?;
            u32::from_str_radix(text, 16).ok()
        });
        match digits {
            Some(value) => {
                *pos += 4;
                Ok(value)
            }
            None => {
                self.pos = *pos;
                Err(self.error("invalid escape"))
            }
        }
    }

    /// Enters an object; `expected` names what was wanted when the value is not one.
    #[inline]
    pub fn begin_object(&mut self, expected: &str) -> Result<(), Error> {
        if self.peek()? != Next::Object {
            return Err(self.invalid_type(expected));
        }
        self.pos += 1;
        Ok(())
    }

    /// The next key of the object being read, its `:` consumed, or `None` at its end.
    /// `first` starts `true` and is kept by the caller for one object.
    ///
    /// Inlined into every object's loop, so kept to the common case, which is most of
    /// decoding a configuration: compact JSON (`,"key":`) and a plain ASCII key. The
    /// rest (whitespace, the object's end, escapes, errors) is one call away.
    #[inline(always)]
    pub fn next_key(&mut self, first: &mut bool) -> Result<Option<Cow<'a, str>>, Error> {
        let bytes = self.bytes;
        let quote = self.pos + usize::from(!*first);
        if (*first || bytes.get(self.pos) == Some(&b',')) && bytes.get(quote) == Some(&b'"') {
            if let (end, Some(key)) = scan_plain(bytes, quote + 1) {
                if bytes.get(end + 1) == Some(&b':') {
                    *first = false;
                    self.pos = end + 2;
                    return Ok(Some(Cow::Borrowed(key)));
                }
            }
        }
        self.next_key_in_full(first)
    }

    /// [`Reader::next_key`], every case.
    #[inline(never)]
    fn next_key_in_full(&mut self, first: &mut bool) -> Result<Option<Cow<'a, str>>, Error> {
        if !self.key_start(first)? {
            return Ok(None);
        }
        let key = self.string_at_quote()?;
        self.colon()?;
        Ok(Some(key))
    }

    /// Before a key: consumes `}` (false) or the `,` before the key and its whitespace.
    #[inline(always)]
    fn key_start(&mut self, first: &mut bool) -> Result<bool, Error> {
        self.skip_whitespace();
        match self.bytes.get(self.pos) {
            Some(b'}') => {
                self.pos += 1;
                return Ok(false);
            }
            Some(b',') if !*first => {
                self.pos += 1;
                self.skip_whitespace();
            }
            Some(b'"') if *first => {}
            Some(_) if *first => return Err(self.error("key must be a string")),
            Some(_) => return Err(self.error("expected `,` or `}`")),
            None => return Err(self.error("EOF while parsing an object")),
        }
        *first = false;
        if self.bytes.get(self.pos) != Some(&b'"') {
            return Err(self.error("key must be a string"));
        }
        Ok(true)
    }

    /// After a key: its `:`.
    #[inline]
    fn colon(&mut self) -> Result<(), Error> {
        self.skip_whitespace();
        if self.bytes.get(self.pos) != Some(&b':') {
            return Err(self.error("expected `:`"));
        }
        self.pos += 1;
        Ok(())
    }

    /// Enters an array.
    #[inline]
    pub fn begin_array(&mut self, expected: &str) -> Result<(), Error> {
        if self.peek()? != Next::Array {
            return Err(self.invalid_type(expected));
        }
        self.pos += 1;
        Ok(())
    }

    /// Whether the array being read has another element (its `,` consumed).
    #[inline]
    pub fn next_element(&mut self, first: &mut bool) -> Result<bool, Error> {
        self.skip_whitespace();
        match self.bytes.get(self.pos) {
            Some(b']') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b',') if !*first => {
                self.pos += 1;
                Ok(true)
            }
            Some(_) if *first => {
                *first = false;
                Ok(true)
            }
            Some(_) => Err(self.error("expected `,` or `]`")),
            None => Err(self.error("EOF while parsing a list")),
        }
    }

    /// Skips one value of any kind, checking its syntax. Arrays and objects nested more
    /// than [`MAX_SKIP_DEPTH`] deep are refused, as serde_json refuses them: a hostile
    /// body nested a hundred thousand deep would otherwise overflow the stack.
    pub fn skip(&mut self) -> Result<(), Error> {
        self.skip_within(MAX_SKIP_DEPTH)
    }

    fn skip_within(&mut self, depth: usize) -> Result<(), Error> {
        match self.peek()? {
            Next::Null => self.literal(b"null"),
            Next::Bool => self.bool().map(drop),
            Next::Number => self.skip_number(),
            Next::String => self.skip_string(),
            Next::Array | Next::Object if depth == 0 => Err(self.error("recursion limit exceeded")),
            Next::Array => {
                self.pos += 1;
                let mut first = true;
                while self.next_element(&mut first)? {
                    self.skip_within(depth - 1)?;
                }
                Ok(())
            }
            Next::Object => {
                self.pos += 1;
                let mut first = true;
                // Keys are skipped like values: they need no building.
                while self.key_start(&mut first)? {
                    self.skip_string()?;
                    self.colon()?;
                    self.skip_within(depth - 1)?;
                }
                Ok(())
            }
        }
    }

    /// Skips a string without building it.
    fn skip_string(&mut self) -> Result<(), Error> {
        let mut pos = self.pos + 1;
        loop {
            pos = scan_string(self.bytes, pos).0;
            match self.bytes.get(pos) {
                Some(b'"') => {
                    self.pos = pos + 1;
                    return Ok(());
                }
                Some(b'\\') => pos += 2,
                Some(_) => {
                    self.pos = pos;
                    return Err(self.error(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                    ));
                }
                None => {
                    self.pos = pos.min(self.bytes.len());
                    return Err(self.error("EOF while parsing a string"));
                }
            }
        }
    }

    /// The raw text of the next value, skipped.
    pub fn raw(&mut self) -> Result<&'a [u8], Error> {
        self.skip_whitespace();
        let start = self.pos;
        self.skip()?;
        Ok(&self.bytes[start..self.pos])
    }

    /// The next value as a `serde_json::Value`.
    pub fn value(&mut self) -> Result<serde_json::Value, Error> {
        let raw = self.raw()?;
        serde_json::from_slice(raw)
            .map_err(|e| self.data_error(super::error::without_position(&e.to_string())))
    }
}

/// How deep [`Reader::skip`] goes, serde_json's own limit. The typed decoders nest only
/// as deep as the types do (none is recursive), so with it no input can exhaust the stack.
pub const MAX_SKIP_DEPTH: usize = 128;

/// The ASCII digits from `pos`, at most nineteen: their value, which always fits a
/// `u64`, and how many there are. Eight at a time while whole eight-byte words are
/// digits: integers fill the configurations, and their digits were a fifth of decoding.
#[inline]
fn digits19(bytes: &[u8], mut pos: usize) -> (u64, usize) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let start = pos;
    let mut value = 0u64;
    // Two words at most, so that the bytewise tail keeps the count within nineteen.
    while pos - start <= 11 {
        let Some(Ok(word)) = bytes.get(pos..pos + 8).map(<[u8; 8]>::try_from) else {
            break;
        };
        // Each byte's digit value: XOR is one-to-one, so only '0'..='9' give 0..=9.
        let t = u64::from_le_bytes(word) ^ (ONES * u64::from(b'0'));
        // A byte's high bit is set where it is above 9 (the addition cannot carry
        // across bytes: at most 0x7f + 0x76).
        let not_digit = (((t & (ONES * 0x7f)) + ONES * 0x76) | t) & (ONES * 0x80);
        if not_digit == 0 {
            value = value * 100_000_000 + eight_digits(t);
            pos += 8;
            continue;
        }
        let count = (not_digit.trailing_zeros() / 8) as usize;
        if count > 0 {
            // The digits moved to the word's top: the bytes below read as leading zeros.
            value = value * 10u64.pow(count as u32) + eight_digits(t << (8 * (8 - count)));
        }
        return (value, pos + count - start);
    }
    while pos - start < 19 {
        let Some(&digit @ b'0'..=b'9') = bytes.get(pos) else {
            break;
        };
        value = value * 10 + u64::from(digit - b'0');
        pos += 1;
    }
    (value, pos - start)
}

/// The number written by eight digit values, one per byte, the first in the lowest byte:
/// pairs, then fours, then all eight combined, each step in one multiplication.
#[inline]
fn eight_digits(t: u64) -> u64 {
    let pairs = (t * 10 + (t >> 8)) & 0x00ff_00ff_00ff_00ff;
    let fours = (pairs * 100 + (pairs >> 16)) & 0x0000_ffff_0000_ffff;
    (fours * 10_000 + (fours >> 32)) & 0xffff_ffff
}

/// Whether serde_json takes a number's text as an integer: one that fits a `u64`, or an
/// `i64` when negative. Anything else (a fraction, an exponent, more digits, `-0`) is a
/// float.
fn json_integer(text: &str) -> bool {
    text.parse::<u64>().is_ok() || text.parse::<i64>().is_ok_and(|n| n < 0)
}

/// From `start`, [`scan_string`]'s stop, and the string up to it when the string is plain:
/// all ASCII, and closed there (no escapes). The common case of keys and values.
#[inline(always)]
fn scan_plain(bytes: &[u8], start: usize) -> (usize, Option<&str>) {
    let (end, ascii) = scan_string(bytes, start);
    if !ascii || bytes.get(end) != Some(&b'"') {
        return (end, None);
    }
    // SAFETY: `scan_string` saw no byte with the high bit set before `end`, and ASCII is
    // valid UTF-8.
    (
        end,
        Some(unsafe { std::str::from_utf8_unchecked(&bytes[start..end]) }),
    )
}

/// From `pos`, the position of the first `"`, `\\` or control character (or the end of
/// input), and whether every byte before it is ASCII: the hot loop of decoding, since
/// responses are mostly strings. Sixteen bytes at a time with SSE2 (every x86-64 has
/// it), then eight at a time.
#[inline(never)]
// `pos` moves only in the x86-64 loop.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
fn scan_string(bytes: &[u8], mut pos: usize) -> (usize, bool) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8,
            _mm_or_si128, _mm_set1_epi8,
        };
        let mut high = 0;
        while pos + 16 <= bytes.len() {
            // SAFETY: SSE2 is part of x86-64's baseline, so its intrinsics are always
            // there; the load reads the sixteen bytes from `pos`, inside `bytes`,
            // unaligned.
            let (stop, non_ascii) = unsafe {
                let x = _mm_loadu_si128(bytes.as_ptr().add(pos).cast::<__m128i>());
                let quote = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(x, _mm_set1_epi8(b'\\' as i8));
                // Below 0x20 (unsigned): max(x, 0x1f) is 0x1f.
                let low = _mm_set1_epi8(0x1f);
                let control = _mm_cmpeq_epi8(_mm_max_epu8(x, low), low);
                let stop = _mm_or_si128(_mm_or_si128(quote, backslash), control);
                // One bit per byte: the byte's high bit.
                (_mm_movemask_epi8(stop), _mm_movemask_epi8(x))
            };
            if stop != 0 {
                let offset = stop.trailing_zeros();
                let before = non_ascii & ((1 << offset) - 1);
                return (pos + offset as usize, high | before == 0);
            }
            high |= non_ascii;
            pos += 16;
        }
        if high != 0 {
            let (end, _) = scan_string_by_words(bytes, pos);
            return (end, false);
        }
    }
    scan_string_by_words(bytes, pos)
}

/// [`scan_string`] eight bytes at a time, then one.
fn scan_string_by_words(bytes: &[u8], mut pos: usize) -> (usize, bool) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut high = 0;
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(chunk);
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        // A byte's high bit is set where it is zero (the quote or backslash) or below
        // 0x20; the lowest such bit is exact, since borrows only run upwards.
        let found = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | x.wrapping_sub(ONES * 0x20) & !x)
            & HIGH;
        if found != 0 {
            let offset = (found.trailing_zeros() / 8) as usize;
            let before = x & ((1u64 << (8 * offset)) - 1);
            return (pos + offset, (high | before) & HIGH == 0);
        }
        high |= x;
        pos += 8;
    }
    while let Some(&b) = bytes.get(pos) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        high |= u64::from(b);
        pos += 1;
    }
    (pos, high & HIGH == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::de::native::{from_slice, Decode};

    fn read<T: Decode>(text: &str) -> Result<T, crate::de::error::DecodeError> {
        from_slice(text.as_bytes())
    }

    #[test]
    fn strings_borrow_unless_escaped_and_decode_every_escape() {
        let mut r = Reader::new(br#""plain""#);
        assert!(matches!(r.string().unwrap(), Cow::Borrowed("plain")));
        let text = r#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#;
        let expected: String = serde_json::from_str(text).unwrap();
        assert_eq!(read::<String>(text).unwrap(), expected);
        for (bad, why) in [
            (r#""\ud83d""#, "lone leading surrogate"),
            (r#""\ude00x""#, "lone leading surrogate"),
            ("\"a\u{1}b\"", "control character"),
            (r#""\q""#, "invalid escape"),
            (r#""\u12""#, "invalid escape"),
            (r#""open"#, "EOF while parsing a string"),
        ] {
            let err = read::<String>(bad).unwrap_err();
            assert!(err.message().contains(why), "{bad}: {err}");
            assert_eq!(err.path(), "", "syntax errors have no path");
        }
        assert!(read::<String>("\"\u{e9}\"").is_ok(), "UTF-8 is kept");
    }

    #[test]
    fn integers_follow_json_and_name_the_type() {
        assert_eq!(read::<u64>(" 18446744073709551615 ").unwrap(), u64::MAX);
        assert_eq!(read::<u64>("0").unwrap(), 0);
        // serde_json reads `-0` as a float: neither takes it as a u64.
        assert!(read::<u64>("-0").is_err() && serde_json::from_str::<u64>("-0").is_err());
        assert_eq!(read::<i64>("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(read::<u8>("255").unwrap(), 255);
        assert_eq!(read::<f64>("1.5e3").unwrap(), 1500.0);
        assert_eq!(read::<f64>("7").unwrap(), 7.0);
        for (text, message) in [
            ("256", "invalid value: integer `256`, expected u8"),
            ("-1", "invalid value: integer `-1`, expected u8"),
            ("1.5", "invalid type: floating point `1.5`, expected u8"),
            ("\"7\"", "invalid type: string \"7\", expected u8"),
            ("null", "invalid type: null, expected u8"),
        ] {
            let err = read::<u8>(text).unwrap_err();
            assert!(err.message().starts_with(message), "{text}: {err}");
        }
        for bad in ["01", "-", "1.", "1e", "+1", ".5"] {
            let err = read::<u64>(bad).unwrap_err();
            assert_eq!(err.path(), "", "{bad}: {err}");
        }
        let err = read::<std::num::NonZero<u32>>("0").unwrap_err();
        assert!(err.message().contains("nonzero"), "{err}");
    }

    #[test]
    fn integers_of_every_length_agree_with_serde_json() {
        // Nineteen digits are read unchecked and the twentieth checked: every length
        // around that edge, at its largest and smallest, and just past the types' ends.
        let mut texts: Vec<String> = (1..=21)
            .flat_map(|n| ["9".repeat(n), format!("1{}", "0".repeat(n - 1))])
            .collect();
        texts.extend(
            [
                "18446744073709551616",
                "9223372036854775807",
                "9223372036854775808",
                "0",
            ]
            .map(String::from),
        );
        texts.extend(texts.clone().into_iter().map(|t| format!("-{t}")));
        for text in &texts {
            for (ours, theirs) in [
                (
                    read::<u64>(text).map(|n| n.to_string()),
                    serde_json::from_str::<u64>(text).map(|n| n.to_string()),
                ),
                (
                    read::<i64>(text).map(|n| n.to_string()),
                    serde_json::from_str::<i64>(text).map(|n| n.to_string()),
                ),
            ] {
                match (ours, theirs) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                    (Err(a), Err(b)) => {
                        let message = crate::de::native::error::without_position;
                        assert_eq!(message(a.message()), message(&b.to_string()), "{text}")
                    }
                    (a, b) => panic!("{text}: native {a:?}, serde_json {b:?}"),
                }
            }
        }
    }

    #[test]
    fn containers_and_paths() {
        assert_eq!(
            read::<Vec<Option<u64>>>("[1, null ,2]").unwrap(),
            vec![Some(1), None, Some(2)]
        );
        assert_eq!(read::<[u64; 2]>("[1,2]").unwrap(), [1, 2]);
        assert_eq!(
            read::<(u64, String)>(r#"[1,"a"]"#).unwrap(),
            (1, "a".into())
        );
        assert!(read::<[u64; 2]>("[1]")
            .unwrap_err()
            .message()
            .contains("invalid length 1"));
        assert!(read::<[u64; 2]>("[1,2,3]").is_err());
        assert!(read::<(u64, u64)>("[1]").is_err());
        assert_eq!(read::<()>("null").unwrap(), ());
        let map: std::collections::BTreeMap<String, u64> = read(r#"{"a":1,"b":2}"#).unwrap();
        assert_eq!(map.len(), 2);

        let err = read::<Vec<Vec<u64>>>("[[1],\n[2,\"x\"]]").unwrap_err();
        assert_eq!(err.path(), "[1][1]");
        assert!(err.message().ends_with("at line 2 column 4"), "{err}");
        let err =
            read::<std::collections::BTreeMap<String, Vec<u64>>>(r#"{"k":[true]}"#).unwrap_err();
        assert_eq!(err.path(), "k[0]");
    }

    #[test]
    fn documents_must_be_whole_json() {
        for bad in [
            "[1, 2,",
            "[1 2]",
            "{\"a\" 1}",
            "{1:2}",
            "[1] x",
            "",
            "nul",
            "tru",
        ] {
            let err = read::<serde_json::Value>(bad).unwrap_err();
            assert_eq!(err.path(), "", "{bad:?}: {err}");
        }
        let mut r = Reader::new(br#" {"a": [1, {"b": "\"}"}], "c": null} tail"#);
        let raw = r.raw().unwrap();
        assert_eq!(raw, br#"{"a": [1, {"b": "\"}"}], "c": null}"#);
        assert!(r.end().is_err());
    }
    #[test]
    fn skipping_stops_at_serde_jsons_depth() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let deepest = nested(MAX_SKIP_DEPTH);
        let mut r = Reader::new(deepest.as_bytes());
        r.skip().unwrap();
        r.end().unwrap();
        let objects = format!(
            "{}1{}",
            "{\"a\":".repeat(MAX_SKIP_DEPTH + 1),
            "}".repeat(MAX_SKIP_DEPTH + 1)
        );
        for too_deep in [nested(MAX_SKIP_DEPTH + 1), objects] {
            let err = Reader::new(too_deep.as_bytes()).skip().unwrap_err();
            assert_eq!(err.message(), "recursion limit exceeded");
        }
        // A hundred thousand deep, on a small stack: an error, not an overflow.
        let deep = nested(100_000);
        let err = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                Reader::new(deep.as_bytes())
                    .skip()
                    .unwrap_err()
                    .message()
                    .to_owned()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(err, "recursion limit exceeded");
    }
}

#[cfg(test)]
mod scan_tests {
    use super::*;

    /// The byte-at-a-time answer `scan_string` must give.
    fn naive(bytes: &[u8], pos: usize) -> (usize, bool) {
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .map_or(bytes.len(), |i| pos + i);
        (end, bytes[pos..end].is_ascii())
    }

    #[test]
    fn scanning_many_bytes_at_a_time_matches_one_at_a_time() {
        let stops: [&[u8]; 5] = [b"\"", b"\\", b"\x1f", b"\x00", "é".as_bytes()];
        let mut checked = 0;
        // Past 32 bytes: every stop in each lane of two sixteen-byte blocks, then the tail.
        for len in 0..40 {
            for stop in stops {
                for at in 0..=len {
                    let mut text = vec![b'a'; len];
                    text.splice(at..at, stop.iter().copied());
                    for pos in 0..text.len().min(3) {
                        let expected = naive(&text, pos);
                        assert_eq!(scan_string(&text, pos), expected, "{text:?} from {pos}");
                        let by_words = scan_string_by_words(&text, pos);
                        assert_eq!(by_words, expected, "{text:?} from {pos}, by words");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5000);
        // Every byte, at a place in the first block and in the tail; a non-ASCII byte
        // in an earlier block than the stop.
        for b in 0u8..=255 {
            for at in [7, 15, 16, 21, 30] {
                let mut text = [b'x'; 34];
                text[at] = b;
                text[33] = b'"';
                assert_eq!(
                    scan_string(&text, 0),
                    naive(&text, 0),
                    "byte {b:#x} at {at}"
                );
            }
        }
    }

    #[test]
    fn reading_eight_digits_at_a_time_matches_one_at_a_time() {
        let naive = |bytes: &[u8], pos: usize| {
            let digits: Vec<u8> = bytes[pos.min(bytes.len())..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .take(19)
                .copied()
                .collect();
            let value = digits
                .iter()
                .fold(0u64, |v, d| v * 10 + u64::from(d - b'0'));
            (value, digits.len())
        };
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for len in 0..24 {
            // Every byte value as the stop, the digits varied, from several offsets.
            for stop in 0u8..=255 {
                let mut text: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        b'0' + (state % 10) as u8
                    })
                    .collect();
                text.push(stop);
                text.extend_from_slice(b"123456789");
                for pos in 0..3 {
                    assert_eq!(
                        digits19(&text, pos),
                        naive(&text, pos),
                        "{text:?} from {pos}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
        assert_eq!(
            digits19(b"9999999999999999999999", 0),
            (9_999_999_999_999_999_999, 19)
        );
    }

    #[test]
    fn digits_in_strings_take_only_plain_numbers() {
        let read = |text: &str, max| Reader::new(text.as_bytes()).digits_in_string(max);
        assert_eq!(read(r#""0""#, u128::MAX), Some(0));
        assert_eq!(read(r#" "12345""#, u128::MAX), Some(12345));
        assert_eq!(
            read(r#""340282366920938463463374607431768211455""#, u128::MAX),
            Some(u128::MAX)
        );
        for other in [
            r#""""#,
            r#""01""#,
            r#""+1""#,
            r#""1 ""#,
            "12",
            r#""1"#,
            r#""340282366920938463463374607431768211456""#,
        ] {
            assert_eq!(read(other, u128::MAX), None, "{other}");
        }
        assert_eq!(
            read(r#""18446744073709551616""#, u128::from(u64::MAX)),
            None
        );
        // Every length up to u128's 39 digits, across the nineteen-digit parts.
        for n in 1..=40 {
            for text in ["9".repeat(n), format!("1{}", "0".repeat(n - 1))] {
                let quoted = format!("\"{text}\"");
                assert_eq!(read(&quoted, u128::MAX), text.parse().ok(), "{text}");
            }
        }
        let mut r = Reader::new(br#""77" x"#);
        assert_eq!(r.digits_in_string(10), None);
        assert_eq!(r.position(), 0, "nothing is read when the value is refused");
    }
}
