//! What happened in a game: the events a decision stores and every viewer is sent.

use crate::store::EventRow;
use chaturanga_rules::Reason;
use serde::Serialize;
use serde_json::Value;

/// Why a game was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbortReason {
    /// A player aborted it before every side had moved.
    ByPlayer,
    /// A player resigned, offered a draw or aborted before every seat was claimed.
    BeforeStart,
    /// A side did not make its first move in time (or did not come).
    NoFirstMove,
    /// Whoever created a game of engines only stopped it.
    ByOwner,
    /// Its open seats waited for a player while those who had claimed theirs were away
    /// (a seek nobody took).
    NobodyCame,
}

/// One event of a game (`{"t": type, "v": version, "d": data}` on the wire).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "kebab-case")]
pub enum Event {
    /// The game was created (`secret`: how many options stay hidden until the end).
    Created {
        /// The ruleset.
        variant: String,
        /// Hidden options.
        secret: usize,
    },
    /// A seat was claimed.
    Join {
        /// The seat.
        seat: usize,
    },
    /// A seat's player came to the game for the first time.
    Arrive {
        /// The seat.
        seat: usize,
    },
    /// A move (a whole turn `a;b` is one event).
    Move {
        /// Its text.
        #[serde(rename = "move")]
        text: String,
        /// The ply it was played at.
        ply: usize,
        /// Who played it.
        seat: usize,
    },
    /// Moves were taken back: `ply` moves are kept.
    Takeback {
        /// Moves kept.
        ply: usize,
    },
    /// A draw was offered (or agreed, short of everyone).
    DrawOffer {
        /// Who.
        seat: usize,
    },
    /// The draw offered was refused.
    DrawDecline {
        /// Who.
        seat: usize,
    },
    /// A takeback was asked for.
    TakebackOffer {
        /// Who.
        seat: usize,
    },
    /// The takeback was refused.
    TakebackDecline {
        /// Who.
        seat: usize,
    },
    /// A ruleset action waits for a seat's consent.
    ActionOffer {
        /// Who asked.
        seat: usize,
        /// The action.
        action: String,
        /// Who must consent.
        consent: usize,
    },
    /// The ruleset action was refused.
    ActionDecline {
        /// Who.
        seat: usize,
    },
    /// A seat resigned.
    Resign {
        /// Who.
        seat: usize,
    },
    /// Everyone agreed a draw.
    Draw {
        /// The last to agree.
        seat: usize,
    },
    /// The player to move claimed a draw the rules allow.
    DrawClaim {
        /// Who.
        seat: usize,
    },
    /// A ruleset action was taken.
    Action {
        /// Who.
        seat: usize,
        /// The action.
        action: String,
    },
    /// Flags fell.
    Flag {
        /// The first of them.
        seat: usize,
        /// Every seat whose flag fell.
        seats: Vec<usize>,
    },
    /// The game ended without a result.
    Abort {
        /// Who aborted it (none when the server did).
        seat: Option<usize>,
        /// Why.
        reason: AbortReason,
    },
    /// A seat's player left the game in progress long enough for the others to claim it.
    Gone {
        /// The seat.
        seat: usize,
    },
    /// A seat's player who had left came back.
    Back {
        /// The seat.
        seat: usize,
    },
    /// A side claimed a game another side left (`claim-victory` or `call-draw`).
    Claim {
        /// Who claimed.
        seat: usize,
        /// What.
        claim: &'static str,
        /// The seats that had left.
        gone: Vec<usize>,
    },
    /// A rematch was asked for (or agreed, short of everyone).
    RematchOffer {
        /// Who.
        seat: usize,
    },
    /// The rematch was refused.
    RematchDecline {
        /// Who.
        seat: usize,
    },
    /// Everyone agreed a rematch: the new game, and each seat's seat in it (the same tokens
    /// play there).
    Rematch {
        /// The new game's id.
        game: String,
        /// For each seat here, its seat there.
        seats: Vec<usize>,
    },
    /// The game ended with a result.
    End {
        /// The result (`1-0`).
        result: String,
        /// Why.
        reason: &'static str,
        /// Each player's score in quarter points.
        scores: Vec<u8>,
    },
}

impl Event {
    /// The end of a game with `quarters` for `reason`.
    pub fn end(result: String, reason: Reason, scores: Vec<u8>) -> Event {
        Event::End {
            result,
            reason: reason.as_str(),
            scores,
        }
    }

    /// The event as stored, with its version and the one seat that may see its data.
    pub fn row(&self, v: u64, only_seat: Option<usize>) -> EventRow {
        let mut value = serde_json::to_value(self).unwrap_or(Value::Null);
        let t = match value.get("t") {
            Some(Value::String(t)) => t.clone(),
            _ => String::new(),
        };
        let data = value
            .get_mut("d")
            .map(Value::take)
            .unwrap_or(Value::Null)
            .to_string();
        EventRow {
            v,
            t,
            data,
            only_seat,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_keep_their_stored_names_and_data() {
        let row = Event::Move {
            text: "e2e4".into(),
            ply: 0,
            seat: 0,
        }
        .row(2, None);
        assert_eq!(row.t, "move");
        assert_eq!(
            serde_json::from_str::<Value>(&row.data).unwrap(),
            serde_json::json!({"move": "e2e4", "ply": 0, "seat": 0})
        );
        let row = Event::Abort {
            seat: None,
            reason: AbortReason::NoFirstMove,
        }
        .row(3, None);
        let data = |row: &EventRow| serde_json::from_str::<Value>(&row.data).unwrap();
        assert_eq!(row.t, "abort");
        assert_eq!(
            data(&row),
            serde_json::json!({"seat": null, "reason": "no-first-move"})
        );
        let row = Event::end("1-0".into(), Reason::TimeForfeit, vec![4, 0]).row(4, Some(1));
        assert_eq!(row.t, "end");
        assert_eq!(
            data(&row),
            serde_json::json!({"result": "1-0", "reason": "time-forfeit", "scores": [4, 0]})
        );
        assert_eq!(row.only_seat, Some(1));
        assert_eq!(
            Event::TakebackDecline { seat: 1 }.row(5, None).t,
            "takeback-decline"
        );
    }
}
