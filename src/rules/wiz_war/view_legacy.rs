//! The `json!` view that the typed one replaced, kept to check they agree (test-only).

use serde_json::{Value, json};

use super::super::board::{Dir, EdgeKind};
use super::super::state::{Phase, State};
use super::prompt;
use crate::rules::wiz_war::actions::actor;
use crate::rules::{Seat, Viewer};

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
            "held_by_fools_gold": super::super::flow::leaded(state, i),
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
        "form": w.form.and_then(|f| super::super::cards::FORMS.get(usize::from(f))).map(|f| f.name),
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

#[test]
fn the_typed_view_writes_what_the_json_view_wrote() {
    let (compared, ended) =
        crate::rules::conformance::same_views::<crate::rules::wiz_war::WizWar>(view, 600, 29);
    assert!(compared > 100, "only {compared} views compared");
    assert!(ended > 0, "no finished game compared");
}
