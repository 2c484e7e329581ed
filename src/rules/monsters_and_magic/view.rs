//! What each viewer sees: the state view, log visibility, redaction and descriptions.
//! Secret: each hand (others see its size), the deck's order and contents, what an Oracle
//! saw (only its user and the player looked at). Public: the board, permanent cards, the discard pile, the figures.

use serde_json::{Value, json};

use super::actions::Action;
use super::data::{CardId, card, card_name};
use super::legal::legal_actions;
use super::state::{CombatStep, Defender, Pending, Phase, Player, State, Stop, Unit};
use crate::rules::{Actor, Seat, Viewer, Visibility};

fn card_view(id: CardId) -> Value {
    json!({
        "id": id,
        "name": card_name(id),
        "text": card(id).map(|c| c.text.clone()),
    })
}

pub fn view(state: &State, viewer: Viewer) -> Value {
    let board: Vec<Vec<Value>> = (0..8u8)
        .map(|y| {
            (0..8u8)
                .map(|x| {
                    let at = super::state::Pos(x, y);
                    let space = state.space(at);
                    json!({
                        "terrain": space.and_then(|s| s.terrain),
                        "structure": space.and_then(|s| s.structure),
                        "garrison": space.and_then(|s| s.garrison),
                        "figures": state.figures_at(at).map(|f| f.id).collect::<Vec<_>>(),
                    })
                })
                .collect()
        })
        .collect();
    let figures: Vec<Value> = state
        .figures
        .iter()
        .map(|f| {
            json!({
                "id": f.id,
                "owner": f.owner,
                "kind": f.kind,
                "at": f.at,
                "moves_left": if f.done { 0 } else { state.moves_left(f) },
                "done": f.done,
            })
        })
        .collect();
    // The Oracle's look is shown to the two players concerned only.
    let peeks: Vec<Value> = state
        .peeks
        .iter()
        .filter(|p| viewer.sees_secrets_of(p.by) || viewer.sees_secrets_of(p.of))
        .map(|p| {
            json!({
                "by": p.by,
                "of": p.of,
                "cards": p.cards.iter().map(|&c| card_view(c)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let looked_at_by: Vec<Value> = state
        .peeks
        .iter()
        .map(|p| json!({"by": p.by, "of": p.of}))
        .collect();
    let you = match viewer {
        Viewer::Seat(s) => json!(s),
        _ => Value::Null,
    };
    let your_actions: Value = match viewer {
        Viewer::Seat(s) => json!(legal_actions(state, s).len()),
        _ => Value::Null,
    };
    json!({
        "you": you,
        "phase": phase_name(state),
        "prompt": prompt(state),
        "turn": state.turn,
        "last_turn": state.last_turn(),
        "current_seat": if state.turn > 0 { json!(state.current) } else { Value::Null },
        "first_seat": if state.turn > 0 { json!(state.first) } else { Value::Null },
        "turn_order": if state.turn > 0 { json!(state.turn_order()) } else { Value::Null },
        "first_player_rolls": first_player_rolls(state),
        "moving_figure": state.moving,
        "board": board,
        "figures": figures,
        "players": state.players.iter().enumerate()
            .map(|(seat, p)| player_view(state, seat, p, viewer))
            .collect::<Vec<_>>(),
        "deck_count": state.deck.len(),
        "discard": state.discard.iter().map(|&c| card_view(c)).collect::<Vec<_>>(),
        "cards_to_draw": state.draws,
        "combat": combat_view(state),
        "last_combat": state.last_combat,
        "pending": match &state.pending {
            Some(Pending::Alchemist { discarded }) => json!({"alchemist": {"discarded": discarded}}),
            Some(Pending::Illusionist { first }) => json!({"illusionist": {"first": first}}),
            Some(Pending::AlterTerrain { at }) => json!({"alter_terrain": {"at": at}}),
            None => Value::Null,
        },
        "oracle_looks": looked_at_by,
        "oracle_seen": peeks,
        "your_action_count": your_actions,
        "outcome": match &state.phase { Phase::Over(o) => json!(o), _ => Value::Null },
    })
}

/// The 2D6 rolls for the first turn, round by round (ties roll again), by seat.
fn first_player_rolls(state: &State) -> Value {
    json!(
        state
            .first_rolls
            .iter()
            .map(|&(seat, roll)| json!({"seat": seat, "roll": roll}))
            .collect::<Vec<_>>()
    )
}

fn player_view(state: &State, seat: Seat, p: &Player, viewer: Viewer) -> Value {
    let hand = if viewer.sees_secrets_of(seat) {
        json!(p.hand.iter().map(|&c| card_view(c)).collect::<Vec<_>>())
    } else {
        Value::Null
    };
    json!({
        "seat": seat,
        "corner": p.corner,
        "permanent": p.permanent.iter().map(|&c| card_view(c)).collect::<Vec<_>>(),
        "hand_count": p.hand.len(),
        "hand": hand,
        "hand_limit": state.hand_limit(seat),
        "declared": p.declared,
        "played_this_turn": p.played.iter().map(|&c| card_name(c)).collect::<Vec<_>>(),
        "powers_used_this_turn": p.used.iter().map(|&c| card_name(c)).collect::<Vec<_>>(),
        "garrisons_on_map": state.garrisons_on_map(seat),
        "garrisons_left": state.garrisons_left(seat),
        "spaces_controlled": state.spaces_controlled(seat),
        "has_units": state.has_units(seat),
    })
}

fn combat_view(state: &State) -> Value {
    let Phase::Combat(c) = &state.phase else {
        return Value::Null;
    };
    let sides = super::combat::sides(state, c);
    json!({
        "at": c.at,
        "attacker": c.attacker,
        "attacker_seat": state.current,
        "defender_seat": c.defender_seat,
        "defender": match c.defender {
            Defender::Figure(id) => json!({"figure": id}),
            Defender::Garrison => json!("garrison"),
        },
        "step": c.step,
        "attack_roll": c.attack_roll,
        "attack_force": sides.map(|(a, _)| super::combat::force(state, &a)),
        "defence_force": sides.map(|(_, d)| super::combat::force(state, &d)),
    })
}

fn phase_name(state: &State) -> &'static str {
    match &state.phase {
        Phase::Map => "setup_map",
        Phase::Deal => "setup_permanent_cards",
        Phase::Corner { .. } => "setup_corners",
        Phase::StartFigure { .. } | Phase::ExtraFigure { .. } => "setup_figures",
        Phase::FirstPlayer { .. } => "setup_first_player",
        Phase::Movement if state.draws > 0 => "drawing",
        Phase::Movement => "movement",
        Phase::Combat(_) => "combat",
        Phase::Allies => "allies",
        Phase::Recruit | Phase::RecruitPlace { .. } => "recruitment",
        Phase::End if state.draws > 0 => "recruitment",
        Phase::End => "end",
        Phase::Stop(Stop::Declaration) => "stop_before_declaration",
        Phase::Stop(Stop::Garrison) => "stop_before_garrison",
        Phase::Stop(Stop::RecruitRoll) => "stop_before_recruit_roll",
        Phase::Over(_) => "over",
    }
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
