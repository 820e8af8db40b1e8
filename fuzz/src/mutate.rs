//! Input generation: a seeded PRNG, a dictionary taken from the seeds and the spec, and
//! byte-level and JSON-aware mutations.

use crate::json::J;

/// SplitMix64: small, fast, and the same sequence for the same seed everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1/n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A size that is usually small but sometimes large: 1, 2, .., up to `max`.
    pub fn size(&mut self, max: usize) -> usize {
        let bits = self.below(usize::BITS as usize - max.leading_zeros() as usize + 1);
        (self.next_u64() as usize & ((1usize << bits) - 1)).clamp(1, max.max(1))
    }
}

/// Raw number texts (and near-numbers) that stress integer, float and u128 parsing.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "0.0",
    "-0.0",
    "1.5",
    "-1.5",
    "1e2",
    "1E+2",
    "1e-7",
    "1e308",
    "1e309",
    "-1e309",
    "1e400",
    "4.9e-324",
    "2.2250738585072014e-308",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "-18446744073709551616",
    "340282366920938463463374607431768211455",
    "340282366920938463463374607431768211456",
    "1000000000000000000000000",
    "1.0e24",
    "123456789012345678901234567890123456789012345678901234567890",
    "0.000000000000000000000000000000000000000000000000000000000001",
    "1e-999999",
    "1e999999999999999999999",
];

/// Strings that mean something to some decoder: amounts, hashes, keys, account ids,
/// finality and status names, base64, and awkward Unicode.
const STRINGS: &[&str] = &[
    "",
    "0",
    "-1",
    "1e3",
    " 1",
    "1.5",
    "0x10",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211455",
    "340282366920938463463374607431768211456",
    "1000000000000000000000000",
    "11111111111111111111111111111111",
    "1111111111111111111111111111111",
    "111111111111111111111111111111111",
    "GPM2jNSTYBwR3Qb9V6XqsuMajo5kZCTxZYtGFpGkVxp9",
    "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    "0OIl",
    "ed25519:",
    "ed25519:11111111111111111111111111111111",
    "ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847",
    "ed25519:zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    "secp256k1:",
    "secp256k1:1111111111111111111111111111111111111111111111111111111111111111",
    "secp256k1:zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    "ED25519:11111111111111111111111111111111",
    ":",
    "ed25519",
    "alice.near",
    "a",
    "A",
    ".",
    "a..b",
    "-a",
    "a-",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "00000000000000000000000000000000000000000000000000000000000000000",
    "latest",
    "final",
    "optimistic",
    "near-final",
    "earliest",
    "genesis",
    "NONE",
    "INCLUDED",
    "EXECUTED_OPTIMISTIC",
    "INCLUDED_FINAL",
    "EXECUTED",
    "FINAL",
    "HANDLER_ERROR",
    "REQUEST_VALIDATION_ERROR",
    "INTERNAL_ERROR",
    "UNKNOWN_BLOCK",
    "2.0",
    "1.0",
    "AAAA",
    "AA==",
    "A===",
    "====",
    "!!!!",
    "AAA",
    "\u{0}",
    "\u{7f}",
    "\u{fffd}",
    "\u{10ffff}",
    "é",
    "😀",
    "SomeFutureVariant",
    "some_future_variant",
];

/// Byte strings for the byte-level mutations: JSON punctuation, escapes, and UTF-8 that is
/// invalid or only valid as text.
const TOKENS: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\"",
    b"\\",
    b"\\u0000",
    b"\\ud800",
    b"\\udc00",
    b"\\ud83d\\ude00",
    b"\\uZZZZ",
    b"null",
    b"true",
    b"-",
    b"e",
    b"E+",
    b".",
    b"0",
    b"1",
    b" ",
    b"\n",
    b"\t",
    b"\xff",
    b"\xc0\x80",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xe2\x82",
    b"\x00",
    b"{}",
    b"[]",
    b"\"\"",
];

/// What the mutations draw from, collected from the seeds and the spec.
#[derive(Default)]
pub struct Dict {
    /// Object keys seen anywhere (field names and externally tagged variant names).
    pub keys: Vec<String>,
    /// Short string values seen anywhere (enum names, tags, ids, hashes).
    pub strings: Vec<String>,
    /// Serialized subtrees of the seeds, for splicing one value into another document.
    pub donors: Vec<String>,
}

impl Dict {
    /// Adds the keys, short strings and small subtrees of `doc`.
    pub fn learn(&mut self, doc: &J, rng: &mut Rng) {
        const MAX_DONORS: usize = 50_000;
        doc.walk(None, &mut |key, node| {
            if let Some(key) = key {
                self.keys.push(key.to_owned());
            }
            if let J::Str(s) = node {
                if s.len() <= 96 {
                    self.strings.push(s.clone());
                }
            }
            let text = node.to_bytes();
            if text.len() <= 4096 {
                let text = String::from_utf8(text).expect("written JSON is UTF-8");
                if self.donors.len() < MAX_DONORS {
                    self.donors.push(text);
                } else {
                    let slot = rng.below(MAX_DONORS * 4);
                    if slot < MAX_DONORS {
                        self.donors[slot] = text;
                    }
                }
            }
        });
    }

    /// Adds the enum values and property names of an OpenAPI spec.
    pub fn learn_spec(&mut self, spec: &serde_json::Value) {
        use serde_json::Value;
        match spec {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("enum", Value::Array(items)) => self
                            .strings
                            .extend(items.iter().filter_map(|v| v.as_str().map(str::to_owned))),
                        ("properties", Value::Object(props)) => {
                            self.keys.extend(props.keys().cloned())
                        }
                        ("required", Value::Array(items)) => self
                            .keys
                            .extend(items.iter().filter_map(|v| v.as_str().map(str::to_owned))),
                        _ => {}
                    }
                    self.learn_spec(value);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| self.learn_spec(v)),
            _ => {}
        }
    }

    pub fn finish(&mut self) {
        for list in [&mut self.keys, &mut self.strings] {
            list.sort();
            list.dedup();
        }
        self.strings.extend(STRINGS.iter().map(|s| (*s).to_owned()));
        self.keys.extend(
            [
                "jsonrpc", "id", "result", "error", "name", "cause", "info", "code", "message",
                "data",
            ]
            .map(str::to_owned),
        );
        self.keys.push("SomeFutureVariant".to_owned());
        self.donors.extend(NUMBERS.iter().map(|s| (*s).to_owned()));
        self.donors
            .extend(["null", "true", "false", "{}", "[]", "\"\""].map(str::to_owned));
    }
}

/// Inputs larger than this are cut (the library has its own size limit in the client;
/// this keeps the fuzzer's memory and per-input time bounded).
pub const MAX_INPUT: usize = 1 << 20;

/// Makes a new input from `base`, with `other` available for splicing.
pub fn mutate(base: &[u8], other: &[u8], dict: &Dict, rng: &mut Rng) -> Vec<u8> {
    let rounds = rng.size(8);
    let mut out = if rng.below(10) < 7 {
        // Mostly structure-aware: the result is usually still JSON, so decoding gets deep.
        match J::parse(base) {
            Some(mut doc) => {
                for _ in 0..rounds {
                    mutate_tree(&mut doc, dict, rng);
                }
                let mut out = doc.to_bytes();
                if rng.one_in(8) {
                    mutate_bytes(&mut out, other, rng);
                }
                out
            }
            None => byte_rounds(base, other, rounds, rng),
        }
    } else {
        byte_rounds(base, other, rounds, rng)
    };
    out.truncate(MAX_INPUT);
    out
}

fn byte_rounds(base: &[u8], other: &[u8], rounds: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = base.to_vec();
    for _ in 0..rounds {
        mutate_bytes(&mut out, other, rng);
    }
    out
}

fn mutate_bytes(data: &mut Vec<u8>, other: &[u8], rng: &mut Rng) {
    let len = data.len();
    let pos = if len == 0 { 0 } else { rng.below(len + 1) };
    match rng.below(9) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = rng.next_u64() as u8;
        }
        2 => {
            let token = rng.pick(TOKENS);
            data.splice(pos..pos, token.iter().copied());
        }
        3 if len > 0 => {
            let end = (pos + rng.size(len)).min(len);
            data.drain(pos.min(end)..end);
        }
        4 if len > 0 => {
            // Duplicate a range, sometimes many times.
            let start = rng.below(len);
            let end = (start + rng.size(64)).min(len);
            let chunk = data[start..end].to_vec();
            for _ in 0..rng.size(256) {
                if data.len() + chunk.len() > MAX_INPUT {
                    break;
                }
                data.splice(pos..pos, chunk.iter().copied());
            }
        }
        5 if !other.is_empty() => {
            // Splice: our prefix, their suffix.
            let cut = rng.below(other.len());
            data.truncate(pos);
            data.extend_from_slice(&other[cut..]);
        }
        6 if len > 0 => data.truncate(rng.below(len)),
        7 if len > 0 => {
            // Swap two ranges' worth of bytes by rotating a window.
            let start = rng.below(len);
            let end = (start + rng.size(128)).min(len);
            let by = rng.below(end - start + 1);
            data[start..end].rotate_left(by.min(end - start));
        }
        _ => {
            let token = rng.pick(TOKENS);
            let n = rng.size(4096);
            for _ in 0..n {
                data.splice(pos..pos, token.iter().copied());
            }
        }
    }
}

/// One structural mutation at a random node.
fn mutate_tree(doc: &mut J, dict: &Dict, rng: &mut Rng) {
    let count = doc.count();
    let target = if rng.one_in(8) { 0 } else { rng.below(count) };
    let Some(node) = doc.nth_mut(target) else {
        return;
    };
    match rng.below(12) {
        // Any value of any type in its place: a donor subtree or an interesting literal.
        0 | 1 => *node = J::Raw(rng.pick(&dict.donors).clone()),
        2 => *node = J::Raw(rng.pick(NUMBERS).to_string()),
        3 => *node = J::Str(rng.pick(&dict.strings).clone()),
        4 => *node = random_string(dict, rng),
        5 => *node = deep(node, rng),
        6 => {
            // Externally tagged shape: `{"Tag": value}` with a known or unknown tag, or
            // the reverse, a one-key object unwrapped to its value.
            match node {
                J::Obj(entries) if entries.len() == 1 && rng.one_in(2) => {
                    *node = entries.pop().map(|(_, v)| v).unwrap_or(J::Null);
                }
                _ => {
                    let key = rng.pick(&dict.keys).clone();
                    *node = J::Obj(vec![(key, std::mem::replace(node, J::Null))]);
                }
            }
        }
        _ => match node {
            J::Obj(entries) => mutate_object(entries, dict, rng),
            J::Arr(items) => mutate_array(items, dict, rng),
            J::Str(s) => mutate_string(s, dict, rng),
            J::Raw(raw) => mutate_number(raw, rng),
            J::Null | J::Bool(_) => *node = J::Raw(rng.pick(&dict.donors).clone()),
        },
    }
}

/// The node wrapped in arrays or single-key objects, from once to far past serde_json's
/// recursion limit of 128.
fn deep(node: &J, rng: &mut Rng) -> J {
    // Mostly within serde_json's recursion limit of 128, so the document still parses.
    let depth = if rng.one_in(4) {
        *rng.pick(&[129, 200, 1_000, 10_000, 100_000])
    } else {
        *rng.pick(&[1, 2, 3, 16, 64, 120, 126, 127])
    };
    let inner = String::from_utf8(node.to_bytes()).expect("written JSON is UTF-8");
    let (open, close) = match rng.below(3) {
        0 => ("[".to_owned(), "]"),
        1 => (format!("{{\"{}\":", rng.pick(WRAP_KEYS)), "}"),
        _ => ("{\"a\":[".to_owned(), "]}"),
    };
    let depth = depth.min(MAX_INPUT / (open.len() + close.len()).max(1) / 2);
    let mut raw = String::with_capacity(depth * (open.len() + close.len()) + inner.len());
    for _ in 0..depth {
        raw.push_str(&open);
    }
    raw.push_str(&inner);
    for _ in 0..depth {
        raw.push_str(close);
    }
    J::Raw(raw)
}

/// Keys of the single-key objects that [`deep`] nests.
const WRAP_KEYS: &[&str] = &["a", "result", "actions", "SomeFutureVariant"];

fn random_string(dict: &Dict, rng: &mut Rng) -> J {
    match rng.below(5) {
        0 => {
            // A long string: tests the length checks of hashes, keys and amounts.
            let unit = rng
                .pick(&["1", "z", "a", "é", "\u{0}", "ed25519:", "9"])
                .to_string();
            let n = rng.size(200_000);
            J::Str(unit.repeat(n))
        }
        1 => {
            // Base58-looking of a length around the 32/64-byte boundaries.
            const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
            let n = rng.pick(&[0, 1, 31, 32, 43, 44, 45, 46, 87, 88, 89, 90, 130]);
            let s: String = (0..*n).map(|_| *rng.pick(ALPHABET) as char).collect();
            let prefix = rng.pick(&["", "", "ed25519:", "secp256k1:"]);
            J::Str(format!("{prefix}{s}"))
        }
        2 => {
            // Digits, maybe past u64 and u128.
            let n = rng.size(80);
            let s: String = (0..n)
                .map(|_| (b'0' + rng.below(10) as u8) as char)
                .collect();
            J::Str(s)
        }
        3 => {
            // Two dictionary strings glued, e.g. a tag with a suffix.
            J::Str(format!(
                "{}{}",
                rng.pick(&dict.strings),
                rng.pick(&dict.strings)
            ))
        }
        _ => J::Str(rng.pick(&dict.keys).clone()),
    }
}

fn mutate_object(entries: &mut Vec<(String, J)>, dict: &Dict, rng: &mut Rng) {
    let len = entries.len();
    match rng.below(8) {
        0 if len > 0 => {
            entries.remove(rng.below(len));
        }
        1 if len > 0 => {
            // A duplicate key, with the same or another value, before or after.
            let (key, value) = entries[rng.below(len)].clone();
            let value = if rng.one_in(2) {
                value
            } else {
                J::Raw(rng.pick(&dict.donors).clone())
            };
            entries.insert(rng.below(len + 1), (key, value));
        }
        2 if len > 0 => {
            let i = rng.below(len);
            entries[i].0 = rng.pick(&dict.keys).clone();
        }
        3 if len > 1 => {
            // Reorder: tags after their content, `result` before `jsonrpc`, ...
            for i in (1..len).rev() {
                entries.swap(i, rng.below(i + 1));
            }
        }
        4 => entries.clear(),
        5 if len > 0 => {
            // Hundreds of unknown keys, within the input size limit.
            let mut budget = MAX_INPUT;
            for i in 0..rng.size(2_000) {
                let value = &entries[i % len].1;
                let size = value.to_bytes().len() + 16;
                if size > budget {
                    break;
                }
                budget -= size;
                entries.push((format!("unknown_{i}"), value.clone()));
            }
        }
        _ => {
            let key = if rng.one_in(3) {
                format!("{}_", rng.pick(&dict.keys))
            } else {
                rng.pick(&dict.keys).clone()
            };
            let value = J::Raw(rng.pick(&dict.donors).clone());
            entries.insert(rng.below(len + 1), (key, value));
        }
    }
}

fn mutate_array(items: &mut Vec<J>, dict: &Dict, rng: &mut Rng) {
    let len = items.len();
    match rng.below(6) {
        0 if len > 0 => {
            items.remove(rng.below(len));
        }
        1 if len > 0 => {
            // Many copies of one element (bounded by the input size limit later).
            let item = items[rng.below(len)].clone();
            let budget = MAX_INPUT / item.to_bytes().len().max(1);
            let n = rng.size(10_000).min(budget);
            items.extend(std::iter::repeat_n(item, n));
        }
        2 => items.clear(),
        3 if len > 1 => items.reverse(),
        4 => items.truncate(rng.below(len + 1)),
        _ => items.insert(rng.below(len + 1), J::Raw(rng.pick(&dict.donors).clone())),
    }
}

fn mutate_string(s: &mut String, dict: &Dict, rng: &mut Rng) {
    let mut chars: Vec<char> = s.chars().collect();
    match rng.below(7) {
        0 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.remove(i);
        }
        1 => {
            let c = *rng.pick(&[
                '1', 'z', '0', 'O', 'l', 'I', ':', '.', '-', '_', ' ', 'é', '\u{0}', 'A', '=', '+',
                '/',
            ]);
            chars.insert(rng.below(chars.len() + 1), c);
        }
        2 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars[i] = char::from_u32(rng.below(0x80) as u32).unwrap_or('?');
        }
        3 => chars.truncate(rng.below(chars.len() + 1)),
        4 => chars.extend(rng.pick(&dict.strings).chars()),
        5 => chars = chars.iter().map(|c| c.to_ascii_uppercase()).collect(),
        _ => {
            let n = rng.size(64);
            let copy = chars.clone();
            for _ in 0..n {
                chars.extend_from_slice(&copy);
                if chars.len() > 300_000 {
                    break;
                }
            }
        }
    }
    *s = chars.into_iter().collect();
}

fn mutate_number(raw: &mut String, rng: &mut Rng) {
    match rng.below(6) {
        0 => raw.insert(0, '-'),
        1 => {
            let suffix = *rng.pick(&["0", "9", "00000000000000000000", ".5", "e3", "e-3", "e400"]);
            raw.push_str(suffix);
        }
        2 => {
            if let Ok(n) = raw.parse::<i128>() {
                *raw = (n + *rng.pick(&[-1, 1])).to_string();
            }
        }
        3 => raw.insert(0, '0'),
        4 if !raw.is_empty() => {
            let i = rng.below(raw.len());
            if raw.is_char_boundary(i) && raw.is_char_boundary(i + 1) {
                raw.remove(i);
            }
        }
        _ => *raw = rng.pick(NUMBERS).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_stay_in_range() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            let n = rng.size(300);
            assert!((1..=300).contains(&n));
        }
    }

    #[test]
    fn mutations_are_deterministic_and_bounded() {
        let mut dict = Dict::default();
        let seed = br#"{"jsonrpc":"2.0","id":1,"result":{"a":[1,"x",{"b":null}]}}"#;
        dict.learn(&J::parse(seed).unwrap(), &mut Rng::new(0));
        dict.finish();
        let run = |s| {
            let mut rng = Rng::new(s);
            (0..2_000)
                .map(|_| mutate(seed, b"[1,2]", &dict, &mut rng))
                .collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert!(a.iter().all(|x| x.len() <= MAX_INPUT));
    }
}
