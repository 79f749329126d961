//! `--name value` options: parsed once, read with a default, and every name checked so
//! that a misspelt option is an error rather than silently ignored. [`Flags::parse_spec`]
//! also takes switches (`--quiet`) and lists (`--engine name=A cmd=jiang`: the items up to
//! the next `--option`, the option repeatable), for the match runner and the tuner.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

/// The options of one subcommand.
#[derive(Debug, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
    switches: BTreeSet<String>,
    lists: BTreeMap<String, Vec<Vec<String>>>,
}

/// The options a subcommand takes, by kind (for [`Flags::parse_spec`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Spec<'a> {
    /// `--name value`.
    pub values: &'a [&'a str],
    /// `--name`, no value.
    pub switches: &'a [&'a str],
    /// `--name ITEM...`: one or more items, up to the next argument starting with `--`;
    /// repeatable, each occurrence a list of its own.
    pub lists: &'a [&'a str],
}

impl Flags {
    /// Parses `--name value` pairs; `known` lists the names the subcommand takes.
    pub fn parse(args: &[String], known: &[&str]) -> Result<Flags, String> {
        let mut values = BTreeMap::new();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let Some(name) = arg.strip_prefix("--") else {
                return Err(format!("unexpected argument '{arg}'"));
            };
            if !known.contains(&name) {
                return Err(format!(
                    "unknown option --{name} (options: --{})",
                    known.join(", --")
                ));
            }
            let Some(value) = it.next() else {
                return Err(format!("--{name} needs a value"));
            };
            values.insert(name.to_string(), value.clone());
        }
        Ok(Flags {
            values,
            ..Flags::default()
        })
    }

    /// Parses the options of `spec`; a value option given twice keeps the last value.
    pub fn parse_spec(args: &[String], spec: &Spec) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            let Some(name) = arg.strip_prefix("--") else {
                return Err(format!("unexpected argument '{arg}'"));
            };
            i += 1;
            if spec.switches.contains(&name) {
                flags.switches.insert(name.to_string());
            } else if spec.values.contains(&name) {
                let Some(value) = args.get(i) else {
                    return Err(format!("--{name} needs a value"));
                };
                flags.values.insert(name.to_string(), value.clone());
                i += 1;
            } else if spec.lists.contains(&name) {
                let start = i;
                while i < args.len() && !args[i].starts_with("--") {
                    i += 1;
                }
                if i == start {
                    return Err(format!("--{name} needs at least one item"));
                }
                let items = args[start..i].to_vec();
                flags.lists.entry(name.to_string()).or_default().push(items);
            } else {
                let mut all: Vec<&str> = spec.values.to_vec();
                all.extend_from_slice(spec.switches);
                all.extend_from_slice(spec.lists);
                all.sort_unstable();
                return Err(format!(
                    "unknown option --{name} (options: --{})",
                    all.join(", --")
                ));
            }
        }
        Ok(flags)
    }

    /// Whether the switch `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.contains(name)
    }

    /// Whether `--name` was given (a value, a switch or a list).
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
            || self.switches.contains(name)
            || self.lists.contains_key(name)
    }

    /// The value of `--name` read as `T`, `None` when it was not given.
    pub fn optional<T: FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.values.get(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| format!("--{name}: cannot read '{v}'")),
        }
    }

    /// Every occurrence of the list option `--name`, in the order given.
    pub fn lists(&self, name: &str) -> &[Vec<String>] {
        self.lists.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The value of `--name`, or `default` when it was not given.
    pub fn get<T: FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.values.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name}: cannot read '{v}'")),
        }
    }

    /// The text of `--name`, empty when it was not given.
    pub fn text(&self, name: &str) -> String {
        self.values.get(name).cloned().unwrap_or_default()
    }
}
