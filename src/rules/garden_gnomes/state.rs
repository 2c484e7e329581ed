//! The game state and the questions asked of it.
//!
//! The clans in play sit around the table in `clans` order (clockwise). With 3 to 6 players
//! clan `i` is seat `i`'s; in the 2-player variant the clans alternate between the two seats
//! (seat 0, seat 1, seat 0, …), each played separately.

use serde::{Deserialize, Serialize};

use super::Scoring;
use super::data::{Colour, Territory, Token, neighbours, territory_count};
use crate::rules::Seat;

/// A clan in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clan {
    /// The player running the clan.
    pub seat: Seat,
    /// Drawn at random during set-up (none until then).
    pub colour: Option<Colour>,
    /// Gnomes on each territory, indexed by territory number.
    pub gnomes: Vec<u8>,
    /// Objectives dealt and not yet kept (secret while choosing).
    pub offered: Vec<u16>,
    /// Objectives kept (secret to the clan's player until the game is over).
    pub kept: Vec<u16>,
    /// Objectives given up (secret: they would tell which were kept).
    pub discarded: Vec<u16>,
    /// Collected tokens, sorted, each kind once with its count.
    pub tokens: Vec<(Token, u8)>,
}

impl Clan {
    fn new(seat: Seat) -> Clan {
        Clan {
            seat,
            colour: None,
            gnomes: vec![0; territory_count()],
            offered: Vec::new(),
            kept: Vec::new(),
            discarded: Vec::new(),
            tokens: Vec::new(),
        }
    }

    pub fn gnomes_at(&self, t: Territory) -> u8 {
        self.gnomes.get(usize::from(t)).copied().unwrap_or(0)
    }

    pub fn on_board(&self) -> u32 {
        self.gnomes.iter().map(|&g| u32::from(g)).sum()
    }

    /// Gnomes not on the board: the clan's total less those on the board.
    pub fn reserve(&self) -> u8 {
        let total = self.colour.map_or(0, |c| c.card().gnomes);
        let on_board = u8::try_from(self.on_board()).unwrap_or(u8::MAX);
        total.saturating_sub(on_board)
    }

    pub fn add_gnomes(&mut self, t: Territory, n: u8) {
        if let Some(g) = self.gnomes.get_mut(usize::from(t)) {
            *g = g.saturating_add(n);
        }
    }

    pub fn remove_gnomes(&mut self, t: Territory, n: u8) {
        if let Some(g) = self.gnomes.get_mut(usize::from(t)) {
            *g = g.saturating_sub(n);
        }
    }

    /// Territories where the clan has gnomes, in map order.
    pub fn occupied(&self) -> Vec<Territory> {
        (0..self.gnomes.len())
            .filter(|&i| self.gnomes.get(i).is_some_and(|&g| g > 0))
            .filter_map(|i| u8::try_from(i).ok())
            .collect()
    }

    pub fn count(&self, token: Token) -> u8 {
        count(&self.tokens, token)
    }

    /// Gnome tokens of other colours: what hostage objectives need.
    pub fn hostages(&self) -> u32 {
        self.tokens
            .iter()
            .filter(|(t, _)| matches!(t, Token::Gnome(c) if Some(*c) != self.colour))
            .map(|&(_, n)| u32::from(n))
            .sum()
    }

    /// All gnome tokens, own colour included: what advanced scoring counts.
    pub fn gnome_tokens(&self) -> u32 {
        self.tokens
            .iter()
            .filter(|(t, _)| matches!(t, Token::Gnome(_)))
            .map(|&(_, n)| u32::from(n))
            .sum()
    }

    /// Whether the clan still has objectives to keep.
    pub fn choosing(&self, keep: u8) -> bool {
        !self.offered.is_empty() && self.kept.len() < usize::from(keep)
    }
}

/// One die thrown in a combat round, declared against a target clan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Die {
    pub attacker: Colour,
    pub target: Colour,
}

/// A battle in one territory: the current round's declared dice and their rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub territory: Territory,
    /// Which of the clans present (in turn order from the first player) declares now.
    pub declaring: usize,
    /// Declared dice, in declaration order; rolled in this order.
    pub dice: Vec<Die>,
    /// The rolls so far, one for each of the first dice.
    pub rolls: Vec<u8>,
    /// Combat rounds fought in this territory so far.
    pub round: u32,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Ending {
    pub winners: Vec<Seat>,
    /// Advanced scores by seat, when scores decided the game (null otherwise).
    pub scores: Option<Vec<i64>>,
    /// The clans that completed all their objectives.
    pub finished: Vec<Colour>,
    pub summary: String,
}

/// Where the game is. The engine rests only where a player or chance must act.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Set-up: a colour is drawn for the next clan without one.
    AssigningClans,
    /// Set-up: the first player token goes to a random clan.
    ChoosingFirstPlayer,
    /// Set-up: neutral objectives are dealt, one at a time, round-robin.
    DealingObjectives,
    /// Set-up: every player keeps objectives at the same time.
    ChoosingObjectives,
    /// The reinforcement phase with `"reinforcements":"choose"`: the clan `turn` places after
    /// the first player says how many gnomes it puts onto its home.
    Reinforcement {
        turn: usize,
    },
    /// The movement phase: the clan `turn` places after the first player moves; `moves` so far.
    Movement {
        turn: usize,
        moves: Vec<[Territory; 2]>,
    },
    Combat(Combat),
    Over(Ending),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub seats: usize,
    pub scoring: Scoring,
    /// Objectives each clan keeps.
    pub keep: u8,
    /// If set, the game also ends after this round (the `round_limit` option).
    pub round_limit: Option<u32>,
    /// Whether each clan decides how many reinforcements it puts on (else all of them).
    #[serde(default)]
    pub choose_reinforcements: bool,
    /// The rules edition (the `edition` option): 0 in games created before edition 1.
    #[serde(default)]
    pub edition: u32,
    pub clans: Vec<Clan>,
    /// The clan holding the first player token (index into `clans`).
    pub first: usize,
    /// Neutral objectives not yet dealt (unseen by all).
    pub neutral_deck: Vec<u16>,
    /// Tokens left in the supply, sorted, each kind once with its count.
    pub supply: Vec<(Token, u8)>,
    /// The round being played (0 during set-up).
    pub round: u32,
    pub phase: Phase,
}

impl State {
    pub fn new(
        seats: usize,
        clans: usize,
        scoring: Scoring,
        keep: u8,
        round_limit: Option<u32>,
    ) -> State {
        State {
            seats,
            scoring,
            keep,
            round_limit,
            choose_reinforcements: false,
            edition: 0,
            clans: (0..clans).map(|i| Clan::new(i % seats.max(1))).collect(),
            first: 0,
            neutral_deck: Vec::new(),
            supply: Vec::new(),
            round: 0,
            phase: Phase::AssigningClans,
        }
    }

    pub fn clan(&self, index: usize) -> Option<&Clan> {
        self.clans.get(index)
    }

    pub fn index_of(&self, colour: Colour) -> Option<usize> {
        self.clans.iter().position(|c| c.colour == Some(colour))
    }

    /// Clan indices in turn order, from the first player clockwise.
    pub fn turn_order(&self) -> Vec<usize> {
        let n = self.clans.len();
        (0..n).map(|k| (self.first + k) % n.max(1)).collect()
    }

    /// The clans with gnomes in `t`, in turn order.
    pub fn occupants(&self, t: Territory) -> Vec<usize> {
        self.turn_order()
            .into_iter()
            .filter(|&i| self.clan(i).is_some_and(|c| c.gnomes_at(t) > 0))
            .collect()
    }

    /// "You can only move through territories in which you already have Gnomes, or
    /// territories that are empty. Therefore it is possible to block off other players." A
    /// territory with another clan's gnomes in it is passable only if the clan has gnomes there
    /// now and had some there when its movement began: a blockade cannot be opened from inside
    /// one's own movement (ruling 9).
    pub fn passable(&self, clan: usize, t: Territory) -> bool {
        let others = self
            .clans
            .iter()
            .enumerate()
            .any(|(i, c)| i != clan && c.gnomes_at(t) > 0);
        let mine = self.clan(clan).is_some_and(|c| c.gnomes_at(t) > 0);
        !others || (mine && self.at_movement_start(clan, t) > 0)
    }

    /// The gnomes `clan` had in `t` when its movement began: for the moving clan the moves made
    /// since are undone; any other clan has not moved this turn.
    pub fn at_movement_start(&self, clan: usize, t: Territory) -> u8 {
        let now = self.clan(clan).map_or(0, |c| c.gnomes_at(t));
        let moves = match &self.phase {
            Phase::Movement { moves, .. } if self.mover() == Some(clan) => moves.as_slice(),
            _ => &[],
        };
        let left = moves.iter().filter(|[from, _]| *from == t).count();
        let arrived = moves.iter().filter(|[_, to]| *to == t).count();
        let left = u8::try_from(left).unwrap_or(u8::MAX);
        let arrived = u8::try_from(arrived).unwrap_or(u8::MAX);
        now.saturating_add(left).saturating_sub(arrived)
    }

    /// Where one gnome of `clan` in `from` may move to: any territory next to `from` or to a
    /// territory reachable from `from` through passable ones.
    pub fn destinations(&self, clan: usize, from: Territory) -> Vec<Territory> {
        let count = territory_count();
        let mut reached = vec![false; count];
        let mut destination = vec![false; count];
        let mut frontier = vec![from];
        if let Some(r) = reached.get_mut(usize::from(from)) {
            *r = true;
        }
        while let Some(t) = frontier.pop() {
            for &n in neighbours(t) {
                if let Some(d) = destination.get_mut(usize::from(n)) {
                    *d = true;
                }
                let Some(r) = reached.get_mut(usize::from(n)) else {
                    continue;
                };
                if !*r && self.passable(clan, n) {
                    *r = true;
                    frontier.push(n);
                }
            }
        }
        (0..count)
            .filter(|&i| destination.get(i).copied().unwrap_or(false))
            .filter_map(|i| u8::try_from(i).ok())
            .filter(|&t| t != from)
            .collect()
    }

    /// The clan moving now, in the movement phase.
    pub fn mover(&self) -> Option<usize> {
        match &self.phase {
            Phase::Movement { turn, .. } => self.turn_order().get(*turn).copied(),
            _ => None,
        }
    }

    /// The clan deciding its reinforcements now (with `"reinforcements":"choose"`).
    pub fn reinforcing(&self) -> Option<usize> {
        match &self.phase {
            Phase::Reinforcement { turn } => self.turn_order().get(*turn).copied(),
            _ => None,
        }
    }

    /// The most gnomes clan `i` may put onto its home now: its reinforcements, at most its
    /// reserve.
    pub fn reinforcements_due(&self, i: usize) -> u8 {
        self.clan(i).map_or(0, |c| {
            c.colour
                .map_or(0, |colour| colour.card().reinforcements.min(c.reserve()))
        })
    }

    /// The clan declaring targets now, in the combat phase.
    pub fn declarer(&self) -> Option<usize> {
        match &self.phase {
            Phase::Combat(combat) => self
                .occupants(combat.territory)
                .get(combat.declaring)
                .copied(),
            _ => None,
        }
    }

    /// The clan that must act now (reinforcing, moving or declaring), if any.
    pub fn acting_clan(&self) -> Option<usize> {
        self.reinforcing()
            .or_else(|| self.mover())
            .or_else(|| self.declarer())
    }

    /// The clan the next neutral objective is dealt to: round-robin from the first clan.
    pub fn deal_recipient(&self) -> Option<usize> {
        let dealt = |c: &Clan| {
            c.offered
                .iter()
                .filter(|&&id| super::data::objective(id).is_some_and(|o| o.clan.is_none()))
                .count()
        };
        let fewest = self.clans.iter().map(dealt).min()?;
        if fewest >= super::data::NEUTRAL_DEALT || self.neutral_deck.is_empty() {
            return None;
        }
        self.clans.iter().position(|c| dealt(c) == fewest)
    }

    /// Seats with a clan still keeping objectives.
    pub fn choosing_seats(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self
            .clans
            .iter()
            .filter(|c| c.choosing(self.keep))
            .map(|c| c.seat)
            .collect();
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    /// Dice of `clan` (a colour) not yet declared against a target this combat round.
    pub fn undeclared_dice(&self, combat: &Combat, clan: usize) -> u8 {
        let Some(c) = self.clan(clan) else { return 0 };
        let declared = combat
            .dice
            .iter()
            .filter(|d| Some(d.attacker) == c.colour)
            .count();
        let declared = u8::try_from(declared).unwrap_or(u8::MAX);
        c.gnomes_at(combat.territory).saturating_sub(declared)
    }
}

/// The count of `token` in a tally.
pub fn count(tally: &[(Token, u8)], token: Token) -> u8 {
    tally
        .iter()
        .find(|(t, _)| *t == token)
        .map_or(0, |&(_, n)| n)
}

/// Adds `n` of `token` to a sorted tally.
pub fn add(tally: &mut Vec<(Token, u8)>, token: Token, n: u8) {
    if n == 0 {
        return;
    }
    match tally.binary_search_by(|(t, _)| t.cmp(&token)) {
        Ok(i) => {
            if let Some((_, count)) = tally.get_mut(i) {
                *count = count.saturating_add(n);
            }
        }
        Err(i) => tally.insert(i, (token, n)),
    }
}

/// Takes one `token` from a tally; false if there is none.
pub fn take_one(tally: &mut Vec<(Token, u8)>, token: Token) -> bool {
    let Ok(i) = tally.binary_search_by(|(t, _)| t.cmp(&token)) else {
        return false;
    };
    match tally.get_mut(i) {
        Some((_, count)) if *count > 1 => {
            *count -= 1;
            true
        }
        Some(_) => {
            tally.remove(i);
            true
        }
        None => false,
    }
}
