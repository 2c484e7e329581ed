//! How well a seat stands, for the built-in bots (`Ruleset::evaluate`; docs/BOTS.md).
//!
//! The game is a race to complete secret objectives, so a seat's own clans count what their
//! kept objectives still need (food and hostage tokens short, statues not held), what the
//! territories they hold will bring at the next loot (a needed token more than another, a
//! contested territory by the clan's share of the gnomes in it), their gnomes, and their
//! tokens as the advanced scoring counts them. The rivals' objectives are secret, so a rival
//! counts by what shows: its tokens, its territories and its gnomes. The seat's standing is
//! weighed against its rivals' ([`lead`]).
//!
//! A finished game is a win only when the seat's own clan completed its objectives in a basic
//! game: the bots reach finished games in their look-ahead, and whether a rival completed its
//! objectives (or none can any more, ruling 13), and the advanced scores, rest on the rivals'
//! secret objectives. Any other finished game counts by what shows, as an unfinished one does
//! (review 2026-11-28, R5).

use super::data::{Food, Needs, Territory, Token, objective, territories};
use super::state::{Clan, Phase, State};
use crate::rules::{Seat, lead, outcome_value};

/// A token, a statue or a hostage an objective still needs.
const SHORT: i64 = 25_000;
/// A territory held whose token the clan still needs, and any other territory held.
const NEEDED_INCOME: i64 = 12_000;
const INCOME: i64 = 3_000;
const GNOME: i64 = 1_500;
/// A collected token as the advanced scoring counts it (3 a gnome token, 2 a food token).
const GNOME_TOKEN: i64 = 3_000;
const FOOD_TOKEN: i64 = 2_000;
/// A rival's collected token (whether its objectives need it is secret).
const RIVAL_TOKEN: i64 = 10_000;

pub fn evaluate(state: &State, seat: Seat) -> i64 {
    if let Phase::Over(ending) = &state.phase {
        let own_finished = state.clans.iter().any(|c| {
            c.seat == seat
                && c.colour
                    .is_some_and(|colour| ending.finished.contains(&colour))
        });
        if ending.scores.is_none() && own_finished {
            return outcome_value(&[seat], seat);
        }
    }
    // The game ends when one clan completes all its objectives, so a seat with two clans
    // races with the one nearer to it; the other counts a quarter. Summed alike, the two
    // pulled apart: in a two-seat duel against a random player (seed 39) both of the bot's
    // clans wanted the same two statues, their gnomes met there and fought each other before
    // every loot, and the game never ended (docs/BOTS.md).
    let mut own_values: Vec<i64> = state
        .clans
        .iter()
        .filter(|c| c.seat == seat)
        .map(|c| own_clan(state, c))
        .collect();
    own_values.sort_unstable_by(|a, b| b.cmp(a));
    let own: i64 =
        own_values.first().copied().unwrap_or(0) + own_values.iter().skip(1).sum::<i64>() / 4;
    let rivals = (0..state.seats).filter(|&s| s != seat).map(|s| {
        state
            .clans
            .iter()
            .filter(|c| c.seat == s)
            .map(|c| rival_clan(state, c))
            .sum()
    });
    lead(own, rivals)
}

/// What a clan's kept objectives ask for, together: food by kind, hostages, statues.
struct Wanted {
    food: [i64; 3],
    hostages: i64,
    statues: Vec<Territory>,
}

fn wanted(clan: &Clan) -> Wanted {
    let mut w = Wanted {
        food: [0; 3],
        hostages: 0,
        statues: Vec::new(),
    };
    for card in clan.kept.iter().filter_map(|&id| objective(id)) {
        match &card.needs {
            Needs::Food(count) => {
                for (slot, food) in w.food.iter_mut().zip(Food::ALL) {
                    *slot += i64::from(count.get(food));
                }
            }
            Needs::Hostages(n) => w.hostages += i64::from(*n),
            Needs::Statues(statues) => w.statues.extend(statues),
        }
    }
    w
}

fn own_clan(state: &State, clan: &Clan) -> i64 {
    let w = wanted(clan);
    let have = Food::ALL.map(|f| i64::from(clan.count(Token::food(f))));
    let food_short: Vec<i64> = w
        .food
        .iter()
        .zip(have)
        .map(|(need, have)| (need - have).max(0))
        .collect();
    let hostages_short = (w.hostages - i64::from(clan.hostages())).max(0);
    // A statue is held for certain only by a clan alone there: any other clan's gnomes (the
    // seat's other clan's too) fight it in the combat before the loot that checks the
    // objectives. Counted in halves: missing 2, shared 1.
    let statue_halves: i64 = w
        .statues
        .iter()
        .map(|&t| {
            if clan.gnomes_at(t) == 0 {
                2
            } else if state
                .clans
                .iter()
                .any(|c| c.colour != clan.colour && c.gnomes_at(t) > 0)
            {
                1
            } else {
                0
            }
        })
        .sum();
    let short_halves = 2 * (food_short.iter().sum::<i64>() + hostages_short) + statue_halves;
    let needed = |token: Token| -> bool {
        match token {
            Token::Gnome(colour) => Some(colour) != clan.colour && hostages_short > 0,
            food => Food::ALL
                .iter()
                .zip(&food_short)
                .any(|(&f, &s)| Token::food(f) == food && s > 0),
        }
    };
    let income: i64 = held(state, clan)
        .map(|(t, share)| {
            let worth = match territories().get(usize::from(t)).and_then(|c| c.yields) {
                Some(token) if needed(token) => NEEDED_INCOME,
                _ => INCOME,
            };
            worth * share / 100
        })
        .sum();
    -short_halves * SHORT / 2 + income + gnomes(clan) + tokens(clan, GNOME_TOKEN, FOOD_TOKEN)
}

fn rival_clan(state: &State, clan: &Clan) -> i64 {
    let income: i64 = held(state, clan)
        .map(|(_, share)| INCOME * 2 * share / 100)
        .sum();
    income + gnomes(clan) + tokens(clan, RIVAL_TOKEN, RIVAL_TOKEN)
}

fn gnomes(clan: &Clan) -> i64 {
    i64::from(clan.on_board()) * GNOME
}

fn tokens(clan: &Clan, gnome: i64, food: i64) -> i64 {
    clan.tokens
        .iter()
        .map(|&(t, n)| {
            i64::from(n)
                * match t {
                    Token::Gnome(_) => gnome,
                    _ => food,
                }
        })
        .sum()
}

/// The territories a clan has gnomes in, with its share of the gnomes there in percent.
fn held<'a>(state: &'a State, clan: &'a Clan) -> impl Iterator<Item = (Territory, i64)> + 'a {
    clan.occupied().into_iter().map(move |t| {
        let all: i64 = state.clans.iter().map(|c| i64::from(c.gnomes_at(t))).sum();
        (t, 100 * i64::from(clan.gnomes_at(t)) / all.max(1))
    })
}
