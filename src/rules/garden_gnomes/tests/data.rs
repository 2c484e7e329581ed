//! The content files parse and match CONTENT.md.

use crate::rules::garden_gnomes::data::{
    CONTENT, Needs, clan_objectives, neighbours, neutral_objectives, parse_content,
};

use super::*;

#[test]
fn the_data_files_parse() {
    let content = parse_content().unwrap();
    assert_eq!(&content, &*CONTENT);
    assert_eq!(content.clans.len(), 6);
    let gnomes: u32 = content.clans.iter().map(|c| u32::from(c.gnomes)).sum();
    // "53 gnome cubes in all"
    assert_eq!(gnomes, 53);
}

// "The Garden Gnome world consists of 16 territories, 6 of which are home to the clans."
#[test]
fn the_map_has_sixteen_territories_six_homes_and_four_statues() {
    assert_eq!(CONTENT.territories.len(), 16);
    let homes = CONTENT
        .territories
        .iter()
        .filter(|t| t.home_of.is_some())
        .count();
    let statues = CONTENT.territories.iter().filter(|t| t.statue).count();
    assert_eq!((homes, statues), (6, 4));
    for colour in Colour::ALL {
        assert!(colour.home().is_some());
    }
    // Each statue touches two statues and three ring territories.
    for s in [TOADSTOOL, FROG, FLAMINGO, GNOME_KING] {
        assert_eq!(neighbours(s).len(), 5);
    }
    // 120 tokens: 30 of each food and 5 gnome tokens per clan.
    assert_eq!(
        3 * u32::from(CONTENT.food_tokens_each) + 6 * u32::from(CONTENT.gnome_tokens_per_clan),
        120
    );
}

// "48 objective cards": 6 clans × 5 and 18 neutral, among them the 6 statue pairs.
#[test]
fn there_are_48_objectives() {
    assert_eq!(CONTENT.objectives.len(), 48);
    for colour in Colour::ALL {
        assert_eq!(clan_objectives(colour).len(), 5);
    }
    assert_eq!(neutral_objectives().len(), 18);
    let mut pairs: Vec<[Territory; 2]> = CONTENT
        .objectives
        .iter()
        .filter_map(|o| match o.needs {
            Needs::Statues(pair) => Some(pair),
            _ => None,
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(pairs.len(), 6);
}
