//! What each viewer sees: the state view, the log's visibility and redaction, and the
//! one-line descriptions. Secret: each hand of Secret abilities and of Learned cards held,
//! the cards being drawn and the Learned card kept until it is attached, the decks (shown as
//! counts). Everything else is public.

use serde_json::{Value, json};

use super::actions::Action;
use super::data::{self, CardId, Deck};
use super::state::{Cast, Phase, Source, State, Step, Target, Unit, UnitRef};
use crate::rules::{Actor, Seat, Viewer, Visibility};

fn owner_name(state: &State, owner: usize) -> String {
    if state.player(owner).is_some_and(|p| p.automaton) {
        "the automaton".to_owned()
    } else {
        format!("seat {owner}")
    }
}

fn unit_name(state: &State, u: UnitRef) -> String {
    format!(
        "{}'s {}",
        owner_name(state, u.owner),
        state.tribe_of(u.owner).unit_name(u.slot)
    )
}

fn card_view(id: CardId) -> Value {
    match data::card(id) {
        Some((deck, a)) => {
            json!({ "card": id, "name": a.name, "deck": deck, "cost": a.cost, "text": a.text() })
        }
        None => json!({ "card": id, "name": data::card_name(id) }),
    }
}

/// What the game waits for, in words (also the reason given for a refused action).
pub fn prompt(state: &State) -> String {
    if let Some(u) = state.falls.first() {
        return format!(
            "{} must land on the nearest face-up tile",
            unit_name(state, *u)
        );
    }
    if let Some(p) = state.placements.first() {
        return format!(
            "{} must choose where {}, moved by an ability, goes",
            owner_name(state, p.unit.owner),
            unit_name(state, p.unit)
        );
    }
    if let Some((from, to)) = state.offer {
        return format!("seat {to} may accept or decline seat {from}'s offer of an alliance");
    }
    if let Some(w) = &state.window {
        let seats: Vec<String> = w.waiting.iter().map(|s| format!("seat {s}")).collect();
        return format!("{} may cast an ability or pass", seats.join(", "));
    }
    if !state.solo_choice.is_empty() {
        return "choose which of the tied tiles the crumbling earth flips".to_owned();
    }
    match &state.phase {
        Phase::Tribes => "tribes are being dealt".to_owned(),
        Phase::Tiles => "tiles are being placed".to_owned(),
        Phase::SplitClans => "the automaton's Clans are being placed".to_owned(),
        Phase::FirstPlayer => "the first player is being chosen".to_owned(),
        Phase::Leaders => "place a Leader on a starting tile".to_owned(),
        Phase::Over => "the game is over".to_owned(),
        Phase::Turn { seat, step } => {
            let what = match step {
                Step::Start => "starts their turn",
                Step::Reenter => "must bring a Clan back onto one of its face-up tiles",
                Step::Flip { .. } => "must flip a tile",
                Step::Roll { .. } if !state.to_roll.is_empty() => "is rolling dice",
                Step::Roll { .. } => "may mark dice and re-roll them, or keep the dice",
                Step::Assign => "must assign each die to an active unit",
                Step::Act if state.must_attack.is_some() => {
                    "must attack with the unit that entered an enemy's tile"
                }
                Step::Act if state.moving.is_some() => {
                    "may move the moving unit on, or stop it on a face-up tile"
                }
                Step::Act => "may move and attack with their units, then end their actions",
                Step::Call if state.draw.is_some() => "is drawing ability cards",
                Step::Call => "may call Clans to war or draw cards, then end Call to War",
                Step::Charge => "may charge abilities from the reserve",
            };
            format!("seat {seat} {what}")
        }
    }
}

fn unit_view(state: &State, owner: usize, u: &Unit) -> Value {
    let tribe = state.tribe_of(owner);
    let stats = data::unit_stats(u.slot);
    json!({
        "slot": u.slot,
        "name": tribe.unit_name(u.slot),
        "status": u.status,
        "tile": u.tile,
        "hp": u.hp,
        "max_hp": stats.hp,
        "defense": u.defense,
        "min_defense": stats.min_defense,
        "max_defense": stats.max_defense,
        "movement": stats.movement,
        "attack": stats.attack,
        "horns": u.horns,
        "move_attack_dice": u.dice,
        "dice_in_attack": u.dice_spent,
        "moved": u.moved,
        "movement_left": u.movement_left(),
        "attacked": u.attacked,
        "fatigued": u.fatigued,
        "innate": tribe.innate(u.slot).map(|a| json!({
            "name": a.name, "cost": a.cost, "charge": u.innate_charge, "text": a.text(),
        })),
        "learned": u.learned.map(|c| json!({ "ability": card_view(c), "charge": u.learned_charge })),
        "counters": u.counters,
    })
}

pub fn view(state: &State, viewer: Viewer) -> Value {
    let current = state.current();
    let tiles: Vec<Value> = state
        .geometry()
        .ids()
        .map(|t| {
            let p = state.geometry().tile(t);
            let s = state.tile(t);
            let card = s.and_then(|s| s.card);
            json!({
                "tile": t,
                "row": p.map(|p| p.row),
                "col": p.map(|p| p.col),
                "points_up": p.map(|p| p.up),
                "crystal_mine": p.is_some_and(|p| p.mine),
                "outer_edge": p.is_some_and(|p| p.edge),
                "side": p.map(|p| p.side),
                "adjacent": state.geometry().adjacent(t),
                "tribe": card.map(|c| c.tribe),
                "clan": card.map(|c| c.clan),
                "flipped": s.is_none_or(|s| s.flipped),
                "blockade_by": s.and_then(|s| s.blockade),
            })
        })
        .collect();
    let players: Vec<Value> = state
        .players
        .iter()
        .enumerate()
        .map(|(owner, p)| {
            let sees = owner < state.seats && viewer.sees_secrets_of(owner);
            json!({
                "player": owner,
                "automaton": p.automaton,
                "tribe": p.tribe,
                "tribe_name": p.tribe.map(|t| t.name()),
                "reserve": p.reserve,
                "hand_count": p.hand.len(),
                "hand": if sees { json!(p.hand.iter().map(|&c| card_view(c)).collect::<Vec<_>>()) } else { Value::Null },
                "learned_hand_count": p.learned_hand.len(),
                "learned_hand": if sees { json!(p.learned_hand.iter().map(|&c| card_view(c)).collect::<Vec<_>>()) } else { Value::Null },
                "trophies": p.trophies.iter().map(|&(t, slot)| json!({"tribe": t, "unit": t.unit_name(slot)})).collect::<Vec<_>>(),
                "score": state.score(owner),
                "eliminated": p.eliminated,
                "units": p.units.iter().map(|u| unit_view(state, owner, u)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let draw = state.draw.as_ref().map(|d| {
        let sees = current.is_some_and(|c| viewer.sees_secrets_of(c));
        json!({
            "drawn_count": d.drawn.len(),
            "drawn": if sees { json!(d.drawn.iter().map(|&c| card_view(c)).collect::<Vec<_>>()) } else { Value::Null },
            "learned_kept": d.attach.is_some(),
            "learned_to_attach": if sees { json!(d.attach.map(card_view)) } else { Value::Null },
        })
    });
    json!({
        "you": match viewer { Viewer::Seat(s) => json!(s), _ => Value::Null },
        "prompt": prompt(state),
        "round": state.round,
        "last_round": state.last_round,
        "extra_round": state.extra_round,
        "current_seat": current,
        "first_player": state.first_player,
        "step": match &state.phase { Phase::Turn { step, .. } => json!(step), other => json!(other) },
        "tiles": tiles,
        "leader_starts": state.geometry().starts,
        "players": players,
        "dice": state.dice.iter().zip(&state.assigned).map(|(f, a)| json!({"face": f, "assigned": a})).collect::<Vec<_>>(),
        "marked_for_reroll": state.marked,
        "moving_unit": state.moving,
        "must_attack": state.must_attack,
        "pending_attack": state.attack,
        "draw": draw,
        "decks": { "learned": state.deck_count(Deck::Learned), "secret": state.deck_count(Deck::Secret) },
        "reaction_window": state.window,
        "falling_units": state.falls,
        "units_to_place": state.placements,
        "alliances": state.alliances,
        "alliance_offer": state.offer,
        "tied_crumble_tiles": state.solo_choice,
        "result": state.result,
    })
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

pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let who = match actor {
        Actor::Seat(s) => format!("Seat {s}"),
        Actor::Chance => "Chance".to_owned(),
    };
    let cur = state.current().unwrap_or(0);
    let text = match action {
        Action::DealTribe(t) => format!("deals the {} to the next player", t.name()),
        Action::PlaceTile(c) => format!(
            "places the {} {:?} tile of the {}",
            c.tribe.unit_name(c.clan),
            c.side,
            c.tribe.name()
        ),
        Action::SplitClans(m) => format!("puts the automaton Clans of mask {m} on side A"),
        Action::FirstPlayer(s) => format!("picks seat {s} to play first"),
        Action::RollDie(f) => format!("rolls {f:?}"),
        Action::DrawCard(c) => {
            let deck = state.draw.as_ref().and_then(|d| d.from.first().copied());
            if drawer(state).is_some_and(|d| viewer.sees_secrets_of(d)) {
                format!("draws {} for seat {cur}", data::card_name(*c))
            } else {
                format!("draws a card from the {deck:?} deck for seat {cur}")
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
            "assigns a {face:?} die to the {}",
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
        Action::DrawFrom(d) => format!("draws from the {d:?} deck"),
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
