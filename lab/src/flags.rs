//! `--name value` options: parsed once, read with a default, and every name checked so
//! that a misspelt option is an error rather than silently ignored.

use std::collections::BTreeMap;
use std::str::FromStr;

/// The options of one subcommand.
#[derive(Debug, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
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
        Ok(Flags { values })
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
