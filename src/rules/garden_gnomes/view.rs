//! What each viewer sees: the state view, the log's visibility and redaction, and the one-line
//! descriptions. Secret: the objectives dealt, kept and discarded (each player sees their own;
//! others see how many) and the undealt neutral objectives. Public: everything else.
//!
//! The view is typed ([`View`]): its JSON Schema is published (`GET /v1/rulesets/garden-gnomes`,
//! the `GardenGnomesView` component of the OpenAPI document), derived from these types.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::Scoring;
use super::actions::{Action, Focus, apply_noting, focus, legal_moves};
use super::data::{
    ClanCard, Colour, FoodCount, Needs, Territory, Token, describe_needs, describe_objective,
    neighbours, objective, territories, territory_name,
};
use super::flow::{Happening, advanced_score, satisfies};
use super::state::{Clan, Die, Ending, Phase, State};
use crate::rules::{Actor, Seat, Viewer, Visibility};

/// What one viewer sees of a Garden Gnomes game. Every field is always present (null when it
/// does not apply). Secrets: each clan's objectives (`clans[].objectives_*` and
/// `advanced_score` are null but for the viewer's own clans; the counts are public) and the
/// undealt neutral objectives (a count).
#[derive(Serialize, JsonSchema)]
pub struct View {
    /// The viewer's seat; null for a spectator (and for the everyone-view of a finished game).
    pub you: Option<Seat>,
    /// The step the game is at.
    pub step: Step,
    /// What the game waits for, in words.
    pub prompt: String,
    /// The round.
    pub round: u32,
    /// The last round; null when the game has no round limit.
    pub round_limit: Option<u32>,
    /// How the game is scored (the `scoring` option).
    pub scoring: Scoring,
    /// Objectives each clan keeps.
    pub objectives_to_keep: u8,
    /// The clan with the first player token; null before it is drawn.
    pub first_player: Option<Colour>,
    /// The clan acting now; null when none does (chance, simultaneous choices, the end).
    pub acting_clan: Option<Colour>,
    /// The seat of `acting_clan`; null with it.
    pub acting_seat: Option<Seat>,
    /// Every clan, in clan order (a seat may have several).
    pub clans: Vec<ClanView>,
    /// Every territory of the map, by id.
    pub territories: Vec<TerritoryView>,
    /// The tokens left in the supply.
    pub supply: Tokens,
    /// Neutral objectives not dealt (their faces are secret).
    pub neutral_objectives_undealt: usize,
    /// The movement phase: the moves made and those possible; null in other phases.
    pub movement: Option<MovementView>,
    /// The battle being fought; null when none.
    pub combat: Option<CombatView>,
    /// How the game ended; null until it is over.
    pub outcome: Option<Ending>,
}

/// The step the game is at.
///
/// - `assigning_clans`: Set-up: colours are drawn for the clans.
/// - `choosing_first_player`: Set-up: the first player is drawn.
/// - `dealing_objectives`: Set-up: neutral objectives are dealt.
/// - `choose_objectives`: Every player keeps objectives for each of their clans at the same time.
/// - `reinforcement`: A clan decides how many gnomes to put onto its home.
/// - `movement`: A clan moves gnomes.
/// - `declare_targets`: A clan declares its dice in a battle.
/// - `rolling`: The declared dice are rolled.
/// - `game_over`: The game is over.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    AssigningClans,
    ChoosingFirstPlayer,
    DealingObjectives,
    ChooseObjectives,
    Reinforcement,
    Movement,
    DeclareTargets,
    Rolling,
    GameOver,
}

/// One clan.
#[derive(Serialize, JsonSchema)]
pub struct ClanView {
    /// The seat that plays the clan.
    pub seat: Seat,
    /// The clan's colour; null before it is drawn.
    pub colour: Option<Colour>,
    /// The clan card; null before the colour is drawn.
    pub card: Option<ClanCard>,
    /// The clan card's text; null with it.
    pub card_text: Option<String>,
    /// The clan's home territory; null when none.
    pub home: Option<Territory>,
    /// Gnomes on the board.
    pub on_board: u32,
    /// Gnomes in reserve.
    pub reserve: u8,
    /// The tokens the clan holds.
    pub tokens: Tokens,
    /// Gnome tokens of other clans held.
    pub hostages: u32,
    /// Objectives dealt to the clan and not yet kept or discarded (public count).
    pub objectives_dealt_count: usize,
    /// Objectives kept (public count).
    pub objectives_kept_count: usize,
    /// Whether the clan still chooses objectives.
    pub choosing_objectives: bool,
    /// The objectives dealt and not yet chosen: only the clan's player (and everyone once the
    /// game is over) sees them; null for every other viewer.
    pub objectives_dealt: Option<Vec<ObjectiveView>>,
    /// The objectives kept; secret like `objectives_dealt`.
    pub objectives_kept: Option<Vec<ObjectiveView>>,
    /// The objectives discarded; secret like `objectives_dealt`.
    pub objectives_discarded: Option<Vec<ObjectiveView>>,
    /// The clan's advanced score now; secret like `objectives_dealt`.
    pub advanced_score: Option<i64>,
}

/// An objective card. For a card id the game does not know (never in a game it made) only
/// `id` and `text` are present.
#[derive(Serialize, JsonSchema)]
pub struct ObjectiveView {
    pub id: u16,
    /// The clan whose own objective it is; null for a neutral one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clan: Option<Option<Colour>>,
    /// What it asks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs: Option<Needs>,
    /// What it asks for, in words.
    pub text: String,
    /// Whether the clan meets it now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub met_now: Option<bool>,
}

/// Tokens held: food by kind and gnome tokens by colour.
#[derive(Serialize, JsonSchema)]
pub struct Tokens {
    pub food: FoodCount,
    pub gnome: GnomeCount,
}

/// Gnome tokens of each colour.
#[derive(Serialize, JsonSchema)]
pub struct GnomeCount {
    pub red: u8,
    pub green: u8,
    pub yellow: u8,
    pub black: u8,
    pub white: u8,
    pub blue: u8,
}

/// One territory.
#[derive(Serialize, JsonSchema)]
pub struct TerritoryView {
    pub id: Territory,
    pub name: String,
    /// The token its holder collects in the loot phase; null for a statue.
    pub yields: Option<Token>,
    /// The clan whose home it is; null when none.
    pub home_of: Option<Colour>,
    /// Whether it is a statue.
    pub statue: bool,
    /// The territory in words.
    pub text: String,
    /// The territories next to it.
    pub neighbours: &'static [Territory],
    /// Gnomes there, by clan colour (only clans with gnomes there).
    pub gnomes: BTreeMap<Colour, u8>,
}

/// The movement phase.
#[derive(Serialize, JsonSchema)]
pub struct MovementView {
    /// The moves made, each `[from, to]`.
    pub moves: Vec<[Territory; 2]>,
    /// The moves the acting clan may make now, each `[from, to]`.
    pub possible_moves: Vec<(Territory, Territory)>,
}

/// A battle.
#[derive(Serialize, JsonSchema)]
pub struct CombatView {
    pub territory: Territory,
    pub territory_name: String,
    /// Combat rounds fought there so far.
    pub combat_round: u32,
    /// The clans in the battle.
    pub clans: Vec<Colour>,
    /// The clan declaring its dice now; null while dice are rolled.
    pub declaring: Option<Colour>,
    /// The dice declared this round, in order.
    pub dice: Vec<Die>,
    /// The rolls so far, one for each of the first dice.
    pub rolls: Vec<u8>,
}

/// What `viewer` sees of the state, typed.
pub fn typed_view(state: &State, viewer: Viewer) -> View {
    let acting = state.acting_clan().and_then(|i| state.clan(i));
    View {
        you: match viewer {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        },
        step: step_kind(state),
        prompt: prompt(state),
        round: state.round,
        round_limit: state.round_limit,
        scoring: state.scoring,
        objectives_to_keep: state.keep,
        first_player: state.clan(state.first).and_then(|c| c.colour),
        acting_clan: acting.and_then(|c| c.colour),
        acting_seat: acting.map(|c| c.seat),
        clans: state
            .clans
            .iter()
            .enumerate()
            .map(|(i, c)| clan_view(state, i, c, viewer))
            .collect(),
        territories: territories_view(state),
        supply: tokens_view(&state.supply),
        neutral_objectives_undealt: state.neutral_deck.len(),
        movement: match &state.phase {
            Phase::Movement { moves, .. } => Some(MovementView {
                moves: moves.clone(),
                possible_moves: legal_moves(state),
            }),
            _ => None,
        },
        combat: combat_view(state),
        outcome: match &state.phase {
            Phase::Over(ending) => Some(ending.clone()),
            _ => None,
        },
    }
}

fn clan_view(state: &State, i: usize, clan: &Clan, viewer: Viewer) -> ClanView {
    let card = clan.colour.map(Colour::card);
    let secret = viewer.sees_secrets_of(clan.seat);
    let cards = |ids: &[u16]| -> Option<Vec<ObjectiveView>> {
        secret.then(|| ids.iter().map(|&id| objective_view(state, i, id)).collect())
    };
    let score = advanced_score(state, i);
    ClanView {
        seat: clan.seat,
        colour: clan.colour,
        card_text: card.as_ref().map(ClanCard::text),
        card,
        home: clan.colour.and_then(Colour::home),
        on_board: clan.on_board(),
        reserve: clan.reserve(),
        tokens: tokens_view(&clan.tokens),
        hostages: clan.hostages(),
        objectives_dealt_count: clan.offered.len(),
        objectives_kept_count: clan.kept.len(),
        choosing_objectives: matches!(state.phase, Phase::ChoosingObjectives)
            && clan.choosing(state.keep),
        objectives_dealt: cards(&clan.offered),
        objectives_kept: cards(&clan.kept),
        objectives_discarded: cards(&clan.discarded),
        advanced_score: secret.then_some(score.1),
    }
}

fn objective_view(state: &State, clan: usize, id: u16) -> ObjectiveView {
    match objective(id) {
        Some(card) => ObjectiveView {
            id,
            clan: Some(card.clan),
            needs: Some(card.needs.clone()),
            text: describe_needs(&card.needs),
            met_now: Some(satisfies(state, clan, &[id])),
        },
        None => ObjectiveView {
            id,
            clan: None,
            needs: None,
            text: describe_objective(id),
            met_now: None,
        },
    }
}

fn tokens_view(tally: &[(Token, u8)]) -> Tokens {
    let count = |token: Token| super::state::count(tally, token);
    Tokens {
        food: FoodCount {
            acorn: count(Token::Acorn),
            apple: count(Token::Apple),
            berry: count(Token::Berry),
        },
        gnome: GnomeCount {
            red: count(Token::Gnome(Colour::Red)),
            green: count(Token::Gnome(Colour::Green)),
            yellow: count(Token::Gnome(Colour::Yellow)),
            black: count(Token::Gnome(Colour::Black)),
            white: count(Token::Gnome(Colour::White)),
            blue: count(Token::Gnome(Colour::Blue)),
        },
    }
}

fn territories_view(state: &State) -> Vec<TerritoryView> {
    territories()
        .iter()
        .enumerate()
        .map(|(t, card)| {
            let id = u8::try_from(t).unwrap_or(u8::MAX);
            let mut gnomes = BTreeMap::new();
            for c in &state.clans {
                let n = c.gnomes_at(id);
                if let (Some(colour), true) = (c.colour, n > 0) {
                    gnomes.insert(colour, n);
                }
            }
            TerritoryView {
                id,
                name: card.name.clone(),
                yields: card.yields,
                home_of: card.home_of,
                statue: card.statue,
                text: card.text(),
                neighbours: neighbours(id),
                gnomes,
            }
        })
        .collect()
}

fn combat_view(state: &State) -> Option<CombatView> {
    let Phase::Combat(combat) = &state.phase else {
        return None;
    };
    Some(CombatView {
        territory: combat.territory,
        territory_name: territory_name(combat.territory),
        combat_round: combat.round,
        clans: state
            .occupants(combat.territory)
            .iter()
            .filter_map(|&i| state.clan(i).and_then(|c| c.colour))
            .collect(),
        declaring: state
            .declarer()
            .and_then(|i| state.clan(i))
            .and_then(|c| c.colour),
        dice: combat.dice.clone(),
        rolls: combat.rolls.clone(),
    })
}

/// A stable name for the current step, for clients.
fn step_kind(state: &State) -> Step {
    match &state.phase {
        Phase::AssigningClans => Step::AssigningClans,
        Phase::ChoosingFirstPlayer => Step::ChoosingFirstPlayer,
        Phase::DealingObjectives => Step::DealingObjectives,
        Phase::ChoosingObjectives => Step::ChooseObjectives,
        Phase::Reinforcement { .. } => Step::Reinforcement,
        Phase::Movement { .. } => Step::Movement,
        Phase::Combat(_) => {
            if state.declarer().is_some() {
                Step::DeclareTargets
            } else {
                Step::Rolling
            }
        }
        Phase::Over(_) => Step::GameOver,
    }
}

/// The schema of [`View`], its parts under `generator`'s definitions.
pub fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<View>()
}

fn seat_label(state: &State, i: usize) -> String {
    state.clan(i).map_or_else(String::new, clan_label)
}

fn clan_label(clan: &Clan) -> String {
    match clan.colour {
        Some(c) => format!("{} (Seat {})", c.name(), clan.seat),
        None => format!("Seat {}", clan.seat),
    }
}

/// What the game waits for, in words.
fn prompt(state: &State) -> String {
    match &state.phase {
        Phase::AssigningClans => "Drawing the clans at random".to_string(),
        Phase::ChoosingFirstPlayer => "Drawing the first player at random".to_string(),
        Phase::DealingObjectives => "Dealing 3 neutral objectives to each clan".to_string(),
        Phase::ChoosingObjectives => format!(
            "Every player secretly keeps {} objectives for each of their clans, one at a time",
            state.keep
        ),
        Phase::Reinforcement { .. } => {
            let who = state.reinforcing();
            format!(
                "{} decides how many gnomes (0 to {}) to put onto its home",
                who.map(|i| seat_label(state, i)).unwrap_or_default(),
                who.map_or(0, |i| state.reinforcements_due(i))
            )
        }
        Phase::Movement { moves, .. } => {
            let who = state
                .mover()
                .map(|i| seat_label(state, i))
                .unwrap_or_default();
            let focus = match focus(moves) {
                Focus::Free => String::new(),
                Focus::Either { from, to } => format!(
                    " (all moves must now start in {} or end in {})",
                    territory_name(from),
                    territory_name(to)
                ),
                Focus::Origin(from) => format!(" (spreading from {})", territory_name(from)),
                Focus::Destination(to) => format!(" (gathering onto {})", territory_name(to)),
            };
            format!("{who} moves gnomes one at a time, then ends movement{focus}")
        }
        Phase::Combat(combat) => {
            let place = territory_name(combat.territory);
            match state.declarer() {
                Some(i) => format!(
                    "Battle in {place}: {} declares targets for {} more dice",
                    seat_label(state, i),
                    state.undeclared_dice(combat, i)
                ),
                None => format!(
                    "Battle in {place}: rolling die {} of {}",
                    combat.rolls.len() + 1,
                    combat.dice.len()
                ),
            }
        }
        Phase::Over(ending) => ending.summary.clone(),
    }
}

/// The seat that receives the next dealt objective.
fn deal_seat(state: &State) -> Option<Seat> {
    state
        .deal_recipient()
        .and_then(|i| state.clan(i))
        .map(|c| c.seat)
}

pub fn visibility(state: &State, actor: Actor, action: &Action) -> Visibility {
    match (action, actor) {
        (Action::DealObjective(_), _) => Visibility::Seats(deal_seat(state).into_iter().collect()),
        (Action::KeepObjective(_), actor) => {
            Visibility::Seats(actor_seat(actor).into_iter().collect())
        }
        _ => Visibility::Public,
    }
}

/// The hidden payloads become `"hidden"`; everything else is logged as it is.
pub fn redact(_state: &State, _actor: Actor, action: &Action) -> Value {
    match action {
        Action::DealObjective(_) => json!({ "deal_objective": "hidden" }),
        Action::KeepObjective(_) => json!({ "keep_objective": "hidden" }),
        _ => serde_json::to_value(action).unwrap_or(Value::Null),
    }
}

/// The action in words, then what the rules did on their own after it (combat results,
/// battles won, loot, the first player token, a new round, reinforcements): those steps have no
/// log entry of their own.
pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let mut line = describe_action(state, actor, action, viewer);
    let mut after = state.clone();
    if let Ok(notes) = apply_noting(&mut after, actor, action) {
        for note in notes {
            line.push_str(". ");
            line.push_str(&happening(state, &note));
        }
    }
    line
}

/// A legal action as one of `seat`'s choices: the action alone. What the rules would do after
/// it is left out: after the last clan's `end_movement` the loot and the end check follow, and
/// whether the game then ends (a clan completes all its objectives, or none can any more)
/// depends on the other players' secret objectives (review R1).
pub fn label(state: &State, seat: Seat, action: &Action) -> String {
    match action {
        // A choice, not a log line: "end …", not "… ended …".
        Action::EndMovement => {
            let who = state
                .mover()
                .map_or_else(|| format!("Seat {seat}"), |i| seat_label(state, i));
            format!("End the movement of {who}")
        }
        _ => describe_action(state, Actor::Seat(seat), action, Viewer::Seat(seat)),
    }
}

fn happening(state: &State, note: &Happening) -> String {
    let clan = |c: Colour| {
        state
            .index_of(c)
            .map_or_else(|| c.name().to_string(), |i| seat_label(state, i))
    };
    match note {
        Happening::Casualties {
            territory,
            round,
            losses,
            saved,
        } => {
            let losses: Vec<String> = losses
                .iter()
                .map(|&(c, n)| format!("{} loses {}", c.name(), gnomes(n)))
                .collect();
            let mut text = format!(
                "Combat round {round} at {}: {}",
                territory_name(*territory),
                losses.join(", ")
            );
            for &(c, n) in saved {
                text.push_str(&format!(" ({}'s 6s saved {})", c.name(), gnomes(n)));
            }
            text
        }
        Happening::BattleOver { territory, holder } => match holder {
            Some(c) => format!(
                "The battle at {} is over: {} holds it",
                territory_name(*territory),
                c.name()
            ),
            None => format!(
                "The battle at {} is over: no gnome is left there",
                territory_name(*territory)
            ),
        },
        Happening::Looted { clan: c, tokens } => {
            let tokens: Vec<String> = tokens.iter().map(|t| format!("1 {}", t.name())).collect();
            format!("Loot: {} takes {}", clan(*c), tokens.join(", "))
        }
        Happening::FirstPlayer(c) => format!("{} takes the first player token", clan(*c)),
        Happening::RoundBegins(n) => format!("Round {n} begins"),
        Happening::Reinforced { clan: c, gnomes: n } => format!(
            "{} puts {} onto {}",
            clan(*c),
            gnomes(*n),
            c.home().map_or_else(String::new, territory_name)
        ),
    }
}

fn gnomes(n: u8) -> String {
    match n {
        0 => "none".to_string(),
        1 => "1 gnome".to_string(),
        n => format!("{n} gnomes"),
    }
}

fn describe_action(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let full = visibility(state, actor, action).allows(viewer);
    let seat = match actor {
        Actor::Seat(s) => format!("Seat {s}"),
        Actor::Chance => "Chance".to_string(),
    };
    match action {
        Action::AssignClan(colour) => {
            let to = state.clans.iter().find(|c| c.colour.is_none());
            match to {
                Some(c) => format!("Seat {} plays the {} clan", c.seat, colour.name()),
                None => format!("The {} clan is drawn", colour.name()),
            }
        }
        Action::FirstPlayer(colour) => {
            let who = state.index_of(*colour).map(|i| seat_label(state, i));
            format!(
                "{} takes the first player token",
                who.unwrap_or_else(|| colour.name().to_string())
            )
        }
        Action::DealObjective(id) => {
            let who = state
                .deal_recipient()
                .map(|i| seat_label(state, i))
                .unwrap_or_default();
            if full {
                format!("{who} was dealt neutral {}", describe_objective(*id))
            } else {
                format!("{who} was dealt a neutral objective")
            }
        }
        Action::KeepObjective(id) => {
            let clan = state
                .clans
                .iter()
                .find(|c| Some(c.seat) == actor_seat(actor) && c.offered.contains(id));
            let who = clan.map_or(seat, clan_label);
            if full {
                format!("{who} kept {}", describe_objective(*id))
            } else {
                format!("{who} kept an objective")
            }
        }
        Action::Move { from, to } => {
            let who = state.mover().map(|i| seat_label(state, i)).unwrap_or(seat);
            format!(
                "{who} moved a gnome from {} to {}",
                territory_name(*from),
                territory_name(*to)
            )
        }
        Action::Reinforce(n) => {
            let who = state
                .reinforcing()
                .map(|i| seat_label(state, i))
                .unwrap_or(seat);
            format!("{who} put {} onto its home", gnomes(*n))
        }
        Action::EndMovement => {
            let who = state.mover().map(|i| seat_label(state, i)).unwrap_or(seat);
            format!("{who} ended their movement")
        }
        Action::Attack { target, dice } => {
            let who = state
                .declarer()
                .map(|i| seat_label(state, i))
                .unwrap_or(seat);
            let s = if *dice == 1 { "die" } else { "dice" };
            format!("{who} attacks the {} clan with {dice} {s}", target.name())
        }
        Action::Roll(value) => match &state.phase {
            Phase::Combat(combat) => match combat.dice.get(combat.rolls.len()) {
                Some(die) => format!(
                    "The {} clan rolled {value} against the {} clan",
                    die.attacker.name(),
                    die.target.name()
                ),
                None => format!("A die rolled {value}"),
            },
            _ => format!("A die rolled {value}"),
        },
    }
}

fn actor_seat(actor: Actor) -> Option<Seat> {
    match actor {
        Actor::Seat(s) => Some(s),
        Actor::Chance => None,
    }
}
