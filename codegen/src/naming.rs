//! What each item is called in Rust: types in PascalCase, method markers with a
//! `Method` suffix, fields with keywords avoided, variants never starting with a digit.

use heck::{ToPascalCase, ToSnakeCase};

/// The Rust name of a schema (the spelling typify used, so that no name changed when the
/// generator stopped using it).
pub fn rust_type_name(schema_name: &str) -> String {
    let cleaned = schema_name
        .replace('\'', "")
        .replace(|c: char| !(c.is_alphanumeric() || c == '_'), "-");
    cleaned.to_pascal_case()
}

/// The Rust name of a method's marker type: the wire name in PascalCase with a `Method`
/// suffix (`block` → `BlockMethod`), so that no marker shares a name with a data type
/// (`types::Block`, `types::GenesisConfig`, ...) and a glob import of both modules works.
pub fn method_marker_name(wire: &str) -> String {
    format!("{}Method", rust_type_name(wire))
}

/// The name of a type hoisted out of property `wire` of `owner` (an inline object):
/// `{Owner}{Property}`.
pub fn hoisted_name(owner: &str, wire: &str) -> String {
    format!("{owner}{}", rust_type_name(wire))
}

/// The Rust name of a field, with keywords avoided.
pub fn rust_field_name(wire: &str) -> String {
    let name = wire.to_snake_case();
    match name.as_str() {
        "type" | "move" | "ref" | "self" | "match" | "mod" | "use" | "impl" | "fn" | "enum"
        | "struct" | "trait" | "where" | "loop" | "static" | "const" | "crate" | "super" => {
            format!("{name}_")
        }
        _ if name.starts_with(|c: char| c.is_ascii_digit()) => format!("_{name}"),
        _ => name,
    }
}

pub(crate) fn variant_name(wire: &str) -> String {
    let name = rust_type_name(wire);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{name}")
    } else {
        name
    }
}
