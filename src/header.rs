//! The 4-byte header that starts every encoded value: type id in the low byte, flags above.
//!
//! Source: `core/io/marshalls.h` / `marshalls.cpp` (`HEADER_TYPE_MASK`, `HEADER_DATA_FLAG_64`, ... in
//! 4.x; `ENCODE_MASK`, `ENCODE_FLAG_64`, `ENCODE_FLAG_OBJECT_AS_ID` in 3.x). The engines read the type
//! from the low 8 bits only; bits 8 to 15 are ignored, though the documentation says the type takes
//! the low 16.

/// The bits that hold the type id.
pub const TYPE_MASK: u32 = 0xFF;
/// int, float and real_t math types: the payload is 64-bit.
pub const FLAG_64: u32 = 1 << 16;
/// Object: the payload is an instance id, not a full object.
pub const FLAG_OBJECT_AS_ID: u32 = 1 << 16;
/// Array: where the element type kind sits (bits 16 and 17).
pub const ARRAY_TYPE_SHIFT: u32 = 16;
/// Dictionary (4.4+): where the key type kind sits (bits 16 and 17).
pub const DICT_KEY_TYPE_SHIFT: u32 = 16;
/// Dictionary (4.4+): where the value type kind sits (bits 18 and 19).
pub const DICT_VALUE_TYPE_SHIFT: u32 = 18;
/// Width of a container type kind field.
pub const CONTAINER_KIND_MASK: u32 = 0b11;

/// Container type kinds, as written in the header's container fields.
pub mod kind {
    /// Untyped.
    pub const NONE: u32 = 0;
    /// A built-in type: a u32 type id follows.
    pub const BUILTIN: u32 = 1;
    /// A native class: its name follows as a string.
    pub const CLASS_NAME: u32 = 2;
    /// A script: its resource path follows as a string.
    pub const SCRIPT: u32 = 3;
}

/// The container kind field of a header at `shift`.
pub fn container_kind(header: u32, shift: u32) -> u32 {
    (header >> shift) & CONTAINER_KIND_MASK
}
