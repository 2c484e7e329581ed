//! What happens without anyone deciding: set-up steps, reinforcements, forced combat targets,
//! resolving a combat round, loot, the end of a round and the end of the game. After every
//! action `advance` runs until the game waits for a player or for chance again.

use super::Scoring;
use super::data::{
    CONTENT, Colour, Needs, Territory, Token, clan_objectives, neutral_objectives, objective,
    territories, territory_count,
};
use super::state::{Combat, Die, Ending, Phase, State, add, take_one};
use crate::rules::Seat;

/// More automatic steps than any position needs; a guard, never reached.
const MAX_AUTOMATIC_STEPS: usize = 10_000;

/// Points in advanced scoring.
pub const POINTS_PER_OBJECTIVE: i64 = 20;
pub const POINTS_PER_GNOME_TOKEN: i64 = 3;
pub const POINTS_PER_FOOD_TOKEN: i64 = 2;

/// What an automatic step did that players must be told, in the log: the rules do it without
/// anyone deciding, so no action of its own records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A combat round's casualties (each clan's losses, in turn order; none for a clan that
    /// lost none) and the gnomes Blue's 6s saved.
    Casualties {
        territory: Territory,
        round: u32,
        losses: Vec<(Colour, u8)>,
        saved: Vec<(Colour, u8)>,
    },
    /// A battle is over: the clan left in the territory, if any.
    BattleOver {
        territory: Territory,
        holder: Option<Colour>,
    },
    /// The tokens a clan looted, in map order of its territories (none it could not collect).
    Looted { clan: Colour, tokens: Vec<Token> },
    /// The first player token passed to this clan.
    FirstPlayer(Colour),
    /// A round began.
    RoundBegins(u32),
    /// Gnomes put onto a clan's home without asking (`"reinforcements":"all"`).
    Reinforced { clan: Colour, gnomes: u8 },
}

/// Performs automatic steps until a player or chance must act.
pub fn advance(state: &mut State) {
    advance_noting(state, &mut Vec::new());
}

/// As [`advance`], noting what happened.
pub fn advance_noting(state: &mut State, notes: &mut Vec<Happening>) {
    for _ in 0..MAX_AUTOMATIC_STEPS {
        if !step(state, notes) {
            return;
        }
    }
}

/// One automatic step; false when the game waits for a decision or a roll.
fn step(state: &mut State, notes: &mut Vec<Happening>) -> bool {
    match state.phase.clone() {
        Phase::AssigningClans => {
            let free = free_colours(state);
            let unassigned = state.clans.iter().filter(|c| c.colour.is_none()).count();
            match (unassigned, free.as_slice()) {
                (0, _) => {
                    fill_supply(state);
                    state.phase = Phase::ChoosingFirstPlayer;
                    true
                }
                // The last colour left needs no draw.
                (_, [only]) => {
                    assign_colour(state, *only);
                    true
                }
                _ => false,
            }
        }
        Phase::ChoosingFirstPlayer => false,
        Phase::DealingObjectives => {
            if state.deal_recipient().is_some() {
                return false;
            }
            state.phase = Phase::ChoosingObjectives;
            true
        }
        Phase::ChoosingObjectives => {
            if !state.choosing_seats().is_empty() {
                return false;
            }
            for clan in &mut state.clans {
                clan.discarded.append(&mut clan.offered);
                clan.discarded.sort_unstable();
            }
            start_round(state, notes);
            true
        }
        Phase::Reinforcement { turn } => {
            let Some(clan) = state.reinforcing() else {
                state.phase = Phase::Movement {
                    turn: 0,
                    moves: Vec::new(),
                };
                return true;
            };
            // A clan with nothing in reserve has nothing to decide.
            if state.reinforcements_due(clan) == 0 {
                state.phase = Phase::Reinforcement { turn: turn + 1 };
                return true;
            }
            false
        }
        Phase::Movement { turn, .. } => {
            let Some(mover) = state.mover() else {
                start_combat_or_loot(state, notes);
                return true;
            };
            // A clan with no gnome on the board has nothing to move (possible when it chose
            // not to reinforce, or lost every gnome in battle).
            if state.clan(mover).is_some_and(|c| c.on_board() == 0) {
                state.phase = Phase::Movement {
                    turn: turn + 1,
                    moves: Vec::new(),
                };
                return true;
            }
            false
        }
        Phase::Combat(combat) => combat_step(state, combat, notes),
        Phase::Over(_) => false,
    }
}

fn free_colours(state: &State) -> Vec<Colour> {
    Colour::ALL
        .into_iter()
        .filter(|&c| state.index_of(c).is_none())
        .collect()
}

/// Gives the next clan without a colour this colour, with its own objectives.
pub fn assign_colour(state: &mut State, colour: Colour) {
    if let Some(clan) = state.clans.iter_mut().find(|c| c.colour.is_none()) {
        clan.colour = Some(colour);
        clan.offered = clan_objectives(colour);
    }
}

/// The token supply once the clans are known: all food; the gnome tokens of clans not in
/// play. A clan in play keeps its own gnome tokens until they are captured (ruling 6).
fn fill_supply(state: &mut State) {
    let each = CONTENT.food_tokens_each;
    let gnome_tokens = CONTENT.gnome_tokens_per_clan;
    for token in [Token::Acorn, Token::Apple, Token::Berry] {
        add(&mut state.supply, token, each);
    }
    for colour in Colour::ALL {
        match state.clans.iter_mut().find(|c| c.colour == Some(colour)) {
            Some(clan) => add(&mut clan.tokens, Token::Gnome(colour), gnome_tokens),
            None => add(&mut state.supply, Token::Gnome(colour), gnome_tokens),
        }
    }
    state.neutral_deck = neutral_objectives();
}

/// A new round: reinforcements onto each home territory (each clan deciding how many with
/// `"reinforcements":"choose"`), then the movement phase.
fn start_round(state: &mut State, notes: &mut Vec<Happening>) {
    state.round += 1;
    notes.push(Happening::RoundBegins(state.round));
    // "At the start of each round, each player may put Gnomes from his/ her reserve onto the
    // board. Reinforcements are always put onto your home territory."
    if state.choose_reinforcements {
        state.phase = Phase::Reinforcement { turn: 0 };
        return;
    }
    for i in state.turn_order() {
        let n = state.reinforcements_due(i);
        if let Some(colour) = reinforce(state, i, n) {
            notes.push(Happening::Reinforced {
                clan: colour,
                gnomes: n,
            });
        }
    }
    state.phase = Phase::Movement {
        turn: 0,
        moves: Vec::new(),
    };
}

/// Puts `n` of clan `i`'s reserve onto its home; its colour if any were put there.
pub fn reinforce(state: &mut State, i: usize, n: u8) -> Option<Colour> {
    let clan = state.clans.get_mut(i)?;
    let colour = clan.colour?;
    let home = colour.home()?;
    let n = n.min(clan.reserve());
    clan.add_gnomes(home, n);
    (n > 0).then_some(colour)
}

/// The first territory (in map order) holding gnomes of more than one clan.
fn contested(state: &State) -> Option<Territory> {
    (0..territory_count())
        .filter_map(|t| u8::try_from(t).ok())
        .find(|&t| state.occupants(t).len() > 1)
}

fn start_combat_or_loot(state: &mut State, notes: &mut Vec<Happening>) {
    match contested(state) {
        Some(territory) => {
            state.phase = Phase::Combat(Combat {
                territory,
                declaring: 0,
                dice: Vec::new(),
                rolls: Vec::new(),
                round: 1,
            });
        }
        None => loot_and_end_round(state, notes),
    }
}

fn combat_step(state: &mut State, mut combat: Combat, notes: &mut Vec<Happening>) -> bool {
    let occupants = state.occupants(combat.territory);
    if occupants.len() < 2 {
        notes.push(Happening::BattleOver {
            territory: combat.territory,
            holder: occupants
                .first()
                .and_then(|&i| state.clan(i))
                .and_then(|c| c.colour),
        });
        start_combat_or_loot(state, notes);
        return true;
    }
    if let Some(&declarer) = occupants.get(combat.declaring) {
        let undeclared = state.undeclared_dice(&combat, declarer);
        if undeclared == 0 {
            combat.declaring += 1;
            state.phase = Phase::Combat(combat);
            return true;
        }
        let targets: Vec<usize> = occupants
            .iter()
            .copied()
            .filter(|&i| i != declarer)
            .collect();
        // With one enemy in the territory there is nothing to choose.
        if let [only] = targets.as_slice() {
            let attacker = state.clan(declarer).and_then(|c| c.colour);
            let target = state.clan(*only).and_then(|c| c.colour);
            if let (Some(attacker), Some(target)) = (attacker, target) {
                for _ in 0..undeclared {
                    combat.dice.push(Die { attacker, target });
                }
            }
            combat.declaring += 1;
            state.phase = Phase::Combat(combat);
            return true;
        }
        return false;
    }
    if combat.rolls.len() < combat.dice.len() {
        return false;
    }
    resolve_roll(state, &combat, notes);
    state.phase = Phase::Combat(Combat {
        territory: combat.territory,
        declaring: 0,
        dice: Vec::new(),
        rolls: Vec::new(),
        round: combat.round + 1,
    });
    true
}

/// Removes the casualties of a combat round, all at once.
fn resolve_roll(state: &mut State, combat: &Combat, notes: &mut Vec<Happening>) {
    let (losses, hits) = casualties(state, combat);
    let (mut lost, mut saved) = (Vec::new(), Vec::new());
    for i in state.occupants(combat.territory) {
        let Some(colour) = state.clan(i).and_then(|c| c.colour) else {
            continue;
        };
        let loss = losses.get(i).copied().unwrap_or(0);
        let hit = hits.get(i).copied().unwrap_or(0);
        let present = state.clan(i).map_or(0, |c| c.gnomes_at(combat.territory));
        lost.push((colour, loss));
        // Saves that mattered: hits that would have killed a gnome there.
        let spared = hit.min(present).saturating_sub(loss);
        if spared > 0 {
            saved.push((colour, spared));
        }
    }
    for (i, loss) in losses.into_iter().enumerate() {
        if let Some(clan) = state.clans.get_mut(i) {
            clan.remove_gnomes(combat.territory, loss);
        }
    }
    notes.push(Happening::Casualties {
        territory: combat.territory,
        round: combat.round,
        losses: lost,
        saved,
    });
}

/// The gnomes each clan (by index) loses to a fully rolled combat round, and the hits
/// scored against each before Blue's revive.
pub fn casualties(state: &State, combat: &Combat) -> (Vec<u8>, Vec<u8>) {
    let n = state.clans.len();
    let mut hits = vec![0u8; n];
    let mut sixes = vec![0u8; n];
    for (die, &roll) in combat.dice.iter().zip(&combat.rolls) {
        let attacker = die.attacker.card();
        let target = die.target.card();
        // "rolling the number in the heart or higher will kill the Gnome"; White adds +1.
        if roll.saturating_add(attacker.die_bonus) >= target.killed_on
            && let Some(i) = state.index_of(die.target)
            && let Some(h) = hits.get_mut(i)
        {
            *h = h.saturating_add(1);
        }
        if roll == 6
            && let Some(i) = state.index_of(die.attacker)
            && let Some(s) = sixes.get_mut(i)
        {
            *s = s.saturating_add(1);
        }
    }
    let losses = (0..n)
        .map(|i| {
            let clan = state.clan(i);
            let hit = hits.get(i).copied().unwrap_or(0);
            // Blue: "for each 6 they rolled, remove one Gnome less from the board".
            let revived = match clan.and_then(|c| c.colour) {
                Some(colour) if colour.card().revive_on_six => sixes.get(i).copied().unwrap_or(0),
                _ => 0,
            };
            let present = clan.map_or(0, |c| c.gnomes_at(combat.territory));
            hit.saturating_sub(revived).min(present)
        })
        .collect();
    (losses, hits)
}

/// "Each player collects 1 token matching each Territory they occupy", then the end check,
/// then the first player token passes on.
fn loot_and_end_round(state: &mut State, notes: &mut Vec<Happening>) {
    for i in state.turn_order() {
        let Some(clan) = state.clan(i) else { continue };
        let own = clan.colour;
        let mut looted = Vec::new();
        for t in clan.occupied() {
            let Some(token) = territories()
                .get(usize::from(t))
                .and_then(|card| card.yields)
            else {
                continue;
            };
            if collect(state, i, token, own) {
                looted.push(token);
            }
        }
        if let (Some(colour), false) = (own, looted.is_empty()) {
            notes.push(Happening::Looted {
                clan: colour,
                tokens: looted,
            });
        }
    }
    let finished: Vec<usize> = (0..state.clans.len())
        .filter(|&i| completes_all(state, i))
        .collect();
    if !finished.is_empty() {
        end_game(state, &finished, End::Completed);
    } else if state.round_limit.is_some_and(|limit| state.round >= limit) {
        end_game(state, &[], End::RoundLimit);
    } else if (0..state.clans.len()).all(|i| !can_still_complete(state, i)) {
        end_game(state, &[], End::SupplyExhausted);
    } else {
        state.first = (state.first + 1) % state.clans.len().max(1);
        if let Some(colour) = state.clan(state.first).and_then(|c| c.colour) {
            notes.push(Happening::FirstPlayer(colour));
        }
        start_round(state, notes);
    }
}

/// Whether clan `i` could still complete its kept objectives some day: the food they need
/// together is still to be had (ruling 13) and, from edition 1, the gnome tokens too (review
/// R3). Statues can always be taken.
pub fn can_still_complete(state: &State, i: usize) -> bool {
    food_suffices(state, i) && (state.edition < 1 || hostages_suffice(state, i))
}

/// Whether clan `i` could still gather the gnome tokens not of its colour that its kept
/// objectives need together: a gnome token is captured only from its own clan's stock (or
/// from the supply, for a clan not in play) and a captured one is never lost again, so those
/// the clan holds and those still in their owners' stocks or the supply are all it can ever
/// have (ruling 13).
pub fn hostages_suffice(state: &State, i: usize) -> bool {
    let Some(clan) = state.clan(i) else {
        return false;
    };
    let need: u32 = clan
        .kept
        .iter()
        .filter_map(|&id| objective(id))
        .map(|card| match card.needs {
            Needs::Hostages(n) => u32::from(n),
            _ => 0,
        })
        .sum();
    let still_to_capture: u32 = Colour::ALL
        .into_iter()
        .filter(|&c| Some(c) != clan.colour)
        .map(|c| {
            let token = Token::Gnome(c);
            match state.index_of(c) {
                Some(owner) => state.clan(owner).map_or(0, |o| u32::from(o.count(token))),
                None => u32::from(super::state::count(&state.supply, token)),
            }
        })
        .sum();
    clan.hostages() + still_to_capture >= need
}

/// Whether clan `i` could still gather the food its kept objectives need together: food is
/// only ever taken from the supply and never lost, so what it holds and what is left in the
/// supply is all it can ever have (ruling 13).
pub fn food_suffices(state: &State, i: usize) -> bool {
    let Some(clan) = state.clan(i) else {
        return false;
    };
    let mut need = [0u32; 3];
    for card in clan.kept.iter().filter_map(|&id| objective(id)) {
        if let Needs::Food(count) = &card.needs {
            need[0] += u32::from(count.acorn);
            need[1] += u32::from(count.apple);
            need[2] += u32::from(count.berry);
        }
    }
    [Token::Acorn, Token::Apple, Token::Berry]
        .into_iter()
        .zip(need)
        .all(|(t, n)| {
            u32::from(clan.count(t)) + u32::from(super::state::count(&state.supply, t)) >= n
        })
}

/// Clan `i` takes one `token`: food from the supply; another clan's gnome token from that
/// clan's own stock if it is in play, else from the supply; its own colour gives nothing.
/// Returns whether it was taken.
fn collect(state: &mut State, i: usize, token: Token, own: Option<Colour>) -> bool {
    let taken = match token {
        Token::Gnome(colour) if Some(colour) == own => false,
        Token::Gnome(colour) => match state.index_of(colour) {
            Some(owner) => state
                .clans
                .get_mut(owner)
                .is_some_and(|c| take_one(&mut c.tokens, token)),
            None => take_one(&mut state.supply, token),
        },
        _ => take_one(&mut state.supply, token),
    };
    if taken && let Some(clan) = state.clans.get_mut(i) {
        add(&mut clan.tokens, token, 1);
    }
    taken
}

/// Whether the objectives in `ids` can all be credited to clan `i` at once: tokens counted
/// separately for each objective, statues occupied now.
pub fn satisfies(state: &State, i: usize, ids: &[u16]) -> bool {
    let Some(clan) = state.clan(i) else {
        return false;
    };
    let mut food = [0u32; 3];
    let mut hostages = 0u32;
    for &id in ids {
        let Some(card) = objective(id) else {
            return false;
        };
        match &card.needs {
            Needs::Food(count) => {
                food[0] += u32::from(count.acorn);
                food[1] += u32::from(count.apple);
                food[2] += u32::from(count.berry);
            }
            Needs::Hostages(n) => hostages += u32::from(*n),
            Needs::Statues(statues) => {
                if statues.iter().any(|&s| clan.gnomes_at(s) == 0) {
                    return false;
                }
            }
        }
    }
    let held = [Token::Acorn, Token::Apple, Token::Berry].map(|t| u32::from(clan.count(t)));
    food.iter().zip(held).all(|(&need, have)| need <= have) && hostages <= clan.hostages()
}

/// Whether clan `i` has completed all its objectives now.
pub fn completes_all(state: &State, i: usize) -> bool {
    state
        .clan(i)
        .is_some_and(|c| !c.kept.is_empty() && satisfies(state, i, &c.kept))
}

/// A clan's advanced score: the best set of its objectives it can complete at once, 20 each,
/// plus 3 per gnome token and 2 per food token not used for them. Returns (objectives, points).
pub fn advanced_score(state: &State, i: usize) -> (usize, i64) {
    let Some(clan) = state.clan(i) else {
        return (0, 0);
    };
    let kept: Vec<u16> = clan.kept.iter().copied().take(12).collect();
    let gnome_tokens = i64::from(clan.gnome_tokens());
    let food_tokens: i64 = [Token::Acorn, Token::Apple, Token::Berry]
        .into_iter()
        .map(|t| i64::from(clan.count(t)))
        .sum();
    let mut best = (0, 0);
    for mask in 0u32..(1 << kept.len()) {
        let subset: Vec<u16> = kept
            .iter()
            .enumerate()
            .filter(|(k, _)| mask & (1 << k) != 0)
            .map(|(_, &id)| id)
            .collect();
        if !satisfies(state, i, &subset) {
            continue;
        }
        let (mut used_gnomes, mut used_food) = (0i64, 0i64);
        for card in subset.iter().filter_map(|&id| objective(id)) {
            match &card.needs {
                Needs::Food(c) => {
                    used_food += i64::from(c.acorn) + i64::from(c.apple) + i64::from(c.berry);
                }
                Needs::Hostages(n) => used_gnomes += i64::from(*n),
                Needs::Statues(_) => {}
            }
        }
        let points = POINTS_PER_OBJECTIVE * subset.len() as i64
            + POINTS_PER_GNOME_TOKEN * (gnome_tokens - used_gnomes)
            + POINTS_PER_FOOD_TOKEN * (food_tokens - used_food);
        if points > best.1 {
            best = (subset.len(), points);
        }
    }
    best
}

/// Each seat's advanced score: the sum over its clans.
pub fn seat_scores(state: &State) -> Vec<i64> {
    let mut scores = vec![0i64; state.seats];
    for (i, clan) in state.clans.iter().enumerate() {
        if let Some(s) = scores.get_mut(clan.seat) {
            *s += advanced_score(state, i).1;
        }
    }
    scores
}

fn clan_label(state: &State, i: usize) -> String {
    state.clan(i).map_or_else(String::new, |c| {
        format!("{} (Seat {})", c.colour.map_or("?", Colour::name), c.seat)
    })
}

/// Why the game ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// "When at least one player have completed all of his/her Objectives the game ends."
    Completed,
    /// The `round_limit` option.
    RoundLimit,
    /// No clan can ever complete its objectives: the food (from edition 1: or the gnome
    /// tokens) they need is gone (ruling 13).
    SupplyExhausted,
}

/// Ends the game. `finished`: the clans that completed all their objectives (none when the
/// round limit or the exhausted supply ended it). Scores decide in the advanced game, in the
/// 2-player variant ("the combined point-total for your clans will determine the winner")
/// and when nobody completed their objectives.
fn end_game(state: &mut State, finished: &[usize], end: End) {
    let finished_colours: Vec<Colour> = finished
        .iter()
        .filter_map(|&i| state.clan(i).and_then(|c| c.colour))
        .collect();
    let names: Vec<String> = finished.iter().map(|&i| clan_label(state, i)).collect();
    let by_score = state.scoring == Scoring::Advanced || state.seats == 2 || finished.is_empty();
    let ending = if by_score {
        let scores = seat_scores(state);
        let top = scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<Seat> = (0..state.seats)
            .filter(|&s| scores.get(s) == Some(&top))
            .collect();
        let why = match end {
            End::RoundLimit => format!(
                "The round limit ({}) was reached",
                state.round_limit.unwrap_or(state.round)
            ),
            End::SupplyExhausted if state.edition >= 1 => "Nobody can complete their \
                objectives any more: the food or gnome tokens they need are no longer to be had"
                .to_string(),
            End::SupplyExhausted => "Nobody can complete their objectives any more: the food \
                they need is no longer in the supply"
                .to_string(),
            End::Completed => format!("{} completed all objectives", names.join(" and ")),
        };
        let seats: Vec<String> = winners.iter().map(|s| format!("Seat {s}")).collect();
        Ending {
            summary: format!(
                "{why}; {} won with {top} points (advanced scoring).",
                seats.join(" and ")
            ),
            winners,
            scores: Some(scores),
            finished: finished_colours,
        }
    } else {
        let mut winners: Vec<Seat> = finished
            .iter()
            .filter_map(|&i| state.clan(i).map(|c| c.seat))
            .collect();
        winners.sort_unstable();
        winners.dedup();
        Ending {
            summary: format!(
                "{} completed all objectives first and won.",
                names.join(" and ")
            ),
            winners,
            scores: None,
            finished: finished_colours,
        }
    };
    state.phase = Phase::Over(ending);
}
