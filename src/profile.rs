//! Format profiles: what differs between engine versions and builds, as data.
//!
//! A [`Profile`] is chosen from a version string such as `3`, `3.2`, `4.6` or `4.6-double`. Everything
//! version-dependent that the codec needs is a field here; the codec itself has no version branches
//! beyond reading these fields.

use std::fmt;
use std::str::FromStr;

use crate::types::{TYPES, TypeInfo, VariantType};
pub use crate::utf8::Utf8Rules;

/// The two incompatible type tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Family {
    /// Godot 3.x: 27 types, `var2bytes` / `bytes2var`.
    Godot3,
    /// Godot 4.x: 39 types, `var_to_bytes` / `bytes_to_var`.
    Godot4,
}

/// Everything about the wire format that depends on the engine version and build. Only versions
/// this crate knows can be made ([`Profile::new`], [`Profile::double`], parsing, [`all_profiles`]):
/// a minor past the newest of its family, or a double-precision 3.x build, has no profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Profile {
    // Read directly inside the crate, on its hot paths; outside, through the methods.
    pub(crate) family: Family,
    pub(crate) minor: u32,
    pub(crate) double_reals: bool,
}

/// The minor versions that a real engine of each family has been checked against by this project's
/// differential tests. Other minors are derived from Godot's source history and are unverified.
pub const VERIFIED: &[(Family, u32)] = &[
    (Family::Godot3, 2),
    (Family::Godot3, 6),
    (Family::Godot4, 6),
];

/// The minor versions whose double-precision build (`precision=double`) has been checked against
/// the codec: 4.6, on an engine built from Godot 4.6.3's source by `scripts/build-engine.sh`
/// (corpus `godot-4.6.3.stable-double.jsonl`).
pub const VERIFIED_DOUBLE: &[(Family, u32)] = &[(Family::Godot4, 6)];

/// A type's wire id in a family's table, and the first minor of the family that has it: the one
/// statement of which version writes which type, for `id_of` and the tables below alike.
const fn wire_id(family: Family, t: &TypeInfo) -> Option<(u32, u32)> {
    match (family, t.id3, t.id4) {
        (Family::Godot3, Some(id), _) => Some((id, 0)),
        (Family::Godot4, _, Some(id)) => Some((id, t.since4)),
        _ => None,
    }
}

/// Types by wire id, each with the first minor that has it, derived from [`TYPES`] once at compile
/// time (the decoder looks one up per value, and one look is all it takes).
const BY_ID3: [Option<(VariantType, u32)>; 64] = by_id(Family::Godot3);
const BY_ID4: [Option<(VariantType, u32)>; 64] = by_id(Family::Godot4);

const fn by_id(family: Family) -> [Option<(VariantType, u32)>; 64] {
    let mut table = [None; 64];
    let mut i = 0;
    while i < TYPES.len() {
        if let Some((id, since)) = wire_id(family, &TYPES[i]) {
            table[id as usize] = Some((TYPES[i].ty, since));
        }
        i += 1;
    }
    table
}

/// The newest minor of each family that this crate knows.
const LATEST3: u32 = 6;
const LATEST4: u32 = 6;

impl Profile {
    /// The profile of a Godot version, e.g. `Profile::new(Family::Godot4, 6)` for 4.6; `None` for
    /// a minor past the newest of its family that this crate knows.
    pub const fn new(family: Family, minor: u32) -> Option<Profile> {
        let latest = match family {
            Family::Godot3 => LATEST3,
            Family::Godot4 => LATEST4,
        };
        if minor > latest {
            return None;
        }
        Some(Profile::known(family, minor))
    }

    /// The same version's double-precision build (`precision=double`); `None` for 3.x, whose
    /// double builds write broken bytes (half of each double for Transform and Basis, mismatched
    /// strides for PoolRealArray) that no profile describes.
    pub const fn double(self) -> Option<Profile> {
        match self.family {
            Family::Godot3 => None,
            Family::Godot4 => Some(Profile {
                double_reals: true,
                ..self
            }),
        }
    }

    /// A profile of a minor known to exist (the tables below are built from these).
    const fn known(family: Family, minor: u32) -> Profile {
        Profile {
            family,
            minor,
            double_reals: false,
        }
    }

    /// Which type table.
    pub const fn family(&self) -> Family {
        self.family
    }

    /// The minor version (`2` for 3.2).
    pub const fn minor(&self) -> u32 {
        self.minor
    }

    /// Whether real_t is a double (a build made with `precision=double`).
    pub const fn double_reals(&self) -> bool {
        self.double_reals
    }

    /// The major version.
    pub fn major(&self) -> u32 {
        match self.family {
            Family::Godot3 => 3,
            Family::Godot4 => 4,
        }
    }

    /// Whether a real engine of this version (and precision) has been checked against the codec.
    pub fn is_verified(&self) -> bool {
        let list = if self.double_reals {
            VERIFIED_DOUBLE
        } else {
            VERIFIED
        };
        list.contains(&(self.family, self.minor))
    }

    /// The wire id of a type, or `None` if this version cannot encode the type.
    #[inline]
    pub fn id_of(&self, ty: VariantType) -> Option<u32> {
        let (id, since) = wire_id(self.family, ty.info())?;
        (self.minor >= since).then_some(id)
    }

    /// The type with a given wire id in this version's table.
    #[inline]
    pub fn type_of(&self, id: u32) -> Option<VariantType> {
        let table = match self.family {
            Family::Godot3 => &BY_ID3,
            Family::Godot4 => &BY_ID4,
        };
        let (ty, since) = (*table.get(id as usize)?)?;
        (self.minor >= since).then_some(ty)
    }

    /// Whether arrays carry an element type in the header (typed arrays, 4.3+, Godot PR #78219).
    pub fn typed_arrays(&self) -> bool {
        self.family == Family::Godot4 && self.minor >= 3
    }

    /// Whether dictionaries carry key and value types in the header (typed dictionaries, 4.4+,
    /// Godot PR #78656).
    pub fn typed_dictionaries(&self) -> bool {
        self.family == Family::Godot4 && self.minor >= 4
    }

    /// Whether real_t components are written as 64-bit (flagged) values: 4.x double builds.
    pub fn wide_reals(&self) -> bool {
        self.double_reals && self.family == Family::Godot4
    }

    /// The nesting depth past which the engine refuses to decode (`Variant::MAX_RECURSION_DEPTH`,
    /// 1024, checked since 3.4 and in 4.x, Godot PR #51068). Older engines have no limit and
    /// overflow their stack instead; this codec stops at the same 1024 for them too.
    pub fn max_depth(&self) -> usize {
        1024
    }

    /// How the engine reads string bytes and writes string units (see [`Utf8Rules`]).
    ///
    /// 4.x is strict. 3.x reads loosely; 3.2.3 writes every unit as it is and 3.6.2 joins
    /// surrogate pairs and writes lone surrogates as spaces (both checked against the engines).
    /// The joining writer comes with the 3.x branch's UTF-16 surrogate support in
    /// `core/ustring.cpp`; which minor first shipped it is not verified here: 3.0 to 3.3 follow
    /// 3.2 and 3.4 and 3.5 follow 3.6.
    pub fn utf8(&self) -> Utf8Rules {
        match (self.family, self.minor) {
            (Family::Godot4, _) => Utf8Rules::Strict,
            (Family::Godot3, 0..=3) => Utf8Rules::Loose,
            (Family::Godot3, _) => Utf8Rules::LoosePairs,
        }
    }

    /// Whether the engine itself enforces [`Profile::max_depth`].
    pub fn engine_limits_depth(&self) -> bool {
        self.family == Family::Godot4 || self.minor >= 4
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major(), self.minor)?;
        if self.double_reals {
            f.write_str("-double")?;
        }
        Ok(())
    }
}

/// A version string that names no known profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown Godot version {given:?}: expected 3, 3.0 to 3.{LATEST3}, 4 or 4.0 to 4.{LATEST4}; 4.x may be followed by -double"
)]
pub struct UnknownVersion {
    /// What was given.
    pub given: String,
}

impl FromStr for Profile {
    type Err = UnknownVersion;

    /// Parses `3`, `3.6`, `4`, `4.6`, `4.6.3`, `4.6-double` (a bare major means its newest minor).
    fn from_str(s: &str) -> Result<Profile, UnknownVersion> {
        let err = || UnknownVersion {
            given: s.to_string(),
        };
        let (version, double) = match s.strip_suffix("-double") {
            Some(v) => (v, true),
            None => (s, false),
        };
        let mut parts = version.split('.');
        let major: u32 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(err)?;
        let (family, latest) = match major {
            3 => (Family::Godot3, LATEST3),
            4 => (Family::Godot4, LATEST4),
            _ => return Err(err()),
        };
        let minor = match parts.next() {
            None => latest,
            Some(m) => m.parse().ok().filter(|m| *m <= latest).ok_or_else(err)?,
        };
        // A patch number is accepted and ignored: no patch release changed the format.
        if let Some(patch) = parts.next() {
            patch.parse::<u32>().map_err(|_| err())?;
        }
        if parts.next().is_some() {
            return Err(err());
        }
        let profile = Profile::known(family, minor);
        if double {
            profile.double().ok_or_else(err)
        } else {
            Ok(profile)
        }
    }
}

/// Every profile this crate knows, single-precision builds first.
pub fn all_profiles() -> &'static [Profile] {
    &ALL
}

/// How many: each 3.x and 4.x minor, and each 4.x minor's double build.
const COUNT: usize = (LATEST3 + 1 + 2 * (LATEST4 + 1)) as usize;

/// Built once at compile time: the fuzz targets pick a profile for every input.
const ALL: [Profile; COUNT] = {
    let mut all = [Profile::known(Family::Godot3, 0); COUNT];
    let (threes, fours) = (LATEST3 as usize + 1, LATEST4 as usize + 1);
    let mut m = 0;
    while m < threes {
        all[m] = Profile::known(Family::Godot3, m as u32);
        m += 1;
    }
    let mut m = 0;
    while m < fours {
        let single = Profile::known(Family::Godot4, m as u32);
        all[threes + m] = single;
        all[threes + fours + m] = Profile {
            double_reals: true,
            ..single
        };
        m += 1;
    }
    all
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_versions_make_a_profile() {
        assert_eq!(Profile::new(Family::Godot3, LATEST3 + 1), None);
        assert_eq!(Profile::new(Family::Godot4, LATEST4 + 1), None);
        let three = Profile::new(Family::Godot3, LATEST3).unwrap();
        assert_eq!((three.family(), three.minor()), (Family::Godot3, LATEST3));
        assert_eq!(three.double(), None);
        let four = Profile::new(Family::Godot4, 0).unwrap().double().unwrap();
        assert!(four.double_reals());
        // What can be made is what parsing and the list of every profile give.
        for p in all_profiles() {
            let made = Profile::new(p.family(), p.minor());
            let made = if p.double_reals() {
                made.and_then(Profile::double)
            } else {
                made
            };
            assert_eq!(made, Some(*p));
            assert_eq!(p.to_string().parse(), Ok(*p));
        }
    }

    #[test]
    fn parses_versions() {
        let four_six = Profile::new(Family::Godot4, 6).unwrap();
        assert_eq!("4".parse(), Ok(four_six));
        assert_eq!("3.2".parse().ok(), Profile::new(Family::Godot3, 2));
        assert_eq!("4.6.3".parse(), Ok(four_six));
        assert_eq!(
            "4.2-double".parse().ok(),
            Profile::new(Family::Godot4, 2).and_then(Profile::double)
        );
        for bad in [
            "",
            "5",
            "4.7",
            "3.x",
            "4.6.3.1",
            "4.6-single",
            "-double",
            "3.6-double",
        ] {
            assert!(bad.parse::<Profile>().is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn all_profiles_in_order() {
        let names: Vec<String> = all_profiles().iter().map(|p| p.to_string()).collect();
        let mut want: Vec<String> = (0..=6).map(|m| format!("3.{m}")).collect();
        want.extend((0..=6).map(|m| format!("4.{m}")));
        want.extend((0..=6).map(|m| format!("4.{m}-double")));
        assert_eq!(names, want);
    }

    #[test]
    fn type_of_inverts_id_of() {
        // `type_of` reads a table built for speed; `id_of` states the rule.
        for &p in all_profiles() {
            for id in 0..80 {
                let by_rule = TYPES
                    .iter()
                    .map(|t| t.ty)
                    .find(|&ty| p.id_of(ty) == Some(id));
                assert_eq!(p.type_of(id), by_rule, "{p} id {id}");
            }
        }
    }

    #[test]
    fn display_parses_back() {
        for &p in all_profiles() {
            assert_eq!(p.to_string().parse(), Ok(p));
        }
    }

    #[test]
    fn vector4_array_needs_4_3() {
        let v = VariantType::PackedVector4Array;
        assert_eq!(Profile::new(Family::Godot4, 2).unwrap().id_of(v), None);
        assert_eq!(Profile::new(Family::Godot4, 3).unwrap().id_of(v), Some(38));
        assert_eq!(Profile::new(Family::Godot3, 6).unwrap().id_of(v), None);
    }
}
