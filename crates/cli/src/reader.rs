//! One reader of typed moves for every ruleset, with errors that say what is wrong.
//!
//! A move is read, in order, as: the ruleset's coordinate text; the position's own reading
//! of it (`c18-c16` in Gess, bughouse's `A:e2e4`); each of the ruleset's notations
//! (xiangqi's WXF, shogi's KIF and CSA, bughouse's record SAN); SAN where the ruleset has
//! it; and the coordinate text again in any case and with `-`, `x`, `=` or spaces left in or
//! out, and a drop written with `@` or `*` either way, when that fits one legal move only.
//! A compound turn's parts may be given at once, separated by `;` or spaces.
//!
//! Text that reads as none of them is *malformed* when it is not a move of this board at
//! all, and *illegal* when it names cells (or a drop, or SAN) of the board that no legal
//! move fits; then the error says why, from the scene the viewer sees and the legal moves'
//! shapes: a promotion to be named (`a7a8` -> `a7a8q`), a reserve without that piece, the
//! man on the start cell belonging to the other side, where the man can go, which part of
//! the turn is due.

use chaturanga_notation::san;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::scene::{MoveShape, Scene, Viewer};
use chaturanga_rules::{MoveError, Position};
use std::collections::HashMap;
use std::fmt;

/// The most alternatives an error lists.
const MAX_LISTED: usize = 12;

/// Why a text is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Not a move of this ruleset in any notation it reads.
    Malformed(String),
    /// A move of this board that the rules do not allow here.
    Illegal(String),
    /// Several legal moves fit.
    Ambiguous(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Malformed(m) => write!(f, "malformed move {m}"),
            ReadError::Illegal(m) => write!(f, "illegal move {m}"),
            ReadError::Ambiguous(m) => write!(f, "ambiguous move {m}"),
        }
    }
}

/// Reads a whole line: one move, or a compound turn's parts (separated by `;`, or by spaces
/// where the line is not one move), each legal after the ones before it and all of them the
/// same player's.
pub fn read_line<P: Position>(
    position: &P,
    viewer: Viewer,
    text: &str,
) -> Result<Vec<P::Move>, ReadError> {
    let text = text.trim();
    let parts: Vec<&str> = if text.contains(';') {
        text.split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect()
    } else {
        match read_move(position, viewer, text) {
            Ok(mv) => return Ok(vec![mv]),
            Err(e) if !text.contains(char::is_whitespace) => return Err(e),
            Err(e) => {
                let words: Vec<&str> = text.split_whitespace().collect();
                // Spaces inside one move (`e2 e4`, `P * 5e`) or moves of a turn.
                if read_move(position, viewer, words[0]).is_err() {
                    return Err(e);
                }
                words
            }
        }
    };
    let mover = position.side_to_move();
    let mut at = position.clone();
    let mut moves = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 && at.side_to_move() != mover {
            return Err(ReadError::Illegal(format!(
                "{}: the turn is over after {}",
                quoted(part),
                quoted(parts[i - 1])
            )));
        }
        let mv = read_move(&at, viewer, part).map_err(|e| {
            if parts.len() == 1 {
                return e;
            }
            let prefix = format!("(part {} of the turn) ", i + 1);
            match e {
                ReadError::Malformed(m) => ReadError::Malformed(format!("{prefix}{m}")),
                ReadError::Illegal(m) => ReadError::Illegal(format!("{prefix}{m}")),
                ReadError::Ambiguous(m) => ReadError::Ambiguous(format!("{prefix}{m}")),
            }
        })?;
        at.play_unchecked(mv);
        moves.push(mv);
    }
    if moves.is_empty() {
        return Err(ReadError::Malformed(quoted(text)));
    }
    Ok(moves)
}

/// `text` in quotes, cut for a message.
fn quoted(text: &str) -> String {
    format!("{:?}", excerpt(text))
}

/// The text compared loosely: lower case, no `-`, `x`, `=` or spaces, drops with `@`.
fn loose(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | '=' | ' '))
        .map(|c| if c == '*' { '@' } else { c })
        .collect()
}

/// Reads one move (one part of a turn) and says why not where it cannot.
pub fn read_move<P: Position>(
    position: &P,
    viewer: Viewer,
    text: &str,
) -> Result<P::Move, ReadError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ReadError::Malformed("\"\": type a move".to_string()));
    }
    if text.len() > 64 {
        return Err(ReadError::Malformed(format!(
            "{}...: too long",
            quoted(text)
        )));
    }
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    if let Some(&mv) = legal.iter().find(|&&m| position.move_text(m) == text) {
        return Ok(mv);
    }
    if let Ok(mv) = position.parse_move(text)
        && legal.contains(&mv)
    {
        return Ok(mv);
    }
    // A notation that reads the text but finds no legal move makes it illegal, not
    // malformed.
    let mut understood: Option<&str> = None;
    for &notation in position.notations() {
        match position.read_move(notation, text) {
            Ok(mv) if legal.contains(&mv) => return Ok(mv),
            Ok(_) | Err(MoveError::Illegal(_)) | Err(MoveError::Ambiguous(_)) => {
                understood.get_or_insert(notation);
            }
            Err(_) => {}
        }
    }
    let has_san = legal.iter().any(|&m| position.describe(m).is_some());
    if has_san {
        match san::parse_san(position, text) {
            Ok(mv) if legal.contains(&mv) => return Ok(mv),
            Err(MoveError::Ambiguous(_)) => {
                return Err(ReadError::Ambiguous(format!(
                    "{}: it fits {}",
                    quoted(text),
                    listed(&san_rivals(position, &legal, text))
                )));
            }
            _ => {}
        }
    }
    let wanted = loose(text);
    let fits: Vec<P::Move> = legal
        .iter()
        .copied()
        .filter(|&m| loose(&position.move_text(m)) == wanted)
        .collect();
    match fits.len() {
        1 => return Ok(fits[0]),
        0 => {}
        _ => {
            let texts: Vec<String> = fits.iter().map(|&m| position.move_text(m)).collect();
            return Err(ReadError::Ambiguous(format!(
                "{}: it fits {}",
                quoted(text),
                listed(&texts)
            )));
        }
    }
    Err(Diagnosis::new(position, viewer, &legal).explain(text, understood, has_san))
}

/// Up to [`MAX_LISTED`] texts joined (`a, b or c`).
fn listed(texts: &[String]) -> String {
    let mut shown: Vec<&str> = texts.iter().take(MAX_LISTED).map(String::as_str).collect();
    if texts.len() > MAX_LISTED {
        shown.push("...");
    }
    match shown.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// The SAN of every legal move to the destination an ambiguous SAN text names.
fn san_rivals<P: Position>(position: &P, legal: &[P::Move], text: &str) -> Vec<String> {
    let body = text.trim_end_matches(['+', '#', '!', '?']);
    legal
        .iter()
        .filter(|&&m| {
            position
                .describe(m)
                .is_some_and(|d| body.contains(d.to.as_str()))
        })
        .filter_map(|&m| san::to_san(position, m).ok())
        .filter(|s| {
            let piece = |t: &str| t.chars().next().filter(char::is_ascii_uppercase);
            piece(s) == piece(body)
        })
        .collect()
}

/// What an error can say about a position: the scene the viewer sees and the legal moves'
/// shapes.
struct Diagnosis<'a, P: Position> {
    position: &'a P,
    scene: Scene,
    legal: Vec<(P::Move, MoveShape)>,
    /// Board labels by their lower-case form.
    labels: HashMap<String, String>,
    /// The board the legal moves are on.
    board: usize,
}

impl<'a, P: Position> Diagnosis<'a, P> {
    fn new(position: &'a P, viewer: Viewer, legal: &[P::Move]) -> Self {
        let scene = position.scene(viewer);
        let legal: Vec<(P::Move, MoveShape)> =
            legal.iter().map(|&m| (m, position.move_shape(m))).collect();
        let board = legal.first().map_or(0, |(_, s)| s.board);
        let labels = scene
            .boards
            .get(board)
            .map(|b| {
                let g = b.shape.geometry();
                g.cells()
                    .map(|c| (g.label(c).to_lowercase(), g.label(c).to_string()))
                    .collect()
            })
            .unwrap_or_default();
        Diagnosis {
            position,
            scene,
            legal,
            labels,
            board,
        }
    }

    fn mover(&self) -> &'static str {
        self.position.player_name(self.position.side_to_move())
    }

    fn text_of(&self, mv: P::Move) -> String {
        self.position.move_text(mv)
    }

    /// The cells a lower-case text starts with, longest first.
    fn label_prefixes<'t>(&self, text: &'t str) -> Vec<(String, &'t str)> {
        let mut found: Vec<(String, &'t str)> = self
            .labels
            .iter()
            .filter_map(|(lower, label)| {
                text.strip_prefix(lower.as_str())
                    .map(|rest| (label.clone(), rest))
            })
            .collect();
        found.sort_by_key(|(label, _)| std::cmp::Reverse(label.len()));
        found
    }

    /// The text as two or more cells and a short suffix (a promotion, a split).
    fn cells_of(&self, text: &str) -> Option<(Vec<String>, String)> {
        fn walk<P: Position>(
            d: &Diagnosis<P>,
            text: &str,
            cells: &mut Vec<String>,
        ) -> Option<(Vec<String>, String)> {
            if cells.len() >= 2 && text.chars().count() <= 3 {
                return Some((cells.clone(), text.to_string()));
            }
            for (label, rest) in d.label_prefixes(text) {
                cells.push(label);
                if let Some(found) = walk(d, rest, cells) {
                    return Some(found);
                }
                cells.pop();
            }
            None
        }
        let compact: String = text
            .to_lowercase()
            .chars()
            .filter(|c| !matches!(c, '-' | ' ' | '=' | 'x' | ':'))
            .collect();
        walk(self, &compact, &mut Vec::new())
    }

    /// The man the viewer sees on `label`: (piece, owner).
    fn man_on(&self, label: &str) -> Option<(&str, usize)> {
        self.scene.boards.get(self.board).and_then(|b| {
            b.men
                .iter()
                .find(|m| m.cell == label)
                .map(|m| (m.piece.as_str(), m.owner))
        })
    }

    /// A piece's name from the legend (`knight`), or its symbol.
    fn piece_name(&self, symbol: &str) -> String {
        self.position
            .legend()
            .get(symbol)
            .map_or_else(|| symbol.to_string(), |k| k.name.clone())
    }

    /// What the turn's part is, where the legal moves say (`the push`).
    fn part_hint(&self) -> String {
        let mut parts: Vec<&str> = self.legal.iter().filter_map(|(_, s)| s.part).collect();
        parts.dedup();
        match (parts.as_slice(), self.legal.first()) {
            ([part], Some(&(mv, _))) => format!(
                "; this part of {}'s turn is the {part}, e.g. {}",
                self.mover(),
                self.text_of(mv)
            ),
            _ => String::new(),
        }
    }

    fn explain(&self, text: &str, understood: Option<&str>, has_san: bool) -> ReadError {
        let shown = quoted(text);
        if self.legal.is_empty() {
            return ReadError::Illegal(format!("{shown}: {} has no legal move", self.mover()));
        }
        let hint = self.part_hint();
        let drop = text.replace('*', "@");
        if let Some((piece, cell)) = drop.split_once('@') {
            let cell = cell.trim().to_lowercase();
            if let Some(label) = self.labels.get(&cell) {
                return ReadError::Illegal(format!(
                    "{shown}: {}{hint}",
                    self.drop_problem(piece.trim(), label)
                ));
            }
        }
        if let Some((cells, suffix)) = self.cells_of(text) {
            return ReadError::Illegal(format!(
                "{shown}: {}{hint}",
                self.path_problem(&cells, &suffix)
            ));
        }
        // SAN, or the ruleset's SAN-like notation (bughouse's record SAN).
        if let Some(problem) = self.san_problem(text, has_san || understood.is_some()) {
            return problem;
        }
        if let Some(notation) = understood {
            return ReadError::Illegal(format!("{shown} ({notation}): no legal move fits{hint}"));
        }
        ReadError::Malformed(format!("{shown}: {}", self.how_to_write(has_san)))
    }

    /// Why no legal drop is `piece` on `label`.
    fn drop_problem(&self, piece: &str, label: &str) -> String {
        let mover = self.position.side_to_move();
        let drops: Vec<&(P::Move, MoveShape)> = self
            .legal
            .iter()
            .filter(|(_, s)| s.drop.is_some() && s.from.is_none())
            .collect();
        let reserve: Vec<&str> = self
            .scene
            .boards
            .get(self.board)
            .map(|b| {
                b.hands
                    .iter()
                    .filter(|h| h.owner == mover && h.count > 0)
                    .map(|h| h.piece.as_str())
                    .collect()
            })
            .unwrap_or_default();
        if drops.is_empty() && reserve.is_empty() {
            return format!("{} has nothing to drop", self.mover());
        }
        let same = |s: &MoveShape| {
            s.drop
                .as_deref()
                .is_some_and(|d| d.eq_ignore_ascii_case(piece))
        };
        let of_piece: Vec<&&(P::Move, MoveShape)> = drops.iter().filter(|(_, s)| same(s)).collect();
        if of_piece.is_empty() {
            let held = if reserve.is_empty() {
                "nothing".to_string()
            } else {
                reserve.join(" ")
            };
            if reserve.iter().any(|r| r.eq_ignore_ascii_case(piece)) {
                return format!("{piece} cannot be dropped anywhere now");
            }
            return format!("{} has no {piece} to drop (holds {held})", self.mover());
        }
        let cells: Vec<String> = of_piece.iter().filter_map(|(_, s)| s.to.clone()).collect();
        let example = self.text_of(of_piece[0].0);
        format!(
            "{piece} cannot be dropped on {label}; it may go to {} (written {example})",
            listed(&cells)
        )
    }

    /// Why no legal move goes along `cells` (with `suffix`).
    fn path_problem(&self, cells: &[String], suffix: &str) -> String {
        let from = &cells[0];
        let to = &cells[cells.len() - 1];
        let same_path: Vec<String> = self
            .legal
            .iter()
            .filter(|(_, s)| s.from.as_ref() == Some(from) && s.to.as_ref() == Some(to))
            .map(|&(m, _)| self.text_of(m))
            .collect();
        if !same_path.is_empty() {
            let promotes = self.legal.iter().any(|(_, s)| {
                s.from.as_ref() == Some(from) && s.to.as_ref() == Some(to) && s.promotion.is_some()
            });
            let splits = self.legal.iter().any(|(_, s)| {
                s.from.as_ref() == Some(from) && s.to.as_ref() == Some(to) && s.split.is_some()
            });
            return if promotes && suffix.is_empty() {
                format!("a promotion: add the piece, {}", listed(&same_path))
            } else if promotes {
                format!("no promotion {suffix:?} here: {}", listed(&same_path))
            } else if splits && suffix.is_empty() {
                // Were the whole tower's move legal, the text would have read as it.
                format!(
                    "the whole tower cannot go to {to}; say how many men move: {}",
                    listed(&same_path)
                )
            } else if !suffix.is_empty() {
                // A suffix the move does not take (`b1c3/2` where only the whole tower
                // can go): say what is written instead.
                format!(
                    "not with {suffix:?}: from {from} to {to} is {}",
                    listed(&same_path)
                )
            } else {
                format!("say which: {}", listed(&same_path))
            };
        }
        let from_here: Vec<String> = self
            .legal
            .iter()
            .filter(|(_, s)| s.from.as_ref() == Some(from))
            .filter_map(|(_, s)| s.to.clone())
            .fold(Vec::new(), |mut v, t| {
                if !v.contains(&t) {
                    v.push(t);
                }
                v
            });
        let mover = self.position.side_to_move();
        let check = if self.position.is_check() {
            format!(" ({} is in check)", self.mover())
        } else {
            String::new()
        };
        match self.man_on(from) {
            _ if !from_here.is_empty() => {
                let what = match self.man_on(from) {
                    Some((piece, _)) => format!("the {} on {from}", self.piece_name(piece)),
                    None => format!("a move from {from}"),
                };
                format!("{what} goes to {} here{check}", listed(&from_here))
            }
            None => format!("{from} is empty"),
            Some((piece, owner)) if owner != mover => format!(
                "the {} on {from} is {}'s, and {} is to move",
                self.piece_name(piece),
                self.position.player_name(owner),
                self.mover()
            ),
            Some((piece, _)) => {
                format!(
                    "the {} on {from} has no legal move{check}",
                    self.piece_name(piece)
                )
            }
        }
    }

    /// Text shaped like SAN (`Nf3`, `exd5`, `O-O`): illegal where the ruleset has SAN,
    /// malformed with the way to write moves where it has none.
    fn san_problem(&self, text: &str, has_san: bool) -> Option<ReadError> {
        let body = text.trim_end_matches(['+', '#', '!', '?']);
        let castling = matches!(body, "O-O" | "O-O-O" | "0-0" | "0-0-0");
        let destination = (0..body.len())
            .filter(|&i| body.is_char_boundary(i))
            .find_map(|i| {
                let rest = body[i..].to_lowercase();
                // The destination, then perhaps a promotion (`=Q`, `Q`, `+`).
                self.label_prefixes(&rest)
                    .into_iter()
                    .find(|(_, after)| after.len() <= 2)
                    .map(|(label, _)| (i, label))
            });
        let shaped = castling
            || destination.as_ref().is_some_and(|(i, _)| {
                let i = *i;
                let head = &body[..i];
                head.len() <= 4
                    && head
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, 'x' | '+' | '\''))
                    && head.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            });
        if !shaped {
            return None;
        }
        let shown = quoted(text);
        if !has_san {
            return Some(ReadError::Malformed(format!(
                "{shown}: this ruleset has no SAN; {}",
                self.how_to_write(false)
            )));
        }
        let hint = self.part_hint();
        if castling {
            return Some(ReadError::Illegal(format!(
                "{shown}: {} cannot castle that way now{hint}",
                self.mover()
            )));
        }
        let (i, label) = destination?;
        let letter: String = body[..i]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '+' || *c == '\'')
            .collect();
        let piece = if letter.is_empty() {
            "pawn".to_string()
        } else {
            self.piece_name(&letter)
        };
        Some(ReadError::Illegal(format!(
            "{shown}: no {piece} of {}'s can go to {label}{hint}",
            self.mover()
        )))
    }

    /// How moves are written here, with examples from the legal moves.
    fn how_to_write(&self, has_san: bool) -> String {
        let mut ways = Vec::new();
        if let Some(&(mv, _)) = self
            .legal
            .iter()
            .find(|(_, s)| s.from.is_some() && s.to.is_some())
            .or_else(|| self.legal.first())
        {
            ways.push(format!("as cells, e.g. {}", self.text_of(mv)));
            if has_san && let Ok(written) = san::to_san(self.position, mv) {
                ways.push(format!("SAN, e.g. {written}"));
            }
            for &notation in self.position.notations() {
                if let Some(written) = self.position.write_move(notation, mv) {
                    ways.push(format!("{notation}, e.g. {written}"));
                }
            }
        }
        if let Some(&(mv, _)) = self.legal.iter().find(|(_, s)| s.drop.is_some()) {
            ways.push(format!("a drop, e.g. {}", self.text_of(mv)));
        }
        format!("write a move {}", listed(&ways).replace(" or ", ", or "))
    }
}
