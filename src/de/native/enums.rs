//! Which variant comes next, for each way the spec's enums are tagged. The generated
//! decoders call these, then decode the chosen variant's payload themselves. The
//! catch-all rules of open enums: an unknown variant, or a bare name that arrives with a
//! payload, is kept whole as JSON (an error under strict decoding, for input a user
//! wrote); a known variant whose payload does not decode is an error with its path.

use serde_json::Value;

use super::{Error, Next, Reader};

/// An externally tagged variant (`"Name"` or `{"Name": payload}`).
#[derive(Debug)]
pub enum External {
    /// A bare name (or a unit variant with an empty payload), read whole.
    Name(usize),
    /// `{"Name": ...}`: the reader is at the payload; [`end_external`] reads the rest.
    Payload(usize),
    /// A variant this version does not know, kept whole.
    Unknown(Value),
}

/// A variant told by a field (internally tagged) or by its shape.
#[derive(Debug)]
pub enum Tagged {
    /// Known: the reader is back at the start of the object.
    Known(usize),
    /// Not known, kept whole (the reader is after it).
    Unknown(Value),
}

/// An adjacently tagged variant (`{"name": "Name", "info": payload}`).
#[derive(Debug)]
pub enum Adjacent {
    /// Known: where its content starts (if it has one) and where the object ends.
    Known {
        /// The variant's index.
        index: usize,
        /// The position of the content's value, if present.
        content: Option<usize>,
        /// The position after the object.
        end: usize,
    },
    /// Not known, kept whole (the reader is after it).
    Unknown(Value),
}

/// How the next value is named in errors (`found an object`).
fn describe(r: &mut Reader<'_>) -> &'static str {
    match r.peek() {
        Ok(Next::Null) => "null",
        Ok(Next::Bool) => "a boolean",
        Ok(Next::Number) => "a number",
        Ok(Next::String) => "a string",
        Ok(Next::Array) => "an array",
        Ok(Next::Object) => "an object",
        Err(_) => "nothing",
    }
}

/// Keeps the value starting at `start` whole, as an open enum's catch-all does (but for
/// the `siblings` of a flattened enum, see `Reader::flattened_beside`); or, for a closed
/// enum or under strict decoding (input a user wrote), the error `unknown`.
fn unknown(
    r: &mut Reader<'_>,
    start: usize,
    open: bool,
    siblings: &[&str],
    error: impl FnOnce() -> String,
) -> Result<Value, Error> {
    r.rewind(start);
    if !open || r.is_strict() {
        return Err(r.data_error(error()));
    }
    let mut value = r.value()?;
    // A flattened enum keeps only what its struct's own fields did not take.
    if let (Value::Object(map), false) = (&mut value, siblings.is_empty()) {
        map.retain(|key, _| !siblings.contains(&key.as_str()));
    }
    r.keep_unknown(&value);
    Ok(value)
}

/// Reads an empty payload (`null`, `{}`, `[]`) if one comes next; says whether it did.
fn empty_payload(r: &mut Reader<'_>) -> Result<bool, Error> {
    let start = r.position();
    match r.peek()? {
        Next::Null => r.null(),
        Next::Object => {
            r.begin_object("")?;
            let mut first = true;
            if r.next_key(&mut first)?.is_none() {
                return Ok(true);
            }
            r.rewind(start);
            Ok(false)
        }
        Next::Array => {
            r.begin_array("")?;
            let mut first = true;
            if !r.next_element(&mut first)? {
                return Ok(true);
            }
            r.rewind(start);
            Ok(false)
        }
        _ => Ok(false),
    }
}

/// The error for an object without any variant key.
fn no_variant(known: &[&str]) -> String {
    format!("expected one of the fields `{}`", known.join("`, `"))
}

/// The error for a bare name of the spec that came with a payload, under strict decoding
/// or in a closed enum (an open one keeps it in the catch-all).
fn bare_name_with_payload(name: &str) -> String {
    format!("`{name}` is a bare name in the spec, but came with a payload")
}

/// The error for an object with several variant keys (`found`) of one enum.
fn only_one_of(known: &[&str], found: &[&str]) -> String {
    format!(
        "expected only one of the fields `{}`, found `{}`",
        known.join("`, `"),
        found.join("` and `")
    )
}

/// The error for a tag that is not a string (`found` describes it).
fn tag_not_a_string(tag: &str, found: &str) -> String {
    format!("expected `{tag}` to be a string, found {found}")
}

/// The error for a tagged enum given something other than an object.
fn no_tag_object(tag: &str, found: &str) -> String {
    format!("expected an object with a `{tag}` field, found {found}")
}

/// The error of an untagged enum whose shapes all failed to fit.
fn no_shape_matched(shapes: &[&[&str]]) -> String {
    let expected: Vec<String> = shapes
        .iter()
        .map(|keys| format!("{{{}}}", keys.join(", ")))
        .collect();
    format!(
        "expected an object with the fields {}",
        expected.join(" or ")
    )
}

fn unknown_variant(name: &str, known: &[&str]) -> String {
    format!(
        "unknown variant `{name}`, expected one of `{}`",
        known.join("`, `")
    )
}

/// Which externally tagged variant comes next. An object whose first key is not a
/// variant (a flattened enum beside its struct's fields) is searched for the one key
/// that is.
pub fn external_variant(
    r: &mut Reader<'_>,
    known: &[&str],
    units: &[&str],
    open: bool,
) -> Result<External, Error> {
    let siblings = r.take_siblings();
    let start = r.position();
    match r.peek()? {
        Next::String => {
            let name = r.string()?;
            if let Some(index) = known.iter().position(|k| *k == name) {
                return Ok(External::Name(index));
            }
            let message = || unknown_variant(&name, known);
            return unknown(r, start, open, siblings, message).map(External::Unknown);
        }
        Next::Object => {}
        _ => {
            let found = r.invalid_type(&format!(
                "a variant name or an object with one key, one of `{}`",
                known.join("`, `")
            ));
            return Err(found);
        }
    }
    let start = r.position();
    r.begin_object("")?;
    let mut first = true;
    let mut keys = 0;
    let mut found: Option<(usize, usize)> = None;
    let mut first_unknown: Option<String> = None;
    while let Some(key) = r.next_key(&mut first)? {
        if siblings.contains(&&*key) {
            r.skip()?;
            continue;
        }
        keys += 1;
        match known.iter().position(|k| *k == key) {
            Some(index) if keys == 1 => {
                // The common case: the variant is the first key; decode it in place.
                return variant_at(r, start, index, known, units, open, siblings);
            }
            Some(index) => {
                if let Some((other, _)) = found {
                    return Err(r.data_error(only_one_of(known, &[known[other], known[index]])));
                }
                found = Some((index, r.position()));
            }
            None if keys == 1 => first_unknown = Some(key.into_owned()),
            None => {}
        }
        r.skip()?;
    }
    match (found, keys) {
        (Some((index, value_at)), _) if keys > 1 => {
            // Back to the variant's value; the keys after it are read by `end_external`.
            r.rewind(value_at);
            variant_at(r, start, index, known, units, open, siblings)
        }
        (_, 1) => {
            let name = first_unknown.unwrap_or_default();
            unknown(r, start, open, siblings, || unknown_variant(&name, known))
                .map(External::Unknown)
        }
        _ => Err(r.data_error(no_variant(known))),
    }
}

/// The variant `index`, whose payload comes next.
fn variant_at(
    r: &mut Reader<'_>,
    start: usize,
    index: usize,
    known: &[&str],
    units: &[&str],
    open: bool,
    siblings: &[&str],
) -> Result<External, Error> {
    let name = known[index];
    if !units.contains(&name) {
        return Ok(External::Payload(index));
    }
    if empty_payload(r)? {
        end_external(r, index, known)?;
        return Ok(External::Name(index));
    }
    // A bare name grown a payload on a newer node: a variant not known in full.
    unknown(r, start, open, siblings, || bare_name_with_payload(name)).map(External::Unknown)
}

/// After an externally tagged variant's payload: the rest of its object. Another
/// variant key is an error; other keys (a flattened enum's siblings) are skipped.
pub fn end_external(r: &mut Reader<'_>, index: usize, known: &[&str]) -> Result<(), Error> {
    let mut first = false;
    while let Some(key) = r.next_key(&mut first)? {
        if known.contains(&&*key) {
            return Err(r.data_error(only_one_of(known, &[known[index], &key])));
        }
        r.skip()?;
    }
    Ok(())
}

/// The error for a variant with a payload given as a bare name.
#[cold]
pub fn not_a_unit(r: &Reader<'_>, type_name: &str, known: &[&str], index: usize) -> Error {
    let variant = known.get(index).copied().unwrap_or_default();
    r.data_error(format!(
        "invalid type: unit variant, expected a payload for {type_name}::{variant}"
    ))
}

/// The tag of the object that comes next (and where its content is, for `content`),
/// the reader left after the object.
fn read_tag(
    r: &mut Reader<'_>,
    tag: &str,
    content: Option<&str>,
) -> Result<(Option<String>, Option<usize>), Error> {
    if r.peek()? != Next::Object {
        let found = describe(r);
        return Err(r.data_error(no_tag_object(tag, found)));
    }
    r.begin_object("")?;
    let mut first = true;
    let (mut name, mut content_at) = (None, None);
    while let Some(key) = r.next_key(&mut first)? {
        if key == tag {
            if r.peek()? != Next::String {
                let found = describe(r);
                return Err(r.data_error(tag_not_a_string(tag, found)));
            }
            name = Some(r.string()?.into_owned());
            continue;
        }
        if Some(&*key) == content {
            r.peek()?;
            content_at = Some(r.position());
        }
        r.skip()?;
    }
    Ok((name, content_at))
}

/// Which adjacently tagged variant comes next.
pub fn adjacent_variant(
    r: &mut Reader<'_>,
    tag: &str,
    content: &str,
    known: &[&str],
    units: &[&str],
    open: bool,
) -> Result<Adjacent, Error> {
    let siblings = r.take_siblings();
    r.peek()?;
    let start = r.position();
    let (name, content_at) = read_tag(r, tag, Some(content))?;
    let end = r.position();
    let Some(name) = name else {
        return Err(r.data_error(format!("missing field `{tag}`")));
    };
    let Some(index) = known.iter().position(|k| *k == name) else {
        return unknown(r, start, open, siblings, || unknown_variant(&name, known))
            .map(Adjacent::Unknown);
    };
    if units.contains(&known[index]) {
        if let Some(at) = content_at {
            r.rewind(at);
            if !empty_payload(r)? {
                return unknown(r, start, open, siblings, || bare_name_with_payload(&name))
                    .map(Adjacent::Unknown);
            }
            r.rewind(end);
        }
        return Ok(Adjacent::Known {
            index,
            content: None,
            end,
        });
    }
    Ok(Adjacent::Known {
        index,
        content: content_at,
        end,
    })
}

/// Which internally tagged variant comes next; the reader goes back to the object's
/// start, for the variant to read its fields from it.
pub fn internal_variant(
    r: &mut Reader<'_>,
    tag: &str,
    known: &[&str],
    open: bool,
) -> Result<Tagged, Error> {
    let siblings = r.take_siblings();
    r.peek()?;
    let start = r.position();
    let (name, _) = read_tag(r, tag, None)?;
    let Some(name) = name else {
        return Err(r.data_error(format!("missing field `{tag}`")));
    };
    match known.iter().position(|k| *k == name) {
        Some(index) => {
            r.rewind(start);
            Ok(Tagged::Known(index))
        }
        None => {
            unknown(r, start, open, siblings, || unknown_variant(&name, known)).map(Tagged::Unknown)
        }
    }
}

/// Which shape of an untagged enum comes next: the one whose required keys are all
/// present (the most specific when several fit); the reader goes back to the start.
pub fn shape_variant(
    r: &mut Reader<'_>,
    type_name: &str,
    shapes: &[&[&str]],
    open: bool,
) -> Result<Tagged, Error> {
    let siblings = r.take_siblings();
    if r.peek()? != Next::Object {
        let found = describe(r);
        return Err(r.data_error(format!("expected an object for {type_name}, found {found}")));
    }
    let start = r.position();
    r.begin_object("")?;
    let mut first = true;
    let mut keys = Vec::new();
    while let Some(key) = r.next_key(&mut first)? {
        keys.push(key);
        r.skip()?;
    }
    let index = shapes
        .iter()
        .enumerate()
        .filter(|(_, required)| required.iter().all(|k| keys.iter().any(|key| key == k)))
        .max_by_key(|(index, required)| (required.len(), std::cmp::Reverse(*index)))
        .map(|(index, _)| index);
    drop(keys);
    match index {
        Some(index) => {
            r.rewind(start);
            Ok(Tagged::Known(index))
        }
        None => unknown(r, start, open, siblings, || no_shape_matched(shapes)).map(Tagged::Unknown),
    }
}

/// The error when no variant of an untagged enum decodes.
#[cold]
pub fn untagged_failed(r: &Reader<'_>, type_name: &str) -> Error {
    r.data_error(format!(
        "data did not match any variant of untagged enum {type_name}"
    ))
}
