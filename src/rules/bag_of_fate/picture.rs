//! The table as an SVG picture (`Ruleset::picture`) for the web page and, rendered to PNG, the
//! HTML mail; and the shape each legal action is about (`Ruleset::targets`).
//!
//! Pure, like the presenter: it draws only what `view::typed_view` shows the viewer: the character
//! row (who took which tile), the Bag of Fate's contents (public: every draw is resolved
//! openly), the deck as a count, the discards, the turn order track, the tokens just drawn, a
//! set or a trade in progress, and each player's seat: level, gems, the number of cards in
//! hand, character, face-up cards, kept tokens and progress towards each set. Of the secrets
//! it draws only the viewer's own: their hand, and, for the Oracle, the cards looked at. Never
//! another player's hand, nor the deck's order. The status line starts with the round (as in
//! the view; ruling 19): the one unbounded number, which reaches 237 (the icons of the
//! conformance suite's planted card) in no real game; every coordinate is even, so that no
//! other number in the picture reads "237".
//!
//! Targets (`data-target`): a character tile `character-wizard`; a player's seat `seat-2`;
//! on it a face-up card kind `seat-2-card-potions-3`, a kept token kind `seat-2-token-snails`,
//! a set's progress `seat-2-set-flowers`; the viewer's hand cards `hand-0`, …; the cards the
//! Oracle looks at `look-0`, …. Text over them ignores the pointer.
//!
//! - `picture/seats.rs`: the players' seats;
//! - this file: the frame, the character row, the bag, the cards, the turn track, the targets.

mod seats;

use super::actions::Action;
use super::data::{Card, Character, CharacterAction, Element, Token};
use super::state::{Item, Phase, State, tally};
use crate::rules::picture::{document, escape, seat_colour};
use crate::rules::present::seat_name;
use crate::rules::{Seat, Viewer};

/// The picture's width and the margin on each side.
const WIDTH: i32 = 900;
const LEFT: i32 = 20;
const INNER: i32 = WIDTH - 2 * LEFT;
/// The character row.
const TILES_TOP: i32 = 68;
const TILE_W: i32 = 114;
const TILE_PITCH: i32 = 124;
const TILE_H: i32 = 86;
/// The middle row: the bag, the cards, the turn track.
const MIDDLE_TOP: i32 = 168;
const MIDDLE_H: i32 = 166;
/// Where the seats begin.
const SEATS_TOP: i32 = MIDDLE_TOP + MIDDLE_H + 14;
/// A card.
const CARD_W: i32 = 44;
const CARD_H: i32 = 56;
const CARD_PITCH: i32 = 50;
/// The page behind everything.
const PAPER: &str = "#f3ecdc";
/// A panel on it.
const PANEL: &str = "#fffaf0";
const PANEL_EDGE: &str = "#c9b99a";
/// Ink for lines and text.
const INK: &str = "#2f2620";
/// Softer ink for secondary text.
const SOFT_INK: &str = "#5e5040";
/// Gold: the tile and seat of the player to play.
const GOLD: &str = "#e0a800";

/// The picture of the table as `viewer` may see it.
pub fn picture(state: &State, viewer: Viewer, names: &[String]) -> String {
    let mut body = String::with_capacity(40_000);
    let mut seats = String::with_capacity(20_000);
    let bottom = seats::draw(&mut seats, state, viewer, names, SEATS_TOP);
    let height = bottom + 16;
    body.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{height}\" fill=\"{PAPER}\"/>"
    ));
    body.push_str(&format!(
        "<g pointer-events=\"none\"><text x=\"{LEFT}\" y=\"30\" font-size=\"20\" \
         font-weight=\"bold\" fill=\"{INK}\">The Wizard Always Wins</text>\
         <text x=\"{LEFT}\" y=\"52\" font-size=\"14\" fill=\"{SOFT_INK}\">{}</text></g>",
        escape(&clip(&status_line(state, viewer, names), 100))
    ));
    characters(&mut body, state, viewer, names);
    bag(&mut body, state, names);
    cards(&mut body, state);
    track(&mut body, state, viewer, names);
    body.push_str(&seats);
    document(
        u32::try_from(WIDTH).unwrap_or(0),
        u32::try_from(height).unwrap_or(0),
        &title(state, viewer, names),
        &body,
    )
}

/// The text alternative: what the game waits for, each player's level and gems in the bag.
fn title(state: &State, viewer: Viewer, names: &[String]) -> String {
    let players: Vec<String> = state
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            format!(
                "{} level {}, {} in the bag",
                who(viewer, names, seat),
                p.level,
                plural(state.gems_in_bag(seat), "gem", "gems")
            )
        })
        .collect();
    format!(
        "The Wizard Always Wins table: {}. {}",
        status(state, viewer, names),
        players.join("; ")
    )
}

/// The player's name, or "you".
fn who(viewer: Viewer, names: &[String], seat: Seat) -> String {
    if viewer == Viewer::Seat(seat) {
        "you".to_owned()
    } else {
        seat_name(names, seat)
    }
}

/// The status with the round in front, once the first round has begun (ruling 19).
fn status_line(state: &State, viewer: Viewer, names: &[String]) -> String {
    let status = status(state, viewer, names);
    match state.round {
        0 => status,
        round => format!("Round {round}: {status}"),
    }
}

/// One line on what the game is doing, in public words.
fn status(state: &State, viewer: Viewer, names: &[String]) -> String {
    let current = state.current_seat();
    let actor = match (current, state.current_character()) {
        (Some(seat), Some(c)) => format!("{} (the {})", who(viewer, names, seat), c.name()),
        (Some(seat), None) => who(viewer, names, seat),
        _ => String::new(),
    };
    match &state.phase {
        Phase::Dealing => "setting up: dealing three cards to each player".to_owned(),
        Phase::PlacingMarkers => "setting up: drawing the turn order".to_owned(),
        Phase::ChoosingCharacter => format!("{actor} to choose a character"),
        Phase::Acting { .. } => {
            let doing = match state.current_action() {
                Some(CharacterAction::DrawCards(_)) => "drawing cards",
                Some(CharacterAction::LookAtCards(_)) => "looking at the top cards",
                Some(CharacterAction::KeepOneLookedAt) => "keeping one card looked at",
                Some(CharacterAction::PlayCards(_)) => "playing a card",
                Some(CharacterAction::DrawTokens(_)) => "drawing tokens from the bag",
                Some(CharacterAction::WizardDraw) => "drawing from the bag, seeking their Gem",
                Some(CharacterAction::Trade) | None => "acting",
            };
            format!("{actor}: {doing}")
        }
        Phase::Trading { partner, .. } => match partner {
            Some(p) => format!("{actor}: trading with {}", who(viewer, names, *p)),
            None => format!("{actor}: choosing a player to trade with"),
        },
        Phase::TurningIn => format!("{actor}: may turn in sets or end the turn"),
        Phase::BuildingSet { element, .. } => {
            format!("{actor}: turning in a set of {}", element.name())
        }
        Phase::Over { winner } => format!(
            "game over: {} drew {} own Gem as the Wizard and won",
            who(viewer, names, *winner),
            if viewer == Viewer::Seat(*winner) {
                "your"
            } else {
                "their"
            }
        ),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// At most `max` characters of `text`, with "…" when cut (not yet escaped).
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

/// A rounded panel with a heading.
fn panel(out: &mut String, x: i32, y: i32, w: i32, h: i32, heading: &str) {
    out.push_str(&format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"10\" fill=\"{PANEL}\" \
         stroke=\"{PANEL_EDGE}\" stroke-width=\"2\" pointer-events=\"none\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\" fill=\"{INK}\" \
         pointer-events=\"none\">{}</text>",
        x + 12,
        y + 20,
        escape(heading)
    ));
}

fn text(x: i32, y: i32, size: u32, fill: &str, words: &str) -> String {
    format!(
        "<text x=\"{x}\" y=\"{y}\" font-size=\"{size}\" fill=\"{fill}\" \
         pointer-events=\"none\">{}</text>",
        escape(words)
    )
}

// ---- Elements and cards ----

/// An element's card tint and its name on a card.
fn element_fill(element: Element) -> &'static str {
    match element {
        Element::Potions => "#c9b6e4",
        Element::Flowers => "#f7c1d4",
        Element::Snails => "#d2c0a6",
        Element::Mushrooms => "#f6c98a",
        Element::Crystals => "#a6dfe8",
    }
}

fn element_word(element: Element) -> &'static str {
    match element {
        Element::Potions => "Potion",
        Element::Flowers => "Flower",
        Element::Snails => "Snail",
        Element::Mushrooms => "Mushroom",
        Element::Crystals => "Crystal",
    }
}

fn element_key(element: Element) -> String {
    element.name().to_lowercase()
}

/// A card at (x, y): its element's tint, its name, its icons as a big number; `copies` over 1
/// is a badge; `target` makes it clickable.
fn card(out: &mut String, x: i32, y: i32, c: Card, copies: usize, target: Option<&str>) {
    let target = target.map_or(String::new(), |t| format!(" data-target=\"{}\"", escape(t)));
    out.push_str(&format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{CARD_W}\" height=\"{CARD_H}\" rx=\"4\" fill=\"{}\" \
         stroke=\"{INK}\" stroke-width=\"1\"{target}/>",
        element_fill(c.element)
    ));
    out.push_str(&format!(
        "<g pointer-events=\"none\" font-weight=\"bold\" fill=\"{INK}\" text-anchor=\"middle\">\
         <text x=\"{}\" y=\"{}\" font-size=\"8\">{}</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"22\">{}</text></g>",
        x + CARD_W / 2,
        y + 12,
        element_word(c.element),
        x + CARD_W / 2,
        y + 42,
        c.icons
    ));
    if copies > 1 {
        out.push_str(&format!(
            "<g pointer-events=\"none\"><circle cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"{INK}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"9\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">×{copies}</text></g>",
            x + CARD_W - 6,
            y + CARD_H - 8,
            x + CARD_W - 6,
            y + CARD_H - 4
        ));
    }
}

/// A token chip: a disc in the element's tint (or a gem in a seat's colour) with a count.
fn chip(out: &mut String, cx: i32, cy: i32, fill: &str, count: usize, target: Option<&str>) {
    let target = target.map_or(String::new(), |t| format!(" data-target=\"{}\"", escape(t)));
    out.push_str(&format!(
        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"12\" fill=\"{fill}\" stroke=\"{INK}\" \
         stroke-width=\"1\"{target}/><text x=\"{cx}\" y=\"{}\" font-size=\"12\" \
         font-weight=\"bold\" fill=\"{INK}\" text-anchor=\"middle\" \
         pointer-events=\"none\">{count}</text>",
        cy + 4
    ));
}

/// A gem: a diamond in its owner's colour.
fn gem(out: &mut String, cx: i32, cy: i32, seat: Seat) {
    out.push_str(&format!(
        "<path d=\"M{cx} {}l8 8l-8 8l-8-8z\" fill=\"{}\" stroke=\"{INK}\" \
         pointer-events=\"none\"/>",
        cy - 8,
        seat_colour(seat)
    ));
}

// ---- The character row ----

/// The tile's actions in two short lines.
fn tile_lines(c: Character) -> [&'static str; 2] {
    match c {
        Character::Queen => ["draw 1, play 1", ""],
        Character::Oracle => ["look at 3, keep 1", "play 1"],
        Character::Trader => ["draw 1, play 1", "trade 1"],
        Character::Apprentice => ["tokens = level", ""],
        Character::Farmer => ["draw 2, 1 token", "play 1"],
        Character::Hunter => ["draw 1, 1 token", "play 2"],
        Character::Wizard => ["tokens = level", "own Gem wins"],
    }
}

fn character_id(c: Character) -> String {
    format!("character-{}", c.name().to_lowercase())
}

fn characters(out: &mut String, state: &State, viewer: Viewer, names: &[String]) {
    let current = state.current_character();
    for (k, c) in Character::ALL.into_iter().enumerate() {
        let x = LEFT + i32::try_from(k).unwrap_or(0) * TILE_PITCH;
        let y = TILES_TOP;
        let holder = state.character_holder(c);
        let (stroke, width) = match holder {
            Some(seat) => (seat_colour(seat), 4),
            None => (PANEL_EDGE, 2),
        };
        if current == Some(c) && holder.is_some() {
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"12\" fill=\"{GOLD}\" \
                 opacity=\"0.5\" pointer-events=\"none\"/>",
                x - 4,
                y - 4,
                TILE_W + 8,
                TILE_H + 8
            ));
        }
        out.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{TILE_W}\" height=\"{TILE_H}\" rx=\"8\" \
             fill=\"{}\" stroke=\"{stroke}\" stroke-width=\"{width}\" data-target=\"{}\"/>",
            if holder.is_some() { "#ece4d2" } else { PANEL },
            character_id(c)
        ));
        out.push_str(&format!(
            "<g pointer-events=\"none\"><circle cx=\"{}\" cy=\"{}\" r=\"10\" fill=\"{INK}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" fill=\"#fff\" \
             text-anchor=\"middle\">{}</text><text x=\"{}\" y=\"{}\" font-size=\"13\" \
             font-weight=\"bold\" fill=\"{INK}\">{}</text>",
            x + 16,
            y + 18,
            x + 16,
            y + 22,
            c.number(),
            x + 30,
            y + 22,
            c.name()
        ));
        let [first, second] = tile_lines(c);
        out.push_str(&text(x + 8, y + 40, 10, SOFT_INK, first));
        out.push_str(&text(x + 8, y + 54, 10, SOFT_INK, second));
        let taken = match holder {
            Some(seat) => clip(&who(viewer, names, seat), 15),
            None => "available".to_owned(),
        };
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" fill=\"{}\" \
             text-anchor=\"middle\">{}</text></g>",
            x + TILE_W / 2,
            y + 76,
            holder.map_or(SOFT_INK, seat_colour),
            escape(&taken)
        ));
    }
}

// ---- The middle row ----

/// The Bag of Fate: a sack with the number of tokens in it, what they are, and the gems.
fn bag(out: &mut String, state: &State, names: &[String]) {
    let (x, y, w) = (LEFT, MIDDLE_TOP, 318);
    panel(out, x, y, w, MIDDLE_H, "The Bag of Fate");
    // The sack.
    let (sx, sy) = (x + 16, y + 34);
    out.push_str(&format!(
        "<g pointer-events=\"none\"><path d=\"M{} {}q-10 -14 6 -16h28q16 2 6 16\
         q34 18 26 62q-4 26 -46 26q-42 0 -46 -26q-8 -44 26 -62z\" fill=\"#8a5a2b\" \
         stroke=\"{INK}\" stroke-width=\"2\"/><path d=\"M{} {}h38\" stroke=\"#e8c170\" \
         stroke-width=\"4\"/><text x=\"{}\" y=\"{}\" font-size=\"24\" font-weight=\"bold\" \
         fill=\"#fff\" text-anchor=\"middle\">{}</text><text x=\"{}\" y=\"{}\" font-size=\"10\" \
         fill=\"#fff\" text-anchor=\"middle\">tokens</text></g>",
        sx + 28,
        sy + 18,
        sx + 28,
        sy + 18,
        sx + 48,
        sy + 70,
        state.bag.len(),
        sx + 48,
        sy + 86
    ));
    let count = |t: Token| state.bag.iter().filter(|&&b| b == t).count();
    let mut rows: Vec<(&str, String, usize)> = Element::ALL
        .into_iter()
        .map(|e| {
            (
                element_fill(e),
                e.name().to_owned(),
                count(Token::Element(e)),
            )
        })
        .collect();
    rows.push(("#f5e6a8", "Add-a-Gem".to_owned(), count(Token::AddAGem)));
    rows.push(("#bfe3b4", "Level-Up".to_owned(), count(Token::LevelUp)));
    for (k, (fill, name, n)) in rows.iter().enumerate() {
        let k = i32::try_from(k).unwrap_or(0);
        let (cx, cy) = (x + 126 + (k / 4) * 100, y + 40 + (k % 4) * 22);
        out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"7\" fill=\"{fill}\" \
             stroke=\"{INK}\" pointer-events=\"none\"/>{}",
            cx,
            cy - 10,
            text(cx + 20, cy + 2, 12, INK, &format!("{n} {name}"))
        ));
    }
    // Gems in the bag, by player.
    let gy = y + MIDDLE_H - 22;
    out.push_str(&text(x + 126, gy + 4, 12, INK, "Gems:"));
    for seat in 0..state.seats() {
        let gx = x + 180 + i32::try_from(seat).unwrap_or(0) * 28;
        gem(out, gx, gy, seat);
        let n = state.bag.iter().filter(|&&t| t == Token::Gem(seat)).count();
        out.push_str(&format!(
            "<text x=\"{gx}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" fill=\"{INK}\" \
             text-anchor=\"middle\" pointer-events=\"none\" data-gems=\"{}\">{n}</text>",
            gy + 22,
            escape(&seat_name(names, seat))
        ));
    }
}

/// The deck as a card back with its count, and the discard pile by element.
fn cards(out: &mut String, state: &State) {
    let (x, y, w) = (LEFT + 330, MIDDLE_TOP, 236);
    panel(out, x, y, w, MIDDLE_H, "Cards");
    let (dx, dy) = (x + 14, y + 34);
    out.push_str(&format!(
        "<g pointer-events=\"none\"><rect x=\"{dx}\" y=\"{dy}\" width=\"62\" height=\"84\" \
         rx=\"6\" fill=\"#4a3a6a\" stroke=\"{INK}\" stroke-width=\"2\"/><rect x=\"{}\" \
         y=\"{}\" width=\"50\" height=\"72\" rx=\"4\" fill=\"none\" stroke=\"#c7b8e8\" \
         stroke-dasharray=\"4 2\"/><text x=\"{}\" y=\"{}\" font-size=\"22\" font-weight=\"bold\" \
         fill=\"#fff\" text-anchor=\"middle\">{}</text></g>{}",
        dx + 6,
        dy + 6,
        dx + 32,
        dy + 50,
        state.deck.len(),
        text(dx + 4, dy + 104, 12, INK, "deck")
    ));
    let px = x + 96;
    out.push_str(&text(
        px,
        y + 46,
        12,
        INK,
        &format!("Discards: {}", state.discards.len()),
    ));
    for (k, e) in Element::ALL.into_iter().enumerate() {
        let k = i32::try_from(k).unwrap_or(0);
        let cy = y + 66 + k * 18;
        let cards: Vec<u32> = state
            .discards
            .iter()
            .filter(|c| c.element == e)
            .map(|c| u32::from(c.icons))
            .collect();
        out.push_str(&format!(
            "<rect x=\"{px}\" y=\"{}\" width=\"10\" height=\"14\" rx=\"2\" fill=\"{}\" \
             stroke=\"{INK}\" pointer-events=\"none\"/>{}",
            cy - 10,
            element_fill(e),
            text(
                px + 16,
                cy + 2,
                11,
                INK,
                &format!(
                    "{} {} ({} icons)",
                    cards.len(),
                    e.name(),
                    cards.iter().sum::<u32>()
                )
            )
        ));
    }
}

/// The turn order track, the tokens just drawn, and a set, a trade or the Oracle's cards.
fn track(out: &mut String, state: &State, viewer: Viewer, names: &[String]) {
    let (x, y) = (LEFT + 578, MIDDLE_TOP);
    let w = INNER - 578;
    panel(out, x, y, w, MIDDLE_H, "Turn order");
    let order = state.turn_order();
    let current = state.current_seat();
    for (k, seat) in order.iter().enumerate() {
        let cx = x + 26 + i32::try_from(k).unwrap_or(0) * 52;
        let cy = y + 44;
        if current == Some(*seat) {
            out.push_str(&format!(
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"18\" fill=\"{GOLD}\" opacity=\"0.7\" \
                 pointer-events=\"none\"/>"
            ));
        }
        out.push_str(&format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"13\" fill=\"{}\" stroke=\"{INK}\" \
             pointer-events=\"none\"/><text x=\"{cx}\" y=\"{}\" font-size=\"12\" \
             font-weight=\"bold\" fill=\"#fff\" text-anchor=\"middle\" \
             pointer-events=\"none\">{}</text>",
            seat_colour(*seat),
            cy + 4,
            k + 1
        ));
        out.push_str(&format!(
            "<text x=\"{cx}\" y=\"{}\" font-size=\"10\" fill=\"{INK}\" text-anchor=\"middle\" \
             pointer-events=\"none\">{}</text>",
            cy + 28,
            escape(&clip(&who(viewer, names, *seat), 8))
        ));
    }
    let mut ly = y + 100;
    if !state.drawn.is_empty() {
        let drawn: Vec<String> = state
            .drawn
            .iter()
            .map(|t| match t {
                Token::Element(e) => e.name().to_owned(),
                Token::AddAGem => "Add-a-Gem".to_owned(),
                Token::LevelUp => "Level-Up".to_owned(),
                Token::Gem(s) => format!("{}'s Gem", seat_name(names, *s)),
            })
            .collect();
        out.push_str(&text(
            x + 12,
            ly,
            11,
            INK,
            &clip(&format!("Drawn: {}", drawn.join(", ")), 42),
        ));
        ly += 18;
    }
    match &state.phase {
        Phase::BuildingSet {
            element,
            cards,
            tokens,
        } => {
            let icons = cards.iter().map(|c| u32::from(c.icons)).sum::<u32>() + u32::from(*tokens);
            out.push_str(&text(
                x + 12,
                ly,
                11,
                INK,
                &format!(
                    "Set of {}: {icons} of {} icons",
                    element.name(),
                    element.set_size()
                ),
            ));
        }
        Phase::Trading { partner, take, .. } => {
            let with = partner.map_or("choosing a partner".to_owned(), |p| {
                format!("with {}", who(viewer, names, p))
            });
            let what = take.map_or(String::new(), |i| format!(", taking {}", item_word(i)));
            out.push_str(&text(
                x + 12,
                ly,
                11,
                INK,
                &clip(&format!("Trade {with}{what}"), 42),
            ));
        }
        _ => {}
    }
    // The cards the Oracle looks at, for the Oracle alone.
    if let Some(seat) = current
        && viewer == Viewer::Seat(seat)
        && !state.looked_at.is_empty()
    {
        out.push_str(&text(x + 12, y + 116, 11, INK, "Looking at:"));
        for (k, c) in state.looked_at.iter().enumerate() {
            let cx = x + 84 + i32::try_from(k).unwrap_or(0) * CARD_PITCH;
            card(out, cx, y + 84, *c, 1, Some(&format!("look-{k}")));
        }
    }
}

/// An item in a few words: "a Potions card (2)", "a Snails token".
fn item_word(item: Item) -> String {
    match item {
        Item::Card(c) => format!("a {} card ({})", c.element.name(), c.icons),
        Item::Token(e) => format!("a {} token", e.name()),
    }
}

/// The id of an item on `seat`'s place.
fn item_id(seat: Seat, item: Item) -> String {
    match item {
        Item::Card(c) => format!("seat-{seat}-card-{}-{}", element_key(c.element), c.icons),
        Item::Token(e) => format!("seat-{seat}-token-{}", element_key(e)),
    }
}

/// For each of `actions` (the legal actions of `seat`), what it is about: the character tile
/// chosen, the hand card played, the looked-at card kept, the player traded with, the item
/// taken (on the partner's place) or given (on one's own), the set turned in, the card or
/// token put into a set. Skipping, cancelling and ending the turn are about no shape.
pub fn targets(state: &State, seat: Seat, actions: &[Action]) -> Vec<Option<String>> {
    let partner = match &state.phase {
        Phase::Trading { partner, .. } => *partner,
        _ => None,
    };
    let building = match &state.phase {
        Phase::BuildingSet { element, .. } => Some(*element),
        _ => None,
    };
    let in_hand: &[Card] = state.player(seat).map_or(&[], |p| &p.hand);
    actions
        .iter()
        .map(|a| match a {
            Action::ChooseCharacter(c) => Some(character_id(*c)),
            Action::Play(card) => in_hand
                .iter()
                .position(|c| c == card)
                .map(|i| format!("hand-{i}")),
            Action::PlayCard(i) if *i < in_hand.len() => Some(format!("hand-{i}")),
            Action::KeepCard(i) if *i < state.looked_at.len() => Some(format!("look-{i}")),
            Action::TradeWith(s) if *s < state.seats() => Some(format!("seat-{s}")),
            Action::TradeTake(item) => partner.map(|p| item_id(p, *item)),
            Action::TradeGive(item) => Some(item_id(seat, *item)),
            Action::TurnIn(e) => Some(format!("seat-{seat}-set-{}", element_key(*e))),
            Action::AddCard(c) => Some(item_id(seat, Item::Card(*c))),
            Action::AddToken => building.map(|e| item_id(seat, Item::Token(e))),
            _ => None,
        })
        .collect()
}

/// The distinct face-up cards of a player, each with its copies.
fn card_kinds(cards: &[Card]) -> Vec<(Card, usize)> {
    tally(cards)
        .into_iter()
        .map(|(c, n)| (c, usize::try_from(n).unwrap_or(0)))
        .collect()
}
