//! What the referee is asked: commands from the seats, the engine and the passing of time.

use std::time::Duration;

/// One input of a game. Time is not part of it: every command is decided at an instant the
/// caller gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Claims an open human seat for the holder of a new token.
    Join {
        /// The seat.
        seat: usize,
        /// SHA-256 of the token, hex.
        token_hash: String,
    },
    /// A sign of life from a seat's player: any request made with its token, or a beat of an
    /// open socket (`socket`).
    Seen {
        /// The seat.
        seat: usize,
        /// Whether it comes from an open socket.
        socket: bool,
    },
    /// A person's move.
    Move {
        /// Who moves.
        seat: usize,
        /// The move, in any notation the ruleset reads, or a whole turn `a;b`.
        text: String,
        /// The ply it is meant for (a move for another ply is stale).
        ply: Option<usize>,
        /// How long the player says he thought (the rest of the turn is lag).
        thought: Option<Duration>,
        /// The network lag the server measured on the move's connection, if it did: no
        /// more than this (and a margin) is forgiven, whatever the client says.
        measured_lag: Option<Duration>,
    },
    /// The engine's move for its seat, found in the position at `ply`.
    EngineMove {
        /// The engine's seat.
        seat: usize,
        /// The ply its search started at.
        ply: usize,
        /// The move.
        text: String,
    },
    /// An action of a seat.
    Act {
        /// Who acts.
        seat: usize,
        /// The action.
        action: Action,
        /// What the action may need from the world (a rematch's id and secret options, and
        /// its date).
        fresh: Fresh,
    },
    /// Whoever created a game of engines only stops it (it ends without a result).
    Stop {
        /// SHA-256 of the token given at creation, hex.
        token_hash: String,
    },
    /// Time passed: flags, first-move windows and absences are judged.
    Tick,
}

/// What only the world gives, drawn by the caller for the referee, which reads none of it
/// itself: random bytes and the date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fresh {
    /// Random bytes of a new game's id.
    pub id: [u8; 12],
    /// A key of 256 random bits for each secret option a new game draws (Chex's draw order),
    /// in the ruleset's order. The operating system's randomness: a secret must not follow
    /// from anything a player sees, and 32 bits could be found by trying them all.
    pub secrets: [[u8; 32]; Fresh::SECRETS],
    /// Milliseconds since the Unix epoch.
    pub unix_ms: i64,
}

impl Fresh {
    /// The most secret options a ruleset may have (Chex has one).
    pub const SECRETS: usize = 2;
}

/// What a seat may do besides moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Gives up (two sides; with more, the ruleset's resignations in someone's favour).
    Resign,
    /// Offers a draw (every seat must agree).
    DrawOffer,
    /// Agrees to the draw offered.
    DrawAccept,
    /// Refuses the draw offered.
    DrawDecline,
    /// Claims a draw the rules allow now (the player to move).
    DrawClaim,
    /// Asks to take back one's last turn.
    TakebackOffer,
    /// Agrees to the other side's takeback.
    TakebackAccept,
    /// Refuses it.
    TakebackDecline,
    /// Ends the game without a result, before every side has moved.
    Abort,
    /// Asks for another game with the colours turned, once this one is over.
    RematchOffer,
    /// Agrees to the rematch asked for.
    RematchAccept,
    /// Refuses it.
    RematchDecline,
    /// Wins a game another side has left.
    ClaimVictory,
    /// Draws a game another side has left.
    CallDraw,
    /// Consents to a ruleset action waiting for this seat.
    ActionAccept,
    /// Refuses it.
    ActionDecline,
    /// One of the ruleset's own actions (shogi's impasse declaration, three-player chess's
    /// resignations in someone's favour).
    Ruleset(String),
}

impl Action {
    /// Reads an action's name; a name that is none of the common ones is taken as one of the
    /// ruleset's own, which the referee checks.
    pub fn parse(name: &str) -> Action {
        match name {
            "resign" => Action::Resign,
            "draw-offer" => Action::DrawOffer,
            "draw-accept" => Action::DrawAccept,
            "draw-decline" => Action::DrawDecline,
            "draw-claim" => Action::DrawClaim,
            "takeback-offer" => Action::TakebackOffer,
            "takeback-accept" => Action::TakebackAccept,
            "takeback-decline" => Action::TakebackDecline,
            "abort" => Action::Abort,
            "rematch-offer" => Action::RematchOffer,
            "rematch-accept" => Action::RematchAccept,
            "rematch-decline" => Action::RematchDecline,
            "claim-victory" => Action::ClaimVictory,
            "call-draw" => Action::CallDraw,
            "action-accept" => Action::ActionAccept,
            "action-decline" => Action::ActionDecline,
            other => Action::Ruleset(other.to_string()),
        }
    }
}
