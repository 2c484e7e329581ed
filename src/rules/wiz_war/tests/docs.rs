//! docs/rules/wiz-war.md lists every card's text and numbers.

use crate::rules::wiz_war::cards::{CARDS, Effect};

const DOC: &str = include_str!("../../../../docs/rules/wiz-war.md");

#[test]
fn the_rules_doc_lists_every_card() {
    for c in CARDS {
        let key = format!("(`{}`", c.key);
        assert!(
            DOC.contains(&key),
            "docs/rules/wiz-war.md does not list {}",
            c.key
        );
        if c.effect != Effect::Later && c.effect != Effect::Energy {
            assert!(
                DOC.contains(c.text),
                "docs/rules/wiz-war.md lacks the text of {}",
                c.key
            );
        }
    }
}
