//! The state of a game and the questions the rules ask of it.

use serde::{Deserialize, Serialize};

use super::data::{
    CHITS_PER_STRUCTURE, CardId, DECLARE_AT, Effect, FIGURES_ON_MAP, FigureKind, GARRISONS_PER_SET,
    Power, ROUNDS, SIDE, Structure, TILES_PER_TERRAIN, Terrain, UnitKind, hand_effects,
    permanent_effects,
};
use super::options::Options;
use crate::rules::{Outcome, Seat};

/// A space of the board, `[x, y]`, both `0..8`; `[0,0]` is a1, the bottom left corner as
/// players see the board.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub struct Pos(pub u8, pub u8);

impl Pos {
    pub const CORNERS: [Pos; 4] = [
        Pos(0, 0),
        Pos(SIDE - 1, 0),
        Pos(SIDE - 1, SIDE - 1),
        Pos(0, SIDE - 1),
    ];

    /// The corners clockwise as players see the board (row 8 at the top, a1 bottom left):
    /// a1, a8, h8, h1.
    pub const CLOCKWISE: [Pos; 4] = [
        Pos(0, 0),
        Pos(0, SIDE - 1),
        Pos(SIDE - 1, SIDE - 1),
        Pos(SIDE - 1, 0),
    ];

    pub fn on_board(self) -> bool {
        self.0 < SIDE && self.1 < SIDE
    }

    pub fn index(self) -> usize {
        usize::from(self.1) * usize::from(SIDE) + usize::from(self.0)
    }

    pub fn of_index(i: usize) -> Pos {
        let side = usize::from(SIDE);
        Pos(
            u8::try_from(i % side).unwrap_or(0),
            u8::try_from(i / side).unwrap_or(0),
        )
    }

    pub fn all() -> impl Iterator<Item = Pos> {
        (0..usize::from(SIDE) * usize::from(SIDE)).map(Pos::of_index)
    }

    /// The up to 8 spaces around this one: "Movement can be orthogonal or diagonal."
    pub fn neighbours(self) -> Vec<Pos> {
        let mut out = Vec::with_capacity(8);
        for dy in -1i16..=1 {
            for dx in -1i16..=1 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let x = i16::from(self.0) + dx;
                let y = i16::from(self.1) + dy;
                if let (Ok(x), Ok(y)) = (u8::try_from(x), u8::try_from(y)) {
                    let p = Pos(x, y);
                    if p.on_board() {
                        out.push(p);
                    }
                }
            }
        }
        out
    }

    pub fn adjacent(self, other: Pos) -> bool {
        self != other && self.0.abs_diff(other.0) <= 1 && self.1.abs_diff(other.1) <= 1
    }
}

/// A space in words, as descriptions, errors and mail name it: a chess square, column a–h
/// from x and row 1–8 from y (`[0,0]` is a1, `[3,5]` is d6); off the board, `[x,y]`.
impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.on_board() {
            write!(f, "{}{}", char::from(b'a' + self.0), u16::from(self.1) + 1)
        } else {
            write!(f, "[{},{}]", self.0, self.1)
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Space {
    pub terrain: Option<Terrain>,
    pub structure: Option<Structure>,
    /// The seat whose Garrison is here.
    pub garrison: Option<Seat>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    pub id: u16,
    pub owner: Seat,
    pub kind: FigureKind,
    pub at: Pos,
    /// Move points spent this turn.
    pub spent: u8,
    /// Its movement is over for this turn (another figure moved, or it was summoned).
    pub done: bool,
    /// Terrain types entered this turn (for "+1 MP once per turn when entering …").
    pub entered: Vec<Terrain>,
    /// Haste Spells cast on it this turn.
    pub hasted: u8,
    /// Artificer bonuses on it this turn.
    pub boosted: u8,
    /// Towns it entered for free this turn (from edition 2: since it last paid a move point);
    /// it may not enter them for free again until it pays one (ruling 12).
    pub passed: Vec<Pos>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The corner picked at set-up.
    pub corner: Option<Pos>,
    /// Face-up permanent cards.
    pub permanent: Vec<CardId>,
    /// Secret hand, sorted.
    pub hand: Vec<CardId>,
    /// Structure types declared in the player's last Declaration phase.
    pub declared: Vec<Structure>,
    /// Hand cards played this turn (their effects last to the end of the turn).
    pub played: Vec<CardId>,
    /// Permanent cards whose once-per-turn power was used this turn.
    pub used: Vec<CardId>,
    /// The stop this player asked for, to use "Once on your Turn" powers where the turn has
    /// no decision of its own (ruling 22); taken when the game gets there.
    #[serde(default)]
    pub stop: Option<Stop>,
}

/// A point of the turn with no decision of its own, where a player who asked for it stops to
/// use "Once on your Turn" powers (ruling 22): asked for in the decision before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The start of the turn, before the Declaration phase (asked for in the End phase before).
    Declaration,
    /// After the Declaration phase, before the Garrison phase.
    Garrison,
    /// After the Allies phase's draws, before the Recruit Roll (asked for in the Movement
    /// phase).
    RecruitRoll,
}

impl Stop {
    /// "before the Declaration phase".
    pub fn when(self) -> &'static str {
        match self {
            Stop::Declaration => "before the Declaration phase",
            Stop::Garrison => "before the Garrison phase",
            Stop::RecruitRoll => "before the Recruit Roll",
        }
    }

    /// The phase the stop is in, for people.
    pub fn phase(self) -> &'static str {
        match self {
            Stop::Declaration => "Declaration phase",
            Stop::Garrison => "Garrison phase",
            Stop::RecruitRoll => "Recruitment phase",
        }
    }
}

/// One player looking at another's hand with the Oracle (until the end of the turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peek {
    pub by: Seat,
    pub of: Seat,
    pub cards: Vec<CardId>,
}

/// One of a player's units: a figure, or the garrison in a space.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Figure(u16),
    Garrison(Pos),
}

/// A power used in several steps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// The Alchemist: cards discarded so far (drawn back at `alchemy_done`).
    Alchemist { discarded: u8 },
    /// The Illusionist: the first unit chosen.
    Illusionist { first: Unit },
    /// Alter Terrain: the square chosen (its new terrain is the next step).
    AlterTerrain { at: Pos },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Defender {
    Figure(u16),
    Garrison,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CombatStep {
    /// "Attacker and Defender both roll 2D6 each": the attacker's roll …
    AttackerRoll,
    /// … then the defender's.
    DefenderRoll,
    /// Then "Players may play (discard) hand cards": the attacker's card window …
    AttackerCards,
    /// … and the defender's (a reaction decision); the windows take turns until both sides
    /// pass one after the other.
    DefenderCards,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combat {
    pub attacker: u16,
    pub at: Pos,
    pub defender_seat: Seat,
    pub defender: Defender,
    pub step: CombatStep,
    pub attack_roll: Option<u8>,
    #[serde(default)]
    pub defence_roll: Option<u8>,
    /// Card windows closed in a row without a card played (two end the card play).
    #[serde(default)]
    pub passes: u8,
}

/// The last combat, for the players to read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CombatReport {
    pub at: Pos,
    pub attacker_seat: Seat,
    pub attacker: UnitKind,
    pub defender_seat: Seat,
    pub defender: UnitKind,
    pub attack_roll: u8,
    pub attack_force: i32,
    pub defence_roll: u8,
    pub defence_force: i32,
    pub result: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Tiles, then chits, are placed space by space (chance steps).
    Map,
    /// Permanent cards are dealt round-robin (chance steps).
    Deal,
    /// Each seat in turn picks a corner.
    Corner {
        seat: Seat,
    },
    /// Each seat in turn picks its starting figure.
    StartFigure {
        seat: Seat,
    },
    /// The 3-player seat caught in the middle may add a figure in the opposite corner.
    ExtraFigure {
        seat: Seat,
    },
    /// Seats roll 2D6 in order; `rolls` by seat; ties among the highest roll again.
    FirstPlayer {
        rolling: Vec<Seat>,
        rolls: Vec<Option<u8>>,
    },
    Movement,
    Combat(Combat),
    /// The Allies phase's draws.
    Allies,
    /// The recruit roll is next (chance).
    Recruit,
    /// Place the recruited figure.
    RecruitPlace {
        roll: u8,
    },
    End,
    Over(Outcome),
    /// A stop the current player asked for, to use powers (ruling 22).
    Stop(Stop),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub options: Options,
    pub board: Vec<Space>,
    pub figures: Vec<Figure>,
    pub next_figure: u16,
    pub players: Vec<Player>,
    /// Cards not yet seen (a multiset, sorted): draws are chance steps over it.
    pub deck: Vec<CardId>,
    /// Face-up discard pile; it becomes the deck when the deck runs out.
    pub discard: Vec<CardId>,
    pub phase: Phase,
    /// The player whose turn it is.
    pub current: Seat,
    pub first: Seat,
    /// Turn number from 1 (one turn is one player's turn); 0 during set-up.
    pub turn: u32,
    /// The figure moving now ("Figures are moved 1 at a time").
    pub moving: Option<u16>,
    pub pending: Option<Pending>,
    /// Cards the current player still draws before the game goes on.
    pub draws: u8,
    pub peeks: Vec<Peek>,
    /// The optional Realignment was used this End phase.
    pub realigned: bool,
    pub last_combat: Option<CombatReport>,
    /// The 2D6 rolls for the first turn in the order rolled: (seat, roll); ties roll again.
    #[serde(default)]
    pub first_rolls: Vec<(Seat, u8)>,
    /// The current player chose to discard a card at random (`discard_at_random`): a chance
    /// step draws it from their hand. Absent from snapshots written before it existed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub discarding_at_random: bool,
}

impl State {
    pub fn new(options: Options, seats: usize, deck: Vec<CardId>) -> State {
        let players = vec![Player::default(); seats];
        State {
            options,
            board: vec![Space::default(); usize::from(SIDE) * usize::from(SIDE)],
            figures: Vec::new(),
            next_figure: 1,
            players,
            deck,
            discard: Vec::new(),
            phase: Phase::Map,
            current: 0,
            first: 0,
            turn: 0,
            moving: None,
            pending: None,
            draws: 0,
            peeks: Vec::new(),
            realigned: false,
            last_combat: None,
            first_rolls: Vec::new(),
            discarding_at_random: false,
        }
    }

    pub fn seats(&self) -> usize {
        self.players.len()
    }

    pub fn space(&self, at: Pos) -> Option<&Space> {
        if at.on_board() {
            self.board.get(at.index())
        } else {
            None
        }
    }

    pub fn space_mut(&mut self, at: Pos) -> Option<&mut Space> {
        if at.on_board() {
            self.board.get_mut(at.index())
        } else {
            None
        }
    }

    pub fn terrain(&self, at: Pos) -> Option<Terrain> {
        self.space(at).and_then(|s| s.terrain)
    }

    pub fn structure(&self, at: Pos) -> Option<Structure> {
        self.space(at).and_then(|s| s.structure)
    }

    pub fn garrison(&self, at: Pos) -> Option<Seat> {
        self.space(at).and_then(|s| s.garrison)
    }

    pub fn figure(&self, id: u16) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    pub fn figure_mut(&mut self, id: u16) -> Option<&mut Figure> {
        self.figures.iter_mut().find(|f| f.id == id)
    }

    /// The figures in a space (at most one per player, except a figure passing a Town).
    pub fn figures_at(&self, at: Pos) -> impl Iterator<Item = &Figure> {
        self.figures.iter().filter(move |f| f.at == at)
    }

    pub fn own_figure_at(&self, seat: Seat, at: Pos, except: Option<u16>) -> bool {
        self.figures_at(at)
            .any(|f| f.owner == seat && Some(f.id) != except)
    }

    /// "Control" and "occupy" mean the same: the space holds your garrison or figure.
    pub fn occupies(&self, seat: Seat, at: Pos) -> bool {
        self.garrison(at) == Some(seat) || self.figures_at(at).any(|f| f.owner == seat)
    }

    /// Whoever has a unit in the space (a space holds one player's units between moves).
    pub fn occupant(&self, at: Pos) -> Option<Seat> {
        self.garrison(at)
            .or_else(|| self.figures_at(at).next().map(|f| f.owner))
    }

    pub fn spaces_controlled(&self, seat: Seat) -> usize {
        Pos::all().filter(|&p| self.occupies(seat, p)).count()
    }

    pub fn structures_occupied(&self, seat: Seat, structure: Structure) -> usize {
        Pos::all()
            .filter(|&p| self.structure(p) == Some(structure) && self.occupies(seat, p))
            .count()
    }

    pub fn garrisons_on_map(&self, seat: Seat) -> usize {
        self.board
            .iter()
            .filter(|s| s.garrison == Some(seat))
            .count()
    }

    pub fn garrisons_left(&self, seat: Seat) -> usize {
        usize::from(GARRISONS_PER_SET).saturating_sub(self.garrisons_on_map(seat))
    }

    pub fn figure_count(&self, seat: Seat, kind: FigureKind) -> usize {
        self.figures
            .iter()
            .filter(|f| f.owner == seat && f.kind == kind)
            .count()
    }

    pub fn has_units(&self, seat: Seat) -> bool {
        self.figures.iter().any(|f| f.owner == seat)
            || self.board.iter().any(|s| s.garrison == Some(seat))
    }

    pub fn declared(&self, seat: Seat, structure: Structure) -> bool {
        self.players
            .get(seat)
            .is_some_and(|p| p.declared.contains(&structure))
    }

    /// Structure types `seat` occupies 5 or more of.
    pub fn declarable(&self, seat: Seat) -> Vec<Structure> {
        Structure::DECLARED
            .into_iter()
            .filter(|&s| self.structures_occupied(seat, s) >= DECLARE_AT)
            .collect()
    }

    /// Effects working for `seat` now: its permanent cards as permanents and the hand cards
    /// it played this turn as hand cards.
    pub fn active_effects(&self, seat: Seat) -> Vec<&'static Effect> {
        let Some(player) = self.players.get(seat) else {
            return Vec::new();
        };
        let mut out: Vec<&'static Effect> = Vec::new();
        for &c in &player.permanent {
            out.extend(permanent_effects(c));
        }
        for &c in &player.played {
            out.extend(hand_effects(c));
        }
        out
    }

    /// "The maximum number of Figures of a single type you can have on the map is 4", or
    /// more with a permanent card that says so.
    pub fn figure_cap(&self, seat: Seat, kind: FigureKind) -> usize {
        let mut cap = usize::from(FIGURES_ON_MAP);
        if let Some(player) = self.players.get(seat) {
            for &c in &player.permanent {
                for e in permanent_effects(c) {
                    if let Effect::Cap { figure, max } = e
                        && *figure == kind
                    {
                        cap = cap.max(usize::from(*max));
                    }
                }
            }
        }
        cap
    }

    pub fn may_gain(&self, seat: Seat, kind: FigureKind) -> bool {
        self.figure_count(seat, kind) < self.figure_cap(seat, kind)
    }

    /// "Place the new Figure onto any garrison space you control that does not already have
    /// a Figure on it."
    pub fn recruit_spaces(&self, seat: Seat) -> Vec<Pos> {
        Pos::all()
            .filter(|&p| self.garrison(p) == Some(seat) && self.figures_at(p).next().is_none())
            .collect()
    }

    /// "Max hand size is 5 cards", or the option, plus permanent cards that add to it.
    pub fn hand_limit(&self, seat: Seat) -> usize {
        let mut limit = usize::from(self.options.hand_size);
        if let Some(player) = self.players.get(seat) {
            for &c in &player.permanent {
                for e in permanent_effects(c) {
                    if let Effect::HandSize(n) = e {
                        limit += usize::from(*n);
                    }
                }
            }
        }
        limit
    }

    /// Move points of a figure this turn: "a base Move of 1", plus cards, plus the once per
    /// turn terrain bonuses it earned, plus Haste Spells.
    pub fn move_points(&self, figure: &Figure) -> u8 {
        let mut mp: u8 = 1;
        for e in self.active_effects(figure.owner) {
            match e {
                Effect::Move {
                    figure: kind,
                    bonus,
                } if *kind == figure.kind => {
                    mp = mp.saturating_add(*bonus);
                }
                Effect::TerrainMove(t) if figure.entered.contains(t) => {
                    mp = mp.saturating_add(1);
                }
                _ => {}
            }
        }
        mp.saturating_add(figure.hasted)
    }

    pub fn moves_left(&self, figure: &Figure) -> u8 {
        self.move_points(figure).saturating_sub(figure.spent)
    }

    /// The summons `seat` may make now: (summoner type, summoned type).
    pub fn summons(&self, seat: Seat) -> Vec<(FigureKind, FigureKind)> {
        let mut out = Vec::new();
        for e in self.active_effects(seat) {
            if let Effect::Summon { by, brings } = e
                && !out.contains(&(*by, *brings))
            {
                out.push((*by, *brings));
            }
        }
        out
    }

    /// The card a power of `seat` would come from: an unused permanent card first, else a
    /// hand card (played, and so discarded, when used).
    pub fn power_source(&self, seat: Seat, power: Power) -> Option<PowerSource> {
        if self.options.edition >= 2 {
            return self.power_copy(seat, power);
        }
        let player = self.players.get(seat)?;
        let has = |effects: &[Effect]| effects.contains(&Effect::Power(power));
        for &c in &player.permanent {
            if has(permanent_effects(c)) && !(power.once_per_turn() && player.used.contains(&c)) {
                return Some(PowerSource::Permanent(c));
            }
        }
        // "OT = Once on your Turn": a card whose power was used this turn cannot be used
        // again from the hand (a permanent switched into the hand by the Diplomat, or a card
        // drawn back after a reshuffle).
        let spent = |c: &CardId| {
            power.once_per_turn() && (player.used.contains(c) || player.played.contains(c))
        };
        player
            .hand
            .iter()
            .find(|&&c| has(hand_effects(c)) && !spent(&c))
            .map(|&c| PowerSource::Hand(c))
    }

    /// [`State::power_source`] from edition 2: "OT = Once on your Turn" counts copies, for the
    /// variant that duplicates ally cards (l.247; review L3). Each copy of a card gives its
    /// power once a turn: a player may use a card's power as often as it has copies in the
    /// game, less the uses this turn (permanent uses, and copies played from the hand), and
    /// only from a copy it holds that is not spent: the used permanent copies count as its
    /// permanents first, then as hand cards (a used permanent the Diplomat switched into the
    /// hand). With one copy of each card (the rulebook's deck) a card used this turn cannot
    /// be used again from anywhere, not even drawn back after a reshuffle and made permanent
    /// by the Diplomat (review L5).
    fn power_copy(&self, seat: Seat, power: Power) -> Option<PowerSource> {
        let player = self.players.get(seat)?;
        let has = |effects: &[Effect]| effects.contains(&Effect::Power(power));
        let count = |cards: &[CardId], c: CardId| cards.iter().filter(|&&x| x == c).count();
        let fresh = |c: CardId| {
            let uses = count(&player.used, c) + count(&player.played, c);
            !power.once_per_turn() || uses < self.copies_in_game(c)
        };
        let permanent = player.permanent.iter().copied().find(|&c| {
            has(permanent_effects(c))
                && fresh(c)
                && (!power.once_per_turn() || count(&player.permanent, c) > count(&player.used, c))
        });
        if let Some(c) = permanent {
            return Some(PowerSource::Permanent(c));
        }
        player
            .hand
            .iter()
            .copied()
            .find(|&c| {
                let used_in_hand =
                    count(&player.used, c).saturating_sub(count(&player.permanent, c));
                has(hand_effects(c))
                    && fresh(c)
                    && (!power.once_per_turn() || count(&player.hand, c) > used_in_hand)
            })
            .map(PowerSource::Hand)
    }

    /// Copies of a card in the game: in the deck, the discard pile, and every player's
    /// permanent cards and hand.
    fn copies_in_game(&self, card: CardId) -> usize {
        let players = self
            .players
            .iter()
            .flat_map(|p| p.permanent.iter().chain(&p.hand));
        self.deck
            .iter()
            .chain(&self.discard)
            .chain(players)
            .filter(|&&c| c == card)
            .count()
    }

    /// The seat whose turn number `turn` is: "Play proceeds clockwise" from the first player,
    /// round the corners of the board (see [`State::turn_order`]).
    pub fn seat_of_turn(&self, turn: u32) -> Seat {
        let order = self.turn_order();
        let n = order.len().max(1);
        let offset = usize::try_from(turn.saturating_sub(1)).unwrap_or(0) % n;
        order.get(offset).copied().unwrap_or(self.first)
    }

    /// The seats in the order they play, from the first player on: clockwise round the board
    /// as the diagram and the picture show it (row 8 at the top): a1, a8, h8, h1. A seat
    /// without a corner (never, once set-up is over) keeps its seat order after the others.
    pub fn turn_order(&self) -> Vec<Seat> {
        let rank = |seat: Seat| -> usize {
            self.players
                .get(seat)
                .and_then(|p| p.corner)
                .and_then(|c| Pos::CLOCKWISE.iter().position(|&k| k == c))
                .unwrap_or(Pos::CLOCKWISE.len() + seat)
        };
        let first = rank(self.first);
        let mut seats: Vec<Seat> = (0..self.seats()).collect();
        // Ranks from the first player's corner on, going round.
        let span = Pos::CLOCKWISE.len() + self.seats();
        seats.sort_by_key(|&s| (rank(s) + span - first) % span);
        seats
    }

    pub fn last_turn(&self) -> u32 {
        ROUNDS.saturating_mul(u32::try_from(self.seats()).unwrap_or(0))
    }

    /// Tiles of each terrain still to place.
    pub fn tiles_left(&self, terrain: Terrain) -> u8 {
        let placed = self
            .board
            .iter()
            .filter(|s| s.terrain == Some(terrain))
            .count();
        TILES_PER_TERRAIN.saturating_sub(u8::try_from(placed).unwrap_or(u8::MAX))
    }

    pub fn chits_left(&self, structure: Structure) -> u8 {
        let placed = self
            .board
            .iter()
            .filter(|s| s.structure == Some(structure))
            .count();
        CHITS_PER_STRUCTURE.saturating_sub(u8::try_from(placed).unwrap_or(u8::MAX))
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over(_))
    }
}

/// Where a power's card comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerSource {
    Permanent(CardId),
    Hand(CardId),
}

impl State {
    /// The corners `seat` may pick: the free ones; with 2 players the second player's is the
    /// one opposite ("Players start in opposite corners").
    pub fn free_corners(&self) -> Vec<Pos> {
        let taken: Vec<Pos> = self.players.iter().filter_map(|p| p.corner).collect();
        if self.seats() == 2
            && let Some(&first) = taken.first()
        {
            return vec![opposite(first)];
        }
        Pos::CORNERS
            .into_iter()
            .filter(|c| !taken.contains(c))
            .collect()
    }

    /// The 3-player seat "caught in the middle": the corner opposite its own is the free one,
    /// so its corner lies between both rivals' corners.
    pub fn middle_seat(&self) -> Option<Seat> {
        if self.seats() != 3 {
            return None;
        }
        let taken: Vec<Pos> = self.players.iter().filter_map(|p| p.corner).collect();
        let free = Pos::CORNERS.into_iter().find(|c| !taken.contains(c))?;
        self.players
            .iter()
            .position(|p| p.corner == Some(opposite(free)))
    }
}

/// The corner opposite to a corner.
pub fn opposite(corner: Pos) -> Pos {
    Pos(SIDE - 1 - corner.0, SIDE - 1 - corner.1)
}

/// Inserts a card into a sorted hand.
pub fn put(cards: &mut Vec<CardId>, card: CardId) {
    let at = cards.partition_point(|&c| c <= card);
    cards.insert(at, card);
}

/// Removes one copy of a card; false if it is not there.
pub fn take(cards: &mut Vec<CardId>, card: CardId) -> bool {
    match cards.iter().position(|&c| c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
    }
}
