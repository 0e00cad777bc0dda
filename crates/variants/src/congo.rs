//! Congo (`congo`): animals on a 7x7 board with a river; the monkey's capture chains,
//! drowning, the lion's face-off; see `docs/rules/congo.md`.
//!
//! Congo has no check and a compound capture move, so it has its own position type; the
//! regular pieces still come from Betza through the shared tables (zone-dependent moves give
//! the crocodile's slides towards and along the river and the pawn's backward steps beyond
//! it).

use crate::family;
use chaturanga_geometry::{Cell, CellSet, GeometryBuilder};
use chaturanga_rules::PieceStyle;
use chaturanga_rules::board::{Board, no_more_fields, read_counters, read_turn};
use chaturanga_rules::legend::{Mark, MarkKind, MarkMode, MoveDiagram};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::standard::{
    FenError, MAX_FEN_LEN, SetupError, SetupProblem, Spec, SpecBuilder, SpecError,
    board_evaluation, parse_board, pieces_text, scene_men, write_board,
};
use chaturanga_rules::{
    DrawRules, MoveError, MoveValue, OptionSpec, Outcome, Piece, Player, Position, Reason,
    RuleOptions, Ruleset,
};
use std::sync::OnceLock;

const LION: u8 = 0;
const CROCODILE: u8 = 3;
const MONKEY: u8 = 5;
const PAWN: u8 = 6;
const SUPERPAWN: u8 = 7;
const KINDS: usize = 8;

/// Most jumps one monkey chain can make (each takes a different enemy piece).
const MAX_JUMPS: usize = 16;

/// The start position.
pub const START_FEN: &str = "gmelecn/ppppppp/7/7/7/PPPPPPP/GMELECN w 0 1";

const LION_CASTLE: OptionSpec = OptionSpec::switch(
    "lion-castle",
    "off",
    "on: the lion may not leave its 3x3 castle (standard Congo), except for the face-off capture",
).explained("Lion's castle", &[("on", "The lion may not leave its 3x3 castle, except to take the other lion face to face (standard Congo)"), ("off", "The lion may go anywhere on its own side")]);

fn block(x0: i32, x1: i32, y0: i32, y1: i32) -> Vec<(i32, i32)> {
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
        .collect()
}

/// Rows counted from each player's own back rank (0) to the far one (6).
fn own_row(row: i32) -> Vec<Vec<(i32, i32)>> {
    vec![block(0, 6, row, row), block(0, 6, 6 - row, 6 - row)]
}

/// The eight king directions.
const KING_DIRECTIONS: [(i8, i8); 8] = [
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The crocodile's picture. Its zone Betza is by row (how far the river is), which would
/// draw a mark per row; the picture says it by side instead: along its file towards the
/// river from either side (at most three cells: from the back row into the river), along
/// the river in it.
fn crocodile_diagram() -> Result<MoveDiagram, SpecError> {
    let file = |dy: i8, side: &str| Mark::new(0, dy, MarkKind::Slide).in_zone(side);
    let river = |dx: i8| Mark::new(dx, 0, MarkKind::Slide).in_zone("river");
    family::diagram(
        "K",
        [
            file(2, "own-side"),
            file(3, "own-side"),
            file(-2, "far-side"),
            file(-3, "far-side"),
            river(-2),
            river(-3).continuing(),
            river(2),
            river(3).continuing(),
        ],
    )
}

/// The monkey's picture: its steps, and the cells it lands on capturing the man it jumps
/// (the first jump of a chain).
fn monkey_diagram() -> Result<MoveDiagram, SpecError> {
    family::diagram(
        "mK",
        KING_DIRECTIONS
            .map(|(dx, dy)| Mark::new(2 * dx, 2 * dy, MarkKind::Hop).only(MarkMode::Capture)),
    )
}

fn build_spec(castle: bool) -> Result<Spec<1>, SpecError> {
    let river: Vec<(i32, i32)> = (0..7).map(|x| (x, 3)).collect();
    let mut builder = GeometryBuilder::rectangle(7, 7)
        .water(&river)
        .region("own-side", vec![block(0, 6, 0, 2), block(0, 6, 4, 6)])
        .region("castle", vec![block(2, 4, 0, 2), block(2, 4, 4, 6)])
        .region("river", vec![block(0, 6, 3, 3), block(0, 6, 3, 3)])
        .region("far-side", vec![block(0, 6, 4, 6), block(0, 6, 0, 2)])
        .region("last-rank", own_row(6));
    for row in 0..7 {
        builder = builder.region(&format!("row{row}"), own_row(row));
    }
    let geometry = builder.build().map_err(family::board_error)?;
    let lion_area = if castle { "castle" } else { "own-side" };
    // The crocodile slides along its file towards the river (up to and including it) and,
    // in the river, along the river.
    let crocodile_zones = [
        ("row0", "KfR3"),
        ("row1", "KfR2"),
        ("row2", "K"),
        ("row3", "KsR"),
        ("row4", "K"),
        ("row5", "KbR2"),
        ("row6", "KbR3"),
    ];
    // Words for the legend: the face-off, the river slides and the monkey's chains are code,
    // and the zone Betza would read as a list of rows.
    let lion_words = if castle {
        "one step in any direction inside its own 3x3 castle; captures the enemy lion at any distance along an open file or diagonal (face-off)"
    } else {
        "one step in any direction, never into the river; captures the enemy lion at any distance along an open file or diagonal (face-off)"
    };
    // The lion's diagram is its king steps: the face-off takes only the enemy lion, and a
    // capture mark along the lines would offer every man, so the words say it.
    let pieces = vec![
        family::piece("L", "lion", "K")?
            .royal()
            .confined(lion_area)
            .in_words(lion_words),
        family::piece("G", "giraffe", "mKDA")?.in_words(
            "one step in any direction without capturing, or a leap of two in any of the 8 directions, moving or capturing",
        ),
        family::piece("E", "elephant", "WD")?
            .in_words("one or two cells orthogonally, leaping over the first"),
        family::zoned_piece("C", "crocodile", "K", &crocodile_zones)?
            .in_words(
                "one step in any direction; also slides along its file towards the river, into it, and in the river along it; never drowns",
            )
            .with_diagram(crocodile_diagram()?),
        family::piece("N", "zebra", "N")?.in_words("leaps like a chess knight"),
        family::piece("M", "monkey", "mK")?
            .in_words(
                "one step in any direction without capturing; captures by jumping over an adjacent enemy to the empty cell beyond, and may chain such jumps in one move",
            )
            .with_diagram(monkey_diagram()?),
        family::zoned_piece("P", "pawn", "fWfF", &[("far-side", "fWfFbmWbmnD")])?.in_words(
            "one step forward or diagonally forward; beyond the river also one or two cells straight back without capturing or jumping; becomes a superpawn on the last rank",
        ),
        family::piece("S", "superpawn", "fWfFsWbmWbmFbmnDbmnA")?.in_words(
            "one step forward, diagonally forward or sideways; also one or two cells straight or diagonally back without capturing or jumping",
        ),
    ];
    let options = RuleOptions::parse(
        &[LION_CASTLE],
        &[if castle {
            "lion-castle=on"
        } else {
            "lion-castle=off"
        }],
    )
    .map_err(|e| SpecError::Size(e.to_string()))?;
    let mut b = SpecBuilder::new("congo", geometry)
        .style(PieceStyle::Congo)
        .options(options)
        .draw_rules(DrawRules {
            repetition: Some((3, Reason::ThreefoldRepetition)),
            repetition_claim: None,
            quiet_plies: Some((100, Reason::NoProgress)),
            quiet_plies_claim: None,
            ply_cap: None,
        });
    for p in pieces {
        b = b.piece(p);
    }
    b.start(START_FEN).values(VALUES).build()
}

/// Piece values in centipawns. Congo has no published table: these are estimates from the
/// pieces' mobility on the 7x7 board, the monkey raised for its multi-captures and the
/// crocodile for its river slides, the superpawn for its backward and sideways moves.
const VALUES: &[(&str, i32)] = &[
    ("G", 320),
    ("E", 300),
    ("C", 400),
    ("N", 300),
    ("M", 420),
    ("P", 100),
    ("S", 260),
];

/// The compiled ruleset for an option set (built once per setting).
fn spec(castle: bool) -> Result<&'static Spec<1>, SetupError> {
    static SPECS: OnceLock<Result<[Spec<1>; 2], SpecError>> = OnceLock::new();
    let specs = SPECS.get_or_init(|| Ok([build_spec(false)?, build_spec(true)?]));
    match specs {
        Ok(specs) => Ok(&specs[castle as usize]),
        Err(e) => Err(SetupError::Spec(e.clone())),
    }
}

/// A Congo move: a step or leap, or a monkey's capture chain (its landing cells).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CongoMove {
    /// Start cell.
    pub from: Cell,
    /// Final cell.
    pub to: Cell,
    /// Landing cells of a monkey's capture chain, in order (`to` is the last); empty for
    /// every other move.
    landings: [u8; MAX_JUMPS],
    jumps: u8,
}

impl CongoMove {
    fn simple(from: Cell, to: Cell) -> Self {
        CongoMove {
            from,
            to,
            landings: [0; MAX_JUMPS],
            jumps: 0,
        }
    }

    /// The landing cells of a monkey chain.
    pub fn landings(&self) -> impl Iterator<Item = Cell> + '_ {
        self.landings[..self.jumps as usize]
            .iter()
            .map(|&c| Cell(c as u16))
    }

    /// Whether this is a monkey's capture chain.
    pub fn is_monkey_capture(&self) -> bool {
        self.jumps > 0
    }
}

/// A Congo position.
#[derive(Clone, Debug)]
pub struct CongoPosition {
    spec: &'static Spec<1>,
    board: Board<1, 2, KINDS>,
}

impl CongoPosition {
    fn region(&self, name: &str, player: Player) -> CellSet<1> {
        self.spec
            .geometry
            .region(name)
            .map(|r| CellSet::from_cells(r.cells[player as usize].iter().copied()))
            .unwrap_or_default()
    }

    fn river(&self) -> CellSet<1> {
        self.region("river", 0)
    }

    /// The piece on `cell`.
    pub fn piece_at(&self, cell: Cell) -> Piece {
        self.board.piece_at(cell)
    }

    fn occupied(&self) -> CellSet<1> {
        self.board.occupied()
    }

    fn put(&mut self, cell: Cell, piece: Piece) {
        self.board.put(&self.spec.zobrist, cell, piece);
    }

    fn take(&mut self, cell: Cell) -> Piece {
        self.board.take(&self.spec.zobrist, cell)
    }

    fn lion(&self, player: Player) -> Option<Cell> {
        (self.board.of_kind(LION) & self.board.of_player(player)).first()
    }

    /// Whether the two lions face each other along an open line.
    fn lions_face(&self) -> bool {
        let (Some(a), Some(b)) = (self.lion(0), self.lion(1)) else {
            return false;
        };
        match self.spec.geometry.between(a, b) {
            Some(cells) => cells.iter().all(|&c| self.piece_at(c).is_none()),
            None => false,
        }
    }

    /// Appends the capture chains of the monkey on `from`, continuing from `at`.
    fn monkey_chains(
        &self,
        from: Cell,
        at: Cell,
        jumped: CellSet<1>,
        landings: &mut Vec<u8>,
        moves: &mut Vec<CongoMove>,
    ) {
        let g = &self.spec.geometry;
        let them = 1 - self.board.turn();
        let enemy = self.board.of_player(them);
        // The start cell counts as empty; jumped pieces stay until the move ends.
        let occupied = self.occupied().without(CellSet::from_cell(from));
        let (x, y) = g.coords(at);
        for (dx, dy) in family::KING_STEPS {
            let (Some(over), Some(land)) = (g.at(x + dx, y + dy), g.at(x + 2 * dx, y + 2 * dy))
            else {
                continue;
            };
            if !enemy.contains(over) || jumped.contains(over) || occupied.contains(land) {
                continue;
            }
            if landings.len() == MAX_JUMPS {
                continue;
            }
            landings.push(land.0 as u8);
            let mut mv = CongoMove::simple(from, land);
            mv.landings[..landings.len()].copy_from_slice(landings);
            mv.jumps = landings.len() as u8;
            moves.push(mv);
            // Jumping the lion captures it and ends the move.
            if self.piece_at(over).kind() != LION {
                let mut more = jumped;
                more.insert(over);
                self.monkey_chains(from, land, more, landings, moves);
            }
            landings.pop();
        }
    }

    fn generate(&self, moves: &mut Vec<CongoMove>) {
        let us = self.board.turn();
        if self.lion(us).is_none() || self.lion(1 - us).is_none() {
            return;
        }
        let occupied = self.occupied();
        let empty = self.spec.cells.without(occupied);
        let enemy = self.board.of_player(1 - us);
        for from in self.board.of_player(us) {
            let kind = self.piece_at(from).kind();
            let (quiet, captures) = self
                .spec
                .moves
                .reach(us, kind, from, occupied, empty, enemy);
            for to in quiet | captures {
                moves.push(CongoMove::simple(from, to));
            }
            if kind == MONKEY {
                self.monkey_chains(from, from, CellSet::EMPTY, &mut Vec::new(), moves);
            }
        }
        if let (true, Some(ours), Some(theirs)) =
            (self.lions_face(), self.lion(us), self.lion(1 - us))
        {
            moves.push(CongoMove::simple(ours, theirs));
        }
    }

    /// Reads a Congo FEN: board, side to move, plies without progress, move number.
    pub fn from_fen(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong(fen.len()).into());
        }
        let spec = spec(options.is_on("lion-castle"))?;
        let mut fields = fen.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let pieces = parse_board(spec, board)?;
        let turn = read_turn(fields.next(), "w", "b")?;
        let (quiet_plies, fullmove) = read_counters(&mut fields)?;
        no_more_fields(fields)?;
        let mut position = CongoPosition {
            spec,
            board: Board::empty(spec.zobrist.turn[0]),
        };
        for (cell, piece) in pieces {
            position.put(cell, piece);
        }
        position.board.set_turn(&spec.zobrist, turn);
        position.board.quiet_plies = quiet_plies;
        position.board.fullmove = fullmove;
        let mut problems = Vec::new();
        for player in 0..2u8 {
            let lions = position.board.of_kind(LION) & position.board.of_player(player);
            if lions.more_than_one() {
                problems.push(SetupProblem::TooManyRoyals(player));
            }
            let area = position.region(
                if options.is_on("lion-castle") {
                    "castle"
                } else {
                    "own-side"
                },
                player,
            );
            // Only the face-off capture takes a lion out of its area, and it ends the game.
            let enemy_lion = position.board.of_kind(LION) & position.board.of_player(1 - player);
            if lions.without(area).any() && enemy_lion.any() {
                problems.push(SetupProblem::Other(format!(
                    "player {}'s lion is outside its area",
                    player + 1
                )));
            }
            let last = position.region("last-rank", player);
            if (position.board.of_kind(PAWN) & position.board.of_player(player)).intersects(last) {
                problems.push(SetupProblem::Other(
                    "unpromoted pawn on the last rank".into(),
                ));
            }
        }
        if position.lion(0).is_none() && position.lion(1).is_none() {
            problems.push(SetupProblem::MissingRoyal(0));
            problems.push(SetupProblem::MissingRoyal(1));
        }
        if !problems.is_empty() {
            return Err(SetupError::Invalid(problems));
        }
        Ok(position)
    }
}

impl Position for CongoPosition {
    type Move = CongoMove;

    fn side_to_move(&self) -> usize {
        self.board.turn() as usize
    }

    fn legal_moves(&self, moves: &mut Vec<CongoMove>) {
        self.generate(moves);
    }

    fn play_unchecked(&mut self, mv: CongoMove) {
        let us = self.board.turn();
        let river = self.river();
        let crocodiles = self.board.of_kind(CROCODILE);
        let in_river_at_start = self.board.of_player(us) & river & !crocodiles;
        let mut progress = false;
        if mv.is_monkey_capture() {
            let mut stops = vec![mv.from];
            stops.extend(mv.landings());
            let monkey = self.take(mv.from);
            for pair in stops.windows(2) {
                let g = &self.spec.geometry;
                let (a, b) = (g.coords(pair[0]), g.coords(pair[1]));
                if let Some(over) = g.at((a.0 + b.0) / 2, (a.1 + b.1) / 2) {
                    self.take(over);
                }
            }
            self.put(mv.to, monkey);
            progress = true;
            // The monkey rule: two consecutive stops in the river drown it.
            if stops
                .windows(2)
                .any(|p| river.contains(p[0]) && river.contains(p[1]))
            {
                self.take(mv.to);
            }
            for cell in in_river_at_start.without(CellSet::from_cell(mv.from)) {
                self.take(cell);
            }
        } else {
            if self.piece_at(mv.to).is_some() {
                self.take(mv.to);
                progress = true;
            }
            let mut piece = self.take(mv.from);
            if piece.kind() == PAWN && self.region("last-rank", us).contains(mv.to) {
                piece = Piece::new(us, SUPERPAWN);
                progress = true;
            }
            self.put(mv.to, piece);
            for cell in in_river_at_start {
                // A piece that started in the river drowns unless this move took it out.
                let still_there = if cell == mv.from {
                    river.contains(mv.to)
                } else {
                    true
                };
                if still_there {
                    let at = if cell == mv.from { mv.to } else { cell };
                    self.take(at);
                    progress = true;
                }
            }
        }
        self.board.quiet_plies = if progress {
            0
        } else {
            self.board.quiet_plies + 1
        };
        if us == 1 {
            self.board.fullmove += 1;
        }
        self.board.set_turn(&self.spec.zobrist, 1 - us);
    }

    fn player_name(&self, player: usize) -> &'static str {
        ["white", "black"][player]
    }

    fn scene(&self, _viewer: Viewer) -> Scene {
        Scene::single(scene_men(self.spec, |cell| self.piece_at(cell)))
    }

    fn legend(&self) -> chaturanga_rules::Legend {
        chaturanga_rules::Legend::of_pieces(self.spec.style, &self.spec.pieces)
    }

    /// A monkey's capture chain passes through its landing cells.
    fn move_shape(&self, mv: CongoMove) -> MoveShape {
        let g = &self.spec.geometry;
        let mut via: Vec<String> = if mv.is_monkey_capture() {
            mv.landings().map(|c| g.label(c).to_string()).collect()
        } else {
            Vec::new()
        };
        via.pop();
        MoveShape {
            from: Some(g.label(mv.from).to_string()),
            to: Some(g.label(mv.to).to_string()),
            via,
            ..MoveShape::default()
        }
    }

    fn diagram(&self) -> String {
        let board = pieces_text(self.spec, |cell| self.piece_at(cell));
        format!(
            "{board}{} to move\n",
            self.player_name(self.board.turn() as usize)
        )
    }

    fn evaluate(&self, player: usize) -> i32 {
        board_evaluation(self.spec, &self.board, player as Player, self.board.turn())
    }

    fn move_value(&self, mv: CongoMove) -> MoveValue {
        let values = &self.spec.eval.values;
        let mover = self.piece_at(mv.from).kind();
        let mut gain = 0;
        if mv.is_monkey_capture() {
            let g = &self.spec.geometry;
            let mut from = mv.from;
            for to in mv.landings() {
                let (a, b) = (g.coords(from), g.coords(to));
                if let Some(over) = g.at((a.0 + b.0) / 2, (a.1 + b.1) / 2) {
                    gain += values[self.piece_at(over).kind() as usize];
                }
                from = to;
            }
        } else {
            let target = self.piece_at(mv.to);
            if target.is_some() {
                gain += values[target.kind() as usize];
            }
            if mover == PAWN && self.region("last-rank", self.board.turn()).contains(mv.to) {
                gain += values[SUPERPAWN as usize] - values[PAWN as usize];
            }
        }
        MoveValue {
            gain,
            mover: values[mover as usize],
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn is_check(&self) -> bool {
        false
    }

    fn outcome_without_moves(&self) -> Outcome {
        let mover = self.board.turn() as usize;
        if self.lion(self.board.turn()).is_none() {
            Outcome::loss(2, mover, Reason::RoyalCaptured)
        } else if self.lion(1 - self.board.turn()).is_none() {
            Outcome::win(2, mover, Reason::RoyalCaptured)
        } else {
            Outcome::loss(2, mover, Reason::NoLegalMoves)
        }
    }

    fn decided_outcome(&self) -> Option<Outcome> {
        let lions = self.board.of_kind(LION);
        if self.occupied() != lions || lions.count() != 2 {
            return None;
        }
        Some(if self.lions_face() {
            Outcome::win(2, self.board.turn() as usize, Reason::OnlyLions)
        } else {
            Outcome::draw(2, Reason::OnlyLions)
        })
    }

    fn quiet_plies(&self) -> u32 {
        self.board.quiet_plies
    }

    fn draw_rules(&self) -> DrawRules {
        self.spec.draw_rules
    }

    fn move_number(&self) -> u32 {
        self.board.fullmove
    }

    fn fen(&self) -> String {
        format!(
            "{} {} {} {}",
            write_board(self.spec, |c| self.piece_at(c)),
            if self.board.turn() == 0 { 'w' } else { 'b' },
            self.board.quiet_plies,
            self.board.fullmove
        )
    }

    fn move_text(&self, mv: CongoMove) -> String {
        let g = &self.spec.geometry;
        let mut text = g.label(mv.from).to_string();
        if mv.is_monkey_capture() {
            for c in mv.landings() {
                text.push_str(g.label(c));
            }
        } else {
            text.push_str(g.label(mv.to));
        }
        text
    }

    fn parse_move(&self, text: &str) -> Result<CongoMove, MoveError> {
        // Accept the readable forms with `-` or `x` between cells too.
        let compact: String = text.chars().filter(|&c| c != '-' && c != 'x').collect();
        if compact.len() < 4 || compact.len() > 3 * (MAX_JUMPS + 1) || !compact.is_ascii() {
            return Err(MoveError::Malformed(excerpt(text)));
        }
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
            .into_iter()
            .find(|&m| self.move_text(m) == compact)
            .ok_or_else(|| MoveError::Illegal(excerpt(text)))
    }
}

impl Ruleset for CongoPosition {
    const ID: &'static str = "congo";

    fn option_specs() -> &'static [OptionSpec] {
        &[LION_CASTLE]
    }

    const START_FEN: Option<&'static str> = Some(START_FEN);

    fn from_fen_with(options: &RuleOptions, fen: &str) -> Result<Self, SetupError> {
        Self::from_fen(options, fen)
    }
}
