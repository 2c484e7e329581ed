//! The table's sections: players, this turn, the solo automaton, the variants in play.

use super::super::Variant;
use super::super::data::{self, Deck};
use super::super::state::{After, Phase, Status, Step};
use super::text::{Ctx, and_list, capitalise, card_text, face_name, plural, target, tile};
use crate::rules::Section;

pub(super) fn players(cx: &Ctx) -> Vec<String> {
    let s = cx.state;
    let team = s.options.has(Variant::TeamPlay);
    let mut lines = Vec::new();
    for (owner, p) in s.players.iter().enumerate() {
        let tribe = p.tribe.map_or("no tribe yet", |t| t.name());
        let on_board = p.units.iter().filter(|u| u.on_board()).count();
        let letter = cx.letter(owner);
        if p.automaton {
            let defeated = p
                .units
                .iter()
                .filter(|u| u.status == Status::Defeated)
                .count();
            lines.push(format!(
                "The automaton [{letter}], {tribe}: {} HP on the board, {on_board} of 7 units \
                 standing, {defeated} defeated.",
                s.total_hp(owner)
            ));
            continue;
        }
        let you = if cx.is_me(owner) { " (you)" } else { "" };
        let mut score = format!(
            "{} points ({} HP on the board",
            s.score(owner),
            s.total_hp(owner)
        );
        if !p.trophies.is_empty() {
            let won: Vec<String> = p
                .trophies
                .iter()
                .map(|&(t, slot)| {
                    let whose = s
                        .players
                        .iter()
                        .position(|q| q.tribe == Some(t))
                        .map_or_else(|| t.name().to_owned(), |o| cx.who(o));
                    format!("{} ({whose})", t.unit_name(slot))
                })
                .collect();
            let points = s.score(owner) - s.total_hp(owner);
            score.push_str(&format!(" + {points} for defeating {}", and_list(won)));
        }
        score.push(')');
        let mut parts = vec![score];
        parts.push(format!("{on_board} of 7 units on the board"));
        parts.push(plural(
            p.hand.len(),
            "Secret card in hand",
            "Secret cards in hand",
        ));
        if !p.learned_hand.is_empty() {
            parts.push(plural(
                p.learned_hand.len(),
                "Learned card held in hand",
                "Learned cards held in hand",
            ));
        }
        if p.reserve > 0 {
            parts.push(format!(
                "{} in reserve",
                plural(usize::from(p.reserve), "crystal", "crystals")
            ));
        }
        if team {
            let mate = (owner + 2) % s.seats.max(1);
            if mate != owner {
                parts.push(format!("team-mate {}", cx.who(mate)));
            }
        }
        let allies: Vec<String> = s
            .alliances
            .iter()
            .filter_map(|&(a, b)| match (a == owner, b == owner) {
                (true, _) => Some(cx.who(b)),
                (_, true) => Some(cx.who(a)),
                _ => None,
            })
            .collect();
        if !allies.is_empty() {
            parts.push(format!("allied with {}", and_list(allies)));
        }
        if p.eliminated {
            parts.push("out of the battle".to_owned());
        }
        lines.push(format!(
            "{}{you} [{letter}], {tribe}: {}.",
            cx.who(owner),
            parts.join("; ")
        ));
    }
    lines
}

/// The steps of a turn in order, the current one in brackets.
fn steps(cx: &Ctx, now: &Step) -> String {
    let flip = if cx.state.solo() {
        "crumbling earth (from round 2)"
    } else if cx.state.options.has(Variant::ShorterGame) {
        "flip two tiles (from round 7)"
    } else {
        "flip two tiles (from round 6)"
    };
    let all = [
        (Step::Flip { left: 0 }, flip),
        (Step::Roll { rerolls_left: 0 }, "roll dice"),
        (Step::Assign, "assign dice"),
        (Step::Act, "move and attack"),
        (Step::Call, "Call to War"),
        (Step::Charge, "charge abilities"),
    ];
    let same = |a: &Step, b: &Step| std::mem::discriminant(a) == std::mem::discriminant(b);
    let mut words: Vec<String> = all
        .iter()
        .map(|(step, name)| {
            if same(step, now) {
                format!("[{name}]")
            } else {
                (*name).to_owned()
            }
        })
        .collect();
    match now {
        Step::Start => words.insert(0, "[start]".to_owned()),
        Step::Reenter => words.insert(0, "[bring a Clan back]".to_owned()),
        _ => {}
    }
    words.join(" > ")
}

pub(super) fn turn(cx: &Ctx) -> Vec<String> {
    let s = cx.state;
    let mut lines = Vec::new();
    if let Some(r) = &s.result {
        let scores: Vec<String> = r
            .scores
            .iter()
            .enumerate()
            .map(|(seat, score)| format!("{} {score}", cx.who(seat)))
            .collect();
        lines.push(format!("Final scores: {}.", scores.join(", ")));
        let winners: Vec<String> = r.winners.iter().map(|&w| cx.who(w)).collect();
        lines.push(if winners.is_empty() {
            "Nobody won.".to_owned()
        } else {
            format!("Won by {}.", and_list(winners))
        });
        return lines;
    }
    if s.seats > 1 {
        let order: Vec<String> = (0..s.seats)
            .map(|k| cx.who((s.first_player + k) % s.seats))
            .collect();
        lines.push(format!(
            "{}; turn order each round: {}.",
            super::round(s),
            order.join(", ")
        ));
    } else {
        lines.push(format!("{}.", super::round(s)));
    }
    if let Phase::Turn { seat, step } = &s.phase {
        lines.push(format!(
            "{}'s turn: {}; abilities may be cast at any step.",
            cx.who_cap(*seat),
            steps(cx, step)
        ));
    }
    lines.extend(dice(cx));
    if let Some(a) = s.attack {
        lines.push(format!(
            "Attack declared: {} attacks {} on {} with power {}; it resolves when the reaction \
             window closes (it misses if either unit has left the tile).",
            cx.whose_unit(a.attacker),
            cx.whose_unit(a.target),
            tile(a.tile),
            a.power
        ));
    }
    if let Some(w) = &s.window {
        let after = match w.after {
            After::ResolveAttack => "then the attack resolves".to_owned(),
            After::Continue => match cx.declared_call() {
                Some(call) => format!("then {call} takes effect if it still can"),
                None => "then play goes on".to_owned(),
            },
            After::BeginTurn => "then the turn goes on with its first step".to_owned(),
            After::Flip(t) => format!(
                "then {} flips (units still on it take 2 fall damage and fall)",
                tile(t)
            ),
        };
        lines.push(format!(
            "Reaction window: waiting for {} to cast an ability or pass; declared casts resolve \
             in turn order once everyone has answered, {after}.",
            cx.names_of(&w.waiting)
        ));
        for (seat, c) in &w.casts {
            lines.push(format!(
                "Declared: {} casts {} on {}.",
                cx.who_cap(*seat),
                cx.source(*seat, c.source),
                target(cx, &c.target)
            ));
        }
    }
    for &u in &s.falls {
        lines.push(format!(
            "Falling: {} must land on the nearest face-up tile ({} chooses among equals).",
            cx.whose_unit(u),
            cx.who(u.owner)
        ));
    }
    if let Some((from, to)) = s.offer {
        lines.push(format!(
            "Alliance offered by {} to {}.",
            cx.who(from),
            cx.who(to)
        ));
    }
    if !s.solo_choice.is_empty() {
        let tiles: Vec<String> = s.solo_choice.iter().map(|t| t.to_string()).collect();
        lines.push(format!(
            "The crumbling earth is tied between tiles {}.",
            and_list(tiles)
        ));
    }
    lines.extend(drawing(cx));
    lines.push(format!(
        "Ability decks: {} Learned and {} Secret cards left.",
        s.deck_count(Deck::Learned),
        s.deck_count(Deck::Secret)
    ));
    lines
}

fn dice(cx: &Ctx) -> Vec<String> {
    let s = cx.state;
    if s.dice.is_empty() {
        return Vec::new();
    }
    let dice: Vec<String> = s
        .dice
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut d = format!("{} {}", i + 1, f.map_or("(rolling)", face_name));
            if s.assigned.get(i) == Some(&true) {
                d.push_str(if *f == Some(data::Face::Crystal) {
                    " (to the reserve)"
                } else {
                    " (assigned)"
                });
            }
            if s.marked.contains(&i) {
                d.push_str(" (marked for re-roll)");
            }
            d
        })
        .collect();
    let mut lines = vec![format!("Dice: {}.", dice.join(", "))];
    if let Some(Step::Roll { rerolls_left }) = s.step()
        && s.to_roll.is_empty()
    {
        lines.push(format!(
            "{} left this turn.",
            capitalise(&plural(usize::from(*rerolls_left), "re-roll", "re-rolls"))
        ));
    }
    lines
}

fn drawing(cx: &Ctx) -> Vec<String> {
    let s = cx.state;
    let Some(d) = &s.draw else {
        return Vec::new();
    };
    let who = cx.current_name().unwrap_or_default();
    let mut lines = Vec::new();
    let drawer_sees = s.current().is_some_and(|c| cx.viewer.sees_secrets_of(c));
    if let Some(card) = d.attach {
        lines.push(if drawer_sees {
            format!(
                "You kept {}: attach it to one of your active units now, or hold it in hand \
                 to attach in a later Call to War.",
                card_text(card)
            )
        } else {
            format!(
                "{} kept a Learned card: it goes onto one of their active units or stays in \
                 their hand.",
                capitalise(&who)
            )
        });
    } else if drawer_sees && !d.drawn.is_empty() {
        lines.push(format!(
            "Drawn (you keep one, the other goes under its deck): {}.",
            d.drawn
                .iter()
                .map(|&c| card_text(c))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    } else {
        lines.push(format!(
            "{} is drawing two ability cards to keep one: {} drawn so far.",
            capitalise(&who),
            d.drawn.len()
        ));
    }
    lines
}

/// Solo: how the automaton plays and how far the player is from winning.
pub(super) fn automaton(cx: &Ctx) -> Option<Section> {
    let s = cx.state;
    if !s.solo() {
        return None;
    }
    let defeated = s.player(1).map_or(0, |p| {
        p.units
            .iter()
            .filter(|u| u.status == Status::Defeated)
            .count()
    });
    let active = s
        .player(0)
        .map_or(0, |p| p.units.iter().filter(|u| u.on_board()).count());
    Some(Section::new(
        "The automaton",
        vec![
            format!(
                "Goal: defeat all 7 automaton units (defeated so far: {defeated}) while all 7 of \
                 your units are active (now: {active}), before the end of round {}.",
                s.last_round
            ),
            "It never rolls, moves or casts. From round 2, at the start of each of your turns, \
             the crumbling earth flips two tiles (on the edge or next to a flipped tile): the one \
             nearest your unit with the least HP that is not on a mine, else nearest its own \
             unit with the most HP; on a tie you choose."
                .to_owned(),
            "When you attack one of its units, each automaton unit on that tile strikes your \
             attacker first with its base attack, weakest first. Its units gain 1 defense \
             whenever they take damage, and falling ones drift toward the mines."
                .to_owned(),
        ],
    ))
}

/// The variants and options in play.
pub(super) fn options(cx: &Ctx) -> Vec<String> {
    let o = &cx.state.options;
    let mut lines: Vec<String> = o
        .variants
        .iter()
        .map(|&v| super::variant_text(v).to_owned())
        .collect();
    if o.own_turn_casting {
        lines.push(
            "Own-turn casting: abilities are cast only in their owner's own turn.".to_owned(),
        );
    }
    if cx.state.solo() && !o.has(Variant::EnemyOccupation) {
        lines.push(
            "Enemy occupation (always in solo): entering a tile with more enemies than allies \
             ends the move, and the unit must attack."
                .to_owned(),
        );
    }
    match o.shape {
        super::super::board::Shape::Standard => {}
        super::super::board::Shape::Broad => lines.push("Board shape: broad.".to_owned()),
        super::super::board::Shape::Long => lines.push("Board shape: long.".to_owned()),
        super::super::board::Shape::Hexagon(sides) => lines.push(format!(
            "Board shape: the players' own, a hexagon of sides {}.",
            sides.map(|n| n.to_string()).join("-")
        )),
    }
    lines
}
