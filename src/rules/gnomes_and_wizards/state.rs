//! The state of a game and the questions asked of it.

use serde::{Deserialize, Serialize};

use super::board::{Geometry, Side, TileId};
use super::data::{self, Ability, CardId, Deck, Face, Token, Tribe, unit_stats};
use super::{Options, Variant};
use crate::rules::Seat;

/// A unit: `owner` is the index into [`State::players`] (a seat, or the solo automaton at 1);
/// `slot` 0 is the Leader, 1–6 the Clans.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct UnitRef {
    pub owner: usize,
    pub slot: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A Clan not called yet.
    Inactive,
    Active,
    Defeated,
}

/// A token counter on a unit, with its effect ring: it lasts until play returns to `ring`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Counter {
    pub token: Token,
    pub ring: Seat,
    /// Who placed it (a lingering attack's second attack is theirs).
    pub by: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub slot: u8,
    pub status: Status,
    pub tile: Option<TileId>,
    pub hp: u8,
    pub defense: u8,
    /// Call to War horns kept on the unit.
    pub horns: u8,
    /// Move/attack dice assigned this turn, and how many of them went into the attack.
    pub dice: u8,
    pub dice_spent: u8,
    /// Spaces moved this turn.
    pub moved: u8,
    pub attacked: bool,
    pub fatigued: bool,
    pub innate_charge: u8,
    pub learned: Option<CardId>,
    pub learned_charge: u8,
    pub counters: Vec<Counter>,
}

impl Unit {
    pub fn new(slot: u8) -> Unit {
        let stats = unit_stats(slot);
        Unit {
            slot,
            status: if slot == 0 {
                Status::Active
            } else {
                Status::Inactive
            },
            tile: None,
            hp: stats.hp,
            defense: stats.min_defense,
            horns: 0,
            dice: 0,
            dice_spent: 0,
            moved: 0,
            attacked: false,
            fatigued: false,
            innate_charge: 0,
            learned: None,
            learned_charge: 0,
            counters: Vec::new(),
        }
    }

    pub fn on_board(&self) -> bool {
        self.status == Status::Active && self.tile.is_some()
    }

    pub fn has(&self, token: Token) -> bool {
        self.counters.iter().any(|c| c.token == token)
    }

    /// Spaces this unit may still move this turn.
    pub fn movement_left(&self) -> u8 {
        let stats = unit_stats(self.slot);
        stats
            .movement
            .saturating_add(self.dice)
            .saturating_sub(self.dice_spent)
            .saturating_sub(self.moved)
            .saturating_sub(u8::from(self.fatigued))
    }

    /// Move/attack dice not yet used (for movement or attack).
    pub fn free_dice(&self) -> u8 {
        let base = unit_stats(self.slot)
            .movement
            .saturating_sub(u8::from(self.fatigued));
        let used_moving = self.moved.saturating_sub(base);
        self.dice
            .saturating_sub(self.dice_spent)
            .saturating_sub(used_moving)
    }

    pub fn can_move(&self) -> bool {
        self.on_board()
            && self.movement_left() > 0
            && !self.has(Token::NoMovement)
            && !self.has(Token::Sleeping)
    }

    pub fn can_attack(&self) -> bool {
        self.on_board()
            && !self.attacked
            && !self.has(Token::NoAttack)
            && !self.has(Token::Sleeping)
    }

    pub fn max_defense(&self) -> u8 {
        unit_stats(self.slot).max_defense
    }

    pub fn min_defense(&self) -> u8 {
        unit_stats(self.slot).min_defense
    }

    pub fn innate_full(&self, tribe: Tribe) -> bool {
        tribe
            .innate(self.slot)
            .is_some_and(|a| self.innate_charge >= a.cost)
    }

    pub fn learned_full(&self) -> bool {
        self.learned
            .and_then(data::card)
            .is_some_and(|(_, a)| self.learned_charge >= a.cost)
    }
}

/// A tile of a tribe: the Clan it calls and the half it belongs on.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct TileCard {
    pub tribe: Tribe,
    pub clan: u8,
    pub side: Side,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileState {
    pub card: Option<TileCard>,
    pub flipped: bool,
    /// The player who placed a blockade here.
    pub blockade: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub tribe: Option<Tribe>,
    pub units: Vec<Unit>,
    /// Power Crystals waiting for the Charge step.
    pub reserve: u8,
    /// Secret ability cards in hand (secret), sorted.
    pub hand: Vec<CardId>,
    /// Learned ability cards kept in hand to attach later (secret until attached), sorted:
    /// "Learned Abilities that are still in their hand" (l.357).
    #[serde(default)]
    pub learned_hand: Vec<CardId>,
    /// Enemy unit cards collected by dealing the final blow.
    pub trophies: Vec<(Tribe, u8)>,
    pub eliminated: bool,
    pub automaton: bool,
    /// Clans both of whose tiles have been flipped (from edition 2): "that Clan cannot get
    /// activated for the remainder of the game" (l.303), and "units can no longer use the
    /// Call to War action to activate or charge that specific Clan" (l.441), even once an
    /// ability turns one of the tiles face up again.
    #[serde(default)]
    pub uncallable: Vec<u8>,
}

impl Player {
    fn new(automaton: bool) -> Player {
        Player {
            tribe: None,
            units: (0..7).map(Unit::new).collect(),
            reserve: 0,
            hand: Vec::new(),
            learned_hand: Vec::new(),
            trophies: Vec::new(),
            eliminated: false,
            automaton,
            uncallable: Vec::new(),
        }
    }

    pub fn unit(&self, slot: u8) -> Option<&Unit> {
        self.units.get(usize::from(slot))
    }

    pub fn active_clans(&self) -> usize {
        self.units
            .iter()
            .filter(|u| u.slot > 0 && u.on_board())
            .count()
    }

    pub fn has_units_on_board(&self) -> bool {
        self.units.iter().any(Unit::on_board)
    }

    pub fn tribe(&self) -> Tribe {
        self.tribe.unwrap_or(Tribe::Turquefoss)
    }
}

/// A card draw in progress (Call to War: draw two, keep one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawState {
    /// Decks chosen for the cards still to be drawn.
    pub from: Vec<Deck>,
    /// Cards drawn so far (secret to the drawer).
    pub drawn: Vec<CardId>,
    /// The Learned card kept, waiting to be attached to a unit or held in hand (secret to the
    /// drawer until attached).
    pub attach: Option<CardId>,
}

/// The steps of a turn (DESIGN: one small decision at a time).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// The turn begins: counters end, a player without units re-enters or is out.
    Start,
    /// Bring back a unit after losing every unit ('Losing All Active Units').
    Reenter,
    /// a. Flip two tiles (from round 6).
    Flip { left: u8 },
    /// 1. Roll dice: chance steps for `to_roll`, then keep or mark dice and re-roll.
    Roll { rerolls_left: u8 },
    /// 2. Assign dice, one at a time (3. Collect follows automatically).
    Assign,
    /// 4. Movement and attack.
    Act,
    /// 5. Call to War / draw cards.
    Call,
    /// 6. Charge abilities from the reserve.
    Charge,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Chance: tribes dealt at random, seat by seat.
    Tribes,
    /// Chance: tiles drawn from the piles onto the shape, position by position.
    Tiles,
    /// Solo chance: which three automaton Clans go on side A.
    SplitClans,
    /// Chance: the first player.
    FirstPlayer,
    /// Each player places their Leader (solo: the automaton's first, chosen by the player).
    Leaders,
    Turn {
        seat: Seat,
        step: Step,
    },
    Over,
}

/// An ability cast: where it comes from and what it targets.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The innate ability of your Clan in this slot.
    Innate(u8),
    /// The Learned ability attached to your unit in this slot.
    Learned(u8),
    /// A Secret ability card from your hand.
    Secret(CardId),
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Unit(UnitRef),
    Tile(TileId),
    /// Move this unit to this tile.
    Move {
        unit: UnitRef,
        to: TileId,
    },
    /// Put the ability's crystals on this unit, filling its Learned (`learned: true`) or its
    /// innate ability first, the rest on the other: "Power Crystals earned from abilities can
    /// be placed onto abilities when the ability is cast" (l.643; edition 1, review R5).
    Crystals {
        unit: UnitRef,
        learned: bool,
    },
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Cast {
    pub source: Source,
    pub target: Target,
}

/// What happens when a reaction window closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum After {
    /// After an attack is declared: resolve it (the evade rule applies).
    ResolveAttack,
    /// After the roll, a unit's movement, a cast or Call to War: play goes on.
    Continue,
    /// Before a tile flip takes effect (the Flip step or the solo crumbling earth): the units
    /// on it may still be moved off (l.409-411, l.580); then the tile flips.
    Flip(TileId),
    /// At the start of a turn (counters ended): then the turn's steps begin (l.365: "at almost
    /// any point during any player's turn").
    BeginTurn,
}

/// A reaction window: the seats that may cast now, each answering `cast` or `pass`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Window {
    /// Who may still answer, in turn order.
    pub waiting: Vec<Seat>,
    /// Casts declared in this window, resolved in turn order when everyone has answered.
    pub casts: Vec<(Seat, Cast)>,
    pub after: After,
    /// Opened while the active player's unit moves: only its allies are asked ("you can play
    /// abilities during ally unit movement, just not during enemy movement", l.375).
    #[serde(default)]
    pub during_movement: bool,
}

/// When the active player answers the open reaction window (from edition 2; never in a
/// window during a unit's movement, where only its allies are asked). It answers after the
/// others, with their casts in view, and its own casts resolve first: "an ability cast by the
/// current player whose turn it is has priority over any other player's ability" (l.381).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActiveAnswer {
    /// Not to be asked again in this window (asked already, or not at all).
    #[default]
    Done,
    /// Asked once the others have answered.
    Last,
    /// Asked once the others have answered, if one of them cast something.
    IfOthersCast,
}

/// A unit moved by another player's ability (a teammate's or a temporary ally's): "the player
/// who controls that unit decides which space the unit moves to" (l.383).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Placement {
    pub unit: UnitRef,
    /// The ability moves it up to this many spaces.
    pub spaces: u8,
}

/// Casts being resolved in turn order; paused while a moved unit's controller places it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolving {
    /// The casts still to resolve, in order.
    pub casts: Vec<(Seat, Cast)>,
    /// What the window that follows them leads to.
    pub after: After,
    /// Whether the active player is asked in that window too.
    pub with_current: bool,
    /// Whether that window falls in the active player's unit's movement (allies only).
    #[serde(default)]
    pub during_movement: bool,
}

/// A summon or an empowering call declared, its horns spent, waiting for the other players'
/// answers before it takes effect (from edition 2): other players' abilities "come before the
/// current player's base actions", "Call to War/Draw Cards" among them (l.381, l.411).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclaredCall {
    Summon { slot: u8, clan: u8 },
    Empower { slot: u8, clan: u8, learned: bool },
}

/// An attack declared and not yet resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PendingAttack {
    pub attacker: UnitRef,
    pub target: UnitRef,
    pub power: u8,
    pub tile: TileId,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub options: Options,
    pub seats: usize,
    /// The board's shape and how many tribes it is for (solo: 2); the geometry itself is
    /// derived data, shared and never stored.
    pub shape: super::board::Shape,
    pub board_players: usize,
    pub tiles: Vec<TileState>,
    /// Tiles not yet placed (set-up).
    pub piles: Vec<TileCard>,
    pub players: Vec<Player>,
    pub phase: Phase,
    pub round: u8,
    pub last_round: u8,
    pub first_player: Seat,
    /// Turns taken this round.
    pub turns_this_round: usize,
    /// Dice of the current turn: faces rolled and, once assigned, the unit slot (or the
    /// reserve for crystals).
    pub dice: Vec<Option<Face>>,
    pub assigned: Vec<bool>,
    /// Dice marked for re-rolling, and dice waiting for a roll.
    pub marked: Vec<usize>,
    pub to_roll: Vec<usize>,
    /// The unit moving now (no enemy may cast during its movement).
    pub moving: Option<u8>,
    /// A unit that entered a tile with enemies ('Enemy Occupation') and must attack.
    pub must_attack: Option<u8>,
    pub draw: Option<DrawState>,
    /// Unseen cards of each deck (drawing is a chance step over them) and the cards put at
    /// the bottom, in order (drawn once the unseen ones run out).
    pub unseen: Vec<CardId>,
    pub bottom_learned: Vec<CardId>,
    pub bottom_secret: Vec<CardId>,
    /// Units that must fall to the nearest face-up tile (their owner chooses).
    pub falls: Vec<UnitRef>,
    pub window: Option<Window>,
    /// When the active player answers the open window (from edition 2).
    #[serde(default)]
    pub active_answer: ActiveAnswer,
    /// Units moved by another player's ability, waiting for their controller to place them.
    #[serde(default)]
    pub placements: Vec<Placement>,
    /// Casts still being resolved (after a placement they go on).
    #[serde(default)]
    pub resolving: Option<Resolving>,
    /// What happens once the window and any falls are over (a queue: usually one entry).
    pub pending_after: Vec<After>,
    pub attack: Option<PendingAttack>,
    /// A summon or empowering call declared, to take effect when its window closes.
    #[serde(default)]
    pub declared_call: Option<DeclaredCall>,
    /// Temporary alliances in force (pairs of seats, lower first), and an open offer.
    pub alliances: Vec<(Seat, Seat)>,
    pub offer: Option<(Seat, Seat)>,
    /// Seats offered an alliance by the active player this turn (games saved before
    /// `offered_pairs`).
    pub offered: Vec<Seat>,
    /// Pairs of seats (lower first) between which an alliance was offered this turn: one offer
    /// per pair per turn.
    #[serde(default)]
    pub offered_pairs: Vec<(Seat, Seat)>,
    /// Solo: the tiles the crumbling earth may flip now, tied (the player picks), and the
    /// units already hit this turn.
    pub solo_choice: Vec<TileId>,
    pub solo_hit: Vec<UnitRef>,
    /// Whether the tie-break round is being played.
    pub extra_round: bool,
    /// Whether the active player filled an ability this turn (Charge step, 'Empowering
    /// Call'): from edition 1 the turn then does not end by itself while it could still cast
    /// (l.539: "charge up the ability one last time and casts it again").
    #[serde(default)]
    pub filled_this_turn: bool,
    pub result: Option<Result>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Result {
    pub winners: Vec<Seat>,
    pub scores: Vec<i64>,
    pub summary: String,
}

impl State {
    pub fn new(options: &Options, seats: usize, board_players: usize) -> State {
        let geometry = super::board::cached(options.shape, board_players);
        let solo = seats == 1;
        let mut players: Vec<Player> = (0..seats).map(|_| Player::new(false)).collect();
        if solo {
            players.push(Player::new(true));
        }
        let tiles = vec![
            TileState {
                card: None,
                flipped: false,
                blockade: None,
            };
            geometry.len()
        ];
        let shorter = options.has(super::Variant::ShorterGame);
        State {
            options: options.clone(),
            seats,
            shape: options.shape,
            board_players,
            tiles,
            piles: Vec::new(),
            players,
            phase: Phase::Tribes,
            round: if shorter {
                data::SHORTER_FIRST_ROUND
            } else {
                1
            },
            last_round: data::ROUNDS,
            first_player: 0,
            turns_this_round: 0,
            dice: Vec::new(),
            assigned: Vec::new(),
            marked: Vec::new(),
            to_roll: Vec::new(),
            moving: None,
            must_attack: None,
            draw: None,
            unseen: data::deck_cards(Deck::Learned)
                .into_iter()
                .chain(data::deck_cards(Deck::Secret))
                .collect(),
            bottom_learned: Vec::new(),
            bottom_secret: Vec::new(),
            falls: Vec::new(),
            window: None,
            active_answer: ActiveAnswer::Done,
            placements: Vec::new(),
            resolving: None,
            pending_after: Vec::new(),
            attack: None,
            declared_call: None,
            alliances: Vec::new(),
            offer: None,
            offered: Vec::new(),
            offered_pairs: Vec::new(),
            solo_choice: Vec::new(),
            solo_hit: Vec::new(),
            extra_round: false,
            filled_this_turn: false,
            result: None,
        }
    }

    pub fn geometry(&self) -> &'static Geometry {
        super::board::cached(self.shape, self.board_players)
    }

    pub fn solo(&self) -> bool {
        self.seats == 1
    }

    /// Whether the enemy-occupation rule is in play: with its variant, and always in solo.
    pub fn occupation_applies(&self) -> bool {
        self.solo() || self.options.has(Variant::EnemyOccupation)
    }

    pub fn player(&self, owner: usize) -> Option<&Player> {
        self.players.get(owner)
    }

    pub fn unit(&self, u: UnitRef) -> Option<&Unit> {
        self.players.get(u.owner)?.units.get(usize::from(u.slot))
    }

    pub fn unit_mut(&mut self, u: UnitRef) -> Option<&mut Unit> {
        self.players
            .get_mut(u.owner)?
            .units
            .get_mut(usize::from(u.slot))
    }

    pub fn tribe_of(&self, owner: usize) -> Tribe {
        self.player(owner).map_or(Tribe::Turquefoss, Player::tribe)
    }

    pub fn tile(&self, t: TileId) -> Option<&TileState> {
        self.tiles.get(usize::from(t))
    }

    pub fn tile_mut(&mut self, t: TileId) -> Option<&mut TileState> {
        self.tiles.get_mut(usize::from(t))
    }

    pub fn flipped(&self, t: TileId) -> bool {
        self.tile(t).is_none_or(|s| s.flipped)
    }

    pub fn is_mine(&self, t: TileId) -> bool {
        self.geometry().tile(t).is_some_and(|p| p.mine)
    }

    /// The seat whose turn it is.
    pub fn current(&self) -> Option<Seat> {
        match self.phase {
            Phase::Turn { seat, .. } => Some(seat),
            _ => None,
        }
    }

    pub fn step(&self) -> Option<&Step> {
        match &self.phase {
            Phase::Turn { step, .. } => Some(step),
            _ => None,
        }
    }

    /// Every unit on the board, in a fixed order.
    pub fn units_on_board(&self) -> Vec<UnitRef> {
        let mut out = Vec::new();
        for (owner, p) in self.players.iter().enumerate() {
            for u in &p.units {
                if u.on_board() {
                    out.push(UnitRef {
                        owner,
                        slot: u.slot,
                    });
                }
            }
        }
        out
    }

    pub fn units_on(&self, t: TileId) -> Vec<UnitRef> {
        self.units_on_board()
            .into_iter()
            .filter(|&u| self.unit(u).and_then(|u| u.tile) == Some(t))
            .collect()
    }

    /// Whether owners `a` and `b` are team-mates for the whole game ('Team Play'): a unit
    /// defeated by its own side wins nobody a card (from edition 1).
    pub fn team_mates(&self, a: usize, b: usize) -> bool {
        a == b || (self.options.has(super::Variant::TeamPlay) && a % 2 == b % 2)
    }

    /// Whether owners `a` and `b` are on the same side now (the same player, teammates in
    /// team play, or in a temporary alliance).
    pub fn allied(&self, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        if self.options.has(super::Variant::TeamPlay) && a % 2 == b % 2 {
            return true;
        }
        let pair = (a.min(b), a.max(b));
        self.alliances.contains(&pair)
    }

    /// Whether a unit may pass through or enter tile `t`: "a unit cannot pass through the
    /// blockade unless they are Flying" (l.497), whoever placed it, its own side too.
    pub fn passable(&self, t: TileId, flying: bool) -> bool {
        flying || self.tile(t).is_none_or(|s| s.blockade.is_none())
    }

    /// Steps from `from` for a unit, passing over flipped tiles, stopped by blockades.
    pub fn reach(&self, from: TileId, flying: bool) -> Vec<Option<u8>> {
        self.geometry()
            .distances(from, |t| self.passable(t, flying))
    }

    /// The ability from `source` of `owner`'s unit, if it exists.
    pub fn ability(&self, owner: usize, source: Source) -> Option<&'static Ability> {
        let p = self.player(owner)?;
        match source {
            Source::Innate(slot) => p.tribe().innate(slot),
            Source::Learned(slot) => p.unit(slot)?.learned.and_then(data::card).map(|(_, a)| a),
            Source::Secret(card) => data::card(card).map(|(_, a)| a),
        }
    }

    /// Seats in turn order starting after `seat`.
    pub fn seats_after(&self, seat: Seat) -> Vec<Seat> {
        (1..=self.seats).map(|k| (seat + k) % self.seats).collect()
    }

    pub fn deck_count(&self, deck: Deck) -> usize {
        let unseen = self
            .unseen
            .iter()
            .filter(|&&c| data::card(c).is_some_and(|(d, _)| d == deck))
            .count();
        unseen
            + match deck {
                Deck::Learned => self.bottom_learned.len(),
                Deck::Secret => self.bottom_secret.len(),
            }
    }

    /// Total HP of `owner`'s active units.
    pub fn total_hp(&self, owner: usize) -> i64 {
        self.player(owner).map_or(0, |p| {
            p.units
                .iter()
                .filter(|u| u.on_board())
                .map(|u| i64::from(u.hp))
                .sum()
        })
    }

    /// The score of `owner`: HP of active units, +20 per Clan and +30 per Leader defeated.
    pub fn score(&self, owner: usize) -> i64 {
        let trophies = self.player(owner).map_or(0, |p| {
            p.trophies
                .iter()
                .map(|&(_, slot)| {
                    if slot == 0 {
                        data::POINTS_PER_LEADER
                    } else {
                        data::POINTS_PER_CLAN
                    }
                })
                .sum()
        });
        self.total_hp(owner) + trophies
    }
}
