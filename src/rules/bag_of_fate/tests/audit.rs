//! The independent audit of 2026-11-28 (shared/audits/2026-11-28/bag-of-fate.md; the answers
//! are in docs/reviews/audit-2026-11-28-bag-of-fate.md): one test per finding fixed, each
//! failing on the code before it.

use super::*;
use crate::rules::Viewer;

fn names() -> Vec<String> {
    ["Ann", "Bob", "Cat"].map(String::from).to_vec()
}

/// Everything `viewer` reads of the table and of its choices, and the picture's text.
fn everything_shown(state: &State, viewer: Viewer) -> String {
    let p = Game::present(state, viewer, &names());
    let mut out = format!("{}\n", p.headline);
    for s in &p.sections {
        out.push_str(&s.lines.join("\n"));
    }
    if let Viewer::Seat(seat) = viewer {
        let actions = Game::legal_actions(state, seat);
        for g in Game::choices(state, seat, &actions, &names()) {
            out.push_str(&format!("\n{}:", g.title));
            for c in &g.choices {
                out.push_str(&format!(" {}.", c.label));
            }
        }
    }
    out.push_str(&Game::picture(state, viewer, &names()).unwrap_or_default());
    out
}

fn offers_no_skip(shown: &str) {
    for words in [
        "skip",
        "whether to trade",
        "may trade",
        "no trade",
        "Don't trade",
    ] {
        assert!(!shown.contains(words), "{words:?} in {shown}");
    }
}

// BF-1. CONTENT.md: the Trader's tile is "draw 1 card, play 1 card, trade 1 face-up card or
// token with another player", and l.121: "After choosing your Character, immediately perform
// the actions shown on the Character Tile": the trade is made (ruling 13), so no text offers
// to skip it, neither to the Trader nor to the others.
#[test]
fn no_text_offers_to_skip_the_trade() {
    let mut state = start(3);
    keep_tokens(&mut state, 1, &[Potions]);
    lay_out(&mut state, 2, &[card(Mushrooms, 2)]);
    choose(&mut state, 0, Character::Trader);
    draw_card(&mut state, card(Crystals, 3));
    play(&mut state, 0, 3);
    assert!(matches!(state.phase, Phase::Trading { partner: None, .. }));
    let trader = everything_shown(&state, Viewer::Seat(0));
    assert!(trader.contains("choose a player to trade with"), "{trader}");
    offers_no_skip(&trader);
    let other = everything_shown(&state, Viewer::Seat(1));
    assert!(
        other.contains("is choosing a player to trade with"),
        "{other}"
    );
    offers_no_skip(&other);
    // The Trader may start the trade over, with a partner: never "no trade".
    decide(&mut state, 0, Action::TradeWith(1));
    assert!(Game::legal_actions(&state, 0).contains(&Action::CancelTrade));
    offers_no_skip(&everything_shown(&state, Viewer::Seat(0)));
}

// BF-2. The scripted games play the rules new games get (the current edition), so that a rule
// a later edition changes is tested as players meet it; an old edition's rules are tested by
// name (`start_of_edition`).
#[test]
fn the_scripted_games_play_the_current_edition() {
    assert_eq!(start(2).edition, super::super::EDITION);
    assert_eq!(start_in(0, 2).edition, 0);
}
