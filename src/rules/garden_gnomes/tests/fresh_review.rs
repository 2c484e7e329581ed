//! The fresh fidelity review of 2026-11-28 (docs/reviews/2026-11-28-garden-gnomes.md): one
//! test per finding fixed, each failing on the code before it.

use super::*;
use crate::rules::Viewer;
use crate::rules::garden_gnomes::EDITION;

/// The options a game created now gets (the current edition).
fn new_options() -> Options {
    Game::for_new_game(Options::default())
}

fn is_over(state: &State) -> bool {
    matches!(Game::next(state), Next::Over(_))
}

/// Three clans at the start of round 1, Red first, the board cleared; Green holds the Frog
/// and Flamingo statues and has kept `green_kept`, Red and Blue one gnome at home each. Red
/// and Green have ended their movement: Blue is the last to move.
fn blue_last_to_move(green_kept: &[u16]) -> State {
    let mut state = started(&Options::default(), 3, &[Red, Green, Blue], Red);
    clear_board(&mut state);
    place(&mut state, Red, RED_HOME, 1);
    place(&mut state, Green, FROG, 1);
    place(&mut state, Green, FLAMINGO, 1);
    place(&mut state, Blue, BLUE_HOME, 1);
    set_kept(&mut state, Green, green_kept);
    for colour in [Red, Green] {
        let seat = seat_of(&state, colour);
        decide(&mut state, seat, Action::EndMovement);
    }
    assert_eq!(
        state.mover().and_then(|i| state.clans[i].colour),
        Some(Blue)
    );
    state
}

// R1. "Check to see if any player has completed all Objectives, if not, pass the first player
// token to the next player in clockwise order and begin the next round." (l.181) The check
// comes after the loot, and the objectives are the players' own ("each choice hidden from the
// others until the end", issue 5). The last clan to move must not learn from the words of its
// own choices whether ending its movement lets another clan win: it could still move a gnome
// onto a statue to stop it.
#[test]
fn the_last_movers_choices_do_not_tell_whether_a_secret_objective_is_about_to_be_met() {
    // Objective 33: a gnome on the Frog and the Flamingo statues (met by Green after the loot);
    // objective 34: the Frog and the Gnome King statues (not met).
    let wins = blue_last_to_move(&[33]);
    let plays_on = blue_last_to_move(&[34]);
    let seat = seat_of(&wins, Blue);
    let label = |state: &State| Game::label(state, seat, &Action::EndMovement);
    assert_eq!(label(&wins), label(&plays_on));
    assert_eq!(label(&wins), "End the movement of Blue (Seat 2)");
    for action in Game::legal_actions(&wins, seat) {
        assert_eq!(
            Game::label(&wins, seat, &action),
            Game::label(&plays_on, seat, &action)
        );
    }
    // The rules do what they did: Green wins in one, the game goes on in the other, and the
    // log line written after the fact still tells the loot and the new round.
    let (mut a, mut b) = (wins.clone(), plays_on.clone());
    decide(&mut a, seat, Action::EndMovement);
    decide(&mut b, seat, Action::EndMovement);
    assert!(is_over(&a));
    assert!(!is_over(&b));
    let line = Game::describe(
        &plays_on,
        Actor::Seat(seat),
        &Action::EndMovement,
        Viewer::Spectator,
    );
    assert!(line.contains("Round 2 begins"), "{line}");
}

// R5. The objectives are their players' secret (ruling 5), and the built-in bot "never looks at
// the rivals' secret hands or objectives" (docs/BOTS.md): its look-ahead applies the last
// movement to a copy of the game and evaluates what follows. Whether that copy is a game a
// rival has just won on its secret objectives must not change what the bot sees.
#[test]
fn the_bots_evaluation_does_not_tell_whether_a_rival_met_its_secret_objectives() {
    let (mut wins, mut plays_on) = (blue_last_to_move(&[33]), blue_last_to_move(&[34]));
    let seat = seat_of(&wins, Blue);
    decide(&mut wins, seat, Action::EndMovement);
    decide(&mut plays_on, seat, Action::EndMovement);
    assert!(is_over(&wins));
    assert!(!is_over(&plays_on));
    assert_eq!(Game::evaluate(&wins, seat), Game::evaluate(&plays_on, seat));
    // Green's player knows Green completed its objectives: for that seat it is the win.
    let green = seat_of(&wins, Green);
    assert_eq!(Game::evaluate(&wins, green), crate::rules::WIN);
}

/// Round 1 of a 3-clan game with these options, every clan having kept objective 47 (4 gnome
/// tokens not of its colour), no gnome token left anywhere but with `keep_stock`'s own.
fn hostages_gone(options: &Options, keep_stock: Option<Colour>) -> State {
    let mut state = started(options, 3, &[Red, Green, Blue], Red);
    for colour in [Red, Green, Blue] {
        set_kept(&mut state, colour, &[47]);
        if Some(colour) != keep_stock {
            let i = clan_index(&state, colour);
            state.clans[i].tokens.clear();
        }
    }
    state.supply.retain(|(t, _)| !matches!(t, Token::Gnome(_)));
    state
}

// R3. "When at least one player have completed all of his/her Objectives the game ends."
// (l.189) Ruling 13 ends the game when that can no longer come, since it would otherwise go on
// for ever; a gnome token is captured only from its clan's own stock (ruling 6: "including your
// own that was not captured", l.197) and never lost again, so when no clan can still gather
// the gnome tokens its objectives need, that end can no longer come either.
#[test]
fn the_game_ends_when_the_gnome_tokens_needed_are_gone() {
    let options = new_options();
    assert_eq!(options.edition, EDITION);
    let mut state = hostages_gone(&options, None);
    assert_eq!(state.edition, EDITION);
    end_movements(&mut state);
    ended_as_nobody_can_complete(&state);
}

// R3, the other side: while the tokens a clan needs are still in another clan's stock, it
// may still capture them by holding that clan's home, and the game goes on.
#[test]
fn the_game_goes_on_while_the_gnome_tokens_needed_can_still_be_captured() {
    let mut state = hostages_gone(&new_options(), Some(Green));
    end_movements(&mut state);
    assert!(!is_over(&state));
    assert_eq!(state.round, 2);
}

// R3: games created before edition 1 keep the old rule (only the food counts), so their logs
// fold as they did.
#[test]
fn games_created_before_edition_1_go_on_when_the_gnome_tokens_are_gone() {
    let mut state = hostages_gone(&Options::default(), None);
    assert_eq!(state.edition, 0);
    end_movements(&mut state);
    assert!(!is_over(&state));
    assert_eq!(state.round, 2);
}

// R2. "Each player now chooses 3 of the 8 Objectives and discards the rest." (l.81) "Long game
// variant: Depending on how long you wish your games to last you can pick a higher number of
// Objectives" (l.235). The text bounds the long game only by the 8 cards a clan is dealt: 3 +
// 5 (a clan may keep every one), where the option stopped at 3 more.
#[test]
fn the_long_game_may_keep_all_eight_objectives_dealt() {
    let options: Options =
        serde_json::from_value(serde_json::json!({"extra_objectives": 5})).unwrap();
    let state = kept(&options, 3, &[Red, Green, Blue], Red);
    assert_eq!(state.keep, 8);
    for clan in &state.clans {
        assert_eq!(clan.kept.len(), 8, "every objective dealt is kept");
    }
    assert!(!matches!(state.phase, Phase::ChoosingObjectives));
    // Nothing beyond the 8 dealt: six more is refused, before any game exists.
    let too_long: Options =
        serde_json::from_value(serde_json::json!({"extra_objectives": 6})).unwrap();
    assert!(Game::new_game(&too_long, 3).is_err());
}
