//! Match statistics: Elo with its 95 % error, the likelihood of superiority, the
//! sequential probability ratio test.
//!
//! * **Elo** (logistic): `Elo = -400 · log10(1/s - 1)` for the score fraction `s`.
//! * **Error bar**: the normal approximation of the mean game score, with the trinomial
//!   (win / draw / loss) sample variance `σ² = (W(1-s)² + D(½-s)² + L s²) / N`; the
//!   interval `s ± 1.96 σ/√N` is mapped through the Elo formula, and the error is half
//!   its width (the method of cutechess-cli).
//! * **LOS**, the likelihood of superiority: `½ (1 + erf((W - L) / √(2 (W + L))))`.
//! * **SPRT**: the generalised SPRT in logistic Elo with the trinomial model and the
//!   normal approximation of Michel Van den Bergh, as fishtest computed it for W/D/L
//!   before its pentanomial model (Van den Bergh, "A note on the GSPRT", and fishtest's
//!   `stats/LLRcalc.py`): with `s_k = 1 / (1 + 10^(-elo_k/400))`,
//!
//!   `LLR = N (s1 - s0) (2s - s0 - s1) / (2σ²)`,
//!
//!   stopping at `ln(β/(1-α))` (H0 accepted) or `ln((1-β)/α)` (H1 accepted). As in
//!   cutechess-cli no decision is taken before at least one win, one draw and one loss (the
//!   variance is not known before). Game pairs are not modelled: the pentanomial counts
//!   are reported for information.
//!
//! These are the formulas of the independent referee `xqmatch` too, so that the two
//! runners report the same figures for the same games.

/// The 97.5 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of a side `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score fraction (`±inf` at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The error function (W. J. Cody's rational approximations are more than we need: this
/// is Numerical Recipes' `erfc` Chebyshev fit, relative error below 1.2e-7).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// W/D/L of one side and what follows from them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wdl {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

/// Elo, its 95 % interval and the LOS of a [`Wdl`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Score fraction.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Half the width of the 95 % interval (`inf` when an end is infinite).
    pub error95: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
    /// Likelihood of superiority (`None` without a decisive game).
    pub los: Option<f64>,
    /// Draws / games.
    pub draw_ratio: f64,
}

impl Wdl {
    /// Counts one game scored 1, ½ or 0.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score and the trinomial variance of one game's score.
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        );
        let s = (w + 0.5 * d) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        Some((s, var))
    }

    /// Elo and its error; `None` before the first game.
    pub fn estimate(&self) -> Option<EloEstimate> {
        let (s, var) = self.mean_and_variance()?;
        let n = f64::from(self.games());
        let half = Z95 * (var / n).sqrt();
        let (low, high) = (elo_from_score(s - half), elo_from_score(s + half));
        let error95 = if low.is_finite() && high.is_finite() {
            (high - low) / 2.0
        } else {
            f64::INFINITY
        };
        let decisive = f64::from(self.wins + self.losses);
        let los = (decisive > 0.0).then(|| {
            0.5 * (1.0
                + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
        });
        Some(EloEstimate {
            score: s,
            elo: elo_from_score(s),
            error95,
            low,
            high,
            los,
            draw_ratio: f64::from(self.draws) / n,
        })
    }
}

/// The SPRT's settings: H0 `elo <= elo0` against H1 `elo >= elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// H0 is accepted at or below this.
    pub lower: f64,
    /// H1 is accepted at or above this.
    pub upper: f64,
    /// `Some(true)`: H1 accepted; `Some(false)`: H0 accepted; `None`: go on.
    pub verdict: Option<bool>,
}

/// The SPRT's model, as the JSON and the summary name it.
pub const SPRT_MODEL: &str = "GSPRT, trinomial W/D/L, logistic Elo, normal approximation; \
                              no decision before >= 1 win, draw and loss";

impl Sprt {
    /// The defaults `elo0=0 elo1=10 alpha=0.05 beta=0.05`.
    pub const DEFAULT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };

    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any subset; the rest default).
    pub fn parse(items: &[String]) -> Result<Sprt, String> {
        let mut s = Sprt::DEFAULT;
        for item in items {
            let (k, v) = item.split_once('=').ok_or_else(|| {
                format!("bad --sprt item '{item}' (use elo0= elo1= alpha= beta=)")
            })?;
            let v: f64 = v
                .parse()
                .map_err(|_| format!("bad --sprt value in '{item}'"))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                _ => {
                    return Err(format!(
                        "bad --sprt item '{item}' (use elo0= elo1= alpha= beta=)"
                    ))
                }
            }
        }
        let ok = s.elo1 > s.elo0
            && s.alpha > 0.0
            && s.alpha < 0.5
            && s.beta > 0.0
            && s.beta < 0.5
            && s.elo0.is_finite()
            && s.elo1.is_finite();
        if !ok {
            return Err(format!(
                "bad --sprt values (need elo1 > elo0, 0 < alpha, beta < 0.5): {s:?}"
            ));
        }
        Ok(s)
    }

    /// The bounds `(ln(β/(1-α)), ln((1-β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `wdl` (0 before any game; a zero variance, every game
    /// alike, is floored at 0.001 so that the ratio still moves the right way).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let Some((s, var)) = wdl.mean_and_variance() else {
            return 0.0;
        };
        let var = if var <= 0.0 { 1e-3 } else { var };
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        f64::from(wdl.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Where the test stands after `wdl`.
    pub fn state(&self, wdl: &Wdl) -> SprtState {
        let llr = self.llr(wdl);
        let (lower, upper) = self.bounds();
        let decided = wdl.wins > 0 && wdl.draws > 0 && wdl.losses > 0;
        let verdict = if !decided {
            None
        } else if llr >= upper {
            Some(true)
        } else if llr <= lower {
            Some(false)
        } else {
            None
        };
        SprtState {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

/// Counts of game-pair totals 0, ½, 1, 1½, 2 for the first engine, from its two scores
/// in each pair.
pub fn pentanomial(pairs: &[(f64, f64)]) -> [u32; 5] {
    let mut counts = [0u32; 5];
    for (a, b) in pairs {
        let i = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        counts[i] += 1;
    }
    counts
}

/// The median (`None` of nothing).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

/// `+50.0 +/- 262.6`, with `+inf`/`-inf`/`inf` where a figure is infinite.
pub fn format_elo(elo: f64, error: f64) -> String {
    let e = if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else if elo.abs() < 0.05 {
        "+0.0".to_string()
    } else {
        format!("{elo:+.1}")
    };
    let err = if error.is_finite() {
        format!("{error:.1}")
    } else {
        "inf".to_string()
    };
    format!("{e} +/- {err}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_error_of_a_known_score() {
        let e = wdl(60, 20, 20).estimate().unwrap();
        assert!((e.score - 0.7).abs() < 1e-12);
        // -400 log10(1/0.7 - 1) = 147.19...
        assert!((e.elo - 147.19).abs() < 0.01, "{}", e.elo);
        assert!(e.low < e.elo && e.elo < e.high);
        assert!(e.error95 > 50.0 && e.error95 < 100.0, "{}", e.error95);
        assert_eq!(wdl(10, 0, 10).estimate().unwrap().elo, 0.0);
        assert_eq!(wdl(3, 0, 0).estimate().unwrap().elo, f64::INFINITY);
        assert!(wdl(0, 0, 0).estimate().is_none());
    }

    #[test]
    fn los_is_the_normal_tail() {
        assert!((wdl(5, 3, 5).estimate().unwrap().los.unwrap() - 0.5).abs() < 1e-7);
        // 0.5 (1 + erf(10 / sqrt 40)), Python's math.erf: 0.98732634.
        let los = wdl(15, 0, 5).estimate().unwrap().los.unwrap();
        assert!((los - 0.987_326_34).abs() < 1e-6, "{los}");
        assert!(wdl(0, 4, 0).estimate().unwrap().los.is_none());
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
    }

    #[test]
    fn sprt_decides_clear_cases_and_waits_otherwise() {
        let sprt = Sprt::DEFAULT;
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944_438_98).abs() < 1e-6 && (hi - 2.944_438_98).abs() < 1e-6);
        assert_eq!(sprt.state(&wdl(300, 100, 100)).verdict, Some(true));
        assert_eq!(sprt.state(&wdl(100, 100, 300)).verdict, Some(false));
        assert_eq!(sprt.state(&wdl(50, 0, 10)).verdict, None, "no draw yet");
        assert_eq!(sprt.state(&wdl(11, 10, 10)).verdict, None);
        // By hand (Python): N=500, s=0.7, var = (300*.09 + 100*.04 + 100*.49)/500 = 0.16,
        // s1 = 1/(1+10^(-1/40)): LLR = 500 (s1-.5)(1.4-.5-s1)/(2*.16) = 8.66857...
        let llr = sprt.llr(&wdl(300, 100, 100));
        assert!((llr - 8.668_566_56).abs() < 1e-6, "{llr}");
        assert!(Sprt::parse(&["elo0=5".into(), "elo1=0".into()]).is_err());
        assert!(Sprt::parse(&["gamma=1".into()]).is_err());
        let s = Sprt::parse(&["elo1=5".into(), "alpha=0.1".into()]).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.1, 0.05));
    }

    #[test]
    fn pentanomial_and_median() {
        assert_eq!(
            pentanomial(&[(1.0, 1.0), (0.5, 0.0), (0.0, 0.0), (0.5, 0.5)]),
            [1, 1, 1, 0, 1]
        );
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
        assert_eq!(format_elo(50.0, 262.61), "+50.0 +/- 262.6");
        assert_eq!(format_elo(f64::INFINITY, f64::INFINITY), "+inf +/- inf");
    }
}
