//! What each viewer sees: the state view, log visibility, redaction and descriptions.
//! Secret: each hand (others see its size), the deck's order and contents, what an Oracle
//! saw (only its user and the player looked at). Public: the board, permanent cards, the discard pile, the figures.
//!
//! The view is typed ([`View`]): its JSON Schema is published
//! (`GET /v1/rulesets/monsters-and-magic`, the `MonstersAndMagicView` component of the OpenAPI
//! document), derived from these types.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::actions::Action;
use super::data::{CardId, FigureKind, Structure, Terrain, card, card_name};
use super::legal::legal_actions;
use super::state::{
    CombatReport, CombatStep, Defender, Pending, Phase, Player, Pos, State, Stop, Unit,
};
use crate::rules::{Actor, Outcome, Seat, Viewer, Visibility};

/// What one viewer sees of a Monsters and Magic game. Every field is always present (null when
/// it does not apply). Secrets: the hands (`players[].hand` is null but for the viewer's own),
/// the deck, and what an Oracle showed (`oracle_seen` lists only the looks the viewer took
/// part in; `oracle_looks` says publicly who looked at whom).
#[derive(Serialize, JsonSchema)]
pub struct View {
    /// The viewer's seat; null for a spectator (and for the everyone-view of a finished game).
    pub you: Option<Seat>,
    /// The step the game is at.
    pub phase: Step,
    /// What the game waits for, in words.
    pub prompt: String,
    /// Turns begun (0 during set-up).
    pub turn: u32,
    /// The last turn of the game.
    pub last_turn: u32,
    /// The seat whose turn it is; null during set-up.
    pub current_seat: Option<Seat>,
    /// The seat that played first; null during set-up.
    pub first_seat: Option<Seat>,
    /// The seats in turn order; null during set-up.
    pub turn_order: Option<Vec<Seat>>,
    /// The 2D6 rolls for the first player, round by round (ties roll again).
    pub first_player_rolls: Vec<FirstRoll>,
    /// The figure moving now (its id); null when none.
    pub moving_figure: Option<u16>,
    /// The 8 × 8 map: rows from y = 0, each space from x = 0 (a space is `[x, y]`).
    pub board: Vec<Vec<SpaceView>>,
    /// Every figure on the map.
    pub figures: Vec<FigureView>,
    /// Every player, by seat.
    pub players: Vec<PlayerView>,
    /// Cards left in the deck.
    pub deck_count: usize,
    /// The discard pile (face up), oldest first.
    pub discard: Vec<CardView>,
    /// Cards the current player still draws.
    pub cards_to_draw: u8,
    /// The combat being fought; null when none.
    pub combat: Option<CombatView>,
    /// The last combat fought and its result; null before the first.
    pub last_combat: Option<CombatReport>,
    /// A power used in two steps waiting for its second; null when none.
    pub pending: Option<Pending>,
    /// Who looked at whose hand with an Oracle this turn (public).
    pub oracle_looks: Vec<OracleLook>,
    /// What those looks showed: only the looks the viewer made or suffered (all once the game
    /// is over); empty for a spectator.
    pub oracle_seen: Vec<OracleSeen>,
    /// How many actions the viewer may take now; null for a viewer without a seat.
    pub your_action_count: Option<usize>,
    /// How the game ended; null until it is over.
    pub outcome: Option<Outcome>,
}

/// The step the game is at.
///
/// - `setup_map`: Set-up: the map is laid out.
/// - `setup_permanent_cards`: Set-up: permanent cards are dealt.
/// - `setup_corners`: Set-up: players choose corners.
/// - `setup_figures`: Set-up: players place their starting figures.
/// - `setup_first_player`: Set-up: 2D6 are rolled for the first player.
/// - `drawing`: The current player draws cards.
/// - `movement`: The movement phase.
/// - `combat`: A combat.
/// - `allies`: The allies phase.
/// - `recruitment`: The recruitment phase.
/// - `end`: The end phase.
/// - `stop_before_declaration`: A stop the player asked for, before declaring.
/// - `stop_before_garrison`: A stop the player asked for, before the garrison step.
/// - `stop_before_recruit_roll`: A stop the player asked for, before the recruit roll.
/// - `over`: The game is over.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    SetupMap,
    SetupPermanentCards,
    SetupCorners,
    SetupFigures,
    SetupFirstPlayer,
    Drawing,
    Movement,
    Combat,
    Allies,
    Recruitment,
    End,
    StopBeforeDeclaration,
    StopBeforeGarrison,
    StopBeforeRecruitRoll,
    Over,
}

/// A card.
#[derive(Serialize, JsonSchema)]
pub struct CardView {
    pub id: CardId,
    pub name: String,
    /// The card's text; null for an id the card data lacks.
    pub text: Option<String>,
}

/// One space of the map.
#[derive(Serialize, JsonSchema)]
pub struct SpaceView {
    /// Its terrain; null while not laid.
    pub terrain: Option<Terrain>,
    /// The structure on it; null when none.
    pub structure: Option<Structure>,
    /// The seat whose garrison holds it; null when none.
    pub garrison: Option<Seat>,
    /// The figures on it (ids).
    pub figures: Vec<u16>,
}

/// One figure.
#[derive(Serialize, JsonSchema)]
pub struct FigureView {
    pub id: u16,
    /// The seat that owns it.
    pub owner: Seat,
    pub kind: FigureKind,
    pub at: Pos,
    /// Movement points left this turn (0 once done).
    pub moves_left: u8,
    /// Whether it has finished moving this turn.
    pub done: bool,
}

/// One player.
#[derive(Serialize, JsonSchema)]
pub struct PlayerView {
    pub seat: Seat,
    /// The player's corner; null before it is chosen.
    pub corner: Option<Pos>,
    /// Permanent cards (public).
    pub permanent: Vec<CardView>,
    /// Cards in hand (public).
    pub hand_count: usize,
    /// The cards in hand: only the player themself (and everyone once the game is over) sees
    /// them; null for every other viewer.
    pub hand: Option<Vec<CardView>>,
    pub hand_limit: usize,
    /// The structures declared this turn.
    pub declared: Vec<Structure>,
    /// The names of the cards played this turn.
    pub played_this_turn: Vec<String>,
    /// The names of the powers used this turn.
    pub powers_used_this_turn: Vec<String>,
    pub garrisons_on_map: usize,
    /// Garrisons still to place.
    pub garrisons_left: usize,
    pub spaces_controlled: usize,
    /// Whether the player has units left on the map.
    pub has_units: bool,
}

/// One roll for the first player.
#[derive(Serialize, JsonSchema)]
pub struct FirstRoll {
    pub seat: Seat,
    /// The 2D6 total.
    pub roll: u8,
}

/// An Oracle's look: `by` looked at the hand of `of`.
#[derive(Serialize, JsonSchema)]
pub struct OracleLook {
    pub by: Seat,
    pub of: Seat,
}

/// What an Oracle's look showed.
#[derive(Serialize, JsonSchema)]
pub struct OracleSeen {
    pub by: Seat,
    pub of: Seat,
    /// The cards seen.
    pub cards: Vec<CardView>,
}

/// A combat.
#[derive(Serialize, JsonSchema)]
pub struct CombatView {
    /// The space fought over.
    pub at: Pos,
    /// The attacking figure (id).
    pub attacker: u16,
    pub attacker_seat: Seat,
    pub defender_seat: Seat,
    /// The defending figure, or the garrison.
    pub defender: Defender,
    /// The combat's step.
    pub step: CombatStep,
    /// The attacker's 2D6; null before the roll.
    pub attack_roll: Option<u8>,
    /// The defender's 2D6; null before the roll.
    pub defence_roll: Option<u8>,
    /// The attacker's force now; null when the sides cannot be told.
    pub attack_force: Option<i32>,
    /// The defender's force now; null with `attack_force`.
    pub defence_force: Option<i32>,
}

fn card_view(id: CardId) -> CardView {
    CardView {
        id,
        name: card_name(id),
        text: card(id).map(|c| c.text.clone()),
    }
}

/// What `viewer` sees of the state, typed.
pub fn typed_view(state: &State, viewer: Viewer) -> View {
    let board = (0..8u8)
        .map(|y| {
            (0..8u8)
                .map(|x| {
                    let at = Pos(x, y);
                    let space = state.space(at);
                    SpaceView {
                        terrain: space.and_then(|s| s.terrain),
                        structure: space.and_then(|s| s.structure),
                        garrison: space.and_then(|s| s.garrison),
                        figures: state.figures_at(at).map(|f| f.id).collect(),
                    }
                })
                .collect()
        })
        .collect();
    let figures = state
        .figures
        .iter()
        .map(|f| FigureView {
            id: f.id,
            owner: f.owner,
            kind: f.kind,
            at: f.at,
            moves_left: if f.done { 0 } else { state.moves_left(f) },
            done: f.done,
        })
        .collect();
    // The Oracle's look is shown to the two players concerned only.
    let oracle_seen = state
        .peeks
        .iter()
        .filter(|p| viewer.sees_secrets_of(p.by) || viewer.sees_secrets_of(p.of))
        .map(|p| OracleSeen {
            by: p.by,
            of: p.of,
            cards: p.cards.iter().map(|&c| card_view(c)).collect(),
        })
        .collect();
    let started = state.turn > 0;
    View {
        you: match viewer {
            Viewer::Seat(s) => Some(s),
            _ => None,
        },
        phase: phase_name(state),
        prompt: prompt(state),
        turn: state.turn,
        last_turn: state.last_turn(),
        current_seat: started.then_some(state.current),
        first_seat: started.then_some(state.first),
        turn_order: started.then(|| state.turn_order()),
        first_player_rolls: state
            .first_rolls
            .iter()
            .map(|&(seat, roll)| FirstRoll { seat, roll })
            .collect(),
        moving_figure: state.moving,
        board,
        figures,
        players: state
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| player_view(state, seat, p, viewer))
            .collect(),
        deck_count: state.deck.len(),
        discard: state.discard.iter().map(|&c| card_view(c)).collect(),
        cards_to_draw: state.draws,
        combat: combat_view(state),
        last_combat: state.last_combat.clone(),
        pending: state.pending.clone(),
        oracle_looks: state
            .peeks
            .iter()
            .map(|p| OracleLook { by: p.by, of: p.of })
            .collect(),
        oracle_seen,
        your_action_count: match viewer {
            Viewer::Seat(s) => Some(legal_actions(state, s).len()),
            _ => None,
        },
        outcome: match &state.phase {
            Phase::Over(o) => Some(o.clone()),
            _ => None,
        },
    }
}

fn player_view(state: &State, seat: Seat, p: &Player, viewer: Viewer) -> PlayerView {
    PlayerView {
        seat,
        corner: p.corner,
        permanent: p.permanent.iter().map(|&c| card_view(c)).collect(),
        hand_count: p.hand.len(),
        hand: viewer
            .sees_secrets_of(seat)
            .then(|| p.hand.iter().map(|&c| card_view(c)).collect()),
        hand_limit: state.hand_limit(seat),
        declared: p.declared.clone(),
        played_this_turn: p.played.iter().map(|&c| card_name(c)).collect(),
        powers_used_this_turn: p.used.iter().map(|&c| card_name(c)).collect(),
        garrisons_on_map: state.garrisons_on_map(seat),
        garrisons_left: state.garrisons_left(seat),
        spaces_controlled: state.spaces_controlled(seat),
        has_units: state.has_units(seat),
    }
}

fn combat_view(state: &State) -> Option<CombatView> {
    let Phase::Combat(c) = &state.phase else {
        return None;
    };
    let sides = super::combat::sides(state, c);
    Some(CombatView {
        at: c.at,
        attacker: c.attacker,
        attacker_seat: state.current,
        defender_seat: c.defender_seat,
        defender: c.defender,
        step: c.step,
        attack_roll: c.attack_roll,
        defence_roll: c.defence_roll,
        attack_force: sides.as_ref().map(|(a, _)| super::combat::force(state, a)),
        defence_force: sides.as_ref().map(|(_, d)| super::combat::force(state, d)),
    })
}

fn phase_name(state: &State) -> Step {
    match &state.phase {
        Phase::Map => Step::SetupMap,
        Phase::Deal => Step::SetupPermanentCards,
        Phase::Corner { .. } => Step::SetupCorners,
        Phase::StartFigure { .. } | Phase::ExtraFigure { .. } => Step::SetupFigures,
        Phase::FirstPlayer { .. } => Step::SetupFirstPlayer,
        Phase::Movement if state.draws > 0 => Step::Drawing,
        Phase::Movement => Step::Movement,
        Phase::Combat(_) => Step::Combat,
        Phase::Allies => Step::Allies,
        Phase::Recruit | Phase::RecruitPlace { .. } => Step::Recruitment,
        Phase::End if state.draws > 0 => Step::Recruitment,
        Phase::End => Step::End,
        Phase::Stop(Stop::Declaration) => Step::StopBeforeDeclaration,
        Phase::Stop(Stop::Garrison) => Step::StopBeforeGarrison,
        Phase::Stop(Stop::RecruitRoll) => Step::StopBeforeRecruitRoll,
        Phase::Over(_) => Step::Over,
    }
}

/// The schema of [`View`], its parts under `generator`'s definitions.
pub fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<View>()
}

fn prompt(state: &State) -> String {
    let seat = state.current;
    match &state.phase {
        Phase::Map => "The map is being laid out.".to_owned(),
        Phase::Deal => "Permanent cards are being dealt.".to_owned(),
        Phase::Corner { seat } => format!("Seat {seat}: choose your corner."),
        Phase::StartFigure { seat } => format!("Seat {seat}: choose your starting figure."),
        Phase::ExtraFigure { seat } => {
            format!("Seat {seat}: you may add a figure of your choice in the opposite corner.")
        }
        Phase::FirstPlayer { .. } => "Rolling 2D6 for the first player.".to_owned(),
        _ if state.draws > 0 => format!("Seat {seat} draws {} card(s).", state.draws),
        Phase::Movement => match &state.pending {
            Some(Pending::Alchemist { .. }) => {
                format!("Seat {seat}: discard cards for the Alchemist, then alchemy_done.")
            }
            Some(Pending::Illusionist { .. }) => {
                format!("Seat {seat}: choose the unit to switch places with.")
            }
            Some(Pending::AlterTerrain { at }) => {
                format!("Seat {seat}: choose the new terrain of {at} (Alter Terrain).")
            }
            None => format!(
                "Seat {seat}: move figures one space at a time, play cards or use powers, or \
                 end the movement phase."
            ),
        },
        Phase::Combat(c) => match c.step {
            CombatStep::AttackerCards => {
                format!(
                    "Seat {seat} (attacking at {}): play hand cards for force, or done.",
                    c.at
                )
            }
            CombatStep::DefenderCards => format!(
                "Seat {} (defending at {}): play hand cards for force, or done.",
                c.defender_seat, c.at
            ),
            _ => format!("Combat at {}: rolling 2D6.", c.at),
        },
        Phase::Allies | Phase::Recruit => format!("Seat {seat} rolls for recruitment."),
        Phase::RecruitPlace { roll } => {
            format!("Seat {seat}: the recruit roll is {roll}; place your new figure.")
        }
        Phase::End => format!("Seat {seat}: end phase (discard down to your hand limit)."),
        Phase::Stop(stop) => format!(
            "Seat {seat}: use a power {} (you asked to stop here), or go_on.",
            stop.when()
        ),
        Phase::Over(o) => o.summary.clone(),
    }
}

/// Who sees an action in full: a card drawn into a hand is seen by its drawer only.
pub fn visibility(state: &State, _actor: Actor, action: &Action) -> Visibility {
    match action {
        Action::DrawCard(_) => Visibility::Seats(vec![state.current]),
        _ => Visibility::Public,
    }
}

pub fn redact(_state: &State, _actor: Actor, action: &Action) -> Value {
    match action {
        Action::DrawCard(_) => json!("draw_card"),
        _ => serde_json::to_value(action).unwrap_or(Value::Null),
    }
}

fn unit_name(state: &State, unit: &Unit) -> String {
    match unit {
        Unit::Figure(id) => figure_name(state, *id),
        Unit::Garrison(at) => format!("the Garrison at {at}"),
    }
}

fn figure_name(state: &State, id: u16) -> String {
    state.figure(id).map_or_else(
        || format!("figure {id}"),
        |f| format!("{} {id} at {}", f.kind.name(), f.at),
    )
}

pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let who = match actor {
        Actor::Seat(s) => format!("Seat {s}"),
        Actor::Chance => "Chance".to_owned(),
    };
    let cur = state.current;
    match action {
        Action::PlaceTile(t) => format!("A {} tile is placed.", t.name()),
        Action::PlaceChit(s) => format!("A {} chit is placed.", s.name()),
        Action::DealPermanent(c) => format!("A permanent card is dealt: {}.", card_name(*c)),
        Action::DrawCard(c) => {
            if visibility(state, actor, action).allows(viewer) {
                format!("Seat {cur} draws {}.", card_name(*c))
            } else {
                format!("Seat {cur} draws a card.")
            }
        }
        Action::Roll2d6(n) => match &state.phase {
            Phase::FirstPlayer { rolling, rolls } => {
                match rolling
                    .iter()
                    .find(|&&s| rolls.get(s).copied().flatten().is_none())
                {
                    Some(s) => format!("Seat {s} rolls {n} on 2D6 for the first turn."),
                    None => format!("2D6 roll for the first turn: {n}."),
                }
            }
            Phase::Combat(c) => match c.step {
                CombatStep::AttackerRoll => {
                    format!("Seat {cur} rolls {n} on 2D6 attacking at {}.", c.at)
                }
                _ => format!(
                    "Seat {} rolls {n} on 2D6 defending at {}.",
                    c.defender_seat, c.at
                ),
            },
            _ => format!("2D6 roll: {n}."),
        },
        Action::RollDie(n) => format!("Seat {cur} rolls {n} for recruitment."),
        Action::ChooseCorner(c) => format!("{who} takes the corner {c}."),
        Action::StartFigure(k) => format!("{who} starts with a {}.", k.name()),
        Action::DeclineExtraFigure => format!("{who} takes no extra figure."),
        Action::Move { figure, to } => {
            format!("{who} moves {} to {to}.", figure_name(state, *figure))
        }
        Action::Summon { summoner, unit, to } => format!(
            "{who}: {} summons {} to {to}.",
            figure_name(state, *summoner),
            figure_name(state, *unit)
        ),
        Action::PlayCard(c) => format!("{who} plays {}.", card_name(*c)),
        Action::Oracle { seat } => format!("{who} uses the Oracle to look at Seat {seat}'s hand."),
        Action::Empire { at } => format!("{who} uses Empire: a Garrison at {at}."),
        Action::AlterTerrain { at } => format!("{who} chooses {at} for Alter Terrain."),
        Action::AlterTerrainTo(terrain) => match &state.pending {
            Some(Pending::AlterTerrain { at }) => {
                format!("{who} uses Alter Terrain: {at} becomes {}.", terrain.name())
            }
            _ => format!(
                "{who} uses Alter Terrain: the square becomes {}.",
                terrain.name()
            ),
        },
        Action::CancelAlterTerrain => format!("{who} cancels Alter Terrain."),
        Action::Haste { figure } => {
            format!(
                "{who} casts Haste Spell on {}.",
                figure_name(state, *figure)
            )
        }
        Action::Alchemist => format!("{who} uses the Alchemist."),
        Action::AlchemyDiscard(c) => format!("{who} discards {} to the Alchemist.", card_name(*c)),
        Action::AlchemyDone => format!("{who} finishes the Alchemist's discards."),
        Action::Artificer { figure } => {
            format!(
                "{who} uses the Artificer on {}.",
                figure_name(state, *figure)
            )
        }
        Action::Diplomat { permanent, hand } => format!(
            "{who} uses the Diplomat: {} becomes permanent in place of {}.",
            card_name(*hand),
            card_name(*permanent)
        ),
        Action::Jester { seat } => {
            format!("{who} uses the Jester to switch hands with Seat {seat}.")
        }
        Action::Merchant { at } => format!("{who} uses the Merchant: a Garrison at {at}."),
        Action::Polymorph { figure, into } => format!(
            "{who} polymorphs {} into a {}.",
            figure_name(state, *figure),
            into.name()
        ),
        Action::Illusionist(u) => {
            format!("{who} chooses {} for the Illusionist.", unit_name(state, u))
        }
        Action::IllusionistSwap(u) => {
            format!("{who} switches it with {}.", unit_name(state, u))
        }
        Action::CancelIllusion => format!("{who} cancels the Illusionist."),
        Action::Sacrifice { figure } => format!(
            "{who} sacrifices {} on the Altar of Sacrifice.",
            figure_name(state, *figure)
        ),
        Action::RecruitWith { card, at } => {
            format!("{who} plays {} to recruit at {at}.", card_name(*card))
        }
        Action::EndMovement => format!("{who} ends the movement phase."),
        Action::DoneCards => format!("{who} plays no more cards in this combat."),
        Action::Recruit { figure, at } => format!("{who} recruits a {} at {at}.", figure.name()),
        Action::Realign { permanent, hand } => format!(
            "{who} realigns: {} replaces the permanent {}.",
            card_name(*hand),
            card_name(*permanent)
        ),
        Action::Discard(c) => format!("{who} discards {}.", card_name(*c)),
        Action::DiscardAtRandom => format!("{who} discards a card from their hand at random."),
        Action::RandomDiscard(c) => format!(
            "Seat {cur} discards {}, drawn at random from their hand.",
            card_name(*c)
        ),
        Action::EndTurn => format!("{who} ends the turn."),
        Action::StopBefore(Stop::Declaration) => format!(
            "{who} ends the turn, and will stop at the start of their next turn to use a power \
             before the Declaration phase."
        ),
        Action::StopBefore(Stop::Garrison) => {
            format!("{who} declares, and stops to use a power before the Garrison phase.")
        }
        Action::StopBefore(Stop::RecruitRoll) => format!(
            "{who} ends the movement phase, and will stop after the Allies draw to use a power \
             before the Recruit Roll."
        ),
        Action::GoOn => match state.phase {
            Phase::Stop(stop) => format!("{who} uses no (more) powers {}.", stop.when()),
            _ => format!("{who} goes on."),
        },
    }
}
