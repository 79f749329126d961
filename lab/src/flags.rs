//! The one argument parser of every subcommand: plain arguments (`GAMES`, `FILE`),
//! `--name value` options and `--name` switches, parsed once against what the subcommand
//! declares ([`Spec`]) and read with a default, so that a misspelt option or a stray
//! argument is an error rather than silently ignored. `--help` anywhere prints the
//! subcommand's usage and exits. List options take the items up to the next `--option`
//! and may repeat (`--engine name=A cmd=jiang --engine name=B cmd=other`, for the match
//! runner and the tuner).

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

/// What a subcommand takes.
#[derive(Clone, Copy, Debug)]
pub struct Spec<'a> {
    /// Its usage, printed by `--help`.
    pub usage: &'a str,
    /// Names of the options that take a value (`--nodes 1000`).
    pub options: &'a [&'a str],
    /// Names of the options without a value (`--verbose`).
    pub switches: &'a [&'a str],
    /// Names of the list options: one or more items up to the next argument starting
    /// with `--`, repeatable, each occurrence a list of its own.
    pub lists: &'a [&'a str],
    /// How many plain arguments it takes at most (`usize::MAX`: any number).
    pub args: usize,
}

impl<'a> Spec<'a> {
    /// A subcommand with this usage that takes nothing yet.
    pub const fn new(usage: &'a str) -> Spec<'a> {
        Spec {
            usage,
            options: &[],
            switches: &[],
            lists: &[],
            args: 0,
        }
    }

    /// It takes these `--name value` options.
    pub const fn options(self, options: &'a [&'a str]) -> Spec<'a> {
        Spec { options, ..self }
    }

    /// It takes these `--name` switches.
    pub const fn switches(self, switches: &'a [&'a str]) -> Spec<'a> {
        Spec { switches, ..self }
    }

    /// It takes these `--name ITEM...` list options.
    pub const fn lists(self, lists: &'a [&'a str]) -> Spec<'a> {
        Spec { lists, ..self }
    }

    /// It takes up to `args` plain arguments.
    pub const fn args(self, args: usize) -> Spec<'a> {
        Spec { args, ..self }
    }

    fn names(&self) -> String {
        let mut all: Vec<&str> = self
            .options
            .iter()
            .chain(self.switches)
            .chain(self.lists)
            .copied()
            .collect();
        all.sort_unstable();
        if all.is_empty() {
            "none".to_string()
        } else {
            format!("--{}", all.join(", --"))
        }
    }
}

/// The arguments of one subcommand, as its [`Spec`] reads them.
#[derive(Debug, Default)]
pub struct Flags {
    values: BTreeMap<String, String>,
    switches: BTreeSet<String>,
    lists: BTreeMap<String, Vec<Vec<String>>>,
    args: Vec<String>,
}

impl Flags {
    /// Parses `args` against `spec`: `--name value` for its options, `--name` for its
    /// switches, anything else a plain argument. `--help` prints the usage on stdout and
    /// ends the process.
    pub fn parse(args: &[String], spec: &Spec) -> Result<Flags, String> {
        if args.iter().any(|a| a == "--help") {
            println!("{}", spec.usage);
            std::process::exit(0);
        }
        let mut flags = Flags::default();
        let mut i = 0;
        while i < args.len() {
            let arg = &args[i];
            i += 1;
            let Some(name) = arg.strip_prefix("--") else {
                if flags.args.len() >= spec.args {
                    return Err(format!("unexpected argument '{arg}'"));
                }
                flags.args.push(arg.clone());
                continue;
            };
            if spec.switches.contains(&name) {
                flags.switches.insert(name.to_string());
                continue;
            }
            if spec.lists.contains(&name) {
                let start = i;
                while i < args.len() && !args[i].starts_with("--") {
                    i += 1;
                }
                if i == start {
                    return Err(format!("--{name} needs at least one item"));
                }
                let items = args[start..i].to_vec();
                flags.lists.entry(name.to_string()).or_default().push(items);
                continue;
            }
            if !spec.options.contains(&name) {
                return Err(format!(
                    "unknown option --{name} (options: {})",
                    spec.names()
                ));
            }
            let Some(value) = args.get(i) else {
                return Err(format!("--{name} needs a value"));
            };
            i += 1;
            flags.values.insert(name.to_string(), value.clone());
        }
        Ok(flags)
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

    /// The text of `--name`, if it was given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Whether the switch `--name` was given.
    pub fn is_set(&self, name: &str) -> bool {
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

    /// The plain arguments, in order.
    pub fn args(&self) -> &[String] {
        &self.args
    }

    /// Plain argument `i` (from 0), which must be there; `what` names it in the error.
    pub fn arg<T: FromStr>(&self, i: usize, what: &str) -> Result<T, String> {
        match self.args.get(i) {
            None => Err(format!("needs {what}")),
            Some(v) => v.parse().map_err(|_| format!("{what}: cannot read '{v}'")),
        }
    }

    /// Plain argument `i` (from 0), or `default` when it was not given.
    pub fn arg_or<T: FromStr>(&self, i: usize, default: T, what: &str) -> Result<T, String> {
        match self.args.get(i) {
            None => Ok(default),
            Some(_) => self.arg(i, what),
        }
    }

    /// Whether plain argument `i` is the word `word` (an optional keyword such as
    /// `imbalanced`); another word there is an error.
    pub fn keyword(&self, i: usize, word: &str) -> Result<bool, String> {
        match self.args.get(i) {
            None => Ok(false),
            Some(w) if w == word => Ok(true),
            Some(w) => Err(format!("unexpected argument '{w}' (only '{word}' here)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    const SPEC: Spec = Spec::new("x OUT DATA... [--nodes N] [--verbose]")
        .options(&["nodes"])
        .switches(&["verbose"])
        .args(3);

    #[test]
    fn options_switches_and_arguments_in_any_order() {
        let f = Flags::parse(&words("out --nodes 5 a --verbose b"), &SPEC).unwrap();
        assert_eq!(f.args(), ["out", "a", "b"]);
        assert_eq!(f.get("nodes", 1u64), Ok(5));
        assert!(f.is_set("verbose"));
        assert_eq!(f.arg::<String>(0, "OUT").as_deref(), Ok("out"));
        assert_eq!(f.arg_or(3, 7u32, "N"), Ok(7));
        let f = Flags::parse(&words("out"), &SPEC).unwrap();
        assert_eq!(f.get("nodes", 1u64), Ok(1));
        assert!(!f.is_set("verbose"));
        assert_eq!(f.value("nodes"), None);
    }

    #[test]
    fn list_options_take_items_up_to_the_next_option_and_repeat() {
        let spec = Spec::new("m").options(&["games"]).lists(&["engine"]);
        let f = Flags::parse(
            &words("--engine name=A cmd=x --games 4 --engine name=B"),
            &spec,
        )
        .unwrap();
        assert_eq!(f.lists("engine"), [words("name=A cmd=x"), words("name=B")]);
        assert_eq!(f.optional::<u32>("games"), Ok(Some(4)));
        assert!(f.has("engine") && !f.has("nodes"));
        assert_eq!(
            Flags::parse(&words("--engine --games 4"), &spec).unwrap_err(),
            "--engine needs at least one item"
        );
    }

    #[test]
    fn mistakes_are_refused() {
        let err = |s: &str| Flags::parse(&words(s), &SPEC).unwrap_err();
        assert_eq!(
            err("--node 5"),
            "unknown option --node (options: --nodes, --verbose)"
        );
        assert_eq!(err("--nodes"), "--nodes needs a value");
        assert_eq!(err("a b c d"), "unexpected argument 'd'");
        let f = Flags::parse(&words("a --nodes five"), &SPEC).unwrap();
        assert_eq!(
            f.get("nodes", 1u64),
            Err("--nodes: cannot read 'five'".into())
        );
        assert_eq!(
            f.arg::<u32>(0, "GAMES"),
            Err("GAMES: cannot read 'a'".into())
        );
        assert_eq!(f.arg::<u32>(1, "GAMES"), Err("needs GAMES".into()));
        assert_eq!(
            f.keyword(0, "imbalanced"),
            Err("unexpected argument 'a' (only 'imbalanced' here)".into())
        );
        assert_eq!(f.keyword(1, "imbalanced"), Ok(false));
    }
}
