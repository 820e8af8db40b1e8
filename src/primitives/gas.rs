//! Gas amounts.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An amount of gas, as nodes send it: a JSON integer (u64).
///
/// It wraps [`near_gas::NearGas`] for its units and formatting, but keeps the wire
/// format of the spec: the `near-gas` crate's own serde impl writes a string, which would
/// not round-trip a node's response exactly. Decoding also accepts a decimal string.
///
/// ```
/// use near_rpc::NearGas;
///
/// let gas: NearGas = serde_json::from_str("2428155394932").unwrap();
/// assert_eq!(gas.as_gas(), 2_428_155_394_932);
/// assert_eq!(serde_json::to_string(&gas).unwrap(), "2428155394932");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct NearGas(near_gas::NearGas);

impl NearGas {
    /// An amount in gas units.
    pub const fn from_gas(gas: u64) -> Self {
        Self(near_gas::NearGas::from_gas(gas))
    }

    /// An amount in teragas (10¹² gas).
    pub const fn from_tgas(tgas: u64) -> Self {
        Self(near_gas::NearGas::from_tgas(tgas))
    }

    /// The amount in gas units.
    pub const fn as_gas(self) -> u64 {
        self.0.as_gas()
    }

    /// The amount in whole teragas, rounded down.
    pub const fn as_tgas(self) -> u64 {
        self.0.as_tgas()
    }
}

impl From<near_gas::NearGas> for NearGas {
    fn from(gas: near_gas::NearGas) -> Self {
        Self(gas)
    }
}

impl From<NearGas> for near_gas::NearGas {
    fn from(gas: NearGas) -> Self {
        gas.0
    }
}

impl From<u64> for NearGas {
    fn from(gas: u64) -> Self {
        Self::from_gas(gas)
    }
}

impl fmt::Display for NearGas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for NearGas {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NearGas({})", self.as_gas())
    }
}

impl Serialize for NearGas {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.as_gas())
    }
}

impl<'de> Deserialize<'de> for NearGas {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        near_gas::NearGas::deserialize(deserializer).map(Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_the_full_u64_range_as_integers() {
        for n in [0, 1, u64::MAX] {
            let gas: NearGas = serde_json::from_str(&n.to_string()).unwrap();
            assert_eq!(gas.as_gas(), n);
            assert_eq!(serde_json::to_string(&gas).unwrap(), n.to_string());
        }
    }

    #[test]
    fn accepts_strings_and_rejects_garbage() {
        let gas: NearGas = serde_json::from_str("\"30000000000000\"").unwrap();
        assert_eq!(gas.as_tgas(), 30);
        assert!(serde_json::from_str::<NearGas>("-1").is_err());
        assert!(serde_json::from_str::<NearGas>("\"lots\"").is_err());
        assert!(serde_json::from_str::<NearGas>("18446744073709551616").is_err());
    }
}
