//! The panel beside the board: the game and what it is doing; the steps of the turn with the
//! current one lit and this turn's dice (black, pink bonus dice, faded once assigned, framed
//! when marked for a re-roll: each a `data-target="die-<n>"`); the players (colour, name,
//! "(you)", "to play", tribe, points, crystals, Secret cards as a count, defeated enemies, and
//! their seven units with HP: a cone for the Leader, discs for the Clans, hollow while not
//! called, crossed once defeated), the solo automaton likewise; then what the symbols mean.

use super::super::Variant;
use super::super::data::Token;
use super::super::state::{Phase, State, Status, Step};
use super::tiles::{counter_mark, tint};
use super::{
    ALARM, CRYSTAL, GOLD, INK, LEGEND_WIDTH, SOFT_INK, TOP, clip, die_target, icons, n, status, who,
};
use crate::rules::picture::{escape, seat_colour};
use crate::rules::{Seat, Viewer};

/// A neutral colour for the key's tokens.
const NEUTRAL: &str = "#7a6a58";

/// Draws the legend with its left edge at `x0`; returns its bottom edge.
pub fn draw(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    letters: &[char],
    x0: i32,
) -> i32 {
    let mut body = String::with_capacity(10_000);
    let x = x0 + 14;
    let mut y = TOP as i32 + 24;
    body.push_str(&format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"17\" font-weight=\"bold\" fill=\"{INK}\">\
         Gnomes &amp; Wizards</text>"
    ));
    for line in wrap(&status(state, viewer, names), 44, 3) {
        y += 16;
        body.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" fill=\"{SOFT_INK}\">{}</text>",
            escape(&line)
        ));
    }

    if let Phase::Turn { seat, step } = &state.phase {
        y += 8;
        heading(&mut body, x, &mut y, "This turn");
        steps(&mut body, *seat, step, x, y);
        y += 24;
        if !state.dice.is_empty() {
            y += dice(&mut body, state, step, x, y);
        }
    }

    y += 4;
    heading(&mut body, x, &mut y, "Players");
    for owner in 0..state.players.len() {
        y += player(&mut body, state, viewer, names, letters, owner, x, y);
    }

    y -= 4;
    heading(&mut body, x, &mut y, "Key");
    y = key(&mut body, state, x, y);

    out.push_str(&format!(
        "<g data-legend=\"\" pointer-events=\"none\"><rect x=\"{x0}\" y=\"{}\" width=\"{}\" \
         height=\"{}\" rx=\"10\" fill=\"#fbf7ee\" stroke=\"#c9b99a\" stroke-width=\"1.5\"/>",
        TOP as i32 - 2,
        LEGEND_WIDTH,
        y - TOP as i32 + 2
    ));
    out.push_str(&body);
    out.push_str("</g>");
    y
}

/// `text` in lines of at most `width` characters, at most `lines` of them (the last clipped).
fn wrap(text: &str, width: usize, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    if out.len() > lines {
        let rest = out.split_off(lines.saturating_sub(1)).join(" ");
        out.push(clip(&rest, width));
    }
    out.into_iter().map(|l| clip(&l, width)).collect()
}

/// A section's title with a rule under it; moves `y` to its first row.
fn heading(out: &mut String, x: i32, y: &mut i32, title: &str) {
    *y += 22;
    out.push_str(&format!(
        "<text x=\"{x}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\" \
         letter-spacing=\"0.5\">{}</text><path d=\"M{x} {}h{}\" stroke=\"#c9b99a\"/>",
        *y,
        escape(title),
        *y + 5,
        LEGEND_WIDTH - 28
    ));
    *y += 20;
}

fn label(x: i32, y: i32, text: &str) -> String {
    format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" fill=\"{INK}\">{}</text>",
        escape(text)
    )
}

/// The six steps of a turn as chips, the current one in the colour of the seat to play.
fn steps(out: &mut String, seat: Seat, now: &Step, x: i32, y: i32) {
    let all = [
        (Step::Flip { left: 0 }, "Flip"),
        (Step::Roll { rerolls_left: 0 }, "Roll"),
        (Step::Assign, "Assign"),
        (Step::Act, "Move"),
        (Step::Call, "Call"),
        (Step::Charge, "Charge"),
    ];
    let same = |a: &Step, b: &Step| std::mem::discriminant(a) == std::mem::discriminant(b);
    let w = (LEGEND_WIDTH - 28 - 5 * 3) / 6;
    for (i, (step, name)) in all.iter().enumerate() {
        let cx = x + i32::try_from(i).unwrap_or(0) * (w + 3);
        let lit = same(step, now);
        let (fill, ink, weight) = if lit {
            (seat_colour(seat), "#fff", "bold")
        } else {
            ("#ece4d3", SOFT_INK, "normal")
        };
        out.push_str(&format!(
            "<rect data-step=\"{name}\" x=\"{cx}\" y=\"{}\" width=\"{w}\" height=\"18\" rx=\"9\" \
             fill=\"{fill}\"/><text x=\"{}\" y=\"{}\" font-size=\"10.5\" font-weight=\"{weight}\" \
             fill=\"{ink}\" text-anchor=\"middle\">{name}</text>",
            y - 12,
            cx + w / 2,
            y + 1
        ));
    }
}

/// This turn's dice in rows (black first, then the pink bonus dice); returns the height used.
fn dice(out: &mut String, state: &State, step: &Step, x: i32, y: i32) -> i32 {
    const SIDE: i32 = 26;
    const PITCH: i32 = 33;
    let per_row = ((LEGEND_WIDTH - 28 + PITCH - SIDE) / PITCH).max(1);
    let black = super::super::data::BLACK_DICE;
    let mut rows = 0;
    // Dice are clickable only while they can be chosen (marking, assigning).
    let clickable = matches!(step, Step::Roll { .. } | Step::Assign);
    for (i, face) in state.dice.iter().enumerate() {
        let k = i32::try_from(i).unwrap_or(0);
        let (col, row) = (k % per_row, k / per_row);
        rows = rows.max(row + 1);
        let target = die_target(i);
        icons::die(
            out,
            f64::from(x + col * PITCH),
            f64::from(y + row * (SIDE + 8)),
            f64::from(SIDE),
            &icons::Die {
                face: *face,
                bonus: i >= black,
                used: state.assigned.get(i).copied().unwrap_or(false),
                marked: state.marked.contains(&i),
                target: clickable.then_some(target.as_str()),
            },
        );
    }
    let mut h = rows * (SIDE + 8);
    let mut note: Vec<String> = Vec::new();
    if let Step::Roll { rerolls_left } = step {
        note.push(match rerolls_left {
            1 => "1 re-roll left".to_owned(),
            k => format!("{k} re-rolls left"),
        });
    }
    if state.dice.len() > black {
        note.push("pink: bonus dice".to_owned());
    }
    if state.assigned.iter().any(|a| *a) {
        note.push("faded: assigned".to_owned());
    }
    if !note.is_empty() {
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{}</text>",
            y + h + 4,
            escape(&note.join(" · "))
        ));
        h += 18;
    }
    h
}

fn plural(k: usize, one: &str, many: &str) -> String {
    if k == 1 {
        format!("1 {one}")
    } else {
        format!("{k} {many}")
    }
}

/// One player's block; returns its height.
#[allow(clippy::too_many_arguments)]
fn player(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    letters: &[char],
    owner: usize,
    x: i32,
    y: i32,
) -> i32 {
    let Some(p) = state.player(owner) else {
        return 0;
    };
    let colour = seat_colour(owner);
    let letter = letters.get(owner).copied().unwrap_or('?');
    icons::token(
        out,
        (f64::from(x + 10), f64::from(y - 4)),
        10.0,
        colour,
        &letter.to_string(),
        false,
        "",
    );
    let you = viewer == Viewer::Seat(owner) && owner < state.seats;
    let flag = match &state.phase {
        Phase::Over => state
            .result
            .as_ref()
            .is_some_and(|r| r.winners.contains(&owner))
            .then_some("winner"),
        _ if state.current() == Some(owner) => Some("to play"),
        _ => None,
    };
    let mut room: usize = if flag.is_some() { 24 } else { 30 };
    if you {
        room -= 6;
    }
    let mut name = clip(&who(state, names, owner), room);
    if you {
        name.push_str(" (you)");
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{y}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\">{}</text>",
        x + 28,
        escape(&name)
    ));
    if let Some(word) = flag {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\" font-size=\"11\" font-weight=\"bold\" fill=\"{colour}\" \
             text-anchor=\"end\">{word}</text>",
            x + LEGEND_WIDTH - 28
        ));
    }
    let tribe = p.tribe.map_or("no tribe yet", |t| t.name());
    let points = if p.automaton {
        format!("{} HP", state.total_hp(owner))
    } else {
        plural(
            usize::try_from(state.score(owner)).unwrap_or(0),
            "point",
            "points",
        )
    };
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{} · \
         <tspan font-weight=\"bold\" fill=\"{INK}\">{}</tspan></text>",
        x + 28,
        y + 15,
        escape(&clip(tribe, 30)),
        escape(&points)
    ));
    let mut facts: Vec<String> = Vec::new();
    if !p.automaton {
        facts.push(plural(usize::from(p.reserve), "crystal", "crystals"));
        facts.push(plural(p.hand.len(), "Secret card", "Secret cards"));
    }
    if p.automaton {
        let standing = p.units.iter().filter(|u| u.on_board()).count();
        facts.push(format!("{standing} of 7 units standing"));
    }
    if !p.trophies.is_empty() {
        facts.push(format!("{} defeated", p.trophies.len()));
    }
    if state.options.has(Variant::TeamPlay) && state.seats == 4 {
        facts.push(format!("team {}", who(state, names, (owner + 2) % 4)));
    }
    for &(a, b) in &state.alliances {
        let other = match (a == owner, b == owner) {
            (true, _) => Some(b),
            (_, true) => Some(a),
            _ => None,
        };
        if let Some(o) = other {
            facts.push(format!("allied {}", who(state, names, o)));
        }
    }
    if p.eliminated {
        facts.push("out of the battle".to_owned());
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{}</text>",
        x + 28,
        y + 29,
        escape(&clip(&facts.join(" · "), 40))
    ));
    // The seven units with their HP.
    let row_y = y + 50;
    for u in &p.units {
        let cx = x + 16 + i32::from(u.slot) * 36;
        let slot_label = if u.slot == 0 {
            "L".to_owned()
        } else {
            u.slot.to_string()
        };
        let at = (f64::from(cx), f64::from(row_y));
        let hp = match u.status {
            Status::Active => {
                icons::token(out, at, 9.0, colour, &slot_label, u.slot == 0, "");
                format!("{} HP", u.hp)
            }
            Status::Inactive => {
                out.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{row_y}\" r=\"9\" fill=\"{}\" stroke=\"{colour}\" \
                     stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/><text x=\"{cx}\" y=\"{}\" \
                     font-size=\"9\" font-weight=\"bold\" fill=\"{colour}\" \
                     text-anchor=\"middle\">{slot_label}</text>",
                    tint(colour, 0.12),
                    row_y + 3
                ));
                String::new()
            }
            Status::Defeated => {
                out.push_str(&format!(
                    "<circle cx=\"{cx}\" cy=\"{row_y}\" r=\"9\" fill=\"#b9b0a2\"/><path \
                     d=\"M{} {}l12 12m0 -12l-12 12\" stroke=\"{INK}\" stroke-width=\"2\"/>",
                    cx - 6,
                    row_y - 6
                ));
                "out".to_owned()
            }
        };
        out.push_str(&format!(
            "<text x=\"{cx}\" y=\"{}\" font-size=\"9.5\" fill=\"{SOFT_INK}\" \
             text-anchor=\"middle\">{hp}</text>",
            row_y + 23
        ));
    }
    94
}

/// What the symbols mean, in two columns; returns the bottom.
fn key(out: &mut String, state: &State, x: i32, y: i32) -> i32 {
    let half = (LEGEND_WIDTH - 28) / 2;
    let mut items: Vec<(String, String)> = Vec::new();
    let tri = |fill: &str, stroke: &str, width: f64, dash: &str| {
        format!(
            "<path d=\"M0 8L9 -8L18 8Z\" fill=\"{fill}\" stroke=\"{stroke}\" \
             stroke-width=\"{}\" stroke-dasharray=\"{dash}\" stroke-linejoin=\"round\"/>",
            n(width)
        )
    };
    items.push((
        format!(
            "{}<circle cx=\"9\" cy=\"3\" r=\"5\" fill=\"#fffdf7\" stroke=\"{NEUTRAL}\" \
             stroke-width=\"1.5\"/><text x=\"9\" y=\"6\" font-size=\"8\" font-weight=\"bold\" \
             fill=\"{NEUTRAL}\" text-anchor=\"middle\">3</text>",
            tri(&tint(NEUTRAL, 0.3), "#7d6a52", 1.0, "none")
        ),
        "Tile of Clan 3".to_owned(),
    ));
    let mut gem = String::new();
    icons::crystal(&mut gem, (9.0, 3.0), 7.0);
    items.push((
        format!("{}{gem}", tri(&tint(NEUTRAL, 0.3), CRYSTAL, 2.5, "none")),
        "Crystal mine".to_owned(),
    ));
    items.push((
        tri("url(#gw-flipped)", "#7d6a52", 1.0, "none"),
        "Flipped tile".to_owned(),
    ));
    let mut cone = String::new();
    icons::token(&mut cone, (9.0, 1.0), 7.0, NEUTRAL, "L", true, "");
    items.push((cone, "Leader".to_owned()));
    let mut disc = String::new();
    icons::token(&mut disc, (9.0, 0.0), 8.0, NEUTRAL, "3", false, "");
    items.push((disc, "Clan".to_owned()));
    let g = state.geometry();
    if g.ids()
        .any(|t| state.tile(t).is_some_and(|s| s.blockade.is_some()))
    {
        items.push((tri("none", NEUTRAL, 3.0, "5 2"), "Blockade".to_owned()));
    }
    if matches!(state.phase, Phase::Leaders) {
        items.push((tri("none", GOLD, 2.5, "4 2"), "Leader start".to_owned()));
    }
    if !state.solo_choice.is_empty() {
        items.push((tri("none", ALARM, 2.5, "4 2"), "May crumble".to_owned()));
    }
    let ring = |colour: &str, dash: &str| {
        format!(
            "<circle cx=\"9\" cy=\"0\" r=\"8\" fill=\"none\" stroke=\"{colour}\" \
             stroke-width=\"3\" stroke-dasharray=\"{dash}\"/>"
        )
    };
    if state.moving.is_some() {
        items.push((ring(GOLD, "none"), "Moving now".to_owned()));
    }
    if state.attack.is_some() {
        items.push((ring(ALARM, "none"), "Attacked".to_owned()));
    }
    if !state.falls.is_empty() {
        items.push((ring(ALARM, "3 2"), "Falling".to_owned()));
    }
    let mut tokens: Vec<Token> = state
        .players
        .iter()
        .flat_map(|p| &p.units)
        .filter(|u| u.on_board())
        .flat_map(|u| u.counters.iter().map(|c| c.token))
        .collect();
    tokens.sort_unstable();
    tokens.dedup();
    for t in tokens {
        let name = match t {
            Token::Flying => "Flying",
            Token::Sleeping => "Sleeping",
            Token::LingeringAttack => "Lingering attack",
            Token::NoAttack => "No attack",
            Token::NoMovement => "No movement",
        };
        items.push((
            format!(
                "<circle cx=\"9\" cy=\"0\" r=\"6\" fill=\"{INK}\"/><text x=\"9\" y=\"3\" \
                 font-size=\"8.5\" font-weight=\"bold\" fill=\"#fff\" \
                 text-anchor=\"middle\">{}</text>",
                escape(counter_mark(t))
            ),
            name.to_owned(),
        ));
    }
    let mut bottom = y;
    for (i, (icon, text)) in items.iter().enumerate() {
        let k = i32::try_from(i).unwrap_or(0);
        let (cx, cy) = (x + (k % 2) * half, y + (k / 2) * 24);
        out.push_str(&format!(
            "<g transform=\"translate({cx} {})\">{icon}</g>{}",
            cy - 4,
            label(cx + 24, cy, text)
        ));
        bottom = cy;
    }
    bottom + 16
}
