//! Issue 18: "Give each player 1 Reference Card to keep in front of them." (l.69) Every view
//! carries the text of each character tile, each element set and the token chart, so a player
//! never needs the docs to know what a choice does.

use super::*;
use crate::rules::Viewer;

// "Perform these actions in the order shown." (l.141) The tile's actions, in words, for every
// character; the sets' sizes and rewards and the token chart at every step, not only while a
// set is being built.
#[test]
fn every_view_carries_the_reference_texts() {
    let state = start(3);
    for viewer in [Viewer::Seat(0), Viewer::Spectator] {
        let view = Game::view(&state, viewer);
        let characters = view["characters"].as_array().unwrap();
        assert_eq!(characters.len(), 7);
        assert_eq!(characters[0]["text"], "draw 1 card, play 1 card");
        assert!(
            characters[2]["text"]
                .as_str()
                .unwrap()
                .contains("swap one of your face-up cards or tokens")
        );
        assert!(
            characters[6]["text"]
                .as_str()
                .unwrap()
                .contains("drawing your own gem wins the game")
        );
        let sets = view["sets"].as_array().unwrap();
        assert_eq!(sets.len(), 5);
        assert_eq!(sets[0]["needed"], 3);
        assert_eq!(sets[0]["reward"], "+1 gem into the Bag of Fate");
        assert!(
            view["token_effects"]
                .as_str()
                .unwrap()
                .contains("Level-Up raises your level by 1")
        );
        assert_eq!(view["round"], 1);
    }
}
