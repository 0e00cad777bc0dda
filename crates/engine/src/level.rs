//! Strength levels 1 to 8: how much the engine searches, and how far it strays from the
//! best move it found.
//!
//! A level bounds one move's search (a depth or a node count, and a time cap for the
//! rulesets where nodes are slow), and below level 7 searches several lines
//! ([`Engine::set_multi_pv`]) and picks among them with noise, as Stockfish's skill levels
//! do: every line within the level's margin of the best gets a random bonus of up to the
//! level's noise, and the line with the highest score plus bonus is played. A won line
//! (a mate found) is always kept. The noise and the margin shrink as the level rises; level
//! 8 is the full engine within its budget.
//!
//! | level | search per move | lines | noise | margin | time cap | nominal Elo |
//! |-------|-----------------|-------|-------|--------|----------|-------------|
//! | 1     | depth 1         | 8     | 300   | 500    | 1 s      | 600         |
//! | 2     | depth 2         | 6     | 200   | 350    | 1 s      | 900         |
//! | 3     | depth 3         | 5     | 120   | 200    | 1 s      | 1200        |
//! | 4     | depth 4         | 4     | 70    | 120    | 1 s      | 1450        |
//! | 5     | 70,000 nodes    | 3     | 35    | 60     | 2 s      | 1700        |
//! | 6     | 100,000 nodes   | 2     | 15    | 30     | 3 s      | 1900        |
//! | 7     | 500,000 nodes   | 1     | 0     | 0      | 5 s      | 2100        |
//! | 8     | 2,500,000 nodes | 1     | 0     | 0      | 8 s      | 2300        |
//!
//! Noise and margin are in centipawns. The nominal Elo only orders the levels for UCI's
//! `UCI_Elo` (`Level::from_elo`); it is not calibrated against rated players. Self-play
//! between adjacent levels is measured in `docs/performance.md` ("Levels"). A front end's
//! own limits still apply: the level takes the tighter of each bound, and under a clock the
//! clock plans the time (the level's time cap then does not apply).

use crate::{Engine, Limits, Sampling, Score, SearchInfo, SearchResult};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Game, Position};
use std::time::Duration;

/// One of the strength levels 1 (weakest) to 8 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// What one level is: its search bound, how many lines it weighs and how it strays.
struct Row {
    depth: Option<u32>,
    nodes: Option<u64>,
    cap_ms: u64,
    lines: usize,
    noise: i64,
    margin: i64,
    elo: u32,
}

const ROWS: [Row; 8] = [
    Row {
        depth: Some(1),
        nodes: None,
        cap_ms: 1_000,
        lines: 8,
        noise: 300,
        margin: 500,
        elo: 600,
    },
    Row {
        depth: Some(2),
        nodes: None,
        cap_ms: 1_000,
        lines: 6,
        noise: 200,
        margin: 350,
        elo: 900,
    },
    Row {
        depth: Some(3),
        nodes: None,
        cap_ms: 1_000,
        lines: 5,
        noise: 120,
        margin: 200,
        elo: 1200,
    },
    // A node count shared by four lines left each shallower than level 3's depth 3 (level 4
    // lost to level 3 in self-play with 4,000 nodes): a depth bound gives every line its
    // depth.
    Row {
        depth: Some(4),
        nodes: None,
        cap_ms: 1_000,
        lines: 4,
        noise: 70,
        margin: 120,
        elo: 1450,
    },
    Row {
        depth: None,
        nodes: Some(70_000),
        cap_ms: 2_000,
        lines: 3,
        noise: 35,
        margin: 60,
        elo: 1700,
    },
    Row {
        depth: None,
        nodes: Some(100_000),
        cap_ms: 3_000,
        lines: 2,
        noise: 15,
        margin: 30,
        elo: 1900,
    },
    Row {
        depth: None,
        nodes: Some(500_000),
        cap_ms: 5_000,
        lines: 1,
        noise: 0,
        margin: 0,
        elo: 2100,
    },
    Row {
        depth: None,
        nodes: Some(2_500_000),
        cap_ms: 8_000,
        lines: 1,
        noise: 0,
        margin: 0,
        elo: 2300,
    },
];

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level, the full engine within its budget.
    pub const MAX: Level = Level(8);

    /// Level `n`, clamped to 1-8.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(Self::MIN.0, Self::MAX.0))
    }

    /// The level's number, 1-8.
    pub fn number(self) -> u8 {
        self.0
    }

    fn row(self) -> &'static Row {
        &ROWS[usize::from(self.0 - 1)]
    }

    /// The limits of one move at this level with nothing else to bound it (the server's
    /// engine seats): its depth or node bound and its time cap.
    pub fn limits(self) -> Limits {
        self.bound(&Limits::default())
    }

    /// `limits` made no looser than this level's: the smaller depth and node bounds, and
    /// the time cap unless a clock plans the time or the search runs until stopped.
    pub fn bound(self, limits: &Limits) -> Limits {
        let row = self.row();
        let tighter = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut bound = *limits;
        bound.depth =
            tighter(limits.depth.map(u64::from), row.depth.map(u64::from)).map(|d| d as u32);
        bound.nodes = tighter(limits.nodes, row.nodes);
        if limits.clock.is_none() && !limits.infinite {
            let cap = Duration::from_millis(row.cap_ms);
            bound.move_time = Some(limits.move_time.map_or(cap, |t| t.min(cap)));
        }
        bound
    }

    /// How many lines the level searches to choose among (1: it plays the best).
    pub fn lines(self) -> usize {
        self.row().lines
    }

    /// The level's nominal Elo (see the module comment: it orders, it is not calibrated).
    pub fn elo(self) -> u32 {
        self.row().elo
    }

    /// The level for UCI's `Skill Level` (0-20, as Stockfish; below 0 is 0): 0 is level 1,
    /// 19 level 7, and 20 the full engine, `None`.
    pub fn from_skill(skill: i32) -> Option<Level> {
        let skill = skill.clamp(0, 20);
        (skill < 20).then(|| Level::new(1 + (skill * 7 / 20) as u8))
    }

    /// The strongest level whose nominal Elo is at most `elo` (level 1 below them all), for
    /// UCI's `UCI_LimitStrength` with `UCI_Elo`.
    pub fn from_elo(elo: u32) -> Level {
        (1..=8)
            .rev()
            .map(Level)
            .find(|level| level.elo() <= elo)
            .unwrap_or(Self::MIN)
    }

    /// Picks a move among `lines` (best first, each a score and its move): the best where the
    /// level searches one line or the best is a won line, else the line whose score plus a
    /// random bonus of up to the level's noise is highest among those within its margin.
    pub fn choose<M: Copy>(self, lines: &[(Score, M)], rng: &mut SplitMix64) -> Option<M> {
        let row = self.row();
        let (best, first) = *lines.first()?;
        if row.lines <= 1 || matches!(best, Score::Win { plies } if plies > 0) {
            return Some(first);
        }
        let top = value(best);
        let mut chosen = (i64::MIN, first);
        for &(score, mv) in lines {
            let v = value(score);
            if top - v > row.margin {
                continue;
            }
            let noisy = v + rng.below(row.noise as u64 + 1) as i64;
            if noisy > chosen.0 {
                chosen = (noisy, mv);
            }
        }
        Some(chosen.1)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A score on one scale: centipawns, wins above and losses below every centipawn score,
/// nearer ones further out.
fn value(score: Score) -> i64 {
    const WON: i64 = 1_000_000;
    match score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Win { plies } if plies >= 0 => WON - i64::from(plies),
        Score::Win { plies } => -WON - i64::from(plies),
    }
}

impl<P: Position> Engine<P> {
    /// Searches the game's position at `level` ([`Engine::search_hidden`] within the
    /// level's bounds of `limits`), searching the level's lines and choosing among them with
    /// noise from `seed` (see the module comment). `on_info` sees every line of every
    /// iteration. The result's move, score and line are the chosen line's.
    pub fn search_at_level(
        &mut self,
        game: &Game<P>,
        level: Level,
        limits: &Limits,
        sampling: &Sampling,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        let limits = level.bound(limits);
        let asked = self.multi_pv();
        self.set_multi_pv(asked.max(level.lines()));
        // The lines of the last iteration reported, best first.
        let mut lines: Vec<(u32, Score, Vec<P::Move>)> = Vec::new();
        let mut result = self.search_hidden(game, &limits, sampling, &mut |info| {
            if info.multipv == 1 {
                lines.clear();
            }
            if !info.pv.is_empty() {
                lines.push((info.depth, info.score, info.pv.clone()));
            }
            on_info(info);
        });
        self.set_multi_pv(asked);
        let depth = lines.first().map(|l| l.0);
        lines.retain(|l| Some(l.0) == depth);
        let scored: Vec<(Score, usize)> = lines.iter().enumerate().map(|(i, l)| (l.1, i)).collect();
        let mut rng = SplitMix64::new(seed);
        if let Some(i) = level.choose(&scored, &mut rng)
            && let Some((_, score, pv)) = lines.get(i)
            && result.best.is_some()
        {
            // A line from the report is a legal line of this position; the search's own
            // answer stands where none was reported (stopped at once).
            result.best = pv.first().copied();
            result.score = *score;
            result.pv = pv.clone();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_clamp_and_bound() {
        assert_eq!(Level::new(0), Level::MIN);
        assert_eq!(Level::new(99), Level::MAX);
        let one = Level::new(1).limits();
        assert_eq!(one.depth, Some(1));
        assert_eq!(one.move_time, Some(Duration::from_secs(1)));
        // A tighter front end's bound stays; a clock keeps planning the time.
        let given = Limits {
            nodes: Some(1_000),
            clock: Some(crate::Clock::default()),
            ..Limits::default()
        };
        let bound = Level::new(5).bound(&given);
        assert_eq!(bound.nodes, Some(1_000));
        assert_eq!(bound.move_time, None);
        assert_eq!(Level::new(8).bound(&Limits::nodes(10)).nodes, Some(10));
    }

    #[test]
    fn skill_and_elo_map_onto_levels() {
        assert_eq!(Level::from_skill(0), Some(Level::MIN));
        assert_eq!(Level::from_skill(-5), Some(Level::MIN));
        assert_eq!(Level::from_skill(19), Some(Level::new(7)));
        assert_eq!(Level::from_skill(20), None);
        let mut previous = Level::MIN;
        for skill in 0..20 {
            let level = Level::from_skill(skill).unwrap();
            assert!(level >= previous);
            previous = level;
        }
        assert_eq!(Level::from_elo(0), Level::MIN);
        assert_eq!(Level::from_elo(1200), Level::new(3));
        assert_eq!(Level::from_elo(5000), Level::MAX);
    }

    #[test]
    fn weak_levels_stray_strong_ones_do_not() {
        let lines = [
            (Score::Centipawns(50), 'a'),
            (Score::Centipawns(20), 'b'),
            (Score::Centipawns(-100), 'c'),
            (Score::Centipawns(-900), 'd'),
        ];
        let mut rng = SplitMix64::new(7);
        let picks = |level: u8, rng: &mut SplitMix64| {
            (0..400)
                .map(|_| Level::new(level).choose(&lines, rng).unwrap())
                .collect::<Vec<char>>()
        };
        let one = picks(1, &mut rng);
        assert!(one.contains(&'b') && one.contains(&'c'), "level 1 strays");
        assert!(!one.contains(&'d'), "never beyond the margin");
        let six = picks(6, &mut rng);
        assert!(six.iter().all(|&m| m == 'a' || m == 'b'));
        assert!(picks(8, &mut rng).iter().all(|&m| m == 'a'));
        // A mate found is always played.
        let mate = [(Score::Win { plies: 3 }, 'm'), (Score::Centipawns(10), 'x')];
        assert_eq!(Level::new(1).choose(&mate, &mut rng), Some('m'));
    }
}
