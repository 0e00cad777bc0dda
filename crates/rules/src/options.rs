//! Rule options: named game settings such as `fide-claims=on`.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// Compiled data of ruleset type `R` under `options`, built by `build` the first time and kept
/// for the life of the process (one entry per ruleset and option set, so the leak is bounded).
pub fn cached<R: 'static, T: Send + Sync + 'static, E>(
    options: &RuleOptions,
    build: impl FnOnce() -> Result<T, E>,
) -> Result<&'static T, E> {
    type Cache = Mutex<HashMap<(TypeId, TypeId, RuleOptions), &'static (dyn Any + Send + Sync)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (TypeId::of::<R>(), TypeId::of::<T>(), options.clone());
    let lookup = |map: &HashMap<_, &'static (dyn Any + Send + Sync)>| {
        map.get(&key).map(|entry| {
            entry
                .downcast_ref::<T>()
                .expect("the key names the cached type")
        })
    };
    if let Some(found) = lookup(&cache.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(found);
    }
    // Build without holding the lock, so a build may itself use the cache.
    let built = build()?;
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = lookup(&map) {
        return Ok(found);
    }
    let value: &'static T = Box::leak(Box::new(built));
    map.insert(key, value);
    Ok(value)
}

/// The values an option accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A whole number in this inclusive range.
    Number(u32, u32),
    /// A time control `M+S`: base minutes plus increment seconds (`3+0`, `5+3`), any values
    /// [`TimeControl::parse`](crate::clock::TimeControl::parse) accepts.
    TimeControl,
    /// A duration with one unit (`24h`, `10m`, `30s`), any value
    /// [`parse_duration`](crate::clock::parse_duration) accepts.
    Duration,
    /// A secret random state (Chex's draw order): a [`SeedValue`], 64 hex digits or a decimal
    /// number up to `u32::MAX`. A server fills it with a fresh 256-bit key when a game is
    /// created and shows it to nobody until the game ends; the numbers are what games stored
    /// before keys carry, and what a ruleset's default may use for "none".
    Seed,
}

/// The value of an [`OptionValues::Seed`] option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeedValue {
    /// A decimal number: a seed of 32 bits, what servers drew before keys; an attacker who sees
    /// a few of its effects can try every one, so servers no longer draw them.
    Number(u32),
    /// 256 bits, written as 64 hex digits: a key for a cryptographic generator.
    Key([u8; 32]),
}

impl SeedValue {
    /// Hex digits of a key.
    pub const KEY_DIGITS: usize = 64;

    /// Reads 64 hex digits (either case) as a key, anything else as a decimal number.
    ///
    /// Length decides: a number has at most ten digits, so `000…07` of 64 digits is a key.
    pub fn parse(text: &str) -> Option<SeedValue> {
        if text.len() == Self::KEY_DIGITS {
            let digit = |b: u8| char::from(b).to_digit(16);
            let mut key = [0u8; 32];
            for (byte, pair) in key.iter_mut().zip(text.as_bytes().chunks(2)) {
                *byte = u8::try_from(digit(pair[0])? << 4 | digit(pair[1])?).ok()?;
            }
            return Some(SeedValue::Key(key));
        }
        text.parse().ok().map(SeedValue::Number)
    }
}

impl From<u32> for SeedValue {
    fn from(number: u32) -> Self {
        SeedValue::Number(number)
    }
}

impl From<[u8; 32]> for SeedValue {
    fn from(key: [u8; 32]) -> Self {
        SeedValue::Key(key)
    }
}

/// A number in decimal, a key in 64 lower-case hex digits: what [`SeedValue::parse`] reads back.
impl fmt::Display for SeedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedValue::Number(n) => write!(f, "{n}"),
            SeedValue::Key(key) => key.iter().try_for_each(|b| write!(f, "{b:02x}")),
        }
    }
}

impl OptionValues {
    /// Whether `value` is accepted.
    pub fn accepts(&self, value: &str) -> bool {
        match self {
            OptionValues::Choice(words) => words.contains(&value),
            OptionValues::Number(lo, hi) => {
                value.parse::<u32>().is_ok_and(|n| (*lo..=*hi).contains(&n))
            }
            OptionValues::Seed => SeedValue::parse(value).is_some(),
            OptionValues::TimeControl => crate::clock::TimeControl::parse(value).is_ok(),
            OptionValues::Duration => crate::clock::parse_duration(value).is_ok(),
        }
    }

    /// What is accepted, for messages and help: `on|off`, `0..500`, `M+S`, `<n>h|m|s`.
    pub fn describe(&self, separator: &str) -> String {
        match self {
            OptionValues::Choice(words) => words.join(separator),
            OptionValues::Number(lo, hi) => format!("{lo}..{hi}"),
            OptionValues::Seed => format!(
                "64 hex digits (a 256-bit key) or 0..{} (a seed of games stored before keys)",
                u32::MAX
            ),
            OptionValues::TimeControl => "M+S (minutes + increment seconds)".to_string(),
            OptionValues::Duration => "a duration such as 24h, 10m, 30s".to_string(),
        }
    }
}

/// An option a ruleset offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Name as written before `=`.
    pub name: &'static str,
    /// Accepted values.
    pub values: OptionValues,
    /// Default value.
    pub default: &'static str,
    /// One line of explanation, for developers and the command line.
    pub help: &'static str,
    /// The option's name for players (`Draw claims`).
    pub label: &'static str,
    /// What each value means to a player, in one sentence: `(value, words)`, the value `*`
    /// for any other value, whose `{}` is replaced by it (`Drawn after {} plies`).
    pub words: &'static [(&'static str, &'static str)],
}

impl OptionSpec {
    /// An `on`/`off` option, still to be [`explained`](OptionSpec::explained).
    pub const fn switch(name: &'static str, default: &'static str, help: &'static str) -> Self {
        OptionSpec {
            name,
            values: OptionValues::Choice(&["on", "off"]),
            default,
            help,
            label: "",
            words: &[],
        }
    }

    /// The option with its name and values in words for players.
    pub const fn explained(
        mut self,
        label: &'static str,
        words: &'static [(&'static str, &'static str)],
    ) -> Self {
        self.label = label;
        self.words = words;
        self
    }

    /// What `value` means to a player: its own sentence, else the sentence for any value
    /// with the value in it; `None` where the option has no words for it.
    pub fn explain(&self, value: &str) -> Option<String> {
        if let Some((_, words)) = self.words.iter().find(|(v, _)| *v == value) {
            return Some(words.to_string());
        }
        let (_, template) = self.words.iter().find(|(v, _)| *v == "*")?;
        Some(template.replace("{}", value))
    }
}

/// Why rule options could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// Not of the form `name=value`.
    Malformed(String),
    /// The ruleset has no option of this name.
    Unknown {
        /// The name given.
        name: String,
        /// Names the ruleset accepts.
        known: Vec<&'static str>,
    },
    /// A value the option does not accept.
    BadValue {
        /// Option name.
        name: String,
        /// Value given.
        value: String,
        /// What it accepts.
        accepted: String,
    },
    /// The same option twice.
    Repeated(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Malformed(s) => write!(f, "option {s:?} is not of the form name=value"),
            OptionError::Unknown { name, known } if known.is_empty() => {
                write!(
                    f,
                    "unknown option {name:?}: this ruleset has no rule options"
                )
            }
            OptionError::Unknown { name, known } => {
                write!(f, "unknown option {name:?} (known: {})", known.join(", "))
            }
            OptionError::BadValue {
                name,
                value,
                accepted,
            } => write!(
                f,
                "option {name} does not accept {value:?} (accepted: {accepted})"
            ),
            OptionError::Repeated(name) => write!(f, "option {name} given twice"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Chosen values of a ruleset's options, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct RuleOptions {
    values: BTreeMap<&'static str, String>,
}

impl RuleOptions {
    /// Reads `name=value` items against the ruleset's option list.
    pub fn parse<S: AsRef<str>>(specs: &[OptionSpec], items: &[S]) -> Result<Self, OptionError> {
        let mut values: BTreeMap<&'static str, String> = BTreeMap::new();
        let mut given = Vec::new();
        for item in items {
            let item = item.as_ref();
            let (name, value) = item
                .split_once('=')
                .filter(|(n, v)| !n.is_empty() && !v.is_empty())
                .ok_or_else(|| OptionError::Malformed(item.chars().take(64).collect()))?;
            let spec =
                specs
                    .iter()
                    .find(|s| s.name == name)
                    .ok_or_else(|| OptionError::Unknown {
                        name: name.chars().take(64).collect(),
                        known: specs.iter().map(|s| s.name).collect(),
                    })?;
            if given.contains(&spec.name) {
                return Err(OptionError::Repeated(spec.name.to_string()));
            }
            given.push(spec.name);
            if !spec.values.accepts(value) {
                let accepted = match &spec.values {
                    OptionValues::Number(lo, hi) => format!("a number from {lo} to {hi}"),
                    OptionValues::Seed => {
                        format!("64 hex digits, or a number from 0 to {}", u32::MAX)
                    }
                    other => other.describe(", "),
                };
                return Err(OptionError::BadValue {
                    name: spec.name.to_string(),
                    value: value.chars().take(64).collect(),
                    accepted,
                });
            }
            values.insert(spec.name, value.to_string());
        }
        for spec in specs {
            values
                .entry(spec.name)
                .or_insert_with(|| spec.default.to_string());
        }
        Ok(RuleOptions { values })
    }

    /// The value of an option (its default when not given); `None` if the ruleset has no such
    /// option.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Whether an on/off option is on.
    pub fn is_on(&self, name: &str) -> bool {
        self.get(name) == Some("on")
    }

    /// A numeric option's value.
    pub fn number(&self, name: &str) -> Option<u32> {
        self.get(name).and_then(|v| v.parse().ok())
    }

    /// A seed option's value ([`OptionValues::Seed`]).
    pub fn seed(&self, name: &str) -> Option<SeedValue> {
        self.get(name).and_then(SeedValue::parse)
    }

    /// All options with their values, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(k, v)| (*k, v.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec::switch("fide-claims", "off", "claims")
            .explained("Draw claims", &[("on", "claimed"), ("off", "automatic")]),
        OptionSpec {
            name: "max-plies",
            values: OptionValues::Number(0, 10_000),
            default: "0",
            help: "ply cap",
            label: "ply cap",
            words: &[("*", "ply cap {}")],
        },
        OptionSpec {
            name: "clock",
            values: OptionValues::TimeControl,
            default: "3+0",
            help: "time control",
            label: "time control",
            words: &[("*", "time control {}")],
        },
        OptionSpec {
            name: "deadline",
            values: OptionValues::Duration,
            default: "24h",
            help: "deadline",
            label: "deadline",
            words: &[("*", "deadline {}")],
        },
        OptionSpec {
            name: "secret",
            values: OptionValues::Seed,
            default: "0",
            help: "secret",
            label: "secret",
            words: &[("*", "secret {}")],
        },
    ];

    #[test]
    fn defaults_and_values() {
        let o = RuleOptions::parse::<&str>(SPECS, &[]).unwrap();
        assert_eq!(o.get("fide-claims"), Some("off"));
        assert_eq!(o.number("max-plies"), Some(0));
        let o = RuleOptions::parse(SPECS, &["fide-claims=on", "max-plies=500"]).unwrap();
        assert!(o.is_on("fide-claims"));
        assert_eq!(o.number("max-plies"), Some(500));
    }

    #[test]
    fn errors() {
        assert!(matches!(
            RuleOptions::parse(SPECS, &["fide-claims"]),
            Err(OptionError::Malformed(_))
        ));
        assert!(matches!(
            RuleOptions::parse(SPECS, &["nope=1"]),
            Err(OptionError::Unknown { .. })
        ));
        assert!(matches!(
            RuleOptions::parse(SPECS, &["fide-claims=maybe"]),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            RuleOptions::parse(SPECS, &["max-plies=-1"]),
            Err(OptionError::BadValue { .. })
        ));
        assert!(matches!(
            RuleOptions::parse(SPECS, &["fide-claims=on", "fide-claims=off"]),
            Err(OptionError::Repeated(_))
        ));
        for bad in [
            "clock=3",
            "clock=0+0",
            "clock=x+1",
            "deadline=24",
            "deadline=1000d",
        ] {
            assert!(
                matches!(
                    RuleOptions::parse(SPECS, &[bad]),
                    Err(OptionError::BadValue { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn any_time_control_and_duration() {
        let o = RuleOptions::parse(SPECS, &["clock=7+11", "deadline=90s"]).unwrap();
        assert_eq!(o.get("clock"), Some("7+11"));
        assert_eq!(o.get("deadline"), Some("90s"));
        let o = RuleOptions::parse::<&str>(SPECS, &[]).unwrap();
        assert_eq!(o.get("clock"), Some("3+0"));
    }

    #[test]
    fn a_seed_is_a_key_of_64_hex_digits_or_a_number() {
        let key = "00ff10a0".repeat(8);
        let o = RuleOptions::parse(SPECS, &[format!("secret={key}")]).unwrap();
        let expected: [u8; 32] = std::array::from_fn(|i| [0x00, 0xff, 0x10, 0xa0][i % 4]);
        assert_eq!(o.seed("secret"), Some(SeedValue::Key(expected)));
        // Written back as it came; upper case reads as the same key.
        assert_eq!(SeedValue::Key(expected).to_string(), key);
        assert_eq!(
            SeedValue::parse(&key.to_uppercase()),
            Some(SeedValue::Key(expected))
        );
        // Numbers of games stored before keys, the default among them.
        let o = RuleOptions::parse(SPECS, &["secret=4294967295"]).unwrap();
        assert_eq!(o.seed("secret"), Some(SeedValue::Number(u32::MAX)));
        assert_eq!(SeedValue::Number(7).to_string(), "7");
        let o = RuleOptions::parse::<&str>(SPECS, &[]).unwrap();
        assert_eq!(o.seed("secret"), Some(SeedValue::Number(0)));
        // 64 digits are a key even when they are all decimal.
        let zeros = format!("{}7", "0".repeat(63));
        let mut seven = [0u8; 32];
        seven[31] = 7;
        assert_eq!(SeedValue::parse(&zeros), Some(SeedValue::Key(seven)));
        for bad in [
            "4294967296".to_string(),
            "-1".to_string(),
            "x".to_string(),
            key[1..].to_string(),
            format!("{key}0"),
            format!("{}g", &key[1..]),
            format!("+{}", &key[1..]),
            format!("{}é", &key[2..]),
        ] {
            match RuleOptions::parse(SPECS, &[format!("secret={bad}")]) {
                Err(OptionError::BadValue { accepted, .. }) => {
                    assert!(accepted.contains("64 hex digits"), "{accepted}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
