//! Open enums: the `serialize_open_enum!` macro, `Serialize` for an enum with a
//! catch-all variant. (Decoding them is the native decoders' work: `native::enums`.)

/// Implements `Serialize` for an open enum whose known variants have an inherent
/// `serialize` function (derived with `#[serde(remote = "Self")]`): the catch-all
/// variant writes its raw JSON as it is, the known ones as the spec says.
#[doc(hidden)]
#[macro_export]
macro_rules! serialize_open_enum {
    ($name:ident, $unknown:ident) => {
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $name::$unknown(value) => ::serde::Serialize::serialize(value, serializer),
                    known => $name::serialize(known, serializer),
                }
            }
        }
    };
}
