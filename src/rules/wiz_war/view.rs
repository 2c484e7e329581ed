//! What each viewer sees: the state view, the log's visibility and redaction, descriptions.
//! Secret: each hand (others see its size), the deck (count only), and the card a draw or a
//! Thought Steal brings (drawer, or thief and victim, only). Everything else is on the table.
//!
//! The view is typed ([`View`]): its JSON Schema is published (`GET /v1/rulesets/wiz-war`, the
//! `WizWarView` component of the OpenAPI document), derived from these types.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::actions::{Action, actor};
use super::board::{Created, Dir, EdgeKind, Link, Pos};
use super::cards::CardId;
use super::state::{How, Need, Phase, State, Target};
use crate::rules::{Actor, Seat, Viewer, Visibility};

/// What one viewer sees of a Wiz-War game. Every field is always present; the only secrets are
/// the other wizards' hands (`wizards[].hand` is null for them) and the deck (a count).
#[derive(Serialize, JsonSchema)]
pub struct View {
    /// The viewer's seat; null for a spectator (and for the everyone-view of a finished game).
    pub you: Option<Seat>,
    /// The step the game is at.
    pub phase: Step,
    /// What the game waits for, in words (the summary once the game is over).
    pub prompt: String,
    /// The seat that decides now; null during a chance step (a draw, a die roll) and once the
    /// game is over.
    pub to_act: Option<Seat>,
    /// The seat whose turn it is.
    pub active_seat: Seat,
    /// Turns begun so far.
    pub turn_number: u32,
    /// The round (a round is every living wizard's turn).
    pub round: u32,
    /// The active wizard's turn.
    pub turn: TurnView,
    /// The labyrinth.
    pub board: BoardView,
    /// Every wizard, by seat.
    pub wizards: Vec<WizardView>,
    /// Every treasure, by index.
    pub treasures: Vec<TreasureView>,
    /// The objects on the board (conjured walls, items thrown or dropped ...).
    pub objects: Vec<ObjectView>,
    /// The spells in play (lasting spells, with their energy).
    pub spells_in_play: Vec<SpellView>,
    /// The cast the active wizard is building (card, then target, then boost); null when none.
    pub casting: Option<CastingView>,
    /// The cards waiting to resolve, oldest first: the last is answered first (counter spells).
    pub stack: Vec<PendingView>,
    /// Cards left in the deck (their faces are secret).
    pub deck_count: usize,
    /// The discard pile, oldest first (face up).
    pub discard: Vec<CardId>,
    /// What happened lately, in words, oldest first.
    pub recent: Vec<String>,
    /// The winning seats once the game is over; null before.
    pub winners: Option<Vec<Seat>>,
}

/// The step the game is at (a reaction window, a hand over the limit or a cast being built
/// come before the phase of the turn).
///
/// - `reaction_window`: Cards on the stack wait for counter spells.
/// - `discard_down`: A wizard holds more cards than the hand limit and must shed some.
/// - `casting`: The active wizard is choosing a target or a boost for a cast.
/// - `building_board`: Set-up: colours are drawn and the sectors laid.
/// - `dealing`: Set-up: the hands are dealt.
/// - `choosing_first_player`: Set-up: the first player is drawn.
/// - `move_and_cast`: The active wizard moves and casts.
/// - `discard_and_draw`: The active wizard discards and draws.
/// - `game_over`: The game is over.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    ReactionWindow,
    DiscardDown,
    Casting,
    BuildingBoard,
    Dealing,
    ChoosingFirstPlayer,
    MoveAndCast,
    DiscardAndDraw,
    GameOver,
}

/// The active wizard's turn.
#[derive(Serialize, JsonSchema)]
pub struct TurnView {
    /// Movement points left.
    pub movement_points: u8,
    /// Whether the wizard has attacked this turn.
    pub attacked: bool,
    /// Whether the wizard began the turn stunned.
    pub stunned: bool,
    /// Whether this is the wizard's first turn.
    pub first_turn: bool,
    /// Cards drawn this turn.
    pub drawn: u8,
    /// The square the wizard first cast from this turn; null before a cast.
    pub cast_from: Option<Pos>,
    /// Extra reach (squares) from Stretch.
    pub stretch_reach: u8,
    /// Whether the extra punch has been made.
    pub extra_punch_made: bool,
}

/// The labyrinth: a grid of `width` × `height` squares, each `[x, y]`, x eastward and y
/// southward from `[0, 0]`.
#[derive(Serialize, JsonSchema)]
pub struct BoardView {
    pub width: i8,
    pub height: i8,
    /// The sector slots and the sector laid in each.
    pub sectors: Vec<SectorView>,
    /// Every border line that is not a plain opening: walls, doors, the outer wall, and lines
    /// a spell made or broke. A line is named by a square and one of its sides.
    pub lines: Vec<LineView>,
    /// Where moving off a square through a side leads (portals and the board's wrap).
    pub links: Vec<Link>,
}

/// One sector slot.
#[derive(Serialize, JsonSchema)]
pub struct SectorView {
    /// The slot's north-west square.
    pub origin: Pos,
    /// The colour of the sector laid there; null while the slot is empty.
    pub colour: Option<&'static str>,
    /// Quarter turns clockwise the sector was laid at.
    pub quarter_turns: u8,
}

/// One border line. The optional fields are absent, not null, when they do not apply.
#[derive(Serialize, JsonSchema)]
pub struct LineView {
    /// A square the line borders.
    pub at: Pos,
    /// The side of `at` the line is on.
    pub side: Dir,
    pub kind: LineKind,
    /// The colour of the door's wizard; doors only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<&'static str>,
    /// Cracks in the wall or door; absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cracks: Option<u8>,
    /// `true` when the wall or door was destroyed (the line is open); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destroyed: Option<bool>,
    /// `true` when the door is sealed shut; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sealed: Option<bool>,
    /// The wall a spell made here (the spell that keeps it, its cracks); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<Created>,
}

/// What a border line is.
///
/// - `open`: Open (made or broken by a spell).
/// - `door`: A door: its own wizard passes, others do not.
/// - `outer_wall`: The labyrinth's outer wall.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    Open,
    Wall,
    Door,
    OuterWall,
}

/// One wizard.
#[derive(Serialize, JsonSchema)]
pub struct WizardView {
    pub seat: Seat,
    /// The wizard's colour (e.g. `red`).
    pub colour: &'static str,
    /// The wizard's home square; null when none.
    pub home: Option<Pos>,
    /// Where the wizard stands; null once dead.
    pub at: Option<Pos>,
    pub alive: bool,
    /// Life points left.
    pub life: i16,
    /// Victory points.
    pub points: u32,
    /// Enemy wizards killed.
    pub kills: u32,
    /// Stun tokens on the wizard.
    pub stun_tokens: u8,
    /// Cards in hand (public).
    pub hand_count: usize,
    /// The cards in hand: only the wizard's own player (and everyone once the game is over)
    /// sees them; null for every other viewer.
    pub hand: Option<Vec<CardId>>,
    /// Items in play before the wizard (public).
    pub items: Vec<CardId>,
    /// The treasure carried (its index in `treasures`); null when none.
    pub treasure: Option<usize>,
    /// Cards counted against the hand limit.
    pub hand_total: usize,
    pub hand_limit: usize,
    /// The form the wizard has taken (e.g. `Golem Form`); null in the wizard's own form.
    pub form: Option<&'static str>,
    /// Whether the wizard is invisible.
    pub invisible: bool,
}

/// One treasure.
#[derive(Serialize, JsonSchema)]
pub struct TreasureView {
    pub index: usize,
    /// Its owner's colour.
    pub colour: &'static str,
    /// The seat that owns it.
    pub owner: Seat,
    /// Where it lies; null while carried.
    pub at: Option<Pos>,
    /// The seat carrying it; null when none.
    pub carried_by: Option<Seat>,
    /// Whether Fool's Gold holds it.
    pub held_by_fools_gold: bool,
}

/// One object on the board.
#[derive(Serialize, JsonSchema)]
pub struct ObjectView {
    pub id: u32,
    pub card: CardId,
    /// The card's name.
    pub name: String,
    pub at: Pos,
    /// Whether it can be picked up and carried.
    pub mobile: bool,
    /// Whether it fills its square (nothing enters).
    pub fills_square: bool,
    pub cracks: u8,
    /// The spell in play that keeps it; null when none.
    pub spell: Option<u32>,
}

/// One spell in play.
#[derive(Serialize, JsonSchema)]
pub struct SpellView {
    pub id: u32,
    pub card: CardId,
    /// The card's name.
    pub name: String,
    pub caster: Seat,
    /// The energy the spell was cast with.
    pub energy: u8,
    /// Energy tokens left on it.
    pub energy_tokens: u8,
    pub target: Target,
}

/// The cast being built.
#[derive(Serialize, JsonSchema)]
pub struct CastingView {
    pub card: CardId,
    /// How the card is used.
    pub how: How,
    /// The square cast from; null when not fixed yet.
    pub square: Option<Pos>,
    /// The target; null until chosen.
    pub target: Option<Target>,
}

/// A card waiting on the stack.
#[derive(Serialize, JsonSchema)]
pub struct PendingView {
    /// The seat that played it.
    pub by: Seat,
    pub card: CardId,
    /// The card's name.
    pub name: String,
    pub how: How,
    pub target: Target,
    pub energy: u8,
    /// Whether it is a counter spell answering the card below it.
    pub counter: bool,
    /// The seats that may still answer it, the first next.
    pub waiting_for: Vec<Seat>,
}

/// What `viewer` sees of the state, typed.
pub fn typed_view(state: &State, viewer: Viewer) -> View {
    let t = &state.turn;
    View {
        you: match viewer {
            Viewer::Seat(s) => Some(s),
            _ => None,
        },
        phase: step(state),
        prompt: prompt(state),
        to_act: actor(state),
        active_seat: t.seat,
        turn_number: t.number,
        round: state.round(),
        turn: TurnView {
            movement_points: t.movement,
            attacked: t.attacked,
            stunned: t.stunned,
            first_turn: t.first,
            drawn: t.drawn,
            cast_from: t.cast_from,
            stretch_reach: t.reach,
            extra_punch_made: t.extra_punch,
        },
        board: board_view(state),
        wizards: (0..state.seats())
            .filter_map(|s| wizard_view(state, s, viewer))
            .collect(),
        treasures: state
            .treasures
            .iter()
            .enumerate()
            .map(|(i, t)| TreasureView {
                index: i,
                colour: state.colour(t.owner),
                owner: t.owner,
                at: t.at,
                carried_by: state.carrier(i),
                held_by_fools_gold: super::state::leaded(state, i),
            })
            .collect(),
        objects: state
            .objects
            .iter()
            .map(|o| ObjectView {
                id: o.id,
                card: o.card,
                name: o.card.name(),
                at: o.at,
                mobile: o.mobile(),
                fills_square: o.fills_square(),
                cracks: o.cracks,
                spell: o.spell,
            })
            .collect(),
        spells_in_play: state
            .spells
            .iter()
            .map(|s| SpellView {
                id: s.id,
                card: s.card,
                name: s.card.name(),
                caster: s.caster,
                energy: s.energy,
                energy_tokens: s.tokens,
                target: s.target,
            })
            .collect(),
        casting: state.casting.as_ref().map(|c| CastingView {
            card: c.card,
            how: c.how,
            square: c.square,
            target: c.target,
        }),
        stack: state
            .stack
            .iter()
            .map(|p| PendingView {
                by: p.by,
                card: p.card,
                name: p.card.name(),
                how: p.how,
                target: p.target,
                energy: p.energy,
                counter: p.counter,
                waiting_for: p.waiting.clone(),
            })
            .collect(),
        deck_count: state.deck.len(),
        discard: state.discard.clone(),
        recent: state.events.clone(),
        winners: match &state.phase {
            Phase::Over { winners, .. } => Some(winners.clone()),
            _ => None,
        },
    }
}

fn wizard_view(state: &State, seat: Seat, viewer: Viewer) -> Option<WizardView> {
    let w = state.wizard(seat)?;
    Some(WizardView {
        seat,
        colour: state.colour(seat),
        home: state.board.home(seat),
        at: w.at,
        alive: w.alive(),
        life: w.life,
        points: state.points(seat),
        kills: w.kills,
        stun_tokens: w.stun,
        hand_count: w.hand.len(),
        hand: viewer.sees_secrets_of(seat).then(|| w.hand.clone()),
        items: w.items.clone(),
        treasure: w.treasure,
        hand_total: state.hand_total(seat),
        hand_limit: state.hand_limit(seat),
        form: w
            .form
            .and_then(|f| super::cards::FORMS.get(usize::from(f)))
            .map(|f| f.name),
        invisible: state.invisible(seat),
    })
}

fn board_view(state: &State) -> BoardView {
    let b = &state.board;
    let mut lines = Vec::new();
    for p in b.squares() {
        for d in Dir::ALL {
            let own = matches!(d, Dir::East | Dir::South) || !b.exists(p.step(d));
            if !own {
                continue;
            }
            let Some(e) = b.edge(p, d) else { continue };
            if e.kind == EdgeKind::Open && e.created.is_none() {
                continue;
            }
            let (kind, colour) = match e.kind {
                EdgeKind::Open => (LineKind::Open, None),
                EdgeKind::Wall => (LineKind::Wall, None),
                EdgeKind::Door(s) => (LineKind::Door, Some(state.colour(s))),
                EdgeKind::Outer => (LineKind::OuterWall, None),
            };
            lines.push(LineView {
                at: p,
                side: d,
                kind,
                colour,
                cracks: (e.cracks > 0).then_some(e.cracks),
                destroyed: e.destroyed.then_some(true),
                sealed: (matches!(e.kind, EdgeKind::Door(_)) && state.sealed(p, d)).then_some(true),
                created: e.created,
            });
        }
    }
    BoardView {
        width: b.width,
        height: b.height,
        sectors: b
            .slots
            .iter()
            .map(|s| SectorView {
                origin: s.origin,
                colour: s.sector.map(|c| state.colour(usize::from(c))),
                quarter_turns: s.turns,
            })
            .collect(),
        lines,
        links: b.links.clone(),
    }
}

/// The schema of [`View`], its parts under `generator`'s definitions.
pub fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<View>()
}

fn step(state: &State) -> Step {
    if !state.stack.is_empty() {
        return Step::ReactionWindow;
    }
    if state.over_limit().is_some() {
        return Step::DiscardDown;
    }
    if state.casting.is_some() {
        return Step::Casting;
    }
    match state.phase {
        Phase::Building { .. } => Step::BuildingBoard,
        Phase::Dealing => Step::Dealing,
        Phase::FirstPlayer => Step::ChoosingFirstPlayer,
        Phase::MoveAndCast => Step::MoveAndCast,
        Phase::DiscardAndDraw => Step::DiscardAndDraw,
        Phase::Over { .. } => Step::GameOver,
    }
}

fn prompt(state: &State) -> String {
    let active = state.turn.seat;
    if let Phase::Over { summary, .. } = &state.phase {
        return summary.clone();
    }
    if let Some(need) = state.needs.first() {
        return match need {
            Need::Draw(s) => format!("Seat {s} draws a card"),
            Need::Steal { thief, victim } => {
                format!("Seat {thief} takes a card from Seat {victim}")
            }
            Need::Punch { by, die, .. } => format!("Seat {by} rolls a d{die} for the punch"),
            Need::DiscardAtRandom(s) => {
                format!("Seat {s} discards a card drawn at random from their hand")
            }
            Need::Evade { by, victim, .. } => format!(
                "Seat {victim} rolls the die to evade Seat {by}'s attack (1-{} misses)",
                state.form(*victim).map_or(0, |f| f.evades_up_to)
            ),
        };
    }
    if let Some(s) = state.over_limit() {
        return format!(
            "Seat {s} is over the hand limit and must discard, drop an item or end a spell"
        );
    }
    if let Some(top) = state.stack.last() {
        return format!(
            "Seat {} cast {}: Seat {} may answer with a counter spell or pass",
            top.by,
            top.card.name(),
            top.waiting
                .first()
                .map_or("?".to_owned(), |s| s.to_string())
        );
    }
    if let Some(c) = &state.casting {
        return if c.target.is_none() {
            format!("Seat {active} chooses a target for {}", c.card.name())
        } else {
            format!(
                "Seat {active} may boost {} with an energy card",
                c.card.name()
            )
        };
    }
    match state.phase {
        Phase::Building { .. } if state.colours.len() < state.seats() => {
            format!("Drawing colours: seat {}", state.colours.len())
        }
        Phase::Building { slot, .. } => format!("Building the labyrinth: sector slot {slot}"),
        Phase::Dealing => "Dealing".to_owned(),
        Phase::FirstPlayer => "Choosing the first player".to_owned(),
        Phase::MoveAndCast => format!(
            "Seat {active} moves and casts ({} movement points left)",
            state.turn.movement
        ),
        Phase::DiscardAndDraw => format!("Seat {active} discards and draws"),
        Phase::Over { .. } => String::new(),
    }
}

pub fn visibility(state: &State, _actor: Actor, action: &Action) -> Visibility {
    match (action, state.needs.first()) {
        (Action::Draw(_), Some(Need::Draw(s))) => Visibility::Seats(vec![*s]),
        (Action::Steal(_), Some(Need::Steal { thief, victim })) => {
            let mut seats = vec![*thief, *victim];
            seats.sort_unstable();
            seats.dedup();
            Visibility::Seats(seats)
        }
        (Action::Draw(_) | Action::Steal(_), _) => Visibility::Seats(Vec::new()),
        _ => Visibility::Public,
    }
}

pub fn redact(_state: &State, _actor: Actor, action: &Action) -> Value {
    match action {
        Action::Draw(_) => json!({"draw": "hidden"}),
        Action::Steal(_) => json!({"steal": "hidden"}),
        other => serde_json::to_value(other).unwrap_or(Value::Null),
    }
}

fn target_text(t: &Target) -> String {
    match t {
        Target::None => "no target".to_owned(),
        Target::Wizard(s) => format!("Seat {s}"),
        Target::WizardToward(s, d) => format!("Seat {s} (knocked {})", d.name()),
        Target::Square(p) => format!("square {p}"),
        Target::Side(p, d) => format!("the {} side of {p}", d.name()),
        Target::Direction(d) => d.name().to_owned(),
        Target::Rotate(slot, q) => format!("sector slot {slot}, {} degrees", u32::from(*q) * 90),
        Target::Spell(id) => format!("spell #{id}"),
        Target::Object(id) => format!("object #{id}"),
        Target::Treasure(i) => format!("treasure #{i}"),
        Target::Item(s, c) => format!("Seat {s}'s {}", c.name()),
    }
}

pub fn describe(state: &State, actor_: Actor, action: &Action, viewer: Viewer) -> String {
    let who = match actor_ {
        Actor::Seat(s) => format!("Seat {s}"),
        Actor::Chance => "Chance".to_owned(),
    };
    let full = visibility(state, actor_, action).allows(viewer);
    let n = |c: &CardId| c.name();
    match action {
        Action::Colour(c) => format!(
            "Seat {} is {}",
            state.colours.len(),
            super::state::colour_name(*c)
        ),
        Action::PlaceSector(s) => format!(
            "The {} sector goes in slot {}",
            state.colour(usize::from(*s)),
            match state.phase {
                Phase::Building { slot, .. } => slot,
                _ => 0,
            }
        ),
        Action::TurnSector(q) => format!("The sector is turned {} degrees", u32::from(*q) * 90),
        Action::Draw(c) => match state.needs.first() {
            Some(Need::Draw(s)) if full => format!("Seat {s} drew {}", n(c)),
            Some(Need::Draw(s)) => format!("Seat {s} drew a card"),
            _ => "A card was drawn".to_owned(),
        },
        Action::Steal(c) => match state.needs.first() {
            Some(Need::Steal { thief, victim }) if full => {
                format!("Seat {thief} took {} from Seat {victim}'s hand", n(c))
            }
            Some(Need::Steal { thief, victim }) => {
                format!("Seat {thief} took a card from Seat {victim}'s hand")
            }
            _ => "A card was taken".to_owned(),
        },
        // Public, as a chosen discard is: the card goes face up on the discard pile.
        Action::RandomDiscard(c) => match state.needs.first() {
            Some(Need::DiscardAtRandom(s)) => {
                format!(
                    "Seat {s} discards {}, drawn at random from their hand",
                    n(c)
                )
            }
            _ => format!("{} is discarded", n(c)),
        },
        Action::FirstPlayer(s) => format!("Seat {s} plays first"),
        Action::Roll(n) => match state.needs.first() {
            Some(Need::Punch { by, victim, .. }) => {
                format!("Seat {by} rolled {n} for the punch at Seat {victim}")
            }
            Some(Need::Evade { by, victim, .. }) => {
                let evades = state.form(*victim).map_or(0, |f| f.evades_up_to);
                if *n <= evades {
                    format!("Seat {victim} rolled {n} and evaded Seat {by}'s attack")
                } else {
                    format!("Seat {victim} rolled {n}: Seat {by}'s attack hits")
                }
            }
            _ => format!("The die shows {n}"),
        },
        Action::Move(d) => format!("{who} moves {}", d.name()),
        // What lies on the board is public: the log names it, as the drop named it.
        Action::PickUp(id) => match state.objects.iter().find(|o| o.id == *id) {
            Some(o) => format!("{who} picks up {}", o.card.name()),
            None => format!("{who} picks up object #{id}"),
        },
        Action::PickUpTreasure(i) => format!("{who} picks up treasure #{i}"),
        Action::Drop(c) => format!("{who} drops {}", n(c)),
        Action::DropTreasure => format!("{who} drops the treasure"),
        Action::Speed(c) => format!("{who} spends {} for movement", n(c)),
        Action::Cast(c) => format!("{who} casts {}", n(c)),
        Action::Play(c) => format!("{who} plays the item {}", n(c)),
        Action::Throw(c) => format!("{who} throws {}", n(c)),
        Action::Wield(c) => format!("{who} attacks with {}", n(c)),
        Action::Punch(s) => format!("{who} punches Seat {s}"),
        Action::Target(t) => format!("{who} targets {}", target_text(t)),
        Action::Boost(c) => format!("{who} boosts the spell with {}", n(c)),
        Action::BoostAdd(a, b) => {
            format!("{who} boosts the spell with {} and {} (Add)", n(a), n(b))
        }
        Action::NoBoost => format!("{who} casts without a boost"),
        Action::CancelCast => match state.casting.as_ref() {
            Some(c) if c.how == How::Cast && state.options.edition >= 1 => {
                format!("{who} gives up casting {}: it is discarded", n(&c.card))
            }
            _ => format!("{who} takes the spell back"),
        },
        Action::EndSpell(id) => format!("{who} ends spell #{id}"),
        Action::EndMove => format!("{who} ends move and cast"),
        Action::Discard(c) => format!("{who} discards {}", n(c)),
        Action::DiscardAtRandom => format!("{who} discards a card from their hand at random"),
        Action::DrawCard => format!("{who} draws a card"),
        Action::EndTurn => format!("{who} ends the turn"),
        Action::Counter(c) => format!("{who} answers with {}", n(c)),
        Action::CounterToward(c, d) => {
            format!("{who} answers with {}, drifting {}", n(c), d.name())
        }
        Action::Pass => format!("{who} passes"),
    }
}
