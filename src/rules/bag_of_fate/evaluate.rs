//! How well a seat stands, for the built-in bots (`Ruleset::evaluate`; docs/BOTS.md).
//!
//! The game is won by one lucky draw, so a seat's standing is a chance: the chance that a
//! Wizard turn draws its own gem (its level in draws from the bag, its gems among them, and
//! one more for the gems to come),
//! plus what its element sets are worth towards raising that chance (a complete set three
//! quarters of its reward, a part-built one half of its share, cards in hand half as much as
//! face-up ones), turned into the chance of a win within [`ATTEMPTS`] such turns. The seat
//! whose turn it is also counts what its character is still to do (cards to draw and play,
//! tokens to draw), on average. The seat's chance is weighed against its rivals' ([`lead`]);
//! rivals' hands are secret and count for nothing. While a Wizard is drawing, what the
//! remaining draws may bring counts at once.

use super::data::{CharacterAction, Element, LEVEL_CAP, Token, TokenCount};
use super::state::{Phase, Player, State, tally};
use crate::rules::{Seat, WIN, lead};

/// Wizard turns a standing is reckoned over.
const ATTEMPTS: u32 = 6;
/// Icons are counted in sixths: a face-up card's or a kept token's icon is 6, a card in hand
/// 3, a card still to draw 1 for each element (an average card shows 20/12 icons, of one of
/// five elements, in hand).
const FACE_UP: i64 = 6;
const IN_HAND: i64 = 3;
const TO_DRAW: i64 = 1;
/// An icon in the set being turned in (in millionths of a win).
const BUILDING: i64 = 2;

pub fn evaluate(state: &State, seat: Seat) -> i64 {
    if let Phase::Over { winner } = state.phase {
        return if winner == seat { WIN } else { -WIN };
    }
    let bag = state.bag.len() + state.drawn.len();
    let prospects: Vec<Prospect> = (0..state.seats())
        .map(|s| Prospect::of(state, s, s == seat))
        .collect();
    let standing = |p: &Prospect| within_attempts(p.expected_worth(state, bag));
    let own = prospects.get(seat).map_or(0, standing);
    let others = prospects
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, p)| standing(p));
    let steady = lead(own + building_bonus(state, seat), others);
    wizard_drawing(state, seat, steady)
}

/// A little for every icon already put into the set being turned in, so that each step
/// towards the reward counts (and taking the set back costs).
fn building_bonus(state: &State, seat: Seat) -> i64 {
    Element::ALL
        .iter()
        .map(|&e| BUILDING * building(state, seat, e))
        .sum()
}

/// A Wizard in the middle of the draws: the draws still to come count at once.
fn wizard_drawing(state: &State, seat: Seat, steady: i64) -> i64 {
    let (Some(CharacterAction::WizardDraw), Some(wizard), Phase::Acting { done, .. }) =
        (state.current_action(), state.current_seat(), &state.phase)
    else {
        return steady;
    };
    let level = state.player(wizard).map_or(0, |p| p.level);
    let gems = state
        .bag
        .iter()
        .filter(|&&t| t == Token::Gem(wizard))
        .count();
    let p = draw_chance(level.saturating_sub(*done), gems, state.bag.len());
    let won = if wizard == seat { WIN } else { -WIN };
    let value = (i128::from(p) * i128::from(won) + i128::from(WIN - p) * i128::from(steady))
        / i128::from(WIN);
    i64::try_from(value).unwrap_or(0).clamp(-(WIN - 1), WIN - 1)
}

/// What a seat's next Wizard turn would draw with, and its element icons (in sixths).
#[derive(Clone, Debug)]
struct Prospect {
    level: u8,
    /// Its gems in the bag, and in its supply (what sets can still add).
    gems: usize,
    supply: u8,
    icons: [i64; 5],
    /// Tokens its character is still to draw (the seat whose turn it is).
    tokens_to_draw: i64,
}

impl Prospect {
    /// `own`: the seat is the one evaluating, so its hand (and what its Oracle looks at)
    /// counts.
    fn of(state: &State, seat: Seat, own: bool) -> Prospect {
        let Some(p) = state.player(seat) else {
            return Prospect {
                level: 0,
                gems: 0,
                supply: 0,
                icons: [0; 5],
                tokens_to_draw: 0,
            };
        };
        let mut prospect = Prospect {
            level: p.level,
            gems: state.gems_in_bag(seat),
            supply: p.gems,
            icons: Element::ALL.map(|e| {
                FACE_UP * (i64::from(p.icons(e)) + building(state, seat, e))
                    + if own {
                        IN_HAND * hand_icons(&p.hand, e)
                    } else {
                        0
                    }
            }),
            tokens_to_draw: 0,
        };
        if state.current_seat() == Some(seat) {
            prospect.add_character(state, p, own);
        }
        prospect
    }

    /// What the character of the seat whose turn it is still does, on average.
    fn add_character(&mut self, state: &State, p: &Player, own: bool) {
        let (Phase::Acting { action, done }, Some(character)) =
            (&state.phase, state.current_character())
        else {
            return;
        };
        for (i, step) in character.actions().iter().enumerate().skip(*action) {
            let done = if i == *action { i64::from(*done) } else { 0 };
            match *step {
                CharacterAction::DrawCards(n) | CharacterAction::LookAtCards(n) => {
                    let cards = (i64::from(n) - done).max(0);
                    // The Oracle keeps one of those it looks at.
                    let kept = if matches!(step, CharacterAction::LookAtCards(_)) {
                        cards.min(1)
                    } else {
                        cards
                    };
                    for icons in &mut self.icons {
                        *icons += TO_DRAW * kept;
                    }
                }
                CharacterAction::KeepOneLookedAt if own => {
                    if let Some(best) = state.looked_at.iter().max_by_key(|c| c.icons)
                        && let Some(slot) = index(best.element).and_then(|k| self.icons.get_mut(k))
                    {
                        *slot += IN_HAND * i64::from(best.icons);
                    }
                }
                CharacterAction::PlayCards(n) if own => {
                    let mut hand = p.hand.clone();
                    hand.sort_by_key(|c| std::cmp::Reverse(c.icons));
                    let plays = usize::try_from((i64::from(n) - done).max(0)).unwrap_or(0);
                    for card in hand.iter().take(plays) {
                        if let Some(slot) = index(card.element).and_then(|k| self.icons.get_mut(k))
                        {
                            *slot += (FACE_UP - IN_HAND) * i64::from(card.icons);
                        }
                    }
                }
                CharacterAction::DrawTokens(count) => {
                    let wanted = match count {
                        TokenCount::Fixed(n) => i64::from(n),
                        TokenCount::Level => i64::from(p.level),
                    };
                    if i == *action {
                        for &token in &state.drawn {
                            self.resolve(token);
                        }
                    }
                    self.tokens_to_draw += (wanted - done).max(0);
                }
                _ => {}
            }
        }
    }

    /// A drawn token, as the Apprentice, Farmer or Hunter resolves it.
    fn resolve(&mut self, token: Token) {
        match token {
            Token::Element(e) => {
                if let Some(slot) = index(e).and_then(|k| self.icons.get_mut(k)) {
                    *slot += FACE_UP;
                }
            }
            Token::AddAGem if self.supply > 0 => {
                self.supply -= 1;
                self.gems += 1;
            }
            Token::LevelUp => self.level = self.level.saturating_add(1).min(LEVEL_CAP),
            _ => {}
        }
    }

    /// [`Prospect::worth`], with the tokens still to draw at their average.
    fn expected_worth(&self, state: &State, bag: usize) -> i64 {
        let base = self.worth(bag);
        if self.tokens_to_draw == 0 || state.bag.is_empty() {
            return base;
        }
        let kinds = tally(&state.bag);
        let total: i64 = kinds.iter().map(|&(_, n)| i64::from(n)).sum();
        let gain: i64 = kinds
            .iter()
            .map(|&(token, n)| {
                let mut after = self.clone();
                after.resolve(token);
                (after.worth(bag) - base) * i64::from(n)
            })
            .sum();
        base + self.tokens_to_draw * gain / total.max(1)
    }

    /// The chance of a win on one Wizard turn, with what the sets are worth towards it. The
    /// gems are reckoned one more than there are: the gems to come count for the future turns
    /// a standing stands for, and so a level is worth something before the first gem is in.
    fn worth(&self, bag: usize) -> i64 {
        let (gems, bag) = (self.gems + 1, bag + 1);
        let now = draw_chance(self.level, gems, bag);
        let mut sets = 0i64;
        for (element, &icons) in Element::ALL.iter().zip(&self.icons) {
            let reward = element.reward();
            let added = usize::from(reward.gems.min(self.supply));
            let level = self.level.saturating_add(reward.levels).min(LEVEL_CAP);
            let gain = draw_chance(level, gems + added, bag + added) - now;
            let size = FACE_UP * i64::from(element.set_size());
            sets += icons / size * gain * 3 / 4 + gain * (icons % size) / size / 2;
        }
        now + sets
    }
}

fn index(element: Element) -> Option<usize> {
    Element::ALL.iter().position(|&e| e == element)
}

fn hand_icons(hand: &[super::data::Card], element: Element) -> i64 {
    hand.iter()
        .filter(|c| c.element == element)
        .map(|c| i64::from(c.icons))
        .sum()
}

/// The chance (in millionths) that `draws` tokens from a bag of `bag` holding `gems` of one
/// seat's include one of them.
fn draw_chance(draws: u8, gems: usize, bag: usize) -> i64 {
    if gems == 0 || bag == 0 {
        return 0;
    }
    // The chance that every draw misses: the product of (misses left / tokens left).
    let (mut miss, mut all) = (1u128, 1u128);
    for i in 0..usize::from(draws).min(bag) {
        miss *= bag.saturating_sub(gems).saturating_sub(i) as u128;
        all *= (bag - i) as u128;
    }
    let hit = WIN as u128 - miss * WIN as u128 / all.max(1);
    i64::try_from(hit).unwrap_or(0)
}

/// Icons of `element` that `seat` has put into the set it is turning in now (still its own).
fn building(state: &State, seat: Seat, element: Element) -> i64 {
    match &state.phase {
        Phase::BuildingSet {
            element: e,
            cards,
            tokens,
        } if *e == element && state.current_seat() == Some(seat) => {
            cards.iter().map(|c| i64::from(c.icons)).sum::<i64>() + i64::from(*tokens)
        }
        _ => 0,
    }
}

/// The chance of at least one win in [`ATTEMPTS`] turns that each win with `chance`.
fn within_attempts(chance: i64) -> i64 {
    let miss = i128::from(WIN - chance.clamp(0, WIN));
    let mut all_miss = i128::from(WIN);
    for _ in 0..ATTEMPTS {
        all_miss = all_miss * miss / i128::from(WIN);
    }
    i64::try_from(i128::from(WIN) - all_miss).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chance_of_a_draw_is_hypergeometric() {
        // One draw, 2 gems among 10 tokens: 1 in 5.
        assert_eq!(draw_chance(1, 2, 10), 200_000);
        // Two draws: 1 - (8/10)(7/9) = 1 - 56/90.
        assert_eq!(draw_chance(2, 2, 10), WIN - 56 * WIN / 90);
        assert_eq!(draw_chance(3, 0, 10), 0);
        assert_eq!(draw_chance(12, 1, 10), WIN);
    }

    #[test]
    fn a_standing_is_a_chance_within_a_few_turns() {
        assert_eq!(within_attempts(0), 0);
        assert_eq!(within_attempts(WIN), WIN);
        // 1 - (1/2)^6
        assert_eq!(within_attempts(500_000), 984_375);
    }
}
