//! What the Asian rules say about a repetition, written once for every game that plays
//! under them (Xiangqi and Jieqi): the verdict type, the numbers of the 60-move rule, and
//! how the checks and chases of a span combine into a verdict. Each game finds the checks
//! and chases on its own board; only their combination lives here.

/// Plies of the 60-move rule's count after which the game is drawn.
pub const RULE60_PLIES: u16 = 120;

/// Checks per side (since the last capture) that advance the 60-move count.
pub const FREE_CHECKS: u8 = 10;

/// How a repetition is judged; `C` is the game's colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RepetitionVerdict<C> {
    /// Nobody, or both sides, broke the rules: a draw.
    Draw,
    /// That side checked with every move of the span and loses.
    PerpetualCheck(C),
    /// That side chased one piece with every move of the span and loses.
    PerpetualChase(C),
}

/// Combines what a span showed into a verdict. `always_checked[i]`: side `i` (0 moves
/// first) gave check with every one of its moves of the span; `chasers` (asked only when
/// no check decides) gives the same for chasing one and the same piece; `side` names a
/// side by its index. Perpetual check outranks perpetual chase; two culprits of the same
/// kind draw.
#[inline]
pub fn judge_repetition<C>(
    always_checked: [bool; 2],
    chasers: impl FnOnce() -> [bool; 2],
    side: fn(usize) -> C,
) -> RepetitionVerdict<C> {
    match always_checked {
        [true, false] => RepetitionVerdict::PerpetualCheck(side(0)),
        [false, true] => RepetitionVerdict::PerpetualCheck(side(1)),
        [true, true] => RepetitionVerdict::Draw,
        [false, false] => match chasers() {
            [true, false] => RepetitionVerdict::PerpetualChase(side(0)),
            [false, true] => RepetitionVerdict::PerpetualChase(side(1)),
            _ => RepetitionVerdict::Draw,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(checked: [bool; 2], chasing: [bool; 2]) -> RepetitionVerdict<usize> {
        judge_repetition(checked, || chasing, |i| i)
    }

    #[test]
    fn a_lone_checker_loses_whatever_the_chases() {
        for chasing in [[false, false], [true, false], [false, true], [true, true]] {
            assert_eq!(
                verdict([true, false], chasing),
                RepetitionVerdict::PerpetualCheck(0)
            );
            assert_eq!(
                verdict([false, true], chasing),
                RepetitionVerdict::PerpetualCheck(1)
            );
            assert_eq!(verdict([true, true], chasing), RepetitionVerdict::Draw);
        }
    }

    #[test]
    fn without_checks_a_lone_chaser_loses() {
        assert_eq!(
            verdict([false; 2], [true, false]),
            RepetitionVerdict::PerpetualChase(0)
        );
        assert_eq!(
            verdict([false; 2], [false, true]),
            RepetitionVerdict::PerpetualChase(1)
        );
        assert_eq!(verdict([false; 2], [true, true]), RepetitionVerdict::Draw);
        assert_eq!(verdict([false; 2], [false, false]), RepetitionVerdict::Draw);
    }

    #[test]
    fn chases_are_not_looked_at_when_a_check_decides() {
        let verdict = judge_repetition([true, false], || panic!("asked for chases"), |i| i);
        assert_eq!(verdict, RepetitionVerdict::PerpetualCheck(0));
    }
}
