//! What each viewer sees: the state view, the log's visibility and redaction, descriptions.
//! Secret: each hand (others see its size), the deck (count only), and the card a draw or a
//! Thought Steal brings (drawer, or thief and victim, only). Everything else is on the table.

use serde_json::{Value, json};

use super::actions::{Action, Target, actor};
use super::board::{Dir, EdgeKind};
use super::cards::CardId;
use super::state::{Need, Phase, State};
use crate::rules::{Actor, Seat, Viewer, Visibility};

pub fn view(state: &State, viewer: Viewer) -> Value {
    let you = match viewer {
        Viewer::Seat(s) => json!(s),
        _ => Value::Null,
    };
    json!({
        "you": you,
        "phase": phase_name(state),
        "prompt": prompt(state),
        "to_act": actor(state),
        "active_seat": state.turn.seat,
        "turn_number": state.turn.number,
        "round": state.round(),
        "turn": {
            "movement_points": state.turn.movement,
            "attacked": state.turn.attacked,
            "stunned": state.turn.stunned,
            "first_turn": state.turn.first,
            "drawn": state.turn.drawn,
            "cast_from": state.turn.cast_from,
            "stretch_reach": state.turn.reach,
            "extra_punch_made": state.turn.extra_punch,
        },
        "board": board_view(state),
        "wizards": (0..state.seats()).map(|s| wizard_view(state, s, viewer)).collect::<Vec<_>>(),
        "treasures": state.treasures.iter().enumerate().map(|(i, t)| json!({
            "index": i,
            "colour": state.colour(t.owner),
            "owner": t.owner,
            "at": t.at,
            "carried_by": state.carrier(i),
            "held_by_fools_gold": super::flow::leaded(state, i),
        })).collect::<Vec<_>>(),
        "objects": state.objects.iter().map(|o| json!({
            "id": o.id,
            "card": o.card,
            "name": o.card.name(),
            "at": o.at,
            "mobile": o.mobile(),
            "fills_square": o.fills_square(),
            "cracks": o.cracks,
            "spell": o.spell,
        })).collect::<Vec<_>>(),
        "spells_in_play": state.spells.iter().map(|s| json!({
            "id": s.id,
            "card": s.card,
            "name": s.card.name(),
            "caster": s.caster,
            "energy": s.energy,
            "energy_tokens": s.tokens,
            "target": s.target,
        })).collect::<Vec<_>>(),
        "casting": state.casting.as_ref().map(|c| json!({
            "card": c.card, "how": c.how, "square": c.square, "target": c.target,
        })),
        "stack": state.stack.iter().map(|p| json!({
            "by": p.by,
            "card": p.card,
            "name": p.card.name(),
            "how": p.how,
            "target": p.target,
            "energy": p.energy,
            "counter": p.counter,
            "waiting_for": p.waiting,
        })).collect::<Vec<_>>(),
        "deck_count": state.deck.len(),
        "discard": state.discard,
        "recent": state.events,
        "winners": match &state.phase { Phase::Over { winners, .. } => json!(winners), _ => Value::Null },
    })
}

fn wizard_view(state: &State, seat: Seat, viewer: Viewer) -> Value {
    let Some(w) = state.wizard(seat) else {
        return Value::Null;
    };
    let hand = if viewer.sees_secrets_of(seat) {
        json!(w.hand)
    } else {
        Value::Null
    };
    json!({
        "seat": seat,
        "colour": state.colour(seat),
        "home": state.board.home(seat),
        "at": w.at,
        "alive": w.alive(),
        "life": w.life,
        "points": state.points(seat),
        "kills": w.kills,
        "stun_tokens": w.stun,
        "hand_count": w.hand.len(),
        "hand": hand,
        "items": w.items,
        "treasure": w.treasure,
        "hand_total": state.hand_total(seat),
        "hand_limit": state.hand_limit(seat),
        "form": w.form.and_then(|f| super::cards::FORMS.get(usize::from(f))).map(|f| f.name),
        "invisible": state.invisible(seat),
    })
}

fn board_view(state: &State) -> Value {
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
            let mut line = serde_json::Map::new();
            line.insert("at".into(), json!(p));
            line.insert("side".into(), json!(d));
            let kind = match e.kind {
                EdgeKind::Open => "open",
                EdgeKind::Wall => "wall",
                EdgeKind::Door(_) => "door",
                EdgeKind::Outer => "outer_wall",
            };
            line.insert("kind".into(), json!(kind));
            if let EdgeKind::Door(s) = e.kind {
                line.insert("colour".into(), json!(state.colour(s)));
            }
            if e.cracks > 0 {
                line.insert("cracks".into(), json!(e.cracks));
            }
            if e.destroyed {
                line.insert("destroyed".into(), json!(true));
            }
            if matches!(e.kind, EdgeKind::Door(_)) && state.sealed(p, d) {
                line.insert("sealed".into(), json!(true));
            }
            if let Some(c) = e.created {
                line.insert(
                    "created".into(),
                    json!({"card": c.card, "spell": c.spell, "cracks": c.cracks}),
                );
            }
            lines.push(Value::Object(line));
        }
    }
    json!({
        "width": b.width,
        "height": b.height,
        "sectors": b.slots.iter().map(|s| json!({
            "origin": s.origin,
            "colour": s.sector.map(|c| state.colour(usize::from(c))),
            "quarter_turns": s.turns,
        })).collect::<Vec<_>>(),
        "lines": lines,
        "links": b.links,
    })
}

fn phase_name(state: &State) -> &'static str {
    if !state.stack.is_empty() {
        return "reaction_window";
    }
    if state.over_limit().is_some() {
        return "discard_down";
    }
    if state.casting.is_some() {
        return "casting";
    }
    match state.phase {
        Phase::Building { .. } => "building_board",
        Phase::Dealing => "dealing",
        Phase::FirstPlayer => "choosing_first_player",
        Phase::MoveAndCast => "move_and_cast",
        Phase::DiscardAndDraw => "discard_and_draw",
        Phase::Over { .. } => "game_over",
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
        Action::CancelCast => format!("{who} takes the spell back"),
        Action::EndSpell(id) => format!("{who} ends spell #{id}"),
        Action::EndMove => format!("{who} ends move and cast"),
        Action::Discard(c) => format!("{who} discards {}", n(c)),
        Action::DrawCard => format!("{who} draws a card"),
        Action::EndTurn => format!("{who} ends the turn"),
        Action::Counter(c) => format!("{who} answers with {}", n(c)),
        Action::CounterToward(c, d) => {
            format!("{who} answers with {}, drifting {}", n(c), d.name())
        }
        Action::Pass => format!("{who} passes"),
    }
}
