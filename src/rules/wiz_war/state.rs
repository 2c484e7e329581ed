//! The game state and the questions asked of it.

use serde::{Deserialize, Serialize};

use super::board::{Board, Dir, EdgeKind, Pos};
use super::cards::{CardId, Duration, Effect, FORMS, Form, Trait};
use super::options::Options;
use super::sight::{Doors, Sight};
use crate::rules::Seat;

/// Life at the start.
pub const START_LIFE: i16 = 15;
/// The most life a wizard can have (Lifestone).
pub const MAX_LIFE: i16 = 20;
/// Cards in hand, maintained spells and carried items together.
pub const HAND_LIMIT: usize = 7;
/// Cards dealt to each wizard at the start.
pub const STARTING_HAND: usize = 5;
/// Movement points a turn.
pub const MOVEMENT: u8 = 3;
/// Cards drawn at most in a discard and draw phase.
pub const DRAWS: u8 = 2;
/// Victory points that win.
pub const POINTS_TO_WIN: u32 = 2;

/// The colour names of the seats (and of their sectors, doors and treasures).
pub const COLOURS: [&str; 4] = ["red", "blue", "green", "yellow"];

/// A colour's name by its number (0 red … 3 yellow).
pub fn colour_name(colour: u8) -> &'static str {
    COLOURS.get(usize::from(colour)).copied().unwrap_or("grey")
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wizard {
    /// Where the wizard stands (none once dead).
    pub at: Option<Pos>,
    pub life: i16,
    /// Enemy wizards killed (victory points that are kept).
    pub kills: u32,
    pub stun: u8,
    /// Secret: the cards in hand, sorted.
    pub hand: Vec<CardId>,
    /// Carried items, face up, sorted.
    pub items: Vec<CardId>,
    /// The treasure carried (index into the treasures).
    pub treasure: Option<usize>,
    /// Turns this wizard has begun.
    pub turns: u32,
    /// A transformation (index into `cards::FORMS`), while its card is maintained (Mutation's
    /// Form cards): "A wizard or creature may only be affected by one transformation at a
    /// time" (l.323).
    pub form: Option<u8>,
}

impl Wizard {
    pub fn alive(&self) -> bool {
        self.at.is_some()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Treasure {
    pub owner: Seat,
    /// Where it lies; none while carried.
    pub at: Option<Pos>,
}

/// An object on the board: a dropped item, or a creation maintained by a spell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    pub id: u32,
    pub card: CardId,
    pub at: Pos,
    pub cracks: u8,
    /// The spell in play that created it.
    pub spell: Option<u32>,
}

impl Object {
    /// A dropped item (no spell holds it) can be picked up again: "Any wizard in the same
    /// square as a dropped object may pick it up" (rulebook l.371), whatever its traits say.
    pub fn mobile(&self) -> bool {
        self.spell.is_none()
            && (self.card.has_trait(Trait::Mobile)
                || self.card.kind() == Some(super::cards::Kind::Item))
    }

    pub fn fills_square(&self) -> bool {
        self.card.has_trait(Trait::FillsSquare)
    }
}

/// What a card is aimed at. JSON e.g. `{"wizard":1}`, `{"square":[3,4]}`,
/// `{"side":[[3,4],"east"]}`, `{"direction":"north"}`, `{"rotate":[2,1]}` (slot, quarter turns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Nothing to choose: the caster, your sector, the whole board.
    None,
    Wizard(Seat),
    /// A wizard in your own square, knocked back in this direction (Waterbolt).
    WizardToward(Seat, Dir),
    Square(Pos),
    Side(Pos, Dir),
    Direction(Dir),
    Rotate(usize, u8),
    Spell(u32),
    Object(u32),
    Treasure(usize),
    Item(Seat, CardId),
}

/// A temporary or permanent spell in play (maintained by its caster).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spell {
    pub id: u32,
    pub card: CardId,
    pub caster: Seat,
    pub energy: u8,
    /// Energy tokens left (temporary spells).
    pub tokens: u8,
    pub target: Target,
}

/// How a card is being used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum How {
    Cast,
    Throw,
    Weapon,
    Punch,
}

/// A cast being built by the active wizard: card, then target, then energy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Casting {
    pub card: CardId,
    pub how: How,
    /// The square chosen first when the target is a border line.
    pub square: Option<Pos>,
    pub target: Option<Target>,
    /// Whether Around the Corner is needed to reach the target.
    pub bent: bool,
}

/// An action waiting on the stack for its reaction window, then resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub by: Seat,
    pub card: CardId,
    pub how: How,
    pub target: Target,
    pub energy: u8,
    /// Cards spent with it (energy cards, Add, Around the Corner): discarded afterwards.
    pub spent: Vec<CardId>,
    /// A counter spell: it cancels the entry below it.
    pub counter: bool,
    /// Featherweight's direction when the attack comes from the same square.
    pub toward: Option<Dir>,
    /// Seats still to answer, in order; the first answers now.
    pub waiting: Vec<Seat>,
    /// Bent by Around the Corner (spent with it), which Negate Neutral answers from edition 1.
    /// Left out when false (states stored before it was kept).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bent: bool,
}

/// A chance step owed: a card to draw, a card taken or discarded at random from a hand, a die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Need {
    Draw(Seat),
    Steal {
        thief: Seat,
        victim: Seat,
    },
    /// A punch whose damage adds a die roll (the Werewolf's d4): `damage` plus the roll.
    Punch {
        by: Seat,
        victim: Seat,
        damage: i16,
        die: u8,
    },
    /// An attack aimed at a wizard in a form that may evade it (the Gnome): the four-sided die
    /// is rolled; on `evades_up_to` or less it misses. `attack` is the spell, throw or weapon
    /// attack waiting to resolve; none for a punch.
    Evade {
        by: Seat,
        victim: Seat,
        attack: Option<Pending>,
    },
    /// A wizard over its hand limit chose `discard_at_random` (what a deadline plays): a card
    /// is drawn at random from its hand and discarded (ruling 31).
    DiscardAtRandom(Seat),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Set-up: the sector for `slot` is drawn, then its orientation.
    Building {
        slot: usize,
        sector: Option<u8>,
    },
    Dealing,
    FirstPlayer,
    MoveAndCast,
    DiscardAndDraw,
    Over {
        winners: Vec<Seat>,
        summary: String,
    },
}

/// The active wizard's turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Turn {
    pub seat: Seat,
    /// Turns begun in the game (all seats).
    pub number: u32,
    /// The round this turn belongs to, from 1: a round begins each time play comes round to
    /// (or past, when that wizard is dead) the first player's seat.
    #[serde(default)]
    pub round: u32,
    /// The seat that played first.
    #[serde(default)]
    pub first_seat: Seat,
    pub movement: u8,
    pub moved: bool,
    pub attacked: bool,
    pub stunned: bool,
    pub first: bool,
    /// Doors opened with Pick Lock this turn (canonical sides).
    pub picked: Vec<(Pos, Dir)>,
    /// Astral Projection: spells are traced from here this turn.
    pub cast_from: Option<Pos>,
    pub drawn: u8,
    /// Stretch: punches and adjacent-range spells at wizards reach this many squares in a
    /// straight open line this turn (0: not stretched).
    #[serde(default)]
    pub reach: u8,
    /// Extra Arms: the one more punch of this turn has been made.
    #[serde(default)]
    pub extra_punch: bool,
    /// The items picked up this turn: dropping one of them again takes the pick-up back
    /// (`Ruleset::takes_back`, for the bot).
    #[serde(default)]
    pub picked_up: Vec<CardId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub options: Options,
    pub board: Board,
    pub wizards: Vec<Wizard>,
    pub treasures: Vec<Treasure>,
    pub objects: Vec<Object>,
    pub spells: Vec<Spell>,
    /// The unseen deck, a sorted multiset: nothing is shuffled in advance.
    pub deck: Vec<CardId>,
    /// The discard pile, face up.
    pub discard: Vec<CardId>,
    pub next_id: u32,
    pub phase: Phase,
    pub turn: Turn,
    pub casting: Option<Casting>,
    pub stack: Vec<Pending>,
    pub needs: Vec<Need>,
    /// What happened last, public sentences for the view.
    pub events: Vec<String>,
    /// Each seat's colour (0 red … 3 yellow), drawn at random in set-up (l.34); its sector,
    /// doors and treasures are that colour. Seat order until drawn.
    #[serde(default)]
    pub colours: Vec<u8>,
}

/// Removes one `item` from a sorted multiset; whether it was there.
pub fn take<T: Ord>(pile: &mut Vec<T>, item: &T) -> bool {
    match pile.binary_search(item) {
        Ok(i) => {
            pile.remove(i);
            true
        }
        Err(_) => false,
    }
}

/// Adds `item` to a sorted multiset.
pub fn put<T: Ord>(pile: &mut Vec<T>, item: T) {
    let i = pile.binary_search(&item).unwrap_or_else(|i| i);
    pile.insert(i, item);
}

/// Each distinct item once with its count, in order.
pub fn tally<T: Ord + Copy>(pile: &[T]) -> Vec<(T, u32)> {
    let mut out: Vec<(T, u32)> = Vec::new();
    for &x in pile {
        match out.last_mut() {
            Some((y, n)) if *y == x => *n += 1,
            _ => out.push((x, 1)),
        }
    }
    out
}

impl State {
    pub fn seats(&self) -> usize {
        self.wizards.len()
    }

    pub fn wizard(&self, seat: Seat) -> Option<&Wizard> {
        self.wizards.get(seat)
    }

    pub fn pos(&self, seat: Seat) -> Option<Pos> {
        self.wizard(seat).and_then(|w| w.at)
    }

    pub fn alive(&self, seat: Seat) -> bool {
        self.wizard(seat).is_some_and(Wizard::alive)
    }

    pub fn living(&self) -> Vec<Seat> {
        (0..self.seats()).filter(|&s| self.alive(s)).collect()
    }

    pub fn new_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    pub fn carries(&self, seat: Seat, effect: Effect) -> usize {
        self.wizard(seat).map_or(0, |w| {
            w.items.iter().filter(|c| c.effect() == effect).count()
        })
    }

    pub fn maintains(&self, seat: Seat, effect: Effect) -> bool {
        self.spells
            .iter()
            .any(|s| s.caster == seat && s.card.effect() == effect)
    }

    pub fn hand_limit(&self, seat: Seat) -> usize {
        if self.carries(seat, Effect::Spellstone) > 0 {
            usize::from(super::cards::CardId::by_key("spellstone").map_or(8, |c| c.power()))
        } else {
            HAND_LIMIT
        }
    }

    /// Cards in hand, maintained spells and carried items.
    pub fn hand_total(&self, seat: Seat) -> usize {
        let Some(w) = self.wizard(seat) else { return 0 };
        w.hand.len() + w.items.len() + self.spells.iter().filter(|s| s.caster == seat).count()
    }

    /// The first seat (from the active one, clockwise) over its hand limit.
    pub fn over_limit(&self) -> Option<Seat> {
        let n = self.seats();
        (0..n)
            .map(|i| (self.turn.seat + i) % n)
            .find(|&s| self.alive(s) && self.hand_total(s) > self.hand_limit(s))
    }

    /// Victory points: kills, and enemy treasures lying in the seat's home base.
    pub fn points(&self, seat: Seat) -> u32 {
        let kills = self.wizard(seat).map_or(0, |w| w.kills);
        let home = self.board.home(seat);
        let stolen = self
            .treasures
            .iter()
            .filter(|t| t.owner != seat && t.at.is_some() && t.at == home)
            .count();
        kills + u32::try_from(stolen).unwrap_or(0)
    }

    pub fn carrier(&self, treasure: usize) -> Option<Seat> {
        self.wizards
            .iter()
            .position(|w| w.alive() && w.treasure == Some(treasure))
    }

    pub fn wizards_at(&self, p: Pos) -> Vec<Seat> {
        (0..self.seats())
            .filter(|&s| self.pos(s) == Some(p))
            .collect()
    }

    pub fn filled(&self) -> Vec<Pos> {
        self.objects
            .iter()
            .filter(|o| o.fills_square())
            .map(|o| o.at)
            .collect()
    }

    /// Whether an object blocks movement into its square: a Stone Block, a Rosebush (Fog and
    /// Dust Cloud do not).
    pub fn blocks_entry(&self, p: Pos) -> bool {
        self.objects
            .iter()
            .any(|o| o.at == p && matches!(o.card.effect(), Effect::StoneBlock | Effect::Rosebush))
    }

    /// Whether a Glue spell holds the wizard `seat` (it cannot move square to square).
    pub fn glued(&self, seat: Seat) -> bool {
        self.spells
            .iter()
            .any(|s| s.card.effect() == Effect::Glue && s.target == Target::Wizard(seat))
    }

    /// Whether a Seal Door spell holds the door on side `d` of `p`.
    pub fn sealed(&self, p: Pos, d: Dir) -> bool {
        let side = self.board.canonical(p, d);
        self.spells.iter().any(|s| {
            s.card.effect() == Effect::SealDoor
                && matches!(s.target, Target::Side(q, e) if self.board.canonical(q, e) == side)
        })
    }

    /// Whether the wizard `seat` is invisible (maintains Invisible): no spell that needs line
    /// of sight can be cast at it (docs/rules/wiz-war.md, ruling 30).
    pub fn invisible(&self, seat: Seat) -> bool {
        self.maintains(seat, Effect::Invisible)
    }

    /// The caster of the spell in play `id`.
    pub fn caster_of(&self, id: u32) -> Option<Seat> {
        self.spells.iter().find(|s| s.id == id).map(|s| s.caster)
    }

    /// Whether `p` is empty: no wizard, object or treasure.
    pub fn empty_square(&self, p: Pos) -> bool {
        self.wizards_at(p).is_empty()
            && !self.objects.iter().any(|o| o.at == p)
            && !self.treasures.iter().any(|t| t.at == Some(p))
    }

    /// Where creations may go: an empty square that is nobody's home base.
    pub fn creatable(&self, p: Pos) -> bool {
        self.empty_square(p) && self.board.home_of(p).is_none()
    }

    pub fn sight_for(&self, seat: Seat) -> Sight<'_> {
        let doors = match (
            self.carries(seat, Effect::Visionstone) > 0,
            self.options.edition,
        ) {
            (false, _) => Doors::Block,
            // A created door is a door too (audit 2026-11-28, B5).
            (true, 1..) => Doors::AllClear,
            (true, 0) => Doors::BoardClear,
        };
        Sight::new(&self.board, &self.filled(), doors)
            .with_lines_through_links(self.options.edition >= 1)
    }

    /// Where `seat`'s spells are traced from this turn.
    pub fn origin(&self, seat: Seat) -> Option<Pos> {
        if self.turn.seat == seat
            && let Some(p) = self.turn.cast_from
        {
            return Some(p);
        }
        self.pos(seat)
    }

    /// Whether the wizard `seat` may cross side `d` of `p` (walls, doors, created walls).
    pub fn may_cross(&self, seat: Seat, p: Pos, d: Dir) -> bool {
        self.walker(seat).may_cross(self, p, d)
    }

    /// What lets the wizard `seat` through lines, looked up once for many crossings
    /// ([`Walker::may_cross`]).
    pub fn walker(&self, seat: Seat) -> Walker {
        Walker {
            seat,
            mist: self.maintains(seat, Effect::MistBody),
            // Slime Form oozes under doors, whatever their colour.
            slime: self.form(seat).is_some_and(|f| f.through_doors),
            // Master Key: doors of every colour (not a sealed one).
            key: self.carries(seat, Effect::MasterKey) > 0,
        }
    }

    /// Whether a straight flight (a bolt, a knock-back) passes side `d` of `p`.
    pub fn open_line(&self, p: Pos, d: Dir) -> bool {
        self.board.edge(p, d).is_some_and(|e| match e.created {
            Some(c) => c.card.effect() == Effect::WallOfFire,
            None => e.destroyed || e.kind == EdgeKind::Open,
        })
    }

    /// The squares adjacent to `p` (sharing a side, through links too), whatever the lines.
    pub fn neighbours(&self, p: Pos) -> Vec<Pos> {
        Dir::ALL
            .iter()
            .filter_map(|&d| self.board.across(p, d).map(|(q, _)| q))
            .collect()
    }

    pub fn duration(card: CardId) -> Duration {
        card.def().map_or(Duration::Instant, |d| d.duration)
    }

    /// The form the wizard `seat` is transformed into, if any.
    pub fn form(&self, seat: Seat) -> Option<&'static Form> {
        self.wizard(seat)
            .and_then(|w| w.form)
            .and_then(|f| FORMS.get(usize::from(f)))
    }

    pub fn form_movement(&self, seat: Seat) -> u8 {
        self.form(seat).map_or(MOVEMENT, |f| f.movement)
    }

    /// A punch's damage before any die: the form's (1 unchanged; the Werewolf's 0 before its
    /// d4), plus 2 per Mightstone carried, plus Strength's 2 while maintained; and the faces
    /// of the die added to it (0: none).
    pub fn punch_damage(&self, seat: Seat) -> (i16, u8) {
        let (base, die) = self.form(seat).map_or((1, 0), |f| {
            if f.punch_die > 0 {
                (i16::from(f.punch), f.punch_die)
            } else {
                (i16::from(f.punch.max(1)), 0)
            }
        });
        let stones = i16::try_from(self.carries(seat, Effect::Mightstone)).unwrap_or(0);
        let might = CardId::by_key("mightstone").map_or(2, |c| i16::from(c.power()));
        let strength: i16 = self
            .spells
            .iter()
            .filter(|s| s.caster == seat && s.card.effect() == Effect::Strength)
            .map(|s| i16::from(s.card.power()))
            .max()
            .unwrap_or(0);
        (
            base.saturating_add(stones.saturating_mul(might))
                .saturating_add(strength),
            die,
        )
    }

    /// The round being played, from 1 (a state stored before rounds were counted: worked out
    /// from the turns begun, as it was then).
    pub fn round(&self) -> u32 {
        if self.turn.round > 0 {
            return self.turn.round;
        }
        let seats = u32::try_from(self.seats().max(1)).unwrap_or(1);
        self.turn.number.div_ceil(seats).max(1)
    }

    pub fn note(&mut self, text: String) {
        self.events.push(text);
        if self.events.len() > 8 {
            self.events.remove(0);
        }
    }
}

impl State {
    /// The number of `seat`'s colour (0 red … 3 yellow): drawn in set-up, its seat number
    /// until then.
    pub fn colour_of(&self, seat: Seat) -> u8 {
        self.colours
            .get(seat)
            .copied()
            .unwrap_or_else(|| u8::try_from(seat).unwrap_or(u8::MAX))
    }

    /// The name of `seat`'s colour ("red", …): its wizard, sector, doors and treasures.
    pub fn colour(&self, seat: Seat) -> &'static str {
        colour_name(self.colour_of(seat))
    }
}

/// A wizard as it walks: what lets it through lines ([`State::walker`]).
#[derive(Clone, Copy, Debug)]
pub struct Walker {
    seat: Seat,
    /// Mist Body: through walls and every door.
    mist: bool,
    /// Slime Form: under doors of every colour.
    slime: bool,
    /// Master Key: doors of every colour, not a sealed one.
    key: bool,
}

impl Walker {
    /// Whether this wizard may cross side `d` of `p` in `state` (walls, doors, created walls).
    pub fn may_cross(&self, state: &State, p: Pos, d: Dir) -> bool {
        let Some(e) = state.board.edge(p, d) else {
            return false;
        };
        let Walker {
            seat,
            mist,
            slime,
            key,
        } = *self;
        if let Some(c) = e.created {
            return match c.card.effect() {
                Effect::WallOfFire => true,
                // A created door passes its caster, whose colour it is (Create Door).
                Effect::CreateDoor => {
                    mist || slime || key || state.caster_of(c.spell) == Some(seat)
                }
                _ => mist,
            };
        }
        if e.destroyed {
            return true;
        }
        match e.kind {
            EdgeKind::Open => true,
            EdgeKind::Outer => false,
            EdgeKind::Wall => mist,
            // Seal Door: only a mist body passes a sealed door.
            EdgeKind::Door(_) if state.sealed(p, d) => mist,
            EdgeKind::Door(colour) => {
                colour == seat
                    || mist
                    || slime
                    || key
                    || state.turn.picked.contains(&state.board.canonical(p, d))
            }
        }
    }
}

/// Whether Fool's Gold holds the treasure.
pub fn leaded(state: &State, treasure: usize) -> bool {
    state
        .spells
        .iter()
        .any(|s| s.card.effect() == Effect::FoolsGold && s.target == Target::Treasure(treasure))
}

/// Whether an attack on the wizard `victim` waits for its evasion roll (Gnome Form).
pub fn evades(state: &State, victim: Seat) -> bool {
    state.alive(victim) && state.form(victim).is_some_and(|f| f.evades_up_to > 0)
}

/// Same square, or sharing a side (through links too), and in sight.
pub fn adjacent(state: &State, sight: &Sight, from: Pos, to: Pos) -> bool {
    from == to || (state.neighbours(from).contains(&to) && sight.sees_square(from, to))
}
