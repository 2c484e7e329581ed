//! The game state and the questions asked of it. Piles are sorted multisets: nothing is ever
//! shuffled in advance, so the order of the deck or the bag carries no information.

use serde::{Deserialize, Serialize};

use super::data::{
    Card, Character, CharacterAction, Element, GEMS_PER_PLAYER, STARTING_LEVEL, Token, full_deck,
    starting_bag,
};
use crate::rules::Seat;

/// A face-up card or a kept element token: what the Trader swaps.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Card(Card),
    Token(Element),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub level: u8,
    /// Gems still in the player's supply on the board.
    pub gems: u8,
    /// Secret to everyone else. Sorted, so an index names the same card in the view.
    pub hand: Vec<Card>,
    /// Played cards, sorted.
    pub face_up: Vec<Card>,
    /// Kept element tokens, sorted.
    pub tokens: Vec<Element>,
    /// The character taken this round.
    pub character: Option<Character>,
    /// The space of the turn marker on the turn order track (none before it is placed).
    pub turn_marker: Option<u8>,
}

impl Player {
    fn new() -> Player {
        Player {
            level: STARTING_LEVEL,
            gems: GEMS_PER_PLAYER,
            hand: Vec::new(),
            face_up: Vec::new(),
            tokens: Vec::new(),
            character: None,
            turn_marker: None,
        }
    }

    /// Icons of `element` on face-up cards and kept tokens: what counts towards a set.
    pub fn icons(&self, element: Element) -> u32 {
        let cards: u32 = self
            .face_up
            .iter()
            .filter(|c| c.element == element)
            .map(|c| u32::from(c.icons))
            .sum();
        let tokens = self.tokens.iter().filter(|&&e| e == element).count();
        cards.saturating_add(u32::try_from(tokens).unwrap_or(u32::MAX))
    }

    /// Elements with enough icons for a set.
    pub fn completable(&self) -> Vec<Element> {
        Element::ALL
            .into_iter()
            .filter(|&e| self.icons(e) >= e.set_size())
            .collect()
    }

    /// The distinct face-up cards and tokens, each once.
    pub fn items(&self) -> Vec<Item> {
        let mut items: Vec<Item> = self.face_up.iter().map(|&c| Item::Card(c)).collect();
        items.extend(self.tokens.iter().map(|&e| Item::Token(e)));
        items.dedup();
        items
    }

    pub fn has_items(&self) -> bool {
        !self.face_up.is_empty() || !self.tokens.is_empty()
    }

    pub fn remove_item(&mut self, item: Item) -> bool {
        match item {
            Item::Card(card) => take(&mut self.face_up, &card),
            Item::Token(element) => take(&mut self.tokens, &element),
        }
    }

    pub fn add_item(&mut self, item: Item) {
        match item {
            Item::Card(card) => put(&mut self.face_up, card),
            Item::Token(element) => put(&mut self.tokens, element),
        }
    }
}

/// Where the game is. The engine rests only where a player or chance must act.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Set-up: cards are dealt one at a time, round-robin by seat.
    Dealing,
    /// Set-up: turn markers are drawn one at a time for spaces 1, 2, ...
    PlacingMarkers,
    /// The current player chooses a character.
    ChoosingCharacter,
    /// The current player performs action number `action` of their character;
    /// `done` counts what it has drawn or played so far.
    Acting {
        action: usize,
        done: u8,
    },
    /// The Trader's trade (action number `action`): pick a partner, what to take, what to give.
    Trading {
        action: usize,
        partner: Option<Seat>,
        take: Option<Item>,
    },
    /// After the actions: turn in a set or end the turn.
    TurningIn,
    /// Gathering one set of `element`: the cards and tokens put in so far.
    BuildingSet {
        element: Element,
        cards: Vec<Card>,
        tokens: u8,
    },
    Over {
        winner: Seat,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub players: Vec<Player>,
    /// The unseen draw deck.
    pub deck: Vec<Card>,
    /// The discard pile. Everything in it was seen face up, so it is public.
    pub discards: Vec<Card>,
    /// The Bag of Fate.
    pub bag: Vec<Token>,
    /// Tokens drawn and not yet resolved or returned, in draw order.
    pub drawn: Vec<Token>,
    /// The cards the Oracle is looking at (secret to the Oracle), in draw order.
    pub looked_at: Vec<Card>,
    /// Element tokens turned in with sets: they leave the game.
    pub used_tokens: Vec<Element>,
    /// Rounds started (1 in the first round, 0 during set-up).
    pub round: u32,
    /// Index into this round's turn order of the player whose turn it is.
    pub turn: usize,
    pub phase: Phase,
    /// The current player chose to play a card at random (`play_at_random`): a chance step
    /// draws it from their hand. Absent from snapshots written before it existed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub playing_at_random: bool,
    /// The rules edition of the game (`Options::edition`): 0 in games created before edition 1.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub edition: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl State {
    pub fn new(seats: usize) -> State {
        State {
            players: (0..seats).map(|_| Player::new()).collect(),
            deck: full_deck(),
            discards: Vec::new(),
            bag: starting_bag(),
            drawn: Vec::new(),
            looked_at: Vec::new(),
            used_tokens: Vec::new(),
            round: 0,
            turn: 0,
            phase: Phase::Dealing,
            playing_at_random: false,
            edition: 0,
        }
    }

    pub fn seats(&self) -> usize {
        self.players.len()
    }

    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players.get(seat)
    }

    /// Seats whose turn marker is not yet on the track (set-up only).
    pub fn unplaced_markers(&self) -> Vec<Seat> {
        (0..self.seats())
            .filter(|&s| self.player(s).is_some_and(|p| p.turn_marker.is_none()))
            .collect()
    }

    /// The turn-order space the next marker drawn goes on (set-up only).
    pub fn next_marker_space(&self) -> usize {
        self.seats() - self.unplaced_markers().len() + 1
    }

    /// This round's turn order: by turn marker space, lowest first.
    pub fn turn_order(&self) -> Vec<Seat> {
        let mut placed: Vec<(u8, Seat)> = self
            .players
            .iter()
            .enumerate()
            .filter_map(|(seat, p)| p.turn_marker.map(|space| (space, seat)))
            .collect();
        placed.sort();
        placed.into_iter().map(|(_, seat)| seat).collect()
    }

    /// The player whose turn it is (none during set-up or once the game is over).
    pub fn current_seat(&self) -> Option<Seat> {
        match self.phase {
            Phase::Dealing | Phase::PlacingMarkers | Phase::Over { .. } => None,
            _ => self.turn_order().get(self.turn).copied(),
        }
    }

    pub fn current_character(&self) -> Option<Character> {
        self.current_seat()
            .and_then(|seat| self.player(seat))
            .and_then(|p| p.character)
    }

    /// The character action being performed, if the phase is `Acting`.
    pub fn current_action(&self) -> Option<CharacterAction> {
        match self.phase {
            Phase::Acting { action, .. } => self
                .current_character()
                .and_then(|c| c.actions().get(action).copied()),
            _ => None,
        }
    }

    /// Who takes the next card while dealing: round-robin by seat.
    pub fn deal_recipient(&self) -> Option<Seat> {
        let dealt: usize = self.players.iter().map(|p| p.hand.len()).sum();
        dealt.checked_rem(self.seats())
    }

    /// The player a card drawn now goes to (dealt, drawn or looked at).
    pub fn card_drawer(&self) -> Option<Seat> {
        match self.phase {
            Phase::Dealing => self.deal_recipient(),
            _ => self.current_seat(),
        }
    }

    pub fn character_holder(&self, character: Character) -> Option<Seat> {
        self.players
            .iter()
            .position(|p| p.character == Some(character))
    }

    /// Gems of `seat` in the bag (and out of it while drawn: they go back).
    pub fn gems_in_bag(&self, seat: Seat) -> usize {
        self.bag
            .iter()
            .chain(&self.drawn)
            .filter(|&&t| t == Token::Gem(seat))
            .count()
    }

    pub fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over { winner } => Some(winner),
            _ => None,
        }
    }
}

/// Each distinct item once with how many times it occurs, in sorted order.
pub fn tally<T: Ord + Copy>(items: &[T]) -> Vec<(T, u32)> {
    let mut sorted = items.to_vec();
    sorted.sort();
    let mut out: Vec<(T, u32)> = Vec::new();
    for item in sorted {
        match out.last_mut() {
            Some((last, n)) if *last == item => *n += 1,
            _ => out.push((item, 1)),
        }
    }
    out
}

/// Removes one `item` from a multiset; false if it is not there.
pub fn take<T: PartialEq>(items: &mut Vec<T>, item: &T) -> bool {
    match items.iter().position(|x| x == item) {
        Some(i) => {
            items.remove(i);
            true
        }
        None => false,
    }
}

/// Adds `item` to a sorted multiset, keeping it sorted.
pub fn put<T: Ord>(items: &mut Vec<T>, item: T) {
    let at = items.partition_point(|x| *x <= item);
    items.insert(at, item);
}
