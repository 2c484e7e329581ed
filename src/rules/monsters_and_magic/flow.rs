//! The course of the game: set-up, the automatic phases (Declaration, Garrison, Allies),
//! recruitment, the End phase, turns and the four ways to win. The bottom of the rules: fights
//! (`combat`) and powers (`powers`) call its changes (a figure added, a permanent card
//! swapped, a player eliminated); it calls none of them.

use super::actions::Action;
use super::data::{CardId, DECLARE_AT, FigureKind, GARRISONS_PER_SET, Structure, Terrain};
use super::state::{Figure, Phase, Pos, State, Stop, opposite, put, take};
use crate::rules::{Outcome, Seat};

/// Runs the steps nobody decides, until a decision or a chance step is due.
pub fn advance(state: &mut State) {
    // Each pass either stops or moves the game on; the bound only guards against a bug.
    for _ in 0..1_000 {
        if !step(state) {
            return;
        }
    }
}

/// One automatic step; false when the game waits for a decision or chance.
fn step(state: &mut State) -> bool {
    match &state.phase {
        Phase::Over(_) => false,
        Phase::Map if state.board.iter().all(|s| s.structure.is_some()) => {
            state.phase = Phase::Deal;
            true
        }
        Phase::Map => false,
        Phase::Deal => {
            let dealt: usize = state.players.iter().map(|p| p.permanent.len()).sum();
            let wanted = usize::from(state.options.permanent_cards) * state.seats();
            if dealt >= wanted || state.deck.is_empty() {
                state.phase = Phase::Corner { seat: 0 };
                true
            } else {
                false
            }
        }
        Phase::Corner { .. } | Phase::StartFigure { .. } | Phase::ExtraFigure { .. } => false,
        Phase::FirstPlayer { rolling, rolls } => {
            if rolling
                .iter()
                .any(|&s| rolls.get(s).copied().flatten().is_none())
            {
                return false;
            }
            let best = rolling
                .iter()
                .filter_map(|&s| rolls.get(s).copied().flatten())
                .max()
                .unwrap_or(0);
            let tied: Vec<Seat> = rolling
                .iter()
                .copied()
                .filter(|&s| rolls.get(s).copied().flatten() == Some(best))
                .collect();
            match tied.as_slice() {
                [winner] => {
                    state.first = *winner;
                    begin_turn(state, 1);
                }
                _ => {
                    // "Players roll high on 2D6": those tied for highest roll again.
                    state.phase = Phase::FirstPlayer {
                        rolls: vec![None; state.seats()],
                        rolling: tied,
                    };
                }
            }
            true
        }
        _ if state.draws > 0 => {
            if state.deck.is_empty() && !state.discard.is_empty() {
                // Ruling: an empty deck is made again from the shuffled discard pile.
                state.deck = std::mem::take(&mut state.discard);
                state.deck.sort_unstable();
                true
            } else if state.deck.is_empty() {
                state.draws = 0;
                true
            } else {
                false
            }
        }
        Phase::Allies => {
            state.phase = if take_stop(state, Stop::RecruitRoll) {
                Phase::Stop(Stop::RecruitRoll)
            } else {
                Phase::Recruit
            };
            true
        }
        // A power used before placing the recruit (Polymorph into its type, say) can leave
        // nothing to place: the roll then gains nothing.
        Phase::RecruitPlace { roll }
            if state.pending.is_none() && recruits(state, state.current, *roll).is_empty() =>
        {
            state.phase = Phase::End;
            true
        }
        _ => false,
    }
}

pub fn place_tile(state: &mut State, terrain: Terrain) {
    if let Some(space) = state.board.iter_mut().find(|s| s.terrain.is_none()) {
        space.terrain = Some(terrain);
    }
}

pub fn place_chit(state: &mut State, structure: Structure) {
    if let Some(space) = state.board.iter_mut().find(|s| s.structure.is_none()) {
        space.structure = Some(structure);
    }
}

/// "Each player is dealt 5 cards": round-robin from seat 0.
pub fn deal_permanent(state: &mut State, card: CardId) {
    let dealt: usize = state.players.iter().map(|p| p.permanent.len()).sum();
    let seat = dealt % state.seats().max(1);
    if take(&mut state.deck, card)
        && let Some(player) = state.players.get_mut(seat)
    {
        player.permanent.push(card);
    }
}

/// A card drawn into the current player's hand.
pub fn draw_card(state: &mut State, card: CardId) {
    let seat = state.current;
    if take(&mut state.deck, card)
        && let Some(player) = state.players.get_mut(seat)
    {
        put(&mut player.hand, card);
    }
    state.draws = state.draws.saturating_sub(1);
}

/// Puts a new figure on the map. Ruling 15: a figure that arrives in its owner's turn before
/// or during the Movement phase (a recruit card played then) may move in that Movement phase,
/// like any of "your Figures" (l.126) with "a base Move of 1" (l.73); one that arrives later
/// (or at set-up, or in a game created before edition 1) waits for the next turn.
pub fn add_figure(state: &mut State, owner: Seat, kind: FigureKind, at: Pos) {
    let id = state.next_figure;
    state.next_figure = state.next_figure.saturating_add(1);
    let before_movement_ends = matches!(
        state.phase,
        Phase::Movement | Phase::Stop(Stop::Declaration | Stop::Garrison)
    );
    let may_move = state.options.edition >= 1 && before_movement_ends && owner == state.current;
    state.figures.push(Figure {
        id,
        owner,
        kind,
        at,
        spent: 0,
        done: !may_move,
        entered: Vec::new(),
        hasted: 0,
        boosted: 0,
        passed: Vec::new(),
    });
}

/// "Each player picks 1 Figure of his choice and places it on his garrison."
pub fn start_figure(state: &mut State, seat: Seat, kind: FigureKind) {
    let seats = state.seats();
    let Some(corner) = state.players.get(seat).and_then(|p| p.corner) else {
        return;
    };
    match state.phase {
        Phase::StartFigure { .. } => {
            if let Some(space) = state.space_mut(corner) {
                space.garrison = Some(seat);
            }
            add_figure(state, seat, kind, corner);
            state.phase = if seat + 1 < seats {
                Phase::StartFigure { seat: seat + 1 }
            } else if let Some(middle) = state.middle_seat() {
                Phase::ExtraFigure { seat: middle }
            } else {
                first_roll(seats)
            };
        }
        Phase::ExtraFigure { .. } => {
            // "The player that is caught in the middle may start the game with a Figure of
            // his choice in the corner opposite."
            add_figure(state, seat, kind, opposite(corner));
            state.phase = first_roll(seats);
        }
        _ => {}
    }
}

/// "Each player picks a different corner of the board."
pub fn choose_corner(state: &mut State, seat: Seat, corner: Pos) {
    if let Some(player) = state.players.get_mut(seat) {
        player.corner = Some(corner);
    }
    state.phase = if seat + 1 < state.seats() {
        Phase::Corner { seat: seat + 1 }
    } else {
        Phase::StartFigure { seat: 0 }
    };
}

pub fn decline_extra(state: &mut State) {
    state.phase = first_roll(state.seats());
}

fn first_roll(seats: usize) -> Phase {
    Phase::FirstPlayer {
        rolling: (0..seats).collect(),
        rolls: vec![None; seats],
    }
}

/// The 2D6 of the next seat still to roll for first player.
pub fn first_player_roll(state: &mut State, sum: u8) {
    if let Phase::FirstPlayer { rolling, rolls } = &mut state.phase
        && let Some(&seat) = rolling
            .iter()
            .find(|&&s| rolls.get(s).copied().flatten().is_none())
        && let Some(slot) = rolls.get_mut(seat)
    {
        *slot = Some(sum);
        state.first_rolls.push((seat, sum));
    }
}

/// Starts turn `turn`, skipping players with no units left, or ends the game at the limit.
pub fn begin_turn(state: &mut State, turn: u32) {
    let mut turn = turn;
    loop {
        if turn > state.last_turn() {
            finish_on_spaces(state);
            return;
        }
        if state.has_units(state.seat_of_turn(turn)) {
            break;
        }
        turn += 1;
    }
    state.turn = turn;
    state.current = state.seat_of_turn(turn);
    for figure in &mut state.figures {
        figure.spent = 0;
        figure.done = false;
        figure.entered.clear();
        figure.hasted = 0;
        figure.boosted = 0;
        figure.passed.clear();
    }
    for player in &mut state.players {
        // "The effect of Hand cards only last to the end of the current turn."
        player.played.clear();
        player.used.clear();
    }
    state.peeks.clear();
    state.moving = None;
    state.pending = None;
    state.draws = 0;
    state.realigned = false;

    let seat = state.current;
    // Victory at "the beginning of your turn".
    if state.structures_occupied(seat, Structure::Temple) >= DECLARE_AT {
        win(
            state,
            vec![seat],
            format!("Seat {seat} occupies 5 Temples at the beginning of its turn and wins."),
        );
        return;
    }
    if state.garrisons_on_map(seat) >= usize::from(GARRISONS_PER_SET) {
        win(
            state,
            vec![seat],
            format!(
                "Seat {seat} has Garrisons in 33 spaces at the beginning of its turn and wins."
            ),
        );
        return;
    }
    if take_stop(state, Stop::Declaration) {
        state.phase = Phase::Stop(Stop::Declaration);
        return;
    }
    declaration(state);
}

/// Whether the current player asked to stop at `stop`; the request is used up.
fn take_stop(state: &mut State, stop: Stop) -> bool {
    let seat = state.current;
    match state.players.get_mut(seat) {
        Some(player) if player.stop == Some(stop) => {
            player.stop = None;
            true
        }
        _ => false,
    }
}

/// `stop_before`: the step ends as usual, and the turn stops at `stop` (ruling 22).
pub fn stop_before(state: &mut State, seat: Seat, stop: Stop) {
    if let Some(player) = state.players.get_mut(seat) {
        player.stop = Some(stop);
    }
    match stop {
        Stop::Declaration => end_turn(state),
        Stop::Garrison => declaration(state),
        Stop::RecruitRoll => end_movement(state),
    }
}

/// `go_on`: the turn goes on from the stop.
pub fn go_on(state: &mut State) {
    match state.phase {
        Phase::Stop(Stop::Declaration) => declaration(state),
        Phase::Stop(Stop::Garrison) => garrison(state),
        Phase::Stop(Stop::RecruitRoll) => state.phase = Phase::Recruit,
        _ => {}
    }
}

/// The Declaration phase, then (unless the player stops before it) the Garrison phase.
fn declaration(state: &mut State) {
    let seat = state.current;
    let declared = state.declarable(seat);
    if let Some(player) = state.players.get_mut(seat) {
        player.declared = declared;
    }
    if take_stop(state, Stop::Garrison) {
        state.phase = Phase::Stop(Stop::Garrison);
        return;
    }
    garrison(state);
}

/// The Garrison phase: "For each space you occupy with a Figure that does not also have a
/// Garrison, place a Garrison Marker into it." Then the Movement phase.
fn garrison(state: &mut State) {
    let seat = state.current;
    let spots: Vec<Pos> = state
        .figures
        .iter()
        .filter(|f| f.owner == seat)
        .map(|f| f.at)
        .collect();
    for at in spots {
        if state.garrisons_left(seat) == 0 {
            break;
        }
        if let Some(space) = state.space_mut(at)
            && space.garrison.is_none()
        {
            space.garrison = Some(seat);
        }
    }
    state.phase = Phase::Movement;
}

/// End of the Movement phase: the Allies phase draws ("Draw 1 card … If you control 5 or
/// more Cities you get to draw 1 extra card"), then the Recruitment phase.
pub fn end_movement(state: &mut State) {
    let seat = state.current;
    state.moving = None;
    state.pending = None;
    state.draws = if state.declared(seat, Structure::City) {
        2
    } else {
        1
    };
    state.phase = Phase::Allies;
}

/// The recruit roll: "Roll 1D6 … If you control 5 or more Villages you get +1".
pub fn recruit_roll(state: &mut State, die: u8) {
    let seat = state.current;
    let roll = die + u8::from(state.declared(seat, Structure::Village));
    state.phase = Phase::End;
    if roll <= 1 {
        state.draws = state.draws.saturating_add(1);
        return;
    }
    let spaces = !state.recruit_spaces(seat).is_empty();
    let can = match FigureKind::of_recruit_roll(roll) {
        Some(kind) => state.may_gain(seat, kind),
        None => FigureKind::ALL.into_iter().any(|k| state.may_gain(seat, k)),
    };
    if spaces && can {
        state.phase = Phase::RecruitPlace { roll };
    }
}

/// The figures the recruit roll `roll` may place now.
pub fn recruits(state: &State, seat: Seat, roll: u8) -> Vec<Action> {
    let kinds: Vec<FigureKind> = match FigureKind::of_recruit_roll(roll) {
        Some(kind) => vec![kind],
        None => FigureKind::ALL.to_vec(),
    };
    let spaces = state.recruit_spaces(seat);
    let mut out = Vec::new();
    for figure in kinds.into_iter().filter(|&k| state.may_gain(seat, k)) {
        for &at in &spaces {
            out.push(Action::Recruit { figure, at });
        }
    }
    out
}

pub fn recruit(state: &mut State, seat: Seat, kind: FigureKind, at: Pos) {
    add_figure(state, seat, kind, at);
    state.phase = Phase::End;
}

/// The optional Realignment rule: "discard 1 of your permanent cards and replace it with a
/// card from your hand". The old permanent card goes to the (face-up) discard pile.
pub fn realign(state: &mut State, seat: Seat, permanent: CardId, hand: CardId) {
    if let Some(player) = state.players.get_mut(seat)
        && let Some(i) = player.permanent.iter().position(|&c| c == permanent)
        && take(&mut player.hand, hand)
        && let Some(slot) = player.permanent.get_mut(i)
    {
        *slot = hand;
        state.discard.push(permanent);
    }
    state.realigned = true;
}

/// The Diplomat's "Switch": the permanent card goes into the hand, the hand card takes its
/// place.
pub fn swap_permanent(state: &mut State, seat: Seat, permanent: CardId, hand: CardId) {
    if let Some(player) = state.players.get_mut(seat)
        && let Some(i) = player.permanent.iter().position(|&c| c == permanent)
        && take(&mut player.hand, hand)
        && let Some(slot) = player.permanent.get_mut(i)
    {
        *slot = hand;
        put(&mut player.hand, permanent);
    }
}

pub fn discard(state: &mut State, seat: Seat, card: CardId) {
    if let Some(player) = state.players.get_mut(seat)
        && take(&mut player.hand, card)
    {
        state.discard.push(card);
    }
}

/// The End phase is over: the next turn, or the end of the game at "the end of turn 20X".
pub fn end_turn(state: &mut State) {
    if state.turn >= state.last_turn() {
        finish_on_spaces(state);
    } else {
        begin_turn(state, state.turn + 1);
    }
}

/// "Eliminate all of your opponents Units": checked whenever units are destroyed. A player
/// left without units is out of the game (ruling 41): from edition 2, when that is the
/// current player (its last figure lost a fight, or went to the Altar), its turn ends at
/// once, so no power (the Merchant's Garrison, say) brings it back.
pub fn check_elimination(state: &mut State) {
    let alive: Vec<Seat> = (0..state.seats()).filter(|&s| state.has_units(s)).collect();
    match alive.as_slice() {
        [winner] => {
            let winner = *winner;
            win(
                state,
                vec![winner],
                format!("Seat {winner} eliminated all of its opponents' units and wins."),
            );
        }
        [] => win(
            state,
            Vec::new(),
            "The last units were destroyed together: nobody wins.".to_owned(),
        ),
        _ if state.options.edition >= 2 && !state.has_units(state.current) => end_turn(state),
        _ => {}
    }
}

/// Whether `seat` is still in the game, as the target of another player's power: from
/// edition 2 a player with no units is out (ruling 41) and no longer an "opponent" to look at
/// (the Oracle) or to switch hands with (the Jester).
pub fn in_the_game(state: &State, seat: Seat) -> bool {
    state.options.edition < 2 || state.has_units(seat)
}

/// "Control the most Map spaces at the end of turn 20X"; ruling: a tie is broken by the
/// number of garrisons, and a tie in both is a shared win.
pub fn finish_on_spaces(state: &mut State) {
    let key = |s: Seat| (state.spaces_controlled(s), state.garrisons_on_map(s));
    let best = (0..state.seats()).map(key).max().unwrap_or((0, 0));
    let winners: Vec<Seat> = (0..state.seats()).filter(|&s| key(s) == best).collect();
    let names: Vec<String> = winners.iter().map(|s| format!("Seat {s}")).collect();
    // Those with as many spaces as the winners, who lost on the garrison count.
    let tied_on_spaces = (0..state.seats())
        .filter(|&s| state.spaces_controlled(s) == best.0)
        .count()
        > winners.len();
    let tie_break = if tied_on_spaces {
        format!(", the tie in spaces broken by Garrisons ({})", best.1)
    } else {
        String::new()
    };
    let summary = match names.as_slice() {
        [one] => format!(
            "The turn limit is reached: {one} controls the most spaces ({}){tie_break} and wins.",
            best.0
        ),
        _ => format!(
            "The turn limit is reached: {} control the most spaces ({}) and as many Garrisons \
             ({}), and share the win.",
            names.join(" and "),
            best.0,
            best.1
        ),
    };
    win(state, winners, summary);
}

fn win(state: &mut State, winners: Vec<Seat>, summary: String) {
    let scores = (0..state.seats())
        .map(|s| i64::try_from(state.spaces_controlled(s)).unwrap_or(0))
        .collect();
    state.draws = 0;
    state.moving = None;
    state.pending = None;
    state.phase = Phase::Over(Outcome {
        winners,
        scores: Some(scores),
        summary,
    });
}
