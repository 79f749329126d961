//! Options, declared once by the layer that owns them.
//!
//! Each option is an [`OptionSpec`]: its name, type, range and default. The engine
//! declares its own (hash, threads, ...), each game declares the options of its rules
//! ([`crate::game::Rules::OPTIONS`]) and of its move chooser
//! ([`crate::chooser::MoveChooser::OPTIONS`]), and the protocols declare the few that only
//! change how they speak. The protocols list every option from these tables (UCI's and
//! UCCI's handshakes) and read every `setoption` value through [`OptionSpec::parse`], so
//! a new option is one entry in its owner's table plus what happens when it changes.
//!
//! This module sits at the bottom of the house: it knows nothing of who owns an option.

use std::fmt;

/// An option's type, range and default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On or off.
    Check {
        /// Default value.
        default: bool,
    },
    /// A whole number in a range; values outside it are clamped (and the user told).
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a few words (case-insensitive).
    Combo {
        /// Default choice.
        default: &'static str,
        /// Every choice, the default among them.
        choices: &'static [&'static str],
    },
    /// An action without a value (`Clear Hash`).
    Button,
    /// Free text: a file name (`BookFile`). Empty, the handshakes write `<empty>`, as
    /// UCI GUIs expect, and `<empty>` given as a value means empty.
    Text {
        /// Default value.
        default: &'static str,
    },
}

/// How the handshakes write an empty text value.
pub const EMPTY_TEXT: &str = "<empty>";

/// Which dialects list an option in their handshake (every dialect accepts every option
/// in `setoption`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// UCI's `uci` handshake.
    pub uci: bool,
    /// UCCI's `ucci` handshake (Xiangqi only).
    pub ucci: bool,
}

impl Shown {
    /// Both handshakes.
    pub const ALL: Shown = Shown {
        uci: true,
        ucci: true,
    };
    /// UCI only.
    pub const UCI: Shown = Shown {
        uci: true,
        ucci: false,
    };
    /// UCCI only.
    pub const UCCI: Shown = Shown {
        uci: false,
        ucci: true,
    };
}

/// One option: everything a protocol needs to list it and read its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name as UCI lists it (`Hash`, `UseNNUE`, `Move Overhead`).
    pub name: &'static str,
    /// The name UCCI lists it by, where that is not [`OptionSpec::name`] in lower case
    /// without spaces (`hashsize` for `Hash`).
    pub ucci_name: Option<&'static str>,
    /// Type, range and default.
    pub kind: OptionKind,
    /// Which handshakes list it.
    pub shown: Shown,
}

/// A value read for an option, of the option's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// For a [`OptionKind::Check`].
    Check(bool),
    /// For a [`OptionKind::Spin`], within its range.
    Spin(i64),
    /// For a [`OptionKind::Combo`]: the choice as the table spells it.
    Combo(&'static str),
    /// For a [`OptionKind::Button`].
    Button,
    /// For a [`OptionKind::Text`].
    Text(String),
}

impl OptionValue {
    /// The check value (`false` for values of other types).
    pub fn as_bool(&self) -> bool {
        matches!(self, OptionValue::Check(true))
    }

    /// The spin value (0 for values of other types).
    pub fn as_int(&self) -> i64 {
        match self {
            OptionValue::Spin(v) => *v,
            _ => 0,
        }
    }

    /// The text (empty for values of other types).
    pub fn as_text(&self) -> &str {
        match self {
            OptionValue::Text(t) => t,
            _ => "",
        }
    }

    /// The combo choice (empty for values of other types).
    pub fn as_choice(&self) -> &'static str {
        match self {
            OptionValue::Combo(c) => c,
            _ => "",
        }
    }
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Check(b) => write!(f, "{b}"),
            OptionValue::Spin(v) => write!(f, "{v}"),
            OptionValue::Combo(c) => f.write_str(c),
            OptionValue::Button => f.write_str("pressed"),
            OptionValue::Text(t) => f.write_str(t),
        }
    }
}

/// A value that was read, and what the user should be told about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The value to apply.
    pub value: OptionValue,
    /// For a number outside the range: the number asked for (the value is clamped).
    pub clamped_from: Option<i128>,
}

/// Why a `setoption` changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name (in this dialect or game).
    Unknown {
        /// The name as given.
        name: String,
    },
    /// A spin option was given something that is not a whole number.
    NotANumber {
        /// The option.
        name: &'static str,
        /// The text given.
        value: String,
    },
    /// A check option was given something that is neither true nor false.
    NotABool {
        /// The option.
        name: &'static str,
        /// The text given.
        value: String,
    },
    /// A combo option was given a word that is not one of its choices.
    NotAChoice {
        /// The option.
        name: &'static str,
        /// The text given.
        value: String,
        /// The choices.
        choices: &'static [&'static str],
    },
    /// The owner refused the value (a rule set the current game lacks, say).
    Refused {
        /// The option.
        name: &'static str,
        /// Why, in words.
        reason: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => write!(f, "unknown option '{name}' ignored"),
            OptionError::NotANumber { name, value } => {
                write!(f, "{name} needs a number, got '{value}'")
            }
            OptionError::NotABool { name, value } => {
                write!(f, "{name} needs true or false, got '{value}'")
            }
            OptionError::NotAChoice {
                name,
                value,
                choices,
            } => write!(f, "{name} has no choice '{value}' ({})", choices.join(", ")),
            OptionError::Refused { reason, .. } => f.write_str(reason),
        }
    }
}

impl std::error::Error for OptionError {}

/// Reads `on/off/true/false/1/0/yes/no` (empty: true, as `setoption name Ponder` alone).
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "" | "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// An option name as names are compared: lower case, without spaces or underscores
/// (`Move Overhead`, `moveoverhead` and `UCI_Variant`/`ucivariant` match).
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

impl OptionSpec {
    /// An option listed by both UCI and UCCI.
    pub const fn new(name: &'static str, kind: OptionKind) -> OptionSpec {
        OptionSpec {
            name,
            ucci_name: None,
            kind,
            shown: Shown::ALL,
        }
    }

    /// The same option under another UCCI name.
    pub const fn ucci_as(self, ucci_name: &'static str) -> OptionSpec {
        OptionSpec {
            ucci_name: Some(ucci_name),
            ..self
        }
    }

    /// The same option, listed only where `shown` says.
    pub const fn shown(self, shown: Shown) -> OptionSpec {
        OptionSpec { shown, ..self }
    }

    /// The UCCI name: [`OptionSpec::ucci_name`] or the UCI name normalised.
    pub fn ucci(&self) -> String {
        self.ucci_name
            .map_or_else(|| normalize(self.name), |n| n.to_string())
    }

    /// Whether `name` (as a user typed it, in any dialect) names this option.
    pub fn matches(&self, name: &str) -> bool {
        let key = normalize(name);
        key == normalize(self.name) || self.ucci_name.is_some_and(|u| key == normalize(u))
    }

    /// The default value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::Text { default } => OptionValue::Text(default.to_string()),
        }
    }

    /// Reads a value given as text: numbers outside the range are clamped (and say so),
    /// anything else that does not fit the type is refused.
    pub fn parse(&self, text: &str) -> Result<Parsed, OptionError> {
        let text = text.trim();
        let value = match self.kind {
            OptionKind::Check { .. } => match parse_bool(text) {
                Some(b) => OptionValue::Check(b),
                None => {
                    return Err(OptionError::NotABool {
                        name: self.name,
                        value: text.to_string(),
                    })
                }
            },
            OptionKind::Spin { min, max, .. } => {
                let Ok(asked) = text.parse::<i128>() else {
                    return Err(OptionError::NotANumber {
                        name: self.name,
                        value: text.to_string(),
                    });
                };
                let used = asked.clamp(i128::from(min), i128::from(max));
                return Ok(Parsed {
                    // Within an i64 range, so the cast is exact.
                    value: OptionValue::Spin(used as i64),
                    clamped_from: (used != asked).then_some(asked),
                });
            }
            OptionKind::Combo { choices, .. } => {
                match choices.iter().find(|c| c.eq_ignore_ascii_case(text)) {
                    Some(c) => OptionValue::Combo(c),
                    None => {
                        return Err(OptionError::NotAChoice {
                            name: self.name,
                            value: text.to_string(),
                            choices,
                        })
                    }
                }
            }
            OptionKind::Button => OptionValue::Button,
            OptionKind::Text { .. } if text == EMPTY_TEXT => OptionValue::Text(String::new()),
            OptionKind::Text { .. } => OptionValue::Text(text.to_string()),
        };
        Ok(Parsed {
            value,
            clamped_from: None,
        })
    }

    /// The UCI handshake line: `option name Hash type spin default 64 min 1 max 1048576`.
    pub fn uci_line(&self) -> String {
        format!("option name {} type {}", self.name, self.type_words(false))
    }

    /// The UCCI handshake line: `option hashsize type spin min 1 max 1048576 default 64`.
    pub fn ucci_line(&self) -> String {
        format!("option {} type {}", self.ucci(), self.type_words(true))
    }

    /// The type, range and default as the handshakes write them (UCCI puts the default
    /// last).
    fn type_words(&self, ucci: bool) -> String {
        match self.kind {
            OptionKind::Check { default } => format!("check default {default}"),
            OptionKind::Spin { default, min, max } if ucci => {
                format!("spin min {min} max {max} default {default}")
            }
            OptionKind::Spin { default, min, max } => {
                format!("spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, choices } => {
                let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                if ucci {
                    format!("combo {} default {default}", vars.join(" "))
                } else {
                    format!("combo default {default} {}", vars.join(" "))
                }
            }
            OptionKind::Button => "button".to_string(),
            OptionKind::Text { default: "" } => {
                format!("string default {EMPTY_TEXT}")
            }
            OptionKind::Text { default } => format!("string default {default}"),
        }
    }
}

/// The option of `specs` that `name` names.
pub fn find<'a>(specs: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
    specs.iter().find(|s| s.matches(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: OptionSpec = OptionSpec::new(
        "Hash",
        OptionKind::Spin {
            default: 64,
            min: 1,
            max: 1024,
        },
    )
    .ucci_as("hashsize");

    #[test]
    fn names_match_in_every_dialect() {
        assert!(HASH.matches("hash"));
        assert!(HASH.matches("HashSize"));
        assert!(!HASH.matches("hashes"));
        let overhead = OptionSpec::new("Move Overhead", OptionKind::Button);
        assert!(overhead.matches("moveoverhead"));
        assert_eq!(overhead.ucci(), "moveoverhead");
    }

    #[test]
    fn numbers_are_clamped_and_say_so() {
        assert_eq!(
            HASH.parse("16").unwrap(),
            Parsed {
                value: OptionValue::Spin(16),
                clamped_from: None
            }
        );
        let p = HASH.parse("-5").unwrap();
        assert_eq!((p.value, p.clamped_from), (OptionValue::Spin(1), Some(-5)));
        let p = HASH.parse("99999999999999999999999").unwrap();
        assert_eq!(p.value, OptionValue::Spin(1024));
        assert!(matches!(
            HASH.parse("banana"),
            Err(OptionError::NotANumber { .. })
        ));
    }

    #[test]
    fn checks_and_combos_refuse_what_does_not_fit() {
        let check = OptionSpec::new("Ponder", OptionKind::Check { default: false });
        assert_eq!(check.parse("on").unwrap().value, OptionValue::Check(true));
        assert!(check.parse("maybe").is_err());
        let combo = OptionSpec::new(
            "Rules",
            OptionKind::Combo {
                default: "asian",
                choices: &["asian", "alphachess"],
            },
        );
        assert_eq!(
            combo.parse("AlphaChess").unwrap().value,
            OptionValue::Combo("alphachess")
        );
        let e = combo.parse("chinese").unwrap_err();
        assert!(e.to_string().contains("chinese"), "{e}");
    }

    #[test]
    fn text_values() {
        let file = OptionSpec::new("BookFile", OptionKind::Text { default: "" });
        assert_eq!(
            file.uci_line(),
            "option name BookFile type string default <empty>"
        );
        assert_eq!(
            file.ucci_line(),
            "option bookfile type string default <empty>"
        );
        assert_eq!(
            file.parse(" my book.jbk ").unwrap().value,
            OptionValue::Text("my book.jbk".to_string())
        );
        assert_eq!(
            file.parse("<empty>").unwrap().value,
            OptionValue::Text(String::new())
        );
        assert_eq!(file.default_value().as_text(), "");
    }

    #[test]
    fn handshake_lines() {
        assert_eq!(
            HASH.uci_line(),
            "option name Hash type spin default 64 min 1 max 1024"
        );
        assert_eq!(
            HASH.ucci_line(),
            "option hashsize type spin min 1 max 1024 default 64"
        );
    }
}
