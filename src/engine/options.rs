//! The engine's own options, declared once: name, type, range, default, and what happens
//! when one changes (as Stockfish's option table with its on-change callbacks). Game
//! options are declared by the games ([`crate::game::Rules::OPTIONS`],
//! [`crate::chooser::MoveChooser::OPTIONS`]); the protocols list and set both through
//! [`super::Engine::option_specs`] and [`super::Engine::set_option`].

use super::error::EngineError;
use super::games;
use super::Engine;
use crate::book::Variety;
use crate::options::{OptionKind, OptionSpec, OptionValue, Shown};
use crate::search::skill;
use crate::time::TimeSettings;
use std::time::Duration;

/// Default hash size in MiB.
#[cfg(not(target_arch = "wasm32"))]
pub const DEFAULT_HASH_MB: usize = 64;
/// Default hash size in MiB in the browser build (`wasm32`): a token table, replaced at
/// once by the size the page chose (`jiang-wasm`, 32 MiB unless told otherwise). There
/// the memory of a freed large table is never used again (the allocator cannot give
/// WebAssembly pages back), so a default table of real size would be lost memory.
#[cfg(target_arch = "wasm32")]
pub const DEFAULT_HASH_MB: usize = 1;
/// Largest hash size a protocol may ask for, in MiB (1 TiB). What is actually used is
/// also capped by the memory the machine has available (see [`Engine::set_hash`]).
/// Making a table costs no time whatever its size (see `crate::tt`).
pub const MAX_HASH_MB: usize = 1 << 20;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Most MultiPV lines accepted.
pub const MAX_MULTIPV: usize = 64;
/// Default contempt (see [`Settings::contempt`]).
pub const DEFAULT_CONTEMPT: i32 = 10;

/// The values of the engine's own options, as the search reads them.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Transposition table size, MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Per-move overhead allowance.
    pub move_overhead: Duration,
    /// Longest any timed move may take.
    pub max_move_time: Duration,
    /// How much worse than 0 a draw by rule counts for the engine (evaluation units; a
    /// Xiangqi horse is about 400): a little above 0 makes it play on instead of repeating.
    pub contempt: i32,
    /// Lines to search and report (UCI MultiPV).
    pub multipv: usize,
    /// Whether the search applies the repetition judge (perpetual check and chase lose);
    /// off, every repetition is a draw. On by default; off only to measure the judge.
    pub repetition_judge: bool,
    /// UCI `UCI_ShowWDL`: score lines carry the win/draw/loss chances (games with a
    /// model of them, see `crate::xiangqi::wdl`).
    pub show_wdl: bool,
    /// UCI `Skill Level` (0 to [`skill::MAX_LEVEL`], full strength).
    pub skill_level: u8,
    /// UCI `UCI_LimitStrength`: play at the level of [`Settings::elo`] instead.
    pub limit_strength: bool,
    /// UCI `UCI_Elo`.
    pub elo: i64,
    /// UCCI `knowledge` and `pruning` (indices into `skill::EFFORTS`): mapped onto the
    /// strength levels, the weaker of the two applies.
    pub ucci_efforts: [usize; 2],
    /// UCCI `randomness` (an index into `skill::EFFORTS`): variety among the best lines
    /// at any level.
    pub randomness: usize,
    /// UCI `OwnBook`, UCCI `usebook`: answer from the opening book where it has the
    /// position (`BookFile`'s, else the game's embedded one). Off by default, as GUIs
    /// expect of an engine (they often bring their own book).
    pub own_book: bool,
    /// How the book's move is chosen (`BookVariety`).
    pub book_variety: Variety,
}

impl Settings {
    /// The strength to play at: `UCI_Elo`'s level when strength is limited, else
    /// `Skill Level`.
    pub fn effective_skill_level(&self) -> u8 {
        let level = if self.limit_strength {
            skill::level_for_elo(self.elo)
        } else {
            self.skill_level
        };
        self.ucci_efforts
            .iter()
            .map(|&e| skill::level_for_effort(e))
            .fold(level, u8::min)
    }
}

impl Default for Settings {
    fn default() -> Self {
        let t = TimeSettings::default();
        Settings {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            move_overhead: t.move_overhead,
            max_move_time: t.max_move_time,
            contempt: DEFAULT_CONTEMPT,
            multipv: 1,
            repetition_judge: true,
            show_wdl: false,
            skill_level: skill::MAX_LEVEL,
            limit_strength: false,
            elo: skill::MAX_ELO,
            ucci_efforts: [skill::EFFORTS.len() - 1; 2],
            randomness: 0,
            own_book: false,
            book_variety: Variety::default(),
        }
    }
}

/// What the user should be told after an option was set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionNote {
    /// A number outside the option's range was clamped.
    Clamped {
        /// The number asked for.
        asked: i128,
        /// The number used.
        used: i64,
    },
    /// A game option the current game does not have: kept, and applied when a game
    /// that has it is played.
    OtherGames {
        /// The option, as its game declares it.
        name: &'static str,
        /// The games that declare it.
        games: Vec<&'static str>,
    },
    /// The strength now played at, after an option changed it: a level, and its Elo on
    /// jiang's ladder (`None` at full strength).
    PlaysAs {
        /// The level, 0 to `skill::MAX_LEVEL`.
        level: u8,
        /// Its measured Elo.
        elo: Option<i64>,
    },
    /// Endgame tables loaded (`EgtbPath`): the endings, and each file refused with why.
    Tablebases {
        /// The endings loaded (`KRKAA`).
        loaded: Vec<String>,
        /// Each file refused: its path and the reason.
        refused: Vec<(String, String)>,
    },
    /// The hash table is smaller than asked: the machine cannot give more.
    HashCapped {
        /// MiB asked for.
        asked: usize,
        /// MiB in use.
        used: usize,
    },
}

/// What changing an option does, given its checked value; a note when the value used
/// differs from the one asked for in a way the option's range did not already say.
type OnChange = fn(&mut Engine, &OptionValue) -> Result<Option<OptionNote>, EngineError>;

/// One of the engine's options: its declaration and what happens on change.
pub struct EngineOption {
    /// Name, type, range, default.
    pub spec: OptionSpec,
    /// What happens on change.
    pub on_change: OnChange,
}

const fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

/// UCCI's effort combo (none/small/medium/large), as knowledge, pruning and randomness.
const fn effort(default: &'static str) -> OptionKind {
    OptionKind::Combo {
        default,
        choices: skill::EFFORTS,
    }
}

/// Every engine-wide option, in the order the handshakes list them.
pub static ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        spec: OptionSpec::new("Hash", spin(DEFAULT_HASH_MB as i64, 1, MAX_HASH_MB as i64))
            .ucci_as("hashsize"),
        on_change: |e, v| {
            let asked = v.as_int().max(1) as usize;
            let used = e.set_hash(asked)?;
            Ok((used != asked).then_some(OptionNote::HashCapped { asked, used }))
        },
    },
    EngineOption {
        spec: OptionSpec::new("Threads", spin(1, 1, MAX_THREADS as i64)),
        on_change: |e, v| {
            e.stop_and_wait();
            e.settings.threads = v.as_int().max(1) as usize;
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("MultiPV", spin(1, 1, MAX_MULTIPV as i64)).shown(Shown::UCI),
        on_change: |e, v| {
            e.settings.multipv = v.as_int().max(1) as usize;
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("Clear Hash", OptionKind::Button).shown(Shown::UCI),
        on_change: |e, _| {
            e.clear_hash();
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("Move Overhead", spin(10, 0, 5000)).shown(Shown::UCI),
        on_change: |e, v| {
            e.settings.move_overhead = Duration::from_millis(v.as_int().max(0) as u64);
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("MaxMoveTime", spin(10_000, 100, 10_000)),
        on_change: |e, v| {
            e.settings.max_move_time = Duration::from_millis(v.as_int().max(0) as u64);
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("Contempt", spin(DEFAULT_CONTEMPT as i64, 0, 200)),
        on_change: |e, v| {
            e.settings.contempt = v.as_int() as i32;
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("RepetitionJudge", OptionKind::Check { default: true }),
        on_change: |e, v| {
            e.settings.repetition_judge = v.as_bool();
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("UCI_ShowWDL", OptionKind::Check { default: false })
            .shown(Shown::UCI),
        on_change: |e, v| {
            e.settings.show_wdl = v.as_bool();
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new(
            "Skill Level",
            spin(skill::MAX_LEVEL as i64, 0, skill::MAX_LEVEL as i64),
        )
        .shown(Shown::UCI),
        on_change: |e, v| {
            let level = v.as_int().clamp(0, skill::MAX_LEVEL as i64) as u8;
            Ok(set_strength(e, |s| s.skill_level = level))
        },
    },
    EngineOption {
        spec: OptionSpec::new("UCI_LimitStrength", OptionKind::Check { default: false })
            .shown(Shown::UCI),
        on_change: |e, v| Ok(set_strength(e, |s| s.limit_strength = v.as_bool())),
    },
    EngineOption {
        spec: OptionSpec::new(
            "UCI_Elo",
            spin(skill::MAX_ELO, skill::MIN_ELO, skill::MAX_ELO),
        )
        .shown(Shown::UCI),
        on_change: |e, v| Ok(set_strength(e, |s| s.elo = v.as_int())),
    },
    EngineOption {
        spec: OptionSpec::new("knowledge", effort("large")).shown(Shown::UCCI),
        on_change: |e, v| set_effort(e, 0, v),
    },
    EngineOption {
        spec: OptionSpec::new("pruning", effort("large")).shown(Shown::UCCI),
        on_change: |e, v| set_effort(e, 1, v),
    },
    EngineOption {
        spec: OptionSpec::new("randomness", effort("none")).shown(Shown::UCCI),
        on_change: |e, v| {
            e.settings.randomness = effort_index(v);
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("OwnBook", OptionKind::Check { default: false }).ucci_as("usebook"),
        on_change: |e, v| {
            e.settings.own_book = v.as_bool();
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new("EgtbPath", OptionKind::Text { default: "" }).ucci_as("egtbpaths"),
        on_change: |e, v| {
            e.stop_and_wait();
            let report = crate::xiangqi::egtb::load_paths(v.as_text());
            // Scores stored before may now be exact, or no longer.
            e.empty_tt();
            // The default (nothing) set while nothing is loaded needs no word.
            if report.is_silent() {
                return Ok(None);
            }
            Ok(Some(OptionNote::Tablebases {
                loaded: report.loaded,
                refused: report.refused,
            }))
        },
    },
    EngineOption {
        spec: OptionSpec::new("BookFile", OptionKind::Text { default: "" }).ucci_as("bookfiles"),
        on_change: |e, v| {
            e.set_book_file(v.as_text())?;
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new(
            "BookVariety",
            OptionKind::Combo {
                default: "weighted",
                choices: Variety::NAMES,
            },
        ),
        on_change: |e, v| {
            e.settings.book_variety = Variety::from_name(v.as_choice()).unwrap_or_default();
            Ok(None)
        },
    },
    EngineOption {
        spec: OptionSpec::new(
            "UCI_Variant",
            OptionKind::Combo {
                default: games::DEFAULT_VARIANT,
                choices: games::VARIANTS,
            },
        )
        .shown(Shown::UCI),
        on_change: |e, v| {
            e.set_variant(v.as_choice())?;
            Ok(None)
        },
    },
];

/// The index of a UCCI effort choice in `skill::EFFORTS`.
fn effort_index(v: &OptionValue) -> usize {
    let choice = v.as_choice();
    skill::EFFORTS
        .iter()
        .position(|&e| e == choice)
        .unwrap_or(skill::EFFORTS.len() - 1)
}

/// UCCI `knowledge` (slot 0) or `pruning` (slot 1): both stand for a strength level.
fn set_effort(
    e: &mut Engine,
    slot: usize,
    v: &OptionValue,
) -> Result<Option<OptionNote>, EngineError> {
    let effort = effort_index(v);
    Ok(set_strength(e, |s| s.ucci_efforts[slot] = effort))
}

/// Changes a setting of the strength (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`,
/// UCCI `knowledge`/`pruning`) and, when the level played changed, the note that says
/// which it is now. An unchanged level is silent: a GUI sends every option's default.
fn set_strength(e: &mut Engine, change: impl FnOnce(&mut Settings)) -> Option<OptionNote> {
    let before = e.settings.effective_skill_level();
    change(&mut e.settings);
    let level = e.settings.effective_skill_level();
    (level != before).then(|| OptionNote::PlaysAs {
        level,
        elo: skill::LEVEL_ELO.get(usize::from(level)).copied(),
    })
}

/// The engine option `name` names (in any dialect).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    ENGINE_OPTIONS.iter().find(|o| o.spec.matches(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_agree_with_the_settings() {
        let s = Settings::default();
        let default = |name: &str| find(name).unwrap().spec.default_value();
        assert_eq!(default("Hash"), OptionValue::Spin(s.hash_mb as i64));
        assert_eq!(default("Threads"), OptionValue::Spin(s.threads as i64));
        assert_eq!(
            default("Move Overhead"),
            OptionValue::Spin(s.move_overhead.as_millis() as i64)
        );
        assert_eq!(
            default("MaxMoveTime"),
            OptionValue::Spin(s.max_move_time.as_millis() as i64)
        );
        assert_eq!(
            default("Contempt"),
            OptionValue::Spin(i64::from(s.contempt))
        );
        assert_eq!(default("RepetitionJudge"), OptionValue::Check(true));
        assert_eq!(default("UCI_ShowWDL"), OptionValue::Check(s.show_wdl));
        assert_eq!(
            default("Skill Level"),
            OptionValue::Spin(i64::from(s.skill_level))
        );
        assert_eq!(default("UCI_LimitStrength"), OptionValue::Check(false));
        assert_eq!(default("UCI_Elo"), OptionValue::Spin(s.elo));
        assert_eq!(s.effective_skill_level(), skill::MAX_LEVEL);
        assert_eq!(default("OwnBook"), OptionValue::Check(s.own_book));
        assert_eq!(default("usebook"), OptionValue::Check(false));
        assert_eq!(default("bookfiles"), OptionValue::Text(String::new()));
        assert_eq!(
            Variety::from_name(default("BookVariety").as_choice()),
            Some(s.book_variety)
        );
        assert!(find("hashsize").is_some() && find("uci_variant").is_some());
    }
}
