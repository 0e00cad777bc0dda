//! Positions drawn from a player's view (determinization), so that the engine can search Dark
//! Chess through what the player knows: the choices are in `docs/rules/darkchess.md` (Decisions)
//! and `docs/decisions.md` (Engine).
//!
//! Everything here is computed from the text
//! [`Position::player_view`](chaturanga_rules::Position::player_view) wrote for the player
//! to move, and from the rules: no true position is at hand. A drawn position
//!
//! - has the player's men, the visible cells and his own castling and en passant rights as
//!   the view shows them;
//! - has the opponent's unseen men on dark cells: the men the player accounts for (the
//!   view's `enemy-men`, which are those of the start less his captures) minus the enemy men
//!   he sees, where a seen man of a kind he accounts for no more of (an unseen promotion)
//!   takes the place of one of the pawns;
//! - gives the opponent every castling right that its king and rook on their start cells
//!   allow (he may have kept them: the pessimistic guess) and no en passant right (only the
//!   player to move has one);
//! - gives the player exactly the view he has: the fog FEN of the drawn position for him is
//!   the view's, which is checked for every drawn position (a draw that fails is retried).
//!
//! Dark cells are not all alike: a dark cell in front of one of the player's pawns must hold
//! an enemy man (were it empty, the pawn could step there and it would be seen), and a dark
//! cell diagonally in front of one of his pawns cannot (the pawn could take it). Unseen men are
//! placed with a preference for their start cells and the opponent's half of the board, which
//! is where they most often are.

use super::{DarkChessParts, DarkChessPosition, KINDS, KING, PAWN, START_FEN};
use chaturanga_rules::geometry::{Cell, CellSet};
use chaturanga_rules::standard::{MAX_FEN_LEN, Rules, Spec, spec_for};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Kind, Piece, Player, RuleOptions, ViewError};

/// Positions drawn before giving up on a view.
const TRIES: usize = 64;
/// Weight of an unseen man's own start cell when it is placed.
const HOME_WEIGHT: u64 = 30;
/// Weight of a cell in the opponent's half of the board.
const ENEMY_HALF_WEIGHT: u64 = 3;
/// Weights of the kinds chosen to fill a cell that must hold an enemy man: most often that is
/// a pawn blocking a pawn.
const BLOCKER_PAWN_WEIGHT: u64 = 8;
const BLOCKER_PIECE_WEIGHT: u64 = 2;
const BLOCKER_KING_WEIGHT: u64 = 1;

/// What the view shows on a cell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    Empty,
    Dark,
    Man(Piece),
}

/// A view as read from its text.
struct ParsedView {
    /// The fog FEN line, compared with each drawn position's view.
    fen: String,
    /// Per cell index.
    cells: Vec<Seen>,
    /// The player whose view it is: the player to move.
    player: Player,
    /// His castling letters, en passant field, clock and move number.
    castling: String,
    en_passant: String,
    halfmove: u32,
    fullmove: u32,
    /// The opponent's men he accounts for, by kind.
    enemy_men: [u32; KINDS],
}

/// Cells whose content the view constrains beyond "dark".
struct Constraints {
    /// Dark cells that must hold an enemy man.
    forced: Vec<Cell>,
    /// Dark cells that cannot hold one.
    no_enemy: CellSet<1>,
    /// Cells where no pawn may stand (first and last ranks).
    no_pawn: CellSet<1>,
    /// The opponent's half of the board.
    enemy_half: CellSet<1>,
    /// The start cells of each of the opponent's kinds.
    homes: [CellSet<1>; KINDS],
}

fn malformed(what: &str) -> ViewError {
    ViewError::Malformed(what.to_string())
}

/// A position drawn at random among those that agree with `view` (see the module comment).
pub(super) fn determinize(
    view: &str,
    rng: &mut SplitMix64,
) -> Result<DarkChessPosition, ViewError> {
    let options = RuleOptions::parse::<&str>(DarkChessParts::option_specs(), &[])
        .map_err(|e| ViewError::NoFit(e.to_string()))?;
    let spec = spec_for::<1, KINDS, DarkChessParts>(&options)
        .map_err(|e| ViewError::NoFit(e.to_string()))?;
    let parsed = parse(spec, view)?;
    let hidden = hidden_men(&parsed)?;
    let constraints = constraints(spec, &options, &parsed)?;
    for _ in 0..TRIES {
        let Some(fen) = draw(spec, &parsed, &hidden, &constraints, rng) else {
            continue;
        };
        if let Ok(position) = DarkChessPosition::from_fen(&options, &fen)
            && position.view_fen(parsed.player) == parsed.fen
        {
            return Ok(position);
        }
    }
    Err(ViewError::NoFit(format!(
        "no position found in {TRIES} tries"
    )))
}

fn kind_of(spec: &Spec<1>, letter: char) -> Option<Kind> {
    spec.pieces
        .iter()
        .position(|p| p.symbol.len() == 1 && p.symbol.eq_ignore_ascii_case(&letter.to_string()))
        .map(|k| k as Kind)
}

fn parse(spec: &Spec<1>, view: &str) -> Result<ParsedView, ViewError> {
    if view.len() > 4 * MAX_FEN_LEN {
        return Err(malformed("too long"));
    }
    let mut lines = view.lines();
    let fen = lines.next().ok_or_else(|| malformed("empty"))?.trim();
    let mut enemy_letters = None;
    for line in lines {
        let (word, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        match word {
            "enemy-men" => enemy_letters = Some(rest.trim()),
            "result" => return Err(ViewError::NoFit("the game is over".to_string())),
            _ => {}
        }
    }
    let enemy_letters = enemy_letters.ok_or_else(|| malformed("no enemy-men line"))?;
    let fields: Vec<&str> = fen.split(' ').collect();
    let [board, side, castling, en_passant, halfmove, fullmove] = fields[..] else {
        return Err(malformed("the FEN needs six fields"));
    };
    let player: Player = match side {
        "w" => 0,
        "b" => 1,
        _ => return Err(malformed("side to move")),
    };
    let number = |t: &str| t.parse::<u32>().map_err(|_| malformed("move counters"));
    let g = &spec.geometry;
    let rows = g.rows_from_top();
    let texts: Vec<&str> = board.split('/').collect();
    if texts.len() != rows.len() {
        return Err(malformed("number of rows"));
    }
    let mut cells = vec![Seen::Dark; g.cells().count()];
    for (row, text) in rows.iter().zip(texts) {
        let mut tokens = Vec::new();
        let mut run = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                if run > row.len() {
                    return Err(malformed("row too long"));
                }
                continue;
            }
            tokens.extend(std::iter::repeat_n(Seen::Empty, run));
            run = 0;
            tokens.push(match c {
                '*' => Seen::Dark,
                _ => {
                    let kind = kind_of(spec, c).ok_or_else(|| malformed("unknown piece"))?;
                    let owner = if c.is_ascii_uppercase() { 0 } else { 1 };
                    Seen::Man(Piece::new(owner, kind))
                }
            });
        }
        tokens.extend(std::iter::repeat_n(Seen::Empty, run));
        if tokens.len() != row.len() {
            return Err(malformed("row length"));
        }
        for (point, seen) in row.iter().zip(tokens) {
            match point {
                Some(cell) => cells[cell.index()] = seen,
                None if seen == Seen::Dark => {}
                None => return Err(malformed("a man off the board")),
            }
        }
    }
    let mut enemy_men = [0u32; KINDS];
    if enemy_letters != "-" {
        for c in enemy_letters.chars() {
            let kind = kind_of(spec, c).ok_or_else(|| malformed("unknown enemy man"))?;
            enemy_men[kind as usize] += 1;
        }
    }
    Ok(ParsedView {
        fen: fen.to_string(),
        cells,
        player,
        castling: castling.to_string(),
        en_passant: en_passant.to_string(),
        halfmove: number(halfmove)?,
        fullmove: number(fullmove)?,
        enemy_men,
    })
}

/// The opponent's unseen men, by kind (king first, pawns last).
fn hidden_men(view: &ParsedView) -> Result<Vec<Kind>, ViewError> {
    let enemy = 1 - view.player;
    let mut seen = [0i64; KINDS];
    for cell in &view.cells {
        if let Seen::Man(p) = cell
            && p.player() == enemy
        {
            seen[p.kind() as usize] += 1;
        }
    }
    let mut hidden = [0i64; KINDS];
    for kind in 0..KINDS {
        hidden[kind] = i64::from(view.enemy_men[kind]) - seen[kind];
    }
    // A seen man beyond those accounted for was promoted unseen: one pawn fewer.
    for kind in 0..KINDS {
        if kind != PAWN as usize && hidden[kind] < 0 {
            hidden[PAWN as usize] += hidden[kind];
            hidden[kind] = 0;
        }
    }
    if hidden[PAWN as usize] < 0 {
        return Err(ViewError::NoFit(
            "more enemy men seen than accounted for".to_string(),
        ));
    }
    if seen[KING as usize] + hidden[KING as usize] != 1 {
        return Err(ViewError::NoFit("the enemy must have one king".to_string()));
    }
    let mut men = Vec::new();
    for kind in (0..KINDS).rev() {
        men.extend(std::iter::repeat_n(kind as Kind, hidden[kind] as usize));
    }
    Ok(men)
}

fn region(spec: &Spec<1>, name: &str, player: Player) -> CellSet<1> {
    let mut set = CellSet::EMPTY;
    if let Some(r) = spec.geometry.region(name)
        && let Some(cells) = r.cells.get(player as usize)
    {
        for &c in cells {
            set.insert(c);
        }
    }
    set
}

fn constraints(
    spec: &Spec<1>,
    options: &RuleOptions,
    view: &ParsedView,
) -> Result<Constraints, ViewError> {
    let g = &spec.geometry;
    let us = view.player;
    let enemy = 1 - us;
    let dark = |c: Option<Cell>| c.filter(|c| view.cells[c.index()] == Seen::Dark);
    let empty = |c: Option<Cell>| c.is_some_and(|c| view.cells[c.index()] == Seen::Empty);
    let rank_y = |set: CellSet<1>| set.iter().next().map(|c| g.coords(c).1);
    let back = region(spec, "back-rank", us);
    let start = region(spec, "pawn-start", us);
    let (Some(back_y), Some(start_y)) = (rank_y(back), rank_y(start)) else {
        return Err(ViewError::NoFit("board without pawn ranks".to_string()));
    };
    let forward = (start_y - back_y).signum();
    let mut forced = Vec::new();
    let mut no_enemy = CellSet::EMPTY;
    for (index, seen) in view.cells.iter().enumerate() {
        let Seen::Man(p) = *seen else { continue };
        if p.player() != us || p.kind() != PAWN {
            continue;
        }
        let (x, y) = g.coords(Cell(index as u16));
        let ahead = g.at(x, y + forward);
        if let Some(c) = dark(ahead) {
            forced.push(c);
        } else if empty(ahead)
            && start.contains(Cell(index as u16))
            && let Some(c) = dark(g.at(x, y + 2 * forward))
        {
            forced.push(c);
        }
        for dx in [-1, 1] {
            if let Some(c) = dark(g.at(x + dx, y + forward)) {
                no_enemy.insert(c);
            }
        }
    }
    if forced.iter().any(|&c| no_enemy.contains(c)) {
        return Err(ViewError::NoFit(
            "a dark cell both ahead of and beside a pawn".to_string(),
        ));
    }
    let no_pawn = region(spec, "back-rank", 0)
        | region(spec, "back-rank", 1)
        | region(spec, "promotion", 0)
        | region(spec, "promotion", 1);
    let enemy_back_y = rank_y(region(spec, "back-rank", enemy)).unwrap_or(back_y);
    let half = (g.rows_from_top().len() / 2) as i32;
    let mut enemy_half = CellSet::EMPTY;
    for c in g.cells() {
        if (g.coords(c).1 - enemy_back_y).abs() < half {
            enemy_half.insert(c);
        }
    }
    let mut homes = [CellSet::EMPTY; KINDS];
    let start_position = DarkChessPosition::from_fen(options, START_FEN)
        .map_err(|e| ViewError::NoFit(e.to_string()))?;
    let board = start_position.board();
    for c in board.pieces_of(enemy).iter() {
        homes[board.piece_at(c).kind() as usize].insert(c);
    }
    Ok(Constraints {
        forced,
        no_enemy,
        no_pawn,
        enemy_half,
        homes,
    })
}

/// Picks an index by weight; `None` when every weight is zero.
fn pick(weights: &[u64], rng: &mut SplitMix64) -> Option<usize> {
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut at = rng.below(total);
    for (i, &w) in weights.iter().enumerate() {
        if at < w {
            return Some(i);
        }
        at -= w;
    }
    None
}

/// One drawn position as a FEN, or `None` when the men did not fit.
fn draw(
    spec: &Spec<1>,
    view: &ParsedView,
    hidden: &[Kind],
    constraints: &Constraints,
    rng: &mut SplitMix64,
) -> Option<String> {
    let enemy = 1 - view.player;
    let mut board: Vec<Option<Piece>> = view
        .cells
        .iter()
        .map(|s| match *s {
            Seen::Man(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut men = hidden.to_vec();
    for &cell in &constraints.forced {
        if board[cell.index()].is_some() {
            continue;
        }
        let weights: Vec<u64> = men
            .iter()
            .map(|&k| match k {
                PAWN if constraints.no_pawn.contains(cell) => 0,
                PAWN => BLOCKER_PAWN_WEIGHT,
                KING => BLOCKER_KING_WEIGHT,
                _ => BLOCKER_PIECE_WEIGHT,
            })
            .collect();
        let i = pick(&weights, rng)?;
        board[cell.index()] = Some(Piece::new(enemy, men.remove(i)));
    }
    for kind in men {
        let cells: Vec<Cell> = spec
            .geometry
            .cells()
            .filter(|&c| {
                view.cells[c.index()] == Seen::Dark
                    && board[c.index()].is_none()
                    && !constraints.no_enemy.contains(c)
                    && !(kind == PAWN && constraints.no_pawn.contains(c))
            })
            .collect();
        let weights: Vec<u64> = cells
            .iter()
            .map(|&c| {
                1 + if constraints.enemy_half.contains(c) {
                    ENEMY_HALF_WEIGHT
                } else {
                    0
                } + if constraints.homes[kind as usize].contains(c) {
                    HOME_WEIGHT
                } else {
                    0
                }
            })
            .collect();
        let i = pick(&weights, rng)?;
        board[cells[i].index()] = Some(Piece::new(enemy, kind));
    }
    Some(write_fen(spec, view, &board))
}

fn write_fen(spec: &Spec<1>, view: &ParsedView, board: &[Option<Piece>]) -> String {
    let mut out = String::new();
    for (r, row) in spec.geometry.rows_from_top().iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for point in row {
            match point.and_then(|c| board[c.index()]) {
                None => run += 1,
                Some(piece) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    let symbol = &spec.pieces[piece.kind() as usize].symbol;
                    if piece.player() == 0 {
                        out.push_str(symbol);
                    } else {
                        out.push_str(&symbol.to_ascii_lowercase());
                    }
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    // The opponent's rights: all that his king and rooks at home allow (the reader drops
    // the others). His own: as the view says.
    let own: String = view
        .castling
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    let castling = if view.player == 0 {
        format!("{own}kq")
    } else {
        format!("KQ{own}")
    };
    format!(
        "{out} {} {castling} {} {} {}",
        if view.player == 0 { "w" } else { "b" },
        view.en_passant,
        view.halfmove,
        view.fullmove
    )
}
