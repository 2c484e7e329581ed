//! What each viewer sees: the state view, the log's visibility and redaction, and the
//! one-line descriptions. Secret: each hand, the cards the Oracle looks at, the deck. Public:
//! everything else, including the bag's contents (every token draw is resolved openly).
//!
//! The view is typed ([`View`]): its JSON Schema is published (`GET /v1/rulesets/bag-of-fate`,
//! the `BagOfFateView` component of the OpenAPI document), derived from these types.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::actions::Action;
use super::data::{Card, Character, CharacterAction, Element, TOKEN_EFFECTS, Token};
use super::state::{Item, Phase, Player, State};
use crate::rules::{Actor, Seat, Viewer, Visibility};

/// What one viewer sees of a Bag of Fate game. Every field is always present (null when it
/// does not apply). Secrets: the hands (`players[].hand` is null but for the viewer's own) and
/// the cards being looked at (`looked_at`); the deck's order is nobody's.
#[derive(Serialize, JsonSchema)]
pub struct View {
    /// The viewer's seat; null for a spectator (and for the everyone-view of a finished game).
    pub you: Option<Seat>,
    /// The step the game is at.
    pub step: Step,
    /// The round.
    pub round: u32,
    /// What the game waits for, in words.
    pub prompt: String,
    /// The seat whose turn it is; null during set-up and once the game is over.
    pub current_seat: Option<Seat>,
    /// The character the current player chose; null before they choose.
    pub current_character: Option<Character>,
    /// The winning seat; null until the game is over.
    pub winner: Option<Seat>,
    /// The seats in turn order (by turn marker).
    pub turn_order: Vec<Seat>,
    /// The seven characters, in number order, and who holds each this round.
    pub characters: Vec<CharacterView>,
    /// What each element's set needs and gives.
    pub sets: Vec<SetRule>,
    /// What the special tokens do, in words.
    pub token_effects: &'static str,
    /// Every player, by seat.
    pub players: Vec<PlayerView>,
    /// Cards left in the deck.
    pub deck_count: usize,
    /// Cards in the discard pile.
    pub discard_count: usize,
    /// The discard pile (face up).
    pub discards: Vec<Card>,
    /// What the Bag of Fate holds (public).
    pub bag: BagView,
    /// The tokens drawn from the bag this turn, in order.
    pub tokens_drawn: Vec<Token>,
    /// Element tokens used up (out of the game).
    pub used_element_tokens: usize,
    /// How many cards the current player is looking at (public).
    pub looked_at_count: usize,
    /// The cards the current player is looking at (the Oracle): only that player (and everyone
    /// once the game is over) sees them; null for every other viewer and when there is no
    /// current player.
    pub looked_at: Option<Vec<Card>>,
    /// The set being turned in; null when none.
    pub set_in_progress: Option<SetInProgress>,
    /// The Trader's trade under way; null when none.
    pub trade: Option<TradeView>,
}

/// The step the game is at.
///
/// - `dealing`: Set-up: the hands are dealt.
/// - `placing_turn_markers`: Set-up: the turn markers are drawn.
/// - `choose_character`: The current player chooses a character.
/// - `draw_cards`: The current player draws cards.
/// - `look_at_cards`: The current player looks at the top cards of the deck.
/// - `keep_card`: The current player keeps one of the cards looked at.
/// - `play_cards`: The current player plays cards from hand.
/// - `trade`: The current player trades.
/// - `draw_tokens`: The current player draws tokens from the bag.
/// - `wizard_draw`: The Wizard draws tokens, seeking their own gem.
/// - `acting`: The current player acts.
/// - `turn_in_sets`: The current player may turn in sets or end the turn.
/// - `build_set`: The current player is putting a set together.
/// - `game_over`: The game is over.
#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Dealing,
    PlacingTurnMarkers,
    ChooseCharacter,
    DrawCards,
    LookAtCards,
    KeepCard,
    PlayCards,
    Trade,
    DrawTokens,
    WizardDraw,
    Acting,
    TurnInSets,
    BuildSet,
    GameOver,
}

/// One character tile.
#[derive(Serialize, JsonSchema)]
pub struct CharacterView {
    pub character: Character,
    /// Its number (1 to 7): the order characters act in.
    pub number: u8,
    /// The seat that took it this round; null when free.
    pub taken_by: Option<Seat>,
    /// Whether it is free to choose.
    pub available: bool,
    /// What it does, in words.
    pub text: String,
}

/// One element's set.
#[derive(Serialize, JsonSchema)]
pub struct SetRule {
    pub element: Element,
    /// Icons of the element a set needs.
    pub needed: u32,
    /// What turning the set in gives, in words.
    pub reward: String,
}

/// A count for each element.
#[derive(Serialize, JsonSchema)]
pub struct ElementCounts {
    pub potions: u32,
    pub flowers: u32,
    pub snails: u32,
    pub mushrooms: u32,
    pub crystals: u32,
}

impl ElementCounts {
    fn of(count: impl Fn(Element) -> u32) -> ElementCounts {
        ElementCounts {
            potions: count(Element::Potions),
            flowers: count(Element::Flowers),
            snails: count(Element::Snails),
            mushrooms: count(Element::Mushrooms),
            crystals: count(Element::Crystals),
        }
    }
}

/// One player.
#[derive(Serialize, JsonSchema)]
pub struct PlayerView {
    pub seat: Seat,
    pub level: u8,
    /// Gems not yet in the bag.
    pub gems_in_supply: u8,
    /// This player's gems in the bag.
    pub gems_in_bag: usize,
    /// Cards in hand (public).
    pub hand_size: usize,
    /// The cards in hand: only the player themself (and everyone once the game is over) sees
    /// them; null for every other viewer.
    pub hand: Option<Vec<Card>>,
    /// Cards played face up before the player.
    pub face_up: Vec<Card>,
    /// Element tokens kept.
    pub tokens: Vec<Element>,
    /// Icons of each element the player has (face-up cards and tokens).
    pub icons: ElementCounts,
    /// The elements of which the player could turn in a set now.
    pub can_turn_in: Vec<Element>,
    /// The character chosen this round; null before choosing.
    pub character: Option<Character>,
    /// The player's space on the turn order track; null before it is drawn.
    pub turn_marker: Option<u8>,
}

/// What the Bag of Fate holds.
#[derive(Serialize, JsonSchema)]
pub struct BagView {
    /// Tokens in the bag.
    pub total: usize,
    /// Element tokens of each element.
    pub element_tokens: ElementCounts,
    /// Add-a-Gem tokens.
    pub add_a_gem: usize,
    /// Level-Up tokens.
    pub level_up: usize,
    /// Gems of each seat, by seat.
    pub gems: Vec<usize>,
}

/// A set being turned in.
#[derive(Serialize, JsonSchema)]
pub struct SetInProgress {
    pub element: Element,
    /// Icons the set needs.
    pub needed: u32,
    /// Icons put in so far.
    pub icons: u32,
    /// The cards put in.
    pub cards: Vec<Card>,
    /// The element tokens put in.
    pub tokens: u8,
}

/// The Trader's trade.
#[derive(Serialize, JsonSchema)]
pub struct TradeView {
    /// The partner; null until chosen.
    pub with: Option<Seat>,
    /// What the Trader takes from the partner; null until chosen.
    pub take: Option<Item>,
}

/// What `viewer` sees of the state, typed.
pub fn typed_view(state: &State, viewer: Viewer) -> View {
    let current = state.current_seat();
    View {
        you: match viewer {
            Viewer::Seat(seat) => Some(seat),
            _ => None,
        },
        step: step_kind(state),
        round: state.round,
        prompt: prompt(state),
        current_seat: current,
        current_character: state.current_character(),
        winner: state.winner(),
        turn_order: state.turn_order(),
        characters: Character::ALL
            .into_iter()
            .map(|c| CharacterView {
                character: c,
                number: c.number(),
                taken_by: state.character_holder(c),
                available: state.character_holder(c).is_none(),
                text: c.text(),
            })
            .collect(),
        sets: Element::ALL
            .into_iter()
            .map(|e| SetRule {
                element: e,
                needed: e.set_size(),
                reward: e.reward_text(),
            })
            .collect(),
        token_effects: TOKEN_EFFECTS,
        players: state
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| player_view(state, seat, p, viewer))
            .collect(),
        deck_count: state.deck.len(),
        discard_count: state.discards.len(),
        discards: state.discards.clone(),
        bag: bag_view(state),
        tokens_drawn: state.drawn.clone(),
        used_element_tokens: state.used_tokens.len(),
        looked_at_count: state.looked_at.len(),
        looked_at: match current {
            Some(seat) if viewer.sees_secrets_of(seat) => Some(state.looked_at.clone()),
            _ => None,
        },
        set_in_progress: match &state.phase {
            Phase::BuildingSet {
                element,
                cards,
                tokens,
            } => Some(SetInProgress {
                element: *element,
                needed: element.set_size(),
                icons: set_icons(cards, *tokens),
                cards: cards.clone(),
                tokens: *tokens,
            }),
            _ => None,
        },
        trade: match &state.phase {
            Phase::Trading { partner, take, .. } => Some(TradeView {
                with: *partner,
                take: *take,
            }),
            _ => None,
        },
    }
}

fn player_view(state: &State, seat: Seat, player: &Player, viewer: Viewer) -> PlayerView {
    PlayerView {
        seat,
        level: player.level,
        gems_in_supply: player.gems,
        gems_in_bag: state.gems_in_bag(seat),
        hand_size: player.hand.len(),
        hand: viewer.sees_secrets_of(seat).then(|| player.hand.clone()),
        face_up: player.face_up.clone(),
        tokens: player.tokens.clone(),
        icons: ElementCounts::of(|e| player.icons(e)),
        can_turn_in: player.completable(),
        character: player.character,
        turn_marker: player.turn_marker,
    }
}

fn bag_view(state: &State) -> BagView {
    let count = |token: Token| state.bag.iter().filter(|&&t| t == token).count();
    BagView {
        total: state.bag.len(),
        element_tokens: ElementCounts::of(|e| {
            u32::try_from(count(Token::Element(e))).unwrap_or(u32::MAX)
        }),
        add_a_gem: count(Token::AddAGem),
        level_up: count(Token::LevelUp),
        gems: (0..state.seats())
            .map(|seat| count(Token::Gem(seat)))
            .collect(),
    }
}

/// The schema of [`View`], its parts under `generator`'s definitions.
pub fn view_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    generator.subschema_for::<View>()
}

fn set_icons(cards: &[Card], tokens: u8) -> u32 {
    cards.iter().map(|c| u32::from(c.icons)).sum::<u32>() + u32::from(tokens)
}

/// A stable name for the current step, for clients.
fn step_kind(state: &State) -> Step {
    match &state.phase {
        Phase::Dealing => Step::Dealing,
        Phase::PlacingMarkers => Step::PlacingTurnMarkers,
        Phase::ChoosingCharacter => Step::ChooseCharacter,
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::DrawCards(_)) => Step::DrawCards,
            Some(CharacterAction::LookAtCards(_)) => Step::LookAtCards,
            Some(CharacterAction::KeepOneLookedAt) => Step::KeepCard,
            Some(CharacterAction::PlayCards(_)) => Step::PlayCards,
            Some(CharacterAction::Trade) => Step::Trade,
            Some(CharacterAction::DrawTokens(_)) => Step::DrawTokens,
            Some(CharacterAction::WizardDraw) => Step::WizardDraw,
            None => Step::Acting,
        },
        Phase::Trading { .. } => Step::Trade,
        Phase::TurningIn => Step::TurnInSets,
        Phase::BuildingSet { .. } => Step::BuildSet,
        Phase::Over { .. } => Step::GameOver,
    }
}

/// What the game waits for, in words.
fn prompt(state: &State) -> String {
    let who = match (state.current_seat(), state.current_character()) {
        (Some(seat), Some(c)) => format!("Seat {seat} (the {})", c.name()),
        (Some(seat), None) => format!("Seat {seat}"),
        _ => String::new(),
    };
    match &state.phase {
        Phase::Dealing => match state.deal_recipient() {
            Some(seat) => format!("Dealing: a card for Seat {seat}"),
            None => "Dealing".to_string(),
        },
        Phase::PlacingMarkers => {
            format!(
                "Drawing the turn marker for space {} of the turn order track",
                state.next_marker_space()
            )
        }
        Phase::ChoosingCharacter => format!("{who} chooses a character"),
        Phase::Acting { .. } => match state.current_action() {
            Some(CharacterAction::DrawCards(_)) => format!("{who} draws a card"),
            Some(CharacterAction::LookAtCards(_)) => {
                format!("{who} looks at the top cards of the deck")
            }
            Some(CharacterAction::KeepOneLookedAt) => {
                format!("{who} keeps one of the cards they looked at")
            }
            Some(CharacterAction::PlayCards(_)) if state.playing_at_random => {
                format!("{who} plays a card drawn at random from their hand")
            }
            Some(CharacterAction::PlayCards(_)) => {
                format!("{who} plays a card from their hand")
            }
            Some(CharacterAction::DrawTokens(_)) => {
                format!("{who} draws tokens from the Bag of Fate")
            }
            Some(CharacterAction::WizardDraw) => {
                format!("{who} draws tokens from the Bag of Fate, seeking their own Gem")
            }
            Some(CharacterAction::Trade) | None => format!("{who} acts"),
        },
        Phase::Trading { partner: None, .. } => {
            format!("{who} chooses a player to trade with")
        }
        Phase::Trading {
            partner: Some(p),
            take: None,
            ..
        } => format!("{who} chooses what to take from Seat {p}, or cancels"),
        Phase::Trading {
            partner: Some(p),
            take: Some(item),
            ..
        } => format!(
            "{who} chooses what to give Seat {p} for {}, or cancels",
            item_text(*item)
        ),
        Phase::TurningIn => format!("{who} may turn in element sets, or end their turn"),
        Phase::BuildingSet {
            element,
            cards,
            tokens,
        } => format!(
            "{who} is turning in a set of {}: {} of {} so far",
            element.name(),
            set_icons(cards, *tokens),
            element.set_size()
        ),
        Phase::Over { winner } => format!("Seat {winner} won"),
    }
}

pub fn visibility(state: &State, actor: Actor, action: &Action) -> Visibility {
    match action {
        Action::DrawCard(_) => Visibility::Seats(state.card_drawer().into_iter().collect()),
        Action::KeepCard(_) => Visibility::Seats(state.current_seat().into_iter().collect()),
        // The old form by hand index: its index is the player's alone (ruling 4).
        Action::PlayCard(_) => Visibility::Seats(match actor {
            Actor::Seat(seat) => vec![seat],
            Actor::Chance => vec![],
        }),
        _ => Visibility::Public,
    }
}

pub fn redact(state: &State, actor: Actor, action: &Action) -> Value {
    match action {
        Action::DrawCard(_) => json!({ "draw_card": "hidden" }),
        Action::KeepCard(_) => json!({ "keep_card": "hidden" }),
        // Others see the card played, as if it had been played in the new form.
        Action::PlayCard(index) => match index_played(state, actor, *index) {
            Some(card) => json!({ "play": card }),
            None => json!({ "play": "hidden" }),
        },
        _ => serde_json::to_value(action).unwrap_or(Value::Null),
    }
}

/// The card at `index` of the acting player's hand (the old form of playing a card).
fn index_played(state: &State, actor: Actor, index: usize) -> Option<Card> {
    let Actor::Seat(seat) = actor else {
        return None;
    };
    state.player(seat).and_then(|p| p.hand.get(index)).copied()
}

pub fn describe(state: &State, actor: Actor, action: &Action, viewer: Viewer) -> String {
    let seat = match actor {
        Actor::Seat(seat) => Some(seat),
        Actor::Chance => state.card_drawer(),
    };
    let who = seat.map_or_else(|| "Someone".to_string(), |s| format!("Seat {s}"));
    let sees = seat.is_some_and(|s| viewer.sees_secrets_of(s));
    match action {
        Action::PlaceTurnMarker(marker) => {
            format!(
                "Seat {marker}'s turn marker goes on space {} of the turn order track",
                state.next_marker_space()
            )
        }
        Action::DrawCard(card) => {
            let looking = matches!(
                state.current_action(),
                Some(CharacterAction::LookAtCards(_))
            );
            match (&state.phase, looking, sees) {
                (Phase::Dealing, _, true) => format!("{who} was dealt {}", card_text(*card)),
                (Phase::Dealing, _, false) => format!("{who} was dealt a card"),
                (_, true, true) => format!("{who} looked at {}", card_text(*card)),
                (_, true, false) => format!("{who} looked at the top card of the deck"),
                (_, false, true) => format!("{who} drew {}", card_text(*card)),
                (_, false, false) => format!("{who} drew a card"),
            }
        }
        Action::DrawToken(token) => {
            let wins = state.current_action() == Some(CharacterAction::WizardDraw)
                && seat.is_some_and(|s| *token == Token::Gem(s));
            if wins {
                format!("{who} drew their own Gem as the Wizard and wins the game!")
            } else {
                format!(
                    "{who} drew {} from the Bag of Fate",
                    token_text(*token, seat)
                )
            }
        }
        Action::ChooseCharacter(c) => format!("{who} chose the {} ({})", c.name(), c.number()),
        Action::Play(card) => format!("{who} played {}", card_text(*card)),
        Action::PlayAtRandom => format!("{who} plays a card from their hand at random"),
        Action::RandomPlay(card) => format!(
            "{who} played {}, drawn at random from their hand",
            card_text(*card)
        ),
        Action::PlayCard(index) => match index_played(state, actor, *index) {
            Some(card) => format!("{who} played {}", card_text(card)),
            None => format!("{who} played a card from their hand"),
        },
        Action::KeepCard(index) => match state.looked_at.get(*index) {
            Some(card) if sees => {
                let mut discarded = state.looked_at.clone();
                discarded.remove(*index);
                let discarded: Vec<String> = discarded.into_iter().map(card_text).collect();
                if discarded.is_empty() {
                    format!("{who} kept {}", card_text(*card))
                } else {
                    format!(
                        "{who} kept {} and discarded {}",
                        card_text(*card),
                        discarded.join(" and ")
                    )
                }
            }
            _ => format!("{who} kept one of the cards they looked at and discarded the others"),
        },
        Action::TradeWith(partner) => format!("{who} will trade with Seat {partner}"),
        Action::TradeTake(item) => {
            let partner = match state.phase {
                Phase::Trading {
                    partner: Some(p), ..
                } => format!("Seat {p}'s"),
                _ => "another player's".to_string(),
            };
            format!("{who} picks {partner} {} to take", item_name(*item))
        }
        Action::TradeGive(give) => match state.phase {
            Phase::Trading {
                partner: Some(p),
                take: Some(take),
                ..
            } => format!(
                "{who} traded {} to Seat {p} for {}",
                item_text(*give),
                item_text(take)
            ),
            _ => format!("{who} gives {}", item_text(*give)),
        },
        // Never listed, so never logged or shown (ruling 13; see `label.rs`).
        Action::SkipTrade => format!("{who} does not trade"),
        Action::CancelTrade => format!("{who} starts the trade over"),
        Action::TurnIn(element) => format!(
            "{who} turns in a set of {} ({} needed)",
            element.name(),
            element.set_size()
        ),
        Action::AddCard(card) => {
            format!(
                "{who} puts {} into the set{}",
                card_text(*card),
                completion(state, u32::from(card.icons))
            )
        }
        Action::AddToken => {
            let element = match state.phase {
                Phase::BuildingSet { element, .. } => element.name(),
                _ => "an element",
            };
            format!(
                "{who} puts a {element} token into the set{}",
                completion(state, 1)
            )
        }
        Action::CancelSet => format!("{who} stops turning in the set"),
        Action::EndTurn => format!("{who} ends their turn"),
    }
}

/// ", completing it: <reward>" when adding `icons` completes the set being built.
pub(super) fn completion(state: &State, icons: u32) -> String {
    let Phase::BuildingSet {
        element,
        cards,
        tokens,
    } = &state.phase
    else {
        return String::new();
    };
    if set_icons(cards, *tokens) + icons < element.set_size() {
        return String::new();
    }
    let reward = element.reward();
    let mut parts = Vec::new();
    if reward.gems > 0 {
        parts.push(format!(
            "+{} {} into the Bag of Fate",
            reward.gems,
            plural(reward.gems, "Gem")
        ));
    }
    if reward.levels > 0 {
        parts.push(format!(
            "+{} {}",
            reward.levels,
            plural(reward.levels, "Level")
        ));
    }
    format!(", completing it: {}", parts.join(", "))
}

fn plural(n: u8, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// "Snails card (2 icons)".
fn card_name(card: Card) -> String {
    let icons = if card.icons == 1 { "icon" } else { "icons" };
    format!("{} card ({} {icons})", card.element.name(), card.icons)
}

/// "a Snails card (2 icons)" (every element name starts with a consonant).
pub(super) fn card_text(card: Card) -> String {
    format!("a {}", card_name(card))
}

pub(super) fn item_name(item: Item) -> String {
    match item {
        Item::Card(card) => card_name(card),
        Item::Token(element) => format!("{} token", element.name()),
    }
}

pub(super) fn item_text(item: Item) -> String {
    format!("a {}", item_name(item))
}

fn token_text(token: Token, drawer: Option<Seat>) -> String {
    match token {
        Token::Element(element) => format!("a {} token", element.name()),
        Token::AddAGem => "an Add-a-Gem token".to_string(),
        Token::LevelUp => "a Level-Up token".to_string(),
        Token::Gem(owner) if Some(owner) == drawer => "their own Gem".to_string(),
        Token::Gem(owner) => format!("a Gem of Seat {owner}"),
    }
}
