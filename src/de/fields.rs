//! Plain structs: the `deserialize_struct!` macro the generator writes after each struct
//! (`codegen/src/emit/structs.rs`) in place of serde_derive's `Deserialize`.

/// Implements a plain struct's native decoder (`Decode`: one loop over the object's keys,
/// a `match` from field name to field) and its serde `Deserialize` through it
/// (`deserialize_via_native!`).
///
/// Each field is `field "json name" required|default`; `default` fills a missing field
/// with `Default::default()` (`None` for an `Option`). The field names double as the
/// locals that collect the values, which hygiene keeps apart from the macro's own.
#[doc(hidden)]
#[macro_export]
macro_rules! deserialize_struct {
    ($name:ident { $($field:ident $json:literal $missing:ident),* $(,)? }) => {
        $crate::deserialize_via_native!($name);
        impl $crate::__private::native::Decode for $name {
            fn decode(
                r: &mut $crate::__private::native::Reader<'_>,
            ) -> ::std::result::Result<Self, $crate::__private::native::Error> {
                ::std::result::Result::Ok($crate::decode_fields!(
                    r, concat!("struct ", stringify!($name)),
                    $name { $($field $json $missing),* }
                ))
            }
        }
    };
}
