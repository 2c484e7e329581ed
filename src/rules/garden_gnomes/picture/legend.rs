//! The panel beside the park: the players (their clan's colour, name, whose move, the final
//! score), under each the clans they run (gnomes in the park and in reserve, the tokens
//! collected, the first player token), a battle in progress, and what the colours mean.

use super::super::data::{Colour, Food, Token};
use super::super::state::{Clan, Combat, Phase, State};
use super::park::{clan_fill, food_fill, territory_fill, token};
use super::{INK, LEGEND_WIDTH, SOFT_INK, TOP, clip};
use crate::rules::picture::escape;
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// Draws the legend with its left edge at `x0`; returns its bottom edge.
pub fn draw(out: &mut String, state: &State, viewer: Viewer, names: &[String], x0: i32) -> i32 {
    let mut body = String::with_capacity(8_000);
    let x = x0 + 14;
    let half = LEGEND_WIDTH / 2;
    let mut y = TOP - 8;
    heading(&mut body, x, &mut y, "Players");
    for seat in 0..state.seats {
        player(&mut body, state, viewer, names, seat, x, &mut y);
    }
    if let Phase::Combat(combat) = &state.phase {
        y -= 4;
        battle(&mut body, combat, x, &mut y);
    }

    y -= 4;
    heading(&mut body, x, &mut y, "Key");
    let swatches: [(&str, String, &str); 4] = [
        (
            food_fill(Food::Acorn),
            "#8a7a5c".to_owned(),
            "Acorns (loot)",
        ),
        (
            food_fill(Food::Apple),
            "#8a7a5c".to_owned(),
            "Apples (loot)",
        ),
        (
            food_fill(Food::Berry),
            "#8a7a5c".to_owned(),
            "Berries (loot)",
        ),
        (territory_fill(None, true), "#8a7a5c".to_owned(), "Statue"),
    ];
    for (i, (fill, stroke, text)) in swatches.iter().enumerate() {
        let i = i32::try_from(i).unwrap_or(0);
        let (cx, cy) = (x + (i % 2) * half, y + (i / 2) * 24);
        body.push_str(&format!(
            "<rect x=\"{cx}\" y=\"{}\" width=\"20\" height=\"16\" rx=\"4\" fill=\"{fill}\" \
             stroke=\"{stroke}\"/>{}",
            cy - 8,
            label(cx + 28, cy + 4, text)
        ));
    }
    y += 48;
    body.push_str(&format!(
        "<rect x=\"{x}\" y=\"{}\" width=\"20\" height=\"16\" rx=\"4\" fill=\"{}\" \
         stroke=\"{}\" stroke-width=\"3\"/>{}",
        y - 8,
        territory_fill(Some(Token::Gnome(Colour::Red)), false),
        clan_fill(Colour::Red).0,
        label(x + 28, y + 4, "A clan's home")
    ));
    token(&mut body, x + half + 10, y, 10, Colour::Green, 3, None);
    body.push_str(&label(x + half + 28, y + 4, "3 Green gnomes"));
    y += 24;
    body.push_str(&format!(
        "<path d=\"M{x} {y}h20\" stroke=\"#c2ab7c\" stroke-width=\"8\" \
         stroke-linecap=\"round\"/>{}",
        label(x + 28, y + 4, "Passage")
    ));
    body.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"20\" height=\"16\" rx=\"4\" fill=\"none\" \
         stroke=\"#c62828\" stroke-width=\"2.5\" stroke-dasharray=\"5 3\"/>{}",
        x + half,
        y - 8,
        label(x + half + 28, y + 4, "Battle")
    ));
    if matches!(&state.phase, Phase::Movement { moves, .. } if !moves.is_empty()) {
        y += 24;
        body.push_str(&format!(
            "<path d=\"M{x} {y}h16\" stroke=\"{SOFT_INK}\" stroke-width=\"4\"/>\
             <path d=\"M{} {}l8 6l-8 6z\" fill=\"{SOFT_INK}\"/>{}",
            x + 16,
            y - 6,
            label(x + 28, y + 4, "A gnome moved this turn")
        ));
    }
    y += 20;

    out.push_str(&format!(
        "<g data-legend=\"\" pointer-events=\"none\"><rect x=\"{x0}\" y=\"{}\" width=\"{}\" \
         height=\"{}\" rx=\"10\" fill=\"#fffaf0\" stroke=\"#c9b99a\" stroke-width=\"1.5\"/>",
        TOP - 10,
        LEGEND_WIDTH,
        y - TOP + 10
    ));
    out.push_str(&body);
    out.push_str("</g>");
    y
}

/// A section's title with a rule under it; moves `y` to its first row.
fn heading(out: &mut String, x: i32, y: &mut i32, title: &str) {
    *y += 24;
    out.push_str(&format!(
        "<text x=\"{x}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\" \
         letter-spacing=\"0.5\">{}</text><path d=\"M{x} {}h{}\" stroke=\"#c9b99a\"/>",
        *y,
        escape(title),
        *y + 5,
        LEGEND_WIDTH - 28
    ));
    *y += 22;
}

fn label(x: i32, y: i32, text: &str) -> String {
    format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"12\" fill=\"{INK}\">{}</text>",
        escape(text)
    )
}

/// One player: a swatch of their seat colour, the name with "(you)", "to move" (or
/// "winner" and the final score), then a block per clan they run.
#[allow(clippy::too_many_arguments)]
fn player(
    out: &mut String,
    state: &State,
    viewer: Viewer,
    names: &[String],
    seat: Seat,
    x: i32,
    y: &mut i32,
) {
    // The park shows clans, not seats: the player's mark is in the colour of their (first)
    // clan, never a seat colour that is another player's clan.
    let mark = state
        .clans
        .iter()
        .find(|c| c.seat == seat)
        .and_then(|c| c.colour)
        .map_or(SOFT_INK, |c| clan_fill(c).0);
    out.push_str(&format!(
        "<rect x=\"{x}\" y=\"{}\" width=\"10\" height=\"16\" rx=\"2\" fill=\"{mark}\" \
         stroke=\"{INK}\" stroke-width=\"0.8\" data-seat=\"{seat}\"/>",
        *y - 12,
    ));
    let acting = state
        .acting_clan()
        .and_then(|i| state.clan(i))
        .map(|c| c.seat);
    let choosing =
        matches!(state.phase, Phase::ChoosingObjectives) && state.choosing_seats().contains(&seat);
    let (word, score) = match &state.phase {
        Phase::Over(ending) => (
            ending.winners.contains(&seat).then_some("winner"),
            ending
                .scores
                .as_ref()
                .and_then(|s| s.get(seat))
                .map(|s| format!("{s} points")),
        ),
        _ if acting == Some(seat) => (Some("to move"), None),
        _ if choosing => (Some("choosing"), None),
        _ => (None, None),
    };
    let you = viewer == Viewer::Seat(seat);
    let mut room: usize = if word.is_some() { 20 } else { 27 };
    if you {
        room -= 6;
    }
    let mut name = clip(&seat_name(names, seat), room);
    if you {
        name.push_str(" (you)");
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\">{}</text>",
        x + 16,
        *y,
        escape(&name)
    ));
    if let Some(word) = word {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" fill=\"{}\" \
             text-anchor=\"end\">{word}</text>",
            x + LEGEND_WIDTH - 28,
            *y,
            INK
        ));
    }
    if let Some(score) = score {
        *y += 15;
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{}</text>",
            x + 16,
            *y,
            escape(&score)
        ));
    }
    *y += 20;
    for (i, clan) in state.clans.iter().enumerate() {
        if clan.seat == seat {
            clan_block(out, state, i, clan, x, y);
        }
    }
    *y += 6;
}

/// A clan: its token (gnomes in the park), "Red: 4 in reserve", the first player token, and
/// its collected tokens.
fn clan_block(out: &mut String, state: &State, i: usize, clan: &Clan, x: i32, y: &mut i32) {
    let Some(colour) = clan.colour else {
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">clan not drawn yet</text>",
            x + 16,
            *y
        ));
        *y += 18;
        return;
    };
    token(out, x + 26, *y - 4, 10, colour, clan.on_board(), None);
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{INK}\" data-clan=\"{}\">\
         <tspan font-weight=\"bold\">{}</tspan>: {} in park, {} in reserve</text>",
        x + 42,
        *y,
        colour.name().to_lowercase(),
        colour.name(),
        clan.on_board(),
        clan.reserve()
    ));
    *y += 15;
    let food: Vec<String> = Food::ALL
        .into_iter()
        .map(|f| {
            let n = clan.count(Token::food(f));
            format!("{n} {}", if n == 1 { f.name() } else { f.plural() })
        })
        .collect();
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{}</text>",
        x + 42,
        *y,
        food.join(", ")
    ));
    *y += 14;
    let gnome_tokens = clan.gnome_tokens();
    let mut facts = vec![format!(
        "{gnome_tokens} gnome {}",
        if gnome_tokens == 1 { "token" } else { "tokens" }
    )];
    if state.first == i && state.round > 0 {
        facts.push("first player".to_owned());
    }
    if matches!(state.phase, Phase::ChoosingObjectives) && clan.choosing(state.keep) {
        facts.push("keeping objectives".to_owned());
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">{}</text>",
        x + 42,
        *y,
        facts.join(" · ")
    ));
    *y += 22;
}

/// The battle: where, which round, the dice declared (attacker → target) and the rolls so far.
fn battle(out: &mut String, combat: &Combat, x: i32, y: &mut i32) {
    heading(out, x, y, "Battle");
    let place = super::super::data::territory_name(combat.territory);
    out.push_str(&format!(
        "<text x=\"{x}\" y=\"{}\" font-size=\"12\" fill=\"{INK}\">{}</text>",
        *y,
        escape(&clip(
            &format!("{place}, combat round {}", combat.round.saturating_add(1)),
            38
        ))
    ));
    *y += 18;
    // Declared dice, grouped by attacker and target in declaration order, with their rolls.
    let mut groups: Vec<(Colour, Colour, Vec<Option<u8>>)> = Vec::new();
    for (k, die) in combat.dice.iter().enumerate() {
        let roll = combat.rolls.get(k).copied();
        match groups
            .iter_mut()
            .find(|(a, t, _)| *a == die.attacker && *t == die.target)
        {
            Some((_, _, rolls)) => rolls.push(roll),
            None => groups.push((die.attacker, die.target, vec![roll])),
        }
    }
    if groups.is_empty() {
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\" font-size=\"11\" fill=\"{SOFT_INK}\">no dice declared yet\
             </text>",
            *y
        ));
        *y += 18;
    }
    for (attacker, target, rolls) in groups {
        out.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"{}\" stroke=\"{INK}\"/>",
            x + 8,
            *y - 4,
            clan_fill(attacker).0
        ));
        let shown: Vec<String> = rolls
            .iter()
            .map(|r| r.map_or("?".to_owned(), |v| v.to_string()))
            .collect();
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"{INK}\">{} → {}: {} {} ({})</text>",
            x + 20,
            *y,
            attacker.name(),
            target.name(),
            rolls.len(),
            if rolls.len() == 1 { "die" } else { "dice" },
            escape(&shown.join(" "))
        ));
        *y += 17;
    }
    *y += 2;
}
