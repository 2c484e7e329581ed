//! What each viewer sees: the state view, the log's visibility and redaction, and the
//! one-line descriptions. Secret: each hand of Secret abilities and of Learned cards held,
//! the cards being drawn and the Learned card kept until it is attached, the decks (shown as
//! counts). Everything else is public.
//!
//! The view is typed ([`View`]): its JSON Schema is published
//! (`GET /v1/rulesets/gnomes-and-wizards`, the `GnomesAndWizardsView` component of the OpenAPI
//! document), derived from these types.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::actions::Action;
use super::board::{Side, TileId};
use super::data::{self, CardId, Deck, Face, Tribe};
use super::prompt::{prompt, unit_name};
use super::state::{
    Cast, Counter, PendingAttack, Phase, Placement, Result as GameResult, Source, State, Status,
    Step, Target, Unit, UnitRef, Window,
};
use crate::rules::{Actor, Seat, Viewer, Visibility};

/// What one viewer sees of a Gnomes and Wizards game. Every field is always present (null when
/// it does not apply). Secrets: each player's hands of Secret abilities and Learned cards
/// (`players[].hand` and `learned_hand` are null but for the viewer's own), the cards being
/// drawn and the Learned card kept until attached (`draw.drawn`, `draw.learned_to_attach`:
/// the drawer's only), and the decks (counts).
#[derive(Serialize, JsonSchema)]
pub struct View {
    /// The viewer's seat; null for a spectator (and for the everyone-view of a finished game).
    pub you: Option<Seat>,
    /// What the game waits for, in words.
    pub prompt: String,
    /// The round.
    pub round: u8,
    /// The last round.
    pub last_round: u8,
    /// Whether an extra round is being played.
    pub extra_round: bool,
    /// The seat whose turn it is; null outside turns.
    pub current_seat: Option<Seat>,
    /// The seat that plays first each round.
    pub first_player: Seat,
    /// The set-up phase, or the step of the current turn.
    pub step: StepView,
    /// Every tile position of the board, by id.
    pub tiles: Vec<TileView>,
    /// The tiles a Leader may start on.
    pub leader_starts: Vec<TileId>,
    /// Every player, by index (the seats, then the solo automaton).
    pub players: Vec<PlayerView>,
    /// The dice of the current turn.
    pub dice: Vec<DieView>,
    /// The dice (indices into `dice`) marked to be re-rolled.
    pub marked_for_reroll: Vec<usize>,
    /// The unit moving now (its slot); null when none.
    pub moving_unit: Option<u8>,
    /// The unit that must attack (its slot); null when none.
    pub must_attack: Option<u8>,
    /// An attack declared and not resolved; null when none.
    pub pending_attack: Option<PendingAttack>,
    /// A card draw in progress; null when none.
    pub draw: Option<DrawView>,
    /// Cards left in each deck.
    pub decks: Decks,
    /// The reaction window open now; null when none.
    pub reaction_window: Option<Window>,
    /// Units that must land on the nearest face-up tile, first first.
    pub falling_units: Vec<UnitRef>,
    /// Units moved by an ability whose controller must place them, first first.
    pub units_to_place: Vec<Placement>,
    /// The alliances made, each a pair of seats.
    pub alliances: Vec<(Seat, Seat)>,
    /// An alliance offered and not answered, `[from, to]`; null when none.
    pub alliance_offer: Option<(Seat, Seat)>,
    /// Solo: the tied tiles the crumbling earth may flip, for the player to choose.
    pub tied_crumble_tiles: Vec<TileId>,
    /// The result; null until the game is over.
    pub result: Option<GameResult>,
}

/// Where the game is: a set-up phase (`tribes` ... `leaders`), `over`, or the step of the
/// current turn (`start` ... `charge`; `flip` and `roll` with their counts).
///
/// - `tribes`: Set-up: tribes are dealt.
/// - `tiles`: Set-up: tiles are placed.
/// - `split_clans`: Solo set-up: the automaton's Clans are placed.
/// - `first_player`: Set-up: the first player is drawn.
/// - `leaders`: Set-up: Leaders are placed.
/// - `over`: The game is over.
/// - `start`: The turn begins.
/// - `reenter`: A player without units brings one back.
/// - `flip`: Tiles are flipped (`left` still to flip).
/// - `roll`: Dice are rolled (`rerolls_left` re-rolls left).
/// - `assign`: Dice are assigned to units.
/// - `act`: Movement and attacks.
/// - `call`: Call to War, or drawing cards.
/// - `charge`: Charging abilities.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepView {
    Tribes,
    Tiles,
    SplitClans,
    FirstPlayer,
    Leaders,
    Over,
    Start,
    Reenter,
    Flip { left: u8 },
    Roll { rerolls_left: u8 },
    Assign,
    Act,
    Call,
    Charge,
}

/// One tile position.
#[derive(Serialize, JsonSchema)]
pub struct TileView {
    pub tile: TileId,
    /// Its row; null for an id outside the board.
    pub row: Option<i16>,
    /// Its column; null with `row`.
    pub col: Option<i16>,
    /// Whether the triangle points up; null with `row`.
    pub points_up: Option<bool>,
    /// Whether it is a crystal mine (never flipped).
    pub crystal_mine: bool,
    /// Whether it touches the board's outer edge.
    pub outer_edge: bool,
    /// The board half it belongs to; null with `row`.
    pub side: Option<Side>,
    /// The adjacent tiles.
    pub adjacent: &'static [TileId],
    /// The tribe of the tile card on it; null when none.
    pub tribe: Option<Tribe>,
    /// The Clan the tile calls; null when no tile card.
    pub clan: Option<u8>,
    /// Whether the tile is face down (flipped).
    pub flipped: bool,
    /// The player whose blockade is on it; null when none.
    pub blockade_by: Option<usize>,
}

/// An ability card. For an id that is no card only `card` and `name` are present.
#[derive(Serialize, JsonSchema)]
pub struct CardView {
    /// The card's number.
    pub card: CardId,
    pub name: String,
    /// Its deck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deck: Option<Deck>,
    /// Power Crystals to charge it fully (0 for Secret abilities).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<u8>,
    /// Its text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One player (a seat, or the solo automaton).
#[derive(Serialize, JsonSchema)]
pub struct PlayerView {
    /// The player's index.
    pub player: usize,
    /// Whether it is the solo automaton.
    pub automaton: bool,
    /// The player's tribe; null before the tribes are dealt.
    pub tribe: Option<Tribe>,
    /// The tribe's name; null with `tribe`.
    pub tribe_name: Option<&'static str>,
    /// Power Crystals in reserve.
    pub reserve: u8,
    /// Secret ability cards in hand (public).
    pub hand_count: usize,
    /// The Secret ability cards in hand: only the player themself (and everyone once the game
    /// is over) sees them; null for every other viewer and for the automaton.
    pub hand: Option<Vec<CardView>>,
    /// Learned cards held in hand (public).
    pub learned_hand_count: usize,
    /// The Learned cards held in hand; secret like `hand`.
    pub learned_hand: Option<Vec<CardView>>,
    /// Units defeated by the player.
    pub trophies: Vec<Trophy>,
    /// The score now.
    pub score: i64,
    pub eliminated: bool,
    /// The player's units: slot 0 the Leader, 1 to 6 the Clans.
    pub units: Vec<UnitView>,
}

/// A defeated unit kept as a trophy.
#[derive(Serialize, JsonSchema)]
pub struct Trophy {
    pub tribe: Tribe,
    /// The unit's name.
    pub unit: &'static str,
}

/// One unit.
#[derive(Serialize, JsonSchema)]
pub struct UnitView {
    /// 0 the Leader, 1 to 6 the Clans.
    pub slot: u8,
    pub name: &'static str,
    pub status: Status,
    /// The tile it stands on; null when off the board.
    pub tile: Option<TileId>,
    pub hp: u8,
    pub max_hp: u8,
    pub defense: u8,
    pub min_defense: u8,
    pub max_defense: u8,
    pub movement: u8,
    pub attack: u8,
    /// Call to War horns kept on it.
    pub horns: u8,
    /// Move/attack dice assigned this turn.
    pub move_attack_dice: u8,
    /// How many of them went into the attack.
    pub dice_in_attack: u8,
    /// Spaces moved this turn.
    pub moved: u8,
    /// Spaces it may still move this turn.
    pub movement_left: u8,
    pub attacked: bool,
    pub fatigued: bool,
    /// Its innate ability and charge; null for the Leader.
    pub innate: Option<InnateView>,
    /// The Learned ability attached and its charge; null when none.
    pub learned: Option<LearnedView>,
    /// Token counters on it.
    pub counters: Vec<Counter>,
}

/// An innate ability.
#[derive(Serialize, JsonSchema)]
pub struct InnateView {
    pub name: &'static str,
    /// Power Crystals to charge it fully.
    pub cost: u8,
    /// Power Crystals on it now.
    pub charge: u8,
    pub text: String,
}

/// A Learned ability attached to a unit.
#[derive(Serialize, JsonSchema)]
pub struct LearnedView {
    pub ability: CardView,
    /// Power Crystals on it now.
    pub charge: u8,
}

/// A card draw in progress.
#[derive(Serialize, JsonSchema)]
pub struct DrawView {
    /// Cards drawn so far (public).
    pub drawn_count: usize,
    /// The cards drawn: only the drawer (and everyone once the game is over) sees them; null
    /// for every other viewer.
    pub drawn: Option<Vec<CardView>>,
    /// Whether a Learned card was kept, to be attached (public).
    pub learned_kept: bool,
    /// The Learned card kept: secret like `drawn`; null also when none.
    pub learned_to_attach: Option<CardView>,
}

/// One die of the turn.
#[derive(Serialize, JsonSchema)]
pub struct DieView {
    /// Its face; null before it is rolled.
    pub face: Option<Face>,
    /// Whether it is assigned to a unit.
    pub assigned: bool,
}

/// Cards left in the decks.
#[derive(Serialize, JsonSchema)]
pub struct Decks {
    pub learned: usize,
    pub secret: usize,
}

fn card_view(id: CardId) -> CardView {
    match data::card(id) {
        Some((deck, a)) => CardView {
            card: id,
            name: a.name.to_owned(),
            deck: Some(deck),
            cost: Some(a.cost),
            text: Some(a.text()),
        },
        None => CardView {
            card: id,
            name: data::card_name(id),
            deck: None,
            cost: None,
            text: None,
        },
    }
}

fn unit_view(state: &State, owner: usize, u: &Unit) -> UnitView {
    let tribe = state.tribe_of(owner);
    let stats = data::unit_stats(u.slot);
    UnitView {
        slot: u.slot,
        name: tribe.unit_name(u.slot),
        status: u.status,
        tile: u.tile,
        hp: u.hp,
        max_hp: stats.hp,
        defense: u.defense,
        min_defense: stats.min_defense,
        max_defense: stats.max_defense,
        movement: stats.movement,
        attack: stats.attack,
        horns: u.horns,
        move_attack_dice: u.dice,
        dice_in_attack: u.dice_spent,
        moved: u.moved,
        movement_left: u.movement_left(),
        attacked: u.attacked,
        fatigued: u.fatigued,
        innate: tribe.innate(u.slot).map(|a| InnateView {
            name: a.name,
            cost: a.cost,
            charge: u.innate_charge,
            text: a.text(),
        }),
        learned: u.learned.map(|c| LearnedView {
            ability: card_view(c),
            charge: u.learned_charge,
        }),
        counters: u.counters.clone(),
    }
}

fn step_view(phase: &Phase) -> StepView {
    match phase {
        Phase::Tribes => StepView::Tribes,
        Phase::Tiles => StepView::Tiles,
        Phase::SplitClans => StepView::SplitClans,
        Phase::FirstPlayer => StepView::FirstPlayer,
        Phase::Leaders => StepView::Leaders,
        Phase::Over => StepView::Over,
        Phase::Turn { step, .. } => match step {
            Step::Start => StepView::Start,
            Step::Reenter => StepView::Reenter,
            Step::Flip { left } => StepView::Flip { left: *left },
            Step::Roll { rerolls_left } => StepView::Roll {
                rerolls_left: *rerolls_left,
            },
            Step::Assign => StepView::Assign,
            Step::Act => StepView::Act,
            Step::Call => StepView::Call,
            Step::Charge => StepView::Charge,
        },
    }
}

/// What `viewer` sees of the state, typed.
pub fn typed_view(state: &State, viewer: Viewer) -> View {
    let current = state.current();
    let tiles = state
        .geometry()
        .ids()
        .map(|t| {
            let p = state.geometry().tile(t);
            let s = state.tile(t);
            let card = s.and_then(|s| s.card);
            TileView {
                tile: t,
                row: p.map(|p| p.row),
                col: p.map(|p| p.col),
                points_up: p.map(|p| p.up),
                crystal_mine: p.is_some_and(|p| p.mine),
                outer_edge: p.is_some_and(|p| p.edge),
                side: p.map(|p| p.side),
                adjacent: state.geometry().adjacent(t),
                tribe: card.map(|c| c.tribe),
                clan: card.map(|c| c.clan),
                flipped: s.is_none_or(|s| s.flipped),
                blockade_by: s.and_then(|s| s.blockade),
            }
        })
        .collect();
    let cards = |ids: &[CardId]| ids.iter().map(|&c| card_view(c)).collect::<Vec<_>>();
    let players = state
        .players
        .iter()
        .enumerate()
        .map(|(owner, p)| {
            let sees = owner < state.seats && viewer.sees_secrets_of(owner);
            PlayerView {
                player: owner,
                automaton: p.automaton,
                tribe: p.tribe,
                tribe_name: p.tribe.map(|t| t.name()),
                reserve: p.reserve,
                hand_count: p.hand.len(),
                hand: sees.then(|| cards(&p.hand)),
                learned_hand_count: p.learned_hand.len(),
                learned_hand: sees.then(|| cards(&p.learned_hand)),
                trophies: p
                    .trophies
                    .iter()
                    .map(|&(t, slot)| Trophy {
                        tribe: t,
                        unit: t.unit_name(slot),
                    })
                    .collect(),
                score: state.score(owner),
                eliminated: p.eliminated,
                units: p.units.iter().map(|u| unit_view(state, owner, u)).collect(),
            }
        })
        .collect();
    let draw = state.draw.as_ref().map(|d| {
        let sees = current.is_some_and(|c| viewer.sees_secrets_of(c));
        DrawView {
            drawn_count: d.drawn.len(),
            drawn: sees.then(|| cards(&d.drawn)),
            learned_kept: d.attach.is_some(),
            learned_to_attach: if sees { d.attach.map(card_view) } else { None },
        }
    });
    View {
        you: match viewer {
            Viewer::Seat(s) => Some(s),
            _ => None,
        },
        prompt: prompt(state),
        round: state.round,
        last_round: state.last_round,
        extra_round: state.extra_round,
        current_seat: current,
        first_player: state.first_player,
        step: step_view(&state.phase),
        tiles,
        leader_starts: state.geometry().starts.clone(),
        players,
        dice: state
            .dice
            .iter()
            .zip(&state.assigned)
            .map(|(f, a)| DieView {
                face: *f,
                assigned: *a,
            })
            .collect(),
        marked_for_reroll: state.marked.clone(),
        moving_unit: state.moving,
        must_attack: state.must_attack,
        pending_attack: state.attack,
        draw,
        decks: Decks {
            learned: state.deck_count(Deck::Learned),
            secret: state.deck_count(Deck::Secret),
        },
        reaction_window: state.window.clone(),
        falling_units: state.falls.clone(),
        units_to_place: state.placements.clone(),
        alliances: state.alliances.clone(),
        alliance_offer: state.offer,
        tied_crumble_tiles: state.solo_choice.clone(),
        result: state.result.clone(),
    }
}

/// The schema of [`View`], its parts under `generator`'s definitions.
pub fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<View>()
}

/// Who draws the card of a draw in progress.
fn drawer(state: &State) -> Option<Seat> {
    state.current()
}

pub fn visibility(state: &State, _actor: Actor, action: &Action) -> Visibility {
    match action {
        // The card drawn, and which one is kept: "keep one in secret" (l.309). Others see
        // which draw was kept (its deck is public), never the card.
        Action::DrawCard(_) | Action::KeepCard(_) => {
            Visibility::Seats(drawer(state).into_iter().collect())
        }
        _ => Visibility::Public,
    }
}

pub fn redact(_state: &State, _actor: Actor, action: &Action) -> Value {
    match action {
        Action::DrawCard(_) => json!({ "draw_card": "hidden" }),
        _ => serde_json::to_value(action).unwrap_or(Value::Null),
    }
}

fn target_text(state: &State, target: &Target) -> String {
    match target {
        Target::Unit(u) => unit_name(state, *u),
        Target::Tile(t) => format!("tile {t}"),
        Target::Move { unit, to } => format!("{} to tile {to}", unit_name(state, *unit)),
        Target::Crystals { unit, learned } => format!(
            "{} ({} ability first)",
            unit_name(state, *unit),
            if *learned {
                "its Learned"
            } else {
                "its innate"
            }
        ),
    }
}

fn cast_text(state: &State, seat: Seat, cast: &Cast) -> String {
    let ability = state
        .ability(seat, cast.source)
        .map_or("an unknown ability", |a| a.name);
    let from = match cast.source {
        Source::Innate(slot) => format!("{}'s innate ", state.tribe_of(seat).unit_name(slot)),
        Source::Learned(slot) => format!("{}'s Learned ", state.tribe_of(seat).unit_name(slot)),
        Source::Secret(_) => "the Secret ".to_owned(),
    };
    format!(
        "casts {from}{ability} on {}",
        target_text(state, &cast.target)
    )
}

/// A tile side as the log names it.
fn side_name(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}

pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let who = match actor {
        Actor::Seat(s) => format!("Seat {s}"),
        Actor::Chance => "Chance".to_owned(),
    };
    let cur = state.current().unwrap_or(0);
    let text = match action {
        Action::DealTribe(t) => format!("deals the {} to the next player", t.name()),
        Action::PlaceTile(c) => format!(
            "places the {} {} tile of the {}",
            c.tribe.unit_name(c.clan),
            side_name(c.side),
            c.tribe.name()
        ),
        Action::SplitClans(m) => format!("puts the automaton Clans of mask {m} on side A"),
        Action::FirstPlayer(s) => format!("picks seat {s} to play first"),
        Action::RollDie(f) => format!("rolls {}", super::data::face_name(*f)),
        Action::DrawCard(c) => {
            let deck = state.draw.as_ref().and_then(|d| d.from.first().copied());
            if drawer(state).is_some_and(|d| viewer.sees_secrets_of(d)) {
                format!("draws {} for seat {cur}", data::card_name(*c))
            } else if let Some(deck) = deck {
                format!(
                    "draws a card from the {} deck for seat {cur}",
                    super::data::deck_name(deck)
                )
            } else {
                format!("draws a card for seat {cur}")
            }
        }
        Action::PlaceLeader(t) => format!("places a Leader on tile {t}"),
        Action::Reenter { clan, tile } => format!(
            "brings back the {} on tile {tile}",
            state.tribe_of(cur).unit_name(*clan)
        ),
        Action::Flip(t) => format!("flips tile {t}"),
        Action::CrumbleTile(t) => format!("has the crumbling earth flip tile {t}"),
        Action::Fall(t) => format!("lands the falling unit on tile {t}"),
        Action::MoveUnitTo(t) => format!("places the unit moved by the ability on tile {t}"),
        Action::MarkReroll(i) => format!("marks or unmarks die {i} for re-rolling"),
        Action::Reroll => "re-rolls the marked dice".to_owned(),
        Action::KeepDice => "keeps the dice".to_owned(),
        Action::Assign { face, slot } => format!(
            "assigns a {} die to the {}",
            super::data::face_name(*face),
            state.tribe_of(cur).unit_name(*slot)
        ),
        Action::Move { slot, to } => format!(
            "moves the {} to tile {to}",
            state.tribe_of(cur).unit_name(*slot)
        ),
        Action::Stop => "stops the moving unit".to_owned(),
        Action::Attack { slot, target, dice } => format!(
            "attacks {} with the {} adding {dice} dice",
            unit_name(state, *target),
            state.tribe_of(cur).unit_name(*slot)
        ),
        Action::EndActions => "ends movement and attacks".to_owned(),
        Action::Summon { slot, clan } => format!(
            "spends 3 horns of the {} to call the {}",
            state.tribe_of(cur).unit_name(*slot),
            state.tribe_of(cur).unit_name(*clan)
        ),
        Action::DrawCards { slot } => format!(
            "spends 2 horns of the {} to draw two cards",
            state.tribe_of(cur).unit_name(*slot)
        ),
        Action::DrawFrom(d) => format!("draws from the {} deck", super::data::deck_name(*d)),
        Action::KeepCard(i) => {
            let name = state
                .draw
                .as_ref()
                .and_then(|d| d.drawn.get(*i))
                .filter(|_| viewer.sees_secrets_of(cur))
                .map(|&c| data::card_name(c));
            match name {
                Some(n) => format!("keeps {n}"),
                None => format!("keeps drawn card {i}"),
            }
        }
        Action::Attach(slot) => format!(
            "attaches the Learned ability to the {}",
            state.tribe_of(cur).unit_name(*slot)
        ),
        Action::HoldLearned => "keeps the Learned card in hand, to attach later".to_owned(),
        Action::AttachHeld { card, slot } => format!(
            "attaches the Learned {} from hand to the {}",
            data::card_name(*card),
            state.tribe_of(cur).unit_name(*slot)
        ),
        Action::Empower {
            slot,
            clan,
            learned,
        } => format!(
            "spends 3 horns of the {} to fill the {}'s {} ability",
            state.tribe_of(cur).unit_name(*slot),
            state.tribe_of(cur).unit_name(*clan),
            if *learned { "Learned" } else { "innate" }
        ),
        Action::EndCall => "ends Call to War".to_owned(),
        Action::Charge { slot, learned } => format!(
            "puts a crystal on the {}'s {} ability",
            state.tribe_of(cur).unit_name(*slot),
            if *learned { "Learned" } else { "innate" }
        ),
        Action::EndCharge => "ends charging (leftover crystals are lost)".to_owned(),
        Action::Cast(c) => match actor {
            Actor::Seat(s) => cast_text(state, s, c),
            Actor::Chance => "casts".to_owned(),
        },
        Action::Pass => "passes".to_owned(),
        Action::OfferAlliance(s) => format!("offers seat {s} a temporary alliance"),
        Action::AcceptAlliance => "accepts the alliance".to_owned(),
        Action::DeclineAlliance => "declines the alliance".to_owned(),
        Action::EndAlliance(s) => format!("ends the alliance with seat {s}"),
    };
    format!("{who} {text}.")
}

/// Each player's letter on the board, in the presenter's text and in the picture alike: the
/// names' initials when they are distinct capitals, else A, B, C, D by seat; the automaton is X.
pub fn letters(state: &State, names: &[String]) -> Vec<char> {
    let initials: Vec<Option<char>> = state
        .players
        .iter()
        .enumerate()
        .map(|(owner, p)| {
            if p.automaton {
                Some('X')
            } else {
                names
                    .get(owner)
                    .and_then(|n| n.chars().next())
                    .filter(char::is_ascii_alphabetic)
                    .map(|c| c.to_ascii_uppercase())
            }
        })
        .collect();
    let mut seen: Vec<char> = Vec::new();
    let distinct = initials.iter().all(|c| match c {
        Some(c) if !seen.contains(c) => {
            seen.push(*c);
            true
        }
        _ => false,
    });
    if distinct {
        return initials.into_iter().map(|c| c.unwrap_or('?')).collect();
    }
    state
        .players
        .iter()
        .enumerate()
        .map(|(owner, p)| {
            if p.automaton {
                'X'
            } else {
                b"ABCDEFGH".get(owner).map_or('?', |&b| char::from(b))
            }
        })
        .collect()
}
